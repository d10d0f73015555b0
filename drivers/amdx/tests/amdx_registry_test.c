// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The device registry: registration, lookup, references, unregistration
 * while references are held, ids below AMDX_MAX_DEVICES handed out
 * cyclically, -ENOSPC when all are taken; the provider's RAS intake,
 * amdx_ras_report(), refusing a report that does not fit the device.
 * Registers amdx_kunit_fake.h's device itself, with amdx_device_register().
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/amdx.h>

#include <amdx/amdx_provider.h>

#include "amdx_core.h"
#include "amdx_kunit_fake.h"
#include "amdx_ras_types.h"

struct amdx_fake {
	int get_state_calls;
	u64 free;
};

static int amdx_fake_get_state(struct amdx_device *adev,
			       struct amdx_device_state *st)
{
	struct amdx_fake *f = amdx_device_priv(adev);

	f->get_state_calls++;
	st->compute_mode = AMDX_COMPUTE_SPX;
	st->memory_mode = AMDX_MEMORY_NPS1;
	st->num_mem_partitions = 1;
	st->mem[0].size = AMDX_KUNIT_VRAM;
	st->mem[0].free = f->free;
	return 0;
}

static const struct amdx_provider_ops amdx_fake_ops = {
	.get_state = amdx_fake_get_state,
};

static struct amdx_device_desc amdx_fake_desc(void)
{
	return amdx_kunit_desc("0000:ee:00.0", "KUNIT0001");
}

static void amdx_registry_register_makes_device_findable(struct kunit *test)
{
	struct amdx_device_desc desc = amdx_fake_desc();
	struct amdx_fake fake = { .free = 1234 };
	struct amdx_device_info *info;
	struct amdx_device *adev, *found;
	u32 before = amdx_device_count();

	info = kunit_kzalloc(test, sizeof(*info), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, info);
	adev = amdx_device_register(NULL, &desc, &amdx_fake_ops, &fake);
	KUNIT_ASSERT_FALSE(test, IS_ERR(adev));
	KUNIT_EXPECT_EQ(test, amdx_device_count(), before + 1);

	found = amdx_device_get(amdx_device_id(adev));
	KUNIT_EXPECT_PTR_EQ(test, found, adev);
	KUNIT_ASSERT_EQ(test, amdx_device_fill_info(found, info), 0);
	KUNIT_EXPECT_EQ(test, info->id, amdx_device_id(adev));
	KUNIT_EXPECT_STREQ(test, (char *)info->bdf, "0000:ee:00.0");
	KUNIT_EXPECT_EQ(test, info->vram_free, 1234);
	KUNIT_EXPECT_EQ(test, info->num_xcc, 4);
	/* Once at registration (partition state), once for the info. */
	KUNIT_EXPECT_EQ(test, fake.get_state_calls, 2);
	amdx_device_put(found);

	amdx_device_unregister(adev);
	KUNIT_EXPECT_EQ(test, amdx_device_count(), before);
}

static void amdx_registry_unregister_with_ref_held_is_safe(struct kunit *test)
{
	struct amdx_device_desc desc = amdx_fake_desc();
	struct amdx_fake fake = {};
	struct amdx_device_info *info;
	struct amdx_device *adev, *held;
	u32 id;

	info = kunit_kzalloc(test, sizeof(*info), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, info);
	adev = amdx_device_register(NULL, &desc, &amdx_fake_ops, &fake);
	KUNIT_ASSERT_FALSE(test, IS_ERR(adev));
	/* Registration reads the state once (the partition objects). */
	KUNIT_EXPECT_EQ(test, fake.get_state_calls, 1);
	fake.get_state_calls = 0;
	id = amdx_device_id(adev);
	held = amdx_device_get(id);
	KUNIT_ASSERT_NOT_NULL(test, held);
	KUNIT_EXPECT_EQ(test, kref_read(&held->ref), 2);

	amdx_device_unregister(adev);
	/* Gone from the registry, but our reference keeps it valid... */
	KUNIT_EXPECT_NULL(test, amdx_device_get(id));
	KUNIT_EXPECT_TRUE(test, held->dead);
	KUNIT_EXPECT_EQ(test, kref_read(&held->ref), 1);
	/* ...and no provider op runs any more. */
	KUNIT_EXPECT_EQ(test, amdx_device_fill_info(held, info), -ENODEV);
	KUNIT_EXPECT_EQ(test, fake.get_state_calls, 0);
	amdx_device_put(held);
}

/* An id just freed is not the next one handed out. */
static void amdx_registry_ids_are_not_reused_at_once(struct kunit *test)
{
	struct amdx_device_desc desc = amdx_fake_desc();
	struct amdx_fake fake = {};
	struct amdx_device *a, *b;
	u32 first;

	a = amdx_device_register(NULL, &desc, &amdx_fake_ops, &fake);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	first = amdx_device_id(a);
	amdx_device_unregister(a);
	b = amdx_device_register(NULL, &desc, &amdx_fake_ops, &fake);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	KUNIT_EXPECT_NE(test, amdx_device_id(b), first);
	amdx_device_unregister(b);
}

/* The id cyclic allocation gives after @prev when @live are taken. */
static u32 amdx_next_free_id(u32 prev, u64 live)
{
	u32 i, id;

	for (i = 1; i <= AMDX_MAX_DEVICES; i++) {
		id = (prev + i) % AMDX_MAX_DEVICES;
		if (!(live & BIT_ULL(id)))
			return id;
	}
	return AMDX_MAX_DEVICES;
}

/*
 * Ids stay below AMDX_MAX_DEVICES: each registration takes the next free
 * id after the previous one, wrapping to 0 and stepping over live ids, so
 * every free id comes round once in AMDX_MAX_DEVICES - live registrations.
 */
static void amdx_registry_ids_wrap_and_skip_live_ids(struct kunit *test)
{
	struct amdx_device_desc desc = amdx_fake_desc();
	struct amdx_fake fake = {};
	struct amdx_device *keep, *d;
	u64 live, seen = 0;
	u32 prev, id, i;
	bool wrapped = false;

	keep = amdx_device_register(NULL, &desc, &amdx_fake_ops, &fake);
	KUNIT_ASSERT_FALSE(test, IS_ERR(keep));
	live = amdx_device_id_mask();
	KUNIT_EXPECT_TRUE(test, live & BIT_ULL(amdx_device_id(keep)));
	KUNIT_EXPECT_EQ(test, hweight64(live), amdx_device_count());
	prev = amdx_device_id(keep);

	for (i = 0; i < 2 * AMDX_MAX_DEVICES; i++) {
		d = amdx_device_register(NULL, &desc, &amdx_fake_ops, &fake);
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(d), "registration %u", i);
		id = amdx_device_id(d);
		amdx_device_unregister(d);
		KUNIT_ASSERT_EQ_MSG(test, id, amdx_next_free_id(prev, live),
				    "registration %u after id %u", i, prev);
		KUNIT_EXPECT_LT(test, id, AMDX_MAX_DEVICES);
		KUNIT_EXPECT_FALSE(test, live & BIT_ULL(id));
		wrapped |= id < prev;
		seen |= BIT_ULL(id);
		prev = id;
	}
	KUNIT_EXPECT_TRUE(test, wrapped);
	/* every id not live was handed out */
	KUNIT_EXPECT_EQ(test, seen, ~live);
	KUNIT_EXPECT_EQ(test, amdx_device_id_mask(), live);
	amdx_device_unregister(keep);
}

/*
 * With AMDX_MAX_DEVICES devices registered, one more fails with -ENOSPC
 * and changes nothing; removing one makes its id the only one to take.
 */
static void amdx_registry_full_registry_is_enospc(struct kunit *test)
{
	struct amdx_device_desc desc = amdx_fake_desc();
	struct amdx_fake fake = {};
	struct amdx_device **devs, *d;
	u32 before = amdx_device_count(), n, i, freed;

	devs = kunit_kcalloc(test, AMDX_MAX_DEVICES, sizeof(*devs),
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, devs);
	for (n = 0; before + n < AMDX_MAX_DEVICES; n++) {
		devs[n] = amdx_device_register(NULL, &desc, &amdx_fake_ops,
					       &fake);
		if (IS_ERR(devs[n]))
			break;
	}
	KUNIT_EXPECT_EQ(test, before + n, AMDX_MAX_DEVICES);
	KUNIT_EXPECT_EQ(test, amdx_device_id_mask(), U64_MAX);

	if (before + n == AMDX_MAX_DEVICES) {
		d = amdx_device_register(NULL, &desc, &amdx_fake_ops, &fake);
		KUNIT_EXPECT_PTR_EQ(test, d, ERR_PTR(-ENOSPC));
		KUNIT_EXPECT_EQ(test, amdx_device_count(), AMDX_MAX_DEVICES);

		if (n) {
			freed = amdx_device_id(devs[n / 2]);
			amdx_device_unregister(devs[n / 2]);
			devs[n / 2] = amdx_device_register(NULL, &desc,
							   &amdx_fake_ops,
							   &fake);
			KUNIT_ASSERT_FALSE(test, IS_ERR(devs[n / 2]));
			KUNIT_EXPECT_EQ(test, amdx_device_id(devs[n / 2]),
					freed);
		}
	}
	for (i = 0; i < n; i++)
		if (!IS_ERR(devs[i]))
			amdx_device_unregister(devs[i]);
	KUNIT_EXPECT_EQ(test, amdx_device_count(), before);
}

static void amdx_registry_bad_descriptors_are_refused(struct kunit *test)
{
	struct amdx_device_desc desc;
	struct amdx_provider_ops no_state = {};
	struct amdx_fake fake = {};

	desc = amdx_fake_desc();
	desc.model = AMDX_MODEL_UNKNOWN;
	KUNIT_EXPECT_PTR_EQ(test, amdx_device_register(NULL, &desc,
						       &amdx_fake_ops, &fake),
			    ERR_PTR(-EINVAL));
	desc = amdx_fake_desc();
	desc.bdf = "0000:ee:00.0-and-far-too-long";
	KUNIT_EXPECT_PTR_EQ(test, amdx_device_register(NULL, &desc,
						       &amdx_fake_ops, &fake),
			    ERR_PTR(-EINVAL));
	desc = amdx_fake_desc();
	desc.num_xcc = 0;
	KUNIT_EXPECT_PTR_EQ(test, amdx_device_register(NULL, &desc,
						       &amdx_fake_ops, &fake),
			    ERR_PTR(-EINVAL));
	desc = amdx_fake_desc();
	KUNIT_EXPECT_PTR_EQ(test, amdx_device_register(NULL, &desc,
						       &no_state, &fake),
			    ERR_PTR(-EINVAL));
	/* HMM claimed without the HMM ops. */
	desc.flags = AMDX_DEVICE_F_HMM;
	desc.pgmap_owner = &fake;
	KUNIT_EXPECT_PTR_EQ(test, amdx_device_register(NULL, &desc,
						       &amdx_fake_ops, &fake),
			    ERR_PTR(-EINVAL));
}

/* amdx_registry_ras_report_*: the fake device's RAS blocks. */
static const struct amdx_ras_block_info amdx_fake_ras_blocks[AMDX_RAS_BLOCK_COUNT] = {
	[AMDX_RAS_BLOCK_GFX] = { .instances = 4, .supported = BIT(AMDX_RAS_TYPE_CE) },
	[AMDX_RAS_BLOCK_UMC] = { .instances = 1, .supported = BIT(AMDX_RAS_TYPE_CE) },
};

static const struct amdx_ras_error amdx_fake_ras_ok = {
	.block = AMDX_RAS_BLOCK_GFX,
	.type = AMDX_RAS_TYPE_CE,
	.instance = 3,
	.count = 2,
	.partition = AMDX_RAS_PARTITION_ALL,
};

/*
 * Report @i of the invalid ones into @err, each one field out of range
 * for the fake device (@vram bytes): its description, NULL past the last.
 */
static const char *amdx_fake_ras_bad(unsigned int i, u64 vram,
				     struct amdx_ras_error *err)
{
	*err = amdx_fake_ras_ok;
	if (i >= 8) {	/* the address checks: a umc report */
		err->block = AMDX_RAS_BLOCK_UMC;
		err->instance = 0;
		err->flags = AMDX_RAS_ERR_F_ADDRESS;
	}
	switch (i) {
	case 0:
		err->block = AMDX_RAS_BLOCK_COUNT;
		return "unknown block";
	case 1:
		err->type = AMDX_RAS_TYPE_COUNT;
		return "unknown type";
	case 2:
		err->type = AMDX_RAS_TYPE_UE;
		return "type the block does not report";
	case 3:
		err->block = AMDX_RAS_BLOCK_SDMA;
		return "block the device lacks";
	case 4:
		err->instance = 4;
		return "instance beyond the block";
	case 5:
		err->count = 0;
		return "zero count";
	case 6:
		err->flags = BIT(31);
		return "unknown flag";
	case 7:
		err->partition = AMDX_MAX_PARTITIONS;
		return "compute partition out of range";
	case 8:
		err->address = vram;
		return "address beyond the VRAM";
	case 9:
		err->mem_partition = AMDX_MAX_MEM_PARTITIONS;
		return "memory partition out of range";
	case 10:
		err->flags = AMDX_RAS_ERR_F_UNCOUNTED;
		return "uncounted without an address";
	case 11:
		err->flags |= AMDX_RAS_ERR_F_UNCOUNTED;
		return "uncounted CE (only a UE's or DE's page is)";
	case 12:
		err->driver_event_type = AMDX_DRIVER_EVENT_FATAL;
		return "a driver event's type without its id";
	case 13:
		err->driver_event = 1;
		err->driver_event_type = AMDX_DRIVER_EVENT_POISON_CONSUMPTION + 1;
		return "unknown driver event type";
	default:
		return NULL;
	}
}

/*
 * A provider's error report is checked against the device before anything
 * is counted: each field out of range is -EINVAL, takes no event sequence
 * number and moves no counter; the same report in range is counted.
 */
static void amdx_registry_ras_report_refuses_what_the_device_lacks(struct kunit *test)
{
	struct amdx_device_desc desc = amdx_fake_desc();
	struct amdx_fake fake = {};
	struct amdx_ras_error err;
	struct amdx_device *adev;
	const char *what;
	unsigned int i;
	u64 seq = 0;

	desc.ras_blocks = amdx_fake_ras_blocks;
	adev = amdx_device_register(NULL, &desc, &amdx_fake_ops, &fake);
	KUNIT_ASSERT_FALSE(test, IS_ERR(adev));
	for (i = 0; (what = amdx_fake_ras_bad(i, desc.vram_size, &err)); i++) {
		KUNIT_EXPECT_EQ_MSG(test, amdx_ras_report(adev, &err, &seq),
				    -EINVAL, "%s", what);
		KUNIT_EXPECT_EQ_MSG(test, seq, 0, "%s", what);
	}
	KUNIT_EXPECT_EQ(test, i, 14);
	KUNIT_EXPECT_EQ(test, adev->ras->count[AMDX_RAS_BLOCK_GFX][0][AMDX_RAS_TYPE_CE], 0);
	KUNIT_EXPECT_EQ(test, adev->ras->count[AMDX_RAS_BLOCK_UMC][0][AMDX_RAS_TYPE_CE], 0);

	KUNIT_EXPECT_EQ(test, amdx_ras_report(adev, &amdx_fake_ras_ok, &seq), 0);
	KUNIT_EXPECT_NE(test, seq, 0);
	KUNIT_EXPECT_EQ(test, adev->ras->count[AMDX_RAS_BLOCK_GFX][0][AMDX_RAS_TYPE_CE], 2);
	amdx_device_unregister(adev);
}

/* A device with poison: UMC reports deferred errors. */
static const struct amdx_ras_block_info amdx_fake_umc_blocks[AMDX_RAS_BLOCK_COUNT] = {
	[AMDX_RAS_BLOCK_UMC] = { .instances = 1,
				 .supported = BIT(AMDX_RAS_TYPE_UE) |
					      BIT(AMDX_RAS_TYPE_DE) },
};

/* Pages of a poison's row, as amdgpu's UMC 12 retires them. */
#define AMDX_FAKE_ROW_PAGES	16

/*
 * One poison, as a driver that counts it once and retires its row's pages
 * reports it (amdgpu on UMC 12): one count without an address, then each
 * page with %AMDX_RAS_ERR_F_UNCOUNTED.  Every page is poisoned and
 * recorded (the per-page containment runs for each), and the DE count is
 * the driver's: 1, not one per page.  Only the count logs an ERROR event
 * (a page's report returns no sequence number; the page's own record is
 * its PAGE_RETIRED event).  amdx used to count each page's report, so
 * its count was 16 where amdgpu's was 1.
 */
static void amdx_registry_ras_uncounted_pages_are_contained_not_counted(struct kunit *test)
{
	struct amdx_device_desc desc = amdx_fake_desc();
	struct amdx_ras_error err = {
		.block = AMDX_RAS_BLOCK_UMC,
		.type = AMDX_RAS_TYPE_DE,
		.count = 1,
		.partition = AMDX_RAS_PARTITION_ALL,
	};
	const u64 row = 0x100000;
	struct amdx_fake fake = {};
	struct amdx_device *adev;
	u64 seq = 0;
	int i;

	desc.ras_blocks = amdx_fake_umc_blocks;
	adev = amdx_device_register(NULL, &desc, &amdx_fake_ops, &fake);
	KUNIT_ASSERT_FALSE(test, IS_ERR(adev));
	KUNIT_ASSERT_EQ(test, amdx_ras_report(adev, &err, &seq), 0);
	KUNIT_EXPECT_NE(test, seq, 0);

	err.flags = AMDX_RAS_ERR_F_ADDRESS | AMDX_RAS_ERR_F_UNCOUNTED;
	for (i = 0; i < AMDX_FAKE_ROW_PAGES; i++) {
		err.address = row + i * PAGE_SIZE;
		seq = 1;
		KUNIT_EXPECT_EQ_MSG(test, amdx_ras_report(adev, &err, &seq), 0,
				    "page %d", i);
		KUNIT_EXPECT_EQ_MSG(test, seq, 0, "page %d logged an ERROR", i);
		KUNIT_EXPECT_TRUE_MSG(test,
				      xa_load(&adev->ras->poison,
					      err.address >> PAGE_SHIFT),
				      "page %d not poisoned", i);
	}
	KUNIT_EXPECT_EQ(test, adev->ras->nrec, AMDX_FAKE_ROW_PAGES);
	KUNIT_EXPECT_EQ(test, amdx_ras_count(adev, AMDX_RAS_BLOCK_UMC,
					     AMDX_RAS_TYPE_DE), 1);
	KUNIT_EXPECT_EQ(test, amdx_ras_count(adev, AMDX_RAS_BLOCK_UMC,
					     AMDX_RAS_TYPE_UE), 0);
	KUNIT_EXPECT_EQ(test, amdx_ras_count(adev, AMDX_RAS_BLOCK_UMC,
					     AMDX_RAS_TYPE_CE),
			AMDX_RAS_UNSUPPORTED);

	/* A counted report of a page moves the count as before. */
	err.flags = AMDX_RAS_ERR_F_ADDRESS;
	err.address = row + AMDX_FAKE_ROW_PAGES * PAGE_SIZE;
	KUNIT_EXPECT_EQ(test, amdx_ras_report(adev, &err, &seq), 0);
	KUNIT_EXPECT_NE(test, seq, 0);
	KUNIT_EXPECT_EQ(test, amdx_ras_count(adev, AMDX_RAS_BLOCK_UMC,
					     AMDX_RAS_TYPE_DE), 2);
	KUNIT_EXPECT_EQ(test, adev->ras->nrec, AMDX_FAKE_ROW_PAGES + 1);
	amdx_device_unregister(adev);
}

static struct kunit_case amdx_registry_cases[] = {
	KUNIT_CASE(amdx_registry_register_makes_device_findable),
	KUNIT_CASE(amdx_registry_unregister_with_ref_held_is_safe),
	KUNIT_CASE(amdx_registry_ids_are_not_reused_at_once),
	KUNIT_CASE(amdx_registry_ids_wrap_and_skip_live_ids),
	KUNIT_CASE(amdx_registry_full_registry_is_enospc),
	KUNIT_CASE(amdx_registry_bad_descriptors_are_refused),
	KUNIT_CASE(amdx_registry_ras_report_refuses_what_the_device_lacks),
	KUNIT_CASE(amdx_registry_ras_uncounted_pages_are_contained_not_counted),
	{}
};

static struct kunit_suite amdx_registry_suite = {
	.name = "amdx_registry",
	.test_cases = amdx_registry_cases,
};

kunit_test_suite(amdx_registry_suite);
