/*
 * tm_map.h - placing ranks on the leaves of a tree.
 *
 * Every algorithm maps the n ranks of a matrix onto n distinct leaves of a
 * tree with at least n leaves (give more ranks than leaves a tree made by
 * tm_tree_oversubscribe).  All are deterministic: the same tree and matrix
 * give the same placement, on any machine, however long it takes.
 */
#ifndef TM_MAP_H
#define TM_MAP_H

#include "tm_error.h"
#include "tm_matrix.h"
#include "tm_tree.h"

typedef enum tm_algorithm {
	TM_ALGO_TREEMATCH,   /* TreeMatch (Jeannot & Mercier), the default */
	TM_ALGO_PACKED,      /* rank i on leaf i */
	TM_ALGO_ROUND_ROBIN, /* rank i in top-level subtree i mod k */
	TM_ALGO_MPIPP,       /* MPIPP: random starts + pairwise swaps, best of 5 */
	TM_ALGO_MPIPP1,      /* MPIPP with a single start */
} tm_algorithm;

enum { TM_ALGO_COUNT = TM_ALGO_MPIPP1 + 1 };

/* "treematch", "packed", "round-robin", "mpipp", "mpipp1". */
const char *tm_algorithm_name(tm_algorithm a);
/* Returns 0 and sets *a when name is known, -1 otherwise. */
int tm_algorithm_parse(const char *name, tm_algorithm *a);

/* Fill leaf_of[0..m->n-1] with distinct leaves of t. */
tm_status tm_map(tm_algorithm a, const tm_tree *t, const tm_matrix *m,
		 int *leaf_of, tm_error *err);

#endif /* TM_MAP_H */
