/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * matrix_load.c - reading a matrix file and handing it to the reader of
 * its format (JSON or TreeMatch's .mat), told apart by its first byte.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "matrix/matrix_parse.h"

static tm_status parse_sized(const char *name, const char *text, size_t len,
			     long order, tm_matrix **out, tm_error *err)
{
	size_t first = 0;

	*out = NULL;
	while (first < len && (tm__is_blank(text[first]) || text[first] == '\n'))
		first++;
	if (first == len)
		return tm_error_set(err, TM_ERR_FORMAT,
				    "%s: empty file: expected a JSON object "
				    "or rows of numbers", name);
	/* A .mat row starts with a number, never with a bracket, so one
	 * byte decides; '[' goes to JSON to be told that the top level
	 * must be an object. */
	if (text[first] == '{' || text[first] == '[')
		return tm__matrix_parse_json(name, text, len, order, out, err);
	return tm__matrix_parse_mat(name, text, len, order, out, err);
}

tm_status tm_matrix_parse(const char *name, const char *text, size_t len,
			  tm_matrix **out, tm_error *err)
{
	return parse_sized(name, text, len, -1, out, err);
}

static tm_status io_error(const char *path, const char *what, int errnum,
			  tm_error *err)
{
	return tm_error_set(err, TM_ERR_IO, "%s: %s: %s", path, what,
			    strerror(errnum));
}

/* The whole content of an open file.  Reads to the end rather than
 * trusting st_size, so that pipes and /proc-like files work too; the one
 * spare byte lets the read that meets the end of a regular file succeed
 * without growing the buffer. */
static tm_status too_large(const char *path, long long max_bytes,
			   tm_error *err)
{
	return tm_error_set(err, TM_ERR_RANGE, "%s: more than %lld bytes, the "
			    "limit (--max-size, the site's max_size)", path,
			    max_bytes);
}

static tm_status read_all(int fd, const char *path, const struct stat *st,
			  long long max_bytes, char **text, size_t *len,
			  tm_error *err)
{
	size_t capacity = S_ISREG(st->st_mode) && st->st_size > 0 ?
		(size_t)st->st_size + 1 : 65536;
	size_t used = 0;
	char *buffer = malloc(capacity);

	if (!buffer)
		return tm_error_nomem(err);
	for (;;) {
		if (used == capacity) {
			char *bigger = capacity > SIZE_MAX / 2 ? NULL :
				realloc(buffer, 2 * capacity);
			if (!bigger) {
				free(buffer);
				return tm_error_nomem(err);
			}
			buffer = bigger;
			capacity *= 2;
		}
		ssize_t got = read(fd, buffer + used, capacity - used);
		if (got == 0)
			break;
		if (got < 0) {
			if (errno == EINTR)
				continue;
			int errnum = errno;
			free(buffer);
			return io_error(path, "cannot read", errnum, err);
		}
		used += (size_t)got;
		if (max_bytes > 0 && used > (size_t)max_bytes) {
			free(buffer);
			return too_large(path, max_bytes, err);
		}
	}
	*text = buffer;
	*len = used;
	return TM_OK;
}

tm_status tm_matrix_load(const char *path, tm_matrix **out, tm_error *err)
{
	return tm_matrix_load_limited(path, 0, out, err);
}

tm_status tm_matrix_load_limited(const char *path, long long max_bytes,
				 tm_matrix **out, tm_error *err)
{
	return tm_matrix_load_sized(path, max_bytes, -1, out, err);
}

tm_status tm_matrix_load_sized(const char *path, long long max_bytes,
			       long order, tm_matrix **out, tm_error *err)
{
	struct stat st;
	char *text = NULL;
	size_t len = 0;
	tm_status status;
	int fd, errnum = 0;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return io_error(path, "cannot open", errno, err);
	/* open() accepts a directory; say so now rather than let read()
	 * fail with a less obvious message. */
	if (fstat(fd, &st) != 0)
		errnum = errno;
	else if (S_ISDIR(st.st_mode))
		errnum = EISDIR;
	if (errnum != 0) {
		close(fd);
		return io_error(path, "cannot open", errnum, err);
	}
	if (max_bytes > 0 && S_ISREG(st.st_mode) && st.st_size > max_bytes) {
		close(fd);
		return too_large(path, max_bytes, err);
	}
	status = read_all(fd, path, &st, max_bytes, &text, &len, err);
	close(fd);
	if (status != TM_OK)
		return status;
	status = parse_sized(path, text, len, order, out, err);
	free(text);
	return status;
}

tm_status tm_matrix_check_file(const char *path, long long max_bytes,
			       int *size, tm_error *err)
{
	tm_matrix *m = NULL;
	tm_status status = tm_matrix_load_sized(path, max_bytes,
						TM__ORDER_CHECK_ONLY, &m, err);

	*size = status == TM_OK ? m->n : 0;
	tm_matrix_free(m);
	return status;
}
