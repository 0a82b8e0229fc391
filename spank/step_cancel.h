/* SPDX-License-Identifier: GPL-2.0-or-later */
/* step_cancel.h - a task ends its whole step (step_cancel.c). */
#ifndef TM_STEP_CANCEL_H
#define TM_STEP_CANCEL_H

#include <slurm/spank.h>

/* In task_init (the task's own process, as the user): asks Slurm to
 * cancel the task's step, as `scancel JOB.STEP` in the job's environment,
 * waiting for it a few seconds at most.  Prints nothing. */
void step_cancel(spank_t sp);

#endif /* TM_STEP_CANCEL_H */
