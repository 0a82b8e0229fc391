/* cost.c - tree cost and hop-bytes of a placement (see tm_cost.h). */
#include <config.h>

#include <stdlib.h>

#include "map_internal.h"
#include "tm_cost.h"

/* Sum over pairs (each once: the matrix stores both (i, j) and (j, i)) of
 * w_ij times the per-level value of their lowest common ancestor.  With
 * the ancestors of every leaf tabled first, a pair compares two table
 * entries per level instead of walking both leaves' parent links: several
 * times faster, and costs are taken often. */
static double weighted_sum(const tm_tree *t, const tm_matrix *m,
			   const int *leaf_of, int use_hops)
{
	int L = t->nleaves, D = t->depth;
	int *anc = tm_leaf_ancestors(t);
	double sum = 0;

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
			sum += m->weight[e] * (use_hops ? t->level_hops[d]
					       : t->level_cost[d]);
		}
	}
	free(anc);
	return sum;
}

double tm_cost_tree(const tm_tree *t, const tm_matrix *m, const int *leaf_of)
{
	return weighted_sum(t, m, leaf_of, 0);
}

double tm_cost_hop_bytes(const tm_tree *t, const tm_matrix *m,
			 const int *leaf_of)
{
	return weighted_sum(t, m, leaf_of, 1);
}
