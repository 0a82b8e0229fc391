/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * group_tree.c - the job's tree with wide network levels split in two
 * (job/job_internal.h), for mapping only.
 *
 * A flat network of 256 nodes makes the top-down partitioning cut the
 * ranks into 256 parts at once, and refine every pair of those parts that
 * exchange something: on a random graph tens of thousands of pairs, each
 * a pass over the whole graph (0.6 to 1.5 s for 4,096 ranks, against
 * 0.15 s under 16 switches of 16 nodes).  Grouping consecutive children
 * under virtual nodes that cost what their parent costs leaves the price
 * of every placement unchanged (two ranks meet at a virtual node exactly
 * when they meet at its parent, and pay the same), but the partitioning
 * then cuts 16 ways, then 16 ways again.  The leaves keep their order, so
 * a placement on this tree is one on the job's.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "job/job_internal.h"

/* Levels wider than this get a virtual level below them: about the root
 * of their arity children per group.  32 leaves the benchmark's switch
 * trees (16 switches of 16 nodes, 8 of 8) as they are. */
enum { GROUP_ABOVE = 32 };

/* Children per virtual node under a node of arity a. */
static int group_size(int a)
{
	int per = (int)ceil(sqrt((double)a));

	return per < 1 ? 1 : per;
}

/* One virtual level below depth d of t; NULL with err set on failure. */
static tm_tree *split_level(const tm_tree *t, int d, tm_error *err)
{
	int depth = t->depth + 1, nvirt = 0;

	for (int v = t->level_start[d]; v < t->level_start[d + 1]; v++)
		nvirt += (t->arity[v] + group_size(t->arity[v]) - 1) /
			 group_size(t->arity[v]);
	size_t nnodes = (size_t)t->nnodes + (size_t)nvirt;
	int *size = malloc(sizeof(int) * ((size_t)depth + 1));
	int *parent = malloc(sizeof(int) * nnodes);
	double *cost = malloc(sizeof(double) * ((size_t)depth + 1));
	tm_tree *g = NULL;

	if (!size || !parent || !cost) {
		tm_error_nomem(err);
		goto out;
	}
	/* new numbering: levels 0..d as they are, the virtual level, then
	 * t's levels d+1.. shifted by nvirt */
	for (int e = 0; e <= depth; e++) {
		int f = e <= d ? e : e - 1; /* t's level at new depth e */
		size[e] = e == d + 1 ? nvirt
				     : t->level_start[f + 1] - t->level_start[f];
	}
	int first_virt = t->level_start[d + 1];
	for (int v = 1; v < t->level_start[d + 1]; v++)
		parent[v] = t->parent[v];
	int vn = first_virt;
	for (int v = t->level_start[d]; v < t->level_start[d + 1]; v++) {
		int per = group_size(t->arity[v]), c0 = t->first_child[v];
		for (int k = 0; k < t->arity[v]; k++) {
			if (k % per == 0)
				parent[vn++] = v;
			/* child c0 + k of t, shifted by nvirt, under the
			 * virtual node just made */
			parent[c0 + k + nvirt] = vn - 1;
		}
	}
	for (int v = t->level_start[d + 2]; v < t->nnodes; v++)
		parent[v + nvirt] = t->parent[v] + nvirt;
	if (!(g = tm_tree_build(depth, size, parent, err)))
		goto out;
	/* the virtual level costs what its parent's level costs */
	for (int e = 0; e < depth; e++)
		cost[e] = t->level_cost[e <= d ? e : e - 1];
	if (tm_tree_set_costs(g, cost, depth, err) != TM_OK) {
		tm_tree_free(g);
		g = NULL;
	}
out:
	free(size);
	free(parent);
	free(cost);
	return g;
}

tm_status tm__job_mapping_tree(const tm_job *job, tm_tree **out,
			       tm_error *err)
{
	tm_tree *t = NULL;
	const tm_tree *cur = job->tree;
	int nd = job->node_depth;

	*out = NULL;
	/* from the top: a split moves the levels below it one deeper */
	for (int d = 0; d < nd && cur->depth < TM_JOB_MAX_LEVELS * 2; d++) {
		int widest = 0;
		for (int v = cur->level_start[d]; v < cur->level_start[d + 1]; v++)
			if (cur->arity[v] > widest)
				widest = cur->arity[v];
		if (widest <= GROUP_ABOVE)
			continue;
		tm_tree *g = split_level(cur, d, err);
		if (!g) {
			tm_tree_free(t);
			return err ? err->status : TM_ERR_NOMEM;
		}
		tm_tree_free(t);
		cur = t = g;
		nd++;
		d++; /* the virtual level is narrow enough by construction */
	}
	*out = t;
	return TM_OK;
}
