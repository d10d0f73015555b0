/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The device object and its registry (amdx_device.c): what every feature
 * of amdx.ko hangs off.  Includes nothing of a layer above it.
 */
#ifndef _AMDX_CORE_H_
#define _AMDX_CORE_H_

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/rwsem.h>
#include <linux/types.h>
#include <linux/xarray.h>
#include <linux/amdx.h>

#include <asm/page.h>

#include <amdx/amdx_provider.h>

#include "amdx_event_types.h"

/**
 * DOC: lock order
 *
 * The one table for all of amdx.ko; each lock's own comment says what it
 * protects.  A lock is taken only while holding nothing, or locks above it
 * on its own chain::
 *
 *   &amdx_device.lock             rwsem; read by ioctl handlers, sysfs and
 *    |                            queries, write by unregister
 *    +-> amdx_part_hive_lock      mutex, interruptible; hive-wide commits
 *    |    +-> &amdx_part_dev.lock mutex; hive members' nest (try-locked)
 *    |         +-> &amdx_part_dev.gate   rwsem; read by every migration,
 *    |              |                    write by a commit and VF changes
 *    |              +-> mmap_lock
 *    +-> &amdx_ras.lock           mutex; held across containment
 *    |    +-> &amdx_hmm_dev.lock, page locks, &amdx_part_dev.lock
 *    +-> amdx_link_lock           mutex; every hive's links (amdx_link.c)
 *    |    +-> &amdx_event_source.lock
 *    +-> &amdx_event_source.lock  spinlock, irqsave, any context
 *    |    +-> wait queue locks
 *    +-> mmap_lock
 *         +-> &amdx_hmm_dev.lock  mutex
 *         |    +-> &amdx_hmm_ctx.lock   spinlock
 *         |    +-> the registry's xarray lock (SET_ATTR's access check)
 *         +-> &amdx_hmm_ctx.mirror_lock   mutex; the notifier takes it
 *
 *   &amdx_event_sub.read_lock     mutex; a reader's copy-out
 *    +-> mmap_lock
 *    +-> &amdx_event_source.lock  (queueing a LOST record)
 *
 *   the VRAM allocator's lock     spinlock (amdx_vram.c); under any of
 *    |                            the above and page-table locks (a
 *    |                            device page's page_free())
 *    +-> its holders' xarray lock (erasing a dropped holder)
 *
 *   &amdx_hmm_dev.holders' lock   xa_lock; innermost (only mmgrab() and
 *                                 the xarray under it)
 *
 * A move by VRAM index (amdx_hmm_devmove.c) only tries the mmap locks of
 * the address spaces it holds still, under any lock above: a trylock
 * never waits, so it is outside this order.
 *
 * Never: an mmap lock waited for under &amdx_ras.lock (the CPU fault
 * path reads the poison map under the mmap lock without it); anything that sleeps under
 * &amdx_event_source.lock or &amdx_hmm_ctx.lock; a device lock across a
 * copy from or to user memory; a context lock across migrate_vma or
 * hmm_range_fault; the partition manager calling into RAS.  The hive
 * event list's spinlock nests under nothing and over nothing.
 */

struct amdx_ras;
struct amdx_part_dev;
struct amdx_query;
struct dentry;
struct device;

/**
 * struct amdx_hmm_dev - HMM state of one device
 * @lock: protects @ctxs.  Order: mmap_lock -> @lock -> ctx->lock, and
 *	@lock -> the device registry's lock (SET_ATTR checks access bits).
 * @ctxs: the device's HMM contexts (&amdx_hmm_ctx.dev_node).
 * @holders: holder id -> the context that has it, from its first
 *	migration towards VRAM (amdx_hmm_ctx_holder_get()) until its fd's
 *	data is home (amdx_hmm_file_release()); its xa_lock makes a
 *	context's mm safe to grab (amdx_hmm_devmove.c).
 * @link_avoid: bit N: the fabric link to device N takes no new data
 *	(amdx_hmm_link_avoid(), amdx_hmm_link.c); atomic bits, no lock.
 * @link_idx: per device N, the index of the link to it, for the log.
 */
struct amdx_hmm_dev {
	struct mutex lock;	/* see above */
	struct list_head ctxs;
	struct xarray holders;
	DECLARE_BITMAP(link_avoid, AMDX_MAX_DEVICES);
	u32 link_idx[AMDX_MAX_DEVICES];
};

/**
 * enum amdx_device_stage - when a device action runs
 * @AMDX_DEVICE_UNPUBLISH: in amdx_device_unregister(), first: take down
 *	what userspace finds the device by (sysfs, debugfs).
 * @AMDX_DEVICE_REMOVE: in amdx_device_unregister(), once no op runs any
 *	more and before the id is free: end the event log, move pages home.
 * @AMDX_DEVICE_RELEASE: when the last reference goes: free state.
 * @AMDX_DEVICE_STAGES: the number of stages.
 */
enum amdx_device_stage {
	AMDX_DEVICE_UNPUBLISH,
	AMDX_DEVICE_REMOVE,
	AMDX_DEVICE_RELEASE,
	AMDX_DEVICE_STAGES
};

/* Actions a device holds: each feature adds one per stage at most. */
#define AMDX_DEVICE_ACTIONS_MAX	16

/**
 * struct amdx_device_action - teardown a feature registered
 * @fn: the function, called with the device.
 * @stage: when, an &enum amdx_device_stage.
 */
struct amdx_device_action {
	void (*fn)(struct amdx_device *adev);
	u32 stage;
};

/*
 * What moved pages, for &struct amdx_dev_stats (%AMDX_QUERY_STATS has one
 * count and one byte total per cause).
 */
enum amdx_mig_cause {
	AMDX_MIG_TO_VRAM,	/* AMDX_IOC_HMM_MIGRATE to VRAM */
	AMDX_MIG_TO_RAM,	/* AMDX_IOC_HMM_MIGRATE home */
	AMDX_MIG_FAULT,		/* a CPU fault on a device page */
	AMDX_MIG_EVICT,		/* an eviction to make room */
	AMDX_MIG_DRAIN,		/* a partition commit's drain */
	AMDX_MIG_CAUSES
};

/* Partition commit outcomes counted in &struct amdx_dev_stats. */
enum amdx_commit_outcome {
	AMDX_COMMIT_COMMITTED,
	AMDX_COMMIT_ROLLED_BACK,
	AMDX_COMMIT_REFUSED,
	AMDX_COMMIT_OUTCOMES
};

/**
 * struct amdx_dev_stats - cumulative counters of a device
 * @migrations: per &enum amdx_mig_cause, migrations that moved pages.
 * @migrated_bytes: per cause, the bytes they moved.
 * @vf_flrs: VF function-level resets performed.
 * @commits: per &enum amdx_commit_outcome, partition commits.
 *
 * Atomic, so the places that count them (the CPU fault path among them)
 * take no lock for it; each is counted at the one place it happens.  The
 * event log's emitted and lost counts live in &struct amdx_event_source.
 * Read by %AMDX_QUERY_STATS.
 */
struct amdx_dev_stats {
	atomic64_t migrations[AMDX_MIG_CAUSES];
	atomic64_t migrated_bytes[AMDX_MIG_CAUSES];
	atomic64_t vf_flrs;
	atomic64_t commits[AMDX_COMMIT_OUTCOMES];
};

/**
 * struct amdx_device - the core's view of one registered device
 * @ref: references: the registry holds one until unregister, each device
 *	fd and each in-flight lookup hold one.
 * @id: device id below %AMDX_MAX_DEVICES, unique among registered devices
 *	and free again only once amdx_device_unregister() is done.
 * @desc: static facts, copied at registration; string pointers point into
 *	@bdf, @serial and @product.
 * @bdf: copy of the provider's BDF string.
 * @serial: copy of the provider's serial number.
 * @product: copy of the provider's product name.
 * @ops: provider callbacks.
 * @priv: provider data, see amdx_device_priv().
 * @lock: readers call @ops (sysfs, queries by id, every ioctl on a device
 *	fd while its handler runs); amdx_device_unregister() takes it for
 *	write to set @dead, so no op runs after it returns.  Never held
 *	across a copy from or to user memory (the ioctl dispatcher copies
 *	outside it; handlers use amdx_device_copy_from_user() and friends),
 *	so a copy stalled on a userfaultfd page never holds up removal.
 *	Order: @lock -> mmap_lock.
 * @dead: set once the provider unregistered the device; protected by @lock.
 * @class_dev: the sysfs class device, owned by amdx_sysfs.c.
 * @debugfs: the device's debugfs directory (testing hooks), may be NULL.
 * @hmm: HMM state (contexts of the device's fds).
 * @events: the event log (subscribers, seq counter).
 * @ras: RAS state (amdx_ras.c); set before the device becomes visible,
 *	freed with the device.
 * @part: partition and SR-IOV state (amdx_partition.c); freed with the
 *	device.
 * @stats: cumulative counters (%AMDX_QUERY_STATS).
 * @actions: the teardown the features registered with
 *	amdx_device_add_action_or_reset(), in registration order; each
 *	stage runs its own in reverse.  Written only before the device is
 *	published.
 * @nactions: entries in @actions.
 */
struct amdx_device {
	struct kref ref;
	u32 id;
	struct amdx_device_desc desc;
	char bdf[AMDX_BDF_LEN];
	char serial[AMDX_SERIAL_LEN];
	char product[AMDX_PRODUCT_LEN];
	const struct amdx_provider_ops *ops;
	void *priv;
	struct rw_semaphore lock;
	bool dead;
	struct device *class_dev;
	struct dentry *debugfs;
	struct amdx_hmm_dev hmm;
	struct amdx_event_source events;
	struct amdx_ras *ras;
	struct amdx_part_dev *part;
	struct amdx_dev_stats stats;
	struct amdx_device_action actions[AMDX_DEVICE_ACTIONS_MAX];
	u32 nactions;
};

/**
 * amdx_stats_migrated() - count a migration that moved pages
 * @adev: the device.
 * @cause: what moved them.
 * @pages: pages moved; a migration of none counts nowhere.
 */
static inline void amdx_stats_migrated(struct amdx_device *adev,
				       enum amdx_mig_cause cause, u64 pages)
{
	if (!pages)
		return;
	atomic64_inc(&adev->stats.migrations[cause]);
	atomic64_add(pages << PAGE_SHIFT, &adev->stats.migrated_bytes[cause]);
}

/**
 * amdx_stats_commit() - count a partition commit's outcome
 * @adev: the device the commit was issued on.
 * @outcome: how it ended.
 */
static inline void amdx_stats_commit(struct amdx_device *adev,
				     enum amdx_commit_outcome outcome)
{
	atomic64_inc(&adev->stats.commits[outcome]);
}

/**
 * struct amdx_file - per open file of /dev/amdx or of a device fd
 * @adev: the device of a device fd, NULL for /dev/amdx.
 * @hmm: the HMM context of a device fd, NULL without HMM.
 * @owner: whom the fd's VRAM is charged to: %AMDX_OWNER_PF, or
 *	AMDX_OWNER_VF(@vf) for a fd opened with %AMDX_DEVICE_OPEN_F_VF.
 * @vf: that VF's index.
 * @vf_epoch: the VF generation it was opened in (amdx_partition_vf_open()).
 */
struct amdx_file {
	struct amdx_device *adev;
	struct amdx_hmm_ctx *hmm;
	u32 owner;
	u32 vf;
	u64 vf_epoch;
};

/* amdx_device.c */
struct amdx_device *amdx_device_create(const struct amdx_device_desc *desc,
				       const struct amdx_provider_ops *ops,
				       void *priv);
int amdx_device_add_action_or_reset(struct amdx_device *adev,
				    enum amdx_device_stage stage,
				    void (*fn)(struct amdx_device *adev));
void amdx_device_publish(struct amdx_device *adev);
void amdx_device_abort(struct amdx_device *adev);
struct amdx_device *amdx_device_get(u32 id);
struct amdx_device *amdx_device_next(unsigned long *id);
void amdx_device_put(struct amdx_device *adev);
u32 amdx_device_count(void);
u64 amdx_device_id_mask(void);
int amdx_device_list(struct amdx_device_entry *entries, u32 max, u32 *count);
int amdx_device_fill_info(struct amdx_device *adev,
			  struct amdx_device_info *info);
int amdx_device_fill_info_locked(struct amdx_device *adev,
				 struct amdx_device_info *info);
int amdx_device_hive_get(u64 hive_id, struct amdx_device **devs, u32 max,
			 u32 *count);
int amdx_device_copy_from_user(struct amdx_device *adev, void *dst,
			       const void __user *src, size_t len);
int amdx_device_copy_struct_from_user(struct amdx_device *adev, void *dst,
				      size_t ksize, const void __user *src,
				      size_t usize);
int amdx_device_copy_to_user(struct amdx_device *adev, void __user *dst,
			     const void *src, size_t len);
int amdx_query_out(struct amdx_device *locked, struct amdx_query *q,
		   const void *buf, u32 len, u32 min_len);
void amdx_device_registry_fini(void);

/*
 * Messages about a device start "amdx<id>: ", as the device's sysfs and
 * debugfs directories are named: amdx_dbg() and the others below add it.
 * Code that has the device's id but not the device (an argument check)
 * uses amdx_id_dbg(); the module's own messages start "amdx: ".
 */
#define AMDX_LOG_FMT(fmt) "amdx%u: " fmt

#define amdx_id_dbg(id, fmt, ...) \
	pr_debug(AMDX_LOG_FMT(fmt), (id), ##__VA_ARGS__)

#define amdx_dbg(adev, fmt, ...) amdx_id_dbg((adev)->id, fmt, ##__VA_ARGS__)
#define amdx_info(adev, fmt, ...) \
	pr_info(AMDX_LOG_FMT(fmt), (adev)->id, ##__VA_ARGS__)
#define amdx_warn(adev, fmt, ...) \
	pr_warn(AMDX_LOG_FMT(fmt), (adev)->id, ##__VA_ARGS__)
#define amdx_err(adev, fmt, ...) \
	pr_err(AMDX_LOG_FMT(fmt), (adev)->id, ##__VA_ARGS__)

#define amdx_dbg_ratelimited(adev, fmt, ...) \
	pr_debug_ratelimited(AMDX_LOG_FMT(fmt), (adev)->id, ##__VA_ARGS__)
#define amdx_info_ratelimited(adev, fmt, ...) \
	pr_info_ratelimited(AMDX_LOG_FMT(fmt), (adev)->id, ##__VA_ARGS__)
#define amdx_warn_ratelimited(adev, fmt, ...) \
	pr_warn_ratelimited(AMDX_LOG_FMT(fmt), (adev)->id, ##__VA_ARGS__)
#define amdx_err_ratelimited(adev, fmt, ...) \
	pr_err_ratelimited(AMDX_LOG_FMT(fmt), (adev)->id, ##__VA_ARGS__)

#endif /* _AMDX_CORE_H_ */
