/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * preload_check.c - before the program runs, make sure the profiler
 * library in it is the one for the program's MPI (doc/profiler.md, "Which
 * MPI").  Built into every profiler library: libcommprof.so, which has no
 * MPI of its own (COMMPROF_FAMILY ""), and libcommprof-FAMILY.so.
 *
 * A library's MPI_ functions only take the program's calls when it is
 * preloaded: one dlopen()ed now would come after the program's MPI in the
 * lookup order.  So when the library in LD_PRELOAD is not the program's
 * family, the process executes itself again, at once, with the right
 * library in its place in LD_PRELOAD, or, when there is none, with no
 * profiler (a library of another family would crash the program at its
 * first MPI call).  Nothing of the program has run yet: glibc runs a
 * preloaded library's constructor before the program's own.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "family.h"

#ifndef COMMPROF_FAMILY
#error "COMMPROF_FAMILY: the MPI family this library is built for"
#endif

/* Set across the one re-execution, so that it is never done twice. */
#define REEXEC_ENV "COMMPROF_REEXEC"

enum { LIST_MAX = 8192, NAME_MAX_ = 4096 };

static const char *family_name(const char *family)
{
	if (!strcmp(family, "openmpi"))
		return "Open MPI";
	if (!strcmp(family, "mpich"))
		return "the MPICH family";
	return "an MPI the profiler does not know";
}

/* Only the step's first process speaks: one line per run, not per rank. */
static int first_process(void)
{
	static const char *const ranks[] = {
		"SLURM_PROCID", "PMI_RANK", "OMPI_COMM_WORLD_RANK",
		"PMIX_RANK",
	};

	for (size_t i = 0; i < sizeof(ranks) / sizeof(*ranks); i++) {
		const char *v = getenv(ranks[i]);

		if (v && strcmp(v, "0") != 0)
			return 0;
	}
	return 1;
}

/* The file this library was loaded from. */
static int own_path(char *out, size_t size)
{
	Dl_info info;

	if (!dladdr((void *)&first_process, &info) || !info.dli_fname)
		return -1;
	snprintf(out, size, "%s", info.dli_fname);
	return 0;
}

/* Whether /proc/self/exe is the program that was executed: not under
 * valgrind (whose tool is the process's executable: run again, it would
 * refuse the program's argv), nor the dynamic loader run as a command
 * (ld.so PROGRAM: its argv is not the one the program got). */
static int exe_is_program(void)
{
	const char *execfn = (const char *)getauxval(AT_EXECFN);
	struct stat exe, run;
	char path[NAME_MAX_];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

	if (!execfn || n <= 0 || stat("/proc/self/exe", &exe) < 0 ||
	    stat(execfn, &run) < 0 || exe.st_dev != run.st_dev ||
	    exe.st_ino != run.st_ino)
		return 0;
	path[n] = '\0';
	const char *base = strrchr(path, '/');
	return !(base && !strncmp(base + 1, "ld-", 3));
}

/* Run the program again with LD_PRELOAD `list`; returns only on failure. */
static void reexec(char **argv, const char *list)
{
	if (!argv || !argv[0] || !exe_is_program())
		return;
	if (list[0])
		setenv("LD_PRELOAD", list, 1);
	else
		unsetenv("LD_PRELOAD");
	setenv(REEXEC_ENV, "1", 1);
	execv("/proc/self/exe", argv);
}

/* Exported, though nobody calls it: libcommprof.so needs one symbol for
 * libtool's export list. */
__attribute__((constructor))
void commprof_preload_check(int argc, char **argv)
{
	char self[NAME_MAX_], mpi[NAME_MAX_], other[NAME_MAX_];
	char list[LIST_MAX];
	const char *preload = getenv("LD_PRELOAD");
	int again = getenv(REEXEC_ENV) != NULL;
	const char *family;

	(void)argc;
	/* the program's children are checked afresh */
	unsetenv(REEXEC_ENV);
	family = commprof_family_of_process(mpi, sizeof(mpi));
	/* Not an MPI program (yet): nothing of ours is called.  It may be a
	 * shell or a launcher whose children are MPI programs; they inherit
	 * LD_PRELOAD, and with it the check. */
	if (!family || !strcmp(family, COMMPROF_FAMILY))
		return;
	if (own_path(self, sizeof(self)) < 0)
		return;
	other[0] = '\0';
	if (family[0] &&
	    commprof_family_library(self, family, other, sizeof(other)) < 0)
		other[0] = '\0';
	/* the program's family has a library of its own beside this one */
	if (other[0] && !again && preload && access(other, R_OK) == 0 &&
	    commprof_preload_replace(preload, self, other, list,
				     sizeof(list)) == 0) {
		reexec(argv, list);
		/* not run again: say so below, as for no library */
	}
	if (first_process()) {
		const char *name = argv && argv[0] ? argv[0] : "the program";

		if (family[0])
			fprintf(stderr, "commprof: %s: its MPI (%s) is %s, and "
				"%s %s: the program runs without the "
				"profiler\n", name, mpi, family_name(family),
				other, access(other, R_OK) == 0 ?
				"could not take this library's place" :
				"is not installed");
		else
			fprintf(stderr, "commprof: %s: its MPI (%s) is %s "
				"(Open MPI and the MPICH family are): the "
				"program runs without the profiler\n", name,
				mpi[0] ? mpi : "?", family_name(family));
	}
	/* libcommprof.so has no MPI_ function: the program is unchanged */
	if (!COMMPROF_FAMILY[0] || again || !preload ||
	    commprof_preload_replace(preload, self, NULL, list,
				     sizeof(list)) < 0)
		return;
	reexec(argv, list);
	if (first_process())
		fprintf(stderr, "commprof: could not run %s again without "
			"%s: its MPI calls may fail\n",
			argv && argv[0] ? argv[0] : "the program", self);
}
