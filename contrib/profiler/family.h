/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * family.h - which MPI a process runs with, and the profiler library that
 * serves it (doc/profiler.md, "Which MPI").  No MPI header: this is also
 * built into libcommprof.so, which links no MPI.
 */
#ifndef COMMPROF_FAMILY_H
#define COMMPROF_FAMILY_H

#include <stddef.h>

/* The MPI family of the library that defines the process's PMPI_Init (the
 * one its MPI calls bind to): "openmpi", "mpich", "" for an MPI this code
 * does not know, NULL when no MPI is loaded.  `path` gets that library's
 * file name ("" when none). */
const char *commprof_family_of_process(char *path, size_t size);

/* The family a shared object's file name (its soname) belongs to, as
 * above: "openmpi", "mpich" or "". */
const char *commprof_family_of_soname(const char *file);

/* The library for `family` beside `self` (the file of the library being
 * run): DIR/libcommprof-FAMILY.so; 0, or -1 when it does not fit. */
int commprof_family_library(const char *self, const char *family,
			    char *out, size_t size);

/* `list` (LD_PRELOAD) with the element `old` (its path, or its base name)
 * replaced by `new` (any second one dropped), or taken
 * out when `new` is NULL; 0, or -1 when it does not fit or `old` is not
 * in it. */
int commprof_preload_replace(const char *list, const char *old,
			     const char *new, char *out, size_t size);

/* The constructor of every profiler library (preload_check.c). */
void commprof_preload_check(int argc, char **argv);

#endif
