/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * place/hierarchical/hierarchical.h - the pieces of the hierarchical
 * policy, apart so that its unit test can check each.
 */
#ifndef TM_PLACE_HIERARCHICAL_H
#define TM_PLACE_HIERARCHICAL_H

#include "tm_error.h"
#include "tm_matrix.h"

/* Minimum-cost perfect assignment of the n x n matrix cost (row-major):
 * row i gets column col_of[i].  O(n^3), deterministic (hungarian.c). */
tm_status tm__hungarian(int n, const double *cost, int *col_of,
			tm_error *err);

/* tm__hier_group splits the u units of the symmetric u x u weights w into
 * u / k groups of k (u is a multiple of k): group g is members[g * k ..
 * g * k + k - 1], its units ascending, groups in the order of their first
 * unit. */
tm_status tm__hier_group(const double *w, int u, int k, int *members,
			 tm_error *err);
/* The (u / k) x (u / k) weights between those groups: the sum of the
 * weights between their units (0 on the diagonal). */
void tm__hier_aggregate(const double *w, int u, const int *members, int k,
			double *out);
/* The order of the ranks on the regular tree of the given arities (root
 * first): order[p] is the rank on leaf p, or -1 for a leaf left free;
 * prod(arity) entries. */
tm_status tm__hier_order(const tm_matrix *m, int depth, const int *arity,
			 int *order, tm_error *err);

#endif /* TM_PLACE_HIERARCHICAL_H */
