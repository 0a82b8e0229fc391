/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online_apply.c - moving a task to other CPUs: every thread of it, since
 * sched_setaffinity binds one thread and an MPI process has several (Open
 * MPI's progress and PMIx threads, the application's own).  Threads it
 * creates later inherit the affinity of their creator.
 *
 * Only tasks that registered in the node's segment are ever moved, which
 * only the user's own tasks can do (the segment is theirs, mode 0600).
 * The kernel refuses another user's process anyway, but not to root: the
 * start time recorded at registration makes sure the pid still names the
 * task, not a process that got its number after it exited.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "online.h"

int online_move_task(int pid, uint64_t start_time, const cpu_set_t *cpus)
{
	char path[64];
	struct dirent *e;
	int error = 0, moved = 0;
	DIR *dir;

	if (online_process_start_time(pid) != start_time)
		return ESRCH;
	snprintf(path, sizeof path, "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return errno == ENOENT ? ESRCH : errno;
	while ((e = readdir(dir)) != NULL) {
		char *end;
		long tid = strtol(e->d_name, &end, 10);

		if (*end || tid <= 0)
			continue; /* "." and ".." */
		if (sched_setaffinity((pid_t)tid, sizeof *cpus, cpus) == 0)
			moved++;
		else if (errno != ESRCH && !error)
			error = errno; /* a thread that just ended is fine */
	}
	closedir(dir);
	if (!moved && !error)
		error = ESRCH;
	return moved ? 0 : error;
}
