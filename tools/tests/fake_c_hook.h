/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* The fake kernel (fake_kernel.hpp) from C: fake_c_hook.cpp. */
#ifndef AMDX_TESTS_FAKE_C_HOOK_H
#define AMDX_TESTS_FAKE_C_HOOK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void *amdx_fake_new(void);
void amdx_fake_free(void *fake);
void amdx_fake_add_device(void *fake, uint32_t id);
void amdx_fake_set_major(void *fake, uint32_t major);
/* Devices @a and @b join hive 9, joined by a link in @state. */
void amdx_fake_add_link(void *fake, uint32_t a, uint32_t b, uint32_t state);
void amdx_fake_fail_step(void *fake, uint32_t step, int err);
/* FakeKernel::recovery_fault(); returns the seq. */
uint64_t amdx_fake_recovery_fault(void *fake, uint32_t id, uint32_t partition, uint32_t vf,
				  uint32_t action, uint32_t fault);
/* FakeKernel::ras_consumer_pid and _pasid. */
void amdx_fake_set_consumer(void *fake, uint32_t pid, uint32_t pasid);
uint64_t amdx_fake_emit(void *fake, uint32_t id, uint16_t kind, uint64_t address, uint64_t data0);

#ifdef __cplusplus
}
#endif

#endif /* AMDX_TESTS_FAKE_C_HOOK_H */
