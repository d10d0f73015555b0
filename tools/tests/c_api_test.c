// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The C ABI (<amdx/amdx.h>) against the fake kernel, compiled as C11.
// Prints TAP; exits non-zero on any failure.
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <amdx/amdx.h>

#include "fake_c_hook.h"

static int failures;
static int n;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		++n;                                                                               \
		if (cond) {                                                                        \
			printf("ok %d - %s\n", n, #cond);                                          \
		} else {                                                                           \
			printf("not ok %d - %s (line %d)\n", n, #cond, __LINE__);                  \
			++failures;                                                                \
		}                                                                                  \
	} while (0)

/* Bytes [from, to) of @p all equal @byte. */
static int all(const void *p, size_t from, size_t to, unsigned char byte)
{
	const unsigned char *b = p;

	for (; from < to; from++)
		if (b[from] != byte)
			return 0;
	return 1;
}

#define CANARY 0xa5
/* Room for a caller built against a newer uapi whose structures grew. */
#define GROWN 64

/*
 * Size-versioned structures (amdx.h): an old caller's buffer is never
 * written past its size, a new caller's unknown tail is zeroed (outputs)
 * or must be zero (inputs, -E2BIG), a size below the first version is
 * -EINVAL and one above AMDX_C_STRUCT_SIZE_MAX -E2BIG, each naming the
 * structure.
 */
static void struct_sizes(void *fake, amdx_ctl *ctl, amdx_dev *dev, amdx_events *ev)
{
	union {
		struct amdx_device_info info;
		struct amdx_device_entry entry;
		struct amdx_partition_config cfg;
		struct amdx_vf_config vf;
		struct amdx_event event;
		struct amdx_event_v1 event_v1;
		struct amdx_event_v2 event_v2;
		struct amdx_event_v3 event_v3;
		unsigned char bytes[4 * (sizeof(struct amdx_event) + GROWN)];
	} u;
	const size_t info_new = sizeof(u.info) + GROWN;
	const size_t entry_new = sizeof(u.entry) + GROWN;
	const size_t cfg_new = sizeof(u.cfg) + GROWN;
	const size_t vf_new = sizeof(u.vf) + GROWN;
	const size_t event_new = sizeof(u.event) + GROWN;
	struct amdx_device_entry *second;
	struct amdx_vf_config *vf1;
	char msg[256];
	size_t count;

	/* Outputs: an old caller (the first version) gets no byte past it. */
	memset(&u, CANARY, sizeof(u));
	CHECK(amdx_ctl_device_info(ctl, 1, &u.info, AMDX_DEVICE_INFO_SIZE_VER0) == 0);
	CHECK(u.info.id == 1 && all(&u, AMDX_DEVICE_INFO_SIZE_VER0, sizeof(u), CANARY));
	/* A new caller: the bytes this library does not know are zeroed. */
	memset(&u, CANARY, sizeof(u));
	CHECK(amdx_ctl_device_info(ctl, 1, &u.info, info_new) == 0 && u.info.id == 1);
	CHECK(all(&u, sizeof(u.info), info_new, 0) && all(&u, info_new, sizeof(u), CANARY));
	/* Too small, too large: refused, named, nothing written. */
	memset(&u, CANARY, sizeof(u));
	CHECK(amdx_ctl_device_info(ctl, 1, &u.info, AMDX_DEVICE_INFO_SIZE_VER0 - 8) == -EINVAL);
	CHECK(all(&u, 0, sizeof(u), CANARY));
	amdx_last_error(msg, sizeof(msg));
	CHECK(strstr(msg, "struct amdx_device_info of 440 bytes: below its first version (448 "
			  "bytes)") != NULL);
	CHECK(amdx_ctl_device_info(ctl, 1, &u.info, AMDX_C_STRUCT_SIZE_MAX + 1) == -E2BIG);
	CHECK(amdx_ctl_device_info(ctl, 1, &u.info, 0) == -EINVAL);
	CHECK(all(&u, 0, sizeof(u), CANARY));

	/* List entries are laid out by the caller's entry_size. */
	memset(&u, CANARY, sizeof(u));
	CHECK(amdx_ctl_devices(ctl, &u.entry, entry_new, 2, &count) == 0 && count == 2);
	second = (struct amdx_device_entry *)(u.bytes + entry_new);
	CHECK(u.entry.id == 0 && second->id == 1);
	CHECK(all(&u, sizeof(u.entry), entry_new, 0) &&
	      all(&u, entry_new + sizeof(u.entry), 2 * entry_new, 0) &&
	      all(&u, 2 * entry_new, sizeof(u), CANARY));
	CHECK(amdx_ctl_devices(ctl, &u.entry, AMDX_DEVICE_ENTRY_SIZE_VER0 - 1, 2, &count) ==
	      -EINVAL);
	memset(&u, CANARY, sizeof(u));
	CHECK(amdx_events_read(ev, &u.event, event_new, 1, 0) == 0); /* nothing waiting */
	amdx_fake_emit(fake, amdx_dev_id(dev), AMDX_EVENT_ERROR, 0x1000, 0);
	CHECK(amdx_events_read(ev, &u.event, event_new, 2, 1000) == 1);
	/* A caller beyond struct amdx_event_v3 gets the whole v3 record. */
	CHECK(u.event.address == 0x1000 && u.event.size == sizeof(u.event_v3));
	CHECK(u.event_v1.pid == 0 && u.event_v1.pasid == 0 && u.event_v2.driver_event == 0 &&
	      u.event_v3.driver_event_type == 0 && u.event_v3.reserved == 0);
	CHECK(all(&u, sizeof(u.event_v3), event_new, 0) &&
	      all(&u, event_new, sizeof(u), CANARY));

	/* Inputs: a new caller's zero tail is accepted, a non-zero one is not. */
	memset(&u, 0, sizeof(u));
	u.cfg.compute_mode = AMDX_COMPUTE_DPX;
	CHECK(amdx_dev_partition_plan(dev, &u.cfg, cfg_new) == 0 && u.cfg.num_partitions == 2);
	CHECK(all(&u, sizeof(u.cfg), sizeof(u), 0));
	u.bytes[cfg_new - 1] = 1;
	CHECK(amdx_dev_partition_plan(dev, &u.cfg, cfg_new) == -E2BIG);
	amdx_last_error(msg, sizeof(msg));
	CHECK(strstr(msg, "struct amdx_partition_config: byte 263 is not zero") != NULL);
	CHECK(amdx_dev_partition_plan(dev, &u.cfg, AMDX_PARTITION_CONFIG_SIZE_VER0 - 8) == -EINVAL);
	CHECK(amdx_dev_partition_plan(dev, NULL, sizeof(u.cfg)) == -EINVAL);

	/* VF configurations, read by config_size. */
	memset(&u, 0, sizeof(u));
	vf1 = (struct amdx_vf_config *)(u.bytes + vf_new);
	u.vf.partition_mask = 1;
	vf1->partition_mask = 2;
	u.vf.vram_quota = vf1->vram_quota = 1ULL << 30;
	u.vf.time_slice_us = vf1->time_slice_us = AMDX_VF_TIME_SLICE_DEFAULT_US;
	u.vf.priority = vf1->priority = AMDX_VF_PRIO_NORMAL;
	u.bytes[vf_new + sizeof(u.vf)] = 1; /* VF 1's unknown tail */
	CHECK(amdx_dev_vf_enable(dev, 2, &u.vf, vf_new) == -E2BIG);
	CHECK(amdx_dev_vf_enable(dev, 2, &u.vf, AMDX_VF_CONFIG_SIZE_VER0 - 8) == -EINVAL);
	u.bytes[vf_new + sizeof(u.vf)] = 0;
	CHECK(amdx_dev_vf_enable(dev, 2, &u.vf, vf_new) == 0);
	CHECK(amdx_dev_vf_disable(dev) == 0);
}

int main(void)
{
	char msg[256];
	void *fake = amdx_fake_new();
	amdx_ctl *ctl = NULL;
	amdx_dev *dev = NULL;
	amdx_events *ev = NULL;
	struct amdx_device_entry entries[1];
	struct amdx_device_info info;
	struct amdx_partition_info parts[AMDX_MAX_PARTITIONS];
	struct amdx_query_partitions phdr;
	struct amdx_partition_config cfg;
	struct amdx_ras_counters rows[64];
	struct amdx_ras_inject inj;
	struct amdx_badpage_record pages[4];
	struct amdx_vf_info vfs[AMDX_MAX_VFS];
	struct amdx_event events[8];
	struct amdx_event_v1 events_v1[8];
	struct amdx_event_v2 events_v2[8];
	struct amdx_event_v3 events_v3[8];
	struct amdx_device_stats stats;
	struct amdx_recovery rec;
	struct amdx_query_links lhdr;
	struct amdx_link_info links[2];
	struct amdx_query_firmware fwhdr;
	struct amdx_firmware_info fw[8];
	uint64_t seq;
	size_t count = 99;

	CHECK(strcmp(amdx_version(), "8.0.0") == 0);

	/* Another uapi major is refused at open, with the versions in the message. */
	amdx_fake_set_major(fake, AMDX_UAPI_VERSION_MAJOR + 1);
	CHECK(amdx_ctl_open("/dev/null", &ctl) == -EPROTONOSUPPORT && ctl == NULL);
	CHECK(amdx_last_error(msg, sizeof(msg)) > 0 && strstr(msg, "is not supported") != NULL);
	amdx_fake_set_major(fake, AMDX_UAPI_VERSION_MAJOR);

	amdx_fake_add_device(fake, 0);
	amdx_fake_add_device(fake, 1);
	CHECK(amdx_ctl_open("/dev/null", &ctl) == 0 && ctl != NULL);

	/* Caller-owned buffers: too small is -ENOSPC with the count. */
	CHECK(amdx_ctl_devices(ctl, entries, sizeof(entries[0]), 1, &count) == -ENOSPC &&
	      count == 2);
	CHECK(amdx_ctl_devices(ctl, NULL, 0, 0, &count) == -ENOSPC && count == 2);
	CHECK(entries[0].id == 0);
	CHECK(amdx_ctl_device_info(ctl, 1, &info, sizeof(info)) == 0 && info.id == 1 &&
	      info.num_xcc == 8);
	CHECK(amdx_ctl_device_info(ctl, 9, &info, sizeof(info)) == -ENODEV);
	amdx_last_error(msg, sizeof(msg));
	CHECK(strstr(msg, "AMDX_QUERY_DEVICE_INFO on device 9") == msg);

	CHECK(amdx_dev_open(ctl, 0, &dev) == 0 && amdx_dev_id(dev) == 0);
	CHECK(amdx_dev_partitions(dev, &phdr, parts, sizeof(parts[0]), AMDX_MAX_PARTITIONS,
				  &count) == 0);
	CHECK(count == 1 && phdr.compute_mode == AMDX_COMPUTE_SPX);

	/* Plan then commit DPX; a failing step rolls back and is negative. */
	memset(&cfg, 0, sizeof(cfg));
	cfg.compute_mode = AMDX_COMPUTE_DPX;
	CHECK(amdx_dev_partition_plan(dev, &cfg, sizeof(cfg)) == 0 && cfg.allowed == 1 &&
	      cfg.num_partitions == 2);
	amdx_fake_fail_step(fake, AMDX_PART_STEP_COMPUTE, EIO);
	memset(&cfg, 0, sizeof(cfg));
	cfg.compute_mode = AMDX_COMPUTE_DPX;
	CHECK(amdx_dev_partition_commit(dev, &cfg, sizeof(cfg)) == -EIO);
	CHECK(cfg.outcome == AMDX_PART_OUTCOME_ROLLED_BACK && cfg.failed_step == AMDX_PART_STEP_COMPUTE);
	amdx_fake_fail_step(fake, 0, 0);
	memset(&cfg, 0, sizeof(cfg));
	cfg.compute_mode = AMDX_COMPUTE_DPX;
	CHECK(amdx_dev_partition_commit(dev, &cfg, sizeof(cfg)) == 0 &&
	      cfg.outcome == AMDX_PART_OUTCOME_COMMITTED);

	/* The device counters: one rolled-back and one committed commit. */
	memset(&stats, 0xa5, sizeof(stats));
	CHECK(amdx_dev_stats(dev, &stats, sizeof(stats)) == 0);
	CHECK(stats.commits == 1 && stats.rollbacks == 1 && stats.refusals == 0);
	CHECK(stats.reserved[0] == 0 && stats.vf_flrs == 0);
	CHECK(amdx_dev_stats(dev, NULL, sizeof(stats)) == -EINVAL);

	/* Fabric links: none outside a hive; the hive's; -ENOSPC past @cap. */
	memset(&lhdr, 0xa5, sizeof(lhdr));
	CHECK(amdx_dev_links(dev, &lhdr, links, sizeof(links[0]), 2, &count) == 0 && count == 0);
	CHECK(lhdr.hive_id == 0 && lhdr.num_links == 0);
	amdx_fake_add_link(fake, 0, 1, AMDX_LINK_STATE_UP);
	amdx_fake_add_link(fake, 0, 1, AMDX_LINK_STATE_REPLAY);
	CHECK(amdx_dev_links(dev, &lhdr, links, sizeof(links[0]), 2, &count) == 0 && count == 2);
	CHECK(lhdr.hive_id == 9 && lhdr.num_links == 2);
	CHECK(links[0].state == AMDX_LINK_STATE_UP && links[0].device[1] == 1);
	CHECK(links[1].link == 1 && links[1].state == AMDX_LINK_STATE_REPLAY && links[1].hops == 2);
	CHECK(amdx_dev_links(dev, NULL, links, sizeof(links[0]), 1, &count) == -ENOSPC && count == 2);

	/* Firmware (uapi minor 4): the fake's simulator table. */
	CHECK(amdx_dev_firmware(dev, &fwhdr, fw, sizeof(fw[0]), 8, &count) == 0 && count == 4);
	CHECK(strcmp((const char *)fwhdr.provider, "amdx_sim") == 0 && fwhdr.num_firmware == 4);
	CHECK(fw[0].id == AMDX_FW_SMU && fw[0].version == 0x00557100);
	CHECK(fw[3].id == AMDX_FW_SDMA && fw[3].instance == 1 && fw[3].feature == 60);
	CHECK(amdx_dev_firmware(dev, NULL, fw, sizeof(fw[0]), 1, &count) == -ENOSPC && count == 4);
	CHECK(amdx_dev_firmware(dev, NULL, fw, AMDX_FIRMWARE_INFO_SIZE_VER0 - 1, 8, &count) ==
	      -EINVAL);
	CHECK(amdx_dev_links(dev, NULL, NULL, sizeof(links[0]), 0, &count) == -ENOSPC && count == 2);

	/* VFs. */
	CHECK(amdx_dev_vf_enable(dev, 2, NULL, 0) == 0);
	CHECK(amdx_dev_vfs(dev, vfs, sizeof(vfs[0]), AMDX_MAX_VFS, &count) == 0 && count == 2);
	CHECK(amdx_dev_vf_disable(dev) == 0);
	CHECK(amdx_dev_vfs(dev, vfs, sizeof(vfs[0]), AMDX_MAX_VFS, &count) == 0 && count == 0);

	/* RAS: inject a umc CE, see the counter; the event arrives. */
	CHECK(amdx_dev_subscribe(dev, 1ULL << AMDX_EVENT_ERROR, 0, &ev) == 0);
	CHECK(amdx_events_fd(ev) >= 0);
	memset(&inj, 0, sizeof(inj));
	inj.block = AMDX_RAS_BLOCK_UMC;
	inj.type = AMDX_RAS_TYPE_CE;
	inj.count = 1;
	inj.address = 0x200000;
	CHECK(amdx_dev_ras_inject(dev, &inj, sizeof(inj)) == 0 && inj.seq != 0);
	CHECK(amdx_dev_ras_counters(dev, NULL, rows, sizeof(rows[0]), 64, &count) == 0 &&
	      count > 0);
	CHECK(rows[0].block == AMDX_RAS_BLOCK_UMC && rows[0].count[AMDX_RAS_TYPE_CE] == 1);
	CHECK(amdx_events_read(ev, events, sizeof(events[0]), 8, 1000) == 1);
	CHECK(events[0].kind == AMDX_EVENT_ERROR && events[0].address == 0x200000);
	CHECK(events[0].size == sizeof(events[0]));
	CHECK(amdx_events_read(ev, events, sizeof(events[0]), 8, 0) == 0);
	/* A gfx UE names its consumer: in struct amdx_event_v1 records only,
	 * an old caller's 64-byte records end before the pid. */
	amdx_fake_set_consumer(fake, 4242, 0x8001);
	inj.block = AMDX_RAS_BLOCK_GFX;
	inj.type = AMDX_RAS_TYPE_UE;
	inj.address = 0;
	/* seq is an output: a reused argument is refused, the reason copied back */
	CHECK(amdx_dev_ras_inject(dev, &inj, sizeof(inj)) == -EINVAL &&
	      inj.reason == AMDX_RAS_INJECT_REASON_ARGS);
	CHECK(amdx_last_error(msg, sizeof(msg)) > 0 && strstr(msg, "(reason args)") != NULL);
	inj.seq = 0;
	inj.reason = 0;
	inj.type = AMDX_RAS_TYPE_DE;
	inj.block = AMDX_RAS_BLOCK_SDMA; /* reports only UEs */
	CHECK(amdx_dev_ras_inject(dev, &inj, sizeof(inj)) == -EOPNOTSUPP &&
	      inj.reason == AMDX_RAS_INJECT_REASON_NO_TYPE);
	inj.reason = 0;
	inj.type = AMDX_RAS_TYPE_UE;
	inj.block = AMDX_RAS_BLOCK_GFX;
	CHECK(amdx_dev_ras_inject(dev, &inj, sizeof(inj)) == 0);
	CHECK(amdx_events_read(ev, &events_v1[0].ev, sizeof(events_v1[0]), 8, 1000) == 1);
	CHECK(events_v1[0].ev.kind == AMDX_EVENT_ERROR && events_v1[0].ev.size == AMDX_EVENT_SIZE_VER1);
	CHECK(events_v1[0].pid == 4242 && events_v1[0].pasid == 0x8001);
	/* A v2 caller gets the driver's event id of the UE (uapi minor 9). */
	inj.seq = 0;
	CHECK(amdx_dev_ras_inject(dev, &inj, sizeof(inj)) == 0);
	CHECK(amdx_events_read(ev, &events_v2[0].v1.ev, sizeof(events_v2[0]), 8, 1000) == 1);
	CHECK(events_v2[0].v1.ev.size == AMDX_EVENT_SIZE_VER2 && events_v2[0].v1.pid == 4242);
	CHECK(events_v2[0].driver_event != 0);
	/* A v3 caller gets its type too (uapi minor 10): a consumed poison. */
	inj.seq = 0;
	CHECK(amdx_dev_ras_inject(dev, &inj, sizeof(inj)) == 0);
	CHECK(amdx_events_read(ev, &events_v3[0].v2.v1.ev, sizeof(events_v3[0]), 8, 1000) == 1);
	CHECK(events_v3[0].v2.v1.ev.size == AMDX_EVENT_SIZE_VER3 &&
	      events_v3[0].v2.driver_event == events_v2[0].driver_event + 1);
	CHECK(events_v3[0].driver_event_type == AMDX_DRIVER_EVENT_POISON_CONSUMPTION);
	inj.seq = 0;
	CHECK(amdx_dev_ras_inject(dev, &inj, sizeof(inj)) == 0);
	memset(events, 0xa5, sizeof(events));
	CHECK(amdx_events_read(ev, events, sizeof(events[0]), 8, 1000) == 1);
	CHECK(events[0].size == AMDX_EVENT_SIZE_VER0 && events[1].seq == 0xa5a5a5a5a5a5a5a5ULL);
	CHECK(amdx_dev_badpages(dev, pages, sizeof(pages[0]), 4, &count) == 0);

	/* Recovery: nothing pending, then a partition reset; -EINVAL below
	 * the first version, the run's outcome written back. */
	memset(&rec, 0, sizeof(rec));
	rec.action = AMDX_RECOVER_PENDING;
	rec.partition = AMDX_RAS_PARTITION_ALL;
	rec.vf = AMDX_VF_NONE;
	CHECK(amdx_dev_recovery_plan(dev, &rec, sizeof(rec)) == 0 &&
	      rec.action == AMDX_RECOVER_NONE);
	CHECK(amdx_dev_recovery_run(dev, &rec, sizeof(rec)) == -ENOENT);
	seq = amdx_fake_recovery_fault(fake, 0, 1, AMDX_VF_NONE, AMDX_RECOVER_PARTITION,
				       AMDX_FAULT_ENGINE_UE);
	memset(&rec, 0, sizeof(rec));
	rec.action = AMDX_RECOVER_PENDING;
	rec.partition = 1;
	rec.vf = AMDX_VF_NONE;
	CHECK(amdx_dev_recovery_plan(dev, &rec, AMDX_RECOVERY_SIZE_VER0 - 8) == -EINVAL);
	CHECK(amdx_dev_recovery_plan(dev, &rec, sizeof(rec)) == 0 &&
	      rec.action == AMDX_RECOVER_PARTITION && rec.seq == seq && rec.partitions[0] == 0x2 &&
	      rec.outcome == AMDX_RECOVERY_OUT_NONE);
	rec.action = AMDX_RECOVER_PENDING;
	CHECK(amdx_dev_recovery_run(dev, &rec, sizeof(rec)) == 0 &&
	      rec.outcome == AMDX_RECOVERY_OUT_CLEARED && rec.state == AMDX_RECOVERY_STATE_NONE);

	struct_sizes(fake, ctl, dev, ev);

	amdx_events_close(ev);
	amdx_dev_close(dev);
	amdx_ctl_close(ctl);
	amdx_fake_free(fake);
	printf("1..%d\n", n);
	return failures != 0;
}
