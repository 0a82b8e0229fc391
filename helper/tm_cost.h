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
double tm_cost_hop_bytes(const tm_tree *t, const tm_matrix *m,
			 const int *leaf_of);

#endif /* TM_COST_H */
