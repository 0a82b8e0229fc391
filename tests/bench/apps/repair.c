/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * repair.c - one rank per core.  scotch_gmap balances load only within a
 * tolerance (5 % by default), so on a tleaf target it may put two ranks on
 * one core, which no binding runs at full speed and the simulator would
 * not even accept (one host per core, one rank per host).  A user given
 * that mapping has to move the extra ranks to the cores it left idle; this
 * does it as well as one move at a time can: each extra rank, in rank
 * order, to the idle leaf where its tree cost is lowest.  (The same rule
 * as tests/bench/bench_valid.c, written on the public API only.)
 */
#include <config.h>

#include <stdlib.h>

#include "tmsim.h"

int tmsim_overloaded(const tm_tree *t, int n, const int *leaf_of)
{
	char *taken = calloc((size_t)t->nleaves, 1);
	int extra = 0;

	if (!taken)
		return -1;
	for (int r = 0; r < n; r++) {
		if (leaf_of[r] < 0 || leaf_of[r] >= t->nleaves) {
			extra = -1;
			break;
		}
		extra += taken[leaf_of[r]];
		taken[leaf_of[r]] = 1;
	}
	free(taken);
	return extra;
}

/* What rank r's pairs cost with r on leaf l. */
static double cost_at(const tm_tree *t, const tm_matrix *m,
		      const int *leaf_of, int r, int l)
{
	double c = 0;

	for (int64_t e = m->row_start[r]; e < m->row_start[r + 1]; e++)
		c += m->weight[e] *
		     t->level_cost[tm_tree_lca_depth(t, l, leaf_of[m->col[e]])];
	return c;
}

int tmsim_repair(const tm_tree *t, const tm_matrix *m, int *leaf_of)
{
	char *taken = calloc((size_t)t->nleaves, 1);
	int *extra = malloc(((size_t)m->n + 1) * sizeof(int));
	int nextra = 0, moved = 0;

	if (!taken || !extra) {
		free(taken);
		free(extra);
		return -1;
	}
	/* the first rank on a leaf keeps it */
	for (int r = 0; r < m->n; r++) {
		if (taken[leaf_of[r]])
			extra[nextra++] = r;
		taken[leaf_of[r]] = 1;
	}
	for (int i = 0; i < nextra; i++) {
		int r = extra[i], best = -1;
		double best_cost = 0;

		for (int l = 0; l < t->nleaves; l++) {
			if (taken[l])
				continue;
			double c = cost_at(t, m, leaf_of, r, l);
			if (best < 0 || c < best_cost) {
				best = l;
				best_cost = c;
			}
		}
		if (best < 0)
			break; /* more ranks than cores: refused earlier */
		leaf_of[r] = best;
		taken[best] = 1;
		moved++;
	}
	free(extra);
	free(taken);
	return moved;
}
