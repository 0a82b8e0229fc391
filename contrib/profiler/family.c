/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * family.c - which MPI a process runs with (doc/profiler.md, "Which MPI").
 *
 * The MPI that matters is the one the program's calls bind to: the first
 * definition of PMPI_Init in the process's global scope.  A profiler
 * library of another family may have pulled its own MPI in as well, but the
 * program and its own libraries come first in that scope, so the answer is
 * the program's.  The family is read from that library's soname: the
 * soname is the ABI's promise, the one thing every MPI of a family keeps
 * (Open MPI 3 to 5: libmpi.so.40; the MPICH ABI of MPICH, Intel MPI,
 * MVAPICH and Cray MPICH: libmpi.so.12, libmpich.so.12, libmpi_cray.so.12).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "family.h"

const char *commprof_family_of_soname(const char *file)
{
	const char *base = strrchr(file, '/');

	base = base ? base + 1 : file;
	if (strncmp(base, "libmpi", 6) != 0)
		return "";
	if (strncmp(base, "libmpi.so.40", 12) == 0)
		return "openmpi";
	/* the MPICH ABI's soname version, whatever the vendor's name */
	const char *so = strstr(base, ".so.12");
	if (so && (so[6] == '\0' || so[6] == '.'))
		return "mpich";
	return "";
}

const char *commprof_family_of_process(char *path, size_t size)
{
	void *init = dlsym(RTLD_DEFAULT, "PMPI_Init");
	Dl_info info;

	path[0] = '\0';
	if (!init)
		return NULL;
	if (!dladdr(init, &info) || !info.dli_fname)
		return "";
	snprintf(path, size, "%s", info.dli_fname);
	return commprof_family_of_soname(info.dli_fname);
}

int commprof_family_library(const char *self, const char *family,
			    char *out, size_t size)
{
	const char *slash = strrchr(self, '/');
	int dir = slash ? (int)(slash - self) : 1;
	int n = snprintf(out, size, "%.*s/libcommprof-%s.so", dir,
			 slash ? self : ".", family);

	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* Whether the LD_PRELOAD element p (n bytes) names the file `path`: the
 * same name, or its base name, which ld.so looked for in its directories
 * (it then reports the path it found). */
static int names(const char *p, size_t n, const char *path)
{
	const char *base = strrchr(path, '/');

	if (n == strlen(path) && !strncmp(p, path, n))
		return 1;
	base = base ? base + 1 : path;
	return !memchr(p, '/', n) && n == strlen(base) && !strncmp(p, base, n);
}

int commprof_preload_replace(const char *list, const char *old,
			     const char *new, char *out, size_t size)
{
	size_t len = 0;
	int found = 0;

	out[0] = '\0';
	/* ld.so separates the list by colons and spaces */
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ": ");
		const char *item = p;

		if (names(p, n, old)) {
			/* the first in its place, any other one out */
			item = found ? NULL : new;
			n = item ? strlen(item) : 0;
			found = 1;
		}
		if (n > 0 && item) {
			if (len + n + 2 > size)
				return -1;
			if (len)
				out[len++] = ':';
			memcpy(out + len, item, n);
			len += n;
			out[len] = '\0';
		}
		p += strcspn(p, ": ");
		if (*p)
			p++;
	}
	return found ? 0 : -1;
}
