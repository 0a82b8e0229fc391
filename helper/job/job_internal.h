/* SPDX-License-Identifier: GPL-2.0-or-later */
/* job/job_internal.h - what job_place.c borrows from its neighbours. */
#ifndef TM_JOB_INTERNAL_H
#define TM_JOB_INTERNAL_H

#include "tm_job.h"

/* Block, with its nodes' groups of ranks moved as wholes onto the switch
 * tree by policy a: the same bytes cross nodes as with block, fewer cross
 * switches.  leaf_of holds block's leaves and is changed only when the
 * tree cost goes down.  Nothing to gain (and nothing done) on a flat
 * network or when nodes hold different numbers of tasks. */
tm_status tm__job_block_on_switches(const tm_job *job, tm_algorithm a,
				    const tm_map_options *opt,
				    const tm_matrix *m, int *leaf_of,
				    tm_error *err);

/* The tree to map the job's ranks on: the job's tree with a virtual level
 * under every network level wider than a few dozen children, grouping
 * consecutive children at their parent's cost.  Same leaves in the same
 * order and the same price for every placement, far fewer parts per cut.
 * *out is NULL when no level is that wide (map on job->tree). */
tm_status tm__job_mapping_tree(const tm_job *job, tm_tree **out,
			       tm_error *err);

#endif /* TM_JOB_INTERNAL_H */
