/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The provider interface: how a device backend (the simulator, a real
 * amdgpu backend) registers Instinct devices with the amdx core.
 */
#ifndef _AMDX_PROVIDER_H_
#define _AMDX_PROVIDER_H_

#include <linux/bits.h>
#include <linux/memremap.h>
#include <linux/mm_types.h>
#include <linux/types.h>
#include <linux/amdx.h>

struct device;
struct amdx_device;
struct amdx_vram;
struct page;
struct pid;

/**
 * struct amdx_ras_block_info - one RAS block of a device
 * @instances: instance count; 0 when the device lacks the block.
 * @supported: bit (1 << %AMDX_RAS_TYPE_*) per error type it reports.
 */
struct amdx_ras_block_info {
	u32 instances;
	u32 supported;
};

/*
 * The resets a device can carry out (&amdx_device_desc.reset_caps), bit
 * (1 << %AMDX_RECOVER_*), as amdgpu's gfx/compute/sdma reset masks declare
 * queue and pipe resets.  NONE, PROCESS, NODE and RMA need nothing of the
 * device and are always possible; HIVE needs a hive.
 */
#define AMDX_RECOVER_CAP_QUEUE		BIT(AMDX_RECOVER_QUEUE)
#define AMDX_RECOVER_CAP_PIPE		BIT(AMDX_RECOVER_PIPE)
#define AMDX_RECOVER_CAP_PARTITION	BIT(AMDX_RECOVER_PARTITION)
#define AMDX_RECOVER_CAP_VF		BIT(AMDX_RECOVER_VF)
#define AMDX_RECOVER_CAP_DEVICE		BIT(AMDX_RECOVER_DEVICE)
#define AMDX_RECOVER_CAP_HIVE		BIT(AMDX_RECOVER_HIVE)
#define AMDX_RECOVER_CAP_ALL		0xfcU

/*
 * &amdx_device_desc.reset_flags: the device's reset domain.  A device of
 * a hive always resets with its hive (amdgpu's XGMI reset).
 */
/* A device reset is a secondary bus reset of its PCIe switch's port. */
#define AMDX_RESET_F_SBR		BIT(0)
/*
 * @reset_caps is all the device can do, even when 0 (no reset at all):
 * not derived from its ops.
 */
#define AMDX_RESET_F_CAPS		BIT(1)

/**
 * struct amdx_pod_desc - a scale-up pod as this host sees it
 * @domains: OS domains (hosts) of the pod; 0: no pod.
 * @per_domain: accelerators per domain, 1..8.
 * @planes: switch planes, 1..8: every accelerator has one link on its
 *	port p to the switch of plane p (Documentation/fabric.rst).
 * @vpod_size: accelerators per virtual pod: the accelerator with fabric
 *	id i is in virtual pod i / @vpod_size (the last one may be smaller),
 *	and a switch carries data only between accelerators of one; 0: the
 *	whole pod is one.
 * @domain: this host's domain, below @domains.
 * @index: the device's place in its domain, below @per_domain; its
 *	fabric id is @domain * @per_domain + @index.
 *
 * The accelerators of the other domains are known by fabric id only.
 */
struct amdx_pod_desc {
	u32 domains;
	u32 per_domain;
	u32 planes;
	u32 vpod_size;
	u32 domain;
	u32 index;
};

/**
 * struct amdx_device_desc - what a provider knows about a device at birth
 * @model: %AMDX_MODEL_*.
 * @bdf: PCI-style address, at most %AMDX_BDF_LEN - 1 characters.
 * @serial: board serial number, at most %AMDX_SERIAL_LEN - 1 characters.
 * @product: product name, at most %AMDX_PRODUCT_LEN - 1 characters.
 * @hive_id: XGMI hive id, 0 when not in a hive.
 * @vram_size: bytes of VRAM.
 * @num_xcc: XCC count.
 * @num_sdma: SDMA instance count.
 * @num_vcn: VCN instance count.
 * @supported_compute_modes: bit (1 << %AMDX_COMPUTE_*) per valid mode.
 * @supported_memory_modes: bit (1 << %AMDX_MEMORY_*) per valid mode.
 * @max_vfs: SR-IOV VFs supported.
 * @flags: %AMDX_DEVICE_F_*.
 * @pgmap_owner: with %AMDX_DEVICE_F_HMM: the owner of the device's
 *	device-private pagemap (&amdx_pagemap.pgmap.owner); unique per
 *	device.
 * @vram: with %AMDX_DEVICE_F_HMM: the allocator (amdx_vram.c) the
 *	provider's vram_alloc_page(s) ops take the device's pages from; the
 *	core records there which device fd holds each page.  It must live
 *	until amdx_device_unregister() has returned.
 * @ras_blocks: NULL (no RAS) or %AMDX_RAS_BLOCK_COUNT entries indexed by
 *	%AMDX_RAS_BLOCK_*.
 * @badpages: NULL or the bad-page table kept on the board (its EEPROM):
 *	the core retires its pages before the device becomes visible.
 * @badpages_len: bytes at @badpages.
 * @reset_caps: %AMDX_RECOVER_CAP_*, the resets the device can carry out;
 *	0: those its ops provide (@partition_reset, @vf_flr, @device_reset;
 *	hive for a device in a hive), unless @reset_flags has
 *	%AMDX_RESET_F_CAPS.
 * @pci_switch: the PCIe switch above the device, an id the provider keeps
 *	unique per switch; 0 on a root port.
 * @reset_flags: %AMDX_RESET_F_*.
 * @reset_ms: per %AMDX_RECOVER_* action up to hive, the time it takes on
 *	the device (Documentation/ras.rst says where each figure comes from);
 *	0: amdx's default for the action.
 * @pod: with @hive_id: the scale-up pod that hive id names and the
 *	device's place in it; all zero: an XGMI hive (a full mesh).
 * @link_absent: with @hive_id: what the provider does not report on the
 *	device's fabric links (amdx_link_report()), %AMDX_LINK_F_NO_STATE,
 *	%AMDX_LINK_F_NO_WIDTH, %AMDX_LINK_F_NO_COUNTERS (<linux/amdx.h>):
 *	%AMDX_QUERY_LINKS and the tools then show it absent, not 0, and
 *	amdx_link_report() refuses a report of it (-EOPNOTSUPP).
 *
 * The core copies what it needs; the descriptor may live on the stack.
 */
struct amdx_device_desc {
	u32 model;
	const char *bdf;
	const char *serial;
	const char *product;
	u64 hive_id;
	u64 vram_size;
	u32 num_xcc;
	u32 num_sdma;
	u32 num_vcn;
	u32 supported_compute_modes;
	u32 supported_memory_modes;
	u32 max_vfs;
	u32 flags;
	void *pgmap_owner;
	struct amdx_vram *vram;
	const struct amdx_ras_block_info *ras_blocks;
	const void *badpages;
	size_t badpages_len;
	u32 reset_caps;
	u32 pci_switch;
	u32 reset_flags;
	u32 reset_ms[AMDX_RECOVER_HIVE + 1];
	struct amdx_pod_desc pod;
	u32 link_absent;
};

/**
 * struct amdx_pagemap - a device's device-private pagemap
 * @pgmap: the pagemap.  The provider fills in its type
 *	(%MEMORY_DEVICE_PRIVATE), range and owner
 *	(&amdx_device_desc.pgmap_owner), sets its ops to amdx_pagemap_ops()
 *	and maps it with amdx_pagemap_map() (memremap_pages() on a worker).
 * @adev: the device the pages belong to, written by the provider
 *	(WRITE_ONCE()) once amdx_device_register() returned it.  NULL before:
 *	a CPU fault in that instant, between the core publishing the device
 *	and the provider storing it, returns and the access faults again.
 * @page_free: the provider's: @page's last reference went; give it back to
 *	the VRAM allocator.  Called from the pagemap's page_free().
 *
 * With CONFIG_DEVICE_PRIVATE only.  The core owns the pagemap's ops, as
 * drm_pagemap does xe's: its migrate_to_ram() finds the device here and
 * moves the data home (amdx_hmm_migrate.c); its page_free() calls
 * @page_free.  The provider keeps the pagemap until every page of it has
 * been freed, which amdx_device_unregister() guarantees on its return.
 */
struct amdx_pagemap {
	struct dev_pagemap pgmap;
	struct amdx_device *adev;
	void (*page_free)(struct amdx_pagemap *apm, struct page *page);
};

/* struct amdx_ras_error.flags */
#define AMDX_RAS_ERR_F_ADDRESS	BIT(0)	/* @address is valid */
/* Counted by another report: contain @address's page only (see below). */
#define AMDX_RAS_ERR_F_UNCOUNTED	BIT(1)

/**
 * struct amdx_ras_error - one hardware error report (amdx_ras_report())
 * @block: %AMDX_RAS_BLOCK_*.
 * @type: %AMDX_RAS_TYPE_*, one the block supports.
 * @instance: the block instance, below its instance count.
 * @count: errors this report stands for, at least 1.
 * @partition: the compute partition the instance belongs to, or
 *	%AMDX_RAS_PARTITION_ALL when it belongs to none or to several.
 * @mem_partition: with %AMDX_RAS_ERR_F_ADDRESS, the memory partition of
 *	@address.
 * @flags: %AMDX_RAS_ERR_F_*.  %AMDX_RAS_ERR_F_UNCOUNTED, with
 *	%AMDX_RAS_ERR_F_ADDRESS and a UE or DE only: a page of an error the
 *	provider has reported (or will report) as a count without an
 *	address, as a driver that counts one poison and retires the pages of
 *	its row does (amdgpu on UMC 12): the page's containment runs as for
 *	any report of the page, but no counter moves and no ERROR event is
 *	logged: the count's report did both.
 * @address: with %AMDX_RAS_ERR_F_ADDRESS (umc), the VRAM byte address.
 * @consumer: the process that consumed the error (a poison its work
 *	read), or NULL; the caller holds it for the call.  The ERROR event
 *	names it to whom may see it (the uapi's rule for pids).
 * @pasid: with @consumer, its PASID on the device, 0 for none.
 * @driver_event: the driver's own id of the RAS event the error belongs
 *	to (amdgpu: the event id its log prints as "{id}"), 0 for none; the
 *	ERROR event carries it to the subscribers of struct amdx_event_v2
 *	records.
 * @driver_event_type: that event's type, %AMDX_DRIVER_EVENT_* (NONE
 *	with no @driver_event), for the subscribers of struct amdx_event_v3
 *	records.
 */
struct amdx_ras_error {
	u32 block;
	u32 type;
	u32 instance;
	u32 count;
	u32 partition;
	u32 mem_partition;
	u32 flags;
	u64 address;
	struct pid *consumer;
	u32 pasid;
	u64 driver_event;
	u32 driver_event_type;
};

/*
 * What a provider saw on one of a device's fabric links
 * (amdx_link_report()): the link's raw reports, which the core's link
 * model turns into a state with its hysteresis (Documentation/fabric.rst).
 */
#define AMDX_LINK_OBS_UP		0	/* trained, at @arg lanes */
#define AMDX_LINK_OBS_DOWN		1	/* lost training */
#define AMDX_LINK_OBS_WIDTH		2	/* retrained at @arg lanes */
#define AMDX_LINK_OBS_REPLAY		3	/* @arg replays */
#define AMDX_LINK_OBS_CE		4	/* @arg corrected errors */
#define AMDX_LINK_OBS_UE		5	/* an uncorrected error */
#define AMDX_LINK_OBS_COUNT		6

/**
 * struct amdx_device_state - the parts of a device that change at runtime
 * @compute_mode: current %AMDX_COMPUTE_*.
 * @memory_mode: current %AMDX_MEMORY_*.
 * @num_vfs: VFs enabled.
 * @num_mem_partitions: valid entries in @mem.
 * @mem: VRAM per memory partition.
 * @vf_vram_used: bytes of VRAM charged to each enabled VF.
 */
struct amdx_device_state {
	u32 compute_mode;
	u32 memory_mode;
	u32 num_vfs;
	u32 num_mem_partitions;
	struct amdx_mem_partition_info mem[AMDX_MAX_MEM_PARTITIONS];
	u64 vf_vram_used[AMDX_MAX_VFS];
};

/* VRAM owners (&amdx_provider_ops.vram_alloc_page): the PF, then VF n as n + 1. */
#define AMDX_OWNER_PF		0
#define AMDX_OWNER_VF(vf)	((vf) + 1)

/**
 * struct amdx_provider_ops - callbacks from the core into a provider
 * @get_state: fill @st with the device's current state.  May sleep.
 *	Returns 0 or -errno.
 * @vram_alloc_page: HMM: allocate a VRAM page in memory partition @part
 *	for a migration destination, charged to @owner (%AMDX_OWNER_PF or
 *	AMDX_OWNER_VF(n)): a device-private page, locked, one
 *	reference.  Its contents are undefined: the core copies a full page
 *	into it (the zero page where the process had none).  Freed through
 *	&amdx_pagemap.page_free once the last reference goes.  May sleep.
 *	Returns the page, ERR_PTR(-ENOSPC) when the partition is full,
 *	ERR_PTR(-EDQUOT) when @owner is at its VRAM quota,
 *	ERR_PTR(-ENOMEM) or another error.
 * @vram_copy: HMM: copy one page; either page may be a device-private page
 *	of this device (the "DMA engine").  Returns 0 or -errno.
 * @vram_alloc_pages: HMM, optional: @vram_alloc_page for a batch, one
 *	allocator round trip: up to @n pages into @pages[0 .. *@got), as
 *	@vram_alloc_page returns them.  Returns 0 when all @n came, else why
 *	fewer did (-ENOSPC, -EDQUOT, -ENOMEM, ...).  May sleep.
 * @vram_copy_pages: HMM, optional: @vram_copy of @dst[i] from @src[i] for
 *	i in [0, @n), in order, stopping at the first that fails.  Returns
 *	the pages copied before it (@n when all were).
 * @vram_page_index: HMM: the VRAM page index of a device page.
 * @vram_index_page: HMM: the device page of a VRAM page index.
 * @vram_used_pages: HMM: VRAM pages allocated right now.
 * @vram_retire: RAS: take VRAM page @index out of service for good: a
 *	free page leaves the allocator now, an allocated one when it is
 *	freed.  Never sleeps.  Returns 0, -EINVAL beyond the VRAM.
 * @vram_retired: RAS: VRAM pages retired and out of the allocator
 *	(@retired), and retired but still allocated, leaving when freed
 *	(@pending).  Optional.
 * @ras_inject: RAS: turn a validated %AMDX_IOC_RAS_INJECT into a hardware
 *	error report and pass it to amdx_ras_report() before returning,
 *	forwarding @seq.  Optional.  Returns 0 or -errno.
 * @device_reset: RAS: reset the device (and what shares its reset
 *	domain).  May sleep.  Optional.  Returns 0 or -errno.
 * @badpages_store: RAS: keep this encoded bad-page table on the board
 *	(replacing the previous one) for the next amdx_device_register() of
 *	the same board.  May sleep.  Optional.  Returns 0 or -errno.
 * @partition_step: a partition commit is about to run step @step
 *	(%AMDX_PART_STEP_*; the hardware work of COMPUTE and MEMORY follows
 *	through the ops below).  Optional.  Returns 0, or -errno to fail the
 *	step: the core rolls the commit back.
 * @set_compute_mode: ask the firmware for compute mode @mode, no reset.
 *	Returns 0 or -errno with the mode unchanged.
 * @set_memory_mode: reset the device into memory mode @mode and lay its
 *	VRAM out anew (the core drained it first).  May sleep for the reset.
 *	Returns 0, -EBUSY while VRAM is allocated, or -errno; on error the
 *	mode and the VRAM layout are unchanged.
 * @vf_enable: bring up @num_vfs VFs with the resources in @cfg (validated
 *	by the core): VF n's VRAM quota applies to AMDX_OWNER_VF(n).  All or
 *	nothing.  Returns 0 or -errno.
 * @vf_disable: take every VF down and release its resources.
 * @vf_configure: apply @cfg to enabled VF @vf (time slice, VRAM quota,
 *	priority, flags).  Returns 0 or -errno with nothing changed.
 * @vf_flr: reset enabled VF @vf (function level reset): notify its guest,
 *	wait up to 10 ms for the ack, reset anyway, and clear the VF's VRAM:
 *	every page charged to AMDX_OWNER_VF(@vf) reads zero afterwards (its
 *	mappings stay).  The core keeps migrations out meanwhile.  Sets
 *	*@result to %AMDX_VF_RESET_ACKED or %AMDX_VF_RESET_ACK_TIMEOUT.  May
 *	sleep.  Returns 0 or -errno.
 * @partition_reset: reset compute partition @part (of the current mode)
 *	alone.  May sleep.  Returns 0 or -errno.
 * @queue_reset: reset the hung queue of compute partition @part, or with
 *	@pipe the pipe it runs on (%AMDX_RECOVER_CAP_QUEUE, _PIPE).  May
 *	sleep.  Optional.  Returns 0 or -errno.
 * @self_test: after a recovery: prove compute partition @part (or the
 *	whole device for %AMDX_RAS_PARTITION_ALL) works: write a pattern
 *	through its VRAM (memory partition @mem_part) and read it back,
 *	check the counters are sane.  May
 *	sleep.  Optional (no self-test: a recovery clears once it ran).
 *	Returns 0, or -EIO (or another -errno) when the test failed.
 * @firmware: the versions the provider knows (%AMDX_QUERY_FIRMWARE):
 *	into @fw (zeroed, with room for %AMDX_MAX_FIRMWARE entries) its
 *	name and version (@fw->provider, @fw->provider_version) and the
 *	firmware it can read the version of (@fw->firmware, their number in
 *	@fw->num_firmware; ids %AMDX_FW_*).  The core fills the rest.
 *	Reads what the driver already keeps: never touches the hardware,
 *	never sleeps long.  Optional (the query fails with -EOPNOTSUPP).
 *	Returns 0 or -errno.
 *
 * Without @set_compute_mode and @set_memory_mode the device has a fixed
 * partition layout (COMMIT fails with -EOPNOTSUPP); without @vf_enable,
 * @vf_disable, @vf_configure and @vf_flr it has no SR-IOV.
 *
 * The core never calls an op after amdx_device_unregister() has returned,
 * and serialises nothing else: providers do their own locking.  The core
 * calls the partition and VF ops with its partition lock held, one at a
 * time per device.
 */
struct amdx_provider_ops {
	int (*get_state)(struct amdx_device *adev, struct amdx_device_state *st);
	struct page *(*vram_alloc_page)(struct amdx_device *adev, u32 part,
					u32 owner);
	int (*vram_copy)(struct amdx_device *adev, struct page *dst,
			 struct page *src);
	int (*vram_alloc_pages)(struct amdx_device *adev, u32 part, u32 owner,
				u32 n, struct page **pages, u32 *got);
	u32 (*vram_copy_pages)(struct amdx_device *adev, struct page **dst,
			       struct page **src, u32 n);
	u64 (*vram_page_index)(struct amdx_device *adev, struct page *page);
	struct page *(*vram_index_page)(struct amdx_device *adev, u64 index);
	u64 (*vram_used_pages)(struct amdx_device *adev);
	int (*vram_retire)(struct amdx_device *adev, u64 index);
	void (*vram_retired)(struct amdx_device *adev, u64 *retired,
			     u64 *pending);
	int (*ras_inject)(struct amdx_device *adev,
			  const struct amdx_ras_inject *inj, u64 *seq);
	int (*device_reset)(struct amdx_device *adev);
	int (*badpages_store)(struct amdx_device *adev, const void *table,
			      size_t len);
	int (*partition_step)(struct amdx_device *adev, u32 step);
	int (*set_compute_mode)(struct amdx_device *adev, u32 mode);
	int (*set_memory_mode)(struct amdx_device *adev, u32 mode);
	int (*vf_enable)(struct amdx_device *adev, u32 num_vfs,
			 const struct amdx_vf_config *cfg);
	void (*vf_disable)(struct amdx_device *adev);
	int (*vf_configure)(struct amdx_device *adev, u32 vf,
			    const struct amdx_vf_config *cfg);
	int (*vf_flr)(struct amdx_device *adev, u32 vf, u32 *result);
	int (*partition_reset)(struct amdx_device *adev, u32 part);
	int (*queue_reset)(struct amdx_device *adev, u32 part, bool pipe);
	int (*self_test)(struct amdx_device *adev, u32 part, u32 mem_part);
	int (*firmware)(struct amdx_device *adev,
			struct amdx_query_firmware *fw);
};

struct amdx_device *amdx_device_register(struct device *parent,
					 const struct amdx_device_desc *desc,
					 const struct amdx_provider_ops *ops,
					 void *priv);
void amdx_device_unregister(struct amdx_device *adev);
void *amdx_device_priv(const struct amdx_device *adev);
u32 amdx_device_id(const struct amdx_device *adev);
const struct dev_pagemap_ops *amdx_pagemap_ops(void);
void *amdx_pagemap_map(struct dev_pagemap *pgmap, int nid);
int amdx_ras_report(struct amdx_device *adev,
		    const struct amdx_ras_error *err, u64 *seq);
u64 amdx_ras_count(struct amdx_device *adev, u32 block, u32 type);
void amdx_device_reset_begin(struct amdx_device *adev);
void amdx_device_reset_end(struct amdx_device *adev, int result);
void amdx_device_rma(struct amdx_device *adev);
int amdx_device_hang(struct amdx_device *adev, u32 kind, u32 partition,
		     u32 vf);
int amdx_partition_of_instance(struct amdx_device *adev, u32 block,
			       u32 instance, u32 *part);
int amdx_partition_of_vram(struct amdx_device *adev, u64 address, u32 *mem,
			   u32 *part);
int amdx_link_report(struct amdx_device *adev, u32 peer, u32 obs, u32 arg);
int amdx_link_report_port(struct amdx_device *adev, u64 fabric_id, u32 port,
			  u32 obs, u32 arg);

#endif /* _AMDX_PROVIDER_H_ */
