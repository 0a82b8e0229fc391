/* SPDX-License-Identifier: GPL-2.0-or-later */
/* switch_load.c - tm_switch_tree_load: the switch tree from a file, its
 * size checked before it is read (tm_job.h). */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tm_job.h"

static tm_status read_all(const char *path, char **text, size_t *len,
			  tm_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat sb;

	if (fd < 0)
		return tm_error_set(err, TM_ERR_IO, "%s: %s", path,
				    strerror(errno));
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return tm_error_set(err, TM_ERR_IO, "%s: expected a regular "
				    "file", path);
	}
	if (sb.st_size > TM_JOB_MAX_FILE_BYTES) {
		close(fd);
		return tm_error_set(err, TM_ERR_SIZE, "%s: %lld bytes, expected "
				    "at most %lld", path, (long long)sb.st_size,
				    (long long)TM_JOB_MAX_FILE_BYTES);
	}
	size_t cap = (size_t)sb.st_size + 1, n = 0;
	char *buf = malloc(cap);
	if (!buf) {
		close(fd);
		return tm_error_nomem(err);
	}
	/* the file may grow after fstat: read no more than was checked */
	while (n < cap - 1) {
		ssize_t got = read(fd, buf + n, cap - 1 - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;
			free(buf);
			close(fd);
			return tm_error_set(err, TM_ERR_IO, "%s: %s", path,
					    strerror(e));
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	close(fd);
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return TM_OK;
}

tm_status tm_switch_tree_load(const char *path, char *const *nodes,
			      int nnodes, tm_tree **net, int **order,
			      tm_error *err)
{
	char *text = NULL;
	size_t len = 0;

	if (!path)
		return tm_switch_tree_parse(NULL, NULL, 0, nodes, nnodes, net,
					    order, err);
	tm_status st = read_all(path, &text, &len, err);
	if (st != TM_OK) {
		*net = NULL;
		*order = NULL;
		return st;
	}
	st = tm_switch_tree_parse(path, text, len, nodes, nnodes, net, order,
				  err);
	free(text);
	return st;
}
