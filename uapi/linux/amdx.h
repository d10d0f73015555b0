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

/**
 * struct amdx_query - argument of %AMDX_IOC_QUERY
 * @query: in: which query (%AMDX_QUERY_*).
 * @size: in: size in bytes of the buffer at @data, or 0 to ask for the size.
 *	out: size of the result.  Two-call protocol: call with @size 0 to learn
 *	the size, allocate, call again.  If the buffer is too small the ioctl
 *	fails with -ENOSPC and still writes the needed size here.
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
 * @pad: zero.
 * @devices: the devices, sorted by id.
 */
struct amdx_query_devices {
	__u32 num_devices;
	__u32 pad;
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

#define AMDX_IOCTL_BASE			0xA7

/* On /dev/amdx and on device fds. */
#define AMDX_IOC_QUERY		_IOWR(AMDX_IOCTL_BASE, 0x00, struct amdx_query)
/* On /dev/amdx only. */
#define AMDX_IOC_DEVICE_OPEN	_IOWR(AMDX_IOCTL_BASE, 0x01, struct amdx_device_open)

#endif /* _UAPI_LINUX_AMDX_H */
