/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cost.c - tree cost and hop-bytes of a placement (see tm_cost.h), and
 * the ancestor table that prices one pair (cost_internal.h). */
#include <config.h>

#include <stdlib.h>

#include "place/cost_internal.h"
#include "tm_cost.h"

int *tm__leaf_ancestors(const tm_tree *t)
{
	int L = t->nleaves;
	int *anc = malloc(sizeof(*anc) * (size_t)L * (size_t)(t->depth + 1));

	if (!anc)
		return NULL;
	for (int l = 0; l < L; l++)
		anc[t->depth * L + l] = t->level_start[t->depth] + l;
	for (int d = t->depth - 1; d >= 0; d--)
		for (int l = 0; l < L; l++)
			anc[d * L + l] = t->parent[anc[(d + 1) * L + l]];
	return anc;
}

/* Sums over pairs (each once: the matrix stores both (i, j) and (j, i))
 * of w_ij times the cost and the hop count of their lowest common
 * ancestor's level, both in one pass: the helper reports both, and on a
 * matrix of a million weights each pass is tens of milliseconds.  With the
 * ancestors of every leaf tabled first, a pair compares two table entries
 * per level instead of walking both leaves' parent links. */
static void weighted_sums(const tm_tree *t, const tm_matrix *m,
			  const int *leaf_of, double *cost, double *hops)
{
	int L = t->nleaves, D = t->depth;
	int *anc = tm__leaf_ancestors(t);

	*cost = *hops = 0;
	for (int i = 0; i < m->n; i++) {
		int li = leaf_of[i];

		for (int64_t e = m->row_start[i]; e < m->row_start[i + 1]; e++) {
			int j = m->col[e], lj = leaf_of[j], d = D;

			if (j <= i)
				continue;
			if (!anc) /* out of memory: the slow way */
				d = tm_tree_lca_depth(t, li, lj);
			else
				while (d > 0 && anc[d * L + li] != anc[d * L + lj])
					d--;
			*cost += m->weight[e] * t->level_cost[d];
			*hops += m->weight[e] * t->level_hops[d];
		}
	}
	free(anc);
}

double tm_cost_tree(const tm_tree *t, const tm_matrix *m, const int *leaf_of)
{
	double cost, hops;

	weighted_sums(t, m, leaf_of, &cost, &hops);
	return cost;
}

void tm_cost_both(const tm_tree *t, const tm_matrix *m, const int *leaf_of,
		  double *cost, double *hop_bytes)
{
	weighted_sums(t, m, leaf_of, cost, hop_bytes);
}
