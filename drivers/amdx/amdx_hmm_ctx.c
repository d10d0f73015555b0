// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: HMM contexts
 *
 * Each device fd of a device with device-private VRAM has an HMM context
 * bound to the address space of the process that opened it: attribute
 * ranges (amdx_hmm_range.c), counters, and an mmu_interval_notifier over
 * the whole address space that serves as the device's mirror (the
 * technique of lib/test_hmm.c).  This file holds the context's lifetime,
 * its notifier, the counters migrations add to (amdx_hmm_account()) and
 * what other features read of the contexts (amdx_hmm_holders()).  The
 * files of the HMM wing, lowest first::
 *
 *   amdx_hmm_walk.c     PTE walker (a leaf: no device, no context)
 *   amdx_hmm_ctx.c      contexts: lifetime, notifier, accounting, holders
 *   amdx_hmm_migrate.c  the migration engine and the CPU fault
 *   amdx_hmm_devmove.c  device-page moves without a process
 *   amdx_hmm_evict.c    eviction policy; migration that makes room
 *   amdx_hmm_link.c     a bad fabric link: no placement across, moves off
 *   amdx_hmm_access.c   ACCESS
 *   amdx_hmm_ioctl.c    SET_ATTR, MIGRATE, the ranges query, close
 *
 * Lock order: device lock (read, ioctls) -> mmap_lock -> hmm.lock ->
 * ctx->lock; mirror_lock nests inside mmap_lock and is taken by the
 * notifier.  No context lock is held across migrate_vma or
 * hmm_range_fault.  SET_ATTR looks up the registry (its xarray lock)
 * under hmm.lock.
 *
 * The access attribute names devices by id, and ids come back after their
 * device is gone.  SET_ATTR checks the named devices exist under hmm.lock;
 * removal of a device, before it frees the id, takes every device's
 * hmm.lock in turn and clears the id from every range
 * (amdx_hmm_forget_devices()), so no bit outlives its device::
 *
 *   SET_ATTR on A naming B               unregister B
 *     hmm.lock(A)                          B's id reserved: lookups fail
 *       B registered? (registry)           ...
 *       ranges: access |= B                hmm.lock(A) (waits for SET_ATTR)
 *     unlock                                 ranges: access &= ~B
 *                                          unlock; ... ; B's id freed
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/pid.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include <amdx/amdx_vram.h>

#include "amdx_core.h"
#include "amdx_event.h"
#include "amdx_hmm.h"
#include "amdx_hmm_ctx.h"
#include "amdx_hmm_walk.h"

/**
 * amdx_hmm_supported() - whether this build supports HMM migration
 *
 * Return: true (this file is built only with CONFIG_DEVICE_PRIVATE).
 */
bool amdx_hmm_supported(void)
{
	return true;
}

static void amdx_hmm_ctx_release(struct kref *ref)
{
	struct amdx_hmm_ctx *ctx = container_of(ref, struct amdx_hmm_ctx, ref);

	amdx_range_set_fini(&ctx->ranges);
	put_pid(ctx->who.pid);
	mmdrop(ctx->mm);
	kfree(ctx);
}

/**
 * amdx_hmm_ctx_put() - drop a reference on a context
 * @ctx: the context.
 */
void amdx_hmm_ctx_put(struct amdx_hmm_ctx *ctx)
{
	kref_put(&ctx->ref, amdx_hmm_ctx_release);
}

/*
 * An unmap of [@start, @end) takes the device pages there away: count
 * them out of the ranges holding them, walking only ranges that count
 * pages in VRAM.  Nothing is held across the walk but the unmapper's
 * mmap lock.
 */
static void amdx_hmm_unmap_account(struct amdx_hmm_ctx *ctx, u64 start,
				   u64 end)
{
	struct amdx_range *r;
	u64 from = start, s = 0, e = 0, n;
	bool found;

	while (from < end) {
		found = false;
		spin_lock(&ctx->lock);
		r = amdx_range_next(&ctx->ranges, from);
		if (r) {
			list_for_each_entry_from(r, &ctx->ranges.ranges, node) {
				if (r->start >= end)
					break;
				if (!r->resident)
					continue;
				s = max(r->start, from);
				e = min(r->end, end);
				found = true;
				break;
			}
		}
		spin_unlock(&ctx->lock);
		if (!found)
			return;
		n = amdx_hmm_count_local(ctx->adev->desc.pgmap_owner, ctx->mm,
					 s, e);
		spin_lock(&ctx->lock);
		r = amdx_range_find(&ctx->ranges, s);
		if (r)
			amdx_range_account_out(r, n);
		spin_unlock(&ctx->lock);
		from = e;
	}
}

static bool amdx_hmm_invalidate(struct mmu_interval_notifier *mni,
				const struct mmu_notifier_range *range,
				unsigned long cur_seq)
{
	struct amdx_hmm_ctx *ctx = container_of(mni, struct amdx_hmm_ctx,
						notifier);
	bool blockable = mmu_notifier_range_blockable(range);

	if (blockable)
		mutex_lock(&ctx->mirror_lock);
	else if (!mutex_trylock(&ctx->mirror_lock))
		return false;
	mmu_interval_set_seq(mni, cur_seq);
	mutex_unlock(&ctx->mirror_lock);

	if (range->event == MMU_NOTIFY_UNMAP) {
		/* The unmapper holds the mmap lock; the OOM reaper cannot wait. */
		if (blockable && range->mm == ctx->mm)
			amdx_hmm_unmap_account(ctx, range->start, range->end);
		spin_lock(&ctx->lock);
		amdx_range_clip(&ctx->ranges, range->start, range->end);
		spin_unlock(&ctx->lock);
	}
	return true;
}

static const struct mmu_interval_notifier_ops amdx_hmm_notifier_ops = {
	.invalidate = amdx_hmm_invalidate,
};

/**
 * amdx_hmm_file_open() - create the HMM context of a new device fd
 * @file: the device fd's file; file->adev is set.
 *
 * Devices without device-private VRAM get no context.
 *
 * Return: 0 or -errno.
 */
int amdx_hmm_file_open(struct amdx_file *file)
{
	struct amdx_device *adev = file->adev;
	struct amdx_hmm_ctx *ctx;
	int ret;

	if (!(adev->desc.flags & AMDX_DEVICE_F_HMM) || !current->mm)
		return 0;
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL_ACCOUNT);
	if (!ctx)
		return -ENOMEM;
	kref_init(&ctx->ref);
	ctx->adev = adev;
	ctx->tgid = task_tgid_nr(current);
	ctx->who.pid = get_task_pid(current, PIDTYPE_TGID);
	ctx->who.euid = current_euid();
	get_task_comm(ctx->comm, current);
	ctx->owner = file->owner;
	spin_lock_init(&ctx->lock);
	mutex_init(&ctx->mirror_lock);
	amdx_range_set_init(&ctx->ranges);
	mmgrab(current->mm);
	ctx->mm = current->mm;

	ret = mmu_interval_notifier_insert(&ctx->notifier, ctx->mm, 0,
					   ULONG_MAX & PAGE_MASK,
					   &amdx_hmm_notifier_ops);
	if (ret)
		goto err_put;

	mutex_lock(&adev->hmm.lock);
	list_add_tail(&ctx->dev_node, &adev->hmm.ctxs);
	mutex_unlock(&adev->hmm.lock);
	file->hmm = ctx;
	return 0;

err_put:
	amdx_hmm_ctx_put(ctx);
	return ret;
}

/**
 * amdx_hmm_ctx_check() - whether an ioctl may use a device fd's context
 * @file: the device fd.
 *
 * Return: 0; -EOPNOTSUPP when the fd has no HMM context, -EBADF when the
 * caller is not in the address space that opened it.
 */
int amdx_hmm_ctx_check(struct amdx_file *file)
{
	if (!file->hmm)
		return -EOPNOTSUPP;
	if (current->mm != file->hmm->mm)
		return -EBADF;
	return 0;
}

/**
 * amdx_hmm_ctx_holder_get() - give a device fd its holder id
 * @ctx: the fd's context; the caller holds the device lock for read (the
 *	allocator is the provider's).
 *
 * At the fd's first migration towards VRAM, not at open: an fd that
 * never places data holds no id.  The id is counted against the caller's
 * effective uid (the kuid: user namespaces do not multiply it), which
 * may have %AMDX_HMM_HOLDERS_PER_USER of a device without CAP_SYS_ADMIN;
 * the device has %AMDX_VRAM_MAX_HOLDERS for all.  The fd keeps its id
 * until it is closed.
 *
 * Return: 0; -ENOSPC when the uid has its share or the device every id
 * (logged); -ENOMEM.  The id is also in &amdx_hmm_dev.holders.
 */
int amdx_hmm_ctx_holder_get(struct amdx_hmm_ctx *ctx)
{
	struct amdx_device *adev = ctx->adev;
	u32 uid = __kuid_val(current_euid()), max = 0, id;
	int ret = 0;

	if (READ_ONCE(ctx->holder))
		return 0;
	if (!capable(CAP_SYS_ADMIN))
		max = AMDX_HMM_HOLDERS_PER_USER;
	mutex_lock(&adev->hmm.lock);
	if (!ctx->holder) {
		ret = amdx_vram_holder_new(adev->desc.vram, uid, max, &id);
		if (!ret) {
			ret = xa_err(xa_store(&adev->hmm.holders, id, ctx,
					      GFP_KERNEL_ACCOUNT));
			if (ret)
				amdx_vram_holder_put(adev->desc.vram, id);
			else
				WRITE_ONCE(ctx->holder, id);
		}
	}
	mutex_unlock(&adev->hmm.lock);
	if (ret == -ENOSPC)
		amdx_dbg_ratelimited(adev,
				     "hmm: no holder id: uid %u has %u or the device all %u\n",
				     uid, max, AMDX_VRAM_MAX_HOLDERS);
	return ret;
}

/**
 * amdx_hmm_ctx_used() - the VRAM pages a device fd holds
 * @ctx: the fd's context; the caller holds &amdx_hmm_dev.lock or is the
 *	fd's only user (ioctl, close).
 * @pages: out, may be NULL: per memory partition,
 *	%AMDX_VRAM_MAX_PARTITIONS entries.
 *
 * Return: its pages over all partitions; 0 (and @pages zeroed) for an fd
 * that has no holder id yet, never nobody's pages.
 */
u64 amdx_hmm_ctx_used(const struct amdx_hmm_ctx *ctx, u64 *pages)
{
	u32 id = READ_ONCE(ctx->holder);

	if (id == AMDX_VRAM_NO_HOLDER) {
		if (pages)
			memset(pages, 0,
			       AMDX_VRAM_MAX_PARTITIONS * sizeof(*pages));
		return 0;
	}
	return amdx_vram_holder_used(ctx->adev->desc.vram, id, pages);
}

/**
 * amdx_hmm_span_check() - check a span of an HMM ioctl
 * @start: its first byte.
 * @size: its length in bytes.
 *
 * Return: 0, or -EINVAL unless both are page aligned, @size is not 0 and
 * the span ends inside the user address space.
 */
int amdx_hmm_span_check(u64 start, u64 size)
{
	u64 end;

	if (!size || !PAGE_ALIGNED(start) || !PAGE_ALIGNED(size))
		return -EINVAL;
	if (check_add_overflow(start, size, &end) || end > TASK_SIZE)
		return -EINVAL;
	return 0;
}

/**
 * amdx_hmm_account() - add a migration's outcome to the counters
 * @ctx: the context.
 * @start: first byte migrated.
 * @dest: where to (%AMDX_HMM_LOC_SYSTEM or a partition).
 * @res: the outcome.
 * @cause: what moved the pages: %AMDX_MIG_FAULT counts a CPU fault,
 *	%AMDX_MIG_EVICT an eviction.
 *
 * Attributes the pages to the range holding @start.
 */
void amdx_hmm_account(struct amdx_hmm_ctx *ctx, u64 start, u32 dest,
		      const struct amdx_hmm_result *res,
		      enum amdx_mig_cause cause)
{
	struct amdx_hmm_stats *st[2] = { &ctx->total, NULL };
	struct amdx_range *r;
	int i;

	spin_lock(&ctx->lock);
	r = amdx_range_find(&ctx->ranges, start);
	if (r) {
		st[1] = &r->stats;
		if (dest == AMDX_HMM_LOC_SYSTEM) {
			amdx_range_account_out(r, res->moved);
		} else {
			amdx_range_account_in(r, dest, res->moved);
			r->last_used = ktime_get_ns();
		}
	}
	for (i = 0; i < 2 && st[i]; i++) {
		if (dest == AMDX_HMM_LOC_SYSTEM) {
			st[i]->pages_out += res->moved;
			st[i]->bytes_out += res->moved << PAGE_SHIFT;
			st[i]->ns_out += res->ns;
		} else {
			st[i]->pages_in += res->moved;
			st[i]->bytes_in += res->moved << PAGE_SHIFT;
			st[i]->ns_in += res->ns;
		}
		if (cause == AMDX_MIG_FAULT)
			st[i]->cpu_faults++;
		if (cause == AMDX_MIG_EVICT)
			st[i]->evictions++;
	}
	spin_unlock(&ctx->lock);
}

/**
 * amdx_hmm_event_migrate() - report pages a migration moved
 * @adev: the device.
 * @who: the process whose pages moved.
 * @home: true when they moved to system memory, false for VRAM.
 * @pages: how many; nothing is reported for 0.
 *
 * Emits %AMDX_EVENT_MIGRATE (type 0 to VRAM, 1 home).
 */
void amdx_hmm_event_migrate(struct amdx_device *adev,
			    const struct amdx_subject *who, bool home,
			    u64 pages)
{
	struct amdx_event ev = {
		.kind = AMDX_EVENT_MIGRATE,
		.type = home,
		.partition = AMDX_RAS_PARTITION_ALL,
		.data = { 0, pages },
	};

	if (pages)
		amdx_event_emit_subject(adev, &ev, who);
}

/**
 * amdx_hmm_ctx_of_mm() - the context of an address space on a device
 * @adev: the device.
 * @mm: the address space.
 * @addr: an address of it.
 *
 * A process may have several fds of one device (a VF's and the PF's):
 * the one whose ranges hold @addr is preferred, else the first.
 *
 * Context: takes &amdx_hmm_dev.lock and the contexts' locks.
 * Return: the context, referenced (amdx_hmm_ctx_put()); NULL when @mm has
 * none on @adev.
 */
struct amdx_hmm_ctx *amdx_hmm_ctx_of_mm(struct amdx_device *adev,
					struct mm_struct *mm,
					unsigned long addr)
{
	struct amdx_hmm_ctx *ctx, *found = NULL;
	bool holds;

	mutex_lock(&adev->hmm.lock);
	list_for_each_entry(ctx, &adev->hmm.ctxs, dev_node) {
		if (ctx->mm != mm)
			continue;
		spin_lock(&ctx->lock);
		holds = amdx_range_find(&ctx->ranges, addr);
		spin_unlock(&ctx->lock);
		if (holds || !found)
			found = ctx;
		if (holds)
			break;
	}
	if (found)
		kref_get(&found->ref);
	mutex_unlock(&adev->hmm.lock);
	return found;
}

/* Add @pages of (@ctx's process, @part) to @out, merging with an entry. */
static void amdx_hmm_holder_add(struct amdx_hmm_holder *out, u32 max,
				u32 *n, const struct amdx_hmm_ctx *ctx,
				u32 part, u64 pages)
{
	u32 i;

	for (i = 0; i < *n && i < max; i++) {
		if (out[i].who.pid == ctx->who.pid &&
		    out[i].mem_partition == part) {
			out[i].pages += pages;
			return;
		}
	}
	if (*n < max) {
		memset(&out[*n], 0, sizeof(out[*n]));
		out[*n].who.pid = get_pid(ctx->who.pid);
		out[*n].who.euid = ctx->who.euid;
		out[*n].mem_partition = part;
		out[*n].pages = pages;
		strscpy(out[*n].comm, ctx->comm, sizeof(out[*n].comm));
	}
	(*n)++;
}

/**
 * amdx_hmm_holders_put() - drop the references amdx_hmm_holders() took
 * @h: the entries.
 * @n: how many were written (at most its @max).
 */
void amdx_hmm_holders_put(struct amdx_hmm_holder *h, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		put_pid(h[i].who.pid);
		h[i].who.pid = NULL;
	}
}

/**
 * amdx_hmm_holders() - processes with data in some memory partitions
 * @adev: the device.
 * @part_mask: bit N: memory partition N is of interest.
 * @out: up to @max entries, one per process and partition; may be NULL
 *	when @max is 0.
 * @max: capacity of @out.
 * @count: out: entries found; beyond @max they are only counted (and
 *	may then count a process twice).  The entries written hold pid
 *	references: drop them with amdx_hmm_holders_put().
 *
 * A holder is the process of a device fd whose data VRAM pages of @adev
 * hold, wherever they are mapped: in its ranges, where ``mremap()``
 * moved them, in a ``fork()`` child only.  Read from the counters the
 * VRAM allocator keeps per fd and memory partition (&amdx_hmm_ctx.holder),
 * so the cost is O(fds on @adev), under &amdx_hmm_dev.lock and no mmap
 * lock; no page table is walked.  A partition the provider reports empty
 * has no holders.
 *
 * Context: the caller may hold the device, partition and gate locks
 * (they come before mmap_lock), not &amdx_hmm_dev.lock.
 *
 * Return: 0, -ENOMEM or the provider's get_state() error.
 */
int amdx_hmm_holders(struct amdx_device *adev, u32 part_mask,
		     struct amdx_hmm_holder *out, u32 max, u32 *count)
{
	u64 pages[AMDX_VRAM_MAX_PARTITIONS];
	struct amdx_device_state *st;
	struct amdx_hmm_ctx *ctx;
	u32 n = 0, m, busy = 0;
	int ret;

	*count = 0;
	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	ret = adev->ops->get_state(adev, st);
	if (ret)
		goto out_free_st;
	if (WARN_ON_ONCE(st->num_mem_partitions > AMDX_VRAM_MAX_PARTITIONS)) {
		ret = -EIO;
		goto out_free_st;
	}
	for (m = 0; m < st->num_mem_partitions; m++)
		if ((part_mask & BIT(m)) && st->mem[m].free < st->mem[m].size)
			busy |= BIT(m);
	/* No page in the partitions asked about: nobody holds one. */
	if (!busy)
		goto out_free_st;

	mutex_lock(&adev->hmm.lock);
	list_for_each_entry(ctx, &adev->hmm.ctxs, dev_node) {
		if (!amdx_hmm_ctx_used(ctx, pages))
			continue;
		for (m = 0; m < st->num_mem_partitions; m++)
			if (pages[m] && (busy & BIT(m)))
				amdx_hmm_holder_add(out, max, &n, ctx, m,
						    pages[m]);
	}
	mutex_unlock(&adev->hmm.lock);
	*count = n;
out_free_st:
	kfree(st);
	return ret;
}

/**
 * amdx_hmm_forget_resident() - a memory partition holds no process data
 * @adev: the device.
 * @part: the memory partition, %AMDX_HMM_LOC_SYSTEM for all of them.
 *
 * A drain moved every page of @part home without the contexts that had
 * them: their residency counters for @part go to zero.
 */
void amdx_hmm_forget_resident(struct amdx_device *adev, u32 part)
{
	struct amdx_hmm_ctx *ctx;
	struct amdx_range *r;

	if (!(adev->desc.flags & AMDX_DEVICE_F_HMM))
		return;
	mutex_lock(&adev->hmm.lock);
	list_for_each_entry(ctx, &adev->hmm.ctxs, dev_node) {
		spin_lock(&ctx->lock);
		list_for_each_entry(r, &ctx->ranges.ranges, node)
			amdx_range_forget_resident(r, part);
		spin_unlock(&ctx->lock);
	}
	mutex_unlock(&adev->hmm.lock);
}

/**
 * amdx_hmm_forget_devices() - clear devices from every range's access
 * @adev: the device whose contexts' ranges to update.
 * @mask: bit N: forget device N.
 *
 * Called by amdx_device_unregister(), before the id of the device going
 * away can be given to a new device: for every registered device with
 * that device's bit, and for the device itself with every bit.
 *
 * Context: takes @adev's hmm.lock and each context's lock; the caller
 * holds no mmap lock and no HMM lock.
 */
void amdx_hmm_forget_devices(struct amdx_device *adev, u64 mask)
{
	struct amdx_hmm_ctx *ctx;

	if (!(adev->desc.flags & AMDX_DEVICE_F_HMM))
		return;
	mutex_lock(&adev->hmm.lock);
	list_for_each_entry(ctx, &adev->hmm.ctxs, dev_node) {
		spin_lock(&ctx->lock);
		amdx_range_clear_access(&ctx->ranges, mask);
		spin_unlock(&ctx->lock);
	}
	mutex_unlock(&adev->hmm.lock);
}

/* One pinning fd: its owner's key, its pinned bytes, whom to name. */
struct amdx_hmm_pin_sum {
	u64 key;
	u64 bytes;
	pid_t tgid;
	u32 uid;
	u32 owner;
	char comm[TASK_COMM_LEN];
};

/* The pin quota's owner (amdx_hmm_same_owner()): the VF, or a uid on the PF. */
static u64 amdx_hmm_pin_owner(const struct amdx_hmm_ctx *ctx)
{
	u32 uid = ctx->owner == AMDX_OWNER_PF ? __kuid_val(ctx->who.euid) : 0;

	return (u64)ctx->owner << 32 | uid;
}

static int amdx_hmm_pin_sum_cmp(const void *a, const void *b)
{
	const struct amdx_hmm_pin_sum *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/*
 * Up to @max pinning fds of @adev into @s, each with its pinned bytes.
 * hmm.lock held; nothing allocated.
 */
static u32 amdx_hmm_pin_sums(struct amdx_device *adev,
			     struct amdx_hmm_pin_sum *s, u32 max)
{
	struct amdx_hmm_ctx *ctx;
	u32 n = 0;
	u64 b;

	list_for_each_entry(ctx, &adev->hmm.ctxs, dev_node) {
		if (s && n == max)
			break;
		spin_lock(&ctx->lock);
		b = amdx_range_pinned_bytes(&ctx->ranges);
		spin_unlock(&ctx->lock);
		if (!b)
			continue;
		if (s) {
			s[n] = (struct amdx_hmm_pin_sum){
				.key = amdx_hmm_pin_owner(ctx), .bytes = b,
				.tgid = ctx->tgid, .owner = ctx->owner,
				.uid = from_kuid(&init_user_ns, ctx->who.euid),
			};
			memcpy(s[n].comm, ctx->comm, sizeof(s[n].comm));
		}
		n++;
	}
	return n;
}

/**
 * amdx_hmm_pins_fit() - whether a device's pins fit another memory mode
 * @adev: the device; the caller holds its lock for read.
 * @num_memory: memory partitions of the mode it would switch to.
 *
 * The pin quota is half a memory partition per owner (a uid on the PF,
 * each VF): a pin legal under NPS1 may fill a partition of NPS4.  A
 * memory-mode change is refused, not the pins cut: PLAN and COMMIT call
 * this before anything moves.  Two walks of the contexts (count, then
 * take) and a sort: O(fds log fds), the pinned bytes of an fd a walk of
 * its ranges (at most %AMDX_HMM_RANGES_MAX) under its spinlock.  An fd
 * that starts pinning between the walks is not looked at; a SET_ATTR
 * that runs while the mode changes is checked against the partitions it
 * found.
 *
 * Return: 0; -EDQUOT, logged naming one fd of the owner (pid, command,
 * uid, its bytes), when some owner pins more than half a partition of
 * the new mode; -ENOMEM.
 */
int amdx_hmm_pins_fit(struct amdx_device *adev, u32 num_memory)
{
	u64 half = div_u64(adev->desc.vram_size, max(num_memory, 1U)) / 2;
	struct amdx_hmm_pin_sum *s;
	u32 max, n, i, j;
	int ret = 0;
	u64 sum;

	if (!(adev->desc.flags & AMDX_DEVICE_F_HMM))
		return 0;
	mutex_lock(&adev->hmm.lock);
	max = amdx_hmm_pin_sums(adev, NULL, 0);
	mutex_unlock(&adev->hmm.lock);
	if (!max)
		return 0;
	s = kvcalloc(max, sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	mutex_lock(&adev->hmm.lock);
	n = amdx_hmm_pin_sums(adev, s, max);
	mutex_unlock(&adev->hmm.lock);
	sort(s, n, sizeof(*s), amdx_hmm_pin_sum_cmp, NULL);
	for (i = 0; i < n && !ret; i = j) {
		sum = 0;
		for (j = i; j < n && s[j].key == s[i].key; j++)
			sum += s[j].bytes;
		if (sum <= half)
			continue;
		amdx_dbg(adev, "memory mode of %u partitions: owner %u uid %u pins %llu bytes, over half a %llu-byte partition (pid %d %s pins %llu)\n",
			 num_memory, s[i].owner, s[i].uid, sum, half * 2,
			 s[i].tgid, s[i].comm, s[i].bytes);
		ret = -EDQUOT;
	}
	kvfree(s);
	return ret;
}
