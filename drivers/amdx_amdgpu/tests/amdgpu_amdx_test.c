// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: the amdgpu provider against amdgpu's own code
 *
 * KUnit suites built into the patched amdgpu.ko of the test kernel only
 * (patches/6.12-test/, scripts/amdgpu-tree.sh with AMDGPU_AMDX_TEST=1):
 * they run at module load in amdgpu-check.sh's VM, under KASAN, lockdep
 * and kmemleak, with amdx.ko loaded.
 *
 * Each case builds a fake GC 9.4.3 device: a zeroed struct amdgpu_device
 * whose function tables stand in for what silicon and firmware do (the
 * gfx partition switch and its XCC-per-XCP register, the NBIO compute
 * partition status, the GMC memory partition mode), and a partition
 * manager running amdgpu's own aqua_vanjaram functions.  The provider
 * then runs unchanged: amdgpu_amdx_init() registers the device with the
 * real amdx core (the registration is captured on the way through its
 * static stub), and its ops drive amdgpu's amdgpu_xcp_* code::
 *
 *   test --> amdgpu_amdx_init() / ops --> amdgpu_xcp, aqua_vanjaram
 *                   |                         |
 *                   v                         v
 *              amdx core               fake gfx/nbio/gmc tables
 *                                      (the "hardware" below)
 *
 * What amdgpu itself decides (which compute modes are valid for a number
 * of XCCs and a memory mode) is asked of amdgpu, never restated here.
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/dma-mapping.h>
#include <linux/i2c.h>
#include <linux/irq_work.h>
#include <linux/panic.h>
#include <linux/pci.h>
#include <linux/pm_runtime.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/unaligned.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include <drm/drm_drv.h>
#include <drm/drm_managed.h>

#include "amdgpu.h"
#include "amdgpu_aca.h"
#include "amdgpu_atomfirmware.h"
#include "amdgpu_psp.h"
#include "amdgpu_ras.h"
#include "amdgpu_ras_eeprom.h"
#include "amdgpu_reset.h"
#include "amdgpu_umc.h"
#include "amdgpu_xcp.h"
#include "discovery.h"
#include "nbio_v7_9.h"
#include "nbio/nbio_7_9_0_sh_mask.h"
#include "soc15.h"
#include "umc_v12_0.h"
#include "vega20_ih.h"
#include "kfd_priv.h"
#include "soc15_int.h"
#include "soc15_ih_clientid.h"
#include "amdgpu_amdx.h"
#include "amdgpu_amdx_kunit.h"
#include "amdgpu_amdx_fake.h"
#include "amdgpu_amdx_version.h"

#include <amdx/amdx_badpage.h>
#include <amdx/amdx_provider.h>
#include "amdx_amdgpu_xlate.h"

static struct fake_gpu *fake_of(void)
{
	struct kunit *test = kunit_get_current_test();

	return test ? test->priv : NULL;
}

KUNIT_DEFINE_ACTION_WRAPPER(fake_free_provider, amdgpu_amdx_free,
			    struct amdgpu_device *);
KUNIT_DEFINE_ACTION_WRAPPER(fake_destroy, fake_gpu_destroy,
			    struct fake_gpu *);

/* @fn(@data) when the test ends (at once if it cannot be deferred). */
static void fake_defer(struct kunit *test, kunit_action_t *fn, void *data)
{
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, fn, data));
}

/*
 * A fake GC 9.4.3 device (amdgpu_amdx_fake.c) with @num_xcc XCCs in
 * memory mode @nps, running compute mode @mode (an amdgpu mode, set up as
 * amdgpu's own switch would leave it), becoming the test's current fake;
 * freed when the test ends.
 */
static struct fake_gpu *fake_gpu_new(struct kunit *test, u32 num_xcc, int nps,
				     int mode)
{
	static u32 serial;
	char name[32], bdf[16];
	struct fake_gpu *f;

	/* Each name once: a root device of it is registered. */
	snprintf(name, sizeof(name), "amdgpu_amdx_fake%u", serial);
	snprintf(bdf, sizeof(bdf), "0000:%02x:00.0", serial & 0xff);
	serial++;
	f = fake_gpu_create(num_xcc, nps, mode, (u64)num_xcc * (24ULL << 30),
			    name, bdf);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	fake_defer(test, fake_destroy, f);
	test->priv = f;
	return f;
}

/* Whether amdgpu's own partition code accepts @mode on such a device. */
static bool amdgpu_accepts(struct kunit *test, u32 num_xcc, int nps, int mode)
{
	void *cur = test->priv;
	struct fake_gpu *f;
	int n = 0, ret;

	f = fake_gpu_new(test, num_xcc, nps, AMDGPU_CPX_PARTITION_MODE);
	ret = aqua_vanjaram_xcp_funcs.switch_partition_mode(f->adev->xcp_mgr,
							     mode, &n);
	test->priv = cur;
	return ret == 0;
}

/* The registration, captured on its way to the amdx core. */
static struct amdx_device *
fake_register(struct amdgpu_device *adev, const struct amdx_device_desc *desc,
	      const struct amdx_provider_ops *ops, void *priv)
{
	struct fake_gpu *f = fake_of();
	struct amdx_device *xdev;

	f->registered = true;
	f->compute_modes = desc->supported_compute_modes;
	f->model = desc->model;
	f->reset_caps = desc->reset_caps;
	f->reset_flags = desc->reset_flags;
	f->pci_switch = desc->pci_switch;
	f->hive_id = desc->hive_id;
	memcpy(f->reset_ms, desc->reset_ms, sizeof(f->reset_ms));
	f->ops = ops;
	if (desc->badpages_len) {
		f->badpages = kunit_kmalloc(kunit_get_current_test(),
					    desc->badpages_len, GFP_KERNEL);
		if (f->badpages) {
			memcpy(f->badpages, desc->badpages, desc->badpages_len);
			f->badpages_len = desc->badpages_len;
		}
	}
	xdev = amdx_device_register(adev->dev, desc, ops, priv);
	if (!IS_ERR(xdev))
		f->xdev = xdev;
	return xdev;
}

/* amdgpu_amdx_init() on @f; the provider is freed when the test ends. */
static void fake_provider_init(struct kunit *test, struct fake_gpu *f)
{
	kunit_activate_static_stub(test, amdgpu_amdx_register, fake_register);
	amdgpu_amdx_init(f->adev);
	kunit_deactivate_static_stub(test, amdgpu_amdx_register);
	fake_defer(test, fake_free_provider, f->adev);
}

struct part_config {
	u32 num_xcc;
	int nps;
	const char *name;
};

/* MI300X/MI325X (8 XCCs), MI300A (6, an APU: NPS1 only), MI308X (4). */
static const struct part_config part_configs[] = {
	{ 8, AMDGPU_NPS1_PARTITION_MODE, "8 XCC NPS1" },
	{ 8, AMDGPU_NPS2_PARTITION_MODE, "8 XCC NPS2" },
	{ 8, AMDGPU_NPS4_PARTITION_MODE, "8 XCC NPS4" },
	{ 6, AMDGPU_NPS1_PARTITION_MODE, "6 XCC NPS1" },
	{ 4, AMDGPU_NPS1_PARTITION_MODE, "4 XCC NPS1" },
	{ 4, AMDGPU_NPS2_PARTITION_MODE, "4 XCC NPS2" },
	{ 4, AMDGPU_NPS4_PARTITION_MODE, "4 XCC NPS4" },
};

static void part_config_desc(const struct part_config *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(part_config, part_configs, part_config_desc);

/*
 * The compute modes the provider declares are exactly those amdgpu's
 * aqua_vanjaram code accepts for the device's XCCs and its current
 * memory mode: a mode amdx offers must be one amdgpu can switch to.
 */
static void declared_modes_are_amdgpus(struct kunit *test)
{
	const struct part_config *c = test->param_value;
	u32 want = 0, m;
	int mode, first = -1;
	struct fake_gpu *f;

	for (mode = AMDGPU_SPX_PARTITION_MODE;
	     mode <= AMDGPU_CPX_PARTITION_MODE; mode++) {
		if (!amdgpu_accepts(test, c->num_xcc, c->nps, mode))
			continue;
		m = amdx_amdgpu_compute_from_amdgpu(mode);
		want |= BIT(m);
		if (first < 0)
			first = mode;
	}
	if (first < 0)
		kunit_skip(test, "amdgpu accepts no compute mode in %s", c->name);

	f = fake_gpu_new(test, c->num_xcc, c->nps, first);
	fake_provider_init(test, f);
	KUNIT_ASSERT_TRUE_MSG(test, f->registered,
			      "%s: the provider did not register the device",
			      c->name);
	KUNIT_EXPECT_EQ_MSG(test, f->compute_modes, want,
			    "%s: declared %#x, amdgpu accepts %#x", c->name,
			    f->compute_modes, want);
}

/* A fake MI300X in SPX/NPS1 registered with amdx. */
static struct fake_gpu *mi300x_spx(struct kunit *test)
{
	struct fake_gpu *f = fake_gpu_new(test, 8, AMDGPU_NPS1_PARTITION_MODE,
					  AMDGPU_SPX_PARTITION_MODE);

	fake_provider_init(test, f);
	KUNIT_ASSERT_NOT_NULL(test, f->xdev);
	KUNIT_ASSERT_NOT_NULL(test, f->ops->set_compute_mode);
	return f;
}

/* A switch goes through amdgpu's partition code to the hardware. */
static void switch_reaches_the_hardware(struct kunit *test)
{
	struct fake_gpu *f = mi300x_spx(test);

	int ret = f->ops->set_compute_mode(f->xdev, AMDX_COMPUTE_CPX);

	KUNIT_EXPECT_EQ(test, 0, ret);
	KUNIT_EXPECT_EQ(test, 1, f->switches);
	KUNIT_EXPECT_EQ(test, 1, f->xccs_per_xcp);
	KUNIT_EXPECT_EQ(test, AMDGPU_CPX_PARTITION_MODE, f->adev->xcp_mgr->mode);
	KUNIT_EXPECT_EQ(test, 8, f->adev->xcp_mgr->num_xcps);
}

/*
 * The firmware refuses the switch (amdgpu ignores its answer and caches
 * the new mode): the provider reports the failure, leaves amdgpu's view
 * and the hardware agreeing on the old mode, and nothing WARNs.
 */
static void firmware_refusal_rolls_back_quietly(struct kunit *test)
{
	struct fake_gpu *f = mi300x_spx(test);
	bool tainted = test_taint(TAINT_WARN);
	int ret;

	f->psp_fails = true;
	ret = f->ops->set_compute_mode(f->xdev, AMDX_COMPUTE_CPX);
	KUNIT_EXPECT_EQ(test, -EIO, ret);
	KUNIT_EXPECT_EQ(test, 8, f->xccs_per_xcp);
	KUNIT_EXPECT_EQ(test, AMDGPU_SPX_PARTITION_MODE,
			f->adev->xcp_mgr->mode);
	if (!tainted)
		KUNIT_EXPECT_FALSE_MSG(test, test_taint(TAINT_WARN),
				       "a WARN fired during the switch");
}

/*
 * While a reset holds the reset domain, a switch is refused before it
 * touches anything (amdgpu's sysfs store has taken the domain's lock
 * since upstream 75f138db48c5; without it the switch skips the KFD
 * teardown during a reset).
 */
static void switch_during_reset_is_refused(struct kunit *test)
{
	struct fake_gpu *f = mi300x_spx(test);
	int ret;

	down_write(&f->adev->reset_domain->sem);
	ret = f->ops->set_compute_mode(f->xdev, AMDX_COMPUTE_CPX);
	up_write(&f->adev->reset_domain->sem);
	KUNIT_EXPECT_EQ(test, -EBUSY, ret);
	KUNIT_EXPECT_EQ(test, 0, f->switches);
	KUNIT_EXPECT_EQ(test, 8, f->xccs_per_xcp);
	KUNIT_EXPECT_EQ(test, AMDGPU_SPX_PARTITION_MODE,
			f->adev->xcp_mgr->mode);
}

/* The reset events the provider passes on, kept by the test. */
static void fake_reset_event(struct amdgpu_amdx *p, bool begin, int result)
{
	struct fake_gpu *f = fake_of();

	if (f->nresets < (int)ARRAY_SIZE(f->resets))
		f->resets[f->nresets] = begin ? FAKE_RESET_BEGIN : result;
	f->nresets++;
}

/* The provider flags its device for RMA: recorded, and done in amdx. */
static void fake_mark_rma(struct amdx_device *xdev)
{
	struct fake_gpu *f = fake_of();

	f->rma_marks++;
	f->rma_xdev = xdev;
	amdx_device_rma(xdev);
}

static struct fake_gpu *mi300x_for_reset(struct kunit *test)
{
	struct fake_gpu *f = mi300x_spx(test);

	KUNIT_ASSERT_NOT_NULL(test, f->ops->device_reset);
	kunit_activate_static_stub(test, amdgpu_amdx_reset_event,
				   fake_reset_event);
	kunit_activate_static_stub(test, amdgpu_amdx_mark_rma, fake_mark_rma);
	return f;
}

/**
 * struct busy_domain - a work of amdgpu's holding the reset domain's queue
 * @work: queued first on the domain's ordered queue.
 * @go: completed by the test to let it end.
 */
struct busy_domain {
	struct work_struct work;
	struct completion go;
};

static void busy_domain_fn(struct work_struct *work)
{
	wait_for_completion(&container_of(work, struct busy_domain, work)->go);
}

static void busy_domain_start(struct fake_gpu *f, struct busy_domain *b)
{
	INIT_WORK_ONSTACK(&b->work, busy_domain_fn);
	init_completion(&b->go);
	amdgpu_reset_domain_schedule(f->adev->reset_domain, &b->work);
}

static void busy_domain_end(struct fake_gpu *f, struct busy_domain *b)
{
	complete(&b->go);
	flush_workqueue(f->adev->reset_domain->wq);
	destroy_work_on_stack(&b->work);
}

/*
 * One reset is one recovery of amdgpu's, in its reset domain: full,
 * without a core dump; a second request while the first is queued is the
 * same reset.
 */
static void reset_runs_amdgpus_recovery_once(struct kunit *test)
{
	struct fake_gpu *f = mi300x_for_reset(test);
	struct busy_domain b;

	busy_domain_start(f, &b);
	KUNIT_EXPECT_EQ(test, 0, f->ops->device_reset(f->xdev));
	KUNIT_EXPECT_EQ(test, 0, f->ops->device_reset(f->xdev));
	busy_domain_end(f, &b);
	KUNIT_EXPECT_EQ(test, 1, f->recoveries);
	KUNIT_EXPECT_TRUE(test, test_bit(AMDGPU_NEED_FULL_RESET,
					 &f->recovery_flags));
	KUNIT_EXPECT_TRUE(test, test_bit(AMDGPU_SKIP_COREDUMP,
					 &f->recovery_flags));
}

/*
 * amdgpu resets the device (its own RAS recovery, queued first) before
 * the reset amdx asked for runs: that reset was amdx's, none follows.
 */
static void reset_after_amdgpus_own_is_dropped(struct kunit *test)
{
	struct fake_gpu *f = mi300x_for_reset(test);
	struct busy_domain b;

	busy_domain_start(f, &b);
	KUNIT_EXPECT_EQ(test, 0, f->ops->device_reset(f->xdev));
	atomic_inc(&f->adev->gpu_reset_counter);
	busy_domain_end(f, &b);
	KUNIT_EXPECT_EQ(test, 0, f->recoveries);
}

/*
 * A consumed poison: amdgpu has queued its own recovery (in_recovery)
 * before amdx hears of it.  amdx must not reset the device a second time.
 */
static void reset_while_amdgpu_recovers_is_not_doubled(struct kunit *test)
{
	struct fake_gpu *f = mi300x_for_reset(test);

	atomic_set(&f->ras->in_recovery, 1);
	KUNIT_EXPECT_EQ(test, -EALREADY, f->ops->device_reset(f->xdev));
	atomic_set(&f->ras->in_recovery, 0);
	flush_workqueue(f->adev->reset_domain->wq);
	KUNIT_EXPECT_EQ(test, 0, f->recoveries);
}

/* amdgpu.gpu_recovery=0 turns amdgpu's recovery off: amdx's too. */
static void reset_honours_gpu_recovery_off(struct kunit *test)
{
	struct fake_gpu *f = mi300x_for_reset(test);
	int saved = amdgpu_gpu_recovery;

	amdgpu_gpu_recovery = 0;
	KUNIT_EXPECT_EQ(test, -EOPNOTSUPP, f->ops->device_reset(f->xdev));
	amdgpu_gpu_recovery = saved;
	flush_workqueue(f->adev->reset_domain->wq);
	KUNIT_EXPECT_EQ(test, 0, f->recoveries);
}

/* A recovery of amdgpu's own, as its job timeout handler runs one. */
static int amdgpus_own_recovery(struct fake_gpu *f)
{
	struct amdgpu_reset_context ctx = {
		.method = AMD_RESET_METHOD_NONE,
		.reset_req_dev = f->adev,
		.src = AMDGPU_RESET_SRC_JOB,
	};

	return amdgpu_device_gpu_recover(f->adev, NULL, &ctx);
}

/*
 * A reset amdgpu runs on its own (a job timeout, its RAS recovery)
 * reaches amdx: DEVICE_RESET_BEGIN, then DEVICE_RESET_END with amdgpu's
 * result, a failed one's too.  amdx's core used to emit these only
 * around its own device_reset op.
 */
static void amdgpus_own_reset_reaches_amdx(struct kunit *test)
{
	struct fake_gpu *f = mi300x_for_reset(test);

	KUNIT_EXPECT_EQ(test, 0, amdgpus_own_recovery(f));
	f->recover_ret = -ETIMEDOUT;
	KUNIT_EXPECT_EQ(test, -ETIMEDOUT, amdgpus_own_recovery(f));
	KUNIT_EXPECT_EQ(test, 2, f->recoveries);
	KUNIT_ASSERT_EQ(test, 4, f->nresets);
	KUNIT_EXPECT_EQ(test, FAKE_RESET_BEGIN, f->resets[0]);
	KUNIT_EXPECT_EQ(test, 0, f->resets[1]);
	KUNIT_EXPECT_EQ(test, FAKE_RESET_BEGIN, f->resets[2]);
	KUNIT_EXPECT_EQ(test, -ETIMEDOUT, f->resets[3]);
	KUNIT_EXPECT_EQ(test, 0, f->rma_marks);
}

/*
 * The reset amdx asked for (device_reset, amdgpu's recovery in the
 * provider's work) is reported by amdx's core around the op: amdgpu's
 * hooks must not report it a second time.
 */
static void reset_amdx_asked_for_is_reported_once(struct kunit *test)
{
	struct fake_gpu *f = mi300x_for_reset(test);

	KUNIT_EXPECT_EQ(test, 0, f->ops->device_reset(f->xdev));
	flush_workqueue(f->adev->reset_domain->wq);
	KUNIT_EXPECT_EQ(test, 1, f->recoveries);
	KUNIT_EXPECT_EQ(test, 0, f->nresets);
}

/*
 * amdgpu's recovery finds the bad pages at its threshold and flags the
 * board for RMA (amdgpu_ras_eeprom_append() sets is_rma; the recovery
 * then fails): amdx flags its device too, once per recovery that ends so.
 */
static void amdgpus_rma_after_a_reset_reaches_amdx(struct kunit *test)
{
	struct fake_gpu *f = mi300x_for_reset(test);

	f->recover_rma = true;
	f->recover_ret = -EINVAL;
	KUNIT_EXPECT_EQ(test, -EINVAL, amdgpus_own_recovery(f));
	KUNIT_EXPECT_EQ(test, 1, f->rma_marks);
	KUNIT_EXPECT_PTR_EQ(test, f->xdev, f->rma_xdev);
	KUNIT_ASSERT_EQ(test, 2, f->nresets);
	KUNIT_EXPECT_EQ(test, -EINVAL, f->resets[1]);
}

/*
 * The device leaves amdx (first thing in amdgpu_pci_remove()) while a
 * reset amdx asked for still waits in the reset domain behind a work of
 * amdgpu's: the reset is dropped, never run on the leaving device, and
 * the removal does not wait for amdgpu's work.
 */
static void removal_drops_a_queued_reset(struct kunit *test)
{
	struct fake_gpu *f = mi300x_for_reset(test);
	struct busy_domain b;

	busy_domain_start(f, &b);
	KUNIT_EXPECT_EQ(test, 0, f->ops->device_reset(f->xdev));
	amdgpu_amdx_fini(f->adev);
	busy_domain_end(f, &b);
	KUNIT_EXPECT_EQ(test, 0, f->recoveries);
	KUNIT_EXPECT_EQ(test, 0, f->nresets);
}

static struct kunit_case amdgpu_amdx_reset_cases[] = {
	KUNIT_CASE(reset_runs_amdgpus_recovery_once),
	KUNIT_CASE(reset_after_amdgpus_own_is_dropped),
	KUNIT_CASE(reset_while_amdgpu_recovers_is_not_doubled),
	KUNIT_CASE(reset_honours_gpu_recovery_off),
	KUNIT_CASE(amdgpus_own_reset_reaches_amdx),
	KUNIT_CASE(reset_amdx_asked_for_is_reported_once),
	KUNIT_CASE(amdgpus_rma_after_a_reset_reaches_amdx),
	KUNIT_CASE(removal_drops_a_queued_reset),
	{}
};

static struct kunit_suite amdgpu_amdx_reset_suite = {
	.name = "amdgpu_amdx_reset",
	.test_cases = amdgpu_amdx_reset_cases,
};

/*
 * The resets the provider declares for @f and their figures, each action
 * up to hive with its expected ms (0: not declared, amdx's default).
 */
static void expect_resets(struct kunit *test, struct fake_gpu *f, u32 caps,
			  u32 device_ms, u32 hive_ms)
{
	u32 a;

	KUNIT_ASSERT_TRUE(test, f->registered);
	KUNIT_EXPECT_EQ_MSG(test, f->reset_caps, caps,
			    "declared resets %#x, amdgpu runs %#x",
			    f->reset_caps, caps);
	/* Explicit even when none: not derived from the ops. */
	KUNIT_EXPECT_EQ(test, f->reset_flags, AMDX_RESET_F_CAPS);
	for (a = 0; a <= AMDX_RECOVER_HIVE; a++)
		KUNIT_EXPECT_EQ_MSG(test, f->reset_ms[a],
				    a == AMDX_RECOVER_DEVICE ? device_ms :
				    a == AMDX_RECOVER_HIVE ? hive_ms : 0,
				    "reset_ms[%u]", a);
}

/*
 * An MI300X: amdgpu's mode 1 reset, whose fixed wait is SMU 13's
 * SMU13_MODE1_RESET_WAIT_TIME_IN_MS after the SMU's reset message
 * (smu_v13_0_6_mode1_reset()); no queue, pipe or partition reset amdx
 * could ask for.
 */
static void scope_mi300x_resets_are_amdgpus_mode1(struct kunit *test)
{
	struct fake_gpu *f = fake_gpu_new(test, 8, AMDGPU_NPS1_PARTITION_MODE,
					  AMDGPU_SPX_PARTITION_MODE);

	fake_provider_init(test, f);
	expect_resets(test, f, AMDX_RECOVER_CAP_DEVICE, 500, 0);
}

/* An MI300A, an APU: amdgpu's mode 2 reset and its 200 ms wait. */
static void scope_mi300a_resets_are_amdgpus_mode2(struct kunit *test)
{
	struct fake_gpu *f = fake_gpu_new(test, 6, AMDGPU_NPS1_PARTITION_MODE,
					  AMDGPU_SPX_PARTITION_MODE);

	fake_provider_init(test, f);
	expect_resets(test, f, AMDX_RECOVER_CAP_DEVICE, 200, 0);
}

/* In a hive amdgpu resets every member at once: the hive's figure too. */
static void scope_hive_member_resets_its_hive(struct kunit *test)
{
	struct fake_gpu *f = fake_gpu_new(test, 8, AMDGPU_NPS1_PARTITION_MODE,
					  AMDGPU_SPX_PARTITION_MODE);

	f->adev->gmc.xgmi.hive_id = 0x5a17e;
	f->adev->gmc.xgmi.num_physical_nodes = 8;
	fake_provider_init(test, f);
	expect_resets(test, f,
		      AMDX_RECOVER_CAP_DEVICE | AMDX_RECOVER_CAP_HIVE, 500,
		      500);
}

/*
 * amdgpu.gpu_recovery=0: the device_reset op refuses, so no reset is
 * declared, and the declaration says so (not derived from the ops).
 */
static void scope_no_reset_without_gpu_recovery(struct kunit *test)
{
	struct fake_gpu *f = fake_gpu_new(test, 8, AMDGPU_NPS1_PARTITION_MODE,
					  AMDGPU_SPX_PARTITION_MODE);
	int saved = amdgpu_gpu_recovery;

	amdgpu_gpu_recovery = 0;
	fake_provider_init(test, f);
	amdgpu_gpu_recovery = saved;
	expect_resets(test, f, 0, 0, 0);
}

/* A fake placed as @sw and @own (fake_gpu_place()), registered. */
static u32 switch_of(struct kunit *test, u32 sw, bool own)
{
	struct fake_gpu *f = fake_gpu_new(test, 8, AMDGPU_NPS1_PARTITION_MODE,
					  AMDGPU_SPX_PARTITION_MODE);

	KUNIT_ASSERT_EQ(test, 0, fake_gpu_place(f, sw, own));
	fake_provider_init(test, f);
	KUNIT_ASSERT_TRUE(test, f->registered);
	return f->pci_switch;
}

/*
 * The switch comes from the PCI topology: GPUs below one switch share its
 * id, another switch has another, a GPU on a root port has none, and a
 * switch internal to the GPU (AMD's ports) is passed over.
 */
static void scope_switch_from_the_pci_topology(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, fake_switch_id(1), switch_of(test, 1, false));
	KUNIT_EXPECT_EQ(test, fake_switch_id(1), switch_of(test, 1, true));
	KUNIT_EXPECT_EQ(test, fake_switch_id(2), switch_of(test, 2, false));
	KUNIT_EXPECT_NE(test, fake_switch_id(1), fake_switch_id(2));
	KUNIT_EXPECT_NE(test, 0, fake_switch_id(1));
	KUNIT_EXPECT_EQ(test, 0, switch_of(test, 0, false));
	KUNIT_EXPECT_EQ(test, 0, switch_of(test, 0, true));
}

static struct kunit_case amdgpu_amdx_scope_cases[] = {
	KUNIT_CASE(scope_mi300x_resets_are_amdgpus_mode1),
	KUNIT_CASE(scope_mi300a_resets_are_amdgpus_mode2),
	KUNIT_CASE(scope_hive_member_resets_its_hive),
	KUNIT_CASE(scope_no_reset_without_gpu_recovery),
	KUNIT_CASE(scope_switch_from_the_pci_topology),
	{}
};

static struct kunit_suite amdgpu_amdx_scope_suite = {
	.name = "amdgpu_amdx_scope",
	.test_cases = amdgpu_amdx_scope_cases,
};

static void fake_kfd_call(char c)
{
	struct fake_gpu *f = fake_of();

	if (f->nkfd < (int)sizeof(f->kfd_calls) - 1)
		f->kfd_calls[f->nkfd++] = c;
}

/* kgd2kfd_check_and_lock_kfd(): -EBUSY while any KFD process exists. */
static int fake_kfd_lock(struct amdgpu_device *adev)
{
	fake_kfd_call('l');
	return fake_of()->kfd_busy ? -EBUSY : 0;
}

static void fake_kfd_unlock(struct amdgpu_device *adev)
{
	fake_kfd_call('u');
}

static void fake_kfd_fini_sw(struct amdgpu_device *adev)
{
	fake_kfd_call('f');
	adev->kfd.init_complete = false;
}

static void fake_kfd_probe(struct amdgpu_device *adev)
{
	fake_kfd_call('p');
}

static void fake_kfd_init(struct amdgpu_device *adev)
{
	fake_kfd_call('i');
	adev->kfd.init_complete = true;
}

/* An MI300X in SPX with the KFD up, its calls recorded. */
static struct fake_gpu *mi300x_with_kfd(struct kunit *test)
{
	struct fake_gpu *f = mi300x_spx(test);

	f->adev->kfd.init_complete = true;
	kunit_activate_static_stub(test, amdgpu_amdkfd_check_and_lock_kfd,
				   fake_kfd_lock);
	kunit_activate_static_stub(test, amdgpu_amdkfd_unlock_kfd,
				   fake_kfd_unlock);
	kunit_activate_static_stub(test, amdgpu_amdkfd_device_fini_sw,
				   fake_kfd_fini_sw);
	kunit_activate_static_stub(test, amdgpu_amdkfd_device_probe,
				   fake_kfd_probe);
	kunit_activate_static_stub(test, amdgpu_amdkfd_device_init,
				   fake_kfd_init);
	return f;
}

/*
 * With the KFD up, amdgpu tears it down around the switch: lock (no
 * process anywhere), fini, the switch, probe and init, unlock.
 */
static void switch_brackets_the_kfd(struct kunit *test)
{
	struct fake_gpu *f = mi300x_with_kfd(test);
	int ret = f->ops->set_compute_mode(f->xdev, AMDX_COMPUTE_CPX);

	KUNIT_EXPECT_EQ(test, 0, ret);
	KUNIT_EXPECT_STREQ(test, "lfpiu", f->kfd_calls);
	KUNIT_EXPECT_EQ(test, 1, f->switches);
	KUNIT_EXPECT_EQ(test, AMDGPU_CPX_PARTITION_MODE, f->adev->xcp_mgr->mode);
	KUNIT_EXPECT_TRUE(test, f->adev->kfd.init_complete);
}

/*
 * A KFD process anywhere (kgd2kfd_check_and_lock_kfd() looks at every
 * GPU's processes, kfd_device.c:1436-1445) refuses the switch with
 * -EBUSY before anything changes.
 */
static void switch_with_a_kfd_process_is_busy(struct kunit *test)
{
	struct fake_gpu *f = mi300x_with_kfd(test);
	int ret;

	f->kfd_busy = true;
	ret = f->ops->set_compute_mode(f->xdev, AMDX_COMPUTE_CPX);
	KUNIT_EXPECT_EQ(test, -EBUSY, ret);
	KUNIT_EXPECT_STREQ(test, "l", f->kfd_calls);
	KUNIT_EXPECT_EQ(test, 0, f->switches);
	KUNIT_EXPECT_EQ(test, 8, f->xccs_per_xcp);
	KUNIT_EXPECT_EQ(test, AMDGPU_SPX_PARTITION_MODE,
			f->adev->xcp_mgr->mode);
}

static struct kunit_case amdgpu_amdx_partition_cases[] = {
	KUNIT_CASE_PARAM(declared_modes_are_amdgpus, part_config_gen_params),
	KUNIT_CASE(switch_reaches_the_hardware),
	KUNIT_CASE(firmware_refusal_rolls_back_quietly),
	KUNIT_CASE(switch_during_reset_is_refused),
	KUNIT_CASE(switch_brackets_the_kfd),
	KUNIT_CASE(switch_with_a_kfd_process_is_busy),
	{}
};

static struct kunit_suite amdgpu_amdx_partition_suite = {
	.name = "amdgpu_amdx_partition",
	.test_cases = amdgpu_amdx_partition_cases,
};

/* What reaches amdx, kept by the test instead of counted by amdx. */
static int fake_report(struct amdgpu_amdx *p, const struct amdx_ras_error *err,
		       u64 *seq)
{
	struct fake_gpu *f = fake_of();

	if (f->nreports < (int)ARRAY_SIZE(f->reports))
		f->reports[f->nreports] = *err;
	f->nreports++;
	if (seq)
		*seq = f->nreports;
	return 0;
}

/*
 * A report on its way to the real amdx core, kept: the core checks it
 * against what the provider declared (block, type, instance, an address
 * inside the VRAM) and runs its containment, the per-page step for an
 * address (amdx_ras_policy.c); the first refusal is kept.
 */
static int fake_report_to_core(struct amdgpu_amdx *p,
			       const struct amdx_ras_error *err, u64 *seq)
{
	struct fake_gpu *f = fake_of();
	int ret = amdx_ras_report(f->xdev, err, seq);

	if (f->nreports < (int)ARRAY_SIZE(f->reports))
		f->reports[f->nreports] = *err;
	f->nreports++;
	if (ret && !f->report_ret)
		f->report_ret = ret;
	return ret;
}

/* A fake MI300X in @mode whose reports to amdx the test sees. */
static struct fake_gpu *mi300x_intake(struct kunit *test, int mode)
{
	struct fake_gpu *f = fake_gpu_new(test, 8, AMDGPU_NPS1_PARTITION_MODE,
					  mode);

	fake_provider_init(test, f);
	KUNIT_ASSERT_NOT_NULL(test, f->xdev);
	kunit_activate_static_stub(test, amdgpu_amdx_report, fake_report);
	return f;
}

/*
 * Every error amdgpu counts passes amdgpu_ras_query_error_status() (the
 * RAS interrupt work, the page-retirement thread, sysfs and amdgpu's
 * recovery all query there): what amdgpu's statistics gained reaches
 * amdx once, with the instance and partition of the AID the bank names
 * (QPX: two XCCs per partition, two per AID).  The provider used to poll
 * counters from the interrupt hook only, which GC 9.4.3 never calls for
 * gfx.
 */
static void ras_query_reaches_amdx_with_the_aid(struct kunit *test)
{
	struct fake_gpu *f = mi300x_intake(test, AMDGPU_QPX_PARTITION_MODE);
	struct ras_query_if q = { .head.block = AMDGPU_RAS_BLOCK__GFX };
	const struct amdx_ras_error *r = &f->reports[0];

	f->bank_ue[2] = 3;
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_query_error_status(f->adev, &q));
	KUNIT_EXPECT_EQ(test, 3, q.ue_count);
	KUNIT_ASSERT_EQ(test, 1, f->nreports);
	KUNIT_EXPECT_EQ(test, AMDX_RAS_BLOCK_GFX, r->block);
	KUNIT_EXPECT_EQ(test, AMDX_RAS_TYPE_UE, r->type);
	KUNIT_EXPECT_EQ(test, 3, r->count);
	KUNIT_EXPECT_EQ(test, 4, r->instance);
	KUNIT_EXPECT_EQ(test, 2, r->partition);
	KUNIT_EXPECT_EQ(test, 0, r->flags);
	/* A query outside a RAS event (sysfs, periodic): no event id. */
	KUNIT_EXPECT_EQ(test, 0, r->driver_event);
	KUNIT_EXPECT_EQ(test, AMDX_DRIVER_EVENT_NONE, r->driver_event_type);

	/* Nothing new in the banks: amdgpu's total stays, amdx hears nothing. */
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_query_error_status(f->adev, &q));
	KUNIT_EXPECT_EQ(test, 3, q.ue_count);
	KUNIT_EXPECT_EQ(test, 1, f->nreports);
}

/*
 * amdgpu_ras.c's query under a RAS event (amdgpu's recovery work and
 * page-retirement thread), global in the test-only patch for the suites.
 */
int amdgpu_ras_query_error_status_with_event(struct amdgpu_device *adev,
					     struct ras_query_if *info,
					     enum ras_event_type type);

/*
 * amdgpu's RAS events whose queries reach amdx, and the type amdx's ERROR
 * record names for each (struct amdx_event_v3's driver_event_type).
 */
struct ras_event_case {
	enum ras_event_type type;
	u32 amdx_type;
	const char *name;
};

static const struct ras_event_case ras_event_types[] = {
	{ RAS_EVENT_TYPE_FATAL, AMDX_DRIVER_EVENT_FATAL, "fatal" },
	{ RAS_EVENT_TYPE_POISON_CREATION, AMDX_DRIVER_EVENT_POISON_CREATION,
	  "poison_creation" },
	{ RAS_EVENT_TYPE_POISON_CONSUMPTION,
	  AMDX_DRIVER_EVENT_POISON_CONSUMPTION, "poison_consumption" },
};

static void ras_event_type_desc(const struct ras_event_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ras_event_type, ras_event_types, ras_event_type_desc);

/*
 * amdgpu queries under a RAS event where it handles one: its recovery
 * work under the fatal event (amdgpu_ras_log_on_err_counter()), its
 * page-retirement thread under the poison's creation; each event marked
 * first (amdgpu_ras_mark_ras_event()), which hands out the next id of
 * the device's one sequence.  What the query finds reaches amdx with
 * that id, the one amdgpu's log prints as "{id}" (uapi minor 9's
 * driver_event), and the event's type (minor 10's driver_event_type), the
 * next event's errors with the next id.  Run in the case's thread, as
 * those paths would query.
 */
static void ras_query_under_a_ras_event_carries_its_id(struct kunit *test)
{
	const struct ras_event_case *c = test->param_value;
	struct fake_gpu *f = mi300x_intake(test, AMDGPU_QPX_PARTITION_MODE);
	struct ras_query_if q = { .head.block = AMDGPU_RAS_BLOCK__GFX };
	struct amdgpu_device *adev = f->adev;
	u64 id;
	int i;

	f->ras->event_mgr = &f->ras->__event_mgr;
	for (i = 0; i < 2; i++) {
		f->bank_ue[2] = 3;
		KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_mark_ras_event(adev, c->type));
		id = amdgpu_ras_acquire_event_id(adev, c->type);
		KUNIT_ASSERT_TRUE(test, RAS_EVENT_ID_IS_VALID(id));
		KUNIT_EXPECT_EQ(test, i + 1, id);
		KUNIT_ASSERT_EQ(test, 0,
				amdgpu_ras_query_error_status_with_event(adev,
									 &q,
									 c->type));
		KUNIT_ASSERT_EQ(test, i + 1, f->nreports);
		KUNIT_EXPECT_EQ(test, AMDX_RAS_TYPE_UE, f->reports[i].type);
		KUNIT_EXPECT_EQ(test, 3, f->reports[i].count);
		KUNIT_EXPECT_EQ(test, id, f->reports[i].driver_event);
		KUNIT_EXPECT_EQ_MSG(test, c->amdx_type,
				    f->reports[i].driver_event_type,
				    "the %s event's count reached amdx without its type",
				    c->name);
	}
}

/*
 * A page amdgpu retires (amdgpu_ras_add_bad_pages(), which its UMC poison
 * and ECC paths end in) reaches amdx with its address, so that amdx's
 * per-page containment runs; a page amdgpu already holds does not come
 * again.  The provider used to read amdgpu's EEPROM at registration only.
 */
static void retired_pages_reach_amdx(struct kunit *test)
{
	struct fake_gpu *f = mi300x_intake(test, AMDGPU_SPX_PARTITION_MODE);
	struct eeprom_table_record bps[2] = {
		{ .retired_page = 0x1234,
		  .err_type = AMDGPU_RAS_EEPROM_ERR_NON_RECOVERABLE },
		{ .retired_page = 0x5678,
		  .err_type = AMDGPU_RAS_EEPROM_ERR_NON_RECOVERABLE },
	};
	int i;

	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_add_bad_pages(f->adev, bps, 2));
	KUNIT_EXPECT_EQ(test, 2, f->reserved);
	KUNIT_ASSERT_EQ(test, 2, f->nreports);
	for (i = 0; i < 2; i++) {
		const struct amdx_ras_error *r = &f->reports[i];

		KUNIT_EXPECT_EQ(test, AMDX_RAS_BLOCK_UMC, r->block);
		KUNIT_EXPECT_EQ(test, AMDX_RAS_TYPE_UE, r->type);
		KUNIT_EXPECT_EQ(test, 1, r->count);
		KUNIT_EXPECT_EQ(test, AMDX_RAS_ERR_F_ADDRESS, r->flags);
		KUNIT_EXPECT_EQ(test, bps[i].retired_page << AMDGPU_GPU_PAGE_SHIFT,
				r->address);
		KUNIT_EXPECT_EQ(test, 0, r->mem_partition);
	}
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_add_bad_pages(f->adev, bps, 2));
	KUNIT_EXPECT_EQ(test, 2, f->nreports);
}

/*
 * amdgpu's query runs while the hardware disagrees with amdgpu's cached
 * mode (a switch the firmware refused, before the provider switched
 * amdgpu back): placing the errors must not ask amdgpu's partition query,
 * which dev_WARN()s then.  The partition is that of amdgpu's cached mode.
 */
static void ras_query_during_a_mode_mismatch_does_not_warn(struct kunit *test)
{
	struct fake_gpu *f = mi300x_intake(test, AMDGPU_QPX_PARTITION_MODE);
	struct ras_query_if q = { .head.block = AMDGPU_RAS_BLOCK__GFX };
	bool tainted = test_taint(TAINT_WARN);

	f->xccs_per_xcp = 1;	/* NBIO says CPX */
	f->bank_ce[1] = 2;
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_query_error_status(f->adev, &q));
	KUNIT_ASSERT_EQ(test, 1, f->nreports);
	KUNIT_EXPECT_EQ(test, AMDX_RAS_TYPE_CE, f->reports[0].type);
	KUNIT_EXPECT_EQ(test, 2, f->reports[0].instance);
	KUNIT_EXPECT_EQ(test, 1, f->reports[0].partition);
	if (!tainted)
		KUNIT_EXPECT_FALSE_MSG(test, test_taint(TAINT_WARN),
				       "a WARN fired in amdgpu's RAS query");
}

/* gfx_v9_4_3.c's interrupt sources, not static in the test-only patch. */
void gfx_v9_4_3_set_irq_funcs(struct amdgpu_device *adev);

/*
 * The finding "GFX errors never reach amdgpu_ras_interrupt_handler() on
 * GC 9.4.3", confirmed against amdgpu's code: amdgpu's one way from a GFX
 * RAS interrupt to its RAS dispatch is the CP ECC error source, whose
 * process function is amdgpu_gfx_cp_ecc_error_irq() (amdgpu_gfx.c), set
 * by each GFX IP with its other sources.  GC 9.4.3 sets EOP, privileged
 * register, bad opcode and privileged instruction, and no CP ECC source
 * (nor does its sw_init add one with amdgpu_irq_add_id(): by the source).
 * So GFX errors reach amdx only where the provider sees them: amdgpu's
 * query (ras_query_reaches_amdx_with_the_aid) and the KFD's poison
 * consumption (amdgpu_amdx_kfd), never through an interrupt hook.
 */
static void gfx_errors_raise_no_ras_interrupt(struct kunit *test)
{
	struct fake_gpu *f = fake_gpu_new(test, 8, AMDGPU_NPS1_PARTITION_MODE,
					  AMDGPU_SPX_PARTITION_MODE);
	struct amdgpu_device *adev = f->adev;

	gfx_v9_4_3_set_irq_funcs(adev);
	KUNIT_EXPECT_NOT_NULL(test, adev->gfx.eop_irq.funcs);
	KUNIT_EXPECT_NOT_NULL(test, adev->gfx.priv_reg_irq.funcs);
	KUNIT_EXPECT_NOT_NULL(test, adev->gfx.bad_op_irq.funcs);
	KUNIT_EXPECT_NOT_NULL(test, adev->gfx.priv_inst_irq.funcs);
	KUNIT_EXPECT_NULL_MSG(test, adev->gfx.cp_ecc_error_irq.funcs,
			      "GC 9.4.3 sets a CP ECC error source");
	KUNIT_EXPECT_EQ(test, 0, adev->gfx.cp_ecc_error_irq.num_types);
}

/* The firmware's latencies of an injected error the suite models. */
static const u32 inject_latencies_ms[] = { 0, 50, 250, 400 };

static void inject_latency_desc(const u32 *ms, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u ms", *ms);
}

KUNIT_ARRAY_PARAM(inject_latency, inject_latencies_ms, inject_latency_desc);

/*
 * An injection amdx asks for goes through amdgpu's real
 * amdgpu_ras_error_inject() to the firmware, which logs the error after
 * its latency; the op waits, querying as amdgpu's own paths do, until the
 * error has reached amdx, and returns the sequence number of that report.
 * amdgpu itself waits up to 300 ms for the firmware's record of a poison
 * (MAX_UMC_POISON_POLLING_TIME_ASYNC); the op used to give up after
 * 100 ms, so an error the firmware logs later was counted at some later
 * query while the injection failed with -ETIMEDOUT.
 */
static void inject_waits_for_the_firmware(struct kunit *test)
{
	const u32 *ms = test->param_value;
	struct fake_gpu *f = mi300x_intake(test, AMDGPU_SPX_PARTITION_MODE);
	const struct amdx_ras_inject inj = {
		.block = AMDX_RAS_BLOCK_GFX,
		.type = AMDX_RAS_TYPE_CE,
		.instance = 2,
		.count = 1,
	};
	u64 seq = 0;

	f->inject_latency_ms = *ms;
	KUNIT_ASSERT_EQ(test, 0, f->ops->ras_inject(f->xdev, &inj, &seq));
	KUNIT_ASSERT_EQ(test, 1, f->nreports);
	KUNIT_EXPECT_EQ(test, 1, seq);
	KUNIT_EXPECT_EQ(test, AMDX_RAS_BLOCK_GFX, f->reports[0].block);
	KUNIT_EXPECT_EQ(test, AMDX_RAS_TYPE_CE, f->reports[0].type);
	KUNIT_EXPECT_EQ(test, 2, f->reports[0].instance);
	KUNIT_EXPECT_EQ(test, 1, f->reports[0].count);
}

/*
 * What the provider declares each block can have
 * (amdx_amdgpu_ras_types(), which amdx's core then refuses injections and
 * waits against) is what amdgpu's own ACA handle of the block on MI300
 * says: the mask of the struct aca_info each IP binds in its late init,
 * read here from amdgpu's code rather than written down again.  PCIe BIF
 * and HDP bind none.
 */
static void ras_types_are_amdgpus_aca_masks(struct kunit *test)
{
	static const struct {
		u32 block;
		const struct aca_info *aca;
	} blocks[] = {
		{ AMDX_RAS_BLOCK_UMC, &umc_v12_0_aca_info },
		{ AMDX_RAS_BLOCK_SDMA, &sdma_v4_4_2_aca_info },
		{ AMDX_RAS_BLOCK_GFX, &gfx_v9_4_3_aca_info },
		{ AMDX_RAS_BLOCK_MMHUB, &mmhub_v1_8_aca_info },
		{ AMDX_RAS_BLOCK_PCIE_BIF, NULL },
		{ AMDX_RAS_BLOCK_HDP, NULL },
		{ AMDX_RAS_BLOCK_XGMI_WAFL, &xgmi_v6_4_0_aca_info },
	};
	u32 i, mask, want;

	static_assert(ARRAY_SIZE(blocks) == AMDX_RAS_BLOCK_COUNT);
	for (i = 0; i < ARRAY_SIZE(blocks); i++) {
		mask = blocks[i].aca ? blocks[i].aca->mask : 0;
		want = 0;
		if (mask & ACA_ERROR_UE_MASK)
			want |= BIT(AMDX_RAS_TYPE_UE);
		if (mask & ACA_ERROR_CE_MASK)
			want |= BIT(AMDX_RAS_TYPE_CE);
		if (mask & ACA_ERROR_DEFERRED_MASK)
			want |= BIT(AMDX_RAS_TYPE_DE);
		KUNIT_EXPECT_EQ_MSG(test, want,
				    amdx_amdgpu_ras_types(blocks[i].block),
				    "amdx block %u: amdgpu's ACA mask 0x%x",
				    blocks[i].block, mask);
	}
}

static struct kunit_case amdgpu_amdx_ras_cases[] = {
	KUNIT_CASE(ras_types_are_amdgpus_aca_masks),
	KUNIT_CASE(ras_query_reaches_amdx_with_the_aid),
	KUNIT_CASE_PARAM(ras_query_under_a_ras_event_carries_its_id,
			 ras_event_type_gen_params),
	KUNIT_CASE(ras_query_during_a_mode_mismatch_does_not_warn),
	KUNIT_CASE(retired_pages_reach_amdx),
	KUNIT_CASE(gfx_errors_raise_no_ras_interrupt),
	KUNIT_CASE_PARAM(inject_waits_for_the_firmware,
			 inject_latency_gen_params),
	{}
};

static struct kunit_suite amdgpu_amdx_ras_suite = {
	.name = "amdgpu_amdx_ras",
	.test_cases = amdgpu_amdx_ras_cases,
};

/*
 * A fake MI300X as amdgpu sets one up: ACA on (its RAS queries read the
 * SMU's banks), UMC 12 in poison mode behind amdgpu's own UMC v12 bank
 * parser and address code; its reports to amdx reach the test.
 */
static struct fake_gpu *mi300x_umc(struct kunit *test)
{
	struct fake_gpu *f = fake_gpu_new(test, 8, AMDGPU_NPS1_PARTITION_MODE,
					  AMDGPU_SPX_PARTITION_MODE);

	KUNIT_ASSERT_EQ(test, 0, fake_gpu_enable_aca(f));
	fake_provider_init(test, f);
	KUNIT_ASSERT_NOT_NULL(test, f->xdev);
	kunit_activate_static_stub(test, amdgpu_amdx_report, fake_report);
	return f;
}

/* The firmware logs one UMC error of @kind; amdgpu queries UMC. */
static void umc_error_queried(struct kunit *test, struct fake_gpu *f,
			      enum fake_umc_error kind, u64 *pa,
			      struct ras_query_if *q)
{
	const u32 aid = 1, umc = 3, ch = 6;
	const u64 mca = 0x2a5;
	struct aca_bank b;

	fake_umc_bank(&b, kind, aid, umc, ch, mca);
	KUNIT_ASSERT_EQ(test, 0, fake_aca_push(f, b.type, &b));
	*pa = fake_umc_mca_to_pa(aid, umc, ch, mca);
	memset(q, 0, sizeof(*q));
	q->head.block = AMDGPU_RAS_BLOCK__UMC;
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_query_error_status(f->adev, q));
}

/*
 * The one report a UMC count makes: of @type, count 1, and no address,
 * for which amdgpu reserved no page.
 */
static void expect_one_umc_count(struct kunit *test, struct fake_gpu *f,
				 u32 type)
{
	const struct amdx_ras_error *r = &f->reports[0];

	KUNIT_EXPECT_EQ(test, 0, f->reserved);
	KUNIT_ASSERT_EQ(test, 1, f->nreports);
	KUNIT_EXPECT_EQ(test, AMDX_RAS_BLOCK_UMC, r->block);
	KUNIT_EXPECT_EQ(test, type, r->type);
	KUNIT_EXPECT_EQ(test, 1, r->count);
	KUNIT_EXPECT_EQ(test, 0, r->flags);
}

/*
 * A UMC CE: amdgpu's ACA core reads the bank, its UMC v12 parser counts
 * it, and the count reaches amdx once.  No address: amdgpu retires no
 * page for a CE on UMC 12 (umc_v12_0_update_ecc_status() takes deferred
 * errors only).  Instance 0 and the whole device: amdgpu's statistics
 * keep the bank's socket and AID, not its UMC instance or channel, and an
 * AID's memory is not one compute partition's.
 */
static void umc_ce_reaches_amdx(struct kunit *test)
{
	struct fake_gpu *f = mi300x_umc(test);
	struct ras_query_if q;
	u64 pa;

	umc_error_queried(test, f, FAKE_UMC_CE, &pa, &q);
	KUNIT_EXPECT_EQ(test, 1, q.ce_count);
	KUNIT_EXPECT_EQ(test, 0, q.ue_count + q.de_count);
	expect_one_umc_count(test, f, AMDX_RAS_TYPE_CE);
	KUNIT_EXPECT_EQ(test, 0, f->reports[0].instance);
	KUNIT_EXPECT_EQ(test, AMDX_RAS_PARTITION_ALL, f->reports[0].partition);

	/* The bank was read: nothing new, nothing again. */
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_query_error_status(f->adev, &q));
	KUNIT_EXPECT_EQ(test, 1, q.ce_count);
	KUNIT_EXPECT_EQ(test, 1, f->nreports);
}

/*
 * A UMC UE: amdgpu counts it, and retires no page for it (UMC 12 derives
 * pages from deferred errors only: umc_v12_0_update_ecc_status() returns
 * before the address conversion for any other bank), so the count is all
 * amdx can get in 6.12.118: no address, no per-page step (f->reserved
 * stays 0: amdgpu reserved nothing either).
 * The provider used to drop UMC UE counts, expecting each UE to come as a
 * retired page: on MI300 the UE never reached amdx.
 */
static void umc_ue_reaches_amdx(struct kunit *test)
{
	struct fake_gpu *f = mi300x_umc(test);
	struct ras_query_if q;
	u64 pa;

	umc_error_queried(test, f, FAKE_UMC_UE, &pa, &q);
	KUNIT_EXPECT_EQ(test, 1, q.ue_count);
	expect_one_umc_count(test, f, AMDX_RAS_TYPE_UE);
}

/*
 * What a poison of @pa reached amdx as, once amdgpu's page-retirement
 * work ran (amdgpu_umc_handle_bad_pages(), what page_retirement_dwork
 * runs; the query's DE count came first): through the real amdx core,
 * amdx counts the poison as amdgpu does, once, from the query's count,
 * and hears of the row's pages, each a deferred error of UMC with its
 * address and %AMDX_RAS_ERR_F_UNCOUNTED, instance 0 and the whole device
 * (umc_poison_reaches_amdx_as_its_pages() says why).  The work run again
 * finds nothing new.
 */
static void expect_poison_retired(struct kunit *test, struct fake_gpu *f,
				  u64 pa)
{
	const int row = UMC_V12_0_BAD_PAGE_NUM_PER_CHANNEL;
	const struct amdx_ras_error *r;
	struct ras_err_data ed;
	struct ras_query_if q = { .head.block = AMDGPU_RAS_BLOCK__UMC };
	int i, j;

	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_error_data_init(&ed));
	amdgpu_umc_handle_bad_pages(f->adev, &ed);
	amdgpu_ras_error_data_fini(&ed);

	/* One poison, one DE on both sides. */
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_query_error_status(f->adev, &q));
	KUNIT_EXPECT_EQ(test, 1, q.de_count);
	KUNIT_EXPECT_EQ_MSG(test, q.de_count,
			    amdx_ras_count(f->xdev, AMDX_RAS_BLOCK_UMC,
					   AMDX_RAS_TYPE_DE),
			    "amdx's UMC DE count against amdgpu's umc_err_count de");
	KUNIT_EXPECT_EQ_MSG(test, 0, f->report_ret,
			    "the amdx core refused a report of the poison");

	KUNIT_ASSERT_EQ(test, 1 + row, f->nreports);
	r = &f->reports[0];
	KUNIT_EXPECT_EQ(test, AMDX_RAS_BLOCK_UMC, r->block);
	KUNIT_EXPECT_EQ(test, AMDX_RAS_TYPE_DE, r->type);
	KUNIT_EXPECT_EQ(test, 1, r->count);
	KUNIT_EXPECT_EQ(test, 0, r->flags);
	for (i = 1; i <= row; i++) {
		r = &f->reports[i];
		KUNIT_EXPECT_EQ(test, AMDX_RAS_BLOCK_UMC, r->block);
		KUNIT_EXPECT_EQ_MSG(test, AMDX_RAS_TYPE_DE, r->type,
				    "page %d of the poison's row reached amdx as type %u",
				    i, r->type);
		KUNIT_EXPECT_EQ(test, 1, r->count);
		KUNIT_EXPECT_EQ(test, 0, r->instance);
		KUNIT_EXPECT_EQ(test, AMDX_RAS_PARTITION_ALL, r->partition);
		KUNIT_EXPECT_EQ(test,
				AMDX_RAS_ERR_F_ADDRESS | AMDX_RAS_ERR_F_UNCOUNTED,
				r->flags);
		KUNIT_EXPECT_EQ(test, 0, r->mem_partition);
		KUNIT_EXPECT_EQ(test, UMC_V12_ADDR_MASK_BAD_COLS(pa),
				UMC_V12_ADDR_MASK_BAD_COLS(r->address));
		for (j = 1; j < i; j++)
			KUNIT_EXPECT_NE(test, f->reports[j].address, r->address);
	}

	/* Retired once: the work finds nothing new the next time. */
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_error_data_init(&ed));
	amdgpu_umc_handle_bad_pages(f->adev, &ed);
	amdgpu_ras_error_data_fini(&ed);
	KUNIT_EXPECT_EQ(test, 1 + row, f->nreports);
	KUNIT_EXPECT_EQ(test, 1, amdx_ras_count(f->xdev, AMDX_RAS_BLOCK_UMC,
						AMDX_RAS_TYPE_DE));
}

/*
 * Poison created in VRAM (a deferred error, UMC in poison mode): the
 * query counts it and amdgpu's UMC v12 code converts the bank's address
 * through the PSP, reserves the row's pages and logs the error in its
 * deferred-error log (umc_ecc_log.de_page_tree, keyed by the row); the
 * page-retirement work (amdgpu_umc_handle_bad_pages(), what
 * page_retirement_dwork runs) then retires those pages.  Through the real
 * amdx core, amdx counts the poison as amdgpu does, once (amdgpu's
 * umc_err_count says de: 1, and amdx doctor --ras-counters compares the
 * two), from the query's count, and hears of its pages, each a deferred
 * error of UMC with its address and %AMDX_RAS_ERR_F_UNCOUNTED, which the
 * core accepts (the address inside the VRAM, the type declared) and
 * poisons and retires (its per-page step) without counting it again.
 * amdgpu's record carries no deferred cause (its err_type is
 * AMDGPU_RAS_EEPROM_ERR_NON_RECOVERABLE, a UE's), so the provider used to
 * report each page as a UE; the page's row in amdgpu's deferred-error log
 * says it is a poison's.  amdx used to count each page (16 DEs for amdgpu's
 * 1) and drop the query's count.  Instance 0 and the whole device: UMC is
 * one instance to amdx (amdgpu's record names the UMC within its AID and
 * the channel, not the AID; its statistics the AID, not the UMC), and in
 * NPS1 every compute partition uses all of the VRAM.  The query here is
 * outside a RAS event (no event id with the count);
 * umc_poison_from_the_ih_ring_in_hard_irq() runs it under the poison
 * creation event amdgpu's interrupt marks.
 */
static void umc_poison_reaches_amdx_as_its_pages(struct kunit *test)
{
	const int row = UMC_V12_0_BAD_PAGE_NUM_PER_CHANNEL;
	struct fake_gpu *f = mi300x_umc(test);
	struct ras_query_if q;
	u64 pa;

	kunit_activate_static_stub(test, amdgpu_amdx_report,
				   fake_report_to_core);
	umc_error_queried(test, f, FAKE_UMC_DE, &pa, &q);
	KUNIT_EXPECT_EQ(test, 1, q.de_count);
	KUNIT_EXPECT_EQ(test, 0, q.ue_count + q.ce_count);
	KUNIT_EXPECT_EQ(test, row, f->reserved);
	expect_poison_retired(test, f, pa);
}

/*
 * amdx injects a UMC error of @type at @address through the provider's
 * op: amdgpu's own amdgpu_ras_error_inject() down to the PSP's trigger
 * (the fake firmware's bank), then amdgpu's queries until the error
 * reaches amdx, whose sequence number the op returns.
 */
static void umc_injected(struct kunit *test, struct fake_gpu *f, u32 type,
			 u64 address)
{
	const struct amdx_ras_inject inj = {
		.block = AMDX_RAS_BLOCK_UMC,
		.type = type,
		.count = 1,
		.address = address,
	};
	u64 seq = 0;

	KUNIT_ASSERT_EQ(test, 0, f->ops->ras_inject(f->xdev, &inj, &seq));
	KUNIT_EXPECT_NE(test, 0, seq);
}

/* Where the injections below go: an address of the fake firmware's map. */
#define UMC_INJECT_PA	(fake_umc_mca_to_pa(1, 2, 5, 0x3c1) + 0x80)

/*
 * A UMC CE or UE injected through the provider reaches amdx as MI300
 * reports it, a count without an address (umc_ce_reaches_amdx(),
 * umc_ue_reaches_amdx()).
 */
static void umc_ce_injected_through_the_provider(struct kunit *test)
{
	struct fake_gpu *f = mi300x_umc(test);

	umc_injected(test, f, AMDX_RAS_TYPE_CE, UMC_INJECT_PA);
	expect_one_umc_count(test, f, AMDX_RAS_TYPE_CE);
}

static void umc_ue_injected_through_the_provider(struct kunit *test)
{
	struct fake_gpu *f = mi300x_umc(test);

	umc_injected(test, f, AMDX_RAS_TYPE_UE, UMC_INJECT_PA);
	expect_one_umc_count(test, f, AMDX_RAS_TYPE_UE);
}

/*
 * A poison injected through the provider: the op returns once the
 * query's DE count reached amdx (one DE, no address); amdgpu's
 * retirement work then retires the row of the injected address, the
 * injected page among its pages, each reaching the real amdx core
 * uncounted (umc_poison_reaches_amdx_as_its_pages()).
 */
static void umc_poison_injected_through_the_provider(struct kunit *test)
{
	const int row = UMC_V12_0_BAD_PAGE_NUM_PER_CHANNEL;
	struct fake_gpu *f = mi300x_umc(test);
	const u64 pfn = UMC_INJECT_PA >> AMDGPU_GPU_PAGE_SHIFT;
	struct ras_err_data ed;
	int i, hits = 0;

	kunit_activate_static_stub(test, amdgpu_amdx_report,
				   fake_report_to_core);
	umc_injected(test, f, AMDX_RAS_TYPE_DE, UMC_INJECT_PA);
	KUNIT_ASSERT_EQ(test, 1, f->nreports);
	KUNIT_EXPECT_EQ(test, AMDX_RAS_TYPE_DE, f->reports[0].type);
	KUNIT_EXPECT_EQ(test, 1, f->reports[0].count);
	KUNIT_EXPECT_EQ(test, 0, f->reports[0].flags);
	KUNIT_EXPECT_EQ(test, row, f->reserved);

	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_error_data_init(&ed));
	amdgpu_umc_handle_bad_pages(f->adev, &ed);
	amdgpu_ras_error_data_fini(&ed);
	KUNIT_EXPECT_EQ(test, 0, f->report_ret);
	KUNIT_ASSERT_EQ(test, 1 + row, f->nreports);
	for (i = 1; i <= row; i++) {
		KUNIT_EXPECT_EQ(test, AMDX_RAS_TYPE_DE, f->reports[i].type);
		hits += f->reports[i].address >> AMDGPU_GPU_PAGE_SHIFT == pfn;
	}
	KUNIT_EXPECT_EQ_MSG(test, 1, hits,
			    "the injected page among the retired row's pages");
	KUNIT_EXPECT_EQ(test, 1, amdx_ras_count(f->xdev, AMDX_RAS_BLOCK_UMC,
						AMDX_RAS_TYPE_DE));
}

/*
 * A page amdgpu retires for another reason than a poison (here straight
 * through amdgpu_ras_add_bad_pages(), as its MCE notifier's UE path and
 * its debugfs do) is in no row of amdgpu's deferred-error log: it stays
 * an uncorrectable error, on a device whose UMC runs in poison mode too.
 */
static void umc_page_of_no_poison_stays_a_ue(struct kunit *test)
{
	struct fake_gpu *f = mi300x_umc(test);
	struct eeprom_table_record bps = {
		.retired_page = 0x1234,
		.err_type = AMDGPU_RAS_EEPROM_ERR_NON_RECOVERABLE,
	};

	kunit_activate_static_stub(test, amdgpu_amdx_report,
				   fake_report_to_core);
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_add_bad_pages(f->adev, &bps, 1));
	KUNIT_ASSERT_EQ(test, 1, f->nreports);
	KUNIT_EXPECT_EQ(test, AMDX_RAS_TYPE_UE, f->reports[0].type);
	KUNIT_EXPECT_EQ(test, 0x1234ULL << AMDGPU_GPU_PAGE_SHIFT,
			f->reports[0].address);
	KUNIT_EXPECT_EQ(test, 0, f->report_ret);
}

/* Where the fake's firmware puts a poison in NPS2: 128 GiB up. */
#define FAKE_NPS2_PA_BASE	(128ULL << 30)

/*
 * A poison in NPS2: the row's pages land in the memory partition whose
 * range (amdgpu's adev->gmc.mem_partitions, what its NPS table gave)
 * holds them.  The table here is out of order, as amdgpu's discovery may
 * give one (gmc_v9_0_init_sw_mem_ranges() takes the ranges as listed):
 * partition 0 is the upper half of the VRAM, so the pages, all between
 * 128 and 192 GiB (R13 flips 32 GiB up), are partition 0's, where the
 * VRAM split evenly by the partition count (the rule the issue found
 * for imported pages) would say 1.  Counted once, as in NPS1.
 */
static void umc_poison_pages_land_in_their_memory_partition(struct kunit *test)
{
	static struct amdgpu_mem_partition_info ranges[2];
	const int row = UMC_V12_0_BAD_PAGE_NUM_PER_CHANNEL;
	struct fake_gpu *f = mi300x_umc(test);
	struct amdgpu_device *adev = f->adev;
	u64 half = adev->gmc.real_vram_size >> AMDGPU_GPU_PAGE_SHIFT >> 1;
	struct ras_err_data ed;
	struct ras_query_if q;
	u64 pa;
	int i;

	ranges[0].range.fpfn = half;
	ranges[0].range.lpfn = 2 * half - 1;
	ranges[1].range.fpfn = 0;
	ranges[1].range.lpfn = half - 1;
	adev->gmc.mem_partitions = ranges;
	adev->gmc.num_mem_partitions = 2;
	f->umc_pa_base = FAKE_NPS2_PA_BASE;
	kunit_activate_static_stub(test, amdgpu_amdx_report,
				   fake_report_to_core);

	umc_error_queried(test, f, FAKE_UMC_DE, &pa, &q);
	pa += FAKE_NPS2_PA_BASE;
	KUNIT_EXPECT_EQ(test, 1, q.de_count);
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_error_data_init(&ed));
	amdgpu_umc_handle_bad_pages(adev, &ed);
	amdgpu_ras_error_data_fini(&ed);
	adev->gmc.mem_partitions = NULL;

	KUNIT_EXPECT_EQ(test, 0, f->report_ret);
	KUNIT_ASSERT_EQ(test, 1 + row, f->nreports);
	for (i = 1; i <= row; i++) {
		const struct amdx_ras_error *r = &f->reports[i];

		KUNIT_EXPECT_EQ(test, UMC_V12_ADDR_MASK_BAD_COLS(pa),
				UMC_V12_ADDR_MASK_BAD_COLS(r->address));
		KUNIT_EXPECT_GE(test, r->address, half << AMDGPU_GPU_PAGE_SHIFT);
		KUNIT_EXPECT_EQ_MSG(test, 0, r->mem_partition,
				    "page %#llx of the poison's row", r->address);
	}
	KUNIT_EXPECT_EQ(test, 1, amdx_ras_count(f->xdev, AMDX_RAS_BLOCK_UMC,
						AMDX_RAS_TYPE_DE));
}

/* amdgpu_ras_global_ras_isr()'s global flag, which its reset would clear. */
static void fake_ras_intr_clear(void *unused)
{
	amdgpu_ras_intr_cleared();
}

/*
 * One recovery of amdgpu's for a fatal error, once its work ran: amdgpu
 * reset the device once, mode 1, and its recovery's query brought the
 * UMC UE the fake's firmware logged to the real amdx core.
 */
static void expect_fatal_recovery(struct kunit *test, struct fake_gpu *f)
{
	flush_work(&f->ras->recovery_work);
	flush_workqueue(f->adev->reset_domain->wq);
	KUNIT_EXPECT_EQ(test, 1, f->recoveries);
	KUNIT_EXPECT_TRUE(test, test_bit(AMDGPU_NEED_FULL_RESET,
					 &f->recovery_flags));
	KUNIT_EXPECT_EQ(test, 1, amdx_ras_count(f->xdev, AMDX_RAS_BLOCK_UMC,
						AMDX_RAS_TYPE_UE));
}

/*
 * A fatal error, MI300's NBIO ERREVENT_ATHUB interrupt (the fake has no
 * NBIO interrupt source: the test calls what nbio_v7_9's handler calls,
 * amdgpu_ras_global_ras_isr()), is one recovery of amdgpu's own:
 * amdgpu's recovery_work queries every block in use under the fatal
 * error's event, so the UE the firmware logged reaches the real amdx core
 * as its count, then resets the device once, mode 1
 * (AMDGPU_NEED_FULL_RESET: poison mode, the fatal error's mode-1 flag),
 * which reaches the core as the driver's own reset.  All of it runs in
 * the reset domain's worker, where no static stub of the test applies:
 * the real provider hooks and core, as on a machine.  amdx's ladder,
 * told of the UE inside that recovery, asks for a device reset (a UMC UE
 * without a page): the provider answers -EALREADY, amdgpu is recovering
 * the device, and that reset stands for amdx's (which the core used to
 * log and record as a failed reset: amdx_event.reset_under_way_stands_for_amdxs).
 * The review read the provider as doubling amdgpu's reset; on this path
 * it does not.
 */
static void fatal_error_is_one_recovery_of_amdgpus(struct kunit *test)
{
	struct fake_gpu *f = mi300x_umc(test);
	struct aca_bank b;

	f->adev->asic_type = CHIP_IP_DISCOVERY;
	KUNIT_ASSERT_EQ(test, 0, fake_gpu_enable_retirement(f));
	fake_umc_bank(&b, FAKE_UMC_UE, 2, 1, 3, 0x40);
	KUNIT_ASSERT_EQ(test, 0, fake_aca_push(f, b.type, &b));

	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   fake_ras_intr_clear,
							   NULL));
	amdgpu_ras_global_ras_isr(f->adev);
	expect_fatal_recovery(test, f);
}

/*
 * The poison of umc_poison_injected_through_the_provider() into a fake
 * with amdgpu's page retirement running (fake_gpu_enable_retirement():
 * UMC's RAS interrupt handler and the page-retirement thread): the
 * firmware's poison creation interrupt marks amdgpu's event, and the
 * thread's query under it counts the poison, which reaches the real amdx
 * core from there; the op waits for that count and queries nothing
 * itself, so nothing reaches amdx from the case's thread, whose report
 * stub sees what a query of the op's own would pass.  The op used to
 * query at once, outside the event, and count the poison before amdgpu's
 * thread could: amdx's ERROR record of it then carried no event id
 * (amdx_ras_test's ras.injected_poison_carries_its_creation_event reads
 * the record on the user-visible fake).
 */
static void umc_poison_injected_is_amdgpus_to_count(struct kunit *test)
{
	struct fake_gpu *f = mi300x_umc(test);

	KUNIT_ASSERT_EQ(test, 0, fake_gpu_enable_retirement(f));
	umc_injected(test, f, AMDX_RAS_TYPE_DE, UMC_INJECT_PA);
	KUNIT_EXPECT_EQ_MSG(test, 0, f->nreports,
			    "the op counted the poison with a query of its own, outside amdgpu's event");
	KUNIT_EXPECT_EQ(test, 1, amdx_ras_count(f->xdev, AMDX_RAS_BLOCK_UMC,
						AMDX_RAS_TYPE_DE));
	KUNIT_EXPECT_EQ(test, 1, amdgpu_ras_acquire_event_id(f->adev,
							     RAS_EVENT_TYPE_POISON_CREATION));
}

/*
 * The fatal error of fatal_error_is_one_recovery_of_amdgpus() hands amdx
 * amdgpu's event id with its UE: amdgpu_ras_global_ras_isr() marks the
 * fatal event and queues amdgpu's recovery work; the case takes the work
 * off the reset domain's queue before it runs (the domain busy) and runs
 * it, amdgpu's own amdgpu_ras_do_recovery(), in its own thread, where the
 * report stub sees what reaches the real amdx core: the UE the recovery's
 * query under the fatal event counted, with that event's id (1, the event
 * manager's first), then one recovery of amdgpu's.
 */
static void fatal_error_recovery_hands_its_event_id(struct kunit *test)
{
	struct fake_gpu *f = mi300x_umc(test);
	struct busy_domain b;
	struct aca_bank bank;
	bool queued;
	u64 id;

	f->adev->asic_type = CHIP_IP_DISCOVERY;
	KUNIT_ASSERT_EQ(test, 0, fake_gpu_enable_retirement(f));
	kunit_activate_static_stub(test, amdgpu_amdx_report,
				   fake_report_to_core);
	fake_umc_bank(&bank, FAKE_UMC_UE, 2, 1, 3, 0x40);
	KUNIT_ASSERT_EQ(test, 0, fake_aca_push(f, bank.type, &bank));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   fake_ras_intr_clear,
							   NULL));

	busy_domain_start(f, &b);
	amdgpu_ras_global_ras_isr(f->adev);
	queued = cancel_work_sync(&f->ras->recovery_work);
	busy_domain_end(f, &b);
	KUNIT_ASSERT_TRUE_MSG(test, queued,
			      "amdgpu's fatal error queued no recovery work");
	id = amdgpu_ras_acquire_event_id(f->adev, RAS_EVENT_TYPE_FATAL);
	KUNIT_EXPECT_EQ(test, 1, id);

	f->ras->recovery_work.func(&f->ras->recovery_work);
	KUNIT_ASSERT_EQ(test, 1, f->nreports);
	KUNIT_EXPECT_EQ(test, AMDX_RAS_BLOCK_UMC, f->reports[0].block);
	KUNIT_EXPECT_EQ(test, AMDX_RAS_TYPE_UE, f->reports[0].type);
	KUNIT_EXPECT_EQ_MSG(test, id, f->reports[0].driver_event,
			    "the fatal error's UE reached amdx without the fatal event's id");
	KUNIT_EXPECT_EQ_MSG(test, AMDX_DRIVER_EVENT_FATAL,
			    f->reports[0].driver_event_type,
			    "the fatal error's UE reached amdx without the fatal event's type");
	KUNIT_EXPECT_EQ(test, 0, f->report_ret);
	KUNIT_EXPECT_EQ(test, 1, f->recoveries);
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&f->ras->in_recovery));
}

/*
 * amdx asks for a device reset and, before it runs, amdgpu's RAS asks
 * for its own (amdgpu_ras_reset_gpu(), what a fatal error's interrupt, a
 * consumed poison or a retirement past the bad-page threshold call),
 * queued behind amdx's in the reset domain's ordered queue.  amdgpu's RAS
 * recovery (in_recovery set while it waits) stands for amdx's: one
 * reset, amdgpu's, in the mode amdgpu picks.  The provider checked only
 * for a reset before its own (the reset counter), so it reset the device
 * and amdgpu's recovery then reset it again.
 */
static void reset_before_amdgpus_ras_recovery_is_not_doubled(struct kunit *test)
{
	struct fake_gpu *f = mi300x_umc(test);
	struct busy_domain b;

	f->adev->asic_type = CHIP_IP_DISCOVERY;
	KUNIT_ASSERT_EQ(test, 0, fake_gpu_enable_retirement(f));
	busy_domain_start(f, &b);
	KUNIT_EXPECT_EQ(test, 0, f->ops->device_reset(f->xdev));
	KUNIT_EXPECT_EQ(test, 0, amdgpu_ras_reset_gpu(f->adev));
	busy_domain_end(f, &b);
	flush_work(&f->ras->recovery_work);
	flush_workqueue(f->adev->reset_domain->wq);

	KUNIT_EXPECT_EQ(test, 1, f->recoveries);
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&f->ras->in_recovery));
}

/*
 * NBIO 7.9's BIF_BX0_BIF_DOORBELL_INT_CNTL (nbio_7_9_0_offset.h; base
 * index 2): where its RAS handlers find the interrupts' status.  A wrong
 * offset fails fatal_error_from_nbios_athub_interrupt (no status read).
 */
#define FAKE_DOORBELL_INT_CNTL	0x00fe

/*
 * The fake's register space, as far as NBIO 7.9's RAS handlers read it:
 * its IP base offsets all 0, so a register's offset is its index.
 */
struct fake_mmio {
	u32 nbio_base[8];
	u32 regs[FAKE_DOORBELL_INT_CNTL + 1];
};

static void fake_mmio_unmap(void *data)
{
	struct amdgpu_device *adev = data;

	adev->rmmio = NULL;
	adev->rmmio_size = 0;
	adev->reg_offset[NBIO_HWIP][0] = NULL;
}

/*
 * MI300's NBIO 7.9 RAS functions (nbio_v7_9_ras, amdgpu's own) on the
 * fake's register space, BIF_DOORBELL_INT_CNTL's ATHUB error-event status
 * set as the hardware sets it for a fatal error, a UMC UE in the
 * firmware's banks for amdgpu's recovery to count, and the rest as
 * fatal_error_is_one_recovery_of_amdgpus() sets it up.
 */
static struct fake_mmio *fake_athub_fatal(struct kunit *test,
					  struct fake_gpu *f)
{
	const u32 status = BIF_BX0_BIF_DOORBELL_INT_CNTL__RAS_ATHUB_ERR_EVENT_INTERRUPT_STATUS_MASK;
	struct amdgpu_device *adev = f->adev;
	struct fake_mmio *mmio;
	struct aca_bank b;

	adev->asic_type = CHIP_IP_DISCOVERY;
	KUNIT_ASSERT_EQ(test, 0, fake_gpu_enable_retirement(f));
	fake_umc_bank(&b, FAKE_UMC_UE, 2, 1, 3, 0x40);
	KUNIT_ASSERT_EQ(test, 0, fake_aca_push(f, b.type, &b));

	mmio = kunit_kzalloc(test, sizeof(*mmio), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mmio);
	mmio->regs[FAKE_DOORBELL_INT_CNTL] = status;
	adev->rmmio = (__force void __iomem *)mmio->regs;
	adev->rmmio_size = sizeof(mmio->regs);
	adev->reg_offset[NBIO_HWIP][0] = mmio->nbio_base;
	adev->nbio.ras = &nbio_v7_9_ras;
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   fake_mmio_unmap,
							   adev));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   fake_ras_intr_clear,
							   NULL));
	return mmio;
}

/*
 * expect_fatal_recovery() for the fatal error of fake_athub_fatal(), and
 * NBIO's handler acknowledged the interrupt (the CLEAR bit written back).
 */
static void expect_athub_recovery(struct kunit *test, struct fake_gpu *f,
				  struct fake_mmio *mmio)
{
	const u32 status = BIF_BX0_BIF_DOORBELL_INT_CNTL__RAS_ATHUB_ERR_EVENT_INTERRUPT_STATUS_MASK;
	const u32 clear = BIF_BX0_BIF_DOORBELL_INT_CNTL__RAS_ATHUB_ERR_EVENT_INTERRUPT_CLEAR_MASK;

	expect_fatal_recovery(test, f);
	KUNIT_EXPECT_EQ(test, status | clear,
			mmio->regs[FAKE_DOORBELL_INT_CNTL]);
}

/*
 * The same fatal error one step earlier: where amdgpu's interrupt handler
 * (amdgpu_irq_handler()) goes after the IH ring,
 * amdgpu_ras_interrupt_fatal_error_handler(), with MI300's NBIO 7.9 RAS
 * functions reading the fake's BIF_DOORBELL_INT_CNTL register (the bif
 * ring is disabled on MI300, so the interrupt comes without an IV).
 * NBIO's handler acknowledges it and calls amdgpu_ras_global_ras_isr():
 * one recovery of amdgpu's, as above.  The RAS controller's status is
 * clear: its handler leaves the register alone.
 */
static void fatal_error_from_nbios_athub_interrupt(struct kunit *test)
{
	struct fake_gpu *f = mi300x_umc(test);
	struct fake_mmio *mmio = fake_athub_fatal(test, f);

	amdgpu_ras_interrupt_fatal_error_handler(f->adev);
	expect_athub_recovery(test, f, mmio);
}

/* What amdgpu_ih_decode_iv_helper() takes for UMC's ECC interrupt. */
#define FAKE_IV_DWORDS	8
/* The IV's timestamp (48 bits), which amdgpu_irq_dispatch() keeps. */
#define FAKE_IV_TIMESTAMP	0x123456789abcULL

/*
 * UMC's ECC interrupt as MI300's IH (OSS 4.4.2) writes it to its ring 0:
 * eight dwords at the write pointer, laid out as
 * amdgpu_ih_decode_iv_helper() reads them (amdgpu_ih.c:269-281 in
 * 6.12.118): dw0 the client id [7:0] and source id [15:8] (ring id, vmid
 * 0), dw1 and dw2[15:0] the timestamp, dw3 the pasid [15:0] (0) and the
 * node id [23:16], dw4-7 the source's data (none).  The client and
 * source are the ones gmc_v9_0_sw_init() registers UMC's ECC source under
 * (gmc_v9_0.c:2127: SOC15_IH_CLIENTID_DF, source 0, the interrupt sent to
 * DF); the node is the AID of the UMC (enum interrupt_node_id_per_aid).
 * Then the IH writes the new write pointer back (its wptr writeback,
 * where vega20_ih_get_wptr() reads ring 0's).
 */
static void fake_ih_write_iv(struct amdgpu_ih_ring *ih, u32 client, u32 src,
			     u32 node)
{
	u32 at = le32_to_cpu(*ih->wptr_cpu) >> 2;
	u32 dw[FAKE_IV_DWORDS] = {
		client | src << 8,
		lower_32_bits(FAKE_IV_TIMESTAMP),
		upper_32_bits(FAKE_IV_TIMESTAMP) & 0xffff,
		node << 16,
	};
	int i;

	for (i = 0; i < FAKE_IV_DWORDS; i++)
		ih->ring[at + i] = (__force u32)cpu_to_le32(dw[i]);
	wmb();	/* the entry before the write pointer, as the IH writes them */
	*ih->wptr_cpu = (__force u32)cpu_to_le32((le32_to_cpu(*ih->wptr_cpu) +
						  4 * FAKE_IV_DWORDS) &
						 ih->ptr_mask);
}

/* What fake_gpu_enable_ih() set up, with amdgpu's own teardown. */
static void fake_ih_fini(void *data)
{
	struct amdgpu_device *adev = data;

	adev->umc.ras_if = NULL;
	amdgpu_irq_fini_hw(adev);
	amdgpu_irq_fini_sw(adev);
	adev->doorbell.cpu_addr = NULL;
	adev->doorbell.num_kernel_doorbells = 0;
}

/* UMC's RAS interrupt handler of fake_gpu_enable_ih() removed, as amdgpu does. */
static void fake_ih_ras_fini(void *data)
{
	struct amdgpu_device *adev = data;

	amdgpu_ras_interrupt_remove_handler(adev,
					    &umc_v12_0_ras.ras_block.ras_comm);
}

/* gmc_v9_0.c's interrupt sources, not static in the test-only patch. */
void gmc_v9_0_set_irq_funcs(struct amdgpu_device *adev);

/*
 * MI300's interrupt path on a fake of mi300x_umc(), as amdgpu's init
 * leaves it, amdgpu's own code wherever it runs without the hardware:
 * - the IH: OSS 4.4.2's functions (vega20_ih), set by vega20_ih_ip_block's
 *   early_init; ring 0 made by amdgpu_ih_ring_init() as vega20_ih_sw_init()
 *   makes it, in DMA memory (the fake's device given the 44-bit DMA mask
 *   gmc_v9_0_sw_init() sets, which a root device cannot set itself), read
 *   pointer on IH's doorbell of MI300's doorbell layout
 *   (aqua_vanjaram_doorbell_index_init()).  Standing in: the doorbell
 *   page (memory, not the BAR) and vega20_ih_hw_init(), which programs the
 *   ring into the IH's registers and enables it: the ring is marked
 *   enabled, as vega20_ih_toggle_interrupts() leaves it.  The PCI
 *   interrupt itself (amdgpu_irq_init()'s request_irq()) is the test's
 *   hard irq_work (fake_interrupt()).
 * - UMC's ECC interrupt source: gmc_v9_0's (gmc_v9_0_set_irq_funcs(), its
 *   early_init's), added under the DF client as gmc_v9_0_sw_init() adds it
 *   (amdgpu_irq_add_id()).
 * - UMC's RAS interrupt handler, as amdgpu_umc_ras_sw_init() and
 *   amdgpu_ras_block_late_init() leave it: UMC's RAS interface
 *   (adev->umc.ras_if, which amdgpu_umc_process_ecc_irq() dispatches
 *   to), its handler's ring and work (amdgpu_ras_interrupt_add_handler()),
 *   UMC 12 and the RAS event manager (the poison creation handler marks
 *   its event), without the page retirement thread: the test takes its
 *   part, in its own thread, where its report stub applies.
 * Torn down by amdgpu's own amdgpu_irq_fini_hw() and amdgpu_irq_fini_sw().
 */
static void fake_gpu_enable_ih(struct kunit *test, struct fake_gpu *f)
{
	struct amdgpu_device *adev = f->adev;
	struct amdgpu_ip_block ih_block = {
		.version = &vega20_ih_ip_block,
		.adev = adev,
	};
	struct amdgpu_ih_ring *ih = &adev->irq.ih;
	u32 ndoorbells = 2 * AMDGPU_DOORBELL_LAYOUT1_MAX_ASSIGNMENT;

	adev->ip_versions[OSSSYS_HWIP][0] = IP_VERSION(4, 4, 2);
	adev->ip_versions[UMC_HWIP][0] = IP_VERSION(12, 0, 0);
	f->ras->event_mgr = &f->ras->__event_mgr;
	adev_to_drm(adev)->dev = adev->dev;
	spin_lock_init(&adev->irq.lock);
	KUNIT_ASSERT_EQ(test, 0,
			vega20_ih_ip_block.funcs->early_init(&ih_block));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, fake_ih_fini,
							   adev));

	KUNIT_ASSERT_EQ(test, 0, dma_coerce_mask_and_coherent(adev->dev,
							      DMA_BIT_MASK(44)));
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ih_ring_init(adev, ih, IH_RING_SIZE,
						     true));
	aqua_vanjaram_doorbell_index_init(adev);
	adev->doorbell.cpu_addr = kunit_kcalloc(test, ndoorbells, sizeof(u32),
						GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, adev->doorbell.cpu_addr);
	adev->doorbell.num_kernel_doorbells = ndoorbells;
	ih->use_doorbell = true;
	ih->doorbell_index = adev->doorbell_index.ih << 1;
	ih->enabled = true;

	gmc_v9_0_set_irq_funcs(adev);
	KUNIT_ASSERT_EQ(test, 0, amdgpu_irq_add_id(adev, SOC15_IH_CLIENTID_DF,
						   0, &adev->gmc.ecc_irq));

	adev->umc.ras_if = &umc_v12_0_ras.ras_block.ras_comm;
	/* fake_gpu_enable_retirement() adds it too, and removes it */
	if (f->retirement)
		return;
	KUNIT_ASSERT_EQ(test, 0,
			amdgpu_ras_interrupt_add_handler(adev,
							 adev->umc.ras_if));
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fake_ih_ras_fini,
						  adev));
}

/* amdgpu's hard IRQ handler, not static in the test-only patch. */
irqreturn_t amdgpu_irq_handler(int irq, void *arg);

/**
 * struct fake_hardirq - the device's interrupt, in hard IRQ context
 * @work: a hard irq_work (IRQ_WORK_INIT_HARD), run from the CPU's
 *	interrupt, where lockdep checks amdgpu's handler by hard IRQ rules.
 * @adev: the device.
 * @ret: what amdgpu_irq_handler() returned.
 * @hardirq: it ran in hard IRQ context.
 */
struct fake_hardirq {
	struct irq_work work;
	struct amdgpu_device *adev;
	irqreturn_t ret;
	bool hardirq;
};

static void fake_hardirq_run(struct irq_work *work)
{
	struct fake_hardirq *h = container_of(work, struct fake_hardirq, work);

	h->hardirq = in_hardirq();
	h->ret = amdgpu_irq_handler(0, adev_to_drm(h->adev));
}

/*
 * page_retirement_dwork of a fake without amdgpu's retirement (what
 * amdgpu_ras_poison_creation_handler() schedules): counted, its part
 * left to the case.
 */
static void fake_retire_work(struct work_struct *work)
{
	struct amdgpu_ras *con = container_of(to_delayed_work(work),
					      struct amdgpu_ras,
					      page_retirement_dwork);

	fake_gpu_of(con->adev)->retire_works++;
}

KUNIT_DEFINE_ACTION_WRAPPER(fake_cancel_dwork, cancel_delayed_work_sync,
			    struct delayed_work *);

/*
 * The device raises its interrupt: amdgpu_irq_handler() runs as
 * request_irq() would run it (its argument the DRM device), in hard IRQ
 * context; what it returned.
 */
static irqreturn_t fake_interrupt(struct kunit *test,
				  struct amdgpu_device *adev)
{
	struct fake_hardirq h = {
		.work = IRQ_WORK_INIT_HARD(fake_hardirq_run),
		.adev = adev,
		.ret = IRQ_NONE,
	};

	KUNIT_ASSERT_TRUE(test, irq_work_queue(&h.work));
	irq_work_sync(&h.work);
	KUNIT_EXPECT_TRUE_MSG(test, h.hardirq,
			      "amdgpu_irq_handler() ran outside hard IRQ context");
	return h.ret;
}

/*
 * A poison created in VRAM reaching amdx the way it does on MI300: the
 * firmware logs the deferred error in UMC's bank and the IH writes UMC's
 * ECC interrupt to its ring; the device's interrupt runs amdgpu's hard
 * IRQ handler, amdgpu_irq_handler(), in hard IRQ context, which walks the
 * ring (amdgpu_ih_process(): vega20_ih's get_wptr, decode, set_rptr) and
 * dispatches the IV (amdgpu_irq_dispatch()) to gmc_v9_0's ECC source,
 * amdgpu_umc_process_ecc_irq(), into UMC's RAS interrupt handler: the
 * handler's work (amdgpu_ras_interrupt_handler()) then runs the poison
 * creation handler, which marks amdgpu's poison creation event and hands
 * the poison to the page retirement thread (poison_creation_count).  What
 * that thread does next, the case runs in its own thread, where the
 * reports to amdx are seen: amdgpu's own
 * amdgpu_ras_poison_creation_handler(), whose UMC query under that event
 * hands amdx the poison's DE with the event's id (1, the event manager's
 * first), and which schedules the page-retirement work (a stand-in that
 * counts it; the case then runs what amdgpu's work runs:
 * expect_poison_retired()).
 * The ring: the read pointer moved to the write pointer, written back and
 * rung on IH's doorbell (vega20_ih_set_rptr()), the IV's timestamp kept.
 * No recovery: a poison's creation resets nothing.
 * A wrong source id in the IV (1) fails it: amdgpu finds no source, UMC's
 * RAS handler never runs (poison_creation_count 0, nothing reported).
 */
static void umc_poison_from_the_ih_ring_in_hard_irq(struct kunit *test)
{
	const u32 aid = 1, umc = 3, ch = 6;
	const int row = UMC_V12_0_BAD_PAGE_NUM_PER_CHANNEL;
	struct fake_gpu *f = mi300x_umc(test);
	struct amdgpu_device *adev = f->adev;
	struct amdgpu_ih_ring *ih = &adev->irq.ih;
	struct ras_manager *obj = &f->ras->objs[AMDGPU_RAS_BLOCK__UMC];
	struct aca_bank b;
	u64 id;
	u32 wptr;

	fake_gpu_enable_ih(test, f);
	INIT_DELAYED_WORK(&f->ras->page_retirement_dwork, fake_retire_work);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fake_cancel_dwork,
						  &f->ras->page_retirement_dwork));
	kunit_activate_static_stub(test, amdgpu_amdx_report,
				   fake_report_to_core);
	fake_umc_bank(&b, FAKE_UMC_DE, aid, umc, ch, 0x2a5);
	KUNIT_ASSERT_EQ(test, 0, fake_aca_push(f, b.type, &b));
	fake_ih_write_iv(ih, SOC15_IH_CLIENTID_DF, 0, AID1_NODEID);
	wptr = le32_to_cpu(*ih->wptr_cpu);

	KUNIT_EXPECT_EQ(test, IRQ_HANDLED, fake_interrupt(test, adev));
	KUNIT_EXPECT_EQ(test, 4 * FAKE_IV_DWORDS, wptr);
	KUNIT_EXPECT_EQ(test, wptr, ih->rptr);
	KUNIT_EXPECT_EQ(test, wptr, *ih->rptr_cpu);
	KUNIT_EXPECT_EQ(test, wptr, adev->doorbell.cpu_addr[ih->doorbell_index]);
	KUNIT_EXPECT_EQ(test, FAKE_IV_TIMESTAMP, ih->processed_timestamp);

	flush_work(&obj->ih_data.ih_work);
	KUNIT_EXPECT_EQ(test, obj->ih_data.aligned_element_size,
			obj->ih_data.wptr);
	KUNIT_EXPECT_EQ(test, obj->ih_data.wptr, obj->ih_data.rptr);
	KUNIT_ASSERT_EQ_MSG(test, 1, atomic_read(&f->ras->poison_creation_count),
			    "UMC's interrupt did not reach amdgpu's poison creation handler");
	KUNIT_EXPECT_EQ(test, 0, amdx_ras_count(f->xdev, AMDX_RAS_BLOCK_UMC,
						AMDX_RAS_TYPE_DE));

	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_poison_creation_handler(adev, 1));
	KUNIT_EXPECT_EQ(test, row, f->reserved);
	id = amdgpu_ras_acquire_event_id(adev, RAS_EVENT_TYPE_POISON_CREATION);
	KUNIT_EXPECT_EQ(test, 1, id);
	KUNIT_ASSERT_EQ(test, 1, f->nreports);
	KUNIT_EXPECT_EQ(test, AMDX_RAS_TYPE_DE, f->reports[0].type);
	KUNIT_EXPECT_EQ_MSG(test, id, f->reports[0].driver_event,
			    "the poison's DE reached amdx without the poison creation event's id");
	KUNIT_EXPECT_EQ_MSG(test, AMDX_DRIVER_EVENT_POISON_CREATION,
			    f->reports[0].driver_event_type,
			    "the poison's DE reached amdx without the poison creation event's type");
	flush_delayed_work(&f->ras->page_retirement_dwork);
	KUNIT_EXPECT_EQ(test, 1, f->retire_works);
	expect_poison_retired(test, f, fake_umc_mca_to_pa(aid, umc, ch, 0x2a5));

	flush_workqueue(adev->reset_domain->wq);
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&f->ras->in_recovery));
	KUNIT_EXPECT_EQ(test, 0, f->recoveries);
	KUNIT_EXPECT_FALSE(test, amdgpu_ras_intr_triggered());
}

/*
 * The fatal error of fatal_error_from_nbios_athub_interrupt() through the
 * same hard IRQ handler: MI300's ATHUB error event raises the device's
 * interrupt with nothing in the IH ring (the bif ring is disabled), and
 * the one call of amdgpu_irq_handler() finds the ring empty (no IV
 * dispatched, the read pointer where it was) and goes on to NBIO's RAS
 * handlers: one recovery of amdgpu's.
 */
static void fatal_error_from_the_hard_irq_handler(struct kunit *test)
{
	struct fake_gpu *f = mi300x_umc(test);
	struct fake_mmio *mmio = fake_athub_fatal(test, f);
	struct amdgpu_ih_ring *ih = &f->adev->irq.ih;

	fake_gpu_enable_ih(test, f);
	KUNIT_EXPECT_EQ(test, IRQ_HANDLED, fake_interrupt(test, f->adev));
	KUNIT_EXPECT_EQ(test, 0, ih->rptr);
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&f->ras->poison_creation_count));
	KUNIT_EXPECT_TRUE(test, amdgpu_ras_intr_triggered());
	expect_athub_recovery(test, f, mmio);
}

static struct kunit_case amdgpu_amdx_umc_cases[] = {
	KUNIT_CASE(umc_ce_reaches_amdx),
	KUNIT_CASE(umc_ue_reaches_amdx),
	KUNIT_CASE(umc_poison_reaches_amdx_as_its_pages),
	KUNIT_CASE(umc_page_of_no_poison_stays_a_ue),
	KUNIT_CASE(umc_poison_pages_land_in_their_memory_partition),
	KUNIT_CASE(umc_ce_injected_through_the_provider),
	KUNIT_CASE(umc_ue_injected_through_the_provider),
	KUNIT_CASE(umc_poison_injected_through_the_provider),
	KUNIT_CASE(umc_poison_injected_is_amdgpus_to_count),
	KUNIT_CASE(fatal_error_is_one_recovery_of_amdgpus),
	KUNIT_CASE(fatal_error_recovery_hands_its_event_id),
	KUNIT_CASE(reset_before_amdgpus_ras_recovery_is_not_doubled),
	KUNIT_CASE(fatal_error_from_nbios_athub_interrupt),
	KUNIT_CASE(umc_poison_from_the_ih_ring_in_hard_irq),
	KUNIT_CASE(fatal_error_from_the_hard_irq_handler),
	{}
};

static struct kunit_suite amdgpu_amdx_umc_suite = {
	.name = "amdgpu_amdx_umc",
	.test_cases = amdgpu_amdx_umc_cases,
};

/**
 * struct ras_work - a work item of amdgpu's in its reset domain
 * @work: queued on the domain's (ordered) queue, as amdgpu's RAS recovery
 *	and its RAS interrupt work's resets are.
 * @test: the test, whose stubs the work item sees.
 * @f: the fake device.
 * @ret: what the provider's device_reset returned there.
 * @done: the op returned.
 */
struct ras_work {
	struct work_struct work;
	struct kunit *test;
	struct fake_gpu *f;
	int ret;
	struct completion done;
};

static void ras_work_fn(struct work_struct *work)
{
	struct ras_work *w = container_of(work, struct ras_work, work);

	current->kunit_test = w->test;
	w->ret = w->f->ops->device_reset(w->f->xdev);
	current->kunit_test = NULL;
	complete(&w->done);
}

/*
 * amdx's containment asks for a device reset from inside amdgpu's RAS
 * context: a work item of the reset domain's ordered queue (amdgpu's
 * recovery_work queries the blocks there, and a query is where errors
 * now reach amdx).  The op must not wait for a reset queued behind the
 * very work it runs in: it hands the reset to the domain and returns, and
 * amdgpu's recovery then runs once, after that work.  The provider used
 * to flush its reset work there: a deadlock.  The wait below only guards
 * the suite against that deadlock (it fails the case); nothing is timed.
 */
static void reset_from_amdgpu_ras_work_is_not_flushed(struct kunit *test)
{
	struct fake_gpu *f = mi300x_for_reset(test);
	struct amdgpu_reset_domain *domain = f->adev->reset_domain;
	struct ras_work *w;

	w = kzalloc(sizeof(*w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	INIT_WORK(&w->work, ras_work_fn);
	init_completion(&w->done);
	w->test = test;
	w->f = f;
	KUNIT_ASSERT_TRUE(test, amdgpu_reset_domain_schedule(domain, &w->work));
	if (!wait_for_completion_timeout(&w->done, 30 * HZ)) {
		/* Leave the stuck queue and its work be: never destroyed. */
		amdgpu_reset_get_reset_domain(domain);
		KUNIT_FAIL(test, "device_reset blocked in a work of amdgpu's reset domain");
		return;
	}
	flush_workqueue(domain->wq);
	KUNIT_EXPECT_EQ(test, 0, w->ret);
	KUNIT_EXPECT_EQ(test, 1, f->recoveries);
	KUNIT_EXPECT_TRUE(test, test_bit(AMDGPU_NEED_FULL_RESET,
					 &f->recovery_flags));
	KUNIT_EXPECT_TRUE(test, test_bit(AMDGPU_SKIP_COREDUMP,
					 &f->recovery_flags));
	kfree(w);
}

/**
 * struct umc_ih_query - UMC's RAS interrupt callback of
 *	reset_from_umc_interrupt_work_outlives_its_late_fini()
 * @saved_cb: UMC 12's ras_cb before the case.
 * @calls: times amdgpu's UMC RAS interrupt work ran the callback.
 * @ret: what its UMC query returned.
 * @done: the callback returned.
 */
struct umc_ih_query {
	ras_ih_cb saved_cb;
	int calls;
	int ret;
	struct completion done;
};

/*
 * The case's; one case runs at a time.  Static: a callback left waiting
 * by a failed case never touches freed memory.
 */
static struct umc_ih_query umc_ih_query;

/*
 * UMC's ras_cb, which amdgpu's UMC RAS interrupt work runs in non-poison
 * mode (amdgpu_ras_interrupt_umc_handler()): amdgpu's own UMC query,
 * which passes the provider's intake (patch 0003) into the amdx core.
 * The stand-in of the case below (its comment says why one is needed).
 */
static int fake_umc_ras_cb(struct amdgpu_device *adev, void *err_data,
			   struct amdgpu_iv_entry *entry)
{
	struct ras_query_if q = { .head.block = AMDGPU_RAS_BLOCK__UMC };

	umc_ih_query.ret = amdgpu_ras_query_error_status(adev, &q);
	umc_ih_query.calls++;
	complete(&umc_ih_query.done);
	return AMDGPU_RAS_SUCCESS;
}

static void fake_umc_ras_cb_restore(void *unused)
{
	umc_v12_0_ras.ras_block.ras_cb = umc_ih_query.saved_cb;
}

/*
 * The interrupt work and the reset work of a failed case wait on each
 * other: its fake, provider and handlers are left be, never torn down
 * (each teardown would wait on them too).
 */
static void fake_leave_stuck(struct kunit *test, struct fake_gpu *f)
{
	kunit_remove_action(test, fake_ih_ras_fini, f->adev);
	kunit_remove_action(test, fake_ih_fini, f->adev);
	kunit_remove_action(test, fake_free_provider, f->adev);
	kunit_remove_action(test, fake_destroy, f);
}

/*
 * The review's deadlock: amdx's containment asks for a device reset from
 * inside UMC's RAS interrupt work, and the reset's re-init runs UMC's
 * ras_late_init, which fails, so amdgpu removes UMC's RAS interrupt
 * handler (amdgpu_umc_ras_late_init() -> amdgpu_ras_block_late_fini() ->
 * amdgpu_ras_interrupt_remove_handler()): cancel_work_sync() on that very
 * work.  A provider that waited for its reset there (flush_work(), as it
 * did) deadlocks; the op queues the reset and returns, so the work ends,
 * the cancel returns and the reset completes.
 * The path, amdgpu's own code wherever it runs on the fake: a UMC UE in
 * the firmware's bank and UMC's ECC interrupt in the IH ring; amdgpu's
 * hard IRQ handler (fake_interrupt()) dispatches it to UMC's RAS interrupt
 * work, which in non-poison mode (con->poison_supported false) runs UMC's
 * ras_cb; the UE reaches the real amdx core, whose containment (a UMC UE
 * off a page) calls the provider's device_reset from there.  The provider's
 * work runs amdgpu's real amdgpu_device_gpu_recover(), whose hardware part,
 * the fake's, re-runs UMC's ras_late_init in the reset
 * (&fake_gpu.recover_late_init); amdgpu_irq_get() of gmc's ECC source
 * fails there (-ENOENT: the fake's interrupt is not installed,
 * amdgpu_irq_init() is the test's), so the handler goes.
 * Standing in: UMC's ras_cb, which amdgpu_umc_ras_sw_init() sets to
 * amdgpu_umc_process_ras_data_cb(); on UMC 12 (the firmware's query
 * mode) that reads UMC's ECC log and no count, and retires pages only
 * with a count, so in 6.12.118 no RAS interrupt work of amdgpu's reports
 * anything to amdx (MI300 runs in poison mode besides, where UMC's work
 * only wakes the page retirement thread).  The stand-in is amdgpu's own
 * UMC query (fake_umc_ras_cb()), the report the finding supposes.
 * The wait below only guards the suite against the deadlock (it fails the
 * case and leaves the stuck works be); nothing is timed.
 */
static void reset_from_umc_interrupt_work_outlives_its_late_fini(struct kunit *test)
{
	struct amdgpu_ras_block_object *umc = &umc_v12_0_ras.ras_block;
	struct umc_ih_query *cb = &umc_ih_query;
	struct amdgpu_device *adev;
	struct ras_manager *obj;
	struct fake_gpu *f;
	struct aca_bank b;

	memset(cb, 0, sizeof(*cb));
	init_completion(&cb->done);
	cb->saved_cb = umc->ras_cb;
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fake_umc_ras_cb_restore,
						  NULL));
	umc->ras_cb = fake_umc_ras_cb;
	f = mi300x_umc(test);
	adev = f->adev;
	obj = &f->ras->objs[AMDGPU_RAS_BLOCK__UMC];
	f->ras->poison_supported = false;
	fake_gpu_enable_ih(test, f);
	KUNIT_ASSERT_EQ(test, 1, obj->ih_data.inuse);
	f->recover_late_init = true;
	fake_umc_bank(&b, FAKE_UMC_UE, 1, 3, 6, 0x2a5);
	KUNIT_ASSERT_EQ(test, 0, fake_aca_push(f, b.type, &b));
	fake_ih_write_iv(&adev->irq.ih, SOC15_IH_CLIENTID_DF, 0, AID1_NODEID);

	KUNIT_EXPECT_EQ(test, IRQ_HANDLED, fake_interrupt(test, adev));
	if (!wait_for_completion_timeout(&cb->done, 30 * HZ)) {
		fake_leave_stuck(test, f);
		KUNIT_FAIL(test,
			   "UMC's RAS interrupt work blocked in device_reset (late_inits %d, recoveries %d)",
			   f->late_inits, f->recoveries);
		return;
	}
	flush_workqueue(adev->reset_domain->wq);

	KUNIT_EXPECT_EQ(test, 1, cb->calls);
	KUNIT_EXPECT_EQ(test, 0, cb->ret);
	KUNIT_EXPECT_EQ(test, 1, amdx_ras_count(f->xdev, AMDX_RAS_BLOCK_UMC,
						AMDX_RAS_TYPE_UE));
	KUNIT_EXPECT_EQ(test, 1, f->recoveries);
	KUNIT_EXPECT_TRUE(test, test_bit(AMDGPU_SKIP_COREDUMP,
					 &f->recovery_flags));
	KUNIT_EXPECT_EQ(test, 1, f->late_inits);
	KUNIT_EXPECT_EQ(test, -ENOENT, f->late_init_ret);
	KUNIT_EXPECT_EQ(test, 0, obj->ih_data.inuse);
	KUNIT_EXPECT_NULL(test, obj->ih_data.ring);
	KUNIT_EXPECT_FALSE(test, amdgpu_in_reset(adev));
}

static struct kunit_case amdgpu_amdx_reset_work_cases[] = {
	KUNIT_CASE(reset_from_amdgpu_ras_work_is_not_flushed),
	KUNIT_CASE(reset_from_umc_interrupt_work_outlives_its_late_fini),
	{}
};

static struct kunit_suite amdgpu_amdx_reset_work_suite = {
	.name = "amdgpu_amdx_reset_work",
	.test_cases = amdgpu_amdx_reset_work_cases,
};

/*
 * After amdgpu_pci_remove() has unplugged the DRM device, an op amdx
 * still calls returns -ENODEV and touches nothing (drm_dev_enter()), and
 * nothing WARNs.
 */
static void op_after_unplug_is_enodev(struct kunit *test)
{
	struct fake_gpu *f = mi300x_spx(test);
	bool tainted = test_taint(TAINT_WARN);
	struct amdx_device_state st;
	int ret;

	/* What drm_dev_unplug() leaves (the fake was never registered). */
	adev_to_drm(f->adev)->unplugged = true;
	ret = f->ops->set_compute_mode(f->xdev, AMDX_COMPUTE_CPX);
	KUNIT_EXPECT_EQ(test, -ENODEV, ret);
	KUNIT_EXPECT_EQ(test, 0, f->switches);
	KUNIT_EXPECT_EQ(test, 8, f->xccs_per_xcp);
	KUNIT_EXPECT_EQ(test, -ENODEV, f->ops->get_state(f->xdev, &st));
	adev_to_drm(f->adev)->unplugged = false;
	if (!tainted)
		KUNIT_EXPECT_FALSE_MSG(test, test_taint(TAINT_WARN),
				       "a WARN fired after the unplug");
}

KUNIT_DEFINE_ACTION_WRAPPER(fake_rma_drop, amdgpu_amdx_rma_drop,
			    struct device *);

/*
 * The RAS EEPROM's bad pages are at amdgpu's threshold: its
 * amdgpu_ras_eeprom_init() flags the board for RMA and returns 0, as on
 * such a board.
 */
static int fake_eeprom_init_rma(struct amdgpu_ras_eeprom_control *control)
{
	fake_of()->ras->is_rma = true;
	return 0;
}

/*
 * An RMA board: amdgpu's recovery init refuses it (-EINVAL: the probe
 * fails) and the provider's init never runs, so amdx never saw it.  Now
 * amdx sees it, flagged for RMA, with its state and no op that needs
 * amdgpu's device; it stays after amdgpu's device data is gone.
 */
static void rma_board_registers_flagged(struct kunit *test)
{
	struct fake_gpu *f = fake_gpu_new(test, 8, AMDGPU_NPS1_PARTITION_MODE,
					  AMDGPU_CPX_PARTITION_MODE);
	struct amdx_device_state st = {};

	kunit_activate_static_stub(test, amdgpu_amdx_register, fake_register);
	kunit_activate_static_stub(test, amdgpu_ras_eeprom_init,
				   fake_eeprom_init_rma);
	kunit_activate_static_stub(test, amdgpu_amdx_mark_rma, fake_mark_rma);
	fake_defer(test, fake_rma_drop, f->adev->dev);
	KUNIT_EXPECT_EQ(test, -EINVAL, amdgpu_ras_recovery_init(f->adev));
	KUNIT_EXPECT_NULL(test, f->ras->eh_data);
	KUNIT_ASSERT_TRUE_MSG(test, f->registered,
			      "amdgpu refused an RMA board and amdx never saw it");
	KUNIT_ASSERT_NOT_NULL(test, f->xdev);
	KUNIT_EXPECT_EQ(test, 1, f->rma_marks);
	KUNIT_EXPECT_PTR_EQ(test, f->xdev, f->rma_xdev);
	KUNIT_EXPECT_EQ(test, AMDX_MODEL_MI300X, f->model);
	KUNIT_EXPECT_NULL(test, f->ops->set_compute_mode);
	KUNIT_EXPECT_NULL(test, f->ops->ras_inject);
	KUNIT_EXPECT_NULL(test, f->ops->device_reset);
	/* amdgpu's device data is not touched any more: the state stays. */
	f->xccs_per_xcp = 8;
	KUNIT_EXPECT_EQ(test, 0, f->ops->get_state(f->xdev, &st));
	KUNIT_EXPECT_EQ(test, AMDX_COMPUTE_CPX, st.compute_mode);
	KUNIT_EXPECT_EQ(test, AMDX_MEMORY_NPS1, st.memory_mode);
	KUNIT_EXPECT_NULL(test, f->adev->amdx);
}

/**
 * struct queued_ras_work - a RAS work item of amdgpu's, queued before a removal
 * @work: on the system queue, as amdgpu's RAS interrupt work and its
 *	page-retirement thread run apart from amdgpu_pci_remove().
 * @test: the test, whose stubs the work item sees.
 * @f: the fake device.
 * @go: completed by the test to let the work query.
 * @ue: the uncorrectable gfx errors amdgpu's query counted.
 */
struct queued_ras_work {
	struct work_struct work;
	struct kunit *test;
	struct fake_gpu *f;
	struct completion go;
	unsigned long ue;
};

static void queued_ras_work_fn(struct work_struct *work)
{
	struct queued_ras_work *w = container_of(work, struct queued_ras_work,
						 work);
	struct ras_query_if q = { .head.block = AMDGPU_RAS_BLOCK__GFX };
	struct eeprom_table_record bps = {
		.retired_page = 0x4321,
		.err_type = AMDGPU_RAS_EEPROM_ERR_NON_RECOVERABLE,
	};

	wait_for_completion(&w->go);
	current->kunit_test = w->test;
	if (!amdgpu_ras_query_error_status(w->f->adev, &q))
		w->ue = q.ue_count;
	amdgpu_ras_add_bad_pages(w->f->adev, &bps, 1);
	current->kunit_test = NULL;
}

/*
 * amdgpu_pci_remove() takes the device out of amdx first, while a RAS
 * work item of amdgpu's is queued with errors for it (amdgpu stops its
 * RAS work later, in amdgpu_device_fini_hw()): the work then counts the
 * errors and retires the page in amdgpu, and nothing reaches amdx, whose
 * device is gone (KASAN watches the provider's data, freed only at
 * amdgpu_device_fini_sw()).
 */
static void removal_before_a_queued_ras_work_reports_nothing(struct kunit *test)
{
	struct fake_gpu *f = mi300x_intake(test, AMDGPU_SPX_PARTITION_MODE);
	struct queued_ras_work w = { .test = test, .f = f };

	f->bank_ue[1] = 2;
	init_completion(&w.go);
	INIT_WORK_ONSTACK(&w.work, queued_ras_work_fn);
	queue_work(system_wq, &w.work);
	amdgpu_amdx_fini(f->adev);
	complete(&w.go);
	flush_work(&w.work);
	destroy_work_on_stack(&w.work);
	KUNIT_EXPECT_EQ(test, 2, w.ue);
	KUNIT_EXPECT_EQ(test, 1, f->reserved);
	KUNIT_EXPECT_EQ(test, 0, f->nreports);
}

#ifdef CONFIG_X86
/*
 * A PCI host bridge of the test's own, in domain %PROBE_DOMAIN, whose bus
 * holds one function with an MI300X's identity in its config space
 * (AMD's vendor id, the device id, the processing accelerator class; no
 * capability, BAR or interrupt pin), kept in memory: amdgpu's PCI driver
 * binds to it as to the real one, and amdgpu's own amdgpu_pci_probe() and
 * amdgpu_pci_remove() run on it.
 */
#define PROBE_DOMAIN	0xa3d0

/**
 * struct probe_run - amdgpu's probe and removal of the test's function
 * @sd: the host bridge's sysdata (x86's: its domain).
 * @busn: its bus number range.
 * @cfg: the function's config space.
 * @bus: the root bus while it is there.
 * @loads: amdgpu_driver_load_kms() calls (the fake stands in for it).
 * @f: the fake it made.
 * @drm_registered: amdgpu's DRM device was registered when the provider
 *	registered the device with amdx.
 * @xcp_registered: the partitions' DRM devices registered then.
 * @xdev: the amdx device the provider registered.
 * @ops: its ops.
 * @xcp_watched: the partitions' DRM devices whose release the test
 *	watches (from the registration on).
 * @xcp_released: those released.
 * @unregistered: times the provider took the device out of amdx.
 * @drm_unplugged: amdgpu's DRM device was unplugged then.
 * @xcp_released_then: @xcp_released then.
 * @watch_switch: the test watches a partition switch in the fake's
 *	firmware (the fake is there until the release).
 * @switch_done_then: with @watch_switch, the switch had come back when the
 *	first of the partitions' DRM devices was released.
 * @xcp_going: completed at that release.
 * @released: amdgpu's release of the DRM device (amdgpu_device_fini_sw())
 *	ran.
 */
struct probe_run {
	struct pci_sysdata sd;
	struct resource busn;
	u8 cfg[PCI_CFG_SPACE_SIZE];
	struct pci_bus *bus;
	int loads;
	struct fake_gpu *f;
	bool drm_registered;
	int xcp_registered;
	struct amdx_device *xdev;
	const struct amdx_provider_ops *ops;
	int xcp_watched;
	int xcp_released;
	int unregistered;
	bool drm_unplugged;
	int xcp_released_then;
	bool watch_switch;
	bool switch_done_then;
	struct completion xcp_going;
	bool released;
};

static int probe_cfg_read(struct pci_bus *bus, unsigned int devfn, int where,
			  int size, u32 *val)
{
	struct probe_run *run = container_of(bus->sysdata, struct probe_run,
					     sd);
	int i;

	if (devfn || where < 0 || where + size > PCI_CFG_SPACE_SIZE) {
		PCI_SET_ERROR_RESPONSE(val);
		return PCIBIOS_DEVICE_NOT_FOUND;
	}
	*val = 0;
	for (i = 0; i < size; i++)
		*val |= run->cfg[where + i] << (8 * i);
	return PCIBIOS_SUCCESSFUL;
}

/* The command register, cache line size, latency timer and line: writable. */
static bool probe_cfg_writable(int at)
{
	return at == PCI_COMMAND || at == PCI_COMMAND + 1 ||
	       at == PCI_CACHE_LINE_SIZE || at == PCI_LATENCY_TIMER ||
	       at == PCI_INTERRUPT_LINE;
}

static int probe_cfg_write(struct pci_bus *bus, unsigned int devfn, int where,
			   int size, u32 val)
{
	struct probe_run *run = container_of(bus->sysdata, struct probe_run,
					     sd);
	int i;

	if (devfn || where < 0 || where + size > PCI_CFG_SPACE_SIZE)
		return PCIBIOS_DEVICE_NOT_FOUND;
	for (i = 0; i < size; i++)
		if (probe_cfg_writable(where + i))
			run->cfg[where + i] = val >> (8 * i);
	return PCIBIOS_SUCCESSFUL;
}

static struct pci_ops probe_cfg_ops = {
	.read = probe_cfg_read,
	.write = probe_cfg_write,
};

static void probe_released(struct drm_device *ddev, void *data)
{
	struct probe_run *run = data;

	run->released = true;
}

static void probe_xcp_released(struct drm_device *ddev, void *data)
{
	struct probe_run *run = data;

	if (!run->xcp_released++ && run->watch_switch) {
		run->switch_done_then = run->f->switch_returned;
		complete(&run->xcp_going);
	}
}

/*
 * The DRM devices of @adev's partitions (amdgpu's xcp 1 .. MAX_XCP - 1;
 * xcp 0's is the device's own): how many are registered; the test
 * watches their release from now on.
 */
static int probe_xcp_watch(struct probe_run *run, struct amdgpu_device *adev)
{
	int i, n = 0;

	for (i = 1; i < MAX_XCP; i++) {
		struct drm_device *ddev = adev->xcp_mgr->xcp[i].ddev;

		if (!ddev)
			continue;
		if (ddev->registered)
			n++;
		if (!drmm_add_action(ddev, probe_xcp_released, run))
			run->xcp_watched++;
	}
	return n;
}

/* amdgpu_driver_load_kms(): the fake stands in for amdgpu_device_init(). */
static int probe_load_kms(struct amdgpu_device *adev, unsigned long flags)
{
	struct probe_run *run = kunit_get_current_test()->priv;
	struct fake_gpu *f;

	run->loads++;
	f = fake_gpu_probed(adev, 8, AMDGPU_NPS1_PARTITION_MODE,
			    AMDGPU_CPX_PARTITION_MODE, 8 * (24ULL << 30));
	if (IS_ERR(f))
		return PTR_ERR(f);
	run->f = f;
	return drmm_add_action(adev_to_drm(adev), probe_released, run);
}

static struct amdx_device *
probe_register(struct amdgpu_device *adev, const struct amdx_device_desc *desc,
	       const struct amdx_provider_ops *ops, void *priv)
{
	struct probe_run *run = kunit_get_current_test()->priv;
	struct amdx_device *xdev;

	run->drm_registered = adev_to_drm(adev)->registered;
	run->xcp_registered = probe_xcp_watch(run, adev);
	xdev = amdx_device_register(adev->dev, desc, ops, priv);
	if (!IS_ERR(xdev)) {
		run->xdev = xdev;
		run->ops = ops;
	}
	return xdev;
}

static void probe_unregister(struct amdgpu_device *adev,
			     struct amdx_device *xdev)
{
	struct probe_run *run = kunit_get_current_test()->priv;

	run->unregistered++;
	if (adev) {
		run->drm_unplugged = drm_dev_is_unplugged(adev_to_drm(adev));
		run->xcp_released_then = run->xcp_released;
	}
	amdx_device_unregister(xdev);
}

KUNIT_DEFINE_ACTION_WRAPPER(probe_pdev_put, pci_dev_put, struct pci_dev *);

/* The host bridge's removal: amdgpu's removal of the function on it. */
static void probe_remove_bus(void *data)
{
	struct probe_run *run = data;

	if (!run->bus)
		return;
	pci_lock_rescan_remove();
	pci_stop_root_bus(run->bus);
	pci_remove_root_bus(run->bus);
	pci_unlock_rescan_remove();
	run->bus = NULL;
}

/* The RAS EEPROM's bad pages are at amdgpu's threshold (an RMA board). */
static int probe_eeprom_init_rma(struct amdgpu_ras_eeprom_control *control)
{
	container_of(control, struct amdgpu_ras, eeprom_control)->is_rma = true;
	return 0;
}

/*
 * amdgpu_driver_load_kms() of an RMA board: amdgpu_device_init()'s RAS
 * recovery init refuses it (-EINVAL), so amdgpu's probe fails.
 */
static int probe_load_rma(struct amdgpu_device *adev, unsigned long flags)
{
	int ret = probe_load_kms(adev, flags);

	return ret ?: amdgpu_ras_recovery_init(adev);
}

/*
 * The test's host bridge with its MI300X function, added as the PCI core
 * adds a scanned bus: amdgpu's driver binds the function (in this
 * thread, its probe synchronous), the fake standing in for
 * amdgpu_driver_load_kms() (an RMA board's with @rma); removed when the
 * test ends if the test has not removed it.
 *
 * Return: the function, a reference held until the test ends.
 */
static struct pci_dev *probe_host_add(struct kunit *test, bool rma)
{
	struct probe_run *run = kunit_kzalloc(test, sizeof(*run), GFP_KERNEL);
	struct pci_dev *pdev;
	LIST_HEAD(res);

	KUNIT_ASSERT_NOT_NULL(test, run);
	put_unaligned_le16(PCI_VENDOR_ID_ATI, &run->cfg[PCI_VENDOR_ID]);
	put_unaligned_le16(AMDX_AMDGPU_PCI_MI300X, &run->cfg[PCI_DEVICE_ID]);
	put_unaligned_le16(PCI_CLASS_ACCELERATOR_PROCESSING,
			   &run->cfg[PCI_CLASS_DEVICE]);
	put_unaligned_le16(PCI_VENDOR_ID_ATI,
			   &run->cfg[PCI_SUBSYSTEM_VENDOR_ID]);
	put_unaligned_le16(AMDX_AMDGPU_PCI_MI300X, &run->cfg[PCI_SUBSYSTEM_ID]);
	run->sd.domain = PROBE_DOMAIN;
	run->sd.node = NUMA_NO_NODE;
	run->busn = (struct resource)DEFINE_RES_NAMED(0, 1, "amdx probe bus",
						      IORESOURCE_BUS);
	init_completion(&run->xcp_going);
	test->priv = run;
	if (rma)
		kunit_activate_static_stub(test, amdgpu_driver_load_kms,
					   probe_load_rma);
	else
		kunit_activate_static_stub(test, amdgpu_driver_load_kms,
					   probe_load_kms);
	kunit_activate_static_stub(test, amdgpu_amdx_register, probe_register);
	kunit_activate_static_stub(test, amdgpu_amdx_unregister,
				   probe_unregister);

	pci_add_resource(&res, &run->busn);
	pci_lock_rescan_remove();
	run->bus = pci_create_root_bus(NULL, 0, &probe_cfg_ops, &run->sd, &res);
	if (run->bus) {
		pci_scan_child_bus(run->bus);
		pci_bus_add_devices(run->bus);
	}
	pci_unlock_rescan_remove();
	pci_free_resource_list(&res);
	KUNIT_ASSERT_NOT_NULL(test, run->bus);
	fake_defer(test, probe_remove_bus, run);
	pdev = pci_get_slot(run->bus, 0);
	KUNIT_ASSERT_NOT_NULL_MSG(test, pdev, "the function was not found");
	fake_defer(test, probe_pdev_put, pdev);
	KUNIT_ASSERT_EQ(test, 1, run->loads);
	return pdev;
}

/*
 * amdgpu's own probe of an MI300X's PCI function registers it with amdx
 * once it is whole, its DRM device and its partitions' DRM devices
 * registered (amdgpu_pci_probe() registers them after
 * amdgpu_driver_load_kms(), for which the fake stands in), and amdgpu's
 * own removal takes it out of amdx first, before it unplugs any of them;
 * the release (amdgpu_device_fini_sw()) frees the provider's data
 * (kmemleak and KASAN watch it).  In between, amdx's ops reach amdgpu's
 * partition code on the device amdgpu probed.
 */
static void probe_and_removal_are_amdgpus(struct kunit *test)
{
	struct pci_dev *pdev = probe_host_add(test, false);
	struct probe_run *run = test->priv;
	struct amdx_device_state st = {};
	const char *drv;

	drv = pdev->dev.driver ? pdev->dev.driver->name : "none";
	KUNIT_ASSERT_STREQ_MSG(test, "amdgpu", drv,
			       "amdgpu's PCI driver did not bind the function");
	KUNIT_ASSERT_NOT_NULL_MSG(test, run->xdev,
				  "amdgpu's probe did not register with amdx");
	KUNIT_EXPECT_TRUE_MSG(test, run->drm_registered,
			      "registered with amdx before amdgpu registered its DRM device");
	KUNIT_EXPECT_EQ_MSG(test, MAX_XCP - 1, run->xcp_registered,
			    "registered with amdx before amdgpu registered its partitions' DRM devices");
	KUNIT_EXPECT_EQ(test, MAX_XCP - 1, run->xcp_watched);
	KUNIT_EXPECT_EQ(test, 0, run->ops->get_state(run->xdev, &st));
	KUNIT_EXPECT_EQ(test, AMDX_COMPUTE_CPX, st.compute_mode);
	KUNIT_EXPECT_EQ(test, 0, run->ops->set_compute_mode(run->xdev,
							    AMDX_COMPUTE_SPX));
	KUNIT_EXPECT_EQ(test, 0, run->ops->get_state(run->xdev, &st));
	KUNIT_EXPECT_EQ(test, AMDX_COMPUTE_SPX, st.compute_mode);
	KUNIT_EXPECT_EQ(test, 0, run->unregistered);

	probe_remove_bus(run);
	KUNIT_EXPECT_EQ_MSG(test, 1, run->unregistered,
			    "amdgpu's removal did not take the device out of amdx");
	KUNIT_EXPECT_FALSE_MSG(test, run->drm_unplugged,
			       "amdx still had the device when amdgpu unplugged its DRM device");
	KUNIT_EXPECT_EQ_MSG(test, 0, run->xcp_released_then,
			    "amdx still had the device when amdgpu freed its partitions' DRM devices");
	KUNIT_EXPECT_EQ(test, MAX_XCP - 1, run->xcp_released);
	KUNIT_EXPECT_TRUE_MSG(test, run->released,
			      "amdgpu did not release its device");
}

/* An RMA board on the case's host bridge, refused by amdgpu's probe. */
static struct probe_run *rma_board_probed(struct kunit *test)
{
	struct pci_dev *pdev;
	struct probe_run *run;

	kunit_activate_static_stub(test, amdgpu_ras_eeprom_init,
				   probe_eeprom_init_rma);
	pdev = probe_host_add(test, true);
	run = test->priv;
	fake_defer(test, fake_rma_drop, &pdev->dev);
	KUNIT_ASSERT_NULL_MSG(test, pdev->dev.driver,
			      "amdgpu bound an RMA board");
	KUNIT_ASSERT_NOT_NULL_MSG(test, run->xdev,
				  "amdgpu refused an RMA board and amdx never saw it");
	KUNIT_ASSERT_EQ(test, 0, run->unregistered);
	return run;
}

/*
 * An RMA board amdgpu refuses at its probe stays in amdx, flagged, while
 * its PCI function is there, driverless; once the function is removed
 * (its slot powered off or ``echo 1 > remove`` before the board is pulled)
 * amdx no longer lists it: a board that is gone is not a device, and the
 * same board probed again after a rescan is a new PCI function.
 */
static void rma_board_leaves_amdx_with_its_pci_function(struct kunit *test)
{
	struct probe_run *run = rma_board_probed(test);

	probe_remove_bus(run);
	KUNIT_EXPECT_EQ_MSG(test, 1, run->unregistered,
			    "amdx still lists the RMA board after its PCI function was removed");
}

/*
 * amdgpu unloads while an RMA board it refused is still on the bus
 * (driverless, so amdgpu's pci_unregister_driver() does not see it):
 * amdgpu_amdx_exit(), what amdgpu_exit() calls next, takes the board out
 * of amdx and stops watching the bus, so the function's removal later
 * finds nothing of the provider's to drop (KASAN watches the freed
 * board).  A later refusal watches the bus again (the cases after this
 * one).  amdgpu's module exit itself is not run: the suites run inside
 * amdgpu's load.
 */
static void rma_board_leaves_amdx_at_amdgpus_exit(struct kunit *test)
{
	struct probe_run *run = rma_board_probed(test);

	amdgpu_amdx_exit();
	KUNIT_EXPECT_EQ_MSG(test, 1, run->unregistered,
			    "amdx still lists the RMA board after amdgpu's exit");
	probe_remove_bus(run);
	KUNIT_EXPECT_EQ(test, 1, run->unregistered);
}

/**
 * struct probe_work - a call of the test's on a workqueue
 * @work: on system_unbound_wq.
 * @test: the test, whose stubs the call sees.
 * @run: the probe run.
 * @ret: what the call returned.
 */
struct probe_work {
	struct work_struct work;
	struct kunit *test;
	struct probe_run *run;
	int ret;
};

/* amdx asks for a partition switch: the provider's op, as the core calls it. */
static void probe_switch_fn(struct work_struct *work)
{
	struct probe_work *w = container_of(work, struct probe_work, work);

	w->ret = w->run->ops->set_compute_mode(w->run->xdev, AMDX_COMPUTE_SPX);
}

/* amdgpu's removal of the function (the host bridge's). */
static void probe_removal_fn(struct work_struct *work)
{
	struct probe_work *w = container_of(work, struct probe_work, work);

	current->kunit_test = w->test;
	probe_remove_bus(w->run);
	current->kunit_test = NULL;
}

/*
 * amdgpu removes the device while a partition switch amdx asked for is
 * inside amdgpu, waiting on the firmware: the removal tears nothing of the
 * device down under it (the provider's op holds drm_dev_enter(), so
 * amdgpu's unplug of the partitions' DRM devices waits), the switch
 * completes, and then the removal and the release complete (KASAN watches
 * the provider's data and amdgpu's device).  That the device leaves amdx
 * only after the op is the amdx core's part (its unregistration waits for
 * the ioctl that called the op; here the test calls the op itself).  The
 * removal gets a second to unplug the partitions while the switch waits:
 * a provider that lets it is caught then, one that does not always passes.
 */
static void removal_waits_for_a_switch_inside_amdgpu(struct kunit *test)
{
	struct probe_run *run;
	struct probe_work op = { .test = test }, rm = { .test = test };
	DECLARE_COMPLETION_ONSTACK(entered);
	DECLARE_COMPLETION_ONSTACK(go);
	bool early = false, inside;

	probe_host_add(test, false);
	run = test->priv;
	KUNIT_ASSERT_NOT_NULL(test, run->xdev);
	op.run = run;
	rm.run = run;
	run->f->switch_entered = &entered;
	run->f->switch_go = &go;
	run->watch_switch = true;
	INIT_WORK_ONSTACK(&op.work, probe_switch_fn);
	INIT_WORK_ONSTACK(&rm.work, probe_removal_fn);
	queue_work(system_unbound_wq, &op.work);
	inside = wait_for_completion_timeout(&entered, 30 * HZ);
	if (inside) {
		queue_work(system_unbound_wq, &rm.work);
		early = wait_for_completion_timeout(&run->xcp_going, HZ);
	}
	complete(&go);
	flush_work(&op.work);
	if (inside)
		flush_work(&rm.work);
	destroy_work_on_stack(&rm.work);
	destroy_work_on_stack(&op.work);
	KUNIT_ASSERT_TRUE_MSG(test, inside,
			      "the partition switch never reached the fake's firmware");
	KUNIT_EXPECT_FALSE_MSG(test, early,
			       "amdgpu unplugged the partitions while amdx's switch was inside amdgpu");
	KUNIT_EXPECT_EQ(test, 0, op.ret);
	KUNIT_EXPECT_TRUE_MSG(test, run->switch_done_then,
			      "a partition's DRM device was released before amdgpu's switch came back");
	KUNIT_EXPECT_EQ(test, 1, run->unregistered);
	KUNIT_EXPECT_EQ(test, MAX_XCP - 1, run->xcp_released);
	KUNIT_EXPECT_TRUE(test, run->released);
}
#else
static void probe_and_removal_are_amdgpus(struct kunit *test)
{
	kunit_skip(test, "the test's PCI host bridge is x86's (pci_sysdata)");
}

static void rma_board_leaves_amdx_with_its_pci_function(struct kunit *test)
{
	kunit_skip(test, "the test's PCI host bridge is x86's (pci_sysdata)");
}

static void removal_waits_for_a_switch_inside_amdgpu(struct kunit *test)
{
	kunit_skip(test, "the test's PCI host bridge is x86's (pci_sysdata)");
}
#endif

static struct kunit_case amdgpu_amdx_life_cases[] = {
	KUNIT_CASE(op_after_unplug_is_enodev),
	KUNIT_CASE(rma_board_registers_flagged),
	KUNIT_CASE(removal_before_a_queued_ras_work_reports_nothing),
	KUNIT_CASE(probe_and_removal_are_amdgpus),
	KUNIT_CASE(rma_board_leaves_amdx_with_its_pci_function),
	KUNIT_CASE(rma_board_leaves_amdx_at_amdgpus_exit),
	KUNIT_CASE(removal_waits_for_a_switch_inside_amdgpu),
	{}
};

static struct kunit_suite amdgpu_amdx_life_suite = {
	.name = "amdgpu_amdx_life",
	.test_cases = amdgpu_amdx_life_cases,
};

/*
 * An in-memory I2C EEPROM (an AT24CM02, as on MI300's boards) behind a
 * real I2C adapter: amdgpu's own RAS EEPROM code (amdgpu_ras_eeprom.c,
 * amdgpu_eeprom.c) reads and writes it as it does the board's.  The
 * device address's low bits are bits 16-19 of the EEPROM address
 * (amdgpu_eeprom.c's MAKE_I2C_ADDR()).
 */
#define FAKE_EEPROM_BYTES	SZ_1M

struct fake_eeprom {
	struct i2c_adapter adap;
	u8 *mem;
};

static int fake_eeprom_xfer(struct i2c_adapter *adap, struct i2c_msg *msgs,
			    int num)
{
	struct fake_eeprom *e = container_of(adap, struct fake_eeprom, adap);
	u32 off;

	if (num != 2 || msgs[0].len != 2 || (msgs[0].addr & ~0xf) != 0x50 ||
	    msgs[1].addr != msgs[0].addr)
		return -EIO;
	off = (msgs[0].addr & 0xf) << 16 | msgs[0].buf[0] << 8 |
	      msgs[0].buf[1];
	if (off + msgs[1].len > FAKE_EEPROM_BYTES)
		return -EIO;
	if (msgs[1].flags & I2C_M_RD)
		memcpy(msgs[1].buf, e->mem + off, msgs[1].len);
	else
		memcpy(e->mem + off, msgs[1].buf, msgs[1].len);
	return num;
}

static u32 fake_eeprom_func(struct i2c_adapter *adap)
{
	return I2C_FUNC_I2C;
}

static const struct i2c_algorithm fake_eeprom_algo = {
	.master_xfer = fake_eeprom_xfer,
	.functionality = fake_eeprom_func,
};

KUNIT_DEFINE_ACTION_WRAPPER(fake_del_adapter, i2c_del_adapter,
			    struct i2c_adapter *);
KUNIT_DEFINE_ACTION_WRAPPER(fake_vfree, vfree, const void *);

/* The VBIOS names no RAS EEPROM address: amdgpu's default for MP1 13.0.6. */
static bool fake_no_rom_addr(struct amdgpu_device *adev, u8 *i2c_address)
{
	return false;
}

/*
 * The fake device's RAS EEPROM: blank, behind an adapter, with MP1 13.0.6
 * (amdgpu supports the RAS EEPROM there), UMC @umc (12.0.0: a V2.1
 * table, else V1), no SMU to tell, amdgpu's threshold @threshold
 * records.  Returns amdgpu's control of it.
 */
static struct amdgpu_ras_eeprom_control *
fake_eeprom_new(struct kunit *test, struct fake_gpu *f, u32 umc, u32 threshold)
{
	struct amdgpu_device *adev = f->adev;
	struct fake_eeprom *e;
	void *smu;

	e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e);
	e->mem = vzalloc(FAKE_EEPROM_BYTES);
	KUNIT_ASSERT_NOT_NULL(test, e->mem);
	fake_defer(test, fake_vfree, e->mem);
	e->adap.owner = THIS_MODULE;
	e->adap.algo = &fake_eeprom_algo;
	e->adap.dev.parent = adev->dev;
	strscpy(e->adap.name, "amdx fake RAS EEPROM", sizeof(e->adap.name));
	KUNIT_ASSERT_EQ(test, 0, i2c_add_adapter(&e->adap));
	fake_defer(test, fake_del_adapter, &e->adap);
	adev->pm.ras_eeprom_i2c_bus = &e->adap;

	adev->ip_versions[MP1_HWIP][0] = IP_VERSION(13, 0, 6);
	adev->ip_versions[UMC_HWIP][0] = umc;
	/* A zeroed SMU context: no firmware functions, nothing sent. */
	smu = kunit_kzalloc(test, SZ_64K, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, smu);
	adev->powerplay.pp_handle = smu;
	mutex_init(&adev->pm.mutex);
	kunit_activate_static_stub(test, amdgpu_atomfirmware_ras_rom_addr,
				   fake_no_rom_addr);
	f->ras->bad_page_cnt_threshold = threshold;
	return &f->ras->eeprom_control;
}

/* Page @i of a test's records. */
static void fake_record(struct eeprom_table_record *r, u64 page)
{
	memset(r, 0, sizeof(*r));
	r->retired_page = page;
	r->address = page << AMDGPU_GPU_PAGE_SHIFT;
	r->ts = 1700000000 + page;
	r->err_type = AMDGPU_RAS_EEPROM_ERR_NON_RECOVERABLE;
	r->mem_channel = page & 7;
	r->mcumc_id = page & 3;
}

/* The pages of the table the provider registered, sorted by amdx. */
static u32 registered_pages(struct kunit *test, struct fake_gpu *f,
			    u64 *pages, u32 max)
{
	struct amdx_badpage_record *recs;
	const char *why = NULL;
	u32 n = 0, i;

	if (!f->badpages)
		return 0;
	recs = kunit_kcalloc(test, max, sizeof(*recs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, recs);
	KUNIT_ASSERT_EQ_MSG(test, 0, amdx_badpage_decode(f->badpages,
							 f->badpages_len,
							 recs, max, &n, &why),
			    "the registered table does not decode: %s", why);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, AMDX_BADPAGE_CAUSE_UE, recs[i].cause);
		pages[i] = recs[i].address >> AMDGPU_GPU_PAGE_SHIFT;
	}
	return n;
}

struct eeprom_config {
	u32 umc;
	const char *name;
};

static const struct eeprom_config eeprom_configs[] = {
	{ IP_VERSION(12, 0, 0), "V2.1 table (UMC 12.0.0)" },
	{ IP_VERSION(6, 7, 0), "V1 table (UMC 6.7.0)" },
};

static void eeprom_config_desc(const struct eeprom_config *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(eeprom_config, eeprom_configs, eeprom_config_desc);

/*
 * Pages amdgpu wrote to its RAS EEPROM with its own writer
 * (amdgpu_ras_eeprom_append(), on a table amdgpu_ras_eeprom_reset_table()
 * made) are the bad-page table amdx gets at registration, read back
 * through amdgpu_ras_eeprom_init() and amdgpu_ras_eeprom_read(): the same
 * pages, a page written twice once.
 */
static void eeprom_round_trip_reaches_amdx(struct kunit *test)
{
	const struct eeprom_config *c = test->param_value;
	struct fake_gpu *f = fake_gpu_new(test, 8, AMDGPU_NPS1_PARTITION_MODE,
					  AMDGPU_SPX_PARTITION_MODE);
	struct amdgpu_ras_eeprom_control *control =
		fake_eeprom_new(test, f, c->umc, 100);
	struct eeprom_table_record recs[5];
	u64 pages[8];
	u32 i;

	/* A blank EEPROM has no valid table: amdgpu refuses it, then makes one. */
	KUNIT_EXPECT_EQ(test, -EINVAL, amdgpu_ras_eeprom_init(control));
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_eeprom_reset_table(control));
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_eeprom_init(control));
	KUNIT_EXPECT_EQ(test, 0, control->ras_num_recs);
	for (i = 0; i < 4; i++)
		fake_record(&recs[i], 0x100 + 3 * i);
	fake_record(&recs[4], 0x100);
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_eeprom_append(control, recs, 5));
	KUNIT_EXPECT_FALSE(test, f->ras->is_rma);

	/* The next probe: amdgpu reads the table, then the provider. */
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_eeprom_init(control));
	KUNIT_EXPECT_EQ(test, 5, control->ras_num_recs);
	fake_provider_init(test, f);
	KUNIT_ASSERT_NOT_NULL(test, f->xdev);
	KUNIT_ASSERT_EQ(test, 4, registered_pages(test, f, pages, 8));
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, 0x100 + 3 * i, pages[i]);
}

/*
 * The table is a ring: once it holds its maximum, amdgpu's writer
 * overwrites the oldest records.  amdx gets the pages the ring holds,
 * the newest, not the overwritten ones.
 */
static void eeprom_wrap_around_keeps_the_newest(struct kunit *test)
{
	struct fake_gpu *f = fake_gpu_new(test, 8, AMDGPU_NPS1_PARTITION_MODE,
					  AMDGPU_SPX_PARTITION_MODE);
	struct amdgpu_ras_eeprom_control *control =
		fake_eeprom_new(test, f, IP_VERSION(12, 0, 0), 100);
	struct eeprom_table_record recs[6];
	u64 pages[8];
	u32 i;

	amdgpu_ras_eeprom_init(control);
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_eeprom_reset_table(control));
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_eeprom_init(control));
	/* A ring of 4 records (the board's holds thousands). */
	control->ras_max_record_count = 4;
	for (i = 0; i < 6; i++)
		fake_record(&recs[i], 0x200 + i);
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_eeprom_append(control, recs, 3));
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_eeprom_append(control, recs + 3, 3));
	KUNIT_EXPECT_EQ(test, 4, control->ras_num_recs);
	fake_provider_init(test, f);
	KUNIT_ASSERT_NOT_NULL(test, f->xdev);
	KUNIT_ASSERT_EQ(test, 4, registered_pages(test, f, pages, 8));
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, 0x202 + i, pages[i]);
}

/*
 * A header whose checksum is wrong: amdgpu logs it and keeps using the
 * table (amdgpu_ras_eeprom_init() returns 0), so amdx gets its pages as
 * amdgpu does.
 */
static void eeprom_bad_checksum_is_amdgpus_call(struct kunit *test)
{
	struct fake_gpu *f = fake_gpu_new(test, 8, AMDGPU_NPS1_PARTITION_MODE,
					  AMDGPU_SPX_PARTITION_MODE);
	struct amdgpu_ras_eeprom_control *control =
		fake_eeprom_new(test, f, IP_VERSION(12, 0, 0), 100);
	struct fake_eeprom *e = container_of(f->adev->pm.ras_eeprom_i2c_bus,
					     struct fake_eeprom, adap);
	struct eeprom_table_record recs[2];
	u64 pages[4];

	amdgpu_ras_eeprom_init(control);
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_eeprom_reset_table(control));
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_eeprom_init(control));
	fake_record(&recs[0], 0x300);
	fake_record(&recs[1], 0x301);
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_eeprom_append(control, recs, 2));
	/* The header's checksum byte (the header's last of 20). */
	e->mem[control->i2c_address + control->ras_header_offset + 19] ^= 0x5a;
	KUNIT_EXPECT_EQ(test, 0, amdgpu_ras_eeprom_init(control));
	KUNIT_EXPECT_EQ(test, 2, control->ras_num_recs);
	fake_provider_init(test, f);
	KUNIT_ASSERT_NOT_NULL(test, f->xdev);
	KUNIT_ASSERT_EQ(test, 2, registered_pages(test, f, pages, 4));
	KUNIT_EXPECT_EQ(test, 0x300, pages[0]);
	KUNIT_EXPECT_EQ(test, 0x301, pages[1]);
}

/*
 * amdgpu's writer reaches its threshold (amdgpu.bad_page_threshold set:
 * the default -1 never flags a board): it marks the table bad and the
 * board for RMA; at the next probe amdgpu refuses the board.  amdx sees
 * it, flagged for RMA, with the pages of its EEPROM.
 */
static void eeprom_rma_board_registers_with_its_pages(struct kunit *test)
{
	struct fake_gpu *f = fake_gpu_new(test, 8, AMDGPU_NPS1_PARTITION_MODE,
					  AMDGPU_SPX_PARTITION_MODE);
	struct amdgpu_ras_eeprom_control *control =
		fake_eeprom_new(test, f, IP_VERSION(12, 0, 0), 3);
	int saved = amdgpu_bad_page_threshold;
	struct eeprom_table_record recs[3];
	u64 pages[4];
	int ret;
	u32 i;

	amdgpu_ras_eeprom_init(control);
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_eeprom_reset_table(control));
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_eeprom_init(control));
	for (i = 0; i < 3; i++)
		fake_record(&recs[i], 0x400 + i);
	amdgpu_bad_page_threshold = 3;
	ret = amdgpu_ras_eeprom_append(control, recs, 3);
	KUNIT_EXPECT_EQ(test, 0, ret);
	KUNIT_EXPECT_TRUE(test, f->ras->is_rma);

	/* The next probe. */
	kunit_activate_static_stub(test, amdgpu_amdx_register, fake_register);
	kunit_activate_static_stub(test, amdgpu_amdx_mark_rma, fake_mark_rma);
	fake_defer(test, fake_rma_drop, f->adev->dev);
	ret = amdgpu_ras_recovery_init(f->adev);
	amdgpu_bad_page_threshold = saved;
	KUNIT_EXPECT_EQ(test, -EINVAL, ret);
	KUNIT_ASSERT_TRUE(test, f->registered);
	KUNIT_EXPECT_EQ(test, 1, f->rma_marks);
	KUNIT_ASSERT_EQ(test, 3, registered_pages(test, f, pages, 4));
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, 0x400 + i, pages[i]);
}

/*
 * A memory partition layout of amdgpu's for an 8-XCC fake in NPS4 (192
 * GiB of VRAM): with the IP discovery's NPS table (@table: base and
 * limit per partition, as the firmware gives them) or without one (NULL:
 * gmc_v9_0's software split), and the first GPU page of partitions 1, 2
 * and 3 amdgpu makes of it (@first).
 */
struct nps_config {
	const struct nps_instance_info_v1_0 *table;
	u64 first[3];
	const char *name;
};

#define NPS_GIB(n)	((u64)(n) << 30)
/* gmc_v9_0.c's MAX_MEM_RANGES: the entries amdgpu allocates. */
#define NPS_MAX_RANGES	8
#define NPS_PFN(b)	((b) >> AMDGPU_GPU_PAGE_SHIFT)

/* Uneven on purpose: no rule of thumb finds these boundaries. */
static const struct nps_instance_info_v1_0 nps_table_uneven[4] = {
	{ 0, NPS_GIB(40) - 1 },
	{ NPS_GIB(40), NPS_GIB(96) - 1 },
	{ NPS_GIB(96), NPS_GIB(150) - 1 },
	{ NPS_GIB(150), NPS_GIB(192) - 1 },
};

static const struct nps_config nps_configs[] = {
	/*
	 * gmc_v9_0_init_sw_mem_ranges()'s fallback: (VRAM + 16 MiB) / 4 in
	 * GPU pages each, the last to the VRAM's end: 1,024 pages (4 MiB)
	 * past a quarter of the VRAM, where VRAM / 4 would put the boundary.
	 */
	{ NULL, { 12583936, 2 * 12583936, 3 * 12583936 },
	  "no NPS table: amdgpu's software split" },
	{ nps_table_uneven,
	  { NPS_PFN(NPS_GIB(40)), NPS_PFN(NPS_GIB(96)), NPS_PFN(NPS_GIB(150)) },
	  "the IP discovery's NPS table" },
};

static void nps_config_desc(const struct nps_config *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(nps_config, nps_configs, nps_config_desc);

/*
 * The IP discovery binary of a fake: a binary header whose NPS_INFO entry
 * points at an NPS info v1 table of @table's four ranges, with the
 * checksum amdgpu verifies; without @table the entry is empty.
 */
static void fake_discovery(struct kunit *test, struct amdgpu_device *adev,
			   const struct nps_instance_info_v1_0 *table)
{
	size_t off = ALIGN(sizeof(struct binary_header), 8);
	struct binary_header *bhdr;
	struct nps_info_v1_0 *nps;
	u16 sum = 0;
	u8 *bin;
	size_t i;

	bin = kunit_kzalloc(test, off + sizeof(*nps), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, bin);
	adev->mman.discovery_bin = bin;
	if (!table)
		return;
	bhdr = (struct binary_header *)bin;
	nps = (struct nps_info_v1_0 *)(bin + off);
	nps->header.table_id = cpu_to_le32(NPS_INFO_TABLE_ID);
	nps->header.version_major = cpu_to_le16(1);
	nps->header.size_bytes = cpu_to_le32(sizeof(*nps));
	nps->nps_type = AMDGPU_NPS4_PARTITION_MODE;
	nps->count = 4;
	memcpy(nps->instance_info, table, 4 * sizeof(*table));
	for (i = 0; i < sizeof(*nps); i++)
		sum += bin[off + i];
	bhdr->table_list[NPS_INFO].offset = cpu_to_le16(off);
	bhdr->table_list[NPS_INFO].checksum = cpu_to_le16(sum);
}

/*
 * Bad pages amdgpu holds at registration reach amdx in the memory
 * partition of amdgpu's own ranges, those gmc_v9_0_init_sw_mem_ranges()
 * makes from the IP discovery's NPS table or, without one, in software:
 * a page on each side of each boundary, and the VRAM's first and last.
 * amdgpu's ranges are checked first (the boundaries the case names), then
 * each page's partition in the table the provider registered.
 */
static void eeprom_pages_take_amdgpus_nps_ranges(struct kunit *test)
{
	const struct nps_config *c = test->param_value;
	struct fake_gpu *f = fake_gpu_new(test, 8, AMDGPU_NPS4_PARTITION_MODE,
					  AMDGPU_CPX_PARTITION_MODE);
	struct amdgpu_device *adev = f->adev;
	struct amdgpu_ras_eeprom_control *control =
		fake_eeprom_new(test, f, IP_VERSION(12, 0, 0), 100);
	u64 last = NPS_PFN(adev->gmc.real_vram_size) - 1;
	struct eeprom_table_record recs[8];
	struct amdx_badpage_record *out;
	u64 pages[8], want[8];
	const char *why = NULL;
	u32 i, n = 0;

	fake_discovery(test, adev, c->table);
	adev->gmc.mem_partitions = kunit_kcalloc(test, NPS_MAX_RANGES,
						 sizeof(*adev->gmc.mem_partitions),
						 GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, adev->gmc.mem_partitions);
	gmc_v9_0_init_sw_mem_ranges(adev, adev->gmc.mem_partitions);
	KUNIT_ASSERT_EQ(test, 4, adev->gmc.num_mem_partitions);
	KUNIT_EXPECT_EQ(test, 0, adev->gmc.mem_partitions[0].range.fpfn);
	for (i = 1; i < 4; i++)
		KUNIT_ASSERT_EQ_MSG(test, c->first[i - 1],
				    adev->gmc.mem_partitions[i].range.fpfn,
				    "amdgpu's partition %u", i);
	KUNIT_EXPECT_EQ(test, last, adev->gmc.mem_partitions[3].range.lpfn);

	pages[0] = 0;
	want[0] = 0;
	for (i = 0; i < 3; i++) {
		pages[1 + 2 * i] = c->first[i] - 1;
		want[1 + 2 * i] = i;
		pages[2 + 2 * i] = c->first[i];
		want[2 + 2 * i] = i + 1;
	}
	pages[7] = last;
	want[7] = 3;

	amdgpu_ras_eeprom_init(control);
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_eeprom_reset_table(control));
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_eeprom_init(control));
	for (i = 0; i < 8; i++)
		fake_record(&recs[i], pages[i]);
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_eeprom_append(control, recs, 8));
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_eeprom_init(control));
	fake_provider_init(test, f);
	KUNIT_ASSERT_NOT_NULL(test, f->xdev);
	KUNIT_ASSERT_NOT_NULL(test, f->badpages);
	out = kunit_kcalloc(test, 8, sizeof(*out), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_EQ_MSG(test, 0, amdx_badpage_decode(f->badpages,
							 f->badpages_len, out,
							 8, &n, &why),
			    "the registered table does not decode: %s", why);
	KUNIT_ASSERT_EQ(test, 8, n);
	/* amdx sorts by address: the pages are in that order already. */
	for (i = 0; i < 8; i++) {
		KUNIT_EXPECT_EQ(test, pages[i] << AMDGPU_GPU_PAGE_SHIFT,
				out[i].address);
		KUNIT_EXPECT_EQ_MSG(test, want[i], out[i].partition,
				    "page %#llx", pages[i]);
	}
}

static struct kunit_case amdgpu_amdx_eeprom_cases[] = {
	KUNIT_CASE_PARAM(eeprom_round_trip_reaches_amdx,
			 eeprom_config_gen_params),
	KUNIT_CASE(eeprom_wrap_around_keeps_the_newest),
	KUNIT_CASE(eeprom_bad_checksum_is_amdgpus_call),
	KUNIT_CASE(eeprom_rma_board_registers_with_its_pages),
	KUNIT_CASE_PARAM(eeprom_pages_take_amdgpus_nps_ranges,
			 nps_config_gen_params),
	{}
};

static struct kunit_suite amdgpu_amdx_eeprom_suite = {
	.name = "amdgpu_amdx_eeprom",
	.test_cases = amdgpu_amdx_eeprom_cases,
};

/*
 * A process of the KFD's, as kfd_create_process() enters it in the KFD's
 * process table: only what the KFD's poison path reads.  Its lead
 * thread is the test's, a kernel thread, which ignores the SIGBUS the
 * KFD sends for a consumed poison.  Nothing else enters the table while
 * the suites run (they run at amdgpu's load, before any /dev/kfd open).
 */
static void fake_kfd_process_del(void *data)
{
	struct kfd_process *p = data;

	hash_del_rcu(&p->kfd_processes);
	synchronize_srcu(&kfd_processes_srcu);
	idr_destroy(&p->event_idr);
}

static struct kfd_process *fake_kfd_process_add(struct kunit *test, u32 pasid)
{
	struct kfd_process *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	kref_init(&p->ref);
	p->pasid = pasid;
	p->lead_thread = current;
	idr_init(&p->event_idr);
	hash_add_rcu(kfd_processes_table, &p->kfd_processes, (uintptr_t)p);
	fake_defer(test, fake_kfd_process_del, p);
	return p;
}

/* A poison consumed: its IH client, the RAS block and instance amdx gets. */
struct kfd_poison {
	const char *name;
	u32 client;
	u32 source;
	u32 block;
	u32 instance;
};

/*
 * Partition 5 of an MI300X in CPX: XCC 5, SDMA engines 10 and 11
 * (aqua_vanjaram's split), the MMHUB the device's one.
 */
static const struct kfd_poison kfd_poisons[] = {
	{ "utcl2_gfx", SOC15_IH_CLIENTID_UTCL2, SOC15_INTSRC_VMC_UTCL2_POISON,
	  AMDX_RAS_BLOCK_GFX, 5 },
	{ "sdma0", SOC15_IH_CLIENTID_SDMA0, SOC15_INTSRC_SDMA_ECC,
	  AMDX_RAS_BLOCK_SDMA, 10 },
	{ "vmc_mmhub", SOC15_IH_CLIENTID_VMC, SOC15_INTSRC_VMC_UTCL2_POISON,
	  AMDX_RAS_BLOCK_MMHUB, 0 },
};

static void kfd_poison_desc(const struct kfd_poison *k, char *desc)
{
	strscpy(desc, k->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(kfd_poison, kfd_poisons, kfd_poison_desc);

/*
 * A poison a process consumed reaches amdgpu through the KFD only: its
 * interrupt work (kfd_int_process_v9.c) knows the KFD node, which is the
 * compute partition, and the PASID, and hands amdgpu a reset request
 * with neither (amdgpu_amdkfd_ras_pasid_poison_consumption_handler()).
 * The KFD's real interrupt work runs here on a node of partition 5 with
 * a process of the KFD's: the error reaches amdx once, uncorrectable,
 * with the partition and the instance in it, naming the process (its
 * thread-group pid; the case's thread is its lead thread) and its PASID,
 * which amdx's ERROR event carries (issue 30), and with the id of the RAS
 * event the KFD marked for the consumption (the one its log line prints,
 * which amdx's ERROR event carries since uapi minor 9); a second
 * consumption by the same process is the KFD's to drop (its queues are
 * unmapped once).
 */
static void kfd_poison_consumption_reaches_amdx(struct kunit *test)
{
	const struct kfd_poison *k = test->param_value;
	struct fake_gpu *f = fake_gpu_new(test, 8, AMDGPU_NPS1_PARTITION_MODE,
					  AMDGPU_CPX_PARTITION_MODE);
	const struct amdx_ras_error *r = &f->reports[0];
	const struct ras_event_state *consumption =
		&f->ras->__event_mgr.event_state[RAS_EVENT_TYPE_POISON_CONSUMPTION];
	struct kfd_process *p;
	struct kfd_node *node;
	u32 ih[8] = {};
	const u16 pasid = 0x8005;
	int ret;

	/*
	 * What amdgpu's RAS init gives an MI300X: SDMA and MMHUB RAS besides
	 * gfx and UMC (so that the provider declares them), UMC 12, its
	 * event manager.
	 */
	f->adev->ras_enabled |= BIT(AMDGPU_RAS_BLOCK__SDMA) |
				BIT(AMDGPU_RAS_BLOCK__MMHUB);
	f->adev->ip_versions[UMC_HWIP][0] = IP_VERSION(12, 0, 0);
	f->ras->event_mgr = &f->ras->__event_mgr;
	fake_provider_init(test, f);
	KUNIT_ASSERT_NOT_NULL(test, f->xdev);
	kunit_activate_static_stub(test, amdgpu_amdx_report, fake_report);
	node = kunit_kzalloc(test, sizeof(*node), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, node);
	node->adev = f->adev;
	node->node_id = 5;
	node->xcp = &f->adev->xcp_mgr->xcp[5];
	ret = amdgpu_xcp_get_inst_details(node->xcp, AMDGPU_XCP_GFX,
					  &node->xcc_mask);
	KUNIT_ASSERT_EQ(test, 0, ret);
	p = fake_kfd_process_add(test, pasid);

	ih[0] = k->client | k->source << 8;
	ih[3] = pasid;
	event_interrupt_class_v9.interrupt_wq(node, ih);
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->poison));
	KUNIT_ASSERT_EQ(test, 1, f->nreports);
	KUNIT_EXPECT_EQ(test, k->block, r->block);
	KUNIT_EXPECT_EQ(test, AMDX_RAS_TYPE_UE, r->type);
	KUNIT_EXPECT_EQ(test, 1, r->count);
	KUNIT_EXPECT_EQ(test, 5, r->partition);
	KUNIT_EXPECT_EQ(test, k->instance, r->instance);
	KUNIT_EXPECT_EQ(test, 0, r->flags);
	KUNIT_EXPECT_PTR_EQ(test, task_tgid(current), r->consumer);
	KUNIT_EXPECT_EQ(test, pasid, r->pasid);
	/* The first event of the device's event manager: id 1. */
	KUNIT_EXPECT_EQ(test, 1, consumption->last_seqno);
	KUNIT_EXPECT_EQ(test, 1, r->driver_event);
	KUNIT_EXPECT_EQ(test, AMDX_DRIVER_EVENT_POISON_CONSUMPTION,
			r->driver_event_type);

	event_interrupt_class_v9.interrupt_wq(node, ih);
	KUNIT_EXPECT_EQ(test, 1, f->nreports);
}

static struct kunit_case amdgpu_amdx_kfd_cases[] = {
	KUNIT_CASE_PARAM(kfd_poison_consumption_reaches_amdx,
			 kfd_poison_gen_params),
	{}
};

static struct kunit_suite amdgpu_amdx_kfd_suite = {
	.name = "amdgpu_amdx_kfd",
	.test_cases = amdgpu_amdx_kfd_cases,
};

/**
 * struct replay_bank - one ACA bank as amdgpu's dump printed it
 * @name: the case's name.
 * @source: where it was posted.
 * @status: "aca entry[NN].STATUS".
 * @addr: ".ADDR".
 * @misc0: ".MISC0".
 * @ipid: ".IPID".
 * @synd: ".SYND".
 * @aid: the AID the IPID names (InstanceIdHi bits 3:2).
 * @xcc: the XCC it names: the AID's XCDs are XCCs 2 * @aid and
 *	2 * @aid + 1 (InstanceIdLo mmSMNAID_XCD0_MCA_SMU or _XCD1_).
 */
struct replay_bank {
	const char *name;
	const char *source;
	u64 status;
	u64 addr;
	u64 misc0;
	u64 ipid;
	u64 synd;
	u32 aid;
	u32 xcc;
};

/*
 * Replay fixtures: ACA banks real MI300X boards logged, as their users
 * posted them.  From ROCm/legacy-rocm-build issue #4021 ("Intermittent
 * GPU Hang HW Exception by GPU on MI300X when training with axolotl",
 * ROCm 6.2.3; the reporter's kernel log in the thread's 11th post): one
 * fatal error ("uncorrectable hardware error(ERREVENT_ATHUB_INTERRUPT)
 * detected!") on an 8-GPU host, after which amdgpu dumped one UE bank
 * per GPU under event id {1}.  Two of them, of 0000:42:00.0 and
 * 0000:55:00.0, as printed (the second's SYND is cut short in the post,
 * its digits there all 0).  Both are SMU banks (HardwareID 0x1, McaType
 * 0x1) of an XCD of AID 0 (sockets 0 and 3): STATUS Val, En, MiscV and
 * Poison, error code extension 0x3e, no address.
 */
static const struct replay_bank replay_banks[] = {
	{
		.name = "rocm4021_42:00.0_aid0_xcd1",
		.source = "https://github.com/ROCm/legacy-rocm-build/issues/4021",
		.status = 0x98000800003e0000ULL,
		.misc0 = 0xd008000000000000ULL,
		.ipid = 0x0001000138430400ULL,
		.aid = 0,
		.xcc = 1,
	},
	{
		.name = "rocm4021_55:00.0_aid0_xcd0",
		.source = "https://github.com/ROCm/legacy-rocm-build/issues/4021",
		.status = 0x98000800003e0000ULL,
		.misc0 = 0xd008000000000000ULL,
		.ipid = 0x0001300136430400ULL,
		.aid = 0,
		.xcc = 0,
	},
};

static void replay_bank_desc(const struct replay_bank *b, char *desc)
{
	strscpy(desc, b->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(replay_bank, replay_banks, replay_bank_desc);

/* @rb as the fake SMU's UE queue holds it, its STATUS @status. */
static void replay_push(struct kunit *test, struct fake_gpu *f,
			const struct replay_bank *rb, u64 status)
{
	struct aca_bank b = { .type = ACA_SMU_TYPE_UE };

	b.regs[ACA_REG_IDX_STATUS] = status;
	b.regs[ACA_REG_IDX_ADDR] = rb->addr;
	b.regs[ACA_REG_IDX_MISC0] = rb->misc0;
	b.regs[ACA_REG_IDX_IPID] = rb->ipid;
	b.regs[ACA_REG_IDX_SYND] = rb->synd;
	KUNIT_ASSERT_EQ(test, 0, fake_aca_push(f, b.type, &b));
}

/* amdgpu queries @block; returns its uncorrectable count. */
static unsigned long replay_query(struct kunit *test, struct fake_gpu *f,
				  int block)
{
	struct ras_query_if q = { .head.block = block };

	KUNIT_EXPECT_EQ(test, 0, amdgpu_ras_query_error_status(f->adev, &q));
	return q.ue_count;
}

/*
 * A real MI300X's UE bank through the fake SMU's queue into amdgpu's own
 * ACA core and parsers, on an MI300X in QPX (one AID per partition, two
 * XCCs each).
 *
 * As posted, amdgpu 6.12 drops it before any parser sees it: a UE bank
 * with STATUS.Poison that is not UMC's is skipped
 * (aca_smu_get_valid_aca_banks(), "Poison being consumed when injecting
 * a UE while running background workloads"), so neither gfx nor UMC
 * counts it and nothing reaches amdx; on MI300 such a consumption reaches
 * amdx through the KFD (amdgpu_amdx_kfd) or not at all.
 *
 * The same bank without Poison (derived here, not posted: an XCD's UE as
 * the firmware logs one that is no poison's consumption) is counted by
 * amdgpu's gfx parser and reaches amdx once as a gfx UE, never placed
 * where it did not happen: its partition is the bank's or none (the
 * whole device), its instance the bank's XCC or the block's 0.
 * amdgpu's gfx parser keeps the XCD (0 or 1) in its statistics' die_id,
 * where every other parser keeps the AID.
 */
static void replayed_mi300x_bank(struct kunit *test)
{
	const struct replay_bank *rb = test->param_value;
	struct fake_gpu *f = fake_gpu_new(test, 8, AMDGPU_NPS1_PARTITION_MODE,
					  AMDGPU_QPX_PARTITION_MODE);
	const struct amdx_ras_error *r = &f->reports[0];

	KUNIT_ASSERT_EQ(test, 0, fake_gpu_enable_aca(f));
	fake_provider_init(test, f);
	KUNIT_ASSERT_NOT_NULL(test, f->xdev);
	kunit_activate_static_stub(test, amdgpu_amdx_report, fake_report);

	replay_push(test, f, rb, rb->status);
	KUNIT_EXPECT_EQ(test, 0, replay_query(test, f, AMDGPU_RAS_BLOCK__UMC));
	KUNIT_EXPECT_EQ(test, 0, replay_query(test, f, AMDGPU_RAS_BLOCK__GFX));
	KUNIT_EXPECT_EQ(test, 0, f->nreports);

	/*
	 * amdgpu's ACA core hands every bank it reads to every block's
	 * cache: UMC's query reads it, gfx's finds it there.
	 */
	replay_push(test, f, rb, rb->status & ~BIT_ULL(43));
	KUNIT_EXPECT_EQ(test, 0, replay_query(test, f, AMDGPU_RAS_BLOCK__UMC));
	KUNIT_EXPECT_EQ(test, 1, replay_query(test, f, AMDGPU_RAS_BLOCK__GFX));
	KUNIT_ASSERT_EQ(test, 1, f->nreports);
	KUNIT_EXPECT_EQ(test, AMDX_RAS_BLOCK_GFX, r->block);
	KUNIT_EXPECT_EQ(test, AMDX_RAS_TYPE_UE, r->type);
	KUNIT_EXPECT_EQ(test, 1, r->count);
	KUNIT_EXPECT_EQ(test, 0, r->flags);
	if (r->partition != AMDX_RAS_PARTITION_ALL)
		KUNIT_EXPECT_EQ_MSG(test, rb->aid, r->partition,
				    "the bank's error placed in partition %u, its AID's is %u",
				    r->partition, rb->aid);
	if (r->instance)
		KUNIT_EXPECT_EQ_MSG(test, rb->xcc, r->instance,
				    "the bank's error placed on XCC %u, it names XCC %u",
				    r->instance, rb->xcc);
}

static struct kunit_case amdgpu_amdx_replay_cases[] = {
	KUNIT_CASE_PARAM(replayed_mi300x_bank, replay_bank_gen_params),
	{}
};

static struct kunit_suite amdgpu_amdx_replay_suite = {
	.name = "amdgpu_amdx_replay",
	.test_cases = amdgpu_amdx_replay_cases,
};

/* One firmware entry as amdx's query reports it. */
static void expect_fw(struct kunit *test, const struct amdx_firmware_info *e,
		      u32 id, u32 instance, u32 version, u32 feature)
{
	KUNIT_EXPECT_EQ_MSG(test, id, e->id, "entry of firmware %u/%u",
			    id, instance);
	KUNIT_EXPECT_EQ_MSG(test, instance, e->instance, "firmware %u", id);
	KUNIT_EXPECT_EQ_MSG(test, version, e->version, "firmware %u/%u",
			    id, instance);
	KUNIT_EXPECT_EQ_MSG(test, feature, e->feature, "firmware %u/%u",
			    id, instance);
	KUNIT_EXPECT_EQ(test, 0, e->reserved);
}

/*
 * AMDX_QUERY_FIRMWARE on the amdgpu provider answers with the versions
 * amdgpu keeps of its ucode, read where amdgpu_firmware_info()
 * (amdgpu_kms.c) reads them for AMDGPU_INFO_FW_VERSION and the debugfs
 * amdgpu_firmware_info: the SMU's (adev->pm.fw_version, no feature), PSP
 * SOS, the RAS and XGMI TAs, MEC (MEC2 only with a MEC2 ucode, which GC
 * 9.4.3 has not: gfx_v9_4_3 copies MEC's version into mec2_fw_version
 * without one), RLC, every SDMA engine, VCN; the provider's name and
 * version.  A version amdgpu left 0 (not loaded: here SDMA5 and VCN) is
 * absent, not reported as 0.  Before the op existed the query failed with
 * -EOPNOTSUPP.
 */
static void firmware_is_amdgpus_ucode(struct kunit *test)
{
	struct fake_gpu *f = fake_gpu_new(test, 8, AMDGPU_NPS1_PARTITION_MODE,
					  AMDGPU_SPX_PARTITION_MODE);
	struct amdgpu_device *adev = f->adev;
	struct amdx_query_firmware *fw;
	u32 i, n;

	adev->pm.fw_version = 0x00557100;
	adev->psp.sos.fw_version = 0x0036003b;
	adev->psp.sos.feature_version = 0x36;
	adev->psp.ras_context.context.bin_desc.fw_version = 0x1b000049;
	adev->psp.ras_context.context.bin_desc.feature_version = 0x1b000049;
	adev->psp.xgmi_context.context.bin_desc.fw_version = 0x2000001e;
	adev->psp.xgmi_context.context.bin_desc.feature_version = 0x2000001e;
	adev->gfx.mec_fw_version = 0x9b;
	adev->gfx.mec_feature_version = 50;
	adev->gfx.mec2_fw_version = 0x9b;
	adev->gfx.mec2_feature_version = 50;
	adev->gfx.rlc_fw_version = 0x22;
	adev->gfx.rlc_feature_version = 1;
	for (i = 0; i < adev->sdma.num_instances; i++) {
		adev->sdma.instance[i].fw_version = i == 5 ? 0 : 0x15 + i;
		adev->sdma.instance[i].feature_version = 60;
	}
	fake_provider_init(test, f);
	KUNIT_ASSERT_NOT_NULL(test, f->xdev);
	KUNIT_ASSERT_NOT_NULL_MSG(test, f->ops->firmware,
				  "no firmware op: AMDX_QUERY_FIRMWARE answers -EOPNOTSUPP");
	fw = kunit_kzalloc(test, struct_size(fw, firmware, AMDX_MAX_FIRMWARE),
			   GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fw);
	KUNIT_ASSERT_EQ(test, 0, f->ops->firmware(f->xdev, fw));
	KUNIT_EXPECT_STREQ(test, "amdgpu", (char *)fw->provider);
	KUNIT_EXPECT_STREQ(test, AMDGPU_AMDX_VERSION,
			   (char *)fw->provider_version);
	/* SMU, SOS, two TAs, MEC, RLC, 15 of 16 SDMA engines. */
	KUNIT_ASSERT_EQ(test, 21, fw->num_firmware);
	expect_fw(test, &fw->firmware[0], AMDX_FW_SMU, 0, 0x00557100, 0);
	expect_fw(test, &fw->firmware[1], AMDX_FW_PSP_SOS, 0, 0x0036003b, 0x36);
	expect_fw(test, &fw->firmware[2], AMDX_FW_PSP_TA_RAS, 0, 0x1b000049,
		  0x1b000049);
	expect_fw(test, &fw->firmware[3], AMDX_FW_PSP_TA_XGMI, 0, 0x2000001e,
		  0x2000001e);
	expect_fw(test, &fw->firmware[4], AMDX_FW_MEC, 0, 0x9b, 50);
	expect_fw(test, &fw->firmware[5], AMDX_FW_RLC, 0, 0x22, 1);
	for (i = 0, n = 6; i < adev->sdma.num_instances; i++)
		if (i != 5)
			expect_fw(test, &fw->firmware[n++], AMDX_FW_SDMA, i,
				  0x15 + i, 60);

	/* Gone from amdgpu: nothing read. */
	adev_to_drm(adev)->unplugged = true;
	KUNIT_EXPECT_EQ(test, -ENODEV, f->ops->firmware(f->xdev, fw));
	adev_to_drm(adev)->unplugged = false;
}

static struct kunit_case amdgpu_amdx_firmware_cases[] = {
	KUNIT_CASE(firmware_is_amdgpus_ucode),
	{}
};

static struct kunit_suite amdgpu_amdx_firmware_suite = {
	.name = "amdgpu_amdx_firmware",
	.test_cases = amdgpu_amdx_firmware_cases,
};

/* Link reports on their way to amdx: kept by the reporting fake. */
static int fake_link_report(struct amdgpu_device *adev,
			    struct amdx_device *xdev, u32 peer, u32 obs,
			    u32 arg)
{
	struct fake_gpu *f = fake_gpu_of(adev);
	int ret = amdx_link_report(xdev, peer, obs, arg);

	if (f->nlinks < (int)ARRAY_SIZE(f->links)) {
		f->links[f->nlinks].peer = peer;
		f->links[f->nlinks].obs = obs;
		f->links[f->nlinks].arg = arg;
		f->links[f->nlinks].ret = ret;
	}
	f->nlinks++;
	return ret;
}

#define LINK_HIVE	0x4a1e0000ULL
#define LINK_NODE(i)	(0x1000ULL + (i))
/* The link type amdgpu keeps in num_hops[7:6]: 1, xGMI3. */
#define LINK_XGMI3	0x40
#define LINK_MEMBERS	4

/*
 * Fake MI300X @i of a hive of LINK_MEMBERS as amdgpu_xgmi_add_device()
 * leaves it: the hive and node ids, and the PSP's topology of every
 * member (itself included, 0 hops), each peer one hop away on one link,
 * the link type in the hop count's upper bits as the firmware reports it.
 */
static struct fake_gpu *hive_member(struct kunit *test, u32 i)
{
	struct fake_gpu *f = fake_gpu_new(test, 8, AMDGPU_NPS1_PARTITION_MODE,
					  AMDGPU_SPX_PARTITION_MODE);
	struct psp_xgmi_topology_info *top = &f->adev->psp.xgmi_context.top_info;
	u32 j;

	f->adev->gmc.xgmi.hive_id = LINK_HIVE;
	f->adev->gmc.xgmi.node_id = LINK_NODE(i);
	f->adev->gmc.xgmi.physical_node_id = i;
	f->adev->gmc.xgmi.num_physical_nodes = LINK_MEMBERS;
	top->num_nodes = LINK_MEMBERS;
	for (j = 0; j < LINK_MEMBERS; j++) {
		top->nodes[j].node_id = LINK_NODE(j);
		top->nodes[j].num_hops = j == i ? 0 : LINK_XGMI3 | 1;
		top->nodes[j].num_links = j == i ? 0 : 1;
	}
	return f;
}

/* The hive's members registered in order, their link reports kept. */
static void hive_register(struct kunit *test, struct fake_gpu **f)
{
	u32 i;

	kunit_activate_static_stub(test, amdgpu_amdx_link_report,
				   fake_link_report);
	for (i = 0; i < LINK_MEMBERS; i++) {
		test->priv = f[i];
		fake_provider_init(test, f[i]);
		KUNIT_ASSERT_NOT_NULL(test, f[i]->xdev);
	}
}

/*
 * The links amdx gives a hive (a full mesh, every link up) are checked
 * against the PSP's XGMI topology as each member joins, the joining
 * member's view, which amdgpu refreshes for every member at every join:
 * a peer the firmware lists one hop away (the link type in num_hops[7:6]
 * masked off, as amdgpu_xgmi_get_hops_count() does) has the link amdx
 * assumed, and nothing is reported; members 1 and 3, which the firmware
 * routes through another GPU (2 hops), have no direct link, and amdx is
 * told it is down (amdx then routes 1-3 through another member); a peer
 * missing from the topology (2's, which lacks 0) is unknown: logged, not
 * reported either way.
 */
static void links_follow_the_psp_topology(struct kunit *test)
{
	struct fake_gpu *f[LINK_MEMBERS];
	u32 i;

	for (i = 0; i < LINK_MEMBERS; i++)
		f[i] = hive_member(test, i);
	f[1]->adev->psp.xgmi_context.top_info.nodes[3].num_hops = LINK_XGMI3 | 2;
	f[3]->adev->psp.xgmi_context.top_info.nodes[1].num_hops = LINK_XGMI3 | 2;
	f[2]->adev->psp.xgmi_context.top_info.nodes[0].node_id = LINK_NODE(9);
	hive_register(test, f);

	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ_MSG(test, 0, f[i]->nlinks,
				    "member %u reported %d links", i,
				    f[i]->nlinks);
	KUNIT_ASSERT_EQ(test, 1, f[3]->nlinks);
	KUNIT_EXPECT_EQ(test, amdx_device_id(f[1]->xdev), f[3]->links[0].peer);
	KUNIT_EXPECT_EQ(test, AMDX_LINK_OBS_DOWN, f[3]->links[0].obs);
	/* amdx has that link, and took the report. */
	KUNIT_EXPECT_EQ(test, 0, f[3]->links[0].ret);
}

/*
 * A full mesh as the firmware reports an MI300X hive's: every peer one
 * hop away, nothing reported, whatever the order the members leave and
 * come back in (a member re-registered after a reload is checked against
 * the others again).
 */
static void links_of_a_full_mesh_are_amdxs_own(struct kunit *test)
{
	struct fake_gpu *f[LINK_MEMBERS];
	u32 i;

	for (i = 0; i < LINK_MEMBERS; i++)
		f[i] = hive_member(test, i);
	hive_register(test, f);
	amdgpu_amdx_free(f[1]->adev);
	test->priv = f[1];
	fake_provider_init(test, f[1]);
	KUNIT_ASSERT_NOT_NULL(test, f[1]->adev->amdx);
	for (i = 0; i < LINK_MEMBERS; i++)
		KUNIT_EXPECT_EQ_MSG(test, 0, f[i]->nlinks,
				    "member %u reported %d links", i,
				    f[i]->nlinks);
}

/* XGMI WAFL errors: a query of amdgpu's block adds @ce and @ue. */
static u64 wafl_ce, wafl_ue;

static void fake_wafl_query(struct amdgpu_device *adev, void *status)
{
	struct amdgpu_smuio_mcm_config_info mcm = { .die_id = 0 };

	if (wafl_ue)
		amdgpu_ras_error_statistic_ue_count(status, &mcm, wafl_ue);
	if (wafl_ce)
		amdgpu_ras_error_statistic_ce_count(status, &mcm, wafl_ce);
	wafl_ue = 0;
	wafl_ce = 0;
}

static const struct amdgpu_ras_block_hw_ops fake_wafl_ops = {
	.query_ras_error_count = fake_wafl_query,
};

KUNIT_DEFINE_ACTION_WRAPPER(fake_err_data_fini, amdgpu_ras_error_data_fini,
			    struct ras_err_data *);

/*
 * The XGMI PCS errors amdgpu counts reach amdx as what they are in 6.12:
 * errors of the device's xgmi_wafl block (CE and UE, one instance, the
 * whole device), not of a link: amdgpu does not say which link, so no
 * link counter moves and no link report is made.
 */
static void wafl_errors_are_the_devices_not_a_links(struct kunit *test)
{
	struct fake_gpu *f[LINK_MEMBERS];
	struct ras_query_if q = { .head.block = AMDGPU_RAS_BLOCK__XGMI_WAFL };
	struct amdgpu_ras_block_object *obj;
	struct ras_manager *mgr;
	const struct amdx_ras_error *r;
	u32 i;

	for (i = 0; i < LINK_MEMBERS; i++)
		f[i] = hive_member(test, i);
	/* Member 0's XGMI block, as amdgpu_xgmi_ras_late_init() leaves it. */
	mgr = &f[0]->ras->objs[AMDGPU_RAS_BLOCK__XGMI_WAFL];
	mgr->head.block = AMDGPU_RAS_BLOCK__XGMI_WAFL;
	mgr->adev = f[0]->adev;
	mgr->use = 1;
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_error_data_init(&mgr->err_data));
	fake_defer(test, fake_err_data_fini, &mgr->err_data);
	obj = kunit_kzalloc(test, sizeof(*obj), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, obj);
	obj->ras_comm.block = AMDGPU_RAS_BLOCK__XGMI_WAFL;
	obj->hw_ops = &fake_wafl_ops;
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_register_ras_block(f[0]->adev, obj));
	f[0]->adev->ras_enabled |= BIT(AMDGPU_RAS_BLOCK__XGMI_WAFL);
	hive_register(test, f);
	kunit_activate_static_stub(test, amdgpu_amdx_report, fake_report);

	test->priv = f[0];
	wafl_ce = 3;
	wafl_ue = 1;
	KUNIT_ASSERT_EQ(test, 0, amdgpu_ras_query_error_status(f[0]->adev, &q));
	KUNIT_ASSERT_EQ(test, 2, f[0]->nreports);
	for (i = 0; i < 2; i++) {
		r = &f[0]->reports[i];
		KUNIT_EXPECT_EQ(test, AMDX_RAS_BLOCK_XGMI_WAFL, r->block);
		KUNIT_EXPECT_EQ(test, 0, r->instance);
		KUNIT_EXPECT_EQ(test, AMDX_RAS_PARTITION_ALL, r->partition);
	}
	KUNIT_EXPECT_EQ(test, AMDX_RAS_TYPE_CE, f[0]->reports[0].type);
	KUNIT_EXPECT_EQ(test, 3, f[0]->reports[0].count);
	KUNIT_EXPECT_EQ(test, AMDX_RAS_TYPE_UE, f[0]->reports[1].type);
	KUNIT_EXPECT_EQ(test, 1, f[0]->reports[1].count);
	for (i = 0; i < LINK_MEMBERS; i++)
		KUNIT_EXPECT_EQ(test, 0, f[i]->nlinks);
}

/*
 * A member of a hive whose RAS EEPROM amdgpu finds at its RMA threshold:
 * amdgpu refuses it (amdgpu_ras_recovery_init() -EINVAL, the probe
 * fails) and runs nothing on it, XGMI included, and the provider still
 * registers it, flagged (amdgpu_amdx_rma()).  amdx gives every member
 * of a hive a full mesh of links, each up (Documentation/fabric.rst), so
 * registered with its hive the board had links to every member, up, for
 * a board nothing runs on.  It registers with no hive: no links.  (In
 * 6.12.118 amdgpu learns a board's hive id in amdgpu_xgmi_add_device(),
 * after its recovery init, so there the id is still 0; the fake sets it,
 * as an amdgpu that knew it earlier would.)
 */
static void links_leave_out_an_rma_board(struct kunit *test)
{
	struct fake_gpu *f[LINK_MEMBERS], *rma;
	u32 i;

	for (i = 0; i < LINK_MEMBERS; i++)
		f[i] = hive_member(test, i);
	rma = f[LINK_MEMBERS - 1];
	kunit_activate_static_stub(test, amdgpu_amdx_link_report,
				   fake_link_report);
	for (i = 0; i + 1 < LINK_MEMBERS; i++) {
		test->priv = f[i];
		fake_provider_init(test, f[i]);
		KUNIT_ASSERT_NOT_NULL(test, f[i]->xdev);
	}
	test->priv = rma;
	kunit_activate_static_stub(test, amdgpu_amdx_register, fake_register);
	kunit_activate_static_stub(test, amdgpu_ras_eeprom_init,
				   fake_eeprom_init_rma);
	kunit_activate_static_stub(test, amdgpu_amdx_mark_rma, fake_mark_rma);
	fake_defer(test, fake_rma_drop, rma->adev->dev);
	KUNIT_EXPECT_EQ(test, -EINVAL, amdgpu_ras_recovery_init(rma->adev));
	KUNIT_ASSERT_NOT_NULL(test, rma->xdev);
	KUNIT_EXPECT_EQ(test, 1, rma->rma_marks);
	KUNIT_EXPECT_EQ_MSG(test, 0, rma->hive_id,
			    "the RMA board joined hive %#llx in amdx: a full mesh of links, up",
			    rma->hive_id);
	for (i = 0; i < LINK_MEMBERS; i++)
		KUNIT_EXPECT_EQ(test, 0, f[i]->nlinks);
}

static struct kunit_case amdgpu_amdx_link_cases[] = {
	KUNIT_CASE(links_follow_the_psp_topology),
	KUNIT_CASE(links_of_a_full_mesh_are_amdxs_own),
	KUNIT_CASE(wafl_errors_are_the_devices_not_a_links),
	KUNIT_CASE(links_leave_out_an_rma_board),
	{}
};

static struct kunit_suite amdgpu_amdx_link_suite = {
	.name = "amdgpu_amdx_link",
	.test_cases = amdgpu_amdx_link_cases,
};

kunit_test_suites(&amdgpu_amdx_partition_suite, &amdgpu_amdx_reset_suite,
		  &amdgpu_amdx_ras_suite, &amdgpu_amdx_umc_suite,
		  &amdgpu_amdx_reset_work_suite, &amdgpu_amdx_life_suite,
		  &amdgpu_amdx_eeprom_suite, &amdgpu_amdx_kfd_suite,
		  &amdgpu_amdx_replay_suite, &amdgpu_amdx_scope_suite,
		  &amdgpu_amdx_firmware_suite, &amdgpu_amdx_link_suite);

/* amdx_badpage_decode(), to read what the provider registered. */
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
