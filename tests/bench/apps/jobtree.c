/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobtree.c - the tree a case runs on: one node's tree (any topology the
 * helper loads), or a job's: `nodes` copies of it under leaf switches,
 * under one top switch when there are several switches.
 *
 * The job tree is built here, from the node's, because the helper's own
 * job trees are being written; a `tree:` spec with --kinds gives the same
 * shape (e.g. tree:4,2,16 with --kinds switch,board,l3), so both ways of
 * naming a job end up in the same tm_tree and the rest of tmsim does not
 * care which was used.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "tm_topology.h"
#include "tmsim.h"

static int *copy_ints(const int *src, int n)
{
	int *dst = malloc((n > 0 ? (size_t)n : 1) * sizeof(int));

	if (dst && n > 0)
		memcpy(dst, src, (size_t)n * sizeof(int));
	return dst;
}

/* Replace leaf l's record by a copy of `from` (the node's leaf). */
static int copy_leaf(tm_leaf *to, const tm_leaf *from)
{
	free(to->pus);
	free(to->cores);
	to->pus = copy_ints(from->pus, from->npus);
	to->cores = copy_ints(from->cores, from->ncores);
	to->npus = from->npus;
	to->ncores = from->ncores;
	return to->pus && to->cores ? 0 : -1;
}

static int set_name(tm_tree *t, int d, const char *name)
{
	char *copy = strdup(name);

	if (!copy)
		return -1;
	free(t->level_name[d]);
	t->level_name[d] = copy;
	return 0;
}

/* Levels above the nodes: 1 (one switch) or 2 (top switch, switches). */
static tm_tree *compose(const tm_tree *node, int nodes, int switches,
			int *node_depth, tm_error *err)
{
	int top = switches > 1 ? 2 : 1, nd = node->depth;
	int depth = top + nd, *level_size, *parent, nnodes, i = 1;
	tm_tree *t = NULL;

	level_size = malloc(((size_t)depth + 1) * sizeof(int));
	nnodes = 1 + (top == 2 ? switches : 0) + nodes * node->nnodes;
	parent = malloc((size_t)nnodes * sizeof(int));
	if (!level_size || !parent)
		goto out;
	level_size[0] = 1;
	if (top == 2)
		level_size[1] = switches;
	for (int d = 0; d <= nd; d++)
		level_size[top + d] = nodes *
			(node->level_start[d + 1] - node->level_start[d]);

	parent[0] = -1;
	if (top == 2)
		for (int s = 0; s < switches; s++)
			parent[i++] = 0;
	/* node roots: nodes/switches per switch, in order */
	for (int k = 0; k < nodes; k++)
		parent[i++] = top == 2 ? 1 + k / (nodes / switches) : 0;
	/* below: level d of node k holds node k's level-d nodes, so parents
	 * are non-decreasing and children stay contiguous */
	for (int d = 1; d <= nd; d++) {
		int size = node->level_start[d + 1] - node->level_start[d];
		int up = node->level_start[d] - node->level_start[d - 1];
		int job_up = 0;
		for (int e = 0; e < top + d - 1; e++)
			job_up += level_size[e];
		for (int k = 0; k < nodes; k++)
			for (int v = 0; v < size; v++) {
				int p = node->parent[node->level_start[d] + v]
					- node->level_start[d - 1];
				parent[i++] = job_up + k * up + p;
			}
	}
	t = tm_tree_build(depth, level_size, parent, err);
	if (!t)
		goto out;
	*node_depth = top;
	if ((top == 2 && set_name(t, 0, "Fabric")) ||
	    set_name(t, top - 1, "Switch"))
		goto nomem;
	for (int d = 0; d <= nd; d++)
		if (set_name(t, top + d, node->level_name[d]))
			goto nomem;
	for (int k = 0; k < nodes; k++)
		for (int l = 0; l < node->nleaves; l++)
			if (copy_leaf(&t->leaf[k * node->nleaves + l],
				      &node->leaf[l]))
				goto nomem;
	goto out;
nomem:
	tm_tree_free(t);
	t = NULL;
	tm_error_nomem(err);
out:
	if (!level_size || !parent)
		tm_error_nomem(err);
	free(level_size);
	free(parent);
	return t;
}

int tmsim_job_load(tmsim_job *job, tm_error *err)
{
	if (job->nodes < 1 || (job->nodes > 1 && job->switches < 1) ||
	    (job->switches > 0 && job->nodes % job->switches)) {
		tm_error_set(err, TM_ERR_USAGE, "--nodes %d --switches %d: "
			     "expected nodes >= 1 and a number of switches "
			     "that divides it", job->nodes, job->switches);
		return -1;
	}
	if (tm_topology_load(job->node_spec, NULL, TM_LEAF_CORE, &job->node,
			     err) != TM_OK)
		return -1;
	job->leaves_per_node = job->node->nleaves;
	if (job->switches == 0) {
		job->tree = job->node;
		job->node_depth = 0;
	} else {
		job->tree = compose(job->node, job->nodes, job->switches,
				    &job->node_depth, err);
		if (!job->tree)
			return -1;
	}
	return tmsim_classify(job, err);
}

void tmsim_job_free(tmsim_job *job)
{
	if (job->tree != job->node)
		tm_tree_free(job->tree);
	tm_tree_free(job->node);
	free(job->kind);
	job->tree = job->node = NULL;
	job->kind = NULL;
}
