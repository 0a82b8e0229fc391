/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * place/treematch/treematch.h - the pieces the treematch policy is made
 * of: the strategies it compares (strategy.c) and the partitioning they
 * share.  Private to the policy (and to its unit tests).
 */
#ifndef TM_TREEMATCH_H
#define TM_TREEMATCH_H

#include "tm_error.h"
#include "tm_matrix.h"
#include "tm_tree.h"
#include "tuning.h"

/* TreeMatch as the paper gives it, bottom-up on a regular tree (other
 * trees take the top-down path) (bottom_up.c). */
tm_status tm__map_bottom_up(const tm_tree *t, const tm_matrix *m,
			    int *leaf_of, tm_error *err);

/* Top-down: split the ranks among the children of each node with
 * tm__partition, from the root down (kpartition.c).  Works on any tree,
 * regular or not. */
tm_status tm__map_top_down(const tm_tree *t, const tm_matrix *m,
			   int *leaf_of, tm_error *err);

/* The same, each node sharing its ranks among all its children rather
 * than as few as hold them (kpartition.c). */
tm_status tm__map_top_down_spread(const tm_tree *t, const tm_matrix *m,
				  int *leaf_of, tm_error *err);

/* The ranks in their own order, no partitioning: rank i on leaf i when
 * every leaf is used (packed); with idle leaves, each node shares its
 * ranks among all its children as tm__map_top_down_spread does, the first
 * child taking the first ranks (kpartition.c).  What treematch gives back
 * when nothing it finds is cheaper (strategy.c). */
tm_status tm__map_in_order(const tm_tree *t, const tm_matrix *m,
			   int *leaf_of, tm_error *err);

/* The same as tm__map_top_down with multilevel cuts only, no cut grown on
 * the graph itself (kpartition.c): on some grids the greedy choice of the
 * lighter cut at each bisection leads to heavier splits below. */
tm_status tm__map_top_down_multilevel(const tm_tree *t, const tm_matrix *m,
				      int *leaf_of, tm_error *err);

/* tm__map_top_down on the matrix without the edges that are light for
 * both of their ranks (see LIGHT_EDGE_RATIO), which hide a stencil's
 * structure from the partitioner (skeleton.c). */
tm_status tm__map_top_down_skeleton(const tm_tree *t, const tm_matrix *m,
				    int *leaf_of, tm_error *err);

/* Whether m has such light edges and they were shortcuts that hid the
 * skeleton's shape (see SKELETON_STRETCH) (skeleton.c). */
int tm__skeleton_differs(const tm_matrix *m);

/* TreeMatch's GroupProcesses for one level (group.c): split p virtual
 * processes into p / k groups of k.  Processes m->n..p-1 are dummies that
 * communicate with nobody (ExtendComMatrix); p is a multiple of k.  Group g
 * is members[g * k .. g * k + k - 1]. */
tm_status tm__group_processes(const tm_matrix *m, int p, int k, int *members,
			      tm_error *err);

/* Split the n vertices of m into nparts parts of exactly sizes[0..nparts-1]
 * vertices (they add up to n; a size may be 0), cutting as little weight as
 * it can: part_of[v] receives the part of vertex v; grid_trial as for
 * tm__bisect (kpartition.c). */
tm_status tm__partition(const tm_matrix *m, int nparts, const int *sizes,
			int grid_trial, int *part_of, tm_error *err);

/* Breadth-first search of g from start: dist[v] receives v's distance (-1
 * where it is not reached); returns the last vertex reached, one of the
 * farthest.  dist and queue hold g->n entries (bisect.c). */
int tm__farthest_vertex(const tm_matrix *g, int start, int *dist, int *queue);

/* Split the vertices of g in two: side[v] = 0 for exactly size_a of them,
 * 1 for the others, with a light cut.  grid_trial: on a sparse graph (an
 * average degree up to TM_GRID_TRIAL_MAX_DEGREE), also grow a cut from
 * its periphery on the graph itself and keep the lighter of that and the
 * multilevel cut (bisect.c). */
tm_status tm__bisect(const tm_matrix *g, int size_a, int grid_trial,
		     char *side, tm_error *err);

/* Improve a split of g (side[] as tm__bisect gives it) by Fiduccia-
 * Mattheyses passes, side 0 weighing size_a +- tol at the end; vw: the
 * vertices' weights, NULL for one rank each, which also makes the sizes
 * exact (bisect.c). */
tm_status tm__bisect_refine(const tm_matrix *g, const int *vw, int size_a,
			    int tol, char *side, tm_error *err);

/* Improve a split of m into nparts parts (part_of[], as tm__partition
 * gives it) by a V-cycle: coarser copies of m that keep the parts, and at
 * each, from the coarsest, Fiduccia-Mattheyses between every two parts
 * that exchange much; every part keeps its size (vcycle.c). */
tm_status tm__partition_refine(const tm_matrix *m, int nparts, int *part_of,
			       tm_error *err);

#endif /* TM_TREEMATCH_H */
