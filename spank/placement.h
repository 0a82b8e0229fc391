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

/* Parse the helper's JSON.  It must place exactly the n ranks listed, in
 * that order, each on a non-empty CPU list inside the CPUs the helper says
 * it placed them among, which go to `cpus`. */
int placement_parse(const char *text, size_t len, int n,
		    const uint32_t *ranks, placement *p, char *cpus,
		    size_t cpus_size, char *why, size_t whylen);
void placement_free(placement *p);

#endif /* TM_SPANK_PLACEMENT_H */
