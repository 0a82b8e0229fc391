/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kpartition.c - the top-down path: the root's ranks are split among its
 * children (the ranks that exchange most kept together), then each child's
 * among its own children, down to the leaves.  It places ranks on any tree,
 * including the irregular trees of partially allocated nodes, because every
 * split respects how many leaves each child has.
 *
 * How many ranks each child gets follows TreeMatch's ExtendComMatrix: pack
 * low, spread high.  A node uses as few children as can hold its ranks and
 * shares them as evenly as those children's capacities allow, so idle cores
 * end up spread across the children used, as TreeMatch's dummy processes
 * spread them, and every child that is used is filled as far as it can be.
 * When the machine has idle cores, a variant spreads the ranks over all
 * children instead: a 4x4x3 grid on four 16-core packages cuts less in
 * four blocks of 12 than in three of 16; the strategies compare both.
 */
#include <config.h>

#include <stdlib.h>

#include "place/treematch/treematch.h"
#include "util/sort.h"



/* Sizes for r ranks among children of capacities cap[0..a-1]: packed
 * (as few children as hold them) or spread (over all of them). */
static int choose_sizes(int r, const int *cap, int a, int spread, int *size)
{
	if (a <= 0)
		return -1;

	long *by_cap = malloc(sizeof(long) * (size_t)a);
	double *key = malloc(sizeof(double) * (size_t)a);
	int used = 0, held = 0;

	if (!by_cap || !key) {
		free(by_cap);
		free(key);
		return -1;
	}
	for (int c = 0; c < a; c++) {
		by_cap[c] = c;
		key[c] = -cap[c]; /* largest first, leftmost among equals */
		size[c] = 0;
	}
	if (tm__sort_indices(by_cap, a, key) < 0) {
		free(by_cap);
		free(key);
		return -1;
	}
	while ((held < r || spread) && used < a)
		held += cap[by_cap[used++]];
	/* Water-filling over the children used, smallest capacity first: each
	 * takes its fair share of what is left, or all it can hold. */
	int left = r;
	for (int i = used - 1; i >= 0; i--) {
		int c = (int)by_cap[i], share = (left + i) / (i + 1);

		size[c] = share < cap[c] ? share : cap[c];
		left -= size[c];
	}
	free(by_cap);
	free(key);
	return 0;
}

/* The vertices of g in part `label` (side[v] when side is given, else
 * part_of[v]) as a graph of their own, for the recursion into that part:
 * sub[] receives their indices in g and sub_ids[] their ids[].  NULL when
 * out of memory. */
static tm_matrix *subgraph(const tm_matrix *g, const int *ids,
			   const char *side, const int *part_of, int label,
			   int *sub, int *sub_ids)
{
	int k = 0;

	for (int v = 0; v < g->n; v++) {
		if ((side ? side[v] : part_of[v]) == label) {
			sub[k] = v;
			sub_ids[k++] = ids[v];
		}
	}
	return tm_matrix_subset(g, sub, k);
}

/* Recursive bisection of the part list [lo, hi) over the vertices of g,
 * whose ids in the caller's numbering are ids[]. */
static tm_status split_parts(const tm_matrix *g, const int *ids, int lo,
			     int hi, const int *sizes, int grid_trial,
			     int *part_of, tm_error *err)
{
	while (hi - lo > 1 && sizes[lo] == 0)
		lo++;
	while (hi - lo > 1 && sizes[hi - 1] == 0)
		hi--;
	if (hi - lo == 1) {
		for (int v = 0; v < g->n; v++)
			part_of[ids[v]] = lo;
		return TM_OK;
	}
	/* halves of about equal size, each with at least one part */
	int total = 0, mid = lo + 1, acc = 0, best_gap = -1;
	for (int q = lo; q < hi; q++)
		total += sizes[q];
	for (int q = lo; q < hi - 1; q++) {
		acc += sizes[q];
		int gap = abs(2 * acc - total);
		if (best_gap < 0 || gap < best_gap) {
			best_gap = gap;
			mid = q + 1;
		}
	}
	int size_a = 0;
	for (int q = lo; q < mid; q++)
		size_a += sizes[q];

	tm_status st = TM_OK;
	char *side = malloc((size_t)g->n + 1);
	int *sub = malloc(sizeof(int) * ((size_t)g->n + 1));
	int *sub_ids = malloc(sizeof(int) * ((size_t)g->n + 1));
	if (!side || !sub || !sub_ids) {
		st = tm_error_nomem(err);
		goto out;
	}
	st = tm__bisect(g, size_a, grid_trial, side, err);
	for (int s = 0; s < 2 && st == TM_OK; s++) {
		tm_matrix *half = subgraph(g, ids, side, NULL, s, sub, sub_ids);
		if (!half) {
			st = tm_error_nomem(err);
			break;
		}
		st = split_parts(half, sub_ids, s ? mid : lo, s ? hi : mid,
				 sizes, grid_trial, part_of, err);
		tm_matrix_free(half);
	}
out:
	free(side);
	free(sub);
	free(sub_ids);
	return st;
}

tm_status tm__partition(const tm_matrix *m, int nparts, const int *sizes,
		       int grid_trial, int *part_of, tm_error *err)
{
	int *ids = malloc(sizeof(int) * ((size_t)m->n + 1));
	tm_status st;

	if (!ids)
		return tm_error_nomem(err);
	for (int v = 0; v < m->n; v++)
		ids[v] = v;
	st = split_parts(m, ids, 0, nparts, sizes, grid_trial, part_of, err);
	free(ids);
	if (st == TM_OK && nparts > 2)
		st = tm__partition_refine(m, nparts, part_of, err);
	return st;
}

/* How the ranks are split at every node: packed or spread over the
 * children (choose_sizes), with or without grid cuts (tm__bisect), or in
 * rank order, each child taking the next ranks (no partitioning). */
typedef struct how {
	int spread, grid_trial, in_order;
} how;

/* Place the ranks of g (global ids ranks[]) in the subtree of node v. */
static tm_status place(const tm_tree *t, int v, const tm_matrix *g,
		       const int *ranks, how h, int *leaf_of, tm_error *err)
{
	if (t->arity[v] == 0) {
		if (g->n == 1)
			leaf_of[ranks[0]] = v - t->level_start[t->depth];
		return TM_OK; /* g->n <= capacity, which is 1 */
	}
	int a = t->arity[v];
	if (t->arity[t->first_child[v]] == 0) {
		/* Children are leaves: any two of v's ranks meet at v, whichever
		 * leaves they take, so every arrangement costs the same. */
		for (int x = 0; x < g->n; x++)
			leaf_of[ranks[x]] = t->first_child[v] + x -
					    t->level_start[t->depth];
		return TM_OK;
	}
	int *cap = malloc(sizeof(int) * (size_t)a);
	int *size = malloc(sizeof(int) * (size_t)a);
	int *part_of = malloc(sizeof(int) * ((size_t)g->n + 1));
	int *sub = malloc(sizeof(int) * ((size_t)g->n + 1));
	int *sub_ranks = malloc(sizeof(int) * ((size_t)g->n + 1));
	tm_status st = TM_OK;

	if (!cap || !size || !part_of || !sub || !sub_ranks) {
		st = tm_error_nomem(err);
		goto out;
	}
	for (int c = 0; c < a; c++)
		cap[c] = tm_tree_leaves_below(t, t->first_child[v] + c);
	if (choose_sizes(g->n, cap, a, h.spread, size) < 0) {
		st = tm_error_nomem(err);
		goto out;
	}
	if (h.in_order)
		for (int c = 0, x = 0; c < a; c++)
			for (int k = 0; k < size[c]; k++)
				part_of[x++] = c;
	else
		st = tm__partition(g, a, size, h.grid_trial, part_of, err);
	for (int c = 0; c < a && st == TM_OK; c++) {
		if (size[c] == 0)
			continue;
		tm_matrix *child = subgraph(g, ranks, NULL, part_of, c, sub,
					    sub_ranks);
		if (!child) {
			st = tm_error_nomem(err);
			break;
		}
		st = place(t, t->first_child[v] + c, child, sub_ranks, h,
			   leaf_of, err);
		tm_matrix_free(child);
	}
out:
	free(cap);
	free(size);
	free(part_of);
	free(sub);
	free(sub_ranks);
	return st;
}

static tm_status top_down(const tm_tree *t, const tm_matrix *m, how h,
			  int *leaf_of, tm_error *err)
{
	int *ranks = malloc(sizeof(int) * ((size_t)m->n + 1));
	tm_status st;

	if (!ranks)
		return tm_error_nomem(err);
	for (int r = 0; r < m->n; r++)
		ranks[r] = r;
	st = place(t, 0, m, ranks, h, leaf_of, err);
	free(ranks);
	return st;
}

tm_status tm__map_top_down(const tm_tree *t, const tm_matrix *m,
			  int *leaf_of, tm_error *err)
{
	return top_down(t, m, (how){ .spread = 0, .grid_trial = 1 }, leaf_of,
			err);
}

tm_status tm__map_top_down_spread(const tm_tree *t, const tm_matrix *m,
				 int *leaf_of, tm_error *err)
{
	return top_down(t, m, (how){ .spread = 1, .grid_trial = 1 }, leaf_of,
			err);
}

tm_status tm__map_top_down_multilevel(const tm_tree *t, const tm_matrix *m,
				     int *leaf_of, tm_error *err)
{
	return top_down(t, m, (how){ .spread = 0, .grid_trial = 0 }, leaf_of,
			err);
}

tm_status tm__map_in_order(const tm_tree *t, const tm_matrix *m,
			   int *leaf_of, tm_error *err)
{
	return top_down(t, m, (how){ .spread = m->n < t->nleaves,
				     .in_order = 1 }, leaf_of, err);
}
