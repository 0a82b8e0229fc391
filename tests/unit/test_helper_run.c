/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_helper_run.c - the plugin's way of running a helper (helper_run.c,
 * helper_keeper.c), as its caller, with small shell helpers: its output
 * and status come back, and nothing it starts outlives it, not even a
 * child in a session of its own (setsid): after a helper that ends, one
 * stopped at its deadline, and one whose caller is killed (kill -9).
 */
#include <config.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "helper_run.h"

static char marker[64];

/* How many live processes have the marker in their command line. */
static int marked(void)
{
	DIR *proc = opendir("/proc");
	struct dirent *d;
	int n = 0;

	while (proc && (d = readdir(proc))) {
		char path[300], buf[4096];
		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cmdline", d->d_name);
		int fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		ssize_t len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		for (ssize_t i = 0; i < len; i++)
			if (!buf[i])
				buf[i] = ' ';
		buf[len > 0 ? len : 0] = '\0';
		if (strstr(buf, marker))
			n++;
	}
	if (proc)
		closedir(proc);
	return n;
}

/* marked() once no more than want, waiting up to ms for it. */
static int marked_within(int want, int ms)
{
	int n = marked();

	for (int waited = 0; n > want && waited < ms; waited += 10) {
		usleep(10000);
		n = marked();
	}
	return n;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* Runs `bash -c script` through helper_run; rc of helper_run. */
static int run(const char *script, int timeout, helper_result *res,
	       char *why, size_t whylen)
{
	char *argv[] = { "/bin/bash", "-c", (char *)script, marker, NULL };
	helper_job job = { "/bin/bash", argv, getuid(), getgid(), NULL, 0,
			   timeout, 65536, 65536, .as_caller = 1,
			   .stdin_fd = -1 };

	return helper_run(&job, res, why, whylen);
}

/* A child in a session of its own that sleeps under the marker's name
 * ($0), its output sent away or kept on the helper's pipes. */
#define ORPHAN_QUIET "setsid bash -c 'exec -a \"$0-orphan\" sleep 300' \"$0\" " \
	"</dev/null >/dev/null 2>&1 & "
#define ORPHAN_LOUD "setsid bash -c 'exec -a \"$0-orphan\" sleep 300' \"$0\" & "

static void test_output_and_status(void)
{
	helper_result res;
	char why[256] = "";

	int rc = run("echo placed; echo oops >&2; exit 3", 5, &res, why,
		     sizeof(why));
	CHECK_INT(rc, 0, "a helper that runs: helper_run says it ran");
	CHECK_STR(res.out, "placed\n", "its standard output comes back");
	CHECK_STR(res.err, "oops\n", "its standard error comes back");
	CHECK(res.exited && res.exit_code == 3, "its exit status comes back");
	helper_result_free(&res);

	char *argv[] = { "/nonexistent/helper", NULL };
	helper_job job = { "/nonexistent/helper", argv, getuid(), getgid(),
			   NULL, 0, 5, 65536, 65536, .as_caller = 1,
			   .stdin_fd = -1 };
	rc = helper_run(&job, &res, why, sizeof(why));
	CHECK_INT(rc, -1, "a helper that does not exist: not run");
	CHECK_STR(why, "cannot execute /nonexistent/helper: No such file or "
		  "directory", "... and why says so");
	helper_result_free(&res);
}

static void test_setsid_child_ends_with_helper(void)
{
	helper_result res;
	char why[256] = "";

	double t0 = now_s();
	int rc = run(ORPHAN_QUIET "sleep 0.2; echo done", 20, &res, why,
		     sizeof(why));
	CHECK(rc == 0 && res.exited && res.exit_code == 0 && res.out &&
	      !strcmp(res.out, "done\n"),
	      "a helper that leaves a setsid child answers as usual");
	CHECK_INT(marked(), 0, "... and its child is gone when helper_run "
		  "returns");
	helper_result_free(&res);

	rc = run(ORPHAN_LOUD "echo done", 20, &res, why, sizeof(why));
	CHECK(rc == 0 && res.exited && res.exit_code == 0,
	      "a setsid child that keeps the helper's output open");
	CHECK(now_s() - t0 < 10, "... does not hold its caller until the "
	      "deadline (%.1f s)", now_s() - t0);
	CHECK_INT(marked(), 0, "... and is gone when helper_run returns");
	helper_result_free(&res);
}

static void test_setsid_child_ends_at_deadline(void)
{
	helper_result res;
	char why[256] = "";

	double t0 = now_s();
	int rc = run(ORPHAN_QUIET "exec -a \"$0\" sleep 300", 1, &res, why,
		     sizeof(why));
	CHECK(rc == 0 && res.timed_out, "a helper that hangs is stopped at "
	      "its deadline");
	CHECK(now_s() - t0 < 5, "... promptly (%.1f s, timeout 1 s)",
	      now_s() - t0);
	CHECK_INT(marked(), 0, "... with its setsid child");
	helper_result_free(&res);
}

static void test_setsid_child_ends_with_caller(void)
{
	pid_t caller = fork();

	if (caller == 0) {
		helper_result res;
		char why[256];

		run(ORPHAN_QUIET "exec -a \"$0\" sleep 300", 60, &res, why,
		    sizeof(why));
		_exit(0);
	}
	/* the helper and its child, each with the marker */
	int n = 0;
	for (int waited = 0; waited < 10000 && n < 2; waited += 10) {
		usleep(10000);
		n = marked();
	}
	CHECK_INT(n, 2, "a hanging helper and its setsid child run");
	kill(caller, SIGKILL);
	waitpid(caller, NULL, 0);
	CHECK_INT(marked_within(0, 5000), 0, "kill -9 of the helper's "
		  "caller: the helper and its setsid child are gone");
}

int main(void)
{
	snprintf(marker, sizeof(marker), "tm-test-helper-run-%ld",
		 (long)getpid());
	test_output_and_status();
	test_setsid_child_ends_with_helper();
	test_setsid_child_ends_at_deadline();
	test_setsid_child_ends_with_caller();
	return check_status();
}
