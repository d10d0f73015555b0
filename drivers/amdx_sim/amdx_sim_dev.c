// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: simulated devices
 *
 * A simulated device is a &struct device named ``amdx_sim<ID>`` on the
 * amdx_sim bus, with the static facts of its model (XCC, SDMA and VCN
 * counts, partition modes, RAS blocks), a derived identity (BDF, serial,
 * product name), a VRAM allocator and, on kernels with
 * CONFIG_DEVICE_PRIVATE, ZONE_DEVICE pages backing that VRAM.
 *
 * Life cycle, all under the bus's list lock::
 *
 *    create:  device_add -> VRAM (+ devmem) -> debugfs -> amdx_device_register
 *             -> hang detection open
 *    destroy: hang detection stopped -> amdx_device_unregister -> debugfs
 *             -> devmem + VRAM -> device_unregister
 *
 * amdx_device_unregister() returns only when the core will call no more
 * provider ops, so everything the ops touch is freed after it.  The
 * structure itself lives until the last reference on @dev is gone (the
 * core's class device is a child of @dev and pins it), so the core may
 * keep a parent pointer for as long as it likes.
 */
#define pr_fmt(fmt) "amdx_sim: " fmt

#include <linux/bits.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/jhash.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <amdx/amdx_provider.h>
#include <amdx/amdx_vram.h>

#include "amdx_sim.h"

/*
 * Error types per block: memory and compute blocks report CE, UE and
 * deferred errors; links CE and UE; hdp only UE (so that a block with an
 * unsupported type exists).
 */
#define AMDX_SIM_RAS_ALL	(BIT(AMDX_RAS_TYPE_CE) | BIT(AMDX_RAS_TYPE_UE) | \
				 BIT(AMDX_RAS_TYPE_DE))
#define AMDX_SIM_RAS_LINK	(BIT(AMDX_RAS_TYPE_CE) | BIT(AMDX_RAS_TYPE_UE))
#define AMDX_SIM_RAS_UMC	AMDX_SIM_RAS_ALL
#define AMDX_SIM_RAS_GFX	AMDX_SIM_RAS_ALL
#define AMDX_SIM_RAS_SDMA	AMDX_SIM_RAS_ALL
#define AMDX_SIM_RAS_MMHUB	AMDX_SIM_RAS_LINK
#define AMDX_SIM_RAS_XGMI_WAFL	AMDX_SIM_RAS_LINK
#define AMDX_SIM_RAS_PCIE_BIF	AMDX_SIM_RAS_LINK
#define AMDX_SIM_RAS_HDP	BIT(AMDX_RAS_TYPE_UE)
#define AMDX_SIM_RAS(_name, _instances, _B) \
	{ #_name, _instances, AMDX_RAS_BLOCK_##_B, AMDX_SIM_RAS_##_B }

static const struct amdx_sim_ras_block amdx_sim_mi300x_ras[] = {
	AMDX_SIM_RAS(umc, 32, UMC),
	AMDX_SIM_RAS(gfx, 8, GFX),
	AMDX_SIM_RAS(sdma, 16, SDMA),
	AMDX_SIM_RAS(mmhub, 4, MMHUB),
	AMDX_SIM_RAS(xgmi_wafl, 8, XGMI_WAFL),
	AMDX_SIM_RAS(hdp, 1, HDP),
	AMDX_SIM_RAS(pcie_bif, 1, PCIE_BIF),
};

static const struct amdx_sim_ras_block amdx_sim_mi300a_ras[] = {
	AMDX_SIM_RAS(umc, 32, UMC),
	AMDX_SIM_RAS(gfx, 6, GFX),
	AMDX_SIM_RAS(sdma, 12, SDMA),
	AMDX_SIM_RAS(mmhub, 4, MMHUB),
	AMDX_SIM_RAS(xgmi_wafl, 4, XGMI_WAFL),
	AMDX_SIM_RAS(hdp, 1, HDP),
	AMDX_SIM_RAS(pcie_bif, 1, PCIE_BIF),
};

static const struct amdx_sim_ras_block amdx_sim_mi308x_ras[] = {
	AMDX_SIM_RAS(umc, 16, UMC),
	AMDX_SIM_RAS(gfx, 4, GFX),
	AMDX_SIM_RAS(sdma, 8, SDMA),
	AMDX_SIM_RAS(mmhub, 2, MMHUB),
	AMDX_SIM_RAS(xgmi_wafl, 8, XGMI_WAFL),
	AMDX_SIM_RAS(hdp, 1, HDP),
	AMDX_SIM_RAS(pcie_bif, 1, PCIE_BIF),
};

static const struct amdx_sim_model amdx_sim_models[] = {
	{
		.model = AMDX_MODEL_MI300X,
		.name = "mi300x",
		.product = "AMD Instinct MI300X (amdx_sim)",
		.num_xcc = 8,
		.num_sdma = 16,
		.num_vcn = 4,
		.compute_modes = BIT(AMDX_COMPUTE_SPX) | BIT(AMDX_COMPUTE_DPX) |
				 BIT(AMDX_COMPUTE_QPX) | BIT(AMDX_COMPUTE_CPX),
		.memory_modes = BIT(AMDX_MEMORY_NPS1) | BIT(AMDX_MEMORY_NPS2) |
				BIT(AMDX_MEMORY_NPS4),
		.max_vfs = 8,
		.ras_blocks = amdx_sim_mi300x_ras,
		.num_ras_blocks = ARRAY_SIZE(amdx_sim_mi300x_ras),
	},
	{
		.model = AMDX_MODEL_MI300A,
		.name = "mi300a",
		.product = "AMD Instinct MI300A (amdx_sim)",
		.num_xcc = 6,
		.num_sdma = 12,
		.num_vcn = 3,
		.compute_modes = BIT(AMDX_COMPUTE_SPX) | BIT(AMDX_COMPUTE_TPX) |
				 BIT(AMDX_COMPUTE_CPX),
		.memory_modes = BIT(AMDX_MEMORY_NPS1),
		.max_vfs = 0,
		.ras_blocks = amdx_sim_mi300a_ras,
		.num_ras_blocks = ARRAY_SIZE(amdx_sim_mi300a_ras),
	},
	{
		.model = AMDX_MODEL_MI308X,
		.name = "mi308x",
		.product = "AMD Instinct MI308X (amdx_sim)",
		.num_xcc = 4,
		.num_sdma = 8,
		.num_vcn = 2,
		.compute_modes = BIT(AMDX_COMPUTE_SPX) | BIT(AMDX_COMPUTE_DPX) |
				 BIT(AMDX_COMPUTE_CPX),
		.memory_modes = BIT(AMDX_MEMORY_NPS1) | BIT(AMDX_MEMORY_NPS4),
		.max_vfs = 4,
		.ras_blocks = amdx_sim_mi308x_ras,
		.num_ras_blocks = ARRAY_SIZE(amdx_sim_mi308x_ras),
	},
};

/**
 * amdx_sim_model_find() - look a model up by name
 * @name: "mi300x", "mi300a" or "mi308x".
 *
 * Return: the model, NULL if @name is unknown.
 */
const struct amdx_sim_model *amdx_sim_model_find(const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(amdx_sim_models); i++)
		if (!strcmp(amdx_sim_models[i].name, name))
			return &amdx_sim_models[i];
	return NULL;
}

/**
 * amdx_sim_model_default() - the model new_device uses without model=
 *
 * Return: the MI300X model.
 */
const struct amdx_sim_model *amdx_sim_model_default(void)
{
	return &amdx_sim_models[0];
}

static int amdx_sim_get_state(struct amdx_device *adev,
			      struct amdx_device_state *st)
{
	struct amdx_sim_dev *sd = amdx_device_priv(adev);
	u32 i, n, foreign = atomic_read(&sd->reported_compute_mode);

	mutex_lock(&sd->state_lock);
	st->compute_mode = foreign ?: sd->compute_mode;
	st->memory_mode = sd->memory_mode;
	st->num_vfs = sd->num_vfs;
	mutex_unlock(&sd->state_lock);
	for (i = 0; i < st->num_vfs && i < AMDX_MAX_VFS; i++)
		st->vf_vram_used[i] = amdx_vram_owner_used(sd->vram,
							   AMDX_OWNER_VF(i))
				      << PAGE_SHIFT;

	n = min_t(u32, amdx_vram_num_partitions(sd->vram),
		  AMDX_MAX_MEM_PARTITIONS);
	st->num_mem_partitions = n;
	for (i = 0; i < n; i++) {
		st->mem[i].base = amdx_vram_part_base(sd->vram, i) << PAGE_SHIFT;
		st->mem[i].size = amdx_vram_part_size(sd->vram, i) << PAGE_SHIFT;
		st->mem[i].free = amdx_vram_part_free(sd->vram, i) << PAGE_SHIFT;
	}
	return 0;
}

/*
 * The firmware versions the simulated devices report (%AMDX_QUERY_FIRMWARE),
 * indexed by %AMDX_FW_* - 1, as amdgpu's ucode fw_version and
 * feature_version of an MI300X; a version of 0 leaves that firmware out.
 * Module parameters, so a test can set them: fw_version=a,b,c,...
 */
static unsigned int amdx_sim_fw_version[AMDX_FW_COUNT - 1] = {
	0x00557100,	/* SMU 85.113.0 */
	0x0036003b,	/* PSP SOS */
	0x1b000049,	/* PSP RAS TA */
	0x2000001e,	/* PSP XGMI TA */
	0x00000099,	/* MEC */
	0x00000022,	/* RLC */
	0x00000015,	/* SDMA */
	0x0a119009,	/* VCN */
};

static unsigned int amdx_sim_fw_feature[AMDX_FW_COUNT - 1] = {
	0, 0, 0, 0, 50, 1, 60, 0,
};
module_param_array_named(fw_version, amdx_sim_fw_version, uint, NULL, 0444);
MODULE_PARM_DESC(fw_version,
		 "Firmware versions reported by AMDX_FW_* id - 1 (0: not reported)");
module_param_array_named(fw_feature, amdx_sim_fw_feature, uint, NULL, 0444);
MODULE_PARM_DESC(fw_feature, "Firmware feature versions by AMDX_FW_* id - 1");

static int amdx_sim_firmware(struct amdx_device *adev,
			     struct amdx_query_firmware *fw)
{
	u32 i, n = 0;

	strscpy(fw->provider, "amdx_sim", sizeof(fw->provider));
	strscpy(fw->provider_version, AMDX_MODULE_VERSION,
		sizeof(fw->provider_version));
	for (i = 0; i < ARRAY_SIZE(amdx_sim_fw_version); i++) {
		if (!amdx_sim_fw_version[i])
			continue;
		fw->firmware[n].id = i + 1;
		fw->firmware[n].version = amdx_sim_fw_version[i];
		fw->firmware[n].feature = amdx_sim_fw_feature[i];
		n++;
	}
	fw->num_firmware = n;
	return 0;
}

static const struct amdx_provider_ops amdx_sim_ops = {
	.get_state = amdx_sim_get_state,
	.partition_step = amdx_sim_partition_step,
	.set_compute_mode = amdx_sim_set_compute_mode,
	.set_memory_mode = amdx_sim_set_memory_mode,
	.vf_enable = amdx_sim_vf_enable,
	.vf_disable = amdx_sim_vf_disable,
	.vf_configure = amdx_sim_vf_configure,
	.vf_flr = amdx_sim_vf_flr,
	.partition_reset = amdx_sim_partition_reset,
#if IS_ENABLED(CONFIG_DEVICE_PRIVATE)
	.vram_alloc_page = amdx_sim_vram_alloc_page,
	.vram_copy = amdx_sim_vram_copy,
	.vram_alloc_pages = amdx_sim_vram_alloc_pages,
	.vram_copy_pages = amdx_sim_vram_copy_pages,
	.vram_page_index = amdx_sim_vram_page_index,
	.vram_index_page = amdx_sim_vram_index_page,
	.vram_used_pages = amdx_sim_vram_used_pages,
#endif
	.vram_retire = amdx_sim_vram_retire,
	.vram_retired = amdx_sim_vram_retired,
	.ras_inject = amdx_sim_ras_inject,
	.device_reset = amdx_sim_device_reset,
	.badpages_store = amdx_sim_badpages_store,
	.queue_reset = amdx_sim_queue_reset,
	.self_test = amdx_sim_self_test,
	.firmware = amdx_sim_firmware,
};

/*
 * Default reset durations the simulated devices report, in ms: queue and
 * pipe resets are MES/HWS requests, a partition reset amdgpu's XCP reset,
 * a VF FLR the 10 ms guest ack plus the reset, a device reset Mode1's
 * fixed 500 ms wait (SMU 13) plus re-init, a hive reset every member's in
 * turn.  Figures of the simulator, not measurements: reset_ms= sets them.
 */
static const u32 amdx_sim_reset_ms_default[AMDX_RECOVER_HIVE + 1] = {
	[AMDX_RECOVER_QUEUE] = 5,
	[AMDX_RECOVER_PIPE] = 20,
	[AMDX_RECOVER_PARTITION] = 150,
	[AMDX_RECOVER_VF] = 60,
	[AMDX_RECOVER_DEVICE] = 1500,
	[AMDX_RECOVER_HIVE] = 4000,
};

/* The resets the device declares: resets=, or what its ops allow. */
static void amdx_sim_dev_resets(struct amdx_sim_dev *sd,
				struct amdx_device_desc *desc)
{
	const struct amdx_sim_params *p = &sd->params;
	u32 caps = p->resets, a;

	if (!caps) {
		caps = AMDX_RECOVER_CAP_QUEUE | AMDX_RECOVER_CAP_PIPE |
		       AMDX_RECOVER_CAP_DEVICE;
		if (sd->ops.partition_reset)
			caps |= AMDX_RECOVER_CAP_PARTITION;
		if (sd->ops.vf_flr)
			caps |= AMDX_RECOVER_CAP_VF;
		if (p->hive_id)
			caps |= AMDX_RECOVER_CAP_HIVE;
	}
	desc->reset_caps = caps;
	desc->pci_switch = p->pci_switch;
	if (p->pci_switch)
		desc->reset_flags |= AMDX_RESET_F_SBR;
	for (a = 0; a < ARRAY_SIZE(desc->reset_ms); a++)
		desc->reset_ms[a] = p->reset_ms[a] ?: amdx_sim_reset_ms_default[a];
}

/* The simulator's operations, less those the device is made without. */
static void amdx_sim_dev_ops(struct amdx_sim_dev *sd)
{
	struct amdx_provider_ops *ops = &sd->ops;
	u32 without = sd->params.without;

	*ops = amdx_sim_ops;
	if (without & AMDX_SIM_WITHOUT_MODES) {
		ops->set_compute_mode = NULL;
		ops->set_memory_mode = NULL;
	}
	if (without & AMDX_SIM_WITHOUT_SRIOV) {
		ops->vf_enable = NULL;
		ops->vf_disable = NULL;
		ops->vf_configure = NULL;
		ops->vf_flr = NULL;
	}
	if (without & AMDX_SIM_WITHOUT_RESET)
		ops->partition_reset = NULL;
	if (without & AMDX_SIM_WITHOUT_INJECT)
		ops->ras_inject = NULL;
	if (without & AMDX_SIM_WITHOUT_HMM) {
		ops->vram_alloc_page = NULL;
		ops->vram_copy = NULL;
		ops->vram_alloc_pages = NULL;
		ops->vram_copy_pages = NULL;
		ops->vram_page_index = NULL;
		ops->vram_index_page = NULL;
		ops->vram_used_pages = NULL;
	}
}

static void amdx_sim_dev_release(struct device *dev)
{
	struct amdx_sim_dev *sd = to_amdx_sim_dev(dev);

	mutex_destroy(&sd->state_lock);
	kfree(sd);
}

static void amdx_sim_dev_identity(struct amdx_sim_dev *sd)
{
	const struct amdx_sim_params *p = &sd->params;
	u32 bus = 0xc1 + p->id;
	u32 hash;

	/* 0000:c1:00.0 for id 0, counting up; ids above 62 spill into the domain */
	snprintf(sd->bdf, sizeof(sd->bdf), "%04x:%02x:00.0", bus >> 8,
		 bus & 0xff);
	hash = jhash(p->model->name, strlen(p->model->name), 0);
	snprintf(sd->serial, sizeof(sd->serial), "SIM%04X%08X", p->id, hash);
}

static int amdx_sim_dev_register_core(struct amdx_sim_dev *sd)
{
	const struct amdx_sim_model *m = sd->params.model;
	struct amdx_device_desc desc = {
		.model = m->model,
		.bdf = sd->bdf,
		.serial = sd->serial,
		.product = m->product,
		.hive_id = sd->params.hive_id,
		.pod = sd->params.pod,
		.vram_size = (u64)sd->params.vram_mib << 20,
		.num_xcc = m->num_xcc,
		.num_sdma = m->num_sdma,
		.num_vcn = m->num_vcn,
		.supported_compute_modes = m->compute_modes,
		.supported_memory_modes = m->memory_modes,
		.max_vfs = sd->params.max_vfs,
		.ras_blocks = sd->ras_blocks,
	};
	struct amdx_device *adev;
	void *badpages;

	amdx_sim_dev_ops(sd);
	amdx_sim_dev_resets(sd, &desc);
	amdx_sim_link_desc(sd, &desc);
	if (amdx_sim_vram_has_hmm(sd) &&
	    !(sd->params.without & AMDX_SIM_WITHOUT_HMM)) {
		desc.flags |= AMDX_DEVICE_F_HMM;
		desc.pgmap_owner = sd;
		desc.vram = sd->vram;
	}

	/* The board's EEPROM: pages retired before stay retired. */
	amdx_sim_ras_blocks(sd);
	badpages = amdx_sim_eeprom_read(sd->serial, &desc.badpages_len);
	desc.badpages = badpages;
	adev = amdx_device_register(&sd->dev, &desc, &sd->ops, sd);
	kvfree(badpages);
	if (IS_ERR(adev))
		return PTR_ERR(adev);
	sd->adev = adev;
	amdx_sim_devmem_set_device(sd);
	return 0;
}

/**
 * amdx_sim_dev_create() - create a simulated device and register it
 * @p: validated parameters; copied.
 *
 * Context: process context; the caller holds the bus's list lock and has
 * checked that @p->id is unused.
 * Return: the device, or an ERR_PTR() with nothing left behind.
 */
struct amdx_sim_dev *amdx_sim_dev_create(const struct amdx_sim_params *p)
{
	struct amdx_sim_dev *sd;
	int ret;

	sd = kzalloc(sizeof(*sd), GFP_KERNEL);
	if (!sd)
		return ERR_PTR(-ENOMEM);

	sd->params = *p;
	mutex_init(&sd->state_lock);
	sd->compute_mode = AMDX_COMPUTE_SPX;
	sd->memory_mode = AMDX_MEMORY_NPS1;
	INIT_LIST_HEAD(&sd->list);
	amdx_sim_hang_init(sd);
	amdx_sim_dev_identity(sd);

	device_initialize(&sd->dev);
	sd->dev.bus = &amdx_sim_bus;
	sd->dev.release = amdx_sim_dev_release;
	/* from here on, put_device() frees sd */
	ret = dev_set_name(&sd->dev, "amdx_sim%u", p->id);
	if (ret)
		goto err_put_device;

	ret = device_add(&sd->dev);
	if (ret)
		goto err_put_device;

	ret = amdx_sim_vram_init(sd);
	if (ret) {
		dev_err(&sd->dev, "VRAM setup failed: %pe\n", ERR_PTR(ret));
		goto err_device_del;
	}

	amdx_sim_debugfs_dev_init(sd);

	ret = amdx_sim_dev_register_core(sd);
	if (ret) {
		dev_err(&sd->dev, "amdx_device_register failed: %pe\n",
			ERR_PTR(ret));
		goto err_debugfs;
	}
	amdx_sim_hang_start(sd);

	dev_info(&sd->dev, "%s, %u MiB VRAM%s, max_vfs %u, hive %llx\n",
		 p->model->name, p->vram_mib,
		 amdx_sim_vram_has_hmm(sd) ? " (device-private)" : "",
		 p->max_vfs, p->hive_id);
	return sd;

err_debugfs:
	amdx_sim_debugfs_dev_exit(sd);
	amdx_sim_vram_fini(sd);
err_device_del:
	device_del(&sd->dev);
err_put_device:
	put_device(&sd->dev);
	return ERR_PTR(ret);
}

/**
 * amdx_sim_dev_destroy() - unregister and remove a simulated device
 * @sd: device from amdx_sim_dev_create(), already off the bus's list.
 *
 * Context: process context, may sleep (waits for the core's in-flight ops
 * and for debugfs readers).
 */
void amdx_sim_dev_destroy(struct amdx_sim_dev *sd)
{
	/* no hang detection reports to a device that is going */
	amdx_sim_hang_stop(sd);
	/* then: after this the core calls no op, so nothing below is in use */
	amdx_device_unregister(sd->adev);
	sd->adev = NULL;
	amdx_sim_devmem_set_device(sd);
	amdx_sim_debugfs_dev_exit(sd);
	amdx_sim_vram_fini(sd);
	/* drops our reference; sd is freed once the core drops its own */
	device_unregister(&sd->dev);
}
