/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * A fake GC 9.4.3 amdgpu device (amdgpu_amdx_fake.c), test kernels only:
 * the KUnit suites (amdgpu_amdx_test.c) build one per case, and
 * /sys/kernel/debug/amdgpu_amdx_fake/ makes them user-visible for amdx's
 * own kselftests.
 */
#ifndef __AMDGPU_AMDX_FAKE_H__
#define __AMDGPU_AMDX_FAKE_H__

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include <amdx/amdx_provider.h>

struct amdgpu_device;
struct amdgpu_ras;
struct amdgpu_ras_block_object;
struct amdgpu_xcp_mgr_funcs;
struct aca_bank;
struct aca_info;
struct completion;
struct fake_aca;
struct ras_err_handler_data;

/* amdgpu's partition manager functions for GC 9.4.3 (aqua_vanjaram.c). */
extern struct amdgpu_xcp_mgr_funcs aqua_vanjaram_xcp_funcs;
/* amdgpu's UMC v12 ACA bank parser (umc_v12_0.c). */
extern const struct aca_info umc_v12_0_aca_info;
/* amdgpu's gfx ACA bank parser (gfx_v9_4_3.c; global by the test patch). */
extern const struct aca_info gfx_v9_4_3_aca_info;
/*
 * amdgpu's ACA handles of SDMA, MMHUB and XGMI on MI300 (global by the
 * test patch): the suites read their masks.
 */
extern const struct aca_info sdma_v4_4_2_aca_info;
extern const struct aca_info mmhub_v1_8_aca_info;
extern const struct aca_info xgmi_v6_4_0_aca_info;

/* PCIe switches a fake can be placed under (fake_gpu_place()). */
#define FAKE_MAX_SWITCH	8

struct fake_gfx;
struct fake_pci_path;
struct fake_sysfs;

/* AIDs a fake's gfx banks can name (MI300X has four). */
#define FAKE_MAX_AIDS	8

/**
 * struct fake_gpu - the hardware and firmware state behind a fake device
 * @adev: the amdgpu device.
 * @num_xcc: XCCs.
 * @nps: the memory partition mode (enum amdgpu_memory_partition).
 * @xccs_per_xcp: what the XCP control register holds.
 * @psp_fails: the firmware refuses partition switches.
 * @switches: calls of the gfx partition switch.
 * @xdev: the amdx device the provider registered, or NULL.
 * @ops: the ops it registered with.
 * @compute_modes: the compute modes it declared (bits of %AMDX_COMPUTE_*).
 * @model: the model it declared.
 * @badpages: a copy of the bad-page table it registered, or NULL.
 * @badpages_len: its bytes.
 * @registered: amdgpu_amdx_init() reached the registration.
 * @ras: amdgpu's RAS context of the device.
 * @eh_data: the bad-page data the fake gave it (amdgpu's recovery init
 *	may replace it).
 * @kfd_busy: the KFD has a process (kgd2kfd_check_and_lock_kfd()'s -EBUSY).
 * @kfd_calls: the KFD calls of a switch, in order, as letters: l(ock),
 *	f(ini_sw), p(robe), i(nit), u(nlock).
 * @nkfd: letters in @kfd_calls.
 * @recoveries: recoveries of amdgpu's whose hardware part reached the
 *	fake (the suites' stub, or a user-visible fake's reset).
 * @recovery_flags: the reset context's flags of the last one.
 * @gfx_ras: amdgpu's RAS block object of gfx (its ACA bank stands-in).
 * @bank_lock: protects @bank_ue, @bank_ce, @pend_* and @aca's banks.
 * @bank_ue: uncorrectable gfx errors in the banks per AID, until amdgpu
 *	reads them.
 * @bank_ce: correctable ones.
 * @inject_latency_ms: how long an injected gfx error takes to reach the
 *	banks (the firmware's latency); 0: at once.
 * @pend_ue: injected uncorrectable gfx errors per AID not yet in the
 *	banks (under @bank_lock).
 * @pend_ce: correctable ones.
 * @pend_at: when they reach the banks (jiffies).
 * @aca: the SMU's ACA bank queue once amdgpu's ACA is on
 *	(fake_gpu_enable_aca()), else NULL; under @bank_lock.
 * @reports: what reached amdx, in order (amdgpu_amdx_report()).
 * @nreports: entries in @reports; more are counted, not kept.
 * @reserved: pages amdgpu reserved (amdgpu_ras_reserve_page()).
 * @recover_ret: what the hardware part of amdgpu's recovery returns.
 * @recover_rma: the recovery finds the bad pages at amdgpu's threshold.
 * @recover_late_init: the hardware part re-runs UMC's ras_late_init in
 *	the reset, as amdgpu's re-init after a reset does
 *	(amdgpu_amdx_fake_recover_hw()).
 * @late_inits: times it ran it.
 * @late_init_ret: what UMC's ras_late_init returned the last time.
 * @resets: the reset events the provider passed on to amdx, in order:
 *	the result of each end, %FAKE_RESET_BEGIN for a begin.
 * @nresets: entries in @resets; more are counted, not kept.
 * @rma_marks: times the provider flagged its amdx device for RMA.
 * @rma_xdev: the amdx device it flagged last.
 * @node: in the list of user-visible fakes (amdgpu_amdx_fake.c).
 * @id: a user-visible fake's id.
 * @pci: its ports and buses below a fake switch or root port
 *	(fake_gpu_place()), or NULL: on the root bus.
 * @reset_caps: the registration's &amdx_device_desc.reset_caps (the KUnit
 *	suites' capture, as @compute_modes).
 * @reset_flags: its reset_flags.
 * @pci_switch: its pci_switch.
 * @reset_ms: its reset_ms.
 * @links: the fabric link reports the provider passed on to amdx, in
 *	order (amdgpu_amdx_link_report()), with amdx's answer.
 * @nlinks: entries in @links; more are counted, not kept.
 * @hive_id: the XGMI hive the provider registered the device in.
 * @report_ret: the first refusal of a report by the amdx core
 *	(fake_report_to_core()), 0 if none.
 * @umc_pa_base: where the firmware's UMC address map starts in the VRAM
 *	(added to fake_umc_mca_to_pa()'s address).
 * @retirement: amdgpu's page retirement runs for the fake (its recovery
 *	init's thread and work, UMC's RAS interrupt handler): a
 *	user-visible fake with ``aca=1`` (fake_gpu_enable_retirement()).
 * @retire_works: times a case's stand-in for amdgpu's page-retirement
 *	work ran (a fake without @retirement, whose case runs amdgpu's poison
 *	creation handler itself).
 * @kfd: the KFD is up for the fake: a user-visible fake with ``kfd=1``
 *	(fake_gpu_enable_kfd()).
 * @sysfs: amdgpu's sysfs files of the device, made by amdgpu's own code:
 *	a user-visible fake with ``sysfs=1`` (fake_gpu_enable_sysfs()).
 * @ras_fs: amdgpu's "ras" sysfs group is on the device, made by
 *	amdgpu_ras_fs_init() (with ``aca=1`` or ``sysfs=1``).
 * @gfx: the device's gfx function table, through which fake_gpu_of()
 *	finds the fake.
 * @switch_entered: if set, completed when a partition switch reaches the
 *	fake's firmware, which then waits (up to 30 s) for @switch_go.
 * @switch_go: see @switch_entered.
 * @switch_returned: a partition switch has come back from the firmware.
 */
struct fake_gpu {
	struct amdgpu_device *adev;
	u32 num_xcc;
	int nps;
	int xccs_per_xcp;
	bool psp_fails;
	int switches;
	struct amdx_device *xdev;
	const struct amdx_provider_ops *ops;
	u32 compute_modes;
	u32 model;
	void *badpages;
	size_t badpages_len;
	bool registered;
	struct amdgpu_ras *ras;
	struct ras_err_handler_data *eh_data;
	bool kfd_busy;
	char kfd_calls[16];
	int nkfd;
	int recoveries;
	unsigned long recovery_flags;
	struct amdgpu_ras_block_object *gfx_ras;
	struct mutex bank_lock;	/* @bank_*, @pend_*, @aca's banks */
	u64 bank_ue[FAKE_MAX_AIDS];
	u64 bank_ce[FAKE_MAX_AIDS];
	u32 inject_latency_ms;
	u64 pend_ue[FAKE_MAX_AIDS];
	u64 pend_ce[FAKE_MAX_AIDS];
	unsigned long pend_at;
	struct fake_aca *aca;
	struct amdx_ras_error reports[24];
	int nreports;
	int reserved;
	int recover_ret;
	bool recover_rma;
	bool recover_late_init;
	int late_inits;
	int late_init_ret;
	int resets[4];
	int nresets;
	int rma_marks;
	struct amdx_device *rma_xdev;
	struct list_head node;
	u32 id;
	struct fake_pci_path *pci;
	u32 reset_caps;
	u32 reset_flags;
	u32 pci_switch;
	u32 reset_ms[AMDX_RECOVER_HIVE + 1];
	struct fake_link_report {
		u32 peer;
		u32 obs;
		u32 arg;
		int ret;
	} links[8];
	int nlinks;
	u64 hive_id;
	int report_ret;
	u64 umc_pa_base;
	bool retirement;
	int retire_works;
	bool kfd;
	struct fake_sysfs *sysfs;
	bool ras_fs;
	struct fake_gfx *gfx;
	struct completion *switch_entered;
	struct completion *switch_go;
	bool switch_returned;
};

/* &fake_gpu.resets: a DEVICE_RESET_BEGIN (an end carries 0 or -errno). */
#define FAKE_RESET_BEGIN	1

struct fake_gpu *fake_gpu_create(u32 num_xcc, int nps, int mode,
				 u64 vram_size, const char *name,
				 const char *bdf);
void fake_gpu_destroy(struct fake_gpu *f);
struct fake_gpu *fake_gpu_probed(struct amdgpu_device *adev, u32 num_xcc,
				 int nps, int mode, u64 vram_size);
struct fake_gpu *fake_gpu_of(struct amdgpu_device *adev);
int fake_xccs_per_xcp(u32 num_xcc, int mode);
int fake_gpu_place(struct fake_gpu *f, u32 sw, bool own_switch);
u32 fake_switch_id(u32 sw);

/* What a UMC ACA bank reports (fake_umc_bank()). */
enum fake_umc_error {
	FAKE_UMC_CE,
	FAKE_UMC_UE,
	FAKE_UMC_DE,	/* deferred: poison created */
};

int fake_gpu_enable_aca(struct fake_gpu *f);
int fake_gpu_enable_retirement(struct fake_gpu *f);
int fake_gpu_enable_sysfs(struct fake_gpu *f);
/*
 * amdgpu_ras.c's "ras" sysfs group, made and removed (amdgpu_ras_init(),
 * amdgpu_ras_fini()), global in the test-only patch for the fakes.
 */
int amdgpu_ras_fs_init(struct amdgpu_device *adev);
int amdgpu_ras_fs_fini(struct amdgpu_device *adev);
/*
 * amdgpu_ras.c's handler of a poison's creation, what its page-retirement
 * thread runs, global in the test-only patch for the suites.
 */
int amdgpu_ras_poison_creation_handler(struct amdgpu_device *adev,
				       u32 poison_creation_count);
int fake_aca_push(struct fake_gpu *f, int type, const struct aca_bank *bank);
void fake_umc_bank(struct aca_bank *bank, enum fake_umc_error kind, u32 aid,
		   u32 umc_inst, u32 ch, u64 mca_addr);
u64 fake_umc_mca_to_pa(u32 aid, u32 umc_inst, u32 ch, u64 mca_addr);
u64 fake_umc_pa_to_mca(u64 pa, u32 *aid, u32 *umc_inst, u32 *ch);

#endif /* __AMDGPU_AMDX_FAKE_H__ */
