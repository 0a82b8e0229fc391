/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scotch.c - Scotch's mapping of the matrix onto the job's tree, the peer
 * the helper is measured against: scotch_gmap (Debian package scotch) on
 * the matrix as a weighted graph and the tree as a "tleaf" target with the
 * same level costs, as tests/bench/bench_quality.c runs it.
 *
 * One thread (SCOTCH_PTHREAD_NUMBER=1): scotch_gmap 7.0.3's threaded
 * mapping crashes or hangs now and then, and one thread gives the same
 * mapping every time, so the benchmark's table can be reproduced.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../bench_scotch.h"
#include "../bench_valid.h"
#include "tmsim.h"

extern char **environ;

/* Far more than scotch_gmap needs for 1,024 ranks (well under a second);
 * a hung run must not stall the benchmark. */
enum { SCOTCH_LIMIT_SECONDS = 120 };

static int run_gmap(char *const argv[])
{
	pid_t pid;
	int status;
	time_t t0 = time(NULL);
	posix_spawn_file_actions_t fa;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	setenv("SCOTCH_PTHREAD_NUMBER", "1", 1);
	if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		return -1;
	}
	posix_spawn_file_actions_destroy(&fa);
	for (;;) {
		pid_t got = waitpid(pid, &status, WNOHANG);
		if (got == pid)
			break;
		if ((got < 0 && errno != EINTR) ||
		    time(NULL) - t0 > SCOTCH_LIMIT_SECONDS) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -1;
		}
		usleep(10000);
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int tmsim_place_scotch(const tmsim_job *job, const tm_matrix *m,
		       int *leaf_of, int *moved, tm_error *err)
{
	const char *tmp = getenv("TMPDIR");
	char dir[256], grf[300], tgt[300], map[300];
	int status = -1;

	if (!tm_tree_is_regular(job->tree))
		return tm_error_set(err, TM_ERR_TOPOLOGY, "scotch: %s is not "
				    "a regular tree, and Scotch's tleaf target "
				    "needs one", job->node_spec), -1;
	snprintf(dir, sizeof(dir), "%s/tmsim-scotch.XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return tm_error_set(err, TM_ERR_IO, "scotch: cannot make a "
				    "directory %s: %s", dir,
				    strerror(errno)), -1;
	snprintf(grf, sizeof(grf), "%s/m.grf", dir);
	snprintf(tgt, sizeof(tgt), "%s/t.tgt", dir);
	snprintf(map, sizeof(map), "%s/m.map", dir);
	char *argv[] = { "scotch_gmap", grf, tgt, map, NULL };
	if (bench_scotch_write_graph(grf, m) ||
	    bench_scotch_write_tleaf(tgt, job->tree))
		tm_error_set(err, TM_ERR_IO, "scotch: cannot write %s", dir);
	else if (run_gmap(argv) || bench_scotch_read_map(map, m->n, leaf_of))
		tm_error_set(err, TM_ERR_IO, "scotch: scotch_gmap %s %s failed "
			     "or gave no mapping for %d ranks", grf, tgt, m->n);
	else if (bench_overloaded(job->tree, m->n, leaf_of) < 0)
		tm_error_set(err, TM_ERR_RANGE, "scotch: %s: a rank on no "
			     "leaf of the target", map);
	else if ((*moved = bench_repair(job->tree, m, leaf_of)) < 0)
		tm_error_nomem(err);
	else
		status = 0;
	unlink(grf);
	unlink(tgt);
	unlink(map);
	rmdir(dir);
	return status;
}
