/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tree.c - building, querying, copying and freeing topology trees
 * (see tm_tree.h).  The transformations are in tree_transform.c.
 */
#include <config.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tm_tree.h"

/* The default cost of the root level is 10^(depth-1); past this depth it
 * would no longer be a finite double.  No machine comes anywhere near. */
enum { TREE_MAX_DEPTH = 300 };

/* Arrays sized from depth and nnodes, all zeroed so that tm_tree_free can
 * clean up after a failure half-way. */
static tm_tree *tree_alloc(int depth, int nnodes, int nleaves)
{
	tm_tree *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->depth = depth;
	t->nnodes = nnodes;
	t->nleaves = nleaves;
	t->level_start = calloc((size_t)depth + 2, sizeof(int));
	t->parent = calloc((size_t)nnodes, sizeof(int));
	t->first_child = calloc((size_t)nnodes, sizeof(int));
	t->arity = calloc((size_t)nnodes, sizeof(int));
	t->level_name = calloc((size_t)depth + 1, sizeof(char *));
	t->level_cost = calloc((size_t)depth + 1, sizeof(double));
	t->level_hops = calloc((size_t)depth + 1, sizeof(int));
	t->leaf = calloc((size_t)nleaves, sizeof(tm_leaf));
	if (!t->level_start || !t->parent || !t->first_child || !t->arity ||
	    !t->level_name || !t->level_cost || !t->level_hops || !t->leaf) {
		tm_tree_free(t);
		return NULL;
	}
	return t;
}

void tm_tree_free(tm_tree *t)
{
	if (!t)
		return;
	if (t->leaf)
		for (int l = 0; l < t->nleaves; l++) {
			free(t->leaf[l].pus);
			free(t->leaf[l].cores);
		}
	if (t->level_name)
		for (int d = 0; d <= t->depth; d++)
			free(t->level_name[d]);
	free(t->level_start);
	free(t->parent);
	free(t->first_child);
	free(t->arity);
	free(t->level_name);
	free(t->level_cost);
	free(t->level_hops);
	free(t->leaf);
	free(t);
}

/* The level sizes must describe a tree of at most INT_MAX nodes that grows
 * (or keeps its width) downwards, since every inner node has a child. */
static tm_status check_level_sizes(int depth, const int *level_size,
				   int *nnodes, tm_error *err)
{
	long long total = 0;

	if (depth < 0 || depth > TREE_MAX_DEPTH)
		return tm_error_set(err, TM_ERR_USAGE,
				    "tree: depth %d, expected 0..%d",
				    depth, TREE_MAX_DEPTH);
	if (!level_size)
		return tm_error_set(err, TM_ERR_USAGE,
				    "tree: no level sizes given");
	if (level_size[0] != 1)
		return tm_error_set(err, TM_ERR_USAGE,
				    "tree: level_size[0] = %d, expected 1 "
				    "(a single root)", level_size[0]);
	for (int d = 1; d <= depth; d++) {
		if (level_size[d] < level_size[d - 1])
			return tm_error_set(err, TM_ERR_USAGE,
					    "tree: level_size[%d] = %d is less "
					    "than level_size[%d] = %d, expected "
					    "a child for every node", d,
					    level_size[d], d - 1,
					    level_size[d - 1]);
		total += level_size[d];
		if (total >= INT_MAX)
			return tm_error_set(err, TM_ERR_USAGE,
					    "tree: more than %d nodes",
					    INT_MAX - 1);
	}
	*nnodes = (int)total + 1;
	return TM_OK;
}

/* Parents of level d must cover level d-1 in order: the first child hangs
 * from the first node of d-1, the last from its last node, and the parent
 * index grows by 0 or 1 from one node to the next. */
static tm_status check_parents(const tm_tree *t, const int *parent,
			       tm_error *err)
{
	for (int d = 1; d <= t->depth; d++) {
		int up_first = t->level_start[d - 1];
		int up_last = t->level_start[d] - 1;

		for (int v = t->level_start[d]; v < t->level_start[d + 1]; v++) {
			int p = parent[v];
			int before = v == t->level_start[d] ? up_first - 1
							    : parent[v - 1];

			if (p < up_first || p > up_last)
				return tm_error_set(err, TM_ERR_USAGE,
					"tree: parent[%d] = %d, expected a "
					"node of depth %d (%d..%d)",
					v, p, d - 1, up_first, up_last);
			if (p < before)
				return tm_error_set(err, TM_ERR_USAGE,
					"tree: parent[%d] = %d after parent[%d]"
					" = %d, expected non-decreasing parents"
					" (children contiguous)",
					v, p, v - 1, before);
			if (p > before + 1)
				return tm_error_set(err, TM_ERR_USAGE,
					"tree: node %d (depth %d) has no child,"
					" expected one for every node above the"
					" leaves", before + 1, d - 1);
		}
		if (parent[t->level_start[d + 1] - 1] != up_last)
			return tm_error_set(err, TM_ERR_USAGE,
				"tree: node %d (depth %d) has no child, "
				"expected one for every node above the leaves",
				up_last, d - 1);
	}
	return TM_OK;
}

static void set_default_costs(tm_tree *t)
{
	for (int d = 0; d <= t->depth; d++) {
		t->level_cost[d] = d < t->depth
			? pow(10.0, t->depth - 1 - d) : 0.0;
		t->level_hops[d] = 2 * (t->depth - d);
	}
}

static tm_status set_default_names_and_leaves(tm_tree *t)
{
	for (int d = 0; d <= t->depth; d++) {
		char name[16];

		snprintf(name, sizeof(name), "L%d", d);
		t->level_name[d] = strdup(name);
		if (!t->level_name[d])
			return TM_ERR_NOMEM;
	}
	for (int l = 0; l < t->nleaves; l++) {
		tm_leaf *leaf = &t->leaf[l];

		leaf->pus = malloc(sizeof(int));
		leaf->cores = malloc(sizeof(int));
		if (!leaf->pus || !leaf->cores)
			return TM_ERR_NOMEM;
		leaf->npus = leaf->ncores = 1;
		leaf->pus[0] = leaf->cores[0] = l;
	}
	return TM_OK;
}

tm_tree *tm_tree_build(int depth, const int *level_size, const int *parent,
		       tm_error *err)
{
	int nnodes = 0;
	tm_tree *t;

	if (check_level_sizes(depth, level_size, &nnodes, err) != TM_OK)
		return NULL;
	if (nnodes > 1 && !parent) {
		tm_error_set(err, TM_ERR_USAGE, "tree: no parents given");
		return NULL;
	}
	t = tree_alloc(depth, nnodes, level_size[depth]);
	if (!t) {
		tm_error_nomem(err);
		return NULL;
	}
	for (int d = 0; d <= depth; d++)
		t->level_start[d + 1] = t->level_start[d] + level_size[d];
	if (check_parents(t, parent, err) != TM_OK) {
		tm_tree_free(t);
		return NULL;
	}
	t->parent[0] = -1;
	for (int v = 0; v < nnodes; v++) {
		t->first_child[v] = -1;
		if (v > 0)
			t->parent[v] = parent[v];
	}
	/* Children are contiguous, so the first one seen is the first child. */
	for (int v = 1; v < nnodes; v++) {
		int p = parent[v];

		if (t->arity[p]++ == 0)
			t->first_child[p] = v;
	}
	set_default_costs(t);
	if (set_default_names_and_leaves(t) != TM_OK) {
		tm_tree_free(t);
		tm_error_nomem(err);
		return NULL;
	}
	return t;
}

tm_tree *tm_tree_regular(int depth, const int *arity, tm_error *err)
{
	int *level_size, *parent;
	long long nnodes = 1;
	tm_tree *t;

	if (depth < 0 || depth > TREE_MAX_DEPTH) {
		tm_error_set(err, TM_ERR_USAGE, "tree: depth %d, expected 0..%d",
			     depth, TREE_MAX_DEPTH);
		return NULL;
	}
	if (depth > 0 && !arity) {
		tm_error_set(err, TM_ERR_USAGE, "tree: no arities given");
		return NULL;
	}
	level_size = malloc(((size_t)depth + 1) * sizeof(int));
	if (!level_size) {
		tm_error_nomem(err);
		return NULL;
	}
	level_size[0] = 1;
	for (int d = 0; d < depth; d++) {
		long long next = (long long)level_size[d] * arity[d];

		if (arity[d] < 1) {
			tm_error_set(err, TM_ERR_USAGE,
				     "tree: arity[%d] = %d, expected >= 1",
				     d, arity[d]);
			free(level_size);
			return NULL;
		}
		nnodes += next;
		if (nnodes >= INT_MAX) {
			tm_error_set(err, TM_ERR_USAGE,
				     "tree: more than %d nodes", INT_MAX - 1);
			free(level_size);
			return NULL;
		}
		level_size[d + 1] = (int)next;
	}
	parent = malloc((size_t)nnodes * sizeof(int));
	if (!parent) {
		free(level_size);
		tm_error_nomem(err);
		return NULL;
	}
	parent[0] = -1;
	for (int d = 0, start = 0, v = 1; d < depth; d++) {
		for (int i = 0; i < level_size[d + 1]; i++)
			parent[v++] = start + i / arity[d];
		start += level_size[d];
	}
	t = tm_tree_build(depth, level_size, parent, err);
	free(parent);
	free(level_size);
	return t;
}

tm_status tm_tree_set_costs(tm_tree *t, const double *costs, int ncosts,
			    tm_error *err)
{
	if (ncosts != t->depth)
		return tm_error_set(err, TM_ERR_USAGE,
				    "costs: %d given, expected %d (one per "
				    "level above the leaves, root first)",
				    ncosts, t->depth);
	for (int d = 0; d < ncosts; d++) {
		if (!isfinite(costs[d]) || costs[d] < 0)
			return tm_error_set(err, TM_ERR_VALUE,
					    "costs[%d] = %g, expected a finite "
					    "number >= 0", d, costs[d]);
		if (d > 0 && costs[d] > costs[d - 1])
			return tm_error_set(err, TM_ERR_USAGE,
					    "costs[%d] = %g is more than "
					    "costs[%d] = %g, expected costs "
					    "that do not grow from the root "
					    "down", d, costs[d], d - 1,
					    costs[d - 1]);
	}
	for (int d = 0; d < ncosts; d++)
		t->level_cost[d] = costs[d];
	t->level_cost[t->depth] = 0.0;
	return TM_OK;
}

int tm_tree_level_is_single_child(const tm_tree *t, int d)
{
	for (int v = t->level_start[d]; v < t->level_start[d + 1]; v++)
		if (t->arity[v] != 1)
			return 0;
	return 1;
}

int tm_tree_is_regular(const tm_tree *t)
{
	for (int d = 0; d < t->depth; d++) {
		int first = t->level_start[d];

		for (int v = first + 1; v < t->level_start[d + 1]; v++)
			if (t->arity[v] != t->arity[first])
				return 0;
	}
	return 1;
}

/* Called millions of times by the mapping algorithms: both leaves are at
 * the same depth, so climbing in step meets at the common ancestor after
 * at most depth steps, without any memory. */
int tm_tree_lca_depth(const tm_tree *t, int leaf_a, int leaf_b)
{
	int a, b, d = t->depth;

	if (leaf_a < 0 || leaf_a >= t->nleaves ||
	    leaf_b < 0 || leaf_b >= t->nleaves)
		return -1;
	a = t->level_start[d] + leaf_a;
	b = t->level_start[d] + leaf_b;
	while (a != b) {
		a = t->parent[a];
		b = t->parent[b];
		d--;
	}
	return d;
}

/* The leaves below v are contiguous: follow the leftmost and the
 * rightmost branch down to the leaf level. */
void tm_tree_leaf_range(const tm_tree *t, int v, int *first, int *end)
{
	int lo = v, hi = v;

	while (t->first_child[lo] >= 0) {
		lo = t->first_child[lo];
		hi = t->first_child[hi] + t->arity[hi] - 1;
	}
	*first = lo - t->level_start[t->depth];
	*end = hi - t->level_start[t->depth] + 1;
}

int tm_tree_leaves_below(const tm_tree *t, int v)
{
	int first, end;

	if (v < 0 || v >= t->nnodes)
		return -1;
	tm_tree_leaf_range(t, v, &first, &end);
	return end - first;
}

static int *copy_ints(const int *src, int n)
{
	int *dst = malloc((n > 0 ? (size_t)n : 1) * sizeof(int));

	if (dst && n > 0)
		memcpy(dst, src, (size_t)n * sizeof(int));
	return dst;
}

tm_tree *tm_tree_copy(const tm_tree *t, tm_error *err)
{
	tm_tree *c = tree_alloc(t->depth, t->nnodes, t->nleaves);
	size_t nodes = (size_t)t->nnodes * sizeof(int);
	size_t levels = (size_t)t->depth + 1;

	if (!c)
		goto nomem;
	memcpy(c->level_start, t->level_start, (levels + 1) * sizeof(int));
	memcpy(c->parent, t->parent, nodes);
	memcpy(c->first_child, t->first_child, nodes);
	memcpy(c->arity, t->arity, nodes);
	memcpy(c->level_cost, t->level_cost, levels * sizeof(double));
	memcpy(c->level_hops, t->level_hops, levels * sizeof(int));
	for (size_t d = 0; d < levels; d++) {
		c->level_name[d] = strdup(t->level_name[d]);
		if (!c->level_name[d])
			goto nomem;
	}
	for (int l = 0; l < t->nleaves; l++) {
		const tm_leaf *from = &t->leaf[l];
		tm_leaf *to = &c->leaf[l];

		to->pus = copy_ints(from->pus, from->npus);
		to->cores = copy_ints(from->cores, from->ncores);
		if (!to->pus || !to->cores)
			goto nomem;
		to->npus = from->npus;
		to->ncores = from->ncores;
	}
	return c;
nomem:
	tm_tree_free(c);
	tm_error_nomem(err);
	return NULL;
}
