// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: a fake MI300 amdgpu device, test kernels only
 *
 * Built into the test kernel's patched amdgpu.ko only (patches/6.12-test/),
 * never into the amdgpu-amdx package.  A fake GC 9.4.3 device is a zeroed
 * struct amdgpu_device whose function tables stand in for what silicon
 * and firmware do: the gfx partition switch and its XCC-per-XCP register,
 * NBIO's compute partition status, GMC's memory partition mode, and the
 * gfx RAS block's error injection and ACA banks (per AID).  Above them
 * amdgpu's own code runs: the partition manager with aqua_vanjaram's
 * functions, the reset domain, the RAS query and injection, and the
 * recovery up to its hardware part (amdgpu_amdx_fake_recover_hw()).
 *
 * The KUnit suites (amdgpu_amdx_test.c) build one per case.  The same
 * device is made user-visible through two root-only debugfs files, the
 * amdx_sim bus's syntax, so that amdx's own kselftests run against the
 * amdgpu provider (AMDX_TEST_PROVIDER=amdgpu, selftests/amdx_selftest.h)::
 *
 *    echo "ID [model=mi300x|mi300a|mi308x] [vram=MiB] [switch=S] [aca=1]
 *          [kfd=1] [sysfs=1]" \
 *        > /sys/kernel/debug/amdgpu_amdx_fake/new_device
 *    echo ID > /sys/kernel/debug/amdgpu_amdx_fake/del_device
 *
 * new_device runs the provider's real amdgpu_amdx_init() on the new fake,
 * which registers it with amdx (PCI address as amdx_sim gives device ID);
 * del_device runs amdgpu_amdx_fini() and amdgpu_amdx_free() as amdgpu's
 * removal does.  ``switch=S`` (1 .. FAKE_MAX_SWITCH) places it below fake
 * PCIe switch S (fake_gpu_place()), with the other fakes of that switch;
 * without it the fake sits on the root bus.  Its RAS is gfx's only, unless
 * ``aca=1``: an MI300X with its firmware, amdgpu's ACA with UMC 12 behind
 * it and amdgpu's own page retirement (fake_gpu_enable_retirement()).
 * ``kfd=1`` (not with ``aca=1``): the KFD up, so that a partition switch
 * runs amdgpu's KFD bracket, its process lock against the KFD's real
 * process table among it (fake_gpu_enable_kfd()).  ``sysfs=1``: amdgpu's
 * own sysfs files on the fake's device (/sys/devices/amdgpu_amdx_userID),
 * which ``amdx doctor`` compares with amdx's view (fake_gpu_enable_sysfs()).
 * What
 * stands in for the PSP and the VRAM manager UMC 12 calls is the fake's
 * (amdgpu_amdx_fake_psp_trigger_error(), _psp_query_address(),
 * _reserve_page()), for the KUnit suites' fakes too.  The amdx_sim keys
 * the fake cannot be (``hive``,
 * ``max_vfs`` above 0, ``without``) fail with -EOPNOTSUPP and a log line
 * naming them, anything else unknown with -EINVAL; a used ID with
 * -EEXIST, an unknown one on removal with -ENODEV.  amdgpu's unload
 * removes the fakes left.
 */
#include <linux/bitfield.h>
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/i2c.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/pci.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include <drm/drm_mode_config.h>

#include "amdgpu.h"
#include "amdgpu_aca.h"
#include "amdgpu_fru_eeprom.h"
#include "amdgpu_ras.h"
#include "amdgpu_reset.h"
#include "amdgpu_umc.h"
#include "amdgpu_xcp.h"
#include "umc_v12_0.h"
#include "amdgpu_amdx.h"
#include "amdgpu_amdx_kunit.h"
#include "amdx_amdgpu_xlate.h"
#include "amdgpu_amdx_fake.h"

/**
 * struct fake_gfx - a fake device's gfx function table
 * @funcs: the table, the device's &amdgpu_gfx.funcs.
 * @fake: the fake.
 */
struct fake_gfx {
	struct amdgpu_gfx_funcs funcs;
	struct fake_gpu *fake;
};

/**
 * fake_gpu_of() - the fake behind a fake device
 * @adev: a device fake_gpu_create() or fake_gpu_probed() made.
 *
 * Return: its fake, found from the device's gfx function table.
 */
struct fake_gpu *fake_gpu_of(struct amdgpu_device *adev)
{
	return container_of(adev->gfx.funcs, struct fake_gfx, funcs)->fake;
}

/* gfx_v9_4_3_switch_compute_partition(): PSP first, then the count. */
static int fake_gfx_switch(struct amdgpu_device *adev, int num_xccs_per_xcp)
{
	struct fake_gpu *f = fake_gpu_of(adev);
	int ret = 0;

	f->switches++;
	/* The firmware takes its time: until the test lets it go. */
	if (f->switch_entered) {
		complete(f->switch_entered);
		wait_for_completion_timeout(f->switch_go, 30 * HZ);
	}
	if (f->psp_fails) {
		ret = -EIO;
	} else {
		f->xccs_per_xcp = num_xccs_per_xcp;
		adev->gfx.num_xcc_per_xcp = num_xccs_per_xcp;
	}
	f->switch_returned = true;
	return ret;
}

/* gfx_v9_4_3_get_xccs_per_xcp(): the XCP control register. */
static int fake_gfx_xccs_per_xcp(struct amdgpu_device *adev)
{
	return fake_gpu_of(adev)->xccs_per_xcp;
}

static const struct amdgpu_gfx_funcs fake_gfx_funcs = {
	.switch_partition_mode = fake_gfx_switch,
	.get_xccs_per_xcp = fake_gfx_xccs_per_xcp,
};

/* The PCI device id of a fake with @num_xcc XCCs. */
static u16 fake_pci_device_id(u32 num_xcc)
{
	return num_xcc == 6 ? AMDX_AMDGPU_PCI_MI300A :
	       num_xcc == 4 ? AMDX_AMDGPU_PCI_MI308X : AMDX_AMDGPU_PCI_MI300X;
}

/* Whether @adev is a fake rather than amdgpu's own. */
static bool fake_gpu_is(struct amdgpu_device *adev)
{
	return adev->gfx.funcs &&
	       adev->gfx.funcs->switch_partition_mode == fake_gfx_switch;
}

/* The compute mode the hardware runs, as NBIO's status register says. */
static int fake_mode_of(u32 num_xcc, int xccs_per_xcp)
{
	if (xccs_per_xcp == 1 && num_xcc > 1)
		return AMDGPU_CPX_PARTITION_MODE;
	switch (num_xcc / xccs_per_xcp) {
	case 1:
		return AMDGPU_SPX_PARTITION_MODE;
	case 2:
		return AMDGPU_DPX_PARTITION_MODE;
	case 3:
		return AMDGPU_TPX_PARTITION_MODE;
	case 4:
		return AMDGPU_QPX_PARTITION_MODE;
	default:
		return AMDGPU_UNKNOWN_COMPUTE_PARTITION_MODE;
	}
}

static int fake_nbio_compute_mode(struct amdgpu_device *adev)
{
	struct fake_gpu *f = fake_gpu_of(adev);

	return fake_mode_of(f->num_xcc, f->xccs_per_xcp);
}

/* The memory partition mode NBIO's register holds; it names no others. */
static u32 fake_nbio_memory_mode(struct amdgpu_device *adev, u32 *supp_modes)
{
	struct fake_gpu *f = fake_gpu_of(adev);

	if (supp_modes)
		*supp_modes = BIT(f->nps);
	return f->nps;
}

static const struct amdgpu_nbio_funcs fake_nbio_funcs = {
	.get_compute_partition_mode = fake_nbio_compute_mode,
	.get_memory_partition_mode = fake_nbio_memory_mode,
};

static enum amdgpu_memory_partition fake_gmc_nps(struct amdgpu_device *adev)
{
	return fake_gpu_of(adev)->nps;
}

static const struct amdgpu_gmc_funcs fake_gmc_funcs = {
	.query_mem_partition_mode = fake_gmc_nps,
};

/*
 * The gfx block's error query: what the firmware's ACA banks hold, per
 * AID they name, as amdgpu's statistic helpers record it; reading empties
 * the banks.  Injected errors are there once the firmware's latency has
 * passed.
 */
static void fake_gfx_ras_query(struct amdgpu_device *adev, void *status)
{
	struct fake_gpu *f = fake_gpu_of(adev);
	u64 ue[FAKE_MAX_AIDS], ce[FAKE_MAX_AIDS];
	int aid;

	mutex_lock(&f->bank_lock);
	if (time_after_eq(jiffies, f->pend_at)) {
		for (aid = 0; aid < FAKE_MAX_AIDS; aid++) {
			f->bank_ue[aid] += f->pend_ue[aid];
			f->bank_ce[aid] += f->pend_ce[aid];
		}
		memset(f->pend_ue, 0, sizeof(f->pend_ue));
		memset(f->pend_ce, 0, sizeof(f->pend_ce));
	}
	memcpy(ue, f->bank_ue, sizeof(ue));
	memcpy(ce, f->bank_ce, sizeof(ce));
	memset(f->bank_ue, 0, sizeof(f->bank_ue));
	memset(f->bank_ce, 0, sizeof(f->bank_ce));
	mutex_unlock(&f->bank_lock);
	for (aid = 0; aid < FAKE_MAX_AIDS; aid++) {
		struct amdgpu_smuio_mcm_config_info mcm = { .die_id = aid };

		if (ue[aid])
			amdgpu_ras_error_statistic_ue_count(status, &mcm, ue[aid]);
		if (ce[aid])
			amdgpu_ras_error_statistic_ce_count(status, &mcm, ce[aid]);
	}
}

static int fake_aca_push_locked(struct fake_gpu *f, int type,
				const struct aca_bank *bank);

/* An XCD's SMU MCA bank address in an IPID (gfx_v9_4_3.c's mmSMNAID_*). */
#define FAKE_SMN_XCD0_MCA_SMU	0x36430400ULL
#define FAKE_SMN_XCD1_MCA_SMU	0x38430400ULL

/*
 * Under amdgpu's ACA, the firmware logs an injected gfx error as an SMU
 * bank, shaped as MI300X's (the two real banks of amdgpu_amdx_test.c's
 * replay suite): SMU's hardware id and MCA type, the AID in the instance's
 * high bits, the XCD's MCA address (2 XCDs per AID) in the low ones, which
 * gfx_v9_4_3_aca_info's parser reads; a CE's count in MISC0.  At once:
 * the latency knob is the direct query's.
 */
static int fake_gfx_aca_inject(struct fake_gpu *f, int type, u32 aid, u32 xcc)
{
	struct aca_bank b = {};
	u64 status = BIT_ULL(63);			/* Val */
	int ret;

	switch (type) {
	case AMDGPU_RAS_ERROR__SINGLE_CORRECTABLE:
		b.type = ACA_SMU_TYPE_CE;
		status |= BIT_ULL(46);			/* CECC */
		break;
	case AMDGPU_RAS_ERROR__MULTI_UNCORRECTABLE:
		b.type = ACA_SMU_TYPE_UE;
		status |= BIT_ULL(61) | BIT_ULL(57);	/* UC PCC */
		break;
	default:
		return -EINVAL;
	}
	b.regs[ACA_REG_IDX_STATUS] = status;
	b.regs[ACA_REG_IDX_MISC0] = BIT_ULL(63) | (1ULL << 32);
	b.regs[ACA_REG_IDX_IPID] = (1ULL << 48) | ((u64)(aid << 2) << 44) |
				   (1ULL << 32) |
				   (xcc % 2 ? FAKE_SMN_XCD1_MCA_SMU :
					      FAKE_SMN_XCD0_MCA_SMU);
	mutex_lock(&f->bank_lock);
	ret = fake_aca_push_locked(f, b.type, &b);
	mutex_unlock(&f->bank_lock);
	return ret;
}

/*
 * The firmware's gfx error injection (gfx_v9_4_3_ras_error_inject() asks
 * the PSP): one error of the requested type in the bank of the AID of the
 * first XCC in @instance_mask, for the first query after the firmware's
 * latency (@inject_latency_ms from the last injection) to find.
 */
static int fake_gfx_ras_inject(struct amdgpu_device *adev, void *inject_if,
			       u32 instance_mask)
{
	const struct ras_inject_if *info = inject_if;
	struct fake_gpu *f = fake_gpu_of(adev);
	u32 naid = hweight32(adev->aid_mask);
	u32 xcc = instance_mask ? __ffs(instance_mask) : 0;
	u32 aid;

	if (!naid || xcc >= f->num_xcc)
		return -EINVAL;
	aid = xcc / (f->num_xcc / naid);
	if (f->aca)
		return fake_gfx_aca_inject(f, info->head.type, aid, xcc);
	mutex_lock(&f->bank_lock);
	f->pend_at = jiffies + msecs_to_jiffies(f->inject_latency_ms);
	switch (info->head.type) {
	case AMDGPU_RAS_ERROR__SINGLE_CORRECTABLE:
		f->pend_ce[aid]++;
		break;
	case AMDGPU_RAS_ERROR__MULTI_UNCORRECTABLE:
		f->pend_ue[aid]++;
		break;
	default:
		mutex_unlock(&f->bank_lock);
		return -EINVAL;
	}
	mutex_unlock(&f->bank_lock);
	return 0;
}

static const struct amdgpu_ras_block_hw_ops fake_gfx_ras_ops = {
	.ras_error_inject = fake_gfx_ras_inject,
	.query_ras_error_count = fake_gfx_ras_query,
};

/* The SMU's ACA bank queue per type, as smu_v13_0_6 sizes it. */
#define FAKE_ACA_BANKS	12

/**
 * struct fake_aca - the SMU's ACA banks of a fake (smu_v13_0_6's stand-in)
 * @queue: the banks the firmware holds per type (enum aca_smu_type),
 *	until amdgpu reads them.
 * @queued: banks in @queue per type.
 * @read: the banks of amdgpu's read in progress per type: a count query
 *	takes the queue's, the bank reads that follow see them.
 * @nread: banks in @read per type.
 * @ntaken: of them, read so far.  A count query while another query's
 *	banks are still being read (amdgpu's page retirement thread and an
 *	injection's query can run at once, and amdgpu does not serialise
 *	its count and bank reads) finds none: each bank is read once.
 *
 * Reading empties the queue: this firmware keeps no bank across reads
 * (the real one keeps UE banks until a reset, which amdgpu's ACA core
 * then reads once, aca_bank_should_update()).
 */
struct fake_aca {
	struct aca_bank queue[ACA_SMU_TYPE_COUNT][FAKE_ACA_BANKS];
	int queued[ACA_SMU_TYPE_COUNT];
	struct aca_bank read[ACA_SMU_TYPE_COUNT][FAKE_ACA_BANKS];
	int nread[ACA_SMU_TYPE_COUNT];
	int ntaken[ACA_SMU_TYPE_COUNT];
};

/* amdgpu's debug mode switch: the query mode then stays the firmware's. */
static int fake_aca_set_debug_mode(struct amdgpu_device *adev, bool enable)
{
	return 0;
}

static int fake_aca_count(struct amdgpu_device *adev, enum aca_smu_type type,
			  u32 *count)
{
	struct fake_gpu *f = fake_gpu_of(adev);
	struct fake_aca *a = f->aca;

	if (type < 0 || type >= ACA_SMU_TYPE_COUNT)
		return -EINVAL;
	mutex_lock(&f->bank_lock);
	if (a->ntaken[type] < a->nread[type]) {
		*count = 0;	/* another query's banks are being read */
	} else {
		memcpy(a->read[type], a->queue[type],
		       a->queued[type] * sizeof(a->read[type][0]));
		a->nread[type] = a->queued[type];
		a->ntaken[type] = 0;
		a->queued[type] = 0;
		*count = a->nread[type];
	}
	mutex_unlock(&f->bank_lock);
	return 0;
}

static int fake_aca_bank(struct amdgpu_device *adev, enum aca_smu_type type,
			 int idx, struct aca_bank *bank)
{
	struct fake_gpu *f = fake_gpu_of(adev);
	struct fake_aca *a = f->aca;
	int ret = 0;

	if (type < 0 || type >= ACA_SMU_TYPE_COUNT)
		return -EINVAL;
	mutex_lock(&f->bank_lock);
	if (idx < 0 || idx >= a->nread[type]) {
		ret = -EINVAL;
	} else {
		*bank = a->read[type][idx];
		a->ntaken[type] = max(a->ntaken[type], idx + 1);
	}
	mutex_unlock(&f->bank_lock);
	return ret;
}

/* An APU's (or an old firmware's) place of the error code. */
static int fake_aca_error_code(struct amdgpu_device *adev,
			       struct aca_bank *bank)
{
	return ACA_REG__STATUS__ERRORCODE(bank->regs[ACA_REG_IDX_STATUS]) & 0xff;
}

static const struct aca_smu_funcs fake_aca_smu_funcs = {
	.max_ue_bank_count = FAKE_ACA_BANKS,
	.max_ce_bank_count = FAKE_ACA_BANKS,
	.set_debug_mode = fake_aca_set_debug_mode,
	.get_valid_aca_count = fake_aca_count,
	.get_valid_aca_bank = fake_aca_bank,
	.parse_error_code = fake_aca_error_code,
};

/**
 * fake_aca_push() - the firmware logs a bank
 * @f: a fake of fake_gpu_enable_aca().
 * @type: its queue (enum aca_smu_type): UEs, or CEs and deferred errors.
 * @bank: the bank.
 *
 * Return: 0, -EINVAL for a bad @type, -ENOSPC when the queue is full.
 */
int fake_aca_push(struct fake_gpu *f, int type, const struct aca_bank *bank)
{
	int ret;

	mutex_lock(&f->bank_lock);
	ret = fake_aca_push_locked(f, type, bank);
	mutex_unlock(&f->bank_lock);
	return ret;
}

/* MISC0's error count (ACA_REG__MISC0__ERRCNT()): 12 bits at bit 32. */
#define FAKE_MISC0_ERRCNT	GENMASK_ULL(43, 32)

/*
 * fake_aca_push() under &fake_gpu.bank_lock.  A correctable bank of an
 * instance and address already queued counts once more in its MISC0 (as
 * an MCA bank's error counter does, saturating) rather than taking
 * another entry; uncorrectable banks each take one (amdgpu counts one
 * error per UE bank).
 */
static int fake_aca_push_locked(struct fake_gpu *f, int type,
				const struct aca_bank *bank)
{
	struct fake_aca *a = f->aca;
	struct aca_bank *q;
	u64 n;
	int i;

	lockdep_assert_held(&f->bank_lock);
	if (!a || type < 0 || type >= ACA_SMU_TYPE_COUNT)
		return -EINVAL;
	for (i = 0; type == ACA_SMU_TYPE_CE && i < a->queued[type]; i++) {
		q = &a->queue[type][i];
		if (q->regs[ACA_REG_IDX_IPID] != bank->regs[ACA_REG_IDX_IPID] ||
		    q->regs[ACA_REG_IDX_ADDR] != bank->regs[ACA_REG_IDX_ADDR] ||
		    q->regs[ACA_REG_IDX_STATUS] != bank->regs[ACA_REG_IDX_STATUS])
			continue;
		n = FIELD_GET(FAKE_MISC0_ERRCNT, q->regs[ACA_REG_IDX_MISC0]) +
		    FIELD_GET(FAKE_MISC0_ERRCNT, bank->regs[ACA_REG_IDX_MISC0]);
		q->regs[ACA_REG_IDX_MISC0] &= ~FAKE_MISC0_ERRCNT;
		q->regs[ACA_REG_IDX_MISC0] |=
			FIELD_PREP(FAKE_MISC0_ERRCNT,
				   min_t(u64, n, FIELD_MAX(FAKE_MISC0_ERRCNT)));
		return 0;
	}
	if (a->queued[type] >= FAKE_ACA_BANKS)
		return -ENOSPC;
	a->queue[type][a->queued[type]++] = *bank;
	return 0;
}

/**
 * fake_umc_bank() - a UMC v12 bank as MI300's firmware logs it
 * @bank: out.
 * @kind: the error it records.
 * @aid: the AID (socket 0).
 * @umc_inst: the UMC instance on the AID.
 * @ch: the channel on the UMC (0..7).
 * @mca_addr: the channel's (MCA) address of the error.
 *
 * One error (MISC0's count); its IPID names UMC (hardware id 0x96) and
 * the instance as amdgpu's MCA_IPID_2_*() decode it.
 */
void fake_umc_bank(struct aca_bank *bank, enum fake_umc_error kind, u32 aid,
		   u32 umc_inst, u32 ch, u64 mca_addr)
{
	u64 lo = ((u64)umc_inst << 21) | ((u64)(ch / 4) << 20) |
		 ((u64)(ch % 4) << 12);
	u64 status = BIT_ULL(63);		/* Val */

	memset(bank, 0, sizeof(*bank));
	bank->type = kind == FAKE_UMC_UE ? ACA_SMU_TYPE_UE : ACA_SMU_TYPE_CE;
	switch (kind) {
	case FAKE_UMC_CE:
		status |= BIT_ULL(46);		/* CECC */
		break;
	case FAKE_UMC_UE:
		status |= BIT_ULL(61) | BIT_ULL(57) | BIT_ULL(45); /* UC PCC UECC */
		break;
	case FAKE_UMC_DE:
		status |= BIT_ULL(44) | BIT_ULL(43);	/* Deferred Poison */
		break;
	}
	bank->regs[ACA_REG_IDX_STATUS] = status;
	bank->regs[ACA_REG_IDX_ADDR] = mca_addr;
	bank->regs[ACA_REG_IDX_MISC0] = BIT_ULL(63) | (1ULL << 32);
	bank->regs[ACA_REG_IDX_IPID] = ((u64)MCA_UMC_MCATYPE_V12_0 << 48) |
				       ((u64)(aid << 2) << 44) |
				       ((u64)MCA_UMC_HWID_V12_0 << 32) | lo;
}

/**
 * fake_umc_mca_to_pa() - the PSP RAS TA's translation of a UMC address
 * @aid: the AID.
 * @umc_inst: the UMC instance.
 * @ch: the channel.
 * @mca_addr: the channel's address.
 *
 * What the firmware computes from MI300's address map, here a map of its
 * own: below 16 GiB, so that the pages amdgpu derives from it (the row's
 * other columns, R13 flipped at 32 GiB) stay in a fake's VRAM.
 *
 * Return: the physical (SoC) address.
 */
u64 fake_umc_mca_to_pa(u32 aid, u32 umc_inst, u32 ch, u64 mca_addr)
{
	return ((u64)(aid & 3) << 32) | ((u64)(umc_inst & 7) << 28) |
	       ((u64)(ch & 7) << 24) | ((mca_addr & 0xfff) << 12);
}

/**
 * fake_umc_pa_to_mca() - where the firmware places an error at an address
 * @pa: a physical (SoC) address, as amdgpu's UMC injection passes it.
 * @aid: out: the AID.
 * @umc_inst: out: the UMC instance.
 * @ch: out: the channel.
 *
 * The inverse of fake_umc_mca_to_pa() (the same map, the other way): what
 * the firmware of an injection computes (psp_ras_trigger_error()).
 *
 * Return: the channel's (MCA) address.
 */
u64 fake_umc_pa_to_mca(u64 pa, u32 *aid, u32 *umc_inst, u32 *ch)
{
	*aid = (pa >> 32) & 3;
	*umc_inst = (pa >> 28) & 7;
	*ch = (pa >> 24) & 7;
	return (pa >> 12) & 0xfff;
}

/*
 * UMC's poison creation interrupt for a deferred error: through amdgpu's
 * own RAS interrupt dispatch and work to its poison creation handler,
 * which wakes its page retirement thread.  Only a fake that runs amdgpu's
 * retirement (fake_gpu_enable_retirement()); the KUnit suites call what that
 * thread calls themselves.  The handler reads nothing of the IV entry.
 */
static void fake_umc_poison_interrupt(struct fake_gpu *f)
{
	struct amdgpu_iv_entry entry = {};
	struct ras_dispatch_if ih = {
		.head.block = AMDGPU_RAS_BLOCK__UMC,
		.entry = &entry,
	};

	if (f->retirement)
		amdgpu_ras_interrupt_dispatch(f->adev, &ih);
}

/**
 * amdgpu_amdx_fake_psp_trigger_error() - the PSP RAS TA's injection, a fake's
 * @psp: the PSP of the device amdgpu injects into.
 * @info: what amdgpu asks the TA to inject.
 * @instance_mask: the instances (UMC: one, the address decides).
 *
 * Called first by the test-only psp_ras_trigger_error().  For a fake with
 * the firmware's ACA banks (fake_gpu_enable_aca()) a UMC error is logged
 * as a bank of the type asked for, at the channel address the injected
 * address maps to (fake_umc_pa_to_mca()); a deferred error (poison) also
 * raises UMC's poison creation interrupt (fake_umc_poison_interrupt()).
 * gfx errors never come here: the fake's gfx block injects them itself.
 *
 * Return: -ENOEXEC for amdgpu's own devices (the TA's injection); for a
 * fake 0, -EINVAL for what it does not inject (a block other than UMC, no
 * ACA banks, an unknown type), -ENOSPC when the firmware's queue is full.
 */
int amdgpu_amdx_fake_psp_trigger_error(struct psp_context *psp,
				       struct ta_ras_trigger_error_input *info,
				       u32 instance_mask)
{
	struct amdgpu_device *adev = container_of(psp, struct amdgpu_device,
						  psp);
	enum fake_umc_error kind;
	struct fake_gpu *f;
	struct aca_bank b;
	u32 aid, umc, ch;
	u64 mca;
	int ret;

	if (!fake_gpu_is(adev))
		return -ENOEXEC;
	f = fake_gpu_of(adev);
	if (info->block_id != TA_RAS_BLOCK__UMC || !f->aca)
		return -EINVAL;
	switch (info->inject_error_type) {
	case TA_RAS_ERROR__SINGLE_CORRECTABLE:
		kind = FAKE_UMC_CE;
		break;
	case TA_RAS_ERROR__MULTI_UNCORRECTABLE:
		kind = FAKE_UMC_UE;
		break;
	case TA_RAS_ERROR__POISON:
		kind = FAKE_UMC_DE;
		break;
	default:
		return -EINVAL;
	}
	mca = fake_umc_pa_to_mca(info->address - f->umc_pa_base, &aid, &umc,
				 &ch);
	fake_umc_bank(&b, kind, aid, umc, ch, mca);
	ret = fake_aca_push(f, b.type, &b);
	if (!ret && kind == FAKE_UMC_DE)
		fake_umc_poison_interrupt(f);
	return ret;
}

/**
 * amdgpu_amdx_fake_psp_query_address() - the PSP RAS TA's address
 *	translation of a UMC error, a fake's
 * @psp: the PSP of the device.
 * @in: the error's UMC (MCA) address.
 * @out: its physical address (fake_umc_mca_to_pa(), from
 *	&fake_gpu.umc_pa_base).
 *
 * Called first by the test-only psp_ras_query_address().
 *
 * Return: 0 for a fake, -ENOEXEC for amdgpu's own devices.
 */
int amdgpu_amdx_fake_psp_query_address(struct psp_context *psp,
				       struct ta_ras_query_address_input *in,
				       struct ta_ras_query_address_output *out)
{
	struct amdgpu_device *adev = container_of(psp, struct amdgpu_device,
						  psp);

	if (!fake_gpu_is(adev))
		return -ENOEXEC;
	memset(out, 0, sizeof(*out));
	out->pa.pa = fake_gpu_of(adev)->umc_pa_base +
		     fake_umc_mca_to_pa(in->ma.node_inst, in->ma.umc_inst,
					in->ma.ch_inst, in->ma.err_addr);
	out->pa.channel_idx = in->ma.ch_inst;
	return 0;
}

/**
 * amdgpu_amdx_fake_reserve_page() - reserve a retired page, a fake's
 * @adev: the device.
 * @pfn: the page (amdgpu's GPU page frame).
 *
 * Called first by the test-only amdgpu_ras_reserve_page(): a fake has no
 * VRAM manager, it counts the page (&fake_gpu.reserved).
 *
 * Return: 0 for a fake, -ENOEXEC for amdgpu's own devices.
 */
int amdgpu_amdx_fake_reserve_page(struct amdgpu_device *adev, u64 pfn)
{
	struct fake_gpu *f;

	if (!fake_gpu_is(adev))
		return -ENOEXEC;
	f = fake_gpu_of(adev);
	mutex_lock(&f->bank_lock);
	f->reserved++;
	mutex_unlock(&f->bank_lock);
	return 0;
}

/**
 * amdgpu_amdx_fake_kfd_device_init() - the KFD's device init, a fake's
 * @adev: the device.
 *
 * Called first by the test-only amdgpu_amdkfd_device_init(): a fake has
 * none of what kgd2kfd_device_init() sets up (doorbells, GTT, the MQD
 * managers, interrupts).  The KFD device amdgpu_amdkfd_device_probe()
 * made for it (amdgpu's own kgd2kfd_probe()) stays uninitialised, so the
 * KFD's per-device calls return early; amdgpu's side is left as a
 * successful init leaves it: init_complete, and the VRAM counted in the
 * KFD's total, which amdgpu_amdkfd_device_fini_sw() takes back.
 *
 * Return: 0 for a fake, -ENOEXEC for amdgpu's own devices.
 */
int amdgpu_amdx_fake_kfd_device_init(struct amdgpu_device *adev)
{
	if (!fake_gpu_is(adev))
		return -ENOEXEC;
	if (adev->kfd.dev) {
		adev->kfd.init_complete = true;
		amdgpu_amdkfd_total_mem_size += adev->gmc.real_vram_size;
	}
	return 0;
}

/**
 * fake_gpu_enable_kfd() - the KFD up for a fake, as amdgpu's init leaves it
 * @f: a fake of fake_gpu_create(), its provider not yet initialised.
 *
 * amdgpu's own amdgpu_amdkfd_device_probe() (kgd2kfd_probe() of GC 9.4.3,
 * with MI300's SDMA 4.4.2) and amdgpu_amdkfd_device_init(), whose device
 * init is the fake's (amdgpu_amdx_fake_kfd_device_init()).  A partition
 * switch then runs amdgpu's KFD bracket for real: the KFD's process lock
 * (kgd2kfd_check_and_lock_kfd(), its global process table), teardown and
 * probe.  Not with amdgpu's page retirement (``aca=1``): UMC's poison
 * handling would reach the nodes of the KFD device
 * (kgd2kfd_set_sram_ecc_flag()), which the fake never initialises.
 *
 * Return: 0, -ENODEV when the KFD did not probe the device (amdgpu's KFD
 * is not initialised: no CONFIG_HSA_AMD, or its init failed).
 */
static int fake_gpu_enable_kfd(struct fake_gpu *f)
{
	struct amdgpu_device *adev = f->adev;

	adev->ip_versions[SDMA0_HWIP][0] = IP_VERSION(4, 4, 2);
	amdgpu_amdkfd_device_probe(adev);
	if (!adev->kfd.dev)
		return -ENODEV;
	amdgpu_amdkfd_device_init(adev);
	f->kfd = true;
	return 0;
}

/*
 * amdgpu's "ras" group on the fake's device, made by amdgpu's own
 * amdgpu_ras_fs_init() over the fake's RAS context, as amdgpu_ras_init()
 * makes it before the ACA's files go in: features, version, schema,
 * event_state and gpu_vram_bad_pages.  The bad-page file's reader asks
 * the VRAM manager whether each page is reserved: the fake's has the lock
 * and the (empty) lists amdgpu_vram_mgr_init() sets up, so that its pages
 * read "F" (the fake reserves them itself, amdgpu_amdx_fake_reserve_page()).
 * Once for a fake: fake_gpu_enable_aca() and fake_gpu_enable_sysfs() both
 * want it.
 */
static void fake_ras_fs_init(struct fake_gpu *f)
{
	struct amdgpu_vram_mgr *mgr = &f->adev->mman.vram_mgr;

	if (f->ras_fs)
		return;
	mutex_init(&mgr->lock);
	INIT_LIST_HEAD(&mgr->reservations_pending);
	INIT_LIST_HEAD(&mgr->reserved_pages);
	/* 0 even when the group was not made: amdgpu logs it and goes on */
	amdgpu_ras_fs_init(f->adev);
	f->ras_fs = true;
}

/*
 * The group removed by amdgpu's own amdgpu_ras_fs_fini(), as
 * amdgpu_ras_fini() removes it: after the blocks' files, before the ACA's
 * fini.  It drops a reference to the manager of each block on the
 * context's list, the one amdgpu_ras_debugfs_create() takes for the block's
 * debugfs file; a fake has no DRM minor for amdgpu's RAS debugfs files, so
 * the fake takes it here, and its managers stay as it made them.
 */
static void fake_ras_fs_fini(struct fake_gpu *f)
{
	struct ras_manager *obj, *ip;

	if (!f->ras_fs)
		return;
	list_for_each_entry(obj, &f->ras->head, node) {
		ip = amdgpu_ras_find_obj(f->adev, &obj->head);
		if (ip)
			ip->use++;
	}
	amdgpu_ras_fs_fini(f->adev);
	mutex_destroy(&f->adev->mman.vram_mgr.lock);
	f->ras_fs = false;
}

/**
 * fake_gpu_enable_aca() - amdgpu's ACA on, UMC v12 behind it
 * @f: a fake of fake_gpu_create(), its provider not yet initialised.
 *
 * As amdgpu sets up an MI300X: the SMU's ACA functions (the fake's bank
 * queue, fake_aca_push()), so that amdgpu's RAS queries are the
 * firmware's (AMDGPU_RAS_FIRMWARE_ERROR_QUERY); UMC 12 with gmc_v9_0's
 * values, in poison mode, bound to the ACA with amdgpu's own UMC v12
 * bank parser (umc_v12_0_aca_info), its ECC log and page retirement
 * lock as amdgpu_ras_recovery_init() leaves them.  gfx is bound to the
 * ACA with amdgpu's own gfx_v9_4_3_aca_info, as gfx_v9_4_3_late_init()
 * binds it: its errors are the SMU banks the firmware logs
 * (fake_aca_push()), and the fake's direct gfx query is used no longer.
 * UMC's RAS block object is registered too (amdgpu_umc_ras_sw_init()'s),
 * so that amdgpu's UMC injection reaches the PSP's trigger.  The ACA adds
 * a file per block to amdgpu's "ras" group, made first
 * (fake_ras_fs_init()).
 *
 * Return: 0 or -errno.
 */
int fake_gpu_enable_aca(struct fake_gpu *f)
{
	struct amdgpu_device *adev = f->adev;
	struct amdgpu_ras *con = f->ras;
	struct ras_manager *umc = &con->objs[AMDGPU_RAS_BLOCK__UMC];
	int ret;

	f->aca = kzalloc(sizeof(*f->aca), GFP_KERNEL);
	if (!f->aca)
		return -ENOMEM;
	mutex_init(&con->umc_ecc_log.lock);
	INIT_RADIX_TREE(&con->umc_ecc_log.de_page_tree, GFP_KERNEL);
	mutex_init(&con->page_retirement_lock);
	ret = amdgpu_aca_init(adev);
	if (ret)
		return ret;
	con->poison_supported = true;
	/* IP discovery's count: four UMCs per AID. */
	adev->gmc.num_umc = hweight32(adev->aid_mask) *
			    UMC_V12_0_UMC_INSTANCE_NUM;
	adev->umc.node_inst_num = hweight32(adev->aid_mask);
	adev->umc.umc_inst_num = UMC_V12_0_UMC_INSTANCE_NUM;
	adev->umc.channel_inst_num = UMC_V12_0_CHANNEL_INSTANCE_NUM;
	adev->umc.max_ras_err_cnt_per_query =
		UMC_V12_0_TOTAL_CHANNEL_NUM(adev) *
		UMC_V12_0_BAD_PAGE_NUM_PER_CHANNEL;
	adev->umc.retire_unit = UMC_V12_0_BAD_PAGE_NUM_PER_CHANNEL;
	adev->umc.ras = &umc_v12_0_ras;
	umc->head.block = AMDGPU_RAS_BLOCK__UMC;
	umc->adev = adev;
	ret = amdgpu_ras_error_data_init(&umc->err_data);
	if (ret)
		return ret;
	umc->use = 1;
	list_add(&umc->node, &con->head);
	fake_ras_fs_init(f);
	adev->aca.is_enabled = true;
	amdgpu_aca_set_smu_funcs(adev, &fake_aca_smu_funcs);
	ret = amdgpu_ras_bind_aca(adev, AMDGPU_RAS_BLOCK__GFX,
				  &gfx_v9_4_3_aca_info, NULL);
	if (ret)
		return ret;
	ret = amdgpu_ras_bind_aca(adev, AMDGPU_RAS_BLOCK__UMC,
				  &umc_v12_0_aca_info, NULL);
	if (ret)
		return ret;
	/*
	 * UMC's RAS block object, as amdgpu_umc_ras_sw_init() registers it:
	 * amdgpu_ras_error_inject() looks it up before the PSP's trigger.
	 */
	return amdgpu_ras_register_ras_block(adev, &umc_v12_0_ras.ras_block);
}

/*
 * amdgpu's page retirement of fake_gpu_enable_retirement() stopped, as
 * amdgpu_ras_recovery_fini() and amdgpu_ras_interrupt_remove_handler()
 * stop it at amdgpu's removal: no interrupt, the thread, then the work it
 * may have queued; the bad-page data amdgpu's init allocated freed.
 */
static void fake_retirement_stop(struct fake_gpu *f)
{
	struct amdgpu_ras *con = f->ras;

	if (!f->retirement)
		return;
	amdgpu_ras_interrupt_remove_handler(f->adev,
					    &umc_v12_0_ras.ras_block.ras_comm);
	kthread_stop(con->page_retirement_thread);
	con->page_retirement_thread = NULL;
	cancel_delayed_work_sync(&con->page_retirement_dwork);
	cancel_work_sync(&con->recovery_work);
	if (con->eh_data != f->eh_data) {
		kfree(con->eh_data->bps);
		kfree(con->eh_data);
		con->eh_data = f->eh_data;
	}
	f->retirement = false;
}

/* What fake_gpu_enable_aca() set up, ACA handles and logged errors. */
static void fake_aca_fini(struct fake_gpu *f)
{
	struct amdgpu_device *adev = f->adev;
	struct ras_ecc_log_info *log = &f->ras->umc_ecc_log;
	struct radix_tree_iter iter;
	struct ras_ecc_err *e;
	void __rcu **slot;

	fake_ras_fs_fini(f);
	amdgpu_aca_fini(adev);
	mutex_lock(&log->lock);
	rcu_read_lock();
	radix_tree_for_each_slot(slot, &log->de_page_tree, &iter, 0) {
		e = radix_tree_deref_slot(slot);
		radix_tree_iter_delete(&log->de_page_tree, &iter, slot);
		kfree(e->err_pages.pfn);
		kfree(e);
	}
	rcu_read_unlock();
	mutex_unlock(&log->lock);
	mutex_destroy(&log->lock);
	mutex_destroy(&f->ras->page_retirement_lock);
	if (f->ras->objs[AMDGPU_RAS_BLOCK__UMC].use)
		amdgpu_ras_error_data_fini(&f->ras->objs[AMDGPU_RAS_BLOCK__UMC].err_data);
	kfree(f->aca);
	f->aca = NULL;
}

/*
 * What amdgpu's re-init after a reset runs of UMC (&fake_gpu.recover_late_init):
 * amdgpu_device_reinit_after_reset() calls amdgpu_device_ip_late_init(),
 * whose amdgpu_ras_late_init() runs each RAS block's ras_late_init, UMC 12's
 * umc_v12_0_ras_late_init() among them, with the reset domain locked and
 * in reset (amdgpu_in_reset()).  Only UMC's: the fake's gfx block would
 * ask the PSP.  amdgpu's recovery takes the domain's lock after its
 * hardware part is called here (amdgpu_device_gpu_recover_hw()), so the
 * fake takes it itself around the call, as the recovery holds it then.
 */
static int fake_recover_late_init(struct fake_gpu *f)
{
	struct amdgpu_ras_block_object *umc = &umc_v12_0_ras.ras_block;
	struct amdgpu_reset_domain *domain = f->adev->reset_domain;
	int ret;

	amdgpu_device_lock_reset_domain(domain);
	ret = umc->ras_late_init(f->adev, &umc->ras_comm);
	amdgpu_device_unlock_reset_domain(domain);
	f->late_inits++;
	f->late_init_ret = ret;
	return ret;
}

/**
 * amdgpu_amdx_fake_recover_hw() - the hardware part of a fake's recovery
 * @adev: the device amdgpu_device_gpu_recover() recovers.
 * @ctx: its reset context.
 *
 * Called by the test-only amdgpu_device_gpu_recover_hw(): for a fake
 * device the reset is counted and ends with the fake's result (the
 * recovery then goes on as amdgpu's does after its reset); a real device
 * gets -ENOEXEC, amdgpu's own reset.  With &fake_gpu.recover_late_init
 * the reset's re-init runs UMC's ras_late_init (fake_recover_late_init()),
 * whose failure fails the recovery, as it fails amdgpu's re-init.
 *
 * Return: the fake's result, or -ENOEXEC.
 */
int amdgpu_amdx_fake_recover_hw(struct amdgpu_device *adev,
				const struct amdgpu_reset_context *ctx)
{
	struct fake_gpu *f;
	int ret;

	if (!fake_gpu_is(adev))
		return -ENOEXEC;
	f = fake_gpu_of(adev);
	f->recoveries++;
	f->recovery_flags = ctx->flags;
	if (f->recover_rma)
		f->ras->is_rma = true;
	if (f->recover_late_init) {
		ret = fake_recover_late_init(f);
		if (ret)
			return ret;
	}
	return f->recover_ret;
}

/**
 * fake_xccs_per_xcp() - XCCs per partition of a mode
 * @num_xcc: the device's XCCs.
 * @mode: an amdgpu compute mode.
 *
 * Return: the count, as aqua_vanjaram computes it.
 */
int fake_xccs_per_xcp(u32 num_xcc, int mode)
{
	switch (mode) {
	case AMDGPU_SPX_PARTITION_MODE:
		return num_xcc;
	case AMDGPU_DPX_PARTITION_MODE:
		return num_xcc / 2;
	case AMDGPU_TPX_PARTITION_MODE:
		return num_xcc / 3;
	case AMDGPU_QPX_PARTITION_MODE:
		return num_xcc / 4;
	default:
		return 1;
	}
}

/*
 * The entries amdgpu_ras_register_ras_block() allocated (amdgpu_ras_fini()
 * frees them; their list head is their first member).
 */
static void fake_free_ras_list(struct amdgpu_device *adev)
{
	struct list_head *pos, *n;

	list_for_each_safe(pos, n, &adev->ras_list) {
		list_del(pos);
		kfree(pos);
	}
}

/*
 * amdgpu's reset method for the fake: what soc15_asic_reset_method()
 * picks for MP1 13.0.6 with amdgpu.reset_method and amdgpu.gpu_recovery
 * at their defaults, mode 2 for an APU and mode 1 otherwise (the fake sets
 * no MP1 version: amdgpu's EEPROM code would then expect an I2C bus).
 */
static enum amd_reset_method fake_reset_method(struct amdgpu_device *adev)
{
	return adev->flags & AMD_IS_APU ? AMD_RESET_METHOD_MODE2 :
	       AMD_RESET_METHOD_MODE1;
}

static const struct amdgpu_asic_funcs fake_asic_funcs = {
	.reset_method = fake_reset_method,
};

/*
 * The fake PCI hierarchy: a root bus (0), and per switch S (1 ..
 * FAKE_MAX_SWITCH) a root port 00:S.1, the link below it (bus S * 0x10)
 * with the switch's upstream port on it (device 0, a Broadcom PEX89000),
 * and the switch's internal bus (S * 0x10 + 1), where each fake placed
 * below the switch gets a downstream port of its own.  Never registered
 * with the PCI core: only pci_upstream_bridge() and pci_pcie_type() walk
 * it, as the provider reads a real one.
 */
struct fake_pci_switch {
	struct pci_dev rp;
	struct pci_bus link;
	struct pci_dev us;
	struct pci_bus internal;
	bool ready;
};

/**
 * struct fake_pci_path - a fake's own ports and buses
 * @port: its downstream port of a switch, or its root port.
 * @below: the bus below @port.
 * @ius: the upstream port of the GPU's own switch.
 * @ibus: that switch's internal bus.
 * @ids: its downstream port.
 * @gpu: the bus below @ids, the GPU's with its own switch.
 */
struct fake_pci_path {
	struct pci_dev port;
	struct pci_bus below;
	struct pci_dev ius;
	struct pci_bus ibus;
	struct pci_dev ids;
	struct pci_bus gpu;
};

#define FAKE_VENDOR_BROADCOM	0x1000
#define FAKE_DEVICE_PEX89000	0xc030

#ifdef CONFIG_X86
/* pci_domain_nr() reads the bus's sysdata: domain 0. */
static struct pci_sysdata fake_sysdata;
#define FAKE_SYSDATA	(&fake_sysdata)
#else
#define FAKE_SYSDATA	NULL
#endif
static struct pci_bus fake_root_bus = { .sysdata = FAKE_SYSDATA };
static struct fake_pci_switch fake_switches[FAKE_MAX_SWITCH];
static DEFINE_MUTEX(fake_pci_lock);	/* fake_switches' set-up */

static void fake_pci_bus(struct pci_bus *bus, struct pci_bus *parent,
			 struct pci_dev *self, u8 number)
{
	bus->parent = parent;
	bus->self = self;
	bus->number = number;
	bus->sysdata = FAKE_SYSDATA;
}

static void fake_pci_port(struct pci_dev *port, struct pci_bus *bus,
			  unsigned int devfn, u16 vendor, int type)
{
	port->bus = bus;
	port->devfn = devfn;
	port->vendor = vendor;
	port->pcie_cap = 0x40;
	port->pcie_flags_reg = type << 4;
}

/* Switch @sw (1 .. FAKE_MAX_SWITCH), set up at its first use. */
static struct fake_pci_switch *fake_pci_switch(u32 sw)
{
	struct fake_pci_switch *s = &fake_switches[sw - 1];

	mutex_lock(&fake_pci_lock);
	if (!s->ready) {
		fake_pci_port(&s->rp, &fake_root_bus, PCI_DEVFN(sw, 1),
			      PCI_VENDOR_ID_AMD, PCI_EXP_TYPE_ROOT_PORT);
		fake_pci_bus(&s->link, &fake_root_bus, &s->rp, sw * 0x10);
		fake_pci_port(&s->us, &s->link, 0, FAKE_VENDOR_BROADCOM,
			      PCI_EXP_TYPE_UPSTREAM);
		s->us.device = FAKE_DEVICE_PEX89000;
		fake_pci_bus(&s->internal, &s->link, &s->us, sw * 0x10 + 1);
		s->ready = true;
	}
	mutex_unlock(&fake_pci_lock);
	return s;
}

/**
 * fake_switch_id() - the id a provider reading the PCI topology should
 *	give fake switch @sw
 * @sw: 1 .. FAKE_MAX_SWITCH.
 *
 * Return: domain 0, its upstream port's bus and devfn.
 */
u32 fake_switch_id(u32 sw)
{
	return PCI_DEVID(sw * 0x10, 0);
}

/**
 * fake_gpu_place() - put a fake below a PCIe switch or a root port
 * @f: a fake of fake_gpu_create(), not yet registered with amdx.
 * @sw: the switch (1 .. FAKE_MAX_SWITCH; fakes may share one), or 0 for a
 *	root port of its own.
 * @own_switch: the GPU sits below a switch of its own (AMD's upstream and
 *	downstream port, as some dGPUs integrate) below that.
 *
 * Return: 0, -EINVAL for a switch out of range, -ENOMEM.
 */
int fake_gpu_place(struct fake_gpu *f, u32 sw, bool own_switch)
{
	struct fake_pci_path *p;
	struct pci_bus *top;

	if (sw > FAKE_MAX_SWITCH || f->pci)
		return -EINVAL;
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	if (sw) {
		struct fake_pci_switch *s = fake_pci_switch(sw);

		fake_pci_port(&p->port, &s->internal, PCI_DEVFN(0, 0),
			      FAKE_VENDOR_BROADCOM, PCI_EXP_TYPE_DOWNSTREAM);
		fake_pci_bus(&p->below, &s->internal, &p->port, sw * 0x10 + 2);
	} else {
		fake_pci_port(&p->port, &fake_root_bus, PCI_DEVFN(0x1f, 1),
			      PCI_VENDOR_ID_AMD, PCI_EXP_TYPE_ROOT_PORT);
		fake_pci_bus(&p->below, &fake_root_bus, &p->port, 0xf0);
	}
	top = &p->below;
	if (own_switch) {
		fake_pci_port(&p->ius, top, 0, PCI_VENDOR_ID_ATI,
			      PCI_EXP_TYPE_UPSTREAM);
		fake_pci_bus(&p->ibus, top, &p->ius, top->number + 1);
		fake_pci_port(&p->ids, &p->ibus, 0, PCI_VENDOR_ID_ATI,
			      PCI_EXP_TYPE_DOWNSTREAM);
		fake_pci_bus(&p->gpu, &p->ibus, &p->ids, top->number + 2);
		top = &p->gpu;
	}
	f->pci = p;
	f->adev->pdev->bus = top;
	return 0;
}

/*
 * The FRU EEPROM of a fake with amdgpu's sysfs files: read-only, at the
 * I2C address amdgpu reads MI300's FRU from (FRU_EEPROM_MADDR_8 of
 * amdgpu_fru_eeprom.c: I2C device 0x58, amdgpu_eeprom.c's MAKE_I2C_ADDR()),
 * holding an IPMI common header and a product info area.
 */
#define FAKE_FRU_MADDR		0x80000
#define FAKE_FRU_BYTES		128

/**
 * struct fake_sysfs - what fake_gpu_enable_sysfs() set up
 * @adap: the FRU EEPROM's I2C adapter.
 * @adap_added: @adap is registered.
 * @rom: the FRU EEPROM's bytes from %FAKE_FRU_MADDR.
 * @files: amdgpu's partition and FRU files may be there.
 * @gfx_file: amdgpu made ras/gfx_err_count (a fake without ``aca=1``).
 */
struct fake_sysfs {
	struct i2c_adapter adap;
	bool adap_added;
	u8 rom[FAKE_FRU_BYTES];
	bool files;
	bool gfx_file;
};

static int fake_fru_xfer(struct i2c_adapter *adap, struct i2c_msg *msgs,
			 int num)
{
	struct fake_sysfs *s = container_of(adap, struct fake_sysfs, adap);
	u32 off;

	if (num != 2 || msgs[0].len != 2 || msgs[0].flags & I2C_M_RD ||
	    !(msgs[1].flags & I2C_M_RD) ||
	    msgs[0].addr != (0x50 | FAKE_FRU_MADDR >> 16) ||
	    msgs[1].addr != msgs[0].addr)
		return -EIO;
	off = msgs[0].buf[0] << 8 | msgs[0].buf[1];
	if (off + msgs[1].len > FAKE_FRU_BYTES)
		return -EIO;
	memcpy(msgs[1].buf, s->rom + off, msgs[1].len);
	return num;
}

static u32 fake_fru_func(struct i2c_adapter *adap)
{
	return I2C_FUNC_I2C;
}

static const struct i2c_algorithm fake_fru_algo = {
	.master_xfer = fake_fru_xfer,
	.functionality = fake_fru_func,
};

/* One type/length byte (ASCII, the length in the low 6 bits), the bytes. */
static u32 fake_fru_field(u8 *p, const char *v)
{
	u32 len = strlen(v);

	p[0] = 0xc0 | len;
	memcpy(p + 1, v, len);
	return 1 + len;
}

/* The zero-sum checksum of an IPMI area, in its last byte. */
static void fake_fru_csum(u8 *area, u32 len)
{
	u8 sum = 0;
	u32 i;

	for (i = 0; i < len - 1; i++)
		sum += area[i];
	area[len - 1] = -sum;
}

/*
 * The board's FRU data: a common header naming the product info area at
 * 8, the area's manufacturer, product name, part number, version, serial
 * number, asset tag and FRU file id, as amdgpu_fru_get_product_info()
 * walks them; a serial number of the fake's own.
 */
static void fake_fru_rom(struct fake_gpu *f, u8 *rom)
{
	u8 *pia = rom + 8;
	char serial[16];
	u32 n = 3, len;

	rom[0] = 1;		/* format version */
	rom[4] = 1;		/* the product info area, in 8 bytes */
	fake_fru_csum(rom, 8);
	snprintf(serial, sizeof(serial), "692%09u",
		 (u32)f->adev->unique_id % 1000000000);
	pia[0] = 1;		/* format version; [2]: language 0 */
	n += fake_fru_field(pia + n, "AMD");
	n += fake_fru_field(pia + n, f->num_xcc == 4 ? "AMD Instinct MI308X" :
						       "AMD Instinct MI300X");
	n += fake_fru_field(pia + n, "102-G30211-0C");
	n += fake_fru_field(pia + n, "");
	n += fake_fru_field(pia + n, serial);
	n += fake_fru_field(pia + n, "");
	n += fake_fru_field(pia + n, "FRU-amdx-fake");
	pia[n++] = 0xc1;	/* no more fields */
	len = ALIGN(n + 1, 8);
	pia[1] = len / 8;
	fake_fru_csum(pia, len);
}

/*
 * amdgpu's FRU code finds MI300's FRU EEPROM by MP1 13.0.6; the fake
 * leaves MP1 unset otherwise (fake_reset_method()), so it is set only
 * while that code runs.
 */
static u32 fake_fru_mp1(struct amdgpu_device *adev, u32 version)
{
	u32 old = adev->ip_versions[MP1_HWIP][0];

	adev->ip_versions[MP1_HWIP][0] = version;
	return old;
}

/* What fake_gpu_enable_sysfs() made, removed as amdgpu's fini functions do. */
static void fake_sysfs_fini(struct fake_gpu *f)
{
	struct amdgpu_device *adev = f->adev;
	struct fake_sysfs *s = f->sysfs;
	u32 mp1;

	if (!s)
		return;
	amdgpu_ras_set_error_query_ready(adev, false);
	/* amdgpu_ras_fini()'s order: the blocks' files, then the group */
	if (s->gfx_file)
		amdgpu_ras_sysfs_remove(adev, &f->gfx_ras->ras_comm);
	fake_ras_fs_fini(f);
	if (s->files) {
		amdgpu_gmc_sysfs_fini(adev);
		amdgpu_gfx_sysfs_fini(adev);
		mp1 = fake_fru_mp1(adev, IP_VERSION(13, 0, 6));
		amdgpu_fru_sysfs_fini(adev);
		fake_fru_mp1(adev, mp1);
	}
	/* amdgpu_device_fini_sw()'s */
	kfree(adev->fru_info);
	adev->fru_info = NULL;
	if (s->adap_added)
		i2c_del_adapter(&s->adap);
	kfree(s);
	f->sysfs = NULL;
}

/**
 * fake_gpu_enable_sysfs() - amdgpu's sysfs files on a fake, by amdgpu's code
 * @f: a fake of fake_gpu_create(), its provider not yet initialised (and
 *	fake_gpu_enable_aca() done if wanted).
 *
 * On the fake's device (/sys/devices/NAME), as amdgpu's init makes them on
 * a PCI function's: the FRU's product_name, serial_number and the rest
 * (amdgpu_fru_sysfs_init()) from what amdgpu_fru_get_product_info() read
 * of the fake's FRU EEPROM (not for an MI300A: amdgpu reads no FRU of an
 * APU); current_compute_partition and available_compute_partition
 * (amdgpu_gfx_sysfs_init()); current_memory_partition
 * (amdgpu_gmc_sysfs_init()); amdgpu's "ras" group (amdgpu_ras_fs_init(),
 * fake_ras_fs_init()): gpu_vram_bad_pages, features, version, schema and
 * event_state, and in it gfx_err_count (amdgpu_ras_sysfs_create()), or
 * with ``aca=1`` the files amdgpu's ACA made there.  Their values are
 * amdgpu's show functions' over the fake's state, gpu_vram_bad_pages the
 * pages of amdgpu's bad-page table (&amdgpu_ras.eh_data) that amdgpu's
 * retirement filled.  The query of the RAS counter files is on, as
 * amdgpu's late init leaves it.  fake_gpu_destroy() removes them with
 * amdgpu's fini functions.  The user-visible fakes' ``sysfs=1``, for
 * ``amdx doctor`` (tools/testing/vm/amdgpu-doctor.sh).
 *
 * Return: 0 or -errno.
 */
int fake_gpu_enable_sysfs(struct fake_gpu *f)
{
	struct amdgpu_device *adev = f->adev;
	struct fake_sysfs *s;
	int ret;
	u32 mp1;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	f->sysfs = s;
	fake_fru_rom(f, s->rom);
	s->adap.owner = THIS_MODULE;
	s->adap.algo = &fake_fru_algo;
	s->adap.dev.parent = adev->dev;
	strscpy(s->adap.name, "amdx fake FRU EEPROM", sizeof(s->adap.name));
	ret = i2c_add_adapter(&s->adap);
	if (ret)
		return ret;
	s->adap_added = true;
	adev->pm.fru_eeprom_i2c_bus = &s->adap;
	s->files = true;
	mp1 = fake_fru_mp1(adev, IP_VERSION(13, 0, 6));
	ret = amdgpu_fru_get_product_info(adev);
	if (!ret)
		ret = amdgpu_fru_sysfs_init(adev);
	fake_fru_mp1(adev, mp1);
	if (!ret)
		ret = amdgpu_gfx_sysfs_init(adev);
	if (!ret)
		ret = amdgpu_gmc_sysfs_init(adev);
	if (ret)
		goto out;
	/* made already with aca=1, the ACA's files in it */
	fake_ras_fs_init(f);
	if (f->aca)
		goto out;
	strscpy(f->gfx_ras->ras_comm.name, "gfx",
		sizeof(f->gfx_ras->ras_comm.name));
	ret = amdgpu_ras_sysfs_create(adev, &f->gfx_ras->ras_comm);
	s->gfx_file = !ret;
out:
	if (!ret)
		amdgpu_ras_set_error_query_ready(adev, true);
	return ret;
}

/*
 * What a fake's hardware and firmware stand-ins hold, freed as amdgpu's IP
 * blocks' fini functions free theirs; the RAS context goes with them.
 */
static void fake_gpu_teardown(struct fake_gpu *f)
{
	struct amdgpu_device *adev = f->adev;

	fake_sysfs_fini(f);
	if (f->kfd)
		amdgpu_amdkfd_device_fini_sw(adev);
	fake_free_ras_list(adev);
	if (f->ras) {
		fake_retirement_stop(f);
		if (f->aca)
			fake_aca_fini(f);
		if (f->ras->objs) {
			amdgpu_ras_error_data_fini(&f->ras->objs[AMDGPU_RAS_BLOCK__GFX].err_data);
			kfree(f->ras->objs);
		}
		if (f->eh_data)
			kfree(f->eh_data->bps);
		kfree(f->eh_data);
		mutex_destroy(&f->ras->page_rsv_lock);
		mutex_destroy(&f->ras->recovery_lock);
		kfree(f->ras);
		adev->psp.ras_context.ras = NULL;
	}
	kfree(f->pci);
	kfree(f->gfx_ras);
	if (f->gfx)
		adev->gfx.funcs = NULL;
	kfree(f->gfx);
	mutex_destroy(&f->bank_lock);
}

/**
 * fake_gpu_destroy() - free a fake device
 * @f: a fake of fake_gpu_create(), or NULL; its provider data freed.
 */
void fake_gpu_destroy(struct fake_gpu *f)
{
	struct amdgpu_device *adev;

	if (!f)
		return;
	adev = f->adev;
	fake_gpu_teardown(f);
	if (adev->xcp_mgr) {
		mutex_destroy(&adev->xcp_mgr->xcp_lock);
		kfree(adev->xcp_mgr);
	}
	if (adev->reset_domain)
		amdgpu_reset_put_reset_domain(adev->reset_domain);
	if (adev->dev) {
		pm_runtime_disable(adev->dev);
		root_device_unregister(adev->dev);
	}
	if (adev->pdev) {
		kfree_const(adev->pdev->dev.kobj.name);
		kfree(adev->pdev);
	}
	kvfree(adev);
	kfree(f);
}

/* A fake of @adev, with what fake_gpu_teardown() reads set up. */
static struct fake_gpu *fake_gpu_alloc(struct amdgpu_device *adev)
{
	struct fake_gpu *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return NULL;
	f->adev = adev;
	mutex_init(&f->bank_lock);
	INIT_LIST_HEAD(&f->node);
	INIT_LIST_HEAD(&adev->ras_list);
	return f;
}

/*
 * What amdgpu's device init leaves in @f's device (its dev and pdev set):
 * see fake_gpu_create().  With @probed, the partition manager is amdgpu's
 * own amdgpu_xcp_mgr_init()'s, with its partitions' DRM devices.
 */
static int fake_gpu_build(struct fake_gpu *f, u32 num_xcc, int nps, int mode,
			  u64 vram_size, bool probed)
{
	static atomic64_t serial = ATOMIC64_INIT(0xa3d0000);
	struct amdgpu_device *adev = f->adev;
	struct amdgpu_xcp_mgr *mgr;
	struct ras_manager *gfx;
	int ret;

	f->num_xcc = num_xcc;
	f->nps = nps;
	f->pend_at = jiffies;
	f->xccs_per_xcp = fake_xccs_per_xcp(num_xcc, mode);
	if (num_xcc == 6)
		adev->flags |= AMD_IS_APU;
	adev->unique_id = atomic64_inc_return(&serial);
	adev->ip_versions[GC_HWIP][0] = IP_VERSION(9, 4, 3);
	adev->asic_funcs = &fake_asic_funcs;
	adev->gfx.xcc_mask = GENMASK(num_xcc - 1, 0);
	adev->gfx.num_xcc_per_xcp = f->xccs_per_xcp;
	f->gfx = kzalloc(sizeof(*f->gfx), GFP_KERNEL);
	if (!f->gfx)
		return -ENOMEM;
	f->gfx->funcs = fake_gfx_funcs;
	f->gfx->fake = f;
	adev->gfx.funcs = &f->gfx->funcs;
	adev->nbio.funcs = &fake_nbio_funcs;
	adev->gmc.gmc_funcs = &fake_gmc_funcs;
	adev->gmc.num_mem_partitions = nps;
	adev->gmc.real_vram_size = vram_size;
	adev->sdma.num_instances = 2 * num_xcc;
	adev->vcn.num_vcn_inst = num_xcc / 2;

	/* amdgpu's RAS context: gfx and umc on, an empty EEPROM. */
	f->ras = kzalloc(sizeof(*f->ras), GFP_KERNEL);
	if (!f->ras)
		return -ENOMEM;
	f->ras->adev = adev;
	adev->psp.ras_context.ras = f->ras;
	mutex_init(&f->ras->recovery_lock);
	mutex_init(&f->ras->page_rsv_lock);
	/* What amdgpu_ras_recovery_init() sets up for poison messages. */
	INIT_KFIFO(f->ras->poison_fifo);
	init_waitqueue_head(&f->ras->page_retirement_wq);
	/* amdgpu's recovery init may replace it: this one is the fake's. */
	f->eh_data = kzalloc(sizeof(*f->eh_data), GFP_KERNEL);
	if (!f->eh_data)
		return -ENOMEM;
	f->ras->eh_data = f->eh_data;
	f->ras->objs = kcalloc(AMDGPU_RAS_BLOCK_COUNT +
			       AMDGPU_RAS_MCA_BLOCK_COUNT,
			       sizeof(*f->ras->objs), GFP_KERNEL);
	if (!f->ras->objs)
		return -ENOMEM;
	adev->ras_enabled = BIT(AMDGPU_RAS_BLOCK__GFX) |
			    BIT(AMDGPU_RAS_BLOCK__UMC);
	/* amdgpu_ras_create_obj()'s: the managers in use on the context's list */
	INIT_LIST_HEAD(&f->ras->head);
	gfx = &f->ras->objs[AMDGPU_RAS_BLOCK__GFX];
	gfx->head.block = AMDGPU_RAS_BLOCK__GFX;
	gfx->adev = adev;
	gfx->use = 1;
	list_add(&gfx->node, &f->ras->head);
	ret = amdgpu_ras_error_data_init(&gfx->err_data);
	if (ret)
		return ret;
	f->gfx_ras = kzalloc(sizeof(*f->gfx_ras), GFP_KERNEL);
	if (!f->gfx_ras)
		return -ENOMEM;
	f->gfx_ras->ras_comm.block = AMDGPU_RAS_BLOCK__GFX;
	f->gfx_ras->hw_ops = &fake_gfx_ras_ops;
	ret = amdgpu_ras_register_ras_block(adev, f->gfx_ras);
	if (ret)
		return ret;
	/* Two XCCs per AID: four AIDs on an MI300X. */
	adev->aid_mask = GENMASK(num_xcc / 2 - 1, 0);

	adev->reset_domain = amdgpu_reset_create_reset_domain(SINGLE_DEVICE,
							      "amdx-fake");
	if (!adev->reset_domain)
		return -ENOMEM;

	if (probed)
		return amdgpu_xcp_mgr_init(adev, mode,
					   num_xcc / f->xccs_per_xcp,
					   &aqua_vanjaram_xcp_funcs);
	/* What amdgpu_xcp_mgr_init() sets up, without the render nodes. */
	mgr = kzalloc(sizeof(*mgr), GFP_KERNEL);
	if (!mgr)
		return -ENOMEM;
	mgr->adev = adev;
	mgr->funcs = &aqua_vanjaram_xcp_funcs;
	mutex_init(&mgr->xcp_lock);
	adev->xcp_mgr = mgr;
	return amdgpu_xcp_init(mgr, num_xcc / f->xccs_per_xcp, mode);
}

/**
 * fake_gpu_create() - a fake GC 9.4.3 device
 * @num_xcc: XCCs: 8 (an MI300X), 6 (an MI300A, an APU) or 4 (an MI308X).
 * @nps: the memory partition mode (enum amdgpu_memory_partition).
 * @mode: the amdgpu compute mode it runs, set up as amdgpu's own switch
 *	would leave it.
 * @vram_size: VRAM bytes.
 * @name: its (root) device's name, unique.
 * @bdf: its PCI address.
 *
 * amdgpu's RAS context has gfx and umc enabled, gfx's manager alive as
 * amdgpu's late init leaves it, an empty EEPROM; a reset domain of its
 * own; the partition manager as amdgpu_xcp_mgr_init() sets it up, without
 * the render nodes.  The provider is not initialised.
 *
 * Return: the fake or an ERR_PTR().
 */
struct fake_gpu *fake_gpu_create(u32 num_xcc, int nps, int mode,
				 u64 vram_size, const char *name,
				 const char *bdf)
{
	struct amdgpu_device *adev;
	struct pci_dev *pdev;
	struct fake_gpu *f;
	struct device *dev;
	int ret = -ENOMEM;

	adev = kvzalloc(sizeof(*adev), GFP_KERNEL);
	if (!adev)
		return ERR_PTR(-ENOMEM);
	f = fake_gpu_alloc(adev);
	if (!f) {
		kvfree(adev);
		return ERR_PTR(-ENOMEM);
	}

	dev = root_device_register(name);
	if (IS_ERR(dev)) {
		ret = PTR_ERR(dev);
		goto fail;
	}
	adev->dev = dev;
	/* Its DRM device, as amdgpu_pci_probe() sets it: amdgpu's sysfs reads it. */
	dev_set_drvdata(dev, adev_to_drm(adev));
	pdev = kzalloc(sizeof(*pdev), GFP_KERNEL);
	if (!pdev)
		goto fail;
	adev->pdev = pdev;
	ret = dev_set_name(&pdev->dev, "%s", bdf);
	if (ret)
		goto fail;
	/* On the root bus until fake_gpu_place() moves it. */
	pdev->bus = &fake_root_bus;
	pdev->vendor = PCI_VENDOR_ID_ATI;
	pdev->device = fake_pci_device_id(num_xcc);
	/* An awake device, as a probed amdgpu's is. */
	pm_runtime_set_active(dev);
	pm_runtime_enable(dev);
	ret = fake_gpu_build(f, num_xcc, nps, mode, vram_size, false);
	if (ret)
		goto fail;
	return f;
fail:
	fake_gpu_destroy(f);
	return ERR_PTR(ret);
}

/* The release of a fake_gpu_probed() fake, with its function's driver data. */
static void fake_gpu_probed_release(void *data)
{
	struct fake_gpu *f = data;

	fake_gpu_teardown(f);
	kfree(f);
}

/**
 * fake_gpu_probed() - make the device amdgpu_pci_probe() is probing a fake
 * @adev: the device, as amdgpu_pci_probe() passes it to
 *	amdgpu_driver_load_kms() (whose stand-in this is): its PCI function
 *	enabled, its DRM device allocated, not registered.
 * @num_xcc: as for fake_gpu_create().
 * @nps: as for fake_gpu_create().
 * @mode: as for fake_gpu_create().
 * @vram_size: as for fake_gpu_create().
 *
 * What amdgpu_device_init() would leave, as fake_gpu_create() sets it up,
 * but with amdgpu's own partition manager and its partitions' DRM devices
 * (amdgpu_xcp_mgr_init()), and the mode config amdgpu_device_init() sets
 * up: amdgpu's probe registers them, its removal unplugs them.  The fake's
 * stand-ins go when the PCI function's driver data is released, before
 * the DRM device's release (amdgpu_device_fini_sw()) frees the partition
 * manager and the reset domain, as it frees amdgpu's own.
 *
 * Return: the fake or an ERR_PTR().
 */
struct fake_gpu *fake_gpu_probed(struct amdgpu_device *adev, u32 num_xcc,
				 int nps, int mode, u64 vram_size)
{
	struct fake_gpu *f;
	int ret;

	if (adev->pdev->device != fake_pci_device_id(num_xcc))
		return ERR_PTR(-ENODEV);
	ret = drm_mode_config_init(adev_to_drm(adev));
	if (ret)
		return ERR_PTR(ret);
	f = fake_gpu_alloc(adev);
	if (!f)
		return ERR_PTR(-ENOMEM);
	ret = devm_add_action_or_reset(adev->dev, fake_gpu_probed_release, f);
	if (ret)
		return ERR_PTR(ret);
	/* What of it was set up goes with the release. */
	ret = fake_gpu_build(f, num_xcc, nps, mode, vram_size, true);
	return ret ? ERR_PTR(ret) : f;
}

/* The user-visible fakes, under fake_users_lock. */
static LIST_HEAD(fake_users);
static DEFINE_MUTEX(fake_users_lock);
static u32 fake_nusers;
static struct dentry *fake_dir;

/* As amdx_sim's ids; a handful of fakes at once. */
#define FAKE_MAX_ID	1023
#define FAKE_MAX_USERS	16
#define FAKE_VRAM_DEFAULT_MIB	512
#define FAKE_VRAM_MAX_MIB	(192 * 1024)

#define fake_param_err(ret, fmt, ...) \
	({ pr_err_ratelimited("amdgpu_amdx_fake: new_device: " fmt "\n", \
			      ##__VA_ARGS__); ret; })

static struct fake_gpu *fake_user_find(u32 id)
{
	struct fake_gpu *f;

	list_for_each_entry(f, &fake_users, node)
		if (f->id == id)
			return f;
	return NULL;
}

/* The PCI address amdx_sim gives device @id (amdx_sim_dev.c). */
static void fake_user_bdf(u32 id, char *bdf, size_t len)
{
	u32 bus = 0xc1 + id;

	snprintf(bdf, len, "%04x:%02x:00.0", bus >> 8, bus & 0xff);
}

/**
 * struct fake_user_cfg - what new_device asked for
 * @num_xcc: the model's XCCs.
 * @vram_mib: VRAM.
 * @sw: the fake PCIe switch, 0 for the root bus.
 * @aca: as an MI300X with its firmware: amdgpu's ACA, UMC and its page
 *	retirement (fake_gpu_enable_retirement()).
 * @kfd: with the KFD up (fake_gpu_enable_kfd()).
 * @sysfs: with amdgpu's sysfs files (fake_gpu_enable_sysfs()).
 */
struct fake_user_cfg {
	u32 num_xcc;
	u32 vram_mib;
	u32 sw;
	bool aca;
	bool kfd;
	bool sysfs;
};

/*
 * One key=value of new_device: 0, -EINVAL for garbage, -EOPNOTSUPP for
 * what amdx_sim models and the fake cannot be.
 */
static int fake_user_param(char *tok, struct fake_user_cfg *cfg)
{
	u32 *num_xcc = &cfg->num_xcc, *vram_mib = &cfg->vram_mib;
	u32 *sw = &cfg->sw;
	char *val = strchr(tok, '=');
	u64 v;

	if (!val)
		return fake_param_err(-EINVAL, "unexpected '%s', want key=value",
				      tok);
	*val++ = '\0';
	if (!strcmp(tok, "model")) {
		if (!strcmp(val, "mi300x"))
			*num_xcc = 8;
		else if (!strcmp(val, "mi300a"))
			*num_xcc = 6;
		else if (!strcmp(val, "mi308x"))
			*num_xcc = 4;
		else
			return fake_param_err(-EINVAL,
					      "unknown model '%s' (mi300x, mi300a, mi308x)",
					      val);
		return 0;
	}
	if (!strcmp(tok, "vram")) {
		if (kstrtou32(val, 10, vram_mib) || !*vram_mib ||
		    *vram_mib > FAKE_VRAM_MAX_MIB)
			return fake_param_err(-EINVAL, "invalid vram '%s' (MiB, 1..%u)",
					      val, FAKE_VRAM_MAX_MIB);
		return 0;
	}
	if (!strcmp(tok, "aca")) {
		if (kstrtobool(val, &cfg->aca))
			return fake_param_err(-EINVAL, "invalid aca '%s' (0 or 1)",
					      val);
		return 0;
	}
	if (!strcmp(tok, "kfd")) {
		if (kstrtobool(val, &cfg->kfd))
			return fake_param_err(-EINVAL, "invalid kfd '%s' (0 or 1)",
					      val);
		return 0;
	}
	if (!strcmp(tok, "sysfs")) {
		if (kstrtobool(val, &cfg->sysfs))
			return fake_param_err(-EINVAL, "invalid sysfs '%s' (0 or 1)",
					      val);
		return 0;
	}
	if (!strcmp(tok, "switch")) {
		if (kstrtou32(val, 10, sw) || !*sw || *sw > FAKE_MAX_SWITCH)
			return fake_param_err(-EINVAL, "invalid switch '%s' (1..%u)",
					      val, FAKE_MAX_SWITCH);
		return 0;
	}
	if (!strcmp(tok, "hive")) {
		if (kstrtou64(val, 16, &v))
			return fake_param_err(-EINVAL, "invalid hive '%s' (hex)", val);
		return v ? fake_param_err(-EOPNOTSUPP,
					  "hive=%s: the fake amdgpu device has no XGMI hive",
					  val) : 0;
	}
	if (!strcmp(tok, "max_vfs")) {
		if (kstrtou64(val, 10, &v))
			return fake_param_err(-EINVAL, "invalid max_vfs '%s'", val);
		return v ? fake_param_err(-EOPNOTSUPP,
					  "max_vfs=%s: the amdgpu provider has no SR-IOV host control",
					  val) : 0;
	}
	if (!strcmp(tok, "without"))
		return fake_param_err(-EOPNOTSUPP,
				      "without=%s: the amdgpu provider's ops are its own",
				      val);
	return fake_param_err(-EINVAL, "unknown parameter '%s'", tok);
}

/*
 * The ucode versions amdgpu keeps of a user-visible fake, where
 * amdgpu_firmware_info() (amdgpu_kms.c) reads them: an MI300X's, as
 * amdx_sim reports its own (amdx_sim_fw_version), one SDMA version per
 * engine as amdgpu_sdma_init_microcode() duplicates it.  The XGMI TA's
 * stays 0, amdgpu's "not loaded": the provider must leave it out, and
 * amdx_partition_test's part.firmware_versions_are_the_providers checks
 * that it does.
 */
static void fake_user_firmware(struct amdgpu_device *adev)
{
	u32 i;

	adev->pm.fw_version = 0x00557100;
	adev->psp.sos.fw_version = 0x0036003b;
	adev->psp.ras_context.context.bin_desc.fw_version = 0x1b000049;
	adev->gfx.mec_fw_version = 0x99;
	adev->gfx.mec_feature_version = 50;
	adev->gfx.rlc_fw_version = 0x22;
	adev->gfx.rlc_feature_version = 1;
	for (i = 0; i < adev->sdma.num_instances; i++) {
		adev->sdma.instance[i].fw_version = 0x15;
		adev->sdma.instance[i].feature_version = 60;
	}
	adev->vcn.fw_version = 0x0a119009;
}

/* The PSP's functions: none, as psp_v13_0's for MI300 has no quirk. */
static const struct psp_funcs fake_psp_funcs;

/**
 * fake_gpu_enable_retirement() - amdgpu's retirement and RAS recovery run
 * @f: a fake of fake_gpu_enable_aca(), its provider not yet initialised.
 *
 * With amdgpu's ACA and UMC 12 on (fake_gpu_enable_aca()): UMC's IP
 * version and the RAS event manager as amdgpu's init leaves them, and
 * amdgpu's own page retirement and RAS recovery:
 * amdgpu_ras_recovery_init() (the fake has no RAS EEPROM, so no table is
 * read) starts its thread, its work and its recovery_work, and UMC's RAS
 * interrupt handler takes the poison creation interrupt of an injected
 * poison (fake_umc_poison_interrupt()).  The user-visible fakes' aca=1;
 * fake_gpu_destroy() stops it all (fake_retirement_stop()).
 *
 * Return: 0 or -errno (-EINVAL without the ACA).
 */
int fake_gpu_enable_retirement(struct fake_gpu *f)
{
	struct amdgpu_device *adev = f->adev;
	struct amdgpu_ras *con = f->ras;
	int ret;

	if (!f->aca)
		return -EINVAL;
	adev->ip_versions[UMC_HWIP][0] = IP_VERSION(12, 0, 0);
	/* amdgpu's RAS recovery asks the PSP for its fatal error quirk */
	adev->psp.funcs = &fake_psp_funcs;
	con->event_mgr = &con->__event_mgr;
	ret = amdgpu_ras_recovery_init(adev);
	if (!ret && (!con->eh_data || !con->page_retirement_thread))
		ret = -EIO;	/* its failures that do not fail a probe */
	if (ret) {
		if (con->page_retirement_thread)
			kthread_stop(con->page_retirement_thread);
		con->page_retirement_thread = NULL;
		if (con->eh_data && con->eh_data != f->eh_data)
			kfree(con->eh_data);
		con->eh_data = f->eh_data;
		return ret;
	}
	f->retirement = true;
	return amdgpu_ras_interrupt_add_handler(adev,
						&umc_v12_0_ras.ras_block.ras_comm);
}

static int fake_user_new(char *buf)
{
	struct fake_user_cfg cfg = {
		.num_xcc = 8,
		.vram_mib = FAKE_VRAM_DEFAULT_MIB,
	};
	char name[32], bdf[16];
	struct fake_gpu *f;
	char *tok;
	u32 id;
	int ret;

	tok = strsep(&buf, " \t\n");
	if (!tok || kstrtou32(tok, 10, &id) || id > FAKE_MAX_ID)
		return fake_param_err(-EINVAL, "invalid id '%s' (0..%u)",
				      tok ?: "", FAKE_MAX_ID);
	while ((tok = strsep(&buf, " \t\n"))) {
		if (!*tok)
			continue;
		ret = fake_user_param(tok, &cfg);
		if (ret)
			return ret;
	}
	if (cfg.aca && cfg.kfd)
		return fake_param_err(-EOPNOTSUPP,
				      "kfd=1 with aca=1: amdgpu's poison handling would reach the nodes of a KFD device the fake never initialises");
	snprintf(name, sizeof(name), "amdgpu_amdx_user%u", id);
	fake_user_bdf(id, bdf, sizeof(bdf));

	mutex_lock(&fake_users_lock);
	ret = -EEXIST;
	if (fake_user_find(id)) {
		pr_err_ratelimited("amdgpu_amdx_fake: new_device: id %u already exists\n",
				   id);
		goto out;
	}
	ret = -ENOSPC;
	if (fake_nusers >= FAKE_MAX_USERS) {
		pr_err_ratelimited("amdgpu_amdx_fake: new_device: %u fakes exist, the most\n",
				   fake_nusers);
		goto out;
	}
	f = fake_gpu_create(cfg.num_xcc, AMDGPU_NPS1_PARTITION_MODE,
			    AMDGPU_SPX_PARTITION_MODE, (u64)cfg.vram_mib << 20,
			    name, bdf);
	if (IS_ERR(f)) {
		ret = PTR_ERR(f);
		goto out;
	}
	f->id = id;
	ret = cfg.sw ? fake_gpu_place(f, cfg.sw, false) : 0;
	if (ret) {
		fake_gpu_destroy(f);
		goto out;
	}
	/*
	 * Without aca=1 no UMC: the fake's gfx block is queried directly
	 * (per AID, with the firmware's latency), and amdgpu reports no UMC
	 * RAS, so the provider claims none.
	 */
	if (cfg.aca) {
		ret = fake_gpu_enable_aca(f);
		if (!ret)
			ret = fake_gpu_enable_retirement(f);
	} else {
		f->adev->ras_enabled &= ~BIT(AMDGPU_RAS_BLOCK__UMC);
	}
	if (ret) {
		dev_err(f->adev->dev, "amdgpu_amdx_fake: fake %u: amdgpu's ACA and page retirement did not start: %d\n",
			id, ret);
		fake_gpu_destroy(f);
		goto out;
	}
	ret = cfg.kfd ? fake_gpu_enable_kfd(f) : 0;
	if (ret) {
		dev_err(f->adev->dev, "amdgpu_amdx_fake: fake %u: kfd=1: the KFD did not probe it (is amdgpu's KFD up?): %d\n",
			id, ret);
		fake_gpu_destroy(f);
		goto out;
	}
	ret = cfg.sysfs ? fake_gpu_enable_sysfs(f) : 0;
	if (ret) {
		dev_err(f->adev->dev, "amdgpu_amdx_fake: fake %u: sysfs=1: amdgpu's sysfs files were not made: %d\n",
			id, ret);
		fake_gpu_destroy(f);
		goto out;
	}
	fake_user_firmware(f->adev);
	amdgpu_amdx_init(f->adev);
	if (!f->adev->amdx) {
		dev_err(f->adev->dev, "amdgpu_amdx_fake: the provider did not register fake %u\n",
			id);
		fake_gpu_destroy(f);
		ret = -ENODEV;
		goto out;
	}
	list_add(&f->node, &fake_users);
	fake_nusers++;
	ret = 0;
out:
	mutex_unlock(&fake_users_lock);
	return ret;
}

/* amdgpu's removal: the provider first, its data at the end. */
static void fake_user_remove(struct fake_gpu *f)
{
	list_del(&f->node);
	fake_nusers--;
	amdgpu_amdx_fini(f->adev);
	amdgpu_amdx_free(f->adev);
	fake_gpu_destroy(f);
}

static int fake_user_del(char *buf)
{
	struct fake_gpu *f;
	u32 id;
	int ret = -ENODEV;

	if (kstrtou32(strim(buf), 10, &id))
		return -EINVAL;
	mutex_lock(&fake_users_lock);
	f = fake_user_find(id);
	if (f) {
		fake_user_remove(f);
		ret = 0;
	}
	mutex_unlock(&fake_users_lock);
	return ret;
}

static ssize_t fake_user_write(struct file *file, const char __user *ubuf,
			       size_t len, loff_t *ppos, int (*fn)(char *))
{
	char buf[128];
	int ret;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	ret = fn(buf);
	return ret ? ret : len;
}

static ssize_t fake_new_write(struct file *file, const char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	return fake_user_write(file, ubuf, len, ppos, fake_user_new);
}

static ssize_t fake_del_write(struct file *file, const char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	return fake_user_write(file, ubuf, len, ppos, fake_user_del);
}

static const struct file_operations fake_new_fops = {
	.owner = THIS_MODULE,
	.write = fake_new_write,
};

static const struct file_operations fake_del_fops = {
	.owner = THIS_MODULE,
	.write = fake_del_write,
};

/**
 * amdgpu_amdx_fake_init() - make fake devices user-visible
 *
 * Context: amdgpu's module init (test kernels only).
 */
void amdgpu_amdx_fake_init(void)
{
	fake_dir = debugfs_create_dir("amdgpu_amdx_fake", NULL);
	debugfs_create_file("new_device", 0200, fake_dir, NULL,
			    &fake_new_fops);
	debugfs_create_file("del_device", 0200, fake_dir, NULL,
			    &fake_del_fops);
}

/**
 * amdgpu_amdx_fake_exit() - remove the user-visible fakes
 *
 * Context: amdgpu's module exit (test kernels only).
 */
void amdgpu_amdx_fake_exit(void)
{
	struct fake_gpu *f, *tmp;

	debugfs_remove(fake_dir);
	mutex_lock(&fake_users_lock);
	list_for_each_entry_safe(f, tmp, &fake_users, node)
		fake_user_remove(f);
	mutex_unlock(&fake_users_lock);
}
