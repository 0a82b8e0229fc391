/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tmpfile.h - how every matrix file is written (the profiler's output and
 * save=, commprof-matrix merge): into a new file beside the target, under
 * a name nobody can guess, then renamed over the target.  A directory
 * shared with other users (sticky, like /tmp) may hold names another user
 * planted: a symbolic link to one of the writer's own files, or a file of
 * theirs.  The temporary file is therefore created, never reused: O_EXCL
 * and O_NOFOLLOW, mode 0600 while it is written, 64 random bits in its
 * name (getrandom), so that no name can be prepared in advance.
 */
#ifndef COMMPROF_TMPFILE_H
#define COMMPROF_TMPFILE_H

#include <stdio.h>

/* Creates TARGET.tmp.<16 hex digits> for writing and sets *tmp_path to
 * its name (malloc'd).  NULL with errno set on failure (*tmp_path NULL). */
FILE *commprof_tmpfile_create(const char *target, char **tmp_path);

/* Completes the file: flushes, gives it the mode it will have as TARGET
 * (that of the regular file it replaces, or 0666 less the umask for a new
 * one), syncs it to disk and closes it.  0, or the errno of the first
 * failure (the file is closed either way; the caller removes it). */
int commprof_tmpfile_finish(FILE *file, const char *target);

#endif /* COMMPROF_TMPFILE_H */
