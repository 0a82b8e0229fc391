/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online_tree.c - the tree a node's mapper places its ranks on: this
 * machine's hwloc topology restricted to the CPUs its tasks were given at
 * MPI_Init (under Slurm, the step's cores on this node), as
 * treematch-helper map builds it for the static path; and where each task
 * stands on it when the mapper starts.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tm_topology.h"

#include "online.h"

/* How many of t's leaves (cores) have a CPU in mask. */
static int cores_in(const tm_tree *t, const cpu_set_t *mask)
{
	cpu_set_t cpus, both;
	int l, count = 0;

	for (l = 0; l < t->nleaves; l++) {
		online_leaf_cpus(t, l, &cpus);
		CPU_AND(&both, &cpus, mask);
		count += CPU_COUNT(&both) > 0;
	}
	return count;
}

/* Cores each rank gets.  Said (srun -c N): N CPUs, in cores of this
 * machine.  Not said: the fewest cores a task was bound to (mpirun
 * --map-by ...:PE=N gives N), but one when no task was bound tighter
 * than the whole step: unbound MPI ranks each want a core of their own,
 * so that partners can share its caches.  Never more than the cores. */
static int cores_per_rank(const tm_tree *t, const cpu_set_t *masks, int n,
			  int cpus_per_task)
{
	int per = 0, i, c;

	if (cpus_per_task > 0) {
		int pus = t->nleaves > 0 && t->leaf[0].npus > 0 ?
			  t->leaf[0].npus : 1;

		per = (cpus_per_task + pus - 1) / pus;
	} else {
		for (i = 0; i < n; i++) {
			c = cores_in(t, &masks[i]);
			if (c < t->nleaves && c > 0 && (per == 0 || c < per))
				per = c;
		}
	}
	if (per < 1)
		per = 1;
	return per < t->nleaves ? per : t->nleaves;
}

tm_tree *online_tree_build(const cpu_set_t *masks, int n, int cpus_per_task,
			   tm_error *err)
{
	/* CPU_SETSIZE CPUs of up to 5 characters and a comma */
	char list[CPU_SETSIZE * 6 + 1];
	tm_tree *t = NULL, *wider;
	cpu_set_t all;
	int i, per;

	CPU_ZERO(&all);
	for (i = 0; i < n; i++)
		CPU_OR(&all, &all, &masks[i]);
	online_cpulist(&all, list, sizeof list);
	if (tm_topology_load("this", list, TM_LEAF_CORE, &t, err))
		return NULL;
	per = cores_per_rank(t, masks, n, cpus_per_task);
	if (per > 1) {
		/* slots of `per` cores in one subtree, as srun -c gets from
		 * treematch-helper map --cpus-per-task */
		wider = tm_tree_group_leaves(t, per, err);
		tm_tree_free(t);
		t = wider;
		if (!t)
			return NULL;
	}
	if (n > t->nleaves) {
		/* more ranks than cores: slots share a core, at no cost */
		wider = tm_tree_oversubscribe(t, n, err);
		tm_tree_free(t);
		t = wider;
	}
	return t;
}

void online_leaf_cpus(const tm_tree *t, int leaf, cpu_set_t *out)
{
	const tm_leaf *l = &t->leaf[leaf];
	int k;

	CPU_ZERO(out);
	for (k = 0; k < l->npus; k++)
		if (l->pus[k] >= 0 && l->pus[k] < CPU_SETSIZE)
			CPU_SET(l->pus[k], out);
}

/* How well leaf l fits a task given mask: 3 exactly its CPUs, 2 inside
 * them, 1 sharing some, 0 none. */
static int fit(const tm_tree *t, int l, const cpu_set_t *mask)
{
	cpu_set_t cpus, both;

	online_leaf_cpus(t, l, &cpus);
	if (CPU_EQUAL(&cpus, mask))
		return 3;
	CPU_AND(&both, &cpus, mask);
	if (CPU_EQUAL(&both, &cpus))
		return 2;
	return CPU_COUNT(&both) > 0 ? 1 : 0;
}

void online_initial_leaves(const tm_tree *t, const cpu_set_t *masks, int n,
			   int *leaf_of)
{
	char *used = calloc((size_t)t->nleaves, 1);
	int i, l, want, best;

	/* best fits first, so that a task bound to one core keeps it even
	 * when an unbound task comes before it */
	for (i = 0; i < n; i++)
		leaf_of[i] = -1;
	for (want = 3; want >= 0; want--) {
		for (i = 0; i < n; i++) {
			if (leaf_of[i] >= 0)
				continue;
			best = -1;
			for (l = 0; l < t->nleaves && best < 0; l++)
				if ((!used || !used[l]) &&
				    fit(t, l, &masks[i]) >= want)
					best = l;
			if (best >= 0) {
				leaf_of[i] = best;
				if (used)
					used[best] = 1;
			}
		}
	}
	/* without memory for the marks (or a tree short of leaves, which
	 * online_tree_build never makes): rank i on leaf i */
	for (i = 0; i < n; i++)
		if (leaf_of[i] < 0 || !used)
			leaf_of[i] = i % t->nleaves;
	free(used);
}
