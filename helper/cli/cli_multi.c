/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli_multi.c - `treematch-helper map --matrix A --matrix B ...`: several
 * matrices of one job (one per run), placed for together.
 *
 * --combine sum places for the sum of the matrices.  --combine worst
 * approximates the placement whose worst case over the matrices is
 * lowest: among the placements the policy makes for the sum and for each
 * matrix alone, and the baselines (packed, round-robin), it keeps the one
 * whose largest ratio, over the matrices, of its cost on a matrix to the
 * cost of the placement made for that matrix alone is the smallest.  The
 * ratio rather than the cost itself: a run that moved more bytes would
 * otherwise decide alone.
 *
 * Every matrix is reported with the cost of each placement on it and the
 * disagreement of the runs: the largest, over ordered pairs (A, B), of
 * the cost on B of the placement made for A against the cost on B of B's
 * own.  Above CLI_MULTI_THRESHOLD the runs disagree strongly: a matrix
 * from one run does not hold for the next (doc/loop.md).
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_multi.h"
#include "tm_cost.h"

void cli_multi_free(cli_multi *mm)
{
	for (int k = 0; k < mm->n; k++) {
		tm_matrix_free(mm->m[k]);
		mm->m[k] = NULL;
	}
}

tm_status cli_multi_load(cli_multi *mm, long long max_size, long order,
			 tm_matrix **sum, tm_error *err)
{
	size_t count = 0, cap = 0;
	int *ei = NULL, *ej = NULL;
	double *ew = NULL;
	tm_status st = TM_OK;

	*sum = NULL;
	for (int k = 0; k < mm->n && st == TM_OK; k++) {
		st = tm_matrix_load_sized(mm->file[k], max_size, order,
					  &mm->m[k], err);
		if (st != TM_OK)
			break;
		if (mm->m[k]->n != mm->m[0]->n) {
			st = tm_error_set(err, TM_ERR_SIZE,
				"%s: the matrix's size is %d, but %s's is %d: "
				"--matrix takes runs of one job, of one size",
				mm->file[k], mm->m[k]->n, mm->file[0],
				mm->m[0]->n);
			break;
		}
		size_t need = count + (size_t)(tm_matrix_nnz(mm->m[k]) / 2);
		if (need > cap) {
			cap = need;
			int *ni = realloc(ei, cap * sizeof *ni);
			if (ni)
				ei = ni;
			int *nj = realloc(ej, cap * sizeof *nj);
			if (nj)
				ej = nj;
			double *nw = realloc(ew, cap * sizeof *nw);
			if (nw)
				ew = nw;
			if (!ni || !nj || !nw) {
				st = tm_error_nomem(err);
				break;
			}
		}
		const tm_matrix *m = mm->m[k];
		for (int i = 0; i < m->n; i++)
			for (int64_t e = m->row_start[i]; e < m->row_start[i + 1]; e++)
				if (m->col[e] > i) {
					ei[count] = i;
					ej[count] = m->col[e];
					ew[count] = m->weight[e];
					count++;
				}
	}
	if (st == TM_OK)
		st = tm_matrix_from_entries(mm->m[0]->n, count, ei, ej, ew, sum,
					    err);
	free(ei);
	free(ej);
	free(ew);
	return st;
}

/* The largest ratio, over the matrices, of p's cost to the matrix's own
 * placement's; a matrix on which its own placement costs nothing counts
 * only when p costs something there (then the ratio is infinite). */
static double worst_ratio(cli_multi *mm, const tm_tree *t, tm_matrix **sub,
			  const int *p)
{
	double worst = 1.0;

	for (int k = 0; k < mm->n; k++) {
		double c = tm_cost_tree(t, sub[k], p), r;

		if (mm->rm[k].own > 0)
			r = c / mm->rm[k].own;
		else
			r = c > 0 ? INFINITY : 1.0;
		if (r > worst)
			worst = r;
	}
	return worst;
}

tm_status cli_multi_place(cli_multi *mm, tm_algorithm a,
			  const tm_map_options *opt, const tm_tree *t,
			  const tm_matrix *sum, const int *ranks, int nranks,
			  int *leaf_of, tm_report *rep, tm_error *err)
{
	tm_matrix *sub[CLI_MULTI_MAX] = { 0 };
	/* the candidates: [0] for the sum, [1 + k] for matrix k alone, then
	 * the report's other placements (the baselines) */
	int ncand = 1 + mm->n + rep->ncosts - 1;
	int **cand = calloc((size_t)ncand, sizeof *cand);
	const char *cand_name[1 + CLI_MULTI_MAX + TM_REPORT_MAX_COSTS];
	tm_status st = cand ? TM_OK : tm_error_nomem(err);

	for (int c = 0; c < ncand && st == TM_OK; c++) {
		cand[c] = malloc(sizeof(int) * ((size_t)nranks + 1));
		if (!cand[c])
			st = tm_error_nomem(err);
	}
	for (int k = 0; k < mm->n && st == TM_OK; k++) {
		sub[k] = tm_matrix_subset(mm->m[k], ranks, nranks);
		if (!sub[k])
			st = tm_error_nomem(err);
	}
	if (st == TM_OK) {
		memcpy(cand[0], leaf_of, sizeof(int) * (size_t)nranks);
		cand_name[0] = "the sum";
	}
	for (int k = 0; k < mm->n && st == TM_OK; k++) {
		st = tm_map_with(a, opt, t, sub[k], cand[1 + k], err);
		cand_name[1 + k] = mm->file[k];
		if (st == TM_OK)
			mm->rm[k].own = tm_cost_tree(t, sub[k], cand[1 + k]);
	}
	for (int c = 1; c < rep->ncosts && st == TM_OK; c++) {
		tm_algorithm b;

		if (tm_algorithm_parse(rep->cost_name[c], &b) < 0) {
			st = tm_error_set(err, TM_ERR_USAGE, "%s: not a policy",
					  rep->cost_name[c]);
			break;
		}
		st = tm_map(b, t, sum, cand[mm->n + c], err);
		cand_name[mm->n + c] = rep->cost_name[c];
	}
	if (st != TM_OK)
		goto out;

	/* --combine worst: the candidate of the lowest worst case */
	int best = 0;
	if (mm->worst) {
		double best_ratio = worst_ratio(mm, t, sub, cand[0]);
		for (int c = 1; c < ncand; c++) {
			double r = worst_ratio(mm, t, sub, cand[c]);
			if (r < best_ratio) {
				best_ratio = r;
				best = c;
			}
		}
	}
	if (best != 0) {
		memcpy(leaf_of, cand[best], sizeof(int) * (size_t)nranks);
		tm_cost_both(t, sum, leaf_of, &rep->cost[0], &rep->hop_bytes[0]);
		st = tm_placement_is_optimal(t, sum, leaf_of,
					     &rep->proven_optimal, err);
		if (st != TM_OK)
			goto out;
	}
	if (best == 0)
		snprintf(mm->chosen, sizeof(mm->chosen), "%s for the sum",
			 tm_algorithm_name(a));
	else if (best <= mm->n)
		snprintf(mm->chosen, sizeof(mm->chosen), "%s for %s",
			 tm_algorithm_name(a), cand_name[best]);
	else
		snprintf(mm->chosen, sizeof(mm->chosen), "%s", cand_name[best]);

	/* each matrix: the report's placements on it */
	for (int k = 0; k < mm->n; k++) {
		mm->rm[k].file = mm->file[k];
		mm->rm[k].cost[0] = tm_cost_tree(t, sub[k], leaf_of);
		for (int c = 1; c < rep->ncosts; c++)
			mm->rm[k].cost[c] = tm_cost_tree(t, sub[k],
							 cand[mm->n + c]);
	}
	/* the disagreement: the placement made for A, on B, against B's own */
	rep->disagreement = 1.0;
	rep->placed_for = 0;
	rep->measured_on = 1;
	for (int x = 0; x < mm->n; x++)
		for (int y = 0; y < mm->n; y++) {
			if (x == y || !(mm->rm[y].own > 0))
				continue;
			double r = tm_cost_tree(t, sub[y], cand[1 + x]) /
				   mm->rm[y].own;
			if (r > rep->disagreement) {
				rep->disagreement = r;
				rep->placed_for = x;
				rep->measured_on = y;
			}
		}
	rep->disagreement_threshold = CLI_MULTI_THRESHOLD;
	rep->nmatrices = mm->n;
	rep->matrices = mm->rm;
	rep->combine = mm->worst ? "worst" : "sum";
	rep->chosen = mm->chosen;
out:
	for (int k = 0; k < mm->n; k++)
		tm_matrix_free(sub[k]);
	for (int c = 0; cand && c < ncand; c++)
		free(cand[c]);
	free(cand);
	return st;
}
