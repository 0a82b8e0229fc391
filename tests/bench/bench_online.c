/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_online.c - what one online mapping round costs the node
 * (tm_online_map_round), at 16, 64 and 256 ranks on real machines.
 *
 *   bench_online [FILTER]       (make bench-online, run by make bench)
 *
 * TOPOLOGIES names the folder of hwloc XML files (../shared/topologies
 * by default).  Each case runs a sequence of rounds whose pattern changes
 * (a 3D halo, then pairs i <-> i + n/2, then the halo again), each round
 * from the placement the previous one left, and prints the median time
 * of a round over its repeats, beside, in the same run, a plain
 * tm_map_with treematch call on the same matrix and tree (the part of a
 * round that is the policy), the rest of the round (costs, keeping ranks
 * in place), and loading the topology with hwloc (done once per node, not
 * per round).  It also prints the tree cost, summed over the sequence,
 * of the online rounds and of treematch's, spread's (given its own
 * previous placement, as OnDeLocMap+; spread0: without) and packed's
 * placements: doc/online.md reads it.  Never run by make check: timings are not tests.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tm_cost.h"
#include "tm_map.h"
#include "tm_online.h"
#include "tm_topology.h"

enum { REPEATS = 7, ROUNDS = 9 };

typedef struct bcase {
	const char *machine; /* file in TOPOLOGIES */
	tm_leaf_kind leaves;
	int n;
	int grid[3];         /* the halo's process grid, n ranks */
} bcase;

static const bcase cases[] = {
	{ "x86__Intel-Skylake-2xXeon6140.xml", TM_LEAF_CORE, 16, { 4, 2, 2 } },
	{ "x86__AMD-15h-Bulldozer-4xOpteron-6272.xml", TM_LEAF_CORE, 16,
	  { 4, 2, 2 } },
	{ "x86__AMD-15h-Bulldozer-4xOpteron-6272.xml", TM_LEAF_CORE, 64,
	  { 4, 4, 4 } },
	{ "x86__AMD-19h-Zen3-2xEpyc-7763.xml", TM_LEAF_CORE, 64,
	  { 4, 4, 4 } },
	{ "x86__AMD-19h-Zen4-2xEpyc-9654.xml", TM_LEAF_PU, 256,
	  { 8, 8, 4 } },
	{ "x86__Intel-KnightsLanding-XeonPhi-7210.xml", TM_LEAF_PU, 256,
	  { 8, 8, 4 } },
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(double), by_double);
	return v[n / 2];
}

/* Round k's traffic: a 3D halo (faces, 1 MB), pairs i <-> i + n/2
 * (4 MB, with a little halo left), then the halo again. */
static tm_matrix *pattern(const bcase *c, int k)
{
	int n = c->n, gx = c->grid[0], gy = c->grid[1], gz = c->grid[2];
	size_t cap = (size_t)n * 7;
	int *ia = malloc(cap * sizeof(int)), *ja = malloc(cap * sizeof(int));
	double *wa = malloc(cap * sizeof(double));
	size_t ne = 0;
	tm_matrix *m = NULL;
	int pairs = k >= 3 && k < 6;

	if (!ia || !ja || !wa)
		goto out;
	for (int r = 0; r < n; r++) {
		int x = r % gx, y = (r / gx) % gy, z = r / (gx * gy);
		int nb[3] = { ((x + 1) % gx) + gx * (y + gy * z),
			      x + gx * (((y + 1) % gy) + gy * z),
			      x + gx * (y + gy * ((z + 1) % gz)) };
		for (int d = 0; d < 3; d++) {
			if (nb[d] == r)
				continue;
			ia[ne] = r;
			ja[ne] = nb[d];
			wa[ne++] = pairs ? 1e4 : 1e6;
		}
		if (pairs && r < n / 2) {
			ia[ne] = r;
			ja[ne] = r + n / 2;
			wa[ne++] = 4e6;
		}
	}
	tm_matrix_from_entries(n, ne, ia, ja, wa, &m, NULL);
out:
	free(ia);
	free(ja);
	free(wa);
	return m;
}

static int run_case(const char *dir, const bcase *c)
{
	char spec[4096];
	tm_tree *t = NULL;
	tm_error err;
	double load[REPEATS];

	snprintf(spec, sizeof(spec), "xml:%.3000s/%.1000s", dir, c->machine);
	for (int i = 0; i < REPEATS; i++) {
		tm_tree_free(t);
		t = NULL;
		double t0 = now();
		if (tm_topology_load(spec, NULL, c->leaves, &t, &err) != TM_OK) {
			printf("%-44s  %s\n", c->machine, err.text);
			return 1;
		}
		load[i] = now() - t0;
	}
	if (t->nleaves < c->n) {
		printf("%-44s  %d leaves < %d ranks\n", c->machine, t->nleaves,
		       c->n);
		tm_tree_free(t);
		return 1;
	}

	int *prev = malloc(sizeof(int) * (size_t)c->n);
	int *next = malloc(sizeof(int) * (size_t)c->n);
	int *prev_s = malloc(sizeof(int) * (size_t)c->n);
	double round_ms[ROUNDS], map_ms[ROUNDS], rest_ms[ROUNDS];
	double cost_online = 0, cost_tm = 0, cost_spread = 0, cost_packed = 0;
	double cost_spread0 = 0;
	int moved = 0, changes = 0;
	tm_online_params p;

	tm_online_params_default(&p);
	p.policy = TM_ALGO_TREEMATCH;
	for (int r = 0; r < c->n; r++)
		prev[r] = prev_s[r] = r; /* Slurm's block binding to start */
	for (int k = 0; k < ROUNDS; k++) {
		tm_matrix *m = pattern(c, k);
		double tr[REPEATS], tmap[REPEATS];
		tm_online_round res = { 0 };

		if (!m || !prev || !next || !prev_s)
			return 1;
		for (int i = 0; i < REPEATS; i++) {
			double t0 = now();
			tm_online_map_round(&p, t, m, prev, next, &res, &err);
			tr[i] = now() - t0;
			t0 = now();
			tm_map_with(TM_ALGO_TREEMATCH, NULL, t, m, next, &err);
			tmap[i] = now() - t0;
		}
		/* The round for real (the last call wrote next). */
		tm_online_map_round(&p, t, m, prev, next, &res, &err);
		memcpy(prev, next, sizeof(int) * (size_t)c->n);
		round_ms[k] = median(tr, REPEATS) * 1e3;
		map_ms[k] = median(tmap, REPEATS) * 1e3;
		rest_ms[k] = round_ms[k] - map_ms[k];
		moved += res.moved;
		changes += res.changed;
		cost_online += res.cost;
		cost_packed += res.packed_cost;
		/* Each policy's own placement of the round, as peers. */
		tm_map_with(TM_ALGO_TREEMATCH, NULL, t, m, next, &err);
		cost_tm += tm_cost_tree(t, m, next);
		tm_map_options opt = TM_MAP_OPTIONS_DEFAULT;
		opt.previous = prev_s;
		tm_map_with(TM_ALGO_SPREAD, &opt, t, m, next, &err);
		cost_spread += tm_cost_tree(t, m, next);
		memcpy(prev_s, next, sizeof(int) * (size_t)c->n);
		tm_map_with(TM_ALGO_SPREAD, NULL, t, m, next, &err);
		cost_spread0 += tm_cost_tree(t, m, next);
		tm_matrix_free(m);
	}
	double slowest = 0;
	for (int k = 0; k < ROUNDS; k++)
		if (round_ms[k] > slowest)
			slowest = round_ms[k];
	char name[48];
	snprintf(name, sizeof(name), "%.30s/%s", c->machine + 5,
		 c->leaves == TM_LEAF_PU ? "pu" : "core");
	printf("%-36s %5d %6d %8.3f %8.3f %8.3f %8.3f %9.2f %6d %5d  "
	       "%9.3g %9.3g %9.3g %9.3g %9.3g\n", name, c->n, t->nleaves,
	       median(round_ms, ROUNDS), median(map_ms, ROUNDS),
	       median(rest_ms, ROUNDS), slowest,
	       median(load, REPEATS) * 1e3, moved, changes, cost_online,
	       cost_tm, cost_spread, cost_spread0, cost_packed);
	free(prev);
	free(next);
	free(prev_s);
	tm_tree_free(t);
	return 0;
}

int main(int argc, char **argv)
{
	const char *dir = getenv("TOPOLOGIES");
	char fallback[4096];
	int failed = 0;

	if (!dir || !*dir) {
		const char *top = getenv("top_srcdir");
		snprintf(fallback, sizeof(fallback), "%s/../shared/topologies",
			 top && *top ? top : ".");
		dir = fallback;
	}
	printf("# one online round (tm_online_map_round, policy treematch),"
	       " median of %d repeats, over %d rounds:\n# halo x3, pairs x3, "
	       "halo x3; times in ms; costs summed over the rounds\n",
	       REPEATS, ROUNDS);
	printf("%-36s %5s %6s %8s %8s %8s %8s %9s %6s %5s  %9s %9s %9s %9s "
	       "%9s\n",
	       "machine/leaves", "ranks", "leaves", "round", "tm_map", "rest",
	       "slowest", "hwloc", "moved", "chg", "online", "treematch",
	       "spread", "spread0", "packed");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (argc < 2 || strstr(cases[i].machine, argv[1]))
			failed |= run_case(dir, &cases[i]);
	return failed;
}
