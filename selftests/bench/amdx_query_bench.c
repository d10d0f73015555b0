// SPDX-License-Identifier: GPL-2.0
/*
 * amdx_query_bench: the floor of a CLI view, the same ioctls from the
 * smallest process.  For every device it asks what `amdx -j VIEW show`
 * asks the kernel (the device list, then per device: the info; or the
 * device fd and its partitions; or the device fd, its RAS counters and
 * policy; or the device fd, its VFs and the pending recovery action of
 * each VF, as `vf show` lists it) and writes nothing but a count.  bench-guest.sh times it with
 * amdx_exporter_bench beside the CLI's views over the same 64 devices, so
 * the difference is what the CLI adds: its start-up, the libraries it
 * loads, its per-device lookups and rendering.
 *
 * This is a benchmark, not a test: it exits non-zero only if an ioctl
 * fails.
 *
 * usage: amdx_query_bench { dev | partition | ras | vf } [NODE]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/amdx.h>

/* The two-call protocol of AMDX_IOC_QUERY: the size, then the data. */
static int query(int fd, __u32 what, __u32 id, void **buf, __u32 *size)
{
	struct amdx_query q = { .query = what, .id = id };

	if (ioctl(fd, AMDX_IOC_QUERY, &q))
		return -errno;
	*buf = realloc(*buf, q.size ? q.size : 1);
	if (!*buf)
		return -ENOMEM;
	q.data = (uintptr_t)*buf;
	if (ioctl(fd, AMDX_IOC_QUERY, &q))
		return -errno;
	*size = q.size;
	return 0;
}

/*
 * The pending recovery action of every VF in the %AMDX_QUERY_VFS answer
 * at @buf, as `vf show` asks it; a module without recovery (ENOTTY) or a
 * refused plan is a null there, not a failure, so the result is not
 * checked here either.
 */
static void vf_plans(int fd, const void *buf)
{
	const struct amdx_query_vfs *q = buf;
	__u32 i;

	for (i = 0; i < q->num_vfs; i++) {
		const struct amdx_vf_info *vf =
			(const void *)((const char *)q->vfs + (size_t)i * q->entry_size);
		struct amdx_recovery r = {
			.action = AMDX_RECOVER_PENDING,
			.partition = AMDX_RAS_PARTITION_ALL,
			.vf = vf->vf,
		};

		ioctl(fd, AMDX_IOC_RECOVERY_PLAN, &r);
	}
}

static int per_device(int ctl, const char *view, __u32 id, void **buf)
{
	static const __u32 dev_q[] = { AMDX_QUERY_PARTITIONS };
	static const __u32 ras_q[] = { AMDX_QUERY_RAS_COUNTERS, AMDX_QUERY_RAS_POLICY };
	static const __u32 vf_q[] = { AMDX_QUERY_VFS };
	struct amdx_device_open op = { .id = id };
	const __u32 *qs = dev_q;
	unsigned int n = 1, i;
	__u32 size;
	int ret = 0;

	if (!strcmp(view, "dev"))
		return query(ctl, AMDX_QUERY_DEVICE_INFO, id, buf, &size);
	if (!strcmp(view, "ras")) {
		qs = ras_q;
		n = 2;
	} else if (!strcmp(view, "vf")) {
		qs = vf_q;
	}
	if (ioctl(ctl, AMDX_IOC_DEVICE_OPEN, &op))
		return -errno;
	for (i = 0; i < n && !ret; i++)
		ret = query(op.fd, qs[i], 0, buf, &size);
	if (!ret && qs == vf_q)
		vf_plans(op.fd, *buf);
	close(op.fd);
	return ret;
}

int main(int argc, char **argv)
{
	const char *node = argc > 2 ? argv[2] : "/dev/amdx";
	struct amdx_query_devices *list;
	void *buf = NULL, *devs = NULL;
	__u32 size, i;
	int ctl, ret;

	if (argc < 2 || (strcmp(argv[1], "dev") && strcmp(argv[1], "partition") &&
			 strcmp(argv[1], "ras") && strcmp(argv[1], "vf"))) {
		fprintf(stderr, "usage: %s { dev | partition | ras | vf } [NODE]\n", argv[0]);
		return 2;
	}
	ctl = open(node, O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		fprintf(stderr, "%s: %s\n", node, strerror(errno));
		return 1;
	}
	ret = query(ctl, AMDX_QUERY_DEVICES, 0, &devs, &size);
	if (ret) {
		fprintf(stderr, "device list: %s\n", strerror(-ret));
		return 1;
	}
	list = devs;
	for (i = 0; i < list->num_devices; i++) {
		const struct amdx_device_entry *e =
			(const void *)((const char *)list->devices + (size_t)i * list->entry_size);

		ret = per_device(ctl, argv[1], e->id, &buf);
		if (ret) {
			fprintf(stderr, "device %u: %s\n", e->id, strerror(-ret));
			return 1;
		}
	}
	printf("%u devices\n", list->num_devices);
	free(buf);
	free(devs);
	close(ctl);
	return 0;
}
