// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The core's KUnit fake provider device (amdx_kunit_fake.h).  Suites that
 * test registration itself (amdx_registry) call amdx_device_register()
 * and amdx_device_unregister() directly; every other suite registers
 * through amdx_kunit_register(), so a failed assertion, which ends the
 * test early, still unregisters the device.
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/err.h>
#include <linux/amdx.h>

#include <amdx/amdx_compat.h>

#include "amdx_kunit_fake.h"

/**
 * amdx_kunit_desc() - the fake's description
 * @bdf: its PCI address (distinct per suite: the registry keys on it)
 * @serial: its serial number
 *
 * A 4-XCC MI308X of 64 MiB VRAM that declares SPX and NPS1 only, no
 * hive, no RAS blocks; a suite changes the fields its cases need.
 *
 * Return: the description, its strings the caller's.
 */
struct amdx_device_desc amdx_kunit_desc(const char *bdf, const char *serial)
{
	return (struct amdx_device_desc){
		.model = AMDX_MODEL_MI308X,
		.bdf = bdf,
		.serial = serial,
		.product = "KUnit fake",
		.vram_size = AMDX_KUNIT_VRAM,
		.num_xcc = 4,
		.num_sdma = 8,
		.num_vcn = 2,
		.supported_compute_modes = BIT(AMDX_COMPUTE_SPX),
		.supported_memory_modes = BIT(AMDX_MEMORY_NPS1),
	};
}

/**
 * amdx_kunit_get_state() - &amdx_provider_ops.get_state of an idle fake
 * @adev: the device
 * @st: filled: SPX, NPS1, one memory partition of AMDX_KUNIT_VRAM, free
 *
 * Return: 0.
 */
int amdx_kunit_get_state(struct amdx_device *adev,
			 struct amdx_device_state *st)
{
	st->compute_mode = AMDX_COMPUTE_SPX;
	st->memory_mode = AMDX_MEMORY_NPS1;
	st->num_mem_partitions = 1;
	st->mem[0].size = AMDX_KUNIT_VRAM;
	st->mem[0].free = AMDX_KUNIT_VRAM;
	return 0;
}

static int amdx_kunit_res_init(struct kunit_resource *res, void *adev)
{
	res->data = adev;
	return 0;
}

static void amdx_kunit_res_free(struct kunit_resource *res)
{
	amdx_device_unregister(res->data);
}

/* 6.1's KUnit has no kunit_resource_instance_match(). */
static bool amdx_kunit_res_match(struct kunit *test,
				 struct kunit_resource *res, void *adev)
{
	return res->free == amdx_kunit_res_free && res->data == adev;
}

/**
 * amdx_kunit_register() - register a fake for the rest of @test
 * @test: the test; it fails and ends if the registration does
 * @desc: the device's description
 * @ops: its provider operations
 * @priv: amdx_device_priv() of the device
 *
 * The device is unregistered when @test ends, or earlier by
 * amdx_kunit_unregister().
 *
 * Return: the registered device.
 */
struct amdx_device *amdx_kunit_register(struct kunit *test,
					const struct amdx_device_desc *desc,
					const struct amdx_provider_ops *ops,
					void *priv)
{
	struct amdx_device *adev;

	adev = amdx_device_register(NULL, desc, ops, priv);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(adev), "register %s: %d",
			       desc->bdf, PTR_ERR_OR_ZERO(adev));
	if (!kunit_alloc_resource(test, amdx_kunit_res_init,
				  amdx_kunit_res_free, GFP_KERNEL, adev)) {
		amdx_device_unregister(adev);
		KUNIT_FAIL_AND_ABORT(test, "no memory for a test resource");
	}
	return adev;
}

/**
 * amdx_kunit_unregister() - unregister a fake before @test ends
 * @test: the test that registered it
 * @adev: a device amdx_kunit_register() returned to @test
 */
void amdx_kunit_unregister(struct kunit *test, struct amdx_device *adev)
{
	KUNIT_EXPECT_EQ(test, kunit_destroy_resource(test,
						     amdx_kunit_res_match,
						     adev), 0);
}
