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
 *  - queries need no privilege; changes need CAP_SYS_ADMIN.
 */
#ifndef _UAPI_LINUX_AMDX_H
#define _UAPI_LINUX_AMDX_H

#include <linux/const.h>
#include <linux/ioctl.h>
#include <linux/types.h>

#define AMDX_UAPI_VERSION_MAJOR		1
#define AMDX_UAPI_VERSION_MINOR		0

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
#define AMDX_BDF_LEN			16
#define AMDX_SERIAL_LEN			32
#define AMDX_PRODUCT_LEN		64

/* Query identifiers (struct amdx_query.query). */
#define AMDX_QUERY_CAPS			0	/* struct amdx_query_caps */
#define AMDX_QUERY_DEVICES		1	/* struct amdx_query_devices */
#define AMDX_QUERY_DEVICE_INFO		2	/* struct amdx_device_info */
#define AMDX_QUERY_HMM_RANGES		3	/* struct amdx_query_hmm_ranges */

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
 * @id: device id, stable while the device exists, never reused while
 *	amdx is loaded.
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
 * struct amdx_device_open - argument of %AMDX_IOC_DEVICE_OPEN
 * @id: in: device id.
 * @flags: in: must be 0; the fd is always O_CLOEXEC and O_RDWR.
 * @fd: out: the device fd.  It holds a reference on the device; once the
 *	device is removed every call on it fails with -ENODEV.
 * @pad: zero.
 */
struct amdx_device_open {
	__u32 id;
	__u32 flags;
	__s32 fd;
	__u32 pad;
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

/**
 * struct amdx_hmm_attr - argument of %AMDX_IOC_HMM_SET_ATTR
 * @start: first byte, page aligned.
 * @size: bytes, page aligned, non-zero.
 * @valid: %AMDX_HMM_ATTR_* bits naming the attributes to set; the others
 *	keep their value (new ranges start with the defaults: system,
 *	granularity 9, no flags, access by this device only).
 * @preferred_loc: a memory partition index or %AMDX_HMM_LOC_SYSTEM.
 * @granularity: log2 of the migration unit in pages, at most
 *	%AMDX_HMM_GRANULARITY_MAX.
 * @flags: %AMDX_HMM_F_*.
 * @access: bit N set: amdx device N may access the range.  Only device
 *	ids below 64 can be named; new ranges of a device with a larger id
 *	start with no bits set.
 * @reserved: zero.
 *
 * The range must be mapped, private (not MAP_SHARED), anonymous or a
 * private file mapping, and not PROT_NONE.  Setting attributes on part of
 * an existing range splits it; adjacent ranges with equal attributes merge.
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
 * system memory first.
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
 * @resident_pages: pages in this device's VRAM right now.
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
 * @pid: thread-group id of the process the fd belongs to.
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

#define AMDX_IOCTL_BASE			0xA7

/* On /dev/amdx and on device fds. */
#define AMDX_IOC_QUERY		_IOWR(AMDX_IOCTL_BASE, 0x00, struct amdx_query)
/* On /dev/amdx only. */
#define AMDX_IOC_DEVICE_OPEN	_IOWR(AMDX_IOCTL_BASE, 0x01, struct amdx_device_open)
/* On device fds only. */
#define AMDX_IOC_HMM_SET_ATTR	_IOW(AMDX_IOCTL_BASE, 0x10, struct amdx_hmm_attr)
#define AMDX_IOC_HMM_MIGRATE	_IOWR(AMDX_IOCTL_BASE, 0x11, struct amdx_hmm_migrate)
#define AMDX_IOC_HMM_ACCESS	_IOWR(AMDX_IOCTL_BASE, 0x12, struct amdx_hmm_access)

#endif /* _UAPI_LINUX_AMDX_H */
