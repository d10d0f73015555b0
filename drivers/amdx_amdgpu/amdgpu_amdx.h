/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The hooks amdgpu calls into its amdx provider (amdgpu_amdx.c).  The
 * patch series under patches/ adds the calls; this header is all that the
 * patched amdgpu files see of amdx, so it names no amdx type.
 */
#ifndef __AMDGPU_AMDX_H__
#define __AMDGPU_AMDX_H__

#include <linux/types.h>

struct amdgpu_device;
struct amdgpu_reset_context;
struct eeprom_table_record;
struct ras_err_data;
struct ras_query_context;

void amdgpu_amdx_init(struct amdgpu_device *adev);
void amdgpu_amdx_fini(struct amdgpu_device *adev);
void amdgpu_amdx_free(struct amdgpu_device *adev);
void amdgpu_amdx_ras_errors(struct amdgpu_device *adev, int block,
			    const struct ras_err_data *err_data,
			    const struct ras_query_context *qctx);
void amdgpu_amdx_poison_consumed(struct amdgpu_device *adev, int block,
				 int xcp_id, u16 pasid, u64 event_id);
void amdgpu_amdx_page_retired(struct amdgpu_device *adev,
			      const struct eeprom_table_record *bps);
void amdgpu_amdx_reset_begin(struct amdgpu_device *adev,
			     const struct amdgpu_reset_context *ctx);
void amdgpu_amdx_reset_end(struct amdgpu_device *adev,
			   const struct amdgpu_reset_context *ctx, int result);
void amdgpu_amdx_rma(struct amdgpu_device *adev);
void amdgpu_amdx_exit(void);

#endif /* __AMDGPU_AMDX_H__ */
