/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * place/cost_internal.h - what one pair or one move costs, for the
 * policies that search (cost.c).  The public side is tm_cost.h.
 */
#ifndef TM_PLACE_COST_INTERNAL_H
#define TM_PLACE_COST_INTERNAL_H

#include <stdint.h>

#include "tm_matrix.h"
#include "tm_tree.h"

/* For every leaf, its ancestor at each depth: anc[d * nleaves + l]; lets
 * the policies compare leaves without walking the tree.  NULL on ENOMEM. */
int *tm__leaf_ancestors(const tm_tree *t);

/* Cost of the pair of leaves a, b given the ancestor table. */
static inline double tm__pair_cost(const tm_tree *t, const int *anc, int a,
				   int b)
{
	int d = t->depth;

	while (d > 0 && anc[d * t->nleaves + a] != anc[d * t->nleaves + b])
		d--;
	return t->level_cost[d];
}

/* Change of rank x's cost if it moved from leaf `from` to leaf `to`, the
 * other ranks at leaf_of[]; `skip` is the rank it swaps with, whose
 * distance to x does not change (-1: none). */
static inline double tm__move_delta(const tm_tree *t, const int *anc,
				    const tm_matrix *m, const int *leaf_of,
				    int x, int from, int to, int skip)
{
	double delta = 0;

	for (int64_t e = m->row_start[x]; e < m->row_start[x + 1]; e++) {
		int k = m->col[e];

		if (k == skip)
			continue;
		delta += m->weight[e] * (tm__pair_cost(t, anc, to, leaf_of[k]) -
					 tm__pair_cost(t, anc, from, leaf_of[k]));
	}
	return delta;
}

#endif /* TM_PLACE_COST_INTERNAL_H */
