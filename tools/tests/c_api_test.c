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
	struct amdx_device_stats stats;
	size_t count = 99;

	CHECK(strcmp(amdx_version(), "3.0.0") == 0);

	/* Another uapi major is refused at open, with the versions in the message. */
	amdx_fake_set_major(fake, AMDX_UAPI_VERSION_MAJOR + 1);
	CHECK(amdx_ctl_open("/dev/null", &ctl) == -EPROTONOSUPPORT && ctl == NULL);
	CHECK(amdx_last_error(msg, sizeof(msg)) > 0 && strstr(msg, "is not supported") != NULL);
	amdx_fake_set_major(fake, AMDX_UAPI_VERSION_MAJOR);

	amdx_fake_add_device(fake, 0);
	amdx_fake_add_device(fake, 1);
	CHECK(amdx_ctl_open("/dev/null", &ctl) == 0 && ctl != NULL);

	/* Caller-owned buffers: too small is -ENOSPC with the count. */
	CHECK(amdx_ctl_devices(ctl, entries, 1, &count) == -ENOSPC && count == 2);
	CHECK(amdx_ctl_devices(ctl, NULL, 0, &count) == -ENOSPC && count == 2);
	CHECK(entries[0].id == 0);
	CHECK(amdx_ctl_device_info(ctl, 1, &info) == 0 && info.id == 1 && info.num_xcc == 8);
	CHECK(amdx_ctl_device_info(ctl, 9, &info) == -ENODEV);
	amdx_last_error(msg, sizeof(msg));
	CHECK(strstr(msg, "AMDX_QUERY_DEVICE_INFO on device 9") == msg);

	CHECK(amdx_dev_open(ctl, 0, &dev) == 0 && amdx_dev_id(dev) == 0);
	CHECK(amdx_dev_partitions(dev, &phdr, parts, AMDX_MAX_PARTITIONS, &count) == 0);
	CHECK(count == 1 && phdr.compute_mode == AMDX_COMPUTE_SPX);

	/* Plan then commit DPX; a failing step rolls back and is negative. */
	memset(&cfg, 0, sizeof(cfg));
	cfg.compute_mode = AMDX_COMPUTE_DPX;
	CHECK(amdx_dev_partition_plan(dev, &cfg) == 0 && cfg.allowed == 1 && cfg.num_partitions == 2);
	amdx_fake_fail_step(fake, AMDX_PART_STEP_COMPUTE, EIO);
	memset(&cfg, 0, sizeof(cfg));
	cfg.compute_mode = AMDX_COMPUTE_DPX;
	CHECK(amdx_dev_partition_commit(dev, &cfg) == -EIO);
	CHECK(cfg.outcome == AMDX_PART_OUTCOME_ROLLED_BACK && cfg.failed_step == AMDX_PART_STEP_COMPUTE);
	amdx_fake_fail_step(fake, 0, 0);
	memset(&cfg, 0, sizeof(cfg));
	cfg.compute_mode = AMDX_COMPUTE_DPX;
	CHECK(amdx_dev_partition_commit(dev, &cfg) == 0 && cfg.outcome == AMDX_PART_OUTCOME_COMMITTED);

	/* The device counters: one rolled-back and one committed commit. */
	memset(&stats, 0xa5, sizeof(stats));
	CHECK(amdx_dev_stats(dev, &stats) == 0);
	CHECK(stats.commits == 1 && stats.rollbacks == 1 && stats.refusals == 0);
	CHECK(stats.reserved[0] == 0 && stats.vf_flrs == 0);
	CHECK(amdx_dev_stats(dev, NULL) == -EINVAL);

	/* VFs. */
	CHECK(amdx_dev_vf_enable(dev, 2, NULL) == 0);
	CHECK(amdx_dev_vfs(dev, vfs, AMDX_MAX_VFS, &count) == 0 && count == 2);
	CHECK(amdx_dev_vf_disable(dev) == 0);
	CHECK(amdx_dev_vfs(dev, vfs, AMDX_MAX_VFS, &count) == 0 && count == 0);

	/* RAS: inject a umc CE, see the counter; the event arrives. */
	CHECK(amdx_dev_subscribe(dev, 1ULL << AMDX_EVENT_ERROR, 0, &ev) == 0);
	CHECK(amdx_events_fd(ev) >= 0);
	memset(&inj, 0, sizeof(inj));
	inj.block = AMDX_RAS_BLOCK_UMC;
	inj.type = AMDX_RAS_TYPE_CE;
	inj.count = 1;
	inj.address = 0x200000;
	CHECK(amdx_dev_ras_inject(dev, &inj) == 0 && inj.seq != 0);
	CHECK(amdx_dev_ras_counters(dev, NULL, rows, 64, &count) == 0 && count > 0);
	CHECK(rows[0].block == AMDX_RAS_BLOCK_UMC && rows[0].count[AMDX_RAS_TYPE_CE] == 1);
	CHECK(amdx_events_read(ev, events, 8, 1000) == 1);
	CHECK(events[0].kind == AMDX_EVENT_ERROR && events[0].address == 0x200000);
	CHECK(amdx_events_read(ev, events, 8, 0) == 0);
	CHECK(amdx_dev_badpages(dev, pages, 4, &count) == 0);

	amdx_events_close(ev);
	amdx_dev_close(dev);
	amdx_ctl_close(ctl);
	amdx_fake_free(fake);
	printf("1..%d\n", n);
	return failures != 0;
}
