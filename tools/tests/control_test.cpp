// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <array>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <utility>

#include <gtest/gtest.h>

#include <amdx/device.hpp>
#include <amdx/version.hpp>

#include "fake_kernel.hpp"

namespace {

using amdx::Control;
using amdx::test::FakeKernel;

Control fake_control() {
    return Control::adopt(amdx::UniqueFd(::open("/dev/null", O_RDWR | O_CLOEXEC)));
}

class ControlTest : public ::testing::Test {
  protected:
    void SetUp() override { ASSERT_TRUE(control.fd().valid()); }

    FakeKernel kernel;
    Control control = fake_control();
};

TEST_F(ControlTest, Caps) {
    kernel.add_device(0);
    kernel.caps.caps |= AMDX_CAP_HMM_MIRROR;
    const auto caps = control.caps();
    ASSERT_TRUE(caps) << caps.error().message();
    EXPECT_EQ(caps->version_major, AMDX_UAPI_VERSION_MAJOR);
    EXPECT_EQ(caps->version_minor, AMDX_UAPI_VERSION_MINOR);
    EXPECT_EQ(caps->num_devices, 1U);
    EXPECT_TRUE(caps->has(AMDX_CAP_DEVICE_QUERY | AMDX_CAP_HMM_MIRROR));
    EXPECT_FALSE(caps->has(AMDX_CAP_HMM_MIGRATE));
    ASSERT_EQ(kernel.calls.size(), 1U);
    EXPECT_EQ(kernel.calls[0].request, static_cast<unsigned long>(AMDX_IOC_QUERY));
    EXPECT_EQ(kernel.calls[0].size, sizeof(amdx_query_caps));
}

TEST_F(ControlTest, DevicesAsksSizeThenFetches) {
    kernel.add_device(0);
    kernel.add_device(3);
    const auto list = control.devices();
    ASSERT_TRUE(list) << list.error().message();
    ASSERT_EQ(list->size(), 2U);
    EXPECT_EQ((*list)[0].id, 0U);
    EXPECT_EQ((*list)[0].bdf, "0000:c1:00.0");
    EXPECT_EQ((*list)[0].model, amdx::Model::mi300x);
    EXPECT_EQ((*list)[1].id, 3U);
    EXPECT_EQ((*list)[1].bdf, "0000:c4:00.0");

    ASSERT_EQ(kernel.calls.size(), 2U);
    EXPECT_EQ(kernel.calls[0].query, static_cast<std::uint32_t>(AMDX_QUERY_DEVICES));
    EXPECT_EQ(kernel.calls[0].size, 0U);
    EXPECT_EQ(kernel.calls[1].size, sizeof(amdx_query_devices) + 2 * sizeof(amdx_device_entry));
}

TEST_F(ControlTest, DevicesStepsByEntrySize) {
    kernel.add_device(0);
    kernel.add_device(3);
    kernel.device_entry_size = sizeof(amdx_device_entry) + 24; // a newer kernel's entries
    const auto list = control.devices();
    ASSERT_TRUE(list) << list.error().message();
    ASSERT_EQ(list->size(), 2U);
    EXPECT_EQ((*list)[1].id, 3U);
    EXPECT_EQ((*list)[1].bdf, "0000:c4:00.0");
    EXPECT_EQ((*list)[1].model, amdx::Model::mi300x);
    ASSERT_EQ(kernel.calls.size(), 2U);
    EXPECT_EQ(kernel.calls[1].size,
              sizeof(amdx_query_devices) + 2 * (sizeof(amdx_device_entry) + 24));
}

TEST_F(ControlTest, DevicesRejectsEntriesSmallerThanV1) {
    kernel.add_device(0);
    kernel.device_entry_size = 32;
    const auto list = control.devices();
    ASSERT_FALSE(list);
    EXPECT_EQ(list.error(), std::errc::protocol_error);
}

TEST_F(ControlTest, DevicesRejectsZeroEntrySizeEvenWhenEmpty) {
    kernel.device_entry_size = 0;
    const auto list = control.devices();
    ASSERT_FALSE(list);
    EXPECT_EQ(list.error(), std::errc::protocol_error);
}

TEST_F(ControlTest, DevicesEmpty) {
    const auto list = control.devices();
    ASSERT_TRUE(list) << list.error().message();
    EXPECT_TRUE(list->empty());
}

TEST_F(ControlTest, DevicesRetriesWhenListGrows) {
    kernel.add_device(0);
    kernel.grow_on_fetch = 2;
    const auto list = control.devices();
    ASSERT_TRUE(list) << list.error().message();
    EXPECT_EQ(list->size(), 3U);
    ASSERT_EQ(kernel.calls.size(), 4U); // ask, ENOSPC, ENOSPC, fetch
    EXPECT_EQ(kernel.calls[3].size, sizeof(amdx_query_devices) + 3 * sizeof(amdx_device_entry));
}

TEST_F(ControlTest, DevicesGivesUpAfterBoundedAttempts) {
    kernel.add_device(0);
    kernel.grow_on_fetch = 1000;
    const auto list = control.devices();
    ASSERT_FALSE(list);
    EXPECT_EQ(list.error(), std::errc::resource_unavailable_try_again);
    EXPECT_EQ(kernel.calls.size(), 1U + amdx::kMaxListAttempts);
}

TEST_F(ControlTest, DevicesRetriesEintrTransparently) {
    kernel.add_device(0);
    kernel.eintr = 2;
    const auto list = control.devices();
    ASSERT_TRUE(list) << list.error().message();
    EXPECT_EQ(list->size(), 1U);
    EXPECT_EQ(kernel.calls.size(), 4U);
}

TEST_F(ControlTest, DevicesRejectsTooSmallSize) {
    kernel.forced_list_size = 4; // smaller than the header
    const auto list = control.devices();
    ASSERT_FALSE(list);
    EXPECT_EQ(list.error(), std::errc::protocol_error);
}

TEST_F(ControlTest, DevicesRejectsCountBeyondAnswer) {
    kernel.add_device(0);
    kernel.add_device(1);
    // The kernel claims 2 entries but a size with room for one.
    kernel.forced_list_size = sizeof(amdx_query_devices) + sizeof(amdx_device_entry);
    const auto list = control.devices();
    ASSERT_FALSE(list);
    EXPECT_EQ(list.error(), std::errc::protocol_error);
}

TEST_F(ControlTest, DevicesPropagatesErrno) {
    kernel.fail_query = AMDX_QUERY_DEVICES;
    kernel.fail_errno = ENOTTY;
    const auto list = control.devices();
    ASSERT_FALSE(list);
    EXPECT_EQ(list.error(), std::errc::inappropriate_io_control_operation);
}

TEST_F(ControlTest, CapsOfANewerKernelAreTruncatedToOurs) {
    kernel.caps_len = sizeof(amdx_query_caps) + 16;
    kernel.caps.caps |= AMDX_CAP_HMM_MIGRATE;
    const auto caps = control.caps();
    ASSERT_TRUE(caps) << caps.error().message();
    EXPECT_TRUE(caps->has_hmm_migrate());
    EXPECT_EQ(kernel.calls.back().size, sizeof(amdx_query_caps));
}

TEST_F(ControlTest, CapsShorterThanV1AreMalformed) {
    kernel.caps_len = 40;
    const auto caps = control.caps();
    ASSERT_FALSE(caps);
    EXPECT_EQ(caps.error(), std::errc::protocol_error);
}

TEST_F(ControlTest, DeviceInfoOfANewerKernelIsTruncatedToOurs) {
    kernel.add_device(0);
    kernel.info_len = sizeof(amdx_device_info) + 64;
    const auto info = control.device_info(0);
    ASSERT_TRUE(info) << info.error().message();
    EXPECT_EQ(info->serial, "SN1000");
    EXPECT_TRUE(info->hmm);
    EXPECT_EQ(kernel.calls.back().size, sizeof(amdx_device_info));
}

TEST_F(ControlTest, DeviceInfoShorterThanV1IsMalformed) {
    kernel.add_device(0);
    kernel.info_len = 200;
    const auto info = control.device_info(0);
    ASSERT_FALSE(info);
    EXPECT_EQ(info.error(), std::errc::protocol_error);
}

// The fake follows the uapi's fixed-size rules, so the tests above mean
// something: size 0 asks, a buffer below the first version is -ENOSPC with
// the size, a buffer between that and the full size is filled truncated.
TEST_F(ControlTest, FakeKernelFixedSizeProtocol) {
    kernel.caps_len = sizeof(amdx_query_caps) + 8;
    std::array<unsigned char, sizeof(amdx_query_caps) + 8> buf{};
    auto ask = [&](std::uint32_t size) {
        amdx_query q{};
        q.query = AMDX_QUERY_CAPS;
        q.size = size;
        q.data = reinterpret_cast<std::uintptr_t>(buf.data());
        const int ret = amdx::detail::sys_ioctl(control.fd().get(), AMDX_IOC_QUERY, &q);
        return std::pair{ret < 0 ? errno : 0, q.size};
    };
    EXPECT_EQ(ask(0), (std::pair{0, std::uint32_t{sizeof(amdx_query_caps) + 8}}));
    EXPECT_EQ(ask(55), (std::pair{ENOSPC, std::uint32_t{sizeof(amdx_query_caps) + 8}}));
    EXPECT_EQ(ask(56), (std::pair{0, std::uint32_t{56}}));
    EXPECT_EQ(ask(sizeof(buf) + 8), (std::pair{0, std::uint32_t{sizeof(buf)}}));
}

TEST_F(ControlTest, DeviceInfoDecodes) {
    kernel.add_device(0);
    auto& raw = kernel.devices[0];
    raw.hive_id = 0x1234;
    raw.num_vfs = 2;
    raw.compute_mode = AMDX_COMPUTE_CPX;
    raw.memory_mode = AMDX_MEMORY_NPS4;
    raw.num_mem_partitions = 2;
    raw.mem_partitions[1] = {.base = 1ULL << 30, .size = 2ULL << 30, .free = 1ULL << 20};
    raw.supported_compute_modes |= 1U << 31; // a mode from a newer kernel
    raw.supported_compute_modes |= 1U;       // "unknown" is never a supported mode

    const auto info = control.device_info(0);
    ASSERT_TRUE(info) << info.error().message();
    EXPECT_EQ(info->id, 0U);
    EXPECT_EQ(info->model, amdx::Model::mi300x);
    EXPECT_EQ(info->bdf, "0000:c1:00.0");
    EXPECT_EQ(info->serial, "SN1000");
    EXPECT_EQ(info->product, "AMD Instinct MI300X");
    EXPECT_EQ(info->hive_id, 0x1234U);
    EXPECT_EQ(info->vram_size, 192ULL << 30);
    EXPECT_EQ(info->vram_free, 190ULL << 30);
    EXPECT_EQ(info->num_xcc, 8U);
    EXPECT_EQ(info->num_sdma, 16U);
    EXPECT_EQ(info->num_vcn, 4U);
    EXPECT_EQ(info->compute_mode, amdx::ComputeMode::cpx);
    EXPECT_EQ(info->memory_mode, amdx::MemoryMode::nps4);
    using CM = amdx::ComputeMode;
    EXPECT_EQ(info->supported_compute_modes,
              (std::vector<CM>{CM::spx, CM::dpx, CM::qpx, CM::cpx, static_cast<CM>(31)}));
    using MM = amdx::MemoryMode;
    EXPECT_EQ(info->supported_memory_modes, (std::vector<MM>{MM::nps1, MM::nps2, MM::nps4}));
    ASSERT_EQ(info->memory_partitions.size(), 2U);
    EXPECT_EQ(info->memory_partitions[1],
              (amdx::MemPartition{
                  .index = 1, .base = 1ULL << 30, .size = 2ULL << 30, .free = 1ULL << 20}));
    EXPECT_EQ(info->num_vfs, 2U);
    EXPECT_EQ(info->max_vfs, 8U);
    EXPECT_TRUE(info->hmm);
    EXPECT_EQ(kernel.calls.back().id, 0U);
    EXPECT_EQ(kernel.calls.back().size, sizeof(amdx_device_info));
}

TEST(DeviceInfo, DecodeClampsAndStopsAtNul) {
    amdx_device_info raw{};
    std::memset(raw.serial, 'x', sizeof(raw.serial)); // no NUL at all
    std::memcpy(raw.product, "ab\0cd", 5);
    raw.num_mem_partitions = 1000;
    const auto info = amdx::DeviceInfo::from_uapi(raw);
    EXPECT_EQ(info.serial, std::string(sizeof(raw.serial), 'x'));
    EXPECT_EQ(info.product, "ab");
    EXPECT_EQ(info.memory_partitions.size(), static_cast<std::size_t>(AMDX_MAX_MEM_PARTITIONS));
    EXPECT_FALSE(info.hmm);
    EXPECT_TRUE(info.supported_compute_modes.empty());
}

TEST_F(ControlTest, DeviceInfoUnknownId) {
    kernel.add_device(0);
    const auto info = control.device_info(5);
    ASSERT_FALSE(info);
    EXPECT_EQ(info.error(), std::errc::no_such_device);
    EXPECT_EQ(kernel.calls.back().id, 5U);
}

TEST_F(ControlTest, DeviceOpenAndInfoOnDeviceFd) {
    kernel.add_device(0);
    kernel.add_device(1);
    auto dev = amdx::Device::open(control, 1);
    ASSERT_TRUE(dev) << dev.error().message();
    EXPECT_EQ(dev->id(), 1U);
    EXPECT_TRUE(dev->fd().valid());
    EXPECT_NE(dev->fd().get(), control.fd().get());
    EXPECT_NE(::fcntl(dev->fd().get(), F_GETFD), -1);

    const auto info = dev->info();
    ASSERT_TRUE(info) << info.error().message();
    EXPECT_EQ(info->id, 1U);
    EXPECT_EQ(info->bdf, "0000:c2:00.0");
    EXPECT_EQ(kernel.calls.back().id, 0U); // the fd names the device
    EXPECT_EQ(kernel.calls.back().fd, dev->fd().get());
}

TEST_F(ControlTest, DeviceOpenUnknownId) {
    const auto dev = amdx::Device::open(control, 9);
    ASSERT_FALSE(dev);
    EXPECT_EQ(dev.error(), std::errc::no_such_device);
}

TEST(Control, OpenMissingNodeIsEnoent) {
    const auto control = Control::open("/nonexistent/amdx");
    ASSERT_FALSE(control);
    EXPECT_EQ(control.error(), std::errc::no_such_file_or_directory);
}

TEST(Control, OpenSetsCloexec) {
    const FakeKernel kernel;
    const auto control = Control::open("/dev/null");
    ASSERT_TRUE(control) << control.error().message();
    EXPECT_EQ(::fcntl(control->fd().get(), F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
}

TEST(Control, OpenRefusesAnotherUapiMajor) {
    FakeKernel kernel;
    kernel.caps.version_major = AMDX_UAPI_VERSION_MAJOR + 1;
    kernel.caps.version_minor = 7;
    const auto control = Control::open("/dev/null");
    ASSERT_FALSE(control);
    EXPECT_EQ(control.error(), std::errc::protocol_not_supported);
    EXPECT_EQ(control.context().call, "AMDX_QUERY_CAPS");
    EXPECT_EQ(control.context().detail,
              "kernel amdx uapi " + std::to_string(AMDX_UAPI_VERSION_MAJOR + 1) +
                  ".7 is not supported (amdx speaks " + std::to_string(AMDX_UAPI_VERSION_MAJOR) +
                  ".x; install the matching amdx tools)");
}

TEST(Control, OpenAcceptsANewerMinor) {
    FakeKernel kernel;
    kernel.caps.version_minor = AMDX_UAPI_VERSION_MINOR + 5;
    EXPECT_TRUE(Control::open("/dev/null"));
}

TEST(Control, OpenOfANonAmdxNodeNamesTheQuery) {
    FakeKernel kernel;
    kernel.fail_query = AMDX_QUERY_CAPS;
    kernel.fail_errno = ENOTTY;
    const auto control = Control::open("/dev/null");
    ASSERT_FALSE(control);
    EXPECT_EQ(control.context().call, "AMDX_QUERY_CAPS");
    EXPECT_EQ(control.context().message(),
              "AMDX_QUERY_CAPS: not an amdx node, or a call this kernel module does not know "
              "(ENOTTY: Inappropriate ioctl for device)");
}

TEST(Control, MissingNodeSaysModuleNotLoaded) {
    const auto control = Control::open("/nonexistent/amdx");
    ASSERT_FALSE(control);
    EXPECT_EQ(control.context().message(),
              "open: module not loaded (modprobe amdx) (ENOENT: No such file or directory)");
}

TEST_F(ControlTest, ErrorsNameTheCallAndTheDevice) {
    kernel.add_device(0);
    const auto missing = control.device_info(7);
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.context().call, "AMDX_QUERY_DEVICE_INFO");
    EXPECT_EQ(missing.context().device, 7U);

    auto device = amdx::Device::open(control, 0);
    ASSERT_TRUE(device);
    kernel.fail_ioctl[AMDX_IOC_VF_RESET] = EBUSY;
    const auto reset = device->vf_reset(0);
    ASSERT_FALSE(reset);
    EXPECT_EQ(reset.context().message(), "AMDX_IOC_VF_RESET on device 0: busy, try again later "
                                         "(EBUSY: Device or resource busy)");
    kernel.fail_query = AMDX_QUERY_PARTITIONS;
    kernel.fail_errno = EPERM;
    const auto parts = device->partitions();
    ASSERT_FALSE(parts);
    EXPECT_EQ(parts.context().call, "AMDX_QUERY_PARTITIONS");
    EXPECT_EQ(parts.context().device, 0U);
}

TEST(Version, RuntimeMatchesTheHeaders) {
    const auto v = amdx::version();
    EXPECT_EQ(v, amdx::kHeaderVersion);
    EXPECT_EQ(v.major, static_cast<std::uint32_t>(AMDX_LIB_VERSION_MAJOR));
    EXPECT_EQ(v.text, std::to_string(v.major) + "." + std::to_string(v.minor) + "." +
                          std::to_string(v.patch));
}

} // namespace

namespace {

// ---- AMDX_QUERY_FIRMWARE (uapi minor 4)

TEST_F(ControlTest, FirmwareDecodesDriverProviderAndEntriesByEntrySize) {
    kernel.add_device(0);
    kernel.firmware_entry_size = sizeof(amdx_firmware_info) + 8; // a newer kernel's entries
    const auto dev = amdx::Device::open(control, 0);
    ASSERT_TRUE(dev);
    const auto fw = dev->firmware();
    ASSERT_TRUE(fw) << fw.error().message();
    EXPECT_EQ(fw->driver_version, "0.1.0");
    EXPECT_EQ(fw->provider, "amdx_sim");
    EXPECT_EQ(fw->provider_version, "0.1.0");
    ASSERT_EQ(fw->firmware.size(), 4U);
    EXPECT_EQ(fw->firmware[0], (amdx::Firmware{amdx::FirmwareId::smu, 0, 0x00557100, 0}));
    EXPECT_EQ(fw->firmware[3], (amdx::Firmware{amdx::FirmwareId::sdma, 1, 0x15, 60}));
    EXPECT_EQ(amdx::to_string(fw->firmware[1].id), "psp_sos");
    EXPECT_EQ(amdx::to_string(static_cast<amdx::FirmwareId>(AMDX_FW_COUNT)), "unknown");
    EXPECT_EQ(amdx::to_string(static_cast<amdx::FirmwareId>(0)), "unknown");
}

TEST_F(ControlTest, FirmwareErrorsAreTheKernels) {
    kernel.add_device(0);
    const auto dev = amdx::Device::open(control, 0);
    ASSERT_TRUE(dev);
    kernel.firmware.reset(); // a provider that reads no versions
    EXPECT_EQ(dev->firmware().error(), std::errc::operation_not_supported);
    EXPECT_EQ(dev->firmware().context().call, "AMDX_QUERY_FIRMWARE");
    kernel.firmware = FakeKernel::make_firmware();
    kernel.caps.version_minor = 3; // a module before the query
    EXPECT_EQ(dev->firmware().error(), std::errc::invalid_argument);
    kernel.caps.version_minor = AMDX_UAPI_VERSION_MINOR;
    kernel.firmware_entry_size = AMDX_FIRMWARE_INFO_SIZE_VER0 - 4; // malformed
    EXPECT_EQ(dev->firmware().error(), std::errc::protocol_error);
}

} // namespace
