// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 *
 * Pins the layout of every uapi structure: a change here is an ABI break.
 */
#include <kunit/test.h>
#include <linux/stddef.h>
#include <linux/amdx.h>

struct amdx_layout {
	const char *name;
	size_t actual;
	size_t expected;
};

#define SZ(type, exp) { #type, sizeof(struct type), exp }
#define OFF(type, field, exp) \
	{ #type "." #field, offsetof(struct type, field), exp }

static const struct amdx_layout amdx_layouts[] = {
	SZ(amdx_query, 40),
	OFF(amdx_query, query, 0),
	OFF(amdx_query, size, 4),
	OFF(amdx_query, data, 8),
	OFF(amdx_query, id, 16),
	OFF(amdx_query, flags, 20),
	OFF(amdx_query, reserved, 24),

	SZ(amdx_query_caps, 56),
	OFF(amdx_query_caps, version_major, 0),
	OFF(amdx_query_caps, version_minor, 4),
	OFF(amdx_query_caps, caps, 8),
	OFF(amdx_query_caps, num_devices, 16),
	OFF(amdx_query_caps, pad, 20),
	OFF(amdx_query_caps, reserved, 24),

	SZ(amdx_device_entry, 40),
	OFF(amdx_device_entry, id, 0),
	OFF(amdx_device_entry, model, 4),
	OFF(amdx_device_entry, bdf, 8),
	OFF(amdx_device_entry, reserved, 24),

	SZ(amdx_query_devices, 8),
	OFF(amdx_query_devices, num_devices, 0),
	OFF(amdx_query_devices, entry_size, 4),
	OFF(amdx_query_devices, devices, 8),

	SZ(amdx_mem_partition_info, 24),
	OFF(amdx_mem_partition_info, base, 0),
	OFF(amdx_mem_partition_info, size, 8),
	OFF(amdx_mem_partition_info, free, 16),

	SZ(amdx_device_info, 448),
	OFF(amdx_device_info, id, 0),
	OFF(amdx_device_info, model, 4),
	OFF(amdx_device_info, bdf, 8),
	OFF(amdx_device_info, serial, 24),
	OFF(amdx_device_info, product, 56),
	OFF(amdx_device_info, hive_id, 120),
	OFF(amdx_device_info, vram_size, 128),
	OFF(amdx_device_info, vram_free, 136),
	OFF(amdx_device_info, num_xcc, 144),
	OFF(amdx_device_info, num_sdma, 148),
	OFF(amdx_device_info, num_vcn, 152),
	OFF(amdx_device_info, compute_mode, 156),
	OFF(amdx_device_info, memory_mode, 160),
	OFF(amdx_device_info, supported_compute_modes, 164),
	OFF(amdx_device_info, supported_memory_modes, 168),
	OFF(amdx_device_info, num_mem_partitions, 172),
	OFF(amdx_device_info, num_vfs, 176),
	OFF(amdx_device_info, max_vfs, 180),
	OFF(amdx_device_info, flags, 184),
	OFF(amdx_device_info, pad, 188),
	OFF(amdx_device_info, mem_partitions, 192),
	OFF(amdx_device_info, reserved, 384),

	SZ(amdx_device_open, 16),
	OFF(amdx_device_open, id, 0),
	OFF(amdx_device_open, flags, 4),
	OFF(amdx_device_open, fd, 8),
	OFF(amdx_device_open, vf, 12),

	SZ(amdx_partition_info, 64),
	SZ(amdx_query_partitions, 24),
	SZ(amdx_partition_holder, 32),
	SZ(amdx_partition_step, 16),
	SZ(amdx_partition_config, 200),
	OFF(amdx_partition_config, steps, 64),
	OFF(amdx_partition_config, total_ns, 176),
	OFF(amdx_partition_config, num_devices, 184),
	SZ(amdx_vf_config, 40),
	SZ(amdx_vf_enable, 48),
	SZ(amdx_vf_disable, 8),
	SZ(amdx_vf_set, 48),
	SZ(amdx_vf_reset, 48),
	OFF(amdx_vf_reset, duration_ns, 16),
	OFF(amdx_vf_reset, resets_in_window, 24),
	OFF(amdx_vf_reset, reason, 28),
	OFF(amdx_vf_reset, vram_cleared, 32),
	OFF(amdx_vf_reset, reserved, 40),
	SZ(amdx_vf_info, 80),
	SZ(amdx_query_vfs, 16),
	SZ(amdx_reset_scope, 88),

	SZ(amdx_ras_inject, 56),
	OFF(amdx_ras_inject, address, 16),
	OFF(amdx_ras_inject, flags, 24),
	OFF(amdx_ras_inject, reason, 28),
	OFF(amdx_ras_inject, seq, 32),
	OFF(amdx_ras_inject, reserved, 40),

	SZ(amdx_device_stats, 160),
	OFF(amdx_device_stats, migrations_to_vram, 0),
	OFF(amdx_device_stats, bytes_to_vram, 8),
	OFF(amdx_device_stats, migrations_to_ram, 16),
	OFF(amdx_device_stats, bytes_to_ram, 24),
	OFF(amdx_device_stats, fault_migrations, 32),
	OFF(amdx_device_stats, fault_bytes, 40),
	OFF(amdx_device_stats, evictions, 48),
	OFF(amdx_device_stats, evicted_bytes, 56),
	OFF(amdx_device_stats, drains, 64),
	OFF(amdx_device_stats, drained_bytes, 72),
	OFF(amdx_device_stats, vf_flrs, 80),
	OFF(amdx_device_stats, commits, 88),
	OFF(amdx_device_stats, rollbacks, 96),
	OFF(amdx_device_stats, refusals, 104),
	OFF(amdx_device_stats, events_emitted, 112),
	OFF(amdx_device_stats, events_lost, 120),
	OFF(amdx_device_stats, reserved, 128),
	SZ(amdx_link_info, AMDX_LINK_INFO_SIZE_VER0),
	OFF(amdx_link_info, link, 0),
	OFF(amdx_link_info, kind, 4),
	OFF(amdx_link_info, device, 8),
	OFF(amdx_link_info, port, 16),
	OFF(amdx_link_info, width_max, 18),
	OFF(amdx_link_info, width, 19),
	OFF(amdx_link_info, state, 20),
	OFF(amdx_link_info, contain, 24),
	OFF(amdx_link_info, hops, 28),
	OFF(amdx_link_info, flags, 32),
	OFF(amdx_link_info, pad, 36),
	OFF(amdx_link_info, ce, 40),
	OFF(amdx_link_info, ue, 48),
	OFF(amdx_link_info, replays, 56),
	OFF(amdx_link_info, width_changes, 64),
	OFF(amdx_link_info, downs, 72),
	OFF(amdx_link_info, state_changes, 80),
	OFF(amdx_link_info, time_ns, 88),
	OFF(amdx_link_info, end, 128),
	OFF(amdx_link_info, domain, 130),
	OFF(amdx_link_info, fabric_id, 132),
	OFF(amdx_link_info, vpod, 136),
	OFF(amdx_link_info, reserved, 138),
	SZ(amdx_query_links, 24),
	OFF(amdx_query_links, hive_id, 0),
	OFF(amdx_query_links, num_links, 8),
	OFF(amdx_query_links, entry_size, 12),
	OFF(amdx_query_links, reserved, 16),
	OFF(amdx_query_links, links, 24),
};

static void amdx_layout_desc(const struct amdx_layout *l, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", l->name);
}

KUNIT_ARRAY_PARAM(amdx_layout, amdx_layouts, amdx_layout_desc);

static void amdx_uapi_layout_is_pinned(struct kunit *test)
{
	const struct amdx_layout *l = test->param_value;

	KUNIT_EXPECT_EQ_MSG(test, l->actual, l->expected, "%s", l->name);
}

static void amdx_uapi_struct_sizes_are_multiples_of_8(struct kunit *test)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(amdx_layouts); i++) {
		if (strchr(amdx_layouts[i].name, '.'))
			continue;
		KUNIT_EXPECT_EQ_MSG(test, amdx_layouts[i].actual % 8, 0,
				    "%s", amdx_layouts[i].name);
	}
}

static void amdx_uapi_ioctl_numbers_encode_sizes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, _IOC_SIZE(AMDX_IOC_QUERY),
			sizeof(struct amdx_query));
	KUNIT_EXPECT_EQ(test, _IOC_SIZE(AMDX_IOC_DEVICE_OPEN),
			sizeof(struct amdx_device_open));
	KUNIT_EXPECT_EQ(test, _IOC_NR(AMDX_IOC_QUERY), 0);
	KUNIT_EXPECT_EQ(test, _IOC_NR(AMDX_IOC_DEVICE_OPEN), 1);
	KUNIT_EXPECT_EQ(test, _IOC_TYPE(AMDX_IOC_QUERY), AMDX_IOCTL_BASE);
	KUNIT_EXPECT_EQ(test, _IOC_DIR(AMDX_IOC_QUERY),
			_IOC_READ | _IOC_WRITE);
}

static struct kunit_case amdx_uapi_cases[] = {
	KUNIT_CASE_PARAM(amdx_uapi_layout_is_pinned, amdx_layout_gen_params),
	KUNIT_CASE(amdx_uapi_struct_sizes_are_multiples_of_8),
	KUNIT_CASE(amdx_uapi_ioctl_numbers_encode_sizes),
	{}
};

static struct kunit_suite amdx_uapi_suite = {
	.name = "amdx_uapi",
	.test_cases = amdx_uapi_cases,
};

kunit_test_suite(amdx_uapi_suite);
