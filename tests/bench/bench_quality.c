/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_quality.c - how good and how fast treematch-helper's placements are
 * against what a user would pick instead, on the same inputs, in one run.
 *
 *   bench_quality [FILTER]     (make bench; FILTER: part of a case name)
 *
 * For every case (bench_cases.c) it runs, as separate processes and on the
 * same files, treematch-helper (--topology tree:..., the machine as an
 * abstract tree) and Scotch's scotch_gmap (the same tree as a "tleaf"
 * target, the matrix as a graph), and in this process the packed,
 * round-robin and MPIPP.1 baselines and the other policies (setmatch,
 * hierarchical, spread: doc/policies.md); every placement is priced with the
 * same tree cost (tenfold per level).  It prints one table: the costs, the
 * ratio of the helper to the best peer (Scotch; the planted optimum on
 * hierarchical cases), and the wall times of both programs (best of 3).
 * Scotch's placements differ from run to run: the cheapest of its 3 counts,
 * after the ranks it put on a core that another holds are moved to idle
 * ones (bench_valid.c says why).
 * TopoMatch cannot be fetched here, so it is not a column.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "bench_cases.h"
#include "bench_scotch.h"
#include "bench_valid.h"

#include "tm_cost.h"
#include "tm_map.h"
#include "tm_matrix.h"
#include "tm_tree.h"
#include "place/policy.h"
#include "place/treematch/treematch.h"

extern char **environ;

/* hierarchical's assignments are cubic: up to the 1,080-core machine (about
 * a second per case); 4,096 ranks take minutes */
enum { RUNS = 3, MPIPP_MAX_RANKS = 1024, HIERARCHICAL_MAX_RANKS = 1080 };

static const char *tmpdir;
static const char *helper;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Called after each run of run_timed, e.g. to price Scotch's mapping:
 * Scotch's result differs from run to run, and the best one counts. */
typedef void (*after_run_fn)(void *ctx);

/* A peer that hangs (scotch_gmap 7.0.3 deadlocks in its threads now and
 * then) must not stall the whole table: a run may take this long, far
 * more than any program needs on these cases (the 65,536-rank case: 130 s
 * for Scotch on one thread). */
enum { RUN_LIMIT = 30, RUN_LIMIT_LARGE = 300 };
static int run_limit = RUN_LIMIT;

/* Wait for pid, polling every 0.1 ms so the wall time stays exact; kill it
 * after run_limit seconds and return -1. */
static int wait_limited(pid_t pid, double t0, int *status, struct rusage *ru)
{
	const struct timespec tick = { 0, 100000 };

	for (;;) {
		pid_t got = wait4(pid, status, WNOHANG, ru);
		if (got == pid)
			return 0;
		if (got < 0 && errno != EINTR)
			return -1;
		if (now() - t0 > run_limit) {
			kill(pid, SIGKILL);
			wait4(pid, status, 0, ru);
			return -1;
		}
		nanosleep(&tick, NULL);
	}
}

/* Run argv with stdout to `out`; best wall time of the `runs` runs that
 * succeeded, or -1 when none did. */
static double run_timed(char *const argv[], const char *out, int runs,
			after_run_fn after, void *ctx)
{
	double best = -1;

	for (int r = 0; r < runs; r++) {
		posix_spawn_file_actions_t fa;
		pid_t pid;
		int status;

		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_addopen(&fa, 1, out,
						 O_WRONLY | O_CREAT | O_TRUNC, 0644);
		double t0 = now();
		if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ) != 0) {
			posix_spawn_file_actions_destroy(&fa);
			return -1;
		}
		struct rusage ru;
		if (wait_limited(pid, t0, &status, &ru) < 0) {
			posix_spawn_file_actions_destroy(&fa);
			fprintf(stderr, "bench: %s killed after %d s\n", argv[0],
				run_limit);
			continue;
		}
		double t = now() - t0;
		posix_spawn_file_actions_destroy(&fa);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			/* Scotch crashes now and then: its other runs count */
			fprintf(stderr, "bench: %s failed (%s %d)\n", argv[0],
				WIFEXITED(status) ? "exit" : "signal",
				WIFEXITED(status) ? WEXITSTATUS(status)
						  : WTERMSIG(status));
			continue;
		}
		if (best < 0 || t < best)
			best = t;
		if (after)
			after(ctx);
	}
	return best;
}

/* Peak memory of a program: a child spawned from this process would
 * inherit this process's own high-water mark (Linux carries it across
 * exec), so a fresh copy of this program (`--peak-rss`) forks the program
 * and reports its ru_maxrss alone. */
static int peak_rss_main(char *const argv[])
{
	pid_t pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, 1);
		execvp(argv[0], argv);
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return 1;
	printf("%ld\n", ru.ru_maxrss);
	return 0;
}

/* Megabytes the program of argv held at most, or NAN. */
static double peak_mb(char *const argv[])
{
	char *trampoline[16] = { "/proc/self/exe", "--peak-rss" };
	char out[512];
	long kb = -1;
	int k = 0;

	while (argv[k] && k + 3 < 16) {
		trampoline[k + 2] = argv[k];
		k++;
	}
	trampoline[k + 2] = NULL;
	snprintf(out, sizeof(out), "%s/peak.txt", tmpdir);
	if (run_timed(trampoline, out, 1, NULL, NULL) < 0)
		return NAN;
	FILE *f = fopen(out, "r");
	if (f) {
		if (fscanf(f, "%ld", &kb) != 1)
			kb = -1;
		fclose(f);
	}
	return kb < 0 ? NAN : (double)kb / 1024;
}

static void tree_spec(const bench_case *c, char *buf, size_t size)
{
	int len = snprintf(buf, size, "tree:");
	for (int d = 0; d < c->depth; d++)
		len += snprintf(buf + len, size - (size_t)len, "%s%d", d ? "," : "",
				c->arity[d]);
}

static int write_files(const bench_case *c, const tm_matrix *m,
		       const tm_tree *t)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/m.json", tmpdir);
	if (bench_case_write_json(c, path) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/m.grf", tmpdir);
	if (bench_scotch_write_graph(path, m) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/t.tgt", tmpdir);
	return bench_scotch_write_tleaf(path, t);
}

/* The helper's JSON: rank r on leaf "cpus" (a tree: leaf is its own CPU). */
static int read_helper(const char *path, int n, int *leaf_of)
{
	json_error_t e;
	json_t *root = json_load_file(path, 0, &e), *item;
	json_t *list = json_object_get(root, "placement");
	size_t k;
	int got = 0;

	json_array_foreach(list, k, item) {
		int r = (int)json_integer_value(json_object_get(item, "rank"));
		const char *cpus = json_string_value(json_object_get(item, "cpus"));
		if (r >= 0 && r < n && cpus) {
			leaf_of[r] = atoi(cpus);
			got++;
		}
	}
	json_decref(root);
	return got == n ? 0 : -1;
}

typedef struct scotch_run {
	const char *map;
	int n;
	int *leaf_of;
	const tm_tree *t;
	const tm_matrix *m;
	double best;
	int overloaded;    /* extra ranks on shared cores in the best run */
} scotch_run;

/* Price Scotch's mapping as a user could run it: ranks that share a core
 * are first moved to idle ones (bench_valid.c). */
static void price_scotch(void *ctx)
{
	scotch_run *r = ctx;

	if (bench_scotch_read_map(r->map, r->n, r->leaf_of) != 0)
		return;
	int extra = bench_overloaded(r->t, r->n, r->leaf_of);
	if (extra < 0 || (extra > 0 && bench_repair(r->t, r->m, r->leaf_of) < 0))
		return;
	double c = tm_cost_tree(r->t, r->m, r->leaf_of);
	if (isnan(r->best) || c < r->best) {
		r->best = c;
		r->overloaded = extra;
	}
}

static double cost_of(tm_algorithm a, const tm_tree *t, const tm_matrix *m,
		      int *leaf_of)
{
	if (tm_map(a, t, m, leaf_of, NULL) != TM_OK)
		return NAN;
	return tm_cost_tree(t, m, leaf_of);
}

/* What each way of building a placement gives, before and after the
 * exact refinement: the gain of every part of the "treematch" placement. */
static void print_strategies(const tm_tree *t, const tm_matrix *m,
			     int *leaf_of)
{
	static const struct {
		const char *name;
		tm_status (*fn)(const tm_tree *, const tm_matrix *, int *,
				tm_error *);
	} s[] = {
		{ "bottom-up", tm__map_bottom_up },
		{ "top-down", tm__map_top_down },
	};
	printf("  ");
	for (size_t k = 0; k < sizeof(s) / sizeof(*s); k++) {
		double t0 = now();
		s[k].fn(t, m, leaf_of, NULL);
		double t1 = now(), before = tm_cost_tree(t, m, leaf_of);
		tm__refine(t, m, leaf_of, NULL);
		double t2 = now(), after = tm_cost_tree(t, m, leaf_of);
		printf("%s %.4g (%.3fs) refined %.4g (%.3fs)   ", s[k].name,
		       before, t1 - t0, after, t2 - t1);
	}
	tm__map_packed(t, m->n, leaf_of);
	double before = tm_cost_tree(t, m, leaf_of);
	tm__refine(t, m, leaf_of, NULL);
	printf("packed %.4g refined %.4g\n", before, tm_cost_tree(t, m, leaf_of));
}

typedef struct totals {
	int cases, beat_peer, below_baselines, baseline_cases, faster;
	int scotch_overloaded, timed;
	double worst_ratio;
} totals;

static void run_case(const bench_case *c, totals *tot)
{
	tm_matrix *m = NULL;
	tm_tree *t = tm_tree_regular(c->depth, c->arity, NULL);
	int *leaf_of = malloc(sizeof(int) * (size_t)c->n);
	char spec[128], json_out[512], map_out[512], grf[512], tgt[512],
	     matrix[512];

	tm_matrix_from_entries(c->n, c->count, c->i, c->j, c->w, &m, NULL);
	if (!m || !t || write_files(c, m, t) < 0) {
		fprintf(stderr, "bench: cannot set up %s\n", c->name);
		exit(1);
	}
	tree_spec(c, spec, sizeof(spec));
	snprintf(matrix, sizeof(matrix), "%s/m.json", tmpdir);
	snprintf(json_out, sizeof(json_out), "%s/helper.json", tmpdir);
	snprintf(grf, sizeof(grf), "%s/m.grf", tmpdir);
	snprintf(tgt, sizeof(tgt), "%s/t.tgt", tmpdir);
	snprintf(map_out, sizeof(map_out), "%s/scotch.map", tmpdir);

	char *helper_argv[] = { (char *)helper, "map", "--matrix", matrix,
				"--topology", spec, "--format", "json", NULL };
	int runs = c->n <= BENCH_LARGE_RANKS ? RUNS : 1;
	run_limit = c->n <= BENCH_LARGE_RANKS ? RUN_LIMIT : RUN_LIMIT_LARGE;
	double t_helper = run_timed(helper_argv, json_out, runs, NULL, NULL);
	double mb_helper = peak_mb(helper_argv);
	double c_helper = NAN;
	if (t_helper >= 0 && read_helper(json_out, c->n, leaf_of) == 0) {
		if (bench_overloaded(t, c->n, leaf_of) == 0)
			c_helper = tm_cost_tree(t, m, leaf_of);
		else
			fprintf(stderr, "bench: %s: the helper put two ranks on "
				"one core\n", c->name);
	}

	char *scotch_argv[] = { "scotch_gmap", grf, tgt, map_out, NULL };
	scotch_run sr = { map_out, c->n, leaf_of, t, m, NAN, 0 };
	/* scotch_gmap 7.0.3's threaded mapping crashes (SIGSEGV) or hangs on
	 * the 65,536-leaf target most of the time; one thread does not */
	if (c->n > BENCH_LARGE_RANKS)
		setenv("SCOTCH_PTHREAD_NUMBER", "1", 1);
	double t_scotch = run_timed(scotch_argv, "/dev/null", runs, price_scotch,
				    &sr);
	unsetenv("SCOTCH_PTHREAD_NUMBER");
	double c_scotch = sr.best;

	double c_packed = cost_of(TM_ALGO_PACKED, t, m, leaf_of);
	double c_rr = cost_of(TM_ALGO_ROUND_ROBIN, t, m, leaf_of);
	double c_mpipp = c->n <= MPIPP_MAX_RANKS
			 ? cost_of(TM_ALGO_MPIPP1, t, m, leaf_of) : NAN;
	double c_opt = c->planted ? tm_cost_tree(t, m, c->planted) : NAN;
	double c_setmatch = cost_of(TM_ALGO_SETMATCH, t, m, leaf_of);
	double c_hier = c->n <= HIERARCHICAL_MAX_RANKS
			? cost_of(TM_ALGO_HIERARCHICAL, t, m, leaf_of) : NAN;
	double c_spread = cost_of(TM_ALGO_SPREAD, t, m, leaf_of);
	if (getenv("BENCH_STRATEGIES"))
		print_strategies(t, m, leaf_of);

	double peer = c->planted ? c_opt : c_scotch;
	double ratio = c_helper / peer;
	printf("%-30s %5d %11.4g %11.4g %4d %11.4g %11.4g %11.4g %11.4g %6.3f %7.3f"
	       " %7.3f %5.0f %11.4g %11.4g %11.4g\n",
	       c->name, c->n, c_helper, c_scotch, sr.overloaded, c_opt, c_packed, c_rr,
	       c_mpipp, ratio, t_helper, t_scotch, mb_helper, c_setmatch, c_hier,
	       c_spread);
	fflush(stdout);

	tot->cases++;
	if (c_helper <= peer * (1 + 1e-9))
		tot->beat_peer++;
	if (isfinite(ratio) && ratio > tot->worst_ratio)
		tot->worst_ratio = ratio;
	double baseline = fmin(c_packed, c_rr);
	if (!isnan(c_mpipp))
		baseline = fmin(baseline, c_mpipp);
	double best_known = fmin(c_helper, isnan(c_opt) ? c_scotch : c_opt);
	if (baseline > best_known * (1 + 1e-9)) { /* baselines not optimal */
		tot->baseline_cases++;
		if (c_helper < baseline)
			tot->below_baselines++;
	}
	if (t_helper >= 0 && t_scotch >= 0) {
		tot->timed++;
		tot->faster += t_helper <= t_scotch;
	}
	tot->scotch_overloaded += sr.overloaded > 0;
	free(leaf_of);
	tm_matrix_free(m);
	tm_tree_free(t);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/tm-bench.XXXXXX";
	bench_case *cases;
	totals tot = { 0 };
	const char *builddir = getenv("top_builddir");
	char helper_path[1024];

	if (argc > 2 && strcmp(argv[1], "--peak-rss") == 0)
		return peak_rss_main(argv + 2);

	snprintf(helper_path, sizeof(helper_path), "%s/helper/treematch-helper",
		 builddir ? builddir : ".");
	helper = helper_path;
	if (access(helper, X_OK) < 0) {
		fprintf(stderr, "bench: %s: %s (run from the build tree)\n", helper,
			strerror(errno));
		return 1;
	}
	tmpdir = mkdtemp(dir);
	if (!tmpdir) {
		perror("bench: mkdtemp");
		return 1;
	}
	int n = bench_cases(argc > 1 ? argv[1] : NULL, &cases);
	printf("%-30s %5s %11s %11s %4s %11s %11s %11s %11s %6s %7s %7s %5s %11s %11s %11s\n",
	       "case", "ranks", "treematch", "scotch", "ovl", "optimum", "packed",
	       "round-rob", "mpipp.1", "ratio", "t_tm", "t_scot", "MB_tm",
	       "setmatch", "hierarch.", "spread");
	for (int k = 0; k < n; k++) {
		run_case(&cases[k], &tot);
		bench_case_free(&cases[k]);
	}
	free(cases);
	printf("\n%d cases: treematch <= best peer (Scotch, or the planted "
	       "optimum) in %d, worst ratio %.3f;\n", tot.cases, tot.beat_peer,
	       tot.worst_ratio);
	printf("strictly below packed, round-robin and MPIPP.1 in %d of the %d "
	       "cases where they are not optimal; no slower than Scotch in %d "
	       "of the %d cases where both ran.\n",
	       tot.below_baselines, tot.baseline_cases, tot.faster, tot.timed);
	printf("(ratio: treematch / best peer; times: wall seconds of each "
	       "program, best of %d (1 above %d ranks); MPIPP.1 only up to "
	       "%d ranks;\n"
	       " ovl: ranks Scotch put on a core that another rank holds, in "
	       "its cheapest run (%d cases); they are moved to idle cores "
	       "before its cost is taken;\n"
	       " setmatch, hierarch., spread: those policies' placements, "
	       "default options, in this process; hierarch. only up to %d "
	       "ranks)\n", RUNS, BENCH_LARGE_RANKS, MPIPP_MAX_RANKS,
	       tot.scotch_overloaded, HIERARCHICAL_MAX_RANKS);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (getenv("BENCH_KEEP"))
		printf("(files of the last case kept in %s)\n", tmpdir);
	else if (system(cmd) != 0)
		fprintf(stderr, "bench: could not remove %s\n", tmpdir);
	return 0;
}
