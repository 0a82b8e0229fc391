/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tmpfile.c - a matrix file's temporary file, created safely beside its
 * target (see tmpfile.h).
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tm_random.h"
#include "tmpfile.h"

/* A new name after a collision: collisions of 64 random bits only happen
 * when someone made that very name, so a few tries are plenty. */
enum { CREATE_TRIES = 8 };

FILE *commprof_tmpfile_create(const char *target, char **tmp_path)
{
	size_t room = strlen(target) + sizeof ".tmp." + 16;
	char *name = malloc(room);
	int fd = -1;

	*tmp_path = NULL;
	if (!name) {
		errno = ENOMEM;
		return NULL;
	}
	for (int attempt = 0; attempt < CREATE_TRIES && fd < 0; attempt++) {
		uint64_t bits;

		if (tm_random_u64(&bits) < 0)
			break;
		snprintf(name, room, "%s.tmp.%016llx", target,
			 (unsigned long long)bits);
		/* 0600: nobody else reads a half-written file; the final
		 * mode comes once it is complete */
		fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			  O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	FILE *file = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!file) {
		int error = errno;

		if (fd >= 0) {
			close(fd);
			unlink(name);
		}
		free(name);
		errno = error;
		return NULL;
	}
	*tmp_path = name;
	return file;
}

/* The process's umask without changing it (umask() would, for a moment,
 * for every thread of the application): Linux shows it in
 * /proc/self/status since 4.7; older kernels get the usual 022. */
static mode_t current_umask(void)
{
	FILE *status = fopen("/proc/self/status", "re");
	char line[128];
	unsigned int mask = 022;

	if (!status)
		return mask;
	while (fgets(line, sizeof line, status))
		if (sscanf(line, "Umask: %o", &mask) == 1)
			break;
	fclose(status);
	return (mode_t)(mask & 0777);
}

/* What the target will be: the mode of the file it replaces, so that
 * replacing a matrix the user made private keeps it private; a new file
 * gets what creating it directly would have given. */
static mode_t final_mode(const char *target)
{
	struct stat st;

	if (lstat(target, &st) == 0 && S_ISREG(st.st_mode))
		return st.st_mode & 0777;
	return 0666 & ~current_umask();
}

int commprof_tmpfile_finish(FILE *file, const char *target)
{
	int error = 0;

	if (fflush(file) == EOF || ferror(file))
		error = errno ? errno : EIO;
	if (!error && fchmod(fileno(file), final_mode(target)) != 0)
		error = errno;
	/* the rename that follows must not leave an empty file after a
	 * crash: the data reach the disk first */
	if (!error && fsync(fileno(file)) != 0)
		error = errno;
	if (fclose(file) != 0 && !error)
		error = errno ? errno : EIO;
	return error;
}
