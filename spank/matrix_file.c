/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * matrix_file.c - which file a step's matrix is, and whether a file of the
 * site's matrix_dir may be used: shared by srun's checks (local.c), its
 * job-wide step (jobwide.c) and the nodes (remote.c).
 *
 * --comm-matrix=FILE: an absolute path; a relative path with a '/' against
 * the current directory; a bare name in the current directory, else in the
 * site's matrix_dir.  An #SBATCH --comm-matrix reaches the script's sruns
 * as an option again; sbatch resolved it against its own directory and
 * passes that path on, so a script that changes directory still gets the
 * file it was submitted with.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "request_env.h"
#include "tm_spank.h"

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static int join(char *out, size_t size, const char *dir, const char *name)
{
	int n = snprintf(out, size, "%s/%s", dir, name);

	return n < 0 || (size_t)n >= size ? -1 : 0;
}

int matrix_file_in_dir(const char *dir, const char *name, char *out,
		       size_t size)
{
	return join(out, size, dir, name) == 0 && exists(out) ? 0 : -1;
}

void matrix_file_resolve(const site_config *cfg, const char *arg,
			  char *path, size_t psize, char *problem,
			  size_t plen)
{
	char cwd[PATH_TEXT_MAX];
	/* what sbatch resolved for the steps of its job (a request of its
	 * own, read and checked like a node's) */
	static step_request sbatch;
	request_env env = request_env_process();
	request_error err;

	if (request_read(&sbatch, &env, &err) == 0 && sbatch.matrix_arg[0] &&
	    !strcmp(sbatch.matrix_arg, arg) && sbatch.matrix[0]) {
		snprintf(path, psize, "%s", sbatch.matrix);
		return;
	}
	if (arg[0] == '/') {
		if (strlen(arg) >= psize)
			snprintf(problem, plen,
				 "--comm-matrix: path too long");
		else
			strcpy(path, arg);
		return;
	}
	if (!getcwd(cwd, sizeof(cwd))) {
		snprintf(problem, plen,
			 "%.512s: cannot tell the current directory: %s", arg,
			 strerror(errno));
		return;
	}
	if (join(path, psize, cwd, arg) < 0) {
		snprintf(problem, plen,
			 "--comm-matrix: path too long");
		return;
	}
	if (strchr(arg, '/') || exists(path) || !cfg->matrix_dir[0])
		return;
	char site[PATH_TEXT_MAX];
	if (matrix_file_in_dir(cfg->matrix_dir, arg, site, sizeof(site)) == 0) {
		snprintf(path, psize, "%s", site);
		return;
	}
	snprintf(problem, plen,
		 "%.256s: no such file in %.256s nor in the site's matrix_dir %.256s",
		 arg, cwd, cfg->matrix_dir);
}

int matrix_file_trusted(const site_config *cfg, const char *path,
			    uid_t user, char *problem, size_t plen)
{
	size_t dlen = strlen(cfg->matrix_dir);
	struct stat st;

	while (dlen > 1 && cfg->matrix_dir[dlen - 1] == '/')
		dlen--;
	const char *name = path + dlen;
	if (!dlen || strncmp(path, cfg->matrix_dir, dlen) != 0 || *name != '/')
		return 0;
	name += strspn(name, "/");
	if (strchr(name, '/'))
		return 0; /* not the site's: the user chose it by its path */
	/* matrix_dir's files are picked by name (auto=yes: the job's name),
	 * so anyone who can put one there chooses other users' placements */
	if (stat(cfg->matrix_dir, &st) < 0) {
		snprintf(problem, plen, "%.512s: cannot open the site's "
			 "matrix_dir: %s", cfg->matrix_dir, strerror(errno));
		return -1;
	}
	if ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX)) {
		snprintf(problem, plen, "%.512s: the site's matrix_dir is "
			 "writable by everyone without the sticky bit: its files "
			 "are not used", cfg->matrix_dir);
		return -1;
	}
	if (stat(path, &st) < 0) {
		snprintf(problem, plen, "%.512s: cannot open: %s", path,
			 strerror(errno));
		return -1;
	}
	if (st.st_uid != 0 && st.st_uid != user) {
		snprintf(problem, plen, "%.512s: owned by uid %u, expected root "
			 "or the job's user (uid %u) in the site's matrix_dir",
			 path, (unsigned)st.st_uid, (unsigned)user);
		return -1;
	}
	return 0;
}
