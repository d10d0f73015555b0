// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: the amdgpu provider
 *
 * Compiled into the patched amdgpu (patches/6.12/, scripts/amdgpu-tree.sh),
 * since amdgpu exports nothing an outside module could call.  amdgpu calls
 * ten hooks (amdgpu_amdx.h):
 *
 * - amdgpu_amdx_init() at the end of a successful amdgpu_pci_probe(), once
 *   the DRM device and the partitions' render nodes are registered: a GC
 *   9.4.3 or 9.4.4 device that is not an SR-IOV VF is registered with
 *   amdx, with identity, RAS blocks and the bad-page records of amdgpu's
 *   RAS EEPROM;
 * - amdgpu_amdx_fini() first thing in amdgpu_pci_remove() (PCI removal,
 *   hot unplug, driver unload): the device leaves amdx while amdgpu is
 *   still whole, and every op checks drm_dev_enter() besides;
 * - amdgpu_amdx_free() at the end of amdgpu_device_fini_sw(): the
 *   provider data is freed;
 * - amdgpu_amdx_ras_errors() from amdgpu_ras_query_error_status_with_event(),
 *   the point every error amdgpu counts passes (its RAS interrupt work,
 *   the page-retirement thread, its recovery, sysfs): what the query
 *   added to amdgpu's statistics, per AID the firmware's bank names, goes
 *   to amdx_ras_report() once, with that AID's instance and partition;
 * - amdgpu_amdx_page_retired() from amdgpu_ras_add_bad_pages() for each
 *   page amdgpu newly retires: an error with the page's address, so that
 *   amdx's per-page containment runs, a deferred error for the pages of a
 *   poison's row.  amdgpu counts one deferred error per poison and
 *   retires its row's 16 pages: the count reaches amdx from the query,
 *   each page uncounted (%AMDX_RAS_ERR_F_UNCOUNTED), so amdx's UMC DE
 *   count is amdgpu's umc_err_count de.  UMC 12 retires no page for a UE,
 *   whose count is all amdx gets.
 * - amdgpu_amdx_poison_consumed() from the KFD's interrupt work
 *   (kfd_int_process_v9.c) when a process consumed a poison in GFX, SDMA
 *   or MMHUB: one uncorrectable error with the KFD node's partition, the
 *   instance in it, and the consumer: the KFD process of the PASID and
 *   the PASID (amdx's ERROR event shows both to whom may see the pid);
 *   amdgpu's event id goes to the log (amdx's record has no field for
 *   it);
 * - amdgpu_amdx_reset_begin() and amdgpu_amdx_reset_end() from
 *   amdgpu_device_gpu_recover(): a reset amdgpu runs on its own reaches
 *   amdx as DEVICE_RESET_BEGIN and DEVICE_RESET_END (not the one amdx
 *   asked for: amdx's core reports that one around its request), and
 *   amdgpu's RMA flag after a recovery as amdx's;
 * - amdgpu_amdx_rma() from amdgpu_ras_recovery_init() when amdgpu refuses
 *   an RMA board (the probe fails): the board is registered all the same,
 *   flagged for RMA, with its state only, until amdgpu probes it again,
 *   its PCI function is deleted or amdgpu_amdx_exit() at amdgpu's unload.
 *
 * At registration in an XGMI hive, the PSP's topology of the hive is
 * mapped onto amdx's links (amdgpu_amdx_links_join()); the firmware op
 * reports the ucode versions amdgpu keeps (amdgpu_amdx_firmware()).
 *
 * The ops map onto amdgpu's functions; what 6.12's amdgpu cannot do stays
 * NULL (the core reports it absent): SR-IOV host control (GIM's job),
 * HMM (KFD SVM owns the device-private pagemap of the VRAM), per-partition
 * reset (no entry point), retiring a page on amdx's word and storing
 * amdx's bad-page table (amdgpu retires and persists UMC pages itself).
 * Every value crosses through amdx_amdgpu_xlate.c.
 */
#include <kunit/static_stub.h>
#include <kunit/test-bug.h>
#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/pci.h>
#include <linux/pid.h>
#include <linux/pm_runtime.h>
#include <linux/rwsem.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include <drm/drm_drv.h>

#include "amdgpu.h"
#include "amdgpu_aca.h"
#include "amdgpu_fru_eeprom.h"
#include "amdgpu_ras.h"
#include "amdgpu_ras_eeprom.h"
#include "amdgpu_reset.h"
#include "amdgpu_xcp.h"
#include "amdgpu_xgmi.h"
#include "smu_v13_0.h"
#include "umc_v12_0.h"
#include "kfd_priv.h"
#include "amdgpu_amdx.h"
#include "amdgpu_amdx_kunit.h"
#include "amdgpu_amdx_version.h"

#include <amdx/amdx_badpage.h>
#include <amdx/amdx_provider.h>
#include "amdx_amdgpu_xlate.h"

/*
 * How long an injection waits for the firmware to log its error, querying
 * AMDGPU_AMDX_INJECT_POLL_MS apart: amdgpu itself waits up to 300 ms for
 * the firmware's record of a poison (MAX_UMC_POISON_POLLING_TIME_ASYNC).
 */
#define AMDGPU_AMDX_INJECT_WAIT_MS	1000
#define AMDGPU_AMDX_INJECT_POLL_MS	20

/**
 * struct amdgpu_amdx - the provider's data for one amdgpu device
 * @adev: the amdgpu device.
 * @xdev: its amdx device.
 * @num_xcc: XCCs.
 * @gate: read-held by the RAS hooks around amdx_ras_report();
 *	amdgpu_amdx_fini() write-holds it to set @dead.
 * @dead: set once the device is leaving amdx: no more reports.
 * @ras_lock: protects @injecting, @inject_hits and @inject_seq.
 * @injecting: the amdx block an injection waits for, or -1.
 * @inject_hits: errors of @injecting that reached amdx since.
 * @inject_seq: the ERROR event of the first of them.
 * @inject_lock: one injection at a time.
 * @reset_work: amdgpu_device_gpu_recover(), run in the reset domain.
 * @reset_count: amdgpu's reset count when the reset was asked for.
 * @reset_test: the KUnit test that asked (NULL outside the suites).
 * @own_reset: the reset context of amdgpu's recovery @reset_work runs:
 *	the reset amdx asked for, which the core reports itself.
 * @hive_node: in amdgpu_amdx_hived while registered in an XGMI hive.
 */
struct amdgpu_amdx {
	struct amdgpu_device *adev;
	struct amdx_device *xdev;
	u32 num_xcc;
	struct rw_semaphore gate;
	bool dead;
	struct mutex ras_lock;	/* @injecting, @inject_hits, @inject_seq */
	int injecting;
	u32 inject_hits;
	u64 inject_seq;
	struct mutex inject_lock;	/* one injection at a time */
	struct work_struct reset_work;
	int reset_count;
	struct kunit *reset_test;
	const struct amdgpu_reset_context *own_reset;
	struct list_head hive_node;
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

/**
 * amdgpu_amdx_unregister() - take a device out of the amdx core
 * @adev: the amdgpu device, or NULL for a board amdgpu refused
 *	(amdgpu_amdx_rma()), whose amdgpu device is gone.
 * @xdev: its amdx device, from amdgpu_amdx_register().
 *
 * amdx_device_unregister(); a KUnit static stub point, through which
 * tests/amdgpu_amdx_test.c sees the state of amdgpu's device when it
 * leaves amdx (a plain call without CONFIG_KUNIT).
 */
void amdgpu_amdx_unregister(struct amdgpu_device *adev,
			    struct amdx_device *xdev)
{
	KUNIT_STATIC_STUB_REDIRECT(amdgpu_amdx_unregister, adev, xdev);
	amdx_device_unregister(xdev);
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

static int amdgpu_amdx_get_state(struct amdx_device *xdev,
				 struct amdx_device_state *st)
{
	struct amdgpu_amdx *p = amdx_device_priv(xdev);
	struct amdgpu_device *adev = p->adev;
	u32 i, n;
	int idx;

	if (!drm_dev_enter(adev_to_drm(adev), &idx))
		return -ENODEV;
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
		goto out;
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
out:
	drm_dev_exit(idx);
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
	int old, now, ret, idx;

	if (want < 0)
		return -EINVAL;
	if (!drm_dev_enter(adev_to_drm(adev), &idx))
		return -ENODEV;
	if (!down_read_trylock(&adev->reset_domain->sem)) {
		drm_dev_exit(idx);
		return -EBUSY;
	}
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
	drm_dev_exit(idx);
	return ret;
}

/* 6.12's amdgpu applies a memory mode only across a driver reload. */
static int amdgpu_amdx_set_memory_mode(struct amdx_device *xdev, u32 mode)
{
	struct amdgpu_amdx *p = amdx_device_priv(xdev);
	int idx, ret = 0;

	if (!drm_dev_enter(adev_to_drm(p->adev), &idx))
		return -ENODEV;
	if (mode != amdgpu_amdx_memory_mode(p->adev)) {
		dev_info_ratelimited(p->adev->dev,
				     "amdx: memory mode %u refused: this amdgpu switches memory partitions only across a reload\n",
				     mode);
		ret = -EOPNOTSUPP;
	}
	drm_dev_exit(idx);
	return ret;
}

/*
 * One firmware of %AMDX_QUERY_FIRMWARE; a version amdgpu left 0 (the
 * ucode was not loaded) is absent, never reported as 0.
 */
static void amdgpu_amdx_fw(struct amdx_query_firmware *fw, u32 id,
			   u32 instance, u32 version, u32 feature)
{
	struct amdx_firmware_info *e;

	if (!version || fw->num_firmware >= AMDX_MAX_FIRMWARE)
		return;
	e = &fw->firmware[fw->num_firmware++];
	e->id = id;
	e->instance = instance;
	e->version = version;
	e->feature = feature;
}

/* SMU, SOS, two TAs, MEC and MEC2, RLC, VCN and every SDMA engine fit. */
static_assert(8 + AMDGPU_MAX_SDMA_INSTANCES <= AMDX_MAX_FIRMWARE);

/*
 * %AMDX_QUERY_FIRMWARE: the provider ("amdgpu", the amdgpu-amdx package's
 * version, amdgpu.ko's modinfo version) and the versions amdgpu keeps of
 * the ucode it loaded, read where amdgpu_firmware_info() reads them for
 * AMDGPU_INFO_FW_VERSION and the debugfs amdgpu_firmware_info
 * (amdgpu_kms.c:215-373 and 1579 in 6.12.118), by id, then instance:
 * the SMU's adev->pm.fw_version (SMC, :282, no feature version: on MP1
 * 13.0.6 the running SMU's, smu_v13_0_check_fw_version()), PSP SOS
 * (:329), the RAS and XGMI TAs' bin_desc (:286-297), MEC (:272; MEC2, as
 * instance 1, only with a MEC2 ucode, as the debugfs prints it, :1705:
 * gfx_v9_4_3 copies MEC's version into mec2_fw_version without one), RLC
 * (:248), each SDMA engine (:323), VCN (:228, one version for all
 * instances, no feature version).  Nothing is read from the hardware.
 */
static int amdgpu_amdx_firmware(struct amdx_device *xdev,
				struct amdx_query_firmware *fw)
{
	struct amdgpu_amdx *p = amdx_device_priv(xdev);
	struct amdgpu_device *adev = p->adev;
	const struct psp_context *psp = &adev->psp;
	u32 i, n;
	int idx;

	if (!drm_dev_enter(adev_to_drm(adev), &idx))
		return -ENODEV;
	strscpy(fw->provider, "amdgpu", sizeof(fw->provider));
	strscpy(fw->provider_version, AMDGPU_AMDX_VERSION,
		sizeof(fw->provider_version));
	amdgpu_amdx_fw(fw, AMDX_FW_SMU, 0, adev->pm.fw_version, 0);
	amdgpu_amdx_fw(fw, AMDX_FW_PSP_SOS, 0, psp->sos.fw_version,
		       psp->sos.feature_version);
	amdgpu_amdx_fw(fw, AMDX_FW_PSP_TA_RAS, 0,
		       psp->ras_context.context.bin_desc.fw_version,
		       psp->ras_context.context.bin_desc.feature_version);
	amdgpu_amdx_fw(fw, AMDX_FW_PSP_TA_XGMI, 0,
		       psp->xgmi_context.context.bin_desc.fw_version,
		       psp->xgmi_context.context.bin_desc.feature_version);
	amdgpu_amdx_fw(fw, AMDX_FW_MEC, 0, adev->gfx.mec_fw_version,
		       adev->gfx.mec_feature_version);
	if (adev->gfx.mec2_fw)
		amdgpu_amdx_fw(fw, AMDX_FW_MEC, 1, adev->gfx.mec2_fw_version,
			       adev->gfx.mec2_feature_version);
	amdgpu_amdx_fw(fw, AMDX_FW_RLC, 0, adev->gfx.rlc_fw_version,
		       adev->gfx.rlc_feature_version);
	n = min_t(u32, adev->sdma.num_instances, AMDGPU_MAX_SDMA_INSTANCES);
	for (i = 0; i < n; i++)
		amdgpu_amdx_fw(fw, AMDX_FW_SDMA, i,
			       adev->sdma.instance[i].fw_version,
			       adev->sdma.instance[i].feature_version);
	amdgpu_amdx_fw(fw, AMDX_FW_VCN, 0, adev->vcn.fw_version, 0);
	drm_dev_exit(idx);
	return 0;
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

/*
 * Report @count errors of @err's block and type @type; an injection
 * waiting for the block learns of it.  Caller holds @p->gate for read.
 */
static void amdgpu_amdx_pass(struct amdgpu_amdx *p, struct amdx_ras_error *err,
			     u32 type, u64 count)
{
	struct amdgpu_device *adev = p->adev;
	u64 seq = 0;
	int ret;

	if (!count)
		return;
	/* A type the block does not declare: amdx would refuse it. */
	if (!(amdx_amdgpu_ras_types(err->block) & BIT(type))) {
		dev_info_ratelimited(adev->dev,
				     "amdx: %llu errors of type %u in block %u, a type amdx was not told of, not reported\n",
				     count, type, err->block);
		return;
	}
	err->type = type;
	err->count = min_t(u64, count, U32_MAX);
	ret = amdgpu_amdx_report(p, err, &seq);
	if (ret) {
		dev_err_ratelimited(adev->dev,
				    "amdx: RAS report of block %u type %u refused: %d\n",
				    err->block, type, ret);
		return;
	}
	/* An injection waits for the error's count, not a page of it. */
	if (err->flags & AMDX_RAS_ERR_F_UNCOUNTED)
		return;
	mutex_lock(&p->ras_lock);
	if (p->injecting == err->block && !p->inject_hits++)
		p->inject_seq = seq;
	mutex_unlock(&p->ras_lock);
}

/*
 * The instance and compute partition of an error whose bank names AID
 * @mcm->die_id: the AID's first XCC (gfx) or SDMA engine, and the
 * partition holding all of the AID's XCCs; the whole device when the AID
 * spans partitions (CPX) or is unknown.
 */
static void amdgpu_amdx_aid_place(struct amdgpu_amdx *p, u32 block,
				  const struct amdgpu_smuio_mcm_config_info *mcm,
				  struct amdx_ras_error *err)
{
	struct amdgpu_device *adev = p->adev;
	u32 naid = hweight32(adev->aid_mask), per, first;
	int a, b, mode;

	err->instance = 0;
	err->partition = AMDX_RAS_PARTITION_ALL;
	if (!mcm || !naid || mcm->die_id < 0 || mcm->die_id >= naid)
		return;
	if (block == AMDX_RAS_BLOCK_SDMA) {
		per = adev->sdma.num_instances / naid;
		err->instance = mcm->die_id * per;
		return;
	}
	if (block != AMDX_RAS_BLOCK_GFX)
		return;
	/*
	 * amdgpu's ACA gfx parser (gfx_v9_4_3_aca_bank_parser()) keeps the
	 * XCD within the AID (0 or 1) where the others keep the AID, and the
	 * AID is lost: no XCC and no partition can be named.
	 */
	if (amdgpu_aca_is_enabled(adev))
		return;
	per = p->num_xcc / naid;
	if (!per)
		return;
	first = mcm->die_id * per;
	err->instance = first;
	/*
	 * amdgpu's cached mode, not its query: that takes the partition lock
	 * and WARNs while the hardware disagrees (a refused switch); during a
	 * switch (AMDGPU_XCP_MODE_TRANS) no mode, so the whole device.
	 */
	mode = amdx_amdgpu_compute_from_amdgpu(READ_ONCE(adev->xcp_mgr->mode));
	if (mode < 0)
		return;
	a = amdx_amdgpu_xcc_partition(mode, p->num_xcc, first);
	b = amdx_amdgpu_xcc_partition(mode, p->num_xcc, first + per - 1);
	if (a >= 0 && a == b)
		err->partition = a;
}

/*
 * amdgpu's RAS event @evid (its id one sequence per hive, from 1, over its
 * fatal and poison events) as amdx carries it in @err: id and type, none
 * (0, NONE) for RAS_EVENT_INVALID_ID: a query outside an event, as the
 * periodic and sysfs ones are.
 */
static void amdgpu_amdx_event_set(struct amdx_ras_error *err,
				  const struct ras_event_id *evid)
{
	if (!RAS_EVENT_ID_IS_VALID(evid->event_id))
		return;
	err->driver_event = evid->event_id;
	err->driver_event_type = amdx_amdgpu_driver_event_type(evid->type);
}

/*
 * The errors of one bank source (AID), or of the whole block, found in
 * amdgpu's RAS event @evid.
 */
static void amdgpu_amdx_pass_counts(struct amdgpu_amdx *p, u32 block,
				    const struct amdgpu_smuio_mcm_config_info *mcm,
				    u64 ce, u64 ue, u64 de,
				    const struct ras_event_id *evid)
{
	struct amdx_ras_error err = { .block = block };

	amdgpu_amdx_event_set(&err, evid);
	amdgpu_amdx_aid_place(p, block, mcm, &err);
	amdgpu_amdx_pass(p, &err, AMDX_RAS_TYPE_CE, ce);
	amdgpu_amdx_pass(p, &err, AMDX_RAS_TYPE_UE, ue);
	/*
	 * A UMC DE (poison) counts here, once, as amdgpu counts it; the
	 * pages amdgpu retires for it come uncounted through
	 * amdgpu_amdx_page_retired().
	 */
	amdgpu_amdx_pass(p, &err, AMDX_RAS_TYPE_DE, de);
}

/* The provider data of a device whose hooks may report, gate held. */
static struct amdgpu_amdx *amdgpu_amdx_hook_enter(struct amdgpu_device *adev,
						  int *idx)
{
	/* Pairs with the release in amdgpu_amdx_init(): @p is complete. */
	struct amdgpu_amdx *p = smp_load_acquire(&adev->amdx);

	if (!p || !drm_dev_enter(adev_to_drm(adev), idx))
		return NULL;
	down_read(&p->gate);
	if (!p->dead)
		return p;
	up_read(&p->gate);
	drm_dev_exit(*idx);
	return NULL;
}

static void amdgpu_amdx_hook_exit(struct amdgpu_amdx *p, int idx)
{
	up_read(&p->gate);
	drm_dev_exit(idx);
}

/**
 * amdgpu_amdx_ras_errors() - amdgpu counted errors of a block
 * @adev: the device.
 * @block: the amdgpu RAS block (enum amdgpu_ras_block).
 * @err_data: what this query added to amdgpu's statistics: per bank
 *	source (socket, AID) on MI300, else the block's totals.
 * @qctx: the query's event (type and id): amdx's ERROR events carry
 *	both (struct amdx_event_v2's driver_event, _v3's driver_event_type).
 *
 * Reports each count to amdx once: amdgpu's statistics are the sum of
 * these, so nothing is read twice and no earlier total is kept.
 *
 * Context: process context, in amdgpu's query (which holds no lock of
 * amdgpu's here).
 */
void amdgpu_amdx_ras_errors(struct amdgpu_device *adev, int block,
			    const struct ras_err_data *err_data,
			    const struct ras_query_context *qctx)
{
	struct amdgpu_amdx *p;
	struct ras_err_node *node;
	int xblock, idx;

	if (!err_data->ue_count && !err_data->ce_count && !err_data->de_count)
		return;
	xblock = amdx_amdgpu_ras_block_from_amdgpu(block);
	if (xblock < 0)
		return;
	p = amdgpu_amdx_hook_enter(adev, &idx);
	if (!p)
		return;
	dev_dbg(adev->dev, "amdx: block %d: %lu CE %lu UE %lu DE, event type %d id %llu\n",
		block, err_data->ce_count, err_data->ue_count,
		err_data->de_count, qctx->evid.type, qctx->evid.event_id);
	if (list_empty(&err_data->err_node_list)) {
		amdgpu_amdx_pass_counts(p, xblock, NULL, err_data->ce_count,
					err_data->ue_count, err_data->de_count,
					&qctx->evid);
	} else {
		list_for_each_entry(node, &err_data->err_node_list, node)
			amdgpu_amdx_pass_counts(p, xblock,
						&node->err_info.mcm_info,
						node->err_info.ce_count,
						node->err_info.ue_count,
						node->err_info.de_count,
						&qctx->evid);
	}
	amdgpu_amdx_hook_exit(p, idx);
}

/**
 * amdgpu_amdx_poison_consumed() - a process consumed a poison
 * @adev: the device.
 * @block: the amdgpu RAS block of the client that consumed it (enum
 *	amdgpu_ras_block): gfx, sdma or mmhub.
 * @xcp_id: the KFD node's partition (its amdgpu_xcp's id), or -1 for a
 *	device without partitions.
 * @pasid: the process.
 * @event_id: amdgpu's RAS event id of the consumption, which amdx's
 *	ERROR event carries (struct amdx_event_v2's driver_event), with the
 *	event's type (_v3's driver_event_type: poison consumption).
 *
 * One uncorrectable error of @block in partition @xcp_id, its instance
 * the partition's first XCC (gfx) or SDMA engine (sdma), 0 for mmhub,
 * consumed by the KFD's process of @pasid (its thread-group leader's
 * pid) with @pasid; by nobody named when the KFD no longer has it.
 *
 * Context: the KFD's interrupt work, process context, no lock of
 * amdgpu's or the KFD's held.
 */
void amdgpu_amdx_poison_consumed(struct amdgpu_device *adev, int block,
				 int xcp_id, u16 pasid, u64 event_id)
{
	const struct ras_event_id evid = {
		.type = RAS_EVENT_TYPE_POISON_CONSUMPTION,
		.event_id = event_id,
	};
	struct amdx_ras_error err = { .partition = AMDX_RAS_PARTITION_ALL };
	struct amdgpu_xcp_mgr *mgr = adev->xcp_mgr;
	enum AMDGPU_XCP_IP_BLOCK ip;
	struct amdgpu_amdx *p;
	struct pid *consumer = NULL;
	u32 mask;
	int xblock, idx;

	xblock = amdx_amdgpu_ras_block_from_amdgpu(block);
	if (xblock < 0)
		return;
	p = amdgpu_amdx_hook_enter(adev, &idx);
	if (!p)
		return;
	dev_info_ratelimited(adev->dev,
			     "amdx: poison consumed in block %d, partition %d, pasid %u, event id %llu\n",
			     block, xcp_id, pasid, event_id);
	err.block = xblock;
	/*
	 * No partition switch runs while a KFD node exists (amdgpu tears the
	 * KFD down around one), so the partitions are those of the node.
	 */
	if (mgr && xcp_id >= 0 && xcp_id < mgr->num_xcps &&
	    xcp_id < AMDX_MAX_PARTITIONS) {
		err.partition = xcp_id;
		ip = xblock == AMDX_RAS_BLOCK_GFX ? AMDGPU_XCP_GFX :
		     AMDGPU_XCP_SDMA;
		if (xblock != AMDX_RAS_BLOCK_MMHUB &&
		    !amdgpu_xcp_get_inst_details(&mgr->xcp[xcp_id], ip, &mask) &&
		    mask)
			err.instance = __ffs(mask);
	}
#if IS_ENABLED(CONFIG_HSA_AMD)
	{
		struct kfd_process *kp = kfd_lookup_process_by_pasid(pasid);

		if (kp) {
			consumer = get_task_pid(kp->lead_thread, PIDTYPE_TGID);
			kfd_unref_process(kp);
		}
	}
#endif
	if (consumer) {
		err.consumer = consumer;
		err.pasid = pasid;
	}
	amdgpu_amdx_event_set(&err, &evid);
	amdgpu_amdx_pass(p, &err, AMDX_RAS_TYPE_UE, 1);
	put_pid(consumer);
	amdgpu_amdx_hook_exit(p, idx);
}

/*
 * Whether amdgpu retires page @pfn for a poison: UMC 12's code
 * (umc_v12_0_ras, MI300's) logs each deferred error it converts in its
 * deferred-error log under the first page of the error's row
 * (umc_v12_0_update_ecc_status(): the row's address with the column bits
 * masked, the C4 bit's page for row 0), and retires the row's pages from
 * that log (umc_v12_0_query_ras_ecc_err_addr()).  The log keeps its
 * entries until amdgpu's RAS fini; only their presence is read, under
 * RCU, so no lock of amdgpu's is taken beside its recovery_lock.
 */
static bool amdgpu_amdx_page_poisoned(struct amdgpu_device *adev, u64 pfn)
{
	struct amdgpu_ras *con = amdgpu_ras_get_context(adev);
	u64 row;
	bool found;

	if (!con || adev->umc.ras != &umc_v12_0_ras)
		return false;
	row = UMC_V12_ADDR_MASK_BAD_COLS(pfn << AMDGPU_GPU_PAGE_SHIFT) >>
	      AMDGPU_GPU_PAGE_SHIFT;
	if (!row)
		row = BIT_ULL(UMC_V12_0_PA_C4_BIT) >> AMDGPU_GPU_PAGE_SHIFT;
	rcu_read_lock();
	found = radix_tree_lookup(&con->umc_ecc_log.de_page_tree, row);
	rcu_read_unlock();
	return found;
}

/**
 * amdgpu_amdx_page_retired() - amdgpu retired a VRAM page
 * @adev: the device.
 * @bps: amdgpu's record of the page.
 *
 * An error of the page's type at its address, so that amdx retires it
 * too and runs its per-page containment: a deferred error (poison) for a
 * page of a row in amdgpu's deferred-error log, uncounted (amdgpu counted
 * the poison once, and its query passed that count on), else amdgpu's
 * record's type, counted (its record of a poison's page says
 * uncorrectable; a page it retires for a UE or CE outside its query, as
 * its MCE notifier and debugfs do, is in none of its counts).
 *
 * Context: process context, amdgpu's recovery_lock held.
 */
void amdgpu_amdx_page_retired(struct amdgpu_device *adev,
			      const struct eeprom_table_record *bps)
{
	struct amdx_amdgpu_mem_range ranges[AMDX_MAX_MEM_PARTITIONS];
	struct amdx_ras_error err = {
		.block = AMDX_RAS_BLOCK_UMC,
		.partition = AMDX_RAS_PARTITION_ALL,
		.flags = AMDX_RAS_ERR_F_ADDRESS,
	};
	struct amdx_badpage_record rec;
	struct amdgpu_amdx *p;
	int idx, ret;
	u32 type;

	p = amdgpu_amdx_hook_enter(adev, &idx);
	if (!p)
		return;
	/* The mirror's layout is asserted in amdx_amdgpu_xlate.c. */
	ret = amdx_amdgpu_badpage_from_amdgpu((const void *)bps, ranges,
					      amdgpu_amdx_mem_ranges(adev, ranges),
					      &rec);
	if (ret) {
		dev_warn_ratelimited(adev->dev,
				     "amdx: retired page %#llx of type %d not passed on: %d\n",
				     bps->retired_page, bps->err_type, ret);
	} else {
		err.address = rec.address;
		err.mem_partition = rec.partition;
		if (rec.cause == AMDX_BADPAGE_CAUSE_CE) {
			type = AMDX_RAS_TYPE_CE;
		} else if (amdgpu_amdx_page_poisoned(adev, bps->retired_page)) {
			type = AMDX_RAS_TYPE_DE;
			err.flags |= AMDX_RAS_ERR_F_UNCOUNTED;
		} else {
			type = AMDX_RAS_TYPE_UE;
		}
		amdgpu_amdx_pass(p, &err, type, 1);
	}
	amdgpu_amdx_hook_exit(p, idx);
}

/**
 * amdgpu_amdx_reset_event() - tell amdx of a reset amdgpu runs on its own
 * @p: the provider's data of the device.
 * @begin: the reset starts (else it is over).
 * @result: with !@begin, amdgpu's result of the recovery.
 *
 * amdx_device_reset_begin() or amdx_device_reset_end(); a KUnit static
 * stub point, through which tests/amdgpu_amdx_test.c sees the events.
 */
void amdgpu_amdx_reset_event(struct amdgpu_amdx *p, bool begin, int result)
{
	KUNIT_STATIC_STUB_REDIRECT(amdgpu_amdx_reset_event, p, begin, result);
	if (begin)
		amdx_device_reset_begin(p->xdev);
	else
		amdx_device_reset_end(p->xdev, result);
}

/**
 * amdgpu_amdx_mark_rma() - tell amdx that amdgpu flagged a board for RMA
 * @xdev: its amdx device.
 *
 * amdx_device_rma(); a KUnit static stub point.
 */
void amdgpu_amdx_mark_rma(struct amdx_device *xdev)
{
	KUNIT_STATIC_STUB_REDIRECT(amdgpu_amdx_mark_rma, xdev);
	amdx_device_rma(xdev);
}

/*
 * What 6.12 does not say of a link (Documentation/fabric.rst, "The amdgpu
 * provider's links"), declared absent rather than left reading 0: no state
 * change after the join (gpu_metrics has no per-link status), no width per
 * link, no error counter per link (the WAFL errors are the device's
 * xgmi_wafl RAS block).
 */
#define AMDGPU_AMDX_LINK_ABSENT	(AMDX_LINK_F_NO_STATE | AMDX_LINK_F_NO_WIDTH | \
				 AMDX_LINK_F_NO_COUNTERS)

/**
 * amdgpu_amdx_link_report() - pass one fabric link observation on to amdx
 * @adev: the device at one end of the link.
 * @xdev: its amdx device.
 * @peer: the amdx device id at the other end.
 * @obs: %AMDX_LINK_OBS_*.
 * @arg: its lanes or count.
 *
 * amdx_link_report(); a KUnit static stub point, through which
 * tests/amdgpu_amdx_test.c sees what the provider reports of its links.
 *
 * Return: amdx_link_report()'s.
 */
int amdgpu_amdx_link_report(struct amdgpu_device *adev,
			    struct amdx_device *xdev, u32 peer, u32 obs,
			    u32 arg)
{
	KUNIT_STATIC_STUB_REDIRECT(amdgpu_amdx_link_report, adev, xdev, peer,
				   obs, arg);
	return amdx_link_report(xdev, peer, obs, arg);
}

/*
 * A recovery of amdgpu's starts (@begin) or ends with @result: the event,
 * unless it is the one amdx asked for (@ctx is the provider's reset
 * work's: the core reports that one around its request); at the end,
 * amdgpu's RMA flag as amdx's.
 */
static void amdgpu_amdx_reset_hook(struct amdgpu_device *adev,
				   const struct amdgpu_reset_context *ctx,
				   bool begin, int result)
{
	struct amdgpu_amdx *p;
	int idx;

	p = amdgpu_amdx_hook_enter(adev, &idx);
	if (!p)
		return;
	if (ctx != READ_ONCE(p->own_reset))
		amdgpu_amdx_reset_event(p, begin, result);
	if (!begin && amdgpu_ras_is_rma(adev))
		amdgpu_amdx_mark_rma(p->xdev);
	amdgpu_amdx_hook_exit(p, idx);
}

/**
 * amdgpu_amdx_reset_begin() - amdgpu's recovery of a device starts
 * @adev: the device amdgpu_device_gpu_recover() was called for (with its
 *	hive, if any, which amdx's event names).
 * @ctx: the recovery's reset context.
 *
 * A DEVICE_RESET_BEGIN event, unless this is the recovery amdx asked for
 * (the provider's own reset work, @ctx its context): the core has
 * reported that one around its device_reset op.
 *
 * Context: process context, in amdgpu_device_gpu_recover(), before it
 * takes the hive's lock or the reset domain's.
 */
void amdgpu_amdx_reset_begin(struct amdgpu_device *adev,
			     const struct amdgpu_reset_context *ctx)
{
	amdgpu_amdx_reset_hook(adev, ctx, true, 0);
}

/**
 * amdgpu_amdx_reset_end() - amdgpu's recovery of a device is over
 * @adev: the device of amdgpu_amdx_reset_begin().
 * @ctx: the recovery's reset context.
 * @result: what amdgpu_device_gpu_recover() returns.
 *
 * A DEVICE_RESET_END event with @result, again not for the recovery amdx
 * asked for; and when amdgpu flagged the board for RMA (its bad pages
 * reached its threshold: amdgpu then ends its recoveries with -EINVAL),
 * amdx flags it too.
 *
 * Context: process context, at the end of amdgpu_device_gpu_recover().
 */
void amdgpu_amdx_reset_end(struct amdgpu_device *adev,
			   const struct amdgpu_reset_context *ctx, int result)
{
	amdgpu_amdx_reset_hook(adev, ctx, false, result);
}

/*
 * Whether amdgpu counts an injected error of @ag_block and @ag_type by
 * itself, under the RAS event of its interrupt: a poison in UMC 12 in
 * poison mode, whose poison creation interrupt marks a poison creation
 * event and has amdgpu's page-retirement thread query UMC under it
 * (amdgpu_ras_poison_creation_handler()), with UMC's RAS interrupt
 * handler and that thread running.  The injection then waits for that
 * query: one of its own, outside the event, would count the poison first,
 * and amdx's ERROR record of it would carry no event id.
 */
static bool amdgpu_amdx_counted_by_interrupt(struct amdgpu_device *adev,
					     int ag_block, int ag_type)
{
	struct amdgpu_ras *con = amdgpu_ras_get_context(adev);
	struct ras_common_if head = { .block = AMDGPU_RAS_BLOCK__UMC };
	struct ras_manager *obj;

	if (ag_block != AMDGPU_RAS_BLOCK__UMC ||
	    ag_type != AMDGPU_RAS_ERROR__POISON || !con ||
	    !con->page_retirement_thread ||
	    amdgpu_ip_version(adev, UMC_HWIP, 0) < IP_VERSION(12, 0, 0) ||
	    !amdgpu_ras_is_poison_mode_supported(adev))
		return false;
	obj = amdgpu_ras_find_obj(adev, &head);
	return obj && obj->ih_data.inuse;
}

static int amdgpu_amdx_ras_inject(struct amdx_device *xdev,
				  const struct amdx_ras_inject *inj, u64 *seq)
{
	struct amdgpu_amdx *p = amdx_device_priv(xdev);
	struct amdgpu_device *adev = p->adev;
	int ag_block = amdx_amdgpu_ras_block_to_amdgpu(inj->block);
	int ag_type = amdx_amdgpu_ras_type_to_amdgpu(inj->type);
	struct ras_query_if q = { .head.block = ag_block };
	struct ras_inject_if info = {};
	unsigned long deadline;
	int ret = 0, i, idx;
	bool query;
	u32 hits;

	if (ag_block < 0 || ag_type < 0 || inj->instance >= 32)
		return -EINVAL;
	info.head.block = ag_block;
	info.head.type = ag_type;
	info.address = inj->address;
	info.instance_mask = BIT(inj->instance);

	if (!drm_dev_enter(adev_to_drm(adev), &idx))
		return -ENODEV;
	mutex_lock(&p->inject_lock);
	mutex_lock(&p->ras_lock);
	p->injecting = inj->block;
	p->inject_hits = 0;
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
	/*
	 * The error reaches amdgpu's statistics later, through the firmware:
	 * query as amdgpu's own paths do, and the hook passes it on (a UMC
	 * DE's count; its pages follow when amdgpu's retirement work runs);
	 * or, for what amdgpu counts under its interrupt's event, wait for
	 * amdgpu's own query.
	 */
	query = !amdgpu_amdx_counted_by_interrupt(adev, ag_block, ag_type);
	deadline = jiffies + msecs_to_jiffies(AMDGPU_AMDX_INJECT_WAIT_MS);
	while (!ret) {
		if (query)
			amdgpu_ras_query_error_status(adev, &q);
		mutex_lock(&p->ras_lock);
		hits = p->inject_hits;
		if (hits && seq)
			*seq = p->inject_seq;
		mutex_unlock(&p->ras_lock);
		if (hits)
			break;
		if (time_after(jiffies, deadline)) {
			dev_info_ratelimited(adev->dev,
					     "amdx: injected into block %d, no error counted within %d ms%s\n",
					     ag_block, AMDGPU_AMDX_INJECT_WAIT_MS,
					     query ? "" : " by amdgpu's poison creation handler");
			ret = -ETIMEDOUT;
		} else if (fatal_signal_pending(current)) {
			ret = -EINTR;
		} else {
			msleep(AMDGPU_AMDX_INJECT_POLL_MS);
		}
	}
	mutex_lock(&p->ras_lock);
	p->injecting = -1;
	mutex_unlock(&p->ras_lock);
	mutex_unlock(&p->inject_lock);
	drm_dev_exit(idx);
	return ret;
}

/*
 * amdgpu's recovery, as its debugfs amdgpu_gpu_recover runs one: a full
 * reset, a runtime-PM reference held, no core dump.  Queued in the reset
 * domain, it runs after whatever amdgpu queued there before it (its RAS
 * recovery among them); if amdgpu reset the device in between, that
 * reset was the one amdx asked for, and none follows.  Nor does one when
 * amdgpu's RAS has queued its recovery behind this work since amdx asked
 * (amdgpu_ras_reset_gpu(): in_recovery set until that recovery ends): it
 * resets the device in the mode amdgpu picks, and stands for amdx's.
 */
static void amdgpu_amdx_reset_work(struct work_struct *work)
{
	struct amdgpu_amdx *p = container_of(work, struct amdgpu_amdx,
					     reset_work);
	struct amdgpu_device *adev = p->adev;
	struct amdgpu_reset_context ctx = {
		.method = AMD_RESET_METHOD_NONE,
		.reset_req_dev = adev,
		.src = AMDGPU_RESET_SRC_USER,
	};
#if IS_ENABLED(CONFIG_KUNIT)
	/* The suites' stubs reach the work of the test that asked. */
	struct kunit *test = current->kunit_test;

	current->kunit_test = READ_ONCE(p->reset_test);
#endif
	if (atomic_read(&adev->gpu_reset_counter) != READ_ONCE(p->reset_count)) {
		dev_info(adev->dev,
			 "amdx: amdgpu reset the device since amdx asked: no second reset\n");
		goto out;
	}
	if (amdgpu_ras_in_recovery(adev)) {
		dev_info(adev->dev,
			 "amdx: amdgpu's RAS recovery is queued: it stands for the reset amdx asked for\n");
		goto out;
	}
	set_bit(AMDGPU_NEED_FULL_RESET, &ctx.flags);
	set_bit(AMDGPU_SKIP_COREDUMP, &ctx.flags);
	if (pm_runtime_get_sync(adev->dev) >= 0) {
		int ret;

		/* amdx_ras_device_reset() reports this one, not the hooks. */
		WRITE_ONCE(p->own_reset, &ctx);
		ret = amdgpu_device_gpu_recover(adev, NULL, &ctx);
		WRITE_ONCE(p->own_reset, NULL);

		if (ret)
			dev_err(adev->dev, "amdx: amdgpu's recovery failed: %d\n",
				ret);
	}
	pm_runtime_mark_last_busy(adev->dev);
	pm_runtime_put_autosuspend(adev->dev);
out:;
#if IS_ENABLED(CONFIG_KUNIT)
	current->kunit_test = test;
#endif
}

/*
 * amdx's containment asks for a reset from inside amdgpu's RAS context
 * (reports come from amdgpu's queries, some of them in the reset domain's
 * own work items), so the op never waits for the reset: it queues
 * amdgpu's recovery in the reset domain and returns 0, the reset handed
 * to amdgpu (amdgpu logs its outcome).  Never a second reset: while
 * amdgpu recovers the device itself (its RAS recovery, queued before amdx
 * hears of a consumed poison, or any reset in the domain) the op returns
 * -EALREADY; a request while one is queued is that one; with
 * amdgpu.gpu_recovery=0 (amdgpu's own recovery off) -EOPNOTSUPP.
 */
static int amdgpu_amdx_device_reset(struct amdx_device *xdev)
{
	struct amdgpu_amdx *p = amdx_device_priv(xdev);
	struct amdgpu_device *adev = p->adev;
	int ret = 0, idx;

	if (!drm_dev_enter(adev_to_drm(adev), &idx))
		return -ENODEV;
	if (!amdgpu_device_should_recover_gpu(adev)) {
		dev_info_ratelimited(adev->dev,
				     "amdx: no device reset: amdgpu's GPU recovery is off (amdgpu.gpu_recovery)\n");
		ret = -EOPNOTSUPP;
	} else if (amdgpu_ras_in_recovery(adev) || amdgpu_in_reset(adev)) {
		dev_info_ratelimited(adev->dev,
				     "amdx: amdgpu is already recovering the device: no second reset\n");
		ret = -EALREADY;
	} else if (!work_pending(&p->reset_work)) {
		WRITE_ONCE(p->reset_count,
			   atomic_read(&adev->gpu_reset_counter));
		WRITE_ONCE(p->reset_test, kunit_get_current_test());
		amdgpu_reset_domain_schedule(adev->reset_domain,
					     &p->reset_work);
	}
	drm_dev_exit(idx);
	return ret;
}

static const struct amdx_provider_ops amdgpu_amdx_ops = {
	.get_state = amdgpu_amdx_get_state,
	.ras_inject = amdgpu_amdx_ras_inject,
	.device_reset = amdgpu_amdx_device_reset,
	.set_compute_mode = amdgpu_amdx_set_compute_mode,
	.set_memory_mode = amdgpu_amdx_set_memory_mode,
	.firmware = amdgpu_amdx_firmware,
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

/*
 * What a device reset waits for at least, in ms: the fixed waits of
 * amdgpu's reset of an MP1 13.0.6/13.0.14 (MI300) device, by the method
 * amdgpu picks (soc15_asic_reset_method()).  Mode 1:
 * smu_v13_0_6_mode1_reset() (smu_v13_0_6_ppt.c) sleeps
 * SMU13_MODE1_RESET_WAIT_TIME_IN_MS (smu_v13_0.h) after the SMU's
 * GfxDeviceDriverReset; mode 2: smu_v13_0_6_mode2_reset() sleeps 200 ms
 * before it restores the config space.  A floor, not the whole reset: the
 * waits bounded by a timeout and the re-init after them are not modelled.
 */
#define AMDGPU_AMDX_MODE2_RESET_MS	200

/* @adev's reset figure by amdgpu's method; 0 (amdx's default) for others. */
static u32 amdgpu_amdx_reset_ms(struct amdgpu_device *adev)
{
	if (!adev->asic_funcs || !adev->asic_funcs->reset_method)
		return 0;
	switch (amdgpu_asic_reset_method(adev)) {
	case AMD_RESET_METHOD_MODE1:
		return SMU13_MODE1_RESET_WAIT_TIME_IN_MS;
	case AMD_RESET_METHOD_MODE2:
		return AMDGPU_AMDX_MODE2_RESET_MS;
	default:
		return 0;
	}
}

/*
 * The PCIe switch above @pdev, as an id unique per switch (its upstream
 * port's domain, bus and devfn), 0 when @pdev is on a root port: the
 * first switch, upstream and downstream port, that is not the GPU's own;
 * an AMD switch internal to the GPU is passed over, as
 * amdgpu_device_get_aspm_pdev() (amdgpu_device.c) does for the link.
 * Domains above 0xffff share ids modulo 0x10000.
 */
static u32 amdgpu_amdx_pci_switch(struct pci_dev *pdev)
{
	struct pci_dev *ds, *us = pdev;

	while ((ds = pci_upstream_bridge(us))) {
		if (pci_pcie_type(ds) != PCI_EXP_TYPE_DOWNSTREAM)
			return 0;
		us = pci_upstream_bridge(ds);
		if (!us || pci_pcie_type(us) != PCI_EXP_TYPE_UPSTREAM)
			return 0;
		if (us->vendor == PCI_VENDOR_ID_ATI ||
		    us->vendor == PCI_VENDOR_ID_AMD)
			continue;
		return (u32)(pci_domain_nr(us->bus) & 0xffff) << 16 |
		       pci_dev_id(us);
	}
	return 0;
}

/*
 * The resets amdx may ask of @adev, and what they cost (amdgpu 6.12, GC
 * 9.4.3/9.4.4; Documentation/amdgpu.rst, "Resets"): a device reset
 * (amdgpu's recovery, the device_reset op) unless amdgpu's GPU recovery is
 * off, and with a hive the hive's, which amdgpu runs on every member at
 * once (the same figure).  No queue or pipe reset: amdgpu runs them only
 * from its own hang detection, with no entry for a queue amdx would name;
 * no partition reset and no VF in 6.12.  No secondary bus reset: amdgpu's
 * mode 1 and mode 2 are the SMU's resets of the device alone, so the
 * switch above it widens no reset.
 */
static void amdgpu_amdx_reset_desc(struct amdgpu_device *adev,
				   struct amdx_device_desc *desc)
{
	u32 ms = amdgpu_amdx_reset_ms(adev);

	desc->reset_flags = AMDX_RESET_F_CAPS;
	desc->pci_switch = amdgpu_amdx_pci_switch(adev->pdev);
	if (!amdgpu_device_should_recover_gpu(adev))
		return;
	desc->reset_caps = AMDX_RECOVER_CAP_DEVICE;
	desc->reset_ms[AMDX_RECOVER_DEVICE] = ms;
	if (desc->hive_id) {
		desc->reset_caps |= AMDX_RECOVER_CAP_HIVE;
		desc->reset_ms[AMDX_RECOVER_HIVE] = ms;
	}
}

/**
 * struct amdgpu_amdx_desc - what amdx is told of a device
 * @desc: the description.
 * @blocks: its RAS blocks.
 * @serial: its serial number.
 * @product: its product name.
 * @table: its bad-page table (@desc.badpages), kvfree()d by the caller.
 */
struct amdgpu_amdx_desc {
	struct amdx_device_desc desc;
	struct amdx_ras_block_info blocks[AMDX_RAS_BLOCK_COUNT];
	char serial[AMDX_SERIAL_LEN];
	char product[AMDX_PRODUCT_LEN];
	void *table;
};

/*
 * Describes @adev to amdx: 0, -ENODEV for a device amdx does not take
 * (logged), or -errno.  The caller kvfree()s @d->table.
 */
static int amdgpu_amdx_describe(struct amdgpu_device *adev,
				struct amdgpu_amdx_desc *d)
{
	struct amdx_device_desc *desc = &d->desc;
	size_t len;
	u32 num_xcc;
	int ret;

	if (!amdgpu_amdx_supported(adev))
		return -ENODEV;
	if (amdgpu_sriov_vf(adev)) {
		dev_info(adev->dev, "amdx: an SR-IOV VF, not registered\n");
		return -ENODEV;
	}
	num_xcc = NUM_XCC(adev->gfx.xcc_mask);
	desc->model = amdx_amdgpu_model(adev->pdev->device, num_xcc);
	if (desc->model == AMDX_MODEL_UNKNOWN || !adev->xcp_mgr) {
		dev_info(adev->dev,
			 "amdx: PCI id %04x with %u XCCs%s: no amdx model, not registered\n",
			 adev->pdev->device, num_xcc,
			 adev->xcp_mgr ? "" : ", no partition manager");
		return -ENODEV;
	}

	if (adev->fru_info && adev->fru_info->serial[0])
		strscpy(d->serial, adev->fru_info->serial, sizeof(d->serial));
	else
		snprintf(d->serial, sizeof(d->serial), "%016llx",
			 adev->unique_id);
	strscpy(d->product, adev->fru_info && adev->fru_info->product_name[0] ?
		adev->fru_info->product_name : "AMD Instinct",
		sizeof(d->product));
	amdgpu_amdx_ras_blocks(adev, num_xcc, d->blocks);
	desc->bdf = pci_name(adev->pdev);
	desc->serial = d->serial;
	desc->product = d->product;
	desc->hive_id = adev->gmc.xgmi.hive_id;
	desc->link_absent = AMDGPU_AMDX_LINK_ABSENT;
	desc->vram_size = adev->gmc.real_vram_size;
	desc->num_xcc = num_xcc;
	desc->num_sdma = adev->sdma.num_instances;
	desc->num_vcn = adev->vcn.num_vcn_inst;
	desc->supported_compute_modes =
		amdx_amdgpu_compute_modes(num_xcc, adev->gmc.num_mem_partitions);
	desc->supported_memory_modes = BIT(amdgpu_amdx_memory_mode(adev));
	desc->ras_blocks = d->blocks;
	amdgpu_amdx_reset_desc(adev, desc);

	ret = amdgpu_amdx_badpages(adev, &d->table, &len);
	if (ret) {
		dev_err(adev->dev, "amdx: reading the RAS EEPROM failed: %d\n",
			ret);
		return ret;
	}
	desc->badpages = d->table;
	desc->badpages_len = len;
	return 0;
}

/**
 * struct amdgpu_amdx_rma_board - a board amdgpu refused for RMA, kept in amdx
 * @node: in amdgpu_amdx_rmas.
 * @parent: its device (the PCI device's), to which the amdx device holds
 *	a reference.
 * @xdev: its amdx device.
 * @state: its state when amdgpu refused it; nothing changes it after.
 */
struct amdgpu_amdx_rma_board {
	struct list_head node;
	struct device *parent;
	struct amdx_device *xdev;
	struct amdx_device_state state;
};

static LIST_HEAD(amdgpu_amdx_rmas);
static DEFINE_MUTEX(amdgpu_amdx_rmas_lock);	/* amdgpu_amdx_rmas */

static int amdgpu_amdx_rma_get_state(struct amdx_device *xdev,
				     struct amdx_device_state *st)
{
	const struct amdgpu_amdx_rma_board *r = amdx_device_priv(xdev);

	*st = r->state;
	return 0;
}

/* amdgpu runs nothing on the board: its state only. */
static const struct amdx_provider_ops amdgpu_amdx_rma_ops = {
	.get_state = amdgpu_amdx_rma_get_state,
};

/**
 * amdgpu_amdx_rma_drop() - unregister the RMA boards amdgpu refused
 * @parent: the device of one board, or NULL for all of them.
 *
 * Context: process context.
 */
void amdgpu_amdx_rma_drop(struct device *parent)
{
	struct amdgpu_amdx_rma_board *r, *tmp;
	LIST_HEAD(gone);

	mutex_lock(&amdgpu_amdx_rmas_lock);
	list_for_each_entry_safe(r, tmp, &amdgpu_amdx_rmas, node)
		if (!parent || r->parent == parent)
			list_move(&r->node, &gone);
	mutex_unlock(&amdgpu_amdx_rmas_lock);
	list_for_each_entry_safe(r, tmp, &gone, node) {
		amdgpu_amdx_unregister(NULL, r->xdev);
		kfree(r);
	}
}

/*
 * A refused board's PCI function is deleted (hot removal, ``remove`` in
 * sysfs, its slot powered off): no driver is bound, so nothing of
 * amdgpu's runs, and the board leaves amdx here.
 */
static int amdgpu_amdx_rma_bus_notify(struct notifier_block *nb,
				      unsigned long action, void *data)
{
	if (action == BUS_NOTIFY_DEL_DEVICE)
		amdgpu_amdx_rma_drop(data);
	return NOTIFY_DONE;
}

static struct notifier_block amdgpu_amdx_rma_nb = {
	.notifier_call = amdgpu_amdx_rma_bus_notify,
};

/* Whether amdgpu_amdx_rma_nb is on the PCI bus, under its lock. */
static bool amdgpu_amdx_rma_nb_on;
static DEFINE_MUTEX(amdgpu_amdx_rma_nb_lock);

/* Watch the PCI bus for deleted devices from the first refused board on. */
static int amdgpu_amdx_rma_watch(void)
{
	int ret = 0;

	mutex_lock(&amdgpu_amdx_rma_nb_lock);
	if (!amdgpu_amdx_rma_nb_on) {
		ret = bus_register_notifier(&pci_bus_type, &amdgpu_amdx_rma_nb);
		amdgpu_amdx_rma_nb_on = !ret;
	}
	mutex_unlock(&amdgpu_amdx_rma_nb_lock);
	return ret;
}

/**
 * amdgpu_amdx_rma() - amdgpu refuses a board flagged for RMA
 * @adev: the device, whose probe is failing: amdgpu_ras_recovery_init()
 *	found the RAS EEPROM's bad pages at amdgpu's threshold and returns
 *	-EINVAL.
 *
 * amdx still sees the board: it is registered as amdgpu leaves it, with
 * its identity, its state and the bad-page table of its EEPROM, ops that
 * touch nothing of amdgpu's (get_state only: no partition switch, no
 * injection, no reset) and flagged for RMA (amdx_device_rma()).  It stays
 * until amdgpu probes the same device again (amdgpu_amdx_init()), the PCI
 * function is deleted (amdgpu_amdx_rma_bus_notify()) or amdgpu is
 * unloaded (amdgpu_amdx_exit()).
 *
 * Context: process context, in amdgpu's probe.
 */
void amdgpu_amdx_rma(struct amdgpu_device *adev)
{
	struct amdgpu_amdx_desc d = {};
	struct amdgpu_amdx_rma_board *r;
	struct amdx_device *xdev;
	int mode;

	amdgpu_amdx_rma_drop(adev->dev);
	if (amdgpu_amdx_rma_watch()) {
		dev_err(adev->dev, "amdx: cannot watch the PCI bus; the RMA board is not registered\n");
		return;
	}
	if (amdgpu_amdx_describe(adev, &d))
		return;
	/* amdgpu runs nothing on the board: no reset either. */
	d.desc.reset_caps = 0;
	/*
	 * Nor XGMI: amdgpu never adds the board to its hive (in 6.12.118
	 * amdgpu_xgmi_add_device() runs after the recovery init that refused
	 * it), and in a hive amdx would give it a full mesh of links, up.
	 */
	d.desc.hive_id = 0;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		goto out;
	/* NBIO's mode: amdgpu's partition query may WARN this early. */
	mode = amdx_amdgpu_compute_from_amdgpu(amdgpu_amdx_hw_compute_mode(adev));
	r->state.compute_mode = mode < 0 ? AMDX_COMPUTE_UNKNOWN : mode;
	r->state.memory_mode = amdgpu_amdx_memory_mode(adev);
	r->state.num_mem_partitions = 1;
	r->state.mem[0].size = adev->gmc.real_vram_size;
	r->parent = adev->dev;
	xdev = amdgpu_amdx_register(adev, &d.desc, &amdgpu_amdx_rma_ops, r);
	if (IS_ERR(xdev)) {
		dev_err(adev->dev, "amdx: registration of the RMA board failed: %pe\n",
			xdev);
		kfree(r);
		goto out;
	}
	r->xdev = xdev;
	amdgpu_amdx_mark_rma(xdev);
	mutex_lock(&amdgpu_amdx_rmas_lock);
	list_add(&r->node, &amdgpu_amdx_rmas);
	mutex_unlock(&amdgpu_amdx_rmas_lock);
	dev_warn(adev->dev, "amdx: amdgpu refuses this board (RMA); registered as device %u, flagged for RMA\n",
		 amdx_device_id(xdev));
out:
	kvfree(d.table);
}

/**
 * amdgpu_amdx_exit() - amdgpu is unloading
 *
 * Unregisters the RMA boards amdgpu refused (amdgpu_amdx_rma()).
 *
 * Context: process context, from amdgpu's module exit.
 */
void amdgpu_amdx_exit(void)
{
	mutex_lock(&amdgpu_amdx_rma_nb_lock);
	if (amdgpu_amdx_rma_nb_on)
		bus_unregister_notifier(&pci_bus_type, &amdgpu_amdx_rma_nb);
	amdgpu_amdx_rma_nb_on = false;
	mutex_unlock(&amdgpu_amdx_rma_nb_lock);
	amdgpu_amdx_rma_drop(NULL);
}

/* The provider's devices registered with amdx in an XGMI hive. */
static LIST_HEAD(amdgpu_amdx_hived);
static DEFINE_MUTEX(amdgpu_amdx_hived_lock);	/* amdgpu_amdx_hived */

/*
 * amdx gives each hive a full mesh of links, every one up
 * (Documentation/fabric.rst); what 6.12's amdgpu knows of them is the
 * PSP's XGMI topology, which amdgpu_xgmi_add_device() (amdgpu_xgmi.c)
 * refreshes for every member at every join: the hops to each peer
 * (amdgpu_xgmi_get_hops_count(), the link type in num_hops[7:6] masked
 * off) and, with the extended data, the links to it.  @p has just joined
 * its hive in amdx; against each member registered before it, from @p's
 * topology (as new as any member's): a peer one hop away has the link amdx
 * assumed, nothing to report; a peer further away has no direct link (the
 * firmware routes through another member), and amdx is told that link is
 * down, so that it routes around it; a peer missing from the topology is
 * unknown, logged.  amdx models one link per pair: more is logged.  No
 * state change, width or counter follows: 6.12 has no per-link status
 * (Documentation/amdgpu.rst).
 */
static void amdgpu_amdx_links_join(struct amdgpu_amdx *p)
{
	struct amdgpu_device *adev = p->adev;
	u64 hive = adev->gmc.xgmi.hive_id;
	struct amdgpu_amdx *q;
	int hops, links, ret;

	if (!hive)
		return;
	mutex_lock(&amdgpu_amdx_hived_lock);
	list_for_each_entry(q, &amdgpu_amdx_hived, hive_node) {
		if (q->adev->gmc.xgmi.hive_id != hive)
			continue;
		hops = amdgpu_xgmi_get_hops_count(adev, q->adev);
		if (hops <= 0) {
			dev_warn(adev->dev,
				 "amdx: XGMI peer %s (node %#llx) is not in the PSP's topology: its link's state is unknown\n",
				 pci_name(q->adev->pdev), q->adev->gmc.xgmi.node_id);
			continue;
		}
		links = amdgpu_xgmi_get_num_links(adev, q->adev);
		if (links > 1)
			dev_info(adev->dev,
				 "amdx: %d XGMI links to %s; amdx models one\n",
				 links, pci_name(q->adev->pdev));
		if (hops == 1)
			continue;
		dev_info(adev->dev,
			 "amdx: XGMI peer %s is %d hops away: no direct link, reported down\n",
			 pci_name(q->adev->pdev), hops);
		ret = amdgpu_amdx_link_report(adev, p->xdev,
					      amdx_device_id(q->xdev),
					      AMDX_LINK_OBS_DOWN, 0);
		if (ret)
			dev_warn(adev->dev,
				 "amdx: the link to %s was not reported: %d\n",
				 pci_name(q->adev->pdev), ret);
	}
	list_add_tail(&p->hive_node, &amdgpu_amdx_hived);
	mutex_unlock(&amdgpu_amdx_hived_lock);
}

/* @p leaves its hive's list; its links leave amdx with the device. */
static void amdgpu_amdx_links_leave(struct amdgpu_amdx *p)
{
	mutex_lock(&amdgpu_amdx_hived_lock);
	list_del_init(&p->hive_node);
	mutex_unlock(&amdgpu_amdx_hived_lock);
}

/**
 * amdgpu_amdx_init() - register an amdgpu device with amdx
 * @adev: a device amdgpu_pci_probe() has brought up and registered.
 *
 * Does nothing for a device that is not GC 9.4.3/9.4.4, for an SR-IOV VF
 * and for a model amdx does not know; a failure is logged and leaves
 * amdgpu working without amdx.  A board amdgpu refused before (RMA) and
 * now takes (its threshold raised) leaves amdx first.
 *
 * Context: process context, from amdgpu_pci_probe().
 */
void amdgpu_amdx_init(struct amdgpu_device *adev)
{
	struct amdgpu_amdx_desc d = {};
	struct amdgpu_amdx *p;
	struct amdx_device *xdev;

	amdgpu_amdx_rma_drop(adev->dev);
	if (amdgpu_amdx_describe(adev, &d))
		return;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p) {
		kvfree(d.table);
		return;
	}
	p->adev = adev;
	p->num_xcc = d.desc.num_xcc;
	p->injecting = -1;
	init_rwsem(&p->gate);
	mutex_init(&p->ras_lock);
	mutex_init(&p->inject_lock);
	INIT_WORK(&p->reset_work, amdgpu_amdx_reset_work);
	INIT_LIST_HEAD(&p->hive_node);

	xdev = amdgpu_amdx_register(adev, &d.desc, &amdgpu_amdx_ops, p);
	kvfree(d.table);
	if (IS_ERR(xdev)) {
		dev_err(adev->dev, "amdx: registration failed: %pe\n", xdev);
		mutex_destroy(&p->inject_lock);
		mutex_destroy(&p->ras_lock);
		kfree(p);
		return;
	}
	p->xdev = xdev;
	/* The hooks see the device only once it is complete. */
	smp_store_release(&adev->amdx, p);
	dev_info(adev->dev, "amdx: registered as device %u\n",
		 amdx_device_id(xdev));
	amdgpu_amdx_links_join(p);
}

/**
 * amdgpu_amdx_fini() - unregister an amdgpu device from amdx
 * @adev: the device, first thing in amdgpu_pci_remove().
 *
 * After this returns amdx calls no op of the device, the RAS hooks report
 * nothing and no reset amdx asked for is queued; the provider data stays
 * for amdgpu_amdx_free().
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
	amdgpu_amdx_links_leave(p);
	amdgpu_amdx_unregister(adev, p->xdev);
	p->xdev = NULL;
	/* amdx asks for no reset any more: none is left queued. */
	cancel_work_sync(&p->reset_work);
}

/**
 * amdgpu_amdx_free() - free the provider data of an amdgpu device
 * @adev: the device, at the end of amdgpu_device_fini_sw(), once amdgpu's
 *	RAS work is cancelled.
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

/*
 * This amdgpu is the amdgpu-amdx package's, not the kernel's: say so in
 * modinfo, which DKMS compares before it installs a module over the
 * kernel's own (which has no version).
 */
MODULE_VERSION(AMDGPU_AMDX_VERSION);
