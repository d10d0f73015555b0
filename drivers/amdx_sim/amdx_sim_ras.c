// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: simulated RAS
 *
 * The RAS side of a simulated device: its blocks (the model's table, with
 * the error types each reports), error injection, page retirement, the
 * device reset, and the board EEPROM that keeps the bad-page table.
 *
 * Injection turns a validated %AMDX_IOC_RAS_INJECT into the report a
 * hardware error interrupt would produce and hands it to the core's
 * intake, amdx_ras_report()::
 *
 *    gfx instance     = XCC N          -> the compute partition holding N
 *    sdma instance    = engine E       -> its XCC (E / engines per XCC) -> partition
 *    umc address      = VRAM byte      -> its memory partition; the compute
 *                                         partition too when they pair 1:1
 *    other blocks                      -> the whole device
 *
 * The attribution is the core's one model of the partition layout
 * (amdx_partition_of_instance(), amdx_partition_of_vram()), as a real
 * provider would take it from its own partition manager.
 *
 * The board EEPROM: amdx_sim keeps each board's bad-page table, keyed by
 * the board serial (derived from the id and the model), for as long as the
 * module is loaded, so deleting a device and creating it again with the
 * same id and model brings back its retired pages, as a real board would.
 *
 * Locking: amdx_sim_eeprom_lock protects the EEPROM list.  The core calls
 * &amdx_provider_ops.badpages_store under its RAS lock, so that lock is
 * never held across amdx_device_register(): creation copies the table out
 * first.
 */
#define pr_fmt(fmt) "amdx_sim: " fmt

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pagemap.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <amdx/amdx_provider.h>
#include <amdx/amdx_vram.h>

#include "amdx_sim.h"

/**
 * struct amdx_sim_eeprom - the bad-page table of one board
 * @node: entry in amdx_sim_eeproms.
 * @serial: the board.
 * @len: bytes at @table.
 * @table: the encoded table, as the core stored it.
 */
struct amdx_sim_eeprom {
	struct list_head node;
	char serial[AMDX_SERIAL_LEN];
	size_t len;
	u8 table[];
};

static DEFINE_MUTEX(amdx_sim_eeprom_lock);
/* every board's table, under amdx_sim_eeprom_lock */
static LIST_HEAD(amdx_sim_eeproms);

/* Caller holds amdx_sim_eeprom_lock. */
static struct amdx_sim_eeprom *amdx_sim_eeprom_find(const char *serial)
{
	struct amdx_sim_eeprom *e;

	list_for_each_entry(e, &amdx_sim_eeproms, node)
		if (!strcmp(e->serial, serial))
			return e;
	return NULL;
}

/**
 * amdx_sim_eeprom_read() - copy a board's bad-page table
 * @serial: the board.
 * @len: out: bytes returned.
 *
 * Return: a kvmalloc()ed copy for the caller to kvfree(), or NULL when
 * the board has none (or memory ran out: the board then starts clean).
 */
void *amdx_sim_eeprom_read(const char *serial, size_t *len)
{
	struct amdx_sim_eeprom *e;
	void *copy = NULL;

	*len = 0;
	mutex_lock(&amdx_sim_eeprom_lock);
	e = amdx_sim_eeprom_find(serial);
	if (e) {
		copy = kvmalloc(e->len, GFP_KERNEL);
		if (copy) {
			memcpy(copy, e->table, e->len);
			*len = e->len;
		}
	}
	mutex_unlock(&amdx_sim_eeprom_lock);
	return copy;
}

/**
 * amdx_sim_eeprom_exit() - forget every board's table at module unload
 */
void amdx_sim_eeprom_exit(void)
{
	struct amdx_sim_eeprom *e, *tmp;

	mutex_lock(&amdx_sim_eeprom_lock);
	list_for_each_entry_safe(e, tmp, &amdx_sim_eeproms, node) {
		list_del(&e->node);
		kvfree(e);
	}
	mutex_unlock(&amdx_sim_eeprom_lock);
}

/**
 * amdx_sim_badpages_store() - &amdx_provider_ops.badpages_store
 * @adev: the core's device.
 * @table: the encoded table.
 * @len: its size.
 *
 * Return: 0 or -ENOMEM (the previous table stays then).
 */
int amdx_sim_badpages_store(struct amdx_device *adev, const void *table,
			    size_t len)
{
	struct amdx_sim_dev *sd = amdx_device_priv(adev);
	struct amdx_sim_eeprom *e, *old;

	e = kvmalloc(struct_size(e, table, len), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	strscpy(e->serial, sd->serial, sizeof(e->serial));
	e->len = len;
	memcpy(e->table, table, len);

	mutex_lock(&amdx_sim_eeprom_lock);
	old = amdx_sim_eeprom_find(sd->serial);
	if (old)
		list_del(&old->node);
	list_add_tail(&e->node, &amdx_sim_eeproms);
	mutex_unlock(&amdx_sim_eeprom_lock);
	kvfree(old);
	return 0;
}

/**
 * amdx_sim_ras_blocks() - the core's RAS block table of a device
 * @sd: the device.
 *
 * Fills sd->ras_blocks from the model's table.
 */
void amdx_sim_ras_blocks(struct amdx_sim_dev *sd)
{
	const struct amdx_sim_model *m = sd->params.model;
	u32 i;

	memset(sd->ras_blocks, 0, sizeof(sd->ras_blocks));
	for (i = 0; i < m->num_ras_blocks; i++) {
		const struct amdx_sim_ras_block *b = &m->ras_blocks[i];

		sd->ras_blocks[b->block].instances = b->instances;
		sd->ras_blocks[b->block].supported = b->supported;
	}
}

/**
 * amdx_sim_ras_inject() - &amdx_provider_ops.ras_inject
 * @adev: the core's device.
 * @inj: the validated injection.
 * @seq: out: sequence number of the error event.
 *
 * A gfx or sdma UE is modelled as a poison the caller's own work consumed:
 * its report names the caller as the consumer (the PASID 0: amdx_sim has
 * none), as amdgpu's KFD names the process of a consumed poison.  An
 * uncorrectable or deferred error gets the device's next RAS event id
 * (from 1; a CE none), as amdgpu's fatal and poison events get one, and
 * that event's type: a DE a poison creation, a UE with a consumer a
 * poison consumption, any other UE a fatal error.
 *
 * Return: 0 or an error of amdx_ras_report().
 */
int amdx_sim_ras_inject(struct amdx_device *adev,
			const struct amdx_ras_inject *inj, u64 *seq)
{
	struct amdx_sim_dev *sd = amdx_device_priv(adev);
	struct amdx_ras_error err = {
		.block = inj->block,
		.type = inj->type,
		.instance = inj->instance,
		.count = inj->count,
		.partition = AMDX_RAS_PARTITION_ALL,
	};
	int ret = 0;

	/* The core's model of the partitions: amdx_partition_of_*(). */
	switch (inj->block) {
	case AMDX_RAS_BLOCK_GFX:
	case AMDX_RAS_BLOCK_SDMA:
		ret = amdx_partition_of_instance(adev, inj->block,
						 inj->instance, &err.partition);
		if (inj->type == AMDX_RAS_TYPE_UE &&
		    !(current->flags & PF_KTHREAD))
			err.consumer = task_tgid(current);
		break;
	case AMDX_RAS_BLOCK_UMC:
		err.flags = AMDX_RAS_ERR_F_ADDRESS;
		err.address = inj->address;
		ret = amdx_partition_of_vram(adev, inj->address,
					     &err.mem_partition,
					     &err.partition);
		break;
	default:
		break;
	}
	if (ret)
		return ret;
	if (inj->type == AMDX_RAS_TYPE_CE)
		return amdx_ras_report(adev, &err, seq);
	err.driver_event = atomic64_inc_return(&sd->ras_events);
	if (inj->type == AMDX_RAS_TYPE_DE)
		err.driver_event_type = AMDX_DRIVER_EVENT_POISON_CREATION;
	else if (err.consumer)
		err.driver_event_type = AMDX_DRIVER_EVENT_POISON_CONSUMPTION;
	else
		err.driver_event_type = AMDX_DRIVER_EVENT_FATAL;
	return amdx_ras_report(adev, &err, seq);
}

/**
 * amdx_sim_vram_retire() - &amdx_provider_ops.vram_retire
 * @adev: the core's device.
 * @index: VRAM page index.
 *
 * Return: 0 or -EINVAL beyond the VRAM.
 */
int amdx_sim_vram_retire(struct amdx_device *adev, u64 index)
{
	struct amdx_sim_dev *sd = amdx_device_priv(adev);

	return amdx_vram_retire(sd->vram, index);
}

/**
 * amdx_sim_vram_retired() - &amdx_provider_ops.vram_retired
 * @adev: the core's device.
 * @retired: out: retired pages out of the allocator.
 * @pending: out: retired pages still allocated.
 */
void amdx_sim_vram_retired(struct amdx_device *adev, u64 *retired,
			   u64 *pending)
{
	struct amdx_sim_dev *sd = amdx_device_priv(adev);

	amdx_vram_retired(sd->vram, retired, pending);
}

/**
 * amdx_sim_device_reset() - &amdx_provider_ops.device_reset
 * @adev: the core's device.
 *
 * Takes ``reset_delay_ms`` (debugfs).  The simulated VRAM keeps its
 * contents across the reset.
 *
 * Return: 0, or -EIO while the debugfs knob ``fail_reset`` is set.
 */
int amdx_sim_device_reset(struct amdx_device *adev)
{
	struct amdx_sim_dev *sd = amdx_device_priv(adev);
	u32 ms = amdx_sim_reset_delay_ms(sd);

	if (ms)
		msleep(ms);
	if (amdx_sim_should_fail_reset(sd)) {
		dev_info(&sd->dev, "device reset failed midway (fail_reset)\n");
		return -EIO;
	}
	dev_info(&sd->dev, "device reset (%u ms)\n", ms);
	return 0;
}

/**
 * amdx_sim_queue_reset() - &amdx_provider_ops.queue_reset
 * @adev: the core's device.
 * @part: compute partition.
 * @pipe: reset the pipe, not only the queue.
 *
 * Return: 0, or -EIO while the debugfs knob ``fail_reset`` is set.
 */
int amdx_sim_queue_reset(struct amdx_device *adev, u32 part, bool pipe)
{
	struct amdx_sim_dev *sd = amdx_device_priv(adev);

	if (amdx_sim_should_fail_reset(sd))
		return -EIO;
	dev_dbg(&sd->dev, "partition %u: %s reset\n", part,
		pipe ? "pipe" : "queue");
	return 0;
}

#if IS_ENABLED(CONFIG_DEVICE_PRIVATE)
/* A page's worth of pattern through one VRAM page and back. */
static int amdx_sim_self_test_page(struct amdx_device *adev, u32 mem_part)
{
	struct page *vpage, *src, *dst;
	u32 *s, *d, i;
	int ret;

	src = alloc_page(GFP_KERNEL);
	dst = alloc_page(GFP_KERNEL);
	if (!src || !dst) {
		ret = -ENOMEM;
		goto out_free;
	}
	vpage = amdx_sim_vram_alloc_page(adev, mem_part, AMDX_OWNER_PF);
	if (IS_ERR(vpage)) {
		ret = PTR_ERR(vpage);
		goto out_free;
	}
	s = page_address(src);
	for (i = 0; i < PAGE_SIZE / sizeof(*s); i++)
		s[i] = 0xa5a5a5a5U ^ (i * 2654435761U);
	ret = amdx_sim_vram_copy(adev, vpage, src);
	if (!ret)
		ret = amdx_sim_vram_copy(adev, dst, vpage);
	d = page_address(dst);
	if (!ret && memcmp(s, d, PAGE_SIZE))
		ret = -EIO;
	unlock_page(vpage);
	put_page(vpage);
out_free:
	if (dst)
		__free_page(dst);
	if (src)
		__free_page(src);
	return ret;
}
#else
/* Without device-private memory the VRAM holds no data to test. */
static int amdx_sim_self_test_page(struct amdx_device *adev, u32 mem_part)
{
	struct amdx_sim_dev *sd = amdx_device_priv(adev);
	u64 pfn;
	int ret;

	ret = amdx_sim_vram_alloc(sd, mem_part, AMDX_OWNER_PF, &pfn);
	if (!ret)
		amdx_sim_vram_free(sd, pfn);
	return ret;
}
#endif

/**
 * amdx_sim_self_test() - &amdx_provider_ops.self_test
 * @adev: the core's device.
 * @part: compute partition, or %AMDX_RAS_PARTITION_ALL.
 * @mem_part: the memory partition whose VRAM to test.
 *
 * Writes a pattern into one VRAM page of @mem_part through the simulated
 * DMA engine and reads it back (with device-private memory; without it,
 * only allocates and frees the page), then checks the partition's free
 * page count is what it was: the pattern came back and nothing leaked.
 *
 * Return: 0; -EIO when the pattern or the count differ, or while the
 * debugfs knob ``fail_self_test`` is set; -ENOSPC with the partition full.
 */
int amdx_sim_self_test(struct amdx_device *adev, u32 part, u32 mem_part)
{
	struct amdx_sim_dev *sd = amdx_device_priv(adev);
	u64 before;
	int ret;

	if (mem_part >= amdx_vram_num_partitions(sd->vram))
		return -EINVAL;
	before = amdx_vram_part_free(sd->vram, mem_part);
	ret = amdx_sim_self_test_page(adev, mem_part);
	if (!ret && amdx_vram_part_free(sd->vram, mem_part) != before)
		ret = -EIO;
	if (!ret && amdx_sim_should_fail_self_test(sd))
		ret = -EIO;
	if (ret)
		dev_info(&sd->dev, "self-test of partition %d failed: %pe\n",
			 (int)part, ERR_PTR(ret));
	return ret;
}
