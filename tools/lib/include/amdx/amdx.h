/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * libamdx's C ABI: the same library as <amdx/amdx.hpp>, for C programs and
 * foreign-function interfaces.
 *
 *  - Handles are opaque (amdx_ctl: /dev/amdx, amdx_dev: a device fd,
 *    amdx_events: a subscription) and freed by their _close().
 *  - Every call returns 0 (or a count, where it says so) or a negative
 *    errno; amdx_last_error() copies the failure's one-line message
 *    (call, device, cause, errno) into a caller buffer.
 *  - Data comes back in the uapi's own structures (<linux/amdx.h>) in
 *    buffers the caller owns: list calls take a capacity and report the
 *    entries that exist in *count (-ENOSPC, with *count set, when the
 *    buffer is too small; call with capacity 0 to ask).
 *  - Every structure is size-versioned as the uapi's are: the caller
 *    passes the size it was built with (sizeof(*out), and for arrays the
 *    entry_size of one element), so a library built against a newer uapi
 *    never writes past an older caller's buffer.  Outputs are written
 *    truncated to the caller's size, and a caller's bytes the library does
 *    not know are zeroed.  Inputs are read as the kernel's
 *    copy_struct_from_user() does: a shorter structure is zero-extended, a
 *    longer one is accepted only if the bytes the library does not know
 *    are zero (-E2BIG otherwise).  A size below the structure's first
 *    version (its AMDX_*_SIZE_VER0) is -EINVAL, one above
 *    AMDX_C_STRUCT_SIZE_MAX -E2BIG; both name the structure in
 *    amdx_last_error().  List headers (struct amdx_query_partitions,
 *    struct amdx_query_ras, struct amdx_query_firmware) end in their
 *    entries and never grow.
 *
 * Thread safety: as in C++, calls on one handle may run concurrently;
 * closing a handle while another thread uses it is the caller's bug.
 * amdx_last_error() is per thread.
 */
#ifndef AMDX_AMDX_H
#define AMDX_AMDX_H

#include <stddef.h>
#include <stdint.h>

#include <linux/amdx.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AMDX_C_API __attribute__((visibility("default")))

/* The largest structure or entry size a call accepts (as config_size of
 * struct amdx_vf_enable): a page. */
#define AMDX_C_STRUCT_SIZE_MAX 4096

typedef struct amdx_ctl amdx_ctl;
typedef struct amdx_dev amdx_dev;
typedef struct amdx_events amdx_events;

/* The library's version, "8.0.0". */
AMDX_C_API const char *amdx_version(void);
/*
 * The calling thread's last failure as one line, NUL-terminated and cut to
 * @len bytes; returns the full length (like snprintf).
 */
AMDX_C_API size_t amdx_last_error(char *buf, size_t len);

/* Opens @path (NULL: /dev/amdx) and checks the uapi major version
 * (-EPROTONOSUPPORT for another). */
AMDX_C_API int amdx_ctl_open(const char *path, amdx_ctl **out);
AMDX_C_API void amdx_ctl_close(amdx_ctl *ctl);
AMDX_C_API int amdx_ctl_caps(const amdx_ctl *ctl, struct amdx_query_caps *out, size_t size);
/* The devices, by id. */
AMDX_C_API int amdx_ctl_devices(const amdx_ctl *ctl, struct amdx_device_entry *buf,
				size_t entry_size, size_t cap, size_t *count);
AMDX_C_API int amdx_ctl_device_info(const amdx_ctl *ctl, uint32_t id,
				    struct amdx_device_info *out, size_t size);

AMDX_C_API int amdx_dev_open(const amdx_ctl *ctl, uint32_t id, amdx_dev **out);
AMDX_C_API void amdx_dev_close(amdx_dev *dev);
AMDX_C_API uint32_t amdx_dev_id(const amdx_dev *dev);

/* %AMDX_QUERY_STATS: the device's cumulative counters. */
AMDX_C_API int amdx_dev_stats(const amdx_dev *dev, struct amdx_device_stats *out, size_t size);
/* Compute partitions; @hdr (may be NULL) receives modes and generation. */
AMDX_C_API int amdx_dev_partitions(const amdx_dev *dev, struct amdx_query_partitions *hdr,
				   struct amdx_partition_info *buf, size_t entry_size, size_t cap,
				   size_t *count);
/*
 * %AMDX_IOC_PARTITION_PLAN / _COMMIT of @cfg's inputs (compute_mode,
 * memory_mode, flags, deadline_ms; the array pointers are the caller's and
 * go to the kernel as they are), @size bytes.  The outputs are written
 * back to @cfg whenever the kernel wrote them; the return value is the
 * ioctl's: a refused or rolled-back commit is negative.
 */
AMDX_C_API int amdx_dev_partition_plan(const amdx_dev *dev, struct amdx_partition_config *cfg,
				       size_t size);
AMDX_C_API int amdx_dev_partition_commit(const amdx_dev *dev, struct amdx_partition_config *cfg,
					 size_t size);

/* SR-IOV VFs. */
AMDX_C_API int amdx_dev_vfs(const amdx_dev *dev, struct amdx_vf_info *buf, size_t entry_size,
			    size_t cap, size_t *count);
/* @configs NULL: auto-provisioned; else @num_vfs entries of @config_size. */
AMDX_C_API int amdx_dev_vf_enable(const amdx_dev *dev, uint32_t num_vfs,
				  const struct amdx_vf_config *configs, size_t config_size);
AMDX_C_API int amdx_dev_vf_disable(const amdx_dev *dev);
/* @out (may be NULL) receives the reset's outcome, or a refusal's reason (since 6.1). */
AMDX_C_API int amdx_dev_vf_reset(const amdx_dev *dev, uint32_t vf, struct amdx_vf_reset *out,
				 size_t size);

/*
 * %AMDX_IOC_RECOVERY_PLAN / _RUN (since 3.1) of @r's inputs (action,
 * flags, partition, vf, num_listed and the caller's processes array), @size
 * bytes: the outputs are written back to @r whenever the kernel wrote them;
 * the return value is the ioctl's (-EBUSY holders without
 * AMDX_RECOVERY_F_STOP, -EXDEV other devices without
 * AMDX_RECOVERY_F_OTHERS, -ENOENT nothing pending, -EOPNOTSUPP).  A run
 * that happened is 0 with its outcome and error in @r.
 */
AMDX_C_API int amdx_dev_recovery_plan(const amdx_dev *dev, struct amdx_recovery *r, size_t size);
AMDX_C_API int amdx_dev_recovery_run(const amdx_dev *dev, struct amdx_recovery *r, size_t size);

/*
 * Fabric links of the device's hive (%AMDX_QUERY_LINKS, uapi minor 2;
 * Documentation/fabric.rst); @hdr (may be NULL) receives the hive id and
 * the count.  A device in no hive has none (0, *@count 0).
 */
AMDX_C_API int amdx_dev_links(const amdx_dev *dev, struct amdx_query_links *hdr,
			      struct amdx_link_info *buf, size_t entry_size, size_t cap,
			      size_t *count);

/*
 * Driver and firmware versions (%AMDX_QUERY_FIRMWARE, uapi minor 4, since
 * 4.0): @hdr (may be NULL) receives the driver's and the provider's
 * versions and the count, @buf the firmware entries.  -EOPNOTSUPP from a
 * provider that reads none, -EINVAL from a module before minor 4.
 */
AMDX_C_API int amdx_dev_firmware(const amdx_dev *dev, struct amdx_query_firmware *hdr,
				 struct amdx_firmware_info *buf, size_t entry_size, size_t cap,
				 size_t *count);

/* RAS: counter rows (@hdr may be NULL), injection, the bad pages. */
AMDX_C_API int amdx_dev_ras_counters(const amdx_dev *dev, struct amdx_query_ras *hdr,
				     struct amdx_ras_counters *buf, size_t entry_size, size_t cap,
				     size_t *count);
AMDX_C_API int amdx_dev_ras_inject(const amdx_dev *dev, struct amdx_ras_inject *inj,
				   size_t size);
AMDX_C_API int amdx_dev_badpages(const amdx_dev *dev, struct amdx_badpage_record *buf,
				 size_t entry_size, size_t cap, size_t *count);

/* Events: a subscription (@mask of (1 << AMDX_EVENT_*), ring_size 0:
 * default) and its records. */
AMDX_C_API int amdx_dev_subscribe(const amdx_dev *dev, uint64_t mask, uint32_t ring_size,
				  amdx_events **out);
AMDX_C_API void amdx_events_close(amdx_events *events);
/* The fd, for poll/epoll; owned by @events. */
AMDX_C_API int amdx_events_fd(const amdx_events *events);
/*
 * Waits up to @timeout_ms (negative: no limit) for records and reads at
 * most @cap into @buf, @entry_size bytes each (each record's size field
 * says how many of them the library wrote); returns how many (0 on
 * timeout).  -ENODEV once the device is gone.  Records are struct
 * amdx_event_v3 (since 4.0: ERROR's pid and pasid; since 7.0: its
 * driver_event; since 8.0: driver_event_type) cut to @entry_size: pass
 * &v3[0].v2.v1.ev and sizeof(struct amdx_event_v3) to receive them all,
 * sizeof(struct amdx_event_v2) for the event id, sizeof(struct
 * amdx_event_v1) for pid and pasid, sizeof(struct amdx_event) to keep
 * 64-byte records.  pid and pasid are 0 from a module before uapi minor
 * 3, driver_event from one before minor 9, driver_event_type from one
 * before minor 10.
 */
AMDX_C_API int amdx_events_read(const amdx_events *events, struct amdx_event *buf,
				size_t entry_size, size_t cap, int timeout_ms);

#ifdef __cplusplus
}
#endif

#endif /* AMDX_AMDX_H */
