/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli_multi.h - several matrices for `treematch-helper map` (cli_multi.c). */
#ifndef TM_CLI_MULTI_H
#define TM_CLI_MULTI_H

#include "tm_error.h"
#include "tm_map.h"
#include "tm_matrix.h"
#include "tm_report.h"
#include "tm_tree.h"

enum { CLI_MULTI_MAX = 16 };
/* The placement made for one run costing more than 10 % above another
 * run's own placement on that run: the runs disagree strongly. */
#define CLI_MULTI_THRESHOLD 1.10

typedef struct cli_multi {
	int n;                      /* --matrix given n times */
	const char *file[CLI_MULTI_MAX];
	int worst;                  /* --combine worst */
	tm_matrix *m[CLI_MULTI_MAX];
	tm_report_matrix rm[CLI_MULTI_MAX];
	char chosen[512];
} cli_multi;

/* Loads every file (each no larger than max_size, 0: no limit), checks
 * that they have one size (order's, when order >= 0: --ntasks) and sets
 * *sum to their sum.  Each file's size is checked before rows of that
 * size are allocated. */
tm_status cli_multi_load(cli_multi *mm, long long max_size, long order,
			 tm_matrix **sum,
			 tm_error *err);
/* After leaf_of was placed for sum (the submatrix of ranks) and rep's
 * costs computed: each matrix's costs, the disagreement, and for
 * --combine worst the placement kept (leaf_of and rep updated). */
tm_status cli_multi_place(cli_multi *mm, tm_algorithm a,
			  const tm_map_options *opt, const tm_tree *t,
			  const tm_matrix *sum, const int *ranks, int nranks,
			  int *leaf_of, tm_report *rep, tm_error *err);
void cli_multi_free(cli_multi *mm);

#endif /* TM_CLI_MULTI_H */
