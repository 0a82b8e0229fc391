/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_partition.c - the top-down path's k-way splits (kpartition.c) and
 * their V-cycle refinement (vcycle.c): every part gets exactly its size,
 * refinement never cuts more than it was given, and clear structure is
 * found.
 */
#include <config.h>

#include <stdlib.h>

#include "check.h"
#include "fixtures.h"

#include "tm_cost.h"
#include "tm_map.h"
#include "place/treematch/treematch.h"

enum { SIDE = 16, N = SIDE * SIDE };

/* A SIDE x SIDE grid, every edge weighing 1. */
static tm_matrix *grid(void)
{
	int i[2 * N], j[2 * N];
	double w[2 * N];
	size_t c = 0;

	for (int y = 0; y < SIDE; y++)
		for (int x = 0; x < SIDE; x++) {
			if (x + 1 < SIDE) {
				i[c] = y * SIDE + x;
				j[c] = y * SIDE + x + 1;
				w[c++] = 1;
			}
			if (y + 1 < SIDE) {
				i[c] = y * SIDE + x;
				j[c] = (y + 1) * SIDE + x;
				w[c++] = 1;
			}
		}
	tm_matrix *m = NULL;
	tm_matrix_from_entries(N, c, i, j, w, &m, NULL);
	return m;
}

static double cut(const tm_matrix *m, const int *part_of)
{
	double c = 0;

	for (int v = 0; v < m->n; v++)
		for (int64_t e = m->row_start[v]; e < m->row_start[v + 1]; e++)
			if (m->col[e] > v && part_of[m->col[e]] != part_of[v])
				c += m->weight[e];
	return c;
}

static int sizes_are(const int *part_of, int n, int nparts, const int *want)
{
	int have[8] = { 0 };

	for (int v = 0; v < n; v++)
		have[part_of[v]]++;
	for (int p = 0; p < nparts; p++)
		if (have[p] != want[p])
			return 0;
	return 1;
}

/* A bad start (columns dealt out in turn: every horizontal edge cut) must
 * come out near the four quadrants, sizes exact. */
static void refine_from_stripes(void)
{
	tm_matrix *m = grid();
	int part_of[N], want[4] = { 64, 64, 64, 64 };

	for (int v = 0; v < N; v++)
		part_of[v] = v % 4;
	double before = cut(m, part_of);
	CHECK(tm__partition_refine(m, 4, part_of, NULL) == TM_OK &&
	      sizes_are(part_of, N, 4, want),
	      "V-cycle on a 16x16 grid: four parts of exactly 64 ranks");
	double after = cut(m, part_of);
	CHECK(after <= 48,
	      "V-cycle from stripes (cut %g): cut %g, the quadrants' 32 plus "
	      "at most half", before, after);
	tm_matrix_free(m);
}

/* Parts of unequal sizes, as a partially allocated node's children have;
 * a start that already is good is not made worse. */
static void unequal_sizes(void)
{
	tm_matrix *m = grid();
	int part_of[N], want[4] = { 100, 60, 60, 36 };

	for (int v = 0; v < N; v++)
		part_of[v] = v < 100 ? 0 : v < 160 ? 1 : v < 220 ? 2 : 3;
	double before = cut(m, part_of);
	CHECK(tm__partition_refine(m, 4, part_of, NULL) == TM_OK &&
	      sizes_are(part_of, N, 4, want),
	      "V-cycle, parts of 100, 60, 60 and 36: each keeps its size");
	CHECK(cut(m, part_of) <= before,
	      "V-cycle, rows in order: the cut (%g) is no larger than given "
	      "(%g)", cut(m, part_of), before);

	int sizes[4] = { 100, 60, 60, 36 };
	CHECK(tm__partition(m, 4, sizes, 1, part_of, NULL) == TM_OK &&
	      sizes_are(part_of, N, 4, sizes),
	      "k-way split into 100, 60, 60 and 36: exact sizes");
	tm_matrix_free(m);
}

/* Four groups of 16 that exchange much inside and little across, ranks
 * shuffled: each part must be one group. */
static void planted_groups(void)
{
	double *w = calloc(64 * 64, sizeof(double));
	int group[64], part_of[64], sizes[4] = { 16, 16, 16, 16 };

	rng_state = 5;
	for (int r = 0; r < 64; r++)
		group[r] = r % 4;
	for (int r = 63; r > 0; r--) {
		int s = (int)(uniform() * (r + 1)), x = group[r];
		group[r] = group[s];
		group[s] = x;
	}
	for (int a = 0; a < 64; a++)
		for (int b = a + 1; b < 64; b++)
			w[a * 64 + b] = group[a] == group[b] ? 100 + uniform() * 10
							     : uniform() * 5;
	tm_matrix *m = dense_matrix(64, w);
	int same = tm__partition(m, 4, sizes, 1, part_of, NULL) == TM_OK;
	for (int a = 0; a < 64 && same; a++)
		for (int b = 0; b < 64 && same; b++)
			same = (group[a] == group[b]) == (part_of[a] == part_of[b]);
	CHECK(same, "k-way split of four planted groups of 16: each part is "
	      "one group");
	free(w);
	tm_matrix_free(m);
}

/* A 10 x 9 x 12 halo exchange on 5 x 3 x 6 x 12 cores: a large grid, on
 * which treematch also tries the top-down path with multilevel cuts only.
 * Here that path is 7 % cheaper than the one with grid cuts, so treematch
 * must have taken it. */
static void treematch_takes_the_cheaper_path(void)
{
	enum { X = 10, Y = 9, Z = 12, R = X * Y * Z };
	int *i = malloc(sizeof(int) * 3 * R), *j = malloc(sizeof(int) * 3 * R);
	double *w = malloc(sizeof(double) * 3 * R);
	int arity[] = { 5, 3, 6, 12 }, *leaf_of = malloc(sizeof(int) * R);
	size_t c = 0;

	for (int r = 0; r < R; r++) {
		int x = r % X, y = r / X % Y, z = r / (X * Y);
		if (x + 1 < X)
			i[c] = r, j[c] = r + 1, w[c++] = 1000;
		if (y + 1 < Y)
			i[c] = r, j[c] = r + X, w[c++] = 1000;
		if (z + 1 < Z)
			i[c] = r, j[c] = r + X * Y, w[c++] = 1000;
	}
	tm_matrix *m = NULL;
	tm_matrix_from_entries(R, c, i, j, w, &m, NULL);
	tm_tree *t = tm_tree_regular(4, arity, NULL);
	tm__map_top_down(t, m, leaf_of, NULL);
	double grid_cuts = tm_cost_tree(t, m, leaf_of);
	tm__map_top_down_multilevel(t, m, leaf_of, NULL);
	double multilevel = tm_cost_tree(t, m, leaf_of);
	CHECK(tm_map(TM_ALGO_TREEMATCH, t, m, leaf_of, NULL) == TM_OK &&
	      valid_placement(t, leaf_of, R),
	      "3D stencil of 1,080 ranks: one rank per core");
	double chosen = tm_cost_tree(t, m, leaf_of);
	CHECK(chosen <= grid_cuts && chosen <= multilevel,
	      "3D stencil of 1,080 ranks: treematch (%g) no worse than top-down "
	      "with grid cuts (%g) or multilevel cuts only (%g)", chosen,
	      grid_cuts, multilevel);
	free(i);
	free(j);
	free(w);
	free(leaf_of);
	tm_matrix_free(m);
	tm_tree_free(t);
}

int main(void)
{
	refine_from_stripes();
	unequal_sizes();
	planted_groups();
	treematch_takes_the_cheaper_path();
	return check_status();
}
