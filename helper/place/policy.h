/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * place/policy.h - what every placement policy provides, and the pieces
 * that several of them share.  Private to the library: tm_map.h is the
 * entry point.
 */
#ifndef TM_PLACE_POLICY_H
#define TM_PLACE_POLICY_H

#include "tm_error.h"
#include "tm_map.h"
#include "tm_matrix.h"
#include "tm_tree.h"

/* A policy's entry point: fill leaf_of[0..m->n-1] with distinct leaves of
 * t (1 <= m->n <= t->nleaves, checked by the dispatcher); opt is never
 * NULL, and a policy reads only the options its table row names. */
typedef tm_status tm__policy_fn(const tm_tree *t, const tm_matrix *m,
				const tm_map_options *opt, int *leaf_of,
				tm_error *err);

/* Every entry point of tm_policy_table.h. */
#define TM_POLICY_DECLARE_(id, name, fn, help, opts) tm__policy_fn fn;
TM_POLICY_TABLE(TM_POLICY_DECLARE_)
#undef TM_POLICY_DECLARE_

/* Baselines other policies start from (baselines.c). */
void tm__map_packed(const tm_tree *t, int n, int *leaf_of);
tm_status tm__map_round_robin(const tm_tree *t, int n, int *leaf_of,
			      tm_error *err);

/* MPIPP with `starts` random starts (mpipp.c). */
tm_status tm__map_mpipp(const tm_tree *t, const tm_matrix *m, int starts,
			int *leaf_of, tm_error *err);

/* Lower the tree cost of a placement by exact swaps and moves to idle
 * leaves near each rank's neighbours (refine.c). */
tm_status tm__refine(const tm_tree *t, const tm_matrix *m, int *leaf_of,
		     tm_error *err);

/* SetMatch's phases I and II (setmatch.c): set_of[r] receives the
 * application set of rank r; sets are numbered in the order of their
 * smallest rank.  Returns the number of sets, or -1 when out of memory. */
int tm__setmatch_sets(const tm_matrix *m, double threshold, int *set_of);

/* spread (spread.c): the depth of the nodes it treats as NUMA nodes (the
 * deepest level whose name has "+NUMA", else 1: the top-level subtrees). */
int tm__numa_depth(const tm_tree *t);

#endif /* TM_PLACE_POLICY_H */
