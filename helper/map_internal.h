/*
 * map_internal.h - the pieces the mapping algorithms are made of.
 * Not installed, not for the CLI: tm_map.h is the entry point.
 */
#ifndef TM_MAP_INTERNAL_H
#define TM_MAP_INTERNAL_H

#include "tm_error.h"
#include "tm_matrix.h"
#include "tm_tree.h"

/* The "treematch" placement: the cheapest of the strategies below, each
 * polished by tm_refine (strategy.c). */
tm_status tm_map_treematch(const tm_tree *t, const tm_matrix *m,
			   int *leaf_of, tm_error *err);

/* TreeMatch as the paper gives it, bottom-up on a regular tree (other
 * trees take the top-down path) (treematch.c). */
tm_status tm_map_bottom_up(const tm_tree *t, const tm_matrix *m,
			   int *leaf_of, tm_error *err);

/* Lower the tree cost of a placement by exact swaps and moves to idle
 * leaves near each rank's neighbours (refine.c). */
tm_status tm_refine(const tm_tree *t, const tm_matrix *m, int *leaf_of,
		    tm_error *err);

/* Top-down: split the ranks among the children of each node with
 * tm_partition, from the root down (kpartition.c).  Works on any tree,
 * regular or not. */
tm_status tm_map_top_down(const tm_tree *t, const tm_matrix *m,
			  int *leaf_of, tm_error *err);

/* The same, each node sharing its ranks among all its children rather
 * than as few as hold them (kpartition.c). */
tm_status tm_map_top_down_spread(const tm_tree *t, const tm_matrix *m,
				 int *leaf_of, tm_error *err);

/* The same as tm_map_top_down with multilevel cuts only, no cut grown on
 * the graph itself (kpartition.c): on some grids the greedy choice of the
 * lighter cut at each bisection leads to heavier splits below. */
tm_status tm_map_top_down_multilevel(const tm_tree *t, const tm_matrix *m,
				     int *leaf_of, tm_error *err);

/* TreeMatch's GroupProcesses for one level (group.c): split p virtual
 * processes into p / k groups of k.  Processes m->n..p-1 are dummies that
 * communicate with nobody (ExtendComMatrix); p is a multiple of k.  Group g
 * is members[g * k .. g * k + k - 1]. */
tm_status tm_group_processes(const tm_matrix *m, int p, int k, int *members,
			     tm_error *err);

/* Split the n vertices of m into nparts parts of exactly sizes[0..nparts-1]
 * vertices (they add up to n; a size may be 0), cutting as little weight as
 * it can: part_of[v] receives the part of vertex v; grid_trial as for
 * tm_bisect (kpartition.c). */
tm_status tm_partition(const tm_matrix *m, int nparts, const int *sizes,
		       int grid_trial, int *part_of, tm_error *err);

/* Split the vertices of g in two: side[v] = 0 for exactly size_a of them,
 * 1 for the others, with a light cut.  grid_trial: on a sparse graph (an
 * average degree up to TM_GRID_TRIAL_MAX_DEGREE), also grow a cut from
 * its periphery on the graph itself and keep the lighter of that and the
 * multilevel cut (bisect.c). */
enum { TM_GRID_TRIAL_MAX_DEGREE = 16 };

/* Breadth-first search of g from start: dist[v] receives v's distance (-1
 * where it is not reached); returns the last vertex reached, one of the
 * farthest.  dist and queue hold g->n entries (bisect.c). */
int tm_farthest_vertex(const tm_matrix *g, int start, int *dist, int *queue);
tm_status tm_bisect(const tm_matrix *g, int size_a, int grid_trial, char *side,
		    tm_error *err);

/* Improve a split of g (side[] as tm_bisect gives it) by Fiduccia-
 * Mattheyses passes, side 0 weighing size_a +- tol at the end; vw: the
 * vertices' weights, NULL for one rank each, which also makes the sizes
 * exact (bisect.c). */
tm_status tm_bisect_refine(const tm_matrix *g, const int *vw, int size_a,
			   int tol, char *side, tm_error *err);

/* Improve a split of m into nparts parts (part_of[], as tm_partition
 * gives it) by a V-cycle: coarser copies of m that keep the parts, and at
 * each, from the coarsest, Fiduccia-Mattheyses between every two parts
 * that exchange much; every part keeps its size (vcycle.c). */
tm_status tm_partition_refine(const tm_matrix *m, int nparts, int *part_of,
			      tm_error *err);

/* Baselines (baselines.c, mpipp.c). */
void tm_map_packed(const tm_tree *t, int n, int *leaf_of);
tm_status tm_map_round_robin(const tm_tree *t, int n, int *leaf_of,
			     tm_error *err);
tm_status tm_map_mpipp(const tm_tree *t, const tm_matrix *m, int starts,
		       int *leaf_of, tm_error *err);

/* ---- the seeds' other policies (doc/policies.md) ------------------- */

/* SetMatch (setmatch.c).  Phases I and II: set_of[r] receives the
 * application set of rank r; sets are numbered in the order of their
 * smallest rank.  Returns the number of sets, or -1 when out of memory. */
int tm_setmatch_sets(const tm_matrix *m, double threshold, int *set_of);
tm_status tm_map_setmatch(const tm_tree *t, const tm_matrix *m,
			  double threshold, int set_cap, int *leaf_of,
			  tm_error *err);

/* Minimum-cost perfect assignment of the n x n matrix cost (row-major):
 * row i gets column col_of[i].  O(n^3), deterministic (hungarian.c). */
tm_status tm_hungarian(int n, const double *cost, int *col_of,
		       tm_error *err);

/* Hierarchical assignment (hierarchical.c).  tm_hier_group splits the u
 * units of the symmetric u x u weights w into u / k groups of k (u is a
 * multiple of k): group g is members[g * k .. g * k + k - 1], its units
 * ascending, groups in the order of their first unit. */
tm_status tm_hier_group(const double *w, int u, int k, int *members,
			tm_error *err);
/* The (u / k) x (u / k) weights between those groups: the sum of the
 * weights between their units (0 on the diagonal). */
void tm_hier_aggregate(const double *w, int u, const int *members, int k,
		       double *out);
/* The order of the ranks on the regular tree of the given arities (root
 * first): order[p] is the rank on leaf p, or -1 for a leaf left free;
 * prod(arity) entries. */
tm_status tm_hier_order(const tm_matrix *m, int depth, const int *arity,
			int *order, tm_error *err);
tm_status tm_map_hierarchical(const tm_tree *t, const tm_matrix *m,
			      int *leaf_of, tm_error *err);

/* Congestion-aware spread (spread.c).  tm_numa_depth: the depth of the
 * nodes spread treats as NUMA nodes (the deepest level whose name has
 * "+NUMA", else 1: the top-level subtrees). */
int tm_numa_depth(const tm_tree *t);
tm_status tm_map_spread(const tm_tree *t, const tm_matrix *m,
			const int *previous, int *leaf_of, tm_error *err);

/* Sort idx[0..n-1] by increasing key[idx[i]]; equal keys keep their order
 * (sort.c).  Returns -1 when out of memory. */
int tm_sort_indices(long *idx, long n, const double *key);

/* For every leaf, its ancestor at each depth: anc[d * nleaves + l]; lets
 * the algorithms compare leaves without walking the tree.  NULL on ENOMEM. */
int *tm_leaf_ancestors(const tm_tree *t);

/* Cost of the pair of leaves a, b given the ancestor table. */
static inline double tm_pair_cost(const tm_tree *t, const int *anc, int a,
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
static inline double tm_move_delta(const tm_tree *t, const int *anc,
				   const tm_matrix *m, const int *leaf_of,
				   int x, int from, int to, int skip)
{
	double delta = 0;

	for (int64_t e = m->row_start[x]; e < m->row_start[x + 1]; e++) {
		int k = m->col[e];

		if (k == skip)
			continue;
		delta += m->weight[e] * (tm_pair_cost(t, anc, to, leaf_of[k]) -
					 tm_pair_cost(t, anc, from, leaf_of[k]));
	}
	return delta;
}

#endif /* TM_MAP_INTERNAL_H */
