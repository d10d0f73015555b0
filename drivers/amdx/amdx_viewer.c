// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: who sees which process
 *
 * amdx names processes in three places: the holders of PARTITION_PLAN and
 * PARTITION_COMMIT (pid, comm), %AMDX_QUERY_HMM_RANGES (the fd's process)
 * and event records (POISON_CONSUMED, MIGRATE, DRAINED: data[0]).  None of
 * them needs privilege to read, so each report is cut to its reader, as
 * /proc is: a process is shown to a reader with CAP_SYS_ADMIN or with the
 * process's effective uid, as its thread-group id in the reader's pid
 * namespace; to anybody else, and where the process is not visible in
 * the reader's namespace, as pid 0 with an empty comm.
 *
 * The decision is taken against the reader's credentials when the report
 * is made for it: an ioctl's caller when its result is copied out; for an
 * event fd the subscriber's credentials and pid namespace as they were at
 * subscription (as the kernel keeps f_cred), applied when a record enters
 * the subscriber's ring.  Processes are held as &struct pid references,
 * never as numbers, so a pid reused by another process is never shown.
 *
 * ::
 *
 *    report (holders, event)       amdx_viewer_pid()          reader
 *      | subject: struct pid, euid     |                         |
 *      |------------------------------>| admin or same euid?     |
 *      |                               |  no  -> 0               |
 *      |                               |  yes -> pid_nr_ns(ns) ->| pid or 0
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>

#include "amdx_kunit.h"
#include "amdx_viewer.h"

/**
 * amdx_viewer_init() - the current task as a reader
 * @v: out: its pid namespace (referenced), effective uid and privilege.
 *
 * Pair with amdx_viewer_fini().
 */
void amdx_viewer_init(struct amdx_viewer *v)
{
	v->ns = get_pid_ns(task_active_pid_ns(current));
	v->euid = current_euid();
	v->admin = ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_viewer_init);

/**
 * amdx_viewer_fini() - drop what amdx_viewer_init() took
 * @v: the reader.
 */
void amdx_viewer_fini(struct amdx_viewer *v)
{
	put_pid_ns(v->ns);
	v->ns = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_viewer_fini);

/**
 * amdx_viewer_pid() - a process as a reader may see it
 * @v: the reader.
 * @who: the process; @who->pid may be NULL.
 *
 * Context: any; never sleeps (callable with interrupts off).
 *
 * Return: its thread-group id in @v's pid namespace, or 0 when @v may not
 * see it (neither CAP_SYS_ADMIN nor its effective uid) or it is not
 * visible in that namespace.
 */
pid_t amdx_viewer_pid(const struct amdx_viewer *v,
		      const struct amdx_subject *who)
{
	if (!who->pid || (!v->admin && !uid_eq(v->euid, who->euid)))
		return 0;
	return pid_nr_ns(who->pid, v->ns);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_viewer_pid);

/**
 * amdx_subject_current() - the current process as a report's subject
 * @who: out: its thread-group pid (not referenced: valid while current
 *	runs) and effective uid.
 */
void amdx_subject_current(struct amdx_subject *who)
{
	who->pid = task_tgid(current);
	who->euid = current_euid();
	who->pasid = 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_subject_current);

/**
 * amdx_subject_of_pid() - a process named by its pid as a report's subject
 * @who: out: @pid (not referenced: valid while the caller holds it) and
 *	the effective uid of its thread-group leader; with the process
 *	gone, an invalid uid, which only a reader with CAP_SYS_ADMIN gets
 *	past (and then sees pid 0).
 * @pid: the process's thread-group pid.
 *
 * Context: any; never sleeps.
 */
void amdx_subject_of_pid(struct amdx_subject *who, struct pid *pid)
{
	struct task_struct *task;

	who->pid = pid;
	who->euid = INVALID_UID;
	who->pasid = 0;
	rcu_read_lock();
	task = pid_task(pid, PIDTYPE_TGID);
	if (task)
		who->euid = task_euid(task);
	rcu_read_unlock();
}
EXPORT_SYMBOL_IF_KUNIT(amdx_subject_of_pid);
