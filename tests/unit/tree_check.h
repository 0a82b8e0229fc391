/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tree_check.h - what the tree and topology unit tests check of a tree. */
#ifndef TM_TEST_TREE_CHECK_H
#define TM_TEST_TREE_CHECK_H

#include "tm_tree.h"

/* Whether level d has exactly the n arities in want[]. */
static inline int has_arities(const tm_tree *t, int d, const int *want,
			      int n)
{
	if (t->level_start[d + 1] - t->level_start[d] != n)
		return 0;
	for (int i = 0; i < n; i++)
		if (t->arity[t->level_start[d] + i] != want[i])
			return 0;
	return 1;
}

#endif /* TM_TEST_TREE_CHECK_H */
