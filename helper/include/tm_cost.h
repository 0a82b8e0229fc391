/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tm_cost.h - what a placement costs on a tree.
 *
 * A placement gives every rank r a leaf leaf_of[r].  Its tree cost is the
 * sum over pairs of w_ij times the cost of the level of their lowest common
 * ancestor (tm_tree.h: level_cost); its hop-bytes the sum of w_ij times the
 * number of tree edges between the two leaves (level_hops).
 */
#ifndef TM_COST_H
#define TM_COST_H

#include "tm_matrix.h"
#include "tm_tree.h"

double tm_cost_tree(const tm_tree *t, const tm_matrix *m, const int *leaf_of);
/* The tree cost and the hop-bytes at once, for the price of one. */
void tm_cost_both(const tm_tree *t, const tm_matrix *m, const int *leaf_of,
		  double *cost, double *hop_bytes);

/* Whether the placement is provably optimal: it reaches a lower bound on
 * the tree cost of every placement of m's ranks on t, one rank per leaf
 * (optimal.c says which).  *optimal = 0 proves nothing. */
tm_status tm_placement_is_optimal(const tm_tree *t, const tm_matrix *m,
				  const int *leaf_of, int *optimal,
				  tm_error *err);

#endif /* TM_COST_H */
