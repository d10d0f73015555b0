// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: the amdgpu provider
 *
 * Compiled into the patched amdgpu (patches/6.12/, scripts/amdgpu-tree.sh),
 * since amdgpu exports nothing an outside module could call.  amdgpu calls
 * four hooks (amdgpu_amdx.h):
 *
 * - amdgpu_amdx_init() at the end of a successful amdgpu_device_init():
 *   a GC 9.4.3 or 9.4.4 device that is not an SR-IOV VF is registered with
 *   amdx, with identity, RAS blocks and the bad-page records of amdgpu's
 *   RAS EEPROM;
 * - amdgpu_amdx_fini() at the start of amdgpu_device_fini_hw() (PCI
 *   removal, hot unplug, driver unload): the device leaves amdx while
 *   amdgpu is still whole;
 * - amdgpu_amdx_free() at the end of amdgpu_device_fini_sw(), once the RAS
 *   interrupt work can no longer run: the provider data is freed;
 * - amdgpu_amdx_ras_interrupt() from amdgpu's RAS interrupt bottom half,
 *   after amdgpu has handled the entry: the block's counters are read
 *   through amdgpu_ras_query_error_status() and what grew since the last
 *   read goes to amdx_ras_report().
 *
 * The ops map onto amdgpu's functions; what 6.12's amdgpu cannot do stays
 * NULL (the core reports it absent): SR-IOV host control (GIM's job),
 * HMM (KFD SVM owns the device-private pagemap of the VRAM), per-partition
 * reset (no entry point), retiring a page on amdx's word and storing
 * amdx's bad-page table (amdgpu retires and persists UMC pages itself).
 * Every value crosses through amdx_amdgpu_xlate.c.
 */
#include <kunit/static_stub.h>
#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pm_runtime.h>
#include <linux/rwsem.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "amdgpu.h"
#include "amdgpu_fru_eeprom.h"
#include "amdgpu_ras.h"
#include "amdgpu_ras_eeprom.h"
#include "amdgpu_reset.h"
#include "amdgpu_xcp.h"
#include "amdgpu_amdx.h"
#include "amdgpu_amdx_kunit.h"
#include "amdgpu_amdx_version.h"

#include <amdx/amdx_provider.h>
#include "amdx_amdgpu_xlate.h"
#include "amdx_badpage.h"

/* Polls of the counters after an injection, AMDGPU_AMDX_INJECT_POLL_MS apart. */
#define AMDGPU_AMDX_INJECT_POLLS	10
#define AMDGPU_AMDX_INJECT_POLL_MS	10

/**
 * struct amdgpu_amdx - the provider's data for one amdgpu device
 * @adev: the amdgpu device.
 * @xdev: its amdx device.
 * @num_xcc: XCCs.
 * @gate: read-held by the interrupt hook around amdx_ras_report();
 *	amdgpu_amdx_fini() write-holds it to set @dead.
 * @dead: set once the device is leaving amdx: no more reports.
 * @ras_lock: protects @last and @injecting.
 * @last: counts per amdx block and type at the last read.
 * @injecting: the amdgpu block an injection is polling, or -1; the
 *	interrupt hook leaves its counts to the injection.
 * @inject_lock: one injection at a time.
 * @reset_work: amdgpu_device_gpu_recover(), run in the reset domain.
 * @reset_ctx: its reset context.
 * @reset_ret: its result.
 */
struct amdgpu_amdx {
	struct amdgpu_device *adev;
	struct amdx_device *xdev;
	u32 num_xcc;
	struct rw_semaphore gate;
	bool dead;
	struct mutex ras_lock;	/* @last, @injecting */
	u64 last[AMDX_RAS_BLOCK_COUNT][AMDX_RAS_TYPE_COUNT];
	int injecting;
	struct mutex inject_lock;	/* one injection at a time */
	struct work_struct reset_work;
	struct amdgpu_reset_context reset_ctx;
	int reset_ret;
};

/**
 * amdgpu_amdx_register() - register a device with the amdx core
 * @adev: the amdgpu device.
 * @desc: its description.
 * @ops: the provider's ops.
 * @priv: the provider's data for @adev.
 *
 * amdx_device_register() with @adev's device as the parent; a KUnit
 * static stub point, through which tests/amdgpu_amdx_test.c sees what the
 * provider registers (a plain call without CONFIG_KUNIT).
 *
 * Return: the amdx device or an ERR_PTR().
 */
struct amdx_device *amdgpu_amdx_register(struct amdgpu_device *adev,
					 const struct amdx_device_desc *desc,
					 const struct amdx_provider_ops *ops,
					 void *priv)
{
	KUNIT_STATIC_STUB_REDIRECT(amdgpu_amdx_register, adev, desc, ops, priv);
	return amdx_device_register(adev->dev, desc, ops, priv);
}

static bool amdgpu_amdx_supported(struct amdgpu_device *adev)
{
	u32 gc = amdgpu_ip_version(adev, GC_HWIP, 0);

	return gc == IP_VERSION(9, 4, 3) || gc == IP_VERSION(9, 4, 4);
}

/* The current compute mode as amdx's, AMDX_COMPUTE_UNKNOWN if none. */
static u32 amdgpu_amdx_compute_mode(struct amdgpu_device *adev)
{
	int mode = amdgpu_xcp_query_partition_mode(adev->xcp_mgr,
						   AMDGPU_XCP_FL_NONE);

	mode = amdx_amdgpu_compute_from_amdgpu(mode);
	return mode < 0 ? AMDX_COMPUTE_UNKNOWN : mode;
}

static u32 amdgpu_amdx_memory_mode(struct amdgpu_device *adev)
{
	int mode;

	if (!adev->gmc.gmc_funcs->query_mem_partition_mode)
		return AMDX_MEMORY_NPS1;
	mode = adev->gmc.gmc_funcs->query_mem_partition_mode(adev);
	mode = amdx_amdgpu_memory_from_amdgpu(mode);
	return mode < 0 ? AMDX_MEMORY_UNKNOWN : mode;
}

/*
 * amdgpu's memory partitions as the translations' ranges; returns how many.
 * An APU's partitions are NUMA nodes, not VRAM ranges: one range then,
 * the whole VRAM, as when amdgpu has no ranges.
 */
static u32 amdgpu_amdx_mem_ranges(struct amdgpu_device *adev,
				  struct amdx_amdgpu_mem_range *r)
{
	u32 i, n = min_t(u32, adev->gmc.num_mem_partitions,
			 AMDX_MAX_MEM_PARTITIONS);

	if ((adev->flags & AMD_IS_APU) || !n || !adev->gmc.mem_partitions) {
		r[0].fpfn = 0;
		r[0].lpfn = (adev->gmc.real_vram_size >>
			     AMDX_AMDGPU_GPU_PAGE_SHIFT) - 1;
		return 1;
	}
	for (i = 0; i < n; i++) {
		r[i].fpfn = adev->gmc.mem_partitions[i].range.fpfn;
		r[i].lpfn = adev->gmc.mem_partitions[i].range.lpfn;
	}
	return n;
}

/* The memory partition holding VRAM byte @address, from amdgpu's ranges. */
static u32 amdgpu_amdx_mem_partition(struct amdgpu_device *adev, u64 address)
{
	struct amdx_amdgpu_mem_range r[AMDX_MAX_MEM_PARTITIONS];
	int part = amdx_amdgpu_mem_partition(r, amdgpu_amdx_mem_ranges(adev, r),
					     address);

	return part < 0 ? 0 : part;
}

static int amdgpu_amdx_get_state(struct amdx_device *xdev,
				 struct amdx_device_state *st)
{
	struct amdgpu_amdx *p = amdx_device_priv(xdev);
	struct amdgpu_device *adev = p->adev;
	u32 i, n;

	st->compute_mode = amdgpu_amdx_compute_mode(adev);
	st->memory_mode = amdgpu_amdx_memory_mode(adev);
	st->num_vfs = 0;
	n = min_t(u32, adev->gmc.num_mem_partitions, AMDX_MAX_MEM_PARTITIONS);
	if (!n || !adev->gmc.mem_partitions) {
		st->num_mem_partitions = 1;
		st->mem[0].base = 0;
		st->mem[0].size = adev->gmc.real_vram_size;
		/* amdx allocates no VRAM on this provider: nothing is free to it. */
		st->mem[0].free = 0;
		return 0;
	}
	st->num_mem_partitions = n;
	for (i = 0; i < n; i++) {
		const struct amdgpu_mem_partition_info *m =
			&adev->gmc.mem_partitions[i];

		st->mem[i].base = (adev->flags & AMD_IS_APU) ? 0 :
				  (u64)m->range.fpfn << AMDX_AMDGPU_GPU_PAGE_SHIFT;
		st->mem[i].size = m->size;
		st->mem[i].free = 0;
	}
	return 0;
}

/*
 * The compute mode the hardware runs, read from NBIO's partition status
 * as amdgpu's own query does, but without comparing it with amdgpu's
 * cached mode: amdgpu_xcp_query_partition_mode() WARNs when the two
 * differ, which is exactly the case after a switch the firmware refused.
 */
static int amdgpu_amdx_hw_compute_mode(struct amdgpu_device *adev)
{
	if (adev->nbio.funcs && adev->nbio.funcs->get_compute_partition_mode)
		return adev->nbio.funcs->get_compute_partition_mode(adev);
	return amdgpu_xcp_query_partition_mode(adev->xcp_mgr,
					       AMDGPU_XCP_FL_NONE);
}

/*
 * A switch takes the reset domain's lock for read, as amdgpu's sysfs store
 * does since upstream 75f138db48c5: during a reset amdgpu's partition code
 * skips the KFD teardown, so a switch then is refused (-EBUSY), not run.
 * amdgpu caches the requested mode whatever the firmware answered: the
 * hardware is read back, and a refused switch is undone in amdgpu too, so
 * that its cache and the hardware agree again.
 */
static int amdgpu_amdx_set_compute_mode(struct amdx_device *xdev, u32 mode)
{
	struct amdgpu_amdx *p = amdx_device_priv(xdev);
	struct amdgpu_device *adev = p->adev;
	int want = amdx_amdgpu_compute_to_amdgpu(mode);
	int old, now, ret;

	if (want < 0)
		return -EINVAL;
	if (!down_read_trylock(&adev->reset_domain->sem))
		return -EBUSY;
	old = amdgpu_amdx_hw_compute_mode(adev);
	ret = amdgpu_xcp_switch_partition_mode(adev->xcp_mgr, want);
	if (ret)
		goto out;
	now = amdgpu_amdx_hw_compute_mode(adev);
	if (now == want)
		goto out;
	dev_err_ratelimited(adev->dev,
			    "amdx: compute mode %d requested, device reports %d; restoring %d\n",
			    want, now, old);
	ret = -EIO;
	if (old < 0)
		goto out;
	/* amdgpu now caches @want: switch it back to what runs. */
	amdgpu_xcp_switch_partition_mode(adev->xcp_mgr, old);
	now = amdgpu_amdx_hw_compute_mode(adev);
	if (now != old || adev->xcp_mgr->mode != old)
		dev_err_ratelimited(adev->dev,
				    "amdx: restoring compute mode %d failed: device reports %d, amdgpu %d\n",
				    old, now, adev->xcp_mgr->mode);
out:
	up_read(&adev->reset_domain->sem);
	return ret;
}

/* 6.12's amdgpu applies a memory mode only across a driver reload. */
static int amdgpu_amdx_set_memory_mode(struct amdx_device *xdev, u32 mode)
{
	struct amdgpu_amdx *p = amdx_device_priv(xdev);

	if (mode == amdgpu_amdx_memory_mode(p->adev))
		return 0;
	dev_info_ratelimited(p->adev->dev,
			     "amdx: memory mode %u refused: this amdgpu switches memory partitions only across a reload\n",
			     mode);
	return -EOPNOTSUPP;
}

/*
 * Read amdgpu's counters of @ag_block and report what grew since the last
 * read as errors of @instance in @partition.  Returns the errors reported
 * or -errno; *@seq (may be NULL) gets the first report's sequence number.
 */
static int amdgpu_amdx_ras_collect(struct amdgpu_amdx *p, int ag_block,
				   u32 instance, u32 partition,
				   const u64 *address, u64 *seq)
{
	struct amdgpu_device *adev = p->adev;
	struct ras_query_if q = { .head.block = ag_block };
	u64 now[AMDX_RAS_TYPE_COUNT], delta[AMDX_RAS_TYPE_COUNT];
	struct amdx_ras_error err = {
		.instance = instance,
		.partition = partition,
	};
	int block, t, ret, reported = 0;
	u64 s;

	block = amdx_amdgpu_ras_block_from_amdgpu(ag_block);
	if (block < 0)
		return block;
	ret = amdgpu_ras_query_error_status(adev, &q);
	if (ret)
		return ret;
	amdx_amdgpu_ras_counts(q.ce_count, q.ue_count, q.de_count, now);
	mutex_lock(&p->ras_lock);
	for (t = 0; t < AMDX_RAS_TYPE_COUNT; t++) {
		/* amdgpu's counts only drop when it clears them: start over. */
		delta[t] = now[t] >= p->last[block][t] ?
			   now[t] - p->last[block][t] : 0;
		p->last[block][t] = now[t];
	}
	mutex_unlock(&p->ras_lock);

	err.block = block;
	if (address) {
		err.flags = AMDX_RAS_ERR_F_ADDRESS;
		err.address = *address;
		err.mem_partition = amdgpu_amdx_mem_partition(adev, *address);
	}
	for (t = 0; t < AMDX_RAS_TYPE_COUNT; t++) {
		if (!delta[t])
			continue;
		/* A type the block does not declare: amdx would refuse it. */
		if (!(amdx_amdgpu_ras_types(block) & BIT(t))) {
			dev_info_ratelimited(adev->dev,
					     "amdx: %llu errors of type %d in block %d, a type amdx was not told of, not reported\n",
					     delta[t], t, block);
			continue;
		}
		err.type = t;
		err.count = min_t(u64, delta[t], U32_MAX);
		ret = amdgpu_amdx_report(p, &err, &s);
		if (ret) {
			dev_err_ratelimited(adev->dev,
					    "amdx: RAS report of block %d type %d refused: %d\n",
					    block, t, ret);
			continue;
		}
		if (seq && !reported)
			*seq = s;
		reported += err.count;
	}
	return reported;
}

/**
 * amdgpu_amdx_report() - pass one error on to amdx
 * @p: the provider's data of the device.
 * @err: the error.
 * @seq: out, may be NULL: the ERROR event's sequence number.
 *
 * amdx_ras_report(); a KUnit static stub point, through which
 * tests/amdgpu_amdx_test.c sees what reaches amdx.
 *
 * Return: amdx_ras_report()'s.
 */
int amdgpu_amdx_report(struct amdgpu_amdx *p, const struct amdx_ras_error *err,
		       u64 *seq)
{
	KUNIT_STATIC_STUB_REDIRECT(amdgpu_amdx_report, p, err, seq);
	return amdx_ras_report(p->xdev, err, seq);
}

static int amdgpu_amdx_ras_inject(struct amdx_device *xdev,
				  const struct amdx_ras_inject *inj, u64 *seq)
{
	struct amdgpu_amdx *p = amdx_device_priv(xdev);
	struct amdgpu_device *adev = p->adev;
	int ag_block = amdx_amdgpu_ras_block_to_amdgpu(inj->block);
	int ag_type = amdx_amdgpu_ras_type_to_amdgpu(inj->type);
	struct ras_inject_if info = {};
	u32 partition = AMDX_RAS_PARTITION_ALL;
	int ret = 0, part, i;

	if (ag_block < 0 || ag_type < 0 || inj->instance >= 32)
		return -EINVAL;
	if (inj->block == AMDX_RAS_BLOCK_GFX) {
		part = amdx_amdgpu_xcc_partition(amdgpu_amdx_compute_mode(adev),
						 p->num_xcc, inj->instance);
		if (part >= 0)
			partition = part;
	}
	info.head.block = ag_block;
	info.head.type = ag_type;
	info.address = inj->address;
	info.instance_mask = BIT(inj->instance);

	mutex_lock(&p->inject_lock);
	mutex_lock(&p->ras_lock);
	p->injecting = ag_block;
	mutex_unlock(&p->ras_lock);
	for (i = 0; i < inj->count; i++) {
		ret = amdgpu_ras_error_inject(adev, &info);
		if (ret)
			break;
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		cond_resched();
	}
	/* The error reaches the counters later, through the firmware. */
	for (i = 0; !ret && i < AMDGPU_AMDX_INJECT_POLLS; i++) {
		ret = amdgpu_amdx_ras_collect(p, ag_block, inj->instance,
					      partition,
					      inj->block == AMDX_RAS_BLOCK_UMC ?
					      &inj->address : NULL, seq);
		if (ret > 0) {
			ret = 0;
			goto out;
		}
		if (ret < 0)
			break;
		msleep(AMDGPU_AMDX_INJECT_POLL_MS);
	}
	if (!ret) {
		dev_info_ratelimited(adev->dev,
				     "amdx: injected into block %d, no error counted within %d ms\n",
				     ag_block, AMDGPU_AMDX_INJECT_POLLS *
				     AMDGPU_AMDX_INJECT_POLL_MS);
		ret = -ETIMEDOUT;
	}
out:
	mutex_lock(&p->ras_lock);
	p->injecting = -1;
	mutex_unlock(&p->ras_lock);
	mutex_unlock(&p->inject_lock);
	return ret;
}

static void amdgpu_amdx_reset_work(struct work_struct *work)
{
	struct amdgpu_amdx *p = container_of(work, struct amdgpu_amdx,
					     reset_work);

	p->reset_ret = amdgpu_device_gpu_recover(p->adev, NULL, &p->reset_ctx);
}

/**
 * amdgpu_amdx_recover() - run amdgpu's recovery of a device
 * @p: the provider's data of the device.
 * @ctx: the reset context.
 *
 * amdgpu_device_gpu_recover() with @ctx, queued in the device's reset
 * domain as amdgpu's own recoveries are, and waited for.  A KUnit static
 * stub point (the recovery itself runs in the domain's worker, where a
 * test cannot redirect it).
 *
 * Return: its result, or -EBUSY if the work could not be queued.
 */
int amdgpu_amdx_recover(struct amdgpu_amdx *p,
			const struct amdgpu_reset_context *ctx)
{
	KUNIT_STATIC_STUB_REDIRECT(amdgpu_amdx_recover, p, ctx);
	p->reset_ctx = *ctx;
	if (!amdgpu_reset_domain_schedule(p->adev->reset_domain,
					  &p->reset_work))
		return -EBUSY;
	flush_work(&p->reset_work);
	return p->reset_ret;
}

/*
 * amdgpu's recovery, as its debugfs amdgpu_gpu_recover runs one: a full
 * reset in the reset domain, a runtime-PM reference held, no core dump.
 * Never a second reset: while amdgpu recovers the device itself (its RAS
 * recovery, queued before amdx hears of a consumed poison, or any reset
 * in the domain) the op returns -EALREADY, and with amdgpu.gpu_recovery=0
 * (amdgpu's own recovery off) -EOPNOTSUPP.
 */
static int amdgpu_amdx_device_reset(struct amdx_device *xdev)
{
	struct amdgpu_amdx *p = amdx_device_priv(xdev);
	struct amdgpu_device *adev = p->adev;
	struct amdgpu_reset_context ctx;
	int ret;

	if (!amdgpu_device_should_recover_gpu(adev)) {
		dev_info_ratelimited(adev->dev,
				     "amdx: no device reset: amdgpu's GPU recovery is off (amdgpu.gpu_recovery)\n");
		return -EOPNOTSUPP;
	}
	if (amdgpu_ras_in_recovery(adev) || amdgpu_in_reset(adev)) {
		dev_info_ratelimited(adev->dev,
				     "amdx: amdgpu is already recovering the device: no second reset\n");
		return -EALREADY;
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.method = AMD_RESET_METHOD_NONE;
	ctx.reset_req_dev = adev;
	ctx.src = AMDGPU_RESET_SRC_USER;
	set_bit(AMDGPU_NEED_FULL_RESET, &ctx.flags);
	set_bit(AMDGPU_SKIP_COREDUMP, &ctx.flags);
	ret = pm_runtime_get_sync(adev->dev);
	if (ret >= 0)
		ret = amdgpu_amdx_recover(p, &ctx);
	pm_runtime_mark_last_busy(adev->dev);
	pm_runtime_put_autosuspend(adev->dev);
	return ret;
}

static const struct amdx_provider_ops amdgpu_amdx_ops = {
	.get_state = amdgpu_amdx_get_state,
	.ras_inject = amdgpu_amdx_ras_inject,
	.device_reset = amdgpu_amdx_device_reset,
	.set_compute_mode = amdgpu_amdx_set_compute_mode,
	.set_memory_mode = amdgpu_amdx_set_memory_mode,
};

static int amdgpu_amdx_badpage_cmp(const void *a, const void *b)
{
	const struct amdx_badpage_record *x = a, *y = b;

	return x->address < y->address ? -1 : x->address > y->address;
}

/*
 * amdgpu's RAS EEPROM records as an encoded amdx table in *@table (NULL
 * when there are none); the caller kvfree()s it.
 */
static int amdgpu_amdx_badpages(struct amdgpu_device *adev, void **table,
				size_t *len)
{
	struct amdgpu_ras *con = amdgpu_ras_get_context(adev);
	struct amdgpu_ras_eeprom_control *control;
	struct amdx_amdgpu_mem_range ranges[AMDX_MAX_MEM_PARTITIONS];
	struct amdx_badpage_record *recs = NULL;
	struct eeprom_table_record *bps = NULL;
	u32 n, i, m = 0, nranges, skip = 0, first = 0;
	void *buf;
	int ret;

	*table = NULL;
	*len = 0;
	if (!con)
		return 0;
	control = &con->eeprom_control;
	n = min(control->ras_num_recs,
		amdgpu_ras_eeprom_max_record_count(control));
	if (!n)
		return 0;
	nranges = amdgpu_amdx_mem_ranges(adev, ranges);

	bps = kvcalloc(n, sizeof(*bps), GFP_KERNEL);
	recs = kvcalloc(n, sizeof(*recs), GFP_KERNEL);
	ret = -ENOMEM;
	if (!bps || !recs)
		goto out;
	ret = amdgpu_ras_eeprom_read(control, bps, n);
	if (ret)
		goto out;
	for (i = 0; i < n; i++) {
		/* The mirror's layout is asserted in amdx_amdgpu_xlate.c. */
		ret = amdx_amdgpu_badpage_from_amdgpu((const void *)&bps[i],
						      ranges, nranges,
						      &recs[m]);
		if (!ret)
			m++;
		else if (!skip++)
			first = i;
	}
	if (skip)
		dev_warn(adev->dev,
			 "amdx: %u of %u EEPROM records skipped, the first (%u, page %#llx) of an unknown type or in no memory partition\n",
			 skip, n, first, bps[first].retired_page);
	ret = 0;
	if (!m)
		goto out;
	/* amdx's table is sorted and holds each page once; amdgpu's not. */
	sort(recs, m, sizeof(*recs), amdgpu_amdx_badpage_cmp, NULL);
	for (i = 1, n = 1; i < m; i++)
		if (recs[i].address != recs[n - 1].address)
			recs[n++] = recs[i];
	m = min_t(u32, n, AMDX_BADPAGE_MAX_RECORDS);
	*len = amdx_badpage_size(m);
	buf = kvmalloc(*len, GFP_KERNEL);
	ret = -ENOMEM;
	if (!buf)
		goto out;
	ret = amdx_badpage_encode(recs, m, buf, *len);
	if (ret < 0) {
		kvfree(buf);
		goto out;
	}
	ret = 0;
	*table = buf;
out:
	if (ret)
		*len = 0;
	kvfree(recs);
	kvfree(bps);
	return ret;
}

static void amdgpu_amdx_ras_blocks(struct amdgpu_device *adev, u32 num_xcc,
				   struct amdx_ras_block_info *blocks)
{
	u32 b;

	for (b = 0; b < AMDX_RAS_BLOCK_COUNT; b++) {
		int ag = amdx_amdgpu_ras_block_to_amdgpu(b);

		if (ag < 0 || !amdgpu_ras_is_supported(adev, ag))
			continue;
		blocks[b].supported = amdx_amdgpu_ras_types(b);
		if (!blocks[b].supported)
			continue;
		if (b == AMDX_RAS_BLOCK_GFX)
			blocks[b].instances = num_xcc;
		else if (b == AMDX_RAS_BLOCK_SDMA)
			blocks[b].instances = adev->sdma.num_instances;
		else
			blocks[b].instances = 1;
	}
}

/**
 * amdgpu_amdx_init() - register an amdgpu device with amdx
 * @adev: a device amdgpu_device_init() has brought up.
 *
 * Does nothing for a device that is not GC 9.4.3/9.4.4, for an SR-IOV VF
 * and for a model amdx does not know; a failure is logged and leaves
 * amdgpu working without amdx.
 *
 * Context: process context, from amdgpu_device_init().
 */
void amdgpu_amdx_init(struct amdgpu_device *adev)
{
	struct amdx_ras_block_info blocks[AMDX_RAS_BLOCK_COUNT] = {};
	char serial[AMDX_SERIAL_LEN], product[AMDX_PRODUCT_LEN];
	struct amdx_device_desc desc = {};
	struct amdgpu_amdx *p;
	struct amdx_device *xdev;
	void *table;
	size_t len;
	u32 num_xcc;
	int ret;

	if (!amdgpu_amdx_supported(adev))
		return;
	if (amdgpu_sriov_vf(adev)) {
		dev_info(adev->dev, "amdx: an SR-IOV VF, not registered\n");
		return;
	}
	num_xcc = NUM_XCC(adev->gfx.xcc_mask);
	desc.model = amdx_amdgpu_model(adev->pdev->device, num_xcc);
	if (desc.model == AMDX_MODEL_UNKNOWN || !adev->xcp_mgr) {
		dev_info(adev->dev,
			 "amdx: PCI id %04x with %u XCCs%s: no amdx model, not registered\n",
			 adev->pdev->device, num_xcc,
			 adev->xcp_mgr ? "" : ", no partition manager");
		return;
	}

	if (adev->fru_info && adev->fru_info->serial[0])
		strscpy(serial, adev->fru_info->serial, sizeof(serial));
	else
		snprintf(serial, sizeof(serial), "%016llx", adev->unique_id);
	strscpy(product, adev->fru_info && adev->fru_info->product_name[0] ?
		adev->fru_info->product_name : "AMD Instinct", sizeof(product));
	amdgpu_amdx_ras_blocks(adev, num_xcc, blocks);
	desc.bdf = pci_name(adev->pdev);
	desc.serial = serial;
	desc.product = product;
	desc.hive_id = adev->gmc.xgmi.hive_id;
	desc.vram_size = adev->gmc.real_vram_size;
	desc.num_xcc = num_xcc;
	desc.num_sdma = adev->sdma.num_instances;
	desc.num_vcn = adev->vcn.num_vcn_inst;
	desc.supported_compute_modes =
		amdx_amdgpu_compute_modes(num_xcc, adev->gmc.num_mem_partitions);
	desc.supported_memory_modes = BIT(amdgpu_amdx_memory_mode(adev));
	desc.ras_blocks = blocks;

	ret = amdgpu_amdx_badpages(adev, &table, &len);
	if (ret) {
		dev_err(adev->dev, "amdx: reading the RAS EEPROM failed: %d\n",
			ret);
		return;
	}
	desc.badpages = table;
	desc.badpages_len = len;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p) {
		kvfree(table);
		return;
	}
	p->adev = adev;
	p->num_xcc = num_xcc;
	p->injecting = -1;
	init_rwsem(&p->gate);
	mutex_init(&p->ras_lock);
	mutex_init(&p->inject_lock);
	INIT_WORK(&p->reset_work, amdgpu_amdx_reset_work);

	xdev = amdgpu_amdx_register(adev, &desc, &amdgpu_amdx_ops, p);
	kvfree(table);
	if (IS_ERR(xdev)) {
		dev_err(adev->dev, "amdx: registration failed: %pe\n", xdev);
		mutex_destroy(&p->inject_lock);
		mutex_destroy(&p->ras_lock);
		kfree(p);
		return;
	}
	p->xdev = xdev;
	/* The interrupt hook sees the device only once it is complete. */
	smp_store_release(&adev->amdx, p);
	dev_info(adev->dev, "amdx: registered as device %u\n",
		 amdx_device_id(xdev));
}

/**
 * amdgpu_amdx_fini() - unregister an amdgpu device from amdx
 * @adev: the device, at the start of amdgpu_device_fini_hw().
 *
 * After this returns amdx calls no op of the device and the interrupt
 * hook reports nothing; the provider data stays for amdgpu_amdx_free().
 *
 * Context: process context.
 */
void amdgpu_amdx_fini(struct amdgpu_device *adev)
{
	struct amdgpu_amdx *p = adev->amdx;

	if (!p || p->dead)
		return;
	down_write(&p->gate);
	p->dead = true;
	up_write(&p->gate);
	amdx_device_unregister(p->xdev);
	p->xdev = NULL;
}

/**
 * amdgpu_amdx_free() - free the provider data of an amdgpu device
 * @adev: the device, at the end of amdgpu_device_fini_sw(), once its RAS
 *	interrupt work is cancelled.
 *
 * Context: process context.
 */
void amdgpu_amdx_free(struct amdgpu_device *adev)
{
	struct amdgpu_amdx *p = adev->amdx;

	if (!p)
		return;
	amdgpu_amdx_fini(adev);
	adev->amdx = NULL;
	mutex_destroy(&p->inject_lock);
	mutex_destroy(&p->ras_lock);
	kfree(p);
}

/**
 * amdgpu_amdx_ras_interrupt() - amdgpu handled a RAS interrupt
 * @adev: the device.
 * @block: the amdgpu RAS block (enum amdgpu_ras_block) of the interrupt.
 * @entry: the interrupt vector entry; for gfx its node names the XCC.
 *
 * Reads the block's counters and reports what grew to amdx; an error of a
 * gfx XCC goes to the compute partition holding that XCC.
 *
 * Context: amdgpu's RAS interrupt work (process context).
 */
void amdgpu_amdx_ras_interrupt(struct amdgpu_device *adev, int block,
			       const struct amdgpu_iv_entry *entry)
{
	/* Pairs with the release in amdgpu_amdx_init(): @p is complete. */
	struct amdgpu_amdx *p = smp_load_acquire(&adev->amdx);
	u32 instance = 0, partition = AMDX_RAS_PARTITION_ALL;
	bool skip;
	int xcc;

	if (!p)
		return;
	if (block == AMDGPU_RAS_BLOCK__GFX && adev->gfx.funcs &&
	    adev->gfx.funcs->ih_node_to_logical_xcc) {
		xcc = adev->gfx.funcs->ih_node_to_logical_xcc(adev,
							      entry->node_id);
		if (xcc >= 0 && xcc < p->num_xcc) {
			int part = amdx_amdgpu_xcc_partition(amdgpu_amdx_compute_mode(adev),
							     p->num_xcc, xcc);

			instance = xcc;
			if (part >= 0)
				partition = part;
		}
	}
	mutex_lock(&p->ras_lock);
	skip = p->injecting == block;
	mutex_unlock(&p->ras_lock);
	if (skip)
		return;
	down_read(&p->gate);
	if (!p->dead)
		amdgpu_amdx_ras_collect(p, block, instance, partition, NULL,
					NULL);
	up_read(&p->gate);
}

/*
 * This amdgpu is the amdgpu-amdx package's, not the kernel's: say so in
 * modinfo, which DKMS compares before it installs a module over the
 * kernel's own (which has no version).
 */
MODULE_VERSION(AMDGPU_AMDX_VERSION);
