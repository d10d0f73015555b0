// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: link faults (debugfs, unstable)
 *
 * The simulator's XGMI hives are full meshes: the core gives every pair
 * of members one 16-lane link (Documentation/fabric.rst).  The simulator
 * has no link hardware; ``/sys/kernel/debug/amdx_sim/link_fault`` makes
 * one link of a hive do what a real one does, by writing::
 *
 *	ID PEER FAULT [N]
 *
 * where ID and PEER are the simulated device ids of the link's ends, or,
 * in a scale-up pod (new_device's ``pod=``), PEER is ``@FABRIC/PORT``: the
 * link on port (plane) PORT of the pod's accelerator FABRIC, this host's
 * or a remote one, reported through device ID (amdx_link_report_port()).
 * FAULT is one of
 *
 * ==========  ==========================================================
 * ``replay``  a CRC/replay burst of N replays (default 64: a storm)
 * ``ce``      N corrected errors (default 1)
 * ``ue``      an uncorrected error
 * ``width``   retrained at N lanes (a width drop below 16)
 * ``down``    lost training
 * ``up``      trained again, at N lanes (default 16)
 * ``flap``    N times (default 8) down and up again at full width
 * ``silent``  the peer stops answering: as lost training from this end
 * ==========  ==========================================================
 *
 * Each is passed to the core as the provider's reports, amdx_link_report(),
 * before the write returns; the core's hysteresis, not this file, decides
 * what the link's state becomes.  The write fails with the core's errno:
 * -ENODEV for a device in no hive, -ENOENT for a peer of another one,
 * -EINVAL for lanes out of range; -EOPNOTSUPP for what device ID was
 * created without (``without=link_counters``: replay, ce, ue;
 * ``link_width``: width, up below full width); -ENODEV too for an id with
 * no device.
 */
#define pr_fmt(fmt) "amdx_sim: " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <amdx/amdx_provider.h>

#include "amdx_sim.h"

/* Most flaps one write asks for. */
#define AMDX_SIM_LINK_FLAPS_MAX	1024
/* Lanes of a simulated XGMI link. */
#define AMDX_SIM_LINK_WIDTH	16

#define amdx_sim_link_err(fmt, ...) \
	pr_err_ratelimited("link_fault: " fmt "\n", ##__VA_ARGS__)

struct amdx_sim_link_fault {
	const char *name;
	u32 obs;
	u32 def;	/* N when not given */
};

static const struct amdx_sim_link_fault amdx_sim_link_faults[] = {
	{ "replay", AMDX_LINK_OBS_REPLAY, 64 },
	{ "ce", AMDX_LINK_OBS_CE, 1 },
	{ "ue", AMDX_LINK_OBS_UE, 0 },
	{ "width", AMDX_LINK_OBS_WIDTH, 0 },
	{ "down", AMDX_LINK_OBS_DOWN, 0 },
	{ "up", AMDX_LINK_OBS_UP, AMDX_SIM_LINK_WIDTH },
	{ "flap", AMDX_LINK_OBS_COUNT, 8 },
	{ "silent", AMDX_LINK_OBS_DOWN, 0 },
};

/**
 * amdx_sim_link_desc() - what the device declares of its fabric links
 * @sd: the device, being registered.
 * @desc: its descriptor.
 *
 * new_device's ``without=link_state,link_width,link_counters``: what it
 * reports of its links, declared absent as the amdgpu provider declares
 * what Linux 6.12 lacks.
 */
void amdx_sim_link_desc(const struct amdx_sim_dev *sd,
			struct amdx_device_desc *desc)
{
	u32 without = sd->params.without;

	if (without & AMDX_SIM_WITHOUT_LINK_STATE)
		desc->link_absent |= AMDX_LINK_F_NO_STATE;
	if (without & AMDX_SIM_WITHOUT_LINK_WIDTH)
		desc->link_absent |= AMDX_LINK_F_NO_WIDTH;
	if (without & AMDX_SIM_WITHOUT_LINK_COUNTERS)
		desc->link_absent |= AMDX_LINK_F_NO_COUNTERS;
}

/*
 * One report on the link: to @pd's device, or with no @pd, on port @port
 * of pod accelerator @fabric.
 */
static int amdx_sim_link_report(struct amdx_sim_dev *sd,
				struct amdx_sim_dev *pd, u64 fabric, u32 port,
				u32 obs, u32 n)
{
	if (pd)
		return amdx_link_report(sd->adev, amdx_device_id(pd->adev),
					obs, n);
	return amdx_link_report_port(sd->adev, fabric, port, obs, n);
}

static int amdx_sim_link_apply(const struct amdx_sim_link_fault *f, u32 id,
			       u32 peer, bool pod, u64 fabric, u32 port, u32 n)
{
	struct amdx_sim_dev *sd, *pd = NULL;
	u32 i, up = pod ? 4 : AMDX_SIM_LINK_WIDTH;
	int ret;

	ret = amdx_sim_lock_devices();
	if (ret)
		return ret;
	sd = amdx_sim_find_locked(id);
	if (!pod)
		pd = amdx_sim_find_locked(peer);
	if (!sd || (!pod && !pd)) {
		amdx_sim_link_err("no device %u", sd ? peer : id);
		ret = -ENODEV;
		goto out;
	}
	if (f->obs != AMDX_LINK_OBS_COUNT) {
		ret = amdx_sim_link_report(sd, pd, fabric, port, f->obs,
					   f->obs == AMDX_LINK_OBS_UP && pod &&
					   n == AMDX_SIM_LINK_WIDTH ? up : n);
		goto out;
	}
	for (i = 0; i < n && !ret; i++) {
		ret = amdx_sim_link_report(sd, pd, fabric, port,
					   AMDX_LINK_OBS_DOWN, 0);
		if (!ret)
			ret = amdx_sim_link_report(sd, pd, fabric, port,
						   AMDX_LINK_OBS_UP, up);
		if (!ret && fatal_signal_pending(current))
			ret = -EINTR;
		cond_resched();
	}
out:
	amdx_sim_unlock_devices();
	if (ret == -EOPNOTSUPP)
		amdx_sim_link_err("%s: device %u was created without it (new_device's without=)",
				  f->name, id);
	else if (ret && pod)
		amdx_sim_link_err("%s on @%llu/%u via %u: %d", f->name, fabric,
				  port, id, ret);
	else if (ret)
		amdx_sim_link_err("%s on %u-%u: %d", f->name, id, peer, ret);
	return ret;
}

static ssize_t amdx_sim_link_fault_write(struct file *file,
					 const char __user *ubuf, size_t count,
					 loff_t *ppos)
{
	const struct amdx_sim_link_fault *f = NULL;
	char *buf, *p, *tok[4];
	u32 id, peer = 0, port = 0, n, i, ntok = 0;
	u64 fabric = 0;
	bool pod;
	int ret = -EINVAL;

	if (count > 64)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	p = strim(buf);
	while (p && ntok < ARRAY_SIZE(tok)) {
		char *t = strsep(&p, " \t");

		if (*t)
			tok[ntok++] = t;
	}
	if (p || ntok < 3) {
		amdx_sim_link_err("want 'ID PEER FAULT [N]'");
		goto out;
	}
	pod = tok[1][0] == '@';
	if (pod) {
		char *slash = strchr(tok[1], '/');

		if (!slash) {
			amdx_sim_link_err("want '@FABRIC/PORT', not '%s'", tok[1]);
			goto out;
		}
		*slash = '\0';
		if (kstrtou64(tok[1] + 1, 10, &fabric) ||
		    kstrtou32(slash + 1, 10, &port)) {
			amdx_sim_link_err("invalid fabric id or port");
			goto out;
		}
	}
	if (kstrtou32(tok[0], 10, &id) ||
	    (!pod && kstrtou32(tok[1], 10, &peer))) {
		amdx_sim_link_err("invalid id '%s' or '%s'", tok[0], tok[1]);
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(amdx_sim_link_faults); i++)
		if (!strcmp(tok[2], amdx_sim_link_faults[i].name))
			f = &amdx_sim_link_faults[i];
	if (!f) {
		amdx_sim_link_err("unknown fault '%s'", tok[2]);
		goto out;
	}
	n = f->def;
	if (ntok == 4 && kstrtou32(tok[3], 10, &n)) {
		amdx_sim_link_err("invalid count '%s'", tok[3]);
		goto out;
	}
	if (f->obs == AMDX_LINK_OBS_COUNT && (!n || n > AMDX_SIM_LINK_FLAPS_MAX)) {
		amdx_sim_link_err("flap count %u outside 1..%u", n,
				  AMDX_SIM_LINK_FLAPS_MAX);
		goto out;
	}
	if ((f->obs == AMDX_LINK_OBS_REPLAY || f->obs == AMDX_LINK_OBS_CE) &&
	    !n) {
		amdx_sim_link_err("%s count 0", f->name);
		goto out;
	}
	ret = amdx_sim_link_apply(f, id, peer, pod, fabric, port, n);
out:
	kfree(buf);
	return ret ?: count;
}

const struct file_operations amdx_sim_link_fault_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = amdx_sim_link_fault_write,
	.llseek = noop_llseek,
};
