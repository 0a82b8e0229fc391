/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * optimal.c - a certificate that a placement is optimal, so that the
 * search can stop there (tm_cost.h).
 *
 * A lower bound on every placement's cost, rank by rank: a leaf shares its
 * depth-d ancestor with at most K_d other leaves (the largest subtree at
 * depth d, less itself), so at most K_d of a rank's partners can meet it at
 * depth d or deeper.  A pair costs C_0 minus the drops C_{d-1} - C_d (all
 * >= 0) of every level d its two leaves share, so a rank's own cost is at
 * least
 *
 *     C_0 * (its total weight) - sum_d (C_{d-1} - C_d) * top_{K_d}
 *
 * where top_K is the sum of its K heaviest weights, and the placement's
 * cost (half the sum of the ranks' own costs: each pair is counted from
 * both ends) is at least half the sum of these.  A placement reaches that
 * bound, and is then optimal, exactly when every rank reaches its own: at
 * every level whose drop is positive, the partners sharing its depth-d
 * ancestor are as many as can be (K_d, or all of them) and none outside is
 * heavier than one inside.  That is a tally per partner and a few
 * comparisons per level, no sum, so no rounding; and a placement that is
 * not optimal usually fails on its first rank.
 *
 * Patterns that nest like the tree (the benchmark's planted hierarchies,
 * groups of ranks that exchange most among themselves) reach the bound
 * with the bottom-up grouping; stencils spread over several core groups
 * rarely do (the ranks on a group's edge have neighbours outside it that
 * outweigh some inside).
 */
#include <config.h>

#include <float.h>
#include <stdlib.h>


#include "tm_cost.h"
#include "place/cost_internal.h"

/* A rank's partners whose leaves share a given depth with its own: how
 * many, and the lightest and heaviest weight among them. */
typedef struct tally {
	long count;
	double lightest, heaviest;
} tally;

/* Whether rank r gets its best case: near[d] = K_d.  Each partner is
 * tallied once, at the depth its leaf shares with r's (at[] has depth + 1
 * entries); the levels are then read off the deeper and the shallower
 * tallies. */
static int rank_is_optimal(const tm_tree *t, const tm_matrix *m,
			   const int *leaf_of, const int *anc, const long *near,
			   int r, tally *at)
{
	int D = t->depth, L = t->nleaves, lr = leaf_of[r];
	long deg = (long)(m->row_start[r + 1] - m->row_start[r]);

	for (int d = 0; d <= D; d++)
		at[d] = (tally){ 0, DBL_MAX, -DBL_MAX };
	for (int64_t e = m->row_start[r]; e < m->row_start[r + 1]; e++) {
		int lj = leaf_of[m->col[e]], shared = D;
		double w = m->weight[e];

		while (shared > 0 && anc[shared * L + lr] != anc[shared * L + lj])
			shared--;
		at[shared].count++;
		if (w < at[shared].lightest)
			at[shared].lightest = w;
		if (w > at[shared].heaviest)
			at[shared].heaviest = w;
	}
	/* from the deepest level up: partners sharing depth d or deeper are
	 * "in", the others "out" */
	long in = 0;
	double min_in = DBL_MAX;
	for (int d = D; d >= 1; d--) {
		in += at[d].count;
		if (at[d].lightest < min_in)
			min_in = at[d].lightest;
		if (t->level_cost[d - 1] <= t->level_cost[d])
			continue; /* no drop: where the partners are is free */
		double max_out = -DBL_MAX;
		for (int s = 0; s < d; s++)
			if (at[s].heaviest > max_out)
				max_out = at[s].heaviest;
		long want = near[d] < deg ? near[d] : deg;
		if (in != want || (in < deg && min_in < max_out))
			return 0;
	}
	return 1;
}

tm_status tm_placement_is_optimal(const tm_tree *t, const tm_matrix *m,
				  const int *leaf_of, int *optimal,
				  tm_error *err)
{
	int D = t->depth;
	long *near = calloc((size_t)D + 1, sizeof(*near));
	tally *at = malloc(sizeof(*at) * ((size_t)D + 1));
	int *anc = tm__leaf_ancestors(t);
	tm_status st = TM_OK;

	*optimal = 0;
	if (!near || !at || !anc) {
		st = tm_error_nomem(err);
		goto out;
	}
	/* near[d] = K_d: the most other leaves below one depth-d node */
	for (int d = 1; d <= D; d++)
		for (int v = t->level_start[d]; v < t->level_start[d + 1]; v++)
			if (tm_tree_leaves_below(t, v) - 1 > near[d])
				near[d] = tm_tree_leaves_below(t, v) - 1;
	*optimal = 1;
	for (int r = 0; r < m->n && *optimal; r++)
		*optimal = rank_is_optimal(t, m, leaf_of, anc, near, r, at);
out:
	free(near);
	free(at);
	free(anc);
	return st;
}
