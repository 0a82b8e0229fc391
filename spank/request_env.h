/* SPDX-License-Identifier: GPL-2.0-or-later */
/* request_env.h - the environments a step's request is read from and
 * written to (request_env.c). */
#ifndef TM_REQUEST_ENV_H
#define TM_REQUEST_ENV_H

#include <slurm/spank.h>

#include "request.h"

/* This process's environment: srun, sbatch, salloc. */
request_env request_env_process(void);
/* The job's environment in slurmstepd. */
request_env request_env_job(spank_t sp);

#endif /* TM_REQUEST_ENV_H */
