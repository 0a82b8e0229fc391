/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * output.c - writing the matrix file.  It is written under a temporary
 * name in the same directory and renamed when complete: rename() is
 * atomic within a file system, so a reader sees either no file or all of
 * it, never a half-written one.  The temporary file is made by tmpfile.c:
 * another user's link or file of a guessed name is never written through.
 *
 * Under the commprof command, COMMPROF_PENDING names a file where the
 * complete temporary file and its final name are listed instead (one line
 * each): the command renames it once the program has exited, and only if
 * it succeeded (a program may call MPI_Finalize and then exit 1), so that
 * a failed run never replaces a good matrix.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commprof.h"
#include "tmpfile.h"

static void note_error(struct commprof_writer *w)
{
	if (!w->error)
		w->error = errno ? errno : EIO;
}

int commprof_writer_open(struct commprof_writer *w, const char *path,
			 int size, const char *unit)
{
	int error;

	memset(w, 0, sizeof *w);
	w->path = strdup(path);
	if (w->path)
		w->file = commprof_tmpfile_create(w->path, &w->tmp_path);
	if (!w->file) {
		error = w->path ? errno : ENOMEM;
		free(w->path);
		free(w->tmp_path);
		memset(w, 0, sizeof *w);
		return error;
	}
	if (fprintf(w->file, "{\"size\": %d, \"unit\": \"%s\"", size, unit) < 0)
		note_error(w);
	return 0;
}

static void end_list(struct commprof_writer *w)
{
	if (fputs(w->first_in_list ? "]" : "\n ]", w->file) == EOF)
		note_error(w);
}

void commprof_writer_list(struct commprof_writer *w, const char *name)
{
	if (w->in_list)
		end_list(w);
	w->in_list = true;
	w->first_in_list = true;
	if (fprintf(w->file, ",\n \"%s\": [", name) < 0)
		note_error(w);
}

void commprof_writer_item(struct commprof_writer *w, int i, int j,
			  uint64_t value)
{
	if (fprintf(w->file, "%s\n  [%d, %d, %" PRIu64 "]",
		    w->first_in_list ? "" : ",", i, j, value) < 0)
		note_error(w);
	w->first_in_list = false;
}

/* Lists the complete file for the commprof command; 0 when done, -1 when
 * it is not asked for or the list cannot be written (then the file is
 * renamed as without the command: better a matrix than none).  Only rank
 * 0 creates the list, so that the command of a rank killed early leaves
 * nothing behind; the name is the command's unguessable one, and a file
 * another user made there is not written to. */
static int list_pending(const struct commprof_writer *w)
{
	const char *pending = getenv("COMMPROF_PENDING");
	struct stat st;
	FILE *list;
	int failed, fd;

	if (!pending || !*pending || strchr(w->tmp_path, '\n') ||
	    strchr(w->path, '\n'))
		return -1;
	fd = open(pending, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || st.st_uid != geteuid() ||
	    !S_ISREG(st.st_mode) || !(list = fdopen(fd, "a"))) {
		close(fd);
		return -1;
	}
	failed = fprintf(list, "%s\n%s\n", w->tmp_path, w->path) < 0;
	if (fclose(list) != 0)
		failed = 1;
	return failed ? -1 : 0;
}

int commprof_writer_close(struct commprof_writer *w)
{
	int error;

	if (w->in_list)
		end_list(w);
	if (fputs("}\n", w->file) == EOF)
		note_error(w);
	error = commprof_tmpfile_finish(w->file, w->path);
	if (error && !w->error)
		w->error = error;
	if (!w->error && list_pending(w) != 0 &&
	    rename(w->tmp_path, w->path) != 0)
		note_error(w);
	if (w->error)
		unlink(w->tmp_path);
	error = w->error;
	free(w->path);
	free(w->tmp_path);
	memset(w, 0, sizeof *w);
	return error;
}

void commprof_writer_abort(struct commprof_writer *w)
{
	fclose(w->file);
	unlink(w->tmp_path);
	free(w->path);
	free(w->tmp_path);
	memset(w, 0, sizeof *w);
}

/* Every rank calls this before any data moves: rank 0 (root) opens path
 * (NULL: no memory for the name) for a matrix of `unit`, and all agree
 * that rank 0 could and that each rank is ready (its data packed).  Then
 * either all go on, or nobody sends and nobody waits; rank 0's writer is
 * already closed and *error says why.  Returns whether to go on. */
int commprof_writer_agree(struct commprof_writer *w, bool root,
			  const char *path, const char *unit, int ready,
			  int *error)
{
	int all_ready = 0;

	*error = 0;
	if (root)
		*error = !path || !ready ? ENOMEM
			 : commprof_writer_open(w, path, commprof.world_size,
						unit);
	ready = ready && *error == 0;
	PMPI_Allreduce(&ready, &all_ready, 1, MPI_INT, MPI_MIN,
		       commprof.private_comm);
	if (!all_ready && root && *error == 0) {
		/* rank 0 could write, another rank could not */
		commprof_writer_abort(w);
		*error = ENOMEM;
	}
	return all_ready;
}
