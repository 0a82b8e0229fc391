/* SPDX-License-Identifier: GPL-2.0-or-later */
/* helper_run.h - run treematch-helper as the job's user (helper_run.c). */
#ifndef TM_HELPER_RUN_H
#define TM_HELPER_RUN_H

#include <stddef.h>
#include <sys/types.h>

typedef struct helper_job {
	const char *path;
	char **argv;           /* argv[0] is the path; NULL-terminated */
	uid_t uid;
	gid_t gid;
	const gid_t *gids;     /* supplementary groups */
	int ngids;
	int timeout;           /* seconds of wall time */
	size_t max_out;        /* bytes of stdout kept; more kills it */
	size_t max_err;
	int as_caller;         /* srun: already the user, keep its ids */
	int stdin_fd;          /* the helper's stdin; -1: /dev/null */
	char *const *envp;     /* its environment; NULL: a minimal one */
	/* Asked about once a second while the helper runs (NULL: never):
	 * nonzero when what it works for is gone (the step was cancelled),
	 * and the helper is stopped at once instead of at its deadline. */
	int (*cancelled)(void *arg);
	void *cancel_arg;
} helper_job;

typedef struct helper_result {
	char *out;             /* NUL-terminated, or NULL if nothing */
	size_t out_len;
	char *err;
	size_t err_len;
	int exited, exit_code; /* exited normally, with this status */
	int signal;            /* or killed by this signal */
	int timed_out;         /* killed at the deadline */
	int too_much;          /* killed for printing too much */
	int cancelled;         /* killed because job->cancelled said so */
} helper_result;

/* 0 when the helper ran (see res), -1 when it could not be started (why
 * says what failed: fork, groups, uid, exec...). */
int helper_run(const helper_job *job, helper_result *res, char *why,
	       size_t whylen);
void helper_result_free(helper_result *res);

#endif /* TM_HELPER_RUN_H */
