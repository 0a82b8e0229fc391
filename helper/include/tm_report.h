/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tm_report.h - a placement as the helper prints it: JSON for programs (the
 * SPANK plugin parses it), a table for people.
 *
 * JSON: {"algorithm": "treematch", "size": N, "cpus": "0-15",
 *        "placement": [{"rank": 0, "cpus": "4", "cores": [4]}, ...],
 *        "cost": {"treematch": X, "packed": Y, "round-robin": Z},
 *        "hop-bytes": {...same keys...}, "proven-optimal": false,
 *        "seconds": T}
 * "cpus" is an hwloc list of OS PU indices (at the top: all the CPUs the
 * ranks were placed among), "cores" logical core indices.
 * "proven-optimal": the placement reaches the lower bound of
 * tm_placement_is_optimal, so no placement costs less (false proves
 * nothing).
 * The text form also names the CPU kinds of a hybrid node and which ones
 * the ranks were kept on, and says when fewer ranks than cores leave a
 * package or NUMA node unused (its memory bandwidth with it).
 *
 * With several matrices (nmatrices > 1: the runs of one job), "cost" is
 * on their combination and three more keys follow:
 *   "combine": "sum" | "worst", "chosen": which placement was kept,
 *   "matrices": [{"file": F, "cost": {...same keys as "cost"...},
 *                 "own": cost on F of the placement made for F alone}],
 *   "disagreement": {"ratio": R, "placed-for": A, "measured-on": B,
 *                    "threshold": T, "strong": R > T}
 * R is the largest, over ordered pairs of matrices, of the cost on B of
 * the placement made for A against the cost on B of B's own.
 */
#ifndef TM_REPORT_H
#define TM_REPORT_H

#include "tm_matrix.h"
#include "tm_topology.h"
#include "tm_tree.h"

enum { TM_REPORT_MAX_COSTS = 8 };

/* One of several matrices: how the report's placements fare on it. */
typedef struct tm_report_matrix {
	const char *file;
	double cost[TM_REPORT_MAX_COSTS]; /* as tm_report's cost[], on it */
	double own;       /* the placement made for this matrix alone */
} tm_report_matrix;

typedef struct tm_report {
	const char *algorithm;   /* the one whose placement is shown */
	const char *topology;    /* as given, for the text header */
	int size;                /* ranks in the matrix (the whole job) */
	int nranks;              /* ranks placed */
	const int *ranks;        /* global rank of each one, in order */
	const int *leaf_of;      /* its leaf in tree */
	const tm_tree *tree;
	int ncosts;              /* the chosen algorithm first */
	const char *cost_name[TM_REPORT_MAX_COSTS];
	double cost[TM_REPORT_MAX_COSTS];
	double hop_bytes[TM_REPORT_MAX_COSTS];
	int proven_optimal;      /* no placement on this tree costs less */
	double seconds;          /* time the chosen algorithm took */
	/* Text only: the node's CPU kinds (NULL or n < 2: all alike), how
	 * many of them, most powerful first, the tree kept
	 * (tm_cpu_kinds_keep_best), and whether --cpu-kinds equal asked to
	 * treat them alike; leaves_are_pus names the leaves (--bind pu). */
	const tm_cpu_kinds *kinds;
	int kinds_used;
	int kinds_last;          /* leaves of the last kind used, -1: all */
	int kinds_equal;
	int leaves_are_pus;
	/* several matrices; nmatrices 0 or 1: none of this is printed */
	int nmatrices;
	const tm_report_matrix *matrices;
	const char *combine;     /* "sum" or "worst" */
	const char *chosen;      /* e.g. "treematch for the sum", "packed" */
	double disagreement;     /* the ratio R above */
	int placed_for, measured_on; /* the pair of R: indices in matrices */
	double disagreement_threshold;
	/* SVG only: what the picture's title names when known (NULL: not
	 * known): the node, the job and the step (map --node, --jobid,
	 * --stepid; the plugin passes them). */
	const char *node, *jobid, *stepid;
} tm_report;

/* Both return a malloc()ed, NUL-terminated text ending in a newline, or
 * NULL when out of memory. */
char *tm_report_json(const tm_report *r);
char *tm_report_text(const tm_report *r);

/* The placement as an SVG picture (report_svg.c), same contract: the node
 * drawn as nested boxes (one per node of r->tree, named by its level), each
 * leaf labelled with its rank and coloured by the rank's group (its
 * ancestor at the deepest level above the leaves where one node holds
 * several ranks and at most 12 groups, else the top-level subtree), beside
 * m (r's ranks, in r's order, e.g. tm_matrix_subset) as a heat map, ranks
 * in placement order (by leaf), binned to at most 256x256 cells, on a
 * linear colour scale drawn below it with its bounds (the matrix's unit).
 * The title names r's node, job and step where known.  packed_leaf_of
 * (may be NULL) adds a second row for that placement, titled "packed",
 * every rank keeping its colour; each row's cost is also given as a ratio
 * to packed's.  Names (the
 * topology, the levels) are escaped as XML text. */
char *tm_report_svg(const tm_report *r, const tm_matrix *m,
		    const int *packed_leaf_of);

#endif /* TM_REPORT_H */
