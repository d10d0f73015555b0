// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: Partition model
 *
 * What the MI300-class parts allow, as amdgpu and AMD's GIM enforce it,
 * written down once so the partition manager, the simulator and the
 * what-if query all agree.  Pure logic: no device, no locking.
 *
 * ============  =====  ====================  ================  ========
 * model         XCCs   compute modes         memory modes      SR-IOV
 * ============  =====  ====================  ================  ========
 * MI300X        8      SPX DPX QPX CPX       NPS1 NPS2 NPS4    yes
 * MI300A        6      SPX TPX CPX           NPS1              no
 * MI308X        4      SPX DPX CPX           NPS1 NPS4         no
 * ============  =====  ====================  ================  ========
 *
 * A compute mode splits the XCCs into equal compute partitions (SPX 1,
 * DPX 2, TPX 3, QPX 4, CPX one per XCC) and only fits some memory modes:
 * SPX NPS1; DPX NPS1, NPS2; TPX, QPX and CPX NPS1, NPS4.  CPX also needs
 * the XCCs to divide evenly among the memory partitions.
 *
 * With SR-IOV (MI300X only; GIM's tables) the VF count is tied to the
 * compute mode (SPX 1 VF, DPX 2, QPX 4, CPX 1, 2, 4 or 8) and restricts
 * the memory mode (1 VF NPS1 or NPS4, 2 VFs NPS1, 4 and 8 VFs NPS1 or NPS4).
 * Zero VFs means bare metal: no VF rule applies.
 *
 * amdx_partition_check() applies the rules in this order and reports the
 * first one broken::
 *
 *   model -> compute mode of model -> memory mode of model
 *         -> compute/memory compatible -> XCCs divide
 *         -> SR-IOV on model -> VFs of compute mode -> VFs of memory mode
 *
 * Compute partition i owns the contiguous XCCs [i * k, (i + 1) * k), k the
 * XCCs per partition, and is local to memory partition
 * i * num_memory / num_compute (CPX on MI300X NPS4: two compute partitions
 * per memory partition).
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "amdx_kunit.h"
#include "amdx_partition_model.h"

#define AMDX_NPS(m)	BIT(AMDX_MEMORY_##m)
#define AMDX_XPX(m)	BIT(AMDX_COMPUTE_##m)

/* Allowed memory modes per compute mode, whatever the model. */
static const u32 amdx_compat[] = {
	[AMDX_COMPUTE_SPX] = AMDX_NPS(NPS1),
	[AMDX_COMPUTE_DPX] = AMDX_NPS(NPS1) | AMDX_NPS(NPS2),
	[AMDX_COMPUTE_TPX] = AMDX_NPS(NPS1) | AMDX_NPS(NPS4),
	[AMDX_COMPUTE_QPX] = AMDX_NPS(NPS1) | AMDX_NPS(NPS4),
	[AMDX_COMPUTE_CPX] = AMDX_NPS(NPS1) | AMDX_NPS(NPS4),
};

/* MI300X under GIM: bit N set, N VFs are allowed in that compute mode. */
static const u32 amdx_mi300x_vf_compute[] = {
	[AMDX_COMPUTE_SPX] = BIT(1),
	[AMDX_COMPUTE_DPX] = BIT(2),
	[AMDX_COMPUTE_QPX] = BIT(4),
	[AMDX_COMPUTE_CPX] = BIT(1) | BIT(2) | BIT(4) | BIT(8),
};

/* MI300X under GIM: the memory modes allowed with N VFs. */
static const u32 amdx_mi300x_vf_memory[] = {
	[1] = AMDX_NPS(NPS1) | AMDX_NPS(NPS4),
	[2] = AMDX_NPS(NPS1),
	[4] = AMDX_NPS(NPS1) | AMDX_NPS(NPS4),
	[8] = AMDX_NPS(NPS1) | AMDX_NPS(NPS4),
};

/**
 * struct amdx_part_model - what one model supports
 * @num_xcc: XCCs; 0 marks an unknown model.
 * @compute_modes: bit (1 << %AMDX_COMPUTE_*) per supported mode.
 * @memory_modes: bit (1 << %AMDX_MEMORY_*) per supported mode.
 * @vf_compute: VF counts per compute mode, or NULL without SR-IOV.
 * @vf_memory: memory modes per VF count (indexed by the count).
 * @vf_memory_len: entries in @vf_memory.
 */
struct amdx_part_model {
	u32 num_xcc;
	u32 compute_modes;
	u32 memory_modes;
	const u32 *vf_compute;
	const u32 *vf_memory;
	u32 vf_memory_len;
};

static const struct amdx_part_model amdx_part_models[] = {
	[AMDX_MODEL_MI300X] = {
		.num_xcc = 8,
		.compute_modes = AMDX_XPX(SPX) | AMDX_XPX(DPX) |
				 AMDX_XPX(QPX) | AMDX_XPX(CPX),
		.memory_modes = AMDX_NPS(NPS1) | AMDX_NPS(NPS2) |
				AMDX_NPS(NPS4),
		.vf_compute = amdx_mi300x_vf_compute,
		.vf_memory = amdx_mi300x_vf_memory,
		.vf_memory_len = ARRAY_SIZE(amdx_mi300x_vf_memory),
	},
	[AMDX_MODEL_MI300A] = {
		.num_xcc = 6,
		.compute_modes = AMDX_XPX(SPX) | AMDX_XPX(TPX) | AMDX_XPX(CPX),
		.memory_modes = AMDX_NPS(NPS1),
	},
	[AMDX_MODEL_MI308X] = {
		.num_xcc = 4,
		.compute_modes = AMDX_XPX(SPX) | AMDX_XPX(DPX) | AMDX_XPX(CPX),
		.memory_modes = AMDX_NPS(NPS1) | AMDX_NPS(NPS4),
	},
};

static const char * const amdx_part_reasons[AMDX_PART_REASON_LAST + 1] = {
	[AMDX_PART_REASON_NONE] = "valid",
	[AMDX_PART_REASON_BAD_MODEL] = "unknown model",
	[AMDX_PART_REASON_COMPUTE_UNSUPPORTED] =
		"compute mode not supported by the model",
	[AMDX_PART_REASON_MEMORY_UNSUPPORTED] =
		"memory mode not supported by the model",
	[AMDX_PART_REASON_INCOMPATIBLE] =
		"memory mode not compatible with the compute mode",
	[AMDX_PART_REASON_XCC_NOT_DIVISIBLE] =
		"XCCs do not divide evenly among the partitions",
	[AMDX_PART_REASON_VF_UNSUPPORTED] = "model has no SR-IOV",
	[AMDX_PART_REASON_VF_COMPUTE] =
		"VF count not allowed in the compute mode",
	[AMDX_PART_REASON_VF_MEMORY] =
		"VF count not allowed in the memory mode",
	[AMDX_PART_REASON_VFS_ENABLED] = "VFs are enabled",
	[AMDX_PART_REASON_HIVE_MEMORY] =
		"a hive member cannot take the memory mode",
	[AMDX_PART_REASON_BUSY] = "processes hold VRAM that would change",
	[AMDX_PART_REASON_VF_PROVISION] = "invalid VF provisioning",
	[AMDX_PART_REASON_PARTITION_STATE] = "a partition is not online",
	[AMDX_PART_REASON_NO_VF] = "no such VF enabled",
	[AMDX_PART_REASON_VF_QUARANTINED] = "the VF is quarantined",
	[AMDX_PART_REASON_VF_RESET_LIMIT] =
		"the VF reached its reset rate limit",
};

static const struct amdx_part_model *amdx_part_model_get(u32 model)
{
	if (model >= ARRAY_SIZE(amdx_part_models) ||
	    !amdx_part_models[model].num_xcc)
		return NULL;
	return &amdx_part_models[model];
}

/* @mask has bit @bit set; false for any @bit beyond the mask. */
static bool amdx_part_has(u32 mask, u32 bit)
{
	return bit < BITS_PER_TYPE(mask) && (mask & BIT(bit));
}

static int amdx_part_fail(u32 *reason, u32 why)
{
	if (reason)
		*reason = why;
	return why == AMDX_PART_REASON_NONE ? 0 : -EINVAL;
}

/**
 * amdx_partition_num_xcc() - the XCCs of a model
 * @model: %AMDX_MODEL_*.
 *
 * Return: the XCC count, 0 for an unknown model.
 */
u32 amdx_partition_num_xcc(u32 model)
{
	const struct amdx_part_model *m = amdx_part_model_get(model);

	return m ? m->num_xcc : 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_partition_num_xcc);

/**
 * amdx_partition_compute_modes() - the compute modes of a model
 * @model: %AMDX_MODEL_*.
 *
 * Return: bit (1 << %AMDX_COMPUTE_*) per supported mode, 0 for an unknown
 * model.
 */
u32 amdx_partition_compute_modes(u32 model)
{
	const struct amdx_part_model *m = amdx_part_model_get(model);

	return m ? m->compute_modes : 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_partition_compute_modes);

/**
 * amdx_partition_memory_modes() - the memory modes of a model
 * @model: %AMDX_MODEL_*.
 *
 * Return: bit (1 << %AMDX_MEMORY_*) per supported mode, 0 for an unknown
 * model.
 */
u32 amdx_partition_memory_modes(u32 model)
{
	const struct amdx_part_model *m = amdx_part_model_get(model);

	return m ? m->memory_modes : 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_partition_memory_modes);

/**
 * amdx_partition_num_compute() - compute partitions of a compute mode
 * @num_xcc: XCCs of the device, 1..%AMDX_PART_MAX_XCC.
 * @compute_mode: %AMDX_COMPUTE_*.
 *
 * Return: 1 for SPX, 2 DPX, 3 TPX, 4 QPX, @num_xcc for CPX; 0 for an
 * unknown mode or an XCC count out of range.
 */
u32 amdx_partition_num_compute(u32 num_xcc, u32 compute_mode)
{
	if (!num_xcc || num_xcc > AMDX_PART_MAX_XCC)
		return 0;

	switch (compute_mode) {
	case AMDX_COMPUTE_SPX:
		return 1;
	case AMDX_COMPUTE_DPX:
		return 2;
	case AMDX_COMPUTE_TPX:
		return 3;
	case AMDX_COMPUTE_QPX:
		return 4;
	case AMDX_COMPUTE_CPX:
		return num_xcc;
	default:
		return 0;
	}
}
EXPORT_SYMBOL_IF_KUNIT(amdx_partition_num_compute);

/**
 * amdx_partition_num_memory() - memory partitions of a memory mode
 * @memory_mode: %AMDX_MEMORY_*.
 *
 * Return: 1 for NPS1, 2 NPS2, 4 NPS4, 8 NPS8; 0 for an unknown mode.
 */
u32 amdx_partition_num_memory(u32 memory_mode)
{
	switch (memory_mode) {
	case AMDX_MEMORY_NPS1:
		return 1;
	case AMDX_MEMORY_NPS2:
		return 2;
	case AMDX_MEMORY_NPS4:
		return 4;
	case AMDX_MEMORY_NPS8:
		return 8;
	default:
		return 0;
	}
}
EXPORT_SYMBOL_IF_KUNIT(amdx_partition_num_memory);

/**
 * amdx_partition_check_layout() - the model-independent rules
 * @num_xcc: XCCs of the device.
 * @compute_mode: %AMDX_COMPUTE_*.
 * @memory_mode: %AMDX_MEMORY_*.
 * @reason: if not NULL, set to %AMDX_PART_REASON_NONE or the broken rule.
 *
 * Checks that the memory mode is compatible with the compute mode and that
 * the XCCs divide evenly among the compute partitions and, in CPX, among
 * the memory partitions.  Which modes a model offers is not checked here.
 *
 * Return: 0 if the layout is possible, -EINVAL if not.
 */
int amdx_partition_check_layout(u32 num_xcc, u32 compute_mode,
				u32 memory_mode, u32 *reason)
{
	u32 ncomp = amdx_partition_num_compute(num_xcc, compute_mode);
	u32 nmem = amdx_partition_num_memory(memory_mode);

	if (!ncomp)
		return amdx_part_fail(reason,
				      AMDX_PART_REASON_COMPUTE_UNSUPPORTED);
	if (!nmem)
		return amdx_part_fail(reason,
				      AMDX_PART_REASON_MEMORY_UNSUPPORTED);
	if (!amdx_part_has(amdx_compat[compute_mode], memory_mode))
		return amdx_part_fail(reason, AMDX_PART_REASON_INCOMPATIBLE);
	if (num_xcc % ncomp ||
	    (compute_mode == AMDX_COMPUTE_CPX && num_xcc % nmem))
		return amdx_part_fail(reason,
				      AMDX_PART_REASON_XCC_NOT_DIVISIBLE);
	return amdx_part_fail(reason, AMDX_PART_REASON_NONE);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_partition_check_layout);

/**
 * amdx_partition_check() - is a partition configuration valid
 * @model: %AMDX_MODEL_*.
 * @compute_mode: %AMDX_COMPUTE_*.
 * @memory_mode: %AMDX_MEMORY_*.
 * @num_vfs: SR-IOV VFs to enable, 0 for bare metal.
 * @reason: if not NULL, set to %AMDX_PART_REASON_NONE or the first rule
 *	broken, in the order of the DOC block above.
 *
 * Return: 0 if valid, -EINVAL if not.
 */
int amdx_partition_check(u32 model, u32 compute_mode, u32 memory_mode,
			 u32 num_vfs, u32 *reason)
{
	const struct amdx_part_model *m = amdx_part_model_get(model);
	int ret;

	if (!m)
		return amdx_part_fail(reason, AMDX_PART_REASON_BAD_MODEL);
	if (!amdx_part_has(m->compute_modes, compute_mode))
		return amdx_part_fail(reason,
				      AMDX_PART_REASON_COMPUTE_UNSUPPORTED);
	if (!amdx_part_has(m->memory_modes, memory_mode))
		return amdx_part_fail(reason,
				      AMDX_PART_REASON_MEMORY_UNSUPPORTED);

	ret = amdx_partition_check_layout(m->num_xcc, compute_mode,
					  memory_mode, reason);
	if (ret || !num_vfs)
		return ret;

	if (!m->vf_compute)
		return amdx_part_fail(reason, AMDX_PART_REASON_VF_UNSUPPORTED);
	if (!amdx_part_has(m->vf_compute[compute_mode], num_vfs))
		return amdx_part_fail(reason, AMDX_PART_REASON_VF_COMPUTE);
	if (num_vfs >= m->vf_memory_len ||
	    !(m->vf_memory[num_vfs] & BIT(memory_mode)))
		return amdx_part_fail(reason, AMDX_PART_REASON_VF_MEMORY);
	return amdx_part_fail(reason, AMDX_PART_REASON_NONE);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_partition_check);

/**
 * amdx_partition_reason_name() - a reason in words
 * @reason: %AMDX_PART_REASON_*, the model's (amdx_partition_check()) or
 *	a transaction's.
 *
 * Return: a static string; "unknown reason" for a value out of range.
 */
const char *amdx_partition_reason_name(u32 reason)
{
	if (reason >= ARRAY_SIZE(amdx_part_reasons))
		return "unknown reason";
	return amdx_part_reasons[reason];
}
EXPORT_SYMBOL_IF_KUNIT(amdx_partition_reason_name);

/**
 * amdx_partition_compute_topology() - the partitions of a configuration
 * @model: %AMDX_MODEL_*.
 * @compute_mode: %AMDX_COMPUTE_*.
 * @memory_mode: %AMDX_MEMORY_*.
 * @topo: filled on success, zeroed on failure.
 *
 * VFs do not change the topology; check them with amdx_partition_check().
 *
 * Return: 0, or -EINVAL if amdx_partition_check() refuses the
 * configuration on bare metal.
 */
int amdx_partition_compute_topology(u32 model, u32 compute_mode,
				    u32 memory_mode,
				    struct amdx_partition_topology *topo)
{
	u32 i, per;
	int ret;

	memset(topo, 0, sizeof(*topo));
	ret = amdx_partition_check(model, compute_mode, memory_mode, 0, NULL);
	if (ret)
		return ret;

	topo->num_xcc = amdx_partition_num_xcc(model);
	topo->num_compute = amdx_partition_num_compute(topo->num_xcc,
						       compute_mode);
	topo->num_memory = amdx_partition_num_memory(memory_mode);
	per = topo->num_xcc / topo->num_compute;
	topo->xccs_per_partition = per;
	for (i = 0; i < topo->num_compute; i++) {
		topo->xcc_mask[i] = GENMASK(per * (i + 1) - 1, per * i);
		topo->mem_partition[i] = i * topo->num_memory /
					 topo->num_compute;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_partition_compute_topology);
