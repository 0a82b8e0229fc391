/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_place.c - which node each rank of a step runs on (tm_job.h): a
 * policy on the job's tree, and Slurm's block and cyclic distributions
 * with the same task counts, to compare and to fall back on.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "job/job_internal.h"
#include "tm_job.h"

void tm_job_block(const tm_job *job, int *leaf_of)
{
	int r = 0;

	for (int j = 0; j < job->nnodes; j++)
		for (int k = 0; k < job->tasks[j]; k++)
			leaf_of[r++] = job->first_leaf[j] + k;
}

/* Deal the ranks over the nodes, dropping a node from the round once it
 * is full: the work is one step per rank, however uneven the counts. */
void tm_job_cyclic(const tm_job *job, int *leaf_of)
{
	int *open = malloc(sizeof(int) * (size_t)job->nnodes);
	int *used = calloc((size_t)job->nnodes, sizeof(int));
	int nopen = job->nnodes, r = 0;

	if (!open || !used) {
		/* no memory for the round: block is a valid assignment */
		free(open);
		free(used);
		tm_job_block(job, leaf_of);
		return;
	}
	for (int j = 0; j < nopen; j++)
		open[j] = j;
	while (nopen > 0) {
		int kept = 0;
		for (int k = 0; k < nopen; k++) {
			int j = open[k];
			leaf_of[r++] = job->first_leaf[j] + used[j]++;
			if (used[j] < job->tasks[j])
				open[kept++] = j;
		}
		nopen = kept;
	}
	free(open);
	free(used);
}

tm_status tm_job_place(const tm_job *job, tm_algorithm a,
		       const tm_map_options *opt, const tm_matrix *m,
		       int *leaf_of, int *kept_block, tm_error *err)
{
	tm_status st;

	*kept_block = 0;
	if (m->n != job->ntasks)
		return tm_error_set(err, TM_ERR_SIZE, "the matrix has %d ranks, "
				    "expected %d: the sum of the tasks per node",
				    m->n, job->ntasks);
	tm_tree *grouped;
	if ((st = tm__job_mapping_tree(job, &grouped, err)) != TM_OK)
		return st;
	st = tm_map_with(a, opt, grouped ? grouped : job->tree, m, leaf_of,
			 err);
	tm_tree_free(grouped);
	if (st != TM_OK)
		return st;
	int *block = malloc(sizeof(int) * ((size_t)m->n + 1));
	if (!block)
		return tm_error_nomem(err);
	tm_job_block(job, block);
	tm_job_traffic placed, slurm;
	tm_job_traffic_of(job, m, leaf_of, &placed);
	tm_job_traffic_of(job, m, block, &slurm);
	/* Slurm's own layout unless this one sends less across nodes, or
	 * as much but less across switches: no rank moves for nothing */
	if (placed.cross_node > slurm.cross_node ||
	    (placed.cross_node == slurm.cross_node &&
	     placed.cost >= slurm.cost)) {
		memcpy(leaf_of, block, sizeof(int) * (size_t)m->n);
		*kept_block = 1;
		st = tm__job_block_on_switches(job, a, opt, m, leaf_of, err);
	}
	free(block);
	return st;
}
