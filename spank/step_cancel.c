/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * step_cancel.c - on_error=fail means the whole step fails: a node that
 * cannot place its ranks refuses its tasks, and one of them, already the
 * user's process (task_init), cancels the step so that the tasks already
 * running on other nodes end too, promptly, and srun exits non-zero.
 *
 * It runs Slurm's scancel rather than calling libslurm: the task is a fork
 * of the multithreaded slurmstepd, whose locks it must not touch, and
 * slurm_kill_job_step called from slurmstepd's user_init crashed
 * slurmstepd on Slurm 26.05.  scancel gets the job's environment (its
 * SLURM_CONF) and runs like any command of the user's, through
 * helper_run: bounded in time, its output dropped.
 */
#include <config.h>

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "helper_run.h"
#include "step_cancel.h"

/* scancel asks slurmctld once: if that takes longer, the refused tasks
 * end the step in failure all the same. */
enum { SCANCEL_TIMEOUT_S = 10 };

/* The configured scancel, else the first one on the job's PATH. */
static const char *scancel_path(char **env, char *buf, size_t size)
{
	const char *path = NULL;

	if (access(TM_SCANCEL_PATH, X_OK) == 0)
		return TM_SCANCEL_PATH;
	for (int i = 0; env && env[i]; i++)
		if (!strncmp(env[i], "PATH=", 5))
			path = env[i] + 5;
	while (path && *path) {
		size_t len = strcspn(path, ":");

		if (len > 0 && (size_t)snprintf(buf, size, "%.*s/scancel",
						(int)len, path) < size &&
		    buf[0] == '/' && access(buf, X_OK) == 0)
			return buf;
		path += len + (path[len] == ':');
	}
	return NULL;
}

void step_cancel(spank_t sp)
{
	uint32_t jobid = 0, stepid = 0;
	char **env = NULL, id[32], why[256], found[PATH_MAX];
	helper_result res;

	if (spank_get_item(sp, S_JOB_ID, &jobid) != ESPANK_SUCCESS ||
	    spank_get_item(sp, S_JOB_STEPID, &stepid) != ESPANK_SUCCESS)
		return;
	if (spank_get_item(sp, S_JOB_ENV, &env) != ESPANK_SUCCESS)
		env = NULL;
	const char *path = scancel_path(env, found, sizeof(found));
	if (!path)
		return;
	snprintf(id, sizeof(id), "%u.%u", jobid, stepid);
	char *argv[] = { (char *)path, "--quiet", id, NULL };
	helper_job job = { path, argv, getuid(), getgid(), NULL, 0,
			   SCANCEL_TIMEOUT_S, 65536, 65536, .as_caller = 1,
			   .stdin_fd = -1, .envp = env };
	if (helper_run(&job, &res, why, sizeof(why)) == 0)
		helper_result_free(&res);
}
