/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_optimal.c - the optimality certificate (helper/place/treematch/optimal.c) that ends
 * the "treematch" search early: every placement it certifies must cost
 * exactly the least any placement costs, found here by trying them all on
 * machines small enough for that, regular and not, full and not.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "fixtures.h"
#include "tm_cost.h"
#include "tm_map.h"

typedef struct search {
	const tm_tree *t;
	const tm_matrix *m;
	int *leaf_of;
	char *used;
	double best;       /* least cost of all placements */
	double certified;  /* largest cost of a certified placement, or -1 */
	long count;        /* certified placements */
} search;

/* Every placement of ranks r..n-1 on the leaves left free. */
static void try_all(search *s, int r)
{
	if (r == s->m->n) {
		double c = tm_cost_tree(s->t, s->m, s->leaf_of);
		int optimal = 0;

		if (c < s->best)
			s->best = c;
		tm_placement_is_optimal(s->t, s->m, s->leaf_of, &optimal, NULL);
		if (optimal) {
			s->count++;
			if (c > s->certified)
				s->certified = c;
		}
		return;
	}
	for (int l = 0; l < s->t->nleaves; l++) {
		if (s->used[l])
			continue;
		s->used[l] = 1;
		s->leaf_of[r] = l;
		try_all(s, r + 1);
		s->used[l] = 0;
	}
}

/* Returns how many placements were certified; checks that each is one of
 * the cheapest. */
static long exhaustive(const char *what, const tm_tree *t, const tm_matrix *m)
{
	int leaf_of[16];
	char used[16] = { 0 };
	search s = { t, m, leaf_of, used, INFINITY, -1, 0 };

	try_all(&s, 0);
	CHECK(s.count == 0 || fabs(s.certified - s.best) <= 1e-9 * s.best,
	      "%s: every placement proven optimal costs the least (%g; %ld "
	      "proven)", what, s.best, s.count);
	return s.count;
}

/* Weights in [0, 100) on a fraction of the pairs, with ties. */
static tm_matrix *random_matrix(int n, double density)
{
	double w[256] = { 0 };

	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++)
			if (uniform() < density)
				w[a * n + b] = floor(uniform() * 4) * 25 + 1;
	return dense_matrix(n, w);
}

static void sound_on_every_small_machine(void)
{
	static const struct {
		const char *name;
		int depth, arity[3];
	} shapes[] = {
		{ "2x3", 2, { 2, 3 } },
		{ "2x2x2", 3, { 2, 2, 2 } },
		{ "3x2", 2, { 3, 2 } },
	};
	long proven = 0;

	rng_state = 7;
	for (size_t k = 0; k < sizeof(shapes) / sizeof(*shapes); k++) {
		tm_tree *t = tm_tree_regular(shapes[k].depth, shapes[k].arity,
					     NULL);
		for (int n = 2; n <= t->nleaves; n += t->nleaves > 6 ? 3 : 2)
			for (int trial = 0; trial < 4; trial++) {
				char what[64];
				tm_matrix *m = random_matrix(n, 0.2 + 0.25 * trial);
				snprintf(what, sizeof(what), "%s, %d ranks, matrix %d",
					 shapes[k].name, n, trial);
				proven += exhaustive(what, t, m);
				tm_matrix_free(m);
			}
		tm_tree_free(t);
	}
	/* sparse patterns on roomy machines are easy to place perfectly */
	CHECK(proven > 0, "some random placements are proven optimal (%ld)",
	      proven);

	/* a node Slurm gave in part: 3 cores (2 + 1 on L2s) and 2 (1 + 1) */
	int level_size[] = { 1, 2, 4, 5 };
	int parent[] = { -1, 0, 0, 1, 1, 2, 2, 3, 3, 4, 5, 6 };
	tm_tree *t = tm_tree_build(3, level_size, parent, NULL);
	proven = 0;
	for (int trial = 0; trial < 6; trial++) {
		tm_matrix *m = random_matrix(3 + trial % 3, 0.2 + 0.1 * trial);
		proven += exhaustive("irregular 3+2 cores", t, m);
		tm_matrix_free(m);
	}
	CHECK(proven > 0, "irregular 3+2 cores: some placements are proven "
	      "optimal (%ld)", proven);
	tm_tree_free(t);
}

static void planted_hierarchies_are_proven(void)
{
	int arity[] = { 2, 2, 2 }, plant[8], leaf_of[8], optimal = 0;
	tm_tree *t = tm_tree_regular(3, arity, NULL);

	rng_state = 11;
	tm_matrix *m = planted_matrix(t, plant);
	CHECK(exhaustive("planted 2x2x2", t, m) > 0 &&
	      tm_placement_is_optimal(t, m, plant, &optimal, NULL) == TM_OK &&
	      optimal, "planted 2x2x2: the planted placement is proven optimal");
	tm_map(TM_ALGO_PACKED, t, m, leaf_of, NULL);
	tm_placement_is_optimal(t, m, leaf_of, &optimal, NULL);
	CHECK(!optimal, "planted 2x2x2: packed, which costs more, is not");
	tm_matrix_free(m);
	tm_tree_free(t);

	/* too large to try every placement: TreeMatch's answer is proven */
	int big[] = { 4, 4, 4, 2 }, plant128[128], got[128];
	t = tm_tree_regular(4, big, NULL);
	m = planted_matrix(t, plant128);
	tm_map(TM_ALGO_TREEMATCH, t, m, got, NULL);
	tm_placement_is_optimal(t, m, got, &optimal, NULL);
	CHECK(optimal && fabs(tm_cost_tree(t, m, got) -
			      tm_cost_tree(t, m, plant128)) <=
			 1e-9 * tm_cost_tree(t, m, plant128),
	      "planted 4x4x4x2: TreeMatch's placement is proven optimal and "
	      "costs what the planted one does");
	tm_matrix_free(m);
	tm_tree_free(t);
}

/* A ring cannot give every rank both neighbours in its own core pair, so
 * no placement of it reaches the bound, not even the best. */
static void rings_are_never_proven(void)
{
	int arity[] = { 2, 2, 2 };
	double w[64] = { 0 };
	tm_tree *t = tm_tree_regular(3, arity, NULL);

	for (int r = 0; r < 8; r++)
		w[r * 8 + (r + 1) % 8] = 100;
	tm_matrix *m = dense_matrix(8, w);
	CHECK(exhaustive("ring of 8 on 2x2x2", t, m) == 0,
	      "ring of 8 on 2x2x2: no placement is proven optimal");
	tm_matrix_free(m);
	tm_tree_free(t);
}

int main(void)
{
	sound_on_every_small_machine();
	planted_hierarchies_are_proven();
	rings_are_never_proven();
	return check_status();
}
