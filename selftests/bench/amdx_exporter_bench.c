// SPDX-License-Identifier: GPL-2.0
/*
 * amdx_exporter_bench: the wall time of a command, run N times, as median
 * and max; for `amdx exporter` also the collection time the exporter
 * reports itself.  bench-guest.sh runs it over the devices it created:
 * `amdx exporter --textfile F` (the whole one-shot run: process start,
 * collection, rendering, write and rename) next to its comparators.
 *
 * With -f FILE, after each run the value of the gauge
 * amdx_exporter_collect_duration_seconds in FILE (the library's collection
 * call: the device list and every device's queries, Documentation/
 * admin-guide/metrics.rst) is read and reported the same way; a run that
 * leaves no such gauge fails the benchmark.
 *
 * This is a benchmark, not a test: it exits non-zero only if the command
 * cannot run or fails.
 *
 * usage: amdx_exporter_bench [-n RUNS] [-f FILE] LABEL CMD [ARG...]
 * RUNS: 1..99, default 15.  One line per run, then a summary line:
 *   LABEL: N runs, wall median X ms max Y ms[, collect median A ms max B ms]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_RUNS	99
#define GAUGE		"amdx_exporter_collect_duration_seconds"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median (upper middle for an even count) and max of @n values; sorts @v. */
static void summary(double *v, int n, double *median, double *max)
{
	qsort(v, n, sizeof(*v), cmp_double);
	*median = v[n / 2];
	*max = v[n - 1];
}

/* Runs @argv with stdout on /dev/null; its wall time in ms, or < 0. */
static double run(char **argv)
{
	double t0 = now_ms(), t1;
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0) {
		perror("fork");
		return -1;
	}
	if (!pid) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0)
			dup2(fd, STDOUT_FILENO);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0) {
		perror("waitpid");
		return -1;
	}
	t1 = now_ms();
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "%s: exit status %#x\n", argv[0], status);
		return -1;
	}
	return t1 - t0;
}

/* The collection time @path reports, in ms, or < 0. */
static double collect_ms(const char *path)
{
	char line[4096];
	double v = -1;
	FILE *f;

	f = fopen(path, "r");
	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *sp;

		if (strncmp(line, GAUGE "{", strlen(GAUGE) + 1))
			continue;
		sp = strrchr(line, ' ');
		if (sp)
			v = strtod(sp + 1, NULL) * 1e3;
		break;
	}
	fclose(f);
	if (v < 0)
		fprintf(stderr, "%s: no %s\n", path, GAUGE);
	return v;
}

int main(int argc, char **argv)
{
	double wall[MAX_RUNS], coll[MAX_RUNS], wmed, wmax, cmed, cmax;
	const char *file = NULL, *label;
	int runs = 15, opt, i;

	while ((opt = getopt(argc, argv, "+n:f:")) != -1) {
		switch (opt) {
		case 'n':
			runs = atoi(optarg);
			break;
		case 'f':
			file = optarg;
			break;
		default:
			goto usage;
		}
	}
	if (runs < 1 || runs > MAX_RUNS || argc - optind < 2)
		goto usage;
	label = argv[optind];
	argv += optind + 1;

	for (i = 0; i < runs; i++) {
		wall[i] = run(argv);
		if (wall[i] < 0)
			return 1;
		if (file) {
			coll[i] = collect_ms(file);
			if (coll[i] < 0)
				return 1;
			printf("# %s run %d: wall %.1f ms, collect %.1f ms\n",
			       label, i + 1, wall[i], coll[i]);
		} else {
			printf("# %s run %d: wall %.1f ms\n", label, i + 1, wall[i]);
		}
	}
	summary(wall, runs, &wmed, &wmax);
	printf("%s: %d runs, wall median %.1f ms max %.1f ms", label, runs,
	       wmed, wmax);
	if (file) {
		summary(coll, runs, &cmed, &cmax);
		printf(", collect median %.1f ms max %.1f ms", cmed, cmax);
	}
	printf("\n");
	return 0;

usage:
	fprintf(stderr,
		"usage: amdx_exporter_bench [-n RUNS] [-f FILE] LABEL CMD [ARG...]\n"
		"RUNS: 1..%d, default 15\n", MAX_RUNS);
	return 2;
}
