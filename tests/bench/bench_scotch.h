/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_scotch.h - the files Scotch's scotch_gmap reads and writes, for the
 * benchmarks that run it as the peer (bench_quality.c, bench_job.c,
 * apps/scotch.c): the matrix as a weighted graph, a regular tree as a
 * "tleaf" target with the tree's level costs, and the mapping it prints.
 */
#ifndef TM_BENCH_SCOTCH_H
#define TM_BENCH_SCOTCH_H

#include "tm_matrix.h"
#include "tm_tree.h"

/* Scotch's graph format: 0 on success, -1 when the file cannot be
 * written.  Scotch's weights are integers: a weight is rounded, and one
 * between 0 and 1 (bytes of a profiled run never are) counts 1. */
int bench_scotch_write_graph(const char *path, const tm_matrix *m);

/* "tleaf DEPTH ARITY COST ...": the arity of each level's first node, so
 * the tree must be regular. */
int bench_scotch_write_tleaf(const char *path, const tm_tree *t);

/* The map file ("count", then "vertex domain" lines) into leaf_of[0..n-1];
 * 0 when every vertex is mapped, else -1. */
int bench_scotch_read_map(const char *path, int n, int *leaf_of);

#endif /* TM_BENCH_SCOTCH_H */
