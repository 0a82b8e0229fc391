/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * helper_keeper.h - the process between helper_run's caller and the
 * helper, that makes every descendant of the helper die with it
 * (helper_keeper.c).
 */
#ifndef TM_HELPER_KEEPER_H
#define TM_HELPER_KEEPER_H

#include <sys/types.h>

/* What the keeper writes on the status pipe when it is done, as two ints:
 * { KEEPER_REAPED, the helper's wait status } or { KEEPER_STOPPED, 0 }
 * when it was told to stop (or its caller died) before the helper ended. */
enum { KEEPER_REAPED = -1, KEEPER_STOPPED = -2 };

/* In the keeper, before it forks the helper: makes it the subreaper of
 * whatever the helper leaves, with every signal blocked (only SIGKILL
 * stops it: its caller's end of the lifeline is what tells it to stop).
 * 0, or -1 with errno. */
int keeper_prepare(void);

/* In the keeper, once the helper runs: waits for the helper to end or for
 * the lifeline (the read end of a pipe whose only write end the caller
 * holds) to close, then kills and reaps every process left below it and
 * writes its message on status_fd.  Never returns. */
void keeper_run(pid_t helper, int lifeline_fd, int status_fd)
	__attribute__((noreturn));

#endif /* TM_HELPER_KEEPER_H */
