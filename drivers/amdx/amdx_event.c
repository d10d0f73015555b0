// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: event log
 *
 * Every device has an event log (&struct amdx_event_source).  Producers
 * (RAS intake and containment, partition control, HMM migration) call
 * amdx_event_emit(), which stamps the record with the next seq and the
 * CLOCK_MONOTONIC time and copies it into the ring of every subscriber
 * whose mask wants the kind.  Emitting never sleeps and never waits for a
 * reader: a full ring counts what it misses (see the event ring DOC).
 *
 * A process subscribes on a device fd (%AMDX_IOC_EVENT_SUBSCRIBE) and gets
 * an event fd: read() returns whole 64-byte records, poll and epoll report
 * EPOLLIN, and once the device is removed the reader gets what is left,
 * then EOF (EPOLLHUP).  The fd holds a reference on the device, so its
 * event log stays valid until the last subscriber closes.
 *
 * ::
 *
 *    producer              amdx_event_emit()            subscriber fd
 *       | ev (kind, data)        |                           |
 *       |----------------------->| src->lock (irqsave)       |
 *       |                        | seq = ++counter, ts = now |
 *       |                        | tracepoint amdx_event     |
 *       |                        | each sub: push, wake ---->| EPOLLIN
 *       |<-- ev.seq -------------|                           |
 *       |                        |              read() <-----| copy in place,
 *       |                        |                           | then consume
 *
 * Sequence numbers start at 1 and grow by one per event of the device.
 * Devices with the same non-zero hive id share one counter (looked up
 * when the device registers), so seqs are unique and ordered across a
 * hive, and one device's subscribers see gaps where other devices of the
 * hive emitted.  Taking the seq and queueing the record happen under the
 * device's @lock, so every subscriber sees its device's seqs (and
 * timestamps) in increasing order.
 *
 * Locking: &amdx_event_source.lock (irqsave) -> wait queue locks; it
 * also serialises the producer side of every subscriber's ring.  Readers
 * take only &amdx_event_sub.read_lock (a mutex): the ring's consumer side
 * needs no lock against the producer (see the event ring DOC), so a
 * reader and an emitter never wait for each other.  A reader takes the
 * source lock only to queue a LOST record for misses still pending once
 * it has read everything else.  The hive list has its own spinlock,
 * never nested.
 */
#include <linux/anon_inodes.h>
#include <linux/bitops.h>
#include <linux/bits.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/kref.h>
#include <linux/kstrtox.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pid.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/stat.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/uidgid.h>

#include "amdx_core.h"
#include "amdx_event.h"
#include "amdx_kunit.h"
#include "amdx_trace.h"

/*
 * How long a blocking reader that has caught up with a busy log polls
 * before it sleeps (see amdx_event_sub_poll()); 0 turns polling off.  At
 * most a second: a polling reader does not schedule.
 */
#define AMDX_EVENT_POLL_MAX_US	1000000U
static unsigned int event_read_poll_us = 20;

static int amdx_event_poll_us_set(const char *val,
				  const struct kernel_param *kp)
{
	int ret = param_set_uint_minmax(val, kp, 0, AMDX_EVENT_POLL_MAX_US);

	if (ret)
		pr_warn("amdx: event_read_poll_us: want 0..%u microseconds\n",
			AMDX_EVENT_POLL_MAX_US);
	return ret;
}

static const struct kernel_param_ops amdx_event_poll_us_ops = {
	.set = amdx_event_poll_us_set,
	.get = param_get_uint,
};

module_param_cb(event_read_poll_us, &amdx_event_poll_us_ops,
		&event_read_poll_us, 0644);
MODULE_PARM_DESC(event_read_poll_us,
		 "Microseconds a reader that caught up with a busy event log polls before sleeping (0..1000000, 0: never; default 20)");

/* Counters shared by the devices of a hive (hive_id != 0). */
static LIST_HEAD(amdx_event_hives);
static DEFINE_SPINLOCK(amdx_event_hives_lock);

static struct amdx_event_counter *amdx_event_counter_get(u64 hive_id)
{
	struct amdx_event_counter *c, *new;

	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return NULL;
	kref_init(&new->ref);
	new->hive_id = hive_id;
	atomic64_set(&new->seq, 0);
	INIT_LIST_HEAD(&new->node);
	if (!hive_id)
		return new;

	spin_lock(&amdx_event_hives_lock);
	list_for_each_entry(c, &amdx_event_hives, node) {
		if (c->hive_id == hive_id) {
			kref_get(&c->ref);
			spin_unlock(&amdx_event_hives_lock);
			kfree(new);
			return c;
		}
	}
	list_add(&new->node, &amdx_event_hives);
	spin_unlock(&amdx_event_hives_lock);
	return new;
}

static void amdx_event_counter_release(struct kref *ref)
	__releases(&amdx_event_hives_lock)
{
	struct amdx_event_counter *c =
		container_of(ref, struct amdx_event_counter, ref);

	list_del(&c->node);
	spin_unlock(&amdx_event_hives_lock);
	kfree(c);
}

static void amdx_event_counter_put(struct amdx_event_counter *c)
{
	kref_put_lock(&c->ref, amdx_event_counter_release,
		      &amdx_event_hives_lock);
}

/**
 * amdx_event_source_init() - set up a device's event log
 * @src: the log, embedded in the device.
 * @device: the device id records carry.
 * @hive_id: the device's hive, 0 if none.
 *
 * Return: 0, or -ENOMEM.
 */
int amdx_event_source_init(struct amdx_event_source *src, u32 device,
			   u64 hive_id)
{
	spin_lock_init(&src->lock);
	INIT_LIST_HEAD(&src->subs);
	src->nsubs = 0;
	src->device = device;
	src->dead = false;
	src->emitted = 0;
	src->lost = 0;
	src->counter = amdx_event_counter_get(hive_id);
	return src->counter ? 0 : -ENOMEM;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_source_init);

/**
 * amdx_event_source_kill() - the device is gone
 * @src: the log.
 *
 * Subscribers read what is queued, then EOF; poll reports EPOLLHUP.  No
 * new subscribers; events still emitted take a seq but reach nobody.
 */
void amdx_event_source_kill(struct amdx_event_source *src)
{
	struct amdx_event_sub *sub, *tmp;
	unsigned long flags;

	spin_lock_irqsave(&src->lock, flags);
	src->dead = true;
	list_for_each_entry_safe(sub, tmp, &src->subs, node) {
		/* After every record: pairs with amdx_event_sub_hup(). */
		smp_store_release(&sub->hup, true);
		list_del_init(&sub->node);
		wake_up_interruptible_poll(&sub->wait, EPOLLHUP);
	}
	src->nsubs = 0;
	spin_unlock_irqrestore(&src->lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_source_kill);

/**
 * amdx_event_source_fini() - free a device's event log
 * @src: the log; no subscribers are left (each holds the device).
 */
void amdx_event_source_fini(struct amdx_event_source *src)
{
	WARN_ON(!list_empty(&src->subs));
	if (src->counter)
		amdx_event_counter_put(src->counter);
	src->counter = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_source_fini);

static void amdx_event_device_kill(struct amdx_device *adev)
{
	amdx_event_source_kill(&adev->events);
}

static void amdx_event_device_fini(struct amdx_device *adev)
{
	amdx_event_source_fini(&adev->events);
}

/**
 * amdx_event_device_init() - set up the event log of a new device
 * @adev: the device, id assigned, not yet published.
 *
 * Registers the log's end (%AMDX_DEVICE_REMOVE) and its freeing
 * (%AMDX_DEVICE_RELEASE) with the device.
 *
 * Return: 0, -ENOMEM, or -ENOSPC when the device holds no more actions.
 */
int amdx_event_device_init(struct amdx_device *adev)
{
	int ret;

	ret = amdx_event_source_init(&adev->events, adev->id,
				     adev->desc.hive_id);
	if (ret)
		return ret;
	ret = amdx_device_add_action_or_reset(adev, AMDX_DEVICE_RELEASE,
					      amdx_event_device_fini);
	if (ret)
		return ret;
	return amdx_device_add_action_or_reset(adev, AMDX_DEVICE_REMOVE,
					       amdx_event_device_kill);
}

/* A kind only the ring may produce (LOST) or an unknown one is a bug. */
static bool amdx_event_kind_bad(const struct amdx_event *ev)
{
	return WARN_ON_ONCE(ev->kind == AMDX_EVENT_LOST ||
			    ev->kind >= AMDX_EVENT_KIND_COUNT);
}

static_assert(sizeof(struct amdx_event_v1) == AMDX_EVENT_SIZE_VER1);
static_assert(sizeof(struct amdx_event_v2) == AMDX_EVENT_SIZE_VER2);
static_assert(sizeof(struct amdx_event_v3) == AMDX_EVENT_SIZE_VER3);
/* The ring's extension is the v3 record's tail, field for field. */
static_assert(sizeof(struct amdx_event) + sizeof(struct amdx_event_ext) ==
	      AMDX_EVENT_SIZE_VER3);
static_assert(offsetof(struct amdx_event_v3, v2.v1.pid) ==
	      sizeof(struct amdx_event) + offsetof(struct amdx_event_ext, pid));
static_assert(offsetof(struct amdx_event_v3, v2.driver_event) ==
	      sizeof(struct amdx_event) +
	      offsetof(struct amdx_event_ext, driver_event));
static_assert(offsetof(struct amdx_event_v3, driver_event_type) ==
	      sizeof(struct amdx_event) +
	      offsetof(struct amdx_event_ext, driver_event_type));

/* The record sizes a subscriber may ask for: one at most. */
#define AMDX_EVENT_F_SIZES	(AMDX_EVENT_F_SIZE_VER1 | \
				 AMDX_EVENT_F_SIZE_VER2 | \
				 AMDX_EVENT_F_SIZE_VER3)

/* What @sub may see of a record about @who (data[0]: the pid). */
static const struct amdx_event *
amdx_event_view(const struct amdx_event_sub *sub, const struct amdx_event *ev,
		const struct amdx_subject *who, struct amdx_event *tmp)
{
	if (!who)
		return ev;
	*tmp = *ev;
	tmp->data[0] = amdx_viewer_pid(&sub->viewer, who);
	return tmp;
}

/*
 * The fields the longer records add to an ERROR record of @error, as @sub
 * may see them (@ext filled), or NULL when @sub reads 64-byte records:
 * the consumer's pid as the rule for pids has it, its PASID only beside
 * that pid, the driver's event id and type.
 */
static const struct amdx_event_ext *
amdx_event_ext_of(const struct amdx_event_sub *sub,
		  const struct amdx_event_error *error,
		  struct amdx_event_ext *ext)
{
	if (!error || !sub->ring.ext)
		return NULL;
	*ext = (struct amdx_event_ext){
		.driver_event = error->driver_event,
		.driver_event_type = error->driver_event_type,
	};
	if (error->consumer) {
		ext->pid = amdx_viewer_pid(&sub->viewer, error->consumer);
		if (ext->pid)
			ext->pasid = error->consumer->pasid;
	}
	return ext;
}

static void __amdx_event_source_emit(struct amdx_event_source *src,
				     struct amdx_event *evs, u32 n,
				     const struct amdx_subject *who,
				     const struct amdx_event_error *error);

/**
 * amdx_event_source_emit() - emit records into an event log
 * @src: the log.
 * @evs: the records, see amdx_event_emit().
 * @n: how many.
 *
 * The records get consecutive seqs (one atomic step takes them all, so
 * no other device of the hive emits in between) and one timestamp, and
 * reach every subscriber back to back, with one wake-up per subscriber.
 * A record of a kind that is not a producer's (%AMDX_EVENT_LOST, unknown
 * kinds) is a bug: warned about once and dropped with seq 0.
 */
void amdx_event_source_emit(struct amdx_event_source *src,
			    struct amdx_event *evs, u32 n)
{
	__amdx_event_source_emit(src, evs, n, NULL, NULL);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_source_emit);

/*
 * @who: the process data[0] of every record names, or NULL.  @error: what
 * the longer records add to every record (ERROR), or NULL.
 */
static void __amdx_event_source_emit(struct amdx_event_source *src,
				     struct amdx_event *evs, u32 n,
				     const struct amdx_subject *who,
				     const struct amdx_event_error *error)
{
	struct amdx_event_sub *sub;
	unsigned long flags;
	u32 i, good = 0;
	u64 seq, now;

	for (i = 0; i < n; i++)
		if (!amdx_event_kind_bad(&evs[i]))
			good++;

	spin_lock_irqsave(&src->lock, flags);
	/* One emission, one moment: the records share the timestamp. */
	now = ktime_get_ns();
	seq = atomic64_add_return(good, &src->counter->seq) - good;
	src->emitted += good;
	for (i = 0; i < n; i++) {
		struct amdx_event *ev = &evs[i];

		if (ev->kind == AMDX_EVENT_LOST ||
		    ev->kind >= AMDX_EVENT_KIND_COUNT) {
			ev->seq = 0;
			continue;
		}
		ev->size = sizeof(*ev);
		ev->device = src->device;
		ev->seq = ++seq;
		ev->timestamp_ns = now;
		/* The tracepoint (root only) sees the initial namespace's. */
		if (who)
			ev->data[0] = pid_nr(who->pid);
		trace_amdx_event(ev);
	}
	list_for_each_entry(sub, &src->subs, node) {
		struct amdx_event_ext ext;
		struct amdx_event tmp;
		bool stored = false;

		for (i = 0; i < n; i++) {
			enum amdx_event_push r;

			if (!evs[i].seq)
				continue;
			r = amdx_event_ring_push_ext(&sub->ring,
						     amdx_event_view(sub, &evs[i],
								     who, &tmp),
						     amdx_event_ext_of(sub, error,
								       &ext));
			if (r == AMDX_EVENT_PUSH_STORED)
				stored = true;
			else if (r == AMDX_EVENT_PUSH_DROPPED)
				src->lost++;
		}
		/*
		 * The barrier in wq_has_sleeper() orders the ring's head
		 * before the wait queue check; pairs with the one in the
		 * reader's prepare_to_wait().
		 */
		if (stored && wq_has_sleeper(&sub->wait))
			wake_up_interruptible_poll(&sub->wait,
						   EPOLLIN | EPOLLRDNORM);
	}
	spin_unlock_irqrestore(&src->lock, flags);
}

/**
 * amdx_event_source_counts() - what an event log emitted and lost
 * @src: the log.
 * @emitted: out: records emitted since the log was set up.
 * @lost: out: records dropped from full subscriber rings, summed over the
 *	subscribers.
 */
void amdx_event_source_counts(struct amdx_event_source *src, u64 *emitted,
			      u64 *lost)
{
	unsigned long flags;

	spin_lock_irqsave(&src->lock, flags);
	*emitted = src->emitted;
	*lost = src->lost;
	spin_unlock_irqrestore(&src->lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_source_counts);

void amdx_event_emit(struct amdx_device *adev, struct amdx_event *ev)
{
	amdx_event_source_emit(&adev->events, ev, 1);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_emit);

void amdx_event_emit_many(struct amdx_device *adev, struct amdx_event *evs,
			  u32 n)
{
	amdx_event_source_emit(&adev->events, evs, n);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_emit_many);

void amdx_event_emit_subject(struct amdx_device *adev, struct amdx_event *ev,
			     const struct amdx_subject *who)
{
	__amdx_event_source_emit(&adev->events, ev, 1, who, NULL);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_emit_subject);

void amdx_event_emit_error(struct amdx_device *adev, struct amdx_event *ev,
			   const struct amdx_event_error *error)
{
	__amdx_event_source_emit(&adev->events, ev, 1, NULL, error);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_emit_error);

/**
 * amdx_event_subscribe_check() - validate %AMDX_IOC_EVENT_SUBSCRIBE input
 * @device: device id, for the log line.
 * @args: the argument.
 *
 * Return: 0, or -EINVAL (with a debug log line naming the cause) for a
 * non-zero pad or reserved field, flags other than %AMDX_EVENT_F_* or
 * more than one record size (%AMDX_EVENT_F_SIZE_VER1, _VER2, _VER3), a mask
 * with unknown kinds or without any kind but LOST, or a ring size that
 * is not 0 or a power of two in [%AMDX_EVENT_RING_MIN,
 * %AMDX_EVENT_RING_MAX].
 */
int amdx_event_subscribe_check(u32 device,
			       const struct amdx_event_subscribe *args)
{
	u32 size = args->ring_size;

	if (args->pad || args->reserved[0] || args->reserved[1]) {
		amdx_id_dbg(device, "event subscribe: pad or reserved not zero\n");
		return -EINVAL;
	}
	if (args->flags & ~AMDX_EVENT_F_ALL) {
		amdx_id_dbg(device, "event subscribe: unknown flags %#x\n",
			    args->flags & ~AMDX_EVENT_F_ALL);
		return -EINVAL;
	}
	if (hweight32(args->flags & AMDX_EVENT_F_SIZES) > 1) {
		amdx_id_dbg(device, "event subscribe: two record sizes asked for (flags %#x)\n",
			    args->flags);
		return -EINVAL;
	}
	if (args->mask & ~AMDX_EVENT_MASK_ALL) {
		amdx_id_dbg(device, "event subscribe: unknown kinds in mask %#llx\n",
			    args->mask);
		return -EINVAL;
	}
	if (!(args->mask & ~BIT_ULL(AMDX_EVENT_LOST))) {
		amdx_id_dbg(device, "event subscribe: mask %#llx selects no kind\n",
			    args->mask);
		return -EINVAL;
	}
	if (size && (!is_power_of_2(size) || size < AMDX_EVENT_RING_MIN ||
		     size > AMDX_EVENT_RING_MAX)) {
		amdx_id_dbg(device, "event subscribe: ring size %u is not a power of two in [%u, %u]\n",
			    size, AMDX_EVENT_RING_MIN, AMDX_EVENT_RING_MAX);
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_subscribe_check);

/* Caller holds src->lock: @uid's subscribers under the per-user cap. */
static u32 amdx_event_user_subs(const struct amdx_event_source *src,
				kuid_t uid)
{
	const struct amdx_event_sub *s;
	u32 n = 0;

	list_for_each_entry(s, &src->subs, node)
		n += s->per_user && uid_eq(s->viewer.euid, uid);
	return n;
}

/**
 * amdx_event_sub_create() - add a subscriber to an event log
 * @src: the log.
 * @mask: kinds wanted, checked by amdx_event_subscribe_check().
 * @ring_size: records the ring holds, a power of two.
 * @max_subs: the log may have at most this many subscribers with the new
 *	one (%AMDX_EVENT_SUBSCRIBERS_MAX, less the reserve for callers
 *	without CAP_SYS_ADMIN).
 * @max_user: the current effective uid may have at most this many
 *	subscribers under the per-user cap with the new one
 *	(%AMDX_EVENT_SUBSCRIBERS_PER_USER without CAP_SYS_ADMIN); 0: the
 *	new one is under no per-user cap and counts against none.  The
 *	count walks the subscribers, at most %AMDX_EVENT_SUBSCRIBERS_MAX.
 *
 * The subscriber sees every event emitted after this returns, with pids
 * as the current task may see them (&amdx_event_sub.viewer).  Its ring is
 * charged to the caller's memory cgroup.
 *
 * Return: the subscriber, ERR_PTR(-ENOMEM), ERR_PTR(-EMFILE) when the log
 * has @max_subs subscribers already or the caller's euid @max_user, or
 * ERR_PTR(-ENODEV) when the device is gone.
 */
struct amdx_event_sub *amdx_event_sub_create(struct amdx_event_source *src,
					     u64 mask, u32 ring_size,
					     u32 max_subs, u32 max_user)
{
	struct amdx_event_sub *sub;
	struct amdx_event *recs;
	unsigned long flags;

	sub = kzalloc(sizeof(*sub), GFP_KERNEL_ACCOUNT);
	if (!sub)
		return ERR_PTR(-ENOMEM);
	recs = kvcalloc(ring_size, sizeof(*recs), GFP_KERNEL_ACCOUNT);
	if (!recs) {
		kfree(sub);
		return ERR_PTR(-ENOMEM);
	}
	sub->src = src;
	INIT_LIST_HEAD(&sub->node);
	amdx_event_ring_init(&sub->ring, recs, ring_size, mask);
	sub->rec_size = sizeof(struct amdx_event);
	mutex_init(&sub->read_lock);
	init_waitqueue_head(&sub->wait);
	amdx_viewer_init(&sub->viewer);

	sub->per_user = max_user != 0;

	spin_lock_irqsave(&src->lock, flags);
	if (src->dead || src->nsubs >= max_subs ||
	    (max_user && amdx_event_user_subs(src, sub->viewer.euid) >=
			 max_user)) {
		int err = src->dead ? -ENODEV : -EMFILE;

		spin_unlock_irqrestore(&src->lock, flags);
		amdx_viewer_fini(&sub->viewer);
		kvfree(recs);
		kfree(sub);
		return ERR_PTR(err);
	}
	list_add_tail(&sub->node, &src->subs);
	src->nsubs++;
	spin_unlock_irqrestore(&src->lock, flags);
	return sub;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_sub_create);

/**
 * amdx_event_sub_destroy() - remove and free a subscriber
 * @sub: the subscriber; its event log must still exist.
 */
void amdx_event_sub_destroy(struct amdx_event_sub *sub)
{
	struct amdx_event_source *src = sub->src;
	unsigned long flags;

	spin_lock_irqsave(&src->lock, flags);
	if (!list_empty(&sub->node)) {
		list_del_init(&sub->node);
		src->nsubs--;
	}
	spin_unlock_irqrestore(&src->lock, flags);
	mutex_destroy(&sub->read_lock);
	amdx_viewer_fini(&sub->viewer);
	kvfree(sub->ring.ext);
	kvfree(sub->ring.recs);
	kfree(sub);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_sub_destroy);

/*
 * %AMDX_EVENT_F_SIZE_VER1, _VER2 or _VER3: @sub reads @rec_size-byte
 * records (struct amdx_event_v1, _v2 or _v3) from now on (before its fd
 * exists: no reader yet).  Records queued before have no extension
 * (zero).  Return: 0 or -ENOMEM.
 */
static int amdx_event_sub_extend(struct amdx_event_sub *sub, u32 rec_size)
{
	struct amdx_event_ext *ext;
	unsigned long flags;

	ext = kvcalloc(sub->ring.size, sizeof(*ext), GFP_KERNEL_ACCOUNT);
	if (!ext)
		return -ENOMEM;
	spin_lock_irqsave(&sub->src->lock, flags);
	sub->ring.ext = ext;
	spin_unlock_irqrestore(&sub->src->lock, flags);
	sub->rec_size = rec_size;
	return 0;
}

/* Copy @n records at @first to @buf as @sub reads them. */
static int amdx_event_copy_out(struct amdx_event_sub *sub, char __user *buf,
			       const struct amdx_event *first, u32 n)
{
	const u32 rec = sub->rec_size;
	struct amdx_event_v3 v;
	u32 i;

	if (!sub->ring.ext)
		return copy_to_user(buf, first, n * sizeof(*first)) ?
		       -EFAULT : 0;
	for (i = 0; i < n; i++) {
		const struct amdx_event_ext *ext =
			amdx_event_ring_ext(&sub->ring, &first[i]);

		v.v2.v1.ev = first[i];
		v.v2.v1.ev.size = rec;
		v.v2.v1.pid = ext->pid;
		v.v2.v1.pasid = ext->pasid;
		v.v2.driver_event = ext->driver_event;
		v.driver_event_type = ext->driver_event_type;
		v.reserved = 0;
		/* A v1 record is the start of the v2 one, v2 of v3. */
		if (copy_to_user(buf + (size_t)i * rec, &v, rec))
			return -EFAULT;
	}
	return 0;
}

/* The end of the log; once true, every record the log will get is queued. */
static bool amdx_event_sub_hup(const struct amdx_event_sub *sub)
{
	/* Pairs with the release in amdx_event_source_kill(). */
	return smp_load_acquire(&sub->hup);
}

/* Wait condition and poll: records or a LOST record waiting, or the end. */
static bool amdx_event_sub_wake(const struct amdx_event_sub *sub)
{
	return amdx_event_ring_readable(&sub->ring) || amdx_event_sub_hup(sub);
}

/*
 * A blocking reader found the ring empty.  If the last record it read
 * was emitted less than event_read_poll_us ago, the log is busy: poll the
 * ring for up to that long before sleeping, so that neither side pays
 * for a sleep and a wake-up (on the emitter's side, a wake-up is an IPI
 * to the idle reader CPU) for every few records of a storm.  Like KVM's
 * halt polling, only while nothing else wants this CPU; an idle log (the
 * last record older than the budget) never polls.
 *
 * Return: true when records (or the end) arrived while polling.
 */
static bool amdx_event_sub_poll(struct amdx_event_sub *sub)
{
	u64 budget = (u64)READ_ONCE(event_read_poll_us) * NSEC_PER_USEC;
	u64 start = ktime_get_ns();

	if (!budget || start - sub->last_ts > budget)
		return false;
	do {
		if (amdx_event_sub_wake(sub))
			return true;
		if (need_resched() || signal_pending(current) ||
		    !single_task_running())
			break;
		cpu_relax();
	} while (ktime_get_ns() - start < budget);
	return false;
}

/*
 * The next records for a reader holding read_lock, queueing the LOST
 * record of pending misses when nothing else is left.
 */
static u32 amdx_event_sub_peek(struct amdx_event_sub *sub, u32 max,
			       const struct amdx_event **first)
{
	u32 n = amdx_event_ring_peek(&sub->ring, max, first);

	if (!n && amdx_event_ring_lost_pending(&sub->ring)) {
		spin_lock_irq(&sub->src->lock);
		amdx_event_ring_flush_lost(&sub->ring);
		spin_unlock_irq(&sub->src->lock);
		n = amdx_event_ring_peek(&sub->ring, max, first);
	}
	return n;
}

static ssize_t amdx_event_read(struct file *filp, char __user *buf,
			       size_t count, loff_t *ppos)
{
	struct amdx_event_sub *sub = filp->private_data;
	const size_t rec = sub->rec_size;
	const struct amdx_event *first;
	u32 want, done = 0, n;
	ssize_t ret = 0;

	if (count < rec) {
		amdx_id_dbg(sub->src->device,
			    "event read: %zu bytes hold no record\n", count);
		return -EINVAL;
	}
	want = min_t(size_t, count / rec, SZ_1G / rec);

	if (mutex_lock_interruptible(&sub->read_lock))
		return -ERESTARTSYS;
	while (!(n = amdx_event_sub_peek(sub, want, &first))) {
		/* hup first: then the peek below sees every record. */
		if (amdx_event_sub_hup(sub)) {
			n = amdx_event_sub_peek(sub, want, &first);
			if (!n)
				goto out_unlock;	/* EOF */
			break;
		}
		if (filp->f_flags & O_NONBLOCK) {
			ret = -EAGAIN;
			goto out_unlock;
		}
		if (amdx_event_sub_poll(sub))
			continue;
		ret = wait_event_interruptible(sub->wait,
					       amdx_event_sub_wake(sub));
		if (ret)
			goto out_unlock;
	}

	do {
		/* The producer does not write queued slots: copy in place. */
		ret = amdx_event_copy_out(sub, buf + (size_t)done * rec, first,
					  n);
		if (ret)
			break;
		sub->last_ts = first[n - 1].timestamp_ns;
		amdx_event_ring_consume(&sub->ring, n);
		done += n;
	} while (done < want &&
		 (n = amdx_event_sub_peek(sub, want - done, &first)));
out_unlock:
	mutex_unlock(&sub->read_lock);
	return done ? (ssize_t)done * rec : ret;
}

static __poll_t amdx_event_poll(struct file *filp, poll_table *wait)
{
	struct amdx_event_sub *sub = filp->private_data;
	__poll_t mask = 0;

	poll_wait(filp, &sub->wait, wait);
	/*
	 * The conditions are read without a lock: order them after joining
	 * the wait queue.  Pairs with the barrier in wq_has_sleeper() on the
	 * emitter's side, as sock_poll_wait() does.
	 */
	smp_mb();
	if (amdx_event_sub_hup(sub))
		mask |= EPOLLHUP;
	if (amdx_event_ring_readable(&sub->ring))
		mask |= EPOLLIN | EPOLLRDNORM;
	return mask;
}

static int amdx_event_release(struct inode *inode, struct file *filp)
{
	struct amdx_event_sub *sub = filp->private_data;
	struct amdx_device *adev = sub->adev;

	amdx_event_sub_destroy(sub);
	amdx_device_put(adev);
	return 0;
}

static void amdx_event_show_fdinfo(struct seq_file *m, struct file *filp)
{
	struct amdx_event_sub *sub = filp->private_data;
	struct amdx_event_ring *r = &sub->ring;

	/* The producer side stands still; the consumer's tail may move. */
	spin_lock_irq(&sub->src->lock);
	seq_printf(m, "amdx-device:\t%u\n", sub->src->device);
	seq_printf(m, "amdx-mask:\t%#llx\n", r->mask);
	seq_printf(m, "amdx-ring-size:\t%u\n", r->size);
	seq_printf(m, "amdx-queued:\t%u\n", amdx_event_ring_queued(r));
	seq_printf(m, "amdx-lost-pending:\t%llu\n", r->lost);
	seq_printf(m, "amdx-dropped:\t%llu\n", r->dropped);
	seq_printf(m, "amdx-hup:\t%d\n", amdx_event_sub_hup(sub));
	spin_unlock_irq(&sub->src->lock);
}

static const struct file_operations amdx_event_fops = {
	.owner = THIS_MODULE,
	.read = amdx_event_read,
	.poll = amdx_event_poll,
	.release = amdx_event_release,
	.show_fdinfo = amdx_event_show_fdinfo,
};

/**
 * amdx_ioctl_event_subscribe() - %AMDX_IOC_EVENT_SUBSCRIBE
 * @file: a device fd; the caller holds the device lock for read.
 * @data: &struct amdx_event_subscribe.
 *
 * The dispatcher puts the file into the fd table once the argument is
 * copied back (&amdx_ioctl_desc.open).
 *
 * Return: the event fd's file; ERR_PTR(-EINVAL) for bad input (see
 * amdx_event_subscribe_check()); ERR_PTR(-EMFILE) when the device has
 * %AMDX_EVENT_SUBSCRIBERS_MAX subscribers, or without CAP_SYS_ADMIN
 * %AMDX_EVENT_SUBSCRIBERS_MAX - %AMDX_EVENT_SUBSCRIBERS_RESERVED, or the
 * caller's effective uid %AMDX_EVENT_SUBSCRIBERS_PER_USER of them;
 * ERR_PTR(-ENOMEM), ERR_PTR(-ENODEV).
 */
struct file *amdx_ioctl_event_subscribe(struct amdx_file *file, void *data)
{
	struct amdx_event_subscribe *args = data;
	struct amdx_device *adev = file->adev;
	u32 max_subs = AMDX_EVENT_SUBSCRIBERS_MAX, max_user = 0;
	struct amdx_event_sub *sub;
	struct file *filp;
	int ret;

	ret = amdx_event_subscribe_check(adev->id, args);
	if (ret)
		return ERR_PTR(ret);
	/*
	 * The last few subscriptions are kept for administrators; a user
	 * takes a share of the rest, so no user can take them all.
	 */
	if (!capable(CAP_SYS_ADMIN)) {
		max_subs -= AMDX_EVENT_SUBSCRIBERS_RESERVED;
		max_user = AMDX_EVENT_SUBSCRIBERS_PER_USER;
	}
	sub = amdx_event_sub_create(&adev->events, args->mask,
				    args->ring_size ?: AMDX_EVENT_RING_DEFAULT,
				    max_subs, max_user);
	if (IS_ERR(sub)) {
		if (PTR_ERR(sub) == -EMFILE)
			amdx_dbg_ratelimited(adev, "event subscribe: %u subscribers on the device or %u of uid %u already\n",
					     max_subs, max_user,
					     from_kuid(&init_user_ns,
						       current_euid()));
		return ERR_CAST(sub);
	}
	if (args->flags & AMDX_EVENT_F_SIZES) {
		ret = amdx_event_sub_extend(sub,
					    args->flags & AMDX_EVENT_F_SIZE_VER3 ?
					    AMDX_EVENT_SIZE_VER3 :
					    args->flags & AMDX_EVENT_F_SIZE_VER2 ?
					    AMDX_EVENT_SIZE_VER2 :
					    AMDX_EVENT_SIZE_VER1);
		if (ret) {
			amdx_event_sub_destroy(sub);
			return ERR_PTR(ret);
		}
	}

	filp = anon_inode_getfile("[amdx_event]", &amdx_event_fops, sub,
				  O_RDONLY |
				  (args->flags & AMDX_EVENT_F_NONBLOCK ?
				   O_NONBLOCK : 0));
	if (IS_ERR(filp)) {
		amdx_event_sub_destroy(sub);
		return filp;
	}
	stream_open(file_inode(filp), filp);
	kref_get(&adev->ref);
	sub->adev = adev;
	return filp;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_ioctl_event_subscribe);

/*
 * Testing hook emit_events: "<kind> <count>[\n]" emits @count records of
 * @kind, data[0] = 0..count-1, data[1] = count.
 *
 * The file is created "unsafe" (no debugfs proxy around each write): open
 * takes a reference on the device inside debugfs_file_get(), which device
 * removal's debugfs_remove_recursive() waits for, so a write that races
 * with removal sees adev->dead, never freed memory, and the fops' owner
 * keeps the module.  A write of one record does no allocation and no sscanf():
 * the benchmark measures the event log, not the hook.
 */
#define AMDX_EVENT_HOOK_MAX	SZ_1M
/* Records emitted under one lock hold, with one wake-up. */
#define AMDX_EVENT_HOOK_CHUNK	64U
/* Records built on the stack; larger writes allocate a chunk. */
#define AMDX_EVENT_HOOK_STACK	4U

/**
 * amdx_event_hook_open() - open of a device's debugfs hook file
 * @inode: the file's inode; i_private is the device.
 * @f: the file; private_data becomes the device (a reference).
 *
 * Return: 0, or -ENODEV once the device's removal has begun.
 */
int amdx_event_hook_open(struct inode *inode, struct file *f)
{
	struct amdx_device *adev = inode->i_private;
	int ret;

	/*
	 * An unsafe file's open is not fenced against debugfs_remove():
	 * debugfs_file_get() is.  Until it fails, removal has not passed
	 * amdx_debugfs_remove(), so the registry's reference still stands
	 * and ours can be taken.
	 */
	ret = debugfs_file_get(f->f_path.dentry);
	if (ret)
		return -ENODEV;
	kref_get(&adev->ref);
	debugfs_file_put(f->f_path.dentry);
	f->private_data = adev;
	return nonseekable_open(inode, f);
}

/**
 * amdx_event_hook_release() - release of a device's debugfs hook file
 * @inode: the file's inode.
 * @f: the file of amdx_event_hook_open().
 *
 * Return: 0.
 */
int amdx_event_hook_release(struct inode *inode, struct file *f)
{
	amdx_device_put(f->private_data);
	return 0;
}

/* "<kind> <count>" with an optional newline; the kernel's strict parsing. */
static int amdx_event_hook_parse(char *buf, u32 *kind, u32 *count)
{
	char *sp = strchr(buf, ' ');

	if (!sp)
		return -EINVAL;
	*sp = '\0';
	if (kstrtou32(buf, 10, kind) || kstrtou32(sp + 1, 10, count))
		return -EINVAL;
	if (*kind == AMDX_EVENT_LOST || *kind >= AMDX_EVENT_KIND_COUNT ||
	    !*count || *count > AMDX_EVENT_HOOK_MAX)
		return -EINVAL;
	return 0;
}

static ssize_t amdx_event_hook_write(struct file *f, const char __user *ubuf,
				     size_t len, loff_t *ppos)
{
	/* Every record used is assigned whole below. */
	struct amdx_event stack[AMDX_EVENT_HOOK_STACK] __uninitialized;
	struct amdx_event *evs = stack;
	struct amdx_device *adev = f->private_data;
	u32 kind, count, chunk, i, j;
	char buf[32];
	int ret = 0;

	if (len >= sizeof(buf)) {
		amdx_dbg(adev, "emit_events: %zu bytes is too long\n", len);
		return -EINVAL;
	}
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (amdx_event_hook_parse(buf, &kind, &count)) {
		amdx_dbg(adev, "emit_events: want \"<kind 1..%u> <count 1..%u>\"\n",
			 AMDX_EVENT_KIND_COUNT - 1,
			 AMDX_EVENT_HOOK_MAX);
		return -EINVAL;
	}

	if (count > AMDX_EVENT_HOOK_STACK) {
		evs = kmalloc_array(min(count, AMDX_EVENT_HOOK_CHUNK),
				    sizeof(*evs), GFP_KERNEL);
		if (!evs)
			return -ENOMEM;
	}
	down_read(&adev->lock);
	if (adev->dead)
		ret = -ENODEV;
	for (i = 0; i < count && !ret; i += chunk) {
		chunk = min(count - i, AMDX_EVENT_HOOK_CHUNK);
		for (j = 0; j < chunk; j++)
			evs[j] = (struct amdx_event){
				.kind = kind,
				.partition = AMDX_RAS_PARTITION_ALL,
				.data = { i + j, count },
			};
		amdx_event_emit_many(adev, evs, chunk);
		if (count > AMDX_EVENT_HOOK_CHUNK)
			cond_resched();
	}
	up_read(&adev->lock);
	if (evs != stack)
		kfree(evs);
	return ret ? ret : len;
}

static const struct file_operations amdx_event_hook_fops = {
	.owner = THIS_MODULE,
	.open = amdx_event_hook_open,
	.release = amdx_event_hook_release,
	.write = amdx_event_hook_write,
};

/**
 * amdx_event_debugfs_add() - create the device's ``emit_events`` hook
 * @adev: the device; its debugfs directory exists.
 */
void amdx_event_debugfs_add(struct amdx_device *adev)
{
	debugfs_create_file_unsafe("emit_events", 0200, adev->debugfs, adev,
				   &amdx_event_hook_fops);
}
