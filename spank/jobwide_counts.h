/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jobwide_counts.h - a step's tasks per node (jobwide_counts.c). */
#ifndef TM_JOBWIDE_COUNTS_H
#define TM_JOBWIDE_COUNTS_H

/* count[i]: the tasks of ntasks node i of nnodes takes, none over cap[i]
 * (what node i can hold); 0, or -1 when the step does not fit. */
int jobwide_task_counts(int ntasks, int nnodes, const int *cap, int *count);

#endif /* TM_JOBWIDE_COUNTS_H */
