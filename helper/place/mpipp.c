/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mpipp.c - the MPIPP baseline (Chen et al., ICS 2006), as the TreeMatch
 * paper compares with it: start from a random placement and, for each
 * process in turn, make the exchange with another process (or an idle
 * leaf) that lowers the tree cost most; repeat until a whole pass finds
 * nothing.  MPIPP.1 runs one start, MPIPP.5 keeps the best of five.  The
 * random starts come from fixed seeds, so results are reproducible.
 */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "place/policy.h"
#include "tm_cost.h"
#include "place/cost_internal.h"

enum {
	MPIPP_MAX_PASSES = 100, /* a bound; the benchmark's runs stop sooner */
	/* each pass tries every leaf for every rank: beyond this the baseline
	 * would run for hours */
	MPIPP_MAX_LEAVES = 8192,
};

/* splitmix64: small, good enough for shuffling, identical everywhere. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

typedef struct mpipp {
	const tm_tree *t;
	const tm_matrix *m;
	const int *anc;  /* tm__leaf_ancestors */
	int *pos;        /* leaf of each process; n.. are idle leaves */
	double *acc;     /* per tree node: weight of i's neighbours below */
} mpipp;

/* The same for process i, from acc[]: the cost of i at leaf p is
 * C_0 * W_i - sum over depths d >= 1 of (C_{d-1} - C_d) * acc[anc_d(p)]. */
static double acc_cost(const mpipp *s, int leaf)
{
	const tm_tree *t = s->t;
	double c = 0;

	for (int d = 1; d <= t->depth; d++)
		c -= (t->level_cost[d - 1] - t->level_cost[d]) *
		     s->acc[s->anc[d * t->nleaves + leaf]];
	return c;
}

static int improve(mpipp *s, int n, double eps)
{
	const tm_tree *t = s->t;
	const tm_matrix *m = s->m;
	int L = t->nleaves, improved = 0;

	for (int i = 0; i < n; i++) {
		int pi = s->pos[i];

		for (int64_t e = m->row_start[i]; e < m->row_start[i + 1]; e++)
			for (int d = 1; d <= t->depth; d++)
				s->acc[s->anc[d * L + s->pos[m->col[e]]]] += m->weight[e];
		double here = acc_cost(s, pi), best = -eps;
		int best_x = -1;
		for (int x = 0; x < L; x++) {
			if (x == i)
				continue;
			int px = s->pos[x];
			double delta = acc_cost(s, px) - here;

			if (x < n) {
				/* acc[] counted x as a neighbour of i at
				 * distance 0 after the swap; their distance is
				 * in fact unchanged: add it back. */
				double w = tm_matrix_get(m, i, x);
				delta += w * tm__pair_cost(t, s->anc, pi, px) +
					 tm__move_delta(t, s->anc, m, s->pos, x,
						       px, pi, i);
			}
			if (delta < best) {
				best = delta;
				best_x = x;
			}
		}
		for (int64_t e = m->row_start[i]; e < m->row_start[i + 1]; e++)
			for (int d = 1; d <= t->depth; d++)
				s->acc[s->anc[d * L + s->pos[m->col[e]]]] = 0;
		if (best_x >= 0) {
			s->pos[i] = s->pos[best_x];
			s->pos[best_x] = pi;
			improved = 1;
		}
	}
	return improved;
}

tm_status tm__map_mpipp(const tm_tree *t, const tm_matrix *m, int starts,
		       int *leaf_of, tm_error *err)
{
	int n = m->n, L = t->nleaves;
	mpipp s = { t, m, tm__leaf_ancestors(t),
		    malloc(sizeof(int) * (size_t)L),
		    calloc((size_t)t->nnodes, sizeof(double)) };
	double best_cost = INFINITY;
	tm_status st = TM_OK;

	if (L > MPIPP_MAX_LEAVES) {
		st = tm_error_set(err, TM_ERR_USAGE, "mpipp: more than %d "
				  "leaves: its pairwise swaps would take hours "
				  "(treematch maps this size in seconds)",
				  MPIPP_MAX_LEAVES);
		goto out;
	}
	if (!s.anc || !s.pos || !s.acc) {
		st = tm_error_nomem(err);
		goto out;
	}
	/* Below this, a change is rounding noise: stops endless swapping. */
	double eps = 1e-12 * tm_matrix_total(m) * t->level_cost[0];
	for (int run = 0; run < starts; run++) {
		uint64_t state = 0x5EED0000ull + (uint64_t)run;

		for (int x = 0; x < L; x++)
			s.pos[x] = x;
		for (int x = L - 1; x > 0; x--) { /* Fisher-Yates */
			int y = (int)(next_random(&state) % (uint64_t)(x + 1));
			int tmp = s.pos[x];
			s.pos[x] = s.pos[y];
			s.pos[y] = tmp;
		}
		for (int pass = 0; pass < MPIPP_MAX_PASSES; pass++)
			if (!improve(&s, n, eps))
				break;
		double cost = tm_cost_tree(t, m, s.pos);
		if (run == 0 || cost < best_cost) {
			best_cost = cost;
			memcpy(leaf_of, s.pos, sizeof(int) * (size_t)n);
		}
	}
out:
	free((void *)s.anc);
	free(s.pos);
	free(s.acc);
	return st;
}

tm_status tm__place_mpipp(const tm_tree *t, const tm_matrix *m,
			  const tm_map_options *opt, int *leaf_of,
			  tm_error *err)
{
	(void)opt;
	return tm__map_mpipp(t, m, 5, leaf_of, err);
}

tm_status tm__place_mpipp1(const tm_tree *t, const tm_matrix *m,
			   const tm_map_options *opt, int *leaf_of,
			   tm_error *err)
{
	(void)opt;
	return tm__map_mpipp(t, m, 1, leaf_of, err);
}
