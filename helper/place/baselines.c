/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * baselines.c - the placements a user gets without TreeMatch, to compare
 * against: packed (fill the leaves in order) and round-robin (deal the
 * ranks over the top-level subtrees, like cards).
 */
#include <config.h>

#include <stdlib.h>

#include "place/policy.h"

void tm__map_packed(const tm_tree *t, int n, int *leaf_of)
{
	(void)t;
	for (int r = 0; r < n; r++)
		leaf_of[r] = r;
}

/* Rank i goes to top-level subtree i mod k (skipping full ones), on the
 * first free leaf of that subtree in left-to-right order. */
tm_status tm__map_round_robin(const tm_tree *t, int n, int *leaf_of,
			     tm_error *err)
{
	if (t->depth == 0) {
		tm__map_packed(t, n, leaf_of);
		return TM_OK;
	}
	int k = t->arity[0];
	int *next = malloc(sizeof(*next) * (size_t)k); /* next free leaf */
	int *end = malloc(sizeof(*end) * (size_t)k);   /* one past its last */

	if (!next || !end) {
		free(next);
		free(end);
		return tm_error_nomem(err);
	}
	for (int s = 0; s < k; s++)
		tm_tree_leaf_range(t, t->first_child[0] + s, &next[s], &end[s]);
	int s = 0;
	for (int r = 0; r < n; r++) {
		while (next[s] == end[s]) /* n <= nleaves: terminates */
			s = (s + 1) % k;
		leaf_of[r] = next[s]++;
		s = (s + 1) % k;
	}
	free(next);
	free(end);
	return TM_OK;
}

tm_status tm__place_packed(const tm_tree *t, const tm_matrix *m,
			   const tm_map_options *opt, int *leaf_of,
			   tm_error *err)
{
	(void)opt;
	(void)err;
	tm__map_packed(t, m->n, leaf_of);
	return TM_OK;
}

tm_status tm__place_round_robin(const tm_tree *t, const tm_matrix *m,
				const tm_map_options *opt, int *leaf_of,
				tm_error *err)
{
	(void)opt;
	return tm__map_round_robin(t, m->n, leaf_of, err);
}
