/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * skeleton.c - the top-down path on the matrix's heavy skeleton: the
 * matrix without the edges that are light for both of their ranks.
 *
 * Applications add light traffic between many pairs to their structured
 * exchanges: a collective recorded as an all-to-all, a root that gathers
 * from every rank.  Such an edge weighs next to nothing in the tree cost,
 * yet it hides the structure from the partitioner: the graph looks dense,
 * so the cut grown on the graph itself (a grid's clean cut) is not tried,
 * and any two ranks are two hops apart through the root, so breadth-first
 * search finds no periphery to grow from and no diameter that says
 * "grid".  A 3D halo of 1,024 ranks on 16 nodes with an 8-byte allreduce
 * between all pairs lost 9 % of its tree cost to that (doc/bench-apps.md).
 * Partitioning the skeleton instead finds the stencil's blocks; the
 * placement is then refined and priced on the whole matrix like every
 * other candidate (strategy.c), so it is kept only where it is cheaper.
 *
 * It is tried only where the light edges were such shortcuts: where the
 * skeleton is much farther across than the matrix (SKELETON_STRETCH).
 * Elsewhere a few light edges among many (a random graph's weights) only
 * doubled the top-down time for nothing.
 */
#include <config.h>

#include <stdlib.h>

#include "place/treematch/treematch.h"

/* Whether edge e of v is light for both v and u = col[e]: heaviest[] is
 * each rank's heaviest edge. */
static int light(const tm_matrix *m, const double *heaviest, int v,
		 int64_t e)
{
	int u = m->col[e];
	double h = heaviest[v] < heaviest[u] ? heaviest[v] : heaviest[u];

	return m->weight[e] * LIGHT_EDGE_RATIO < h;
}

static double *heaviest_edges(const tm_matrix *m)
{
	double *h = malloc(sizeof(double) * ((size_t)m->n + 1));

	if (!h)
		return NULL;
	for (int v = 0; v < m->n; v++) {
		h[v] = 0;
		for (int64_t e = m->row_start[v]; e < m->row_start[v + 1]; e++)
			if (m->weight[e] > h[v])
				h[v] = m->weight[e];
	}
	return h;
}

/* Every rank keeps its heaviest edge, so a rank that talks to anyone is
 * still connected in the skeleton.  *out is NULL when no edge is light:
 * the skeleton would be the matrix itself. */
static tm_status skeleton(const tm_matrix *m, tm_matrix **out, tm_error *err)
{
	double *h = heaviest_edges(m);
	tm_matrix *s = NULL;
	int64_t kept = 0;

	*out = NULL;
	if (!h)
		return tm_error_nomem(err);
	for (int v = 0; v < m->n; v++)
		for (int64_t e = m->row_start[v]; e < m->row_start[v + 1]; e++)
			kept += !light(m, h, v, e);
	if (kept == m->row_start[m->n]) {
		free(h);
		return TM_OK;
	}
	s = calloc(1, sizeof(*s));
	if (s) {
		s->n = m->n;
		s->row_start = malloc(sizeof(int64_t) * ((size_t)m->n + 1));
		s->col = malloc(sizeof(int) * ((size_t)kept + 1));
		s->weight = malloc(sizeof(double) * ((size_t)kept + 1));
	}
	if (!s || !s->row_start || !s->col || !s->weight) {
		free(h);
		tm_matrix_free(s);
		return tm_error_nomem(err);
	}
	int64_t k = 0;
	for (int v = 0; v < m->n; v++) {
		s->row_start[v] = k;
		for (int64_t e = m->row_start[v]; e < m->row_start[v + 1]; e++)
			if (!light(m, h, v, e)) {
				s->col[k] = m->col[e];
				s->weight[k++] = m->weight[e];
			}
	}
	s->row_start[m->n] = k;
	free(h);
	*out = s;
	return TM_OK;
}

/* A lower bound of g's diameter, by a double sweep of breadth-first
 * search from the first rank with a partner (the same in the matrix and
 * its skeleton, which keeps every rank's heaviest edge); -1 when out of
 * memory. */
static int diameter(const tm_matrix *g)
{
	int *dist = malloc(sizeof(int) * ((size_t)g->n + 1));
	int *queue = malloc(sizeof(int) * ((size_t)g->n + 1));
	int d = -1, start = 0;

	while (start < g->n - 1 &&
	       g->row_start[start + 1] == g->row_start[start])
		start++;
	if (dist && queue && g->n > 0) {
		int end = tm__farthest_vertex(g, start, dist, queue);
		d = dist[tm__farthest_vertex(g, end, dist, queue)];
	}
	free(dist);
	free(queue);
	return d;
}

int tm__skeleton_differs(const tm_matrix *m)
{
	tm_matrix *s = NULL;
	tm_error err = { 0 };
	int differs;

	if (skeleton(m, &s, &err) != TM_OK)
		return 1; /* let the strategy run and report the failure */
	if (!s)
		return 0;
	int dm = diameter(m), ds = diameter(s);
	differs = dm < 0 || ds < 0 || ds >= dm * SKELETON_STRETCH;
	tm_matrix_free(s);
	return differs;
}

tm_status tm__map_top_down_skeleton(const tm_tree *t, const tm_matrix *m,
				    int *leaf_of, tm_error *err)
{
	tm_matrix *s = NULL;
	tm_status st = skeleton(m, &s, err);

	if (st != TM_OK)
		return st;
	st = tm__map_top_down(t, s ? s : m, leaf_of, err);
	tm_matrix_free(s);
	return st;
}
