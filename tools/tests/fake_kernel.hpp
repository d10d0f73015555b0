// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// A fake amdx kernel for host tests, installed through libamdx's ioctl seam
// (amdx::detail::sys_ioctl) for the lifetime of a FakeKernel.  It follows
// uapi/linux/amdx.h: the two-call size protocol with -ENOSPC, -EINVAL for
// non-zero flags/reserved, -ENOTTY for unknown commands, -ENODEV for
// unknown ids, and device fds (real fds on /dev/zero, while control fds
// are anything else, e.g. /dev/null) from DEVICE_OPEN.  Fixed-size results
// are truncated to a buffer that holds their first version; lists carry
// entry_size.
//
// HMM (with AMDX_CAP_HMM_MIGRATE in caps, else -EOPNOTSUPP): argument
// checks as the uapi states them, and a deliberately small model: SET_ATTR
// on exactly an existing range changes it, anything else adds a range (no
// splitting or merging); MIGRATE counts resident pages per range; ACCESS
// reads and writes this process's memory directly.
//
// Partitions, VFs, RAS and events (fake_partition.cpp, fake_ras.cpp): a
// small model per device, created from its amdx_device_info on first use:
// commits rebuild the partitions evenly, VFs are provisioned round robin,
// injections count and retire umc pages, and subscriptions are pipes the
// fake writes struct amdx_event records into (emit()).  Knobs make each
// call refuse, fail a step or report holders.
//
// Recovery (fake_recovery.cpp): RECOVERY_PLAN and RECOVERY_RUN with the
// kernel's argument checks and errnos (-EINVAL, -ENOENT with nothing
// pending, -EOPNOTSUPP for node, rma or a reset the device lacks, -EXDEV
// for other devices without F_OTHERS, -EBUSY for holders without F_STOP),
// over a small model of amdx_recovery_scope(): process, queue and pipe
// stop the holders of the target's memory, partition and vf reset their
// partitions and VFs, device and hive a device and its hive (the hive
// drains as peers otherwise), node and rma every device.  A run stops the
// holders (they leave rec_holders), records RECOVERY events and, around a
// partition, device or hive reset, the reset's own records as the kernel
// does (ACTION_START, PARTITION_QUARANTINED and _RESTORED or _OFFLINE, or
// DEVICE_RESET_BEGIN and _END, ACTION_END), and clears, escalates or
// fails by the knobs.
#ifndef AMDX_TESTS_FAKE_KERNEL_HPP
#define AMDX_TESTS_FAKE_KERNEL_HPP

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

#include <linux/amdx.h>

#include "sys.hpp"

namespace amdx::test {

class FakeKernel {
  public:
    struct Call {
        unsigned long request;
        std::uint32_t query; // AMDX_IOC_QUERY only
        std::uint32_t size;  // in
        std::uint32_t id;
        int fd;
    };

    FakeKernel();
    ~FakeKernel();
    FakeKernel(const FakeKernel&) = delete;
    FakeKernel& operator=(const FakeKernel&) = delete;
    FakeKernel(FakeKernel&&) = delete;
    FakeKernel& operator=(FakeKernel&&) = delete;

    /// A plausible MI300X in SPX/NPS1 with id @id.
    static amdx_device_info make_device(std::uint32_t id);
    void add_device(std::uint32_t id) { devices.push_back(make_device(id)); }

    amdx_query_caps caps{};
    std::vector<amdx_device_info> devices;
    std::vector<Call> calls;

    int eintr = 0;                                 ///< fail this many next calls with EINTR
    unsigned grow_on_fetch = 0;                    ///< add a device before this many list fetches
    unsigned appear_on_fetch = 0;                  ///< the Nth list fetch adds a device, 0 never
    std::optional<std::uint32_t> fail_query;       ///< fail this AMDX_QUERY_* ...
    int fail_errno = 0;                            ///< ... with this errno
    std::optional<std::uint32_t> forced_list_size; ///< lie about the list size

    /// Size of a device list entry as the fake writes it (bytes beyond the
    /// real entry are 0xa5 junk a newer kernel might send).
    std::uint32_t device_entry_size = sizeof(amdx_device_entry);
    /// Length of the caps and device info results as the fake kernel knows
    /// them (bytes beyond the real struct are 0xa5, a newer kernel's fields).
    std::optional<std::uint32_t> caps_len;
    std::optional<std::uint32_t> info_len;

    /// The HMM state of one device fd.
    struct Hmm {
        std::vector<amdx_hmm_range_info> ranges; ///< sorted by start
        amdx_hmm_stats total{};
    };
    std::vector<amdx_hmm_attr> hmm_attrs;               ///< SET_ATTR arguments as received
    std::vector<amdx_hmm_migrate> hmm_migrates;         ///< MIGRATE arguments as received
    std::vector<amdx_hmm_access> hmm_accesses;          ///< ACCESS arguments as received
    bool hmm_foreign = false;                           ///< HMM calls come from another mm: -EBADF
    std::optional<amdx_hmm_migrate> hmm_migrate_result; ///< report its outputs instead
    bool hmm_corrupt_on_migrate = false;                ///< flip a byte when migrating to VRAM
    std::uint32_t hmm_entry_size = sizeof(amdx_hmm_range_info);
    unsigned hmm_grow_on_fetch = 0;      ///< add a range before this many range fetches
    std::uint64_t hmm_access_faults = 0; ///< ACCESS reports this many faults
    pid_t hmm_pid = 0;                   ///< reported pid, 0: getpid()

    /// The HMM state of device fd @fd (created on first use).
    Hmm& hmm(int fd) { return hmm_[fd]; }

    /// Fail every call of this ioctl request with that errno.
    std::map<unsigned long, int> fail_ioctl;

    /// One target's pending action (struct amdx_recovery_slot).
    struct RecoverySlot {
        std::uint32_t action = AMDX_RECOVER_NONE;
        std::uint32_t fault = 0;
        std::uint32_t state = AMDX_RECOVERY_STATE_NONE;
        std::uint64_t seq = 0;
        std::uint64_t time_ns = 0;
    };

    /// Partition, VF and RAS state of one device.
    struct State {
        std::uint64_t generation = 1;
        std::vector<amdx_partition_info> partitions;
        std::vector<amdx_vf_info> vfs;
        std::uint32_t ras_flags = 0;
        std::uint32_t pending_pages = 0;
        std::vector<amdx_ras_counters> ras; ///< per block: total, then per partition
        amdx_ras_policy policy{};
        std::vector<amdx_badpage_record> badpages;
        amdx_reset_scope scope{};
        std::uint64_t seq = 0; ///< last event sequence number
        /// AMDX_QUERY_STATS: the fake counts MIGRATE calls, commits by
        /// outcome, VF resets and emitted records; tests set the rest.
        amdx_device_stats stats{};
        /// Pending recovery actions by (partition, vf): the device's is
        /// (AMDX_RAS_PARTITION_ALL, AMDX_VF_NONE).
        std::map<std::pair<std::uint32_t, std::uint32_t>, RecoverySlot> recovery;
    };
    /// The state of device @id (created from its info on first use).
    State& state(std::uint32_t id);

    // Partition knobs and records.
    std::vector<amdx_partition_config> part_requests; ///< PLAN/COMMIT arguments as received
    std::vector<amdx_partition_holder> part_holders;  ///< holders: EBUSY without drain
    std::optional<std::uint32_t> part_refuse;         ///< refuse with -EINVAL, this reason
    std::optional<std::uint32_t> part_fail_step;      ///< COMMIT: this step fails ...
    int part_fail_errno = EIO;                        ///< ... with this errno
    bool part_drain_timeout = false;                  ///< the drain misses its deadline
    std::uint32_t part_entry_size = sizeof(amdx_partition_info);

    // VF knobs and records.
    std::vector<amdx_vf_enable> vf_enables; ///< VF_ENABLE arguments as received
    std::vector<amdx_vf_config> vf_configs; ///< custom configs of the last VF_ENABLE
    std::vector<amdx_vf_set> vf_sets;       ///< VF_SET arguments as received
    bool vf_ack_timeout = false;            ///< VF resets see no guest ack

    // RAS knobs and records.
    std::vector<amdx_ras_inject> ras_injects;            ///< as received
    std::vector<amdx_ras_policy> ras_policies;           ///< SET_POLICY arguments
    std::optional<std::vector<std::byte>> badpage_bytes; ///< export these instead
    std::vector<std::vector<std::byte>> badpage_imports; ///< tables as received
    /// The consumer an injected gfx or sdma UE (and every ERROR record of
    /// the backlog) names (amdx_event_v1's pid and pasid), as amdx_sim
    /// names the injector.
    std::uint32_t ras_consumer_pid = 0;
    std::uint32_t ras_consumer_pasid = 0;
    /// The driver's RAS event ids handed out (amdx_event_v2's
    /// driver_event): an injected UE or DE gets the next, from 1, as
    /// amdx_sim gives them; a CE none.  ERROR records of the backlog carry
    /// the last one.
    std::uint64_t ras_driver_events = 0;
    /// The last one's type (amdx_event_v3's driver_event_type), as amdx_sim
    /// types them: a DE a poison creation, a consumed UE a poison
    /// consumption, another UE fatal.
    std::uint32_t ras_driver_event_type = AMDX_DRIVER_EVENT_NONE;

    // Fabric links (AMDX_QUERY_LINKS): a device fd lists the links whose
    // first end is in its hive, as the kernel lists the hive's, and those
    // with no end a device (a pod's remote accelerators); none and hive_id
    // 0 outside a hive.
    std::vector<amdx_link_info> links;
    std::uint32_t link_entry_size = sizeof(amdx_link_info);

    // AMDX_QUERY_FIRMWARE: the answer of every device (num_firmware and
    // entry_size filled in by the fake); none: -EOPNOTSUPP, as a provider
    // without versions.  make_firmware() is the simulator's defaults.
    struct Firmware {
        std::string driver_version;
        std::string provider;
        std::string provider_version;
        std::vector<amdx_firmware_info> entries;
    };
    std::optional<Firmware> firmware = make_firmware();
    std::uint32_t firmware_entry_size = sizeof(amdx_firmware_info);
    static Firmware make_firmware();

    // Recovery knobs and records.
    /// Processes holding VRAM (device, memory partition): those an action
    /// over that memory stops.  A run removes the ones it stopped.
    std::vector<amdx_recovery_process> rec_holders;
    std::vector<amdx_recovery> rec_requests;         ///< PLAN/RUN arguments as received
    std::vector<std::uint32_t> rec_stopped;          ///< pids RUN stopped, in order
    std::map<std::uint32_t, std::uint32_t> rec_caps; ///< per device, bit N: action N; all if absent
    int rec_fail_errno = 0;      ///< RUN: the action fails midway with this errno
    int rec_self_test_errno = 0; ///< RUN: the self-test fails with this errno
    /// A fault sets the pending action @action of device @id's target
    /// (@partition or AMDX_RAS_PARTITION_ALL, @vf or AMDX_VF_NONE), as the
    /// kernel's intake does: a RECOVERY(PENDING) record, whose seq the slot
    /// keeps.  Returns that seq.
    std::uint64_t recovery_fault(std::uint32_t id, std::uint32_t partition, std::uint32_t vf,
                                 std::uint32_t action, std::uint32_t fault);
    /// The pending action of device @id's target.
    RecoverySlot& recovery_slot(std::uint32_t id, std::uint32_t partition, std::uint32_t vf);

    // Events.
    struct Subscriber {
        std::uint32_t device;
        std::uint64_t mask;
        std::uint32_t ring_size;
        int write_fd;            ///< the fake's end of the pipe
        std::uint32_t flags = 0; ///< AMDX_EVENT_F_*: SIZE_VER1/2/3 read amdx_event_v1/v2/v3 records
    };
    std::vector<Subscriber> subscribers;
    /// Records sent to each new subscriber of a device right after it
    /// subscribed (through emit()), as if they happened then.
    std::map<std::uint32_t, std::vector<amdx_event>> backlog;
    /// After the backlog, hang up (the device goes away).
    bool hang_up_after_backlog = false;
    /// Sends @ev to the subscribers of device @id whose mask has its kind
    /// (LOST always): fills in device, size, a timestamp and, if @ev.seq is
    /// 0, the device's next sequence number.  Returns the seq used.
    /// Subscribers with AMDX_EVENT_F_SIZE_VER1 read struct amdx_event_v1
    /// records carrying @pid and @pasid, with AMDX_EVENT_F_SIZE_VER2 struct
    /// amdx_event_v2 records carrying @driver_event too, with
    /// AMDX_EVENT_F_SIZE_VER3 struct amdx_event_v3 records carrying
    /// @driver_event_type as well (a module before uapi minor 3,
    /// caps.version_minor < 3, refuses the first flag with -EINVAL, one
    /// before minor 9 the second, one before minor 10 the third).
    std::uint64_t emit(std::uint32_t id, amdx_event ev, std::uint32_t pid = 0,
                       std::uint32_t pasid = 0, std::uint64_t driver_event = 0,
                       std::uint32_t driver_event_type = AMDX_DRIVER_EVENT_NONE);
    /// Closes the fake's end of device @id's subscriptions: readers see
    /// end of file, as when the device goes away.
    void hang_up(std::uint32_t id);

    [[nodiscard]] std::size_t device_fds() const { return device_fds_.size(); }

  private:
    static int dispatch(int fd, unsigned long request, void* arg);
    int handle(int fd, unsigned long request, void* arg);
    int query(int fd, amdx_query& q);
    int hmm_check(int fd) const;
    int hmm_set_attr(int fd, amdx_hmm_attr& a);
    int hmm_migrate(int fd, amdx_hmm_migrate& m);
    int hmm_access(int fd, amdx_hmm_access& a);
    int hmm_query(int fd, amdx_query& q);
    [[nodiscard]] bool valid_loc(int fd, std::uint32_t loc) const;
    int part_query(std::uint32_t id, amdx_query& q);
    int part_config(std::uint32_t id, amdx_partition_config& c, bool commit);
    int vf_enable(std::uint32_t id, amdx_vf_enable& e);
    int vf_disable(std::uint32_t id, const amdx_vf_disable& d);
    int vf_set(std::uint32_t id, const amdx_vf_set& s);
    int vf_reset(std::uint32_t id, amdx_vf_reset& r);
    int ras_query(std::uint32_t id, amdx_query& q);
    int ras_inject(std::uint32_t id, amdx_ras_inject& r);
    int ras_set_policy(std::uint32_t id, const amdx_ras_policy& p);
    int ras_import(std::uint32_t id, amdx_ras_badpages_import& imp);
    int subscribe(std::uint32_t id, amdx_event_subscribe& s);
    int recovery(std::uint32_t id, amdx_recovery& r, bool run);
    /// Partition, VF, RAS and event ioctls and queries; -1 with ENOTTY if
    /// @request is none of them.
    int handle_control(int fd, unsigned long request, void* arg);
    const amdx_device_info* find(std::uint32_t id) const;

    [[nodiscard]] bool is_device_fd(int fd) const;

    detail::IoctlFn saved_;
    std::map<int, std::uint32_t> device_fds_; ///< fds on /dev/zero
    std::map<int, Hmm> hmm_;
    std::map<std::uint32_t, State> state_;
};

/// Helpers shared by the fake's files.
namespace fake {
int fail(int err);
void* user_ptr(__u64 data);
/// A list result of @header and @entries of @entry_size bytes (0xa5 beyond
/// the struct), all or -ENOSPC.
int answer_list(amdx_query& q, const void* header, std::size_t header_size, const void* entries,
                std::size_t count, std::size_t raw_entry_size, std::uint32_t entry_size);
/// A fixed-size result, truncated to a buffer holding at least @min_len.
int answer_fixed(amdx_query& q, const void* src, std::uint32_t len, std::uint32_t min_len);
} // namespace fake

} // namespace amdx::test

#endif // AMDX_TESTS_FAKE_KERNEL_HPP
