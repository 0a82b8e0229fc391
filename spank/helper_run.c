/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * helper_run.c - run treematch-helper from slurmstepd (root) as the job's
 * user: the only way user-controlled input (the matrix file) is read on a
 * node, so that a bad or hostile matrix costs at most the time limit.
 *
 * The child gets the user's uid, gid and groups (setresuid/setresgid, so no
 * saved root id remains; it checks that root cannot be regained), no file
 * descriptor of slurmstepd's but its pipes, default signals, a minimal
 * environment, no new privileges, no core dumps, no file growth
 * (RLIMIT_FSIZE 0), a CPU limit, an address-space limit, and dies with its
 * parent.  It is exec'd with an argv, never through a shell.  Its parent
 * is a keeper (helper_keeper.c) that kills everything the helper leaves,
 * whatever session or group it moved to, when the helper ends, when told
 * to, or when the caller dies.  The caller reads at most a bounded amount
 * of output, and stops the helper at the deadline, even once it has
 * closed its output, or as soon as the step is cancelled (job->cancelled,
 * or a SIGTERM or SIGINT pending for slurmstepd).
 * Between fork and exec the child only makes async-signal-safe calls:
 * slurmstepd is multithreaded.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helper_keeper.h"
#include "helper_run.h"

/* What the helper may use: plenty for a node's placement, a wall against a
 * runaway.  Memory: the whole job's matrix is read even for one node. */
#define HELPER_MAX_ADDRESS_SPACE (8LL << 30)

/* Why the child could not exec: written to the status pipe. */
enum child_stage { STAGE_SETUP = 1, STAGE_GROUPS, STAGE_GID, STAGE_UID,
		   STAGE_STILL_ROOT, STAGE_LIMITS, STAGE_EXEC, STAGE_KEEPER };

/* How long the caller waits for the keeper to have killed and reaped
 * everything once told to stop (it needs milliseconds). */
enum { KEEPER_WAIT_MS = 15000 };

static const char *stage_text(int stage)
{
	switch (stage) {
	case STAGE_SETUP: return "cannot set up its standard streams";
	case STAGE_GROUPS: return "cannot set the user's groups";
	case STAGE_GID: return "cannot switch to the user's group";
	case STAGE_UID: return "cannot switch to the user";
	case STAGE_STILL_ROOT: return "could regain root after dropping it";
	case STAGE_LIMITS: return "cannot set its resource limits";
	case STAGE_EXEC: return "cannot execute";
	case STAGE_KEEPER: return "cannot start the keeper";
	}
	return "failed";
}

static void child_fail(int status_fd, int stage)
{
	int msg[2] = { stage, errno };

	if (write(status_fd, msg, sizeof(msg)) < 0) {
		/* the parent will see an exit without a message */
	}
	_exit(127);
}

static void close_other_fds(int keep_max)
{
#ifdef SYS_close_range
	/* close_range(2) where the kernel has it; else one by one. */
	if (syscall(SYS_close_range, (unsigned)keep_max + 1, ~0U, 0) == 0)
		return;
#endif
	long max = sysconf(_SC_OPEN_MAX);
	for (long fd = keep_max + 1; fd < (max > 0 ? max : 65536); fd++)
		close((int)fd);
}

/* The keeper keeps two descriptors of its caller's: all others go. */
static void close_all_but(int a, int b)
{
	int low = a < b ? a : b, high = a < b ? b : a;

	for (int fd = 0; fd < low; fd++)
		close(fd);
	for (int fd = low + 1; fd < high; fd++)
		close(fd);
	close_other_fds(high);
}

static void set_limit(int status_fd, int resource, rlim_t value)
{
	struct rlimit rl = { value, value };

	if (setrlimit(resource, &rl) < 0)
		child_fail(status_fd, STAGE_LIMITS);
}

/* In the child: never returns. */
static void child(const helper_job *job, int out_fd, int err_fd,
		  int status_fd, char *const envp[])
{
	sigset_t none;
	struct sigaction dfl;
	int devnull;

	setpgid(0, 0); /* a group of its own: the deadline kills all of it */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (int s = 1; s < NSIG; s++)
		sigaction(s, &dfl, NULL);

	devnull = job->stdin_fd >= 0 ? job->stdin_fd :
		  open("/dev/null", O_RDONLY);
	if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(out_fd, 1) < 0 ||
	    dup2(err_fd, 2) < 0 || dup2(status_fd, 3) < 0)
		child_fail(status_fd, STAGE_SETUP);
	status_fd = 3;
	if (fcntl(status_fd, F_SETFD, FD_CLOEXEC) < 0)
		child_fail(status_fd, STAGE_SETUP);
	close_other_fds(3); /* slurmstepd's sockets and files stay behind */

	/* slurmstepd calls user_init with the job user's effective uid, gid
	 * and groups, root staying its real and saved uid: setting groups and
	 * gids needs the effective root back first (a no-op when it is). */
	if (!job->as_caller) {
		if (geteuid() != 0 && seteuid(0) < 0)
			child_fail(status_fd, STAGE_GROUPS);
		if (setgroups((size_t)job->ngids, job->gids) < 0)
			child_fail(status_fd, STAGE_GROUPS);
		if (setresgid(job->gid, job->gid, job->gid) < 0)
			child_fail(status_fd, STAGE_GID);
		if (setresuid(job->uid, job->uid, job->uid) < 0)
			child_fail(status_fd, STAGE_UID);
	}
	if (job->uid != 0 && (setuid(0) == 0 || seteuid(0) == 0))
		child_fail(status_fd, STAGE_STILL_ROOT);

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
		child_fail(status_fd, STAGE_LIMITS);
	set_limit(status_fd, RLIMIT_CORE, 0);
	set_limit(status_fd, RLIMIT_FSIZE, 0);
	set_limit(status_fd, RLIMIT_CPU, (rlim_t)job->timeout + 1);
	set_limit(status_fd, RLIMIT_AS, (rlim_t)HELPER_MAX_ADDRESS_SPACE);
	if (chdir("/") < 0)
		child_fail(status_fd, STAGE_SETUP);
	umask(077);

	execve(job->path, job->argv, envp);
	child_fail(status_fd, STAGE_EXEC);
}

/* Append what fd has to *buf, up to max bytes; returns 0 at EOF, 1 when
 * more may come, -1 when past max. */
static int drain(int fd, char **buf, size_t *len, size_t max)
{
	char chunk[4096];
	ssize_t n = read(fd, chunk, sizeof(chunk));

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : 0;
	if (n == 0)
		return 0;
	if (*len + (size_t)n > max)
		return -1;
	char *grown = realloc(*buf, *len + (size_t)n + 1);
	if (!grown)
		return -1;
	memcpy(grown + *len, chunk, (size_t)n);
	*len += (size_t)n;
	grown[*len] = '\0';
	*buf = grown;
	return 1;
}

static long ms_left(const struct timespec *deadline)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (deadline->tv_sec - now.tv_sec) * 1000 +
	       (deadline->tv_nsec - now.tv_nsec) / 1000000;
}

/* How often the step's cancellation is looked for, in ms: job->cancelled
 * (step_watch.c reads the kernel's list of unix sockets) twice a second,
 * and only while a helper runs longer than that, so that a request seen
 * at STEP_WATCH_LOOKS looks in a row stops it within about 1.5 s; pending
 * signals more often. */
enum { CANCEL_POLL_MS = 500, SIGNAL_POLL_MS = 100 };

static void add_ms(struct timespec *t, long ms)
{
	t->tv_sec += ms / 1000;
	t->tv_nsec += ms % 1000 * 1000000;
	if (t->tv_nsec >= 1000000000) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000;
	}
}

/* Is the step being stopped?  slurmstepd blocks SIGTERM and SIGINT in its
 * threads: one that reached the process stays pending, visible here.
 * Slurm's scancel does not signal slurmstepd itself while user_init runs
 * (it waits for the tasks), so job->cancelled looks for its request. */
static int step_stopping(const helper_job *job, struct timespec *next_ask)
{
	sigset_t pending;
	struct timespec now;

	if (sigpending(&pending) == 0 &&
	    (sigismember(&pending, SIGTERM) == 1 ||
	     sigismember(&pending, SIGINT) == 1))
		return 1;
	if (!job->cancelled)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec < next_ask->tv_sec ||
	    (now.tv_sec == next_ask->tv_sec && now.tv_nsec < next_ask->tv_nsec))
		return 0;
	*next_ask = now;
	add_ms(next_ask, CANCEL_POLL_MS);
	return job->cancelled(job->cancel_arg);
}

/* Tells the keeper to stop the helper and all it left (its lifeline
 * closes), and reaps the keeper; SIGKILL only if it does not end in
 * KEEPER_WAIT_MS. */
static void stop_keeper(pid_t keeper, int *lifeline_fd)
{
	struct timespec deadline;
	int status;

	close(*lifeline_fd);
	*lifeline_fd = -1;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	add_ms(&deadline, KEEPER_WAIT_MS);
	for (;;) {
		pid_t got = waitpid(keeper, &status, WNOHANG);
		if (got == keeper || (got < 0 && errno != EINTR))
			return;
		if (ms_left(&deadline) <= 0)
			break;
		struct timespec tick = { 0, 1000000 };
		nanosleep(&tick, NULL);
	}
	kill(keeper, SIGKILL);
	while (waitpid(keeper, &status, 0) < 0 && errno == EINTR)
		;
}

/* Read the helper's output until both pipes close, the deadline, the
 * step's cancellation, or too much output; then reap its keeper (which
 * ends once the helper has, and all it left is killed), stopping it if
 * the helper is still running at the deadline: a helper that closes its
 * output and goes on must not hold slurmstepd. */
static void collect(const helper_job *job, helper_result *res, int out_fd,
		    int err_fd, pid_t keeper, int *lifeline_fd)
{
	struct timespec deadline, next_ask;
	struct pollfd fds[2] = { { out_fd, POLLIN, 0 }, { err_fd, POLLIN, 0 } };
	int open_fds = 2;

	clock_gettime(CLOCK_MONOTONIC, &deadline);
	next_ask = deadline;
	add_ms(&next_ask, CANCEL_POLL_MS);
	deadline.tv_sec += job->timeout;
	while (open_fds > 0) {
		long left = ms_left(&deadline);

		if (left <= 0) {
			res->timed_out = 1;
			break;
		}
		if (step_stopping(job, &next_ask)) {
			res->cancelled = 1;
			break;
		}
		int n = poll(fds, 2, (int)(left > SIGNAL_POLL_MS ? SIGNAL_POLL_MS : left));
		if (n < 0 && errno != EINTR) {
			res->timed_out = 1; /* cannot watch it: stop it */
			break;
		}
		for (int i = 0; i < 2 && n > 0; i++) {
			if (fds[i].fd < 0 || !fds[i].revents)
				continue;
			int more = i == 0
				? drain(fds[i].fd, &res->out, &res->out_len, job->max_out)
				: drain(fds[i].fd, &res->err, &res->err_len, job->max_err);
			if (more < 0) {
				res->too_much = 1;
				open_fds = 0;
				break;
			}
			if (more == 0) {
				fds[i].fd = -1;
				open_fds--;
			}
		}
	}
	/* both pipes closed: it is exiting, or it lives on without them */
	while (!res->timed_out && !res->too_much && !res->cancelled) {
		int status;
		pid_t got = waitpid(keeper, &status, WNOHANG);
		if (got == keeper)
			return;
		if (got < 0 && errno != EINTR) {
			res->timed_out = 1;
			break;
		}
		if (ms_left(&deadline) <= 0) {
			res->timed_out = 1;
			break;
		}
		if (step_stopping(job, &next_ask)) {
			res->cancelled = 1;
			break;
		}
		struct timespec tick = { 0, 2000000 };
		nanosleep(&tick, NULL);
	}
	stop_keeper(keeper, lifeline_fd);
}

/* What the helper's child and keeper wrote on the status pipe: -1 with
 * why filled when the helper could not be started, else 0 with its wait
 * status in *status, or -2 when it was stopped (or the keeper killed)
 * before it ended. */
static int read_status(int fd, const helper_job *job, int *status,
		       char *why, size_t whylen)
{
	int msg[2];

	while (read(fd, msg, sizeof(msg)) == (ssize_t)sizeof(msg)) {
		if (msg[0] > 0) {
			snprintf(why, whylen, "%s %s: %s", stage_text(msg[0]),
				 msg[0] == STAGE_EXEC ? job->path :
				 "for the helper", strerror(msg[1]));
			return -1;
		}
		if (msg[0] == KEEPER_REAPED) {
			*status = msg[1];
			return 0;
		}
		if (msg[0] == KEEPER_STOPPED)
			break;
	}
	return -2;
}

/* In the keeper, a child of the caller: never returns. */
static void run_keeper(const helper_job *job, int out_fd, int err_fd,
		   int status_fd, int lifeline_fd, char *const envp[])
{
	if (keeper_prepare() < 0)
		child_fail(status_fd, STAGE_KEEPER);
	pid_t helper = fork();
	if (helper == 0)
		child(job, out_fd, err_fd, status_fd, envp);
	if (helper < 0)
		child_fail(status_fd, STAGE_KEEPER);
	/* the output pipes, stdin, the caller's files: the helper's only */
	close_all_but(lifeline_fd, status_fd);
	keeper_run(helper, lifeline_fd, status_fd);
}

int helper_run(const helper_job *job, helper_result *res, char *why,
	       size_t whylen)
{
	/* No hwloc plugins (PCI, OpenCL, GL, libxml): the helper needs CPUs
	 * and caches only, and loading them took half of its run time. */
	static char *const envp[] = { "PATH=/usr/bin:/bin", "LC_ALL=C",
				      "HWLOC_PLUGINS_PATH=/dev/null", NULL };
	int out_p[2] = { -1, -1 }, err_p[2] = { -1, -1 }, st_p[2] = { -1, -1 };
	int life_p[2] = { -1, -1 };
	pid_t pid;
	int rc = -1;

	memset(res, 0, sizeof(*res));
	if (pipe2(out_p, O_CLOEXEC) < 0 || pipe2(err_p, O_CLOEXEC) < 0 ||
	    pipe2(st_p, O_CLOEXEC) < 0 || pipe2(life_p, O_CLOEXEC) < 0 ||
	    fcntl(st_p[0], F_SETFL, O_NONBLOCK) < 0) {
		snprintf(why, whylen, "cannot create pipes: %s", strerror(errno));
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(why, whylen, "cannot fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0)
		run_keeper(job, out_p[1], err_p[1], st_p[1], life_p[0],
			   job->envp ? job->envp : envp);

	close(out_p[1]);
	close(err_p[1]);
	close(st_p[1]);
	close(life_p[0]);
	out_p[1] = err_p[1] = st_p[1] = life_p[0] = -1;
	collect(job, res, out_p[0], err_p[0], pid, &life_p[1]);

	int status = 0;
	int got = read_status(st_p[0], job, &status, why, whylen);
	if (got == -1)
		goto out;
	if (got == -2) {
		res->signal = SIGKILL; /* stopped: timed out, cancelled... */
	} else if (WIFEXITED(status)) {
		res->exited = 1;
		res->exit_code = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		res->signal = WTERMSIG(status);
	}
	rc = 0;
out:
	for (int i = 0; i < 2; i++) {
		if (out_p[i] >= 0)
			close(out_p[i]);
		if (err_p[i] >= 0)
			close(err_p[i]);
		if (st_p[i] >= 0)
			close(st_p[i]);
		if (life_p[i] >= 0)
			close(life_p[i]);
	}
	return rc;
}

void helper_result_free(helper_result *res)
{
	free(res->out);
	free(res->err);
	res->out = res->err = NULL;
}
