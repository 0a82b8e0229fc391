/*
 * strategy.c - the "treematch" placement: several ways to build a
 * placement, each polished by exact refinement, and the cheapest wins.
 *
 * No single method is best everywhere.  TreeMatch's bottom-up grouping (the
 * paper) finds the optimum of hierarchical patterns, where recursive
 * bisection can cut a planted group in two; top-down partitioning (as
 * Scotch does) cuts stencils and random graphs better, where greedy
 * grouping strands ranks; and applications often number their ranks so
 * that the plain packed order is already good (NAS CG).  Each is cheap
 * next to reading the matrix, and costs are exact, so trying them all and
 * keeping the cheapest is both better and deterministic (ties go to the
 * first in the list below).
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "map_internal.h"
#include "tm_cost.h"

typedef tm_status (*strategy_fn)(const tm_tree *t, const tm_matrix *m,
				 int *leaf_of, tm_error *err);

static tm_status packed(const tm_tree *t, const tm_matrix *m, int *leaf_of,
			tm_error *err)
{
	(void)err;
	tm_map_packed(t, m->n, leaf_of);
	return TM_OK;
}

/* Top-down with ranks spread over all children: only differs from
 * tm_map_top_down when the machine has idle leaves. */
static tm_status spread(const tm_tree *t, const tm_matrix *m, int *leaf_of,
			tm_error *err)
{
	if (m->n == t->nleaves)
		return tm_map_top_down(t, m, leaf_of, err);
	return tm_map_top_down_spread(t, m, leaf_of, err);
}

static const strategy_fn strategies[] = {
	tm_map_bottom_up,
	tm_map_top_down,
	spread,
	packed,
};

/* Refining is what costs time, and it rarely lifts a placement past one
 * that was much better before: refine the best and those close to it. */
#define WORTH_REFINING 1.05

tm_status tm_map_treematch(const tm_tree *t, const tm_matrix *m,
			   int *leaf_of, tm_error *err)
{
	enum { N = sizeof(strategies) / sizeof(*strategies) };
	int *placed[N] = { NULL };
	double cost[N], best = 0;
	int chosen = -1;
	tm_status st = TM_OK;

	for (int s = 0; s < N && st == TM_OK; s++) {
		placed[s] = malloc(sizeof(int) * ((size_t)m->n + 1));
		if (!placed[s])
			st = tm_error_nomem(err);
		else
			st = strategies[s](t, m, placed[s], err);
		if (st == TM_OK)
			cost[s] = tm_cost_tree(t, m, placed[s]);
	}
	double first = 0;
	for (int s = 0; s < N && st == TM_OK; s++)
		if (s == 0 || cost[s] < first)
			first = cost[s];
	for (int s = 0; s < N && st == TM_OK; s++) {
		if (cost[s] > first * WORTH_REFINING)
			continue;
		st = tm_refine(t, m, placed[s], err);
		if (st != TM_OK)
			break;
		cost[s] = tm_cost_tree(t, m, placed[s]);
		if (chosen < 0 || cost[s] < best) {
			best = cost[s];
			chosen = s;
		}
	}
	if (st == TM_OK)
		memcpy(leaf_of, placed[chosen], sizeof(int) * (size_t)m->n);
	for (int s = 0; s < N; s++)
		free(placed[s]);
	return st;
}
