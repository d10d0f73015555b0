/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The fake provider device the core's KUnit suites register: one shape
 * to start from, one SPX/NPS1 state, one registration that the test
 * undoes when it ends, however it ends.
 */
#ifndef __AMDX_KUNIT_FAKE_H__
#define __AMDX_KUNIT_FAKE_H__

#include <linux/types.h>

#include <amdx/amdx_provider.h>

struct kunit;

/* VRAM of amdx_kunit_desc()'s device and of amdx_kunit_get_state(). */
#define AMDX_KUNIT_VRAM		(64ULL << 20)

struct amdx_device_desc amdx_kunit_desc(const char *bdf, const char *serial);
int amdx_kunit_get_state(struct amdx_device *adev,
			 struct amdx_device_state *st);
struct amdx_device *amdx_kunit_register(struct kunit *test,
					const struct amdx_device_desc *desc,
					const struct amdx_provider_ops *ops,
					void *priv);
void amdx_kunit_unregister(struct kunit *test, struct amdx_device *adev);

#endif /* __AMDX_KUNIT_FAKE_H__ */
