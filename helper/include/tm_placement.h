/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tm_placement.h - reading a placement as `treematch-helper map` prints it
 * in JSON (tm_report.h): the one reader of that format, shared by the
 * SPANK plugin (which checks the helper's answer in root's slurmstepd)
 * and by spread's --previous (a user's file).
 *
 * The reader checks the structure and every value it returns; what a
 * placement must satisfy beyond that (which ranks, in which order, on
 * which CPUs) is the caller's to check.  Unknown keys are ignored.
 * Errors name the input and the place (placement[3].rank) and say what
 * was expected; nothing the input holds is trusted for a size.
 */
#ifndef TM_PLACEMENT_H
#define TM_PLACEMENT_H

#include <stddef.h>

#include "tm_error.h"

enum {
	TM_PLACEMENT_MAX_COSTS = 8,
	TM_PLACEMENT_MAX_CPU = 1 << 16, /* past any real machine */
};

typedef struct tm_placement_entry {
	int rank;
	int ncpus;
	int *cpus;        /* OS indices, ascending, distinct, ncpus >= 1 */
	char *cpus_text;  /* as written: "0-3,8" */
	char *cores_text; /* "4,5" from "cores", "" when absent */
} tm_placement_entry;

typedef struct tm_placement_file {
	int size;            /* "size", or -1 when absent */
	char *cpus_text;     /* top-level "cpus", NULL when absent */
	int ncpus;
	int *cpus;           /* its OS indices, ascending, distinct */
	int nentries;
	tm_placement_entry *entry;   /* "placement", in file order */
	int ncosts;          /* "cost", in file order, numbers only */
	char cost_name[TM_PLACEMENT_MAX_COSTS][32];
	double cost[TM_PLACEMENT_MAX_COSTS];
	int proven_optimal;  /* "proven-optimal": true */
} tm_placement_file;

/* Parse len bytes of text, named `name` in errors.  size > 0: "size",
 * when present, must be size, and every rank lies in 0..size-1;
 * size == 0: ranks need only be >= 0.  A rank listed twice is an error.
 * max_entries bounds "placement" (a larger one is refused before anything
 * is allocated for it).  Syntax errors are TM_ERR_SYNTAX. */
tm_status tm_placement_parse(const char *name, const char *text, size_t len,
			     int size, int max_entries,
			     tm_placement_file **out, tm_error *err);

/* The same from a file (TM_ERR_IO when it cannot be read). */
tm_status tm_placement_load(const char *path, int size, int max_entries,
			    tm_placement_file **out, tm_error *err);

void tm_placement_free(tm_placement_file *p);

#endif /* TM_PLACEMENT_H */
