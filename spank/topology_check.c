/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * topology_check.c - what a user's dry-run topology may cost: srun checks
 * it before the step starts (local.c), each node again before the helper
 * runs (remote.c), so that a tree: spec never makes a node build a tree of
 * millions of leaves (see tm_spank.h).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tm_spank.h"
#include "tm_topology.h"

int topology_too_big(const char *topology, uint32_t ntasks,
		     uint32_t cpus_per_task, char *why, size_t wl)
{
	/* a step needs a leaf per CPU of its tasks; a plan on a machine of
	 * that size or a sane node's is allowed, nothing that would cost a
	 * node gigabytes (tree:8388608,2 took 3.6 GB) */
	long long allowed = (long long)ntasks * (cpus_per_task ? cpus_per_task : 1);
	long long leaves = 1;
	const char *p;

	if (allowed < TOPOLOGY_STEP_MIN_LEAVES)
		allowed = TOPOLOGY_STEP_MIN_LEAVES;
	if (allowed > TM_TREE_SPEC_MAX_LEAVES) /* the helper's own bound */
		allowed = TM_TREE_SPEC_MAX_LEAVES;
	if (strncmp(topology, "tree:", 5) != 0)
		return 0; /* xml: and synthetic: are read by hwloc, as nodes */
	for (p = topology + 5; *p; ) {
		char *end;
		long long a = strtoll(p, &end, 10);

		if (end == p || a < 1)
			return 0; /* the helper words the error */
		leaves = a > allowed ? allowed + 1 : leaves * a;
		if (leaves > allowed) {
			char clean[64];

			text_clean(clean, sizeof(clean), topology,
				   strlen(topology));
			snprintf(why, wl, "--comm-matrix-topology=%s: more than "
				 "%lld leaves: expected at most %lld for this "
				 "step", clean, allowed, allowed);
			return 1;
		}
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return 0;
	}
	return 0;
}
