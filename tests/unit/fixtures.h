/*
 * fixtures.h - matrices the C unit tests share: the papers' worked
 * examples, and a dense matrix builder.
 */
#ifndef TM_TEST_FIXTURES_H
#define TM_TEST_FIXTURES_H

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

#endif /* TM_TEST_FIXTURES_H */
