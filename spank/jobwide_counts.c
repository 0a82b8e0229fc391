/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobwide_counts.c - how many of a step's tasks each node of an
 * allocation takes when Slurm lays the step out itself (jobwide.c asks the
 * helper for a layout with the same counts, so that srun accepts it).
 */
#include <config.h>

#include "jobwide_counts.h"

/* Task counts as Slurm spreads a step over its nodes: as even as the
 * nodes allow (the first nodes take one more when they do not divide),
 * none over what a node can take, which then goes to the next nodes with
 * room.  -1 when the step does not fit. */
int jobwide_task_counts(int ntasks, int nnodes, const int *cap, int *count)
{
	int left = ntasks;

	if (ntasks < nnodes)
		return -1;
	for (int i = 0; i < nnodes; i++) {
		int even = ntasks / nnodes + (i < ntasks % nnodes);

		count[i] = even < cap[i] ? even : cap[i];
		if (count[i] < 1)
			return -1;
		left -= count[i];
	}
	for (int i = 0; i < nnodes && left > 0; i++) {
		int more = cap[i] - count[i] < left ? cap[i] - count[i] : left;

		count[i] += more;
		left -= more;
	}
	return left == 0 ? 0 : -1;
}
