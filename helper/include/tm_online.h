/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tm_online.h - online placement (doc/online.md; OnDeLoc-MPI, Agung et al.,
 * Supercomputing Frontiers and Innovations 2020): its parameters, the rule
 * that stretches or shrinks the mapping interval, and one mapping round of
 * a node's ranks from the traffic of the last interval.
 *
 * The parameters travel as one text, "interval=1,min=0.5,max=30,slope=2,
 * policy=treematch,gain=0.05,save=FILE": the user writes it in
 * --comm-matrix-online (or the site in online=), the plugin checks it and
 * hands the canonical form to the tasks in TREEMATCH_ONLINE_PARAMS, where
 * the profiler's online mode reads it again (it never trusts it).
 */
#ifndef TM_ONLINE_H
#define TM_ONLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "tm_error.h"
#include "tm_map.h"
#include "tm_matrix.h"
#include "tm_tree.h"

enum { TM_ONLINE_SAVE_MAX = 1024 };

/* What the plugin gives each task of an online step and the profiler's
 * online mode reads (doc/online.md): named once, here, for both. */
#define TM_ONLINE_ENV            "TREEMATCH_ONLINE"
#define TM_ONLINE_ENV_PARAMS     "TREEMATCH_ONLINE_PARAMS"
#define TM_ONLINE_ENV_SEGMENT    "TREEMATCH_ONLINE_SEGMENT"
#define TM_ONLINE_ENV_LOCAL_RANK "TREEMATCH_ONLINE_LOCAL_RANK"
#define TM_ONLINE_ENV_LOCAL_SIZE "TREEMATCH_ONLINE_LOCAL_SIZE"
#define TM_ONLINE_ENV_NODE       "TREEMATCH_ONLINE_NODE"
#define TM_ONLINE_ENV_REPORT     "TREEMATCH_ONLINE_REPORT"
#define TM_ONLINE_ENV_CPT        "TREEMATCH_ONLINE_CPUS_PER_TASK"
#define TM_ONLINE_ENV_LOG        "TREEMATCH_ONLINE_LOG"

typedef struct tm_online_params {
	double first;  /* seconds before the first round */
	double min;    /* the interval never goes below ... */
	double max;    /* ... nor above these, in seconds */
	double slope;  /* v > 1: x v while stable, / v after a move */
	tm_algorithm policy; /* what maps a round */
	/* A round moves tasks only when its placement lowers the interval's
	 * tree cost by at least this fraction of the current one (0..1):
	 * equal-cost placements never migrate a task. */
	double gain;
	/* Where world rank 0 writes, at MPI_Finalize, the traffic since the
	 * mapping last changed (the whole run if it never did); "" for
	 * nowhere. */
	char save[TM_ONLINE_SAVE_MAX];
} tm_online_params;

/* The defaults, each with its reason in doc/online.md. */
void tm_online_params_default(tm_online_params *p);

/* Reads "key=value,..." over *p (which holds defaults or earlier values):
 * keys interval, min, max, slope, policy, gain, save, each at most once,
 * in any order; "" changes nothing.  Checks the result as a whole
 * (min <= interval <= max, slope > 1, ...).  Errors are one line naming
 * `what` (the option, site key or variable it came from), the key and what
 * was expected, e.g.
 *   "--comm-matrix-online: slope=1: expected a number > 1".
 * *p is unchanged on error. */
tm_status tm_online_params_parse(const char *spec, const char *what,
				 tm_online_params *p, tm_error *err);

/* The canonical text of *p, which tm_online_params_parse reads back to the
 * same values; snprintf's contract (returns the length it needed). */
int tm_online_params_format(const tm_online_params *p, char *buf,
			    size_t size);

/* Equations 1 and 2 of the paper: current x slope when the mapping did not
 * change, current / slope when it did, kept within [min, max]. */
double tm_online_next_interval(const tm_online_params *p, double current,
			       bool changed);

/* What one round decided. */
typedef struct tm_online_round {
	bool changed;         /* leaf_of differs from previous */
	int moved;            /* ranks whose leaf changed */
	double cost;          /* tree cost of leaf_of under m */
	double previous_cost; /* ... of previous under m */
	double packed_cost;   /* ... of rank i on leaf i */
} tm_online_round;

/* One round on one node: m is the last interval's traffic between this
 * node's ranks (local order), t the tree of the cores they may use (at
 * least m->n leaves), previous[i] the leaf rank i is on now (never -1).
 * Maps with p->policy, and keeps previous, unchanged, when the result is
 * not cheaper by p->gain or when m has no traffic; writes leaf_of. */
tm_status tm_online_map_round(const tm_online_params *p, const tm_tree *t,
			      const tm_matrix *m, const int *previous,
			      int *leaf_of, tm_online_round *round,
			      tm_error *err);

#endif /* TM_ONLINE_H */
