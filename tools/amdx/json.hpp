// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The JSON of the CLI's views and change reports (the shapes
// Documentation/admin-guide/cli.rst documents), in a library of their own
// (amdx_json: libamdx and nlohmann-json, nothing of the CLI's front end):
// the CLI renders these objects (cli.hpp), the Python module returns them
// (tools/python), one encoder for both, and `import amdx` loads neither
// libsmartcols nor prometheus-cpp for it.
//
//   json_device.cpp     dev list, dev show, dev firmware, the node's GPUs
//   json_partition.cpp  partition show/plan/set, vf show/reset
//   json_ras.cpp        ras show, ras badpages, recover plan/run
//   json_link.cpp       link show
//   json_event.cpp      monitor -j
#ifndef AMDX_CLI_JSON_HPP
#define AMDX_CLI_JSON_HPP

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <amdx/device.hpp>
#include <amdx/event.hpp>

namespace amdx::cli {

/// Member order is part of the output, so objects keep insertion order.
using Json = nlohmann::ordered_json;

// ---- devices (json_device.cpp)

/// One GPU as ROCr (ROCR_VISIBLE_DEVICES) and amd-smi count them: a compute
/// partition.  With a KFD topology, the GPU nodes in node order (ROCr's
/// enumeration; a device without KFD nodes has no index); without one (a
/// simulated node), the devices in `dev list` order and each one's
/// partitions in order, as `partition export --format slurm` lists them.
struct GpuSlot {
    std::uint32_t index = 0;
    std::uint32_t device = 0;
    std::uint32_t partition = 0;
    std::optional<std::uint64_t> unique_id; ///< KFD's, the ROCr UUID's hex digits
};
/// The node's GPUs; the topology under @sysfs/class/kfd/kfd/topology/nodes.
/// Fails with the first failed request (what it was in @what).
[[nodiscard]] Result<std::vector<GpuSlot>> gpu_table(const Control& control,
                                                     const std::vector<DeviceEntry>& entries,
                                                     const std::string& sysfs, std::string& what);
/// "GPU-" and the 16 hex digits of @unique_id, as ROCr names the GPU.
[[nodiscard]] std::string rocr_uuid(std::uint64_t unique_id);

/// One "devices" element of `dev list`.
[[nodiscard]] Json entry_to_json(const DeviceEntry& entry);
/// One "devices" element of `dev show`.
[[nodiscard]] Json info_to_json(const DeviceInfo& info);
/// "driver" of `dev show` and `dev firmware`: amdx's and the provider's
/// versions.
[[nodiscard]] Json driver_to_json(const FirmwareInfo& fw);
/// "firmware" of `dev show` and `dev firmware`: one row per firmware.
[[nodiscard]] Json firmware_to_json(const FirmwareInfo& fw);
/// `dev show`'s object of a device: info_to_json() with its identity,
/// recovery, driver and firmware; @gpus: gpus_to_json() of the node's
/// gpu_table() (null where the caller has no node to count them on).
[[nodiscard]] Json dev_show_json(const DeviceInfo& info, const Device* device, Json gpus);
/// "gpus" of `dev show`: @id's GPUs as ROCR_VISIBLE_DEVICES and amd-smi
/// count them, the `gpu:INDEX` and `GPU-UUID` a DEV may name.
[[nodiscard]] Json gpus_to_json(const std::vector<GpuSlot>& gpus, std::uint32_t id);
/// `dev firmware`'s object of a device whose provider reported @fw.
[[nodiscard]] Json firmware_show_json(const DeviceEntry& e, const FirmwareInfo& fw);

// ---- partitions and VFs (json_partition.cpp)

/// Bit indexes of @mask, ascending ([0, 2] for 0b101).
[[nodiscard]] Json bit_list(std::uint64_t mask);
/// One compute partition: one flat object (one text line).
[[nodiscard]] Json partition_to_json(const PartitionInfo& p);
/// `partition show`: a device's modes, generation and partitions.
[[nodiscard]] Json partitions_to_json(const DeviceEntry& dev, const Partitions& parts);
/// `partition show`'s object of a device, with each partition's pending
/// recovery action.  A failed query is the library's error.
[[nodiscard]] Result<Json> partition_show_json(const Device& d, const DeviceEntry& e);
/// `partition plan` (@commit false) and `partition set`: the report.
[[nodiscard]] Json partition_report_to_json(std::uint32_t device, const Partitions& before,
                                            const PartitionRequest& req,
                                            const PartitionReport& report, bool commit);
/// The devices a change of @before to @req resets: the device's reset
/// scope for a memory-mode change (the whole hive), none otherwise.
[[nodiscard]] Result<std::vector<std::uint32_t>>
partition_resets(const Device& device, const Partitions& before, const PartitionRequest& req);
/// `partition plan`'s (@commit false) and `partition set`'s object:
/// partition_report_to_json() and, for a plan, the devices the change
/// resets (@resets, partition_resets()).
[[nodiscard]] Json partition_change_json(std::uint32_t device, const Partitions& before,
                                         const PartitionRequest& req, const PartitionReport& report,
                                         bool commit, const std::vector<std::uint32_t>& resets);
/// The PCI address of VF @vf of the PF at @pf, from
/// @sysfs/bus/pci/devices/@pf/virtfn@vf; nullopt where there is none (a
/// simulated device).
[[nodiscard]] std::optional<std::string> vf_pci_address(const std::string& sysfs,
                                                        const std::string& pf, std::uint32_t vf);
/// One VF: one flat object; @bdf its PCI address (null if unknown).
[[nodiscard]] Json vf_to_json(const VfInfo& vf, const std::optional<std::string>& bdf = {});
/// `vf show`: a device's VFs, their PCI addresses looked up below @sysfs.
[[nodiscard]] Json vfs_to_json(const DeviceEntry& dev, const Vfs& vfs,
                               const std::string& sysfs = "/sys");
/// `vf show`'s object of a device, with each VF's pending recovery action.
[[nodiscard]] Result<Json> vf_show_json(const Device& d, const DeviceEntry& e,
                                        const std::string& sysfs);
/// `vf reset`'s object: VF @vf of device @device after reset @r.
[[nodiscard]] Json vf_reset_json(std::uint32_t device, std::uint32_t vf, const VfResetResult& r);

// ---- RAS and recovery (json_ras.cpp)

/// `ras show`: counters per block ("n/a": null for unsupported types), RMA
/// flag, retired and pending pages, reset scope.
[[nodiscard]] Json ras_to_json(const DeviceEntry& dev, const RasStatus& status,
                               const ResetScope& scope);
/// `ras show`'s object of a device.
[[nodiscard]] Result<Json> ras_show_json(const Device& device, const DeviceEntry& e);
/// One retired page.
[[nodiscard]] Json badpage_to_json(const BadPage& page);
/// The `recovery` column of dev/partition/vf show: the name of @target's
/// pending action ("none" when nothing is pending), null when the kernel
/// cannot say (a module before uapi 1.1).
[[nodiscard]] Json recovery_json(const Device& device, const RecoveryTarget& target);
/// `recover plan`'s object: @p, the pending (or a named) action of
/// @target on device @device.
[[nodiscard]] Json recovery_plan_json(std::uint32_t device, const RecoveryTarget& target,
                                      const RecoveryPlan& p);
/// A recovery run: its result and the RECOVERY records (its steps) the
/// kernel raised for it.
struct RecoveryRun {
    RecoveryPlan result;
    std::vector<Event> steps;
};
/// Device::recovery_run(), subscribed to the device's RECOVERY records
/// first so that the run's steps are recorded (none if that fails).
[[nodiscard]] Result<RecoveryRun> recovery_run_recorded(const Device& device,
                                                        const RecoveryTarget& target,
                                                        std::optional<RecoveryAction> action,
                                                        RecoveryRunFlags flags);
/// `recover run`'s object: @plan (recovery_plan_json() of the action run)
/// and @run's outcome, result, the action pending after and the steps.
[[nodiscard]] Json recovery_run_json(Json plan, const RecoveryRun& run);

// ---- fabric links (json_link.cpp)

/// One row of `amdx link show`: link @l of hive @hive_id.
[[nodiscard]] Json link_to_json(std::uint64_t hive_id, const LinkInfo& l);
/// `amdx link show`'s document: the links of @found (hive, link) with an
/// end on a device of @selected, or with @every (every device selected)
/// all of them, a scale-up pod's links with no end on this host included;
/// each once; with @matrix (--matrix) one N x N table per hive instead.
[[nodiscard]] Json link_show_json(const std::vector<std::pair<std::uint64_t, LinkInfo>>& found,
                                  const std::set<std::uint32_t>& selected, bool matrix = false,
                                  bool every = false);

// ---- events (json_event.cpp)

/// One event as one flat object: device, seq, timestamp_ns, kind and the
/// kind's fields by name (libamdx's event_fields()).
[[nodiscard]] Json event_to_json(const Event& ev);
[[nodiscard]] Json event_to_json(const TypedEvent& ev);
/// "ok" for 0, else the errno's name ("EIO") of a 0-or-negative-errno value.
[[nodiscard]] std::string errno_result(std::int64_t value);

} // namespace amdx::cli

#endif // AMDX_CLI_JSON_HPP
