/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The amdgpu provider's seams for its KUnit suites
 * (tests/amdgpu_amdx_test.c, built into the test kernel's amdgpu only):
 * functions redirected with KUNIT_STATIC_STUB_REDIRECT(), and the fake
 * devices' stand-ins the test-only patch calls.
 */
#ifndef __AMDGPU_AMDX_KUNIT_H__
#define __AMDGPU_AMDX_KUNIT_H__

#include <linux/types.h>

struct amdgpu_amdx;
struct amdgpu_device;
struct amdgpu_job;
struct amdgpu_mem_partition_info;
struct amdgpu_reset_context;
struct amdx_device;
struct amdx_device_desc;
struct amdx_provider_ops;
struct amdx_ras_error;
struct device;
struct psp_context;
struct ta_ras_query_address_input;
struct ta_ras_query_address_output;
struct ta_ras_trigger_error_input;

struct amdx_device *amdgpu_amdx_register(struct amdgpu_device *adev,
					 const struct amdx_device_desc *desc,
					 const struct amdx_provider_ops *ops,
					 void *priv);
void amdgpu_amdx_unregister(struct amdgpu_device *adev,
			    struct amdx_device *xdev);
int amdgpu_amdx_report(struct amdgpu_amdx *p, const struct amdx_ras_error *err,
		       u64 *seq);
void amdgpu_amdx_reset_event(struct amdgpu_amdx *p, bool begin, int result);
void amdgpu_amdx_mark_rma(struct amdx_device *xdev);
void amdgpu_amdx_rma_drop(struct device *parent);
int amdgpu_amdx_link_report(struct amdgpu_device *adev,
			    struct amdx_device *xdev, u32 peer, u32 obs,
			    u32 arg);

/*
 * The hardware part of amdgpu's recovery, which the test-only patch
 * (patches/6.12-test/) splits out in amdgpu_device.c: a fake device's
 * (amdgpu_amdx_fake_recover_hw()), -ENOEXEC for amdgpu's own.
 */
int amdgpu_device_gpu_recover_hw(struct amdgpu_device *adev,
				 struct amdgpu_job *job,
				 struct amdgpu_reset_context *reset_context);

/*
 * The fake devices of tests/amdgpu_amdx_fake.c (test kernels only): the
 * hardware part of their recovery, and their debugfs files, which the
 * test-only patch creates at amdgpu's load and removes at its unload.
 */
int amdgpu_amdx_fake_recover_hw(struct amdgpu_device *adev,
				const struct amdgpu_reset_context *ctx);

/*
 * What stands in for a fake device's firmware and VRAM manager, called
 * first by the test-only patch's psp_ras_trigger_error(),
 * psp_ras_query_address() and amdgpu_ras_reserve_page(): -ENOEXEC for
 * amdgpu's own devices, which go on as amdgpu's code does.
 */
int amdgpu_amdx_fake_psp_trigger_error(struct psp_context *psp,
				       struct ta_ras_trigger_error_input *info,
				       u32 instance_mask);
int amdgpu_amdx_fake_psp_query_address(struct psp_context *psp,
				       struct ta_ras_query_address_input *in,
				       struct ta_ras_query_address_output *out);
int amdgpu_amdx_fake_reserve_page(struct amdgpu_device *adev, u64 pfn);

/*
 * What stands in for the KFD's device init on a fake device, called first
 * by the test-only amdgpu_amdkfd_device_init(): -ENOEXEC for amdgpu's own
 * devices.  The KFD's probe, its teardown and its process lock are the
 * KFD's own.
 */
int amdgpu_amdx_fake_kfd_device_init(struct amdgpu_device *adev);

/*
 * gmc_v9_0.c's split of the VRAM into memory partitions (from the IP
 * discovery's NPS table, else in software), made global by the test-only
 * patch so that the suites give a fake amdgpu's own ranges.
 */
void gmc_v9_0_init_sw_mem_ranges(struct amdgpu_device *adev,
				 struct amdgpu_mem_partition_info *mem_ranges);
void amdgpu_amdx_fake_init(void);
void amdgpu_amdx_fake_exit(void);

#endif /* __AMDGPU_AMDX_KUNIT_H__ */
