/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job_traffic.c - what an assignment of ranks to nodes sends over the
 * network (tm_job_traffic_of, tm_job.h): bytes between nodes, bytes that
 * leave a switch of each level, and the tree cost.
 */
#include <config.h>

#include "tm_cost.h"
#include "tm_job.h"

void tm_job_traffic_of(const tm_job *job, const tm_matrix *m,
		       const int *leaf_of, tm_job_traffic *out)
{
	const tm_tree *t = job->tree;
	/* bytes whose lowest common ancestor is at each network depth */
	double at_depth[TM_JOB_MAX_LEVELS + 1] = { 0 };
	int nd = job->node_depth;

	*out = (tm_job_traffic){ .nlevels = nd };
	for (int i = 0; i < m->n; i++)
		for (int64_t e = m->row_start[i]; e < m->row_start[i + 1]; e++) {
			int j = m->col[e];
			/* both directions are stored: count each pair once */
			if (j <= i)
				continue;
			int d = tm_tree_lca_depth(t, leaf_of[i], leaf_of[j]);
			if (d >= 0 && d < nd)
				at_depth[d] += m->weight[e];
		}
	/* level k (leaf switches first) is at depth nd - 1 - k: a pair
	 * leaves its switches when they meet above it */
	double above = 0;
	for (int d = 0; d < nd; d++) {
		out->cross_level[nd - 1 - d] = above;
		above += at_depth[d];
	}
	out->cross_node = above;
	out->cost = tm_cost_tree(t, m, leaf_of);
}
