// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: amdgpu <-> amdx translations
 *
 * The amdgpu provider speaks amdgpu's values to amdgpu and amdx's to the
 * core.  Everything that converts one into the other is here, as pure
 * functions, so that KUnit covers every value without a device::
 *
 *   amdgpu                          this file                 amdx core
 *   enum amdgpu_gfx_partition  <->  compute_{from,to}   <->  AMDX_COMPUTE_*
 *   enum amdgpu_memory_partition<-> memory_{from,to}    <->  AMDX_MEMORY_*
 *   enum amdgpu_ras_block      <->  ras_block_{from,to} <->  AMDX_RAS_BLOCK_*
 *   enum amdgpu_ras_error_type <->  ras_type_{from,to}  <->  AMDX_RAS_TYPE_*
 *   ras_err_data ce/ue/de      --> ras_counts           -->  count[type]
 *   eeprom_table_record        <->  badpage_{from,to}   <->  amdx_badpage_record
 *   mem_partitions[].range     --> mem_partition       -->  memory partition
 *   XCC id, partition mode     --> xcc_partition        -->  compute partition
 *
 * Every ``_from_amdgpu()`` returns the amdx value, -EOPNOTSUPP for a value
 * amdgpu defines and amdx has no equivalent of (NPS3, NPS6, amdgpu's AUTO
 * compute request, parity errors, the RAS blocks amdx does not model), and
 * -EINVAL for anything that is not an amdgpu value.  Every ``_to_amdgpu()``
 * returns the amdgpu value or -EINVAL.
 *
 * Built inside the patched amdgpu (``AMDX_AMDGPU_IN_TREE``) the mirrored
 * constants of amdx_amdgpu_xlate.h are checked against amdgpu's own
 * definitions at compile time; standalone (amdx_test.ko) the host test
 * ``scripts/check-amdgpu-values.py`` checks them against Debian's
 * linux-source-6.12.
 */
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/stddef.h>

#include "amdx_amdgpu_xlate.h"

#ifdef AMDX_AMDGPU_IN_TREE
#include "amdgpu.h"
#include "amdgpu_gart.h"
#include "amdgpu_gfx.h"
#include "amdgpu_gmc.h"
#include "amdgpu_ras.h"
#include "amdgpu_ras_eeprom.h"

static_assert(AMDX_AMDGPU_SPX == AMDGPU_SPX_PARTITION_MODE);
static_assert(AMDX_AMDGPU_DPX == AMDGPU_DPX_PARTITION_MODE);
static_assert(AMDX_AMDGPU_TPX == AMDGPU_TPX_PARTITION_MODE);
static_assert(AMDX_AMDGPU_QPX == AMDGPU_QPX_PARTITION_MODE);
static_assert(AMDX_AMDGPU_CPX == AMDGPU_CPX_PARTITION_MODE);
static_assert(AMDX_AMDGPU_COMPUTE_UNKNOWN ==
	      AMDGPU_UNKNOWN_COMPUTE_PARTITION_MODE);
static_assert(AMDX_AMDGPU_COMPUTE_AUTO == AMDGPU_AUTO_COMPUTE_PARTITION_MODE);

static_assert(AMDX_AMDGPU_NPS_UNKNOWN == UNKNOWN_MEMORY_PARTITION_MODE);
static_assert(AMDX_AMDGPU_NPS1 == AMDGPU_NPS1_PARTITION_MODE);
static_assert(AMDX_AMDGPU_NPS2 == AMDGPU_NPS2_PARTITION_MODE);
static_assert(AMDX_AMDGPU_NPS3 == AMDGPU_NPS3_PARTITION_MODE);
static_assert(AMDX_AMDGPU_NPS4 == AMDGPU_NPS4_PARTITION_MODE);
static_assert(AMDX_AMDGPU_NPS6 == AMDGPU_NPS6_PARTITION_MODE);
static_assert(AMDX_AMDGPU_NPS8 == AMDGPU_NPS8_PARTITION_MODE);

static_assert(AMDX_AMDGPU_RAS_BLOCK_UMC == AMDGPU_RAS_BLOCK__UMC);
static_assert(AMDX_AMDGPU_RAS_BLOCK_SDMA == AMDGPU_RAS_BLOCK__SDMA);
static_assert(AMDX_AMDGPU_RAS_BLOCK_GFX == AMDGPU_RAS_BLOCK__GFX);
static_assert(AMDX_AMDGPU_RAS_BLOCK_MMHUB == AMDGPU_RAS_BLOCK__MMHUB);
static_assert(AMDX_AMDGPU_RAS_BLOCK_ATHUB == AMDGPU_RAS_BLOCK__ATHUB);
static_assert(AMDX_AMDGPU_RAS_BLOCK_PCIE_BIF == AMDGPU_RAS_BLOCK__PCIE_BIF);
static_assert(AMDX_AMDGPU_RAS_BLOCK_HDP == AMDGPU_RAS_BLOCK__HDP);
static_assert(AMDX_AMDGPU_RAS_BLOCK_XGMI_WAFL == AMDGPU_RAS_BLOCK__XGMI_WAFL);
static_assert(AMDX_AMDGPU_RAS_BLOCK_DF == AMDGPU_RAS_BLOCK__DF);
static_assert(AMDX_AMDGPU_RAS_BLOCK_SMN == AMDGPU_RAS_BLOCK__SMN);
static_assert(AMDX_AMDGPU_RAS_BLOCK_SEM == AMDGPU_RAS_BLOCK__SEM);
static_assert(AMDX_AMDGPU_RAS_BLOCK_MP0 == AMDGPU_RAS_BLOCK__MP0);
static_assert(AMDX_AMDGPU_RAS_BLOCK_MP1 == AMDGPU_RAS_BLOCK__MP1);
static_assert(AMDX_AMDGPU_RAS_BLOCK_FUSE == AMDGPU_RAS_BLOCK__FUSE);
static_assert(AMDX_AMDGPU_RAS_BLOCK_MCA == AMDGPU_RAS_BLOCK__MCA);
static_assert(AMDX_AMDGPU_RAS_BLOCK_VCN == AMDGPU_RAS_BLOCK__VCN);
static_assert(AMDX_AMDGPU_RAS_BLOCK_JPEG == AMDGPU_RAS_BLOCK__JPEG);
static_assert(AMDX_AMDGPU_RAS_BLOCK_IH == AMDGPU_RAS_BLOCK__IH);
static_assert(AMDX_AMDGPU_RAS_BLOCK_MPIO == AMDGPU_RAS_BLOCK__MPIO);
static_assert(AMDX_AMDGPU_RAS_BLOCK_LAST == AMDGPU_RAS_BLOCK__LAST);

static_assert(AMDX_AMDGPU_RAS_ERROR_NONE == AMDGPU_RAS_ERROR__NONE);
static_assert(AMDX_AMDGPU_RAS_ERROR_PARITY == AMDGPU_RAS_ERROR__PARITY);
static_assert(AMDX_AMDGPU_RAS_ERROR_SINGLE_CORRECTABLE ==
	      AMDGPU_RAS_ERROR__SINGLE_CORRECTABLE);
static_assert(AMDX_AMDGPU_RAS_ERROR_MULTI_UNCORRECTABLE ==
	      AMDGPU_RAS_ERROR__MULTI_UNCORRECTABLE);
static_assert(AMDX_AMDGPU_RAS_ERROR_POISON == AMDGPU_RAS_ERROR__POISON);

static_assert(AMDX_AMDGPU_RAS_EVENT_INVALID == RAS_EVENT_TYPE_INVALID);
static_assert(AMDX_AMDGPU_RAS_EVENT_FATAL == RAS_EVENT_TYPE_FATAL);
static_assert(AMDX_AMDGPU_RAS_EVENT_POISON_CREATION ==
	      RAS_EVENT_TYPE_POISON_CREATION);
static_assert(AMDX_AMDGPU_RAS_EVENT_POISON_CONSUMPTION ==
	      RAS_EVENT_TYPE_POISON_CONSUMPTION);
static_assert(AMDX_AMDGPU_RAS_EVENT_COUNT == RAS_EVENT_TYPE_COUNT);

static_assert(AMDX_AMDGPU_EEPROM_ERR_NA == AMDGPU_RAS_EEPROM_ERR_NA);
static_assert(AMDX_AMDGPU_EEPROM_ERR_RECOVERABLE ==
	      AMDGPU_RAS_EEPROM_ERR_RECOVERABLE);
static_assert(AMDX_AMDGPU_EEPROM_ERR_NON_RECOVERABLE ==
	      AMDGPU_RAS_EEPROM_ERR_NON_RECOVERABLE);
static_assert(AMDX_AMDGPU_EEPROM_ERR_COUNT == AMDGPU_RAS_EEPROM_ERR_COUNT);

static_assert(AMDX_AMDGPU_GPU_PAGE_SHIFT == AMDGPU_GPU_PAGE_SHIFT);

static_assert(offsetof(struct amdx_amdgpu_eeprom_record, address) ==
	      offsetof(struct eeprom_table_record, address));
static_assert(offsetof(struct amdx_amdgpu_eeprom_record, retired_page) ==
	      offsetof(struct eeprom_table_record, retired_page));
static_assert(offsetof(struct amdx_amdgpu_eeprom_record, ts) ==
	      offsetof(struct eeprom_table_record, ts));
static_assert(offsetof(struct amdx_amdgpu_eeprom_record, err_type) ==
	      offsetof(struct eeprom_table_record, err_type));
static_assert(offsetof(struct amdx_amdgpu_eeprom_record, bank) ==
	      offsetof(struct eeprom_table_record, bank));
static_assert(offsetof(struct amdx_amdgpu_eeprom_record, mem_channel) ==
	      offsetof(struct eeprom_table_record, mem_channel));
static_assert(offsetof(struct amdx_amdgpu_eeprom_record, mcumc_id) ==
	      offsetof(struct eeprom_table_record, mcumc_id));
static_assert(sizeof_field(struct amdx_amdgpu_eeprom_record, err_type) ==
	      sizeof_field(struct eeprom_table_record, err_type));
static_assert(sizeof(struct amdx_amdgpu_eeprom_record) ==
	      sizeof(struct eeprom_table_record));
#endif /* AMDX_AMDGPU_IN_TREE */

static_assert(sizeof(struct amdx_amdgpu_eeprom_record) ==
	      AMDX_AMDGPU_EEPROM_RECORD_SIZE);

/* Most XCCs amdgpu can describe: gfx.xcc_mask is a u16. */
#define AMDX_AMDGPU_MAX_XCC	16

/* Marks an amdgpu value with no amdx equivalent in the tables below. */
#define AMDX_AMDGPU_NONE	(-1)

/**
 * amdx_amdgpu_compute_from_amdgpu() - amdgpu compute mode to amdx's
 * @mode: an enum amdgpu_gfx_partition value (%AMDX_AMDGPU_SPX ...).
 *
 * Return: the %AMDX_COMPUTE_* mode (%AMDX_COMPUTE_UNKNOWN for amdgpu's
 * unknown), -EOPNOTSUPP for amdgpu's AUTO (a request, never a current
 * mode), -EINVAL for any other value.
 */
int amdx_amdgpu_compute_from_amdgpu(int mode)
{
	switch (mode) {
	case AMDX_AMDGPU_SPX:
		return AMDX_COMPUTE_SPX;
	case AMDX_AMDGPU_DPX:
		return AMDX_COMPUTE_DPX;
	case AMDX_AMDGPU_TPX:
		return AMDX_COMPUTE_TPX;
	case AMDX_AMDGPU_QPX:
		return AMDX_COMPUTE_QPX;
	case AMDX_AMDGPU_CPX:
		return AMDX_COMPUTE_CPX;
	case AMDX_AMDGPU_COMPUTE_UNKNOWN:
		return AMDX_COMPUTE_UNKNOWN;
	case AMDX_AMDGPU_COMPUTE_AUTO:
		return -EOPNOTSUPP;
	default:
		return -EINVAL;
	}
}

/**
 * amdx_amdgpu_compute_to_amdgpu() - amdx compute mode to amdgpu's
 * @mode: %AMDX_COMPUTE_SPX .. %AMDX_COMPUTE_CPX.
 *
 * Return: the enum amdgpu_gfx_partition value, or -EINVAL for
 * %AMDX_COMPUTE_UNKNOWN and any value that is not an amdx mode.
 */
int amdx_amdgpu_compute_to_amdgpu(u32 mode)
{
	switch (mode) {
	case AMDX_COMPUTE_SPX:
		return AMDX_AMDGPU_SPX;
	case AMDX_COMPUTE_DPX:
		return AMDX_AMDGPU_DPX;
	case AMDX_COMPUTE_TPX:
		return AMDX_AMDGPU_TPX;
	case AMDX_COMPUTE_QPX:
		return AMDX_AMDGPU_QPX;
	case AMDX_COMPUTE_CPX:
		return AMDX_AMDGPU_CPX;
	default:
		return -EINVAL;
	}
}

/**
 * amdx_amdgpu_memory_from_amdgpu() - amdgpu memory mode to amdx's
 * @mode: an enum amdgpu_memory_partition value (%AMDX_AMDGPU_NPS1 ...).
 *
 * Return: the %AMDX_MEMORY_* mode (%AMDX_MEMORY_UNKNOWN for amdgpu's
 * unknown), -EOPNOTSUPP for NPS3 and NPS6 (amdx has no such modes),
 * -EINVAL for any other value.
 */
int amdx_amdgpu_memory_from_amdgpu(int mode)
{
	switch (mode) {
	case AMDX_AMDGPU_NPS_UNKNOWN:
		return AMDX_MEMORY_UNKNOWN;
	case AMDX_AMDGPU_NPS1:
		return AMDX_MEMORY_NPS1;
	case AMDX_AMDGPU_NPS2:
		return AMDX_MEMORY_NPS2;
	case AMDX_AMDGPU_NPS4:
		return AMDX_MEMORY_NPS4;
	case AMDX_AMDGPU_NPS8:
		return AMDX_MEMORY_NPS8;
	case AMDX_AMDGPU_NPS3:
	case AMDX_AMDGPU_NPS6:
		return -EOPNOTSUPP;
	default:
		return -EINVAL;
	}
}

/**
 * amdx_amdgpu_memory_to_amdgpu() - amdx memory mode to amdgpu's
 * @mode: %AMDX_MEMORY_NPS1 .. %AMDX_MEMORY_NPS8.
 *
 * Return: the enum amdgpu_memory_partition value, or -EINVAL for
 * %AMDX_MEMORY_UNKNOWN and any value that is not an amdx mode.
 */
int amdx_amdgpu_memory_to_amdgpu(u32 mode)
{
	switch (mode) {
	case AMDX_MEMORY_NPS1:
		return AMDX_AMDGPU_NPS1;
	case AMDX_MEMORY_NPS2:
		return AMDX_AMDGPU_NPS2;
	case AMDX_MEMORY_NPS4:
		return AMDX_AMDGPU_NPS4;
	case AMDX_MEMORY_NPS8:
		return AMDX_AMDGPU_NPS8;
	default:
		return -EINVAL;
	}
}

/* Every amdgpu RAS block, each mapped or explicitly AMDX_AMDGPU_NONE. */
static const s8 ras_block_to_amdx[AMDX_AMDGPU_RAS_BLOCK_LAST] = {
	[AMDX_AMDGPU_RAS_BLOCK_UMC]		= AMDX_RAS_BLOCK_UMC,
	[AMDX_AMDGPU_RAS_BLOCK_SDMA]		= AMDX_RAS_BLOCK_SDMA,
	[AMDX_AMDGPU_RAS_BLOCK_GFX]		= AMDX_RAS_BLOCK_GFX,
	[AMDX_AMDGPU_RAS_BLOCK_MMHUB]		= AMDX_RAS_BLOCK_MMHUB,
	[AMDX_AMDGPU_RAS_BLOCK_ATHUB]		= AMDX_AMDGPU_NONE,
	[AMDX_AMDGPU_RAS_BLOCK_PCIE_BIF]	= AMDX_RAS_BLOCK_PCIE_BIF,
	[AMDX_AMDGPU_RAS_BLOCK_HDP]		= AMDX_RAS_BLOCK_HDP,
	[AMDX_AMDGPU_RAS_BLOCK_XGMI_WAFL]	= AMDX_RAS_BLOCK_XGMI_WAFL,
	[AMDX_AMDGPU_RAS_BLOCK_DF]		= AMDX_AMDGPU_NONE,
	[AMDX_AMDGPU_RAS_BLOCK_SMN]		= AMDX_AMDGPU_NONE,
	[AMDX_AMDGPU_RAS_BLOCK_SEM]		= AMDX_AMDGPU_NONE,
	[AMDX_AMDGPU_RAS_BLOCK_MP0]		= AMDX_AMDGPU_NONE,
	[AMDX_AMDGPU_RAS_BLOCK_MP1]		= AMDX_AMDGPU_NONE,
	[AMDX_AMDGPU_RAS_BLOCK_FUSE]		= AMDX_AMDGPU_NONE,
	[AMDX_AMDGPU_RAS_BLOCK_MCA]		= AMDX_AMDGPU_NONE,
	[AMDX_AMDGPU_RAS_BLOCK_VCN]		= AMDX_AMDGPU_NONE,
	[AMDX_AMDGPU_RAS_BLOCK_JPEG]		= AMDX_AMDGPU_NONE,
	[AMDX_AMDGPU_RAS_BLOCK_IH]		= AMDX_AMDGPU_NONE,
	[AMDX_AMDGPU_RAS_BLOCK_MPIO]		= AMDX_AMDGPU_NONE,
};

static const u8 ras_block_to_amdgpu[AMDX_RAS_BLOCK_COUNT] = {
	[AMDX_RAS_BLOCK_UMC]		= AMDX_AMDGPU_RAS_BLOCK_UMC,
	[AMDX_RAS_BLOCK_SDMA]		= AMDX_AMDGPU_RAS_BLOCK_SDMA,
	[AMDX_RAS_BLOCK_GFX]		= AMDX_AMDGPU_RAS_BLOCK_GFX,
	[AMDX_RAS_BLOCK_MMHUB]		= AMDX_AMDGPU_RAS_BLOCK_MMHUB,
	[AMDX_RAS_BLOCK_PCIE_BIF]	= AMDX_AMDGPU_RAS_BLOCK_PCIE_BIF,
	[AMDX_RAS_BLOCK_HDP]		= AMDX_AMDGPU_RAS_BLOCK_HDP,
	[AMDX_RAS_BLOCK_XGMI_WAFL]	= AMDX_AMDGPU_RAS_BLOCK_XGMI_WAFL,
};

/**
 * amdx_amdgpu_ras_block_from_amdgpu() - amdgpu RAS block to amdx's
 * @block: an enum amdgpu_ras_block value (%AMDX_AMDGPU_RAS_BLOCK_UMC ...).
 *
 * Return: the %AMDX_RAS_BLOCK_*, -EOPNOTSUPP for a block amdx does not
 * model (athub, df, smn, sem, mp0, mp1, fuse, mca, vcn, jpeg, ih, mpio:
 * the provider counts nothing for them), -EINVAL for a value at or past
 * %AMDX_AMDGPU_RAS_BLOCK_LAST or negative.
 */
int amdx_amdgpu_ras_block_from_amdgpu(int block)
{
	if (block < 0 || block >= AMDX_AMDGPU_RAS_BLOCK_LAST)
		return -EINVAL;
	if (ras_block_to_amdx[block] == AMDX_AMDGPU_NONE)
		return -EOPNOTSUPP;
	return ras_block_to_amdx[block];
}

/**
 * amdx_amdgpu_ras_block_to_amdgpu() - amdx RAS block to amdgpu's
 * @block: %AMDX_RAS_BLOCK_*.
 *
 * Return: the enum amdgpu_ras_block value, or -EINVAL for a value at or
 * past %AMDX_RAS_BLOCK_COUNT.
 */
int amdx_amdgpu_ras_block_to_amdgpu(u32 block)
{
	if (block >= AMDX_RAS_BLOCK_COUNT)
		return -EINVAL;
	return ras_block_to_amdgpu[block];
}

/**
 * amdx_amdgpu_ras_type_from_amdgpu() - amdgpu error type to amdx's
 * @type: one enum amdgpu_ras_error_type bit.
 *
 * Return: %AMDX_RAS_TYPE_CE for single correctable, %AMDX_RAS_TYPE_UE for
 * multi uncorrectable, %AMDX_RAS_TYPE_DE for poison; -EOPNOTSUPP for
 * parity (amdx counts no parity type); -EINVAL for none, a combination
 * of bits or any other value.
 */
int amdx_amdgpu_ras_type_from_amdgpu(u32 type)
{
	switch (type) {
	case AMDX_AMDGPU_RAS_ERROR_SINGLE_CORRECTABLE:
		return AMDX_RAS_TYPE_CE;
	case AMDX_AMDGPU_RAS_ERROR_MULTI_UNCORRECTABLE:
		return AMDX_RAS_TYPE_UE;
	case AMDX_AMDGPU_RAS_ERROR_POISON:
		return AMDX_RAS_TYPE_DE;
	case AMDX_AMDGPU_RAS_ERROR_PARITY:
		return -EOPNOTSUPP;
	default:
		return -EINVAL;
	}
}

/**
 * amdx_amdgpu_driver_event_type() - amdgpu's RAS event type to amdx's
 * @type: an enum ras_event_type value.
 *
 * Return: %AMDX_DRIVER_EVENT_FATAL, _POISON_CREATION or
 * _POISON_CONSUMPTION for amdgpu's three, %AMDX_DRIVER_EVENT_NONE for
 * RAS_EVENT_TYPE_INVALID and any value amdgpu does not define.
 */
u32 amdx_amdgpu_driver_event_type(int type)
{
	switch (type) {
	case AMDX_AMDGPU_RAS_EVENT_FATAL:
		return AMDX_DRIVER_EVENT_FATAL;
	case AMDX_AMDGPU_RAS_EVENT_POISON_CREATION:
		return AMDX_DRIVER_EVENT_POISON_CREATION;
	case AMDX_AMDGPU_RAS_EVENT_POISON_CONSUMPTION:
		return AMDX_DRIVER_EVENT_POISON_CONSUMPTION;
	default:
		return AMDX_DRIVER_EVENT_NONE;
	}
}

/**
 * amdx_amdgpu_ras_type_to_amdgpu() - amdx error type to amdgpu's
 * @type: %AMDX_RAS_TYPE_*.
 *
 * The injection path: amdgpu's ``ras_ctrl`` "ce", "ue" and "poison".
 *
 * Return: the enum amdgpu_ras_error_type bit, or -EINVAL for a value at
 * or past %AMDX_RAS_TYPE_COUNT.
 */
int amdx_amdgpu_ras_type_to_amdgpu(u32 type)
{
	switch (type) {
	case AMDX_RAS_TYPE_CE:
		return AMDX_AMDGPU_RAS_ERROR_SINGLE_CORRECTABLE;
	case AMDX_RAS_TYPE_UE:
		return AMDX_AMDGPU_RAS_ERROR_MULTI_UNCORRECTABLE;
	case AMDX_RAS_TYPE_DE:
		return AMDX_AMDGPU_RAS_ERROR_POISON;
	default:
		return -EINVAL;
	}
}

/**
 * amdx_amdgpu_ras_counts() - amdgpu's error counters as amdx's
 * @ce_count: amdgpu's corrected count (``ras_err_data.ce_count``).
 * @ue_count: amdgpu's uncorrected count (``ras_err_data.ue_count``).
 * @de_count: amdgpu's deferred (poison) count (``ras_err_data.de_count``).
 * @count: filled, indexed by %AMDX_RAS_TYPE_*.
 */
void amdx_amdgpu_ras_counts(u64 ce_count, u64 ue_count, u64 de_count,
			    u64 count[AMDX_RAS_TYPE_COUNT])
{
	count[AMDX_RAS_TYPE_CE] = ce_count;
	count[AMDX_RAS_TYPE_UE] = ue_count;
	count[AMDX_RAS_TYPE_DE] = de_count;
}

/**
 * amdx_amdgpu_mem_partition() - the memory partition holding a VRAM byte
 * @ranges: amdgpu's memory partitions (``adev->gmc.mem_partitions``).
 * @num_ranges: entries at @ranges (``adev->gmc.num_mem_partitions``).
 * @address: a VRAM byte offset.
 *
 * The partition is the index of the range holding @address, as amdgpu
 * has them: from the NPS table of the IP discovery (any order, gaps
 * possible), or its own split (gmc_v9_0_init_sw_mem_ranges(): each
 * (VRAM + 16 MiB) / n, the last cut at the VRAM's end), never VRAM / n.
 *
 * Return: the partition, -ERANGE when no range holds @address, -EINVAL
 * for no ranges.
 */
int amdx_amdgpu_mem_partition(const struct amdx_amdgpu_mem_range *ranges,
			      u32 num_ranges, u64 address)
{
	u64 pfn = address >> AMDX_AMDGPU_GPU_PAGE_SHIFT;
	u32 i;

	if (!num_ranges)
		return -EINVAL;
	for (i = 0; i < num_ranges; i++)
		if (pfn >= ranges[i].fpfn && pfn <= ranges[i].lpfn)
			return i;
	return -ERANGE;
}

/**
 * amdx_amdgpu_badpage_from_amdgpu() - an amdgpu EEPROM record as amdx's
 * @in: amdgpu's record.
 * @ranges: amdgpu's memory partitions, as amdx_amdgpu_mem_partition().
 * @num_ranges: entries at @ranges.
 * @out: filled on success, untouched on failure.
 *
 * The byte address is @in->retired_page in amdgpu's GPU pages
 * (%AMDX_AMDGPU_GPU_PAGE_SHIFT); @in->address is the MCA error address,
 * not a VRAM offset, and with @in->bank, @in->mem_channel and
 * @in->mcumc_id has no place in amdx's record.  The memory partition is
 * amdx_amdgpu_mem_partition()'s.  The cause is %AMDX_BADPAGE_CAUSE_CE for
 * a recoverable record and %AMDX_BADPAGE_CAUSE_UE otherwise: amdgpu
 * reserves the page of every record whatever its type, and its only
 * writer in 6.12 (the UMC path) records non-recoverable.
 *
 * Return: 0; -EINVAL for an unknown err_type or no @ranges; -ERANGE when
 * the page's byte address overflows or lies in no partition.
 */
int amdx_amdgpu_badpage_from_amdgpu(const struct amdx_amdgpu_eeprom_record *in,
				    const struct amdx_amdgpu_mem_range *ranges,
				    u32 num_ranges,
				    struct amdx_badpage_record *out)
{
	u64 address;
	u16 cause;
	int part;

	if (!num_ranges)
		return -EINVAL;
	switch (in->err_type) {
	case AMDX_AMDGPU_EEPROM_ERR_RECOVERABLE:
		cause = AMDX_BADPAGE_CAUSE_CE;
		break;
	case AMDX_AMDGPU_EEPROM_ERR_NA:
	case AMDX_AMDGPU_EEPROM_ERR_NON_RECOVERABLE:
		cause = AMDX_BADPAGE_CAUSE_UE;
		break;
	default:
		return -EINVAL;
	}
	if (in->retired_page > (U64_MAX >> AMDX_AMDGPU_GPU_PAGE_SHIFT))
		return -ERANGE;
	address = in->retired_page << AMDX_AMDGPU_GPU_PAGE_SHIFT;
	part = amdx_amdgpu_mem_partition(ranges, num_ranges, address);
	if (part < 0)
		return part;

	out->address = address;
	out->time = in->ts;
	out->partition = part;
	out->cause = cause;
	out->flags = 0;
	return 0;
}

/**
 * amdx_amdgpu_badpage_to_amdgpu() - an amdx bad-page record as amdgpu's
 * @in: amdx's record (an imported table's, say).
 * @out: filled on success, untouched on failure.
 *
 * The record amdgpu_ras_add_bad_pages() takes: @out->retired_page is the
 * page number in GPU pages, @out->ts the time;
 * %AMDX_BADPAGE_CAUSE_CE becomes recoverable, every other cause
 * non-recoverable.  amdx knows no MCA address, bank, channel or UMC
 * instance: those are zero.  @in->partition is not carried (amdgpu derives
 * it from the address).
 *
 * Return: 0, or -EINVAL for an address not on a GPU page boundary, an
 * unknown cause or non-zero flags.
 */
int amdx_amdgpu_badpage_to_amdgpu(const struct amdx_badpage_record *in,
				  struct amdx_amdgpu_eeprom_record *out)
{
	s32 err_type;

	if (in->address & ((1ULL << AMDX_AMDGPU_GPU_PAGE_SHIFT) - 1) ||
	    in->flags)
		return -EINVAL;
	switch (in->cause) {
	case AMDX_BADPAGE_CAUSE_CE:
		err_type = AMDX_AMDGPU_EEPROM_ERR_RECOVERABLE;
		break;
	case AMDX_BADPAGE_CAUSE_UE:
	case AMDX_BADPAGE_CAUSE_DE:
	case AMDX_BADPAGE_CAUSE_IMPORT:
		err_type = AMDX_AMDGPU_EEPROM_ERR_NON_RECOVERABLE;
		break;
	default:
		return -EINVAL;
	}

	out->address = 0;
	out->retired_page = in->address >> AMDX_AMDGPU_GPU_PAGE_SHIFT;
	out->ts = in->time;
	out->err_type = err_type;
	out->bank = 0;
	out->mem_channel = 0;
	out->mcumc_id = 0;
	return 0;
}

/**
 * amdx_amdgpu_num_partitions() - compute partitions of a mode on a device
 * @mode: %AMDX_COMPUTE_*.
 * @num_xcc: the device's XCCs (hweight of amdgpu's ``gfx.xcc_mask``),
 *	1..16.
 *
 * The XCC rules of amdgpu's __aqua_vanjaram_is_valid_mode()
 * (aqua_vanjaram.c, 6.12): DPX needs a multiple of 4 XCCs, TPX of 3, QPX
 * at least 2 XCCs per partition, CPX more than one XCC.  amdx also refuses
 * a mode whose partitions would not get the same whole number of XCCs
 * (amdgpu would build num_xcc / (num_xcc / 4) partitions for QPX on 10
 * XCCs: 5, not 4).  The memory mode's rules are
 * amdx_amdgpu_compute_modes()'s.
 *
 * Return: 1 for SPX, 2 DPX, 3 TPX, 4 QPX, @num_xcc for CPX; -EINVAL for
 * an unknown mode, @num_xcc out of range, or a mode those rules refuse.
 */
int amdx_amdgpu_num_partitions(u32 mode, u32 num_xcc)
{
	u32 parts;

	if (!num_xcc || num_xcc > AMDX_AMDGPU_MAX_XCC)
		return -EINVAL;
	switch (mode) {
	case AMDX_COMPUTE_SPX:
		parts = 1;
		break;
	case AMDX_COMPUTE_DPX:
		if (num_xcc % 4)
			return -EINVAL;
		parts = 2;
		break;
	case AMDX_COMPUTE_TPX:
		parts = 3;
		break;
	case AMDX_COMPUTE_QPX:
		if (num_xcc / 4 < 2)
			return -EINVAL;
		parts = 4;
		break;
	case AMDX_COMPUTE_CPX:
		if (num_xcc < 2)
			return -EINVAL;
		parts = num_xcc;
		break;
	default:
		return -EINVAL;
	}
	if (num_xcc % parts)
		return -EINVAL;
	return parts;
}

/**
 * amdx_amdgpu_xcc_partition() - the compute partition an XCC belongs to
 * @mode: %AMDX_COMPUTE_*.
 * @num_xcc: the device's XCCs, 1..16.
 * @xcc: the XCC (amdgpu's logical XCC id, below @num_xcc) a RAS error
 *	names.
 *
 * amdgpu gives partition i the XCCs i * per .. (i + 1) * per - 1, per =
 * @num_xcc / partitions (the instance mask of aqua_vanjaram.c).
 *
 * Return: the partition, or -EINVAL as amdx_amdgpu_num_partitions() does
 * and for @xcc at or past @num_xcc.
 */
int amdx_amdgpu_xcc_partition(u32 mode, u32 num_xcc, u32 xcc)
{
	int parts = amdx_amdgpu_num_partitions(mode, num_xcc);

	if (parts < 0)
		return parts;
	if (xcc >= num_xcc)
		return -EINVAL;
	return xcc / (num_xcc / parts);
}

/* The memory rules of __aqua_vanjaram_is_valid_mode() (6.12). */
static bool amdx_amdgpu_mode_fits_memory(u32 mode, u32 num_xcc, u32 nmp)
{
	switch (mode) {
	case AMDX_COMPUTE_SPX:
		return nmp == 1;
	case AMDX_COMPUTE_DPX:
		return nmp <= 2;
	case AMDX_COMPUTE_TPX:
		return nmp == 1 || nmp == 3;
	case AMDX_COMPUTE_QPX:
		return nmp == 1 || nmp == 4;
	case AMDX_COMPUTE_CPX:
		return (nmp == 1 || nmp == 4) && !(num_xcc % nmp);
	default:
		return false;
	}
}

/**
 * amdx_amdgpu_compute_modes() - the compute modes a device may take
 * @num_xcc: the device's XCCs, 1..16.
 * @num_mem_partitions: memory partitions of the current memory mode
 *	(``adev->gmc.num_mem_partitions``: 1, 2 or 4 for NPS1, NPS2, NPS4 on
 *	a dGPU, 3 for NPS4 on an APU).
 *
 * amdgpu's own rule, __aqua_vanjaram_is_valid_mode() in aqua_vanjaram.c
 * (6.12), which amdgpu_xcp_switch_partition_mode() applies and refuses
 * the rest with -EINVAL: the XCC rules of amdx_amdgpu_num_partitions()
 * and, by memory partitions, SPX 1; DPX 1 or 2; TPX 1 or 3; QPX 1 or 4;
 * CPX 1 or 4 with the XCCs a multiple of them.  The memory mode changes
 * only across a driver reload, so the modes of the current one are all a
 * device can be switched to.
 *
 * Return: bit (1 << %AMDX_COMPUTE_*) per mode amdgpu accepts; 0 for no
 * memory partitions.
 */
u32 amdx_amdgpu_compute_modes(u32 num_xcc, u32 num_mem_partitions)
{
	u32 mode, modes = 0;

	if (!num_mem_partitions)
		return 0;
	for (mode = AMDX_COMPUTE_SPX; mode <= AMDX_COMPUTE_CPX; mode++)
		if (amdx_amdgpu_num_partitions(mode, num_xcc) > 0 &&
		    amdx_amdgpu_mode_fits_memory(mode, num_xcc,
						 num_mem_partitions))
			modes |= BIT(mode);
	return modes;
}

#define AMDX_CE	BIT(AMDX_RAS_TYPE_CE)
#define AMDX_UE	BIT(AMDX_RAS_TYPE_UE)
#define AMDX_DE	BIT(AMDX_RAS_TYPE_DE)

/*
 * The error types amdgpu 6.12 counts per block on MI300: the masks of the
 * blocks' ACA handles (struct aca_info .mask; ACA_ERROR_TYPE_UE, _CE and
 * _DEFERRED are amdx's UE, CE and DE).  PCIE_BIF and HDP have no ACA
 * handle and no entry in smu_v13_0_6's MCA table: their firmware query
 * counts nothing, and nbio_v7_9_query_ras_error_count() is empty.
 */
static const u8 ras_types_mi300[AMDX_RAS_BLOCK_COUNT] = {
	[AMDX_RAS_BLOCK_UMC]		= AMDX_UE | AMDX_CE | AMDX_DE,	/* umc_v12_0.c */
	[AMDX_RAS_BLOCK_SDMA]		= AMDX_UE,			/* sdma_v4_4_2.c */
	[AMDX_RAS_BLOCK_GFX]		= AMDX_UE | AMDX_CE,		/* gfx_v9_4_3.c */
	[AMDX_RAS_BLOCK_MMHUB]		= AMDX_UE,			/* mmhub_v1_8.c */
	[AMDX_RAS_BLOCK_PCIE_BIF]	= 0,
	[AMDX_RAS_BLOCK_HDP]		= 0,
	[AMDX_RAS_BLOCK_XGMI_WAFL]	= AMDX_UE | AMDX_CE,		/* amdgpu_xgmi.c */
};

/**
 * amdx_amdgpu_ras_types() - the error types amdgpu counts for a block
 * @block: %AMDX_RAS_BLOCK_*.
 *
 * On MI300 (GC 9.4.3/9.4.4) amdgpu reads errors from the firmware's
 * ACA/MCA banks, and each block's ACA handle names the types it can
 * have: SDMA and MMHUB UE only, GFX and XGMI UE and CE, UMC UE, CE and
 * DE (the only block with deferred errors: poison); PCIE_BIF and HDP none.
 * A type not listed is never claimed, so amdx neither injects it nor
 * waits for it.
 *
 * Return: bit (1 << %AMDX_RAS_TYPE_*) per type; 0 for a block amdgpu
 * counts nothing for and for a value at or past %AMDX_RAS_BLOCK_COUNT.
 */
u32 amdx_amdgpu_ras_types(u32 block)
{
	if (block >= AMDX_RAS_BLOCK_COUNT)
		return 0;
	return ras_types_mi300[block];
}

/**
 * amdx_amdgpu_model() - the amdx model of an amdgpu device
 * @pci_device: the PCI device id (``adev->pdev->device``).
 * @num_xcc: the device's XCCs.
 *
 * The model is the PCI id's, never a guess from the XCC count: 0x74a1
 * (and the MI300X HF ids 0x74a9, 0x74bd) is MI300X, 0x74a0 MI300A,
 * 0x74a2 MI308X.  The XCC count must be the model's (8, 6, 4), since
 * amdx's partition model assumes it.  An MI325X (0x74a5) is no MI300X
 * (other memory, other board) and amdx has no model for it yet: unknown,
 * as is any other id.
 *
 * Return: %AMDX_MODEL_*, %AMDX_MODEL_UNKNOWN for an unknown id or an XCC
 * count that is not the model's.
 */
u32 amdx_amdgpu_model(u16 pci_device, u32 num_xcc)
{
	u32 model, want_xcc;

	switch (pci_device) {
	case AMDX_AMDGPU_PCI_MI300X:
	case AMDX_AMDGPU_PCI_MI300X_HF:
	case AMDX_AMDGPU_PCI_MI300X_HF2:
		model = AMDX_MODEL_MI300X;
		want_xcc = 8;
		break;
	case AMDX_AMDGPU_PCI_MI300A:
		model = AMDX_MODEL_MI300A;
		want_xcc = 6;
		break;
	case AMDX_AMDGPU_PCI_MI308X:
		model = AMDX_MODEL_MI308X;
		want_xcc = 4;
		break;
	default:
		return AMDX_MODEL_UNKNOWN;
	}
	return num_xcc == want_xcc ? model : AMDX_MODEL_UNKNOWN;
}
