// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: device registry and provider interface
 *
 * Providers (the simulator, a real amdgpu backend) register devices with
 * amdx_device_register() and remove them with amdx_device_unregister().
 * The core keeps a refcounted &struct amdx_device per device in an xarray
 * indexed by id.  Ids lie below %AMDX_MAX_DEVICES, so a 64-bit mask (the
 * HMM access attribute, the reset scope) can name any device; with that
 * many devices registration fails with -ENOSPC.  Ids are handed out
 * cyclically: a removed device's id comes back only after every other
 * free id was used.
 *
 * An id outlives its device in masks held elsewhere, so it is freed only
 * after unregistration cleared it from every HMM range.  Until then the
 * id stays reserved (an xarray zero entry: lookups and walks skip it, no
 * registration can take it), so a later device with that id never
 * inherits access granted to the old one.
 *
 * ::
 *
 *    provider                   core                          process
 *       | register(desc, ops)    |                               |
 *       |----------------------->| id, sysfs, tracepoint          |
 *       |                        |<-------- DEVICE_OPEN(id) ------|
 *       |                        |  ref++ , device fd ----------->|
 *       | unregister             |                               |
 *       |----------------------->| erase id, sysfs gone,         |
 *       |                        | dead = true (waits for ops)   |
 *       |<----- returns ---------|                               |
 *       | frees its state        |<-------- ioctl(fd) -----------|
 *       |                        |  -ENODEV --------------------->|
 *       |                        |<-------- close(fd) -----------|
 *       |                        |  ref-- -> freed                |
 *
 * The registry knows no feature.  Registration (amdx_device_register()
 * in amdx_device_probe.c, above every feature) creates the device here,
 * sets up each feature, which registers its own teardown with
 * amdx_device_add_action_or_reset() as xe's features do with
 * devm_add_action_or_reset(), and publishes it.  Unregistration and the
 * last reference run those actions, by stage, newest first.
 *
 * Locking: amdx_devices' internal lock protects the id map; a lookup takes
 * a reference under it.  &amdx_device.lock (an rwsem) orders op calls
 * against unregistration: callers of @ops hold it for read and check
 * &amdx_device.dead; unregistration takes it for write.
 */
#include <linux/anon_inodes.h>
#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>

#include "amdx_core.h"
#include "amdx_kunit.h"
#include "amdx_query_size.h"
#include "amdx_trace.h"

static DEFINE_XARRAY_ALLOC(amdx_devices);
static u32 amdx_next_id;

/* Every id fits a bit of the uapi's device masks. */
static_assert(sizeof_field(struct amdx_hmm_attr, access) * BITS_PER_BYTE >=
	      AMDX_MAX_DEVICES);

static void amdx_device_run(struct amdx_device *adev,
			    enum amdx_device_stage stage)
{
	u32 i;

	for (i = adev->nactions; i--; )
		if (adev->actions[i].stage == stage)
			adev->actions[i].fn(adev);
}

static void amdx_device_release(struct kref *ref)
{
	struct amdx_device *adev = container_of(ref, struct amdx_device, ref);

	amdx_device_run(adev, AMDX_DEVICE_RELEASE);
	kfree(adev);
}

/**
 * amdx_device_put() - drop a reference on a device
 * @adev: the device, may be NULL.
 */
void amdx_device_put(struct amdx_device *adev)
{
	if (adev)
		kref_put(&adev->ref, amdx_device_release);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_device_put);

/**
 * amdx_device_get() - look up a registered device and take a reference
 * @id: device id.
 *
 * Return: the device, or NULL when no device has that id.
 */
struct amdx_device *amdx_device_get(u32 id)
{
	struct amdx_device *adev;

	xa_lock(&amdx_devices);
	adev = xa_load(&amdx_devices, id);
	if (adev)
		kref_get(&adev->ref);
	xa_unlock(&amdx_devices);
	return adev;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_device_get);

/**
 * amdx_device_next() - walk the registered devices
 * @id: in: the first id to look at; out: the id of the device returned.
 *
 * Return: the registered device with the lowest id at or above @id, with
 * a reference the caller drops, or NULL when there is none.  The caller
 * increments @id to go on.
 */
struct amdx_device *amdx_device_next(unsigned long *id)
{
	struct amdx_device *adev;

	xa_lock(&amdx_devices);
	adev = xa_find(&amdx_devices, id, ULONG_MAX, XA_PRESENT);
	if (adev)
		kref_get(&adev->ref);
	xa_unlock(&amdx_devices);
	return adev;
}

/**
 * amdx_device_count() - number of registered devices
 *
 * Return: the count at the time of the call.
 */
u32 amdx_device_count(void)
{
	struct amdx_device *adev;
	unsigned long id;
	u32 n = 0;

	xa_lock(&amdx_devices);
	xa_for_each(&amdx_devices, id, adev)
		n++;
	xa_unlock(&amdx_devices);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_device_count);

/**
 * amdx_device_id_mask() - the ids of the registered devices
 *
 * Devices being registered or unregistered are not included.
 *
 * Return: bit N set when device N is registered, at the time of the call.
 */
u64 amdx_device_id_mask(void)
{
	struct amdx_device *adev;
	unsigned long id;
	u64 mask = 0;

	xa_lock(&amdx_devices);
	xa_for_each(&amdx_devices, id, adev)
		mask |= BIT_ULL(id);
	xa_unlock(&amdx_devices);
	return mask;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_device_id_mask);

/**
 * amdx_device_list() - describe the registered devices
 * @entries: output array, may be NULL when @max is 0.
 * @max: capacity of @entries.
 * @count: out: number of registered devices.
 *
 * Return: 0, or -ENOSPC when more than @max devices are registered
 * (@count still tells how many).
 */
int amdx_device_list(struct amdx_device_entry *entries, u32 max, u32 *count)
{
	struct amdx_device *adev;
	unsigned long id;
	u32 n = 0;

	xa_lock(&amdx_devices);
	xa_for_each(&amdx_devices, id, adev) {
		if (n < max) {
			struct amdx_device_entry *e = &entries[n];

			memset(e, 0, sizeof(*e));
			e->id = adev->id;
			e->model = adev->desc.model;
			strscpy(e->bdf, adev->bdf, sizeof(e->bdf));
		}
		n++;
	}
	xa_unlock(&amdx_devices);
	*count = n;
	return n > max ? -ENOSPC : 0;
}

/**
 * amdx_device_hive_get() - the devices of an XGMI hive, referenced
 * @hive_id: the hive, not 0.
 * @devs: out: up to @max devices in id order, each with a reference the
 *	caller drops with amdx_device_put().
 * @max: capacity of @devs.
 * @count: out: members registered (may exceed @max).
 *
 * Return: 0, or -ENOSPC when the hive has more than @max members (then
 * no reference is held).
 */
int amdx_device_hive_get(u64 hive_id, struct amdx_device **devs, u32 max,
			 u32 *count)
{
	struct amdx_device *adev;
	unsigned long id;
	u32 n = 0, i;

	xa_lock(&amdx_devices);
	xa_for_each(&amdx_devices, id, adev) {
		if (adev->desc.hive_id != hive_id)
			continue;
		if (n < max) {
			kref_get(&adev->ref);
			devs[n] = adev;
		}
		n++;
	}
	xa_unlock(&amdx_devices);
	*count = n;
	if (n <= max)
		return 0;
	for (i = 0; i < max; i++)
		amdx_device_put(devs[i]);
	return -ENOSPC;
}

/**
 * amdx_device_fill_info() - describe one device
 * @adev: the device.
 * @info: output, fully overwritten.
 *
 * Return: 0, -ENODEV once the device is unregistered, or the provider's
 * error.
 */
int amdx_device_fill_info(struct amdx_device *adev,
			  struct amdx_device_info *info)
{
	int ret;

	down_read(&adev->lock);
	ret = amdx_device_fill_info_locked(adev, info);
	up_read(&adev->lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_device_fill_info);

/**
 * amdx_device_fill_info_locked() - amdx_device_fill_info(), lock held
 * @adev: the device; the caller holds its lock for read.
 * @info: output, fully overwritten.
 *
 * Return: 0, -ENODEV once the device is unregistered, or the provider's
 * error.
 */
int amdx_device_fill_info_locked(struct amdx_device *adev,
				 struct amdx_device_info *info)
{
	struct amdx_device_state st = {};
	const struct amdx_device_desc *d = &adev->desc;
	u32 i;
	int ret;

	lockdep_assert_held(&adev->lock);
	ret = adev->dead ? -ENODEV : adev->ops->get_state(adev, &st);
	if (ret)
		return ret;
	if (WARN_ON_ONCE(st.num_mem_partitions > AMDX_MAX_MEM_PARTITIONS))
		return -EIO;

	memset(info, 0, sizeof(*info));
	info->id = adev->id;
	info->model = d->model;
	strscpy(info->bdf, adev->bdf, sizeof(info->bdf));
	strscpy(info->serial, adev->serial, sizeof(info->serial));
	strscpy(info->product, adev->product, sizeof(info->product));
	info->hive_id = d->hive_id;
	info->vram_size = d->vram_size;
	info->num_xcc = d->num_xcc;
	info->num_sdma = d->num_sdma;
	info->num_vcn = d->num_vcn;
	info->supported_compute_modes = d->supported_compute_modes;
	info->supported_memory_modes = d->supported_memory_modes;
	info->max_vfs = d->max_vfs;
	info->flags = d->flags;
	info->compute_mode = st.compute_mode;
	info->memory_mode = st.memory_mode;
	info->num_vfs = st.num_vfs;
	info->num_mem_partitions = st.num_mem_partitions;
	for (i = 0; i < st.num_mem_partitions; i++) {
		info->mem_partitions[i] = st.mem[i];
		info->vram_free += st.mem[i].free;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_device_fill_info_locked);

/*
 * The device lock is dropped across a copy from or to user memory, which
 * may block for as long as the memory's owner likes (a userfaultfd or FUSE
 * backed page): removal proceeds meanwhile, and the caller learns of it
 * when the lock is back.
 */
static int amdx_device_user_relock(struct amdx_device *adev, int ret)
{
	down_read(&adev->lock);
	return adev->dead ? -ENODEV : ret;
}

/**
 * amdx_device_copy_from_user() - copy_from_user() without the device lock
 * @adev: the device; the caller holds its lock for read (a device fd's
 *	ioctl) and no other lock.
 * @dst: kernel destination.
 * @src: user source.
 * @len: bytes.
 *
 * The lock is dropped for the copy and taken again before returning, so a
 * copy stalled on a userfaultfd or FUSE page never holds up removal.
 *
 * Return: 0, -EFAULT, or -ENODEV when the device was removed meanwhile
 * (the caller must call no op then).  The lock is held again either way.
 */
int amdx_device_copy_from_user(struct amdx_device *adev, void *dst,
			       const void __user *src, size_t len)
{
	int ret;

	lockdep_assert_held_read(&adev->lock);
	up_read(&adev->lock);
	ret = copy_from_user(dst, src, len) ? -EFAULT : 0;
	return amdx_device_user_relock(adev, ret);
}

/**
 * amdx_device_copy_struct_from_user() - copy_struct_from_user(), unlocked
 * @adev: the device; the caller holds its lock for read and no other lock.
 * @dst: kernel destination of @ksize bytes.
 * @ksize: the kernel's size of the structure.
 * @src: user source.
 * @usize: the caller's size of the structure.
 *
 * As amdx_device_copy_from_user(), with copy_struct_from_user() rules.
 *
 * Return: 0, -EFAULT, -E2BIG, or -ENODEV when the device was removed
 * meanwhile.  The lock is held again either way.
 */
int amdx_device_copy_struct_from_user(struct amdx_device *adev, void *dst,
				      size_t ksize, const void __user *src,
				      size_t usize)
{
	int ret;

	lockdep_assert_held_read(&adev->lock);
	up_read(&adev->lock);
	ret = copy_struct_from_user(dst, ksize, src, usize);
	return amdx_device_user_relock(adev, ret);
}

/**
 * amdx_device_copy_to_user() - copy_to_user() without the device lock
 * @adev: the device; the caller holds its lock for read and no other lock.
 * @dst: user destination.
 * @src: kernel source.
 * @len: bytes.
 *
 * As amdx_device_copy_from_user(), the other way.
 *
 * Return: 0, -EFAULT, or -ENODEV when the device was removed meanwhile.
 * The lock is held again either way.
 */
int amdx_device_copy_to_user(struct amdx_device *adev, void __user *dst,
			     const void *src, size_t len)
{
	int ret;

	lockdep_assert_held_read(&adev->lock);
	up_read(&adev->lock);
	ret = copy_to_user(dst, src, len) ? -EFAULT : 0;
	return amdx_device_user_relock(adev, ret);
}

/**
 * amdx_query_out() - answer a query with the two-call size protocol
 * (amdx_query_fit(), a leaf, decides how much; this copies it out)
 * @locked: the device whose lock the caller holds for read (a device fd's
 *	query), or NULL.  Dropped for the copy, as by
 *	amdx_device_copy_to_user(): a result buffer on a userfaultfd or FUSE
 *	page never holds up removal.
 * @q: the query; q->size 0 asks for the size.
 * @buf: the result (may be NULL when q->size is 0).
 * @len: its size.
 * @min_len: the smallest buffer accepted: @len for results that must fit
 *	whole, the first version's size for fixed-size results, which are
 *	truncated to q->size.
 *
 * Return: 0 with q->size set to the size or to the bytes written, -ENOSPC
 * (q->size set to @len) for a buffer below @min_len, -EFAULT, -ENODEV when
 * @locked was removed during the copy.
 */
int amdx_query_out(struct amdx_device *locked, struct amdx_query *q,
		   const void *buf, u32 len, u32 min_len)
{
	long n = amdx_query_fit(&q->size, len, min_len);
	int ret;

	if (n <= 0)
		return n;
	len = n;
	if (locked)
		ret = amdx_device_copy_to_user(locked, u64_to_user_ptr(q->data),
					       buf, len);
	else
		ret = copy_to_user(u64_to_user_ptr(q->data), buf, len) ?
		      -EFAULT : 0;
	if (ret)
		return ret;
	q->size = len;
	return 0;
}

/**
 * amdx_device_create() - a new device, not yet visible
 * @desc: static facts, valid (amdx_device_register() checked them); copied.
 * @ops: callbacks; must stay valid until amdx_device_unregister() returns.
 * @priv: provider data, returned by amdx_device_priv().
 *
 * Reserves an id; lookups do not find the device until
 * amdx_device_publish().  The caller then sets up each feature, which
 * registers its own teardown (amdx_device_add_action_or_reset()), and
 * publishes the device, or gives up with amdx_device_abort().
 *
 * Return: the device with one reference, ERR_PTR(-ENOMEM), or
 * ERR_PTR(-ENOSPC) when %AMDX_MAX_DEVICES devices exist (counting those
 * still being unregistered).
 */
struct amdx_device *amdx_device_create(const struct amdx_device_desc *desc,
				       const struct amdx_provider_ops *ops,
				       void *priv)
{
	struct amdx_device *adev;
	int ret;

	adev = kzalloc(sizeof(*adev), GFP_KERNEL);
	if (!adev)
		return ERR_PTR(-ENOMEM);
	kref_init(&adev->ref);
	init_rwsem(&adev->lock);
	mutex_init(&adev->hmm.lock);
	INIT_LIST_HEAD(&adev->hmm.ctxs);
	xa_init(&adev->hmm.holders);
	adev->desc = *desc;
	strscpy(adev->bdf, desc->bdf, sizeof(adev->bdf));
	strscpy(adev->serial, desc->serial, sizeof(adev->serial));
	strscpy(adev->product, desc->product, sizeof(adev->product));
	adev->desc.bdf = adev->bdf;
	adev->desc.serial = adev->serial;
	adev->desc.product = adev->product;
	adev->ops = ops;
	adev->priv = priv;

	/* Reserve the id; the entry becomes visible once published. */
	ret = xa_alloc_cyclic(&amdx_devices, &adev->id, XA_ZERO_ENTRY,
			      XA_LIMIT(0, AMDX_MAX_DEVICES - 1), &amdx_next_id,
			      GFP_KERNEL);
	if (ret == -EBUSY) {
		pr_info_ratelimited("amdx: device %s not registered: all %u device ids are in use\n",
				    desc->bdf, AMDX_MAX_DEVICES);
		ret = -ENOSPC;
	}
	if (ret < 0) {
		kfree(adev);
		return ERR_PTR(ret);
	}
	return adev;
}

/**
 * amdx_device_add_action_or_reset() - register a feature's teardown
 * @adev: a device between amdx_device_create() and amdx_device_publish().
 * @stage: when @fn runs.
 * @fn: the teardown.
 *
 * The idiom of devm_add_action_or_reset(): a feature's set-up registers
 * its own undoing, so the registry never calls into a feature.  Each
 * stage runs its actions in the reverse order of registration.
 *
 * Return: 0, or -ENOSPC when the device holds %AMDX_DEVICE_ACTIONS_MAX
 * actions already; @fn has run then.
 */
int amdx_device_add_action_or_reset(struct amdx_device *adev,
				    enum amdx_device_stage stage,
				    void (*fn)(struct amdx_device *adev))
{
	if (WARN_ON_ONCE(adev->nactions == AMDX_DEVICE_ACTIONS_MAX)) {
		fn(adev);
		return -ENOSPC;
	}
	adev->actions[adev->nactions].fn = fn;
	adev->actions[adev->nactions].stage = stage;
	adev->nactions++;
	return 0;
}

/**
 * amdx_device_publish() - make a created device visible
 * @adev: the device, every feature set up.
 */
void amdx_device_publish(struct amdx_device *adev)
{
	xa_store(&amdx_devices, adev->id, adev, GFP_KERNEL);
	trace_amdx_device_add(adev->id, adev->bdf, adev->desc.model);
}

/**
 * amdx_device_abort() - undo amdx_device_create() before publishing
 * @adev: the device, never published; its reference is dropped.
 *
 * Runs the %AMDX_DEVICE_UNPUBLISH actions, frees the id and drops the
 * reference, which runs the %AMDX_DEVICE_RELEASE actions: no process
 * could reach the device, so there is nothing to remove.
 */
void amdx_device_abort(struct amdx_device *adev)
{
	amdx_device_run(adev, AMDX_DEVICE_UNPUBLISH);
	adev->dead = true;
	xa_erase(&amdx_devices, adev->id);
	amdx_device_put(adev);
}

/**
 * amdx_device_unregister() - remove a device from amdx
 * @adev: the device.
 *
 * Lookups fail from the start; the %AMDX_DEVICE_UNPUBLISH actions take
 * down sysfs and debugfs; then it waits for running ioctl handlers (not
 * for their copies from or to user memory, which run without the device
 * lock) and marks the device dead.  The %AMDX_DEVICE_REMOVE actions end
 * the event log (subscribers read what is queued, then EOF), move every
 * process page still in the device's VRAM home, waiting without a timeout
 * for pages a CPU fault or copy holds (amdx_hmm_vacate_device()), and clear
 * the device from the access attribute of every HMM range; only then is
 * its id free for a new device.  After this returns no process can reach
 * a page of the device's pagemap, the core calls no op of the device and
 * does not touch its provider data, so the provider may memunmap_pages()
 * and free; open device fds fail with -ENODEV until closed.
 *
 * Context: process context; takes the HMM locks of every device, so the
 * caller holds none of them, nor any device's mmap or device lock.
 */
void amdx_device_unregister(struct amdx_device *adev)
{
	/* Lookups fail from here on; the id stays taken until the end. */
	xa_store(&amdx_devices, adev->id, XA_ZERO_ENTRY, GFP_KERNEL);
	amdx_device_run(adev, AMDX_DEVICE_UNPUBLISH);

	down_write(&adev->lock);
	adev->dead = true;
	up_write(&adev->lock);
	amdx_device_run(adev, AMDX_DEVICE_REMOVE);

	/* Traced first: a new device may take the id right after the erase. */
	trace_amdx_device_remove(adev->id);
	xa_erase(&amdx_devices, adev->id);
	amdx_device_put(adev);
}
EXPORT_SYMBOL_GPL(amdx_device_unregister);

/**
 * amdx_device_priv() - the provider data of a device
 * @adev: the device.
 *
 * Return: the @priv given to amdx_device_register().
 */
void *amdx_device_priv(const struct amdx_device *adev)
{
	return adev->priv;
}
EXPORT_SYMBOL_GPL(amdx_device_priv);

/**
 * amdx_device_id() - the id of a device
 * @adev: the device.
 *
 * Return: the id userspace uses to name the device.
 */
u32 amdx_device_id(const struct amdx_device *adev)
{
	return adev->id;
}
EXPORT_SYMBOL_GPL(amdx_device_id);

/**
 * amdx_device_registry_fini() - check the registry is empty at unload
 *
 * Module references keep providers loaded while they have devices, so the
 * registry must be empty here.
 */
void amdx_device_registry_fini(void)
{
	WARN_ON(!xa_empty(&amdx_devices));
	xa_destroy(&amdx_devices);
}
