/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online_report.c - what the mapper tells: the two report lines at the
 * end of the step (TREEMATCH_ONLINE_REPORT=1; the profiler's tests and
 * the plugin's e2e test 28 read them: change them together) and one line per round in TREEMATCH_ONLINE_LOG.
 * Each line goes out in one write, so that lines of several nodes or
 * ranks sharing a stderr never mix.
 */
#include <config.h>

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "tm_topology.h"

#include "online.h"

void online_cpulist(const cpu_set_t *s, char *buf, size_t size)
{
	int cpus[CPU_SETSIZE], n = 0, cpu;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, s))
			cpus[n++] = cpu;
	/* the engine's writer of the same "0-3,8" lists */
	if (size)
		tm_cpulist_format(buf, size > INT_MAX ? INT_MAX : (int)size,
				  cpus, n);
}

/* Appends to a growing line; false when out of memory. */
struct line {
	char *text;
	size_t used, size;
};

static bool add(struct line *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static bool add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int need;
	char *more;

	for (;;) {
		va_start(ap, fmt);
		need = vsnprintf(l->text ? l->text + l->used : NULL,
				 l->text ? l->size - l->used : 0, fmt, ap);
		va_end(ap);
		if (need < 0)
			return false;
		if (l->text && l->used + (size_t)need < l->size) {
			l->used += (size_t)need;
			return true;
		}
		l->size = 2 * (l->size + (size_t)need + 64);
		more = realloc(l->text, l->size);
		if (!more)
			return false;
		l->text = more;
	}
}

static void emit(struct line *l)
{
	if (l->text && add(l, "\n")) {
		ssize_t w = write(STDERR_FILENO, l->text, l->used);

		(void)w; /* nothing to do about a closed stderr */
	}
	free(l->text);
	memset(l, 0, sizeof *l);
}

void online_report_print(const char *node, const struct online_stats *s)
{
	struct line l = { 0 };
	char cpus[CPU_SETSIZE * 6 + 1];
	int k, shown;
	double share = s->wall_seconds > 0 ?
		100.0 * s->mapping_seconds / s->wall_seconds : 0.0;

	/* the intervals that ran, each round's; not the next one, which
	 * never ran (issue 25: "interval 8 s" was read as the last one) */
	add(&l, ONLINE_PREFIX "node %s: %d rounds, %ld moves, intervals",
	    node, s->rounds, s->moves);
	shown = s->rounds < ONLINE_REPORT_INTERVALS ? s->rounds
						     : ONLINE_REPORT_INTERVALS;
	for (k = 0; k < shown; k++)
		add(&l, " %g", s->intervals[k]);
	if (s->rounds > shown)
		add(&l, " ...");
	add(&l, "%s, mapping %.3f ms (%.3f %% of %.3f s)",
	    shown ? " s" : " none", 1e3 * s->mapping_seconds, share,
	    s->wall_seconds);
	emit(&l);

	/* where each rank ended, in words: "0>4:0" needed the docs */
	add(&l, ONLINE_PREFIX "node %s: where the ranks ended:", node);
	for (k = 0; k < s->n; k++) {
		online_cpulist(&s->cpus[k], cpus, sizeof cpus);
		add(&l, "%s rank %d on CPU%s %s", k ? "," : "",
		    s->world_rank[k], strpbrk(cpus, ",-") ? "s" : "", cpus);
	}
	add(&l, "; cost %g", s->cost);
	if (s->packed_cost > 0)
		add(&l, ", x%.2f packed (%g)", s->cost / s->packed_cost,
		    s->packed_cost);
	else
		add(&l, ", packed %g", s->packed_cost);
	emit(&l);
}

void online_log_round(const char *path, const char *node, int round,
		      double t, double interval, bool changed, int moved,
		      double cost)
{
	char line[256];
	int fd, len;

	if (!*path)
		return;
	/* the node first: the mappers of every node of a step may append
	 * to one file (issue 25) */
	len = snprintf(line, sizeof line, "node %.64s round %d t=%.3f "
		       "interval=%g changed=%d moved=%d cost=%g\n", node, round,
		       t, interval, changed ? 1 : 0, moved, cost);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW |
		  O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (len > 0 && write(fd, line, (size_t)len) < 0)
		len = -1; /* a log for tests: nothing to do about it */
	close(fd);
}
