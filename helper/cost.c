/* cost.c - tree cost and hop-bytes of a placement (see tm_cost.h). */
#include <config.h>

#include "tm_cost.h"

/* Sum over pairs (each once: the matrix stores both (i, j) and (j, i)) of
 * w_ij times the per-level value of their lowest common ancestor. */
static double weighted_sum(const tm_tree *t, const tm_matrix *m,
			   const int *leaf_of, int use_hops)
{
	double sum = 0;

	for (int i = 0; i < m->n; i++) {
		for (int64_t e = m->row_start[i]; e < m->row_start[i + 1]; e++) {
			int j = m->col[e];

			if (j <= i)
				continue;
			int d = tm_tree_lca_depth(t, leaf_of[i], leaf_of[j]);
			sum += m->weight[e] * (use_hops ? t->level_hops[d]
					       : t->level_cost[d]);
		}
	}
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
