/* SPDX-License-Identifier: GPL-2.0-or-later */
/* online/online_internal.h - what round.c takes from relabel.c. */
#ifndef TM_ONLINE_INTERNAL_H
#define TM_ONLINE_INTERNAL_H

#include "tm_error.h"
#include "tm_matrix.h"
#include "tm_tree.h"

/* Move the placement leaf_of[0..n-1] by a symmetry of t (an exchange of
 * isomorphic subtrees, any number of times, at any level) so that as many
 * ranks as it can find sit on previous[r] again, the highest levels first:
 * every pair keeps the depth of its lowest common ancestor, so every tree
 * cost stays exactly the same.  previous[r] are distinct leaves of t. */
tm_status tm__online_relabel(const tm_tree *t, int n, const int *previous,
			     int *leaf_of, tm_error *err);

/* shape[v] for every node: equal for two nodes of one level when their
 * subtrees are isomorphic (the same multiset of children's shapes,
 * recursively); past 64 shapes in a level, new ones get a shape each (they
 * then match nothing, which is safe).  sig: t->nnodes ints of scratch, cur:
 * the largest arity's. */
void tm__online_shapes(const tm_tree *t, int *shape, int *sig, int *cur);

/* Exchange subtrees of one level under different parents (a package's
 * L2 with another package's) when more ranks then sit below their
 * previous leaves' subtree and the tree cost under m does not rise:
 * a policy groups ranks that do not talk to each other as it likes, and
 * such a choice should not move them (regroup.c). */
tm_status tm__online_regroup(const tm_tree *t, const tm_matrix *m,
			     const int *previous, int *leaf_of, tm_error *err);

#endif /* TM_ONLINE_INTERNAL_H */
