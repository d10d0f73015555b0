/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * Internal interfaces of the simulated Instinct provider amdx_sim.ko.
 */
#ifndef _AMDX_SIM_H_
#define _AMDX_SIM_H_

#include <linux/atomic.h>
#include <linux/device.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/amdx.h>
#include <asm/page.h>

#include <amdx/amdx_provider.h>

struct amdx_device;
struct amdx_sim_devmem;
struct amdx_vram;
struct dentry;
struct page;

#define AMDX_SIM_MAX_ID			1023
#define AMDX_SIM_VRAM_MIN_MIB		64
#define AMDX_SIM_VRAM_MAX_MIB		4096
#define AMDX_SIM_VRAM_STEP_MIB		16
#define AMDX_SIM_VRAM_DEFAULT_MIB	512

/**
 * struct amdx_sim_ras_block - a RAS block and how many instances it has
 * @name: amdgpu's name of the block.
 * @instances: instance count.
 * @block: %AMDX_RAS_BLOCK_*.
 * @supported: bit (1 << %AMDX_RAS_TYPE_*) per error type it reports.
 */
struct amdx_sim_ras_block {
	const char *name;
	u32 instances;
	u32 block;
	u32 supported;
};

/**
 * struct amdx_sim_model - static facts of a simulated model
 * @model: %AMDX_MODEL_*.
 * @name: the name accepted by new_device's model= key.
 * @product: product name reported to the core.
 * @num_xcc: XCCs.
 * @num_sdma: SDMA instances.
 * @num_vcn: VCN instances.
 * @compute_modes: bit (1 << %AMDX_COMPUTE_*) per supported mode.
 * @memory_modes: bit (1 << %AMDX_MEMORY_*) per supported mode.
 * @max_vfs: SR-IOV VF limit of the model.
 * @ras_blocks: RAS blocks, @num_ras_blocks of them.
 * @num_ras_blocks: entries in @ras_blocks.
 */
struct amdx_sim_model {
	u32 model;
	const char *name;
	const char *product;
	u32 num_xcc;
	u32 num_sdma;
	u32 num_vcn;
	u32 compute_modes;
	u32 memory_modes;
	u32 max_vfs;
	const struct amdx_sim_ras_block *ras_blocks;
	u32 num_ras_blocks;
};

/**
 * struct amdx_sim_params - what new_device asked for, validated
 * @id: device id, 0 .. %AMDX_SIM_MAX_ID.
 * @model: the model.
 * @vram_mib: VRAM in MiB.
 * @max_vfs: SR-IOV VF limit, at most the model's.
 * @hive_id: XGMI hive id, 0 = none.
 * @without: %AMDX_SIM_WITHOUT_*.
 * @resets: %AMDX_RECOVER_CAP_* the device declares; 0 = the default
 *	(amdx_sim_dev.c).
 * @pci_switch: the simulated PCIe switch above the device, 0 = none.
 * @reset_ms: per %AMDX_RECOVER_* action up to hive, its simulated
 *	duration as the device reports it; 0 = the default.
 * @pod: the scale-up pod @hive_id names, all zero = an XGMI hive.
 */
struct amdx_sim_params {
	u32 id;
	const struct amdx_sim_model *model;
	u32 vram_mib;
	u32 max_vfs;
	u64 hive_id;
	u32 without;
	u32 resets;
	u32 pci_switch;
	u32 reset_ms[AMDX_RECOVER_HIVE + 1];
	struct amdx_pod_desc pod;
};

/* Most simulated PCIe switches (switch=1..N). */
#define AMDX_SIM_MAX_SWITCH		255
/* Longest reset_ms= (ten minutes). */
#define AMDX_SIM_RESET_MS_MAX		600000

/* struct amdx_sim_params.without: provider operations the device lacks */
#define AMDX_SIM_WITHOUT_MODES	BIT(0)	/* compute/memory mode switches */
#define AMDX_SIM_WITHOUT_SRIOV	BIT(1)	/* VF enable/disable/configure/FLR */
#define AMDX_SIM_WITHOUT_RESET	BIT(2)	/* partition reset */
#define AMDX_SIM_WITHOUT_INJECT	BIT(3)	/* RAS error injection */
#define AMDX_SIM_WITHOUT_HMM	BIT(4)	/* HMM VRAM (AMDX_DEVICE_F_HMM) */
/* What it reports of its fabric links (amdx_device_desc.link_absent) */
#define AMDX_SIM_WITHOUT_LINK_STATE	BIT(5)
#define AMDX_SIM_WITHOUT_LINK_WIDTH	BIT(6)
#define AMDX_SIM_WITHOUT_LINK_COUNTERS	BIT(7)

/**
 * struct amdx_sim_hang - a device's hangs and their detection
 *	(amdx_sim_hang.c)
 * @lock: protects @open, @parts, @vfs and @firmware.
 * @open: the device is the core's: hangs may be set (after registration,
 *	until removal starts).
 * @parts: bit N: partition N's queue hung, not yet detected.
 * @vfs: bit N: VF N hung, not yet detected.
 * @firmware: the firmware hung, not yet detected.
 * @job_timeout_ms: debugfs knob; how long the detection waits.  Atomic.
 * @work: the detection: reports what it finds to the core.
 */
struct amdx_sim_hang {
	struct mutex lock;	/* see above */
	bool open;
	unsigned long parts;
	unsigned long vfs;
	bool firmware;
	atomic_t job_timeout_ms;
	struct delayed_work work;
};

/**
 * struct amdx_sim_dev - one simulated device
 * @dev: the device on the amdx_sim bus; its release frees this structure.
 * @list: entry in the bus's device list, under the bus's list lock.
 * @params: creation parameters; constant.
 * @bdf: PCI-style address; constant.
 * @serial: board serial; constant.
 * @adev: the core's device, NULL when not registered.
 * @vram: VRAM allocator; created before and destroyed after @adev.
 * @devmem: ZONE_DEVICE backing of @vram, NULL without DEVICE_PRIVATE.
 * @ddir: debugfs directory.
 * @state_lock: protects @compute_mode, @memory_mode and @num_vfs.
 * @compute_mode: current %AMDX_COMPUTE_*.
 * @memory_mode: current %AMDX_MEMORY_*.
 * @num_vfs: SR-IOV VFs enabled.
 * @fail_partition_step: debugfs knob; fail that partition-switch step
 *	(%AMDX_PART_STEP_*) once (0 = off).  Atomic: written by debugfs,
 *	consumed by the sim.
 * @fail_vram_alloc: debugfs knob; that many VRAM allocations fail with
 *	-ENOMEM.  Atomic, see above.
 * @reset_delay_ms: debugfs knob; simulated reset duration.  Atomic.
 * @ras_blocks: the core's view of the model's RAS blocks; constant.
 * @vf_ack_delay_ms: debugfs knob; how long a VF's guest takes to ack an
 *	FLR (over 10 ms: no ack in time).  Atomic.
 * @validate_delay_ms: debugfs knob; how long the provider's check of a
 *	commit's VALIDATE step takes.  Atomic.
 * @vram_copy_delay_ms: debugfs knob; how long one page copy takes.
 *	Atomic.
 * @fail_vram_copy: debugfs knob; that many page copies (vram_copy) fail
 *	with -EIO.  Atomic.
 * @reported_compute_mode: debugfs knob; not 0: the compute mode
 *	get_state reports instead of @compute_mode.  Atomic.
 * @ops: the provider operations registered with the core: the
 *	simulator's, less those @params.without names; constant.
 * @fail_reset: debugfs knob; that many resets (queue, pipe, partition,
 *	device) fail with -EIO midway.  Atomic.
 * @fail_self_test: debugfs knob; that many post-recovery self-tests fail
 *	with -EIO.  Atomic.
 * @wipe_visited: pages the last VF FLR's VRAM wipe looked at (debugfs
 *	``wipe_visited``); written by the wipe only (FLRs of a device are
 *	serialised by the core), read by debugfs.
 * @hang: hung queues, VFs and firmware, and their detection.
 * @ras_events: the RAS event ids handed out: one per uncorrectable or
 *	deferred error injected (as amdgpu's one sequence over its fatal
 *	and poison events), the last one's.
 */
struct amdx_sim_dev {
	struct device dev;
	struct list_head list;
	struct amdx_sim_params params;
	char bdf[AMDX_BDF_LEN];
	char serial[AMDX_SERIAL_LEN];
	struct amdx_device *adev;
	struct amdx_vram *vram;
	struct amdx_sim_devmem *devmem;
	struct dentry *ddir;
	/* protects compute_mode and memory_mode */
	struct mutex state_lock;
	u32 compute_mode;
	u32 memory_mode;
	u32 num_vfs;
	atomic_t fail_partition_step;
	atomic_t fail_vram_alloc;
	atomic_t reset_delay_ms;
	struct amdx_ras_block_info ras_blocks[AMDX_RAS_BLOCK_COUNT];
	atomic_t vf_ack_delay_ms;
	atomic_t validate_delay_ms;
	atomic_t vram_copy_delay_ms;
	atomic_t fail_vram_copy;
	atomic_t reported_compute_mode;
	struct amdx_provider_ops ops;
	atomic_t fail_reset;
	atomic_t fail_self_test;
	u64 wipe_visited;
	struct amdx_sim_hang hang;
	atomic64_t ras_events;
};

static inline struct amdx_sim_dev *to_amdx_sim_dev(struct device *dev)
{
	return container_of(dev, struct amdx_sim_dev, dev);
}

/* amdx_sim_bus.c */
extern struct bus_type amdx_sim_bus;
int amdx_sim_bus_init(void);
void amdx_sim_bus_exit(void);
int amdx_sim_lock_devices(void);
void amdx_sim_unlock_devices(void);
struct amdx_sim_dev *amdx_sim_find_locked(u32 id);

/* amdx_sim_dev.c */
const struct amdx_sim_model *amdx_sim_model_find(const char *name);
const struct amdx_sim_model *amdx_sim_model_default(void);
struct amdx_sim_dev *amdx_sim_dev_create(const struct amdx_sim_params *p);
void amdx_sim_dev_destroy(struct amdx_sim_dev *sd);

/* amdx_sim_vram.c */
int amdx_sim_vram_init(struct amdx_sim_dev *sd);
void amdx_sim_vram_fini(struct amdx_sim_dev *sd);
int amdx_sim_vram_alloc(struct amdx_sim_dev *sd, u32 part, u32 owner,
			u64 *pfn);
void amdx_sim_vram_free(struct amdx_sim_dev *sd, u64 pfn);
struct page *amdx_sim_vram_page(struct amdx_sim_dev *sd, u64 pfn);
bool amdx_sim_vram_has_hmm(struct amdx_sim_dev *sd);

/* amdx_sim_devmem.c, built only with CONFIG_DEVICE_PRIVATE */
#if IS_ENABLED(CONFIG_DEVICE_PRIVATE)
int amdx_sim_devmem_init(struct amdx_sim_dev *sd);
void amdx_sim_devmem_fini(struct amdx_sim_dev *sd);
void amdx_sim_devmem_set_device(struct amdx_sim_dev *sd);
int amdx_sim_devmem_get_page(struct amdx_sim_dev *sd, u64 pfn);
void amdx_sim_devmem_put_page(struct amdx_sim_dev *sd, u64 pfn);
struct page *amdx_sim_devmem_page(struct amdx_sim_dev *sd, u64 pfn);
u64 amdx_sim_devmem_wipe(struct amdx_sim_dev *sd, u32 owner);
void amdx_sim_devmem_read(struct amdx_sim_dev *sd, u64 pfn, void *buf);
struct page *amdx_sim_vram_alloc_page(struct amdx_device *adev, u32 part,
				      u32 owner);
int amdx_sim_vram_alloc_pages(struct amdx_device *adev, u32 part, u32 owner,
			      u32 n, struct page **pages, u32 *got);
int amdx_sim_vram_copy(struct amdx_device *adev, struct page *dst,
		       struct page *src);
u32 amdx_sim_vram_copy_pages(struct amdx_device *adev, struct page **dst,
			     struct page **src, u32 n);
u64 amdx_sim_vram_page_index(struct amdx_device *adev, struct page *page);
struct page *amdx_sim_vram_index_page(struct amdx_device *adev, u64 index);
u64 amdx_sim_vram_used_pages(struct amdx_device *adev);
#else
static inline int amdx_sim_devmem_init(struct amdx_sim_dev *sd)
{
	return 0;
}

static inline void amdx_sim_devmem_fini(struct amdx_sim_dev *sd)
{
}

static inline void amdx_sim_devmem_set_device(struct amdx_sim_dev *sd)
{
}

static inline int amdx_sim_devmem_get_page(struct amdx_sim_dev *sd, u64 pfn)
{
	return 0;
}

static inline void amdx_sim_devmem_put_page(struct amdx_sim_dev *sd, u64 pfn)
{
}

static inline struct page *amdx_sim_devmem_page(struct amdx_sim_dev *sd,
						u64 pfn)
{
	return NULL;
}

/* Without device-private pages the VRAM holds no data: it reads zero. */
static inline u64 amdx_sim_devmem_wipe(struct amdx_sim_dev *sd, u32 owner)
{
	return 0;
}

static inline void amdx_sim_devmem_read(struct amdx_sim_dev *sd, u64 pfn,
					void *buf)
{
	memset(buf, 0, PAGE_SIZE);
}
#endif

/* amdx_sim_ras.c */
void amdx_sim_ras_blocks(struct amdx_sim_dev *sd);
int amdx_sim_ras_inject(struct amdx_device *adev,
			const struct amdx_ras_inject *inj, u64 *seq);
int amdx_sim_vram_retire(struct amdx_device *adev, u64 index);
void amdx_sim_vram_retired(struct amdx_device *adev, u64 *retired,
			   u64 *pending);
int amdx_sim_device_reset(struct amdx_device *adev);
int amdx_sim_queue_reset(struct amdx_device *adev, u32 part, bool pipe);
int amdx_sim_self_test(struct amdx_device *adev, u32 part, u32 mem_part);
int amdx_sim_badpages_store(struct amdx_device *adev, const void *table,
			    size_t len);
void *amdx_sim_eeprom_read(const char *serial, size_t *len);
void amdx_sim_eeprom_exit(void);

/* amdx_sim_hang.c */
void amdx_sim_hang_init(struct amdx_sim_dev *sd);
void amdx_sim_hang_debugfs(struct amdx_sim_dev *sd);
void amdx_sim_hang_start(struct amdx_sim_dev *sd);
void amdx_sim_hang_stop(struct amdx_sim_dev *sd);

/* amdx_sim_link.c */
extern const struct file_operations amdx_sim_link_fault_fops;
void amdx_sim_link_desc(const struct amdx_sim_dev *sd,
			struct amdx_device_desc *desc);

/* amdx_sim_debugfs.c */
void amdx_sim_debugfs_init(void);
void amdx_sim_debugfs_exit(void);
void amdx_sim_debugfs_dev_init(struct amdx_sim_dev *sd);
void amdx_sim_debugfs_dev_exit(struct amdx_sim_dev *sd);
bool amdx_sim_should_fail_step(struct amdx_sim_dev *sd, u32 step);
bool amdx_sim_should_fail_vram_alloc(struct amdx_sim_dev *sd);
u32 amdx_sim_reset_delay_ms(struct amdx_sim_dev *sd);
u32 amdx_sim_vf_ack_delay_ms(struct amdx_sim_dev *sd);
u32 amdx_sim_vram_copy_delay_ms(struct amdx_sim_dev *sd);
bool amdx_sim_should_fail_vram_copy(struct amdx_sim_dev *sd);
bool amdx_sim_should_fail_reset(struct amdx_sim_dev *sd);
bool amdx_sim_should_fail_self_test(struct amdx_sim_dev *sd);

/* amdx_sim_partition.c */
int amdx_sim_partition_step(struct amdx_device *adev, u32 step);
int amdx_sim_set_compute_mode(struct amdx_device *adev, u32 mode);
int amdx_sim_set_memory_mode(struct amdx_device *adev, u32 mode);
int amdx_sim_vf_enable(struct amdx_device *adev, u32 num_vfs,
		       const struct amdx_vf_config *cfg);
void amdx_sim_vf_disable(struct amdx_device *adev);
int amdx_sim_vf_configure(struct amdx_device *adev, u32 vf,
			  const struct amdx_vf_config *cfg);
int amdx_sim_vf_flr(struct amdx_device *adev, u32 vf, u32 *result);
int amdx_sim_partition_reset(struct amdx_device *adev, u32 part);

#endif /* _AMDX_SIM_H_ */
