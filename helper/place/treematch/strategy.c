/* SPDX-License-Identifier: GPL-2.0-or-later */
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
 * first in the list below).  A placement that optimal.c proves optimal
 * ends the search: on patterns that nest like the tree, the bottom-up
 * grouping's answer spares the top-down partitioning and the refinement.
 * Where light traffic between many pairs (an allreduce recorded between
 * all of them, a gather to one rank) hides a stencil from the partitioner,
 * the top-down path also runs on the heavy traffic alone (skeleton.c).
 *
 * Last, the rank order itself (packed, unrefined; with idle cores, the
 * ranks in order spread over the children) wins every tie: a placement
 * that is not strictly cheaper than that by the tree cost
 * moves ranks for nothing the cost can see, and what it cannot see then
 * decides.  An MD code on a 48-core EPYC 7451 (doc/bench-apps.md) is the
 * case in point: treematch swapped the z layers between the two sockets at
 * exactly packed's cost, hop-bytes and even a lower peak load on the
 * socket links, and ran 2.4 % slower in simulation, because the layers
 * compute unequal amounts and the two busiest then talked across the
 * sockets.  A matrix holds volumes, not the critical path; the
 * application's order often carries it (ranks numbered by the domain
 * they own), so an equal cost is no reason to leave it.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "place/policy.h"
#include "tm_cost.h"
#include "place/treematch/treematch.h"

typedef tm_status (*strategy_fn)(const tm_tree *t, const tm_matrix *m,
				 int *leaf_of, tm_error *err);

static tm_status packed(const tm_tree *t, const tm_matrix *m, int *leaf_of,
			tm_error *err)
{
	(void)err;
	tm__map_packed(t, m->n, leaf_of);
	return TM_OK;
}

/* Whether a strategy can give something the others do not. */
static int always(const tm_tree *t, const tm_matrix *m)
{
	(void)t;
	(void)m;
	return 1;
}

/* TreeMatch's grouping needs a regular tree; on an irregular one (a node
 * Slurm gave in part) tm__map_bottom_up is top-down, already in the list. */
static int regular(const tm_tree *t, const tm_matrix *m)
{
	(void)m;
	return tm_tree_is_regular(t);
}

/* Spreading ranks over all children only differs from packing them when
 * the machine has idle leaves. */
static int idle_leaves(const tm_tree *t, const tm_matrix *m)
{
	return m->n < t->nleaves;
}

/* Whether to try the top-down path with multilevel cuts only: see
 * LARGE_GRID_RANKS in tuning.h. */

static int large_grid(const tm_tree *t, const tm_matrix *m)
{
	(void)t;
	if (m->n < LARGE_GRID_RANKS ||
	    m->row_start[m->n] > (int64_t)m->n * TM_GRID_TRIAL_MAX_DEGREE)
		return 0;

	int *dist = malloc(sizeof(int) * (size_t)m->n);
	int *queue = malloc(sizeof(int) * (size_t)m->n);
	int diameter = 0, log2n = 0;

	if (dist && queue) {
		/* from a peripheral vertex, its farthest is a diameter away */
		int edge = tm__farthest_vertex(m, 0, dist, queue);
		diameter = dist[tm__farthest_vertex(m, edge, dist, queue)];
	}
	free(dist);
	free(queue);
	while ((2L << log2n) <= m->n)
		log2n++;
	return 2 * diameter >= 3 * log2n;
}

/* Partitioning without the light edges: only where they hid the shape. */
static int light_edges(const tm_tree *t, const tm_matrix *m)
{
	(void)t;
	return tm__skeleton_differs(m);
}

/* The chosen placement gives way to the ranks' own order
 * (tm__map_in_order: packed, or with idle cores the same spread over the
 * children as the spreading strategy) when that costs no more; the file's
 * comment says why.  Costs are sums of integer-valued bytes times level
 * costs, exact in a double for any matrix that fits in memory; the
 * relative slack only covers fractional --level-costs, whose sums depend
 * on the order of the terms. */
static tm_status keep_rank_order_on_tie(const tm_tree *t,
					const tm_matrix *m, int *leaf_of,
					double chosen, tm_error *err)
{
	int *order = malloc(sizeof(int) * ((size_t)m->n + 1));
	tm_status st;

	if (!order)
		return tm_error_nomem(err);
	st = tm__map_in_order(t, m, order, err);
	if (st == TM_OK && tm_cost_tree(t, m, order) <= chosen * (1 + TIE_SLACK))
		memcpy(leaf_of, order, sizeof(int) * (size_t)m->n);
	free(order);
	return st;
}

static const struct strategy {
	strategy_fn build;
	int (*applies)(const tm_tree *t, const tm_matrix *m);
} strategies[] = {
	{ tm__map_bottom_up, regular },
	{ tm__map_top_down, always },
	{ tm__map_top_down_spread, idle_leaves },
	{ tm__map_top_down_multilevel, large_grid },
	{ tm__map_top_down_skeleton, light_edges },
	{ packed, always },
};

tm_status tm__place_treematch(const tm_tree *t, const tm_matrix *m,
			      const tm_map_options *opt, int *leaf_of,
			      tm_error *err)
{
	(void)opt;
	enum { N = sizeof(strategies) / sizeof(*strategies) };
	int *placed[N] = { NULL };
	double cost[N], best = 0;
	int chosen = -1, optimal = 0;
	tm_status st = TM_OK;

	for (int s = 0; s < N && st == TM_OK && chosen < 0; s++) {
		if (!strategies[s].applies(t, m))
			continue;
		placed[s] = malloc(sizeof(int) * ((size_t)m->n + 1));
		if (!placed[s])
			st = tm_error_nomem(err);
		else
			st = strategies[s].build(t, m, placed[s], err);
		if (st == TM_OK)
			st = tm_placement_is_optimal(t, m, placed[s], &optimal,
						     err);
		if (st == TM_OK)
			cost[s] = tm_cost_tree(t, m, placed[s]);
		if (st == TM_OK && optimal)
			chosen = s;
	}
	double first = 0;
	int have = 0;
	for (int s = 0; s < N && st == TM_OK && chosen < 0; s++)
		if (placed[s] && (!have || cost[s] < first)) {
			first = cost[s];
			have = 1;
		}
	for (int s = 0; s < N && st == TM_OK && have; s++) {
		if (!placed[s] || cost[s] > first * WORTH_REFINING)
			continue;
		st = tm__refine(t, m, placed[s], err);
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
	if (st == TM_OK)
		st = keep_rank_order_on_tie(t, m, leaf_of, cost[chosen], err);
	for (int s = 0; s < N; s++)
		free(placed[s]);
	return st;
}
