// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: the amdx_sim bus
 *
 * Simulated devices are created and removed by writing to two root-only,
 * write-only bus attributes (the netdevsim scheme)::
 *
 *    echo "ID [model=mi300x|mi300a|mi308x] [vram=MiB] [max_vfs=N] [hive=HEX]
 *          [without=OP[,OP...]] [resets=R[,R...]] [switch=N]
 *          [reset_ms=R:MS[,R:MS...]] [pod=D,N,P,DOM,IDX[,VPS]]" \
 *          > /sys/bus/amdx_sim/new_device
 *    echo ID > /sys/bus/amdx_sim/del_device
 *
 * ID is decimal, 0..1023, unique among live devices.  Defaults: model
 * mi300x, vram 512 MiB, max_vfs the model's limit (mi300x 8, mi300a 0,
 * mi308x 4), hive 0 (no hive).  vram must be a multiple of 16 MiB between
 * 64 and 4096 MiB.  ``without`` names provider operations the device
 * lacks, as a real provider may (the amdgpu provider has no SR-IOV and no
 * HMM VRAM): ``modes`` (compute and memory mode switches), ``sriov``,
 * ``reset`` (partition reset), ``inject`` (RAS error injection), ``hmm``
 * (no %AMDX_DEVICE_F_HMM), ``link_state``, ``link_width``,
 * ``link_counters`` (what it reports of its fabric links, declared absent
 * in &amdx_device_desc.link_absent as the amdgpu provider declares it;
 * link_fault still feeds the core).  ``resets`` is the device's reset profile, the
 * resets it declares (``queue``, ``pipe``, ``partition``, ``vf``,
 * ``device``, ``hive``; default: all its operations allow, hive in a
 * hive).  ``switch`` places it below simulated PCIe switch N (1..255):
 * its device reset is then a secondary bus reset that takes every device
 * below that switch.  ``reset_ms`` sets how long the device says each
 * reset takes (defaults in amdx_sim_dev.c).  ``pod`` makes the hive a
 * scale-up pod of D OS domains of N accelerators (1..8) on P switch
 * planes (1..8), this host being domain DOM and the device its IDX-th
 * accelerator; the other domains' accelerators are known by fabric id
 * only (Documentation/fabric.rst); it needs ``hive``.  Each key may
 * appear once.  Anything else (unknown key, bad number, unknown model,
 * out of range value, a used id, empty input) fails with -EINVAL, one
 * rate-limited log line naming the parameter, and creates nothing.
 * Removing an unknown id fails with -ENODEV.
 *
 * Locking: amdx_sim_lock serialises creation and removal and protects
 * amdx_sim_devices and amdx_sim_enabled.  It is held across
 * amdx_device_register()/unregister(); the core never calls back into the
 * bus, so the order is always amdx_sim_lock -> core locks.  Module exit
 * clears amdx_sim_enabled first, so a write racing with it fails with
 * -ENODEV instead of adding a device nobody would remove.
 */
#define pr_fmt(fmt) "amdx_sim: " fmt

#include <linux/device.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <amdx/amdx_compat.h>

#include "amdx_sim.h"

static DEFINE_MUTEX(amdx_sim_lock);
/* the live devices, under amdx_sim_lock */
static LIST_HEAD(amdx_sim_devices);
/* new_device and del_device work, under amdx_sim_lock */
static bool amdx_sim_enabled;

#define amdx_sim_param_err(fmt, ...) \
	pr_err_ratelimited("new_device: " fmt "\n", ##__VA_ARGS__)

/* Caller holds amdx_sim_lock. */
static struct amdx_sim_dev *amdx_sim_find(u32 id)
{
	struct amdx_sim_dev *sd;

	list_for_each_entry(sd, &amdx_sim_devices, list)
		if (sd->params.id == id)
			return sd;
	return NULL;
}

/**
 * amdx_sim_lock_devices() - hold every live device still
 *
 * Creation and removal wait until amdx_sim_unlock_devices(); meanwhile
 * amdx_sim_find_locked() finds a device whose core device is registered.
 *
 * Return: 0, or -EINTR for a signal while waiting.
 */
int amdx_sim_lock_devices(void)
{
	return mutex_lock_interruptible(&amdx_sim_lock);
}

/**
 * amdx_sim_unlock_devices() - end amdx_sim_lock_devices()
 */
void amdx_sim_unlock_devices(void)
{
	mutex_unlock(&amdx_sim_lock);
}

/**
 * amdx_sim_find_locked() - a live device by id
 * @id: its id.
 *
 * Context: between amdx_sim_lock_devices() and amdx_sim_unlock_devices().
 * Return: the device, registered with the core, or NULL.
 */
struct amdx_sim_dev *amdx_sim_find_locked(u32 id)
{
	struct amdx_sim_dev *sd;

	lockdep_assert_held(&amdx_sim_lock);
	sd = amdx_sim_enabled ? amdx_sim_find(id) : NULL;
	return sd && sd->adev ? sd : NULL;
}

static int amdx_sim_parse_id(const char *s, u32 *id)
{
	if (kstrtou32(s, 10, id) || *id > AMDX_SIM_MAX_ID)
		return -EINVAL;
	return 0;
}

/* Parses without=OP[,OP...] into AMDX_SIM_WITHOUT_* bits. */
static int amdx_sim_parse_without(char *val, u32 *without)
{
	static const char * const ops[] = { "modes", "sriov", "reset",
					    "inject", "hmm", "link_state",
					    "link_width", "link_counters" };
	char *op;
	int i;

	while ((op = strsep(&val, ","))) {
		i = match_string(ops, ARRAY_SIZE(ops), op);
		if (i < 0) {
			amdx_sim_param_err("unknown operation '%s' in without=",
					   op);
			return -EINVAL;
		}
		*without |= BIT(i);
	}
	return 0;
}

static const char * const amdx_sim_reset_names[] = {
	[AMDX_RECOVER_QUEUE] = "queue", [AMDX_RECOVER_PIPE] = "pipe",
	[AMDX_RECOVER_PARTITION] = "partition", [AMDX_RECOVER_VF] = "vf",
	[AMDX_RECOVER_DEVICE] = "device", [AMDX_RECOVER_HIVE] = "hive",
};

static int amdx_sim_reset_find(const char *name)
{
	int i;

	for (i = AMDX_RECOVER_QUEUE; i <= AMDX_RECOVER_HIVE; i++)
		if (!strcmp(name, amdx_sim_reset_names[i]))
			return i;
	amdx_sim_param_err("unknown reset '%s' (queue, pipe, partition, vf, device, hive)",
			   name);
	return -EINVAL;
}

/* Parses resets=R[,R...] into AMDX_RECOVER_CAP_* bits. */
static int amdx_sim_parse_resets(char *val, u32 *resets)
{
	char *r;
	int i;

	while ((r = strsep(&val, ","))) {
		i = amdx_sim_reset_find(r);
		if (i < 0)
			return i;
		*resets |= BIT(i);
	}
	return 0;
}

/* Parses reset_ms=R:MS[,R:MS...]. */
static int amdx_sim_parse_reset_ms(char *val, u32 *ms)
{
	char *r, *t;
	int i;

	while ((r = strsep(&val, ","))) {
		t = strchr(r, ':');
		if (!t) {
			amdx_sim_param_err("'%s' in reset_ms=, want RESET:MS", r);
			return -EINVAL;
		}
		*t++ = '\0';
		i = amdx_sim_reset_find(r);
		if (i < 0)
			return i;
		if (kstrtou32(t, 10, &ms[i]) || !ms[i] ||
		    ms[i] > AMDX_SIM_RESET_MS_MAX) {
			amdx_sim_param_err("invalid reset_ms of %s '%s' (1..%u)",
					   r, t, AMDX_SIM_RESET_MS_MAX);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * pod=D,N,P,DOM,IDX[,VPS]: VPS accelerators per virtual pod (0 or none:
 * one); the core checks that the pod fits its model.
 */
static int amdx_sim_parse_pod(char *val, struct amdx_pod_desc *pod)
{
	u32 v[6] = {};
	char *t;
	u32 i;

	for (i = 0; val; i++) {
		t = strsep(&val, ",");
		if (i == ARRAY_SIZE(v) || kstrtou32(t, 10, &v[i])) {
			i = 0;
			break;
		}
	}
	if (i < 5 || !v[0] || !v[1] || v[1] > 8 || !v[2] ||
	    v[2] > 8 || v[3] >= v[0] || v[4] >= v[1]) {
		amdx_sim_param_err("invalid pod (want D,N,P,DOM,IDX[,VPS]; N, P 1..8)");
		return -EINVAL;
	}
	if (v[5] > (u64)v[0] * v[1]) {
		amdx_sim_param_err("pod: virtual pods of %u exceed its %llu accelerators",
				   v[5], (u64)v[0] * v[1]);
		return -EINVAL;
	}
	*pod = (struct amdx_pod_desc){
		.domains = v[0], .per_domain = v[1], .planes = v[2],
		.domain = v[3], .index = v[4], .vpod_size = v[5],
	};
	return 0;
}

/* Parses one key=value token into @p; @seen tracks keys already given. */
static int amdx_sim_parse_kv(char *tok, struct amdx_sim_params *p,
			     unsigned long *seen, bool *max_vfs_set)
{
	static const char * const keys[] = { "model", "vram", "max_vfs",
					     "hive", "without", "resets",
					     "switch", "reset_ms", "pod" };
	char *val = strchr(tok, '=');
	int key;

	if (!val) {
		amdx_sim_param_err("unexpected '%s', want key=value", tok);
		return -EINVAL;
	}
	*val++ = '\0';

	key = match_string(keys, ARRAY_SIZE(keys), tok);
	if (key < 0) {
		amdx_sim_param_err("unknown parameter '%s'", tok);
		return -EINVAL;
	}
	if (test_and_set_bit(key, seen)) {
		amdx_sim_param_err("%s= given twice", tok);
		return -EINVAL;
	}

	switch (key) {
	case 0:
		p->model = amdx_sim_model_find(val);
		if (!p->model) {
			amdx_sim_param_err("unknown model '%s' (mi300x, mi300a, mi308x)",
					   val);
			return -EINVAL;
		}
		break;
	case 1:
		if (kstrtou32(val, 10, &p->vram_mib) ||
		    p->vram_mib < AMDX_SIM_VRAM_MIN_MIB ||
		    p->vram_mib > AMDX_SIM_VRAM_MAX_MIB ||
		    p->vram_mib % AMDX_SIM_VRAM_STEP_MIB) {
			amdx_sim_param_err("invalid vram '%s' (MiB, %u..%u, multiple of %u)",
					   val, AMDX_SIM_VRAM_MIN_MIB,
					   AMDX_SIM_VRAM_MAX_MIB,
					   AMDX_SIM_VRAM_STEP_MIB);
			return -EINVAL;
		}
		break;
	case 2:
		if (kstrtou32(val, 10, &p->max_vfs)) {
			amdx_sim_param_err("invalid max_vfs '%s'", val);
			return -EINVAL;
		}
		*max_vfs_set = true;
		break;
	case 3:
		if (kstrtou64(val, 16, &p->hive_id)) {
			amdx_sim_param_err("invalid hive '%s' (hex)", val);
			return -EINVAL;
		}
		break;
	case 4:
		return amdx_sim_parse_without(val, &p->without);
	case 5:
		return amdx_sim_parse_resets(val, &p->resets);
	case 6:
		if (kstrtou32(val, 10, &p->pci_switch) || !p->pci_switch ||
		    p->pci_switch > AMDX_SIM_MAX_SWITCH) {
			amdx_sim_param_err("invalid switch '%s' (1..%u)", val,
					   AMDX_SIM_MAX_SWITCH);
			return -EINVAL;
		}
		break;
	case 7:
		return amdx_sim_parse_reset_ms(val, p->reset_ms);
	case 8:
		return amdx_sim_parse_pod(val, &p->pod);
	}
	return 0;
}

/* Parses new_device's input; @buf is modified. */
static int amdx_sim_parse(char *buf, struct amdx_sim_params *p)
{
	DECLARE_BITMAP(seen, 9) = { 0 };
	bool max_vfs_set = false;
	char *tok;
	int ret;

	*p = (struct amdx_sim_params) {
		.model = amdx_sim_model_default(),
		.vram_mib = AMDX_SIM_VRAM_DEFAULT_MIB,
	};

	buf = skip_spaces(buf);
	tok = strsep(&buf, " \t\n");
	if (!*tok) {
		amdx_sim_param_err("empty input, want ID [key=value ...]");
		return -EINVAL;
	}
	if (amdx_sim_parse_id(tok, &p->id)) {
		amdx_sim_param_err("invalid id '%s' (0..%u)", tok,
				   AMDX_SIM_MAX_ID);
		return -EINVAL;
	}

	while ((tok = strsep(&buf, " \t\n"))) {
		if (!*tok)
			continue;
		ret = amdx_sim_parse_kv(tok, p, seen, &max_vfs_set);
		if (ret)
			return ret;
	}

	if (!max_vfs_set) {
		p->max_vfs = p->model->max_vfs;
	} else if (p->max_vfs > p->model->max_vfs) {
		amdx_sim_param_err("max_vfs %u above the %s limit %u",
				   p->max_vfs, p->model->name,
				   p->model->max_vfs);
		return -EINVAL;
	}
	if ((p->resets & BIT(AMDX_RECOVER_HIVE)) && !p->hive_id) {
		amdx_sim_param_err("resets=hive without a hive");
		return -EINVAL;
	}
	if (p->pod.domains && !p->hive_id) {
		amdx_sim_param_err("pod= without a hive");
		return -EINVAL;
	}
	return 0;
}

static ssize_t new_device_store(amdx_bus_attr_bus *bus, const char *buf,
				size_t count)
{
	struct amdx_sim_params p;
	struct amdx_sim_dev *sd;
	char *copy;
	int ret;

	copy = kstrndup(buf, count, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	ret = amdx_sim_parse(copy, &p);
	kfree(copy);
	if (ret)
		return ret;

	mutex_lock(&amdx_sim_lock);
	if (!amdx_sim_enabled) {
		ret = -ENODEV;
		goto out_unlock;
	}
	if (amdx_sim_find(p.id)) {
		amdx_sim_param_err("id %u already exists", p.id);
		ret = -EINVAL;
		goto out_unlock;
	}

	sd = amdx_sim_dev_create(&p);
	if (IS_ERR(sd)) {
		ret = PTR_ERR(sd);
		goto out_unlock;
	}
	list_add_tail(&sd->list, &amdx_sim_devices);
out_unlock:
	mutex_unlock(&amdx_sim_lock);
	return ret ?: count;
}
static BUS_ATTR_WO(new_device);

static ssize_t del_device_store(amdx_bus_attr_bus *bus, const char *buf,
				size_t count)
{
	struct amdx_sim_dev *sd;
	char *copy, *tok;
	u32 id;
	int ret;

	copy = kstrndup(buf, count, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	tok = strim(copy);
	ret = amdx_sim_parse_id(tok, &id);
	if (ret)
		pr_err_ratelimited("del_device: invalid id '%s'\n", tok);
	kfree(copy);
	if (ret)
		return ret;

	mutex_lock(&amdx_sim_lock);
	sd = amdx_sim_enabled ? amdx_sim_find(id) : NULL;
	if (!sd) {
		ret = -ENODEV;
		goto out_unlock;
	}
	list_del(&sd->list);
	amdx_sim_dev_destroy(sd);
out_unlock:
	mutex_unlock(&amdx_sim_lock);
	return ret ?: count;
}
static BUS_ATTR_WO(del_device);

static struct attribute *amdx_sim_bus_attrs[] = {
	&bus_attr_new_device.attr,
	&bus_attr_del_device.attr,
	NULL
};
ATTRIBUTE_GROUPS(amdx_sim_bus);

struct bus_type amdx_sim_bus = {
	.name = "amdx_sim",
	.bus_groups = amdx_sim_bus_groups,
};

/**
 * amdx_sim_bus_init() - register the amdx_sim bus
 *
 * Return: 0 or -errno.
 */
int amdx_sim_bus_init(void)
{
	int ret;

	ret = bus_register(&amdx_sim_bus);
	if (ret)
		return ret;

	mutex_lock(&amdx_sim_lock);
	amdx_sim_enabled = true;
	mutex_unlock(&amdx_sim_lock);
	return 0;
}

/**
 * amdx_sim_bus_exit() - remove every simulated device and the bus
 *
 * Context: process context; unregisters each device from the core first.
 */
void amdx_sim_bus_exit(void)
{
	struct amdx_sim_dev *sd, *tmp;

	mutex_lock(&amdx_sim_lock);
	amdx_sim_enabled = false;
	list_for_each_entry_safe(sd, tmp, &amdx_sim_devices, list) {
		list_del(&sd->list);
		amdx_sim_dev_destroy(sd);
	}
	mutex_unlock(&amdx_sim_lock);

	bus_unregister(&amdx_sim_bus);
}
