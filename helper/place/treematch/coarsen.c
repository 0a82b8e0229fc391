/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * coarsen.c - one coarsening step of the multilevel algorithms
 * (multilevel.h): heavy-edge matching, then the graph of the matched
 * pairs.  Every choice is fixed (a seeded order, ties to the lower index),
 * so the same graph always coarsens the same way.
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>

#include "place/treematch/multilevel.h"

/* Heavy-edge matching in a fixed shuffled order (so that one side of the
 * graph is not always matched first), merged pairs no heavier than maxvw. */
tm_status tm__coarsen(tm_level *fine, tm_level *coarse, const int *part,
		     tm_error *err)
{
	const tm_matrix *g = fine->g;
	int n = g->n, nc = 0;
	int *order = malloc(sizeof(int) * (size_t)n);
	int *match = malloc(sizeof(int) * (size_t)n);
	uint64_t state = 0xC0A25E00ull + (uint64_t)n;
	tm_status st = TM_OK;

	coarse->to_coarse = NULL;
	if (!order || !match) {
		st = tm_error_nomem(err);
		goto out;
	}
	for (int v = 0; v < n; v++) {
		order[v] = v;
		match[v] = -1;
	}
	for (int v = n - 1; v > 0; v--) {
		state = state * 6364136223846793005ull + 1442695040888963407ull;
		int u = (int)((state >> 33) % (uint64_t)(v + 1)), x = order[v];
		order[v] = order[u];
		order[u] = x;
	}
	for (int i = 0; i < n; i++) {
		int v = order[i], best = -1;
		double bw = 0;

		if (match[v] >= 0)
			continue;
		for (int64_t e = g->row_start[v]; e < g->row_start[v + 1]; e++) {
			int u = g->col[e];
			if (match[u] >= 0 || fine->vw[u] + fine->vw[v] > fine->maxvw ||
			    (part && part[u] != part[v]))
				continue;
			if (best < 0 || g->weight[e] > bw ||
			    (g->weight[e] == bw && u < best)) {
				best = u;
				bw = g->weight[e];
			}
		}
		match[v] = best >= 0 ? best : v;
		if (best >= 0)
			match[best] = v;
	}
	/* number the coarse vertices in fine order: deterministic */
	int *cmap = malloc(sizeof(int) * (size_t)n);
	if (!cmap) {
		st = tm_error_nomem(err);
		goto out;
	}
	for (int v = 0; v < n; v++)
		cmap[v] = -1;
	for (int v = 0; v < n; v++)
		if (cmap[v] < 0) {
			cmap[v] = nc;
			cmap[match[v]] = nc;
			nc++;
		}
	coarse->vw = calloc((size_t)nc, sizeof(int));
	int64_t arcs = g->row_start[n];
	int *ci = malloc(sizeof(int) * (size_t)(arcs / 2 + 1));
	int *cj = malloc(sizeof(int) * (size_t)(arcs / 2 + 1));
	double *cw = malloc(sizeof(double) * (size_t)(arcs / 2 + 1));
	if (!coarse->vw || !ci || !cj || !cw) {
		free(ci);
		free(cj);
		free(cw);
		free(cmap);
		free(coarse->vw);
		coarse->vw = NULL;
		st = tm_error_nomem(err);
		goto out;
	}
	for (int v = 0; v < n; v++)
		coarse->vw[cmap[v]] += fine->vw[v];
	coarse->heaviest = 1;
	for (int v = 0; v < nc; v++)
		if (coarse->vw[v] > coarse->heaviest)
			coarse->heaviest = coarse->vw[v];
	size_t c = 0;
	for (int v = 0; v < n; v++)
		for (int64_t e = g->row_start[v]; e < g->row_start[v + 1]; e++) {
			int u = g->col[e];
			if (u > v && cmap[u] != cmap[v]) {
				ci[c] = cmap[v];
				cj[c] = cmap[u];
				cw[c++] = g->weight[e];
			}
		}
	st = tm_matrix_from_entries(nc, c, ci, cj, cw, &coarse->g, err);
	free(ci);
	free(cj);
	free(cw);
	if (st != TM_OK) { /* the caller frees only the levels it counted */
		free(coarse->vw);
		coarse->vw = NULL;
	}
	coarse->maxvw = fine->maxvw;
	fine->to_coarse = cmap;
out:
	free(order);
	free(match);
	return st;
}
