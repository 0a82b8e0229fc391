/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fixtures.h - matrices the C unit tests share: the papers' worked
 * examples, a dense matrix builder, and planted hierarchies.
 */
#ifndef TM_TEST_FIXTURES_H
#define TM_TEST_FIXTURES_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "tm_matrix.h"
#include "tm_tree.h"

/* Paper 000 (TreeMatch), Fig. 1: 8 ranks. */
static const double paper000_fig1[64] = {
	0, 1000, 10, 1, 100, 1, 1, 1,
	1000, 0, 1000, 1, 1, 100, 1, 1,
	10, 1000, 0, 1000, 1, 1, 100, 1,
	1, 1, 1000, 0, 1, 1, 1, 100,
	100, 1, 1, 1, 0, 1000, 10, 1,
	1, 100, 1, 1, 1000, 0, 1000, 1,
	1, 1, 100, 1, 10, 1000, 0, 1000,
	1, 1, 1, 100, 1, 1, 1000, 0,
};

/* Paper 003 (hierarchical assignment), Table I: 8 ranks. */
static const double paper003_table1[64] = {
	0, 100, 19, 12, 19, 11, 2511, 223,
	100, 0, 12, 12, 25, 28, 223, 1412,
	19, 12, 0, 223, 251, 1584, 17, 10,
	12, 12, 223, 0, 1995, 112, 17, 17,
	19, 25, 251, 1995, 0, 158, 17, 12,
	11, 28, 1584, 112, 158, 0, 25, 19,
	2511, 223, 17, 17, 17, 25, 0, 100,
	223, 1412, 10, 17, 12, 19, 100, 0,
};

/* A matrix from a dense n x n array (row-major); NULL on ENOMEM. */
static inline tm_matrix *dense_matrix(int n, const double *w)
{
	int *i = malloc(sizeof(int) * (size_t)(n * n) + 1);
	int *j = malloc(sizeof(int) * (size_t)(n * n) + 1);
	tm_matrix *m = NULL;

	if (i && j) {
		for (int a = 0; a < n; a++)
			for (int b = 0; b < n; b++) {
				i[a * n + b] = a;
				j[a * n + b] = b;
			}
		tm_matrix_from_entries(n, (size_t)(n * n), i, j, w, &m, NULL);
	}
	free(i);
	free(j);
	return m;
}

/* Whether leaf_of places n ranks on distinct leaves of t. */
static inline int valid_placement(const tm_tree *t, const int *leaf_of, int n)
{
	char *used = calloc((size_t)t->nleaves + 1, 1);
	int ok = used != NULL;

	for (int r = 0; r < n && ok; r++) {
		ok = leaf_of[r] >= 0 && leaf_of[r] < t->nleaves && !used[leaf_of[r]];
		if (ok)
			used[leaf_of[r]] = 1;
	}
	free(used);
	return ok;
}

/* A deterministic generator: the same numbers on every run and machine. */
static uint64_t rng_state;
static inline double uniform(void)
{
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

/* Ranks whose planted leaves are close exchange more: 10^(d+1) (+-20%)
 * when their lowest common ancestor is at depth d.  Rank order is shuffled
 * so that the answer is not simply "packed".  planted[r] is rank r's leaf
 * in the planted optimum. */
static inline tm_matrix *planted_matrix(const tm_tree *t, int *planted)
{
	int n = t->nleaves;
	double *w = calloc((size_t)n * (size_t)n, sizeof(double));

	for (int r = 0; r < n; r++)
		planted[r] = r;
	for (int r = n - 1; r > 0; r--) {
		int s = (int)(uniform() * (r + 1));
		int x = planted[r];
		planted[r] = planted[s];
		planted[s] = x;
	}
	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++) {
			int d = tm_tree_lca_depth(t, planted[a], planted[b]);
			w[a * n + b] = pow(10, d + 1) * (0.8 + 0.4 * uniform());
		}
	tm_matrix *m = dense_matrix(n, w);
	free(w);
	return m;
}

#endif /* TM_TEST_FIXTURES_H */
