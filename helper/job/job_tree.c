/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_tree.c - the job's tree (tm_job_build, tm_job.h): the network above
 * the nodes, one node per job node, and under node i exactly tasks[i]
 * leaves.  The leaves are slots, not cores: which cores inside a node is
 * the per-node run's choice, made later on the node's own tree.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tm_job.h"

/* Two nodes under one leaf switch cost this many times two ranks on one
 * node: a network link against shared memory, the same tenfold step the
 * node's own levels use. */
#define DEFAULT_NETWORK_COST 10.0

void tm_job_free(tm_job *job)
{
	if (!job)
		return;
	tm_hostlist_free(job->node, job->nnodes);
	free(job->tasks);
	tm_tree_free(job->tree);
	free(job->first_leaf);
	free(job->node_of_leaf);
	free(job);
}

static tm_status check_input(const int *tasks, int nnodes, const tm_tree *net,
			     const int *order, long *ntasks, tm_error *err)
{
	if (nnodes < 1 || nnodes > TM_JOB_MAX_NODES)
		return tm_error_set(err, TM_ERR_USAGE, "%d job nodes, expected "
				    "1 to %d", nnodes, TM_JOB_MAX_NODES);
	if (!net || net->nleaves != nnodes || net->depth < 1 ||
	    net->depth > TM_JOB_MAX_LEVELS)
		return tm_error_set(err, TM_ERR_USAGE, "a network of %d nodes "
				    "for a job of %d, expected as many",
				    net ? net->nleaves : 0, nnodes);
	char *seen = calloc((size_t)nnodes, 1);
	if (!seen)
		return tm_error_nomem(err);
	*ntasks = 0;
	for (int l = 0; l < nnodes; l++) {
		int j = order[l];
		if (j < 0 || j >= nnodes || seen[j]) {
			free(seen);
			return tm_error_set(err, TM_ERR_USAGE, "network leaf %d "
					    "is node %d, expected each of 0..%d "
					    "once", l, j, nnodes - 1);
		}
		seen[j] = 1;
		if (tasks[j] < 1 || tasks[j] > TM_MATRIX_MAX_ORDER - *ntasks) {
			free(seen);
			return tm_error_set(err, TM_ERR_USAGE, "node %d: %d tasks, "
					    "expected at least 1 and at most %d "
					    "in all", j, tasks[j],
					    TM_MATRIX_MAX_ORDER);
		}
		*ntasks += tasks[j];
	}
	free(seen);
	return TM_OK;
}

/* Level costs, root first: the network levels, then 1 for the node. */
static tm_status level_costs(int nlevels, const double *costs, int ncosts,
			     double *out, tm_error *err)
{
	if (ncosts > 1 && ncosts != nlevels)
		return tm_error_set(err, TM_ERR_USAGE, "%d network costs, "
				    "expected 1 (the leaf switch's) or %d (one "
				    "per network level, root first)", ncosts,
				    nlevels);
	double base = ncosts == 1 ? costs[0] : DEFAULT_NETWORK_COST;
	for (int d = 0; d < nlevels; d++) {
		out[d] = ncosts > 1 ? costs[d]
				    : base * pow(10.0, nlevels - 1 - d);
		if (!isfinite(out[d]) || out[d] < 1)
			return tm_error_set(err, TM_ERR_USAGE, "network cost "
					    "%g, expected a finite number of at "
					    "least 1 (two ranks on one node "
					    "cost 1)", out[d]);
	}
	out[nlevels] = 1;
	return TM_OK;
}

static tm_tree *build_tree(const tm_tree *net, const int *order,
			   const int *tasks, long ntasks, tm_error *err)
{
	int depth = net->depth + 1;
	int *level_size = malloc(sizeof(int) * ((size_t)depth + 1));
	size_t nnodes = (size_t)net->nnodes + (size_t)ntasks;
	int *parent = malloc(sizeof(int) * nnodes);
	tm_tree *t = NULL;

	if (level_size && parent) {
		for (int d = 0; d < depth; d++)
			level_size[d] = net->level_start[d + 1] -
					net->level_start[d];
		level_size[depth] = (int)ntasks;
		memcpy(parent, net->parent, sizeof(int) * (size_t)net->nnodes);
		int v = net->nnodes, first = net->level_start[net->depth];
		for (int l = 0; l < net->nleaves; l++)
			for (int k = 0; k < tasks[order[l]]; k++)
				parent[v++] = first + l;
		t = tm_tree_build(depth, level_size, parent, err);
	} else {
		tm_error_nomem(err);
	}
	free(level_size);
	free(parent);
	if (!t)
		return NULL;
	for (int d = 0; d <= depth; d++) {
		char *name = strdup(d < depth ? net->level_name[d] : "tasks");
		if (!name) {
			tm_tree_free(t);
			tm_error_nomem(err);
			return NULL;
		}
		free(t->level_name[d]);
		t->level_name[d] = name;
	}
	return t;
}

tm_status tm_job_build(char *const *node, const int *tasks, int nnodes,
		       const tm_tree *net, const int *order,
		       const double *costs, int ncosts, tm_job **out,
		       tm_error *err)
{
	double cost[TM_JOB_MAX_LEVELS + 1];
	long ntasks = 0;
	tm_status st;

	*out = NULL;
	if ((st = check_input(tasks, nnodes, net, order, &ntasks, err)) ||
	    (st = level_costs(net->depth, costs, ncosts, cost, err)))
		return st;
	tm_job *job = calloc(1, sizeof(*job));
	if (!job)
		return tm_error_nomem(err);
	job->node = calloc((size_t)nnodes, sizeof(char *));
	job->tasks = malloc(sizeof(int) * (size_t)nnodes);
	job->first_leaf = malloc(sizeof(int) * (size_t)nnodes);
	job->node_of_leaf = malloc(sizeof(int) * (size_t)ntasks);
	if (!job->node || !job->tasks || !job->first_leaf ||
	    !job->node_of_leaf) {
		tm_job_free(job);
		return tm_error_nomem(err);
	}
	job->nnodes = nnodes;
	for (int j = 0; j < nnodes; j++)
		if (!(job->node[j] = strdup(node[j]))) {
			tm_job_free(job);
			return tm_error_nomem(err);
		}
	memcpy(job->tasks, tasks, sizeof(int) * (size_t)nnodes);
	job->ntasks = (int)ntasks;
	job->node_depth = net->depth;
	int leaf = 0;
	for (int l = 0; l < nnodes; l++) {
		int j = order[l];
		job->first_leaf[j] = leaf;
		for (int k = 0; k < tasks[j]; k++)
			job->node_of_leaf[leaf++] = j;
	}
	job->tree = build_tree(net, order, tasks, ntasks, err);
	if (!job->tree)
		st = err ? err->status : TM_ERR_NOMEM;
	else
		st = tm_tree_set_costs(job->tree, cost, net->depth + 1, err);
	if (st != TM_OK) {
		tm_job_free(job);
		return st;
	}
	*out = job;
	return TM_OK;
}
