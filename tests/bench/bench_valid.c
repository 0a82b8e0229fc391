/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_valid.c - placements the benchmark may compare: one rank per core.
 *
 * scotch_gmap balances load within a tolerance (-b, 5 % by default), so on
 * a tleaf target it may put two vertices on one leaf: two ranks sharing a
 * core, which no binding can run at full speed and the helper never
 * returns.  Pricing such a mapping as it is would credit Scotch with pairs
 * that cost nothing because they overload a core.  A user given that
 * mapping would have to move the extra ranks to the cores it left idle;
 * bench_repair does that as well as one move at a time can (each extra
 * rank, in rank order, to the idle leaf where it costs least), and the
 * repaired placement is what the table prices.  (-b0 gives one-to-one
 * mappings but costs Scotch 10-30 % on these cases, so it is not used.)
 */
#include <config.h>

#include <stdlib.h>

#include "bench_valid.h"
#include "place/cost_internal.h"


int bench_overloaded(const tm_tree *t, int n, const int *leaf_of)
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

int bench_repair(const tm_tree *t, const tm_matrix *m, int *leaf_of)
{
	int L = t->nleaves, moved = 0;
	char *taken = calloc((size_t)L, 1);
	int *anc = tm__leaf_ancestors(t);

	if (!taken || !anc) {
		free(taken);
		free(anc);
		return -1;
	}
	/* the first rank on a leaf keeps it; the others are the extra ones */
	int *extra = malloc(sizeof(int) * (size_t)m->n + 1);
	int nextra = 0;
	if (!extra) {
		free(taken);
		free(anc);
		return -1;
	}
	for (int r = 0; r < m->n; r++) {
		if (taken[leaf_of[r]])
			extra[nextra++] = r;
		taken[leaf_of[r]] = 1;
	}
	for (int i = 0; i < nextra; i++) {
		int r = extra[i], from = leaf_of[r], best = -1;
		double best_delta = 0;

		for (int l = 0; l < L; l++) {
			if (taken[l])
				continue;
			double delta = tm__move_delta(t, anc, m, leaf_of, r, from,
						     l, -1);
			if (best < 0 || delta < best_delta) {
				best = l;
				best_delta = delta;
			}
		}
		if (best < 0)
			break; /* more ranks than leaves: cannot happen here */
		leaf_of[r] = best;
		taken[best] = 1;
		moved++;
	}
	free(extra);
	free(taken);
	free(anc);
	return moved;
}
