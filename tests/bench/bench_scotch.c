/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_scotch.c - Scotch's file formats (see bench_scotch.h). */
#include <config.h>

#include <stdio.h>

#include "bench_scotch.h"

int bench_scotch_write_graph(const char *path, const tm_matrix *m)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	/* version; vertices, arcs; base 0, edge weights only (010) */
	fprintf(f, "0\n%d\t%lld\n0\t010\n", m->n, (long long)tm_matrix_nnz(m));
	for (int v = 0; v < m->n; v++) {
		fprintf(f, "%lld", (long long)(m->row_start[v + 1] -
					       m->row_start[v]));
		for (int64_t e = m->row_start[v]; e < m->row_start[v + 1]; e++) {
			double w = m->weight[e];

			fprintf(f, "\t%.0f %d", w > 0 && w < 1 ? 1 : w,
				m->col[e]);
		}
		fprintf(f, "\n");
	}
	return fclose(f) == 0 ? 0 : -1;
}

int bench_scotch_write_tleaf(const char *path, const tm_tree *t)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "tleaf %d", t->depth);
	for (int d = 0; d < t->depth; d++)
		fprintf(f, " %d %.0f", t->arity[t->level_start[d]],
			t->level_cost[d]);
	fprintf(f, "\n");
	return fclose(f) == 0 ? 0 : -1;
}

int bench_scotch_read_map(const char *path, int n, int *leaf_of)
{
	FILE *f = fopen(path, "r");
	int count = 0, got = 0, v, d;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &count) == 1)
		while (fscanf(f, "%d %d", &v, &d) == 2)
			if (v >= 0 && v < n) {
				leaf_of[v] = d;
				got++;
			}
	fclose(f);
	return got == n ? 0 : -1;
}
