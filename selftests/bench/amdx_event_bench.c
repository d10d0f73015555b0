// SPDX-License-Identifier: GPL-2.0
/*
 * amdx_event_bench: event log throughput and reader latency, side by side
 * with a pipe carrying records of the same size (64 bytes), in one run.
 *
 * amdx   a producer thread emits events and a reader thread read()s the
 *        event fd (blocking) with a buffer of R records.  Two producers:
 *        inject  one AMDX_IOC_RAS_INJECT (a gfx CE) per event: the real
 *                error path, through the simulator's report, the RAS
 *                intake, counters and policy, to one ERROR event;
 *        hook    one write of "<kind> B" to the device's debugfs hook
 *                emit_events, which emits B events in one call.
 * pipe   the producer fills B struct amdx_event records (seq, CLOCK_MONOTONIC
 *        timestamp) and write()s them in one call; the reader read()s R
 *        records at a time.  The pipe holds as many records as the ring.
 *
 * Both get the same flow control: the producer emits a batch only while
 * no more than a window of records would be outstanding, counted with
 * atomics (a mutex and condition variable only when it has to sleep, so
 * the harness adds no lock traffic per record to either side).  The reader
 * checks the seqs are consecutive and adds up any LOST records: "lost"
 * must be 0, the window never exceeding the ring.
 *
 * The two sides take turns, one repetition each, and both run the
 * producer on CPU 0 and the reader on CPU 1 (when there are two): left to
 * the scheduler, the pipe's reader and writer share a CPU in some runs
 * and not in others, which moved its single-record rate by 40%.
 *
 * Throughput (window = the ring): events per second from the first
 * emission to the reader holding the last record, median of the runs.
 * Latency (window = one batch, so nothing queues behind the reader): the
 * time of the read() return minus the record's timestamp, median and 99th
 * percentile over the records of the median run.
 *
 * This is a benchmark, not a test: it exits non-zero only if it cannot
 * run, or when a record went missing.
 *
 * usage: amdx_event_bench [-n REPS] [-d /dev/amdx] [-p]   (-p: pipe only)
 * REPS: repetitions per side and row, 1..9, default 9 (the host's noise
 * moved single-record rows by 20% between runs of 5).
 */
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/amdx.h>

#define RING		16384		/* records: the ring and the pipe */
#define MAX_REPS	9
#define REC		sizeof(struct amdx_event)

enum kind { AMDX, PIPE, NKINDS };

enum source { HOOK, INJECT };

struct config {
	enum source src;	/* how amdx events are produced */
	unsigned int batch;	/* records per emission */
	unsigned int rd;	/* records per read() */
	unsigned int window;	/* records outstanding at most */
	uint64_t total;		/* records per run */
};

/* Throughput: the producer may run a whole ring ahead of the reader. */
static const struct config tput[] = {
	{ INJECT, 1, 1, RING, 20000 },
	{ INJECT, 1, 4096, RING, 20000 },
	{ HOOK, 1, 1, RING, 20000 },
	{ HOOK, 1, 4096, RING, 20000 },
	{ HOOK, 16, 1, RING, 100000 },
	{ HOOK, 16, 4096, RING, 100000 },
	{ HOOK, 256, 4096, RING, 400000 },
	{ HOOK, 4096, 4096, RING, 400000 },
};

/* Latency: the producer waits for the reader, nothing queues up. */
static const struct config lat[] = {
	{ INJECT, 1, 4096, 1, 10000 },
	{ HOOK, 1, 4096, 1, 10000 },
	{ HOOK, 16, 4096, 16, 40000 },
	{ HOOK, 256, 4096, 256, 200000 },
};

static const char *const src_name[] = { [HOOK] = "hook", [INJECT] = "inject" };

#define N(a) (sizeof(a) / sizeof((a)[0]))

struct run {
	enum kind kind;
	const struct config *cfg;
	int hook;		/* amdx: emit_events */
	char hook_s[32];	/* amdx: what to write for hook_b records */
	int hook_len;
	unsigned int hook_b;
	int dev;		/* amdx: the device fd, for RAS_INJECT */
	int rfd, wfd;		/* event fd or pipe ends */
	/* flow control: the producer sleeps on cv only when it must wait */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint64_t produced;		/* producer only */
	_Atomic uint64_t done;		/* records the reader holds */
	_Atomic int waiting;		/* the producer waits on cv */
	/* reader results */
	uint64_t t0, t1, received, lost, gaps, errors;
	uint64_t *lat;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Pin the calling thread to @cpu when the machine has it; else leave it. */
static void pin(int cpu)
{
	cpu_set_t set;

	if (cpu >= sysconf(_SC_NPROCESSORS_ONLN))
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *reader(void *arg)
{
	struct run *r = arg;
	size_t len = (size_t)r->cfg->rd * REC;
	struct amdx_event *buf = malloc(len);
	uint64_t next = 0, got = 0;

	if (!buf) {
		r->errors++;
		return NULL;
	}
	pin(1);
	while (got < r->cfg->total) {
		ssize_t n = read(r->rfd, buf, len);
		uint64_t t = now_ns(), lost = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || n % REC) {
			fprintf(stderr, "reader: read returned %zd (%s)\n", n,
				n < 0 ? strerror(errno) : "short");
			r->errors++;
			break;
		}
		for (size_t i = 0; i < n / REC; i++) {
			const struct amdx_event *ev = &buf[i];

			if (ev->kind == AMDX_EVENT_LOST) {
				lost += ev->data[0];
				next = ev->data[1] + 1;
				continue;
			}
			if (ev->kind != AMDX_EVENT_ERROR) {
				/* one emission, one ERROR record: else the rate lies */
				fprintf(stderr, "reader: record of kind %u\n",
					ev->kind);
				r->errors++;
			}
			if (next && ev->seq != next)
				r->gaps += ev->seq - next;
			next = ev->seq + 1;
			if (got < r->cfg->total)
				r->lat[got] = t - ev->timestamp_ns;
			got++;
		}
		got += lost;
		r->lost += lost;
		/*
		 * No lock on the way unless the producer sleeps: the
		 * harness's own synchronisation must not dominate either
		 * side.  seq_cst store then load, paired with the producer's.
		 */
		atomic_store(&r->done, got);
		if (atomic_load(&r->waiting)) {
			pthread_mutex_lock(&r->mu);
			pthread_cond_signal(&r->cv);
			pthread_mutex_unlock(&r->mu);
		}
	}
	r->t1 = now_ns();
	r->received = got;
	free(buf);
	return NULL;
}

/* One emission of @b records. */
static int produce(struct run *r, unsigned int b, uint64_t seq,
		   struct amdx_event *recs)
{
	if (r->kind == AMDX && r->cfg->src == INJECT) {
		struct amdx_ras_inject in = {
			.block = AMDX_RAS_BLOCK_GFX, .type = AMDX_RAS_TYPE_CE,
			.count = 1,
		};

		if (ioctl(r->dev, AMDX_IOC_RAS_INJECT, &in) < 0) {
			fprintf(stderr, "AMDX_IOC_RAS_INJECT: %s\n",
				strerror(errno));
			return -1;
		}
		return 0;
	}
	if (r->kind == AMDX) {
		/* Formatted once per batch size, as the pipe's records are. */
		if (b != r->hook_b) {
			r->hook_len = snprintf(r->hook_s, sizeof(r->hook_s),
					       "%u %u", AMDX_EVENT_ERROR, b);
			r->hook_b = b;
		}
		if (write(r->hook, r->hook_s, r->hook_len) != r->hook_len) {
			fprintf(stderr, "emit_events: %s\n", strerror(errno));
			return -1;
		}
		return 0;
	}
	for (unsigned int i = 0; i < b; i++) {
		recs[i].seq = seq + i;
		recs[i].timestamp_ns = now_ns();
	}
	for (size_t off = 0, len = (size_t)b * REC; off < len;) {
		ssize_t n = write(r->wfd, (char *)recs + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "pipe write: %s\n", strerror(errno));
			return -1;
		}
		off += n;
	}
	return 0;
}

/* One run; fills r->t0, r->t1 and the reader's results. */
static int run_once(struct run *r)
{
	const struct config *c = r->cfg;
	struct amdx_event *recs = calloc(c->batch, REC);
	pthread_t th;
	uint64_t seq = 1;
	int ret = 0;

	if (!recs)
		return -1;
	for (unsigned int i = 0; i < c->batch; i++) {
		recs[i].kind = AMDX_EVENT_ERROR;
		recs[i].size = REC;
	}
	r->produced = 0;
	atomic_store(&r->done, 0);
	atomic_store(&r->waiting, 0);
	r->received = r->lost = r->gaps = r->errors = 0;
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cv, NULL);
	pin(0);
	if (pthread_create(&th, NULL, reader, r)) {
		free(recs);
		return -1;
	}
	r->t0 = now_ns();
	while (r->produced < c->total && !ret) {
		unsigned int b = c->batch;

		if (c->total - r->produced < b)
			b = c->total - r->produced;
		/* flow control: never more than the ring outstanding */
		if (r->produced + b - atomic_load(&r->done) > c->window) {
			pthread_mutex_lock(&r->mu);
			atomic_store(&r->waiting, 1);
			while (r->produced + b - atomic_load(&r->done) > c->window)
				pthread_cond_wait(&r->cv, &r->mu);
			atomic_store(&r->waiting, 0);
			pthread_mutex_unlock(&r->mu);
		}
		ret = produce(r, b, seq, recs);
		seq += b;
		r->produced += b;
	}
	if (ret)
		pthread_cancel(th);
	pthread_join(th, NULL);
	pthread_cond_destroy(&r->cv);
	pthread_mutex_destroy(&r->mu);
	free(recs);
	return ret || r->errors ? -1 : 0;
}

/* ---- setup */

static int xioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do
		ret = ioctl(fd, req, arg);
	while (ret < 0 && errno == EINTR);
	return ret;
}

/* The event fd and hook of the first amdx device, or -1. */
static int amdx_setup(const char *node, struct run *r)
{
	struct amdx_device_open op = { 0 };
	struct amdx_event_subscribe sub = {
		.mask = AMDX_EVENT_MASK_ALL, .ring_size = RING,
	};
	struct amdx_query_devices *list = NULL;
	struct amdx_query q = { .query = AMDX_QUERY_DEVICES };
	char path[96];
	int ctl, ret = -1;

	ctl = open(node, O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		fprintf(stderr, "amdx: %s: %s\n", node, strerror(errno));
		return -1;
	}
	if (xioctl(ctl, AMDX_IOC_QUERY, &q) < 0)
		goto out_err;
	list = calloc(1, q.size);
	q.data = (uintptr_t)list;
	if (!list || xioctl(ctl, AMDX_IOC_QUERY, &q) < 0)
		goto out_err;
	if (!list->num_devices) {
		fprintf(stderr, "amdx: no devices\n");
		goto out;
	}
	op.id = list->devices[0].id;
	if (xioctl(ctl, AMDX_IOC_DEVICE_OPEN, &op) < 0)
		goto out_err;
	if (xioctl(op.fd, AMDX_IOC_EVENT_SUBSCRIBE, &sub) < 0) {
		close(op.fd);
		goto out_err;
	}
	snprintf(path, sizeof(path), "/sys/kernel/debug/amdx/amdx%u/emit_events",
		 op.id);
	r->hook = open(path, O_WRONLY | O_CLOEXEC);
	if (r->hook < 0) {
		fprintf(stderr, "amdx: %s: %s\n", path, strerror(errno));
		close(sub.fd);
		close(op.fd);
		goto out;
	}
	r->rfd = sub.fd;
	r->dev = op.fd;
	printf("# amdx device %u (%s), event ring %u records\n", op.id,
	       (char *)list->devices[0].bdf, RING);
	ret = 0;
	goto out;
out_err:
	fprintf(stderr, "amdx: %s\n", strerror(errno));
out:
	free(list);
	close(ctl);
	return ret;
}

static int pipe_setup(struct run *r)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC) < 0) {
		fprintf(stderr, "pipe: %s\n", strerror(errno));
		return -1;
	}
	/* as many records as the ring: 1 MiB */
	if (fcntl(p[1], F_SETPIPE_SZ, RING * REC) < (int)(RING * REC))
		fprintf(stderr, "# pipe: F_SETPIPE_SZ %zu: %s\n", RING * REC,
			strerror(errno));
	r->rfd = p[0];
	r->wfd = p[1];
	return 0;
}

/* ---- report */

struct result {
	uint64_t rate;		/* events/s, median run */
	uint64_t p50, p99;	/* ns */
	uint64_t lost;		/* LOST counts + seq gaps, all runs */
	int ok;
};

/* Per-kind samples of one configuration, one per repetition. */
struct samples {
	uint64_t rates[MAX_REPS], p50[MAX_REPS], p99[MAX_REPS];
	int n;
};

/* One repetition of @r; its rate and latencies go into @sm. */
static int sample(struct run *r, struct samples *sm, struct result *res)
{
	uint64_t total = r->cfg->total;

	if (run_once(r))
		return -1;
	sm->rates[sm->n] = (uint64_t)((double)r->received * 1e9 /
				      (double)(r->t1 - r->t0));
	res->lost += r->lost + r->gaps;
	qsort(r->lat, total, sizeof(*r->lat), cmp_u64);
	sm->p50[sm->n] = r->lat[total / 2];
	sm->p99[sm->n] = r->lat[total * 99 / 100];
	sm->n++;
	return 0;
}

/* The rate of the median repetition, and that repetition's latencies. */
static void summarize(const struct samples *sm, struct result *res)
{
	uint64_t sorted[MAX_REPS];

	memcpy(sorted, sm->rates, sm->n * sizeof(*sorted));
	qsort(sorted, sm->n, sizeof(*sorted), cmp_u64);
	res->rate = sorted[sm->n / 2];
	for (int i = 0; i < sm->n; i++) {
		if (sm->rates[i] == res->rate) {
			res->p50 = sm->p50[i];
			res->p99 = sm->p99[i];
		}
	}
	res->ok = 1;
}

/*
 * The kinds take turns, one repetition each, so a change in the host's
 * load while the configuration runs falls on both sides of the ratio.
 */
static void measure_both(struct run *runs, const struct config *c, int reps,
			 int pipe_only, struct result *res, int *failed)
{
	struct samples sm[NKINDS] = { 0 };
	int bad[NKINDS] = { 0 };

	for (int k = 0; k < NKINDS; k++) {
		memset(&res[k], 0, sizeof(res[k]));
		runs[k].cfg = c;
		runs[k].lat = malloc(c->total * sizeof(*runs[k].lat));
		if (!runs[k].lat)
			bad[k] = 1;
	}
	for (int n = 0; n < reps; n++)
		for (int k = 0; k < NKINDS; k++)
			if (!bad[k] && !(k == AMDX && pipe_only) &&
			    sample(&runs[k], &sm[k], &res[k]))
				bad[k] = 1;
	for (int k = 0; k < NKINDS; k++) {
		free(runs[k].lat);
		runs[k].lat = NULL;
		if (k == AMDX && pipe_only)
			continue;
		if (!bad[k])
			summarize(&sm[k], &res[k]);
		if (!res[k].ok || res[k].lost)
			*failed = 1;
	}
}

static void col_rate(const struct result *x)
{
	if (x->ok)
		printf(" %11.0f", (double)x->rate);
	else
		printf(" %11s", "-");
}

static void col_ratio(const struct result *res)
{
	if (res[AMDX].ok && res[PIPE].ok)
		printf(" %7.2f", (double)res[AMDX].rate / (double)res[PIPE].rate);
	else
		printf(" %7s", "-");
}

static void col_us(const struct result *x, uint64_t ns)
{
	if (x->ok)
		printf(" %9.1f", (double)ns / 1000.0);
	else
		printf(" %9s", "-");
}

int main(int argc, char **argv)
{
	const char *node = "/dev/amdx";
	struct run runs[NKINDS] = { { .kind = AMDX }, { .kind = PIPE } };
	int reps = MAX_REPS, pipe_only = 0, opt, failed = 0;

	while ((opt = getopt(argc, argv, "n:d:p")) != -1) {
		switch (opt) {
		case 'n':
			reps = atoi(optarg);
			break;
		case 'd':
			node = optarg;
			break;
		case 'p':
			pipe_only = 1;
			break;
		default:
			fprintf(stderr, "usage: %s [-n REPS] [-d AMDX] [-p]\n", argv[0]);
			return 2;
		}
	}
	if (reps < 1 || reps > MAX_REPS) {
		fprintf(stderr, "-n: 1..%d\n", MAX_REPS);
		return 2;
	}
	if (!pipe_only && amdx_setup(node, &runs[AMDX]))
		return 1;
	if (pipe_setup(&runs[PIPE]))
		return 1;

	printf("# throughput: median of %d runs, events/s from the first emission to the\n"
	       "# last record read; the producer runs up to %u records (the ring) ahead\n",
	       reps, RING);
	printf("%6s %6s %6s %11s %11s %7s %6s\n", "emit", "batch", "read",
	       "amdx ev/s",
	       "pipe ev/s", "amdx/p", "lost");
	for (size_t i = 0; i < N(tput); i++) {
		struct result res[NKINDS];

		measure_both(runs, &tput[i], reps, pipe_only, res, &failed);
		printf("%6s %6u %6u", src_name[tput[i].src], tput[i].batch,
		       tput[i].rd);
		col_rate(&res[AMDX]);
		col_rate(&res[PIPE]);
		col_ratio(res);
		printf(" %6llu\n", (unsigned long long)(res[AMDX].lost + res[PIPE].lost));
		fflush(stdout);
	}
	printf("# latency: read() return - record timestamp (CLOCK_MONOTONIC) in us,\n"
	       "# the producer waiting for the reader after each batch\n");
	printf("%6s %6s %6s %9s %9s %9s %9s %6s\n", "emit", "batch", "read",
	       "amdx p50",
	       "amdx p99", "pipe p50", "pipe p99", "lost");
	for (size_t i = 0; i < N(lat); i++) {
		struct result res[NKINDS];

		measure_both(runs, &lat[i], reps, pipe_only, res, &failed);
		printf("%6s %6u %6u", src_name[lat[i].src], lat[i].batch,
		       lat[i].rd);
		col_us(&res[AMDX], res[AMDX].p50);
		col_us(&res[AMDX], res[AMDX].p99);
		col_us(&res[PIPE], res[PIPE].p50);
		col_us(&res[PIPE], res[PIPE].p99);
		printf(" %6llu\n", (unsigned long long)(res[AMDX].lost + res[PIPE].lost));
		fflush(stdout);
	}
	printf("# emit = amdx producer: inject = one AMDX_IOC_RAS_INJECT (gfx CE) per\n"
	       "# event, hook = one debugfs emit_events write per batch; the pipe\n"
	       "# rows are the same pipe runs for either;\n"
	       "# batch = records per emission (one write/ioctl / one pipe write),\n"
	       "# read = records per read() buffer; amdx/p = throughput ratio;\n"
	       "# lost = LOST records' counts plus seq gaps, both sides, all runs\n");
	if (failed)
		fprintf(stderr, "amdx_event_bench: a run failed or lost records (see above)\n");
	return failed;
}
