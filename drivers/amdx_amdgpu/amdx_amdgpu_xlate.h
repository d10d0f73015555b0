/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The amdgpu provider's translations between amdgpu's values and amdx's
 * (amdx_amdgpu_xlate.c): pure functions, no device.  The same files build
 * inside the patched amdgpu and standalone in amdx_test.ko, so no amdgpu
 * header is included here: amdgpu's values are mirrored below, and the
 * mirrors are checked against amdgpu's own definitions twice, by
 * static_assert() when built inside amdgpu (AMDX_AMDGPU_IN_TREE, see
 * amdx_amdgpu_xlate.c) and by scripts/check-amdgpu-values.py against
 * Debian's linux-source-6.12.
 */
#ifndef _AMDX_AMDGPU_XLATE_H_
#define _AMDX_AMDGPU_XLATE_H_

#include <linux/types.h>
#include <linux/amdx.h>

/* enum amdgpu_gfx_partition (amdgpu_gfx.h): compute partition modes. */
#define AMDX_AMDGPU_SPX			0
#define AMDX_AMDGPU_DPX			1
#define AMDX_AMDGPU_TPX			2
#define AMDX_AMDGPU_QPX			3
#define AMDX_AMDGPU_CPX			4
#define AMDX_AMDGPU_COMPUTE_UNKNOWN	(-1)
#define AMDX_AMDGPU_COMPUTE_AUTO	(-2)

/* enum amdgpu_memory_partition (amdgpu_gmc.h): memory (NPS) modes. */
#define AMDX_AMDGPU_NPS_UNKNOWN		0
#define AMDX_AMDGPU_NPS1		1
#define AMDX_AMDGPU_NPS2		2
#define AMDX_AMDGPU_NPS3		3
#define AMDX_AMDGPU_NPS4		4
#define AMDX_AMDGPU_NPS6		6
#define AMDX_AMDGPU_NPS8		8

/* enum amdgpu_ras_block (amdgpu_ras.h). */
#define AMDX_AMDGPU_RAS_BLOCK_UMC	0
#define AMDX_AMDGPU_RAS_BLOCK_SDMA	1
#define AMDX_AMDGPU_RAS_BLOCK_GFX	2
#define AMDX_AMDGPU_RAS_BLOCK_MMHUB	3
#define AMDX_AMDGPU_RAS_BLOCK_ATHUB	4
#define AMDX_AMDGPU_RAS_BLOCK_PCIE_BIF	5
#define AMDX_AMDGPU_RAS_BLOCK_HDP	6
#define AMDX_AMDGPU_RAS_BLOCK_XGMI_WAFL	7
#define AMDX_AMDGPU_RAS_BLOCK_DF	8
#define AMDX_AMDGPU_RAS_BLOCK_SMN	9
#define AMDX_AMDGPU_RAS_BLOCK_SEM	10
#define AMDX_AMDGPU_RAS_BLOCK_MP0	11
#define AMDX_AMDGPU_RAS_BLOCK_MP1	12
#define AMDX_AMDGPU_RAS_BLOCK_FUSE	13
#define AMDX_AMDGPU_RAS_BLOCK_MCA	14
#define AMDX_AMDGPU_RAS_BLOCK_VCN	15
#define AMDX_AMDGPU_RAS_BLOCK_JPEG	16
#define AMDX_AMDGPU_RAS_BLOCK_IH	17
#define AMDX_AMDGPU_RAS_BLOCK_MPIO	18
#define AMDX_AMDGPU_RAS_BLOCK_LAST	19

/* enum amdgpu_ras_error_type (amdgpu_ras.h): a bitmask. */
#define AMDX_AMDGPU_RAS_ERROR_NONE	0
#define AMDX_AMDGPU_RAS_ERROR_PARITY	1
#define AMDX_AMDGPU_RAS_ERROR_SINGLE_CORRECTABLE	2
#define AMDX_AMDGPU_RAS_ERROR_MULTI_UNCORRECTABLE	4
#define AMDX_AMDGPU_RAS_ERROR_POISON	8

/* enum ras_event_type (amdgpu_ras.h): what a RAS event was. */
#define AMDX_AMDGPU_RAS_EVENT_INVALID		0
#define AMDX_AMDGPU_RAS_EVENT_FATAL		1
#define AMDX_AMDGPU_RAS_EVENT_POISON_CREATION	2
#define AMDX_AMDGPU_RAS_EVENT_POISON_CONSUMPTION	3
#define AMDX_AMDGPU_RAS_EVENT_COUNT		4

/* enum amdgpu_ras_eeprom_err_type (amdgpu_ras_eeprom.h). */
#define AMDX_AMDGPU_EEPROM_ERR_NA		0
#define AMDX_AMDGPU_EEPROM_ERR_RECOVERABLE	1
#define AMDX_AMDGPU_EEPROM_ERR_NON_RECOVERABLE	2
#define AMDX_AMDGPU_EEPROM_ERR_COUNT		3

/* AMDGPU_GPU_PAGE_SHIFT (amdgpu_gart.h): retired_page is in these pages. */
#define AMDX_AMDGPU_GPU_PAGE_SHIFT	12

/**
 * struct amdx_amdgpu_eeprom_record - mirror of amdgpu's eeprom_table_record
 * @address: the error address the MCA reported (amdgpu's union with
 *	``offset``).
 * @retired_page: the retired page, in %AMDX_AMDGPU_GPU_PAGE_SHIFT pages.
 * @ts: CLOCK_REALTIME seconds of the retirement.
 * @err_type: %AMDX_AMDGPU_EEPROM_ERR_* (an enum, int-sized, in amdgpu).
 * @bank: the bank (amdgpu's union with ``cu``).
 * @mem_channel: the memory channel.
 * @mcumc_id: the UMC instance.
 *
 * Same layout as amdgpu's (packed, 31 bytes): the provider reads amdgpu's
 * records through it.
 */
struct amdx_amdgpu_eeprom_record {
	u64 address;
	u64 retired_page;
	u64 ts;
	s32 err_type;
	u8 bank;
	u8 mem_channel;
	u8 mcumc_id;
} __packed;

#define AMDX_AMDGPU_EEPROM_RECORD_SIZE	31

/*
 * PCI device ids of the MI300-class parts (vendor 0x1002).  amdgpu 6.12
 * binds them by PCI class (amdgpu_drv.c lists no MI300 id); the names
 * are pci.ids' ("Aqua Vanjaram [Instinct ...]").
 */
#define AMDX_AMDGPU_PCI_MI300A		0x74a0
#define AMDX_AMDGPU_PCI_MI300X		0x74a1
#define AMDX_AMDGPU_PCI_MI308X		0x74a2
#define AMDX_AMDGPU_PCI_MI325X		0x74a5
#define AMDX_AMDGPU_PCI_MI300X_HF	0x74a9
#define AMDX_AMDGPU_PCI_MI300X_HF2	0x74bd

/**
 * struct amdx_amdgpu_mem_range - the VRAM pages of one memory partition
 * @fpfn: the first page, in %AMDX_AMDGPU_GPU_PAGE_SHIFT pages (amdgpu's
 *	``mem_partitions[i].range.fpfn``).
 * @lpfn: the last page, inclusive (``mem_partitions[i].range.lpfn``).
 *
 * The provider copies amdgpu's ranges into these (amdgpu keeps them in a
 * union with the NUMA node of an APU's partitions).
 */
struct amdx_amdgpu_mem_range {
	u32 fpfn;
	u32 lpfn;
};

int amdx_amdgpu_compute_from_amdgpu(int mode);
int amdx_amdgpu_compute_to_amdgpu(u32 mode);
int amdx_amdgpu_memory_from_amdgpu(int mode);
int amdx_amdgpu_memory_to_amdgpu(u32 mode);
int amdx_amdgpu_ras_block_from_amdgpu(int block);
int amdx_amdgpu_ras_block_to_amdgpu(u32 block);
int amdx_amdgpu_ras_type_from_amdgpu(u32 type);
int amdx_amdgpu_ras_type_to_amdgpu(u32 type);
u32 amdx_amdgpu_driver_event_type(int type);
void amdx_amdgpu_ras_counts(u64 ce_count, u64 ue_count, u64 de_count,
			    u64 count[AMDX_RAS_TYPE_COUNT]);
int amdx_amdgpu_mem_partition(const struct amdx_amdgpu_mem_range *ranges,
			      u32 num_ranges, u64 address);
int amdx_amdgpu_badpage_from_amdgpu(const struct amdx_amdgpu_eeprom_record *in,
				    const struct amdx_amdgpu_mem_range *ranges,
				    u32 num_ranges,
				    struct amdx_badpage_record *out);
int amdx_amdgpu_badpage_to_amdgpu(const struct amdx_badpage_record *in,
				  struct amdx_amdgpu_eeprom_record *out);
int amdx_amdgpu_num_partitions(u32 mode, u32 num_xcc);
int amdx_amdgpu_xcc_partition(u32 mode, u32 num_xcc, u32 xcc);
u32 amdx_amdgpu_compute_modes(u32 num_xcc, u32 num_mem_partitions);
u32 amdx_amdgpu_ras_types(u32 block);
u32 amdx_amdgpu_model(u16 pci_device, u32 num_xcc);

#endif /* _AMDX_AMDGPU_XLATE_H_ */
