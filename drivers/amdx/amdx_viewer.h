/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * Who may see which process (amdx_viewer.c): the pids amdx reports in
 * PLAN holders, HMM range queries and events.
 */
#ifndef _AMDX_VIEWER_H_
#define _AMDX_VIEWER_H_

#include <linux/types.h>
#include <linux/uidgid.h>

struct pid;
struct pid_namespace;

/**
 * struct amdx_viewer - a reader of reports that name processes
 * @ns: its pid namespace (a reference).
 * @euid: its effective uid.
 * @admin: it has CAP_SYS_ADMIN (in the initial user namespace).
 */
struct amdx_viewer {
	struct pid_namespace *ns;
	kuid_t euid;
	bool admin;
};

/**
 * struct amdx_subject - a process a report names
 * @pid: its thread-group pid; whoever fills this keeps the reference.
 * @euid: its effective uid (for a device fd's process: at open).
 * @pasid: its PASID on the device an ERROR record is about, 0 for none;
 *	shown only beside its pid.
 */
struct amdx_subject {
	struct pid *pid;
	kuid_t euid;
	u32 pasid;
};

void amdx_viewer_init(struct amdx_viewer *v);
void amdx_viewer_fini(struct amdx_viewer *v);
pid_t amdx_viewer_pid(const struct amdx_viewer *v,
		      const struct amdx_subject *who);
void amdx_subject_current(struct amdx_subject *who);
void amdx_subject_of_pid(struct amdx_subject *who, struct pid *pid);

#endif /* _AMDX_VIEWER_H_ */
