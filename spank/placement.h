/* placement.h - the helper's answer, checked (placement.c). */
#ifndef TM_PLACEMENT_H
#define TM_PLACEMENT_H

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
} placement;

/* Parse the helper's JSON.  It must place exactly the n ranks listed, in
 * that order, each on a non-empty CPU list that is inside `allowed` (an
 * OS CPU list; NULL for a dry run on another topology). */
int placement_parse(const char *text, size_t len, int n,
		    const uint32_t *ranks, const char *allowed, placement *p,
		    char *why, size_t whylen);
void placement_free(placement *p);

#endif /* TM_PLACEMENT_H */
