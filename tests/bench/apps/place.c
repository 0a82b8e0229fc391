/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * place.c - the placements the benchmark compares, by name: every policy
 * of the helper (on the job's whole tree), Slurm's cyclic distribution,
 * and Scotch's mapping.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "tm_map.h"
#include "tmsim.h"

/* The subtrees Slurm deals ranks over: the nodes of a job; on one node,
 * its sockets (the children of the level that crosses sockets), else the
 * top-level subtrees. */
static int unit_depth(const tmsim_job *job)
{
	if (job->switches > 0)
		return job->node_depth;
	for (int d = job->tree->depth - 1; d >= 0; d--)
		if (job->kind[d] == TMSIM_BOARD)
			return d + 1;
	return job->tree->depth > 0 ? 1 : 0;
}

/* Slurm's cyclic (srun -m cyclic over nodes, -m block:cyclic over the
 * sockets of a node): rank r to unit r mod U, in it the next free core;
 * a full unit passes its turn. */
static int place_cyclic(const tmsim_job *job, int n, int *leaf_of,
			tm_error *err)
{
	const tm_tree *t = job->tree;
	int d = unit_depth(job), units = t->level_start[d + 1] -
					 t->level_start[d];
	int *next = malloc((size_t)units * sizeof(int));
	int *end = malloc((size_t)units * sizeof(int));
	int u = 0;

	if (!next || !end) {
		free(next);
		free(end);
		return tm_error_nomem(err), -1;
	}
	for (int k = 0; k < units; k++)
		tm_tree_leaf_range(t, t->level_start[d] + k, &next[k], &end[k]);
	for (int r = 0; r < n; r++) {
		while (next[u] == end[u])
			u = (u + 1) % units;
		leaf_of[r] = next[u]++;
		u = (u + 1) % units;
	}
	free(next);
	free(end);
	return 0;
}

const char *tmsim_policies(void)
{
	static char list[512];

	if (!list[0])
		snprintf(list, sizeof(list), "one of the helper's (%s), cyclic"
			 " or scotch", tm_algorithm_choices());
	return list;
}

int tmsim_place(const char *policy, const tmsim_job *job, const tm_matrix *m,
		int *leaf_of, tm_error *err)
{
	tm_algorithm a;
	int moved;

	if (m->n > job->tree->nleaves)
		return tm_error_set(err, TM_ERR_SIZE, "%d ranks but %d cores "
				    "on %d node(s) of %s: expected at most one "
				    "rank per core", m->n, job->tree->nleaves,
				    job->nodes, job->node_spec), -1;
	if (strcmp(policy, "cyclic") == 0)
		return place_cyclic(job, m->n, leaf_of, err);
	if (strcmp(policy, "scotch") == 0)
		return tmsim_place_scotch(job, m, leaf_of, &moved, err);
	if (tm_algorithm_parse(policy, &a) != 0)
		return tm_error_set(err, TM_ERR_USAGE, "--policy %s: expected "
				    "%s", policy, tmsim_policies()), -1;
	return tm_map_with(a, NULL, job->tree, m, leaf_of, err) == TM_OK
	       ? 0 : -1;
}
