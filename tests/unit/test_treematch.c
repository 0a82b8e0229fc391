/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_treematch.c - TreeMatch and the baselines on trees and matrices
 * whose best placement is known.
 */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "fixtures.h"
#include "tm_cost.h"
#include "tm_map.h"
#include "tm_matrix.h"
#include "tm_tree.h"

static tm_tree *regular(int depth, const int *arity)
{
	return tm_tree_regular(depth, arity, NULL);
}

/* Ancestor of a leaf at depth d. */
static int ancestor(const tm_tree *t, int leaf, int d)
{
	int v = t->level_start[t->depth] + leaf;

	for (int x = t->depth; x > d; x--)
		v = t->parent[v];
	return v;
}

/* Paper 000, Fig. 1: 8 ranks on pack:2 l2:3 core:2. */
static void paper_fig1(void)
{
	int arity[] = { 2, 3, 2 }, leaf_of[8];
	tm_matrix *m = dense_matrix(8, paper000_fig1);
	tm_tree *t = regular(3, arity);

	CHECK(tm_map(TM_ALGO_TREEMATCH, t, m, leaf_of, NULL) == TM_OK,
	      "Fig. 1: TreeMatch maps 8 ranks on 12 cores");
	CHECK(valid_placement(t, leaf_of, 8), "Fig. 1: one rank per core");
	for (int r = 0; r < 8; r += 2)
		CHECK(ancestor(t, leaf_of[r], 2) == ancestor(t, leaf_of[r + 1], 2),
		      "Fig. 1: ranks %d and %d share an L2", r, r + 1);
	int p0 = ancestor(t, leaf_of[0], 1), p4 = ancestor(t, leaf_of[4], 1);
	int same = 1;
	for (int r = 0; r < 8; r++)
		same &= ancestor(t, leaf_of[r], 1) == (r < 4 ? p0 : p4);
	CHECK(p0 != p4 && same,
	      "Fig. 1: ranks 0-3 share one package, 4-7 the other");
	double tm = tm_cost_tree(t, m, leaf_of);
	tm_map(TM_ALGO_PACKED, t, m, leaf_of, NULL);
	double packed = tm_cost_tree(t, m, leaf_of);
	tm_map(TM_ALGO_ROUND_ROBIN, t, m, leaf_of, NULL);
	double rr = tm_cost_tree(t, m, leaf_of);
	CHECK(tm < packed && tm < rr,
	      "Fig. 1: TreeMatch (%g) beats packed (%g) and round-robin (%g)",
	      tm, packed, rr);
	tm_matrix_free(m);
	tm_tree_free(t);
}

/* Paper 003, Table I, on a binary tree of depth 3. */
static void paper_table1(void)
{
	static const int pairs[4][2] = { { 0, 6 }, { 1, 7 }, { 2, 5 }, { 3, 4 } };
	int arity[] = { 2, 2, 2 }, leaf_of[8];
	tm_matrix *m = dense_matrix(8, paper003_table1);
	tm_tree *t = regular(3, arity);

	CHECK(tm_map(TM_ALGO_TREEMATCH, t, m, leaf_of, NULL) == TM_OK,
	      "Table I: TreeMatch maps 8 ranks on a 2x2x2 tree");
	for (int p = 0; p < 4; p++)
		CHECK(ancestor(t, leaf_of[pairs[p][0]], 2) ==
		      ancestor(t, leaf_of[pairs[p][1]], 2),
		      "Table I: ranks %d and %d are paired", pairs[p][0],
		      pairs[p][1]);
	int g0 = ancestor(t, leaf_of[0], 1);
	CHECK(ancestor(t, leaf_of[6], 1) == g0 && ancestor(t, leaf_of[1], 1) == g0 &&
	      ancestor(t, leaf_of[7], 1) == g0,
	      "Table I: ranks 0, 6, 1, 7 form one group");
	int g1 = ancestor(t, leaf_of[2], 1);
	CHECK(g1 != g0 && ancestor(t, leaf_of[5], 1) == g1 &&
	      ancestor(t, leaf_of[3], 1) == g1 && ancestor(t, leaf_of[4], 1) == g1,
	      "Table I: ranks 2, 5, 3, 4 form the other");
	tm_matrix_free(m);
	tm_tree_free(t);
}

/* ----- planted hierarchies --------------------------------------- */

static void planted(int depth, const int *arity)
{
	tm_tree *t = regular(depth, arity);
	int n = t->nleaves;
	int *plant = malloc(sizeof(int) * (size_t)n);
	int *leaf_of = malloc(sizeof(int) * (size_t)n);
	char shape[64];
	int len = 0;

	for (int d = 0; d < depth; d++)
		len += snprintf(shape + len, sizeof(shape) - (size_t)len, "%s%d",
				d ? "x" : "", arity[d]);
	rng_state = (uint64_t)n * 7919u + (uint64_t)depth;
	tm_matrix *m = planted_matrix(t, plant);
	double best = tm_cost_tree(t, m, plant);
	CHECK(tm_map(TM_ALGO_TREEMATCH, t, m, leaf_of, NULL) == TM_OK &&
	      valid_placement(t, leaf_of, n),
	      "planted %s: TreeMatch places %d ranks", shape, n);
	double got = tm_cost_tree(t, m, leaf_of);
	CHECK(fabs(got - best) <= 1e-9 * best,
	      "planted %s: TreeMatch finds the planted optimum (%.6g vs %.6g)",
	      shape, got, best);
	tm_map(TM_ALGO_PACKED, t, m, leaf_of, NULL);
	double packed = tm_cost_tree(t, m, leaf_of);
	CHECK(packed > best, "planted %s: packed (%.6g) is worse", shape, packed);
	free(plant);
	free(leaf_of);
	tm_matrix_free(m);
	tm_tree_free(t);
}

/* ----- fewer and more ranks than cores ---------------------------- */

static void ring(int n, double *w)
{
	for (int a = 0; a < n * n; a++)
		w[a] = 0;
	for (int a = 0; a < n; a++)
		w[a * n + (a + 1) % n] = 1000;
}

static void undersubscribed(void)
{
	int arity[] = { 2, 3, 2 }, leaf_of[12];
	tm_tree *t = regular(3, arity);
	double w[144];

	ring(8, w);
	tm_matrix *m = dense_matrix(8, w);
	tm_map(TM_ALGO_TREEMATCH, t, m, leaf_of, NULL);
	int per_package[2] = { 0, 0 };
	for (int r = 0; r < 8; r++)
		per_package[ancestor(t, leaf_of[r], 1) - 1]++;
	CHECK(per_package[0] == 4 && per_package[1] == 4,
	      "8 ranks in a ring on 2x6 cores: 6+2 costs the same as 4+4, and "
	      "idle cores are spread: 4 ranks per package (got %d+%d)",
	      per_package[0], per_package[1]);
	int full_l2 = 0;
	for (int r = 0; r < 8; r++)
		for (int s = r + 1; s < 8; s++)
			full_l2 += ancestor(t, leaf_of[r], 2) == ancestor(t, leaf_of[s], 2);
	CHECK(full_l2 == 4, "8 ranks on 2x6 cores: 4 L2s hold 2 ranks each");
	tm_matrix_free(m);

	ring(3, w);
	m = dense_matrix(3, w);
	tm_map(TM_ALGO_TREEMATCH, t, m, leaf_of, NULL);
	CHECK(ancestor(t, leaf_of[0], 1) == ancestor(t, leaf_of[1], 1) &&
	      ancestor(t, leaf_of[1], 1) == ancestor(t, leaf_of[2], 1),
	      "3 ranks on 2x6 cores: all in one package");
	tm_matrix_free(m);
	tm_tree_free(t);
}

static void oversubscribed(void)
{
	int arity[] = { 2, 2 }, leaf_of[10], load[4] = { 0 };
	tm_tree *base = regular(2, arity);
	tm_tree *t = tm_tree_oversubscribe(base, 10, NULL);
	double w[100];

	ring(10, w);
	tm_matrix *m = dense_matrix(10, w);
	CHECK(t && tm_map(TM_ALGO_TREEMATCH, t, m, leaf_of, NULL) == TM_OK,
	      "10 ranks on 4 cores: placed on an oversubscribed tree");
	for (int r = 0; t && r < 10; r++)
		load[t->leaf[leaf_of[r]].cores[0]]++;
	int lo = 10, hi = 0;
	for (int c = 0; c < 4; c++) {
		lo = load[c] < lo ? load[c] : lo;
		hi = load[c] > hi ? load[c] : hi;
	}
	CHECK(lo == 2 && hi == 3, "10 ranks on 4 cores: 2 or 3 ranks per core");
	tm_matrix_free(m);
	tm_tree_free(t);
	tm_tree_free(base);
}

/* Slurm gave only some cores of a node: the tree is irregular. */
static void irregular(void)
{
	/* two packages: one with 3 cores (2+1 on L2s), one with 2 (1+1) */
	int level_size[] = { 1, 2, 4, 5 };
	int parent[] = { -1, 0, 0, 1, 1, 2, 2, 3, 3, 4, 5, 6 };
	tm_tree *t = tm_tree_build(3, level_size, parent, NULL);
	double w[25] = { 0 };
	int leaf_of[5];

	w[0 * 5 + 1] = 2000; /* 0-1 heaviest, then 2-3; 4 alone-ish */
	w[2 * 5 + 3] = 1000;
	w[1 * 5 + 2] = 10;
	w[3 * 5 + 4] = 1;
	tm_matrix *m = dense_matrix(5, w);
	CHECK(t && tm_map(TM_ALGO_TREEMATCH, t, m, leaf_of, NULL) == TM_OK &&
	      valid_placement(t, leaf_of, 5),
	      "irregular tree (3+2 cores): every rank on its own core");
	double tm = tm_cost_tree(t, m, leaf_of);
	tm_map(TM_ALGO_PACKED, t, m, leaf_of, NULL);
	double packed = tm_cost_tree(t, m, leaf_of);
	CHECK(tm <= packed, "irregular tree: no worse than packed (%g <= %g)",
	      tm, packed);
	tm_map(TM_ALGO_ROUND_ROBIN, t, m, leaf_of, NULL);
	double rr = tm_cost_tree(t, m, leaf_of);
	CHECK(tm <= rr, "irregular tree: no worse than round-robin (%g <= %g)",
	      tm, rr);
	tm_matrix_free(m);
	tm_tree_free(t);
}

/* Ranks of the box [lo, hi) of a dim[0] x dim[1] x dim[2] grid on the
 * subtree of node v, each split halving the longest side of the box:
 * blocks as compact as the tree allows (arities of 2, 4 or 8). */
static void grid_blocks(const tm_tree *t, int v, const int *lo,
			const int *hi, const int *dim, int *leaf_of)
{
	if (t->arity[v] == 0) {
		leaf_of[lo[0] + dim[0] * (lo[1] + dim[1] * lo[2])] =
			v - t->level_start[t->depth];
		return;
	}
	int a = t->arity[v], parts = 1, l[8][3], h[8][3];

	for (int k = 0; k < 3; k++) {
		l[0][k] = lo[k];
		h[0][k] = hi[k];
	}
	for (; parts < a; parts *= 2)
		for (int p = parts - 1; p >= 0; p--) {
			int k = 0;
			for (int j = 1; j < 3; j++)
				if (h[p][j] - l[p][j] > h[p][k] - l[p][k])
					k = j;
			for (int j = 0; j < 3; j++) {
				l[2 * p][j] = l[2 * p + 1][j] = l[p][j];
				h[2 * p][j] = h[2 * p + 1][j] = h[p][j];
			}
			h[2 * p][k] = l[2 * p + 1][k] = (l[p][k] + h[p][k]) / 2;
		}
	for (int c = 0; c < a; c++)
		grid_blocks(t, t->first_child[v] + c, l[c], h[c], dim, leaf_of);
}

/* A 3D halo of 8 x 8 x 16 ranks beside an allreduce recorded between all
 * pairs and a gather to rank 0, on 1,024 cores in five levels of four: the
 * light pairs hid the grid from the partitioner (no periphery, no grid
 * cut), and treematch stayed 5.5 % above the blocks. */
static void halo_with_allreduce(void)
{
	int dim[3] = { 8, 8, 16 }, lo[3] = { 0, 0, 0 }, n = 1024;
	tm_tree *t = regular(5, (int[]){ 4, 4, 4, 4, 4 });
	double *w = malloc(sizeof(double) * (size_t)n * (size_t)n);
	int *leaf_of = malloc(sizeof(int) * (size_t)n);

	for (int x = 0; w && x < n * n; x++)
		w[x] = x % n == 0 && x > 0 ? 24 : 8;
	for (int z = 0; w && z < dim[2]; z++)
		for (int y = 0; y < dim[1]; y++)
			for (int x = 0; x < dim[0]; x++) {
				int v = x + dim[0] * (y + dim[1] * z);
				if (x + 1 < dim[0])
					w[v * n + v + 1] += 10000;
				if (y + 1 < dim[1])
					w[v * n + v + dim[0]] += 10000;
				if (z + 1 < dim[2])
					w[v * n + v + dim[0] * dim[1]] += 10000;
			}
	tm_matrix *m = w ? dense_matrix(n, w) : NULL;
	CHECK(t && m && leaf_of, "3D halo with an allreduce: built");
	if (t && m && leaf_of) {
		grid_blocks(t, 0, lo, dim, dim, leaf_of);
		double blocks = tm_cost_tree(t, m, leaf_of);
		CHECK(tm_map(TM_ALGO_TREEMATCH, t, m, leaf_of, NULL) == TM_OK &&
		      valid_placement(t, leaf_of, n),
		      "3D halo with an allreduce: placed");
		double tm = tm_cost_tree(t, m, leaf_of);
		CHECK(tm <= blocks * 1.001,
		      "3D halo with an allreduce: as cheap as blocks "
		      "(%g <= %g)", tm, blocks);
	}
	free(w);
	free(leaf_of);
	tm_matrix_free(m);
	tm_tree_free(t);
}

static void deterministic(void)
{
	int arity[] = { 4, 4, 2 }, n = 32;
	tm_tree *t = regular(3, arity);
	double *w = calloc((size_t)(n * n), sizeof(double));
	int a[32], b[32];

	rng_state = 42;
	for (int x = 0; x < n * n; x++)
		if (uniform() < 0.2)
			w[x] = floor(uniform() * 100); /* many ties */
	tm_matrix *m = dense_matrix(n, w);
	for (int algo = 0; algo < TM_ALGO_COUNT; algo++) {
		tm_map((tm_algorithm)algo, t, m, a, NULL);
		tm_map((tm_algorithm)algo, t, m, b, NULL);
		CHECK(memcmp(a, b, sizeof(a)) == 0,
		      "%s gives the same placement twice",
		      tm_algorithm_name((tm_algorithm)algo));
	}
	tm_map(TM_ALGO_MPIPP, t, m, a, NULL);
	tm_map(TM_ALGO_MPIPP1, t, m, b, NULL);
	CHECK(tm_cost_tree(t, m, a) <= tm_cost_tree(t, m, b),
	      "MPIPP.5 is no worse than MPIPP.1");
	free(w);
	tm_matrix_free(m);
	tm_tree_free(t);
}

static void baselines(void)
{
	int arity[] = { 2, 3 }, leaf_of[5];
	tm_tree *t = regular(2, arity);
	double w[25] = { 0 };
	tm_matrix *m = dense_matrix(5, w);

	tm_map(TM_ALGO_PACKED, t, m, leaf_of, NULL);
	CHECK(leaf_of[0] == 0 && leaf_of[4] == 4, "packed: rank i on leaf i");
	tm_map(TM_ALGO_ROUND_ROBIN, t, m, leaf_of, NULL);
	CHECK(leaf_of[0] == 0 && leaf_of[1] == 3 && leaf_of[2] == 1 &&
	      leaf_of[3] == 4 && leaf_of[4] == 2,
	      "round-robin: ranks alternate between the two packages");
	tm_matrix_free(m);
	tm_tree_free(t);

	tm_algorithm a;
	CHECK(tm_algorithm_parse("round-robin", &a) == 0 &&
	      a == TM_ALGO_ROUND_ROBIN && tm_algorithm_parse("nope", &a) < 0,
	      "algorithm names parse");
}

int main(void)
{
	paper_fig1();
	paper_table1();
	planted(3, (int[]){ 2, 3, 2 });
	planted(3, (int[]){ 3, 4, 2 });
	planted(4, (int[]){ 2, 3, 2, 4 });
	planted(4, (int[]){ 4, 4, 4, 2 });
	planted(5, (int[]){ 2, 2, 3, 2, 2 });
	planted(5, (int[]){ 2, 2, 2, 2, 2 });
	undersubscribed();
	oversubscribed();
	irregular();
	halo_with_allreduce();
	deterministic();
	baselines();
	return check_status();
}
