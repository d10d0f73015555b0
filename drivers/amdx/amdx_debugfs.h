/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The debugfs testing hooks (amdx_debugfs.c).
 */
#ifndef _AMDX_DEBUGFS_H_
#define _AMDX_DEBUGFS_H_

struct amdx_device;

void amdx_debugfs_init(void);
void amdx_debugfs_fini(void);
int amdx_debugfs_add(struct amdx_device *adev);

#endif /* _AMDX_DEBUGFS_H_ */
