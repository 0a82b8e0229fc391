/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hungarian.c - the assignment problem: give each row of an n x n cost
 * matrix its own column so that the total cost is as small as possible
 * (Kuhn's Hungarian method, in its O(n^3) form with row and column
 * potentials).  The hierarchical policy (hierarchical.c) uses it on
 * negated communication weights to find maximum-weight matchings.
 *
 * Rows are added one at a time; each addition grows a tree of tight
 * edges (reduced cost 0) from the new row, raising the potentials by the
 * smallest slack until a free column is reached, then flips the path.
 * Ties go to the lowest column index, so the result is deterministic.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>

#include "place/hierarchical/hierarchical.h"



tm_status tm__hungarian(int n, const double *cost, int *col_of, tm_error *err)
{
	/* 1-based inside, with column 0 the virtual start of each search:
	 * row_at[j] is the row holding column j (0: free), prev[j] the
	 * column before j on the current search tree. */
	size_t size = (size_t)n + 1;
	double *row_pot = calloc(size, sizeof(double));
	double *col_pot = calloc(size, sizeof(double));
	double *slack = malloc(size * sizeof(double));
	int *row_at = calloc(size, sizeof(int));
	int *prev = calloc(size, sizeof(int));
	char *seen = malloc(size);

	tm_status status = TM_OK;

	if (!row_pot || !col_pot || !slack || !row_at || !prev || !seen) {
		status = tm_error_nomem(err);
		goto out;
	}
	for (int i = 1; i <= n; i++) {
		int col = 0;

		row_at[0] = i;
		for (int j = 0; j <= n; j++) {
			slack[j] = INFINITY;
			seen[j] = 0;
		}
		do {
			int row = row_at[col], next = 0;
			double delta = INFINITY;

			seen[col] = 1;
			for (int j = 1; j <= n; j++) {
				if (seen[j])
					continue;
				double reduced = cost[(size_t)(row - 1) * (size_t)n + (size_t)(j - 1)] -
						 row_pot[row] - col_pot[j];
				if (reduced < slack[j]) {
					slack[j] = reduced;
					prev[j] = col;
				}
				if (slack[j] < delta) {
					delta = slack[j];
					next = j;
				}
			}
			for (int j = 0; j <= n; j++) {
				if (seen[j]) {
					row_pot[row_at[j]] += delta;
					col_pot[j] -= delta;
				} else {
					slack[j] -= delta;
				}
			}
			if (next == 0) {
				/* only with NaN costs: nothing to extend */
				i = n + 1;
				break;
			}
			col = next;
		} while (row_at[col] != 0);
		if (i > n)
			break;
		/* Flip the path back to the start: every column on it takes
		 * the row of the column before it. */
		while (col != 0) {
			int before = prev[col];

			row_at[col] = row_at[before];
			col = before;
		}
	}
	for (int j = 1; j <= n && status == TM_OK; j++) {
		if (row_at[j] == 0)
			status = tm_error_set(err, TM_ERR_VALUE, "assignment: "
					      "expected finite costs");
		else
			col_of[row_at[j] - 1] = j - 1;
	}
out:
	free(row_pot);
	free(col_pot);
	free(slack);
	free(row_at);
	free(prev);
	free(seen);
	return status;
}
