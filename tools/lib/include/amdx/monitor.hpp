// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// DeviceMonitor: follows the event logs of a set of devices (every device,
// present and future, by default) through one object, as libcamera's
// CameraManager or sd-device's monitor do: it subscribes to each device,
// looks for new ones every rescan period, polls all event fds at once, and
// says through its added/removed callbacks which devices came and went.
// `amdx monitor`, the exporter and amdx-eventd are its users.
//
//   DeviceMonitor                    amdx.ko
//   add(entry)            -->        DEVICE_OPEN, EVENT_SUBSCRIBE
//   poll(timeout)         -->        poll(all event fds, <= next rescan)
//                         <--        read() batches, per device
//   every rescan period   -->        QUERY_DEVICES: add() the ids not seen
//   a device went away    <--        ENODEV / end of file: removed
#ifndef AMDX_MONITOR_HPP
#define AMDX_MONITOR_HPP

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include <amdx/device.hpp>
#include <amdx/event.hpp>
#include <amdx/export.hpp>
#include <amdx/result.hpp>

namespace amdx {

/// Not thread-safe: one thread owns a monitor (its callbacks run in that
/// thread, inside add(), rescan() and poll()).
class AMDX_EXPORT DeviceMonitor {
  public:
    struct Options {
        std::uint64_t mask = kEventMaskAll; ///< the kinds to subscribe to
        std::uint32_t ring_size = 0;        ///< records per ring, 0: the kernel's default
        /// Rescan (from poll()) and follow devices created later.
        bool follow_new = true;
        /// Follow a new device under the id of one that went away (ids are
        /// reused); false: an id that went away is never followed again.
        bool follow_reused_ids = true;
        std::chrono::milliseconds rescan_period{1000};
        std::size_t batch = 64; ///< records read from one device per poll() at the most
    };

    /// One followed device.
    struct Followed {
        DeviceEntry entry;
        Device device;
        EventStream stream;
    };
    using AddedFn = std::function<void(const Followed&)>;
    using RemovedFn = std::function<void(const DeviceEntry&)>;

    /// Follows no device yet: add() the ones wanted, or rescan() for all.
    explicit DeviceMonitor(Control control, Options opts) noexcept
        : control_(std::move(control)), opts_(opts) {}
    explicit DeviceMonitor(Control control) noexcept : DeviceMonitor(std::move(control), {}) {}

    /// Called with each device add() or a rescan starts following.
    void on_added(AddedFn fn) { added_ = std::move(fn); }
    /// Called with each device that went away (and is no longer followed).
    void on_removed(RemovedFn fn) { removed_ = std::move(fn); }

    [[nodiscard]] const Control& control() const noexcept { return control_; }
    [[nodiscard]] const std::vector<Followed>& followed() const noexcept { return followed_; }

    /// Opens and subscribes to @entry (nothing if it is followed already).
    /// Fails with the call's context: AMDX_IOC_DEVICE_OPEN or
    /// AMDX_IOC_EVENT_SUBSCRIBE (ENODEV: the device is gone).
    [[nodiscard]] Result<void> add(const DeviceEntry& entry);
    /// Stops following device @id (on_removed() if it was followed), as if
    /// it went away: for a caller that gives up on a device whose reads
    /// fail.
    void remove(std::uint32_t id);
    /// Follows every listed device not followed yet; devices that go away
    /// meanwhile are skipped.  Fails with the device list's error, or with
    /// the first add() that failed otherwise (the others are followed).
    [[nodiscard]] Result<void> rescan();

    /// Waits up to @timeout_ms (negative: no limit) for records, rescanning
    /// every rescan period when following new devices, and appends what the
    /// ready devices hold to @out, at most @max (0: no limit besides the
    /// batch per device).  Returns the number appended, 0 when the time ran
    /// out or only a rescan was due.  A device that went away is dropped
    /// (on_removed()).  Fails with the context of a failed poll, read (call
    /// "read", the device's id) or rescan; the records read before the
    /// failure stay in @out.  EINTR returns 0.
    [[nodiscard]] Result<std::size_t> poll(int timeout_ms, std::vector<Event>& out,
                                           std::size_t max = 0);
    /// poll(), decoded.
    [[nodiscard]] Result<std::size_t> poll(int timeout_ms, std::vector<TypedEvent>& out,
                                           std::size_t max = 0);

  private:
    using Clock = std::chrono::steady_clock;

    Control control_;
    Options opts_;
    std::vector<Followed> followed_;
    std::vector<std::uint32_t> gone_; ///< ids that went away (!follow_reused_ids)
    Clock::time_point next_scan_ = Clock::now();
    AddedFn added_;
    RemovedFn removed_;
};

} // namespace amdx

#endif // AMDX_MONITOR_HPP
