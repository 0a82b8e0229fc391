/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * block_switches.c - when a policy's placement sends more bytes across
 * nodes than block, block is kept; but which node each of block's groups
 * of ranks lands on is still free, and choosing it by the switch tree
 * cuts what crosses switches without moving a byte onto the network
 * (job/job_internal.h).
 */
#include <config.h>

#include <stdlib.h>

#include "job/job_internal.h"
#include "tm_cost.h"

/* The job's tree without its task level: leaves are the job's nodes. */
static tm_tree *node_tree(const tm_job *job, tm_error *err)
{
	const tm_tree *t = job->tree;
	int nd = job->node_depth, size[TM_JOB_MAX_LEVELS + 1];

	for (int d = 0; d <= nd; d++)
		size[d] = t->level_start[d + 1] - t->level_start[d];
	tm_tree *nt = tm_tree_build(nd, size, t->parent, err);
	if (nt && tm_tree_set_costs(nt, t->level_cost, nd, err) != TM_OK) {
		tm_tree_free(nt);
		return NULL;
	}
	return nt;
}

/* What block's groups (group g: the ranks block puts on node g) exchange. */
static tm_matrix *group_matrix(const tm_job *job, const tm_matrix *m,
			       const int *group, tm_error *err)
{
	int64_t pairs = tm_matrix_nnz(m) / 2 + 1;
	int *gi = malloc(sizeof(int) * (size_t)pairs);
	int *gj = malloc(sizeof(int) * (size_t)pairs);
	double *w = malloc(sizeof(double) * (size_t)pairs);
	tm_matrix *q = NULL;
	size_t n = 0;

	if (gi && gj && w) {
		for (int i = 0; i < m->n; i++)
			for (int64_t e = m->row_start[i]; e < m->row_start[i + 1]; e++)
				if (m->col[e] > i &&
				    group[i] != group[m->col[e]]) {
					gi[n] = group[i];
					gj[n] = group[m->col[e]];
					w[n++] = m->weight[e];
				}
		tm_matrix_from_entries(job->nnodes, n, gi, gj, w, &q, err);
	} else {
		tm_error_nomem(err);
	}
	free(gi);
	free(gj);
	free(w);
	return q;
}

tm_status tm__job_block_on_switches(const tm_job *job, tm_algorithm a,
				    const tm_map_options *opt,
				    const tm_matrix *m, int *leaf_of,
				    tm_error *err)
{
	if (job->node_depth < 2)
		return TM_OK;
	for (int j = 1; j < job->nnodes; j++)
		if (job->tasks[j] != job->tasks[0])
			return TM_OK;
	int per = job->tasks[0];
	int *group = malloc(sizeof(int) * (size_t)m->n);
	int *pos = malloc(sizeof(int) * (size_t)job->nnodes);
	int *moved = malloc(sizeof(int) * (size_t)m->n);
	tm_tree *nt = NULL;
	tm_matrix *q = NULL;
	tm_status st = TM_OK;

	if (!group || !pos || !moved) {
		st = tm_error_nomem(err);
		goto out;
	}
	for (int r = 0; r < m->n; r++)
		group[r] = job->node_of_leaf[leaf_of[r]];
	if (!(nt = node_tree(job, err)) || !(q = group_matrix(job, m, group, err))) {
		st = err ? err->status : TM_ERR_NOMEM;
		goto out;
	}
	if ((st = tm_map_with(a, opt, nt, q, pos, err)) != TM_OK)
		goto out;
	/* group g goes to the node at leaf pos[g] of the node tree, whose
	 * slots are leaves pos[g] * per .. of the job's tree (equal counts) */
	for (int r = 0; r < m->n; r++)
		moved[r] = pos[group[r]] * per +
			   (leaf_of[r] - job->first_leaf[group[r]]);
	if (tm_cost_tree(job->tree, m, moved) < tm_cost_tree(job->tree, m, leaf_of))
		for (int r = 0; r < m->n; r++)
			leaf_of[r] = moved[r];
out:
	tm_tree_free(nt);
	tm_matrix_free(q);
	free(group);
	free(pos);
	free(moved);
	return st;
}
