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
#include "amdx_ioctl.h"
#include "amdx_kunit.h"
#include "amdx_ras.h"
#include "amdx_partition.h"
#include "amdx_trace.h"

static DEFINE_XARRAY_ALLOC(amdx_devices);
static u32 amdx_next_id;

/* Every id fits a bit of the uapi's device masks. */
static_assert(sizeof_field(struct amdx_hmm_attr, access) * BITS_PER_BYTE >=
	      AMDX_MAX_DEVICES);

static void amdx_device_release(struct kref *ref)
{
	struct amdx_device *adev = container_of(ref, struct amdx_device, ref);

	amdx_ras_fini(adev);
	amdx_event_source_fini(&adev->events);
	amdx_partition_dev_fini(adev);
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
 * amdx_device_hive_ids() - the devices a reset of a device affects
 * @adev: the device.
 * @ids: out: device ids, itself included.
 * @max: capacity of @ids.
 *
 * In an XGMI hive a device reset resets the hive: every registered device
 * with the same hive id.  Outside a hive it is the device alone.
 *
 * Return: the number of devices, which may exceed @max (only @max are
 * written).
 */
u32 amdx_device_hive_ids(struct amdx_device *adev, u32 *ids, u32 max)
{
	struct amdx_device *other;
	unsigned long id;
	bool self = false;
	u32 n = 0;

	xa_lock(&amdx_devices);
	xa_for_each(&amdx_devices, id, other) {
		if (other != adev && (!adev->desc.hive_id ||
				      other->desc.hive_id != adev->desc.hive_id))
			continue;
		self |= other == adev;
		if (n < max)
			ids[n] = other->id;
		n++;
	}
	xa_unlock(&amdx_devices);
	if (!self) {
		if (n < max)
			ids[n] = adev->id;
		n++;
	}
	return n;
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

static int amdx_device_fd_release(struct inode *inode, struct file *filp)
{
	struct amdx_file *file = filp->private_data;

	amdx_hmm_file_release(file);
	amdx_device_put(file->adev);
	kfree(file);
	return 0;
}

static long amdx_device_fd_ioctl(struct file *filp, unsigned int cmd,
				 unsigned long arg)
{
	/* The dispatcher takes the device lock once the argument is in. */
	return amdx_ioctl(filp->private_data, AMDX_IOCTL_F_DEVICE, cmd, arg);
}

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

static const struct file_operations amdx_device_fops = {
	.owner = THIS_MODULE,
	.release = amdx_device_fd_release,
	.unlocked_ioctl = amdx_device_fd_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

/**
 * amdx_device_file_open() - create the file of a device fd
 * @adev: the device; the file takes its own reference.
 * @vf: with @as_vf, the enabled VF the fd acts for.
 * @as_vf: charge the fd's VRAM to VF @vf instead of the PF.
 *
 * The caller puts the file into an fd table (O_CLOEXEC) or fput()s it.
 *
 * Return: the new file (O_RDWR), or an ERR_PTR() (-EINVAL for a VF that
 * is not enabled).
 */
struct file *amdx_device_file_open(struct amdx_device *adev, u32 vf,
				   bool as_vf)
{
	struct amdx_file *file;
	struct file *filp;
	int ret;

	file = kzalloc(sizeof(*file), GFP_KERNEL);
	if (!file)
		return ERR_PTR(-ENOMEM);
	if (as_vf) {
		ret = amdx_partition_vf_open(adev, vf, &file->vf_epoch);
		if (ret) {
			kfree(file);
			return ERR_PTR(ret);
		}
		file->vf = vf;
		file->owner = AMDX_OWNER_VF(vf);
	}
	kref_get(&adev->ref);
	file->adev = adev;
	ret = amdx_hmm_file_open(file);
	if (ret)
		goto err_put;
	filp = anon_inode_getfile("[amdx_device]", &amdx_device_fops, file,
				  O_RDWR);
	if (IS_ERR(filp)) {
		ret = PTR_ERR(filp);
		goto err_hmm;
	}
	return filp;

err_hmm:
	amdx_hmm_file_release(file);
err_put:
	amdx_device_put(adev);
	kfree(file);
	return ERR_PTR(ret);
}

static bool amdx_desc_valid(const struct amdx_device_desc *desc,
			    const struct amdx_provider_ops *ops)
{
	if (!ops || !ops->get_state)
		return false;
	if ((desc->flags & AMDX_DEVICE_F_HMM) &&
	    (!amdx_hmm_supported() || !desc->pgmap_owner ||
	     !ops->vram_alloc_page || !ops->vram_copy ||
	     !ops->vram_page_index || !ops->vram_index_page ||
	     !ops->vram_used_pages))
		return false;
	return desc->model != AMDX_MODEL_UNKNOWN && desc->bdf &&
	       strlen(desc->bdf) < AMDX_BDF_LEN && desc->serial &&
	       strlen(desc->serial) < AMDX_SERIAL_LEN && desc->product &&
	       strlen(desc->product) < AMDX_PRODUCT_LEN && desc->num_xcc;
}

/**
 * amdx_device_register() - add a device to amdx
 * @parent: the provider's device; the sysfs class device hangs below it.
 * @desc: static facts; copied.
 * @ops: callbacks; must stay valid until amdx_device_unregister() returns.
 * @priv: provider data, returned by amdx_device_priv().
 *
 * Return: the device, or ERR_PTR(-EINVAL) for a bad descriptor,
 * ERR_PTR(-ENOMEM), ERR_PTR(-ENOSPC) when %AMDX_MAX_DEVICES devices exist
 * (counting those still being unregistered).
 */
struct amdx_device *amdx_device_register(struct device *parent,
					 const struct amdx_device_desc *desc,
					 const struct amdx_provider_ops *ops,
					 void *priv)
{
	struct amdx_device *adev;
	int ret;

	if (!amdx_desc_valid(desc, ops))
		return ERR_PTR(-EINVAL);

	adev = kzalloc(sizeof(*adev), GFP_KERNEL);
	if (!adev)
		return ERR_PTR(-ENOMEM);
	kref_init(&adev->ref);
	init_rwsem(&adev->lock);
	mutex_init(&adev->hmm.lock);
	INIT_LIST_HEAD(&adev->hmm.ctxs);
	adev->desc = *desc;
	strscpy(adev->bdf, desc->bdf, sizeof(adev->bdf));
	strscpy(adev->serial, desc->serial, sizeof(adev->serial));
	strscpy(adev->product, desc->product, sizeof(adev->product));
	adev->desc.bdf = adev->bdf;
	adev->desc.serial = adev->serial;
	adev->desc.product = adev->product;
	adev->ops = ops;
	adev->priv = priv;
	ret = amdx_partition_dev_init(adev);
	if (ret)
		goto err_free;

	/* Reserve the id; the entry becomes visible once sysfs is ready. */
	ret = xa_alloc_cyclic(&amdx_devices, &adev->id, XA_ZERO_ENTRY,
			      XA_LIMIT(0, AMDX_MAX_DEVICES - 1), &amdx_next_id,
			      GFP_KERNEL);
	if (ret == -EBUSY) {
		pr_info_ratelimited("amdx: %s: not registered: all %u device ids are in use\n",
				    desc->bdf, AMDX_MAX_DEVICES);
		ret = -ENOSPC;
	}
	if (ret < 0)
		goto err_free;

	ret = amdx_event_source_init(&adev->events, adev->id, desc->hive_id);
	if (ret)
		goto err_events;

	ret = amdx_ras_init(adev);
	if (ret)
		goto err_events;

	ret = amdx_sysfs_add(adev, parent);
	if (ret)
		goto err_ras;

	amdx_debugfs_add(adev);
	xa_store(&amdx_devices, adev->id, adev, GFP_KERNEL);
	trace_amdx_device_add(adev->id, adev->bdf, adev->desc.model);
	return adev;

err_ras:
	amdx_ras_fini(adev);
err_events:
	amdx_event_source_fini(&adev->events);
	xa_erase(&amdx_devices, adev->id);
err_free:
	amdx_partition_dev_fini(adev);
	kfree(adev);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(amdx_device_register);

/**
 * amdx_device_unregister() - remove a device from amdx
 * @adev: the device.
 *
 * Waits for running ioctl handlers (not for their copies from or to user
 * memory, which run without the device lock), ends the event log
 * (subscribers read what is queued, then EOF), then moves every process
 * page still in the device's VRAM home, waiting without a timeout for
 * pages a CPU fault or copy holds (amdx_hmm_device_drain()), and clears
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
	struct amdx_device *other;
	unsigned long id = 0;

	/* Lookups fail from here on; the id stays taken until the end. */
	xa_store(&amdx_devices, adev->id, XA_ZERO_ENTRY, GFP_KERNEL);
	amdx_debugfs_remove(adev);
	amdx_sysfs_remove(adev);

	down_write(&adev->lock);
	adev->dead = true;
	up_write(&adev->lock);
	amdx_event_source_kill(&adev->events);
	amdx_hmm_device_drain(adev);

	/*
	 * A SET_ATTR that named this device checked it under the HMM lock of
	 * its own device, before the store above or after this walk takes
	 * that lock: either way the bit is gone when the id is freed.  The
	 * device's own ranges, out of reach now, forget every device: a
	 * device unregistered meanwhile skipped them.
	 */
	amdx_hmm_forget_devices(adev, U64_MAX);
	for (;;) {
		xa_lock(&amdx_devices);
		other = xa_find(&amdx_devices, &id, ULONG_MAX, XA_PRESENT);
		if (other)
			kref_get(&other->ref);
		xa_unlock(&amdx_devices);
		if (!other)
			break;
		amdx_hmm_forget_devices(other, BIT_ULL(adev->id));
		amdx_device_put(other);
		id++;
	}
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
