/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job/switches.h - Slurm's switch records as read from `scontrol show
 * topology` or topology.conf (switches.c), before switch_tree.c turns
 * them into the tree above a job's nodes.
 */
#ifndef TM_JOB_SWITCHES_H
#define TM_JOB_SWITCHES_H

#include <stddef.h>

#include "tm_error.h"

typedef struct tm__switch {
	char *name;
	int line;     /* where it is defined, for errors */
	int parent;   /* the switch listing it in Switches=, or -1 */
	int nchild;
	int *child;   /* switches of its Switches=, in order */
	int nnode;
	int *node;    /* the job's nodes of its Nodes= (indices), in order */
} tm__switch;

typedef struct tm__switches {
	int n;
	tm__switch *sw;
} tm__switches;

/* Parse the records; only the job's nodes[0..nnodes) are kept from
 * Nodes=.  Errors: "NAME:LINE: ..." naming what was expected. */
tm_status tm__switches_parse(const char *name, const char *text, size_t len,
			     char *const *nodes, int nnodes,
			     tm__switches *out, tm_error *err);
void tm__switches_free(tm__switches *s);

#endif /* TM_JOB_SWITCHES_H */
