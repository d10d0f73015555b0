// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: Baseline recovery policies
 *
 * For fault replay (Documentation/replay.rst) the same faults are measured
 * under amdx's own choice and under two baselines.  A baseline is not a
 * second ladder: amdx_recovery_policy_map() takes the action
 * amdx_recovery_choose() picked and returns the one the baseline would
 * take, never a cheaper one, always one that suffices.
 *
 * ``amdx`` (the default) keeps the choice.
 *
 * ``amdgpu-6.12`` does what amdgpu and amdkfd of Linux 6.12 do on an
 * MI300-class (GC 9.4.3) board, read from their code.  Its GPU reset
 * (mode-1 or mode-2) goes through amdgpu_device_gpu_recover(), which
 * resets every device of an XGMI hive (amdgpu_device.c, the device list
 * built from &amdgpu_hive_info.device_list): hive for a device in a hive
 * that can do it, device otherwise ("gpu" below).
 *
 * ===============  =======  ================================================
 * fault            action   amdgpu 6.12 (file: function)
 * ===============  =======  ================================================
 * page_ce          none     amdgpu_umc.c: amdgpu_umc_handle_bad_pages
 *                           (only UE and DE retire pages or reset)
 * ue_not_consumed  none     (page_ce, uncorrected) amdgpu_ras.c:
 *                           amdgpu_ras_interrupt_poison_creation_handler
 *                           -> amdgpu_ras_page_retirement_thread ->
 *                           amdgpu_ras_poison_creation_handler (umc_v12_0.c:
 *                           umc_v12_0_update_ecc_status reserves the
 *                           pages) -> amdgpu_ras_do_page_retirement ->
 *                           amdgpu_umc.c: amdgpu_umc_handle_bad_pages
 *                           (pages retired, saved to the EEPROM); a GPU
 *                           reset only once amdgpu_ras_is_rma()
 * poison_consumed  gpu      kfd_int_process_v9.c:
 *                           event_interrupt_poison_consumption_v9 (mode-2,
 *                           mode-1 before PMFW 0x00557300) ->
 *                           amdgpu_ras.c:
 *                           amdgpu_ras_poison_consumption_handler ->
 *                           amdgpu_ras_do_recovery
 * queue_hang       queue    kfd_device_queue_manager.c:
 *                           reset_queues_on_hws_hang (per-queue
 *                           kgd_gfx_v9_hqd_reset); gpu when the device
 *                           cannot reset a queue (kfd_hws_hang)
 * engine_ue        gpu      kfd_int_process_v9.c:
 *                           event_interrupt_poison_consumption_v9 (SE/SDMA
 *                           clients: mode-2) -> amdgpu_ras_do_recovery
 * vf_hang          vf       mxgpu_nv.c: xgpu_nv_mailbox_flr_work (the host
 *                           FLRs the VF; the guest recovers after it)
 * device_ue        gpu      amdgpu_ras.c: amdgpu_ras_global_ras_isr
 *                           (mode-1)
 * firmware         gpu      kfd_device_queue_manager.c:
 *                           kfd_process_hw_exception ->
 *                           amdgpu_amdkfd_gpu_reset
 * fabric           hive     amdgpu_ras.c: amdgpu_ras_do_recovery (fatal
 *                           status set on every hive member)
 * reset_failed     node     amdgpu_device.c: amdgpu_device_gpu_recover
 *                           (a failed reset is only logged: the device
 *                           stays down until the node reboots)
 * board            rma      amdgpu_ras_eeprom.c:
 *                           amdgpu_ras_eeprom_update_header (is_rma)
 * ===============  =======  ================================================
 *
 * A fabric link's uncorrected error (a ``link`` row of the replay) is no
 * fault kind of the ladder: amdx contains it on the link
 * (Documentation/fabric.rst), and only a peer left with no route reaches
 * the ladder.  amdgpu 6.12 has no per-link handling: it sees the error in
 * the ``xgmi_wafl`` block, fatal on MI300 (amdgpu_ras.c:
 * amdgpu_ras_global_ras_isr -> amdgpu_ras_do_recovery, every hive
 * member), so under the baselines the link code reports it as a
 * ``fabric`` fault (amdx_recovery_policy_link_fault()).
 *
 * Poison a device consumed (amdx_ras_poison_consumed(), a process's
 * device reading a poisoned page) sets the policy's action as the other
 * faults do, in the consumption's work (amdx_recovery.c); its
 * POISON_CONSUMED record, emitted where nothing may sleep, still carries
 * amdx's own choice in data[1].
 *
 * An uncorrectable error in HBM that nothing consumed is a deferred error
 * on MI300 (poison mode: the poison created, the page poison-retired
 * before anyone reads it): a ``page_ce`` fault, as a corrected one, with
 * &amdx_recovery_fault.uncorrected set (amdx_recovery_fault_of()).  amdx
 * needs nothing more than the page's containment; amdgpu 6.12 retires the
 * pages (row ``ue_not_consumed`` above); per-gpu resets the GPU.
 *
 * ``per-gpu`` is what NVML's recovery actions ask of a fleet (any
 * uncorrectable fault: reset that GPU; an uncorrectable memory error
 * leaves a row remap pending, which a GPU reset carries out): device for
 * every fault but a corrected one, the choice where it is costlier (hive,
 * node, rma).
 *
 * The policy in force is global, ``amdx`` at load: debugfs
 * ``amdx/recovery_policy`` (0600; writing needs CAP_SYS_ADMIN) reads the
 * names with the current one in brackets and takes a name.  The module's
 * unload sets it back, every change is logged, and nothing but that file
 * changes it, so a fuzzer run through the uapi cannot.
 */
#include <linux/capability.h>
#include <linux/debugfs.h>
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "amdx_kunit.h"
#include "amdx_recovery_model.h"
#include "amdx_recovery_policy.h"

static u32 amdx_recovery_policy_cur = AMDX_RECOVERY_POLICY_AMDX;

static const char * const amdx_recovery_policy_names[] = {
	[AMDX_RECOVERY_POLICY_AMDX] = "amdx",
	[AMDX_RECOVERY_POLICY_AMDGPU] = "amdgpu-6.12",
	[AMDX_RECOVERY_POLICY_PER_GPU] = "per-gpu",
};

static_assert(ARRAY_SIZE(amdx_recovery_policy_names) ==
	      AMDX_RECOVERY_POLICY_COUNT);

/**
 * amdx_recovery_policy_name() - a policy's name
 * @policy: %AMDX_RECOVERY_POLICY_*.
 *
 * Return: its name, "?" if unknown.
 */
const char *amdx_recovery_policy_name(u32 policy)
{
	return policy < AMDX_RECOVERY_POLICY_COUNT ?
	       amdx_recovery_policy_names[policy] : "?";
}
EXPORT_SYMBOL_IF_KUNIT(amdx_recovery_policy_name);

/* amdgpu's GPU reset: the hive where it has one, else the device. */
static u32 amdx_recovery_policy_gpu(const struct amdx_recovery_topo *t,
				    const struct amdx_recovery_fault *f)
{
	return amdx_recovery_can(t, f->device, AMDX_RECOVER_HIVE) ?
	       AMDX_RECOVER_HIVE : AMDX_RECOVER_DEVICE;
}

static u32 amdx_recovery_policy_amdgpu(const struct amdx_recovery_topo *t,
				       const struct amdx_recovery_fault *f)
{
	switch (f->kind) {
	case AMDX_FAULT_PAGE_CE:
		/* corrected or not: pages retired, no reset (DOC table) */
		return AMDX_RECOVER_NONE;
	case AMDX_FAULT_QUEUE_HANG:
		return amdx_recovery_can(t, f->device, AMDX_RECOVER_QUEUE) ?
		       AMDX_RECOVER_QUEUE : amdx_recovery_policy_gpu(t, f);
	case AMDX_FAULT_VF_HANG:
		return amdx_recovery_can(t, f->device, AMDX_RECOVER_VF) ?
		       AMDX_RECOVER_VF : amdx_recovery_policy_gpu(t, f);
	case AMDX_FAULT_FABRIC:
		return AMDX_RECOVER_HIVE;
	case AMDX_FAULT_RESET_FAILED:
		return AMDX_RECOVER_NODE;
	case AMDX_FAULT_BOARD:
		return AMDX_RECOVER_RMA;
	default:
		return amdx_recovery_policy_gpu(t, f);
	}
}

/* Whether @f's error was uncorrectable: all but a corrected page_ce. */
static bool amdx_recovery_policy_ue(const struct amdx_recovery_fault *f)
{
	return f->kind != AMDX_FAULT_PAGE_CE || f->uncorrected;
}

/**
 * amdx_recovery_policy_map() - the action a policy takes for a fault
 * @policy: %AMDX_RECOVERY_POLICY_*.
 * @t: the topology.
 * @f: the fault.
 * @action: the action amdx_recovery_choose() picked for it.
 *
 * Return: @action for amdx or an unknown policy; for a baseline its action
 * (DOC table), or the next one up the device can carry out, or @action
 * where that is costlier: never below the choice.
 */
u32 amdx_recovery_policy_map(u32 policy, const struct amdx_recovery_topo *t,
			     const struct amdx_recovery_fault *f, u32 action)
{
	u32 want;

	switch (policy) {
	case AMDX_RECOVERY_POLICY_AMDGPU:
		want = amdx_recovery_policy_amdgpu(t, f);
		break;
	case AMDX_RECOVERY_POLICY_PER_GPU:
		want = amdx_recovery_policy_ue(f) ? AMDX_RECOVER_DEVICE :
		       AMDX_RECOVER_NONE;
		break;
	default:
		return action;
	}
	if (want <= action)
		return action;
	/* One the device can carry out, as the ladder's own choice is. */
	for (; want < AMDX_RECOVER_COUNT; want++)
		if (amdx_recovery_can(t, f->device, want) &&
		    amdx_recovery_suffices(t, f, want))
			return want;
	return action;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_recovery_policy_map);

/**
 * amdx_recovery_policy_link_fault() - a link's uncorrected error to a policy
 * @policy: %AMDX_RECOVERY_POLICY_*.
 *
 * Return: the %AMDX_FAULT_* the link code reports for a fabric link's
 * uncorrected error under @policy: %AMDX_FAULT_FABRIC under a baseline
 * (the DOC above), %AMDX_FAULT_COUNT (none: the link's own containment)
 * under amdx or an unknown policy.
 */
u32 amdx_recovery_policy_link_fault(u32 policy)
{
	return policy == AMDX_RECOVERY_POLICY_AMDGPU ||
	       policy == AMDX_RECOVERY_POLICY_PER_GPU ? AMDX_FAULT_FABRIC :
	       AMDX_FAULT_COUNT;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_recovery_policy_link_fault);

/**
 * amdx_recovery_policy_get() - the policy in force
 *
 * Return: %AMDX_RECOVERY_POLICY_*.
 */
u32 amdx_recovery_policy_get(void)
{
	return READ_ONCE(amdx_recovery_policy_cur);
}

/**
 * amdx_recovery_policy_reset() - back to amdx's own (module unload)
 */
void amdx_recovery_policy_reset(void)
{
	if (READ_ONCE(amdx_recovery_policy_cur) != AMDX_RECOVERY_POLICY_AMDX)
		pr_info("amdx: recovery policy back to amdx\n");
	WRITE_ONCE(amdx_recovery_policy_cur, AMDX_RECOVERY_POLICY_AMDX);
}

static ssize_t amdx_recovery_policy_read(struct file *f, char __user *ubuf,
					 size_t len, loff_t *ppos)
{
	u32 cur = amdx_recovery_policy_get(), i;
	char buf[64];
	int n = 0;

	for (i = 0; i < AMDX_RECOVERY_POLICY_COUNT; i++)
		n += scnprintf(buf + n, sizeof(buf) - n, i == cur ? "%s[%s]" :
			       "%s%s", i ? " " : "",
			       amdx_recovery_policy_names[i]);
	n += scnprintf(buf + n, sizeof(buf) - n, "\n");
	return simple_read_from_buffer(ubuf, len, ppos, buf, n);
}

static ssize_t amdx_recovery_policy_write(struct file *f,
					  const char __user *ubuf, size_t len,
					  loff_t *ppos)
{
	char buf[24];
	int i;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	i = sysfs_match_string(amdx_recovery_policy_names, buf);
	if (i < 0) {
		pr_info_ratelimited("amdx: recovery_policy: unknown policy (amdx, amdgpu-6.12, per-gpu)\n");
		return -EINVAL;
	}
	WRITE_ONCE(amdx_recovery_policy_cur, i);
	pr_info("amdx: recovery policy %s (fault replay baseline)\n",
		amdx_recovery_policy_names[i]);
	return len;
}

static const struct file_operations amdx_recovery_policy_fops = {
	.owner = THIS_MODULE,
	.read = amdx_recovery_policy_read,
	.write = amdx_recovery_policy_write,
	.llseek = default_llseek,
};

/**
 * amdx_recovery_policy_debugfs_add() - create ``recovery_policy``
 * @root: amdx's debugfs directory.
 */
void amdx_recovery_policy_debugfs_add(struct dentry *root)
{
	debugfs_create_file("recovery_policy", 0600, root, NULL,
			    &amdx_recovery_policy_fops);
}
