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
 * heavier than one inside.  That is a count and a comparison per partner
 * and level, no sum, so no rounding; and a placement that is not optimal
 * usually fails on its first rank.
 *
 * Patterns that nest like the tree (the benchmark's planted hierarchies,
 * groups of ranks that exchange most among themselves) reach the bound
 * with the bottom-up grouping; stencils never do (a grid cannot give every
 * rank all of its neighbours in one core group).
 */
#include <config.h>

#include <float.h>
#include <stdlib.h>

#include "map_internal.h"
#include "tm_cost.h"

/* Whether rank r gets its best case: near[d] = K_d, drop[d] > 0 where the
 * level counts; count, min_in and max_out are scratch of depth + 1. */
static int rank_is_optimal(const tm_tree *t, const tm_matrix *m,
			   const int *leaf_of, const int *anc, const long *near,
			   int r, long *count, double *min_in, double *max_out)
{
	int D = t->depth, L = t->nleaves, lr = leaf_of[r];
	long deg = (long)(m->row_start[r + 1] - m->row_start[r]);

	for (int d = 1; d <= D; d++) {
		count[d] = 0;
		min_in[d] = DBL_MAX;
		max_out[d] = -DBL_MAX;
	}
	for (int64_t e = m->row_start[r]; e < m->row_start[r + 1]; e++) {
		int lj = leaf_of[m->col[e]], shared = D;
		double w = m->weight[e];

		while (shared > 0 && anc[shared * L + lr] != anc[shared * L + lj])
			shared--;
		for (int d = 1; d <= shared; d++) {
			count[d]++;
			if (w < min_in[d])
				min_in[d] = w;
		}
		for (int d = shared + 1; d <= D; d++)
			if (w > max_out[d])
				max_out[d] = w;
	}
	for (int d = 1; d <= D; d++) {
		if (t->level_cost[d - 1] <= t->level_cost[d])
			continue; /* no drop: where the partners are is free */
		long want = near[d] < deg ? near[d] : deg;
		if (count[d] != want || (count[d] < deg && min_in[d] < max_out[d]))
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
	long *count = malloc(sizeof(*count) * ((size_t)D + 1));
	double *min_in = malloc(sizeof(*min_in) * ((size_t)D + 1));
	double *max_out = malloc(sizeof(*max_out) * ((size_t)D + 1));
	int *anc = tm_leaf_ancestors(t);
	tm_status st = TM_OK;

	*optimal = 0;
	if (!near || !count || !min_in || !max_out || !anc) {
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
		*optimal = rank_is_optimal(t, m, leaf_of, anc, near, r, count,
					   min_in, max_out);
out:
	free(near);
	free(count);
	free(min_in);
	free(max_out);
	free(anc);
	return st;
}
