/* SPDX-License-Identifier: GPL-2.0-or-later */
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

/* Options a policy may read (tm_policy_table.h's last column). */
enum {
	TM_POLICY_OPT_THRESHOLD = 1 << 0, /* --threshold */
	TM_POLICY_OPT_SET_CAP = 1 << 1,   /* --set-cap */
	TM_POLICY_OPT_PREVIOUS = 1 << 2,  /* --previous */
};

#include "tm_policy_table.h"

/* TM_ALGO_TREEMATCH, TM_ALGO_PACKED, ... in the table's order. */
#define TM_POLICY_ENUM_(id, name, fn, help, opts) TM_ALGO_##id,
typedef enum tm_algorithm {
	TM_POLICY_TABLE(TM_POLICY_ENUM_)
	TM_ALGO_COUNT
} tm_algorithm;
#undef TM_POLICY_ENUM_

/* "treematch", "packed", ...; "unknown" out of range. */
const char *tm_algorithm_name(tm_algorithm a);
/* The table's one line of help and the options the policy reads. */
const char *tm_algorithm_help(tm_algorithm a);
int tm_algorithm_options(tm_algorithm a);
/* Returns 0 and sets *a when name is known, -1 otherwise. */
int tm_algorithm_parse(const char *name, tm_algorithm *a);
/* Every name, for messages: "treematch, packed, ... or spread". */
const char *tm_algorithm_choices(void);

/* Fill leaf_of[0..m->n-1] with distinct leaves of t. */
tm_status tm_map(tm_algorithm a, const tm_tree *t, const tm_matrix *m,
		 int *leaf_of, tm_error *err);

/* What some policies take besides the tree and the matrix (doc/policies.md).
 * Algorithms ignore the fields that are not theirs. */
typedef struct tm_map_options {
	/* setmatch: a weight is significant when it is at least this
	 * percentage of the largest weight of the matrix (0..100) */
	double threshold;
	/* setmatch: at most this many ranks in each architecture set (top-
	 * level subtree); 0: as many as it has leaves */
	int set_cap;
	/* spread: the leaf each rank had in the previous placement, -1 for a
	 * rank that had none; NULL: no previous placement */
	const int *previous;
} tm_map_options;

#define TM_MAP_OPTIONS_DEFAULT { .threshold = 10.0, .set_cap = 0, \
				 .previous = NULL }

/* tm_map with options; opt NULL means TM_MAP_OPTIONS_DEFAULT. */
tm_status tm_map_with(tm_algorithm a, const tm_map_options *opt,
		      const tm_tree *t, const tm_matrix *m, int *leaf_of,
		      tm_error *err);

/* spread --previous: read a placement as `treematch-helper map` prints it
 * in JSON (tm_report.h) and find, for each of the nranks ranks placed now
 * (global rank ranks[i]), the leaf of t it had: previous[i] is the leaf
 * whose CPUs are exactly its "cpus", else the leaf holding the first of
 * them, else -1 (not in the file, or on CPUs this tree does not have).
 * size is the number of ranks of the matrix.  Errors name the file and
 * the place (placement[3].rank) and say what was expected; a file in
 * which no rank lands on this tree is an error too (another node's?). */
tm_status tm_previous_load(const char *path, const tm_tree *t, int size,
			   const int *ranks, int nranks, int *previous,
			   tm_error *err);

#endif /* TM_MAP_H */
