/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_valid.h - one rank per core: the check every placement of the
 * benchmark passes, and the repair of a mapping that fails it
 * (bench_valid.c says why Scotch's can).
 */
#ifndef TM_BENCH_VALID_H
#define TM_BENCH_VALID_H

#include "tm_matrix.h"
#include "tm_tree.h"

/* How many ranks sit on a leaf that an earlier rank already holds (0: a
 * valid placement), or -1 when a leaf is out of range or out of memory. */
int bench_overloaded(const tm_tree *t, int n, const int *leaf_of);

/* Move every rank that shares a leaf with an earlier rank to the idle leaf
 * where it costs least, one at a time in rank order.  Returns how many
 * moved, or -1 when out of memory. */
int bench_repair(const tm_tree *t, const tm_matrix *m, int *leaf_of);

#endif /* TM_BENCH_VALID_H */
