/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR MIT) */
/*
 * amdx: RAS containment, partition/SR-IOV control and HMM migration for
 * AMD Instinct devices.  This header is the whole ABI of amdx.
 *
 * Rules (Documentation/uapi.rst):
 *  - every structure is size-extensible: it only ever grows at the end.  The
 *    size a caller was built with is encoded in the ioctl number.  A shorter
 *    (older) structure is zero-extended by the kernel; a longer (newer) one
 *    is accepted only if every byte the kernel does not know is zero
 *    (otherwise -E2BIG).  Output is truncated to the caller's size.
 *  - every pad, reserved field and unknown flag bit must be zero (-EINVAL).
 *  - unknown commands fail with -ENOTTY.
 *  - queries need no privilege; changes need CAP_SYS_ADMIN.  /dev/amdx is
 *    mode 0660, group render (Documentation/security.rst).
 */
#ifndef _UAPI_LINUX_AMDX_H
#define _UAPI_LINUX_AMDX_H

#include <linux/const.h>
#include <linux/ioctl.h>
#include <linux/types.h>

/*
 * Versions (%AMDX_QUERY_CAPS reports the module's):
 *  - MAJOR moves only with an incompatible change, which the rules above
 *    rule out: it stays 1.
 *  - MINOR moves by one, in the commit that makes it, with every addition
 *    a caller can use: a command, a query, a field, a flag or value a
 *    field accepts or reports, an event kind.  A caller that needs the
 *    addition checks MINOR >= that value (never equality): an older
 *    module refuses it (-ENOTTY for a command, -EINVAL for a query, flag
 *    or value, -E2BIG for a field it lacks set non-zero), which the
 *    caller could not tell from a bad argument.  Documentation and
 *    internal changes move nothing.
 *  - what this build or kernel may lack although the version has it
 *    (kernel configuration: %AMDX_CAP_DEVICE_PRIVATE) is an %AMDX_CAP_* bit
 *    as well, tested instead of the version.
 * Minor 0 is everything in this header up to this rule, %AMDX_QUERY_STATS
 * (added before it) included.
 *
 * Each item is added in its section (the device, HMM, partitions and VFs,
 * RAS, the event log; then the first-version sizes and the ioctl numbers,
 * each list in the order of the sections), never appended at the end.
 */
#define AMDX_UAPI_VERSION_MAJOR		1
#define AMDX_UAPI_VERSION_MINOR		10

/* Name of the control misc device node: /dev/amdx */
#define AMDX_DEVICE_NAME		"amdx"

/*
 * Capability bits reported by %AMDX_QUERY_CAPS: what this build of amdx
 * supports on the running kernel.
 */
/* Device listing and information queries. */
#define AMDX_CAP_DEVICE_QUERY		_BITULL(0)
/* Kernel provides device-private ZONE_DEVICE memory (CONFIG_DEVICE_PRIVATE). */
#define AMDX_CAP_DEVICE_PRIVATE		_BITULL(1)
/* Kernel provides HMM mirroring (CONFIG_HMM_MIRROR, hmm_range_fault()). */
#define AMDX_CAP_HMM_MIRROR		_BITULL(2)
/* Migration of process memory to device VRAM and back (ioctls below). */
#define AMDX_CAP_HMM_MIGRATE		_BITULL(3)

/* Device models (struct amdx_device_info.model). */
#define AMDX_MODEL_UNKNOWN		0
#define AMDX_MODEL_MI300X		1
#define AMDX_MODEL_MI300A		2
#define AMDX_MODEL_MI308X		3

/* Compute partition modes; bit (1 << mode) in supported_compute_modes. */
#define AMDX_COMPUTE_UNKNOWN		0
#define AMDX_COMPUTE_SPX		1
#define AMDX_COMPUTE_DPX		2
#define AMDX_COMPUTE_TPX		3
#define AMDX_COMPUTE_QPX		4
#define AMDX_COMPUTE_CPX		5

/* Memory partition modes; bit (1 << mode) in supported_memory_modes. */
#define AMDX_MEMORY_UNKNOWN		0
#define AMDX_MEMORY_NPS1		1
#define AMDX_MEMORY_NPS2		2
#define AMDX_MEMORY_NPS4		3
#define AMDX_MEMORY_NPS8		4

#define AMDX_MAX_MEM_PARTITIONS		8
/* Device ids are below this; at most this many devices exist at once. */
#define AMDX_MAX_DEVICES		64
#define AMDX_BDF_LEN			16
#define AMDX_SERIAL_LEN			32
#define AMDX_PRODUCT_LEN		64

/* Query identifiers (struct amdx_query.query). */
#define AMDX_QUERY_CAPS			0	/* struct amdx_query_caps */
#define AMDX_QUERY_DEVICES		1	/* struct amdx_query_devices */
#define AMDX_QUERY_DEVICE_INFO		2	/* struct amdx_device_info */
#define AMDX_QUERY_HMM_RANGES		3	/* struct amdx_query_hmm_ranges */
#define AMDX_QUERY_PARTITIONS		4	/* struct amdx_query_partitions */
#define AMDX_QUERY_VFS			5	/* struct amdx_query_vfs */
#define AMDX_QUERY_RAS_COUNTERS		6	/* struct amdx_query_ras */
#define AMDX_QUERY_RAS_POLICY		7	/* struct amdx_ras_policy */
#define AMDX_QUERY_BADPAGES		8	/* bad-page table, header + records */
#define AMDX_QUERY_RESET_SCOPE		9	/* struct amdx_reset_scope */
#define AMDX_QUERY_STATS		10	/* struct amdx_device_stats */
#define AMDX_QUERY_LINKS		11	/* struct amdx_query_links (minor 2) */
#define AMDX_QUERY_FIRMWARE		12	/* struct amdx_query_firmware (minor 4) */

/**
 * struct amdx_query - argument of %AMDX_IOC_QUERY
 * @query: in: which query (%AMDX_QUERY_*).
 * @size: in: size in bytes of the buffer at @data, or 0 to ask for the size.
 *	out: bytes written, or with @size 0 the size of the full result.
 *	Two-call protocol: call with @size 0 to learn the size, allocate, call
 *	again.  Fixed-size results (caps, device info) are truncated to @size
 *	when it holds at least their first version; the device list must fit
 *	whole.  Otherwise the ioctl fails with -ENOSPC and still writes the
 *	needed size here.
 * @data: in: user pointer to the result buffer.
 * @id: in: object for per-object queries (a device id for
 *	%AMDX_QUERY_DEVICE_INFO on /dev/amdx); must be 0 otherwise and on a
 *	device fd, where the query is about that fd's device.
 * @flags: in: must be 0.
 * @reserved: must be 0.
 */
struct amdx_query {
	__u32 query;
	__u32 size;
	__u64 data;
	__u32 id;
	__u32 flags;
	__u64 reserved[2];
};

/**
 * struct amdx_query_caps - result of %AMDX_QUERY_CAPS
 * @version_major: %AMDX_UAPI_VERSION_MAJOR of the kernel module.
 * @version_minor: %AMDX_UAPI_VERSION_MINOR of the kernel module.
 * @caps: %AMDX_CAP_* bits.
 * @num_devices: devices registered right now.
 * @pad: zero.
 * @reserved: zero.
 */
struct amdx_query_caps {
	__u32 version_major;
	__u32 version_minor;
	__u64 caps;
	__u32 num_devices;
	__u32 pad;
	__u64 reserved[4];
};

/**
 * struct amdx_device_entry - one device in %AMDX_QUERY_DEVICES
 * @id: device id, below %AMDX_MAX_DEVICES, stable while the device
 *	exists.  Ids are handed out cyclically: a removed device's id comes
 *	back only after the other free ids were used.
 * @model: %AMDX_MODEL_*.
 * @bdf: PCI-style address "dddd:bb:dd.f", NUL-terminated.
 * @reserved: zero.
 */
struct amdx_device_entry {
	__u32 id;
	__u32 model;
	__u8 bdf[AMDX_BDF_LEN];
	__u64 reserved[2];
};

/**
 * struct amdx_query_devices - result of %AMDX_QUERY_DEVICES
 * @num_devices: number of entries that follow.
 * @entry_size: size of one entry as the kernel wrote it; step through
 *	@devices by this, never by sizeof(), so entries can grow.
 * @devices: the devices, sorted by id.
 */
struct amdx_query_devices {
	__u32 num_devices;
	__u32 entry_size;
	struct amdx_device_entry devices[];
};

/**
 * struct amdx_mem_partition_info - one memory (NPS) partition
 * @base: first VRAM byte offset of the partition.
 * @size: bytes of VRAM in the partition.
 * @free: bytes not allocated.
 */
struct amdx_mem_partition_info {
	__u64 base;
	__u64 size;
	__u64 free;
};

/* struct amdx_device_info.flags */
/* VRAM is device-private memory that HMM can migrate to (see caps). */
#define AMDX_DEVICE_F_HMM		_BITUL(0)

/**
 * struct amdx_device_info - result of %AMDX_QUERY_DEVICE_INFO
 * @id: device id.
 * @model: %AMDX_MODEL_*.
 * @bdf: PCI-style address, NUL-terminated.
 * @serial: board serial number, NUL-terminated.
 * @product: product name, NUL-terminated.
 * @hive_id: XGMI hive id, 0 when the device is not in a hive.
 * @vram_size: bytes of VRAM.
 * @vram_free: bytes of VRAM not allocated.
 * @num_xcc: accelerator complex dies (XCCs).
 * @num_sdma: SDMA engine instances.
 * @num_vcn: VCN instances.
 * @compute_mode: current %AMDX_COMPUTE_* mode.
 * @memory_mode: current %AMDX_MEMORY_* mode.
 * @supported_compute_modes: bit (1 << %AMDX_COMPUTE_*) per valid mode.
 * @supported_memory_modes: bit (1 << %AMDX_MEMORY_*) per valid mode.
 * @num_mem_partitions: valid entries in @mem_partitions.
 * @num_vfs: SR-IOV virtual functions enabled.
 * @max_vfs: SR-IOV virtual functions supported.
 * @flags: %AMDX_DEVICE_F_*.
 * @pad: zero.
 * @mem_partitions: VRAM per memory partition.
 * @reserved: zero.
 */
struct amdx_device_info {
	__u32 id;
	__u32 model;
	__u8 bdf[AMDX_BDF_LEN];
	__u8 serial[AMDX_SERIAL_LEN];
	__u8 product[AMDX_PRODUCT_LEN];
	__u64 hive_id;
	__u64 vram_size;
	__u64 vram_free;
	__u32 num_xcc;
	__u32 num_sdma;
	__u32 num_vcn;
	__u32 compute_mode;
	__u32 memory_mode;
	__u32 supported_compute_modes;
	__u32 supported_memory_modes;
	__u32 num_mem_partitions;
	__u32 num_vfs;
	__u32 max_vfs;
	__u32 flags;
	__u32 pad;
	struct amdx_mem_partition_info mem_partitions[AMDX_MAX_MEM_PARTITIONS];
	__u64 reserved[8];
};

/**
 * struct amdx_device_stats - result of %AMDX_QUERY_STATS
 * @migrations_to_vram: %AMDX_IOC_HMM_MIGRATE calls that moved pages to
 *	VRAM (one per call, whatever the number of ranges).
 * @bytes_to_vram: bytes they moved.
 * @migrations_to_ram: %AMDX_IOC_HMM_MIGRATE calls that moved pages to
 *	system memory (to %AMDX_HMM_LOC_SYSTEM, or a prefetch to ranges
 *	preferring it).
 * @bytes_to_ram: bytes they moved.
 * @fault_migrations: CPU faults on the device's pages that moved pages
 *	home (one granule each).
 * @fault_bytes: bytes they moved.
 * @evictions: ranges moved home to make room in VRAM (a full memory
 *	partition, or a VF at its quota with %AMDX_VF_F_EVICT).
 * @evicted_bytes: bytes they moved.
 * @drains: passes of a partition commit's drain (%AMDX_PART_F_DRAIN)
 *	that moved pages home.
 * @drained_bytes: bytes they moved.
 * @vf_flrs: VF function-level resets performed (%AMDX_IOC_VF_RESET that
 *	reset the VF; refused or failed ones do not count).
 * @commits: %AMDX_IOC_PARTITION_COMMIT calls on this device's fds that
 *	committed a change (%AMDX_PART_OUTCOME_COMMITTED).
 * @rollbacks: commits whose step failed and rolled back
 *	(%AMDX_PART_OUTCOME_ROLLED_BACK).
 * @refusals: commits refused before any step ran (a &struct
 *	amdx_partition_config reason, or holders without drain).
 * @events_emitted: records the device's event log emitted (seqs it
 *	took), with or without subscribers.
 * @events_lost: records dropped from full subscriber rings, summed over
 *	the subscribers (each counted in that subscriber's LOST record).
 * @reserved: zero.
 *
 * Every counter starts at 0 when the device registers and only grows;
 * amounts are in bytes.  A migration moving no page counts nowhere.
 * Moves of single VRAM pages by RAS soft retirement are not migrations.
 */
struct amdx_device_stats {
	__u64 migrations_to_vram;
	__u64 bytes_to_vram;
	__u64 migrations_to_ram;
	__u64 bytes_to_ram;
	__u64 fault_migrations;
	__u64 fault_bytes;
	__u64 evictions;
	__u64 evicted_bytes;
	__u64 drains;
	__u64 drained_bytes;
	__u64 vf_flrs;
	__u64 commits;
	__u64 rollbacks;
	__u64 refusals;
	__u64 events_emitted;
	__u64 events_lost;
	__u64 reserved[4];
};

/*
 * Firmware of a device (minor 4; struct amdx_firmware_info.id), as amdgpu
 * names its ucode: SMU (MP1), PSP SOS and its RAS and XGMI trusted
 * applications, the GFX command processor's MEC, the RLC, SDMA, VCN.
 */
#define AMDX_FW_SMU			1
#define AMDX_FW_PSP_SOS			2
#define AMDX_FW_PSP_TA_RAS		3
#define AMDX_FW_PSP_TA_XGMI		4
#define AMDX_FW_MEC			5
#define AMDX_FW_RLC			6
#define AMDX_FW_SDMA			7
#define AMDX_FW_VCN			8
#define AMDX_FW_COUNT			9
/* Most entries of one %AMDX_QUERY_FIRMWARE answer. */
#define AMDX_MAX_FIRMWARE		32
#define AMDX_VERSION_LEN		32

/**
 * struct amdx_firmware_info - one firmware in %AMDX_QUERY_FIRMWARE
 * @id: %AMDX_FW_*.
 * @instance: which of several of its kind (SDMA, VCN), else 0.
 * @version: the firmware's version as the provider reads it (amdgpu's
 *	ucode fw_version).
 * @feature: its feature version, 0 where it has none.
 * @reserved: zero.
 */
struct amdx_firmware_info {
	__u32 id;
	__u32 instance;
	__u32 version;
	__u32 feature;
	__u64 reserved;
};

/**
 * struct amdx_query_firmware - result of %AMDX_QUERY_FIRMWARE (device
 *	fds; minor 4)
 * @driver_version: amdx's module version (its modinfo ``version``),
 *	NUL-terminated.
 * @provider: the name of the provider of the device ("amdx_sim",
 *	"amdgpu"), NUL-terminated.
 * @provider_version: the provider's version, NUL-terminated; empty when
 *	it has none.
 * @num_firmware: entries in @firmware, at most %AMDX_MAX_FIRMWARE.
 * @entry_size: bytes per entry, at least %AMDX_FIRMWARE_INFO_SIZE_VER0.
 * @reserved: zero.
 * @firmware: the firmware the provider knows the version of, by id and
 *	instance; the whole list must fit.
 *
 * A provider that reads no versions fails the query with -EOPNOTSUPP.
 */
struct amdx_query_firmware {
	__u8 driver_version[AMDX_VERSION_LEN];
	__u8 provider[AMDX_VERSION_LEN];
	__u8 provider_version[AMDX_VERSION_LEN];
	__u32 num_firmware;
	__u32 entry_size;
	__u64 reserved[2];
	struct amdx_firmware_info firmware[];
};

/* struct amdx_device_open.flags */
/*
 * Open the device on behalf of SR-IOV VF @vf (needs CAP_SYS_ADMIN): VRAM
 * the fd's HMM migrations allocate is charged to that VF's quota.
 */
#define AMDX_DEVICE_OPEN_F_VF		_BITUL(0)

/**
 * struct amdx_device_open - argument of %AMDX_IOC_DEVICE_OPEN
 * @id: in: device id.
 * @flags: in: %AMDX_DEVICE_OPEN_F_*; the fd is always O_CLOEXEC and O_RDWR.
 * @fd: out: the device fd.  It holds a reference on the device; once the
 *	device is removed every call on it fails with -ENODEV.  Installed
 *	only once the argument is copied back: a failed copy (-EFAULT)
 *	leaves no fd behind.
 * @vf: in: with %AMDX_DEVICE_OPEN_F_VF an enabled VF's index (else
 *	-EINVAL), otherwise zero.  Once the VFs are disabled (or enabled
 *	anew) migrations to VRAM on the fd fail with -ENODEV.
 */
struct amdx_device_open {
	__u32 id;
	__u32 flags;
	__s32 fd;
	__u32 vf;
};

/*
 * HMM migration (device fds; needs %AMDX_CAP_HMM_MIGRATE).
 *
 * A device fd belongs to the address space of the process that opened it;
 * HMM ioctls from another address space fail with -EBADF.  Addresses and
 * sizes are page aligned.  Ranges are created by %AMDX_IOC_HMM_SET_ATTR
 * and owned by the fd: closing it returns their data to system memory.
 */

/* Locations: a memory partition index of the fd's device, or: */
#define AMDX_HMM_LOC_SYSTEM		0xffffffffU	/* system memory */
#define AMDX_HMM_LOC_PREFERRED		0xfffffffeU	/* range's preferred */

/* struct amdx_hmm_attr.valid: which attributes SET_ATTR applies */
#define AMDX_HMM_ATTR_PREFERRED_LOC	_BITUL(0)
#define AMDX_HMM_ATTR_GRANULARITY	_BITUL(1)
#define AMDX_HMM_ATTR_FLAGS		_BITUL(2)
#define AMDX_HMM_ATTR_ACCESS		_BITUL(3)
#define AMDX_HMM_ATTR_ALL		0xfU

/* struct amdx_hmm_attr.flags */
/* Never evict this range's device pages (bounded, see uapi.rst). */
#define AMDX_HMM_F_PIN			_BITUL(0)

/* Granularity: log2 of the migration unit in pages; default 9 (2 MiB). */
#define AMDX_HMM_GRANULARITY_DEFAULT	9
#define AMDX_HMM_GRANULARITY_MAX	18

/*
 * Most attribute ranges one device fd holds.  A SET_ATTR that would need
 * more fails with -ENOSPC and changes nothing (as inotify's watch limit).
 */
#define AMDX_HMM_RANGES_MAX		4096

/**
 * struct amdx_hmm_attr - argument of %AMDX_IOC_HMM_SET_ATTR
 * @start: first byte, page aligned.
 * @size: bytes, page aligned, non-zero.
 * @valid: %AMDX_HMM_ATTR_* bits naming the attributes to set; the others
 *	keep their value (new ranges start with the defaults: system,
 *	granularity 9, no flags, access by this device only).  A field
 *	@valid does not name must be zero (-EINVAL).
 * @preferred_loc: a memory partition index or %AMDX_HMM_LOC_SYSTEM.
 * @granularity: log2 of the migration unit in pages, at most
 *	%AMDX_HMM_GRANULARITY_MAX.
 * @flags: %AMDX_HMM_F_*.  A uid (a VF for a VF's fds) may pin at most
 *	half of one memory partition's VRAM on a device, all pins together
 *	at most 3/4 of the device's VRAM (-EDQUOT).
 * @access: bit N set: amdx device N may access the range (device ids are
 *	below %AMDX_MAX_DEVICES, so every device can be named).  Each bit
 *	must name an existing device.  Removing a device clears its bit in
 *	every range, so a later device given the same id gains no access.
 *	Enforced by %AMDX_IOC_HMM_ACCESS: a device whose bit is clear in a
 *	range of the process (on any device's fd) that the span touches
 *	gets -EACCES.
 * @reserved: zero.
 *
 * The range must be mapped, private (not MAP_SHARED), anonymous or a
 * private file mapping, and not PROT_NONE.  Setting attributes on part of
 * an existing range splits it; adjacent ranges with equal attributes merge.
 * A change that would leave the fd more than %AMDX_HMM_RANGES_MAX ranges
 * fails with -ENOSPC.
 */
struct amdx_hmm_attr {
	__u64 start;
	__u64 size;
	__u32 valid;
	__u32 preferred_loc;
	__u32 granularity;
	__u32 flags;
	__u64 access;
	__u64 reserved[2];
};

/* Reasons in struct amdx_hmm_migrate.skip_reasons */
#define AMDX_HMM_SKIP_BUSY		_BITUL(0)	/* page locked, pinned or racing */
#define AMDX_HMM_SKIP_NO_MEMORY		_BITUL(1)	/* destination full */
#define AMDX_HMM_SKIP_NOT_PRESENT	_BITUL(2)	/* nothing mapped there yet */
#define AMDX_HMM_SKIP_OTHER_DEVICE	_BITUL(3)	/* on another device */

/**
 * struct amdx_hmm_migrate - argument of %AMDX_IOC_HMM_MIGRATE
 * @start: first byte, page aligned; must lie in ranges set before.
 * @size: bytes, page aligned, non-zero.
 * @dest: memory partition index, %AMDX_HMM_LOC_SYSTEM or
 *	%AMDX_HMM_LOC_PREFERRED (prefetch to each range's preferred location).
 * @flags: must be 0.
 * @moved: out: pages migrated.
 * @already: out: pages already resident at @dest.
 * @skipped: out: pages not migrated.
 * @skip_reasons: out: %AMDX_HMM_SKIP_* bits for @skipped.
 * @pad: zero.
 * @reserved: zero.
 */
struct amdx_hmm_migrate {
	__u64 start;
	__u64 size;
	__u32 dest;
	__u32 flags;
	__u64 moved;
	__u64 already;
	__u64 skipped;
	__u32 skip_reasons;
	__u32 pad;
	__u64 reserved[2];
};

/* struct amdx_hmm_access.op */
#define AMDX_HMM_ACCESS_READ		0	/* device reads into @buf */
#define AMDX_HMM_ACCESS_WRITE		1	/* device writes from @buf */
#define AMDX_HMM_ACCESS_SNAPSHOT	2	/* one __u8 per page into @buf */

/* Snapshot bytes (struct amdx_hmm_access, op SNAPSHOT) */
#define AMDX_HMM_SNAP_NONE		0x00	/* not mapped for the device */
#define AMDX_HMM_SNAP_READ		0x01
#define AMDX_HMM_SNAP_WRITE		0x02
#define AMDX_HMM_SNAP_DEV_LOCAL		0x04	/* in this device's VRAM */
#define AMDX_HMM_SNAP_DEV_REMOTE	0x08	/* in another device's VRAM */
#define AMDX_HMM_SNAP_ERROR		0x80

/**
 * struct amdx_hmm_access - argument of %AMDX_IOC_HMM_ACCESS
 * @addr: first byte of process memory, page aligned.
 * @size: bytes, page aligned, non-zero, at most 64 MiB.
 * @buf: user buffer: @size bytes for READ and WRITE, @size / page size
 *	bytes for SNAPSHOT.
 * @op: %AMDX_HMM_ACCESS_*.
 * @flags: must be 0.
 * @vram_pfns: 0, or for SNAPSHOT a user array of one __u64 per page that
 *	receives the VRAM page index of device-local pages (~0 for others),
 *	for RAS tooling.
 * @faults: out: pages the device had to fault in.
 * @reserved: zero.
 *
 * Emulates device access through an HMM mirror: hmm_range_fault() under
 * an mmu_interval_notifier, as the kernel's test_hmm does.  Device-private
 * pages of this device are accessed in place; anything else is faulted to
 * system memory first.  A span touching a range whose @access (&struct
 * amdx_hmm_attr) lacks this device is -EACCES.
 */
struct amdx_hmm_access {
	__u64 addr;
	__u64 size;
	__u64 buf;
	__u32 op;
	__u32 flags;
	__u64 vram_pfns;
	__u64 faults;
	__u64 reserved[2];
};

/**
 * struct amdx_hmm_stats - HMM counters (per range and per process)
 * @pages_in: pages migrated to VRAM.
 * @pages_out: pages migrated to system memory.
 * @cpu_faults: CPU faults on device pages (migrate_to_ram calls).
 * @evictions: times a range's pages were evicted for another range.
 * @bytes_in: bytes migrated to VRAM.
 * @bytes_out: bytes migrated to system memory.
 * @ns_in: nanoseconds spent migrating to VRAM.
 * @ns_out: nanoseconds spent migrating to system memory.
 */
struct amdx_hmm_stats {
	__u64 pages_in;
	__u64 pages_out;
	__u64 cpu_faults;
	__u64 evictions;
	__u64 bytes_in;
	__u64 bytes_out;
	__u64 ns_in;
	__u64 ns_out;
};

/**
 * struct amdx_hmm_range_info - one range in %AMDX_QUERY_HMM_RANGES
 * @start: first byte.
 * @size: bytes.
 * @preferred_loc: see &struct amdx_hmm_attr.
 * @granularity: see &struct amdx_hmm_attr.
 * @flags: see &struct amdx_hmm_attr.
 * @pad: zero.
 * @access: see &struct amdx_hmm_attr.
 * @resident_pages: pages of the range in this device's VRAM, as this fd
 *	counts them (migrations into VRAM and home, evictions, CPU faults,
 *	drains, unmaps); a split leaves them with the left part, like
 *	@stats.  Pages another fd of the process moved are not seen here.
 * @stats: the range's counters.
 * @reserved: zero.
 */
struct amdx_hmm_range_info {
	__u64 start;
	__u64 size;
	__u32 preferred_loc;
	__u32 granularity;
	__u32 flags;
	__u32 pad;
	__u64 access;
	__u64 resident_pages;
	struct amdx_hmm_stats stats;
	__u64 reserved[2];
};

/**
 * struct amdx_query_hmm_ranges - result of %AMDX_QUERY_HMM_RANGES
 * @num_ranges: entries that follow.
 * @entry_size: size of one entry as written by the kernel.
 * @pid: thread-group id of the process the fd belongs to, in the caller's
 *	pid namespace; 0 when it is not visible there, or is not the
 *	caller's (same effective uid) and the caller lacks CAP_SYS_ADMIN.
 * @pad: zero.
 * @total: the fd's counters, including ranges since removed.
 * @ranges: the ranges, sorted by address.
 */
struct amdx_query_hmm_ranges {
	__u32 num_ranges;
	__u32 entry_size;
	__u32 pid;
	__u32 pad;
	struct amdx_hmm_stats total;
	struct amdx_hmm_range_info ranges[];
};

/*
 * Compute/memory partitions and SR-IOV virtual functions (device fds).
 * Documentation/partition.rst has the model and the transaction protocol.
 */

/* Most compute partitions of any model (one per XCC). */
#define AMDX_MAX_PARTITIONS		8
/* Most SR-IOV VFs of any model. */
#define AMDX_MAX_VFS			8

/* struct amdx_partition_info.state, struct amdx_vf_info.state */
#define AMDX_PART_STATE_ONLINE		0	/* accepts work and allocations */
#define AMDX_PART_STATE_QUARANTINED	1	/* no new work or allocations */
#define AMDX_PART_STATE_OFFLINE		2	/* out of service until reset */

/*
 * Why a partition configuration or a VF operation was refused (struct
 * amdx_partition_config.reason, struct amdx_vf_enable.reason, and from
 * minor 8 struct amdx_vf_reset.reason).
 */
#define AMDX_PART_REASON_NONE			0
#define AMDX_PART_REASON_BAD_MODEL		1
#define AMDX_PART_REASON_COMPUTE_UNSUPPORTED	2	/* model lacks the mode */
#define AMDX_PART_REASON_MEMORY_UNSUPPORTED	3	/* model lacks the mode */
#define AMDX_PART_REASON_INCOMPATIBLE		4	/* compute vs memory mode */
#define AMDX_PART_REASON_XCC_NOT_DIVISIBLE	5	/* XCCs % NPS partitions */
#define AMDX_PART_REASON_VF_UNSUPPORTED		6	/* model has no SR-IOV */
#define AMDX_PART_REASON_VF_COMPUTE		7	/* VF count vs compute */
#define AMDX_PART_REASON_VF_MEMORY		8	/* VF count vs memory */
#define AMDX_PART_REASON_VFS_ENABLED		9	/* disable VFs first */
#define AMDX_PART_REASON_HIVE_MEMORY		10	/* hive-wide NPS differs */
#define AMDX_PART_REASON_BUSY			11	/* holders, no drain */
#define AMDX_PART_REASON_VF_PROVISION		12	/* bad VF resources */
#define AMDX_PART_REASON_PARTITION_STATE	13	/* partition not online */
/* Minor 8, VF reset: */
#define AMDX_PART_REASON_NO_VF			14	/* VF index >= VFs enabled */
#define AMDX_PART_REASON_VF_QUARANTINED		15	/* until VFs are disabled */
#define AMDX_PART_REASON_VF_RESET_LIMIT		16	/* quarantined by this call */

/**
 * struct amdx_partition_info - one compute partition
 * @id: partition id, 0 .. num_partitions - 1; stable until the next mode
 *	change.
 * @state: %AMDX_PART_STATE_*.
 * @xcc_mask: bit N: XCC N belongs to the partition.
 * @sdma_mask: bit N: SDMA instance N serves the partition.
 * @vcn_mask: bit N: VCN instance N serves it (shared in CPX).
 * @mem_partition: the memory (NPS) partition local to it.
 * @vf: the VF bound to it, or %AMDX_VF_NONE.
 * @resets: partition resets since the device came up.
 * @vram_base: first byte of its memory partition's VRAM.
 * @vram_size: bytes of its memory partition's VRAM.
 * @reserved: zero.
 */
struct amdx_partition_info {
	__u32 id;
	__u32 state;
	__u32 xcc_mask;
	__u32 sdma_mask;
	__u32 vcn_mask;
	__u32 mem_partition;
	__u32 vf;
	__u32 resets;
	__u64 vram_base;
	__u64 vram_size;
	__u64 reserved[2];
};

/**
 * struct amdx_query_partitions - result of %AMDX_QUERY_PARTITIONS
 * @compute_mode: current %AMDX_COMPUTE_*.
 * @memory_mode: current %AMDX_MEMORY_*.
 * @num_partitions: entries that follow.
 * @entry_size: size of one entry as written by the kernel.
 * @generation: incremented by every committed change.
 * @partitions: the compute partitions, by id.
 */
struct amdx_query_partitions {
	__u32 compute_mode;
	__u32 memory_mode;
	__u32 num_partitions;
	__u32 entry_size;
	__u64 generation;
	struct amdx_partition_info partitions[];
};

/**
 * struct amdx_partition_holder - a process with data where a change lands
 * @pid: thread-group id in the caller's pid namespace; 0 when the process
 *	is not visible there, or is not the caller's (same effective uid)
 *	and the caller lacks CAP_SYS_ADMIN.
 * @mem_partition: the memory partition holding its data.
 * @pages: its device pages there.
 * @comm: its command name, NUL-terminated; all zero whenever @pid is 0.
 */
struct amdx_partition_holder {
	__u32 pid;
	__u32 mem_partition;
	__u64 pages;
	__u8 comm[16];
};

/* Steps of a commit (struct amdx_partition_step.step), in order. */
#define AMDX_PART_STEP_VALIDATE		1	/* check the request again */
#define AMDX_PART_STEP_QUIESCE		2	/* stop new work/allocations */
#define AMDX_PART_STEP_DRAIN		3	/* move resident data home */
#define AMDX_PART_STEP_COMPUTE		4	/* firmware: compute mode */
#define AMDX_PART_STEP_MEMORY		5	/* reset into the memory mode */
#define AMDX_PART_STEP_REBUILD		6	/* partitions, VRAM ranges */
#define AMDX_PART_STEP_RESUME		7	/* accept work again */
#define AMDX_PART_STEP_MAX		7

/**
 * struct amdx_partition_step - how one commit step went
 * @step: %AMDX_PART_STEP_*.
 * @error: 0 or a negative errno.
 * @duration_ns: time it took.
 */
struct amdx_partition_step {
	__u32 step;
	__s32 error;
	__u64 duration_ns;
};

/* struct amdx_partition_config.flags */
/* Move resident HMM data out of changing partitions instead of -EBUSY. */
#define AMDX_PART_F_DRAIN		_BITUL(0)

/* struct amdx_partition_config.outcome */
#define AMDX_PART_OUTCOME_NONE		0	/* plan only, or refused */
#define AMDX_PART_OUTCOME_COMMITTED	1
#define AMDX_PART_OUTCOME_ROLLED_BACK	2	/* a step failed, state as before */
#define AMDX_PART_OUTCOME_UNCHANGED	3	/* already in that configuration */

/* Default drain deadline in milliseconds. */
#define AMDX_PART_DEADLINE_DEFAULT_MS	5000

/**
 * struct amdx_partition_config - argument of %AMDX_IOC_PARTITION_PLAN and
 *	%AMDX_IOC_PARTITION_COMMIT
 * @compute_mode: in: target %AMDX_COMPUTE_*, or 0 to keep the current one.
 * @memory_mode: in: target %AMDX_MEMORY_*, or 0 to keep the current one.
 * @flags: in: %AMDX_PART_F_*.
 * @deadline_ms: in: drain deadline, 0 for %AMDX_PART_DEADLINE_DEFAULT_MS.
 * @topology: in: 0 or a user array of %AMDX_MAX_PARTITIONS
 *	&struct amdx_partition_info that receives the resulting partitions.
 * @holders: in: 0 or a user array of @max_holders
 *	&struct amdx_partition_holder: processes holding data in memory
 *	partitions the change would remove or move.
 * @max_holders: in: entries at @holders.
 * @num_holders: out: holders found (may exceed @max_holders).
 * @reason: out: %AMDX_PART_REASON_* when refused.
 * @num_partitions: out: compute partitions after the change.
 * @allowed: out: 1 if the change may be committed now (PLAN), else 0.
 * @outcome: out: %AMDX_PART_OUTCOME_* (COMMIT).
 * @num_steps: out: valid entries in @steps.
 * @failed_step: out: the %AMDX_PART_STEP_* that failed, or 0.
 * @steps: out: each step run, with error and duration; on a rollback the
 *	failing step is last.
 * @total_ns: out: time the whole commit took.
 * @num_devices: out: devices the change applies to: 1, or every member
 *	of the device's XGMI hive when the memory mode changes (the memory
 *	mode is hive-wide; %AMDX_QUERY_RESET_SCOPE lists them).
 * @pad: zero.
 * @reserved: zero.
 *
 * PLAN changes nothing and needs no privilege: it returns 0 and reports
 * the outcome in @allowed and @reason; it fails (-EINVAL) only for
 * malformed arguments (unknown flags, non-zero reserved fields).  COMMIT
 * needs CAP_SYS_ADMIN; refusals are -EINVAL with @reason, -EBUSY with
 * holders (@reason %AMDX_PART_REASON_BUSY), -ETIMEDOUT when the drain
 * misses the deadline; a failing step rolls back and returns its errno.
 * The argument is copied back in every case.
 */
struct amdx_partition_config {
	__u32 compute_mode;
	__u32 memory_mode;
	__u32 flags;
	__u32 deadline_ms;
	__u64 topology;
	__u64 holders;
	__u32 max_holders;
	__u32 num_holders;
	__u32 reason;
	__u32 num_partitions;
	__u32 allowed;
	__u32 outcome;
	__u32 num_steps;
	__u32 failed_step;
	struct amdx_partition_step steps[AMDX_PART_STEP_MAX];
	__u64 total_ns;
	__u32 num_devices;
	__u32 pad;
	__u64 reserved;
};

/* No VF (struct amdx_partition_info.vf). */
#define AMDX_VF_NONE			0xffffffffU

/* VF scheduling priority. */
#define AMDX_VF_PRIO_LOW		0
#define AMDX_VF_PRIO_NORMAL		1
#define AMDX_VF_PRIO_HIGH		2

/* VF VRAM rules (GIM): 16 MiB steps, at least 256 MiB. */
#define AMDX_VF_VRAM_ALIGN		(16ULL << 20)
#define AMDX_VF_VRAM_MIN		(256ULL << 20)
#define AMDX_VF_TIME_SLICE_MIN_US	1000
#define AMDX_VF_TIME_SLICE_DEFAULT_US	6000
#define AMDX_VF_TIME_SLICE_MAX_US	100000

/* struct amdx_vf_config.flags */
/* At the VRAM quota, evict the VF's least recently used data (else -ENOSPC). */
#define AMDX_VF_F_EVICT			_BITUL(0)

/**
 * struct amdx_vf_config - the resources of one VF
 * @partition_mask: bit N: compute partition N is bound to the VF; each
 *	partition belongs to at most one VF.
 * @time_slice_us: graphics time slice, %AMDX_VF_TIME_SLICE_MIN_US ..
 *	%AMDX_VF_TIME_SLICE_MAX_US.
 * @vram_quota: bytes, a multiple of %AMDX_VF_VRAM_ALIGN, at least
 *	%AMDX_VF_VRAM_MIN; the quotas together fit in VRAM.
 * @priority: %AMDX_VF_PRIO_*.
 * @flags: %AMDX_VF_F_*.
 * @reserved: zero.
 */
struct amdx_vf_config {
	__u32 partition_mask;
	__u32 time_slice_us;
	__u64 vram_quota;
	__u32 priority;
	__u32 flags;
	__u64 reserved[2];
};

/* struct amdx_vf_enable.flags */
/* Use the configs at @configs instead of fair auto-provisioning. */
#define AMDX_VF_ENABLE_F_CUSTOM		_BITUL(0)

/**
 * struct amdx_vf_enable - argument of %AMDX_IOC_VF_ENABLE
 * @num_vfs: in: VFs to enable (1 .. max_vfs); VFs must be disabled.
 * @flags: in: %AMDX_VF_ENABLE_F_*.
 * @configs: in: with %AMDX_VF_ENABLE_F_CUSTOM a user array of @num_vfs
 *	&struct amdx_vf_config, else 0.
 * @config_size: in: size of one entry at @configs (sizeof as compiled),
 *	%AMDX_VF_CONFIG_SIZE_VER0 .. the page size (above: -E2BIG, as
 *	openat2() and clone3()).
 * @reason: out: %AMDX_PART_REASON_* when refused.
 * @bad_vf: out: the VF whose provisioning was refused, or %AMDX_VF_NONE.
 * @pad: zero.
 * @reserved: zero.
 *
 * The whole provisioning is validated before any VF comes up and released
 * if bringing them up fails.  Auto-provisioning binds partitions round
 * robin, splits VRAM fairly (rounded down to 16 MiB), default time slice
 * and normal priority.
 */
struct amdx_vf_enable {
	__u32 num_vfs;
	__u32 flags;
	__u64 configs;
	__u32 config_size;
	__u32 reason;
	__u32 bad_vf;
	__u32 pad;
	__u64 reserved[2];
};

/**
 * struct amdx_vf_disable - argument of %AMDX_IOC_VF_DISABLE
 * @flags: in: must be 0.
 * @pad: zero.
 *
 * Needs CAP_SYS_ADMIN.  Disables every VF and releases its resources;
 * -EINVAL when no VF is enabled.
 */
struct amdx_vf_disable {
	__u32 flags;
	__u32 pad;
};

/* struct amdx_vf_set.valid */
#define AMDX_VF_SET_TIME_SLICE		_BITUL(0)
#define AMDX_VF_SET_VRAM_QUOTA		_BITUL(1)
#define AMDX_VF_SET_PRIORITY		_BITUL(2)
#define AMDX_VF_SET_FLAGS		_BITUL(3)

/**
 * struct amdx_vf_set - argument of %AMDX_IOC_VF_SET
 * @vf: in: VF index.
 * @valid: in: %AMDX_VF_SET_* bits naming the fields of @config to apply
 *	(partition bindings change only by re-enabling).
 * @config: in: the new values.
 */
struct amdx_vf_set {
	__u32 vf;
	__u32 valid;
	struct amdx_vf_config config;
};

/* struct amdx_vf_reset.result */
#define AMDX_VF_RESET_ACKED		0	/* guest acked in time */
#define AMDX_VF_RESET_ACK_TIMEOUT	1	/* no ack in 10 ms; reset anyway */
/* AMDX_EVENT_VF_RESET only: the guest was not asked (RAS reset) */
#define AMDX_VF_RESET_UNANNOUNCED	2

/* AMDX_EVENT_VF_RESET.type: what reset the VF */
#define AMDX_VF_RESET_CAUSE_FLR		0	/* AMDX_IOC_VF_RESET */
#define AMDX_VF_RESET_CAUSE_RAS		1	/* RAS reset its partition */

/* VF reset (FLR) rate limit: at most this many per window, then quarantine. */
#define AMDX_VF_RESET_LIMIT		3
#define AMDX_VF_RESET_WINDOW_S		60

/**
 * struct amdx_vf_reset - argument of %AMDX_IOC_VF_RESET
 * @vf: in: VF index.
 * @flags: in: must be 0.
 * @result: out: %AMDX_VF_RESET_*.
 * @state: out: the VF's %AMDX_PART_STATE_* afterwards.
 * @duration_ns: out: time the reset took.
 * @resets_in_window: out: resets within the rate-limit window.
 * @reason: out: %AMDX_PART_REASON_* when refused (minor 8; the pad
 *	before: zero on input).
 * @vram_cleared: out: bytes of VRAM the VF held, cleared by the reset (as
 *	in its %AMDX_EVENT_VF_RESET record); ignored on input.
 * @reserved: zero.
 *
 * A reset beyond %AMDX_VF_RESET_LIMIT in %AMDX_VF_RESET_WINDOW_S seconds
 * is not performed: the VF is quarantined and the call fails with -EBUSY;
 * a quarantined VF stays so until the VFs are disabled.  Each refusal
 * carries its reason: -EOPNOTSUPP %AMDX_PART_REASON_VF_UNSUPPORTED (no
 * SR-IOV), -EINVAL %AMDX_PART_REASON_NO_VF (@vf not below the VFs
 * enabled), -EBUSY %AMDX_PART_REASON_VF_QUARANTINED or
 * %AMDX_PART_REASON_VF_RESET_LIMIT; malformed arguments (non-zero @flags,
 * @reason or @reserved) are -EINVAL with @reason 0.  The argument is
 * copied back in every case.
 */
struct amdx_vf_reset {
	__u32 vf;
	__u32 flags;
	__u32 result;
	__u32 state;
	__u64 duration_ns;
	__u32 resets_in_window;
	__u32 reason;
	__u64 vram_cleared;
	__u64 reserved;
};

/**
 * struct amdx_vf_info - one VF in %AMDX_QUERY_VFS
 * @vf: VF index.
 * @state: %AMDX_PART_STATE_*.
 * @config: its provisioning.
 * @vram_used: bytes of VRAM it holds.
 * @resets: resets since enabled.
 * @resets_in_window: resets within the rate-limit window.
 * @reserved: zero.
 */
struct amdx_vf_info {
	__u32 vf;
	__u32 state;
	struct amdx_vf_config config;
	__u64 vram_used;
	__u32 resets;
	__u32 resets_in_window;
	__u64 reserved[2];
};

/**
 * struct amdx_query_vfs - result of %AMDX_QUERY_VFS
 * @num_vfs: entries that follow (VFs enabled).
 * @entry_size: size of one entry as written by the kernel.
 * @max_vfs: VFs the device supports.
 * @pad: zero.
 * @vfs: the VFs, by index.
 */
struct amdx_query_vfs {
	__u32 num_vfs;
	__u32 entry_size;
	__u32 max_vfs;
	__u32 pad;
	struct amdx_vf_info vfs[];
};

/*
 * RAS (device fds).  Documentation/ras.rst has the containment model.
 */

/* RAS blocks (amdgpu's names and order). */
#define AMDX_RAS_BLOCK_UMC		0
#define AMDX_RAS_BLOCK_SDMA		1
#define AMDX_RAS_BLOCK_GFX		2
#define AMDX_RAS_BLOCK_MMHUB		3
#define AMDX_RAS_BLOCK_PCIE_BIF		4
#define AMDX_RAS_BLOCK_HDP		5
#define AMDX_RAS_BLOCK_XGMI_WAFL	6
#define AMDX_RAS_BLOCK_COUNT		7

/* Error types (bit (1 << type) in supported masks). */
#define AMDX_RAS_TYPE_CE		0	/* corrected */
#define AMDX_RAS_TYPE_UE		1	/* uncorrected */
#define AMDX_RAS_TYPE_DE		2	/* deferred: poison */
#define AMDX_RAS_TYPE_COUNT		3

/* Counter value of a type the block does not support. */
#define AMDX_RAS_UNSUPPORTED		(~0ULL)
/* struct amdx_ras_counters.partition for the device-wide totals. */
#define AMDX_RAS_PARTITION_ALL		0xffffffffU

/**
 * struct amdx_ras_counters - one row of %AMDX_QUERY_RAS_COUNTERS
 * @block: %AMDX_RAS_BLOCK_*.
 * @partition: compute partition, or %AMDX_RAS_PARTITION_ALL.
 * @instances: the block's instance count.
 * @supported: bit (1 << %AMDX_RAS_TYPE_*) per type the block reports.
 * @count: per %AMDX_RAS_TYPE_*: errors since the device came up,
 *	monotonic, or %AMDX_RAS_UNSUPPORTED.
 * @reserved: zero.
 */
struct amdx_ras_counters {
	__u32 block;
	__u32 partition;
	__u32 instances;
	__u32 supported;
	__u64 count[AMDX_RAS_TYPE_COUNT];
	__u64 reserved;
};

/* struct amdx_query_ras.flags */
#define AMDX_RAS_F_RMA			_BITUL(0)	/* flagged for return */

/**
 * struct amdx_query_ras - result of %AMDX_QUERY_RAS_COUNTERS
 * @num_entries: rows that follow: per block, the device total then one
 *	row per compute partition.
 * @entry_size: size of one row as written by the kernel.
 * @flags: %AMDX_RAS_F_*.
 * @retired_pages: VRAM pages retired.
 * @pending_pages: VRAM pages waiting for retirement.
 * @pad: zero.
 * @entries: the rows.
 */
struct amdx_query_ras {
	__u32 num_entries;
	__u32 entry_size;
	__u32 flags;
	__u32 retired_pages;
	__u32 pending_pages;
	__u32 pad;
	struct amdx_ras_counters entries[];
};

/*
 * Why an injection was refused (struct amdx_ras_inject.reason, minor 8),
 * with the errno the call fails with: non-zero @flags, @reason, @seq or
 * @reserved; an unknown block or type; a block the device lacks; a type
 * the block does not report on the device; an instance not below the
 * block's instance count; a count outside 1..1024; an address for a block
 * other than umc; a umc address at or beyond the VRAM size; a umc address
 * on a retired page; a provider that cannot inject.
 */
#define AMDX_RAS_INJECT_REASON_NONE		0
#define AMDX_RAS_INJECT_REASON_ARGS		1	/* EINVAL: not zero */
#define AMDX_RAS_INJECT_REASON_BLOCK		2	/* EINVAL: unknown */
#define AMDX_RAS_INJECT_REASON_TYPE		3	/* EINVAL: unknown */
#define AMDX_RAS_INJECT_REASON_NO_BLOCK		4	/* EOPNOTSUPP */
#define AMDX_RAS_INJECT_REASON_NO_TYPE		5	/* EOPNOTSUPP */
#define AMDX_RAS_INJECT_REASON_INSTANCE		6	/* EINVAL */
#define AMDX_RAS_INJECT_REASON_COUNT_RANGE	7	/* EINVAL: 1..1024 */
#define AMDX_RAS_INJECT_REASON_ADDRESS_BLOCK	8	/* EINVAL: not umc */
#define AMDX_RAS_INJECT_REASON_ADDRESS_RANGE	9	/* EINVAL: VRAM size */
#define AMDX_RAS_INJECT_REASON_RETIRED		10	/* EINVAL */
#define AMDX_RAS_INJECT_REASON_NO_INJECT	11	/* EOPNOTSUPP */

/**
 * struct amdx_ras_inject - argument of %AMDX_IOC_RAS_INJECT
 * @block: in: %AMDX_RAS_BLOCK_*.
 * @type: in: %AMDX_RAS_TYPE_* the block supports.
 * @instance: in: instance inside the block's instance count (for gfx the
 *	XCC, for sdma the engine); decides the partition.
 * @count: in: errors to inject, 1 .. 1024 (a storm is one call).
 * @address: in: for umc, a VRAM byte address below the VRAM size, not on a
 *	retired page; 0 otherwise.
 * @flags: in: must be 0.
 * @reason: out: %AMDX_RAS_INJECT_REASON_* when refused (minor 8; the pad
 *	before: zero on input).
 * @seq: out: sequence number of the (first) error event.
 * @reserved: zero.
 *
 * Needs CAP_SYS_ADMIN.  The device turns it into a hardware error report
 * that enters the same intake as real errors; containment runs before the
 * call returns.  Each refusal of the core's checks sets @reason (the
 * errno each one fails with is beside its %AMDX_RAS_INJECT_REASON_*); an
 * error of the provider's injection (-EIO, -ETIMEDOUT, -EINTR) leaves it
 * 0.  The argument is copied back in every case (from minor 8).
 */
struct amdx_ras_inject {
	__u32 block;
	__u32 type;
	__u32 instance;
	__u32 count;
	__u64 address;
	__u32 flags;
	__u32 reason;
	__u64 seq;
	__u64 reserved[2];
};

/* struct amdx_ras_policy.valid */
#define AMDX_RAS_POL_CE_PAGE_THRESHOLD	_BITUL(0)
#define AMDX_RAS_POL_CE_WINDOW		_BITUL(1)
#define AMDX_RAS_POL_BAD_PAGE_THRESHOLD	_BITUL(2)
#define AMDX_RAS_POL_PART_RESET_LIMIT	_BITUL(3)
#define AMDX_RAS_POL_PART_RESET_WINDOW	_BITUL(4)
#define AMDX_RAS_POL_FLAGS		_BITUL(5)
#define AMDX_RAS_POL_ALL		0x3fU

/* struct amdx_ras_policy.bad_page_threshold special values (amdgpu). */
#define AMDX_RAS_BAD_PAGE_WARN		(-1)	/* warn only at 128 pages */
#define AMDX_RAS_BAD_PAGE_AUTO		(-2)	/* VRAM / 100 MiB */

/* Ranges of struct amdx_ras_policy's fields; each starts at 1. */
#define AMDX_RAS_CE_PAGE_THRESHOLD_MAX	65535
#define AMDX_RAS_CE_WINDOW_MAX_S	(30 * 24 * 3600)
#define AMDX_RAS_PART_RESET_LIMIT_MAX	100
#define AMDX_RAS_PART_RESET_WINDOW_MAX_S 86400

/* struct amdx_ras_policy.flags */
/* At the bad-page threshold refuse new VRAM allocations (else warn only). */
#define AMDX_RAS_POL_F_RMA_REFUSE	_BITUL(0)

/**
 * struct amdx_ras_policy - argument of %AMDX_IOC_RAS_SET_POLICY, result of
 *	%AMDX_QUERY_RAS_POLICY
 * @valid: in (SET): %AMDX_RAS_POL_* bits naming the fields to change;
 *	the fields it does not name must be 0 (else -EINVAL).
 * @ce_page_threshold: CEs on one page within @ce_window_s that soft-retire
 *	it, 1 .. %AMDX_RAS_CE_PAGE_THRESHOLD_MAX (default 50).
 * @ce_window_s: window for @ce_page_threshold, 1 ..
 *	%AMDX_RAS_CE_WINDOW_MAX_S (30 days; default 24 h).
 * @bad_page_threshold: retired pages that flag the device for RMA: N > 0,
 *	%AMDX_RAS_BAD_PAGE_WARN (default) or %AMDX_RAS_BAD_PAGE_AUTO.
 * @part_reset_limit: partition resets within @part_reset_window_s that
 *	leave the partition offline, 1 .. %AMDX_RAS_PART_RESET_LIMIT_MAX
 *	(default 3).
 * @part_reset_window_s: 1 .. %AMDX_RAS_PART_RESET_WINDOW_MAX_S (default
 *	3600).
 * @flags: %AMDX_RAS_POL_F_*.
 * @pad: zero.
 * @reserved: zero.
 */
struct amdx_ras_policy {
	__u32 valid;
	__u32 ce_page_threshold;
	__u32 ce_window_s;
	__s32 bad_page_threshold;
	__u32 part_reset_limit;
	__u32 part_reset_window_s;
	__u32 flags;
	__u32 pad;
	__u64 reserved[2];
};

/*
 * Bad-page table: the persistent record of retired VRAM pages, modelled on
 * amdgpu's EEPROM table.  Little-endian; exported by %AMDX_QUERY_BADPAGES
 * and imported by %AMDX_IOC_RAS_BADPAGES_IMPORT as a header followed by
 * @count records.
 */
#define AMDX_BADPAGE_MAGIC		0x58504241U	/* "ABPX" */
#define AMDX_BADPAGE_VERSION		1
#define AMDX_BADPAGE_MAX_RECORDS	10921	/* (256 KiB - 20) / 24 */

/* struct amdx_badpage_record.cause */
#define AMDX_BADPAGE_CAUSE_CE		1	/* CE threshold: soft retired */
#define AMDX_BADPAGE_CAUSE_UE		2	/* UE: poisoned */
#define AMDX_BADPAGE_CAUSE_DE		3	/* deferred: poisoned */
#define AMDX_BADPAGE_CAUSE_IMPORT	4	/* imported by an operator */

/**
 * struct amdx_badpage_header - bad-page table header
 * @magic: %AMDX_BADPAGE_MAGIC.
 * @version: %AMDX_BADPAGE_VERSION.
 * @count: records that follow.
 * @record_size: sizeof(struct amdx_badpage_record).
 * @checksum: CRC32 (IEEE, as crc32_le(~0, ...) ^ ~0) over the header with
 *	this field zero followed by the records.
 */
struct amdx_badpage_header {
	__u32 magic;
	__u32 version;
	__u32 count;
	__u32 record_size;
	__u32 checksum;
};

/**
 * struct amdx_badpage_record - one retired page
 * @address: VRAM byte address of the page.
 * @time: CLOCK_REALTIME seconds of the retirement.
 * @partition: memory partition of the page.
 * @cause: %AMDX_BADPAGE_CAUSE_*.
 * @flags: zero.
 */
struct amdx_badpage_record {
	__u64 address;
	__u64 time;
	__u32 partition;
	__u16 cause;
	__u16 flags;
};

/**
 * struct amdx_ras_badpages_import - argument of %AMDX_IOC_RAS_BADPAGES_IMPORT
 * @data: in: user pointer to a bad-page table.
 * @size: in: its size in bytes.
 * @pad: zero.
 * @imported: out: pages newly retired.
 * @pad2: zero.
 * @reserved: zero.
 *
 * Needs CAP_SYS_ADMIN.  A table whose magic, version, record size, count,
 * size or checksum is wrong is -EBADMSG and changes nothing; records
 * outside VRAM are -EINVAL.  Pages already retired are kept.
 */
struct amdx_ras_badpages_import {
	__u64 data;
	__u32 size;
	__u32 pad;
	__u32 imported;
	__u32 pad2;
	__u64 reserved[2];
};

/**
 * struct amdx_reset_scope - result of %AMDX_QUERY_RESET_SCOPE
 * @hive_id: the device's hive, 0 if none.
 * @num_devices: devices a device reset would reset (itself included).
 * @devices: their ids, @num_devices valid.
 * @reserved: zero.
 */
struct amdx_reset_scope {
	__u64 hive_id;
	__u32 num_devices;
	__u32 devices[15];
	__u64 reserved[2];
};

/*
 * Recovery (Documentation/ras.rst, "Recovery actions"): every fault leaves
 * its device, compute partition or VF with a pending recovery action, the
 * cheapest the device can carry out that suffices; it returns to
 * %AMDX_RECOVER_NONE only once the action ran and the post-recovery
 * self-test passed.
 */

/* Recovery actions, cheapest first. */
#define AMDX_RECOVER_NONE		0	/* nothing to do */
#define AMDX_RECOVER_PROCESS		1	/* restart the consuming process */
#define AMDX_RECOVER_QUEUE		2	/* reset one queue */
#define AMDX_RECOVER_PIPE		3	/* reset one pipe */
#define AMDX_RECOVER_PARTITION		4	/* reset one compute partition */
#define AMDX_RECOVER_VF			5	/* FLR one VF */
#define AMDX_RECOVER_DEVICE		6	/* reset the device */
#define AMDX_RECOVER_HIVE		7	/* reset the XGMI hive */
#define AMDX_RECOVER_NODE		8	/* reboot the node */
#define AMDX_RECOVER_RMA		9	/* replace the board */
#define AMDX_RECOVER_COUNT		10
/* struct amdx_recovery.action in: the target's pending action. */
#define AMDX_RECOVER_PENDING		0xffffffffU

/* Faults, by what they leave broken. */
#define AMDX_FAULT_PAGE_CE		0	/* corrected: nothing broken */
#define AMDX_FAULT_POISON_CONSUMED	1	/* a process read poison */
#define AMDX_FAULT_QUEUE_HANG		2	/* one queue stopped */
#define AMDX_FAULT_ENGINE_UE		3	/* UE in a partition's engines */
#define AMDX_FAULT_VF_HANG		4	/* a VF's function stopped */
#define AMDX_FAULT_DEVICE_UE		5	/* UE outside any partition */
#define AMDX_FAULT_FIRMWARE		6	/* device firmware hung */
#define AMDX_FAULT_FABRIC		7	/* the hive's fabric failed */
#define AMDX_FAULT_RESET_FAILED		8	/* a device reset failed */
#define AMDX_FAULT_BOARD		9	/* past the RMA threshold */
#define AMDX_FAULT_COUNT		10

/* The state of a target's pending action (struct amdx_recovery.state). */
#define AMDX_RECOVERY_STATE_NONE	0	/* nothing pending */
#define AMDX_RECOVERY_STATE_PENDING	1	/* to be run */
#define AMDX_RECOVERY_STATE_FAILED	2	/* ran and failed midway */

/*
 * Scope summary of an action, packed in one __u64 (ERROR and, from minor
 * 2, POISON_CONSUMED records' data[1]; RECOVERY records' data[0]): the
 * action, then the devices, compute partitions and VFs it resets and the
 * processes it stops (saturated at 0xffff); bit 63 says the summary is
 * there (a module before minor 1 leaves it zero).
 */
#define AMDX_RECOVERY_SUM_VALID		_BITULL(63)
#define AMDX_RECOVERY_SUM_ACTION(s)	((__u32)((s) & 0xff))
#define AMDX_RECOVERY_SUM_DEVICES(s)	((__u32)(((s) >> 8) & 0xff))
#define AMDX_RECOVERY_SUM_PARTITIONS(s)	((__u32)(((s) >> 16) & 0xfff))
#define AMDX_RECOVERY_SUM_VFS(s)	((__u32)(((s) >> 28) & 0xfff))
#define AMDX_RECOVERY_SUM_PROCESSES(s)	((__u32)(((s) >> 40) & 0xffff))

/* struct amdx_recovery.flags */
/* RUN: stop the processes in the scope (SIGKILL) instead of -EBUSY. */
#define AMDX_RECOVERY_F_STOP		_BITUL(0)
/* RUN: the action may reset devices other than the target's (-EPERM). */
#define AMDX_RECOVERY_F_OTHERS		_BITUL(1)
#define AMDX_RECOVERY_F_ALL		0x3U

/* struct amdx_recovery.outcome (RUN) */
/*
 * NONE: PLAN, or a RUN whose reset the device's driver is running on its
 * own already (error -EALREADY): the action stays pending until that
 * reset's DEVICE_RESET_END, which runs it.
 */
#define AMDX_RECOVERY_OUT_NONE		0	/* nothing ran */
#define AMDX_RECOVERY_OUT_CLEARED	1	/* ran, self-test passed */
#define AMDX_RECOVERY_OUT_ESCALATED	2	/* self-test failed: next rung */
#define AMDX_RECOVERY_OUT_FAILED	3	/* the action failed midway */

/* Most processes one plan reports (struct amdx_recovery.processes). */
#define AMDX_RECOVERY_PROCESSES_MAX	1024

/**
 * struct amdx_recovery_process - a process an action stops
 * @pid: thread-group id in the caller's pid namespace; 0 when not visible
 *	there, or not the caller's (same effective uid) and the caller lacks
 *	CAP_SYS_ADMIN (the rule of &struct amdx_partition_holder).
 * @device: the device id.
 * @mem_partition: the memory partition holding its data.
 * @pad: zero.
 * @pages: its device pages there; 0 for a consumer of poison (a process
 *	action).
 * @comm: its command name; all zero whenever @pid is 0.
 */
struct amdx_recovery_process {
	__u32 pid;
	__u32 device;
	__u32 mem_partition;
	__u32 pad;
	__u64 pages;
	__u8 comm[16];
};

/**
 * struct amdx_recovery - argument of %AMDX_IOC_RECOVERY_PLAN and
 *	%AMDX_IOC_RECOVERY_RUN (device fds)
 * @action: in: %AMDX_RECOVER_* or %AMDX_RECOVER_PENDING (the target's
 *	pending action); out: the action planned or run.
 * @flags: in: %AMDX_RECOVERY_F_* (RUN only; PLAN: zero).
 * @partition: in: the target compute partition, or
 *	%AMDX_RAS_PARTITION_ALL for the device.
 * @vf: in: the target VF, or %AMDX_VF_NONE; not both a partition and a VF.
 * @state: out: the target's %AMDX_RECOVERY_STATE_* (after RUN: the new).
 * @fault: out: the %AMDX_FAULT_* that set the pending action.
 * @seq: out: the seq of the event that set it, 0 for none.
 * @time_ns: out: its CLOCK_MONOTONIC time.
 * @devices: out: bit N: device id N is reset.
 * @peers: out: bit N: device id N stays up but drains P2P traffic first.
 * @num_devices: out: devices in @devices.
 * @num_partitions: out: compute partitions reset, over all devices.
 * @num_vfs: out: VFs reset with them.
 * @num_processes: out: processes stopped (holders of VRAM in the reset
 *	partitions; for a process action, the consumers of poison it names
 *	that still run, minor 2).
 * @est_ms: out: estimated time, 0xffffffff for never (rma).
 * @outcome: out: %AMDX_RECOVERY_OUT_*.
 * @error: out (RUN): 0, or the -errno the action or self-test failed with.
 * @num_listed: in: room at @processes; out: entries written.
 * @processes: in: pointer to @num_listed &struct amdx_recovery_process,
 *	at most %AMDX_RECOVERY_PROCESSES_MAX; 0 for none.
 * @partitions: out: per device id, bit N: its compute partition N is
 *	reset.
 * @vfs: out: per device id, bit N: its VF N is reset.
 * @reserved: zero.
 */
struct amdx_recovery {
	__u32 action;
	__u32 flags;
	__u32 partition;
	__u32 vf;
	__u32 state;
	__u32 fault;
	__u64 seq;
	__u64 time_ns;
	__u64 devices;
	__u64 peers;
	__u32 num_devices;
	__u32 num_partitions;
	__u32 num_vfs;
	__u32 num_processes;
	__u32 est_ms;
	__u32 outcome;
	__s32 error;
	__u32 num_listed;
	__u64 processes;
	__u8 partitions[64];
	__u8 vfs[64];
	__u64 reserved[2];
};

/*
 * Fabric links (minor 2; Documentation/fabric.rst): the links between the
 * devices of a hive, each a fault domain of its own.  %AMDX_QUERY_LINKS on
 * a device fd lists every link of the device's hive; %AMDX_EVENT_LINK
 * reports each change of a link's state to the devices at both its ends.
 */

/* A link's state (struct amdx_link_info.state), mildest first. */
#define AMDX_LINK_STATE_UP		0	/* in service at full width */
#define AMDX_LINK_STATE_DEGRADED	1	/* trained below full width */
#define AMDX_LINK_STATE_REPLAY		2	/* a replay storm */
#define AMDX_LINK_STATE_DOWN		3	/* down, or held down */
#define AMDX_LINK_STATE_PARKED		4	/* out of use: a peer parked */
#define AMDX_LINK_STATE_COUNT		5

/* What a link is (struct amdx_link_info.kind). */
#define AMDX_LINK_KIND_XGMI		0
#define AMDX_LINK_KIND_SCALEUP		1
#define AMDX_LINK_KIND_COUNT		2

/* The containment a link's state asks for, smallest first. */
#define AMDX_LINK_CONTAIN_NONE		0	/* the link is up */
#define AMDX_LINK_CONTAIN_AVOID		1	/* no new placement across it */
#define AMDX_LINK_CONTAIN_MOVE		2	/* and move what crosses it */
#define AMDX_LINK_CONTAIN_PARK		3	/* and park peers left unreached */
#define AMDX_LINK_CONTAIN_COUNT		4

/* struct amdx_link_info.flags */
/* The route between the link's ends avoids it or is longer than one hop. */
#define AMDX_LINK_F_ROUTE_DEGRADED	_BITUL(0)
/*
 * (minor 6) What the provider of a device at the link's ends does not
 * report on it, declared rather than faked (Documentation/fabric.rst):
 * state changes (@state is the one the link started with, from the
 * topology; @downs, @state_changes and @time_ns count nothing), its width
 * (@width is the full width assumed; @width_changes counts nothing), its
 * own error counters (@ce, @ue, @replays).  Such a value is absent, not
 * zero.
 */
#define AMDX_LINK_F_NO_STATE		_BITUL(1)
#define AMDX_LINK_F_NO_WIDTH		_BITUL(2)
#define AMDX_LINK_F_NO_COUNTERS		_BITUL(3)

/* (minor 6) What an end of a link is (struct amdx_link_info.end). */
#define AMDX_LINK_END_DEVICE		1	/* a device of this host */
#define AMDX_LINK_END_REMOTE		2	/* an accelerator of another host */
#define AMDX_LINK_END_SWITCH		3	/* a scale-up switch */

/**
 * struct amdx_link_info - one link in %AMDX_QUERY_LINKS
 * @link: its index in the hive's list (%AMDX_EVENT_LINK's instance).
 * @kind: %AMDX_LINK_KIND_*.
 * @device: the amdx device ids of its two ends; (minor 5) in a scale-up
 *	pod, U32_MAX for an end that is no device of this host (a remote
 *	accelerator, a switch: @end, @domain and @fabric_id say which).
 * @port: the port of each end the link leaves from (a switch's port is
 *	the fabric id of the accelerator at the other end).
 * @width_max: lanes at full width.
 * @width: lanes now.
 * @state: %AMDX_LINK_STATE_*.
 * @contain: the %AMDX_LINK_CONTAIN_* its state asks for.
 * @hops: hops of the route between its two ends now: 1 over the link, more
 *	around it (a link not up is avoided where the mesh allows), 0 when no
 *	route is left.
 * @flags: %AMDX_LINK_F_*.
 * @pad: zero.
 * @ce: corrected errors.
 * @ue: uncorrected errors.
 * @replays: replays.
 * @width_changes: retrainings at another width.
 * @downs: losses of training (and uncorrected errors).
 * @state_changes: changes of @state.
 * @time_ns: per %AMDX_LINK_STATE_*, nanoseconds spent in it.
 * @end: (minor 6) what each end is, %AMDX_LINK_END_*; 0 from an older
 *	module.
 * @domain: (minor 6) the OS domain (host) of each accelerator end of a
 *	scale-up pod (a pod has at most 256 accelerators); 0 in an XGMI hive
 *	and for a switch.
 * @fabric_id: (minor 6) the identity of each end in the fabric: a pod
 *	accelerator's fabric id (its domain times the pod's accelerators per
 *	domain plus its index there), a switch's plane; in an XGMI hive the
 *	device id.
 * @vpod: (minor 7) the virtual pod of each accelerator end of a scale-up
 *	pod, counted from 1 (the pod's fabric manager divides its
 *	accelerators into virtual pods; a switch carries data only between
 *	accelerators of one); 0 for a switch (it serves every virtual pod),
 *	in an XGMI hive and from an older module.
 * @reserved: zero.
 */
struct amdx_link_info {
	__u32 link;
	__u32 kind;
	__u32 device[2];
	__u8 port[2];
	__u8 width_max;
	__u8 width;
	__u32 state;
	__u32 contain;
	__u32 hops;
	__u32 flags;
	__u32 pad;
	__u64 ce;
	__u64 ue;
	__u64 replays;
	__u64 width_changes;
	__u64 downs;
	__u64 state_changes;
	__u64 time_ns[5];
	__u8 end[2];
	__u8 domain[2];
	__u16 fabric_id[2];
	__u8 vpod[2];
	__u8 reserved[6];
};

/**
 * struct amdx_query_links - result of %AMDX_QUERY_LINKS (device fds)
 * @hive_id: the device's hive, 0 when it is in none (then no links).
 * @num_links: entries in @links.
 * @entry_size: bytes per entry, at least %AMDX_LINK_INFO_SIZE_VER0.
 * @reserved: zero.
 * @links: the links of the hive, by index; the whole list must fit.
 */
struct amdx_query_links {
	__u64 hive_id;
	__u32 num_links;
	__u32 entry_size;
	__u64 reserved;
	struct amdx_link_info links[];
};

/*
 * Event log: a device fd's %AMDX_IOC_EVENT_SUBSCRIBE returns an event fd.
 * read() returns whole records (a buffer shorter than one is -EINVAL);
 * poll()/epoll report EPOLLIN when a record is waiting.
 */

/*
 * struct amdx_event.kind; bit (1 << kind) in a subscription mask.  Fields
 * not named are zero (partition: %AMDX_RAS_PARTITION_ALL when none).
 *
 * LOST:		seq of the first record missed; data[0] records
 *			missed; data[1] seq of the last one missed.
 * ERROR:		block, type, instance, partition, address (umc);
 *			data[0] errors reported; data[1] (minor 1) the
 *			pending action the error set and its scope
 *			(AMDX_RECOVERY_SUM_*); (minor 3, in a struct
 *			amdx_event_v1 record) pid and pasid: the process
 *			that consumed the error, where the device knows it
 *			(amdgpu: a poison its KFD saw consumed by a
 *			process's GFX, SDMA or MMHUB work; amdx_sim: the
 *			process that injected a gfx or sdma UE), else 0;
 *			(minor 9, in a struct amdx_event_v2 record)
 *			driver_event: the device driver's own id of the
 *			RAS event the error belongs to, else 0; (minor 10,
 *			in a struct amdx_event_v3 record) that event's
 *			type, %AMDX_DRIVER_EVENT_*.
 * PAGE_PENDING:	address of the page to retire.
 * PAGE_RETIRED:	address; data[0] %AMDX_BADPAGE_CAUSE_*;
 *			data[1] pages of process data moved off it.
 * POISON_CONSUMED:	address; data[0] pid of the consumer; data[1]
 *			(minor 2) the action the consumption sets, the
 *			consumer's restart (AMDX_RECOVERY_SUM_*: process,
 *			one process); a RECOVERY record (PENDING) follows
 *			once the consumer is named in the action of the
 *			page's partition.
 * ACTION_START:	data[0] %AMDX_ACTION_*.
 * ACTION_END:		data[0] %AMDX_ACTION_*; data[1] 0 or -errno;
 *			address: duration in ns.
 *			%AMDX_ACTION_LINK_MOVE and (minor 5)
 *			%AMDX_ACTION_LINK_REVOKE (both records): instance
 *			the link, type the device at its other end (in a
 *			scale-up pod, where two devices meet through a
 *			switch, the worse link of their best plane); END's
 *			address the duration, data[1] 0 or -errno.
 * PARTITION_*:		partition.
 * VF_RESET:		instance: the VF; type: %AMDX_VF_RESET_CAUSE_*;
 *			data[0] %AMDX_VF_RESET_*; data[1] its
 *			%AMDX_PART_STATE_* afterwards.  FLR: address bytes
 *			of VRAM the VF held, cleared by the reset.  RAS:
 *			partition: the compute partition reset; data[0]
 *			%AMDX_VF_RESET_UNANNOUNCED.
 * DEVICE_RESET_BEGIN:	data[0] bitmap of the device ids (< 64) affected.
 * DEVICE_RESET_END:	data[0] 0 or -errno; -EALREADY: the device's driver
 *			was resetting it on its own already, and that reset
 *			(its own DEVICE_RESET_BEGIN/END follow) stands for
 *			this one.
 * RMA:			data[0] retired pages.
 * PARTITION_SWITCH:	type: %AMDX_PART_STEP_*; data[0] 0 or -errno;
 *			address: duration in ns.
 * MIGRATE:		type: 0 to VRAM, 1 to system memory; data[0] pid;
 *			data[1] pages.
 * DRAINED:		a partition switch moved a holder's data home:
 *			partition: the memory partition; data[0] pid;
 *			data[1] its pages there before the drain.
 * RECOVERY:		(minor 1) a target's pending action changed:
 *			type %AMDX_RECOVERY_EV_*; block the %AMDX_FAULT_*;
 *			partition and instance (VF, else %AMDX_VF_NONE) the
 *			target; address the seq of the event that set the
 *			action (0: this record itself); data[0] %AMDX_RECOVERY_SUM_* of the action
 *			now pending (none once cleared); data[1] est. ms
 *			(PENDING), 0 or -errno (the others).
 * LINK:		(minor 2) a link of the device's hive changed
 *			state: instance the link (%AMDX_QUERY_LINKS);
 *			type its new %AMDX_LINK_STATE_*; block the one
 *			before; address the device at its other end
 *			(minor 5: U32_MAX for no device of this host; a
 *			pod link with no end here goes to the pod's
 *			lowest member);
 *			data[0] the %AMDX_LINK_CONTAIN_* it asks for;
 *			data[1] hops between its ends now (0: no route).
 *			Emitted to the devices at both ends.
 *
 * A pid (POISON_CONSUMED, MIGRATE, DRAINED: data[0]; ERROR: struct
 * amdx_event_v1's pid) is the thread-group id in the subscriber's pid
 * namespace, for a subscriber with CAP_SYS_ADMIN or the process's
 * effective uid (both as at subscription); otherwise, or when the process
 * is not visible in that namespace, 0.  ERROR's pasid goes with its pid:
 * 0 wherever the pid is.
 */
#define AMDX_EVENT_LOST			0
#define AMDX_EVENT_ERROR		1
#define AMDX_EVENT_PAGE_PENDING		2
#define AMDX_EVENT_PAGE_RETIRED		3
#define AMDX_EVENT_POISON_CONSUMED	4
#define AMDX_EVENT_ACTION_START		5
#define AMDX_EVENT_ACTION_END		6
#define AMDX_EVENT_PARTITION_QUARANTINED 7
#define AMDX_EVENT_PARTITION_RESTORED	8
#define AMDX_EVENT_PARTITION_OFFLINE	9
#define AMDX_EVENT_VF_RESET		10
#define AMDX_EVENT_DEVICE_RESET_BEGIN	11
#define AMDX_EVENT_DEVICE_RESET_END	12
#define AMDX_EVENT_RMA			13
#define AMDX_EVENT_PARTITION_SWITCH	14
#define AMDX_EVENT_MIGRATE		15
#define AMDX_EVENT_DRAINED		16
#define AMDX_EVENT_RECOVERY		17
#define AMDX_EVENT_LINK			18
#define AMDX_EVENT_KIND_COUNT		19
#define AMDX_EVENT_MASK_ALL		((1ULL << AMDX_EVENT_KIND_COUNT) - 1)

/* AMDX_EVENT_RECOVERY.type */
#define AMDX_RECOVERY_EV_PENDING	0	/* a fault set the action */
#define AMDX_RECOVERY_EV_STOPPED	1	/* RUN stopped the holders */
#define AMDX_RECOVERY_EV_RAN		2	/* the action ran: data[1] */
#define AMDX_RECOVERY_EV_SELFTEST	3	/* self-test: data[1] */
#define AMDX_RECOVERY_EV_CLEARED	4	/* back to none */
#define AMDX_RECOVERY_EV_ESCALATED	5	/* self-test failed: next rung */
#define AMDX_RECOVERY_EV_FAILED		6	/* action failed midway */

/* Containment actions (AMDX_EVENT_ACTION_*.data[0]). */
#define AMDX_ACTION_SOFT_RETIRE		1
#define AMDX_ACTION_POISON_RETIRE	2
#define AMDX_ACTION_PARTITION_RESET	3
#define AMDX_ACTION_DEVICE_RESET	4
/*
 * (minor 3) What a fabric link's containment moved off it (move, park):
 * instance the link (%AMDX_QUERY_LINKS), type the device at its other
 * end; ACTION_END's data[1] 0 or -errno as for any action.  Between two
 * devices of a scale-up pod (through a switch) the moves come when no
 * plane serves both, instance the worse link of their best plane.
 */
#define AMDX_ACTION_LINK_MOVE		5
/*
 * (minor 5) What a fabric link's containment left in place and took the
 * other end's access to instead (ranges with %AMDX_HMM_F_PIN): the same
 * fields as %AMDX_ACTION_LINK_MOVE.
 */
#define AMDX_ACTION_LINK_REVOKE		6

/**
 * struct amdx_event - one record of the event log (64 bytes)
 * @seq: sequence number, per device or hive-wide within a hive, starting
 *	at 1; a LOST record carries the seq of the first record missed.
 * @timestamp_ns: CLOCK_MONOTONIC.
 * @kind: %AMDX_EVENT_*.
 * @size: sizeof(struct amdx_event) as written.
 * @device: amdx device id.
 * @block: %AMDX_RAS_BLOCK_* for errors, else 0.
 * @type: %AMDX_RAS_TYPE_* for errors, else kind-specific.
 * @instance: block instance (or VF), else 0.
 * @partition: compute partition or %AMDX_RAS_PARTITION_ALL.
 * @address: VRAM byte address or kind-specific.
 * @data: kind-specific, see %AMDX_EVENT_*.
 */
struct amdx_event {
	__u64 seq;
	__u64 timestamp_ns;
	__u16 kind;
	__u16 size;
	__u32 device;
	__u32 block;
	__u32 type;
	__u32 instance;
	__u32 partition;
	__u64 address;
	__u64 data[2];
};

/**
 * struct amdx_event_v1 - a record of an event fd subscribed with
 *	%AMDX_EVENT_F_SIZE_VER1 (minor 3; %AMDX_EVENT_SIZE_VER1 bytes)
 * @ev: the record, its @ev.size %AMDX_EVENT_SIZE_VER1.
 * @pid: ERROR: the process that consumed the error (the rule for pids
 *	above), else 0.
 * @pasid: ERROR: that process's PASID on the device (0: none, or the pid
 *	is 0), else 0.
 *
 * Records grow only on request: a subscriber without the flag keeps
 * 64-byte struct amdx_event records, these fields cut off.
 */
struct amdx_event_v1 {
	struct amdx_event ev;
	__u32 pid;
	__u32 pasid;
};

/**
 * struct amdx_event_v2 - a record of an event fd subscribed with
 *	%AMDX_EVENT_F_SIZE_VER2 (minor 9; %AMDX_EVENT_SIZE_VER2 bytes)
 * @v1: the struct amdx_event_v1 record, its @v1.ev.size
 *	%AMDX_EVENT_SIZE_VER2.
 * @driver_event: ERROR: the device driver's own id of the RAS event the
 *	error belongs to, else 0.  amdgpu: the event id its kernel log
 *	prints as "{id}" in each line of the event (one sequence per hive,
 *	from 1, over its fatal, poison creation and poison consumption
 *	events; 0 for an error its periodic or sysfs query found);
 *	amdx_sim: its count of the device's uncorrectable and deferred
 *	errors injected, from 1 (0 for a CE).
 */
struct amdx_event_v2 {
	struct amdx_event_v1 v1;
	__u64 driver_event;
};

/*
 * (minor 10) struct amdx_event_v3.driver_event_type: what the device
 * driver's RAS event was.  NONE: the error belongs to no event (its
 * driver_event is 0).
 */
#define AMDX_DRIVER_EVENT_NONE			0
/* An uncorrectable error the device could not contain: it is reset. */
#define AMDX_DRIVER_EVENT_FATAL			1
/* A poison was created (stored) in memory: a deferred error. */
#define AMDX_DRIVER_EVENT_POISON_CREATION	2
/* A poison was consumed: a process's work read it. */
#define AMDX_DRIVER_EVENT_POISON_CONSUMPTION	3

/**
 * struct amdx_event_v3 - a record of an event fd subscribed with
 *	%AMDX_EVENT_F_SIZE_VER3 (minor 10; %AMDX_EVENT_SIZE_VER3 bytes)
 * @v2: the struct amdx_event_v2 record, its @v2.v1.ev.size
 *	%AMDX_EVENT_SIZE_VER3.
 * @driver_event_type: ERROR: %AMDX_DRIVER_EVENT_*, the type of the RAS
 *	event @v2.driver_event names (NONE where that is 0), else 0.
 *	amdgpu: its event's type (fatal, poison creation, poison
 *	consumption).  amdx_sim: a DE poison creation, a UE with a consumer
 *	(struct amdx_event_v1's pid) poison consumption, any other UE fatal.
 * @reserved: zero.
 */
struct amdx_event_v3 {
	struct amdx_event_v2 v2;
	__u32 driver_event_type;
	__u32 reserved;
};

/* Ring sizes in records: a power of two. */
#define AMDX_EVENT_RING_MIN		16
#define AMDX_EVENT_RING_DEFAULT		4096
#define AMDX_EVENT_RING_MAX		65536

/* struct amdx_event_subscribe.flags */
/* read() returns -EAGAIN instead of waiting (the fd's O_NONBLOCK). */
#define AMDX_EVENT_F_NONBLOCK		_BITUL(0)
/* (minor 3) read() returns struct amdx_event_v1 records, not amdx_event. */
#define AMDX_EVENT_F_SIZE_VER1		_BITUL(1)
/*
 * (minor 9) read() returns struct amdx_event_v2 records; with
 * %AMDX_EVENT_F_SIZE_VER1 as well, -EINVAL.
 */
#define AMDX_EVENT_F_SIZE_VER2		_BITUL(2)
/*
 * (minor 10) read() returns struct amdx_event_v3 records; with another
 * size flag as well, -EINVAL.
 */
#define AMDX_EVENT_F_SIZE_VER3		_BITUL(3)
#define AMDX_EVENT_F_ALL		0xfU

/*
 * Most subscribers of one device's event log.  Every emission visits each
 * subscriber with interrupts off, so their number is bounded: without
 * CAP_SYS_ADMIN a subscription beyond %AMDX_EVENT_SUBSCRIBERS_MAX -
 * %AMDX_EVENT_SUBSCRIBERS_RESERVED fails with -EMFILE (as inotify's
 * instance limit), the rest are kept for administrators (monitoring
 * daemons) up to %AMDX_EVENT_SUBSCRIBERS_MAX.  Within that, one effective
 * uid without CAP_SYS_ADMIN holds at most %AMDX_EVENT_SUBSCRIBERS_PER_USER
 * subscriptions of a device (-EMFILE beyond, as inotify's per-user
 * instance limit), so no user can take every place.
 */
#define AMDX_EVENT_SUBSCRIBERS_MAX	256
#define AMDX_EVENT_SUBSCRIBERS_RESERVED	32
#define AMDX_EVENT_SUBSCRIBERS_PER_USER	32

/**
 * struct amdx_event_subscribe - argument of %AMDX_IOC_EVENT_SUBSCRIBE
 * @mask: in: bit (1 << %AMDX_EVENT_*) per kind wanted; 0, unknown bits
 *	or only the LOST bit is -EINVAL.  LOST records always arrive.
 * @ring_size: in: records the subscriber's ring holds, a power of two,
 *	0 for %AMDX_EVENT_RING_DEFAULT.
 * @flags: in: %AMDX_EVENT_F_*; the fd is always O_CLOEXEC.
 * @fd: out: the event fd; installed only once the argument is copied
 *	back, so a failed copy (-EFAULT) leaves no fd behind.
 * @pad: zero.
 * @reserved: zero.
 *
 * Needs no privilege.  Each subscriber has its own ring and sees every
 * event from its subscription on.
 */
struct amdx_event_subscribe {
	__u64 mask;
	__u32 ring_size;
	__u32 flags;
	__s32 fd;
	__u32 pad;
	__u64 reserved[2];
};

/*
 * First-version sizes of the extensible structures (as OPEN_HOW_SIZE_VER0
 * in <linux/openat2.h>).  An ioctl argument shorter than its _SIZE_VER0 is
 * -EINVAL; a fixed-size query result is written truncated to any buffer of
 * at least its _SIZE_VER0; an array entry is at least its _SIZE_VER0 (read
 * entries by the result's entry_size).  These never change; sizeof() of a
 * structure may grow.
 */
/* ioctl arguments */
#define AMDX_QUERY_SIZE_VER0			40
#define AMDX_DEVICE_OPEN_SIZE_VER0		16
#define AMDX_HMM_ATTR_SIZE_VER0			56
#define AMDX_HMM_MIGRATE_SIZE_VER0		72
#define AMDX_HMM_ACCESS_SIZE_VER0		64
#define AMDX_PARTITION_CONFIG_SIZE_VER0		200
#define AMDX_VF_ENABLE_SIZE_VER0		48
#define AMDX_VF_DISABLE_SIZE_VER0		8
#define AMDX_VF_SET_SIZE_VER0			48
#define AMDX_VF_RESET_SIZE_VER0			48
#define AMDX_RAS_INJECT_SIZE_VER0		56
#define AMDX_RAS_POLICY_SIZE_VER0		48
#define AMDX_RAS_BADPAGES_IMPORT_SIZE_VER0	40
#define AMDX_RECOVERY_SIZE_VER0			240
#define AMDX_EVENT_SUBSCRIBE_SIZE_VER0		40
/* fixed-size query results (struct amdx_ras_policy above) */
#define AMDX_QUERY_CAPS_SIZE_VER0		56
#define AMDX_DEVICE_INFO_SIZE_VER0		448
#define AMDX_DEVICE_STATS_SIZE_VER0		160
#define AMDX_RESET_SCOPE_SIZE_VER0		88
/* array entries and records */
#define AMDX_DEVICE_ENTRY_SIZE_VER0		40
#define AMDX_FIRMWARE_INFO_SIZE_VER0		24
#define AMDX_HMM_RANGE_INFO_SIZE_VER0		128
#define AMDX_PARTITION_INFO_SIZE_VER0		64
#define AMDX_PARTITION_HOLDER_SIZE_VER0		32
#define AMDX_VF_CONFIG_SIZE_VER0		40
#define AMDX_VF_INFO_SIZE_VER0			80
#define AMDX_RAS_COUNTERS_SIZE_VER0		48
#define AMDX_RECOVERY_PROCESS_SIZE_VER0		40
#define AMDX_LINK_INFO_SIZE_VER0		144
#define AMDX_EVENT_SIZE_VER0			64
#define AMDX_EVENT_SIZE_VER1			72	/* struct amdx_event_v1 */
#define AMDX_EVENT_SIZE_VER2			80	/* struct amdx_event_v2 */
#define AMDX_EVENT_SIZE_VER3			88	/* struct amdx_event_v3 */

#define AMDX_IOCTL_BASE			0xA7

/* On /dev/amdx and on device fds. */
#define AMDX_IOC_QUERY		_IOWR(AMDX_IOCTL_BASE, 0x00, struct amdx_query)
/* On /dev/amdx only. */
#define AMDX_IOC_DEVICE_OPEN	_IOWR(AMDX_IOCTL_BASE, 0x01, struct amdx_device_open)
/* On device fds only. */
#define AMDX_IOC_HMM_SET_ATTR	_IOW(AMDX_IOCTL_BASE, 0x10, struct amdx_hmm_attr)
#define AMDX_IOC_HMM_MIGRATE	_IOWR(AMDX_IOCTL_BASE, 0x11, struct amdx_hmm_migrate)
#define AMDX_IOC_HMM_ACCESS	_IOWR(AMDX_IOCTL_BASE, 0x12, struct amdx_hmm_access)
#define AMDX_IOC_PARTITION_PLAN	_IOWR(AMDX_IOCTL_BASE, 0x20, struct amdx_partition_config)
#define AMDX_IOC_PARTITION_COMMIT _IOWR(AMDX_IOCTL_BASE, 0x21, struct amdx_partition_config)
#define AMDX_IOC_VF_ENABLE	_IOWR(AMDX_IOCTL_BASE, 0x22, struct amdx_vf_enable)
#define AMDX_IOC_VF_DISABLE	_IOW(AMDX_IOCTL_BASE, 0x23, struct amdx_vf_disable)
#define AMDX_IOC_VF_SET		_IOW(AMDX_IOCTL_BASE, 0x24, struct amdx_vf_set)
#define AMDX_IOC_VF_RESET	_IOWR(AMDX_IOCTL_BASE, 0x25, struct amdx_vf_reset)
#define AMDX_IOC_RAS_INJECT	_IOWR(AMDX_IOCTL_BASE, 0x30, struct amdx_ras_inject)
#define AMDX_IOC_RAS_SET_POLICY	_IOW(AMDX_IOCTL_BASE, 0x31, struct amdx_ras_policy)
#define AMDX_IOC_RAS_BADPAGES_IMPORT _IOWR(AMDX_IOCTL_BASE, 0x32, struct amdx_ras_badpages_import)
#define AMDX_IOC_RECOVERY_PLAN	_IOWR(AMDX_IOCTL_BASE, 0x34, struct amdx_recovery)
#define AMDX_IOC_RECOVERY_RUN	_IOWR(AMDX_IOCTL_BASE, 0x35, struct amdx_recovery)
#define AMDX_IOC_EVENT_SUBSCRIBE _IOWR(AMDX_IOCTL_BASE, 0x33, struct amdx_event_subscribe)

#endif /* _UAPI_LINUX_AMDX_H */
