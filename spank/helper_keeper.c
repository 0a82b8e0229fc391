/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * helper_keeper.c - the keeper: a process between helper_run's caller
 * (slurmstepd, srun, a task) and the helper, so that nothing the helper
 * starts outlives it.  Killing the helper's process group is not enough: a
 * child that calls setsid() leaves it.  The keeper is a child subreaper
 * (PR_SET_CHILD_SUBREAPER): whatever the helper leaves, in any session or
 * group, becomes the keeper's child when its own parent dies.  When the
 * helper ends, or its caller closes the lifeline (deadline, cancellation,
 * too much output) or dies (kill -9 of srun, a crashing slurmstepd), the
 * keeper kills its children until none is left, reaping each, and
 * reports the helper's wait status on the status pipe.
 *
 * In slurmstepd it keeps slurmstepd's ids (real and saved uid root): the
 * helper, running as the user, cannot kill it to escape.  It is a fork of
 * a multithreaded process that never execs: only async-signal-safe calls
 * here (no malloc, no stdio, no opendir: /proc is read with getdents64).
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helper_keeper.h"

/* A killed process's children come to the keeper when it has exited: the
 * rounds of kill-and-reap go on while any is left, up to this long (a
 * process stuck in the kernel cannot be waited for forever). */
enum { KEEPER_CLEANUP_MS = 10000, KEEPER_ROUND_MS = 2 };

int keeper_prepare(void)
{
	sigset_t all;
	struct sigaction dfl;

	/* SIGCHLD must not be ignored (children would vanish unreaped, and
	 * the helper's status with them); blocked, it stays pending for
	 * the signalfd. */
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(SIGCHLD, &dfl, NULL);
	sigfillset(&all);
	if (sigprocmask(SIG_SETMASK, &all, NULL) < 0)
		return -1;
	/* out of the caller's process group: a terminal's ^C is for srun */
	setpgid(0, 0);
	return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

/* "123" as a pid, or -1. */
static pid_t pid_of(const char *s)
{
	long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 1L << 30)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return (pid_t)v;
}

/* The parent of process pid (from /proc/PID/stat: "pid (comm) state
 * ppid ...", comm may hold anything, so after its last ')'), or -1. */
static pid_t parent_of(const char *pid)
{
	char path[64] = "/proc/", buf[512];
	size_t len = strlen(path);
	ssize_t n;
	int fd;

	if (strlen(pid) > sizeof(path) - len - sizeof("/stat"))
		return -1;
	strcpy(path + len, pid);
	strcat(path, "/stat");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	char *close_paren = strrchr(buf, ')');
	if (!close_paren || close_paren[1] != ' ' || !close_paren[2] ||
	    close_paren[3] != ' ')
		return -1;
	char *ppid = close_paren + 4, *end = strchr(ppid, ' ');
	if (!end)
		return -1;
	*end = '\0';
	return pid_of(ppid);
}

/* SIGKILL to every child of the keeper, the helper's leftovers that came
 * to it included; how many there were (zombies too), -1 when /proc
 * cannot be read. */
static int kill_children(void)
{
	char buf[4096];
	pid_t self = getpid();
	int fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC), found = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	while ((n = getdents64(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t off = 0; off < n;) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);
			pid_t pid = pid_of(d->d_name);

			off += d->d_reclen;
			if (pid > 0 && parent_of(d->d_name) == self) {
				kill(pid, SIGKILL);
				found++;
			}
		}
	}
	close(fd);
	return n < 0 ? -1 : found;
}

/* Reap what has ended; notes the helper's status.  0 when no child is
 * left at all. */
static int reap(pid_t helper, int *helper_status, int *helper_done)
{
	int status;
	pid_t got;

	while ((got = waitpid(-1, &status, WNOHANG)) > 0) {
		if (got == helper) {
			*helper_status = status;
			*helper_done = 1;
		}
	}
	return !(got < 0 && errno == ECHILD);
}

void keeper_run(pid_t helper, int lifeline_fd, int status_fd)
{
	sigset_t chld;
	int status = 0, done = 0;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	int sfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
	struct pollfd fds[2] = { { lifeline_fd, POLLIN, 0 }, { sfd, POLLIN, 0 } };

	reap(helper, &status, &done);
	while (!done) {
		/* without a signalfd: look for the helper's end ten times a
		 * second */
		int n = poll(fds, sfd >= 0 ? 2 : 1, sfd >= 0 ? -1 : 100);

		if (n < 0 && errno != EINTR)
			break;
		if (n > 0 && fds[0].revents)
			break; /* the caller stops it, or is gone */
		if (sfd >= 0 && n > 0 && fds[1].revents) {
			struct signalfd_siginfo si;
			while (read(sfd, &si, sizeof(si)) == sizeof(si))
				;
		}
		reap(helper, &status, &done);
	}
	/* the helper's group first: at once, even where /proc is not
	 * readable; then, round after round, every child left */
	if (!done)
		kill(-helper, SIGKILL);
	struct timespec tick = { 0, KEEPER_ROUND_MS * 1000000L };
	for (int ms = 0; ms < KEEPER_CLEANUP_MS; ms += KEEPER_ROUND_MS) {
		/* nothing left (the usual end): no look at /proc */
		if (!reap(helper, &status, &done))
			break;
		if (kill_children() < 0 && !done)
			kill(helper, SIGKILL);
		nanosleep(&tick, NULL);
	}
	int msg[2] = { done ? KEEPER_REAPED : KEEPER_STOPPED,
		       done ? status : 0 };
	if (write(status_fd, msg, sizeof(msg)) < 0) {
		/* the caller will see no status: it treats the helper as
		 * killed */
	}
	_exit(0);
}
