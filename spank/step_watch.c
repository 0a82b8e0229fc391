/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * step_watch.c - notice scancel while user_init runs (doc/slurm-releases.md,
 * "Cancel").
 *
 * scancel of a job or of a step, and srun's signals, reach slurmstepd as a
 * request from slurmd on the step's own unix socket (SlurmdSpoolDir/
 * NODE_JOB.STEP).  Until the tasks exist, slurmstepd holds every such
 * request open and waits for them (its _wait_for_job_running, up to two
 * minutes), so nothing else tells the plugin; on every release from 22.05
 * to 26.05.  The accepted connection shows in the kernel's list of unix
 * sockets under the listening socket's name: a connection on that name
 * that is still open at two looks in a row is such a request.  The short
 * ones (state, stat, list pids) are answered in milliseconds.
 *
 * This depends on no thread name nor on which process runs user_init
 * (26.05 names slurmstepd's request threads worker[N]; contain_spank runs
 * user_init in a clone of slurmstepd), only on the socket's name and on
 * slurmstepd holding such a request open.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "step_watch.h"

static pid_t stepd_pid;

void step_watch_note_stepd(void)
{
	stepd_pid = getpid();
}

step_watch *step_watch_init(step_watch *w, const char *node, uint32_t job,
			    uint32_t step)
{
	memset(w, 0, sizeof(*w));
	snprintf(w->net_unix, sizeof(w->net_unix), "/proc/%ld/net/unix",
		 (long)(stepd_pid ? stepd_pid : getpid()));
	snprintf(w->name, sizeof(w->name), "/%s_%u.%u", node, job, step);
	return w;
}

/* Is path the step's socket: ".../NAME" or ".../NAME.COMPONENT" (a
 * heterogeneous step)? */
static int step_socket(const step_watch *w, const char *path)
{
	size_t n = strlen(w->name), len = strlen(path);
	const char *end = path + len;

	for (const char *p = path; (p = strstr(p, w->name)); p++) {
		const char *rest = p + n;

		if (rest == end)
			return 1;
		if (*rest == '.' && rest[1] &&
		    strspn(rest + 1, "0123456789") == (size_t)(end - rest - 1))
			return 1;
	}
	return 0;
}

/* At how many looks in a row before this one inode was open. */
static int looks_before(const step_watch *w, unsigned long inode)
{
	for (int i = 0; i < w->nseen; i++)
		if (w->seen[i] == inode)
			return w->looks[i];
	return 0;
}

int step_watch_cancelled(void *arg)
{
	step_watch *w = arg;
	unsigned long now[STEP_WATCH_MAX];
	int looks[STEP_WATCH_MAX];
	int n = 0, waiting = 0;
	char line[512];
	FILE *f = fopen(w->net_unix, "re");

	if (!f)
		return 0;
	/* "Num RefCount Protocol Flags Type St Inode Path": St 03 is a
	 * connected socket; the listening one is 01 */
	while (fgets(line, sizeof(line), f)) {
		unsigned long inode;
		unsigned st;
		char path[sizeof(line)];

		/* inode 0: a connection still in the listening socket's
		 * backlog, which slurmstepd has not accepted (it may not
		 * until user_init is over): nothing waits for the tasks yet */
		if (sscanf(line, "%*s %*s %*s %*s %*s %x %lu %511s", &st,
			   &inode, path) != 3 || st != 3 || inode == 0 ||
		    !step_socket(w, path))
			continue;
		if (n == STEP_WATCH_MAX)
			continue;
		now[n] = inode;
		looks[n] = looks_before(w, inode) + 1;
		if (looks[n] >= STEP_WATCH_LOOKS)
			waiting = 1;
		n++;
	}
	fclose(f);
	memcpy(w->seen, now, (size_t)n * sizeof(*now));
	memcpy(w->looks, looks, (size_t)n * sizeof(*looks));
	w->nseen = n;
	return waiting;
}
