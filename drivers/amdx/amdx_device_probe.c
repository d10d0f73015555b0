// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: device registration
 *
 * amdx_device_register() is the one place that knows every feature, as
 * xe_device_probe() is in xe: it creates the device object
 * (amdx_device_create()), sets up the features in order and publishes
 * the device.  Each feature's set-up registers its own teardown with
 * amdx_device_add_action_or_reset(), so the registry (amdx_device.c)
 * never calls up into a feature, and a set-up that fails unwinds what
 * came before by the same actions::
 *
 *   set-up (here)           action it registers, by stage
 *   HMM                     REMOVE: drain the VRAM, forget the id
 *   partitions, SR-IOV      RELEASE: free the partition state
 *   event log               REMOVE: end the log;  RELEASE: free it
 *   RAS                     RELEASE: free the RAS state
 *   fabric links (hives)    REMOVE: leave the hive's mesh
 *   sysfs, debugfs          UNPUBLISH: remove the files
 *
 * amdx_device_unregister() runs UNPUBLISH, marks the device dead, runs
 * REMOVE; the last reference runs RELEASE; each stage newest first.
 */
#include <linux/err.h>
#include <linux/module.h>
#include <linux/string.h>

#include "amdx_core.h"
#include "amdx_debugfs.h"
#include "amdx_event.h"
#include "amdx_hmm.h"
#include "amdx_hmm_devmove.h"
#include "amdx_link.h"
#include "amdx_partition.h"
#include "amdx_ras.h"
#include "amdx_sysfs.h"

static bool amdx_desc_valid(const struct amdx_device_desc *desc,
			    const struct amdx_provider_ops *ops)
{
	if (!ops || !ops->get_state)
		return false;
	if ((desc->flags & AMDX_DEVICE_F_HMM) &&
	    (!amdx_hmm_supported() || !desc->pgmap_owner || !desc->vram ||
	     !ops->vram_alloc_page || !ops->vram_copy ||
	     !ops->vram_page_index || !ops->vram_index_page ||
	     !ops->vram_used_pages))
		return false;
	return desc->model != AMDX_MODEL_UNKNOWN && desc->bdf &&
	       strlen(desc->bdf) < AMDX_BDF_LEN && desc->serial &&
	       strlen(desc->serial) < AMDX_SERIAL_LEN && desc->product &&
	       strlen(desc->product) < AMDX_PRODUCT_LEN && desc->num_xcc;
}

/*
 * HMM's removal: every page in the device's VRAM home, then the device's
 * id out of every range's access attribute.  A SET_ATTR that named this
 * device checked it under the HMM lock of its own device, before the
 * registry hid it or after this walk takes that lock: either way the bit
 * is gone when the id is freed.  The device's own ranges, out of reach
 * now, forget every device: a device unregistered meanwhile skipped them.
 */
static void amdx_device_hmm_remove(struct amdx_device *adev)
{
	struct amdx_device *other;
	unsigned long id = 0;

	amdx_hmm_vacate_device(adev);
	amdx_hmm_forget_devices(adev, U64_MAX);
	while ((other = amdx_device_next(&id))) {
		amdx_hmm_forget_devices(other, BIT_ULL(adev->id));
		amdx_device_put(other);
		id++;
	}
}

/**
 * amdx_device_register() - add a device to amdx
 * @parent: the provider's device; the sysfs class device hangs below it.
 * @desc: static facts; copied.
 * @ops: callbacks; must stay valid until amdx_device_unregister() returns.
 * @priv: provider data, returned by amdx_device_priv().
 *
 * Return: the device, or ERR_PTR(-EINVAL) for a bad descriptor,
 * ERR_PTR(-ENOMEM), ERR_PTR(-ENOSPC) when %AMDX_MAX_DEVICES devices exist
 * (counting those still being unregistered).
 */
struct amdx_device *amdx_device_register(struct device *parent,
					 const struct amdx_device_desc *desc,
					 const struct amdx_provider_ops *ops,
					 void *priv)
{
	struct amdx_device *adev;
	int ret;

	if (!amdx_desc_valid(desc, ops))
		return ERR_PTR(-EINVAL);

	adev = amdx_device_create(desc, ops, priv);
	if (IS_ERR(adev))
		return adev;

	/* Added first, so it runs after the event log's end. */
	ret = amdx_device_add_action_or_reset(adev, AMDX_DEVICE_REMOVE,
					      amdx_device_hmm_remove);
	if (ret)
		goto err_abort;
	ret = amdx_partition_dev_init(adev);
	if (ret)
		goto err_abort;
	ret = amdx_event_device_init(adev);
	if (ret)
		goto err_abort;
	ret = amdx_ras_init(adev);
	if (ret)
		goto err_abort;
	ret = amdx_link_device_init(adev);
	if (ret)
		goto err_abort;
	ret = amdx_sysfs_add(adev, parent);
	if (ret)
		goto err_abort;
	ret = amdx_debugfs_add(adev);
	if (ret)
		goto err_abort;

	amdx_device_publish(adev);
	return adev;

err_abort:
	amdx_device_abort(adev);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(amdx_device_register);
