/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * placement.c - read treematch-helper's answer.  The helper ran as the
 * job's user, who could have tampered with it, so its output is checked
 * like any user input before anything is used: the right ranks in the
 * right order, each on valid CPUs inside the step's own allocation on this
 * node.  That allocation comes from Slurm (the step's cores here, mapped to
 * OS CPUs with hwloc as the helper maps --slurm-cores), never from the
 * helper: the user can replace the helper and make it claim any "cpus".
 * Binding happens in the task, as the user, with sched_setaffinity; where
 * Slurm confines jobs (task/cgroup) the kernel also refuses CPUs outside
 * the job, but without cgroups this check is all that keeps a step inside
 * its allocation.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "placement.h"
#include "tm_placement.h"
#include "tm_slurm_cores.h"
#include "tm_spank.h"

void placement_free(placement *p)
{
	for (int i = 0; i < p->n; i++) {
		if (p->cpus)
			free(p->cpus[i]);
		if (p->cores)
			free(p->cores[i]);
	}
	free(p->cpus);
	free(p->cores);
	memset(p, 0, sizeof(*p));
}

/* The helper's CPU lists become hwloc bitmaps in root's slurmstepd: the
 * reader (tm_placement.h) has already bounded every index and refused
 * open-ended ranges ("4-", which hwloc reads as "4 to infinity"). */
static int to_bitmap(hwloc_bitmap_t set, const int *cpus, int n)
{
	hwloc_bitmap_zero(set);
	for (int i = 0; i < n; i++)
		if (hwloc_bitmap_set(set, (unsigned)cpus[i]) < 0)
			return -1;
	return 0;
}

int placement_step_cpus(const char *cores, char *cpus, size_t cpus_size,
			char *why, size_t whylen)
{
	hwloc_topology_t topo;
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	int rc = -1, ncores;

	if (!set || hwloc_topology_init(&topo) != 0) {
		snprintf(why, whylen, "out of memory");
		hwloc_bitmap_free(set);
		return -1;
	}
	/* the helper's view: every core, even those outside this process's
	 * cpuset, numbered in hwloc's logical order as Slurm numbers them;
	 * nothing but CPUs and caches is needed */
	hwloc_topology_set_flags(topo, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
	hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_NONE);
	hwloc_topology_set_cache_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_NONE);
	hwloc_topology_set_icache_types_filter(topo,
					       HWLOC_TYPE_FILTER_KEEP_NONE);
	hwloc_topology_set_type_filter(topo, HWLOC_OBJ_MISC,
				       HWLOC_TYPE_FILTER_KEEP_NONE);
	if (hwloc_topology_load(topo) != 0) {
		snprintf(why, whylen, "cannot read this node's topology");
		goto out;
	}
	/* Slurm's list, bounded (no "4-", which hwloc reads as endless),
	 * read as the helper reads --slurm-cores */
	if (tm_slurm_cores_cpuset(topo, cores, set, &ncores) != 0 ||
	    strspn(cores, "0123456789,-") != strlen(cores) ||
	    strstr(cores, "--") || cores[strlen(cores) - 1] == '-') {
		snprintf(why, whylen, "Slurm's core list for the step (%.200s) "
			 "does not fit this node's %d cores", cores ? cores : "",
			 ncores);
		goto out;
	}
	if (hwloc_bitmap_iszero(set) ||
	    hwloc_bitmap_list_snprintf(cpus, cpus_size, set) >= (int)cpus_size) {
		snprintf(why, whylen, "Slurm's core list for the step (%.200s) "
			 "names no CPU of this node", cores);
		goto out;
	}
	rc = 0;
out:
	hwloc_topology_destroy(topo);
	hwloc_bitmap_free(set);
	return rc;
}

static int check_entry(const tm_placement_entry *e, int i, uint32_t rank,
		       hwloc_const_bitmap_t step, const char *step_text,
		       hwloc_const_bitmap_t allowed, hwloc_bitmap_t set,
		       placement *p, char *why, size_t whylen)
{
	if ((uint32_t)e->rank != rank) {
		snprintf(why, whylen, "the helper's placement[%d] is not rank %u",
			 i, rank);
		return -1;
	}
	if (to_bitmap(set, e->cpus, e->ncpus) < 0) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	if (step && !hwloc_bitmap_isincluded(set, step)) {
		/* e->cpus_text was parsed as a bounded list: safe to quote */
		snprintf(why, whylen, "the helper placed rank %u on CPUs %.64s, "
			 "outside the step's CPUs on this node (%.64s)", rank,
			 e->cpus_text, step_text);
		return -1;
	}
	if (!hwloc_bitmap_isincluded(set, allowed)) {
		snprintf(why, whylen, "the helper placed rank %u outside the "
			 "CPUs it was given", rank);
		return -1;
	}
	p->cpus[i] = strdup(e->cpus_text);
	p->cores[i] = strdup(e->cores_text);
	if (!p->cpus[i] || !p->cores[i]) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	return 0;
}

int placement_parse(const char *text, size_t len, int n,
		    const uint32_t *ranks, const char *step_cpus, placement *p,
		    char *cpus, size_t cpus_size, char *why, size_t whylen)
{
	tm_placement_file *file = NULL;
	tm_error err;
	hwloc_bitmap_t allowed_set = hwloc_bitmap_alloc();
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	hwloc_bitmap_t step = step_cpus ? hwloc_bitmap_alloc() : NULL;
	int rc = -1;

	memset(p, 0, sizeof(*p));
	p->cpus = calloc((size_t)n + 1, sizeof(char *));
	p->cores = calloc((size_t)n + 1, sizeof(char *));
	p->n = n;
	if (!p->cpus || !p->cores || !set || !allowed_set ||
	    (step_cpus && !step)) {
		snprintf(why, whylen, "out of memory");
		goto out;
	}
	/* made by placement_step_cpus: a bounded list */
	if (step && (hwloc_bitmap_list_sscanf(step, step_cpus) != 0 ||
		     hwloc_bitmap_iszero(step))) {
		snprintf(why, whylen, "the step's CPUs on this node are unknown");
		goto out;
	}
	/* the reader's message quotes the output: cleaned before it is
	 * logged, as anything else the user controls */
	tm_status st = tm_placement_parse("output", text, len, 0, n, &file,
					  &err);
	if (st != TM_OK) {
		char clean[sizeof(err.text)];
		text_clean(clean, sizeof(clean), err.text, sizeof(err.text));
		snprintf(why, whylen, st == TM_ERR_SYNTAX ?
			 "the helper's output is not JSON (%s)" :
			 "the helper's output is not a placement (%s)", clean);
		goto out;
	}
	if (!file->cpus_text || strlen(file->cpus_text) >= cpus_size ||
	    to_bitmap(allowed_set, file->cpus, file->ncpus) < 0) {
		snprintf(why, whylen, "the helper's output has no valid \"cpus\"");
		goto out;
	}
	strcpy(cpus, file->cpus_text);
	if (file->nentries != n) {
		snprintf(why, whylen, "the helper placed %d ranks, expected %d",
			 file->nentries, n);
		goto out;
	}
	for (int i = 0; i < n; i++)
		if (check_entry(&file->entry[i], i, ranks[i], step, step_cpus,
				allowed_set, set, p, why, whylen) < 0)
			goto out;
	/* the "cpus" of the report must not claim more than the step has */
	if (step && !hwloc_bitmap_isincluded(allowed_set, step)) {
		snprintf(why, whylen, "the helper says it placed the ranks among "
			 "CPUs %.64s, not all the step's on this node (%.64s)",
			 cpus, step_cpus);
		goto out;
	}
	p->ncosts = file->ncosts;
	for (int c = 0; c < file->ncosts && c < PLACEMENT_MAX_COSTS; c++) {
		snprintf(p->cost_name[c], sizeof(p->cost_name[c]), "%s",
			 file->cost_name[c]);
		p->cost[c] = file->cost[c];
	}
	p->proven_optimal = file->proven_optimal;
	rc = 0;
out:
	tm_placement_free(file);
	hwloc_bitmap_free(set);
	hwloc_bitmap_free(allowed_set);
	hwloc_bitmap_free(step);
	if (rc < 0)
		placement_free(p);
	return rc;
}
