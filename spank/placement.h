/* SPDX-License-Identifier: GPL-2.0-or-later */
/* placement.h - the helper's answer, checked (placement.c). */
#ifndef TM_SPANK_PLACEMENT_H
#define TM_SPANK_PLACEMENT_H

#include <stddef.h>
#include <stdint.h>

enum { PLACEMENT_MAX_COSTS = 8 };

typedef struct placement {
	int n;
	char **cpus;    /* per local task: OS CPU list */
	char **cores;   /* per local task: logical cores, for the report */
	int ncosts;     /* the helper's algorithm first */
	char cost_name[PLACEMENT_MAX_COSTS][32];
	double cost[PLACEMENT_MAX_COSTS];
	int proven_optimal; /* no placement on the node's tree costs less */
} placement;

/* The step's OS CPUs on this node ("0-3,8" into cpus) from Slurm's core
 * list for it (S_STEP_ALLOC_CORES), through hwloc, as the helper maps its
 * --slurm-cores.  -1 with why set when the list does not fit the node. */
int placement_step_cpus(const char *cores, char *cpus, size_t cpus_size,
			char *why, size_t whylen);

/* Parse the helper's JSON.  It must place exactly the n ranks listed, in
 * that order, each on a non-empty CPU list inside step_cpus (the step's
 * CPUs on this node, from placement_step_cpus; NULL in a dry run, where
 * nothing is bound) and inside the CPUs the helper says it placed them
 * among, which go to `cpus` and must be the step's too. */
int placement_parse(const char *text, size_t len, int n,
		    const uint32_t *ranks, const char *step_cpus, placement *p,
		    char *cpus, size_t cpus_size, char *why, size_t whylen);
void placement_free(placement *p);

#endif /* TM_SPANK_PLACEMENT_H */
