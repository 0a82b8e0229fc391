/* SPDX-License-Identifier: GPL-2.0-or-later */
/* step_watch.h - has the step been cancelled while user_init runs? */
#ifndef TM_STEP_WATCH_H
#define TM_STEP_WATCH_H

#include <stdint.h>
#include <sys/types.h>

enum { STEP_WATCH_MAX = 64 };

typedef struct step_watch {
	char net_unix[64];      /* /proc/PID/net/unix of slurmstepd */
	char name[128];         /* "/NODE_JOB.STEP": its socket's file */
	unsigned long seen[STEP_WATCH_MAX]; /* requests open at the last look */
	int looks[STEP_WATCH_MAX];          /* at how many looks in a row */
	int nseen;
} step_watch;

/* Remember slurmstepd's pid: called from slurm_spank_init in slurmstepd
 * itself, where the plugin runs in slurmstepd's own process (later
 * callbacks may run in a clone of it, SlurmdParameters=contain_spank). */
void step_watch_note_stepd(void);

/* Set w up for the step JOB.STEP on node; returns w. */
step_watch *step_watch_init(step_watch *w, const char *node, uint32_t job,
			    uint32_t step);

/* Nonzero when a request that waits for the step's tasks (scancel of the
 * job or the step, srun's own signals) has been open on slurmstepd's
 * socket for STEP_WATCH_LOOKS looks in a row; for helper_job.cancelled,
 * which looks twice a second. */
enum { STEP_WATCH_LOOKS = 3 };
int step_watch_cancelled(void *w);

#endif /* TM_STEP_WATCH_H */
