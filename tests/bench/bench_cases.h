/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_cases.h - the communication patterns and machines of the mapping
 * benchmark (bench_quality.c).  Every case is generated from fixed seeds,
 * so every run measures the same inputs.
 */
#ifndef TM_BENCH_CASES_H
#define TM_BENCH_CASES_H

#include <stddef.h>

enum { BENCH_MAX_DEPTH = 8 };

typedef struct bench_case {
	char name[48];
	char pattern[24];
	int n;                          /* ranks */
	int depth;                      /* the tree: arities, root first */
	int arity[BENCH_MAX_DEPTH];
	size_t count, cap;              /* directed entries (i, j, w) */
	int *i, *j;
	double *w;                      /* integers, for Scotch */
	int *planted;                   /* leaf of each rank in a known
					 * optimum, or NULL */
} bench_case;

/* Cases above this many ranks run only when the filter names their rank
 * count (CASES=65536). */
#define BENCH_LARGE_RANKS 16384

/* The cases whose name contains filter, or without a filter all those up
 * to BENCH_LARGE_RANKS ranks; returns the count. */
int bench_cases(const char *filter, bench_case **out);
void bench_case_free(bench_case *c);
/* The case's matrix as the helper reads it ({"size", "entries"}); 0, or
 * -1 when the file cannot be written. */
int bench_case_write_json(const bench_case *c, const char *path);

/* One case of pattern ("stencil2d", "stencil3d", "nas-cg", "random",
 * "hierarchical": planted groups on this tree) for the leaves of the
 * regular tree of the given arities, root first; -1 when the pattern does
 * not fit that many ranks. */
int bench_case_make(const char *pattern, int depth, const int *arity,
		    bench_case *out);

#endif /* TM_BENCH_CASES_H */
