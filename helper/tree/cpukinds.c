/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cpukinds.c - hybrid processors: keep the most powerful kinds of core when
 * a job has fewer ranks than the node has cores (see tm_topology.h and
 * doc/topology.md).  The kinds come from hwloc (topology.c); this file only
 * works on the tree.
 *
 * Why before mapping rather than inside TreeMatch: the tree does not know
 * that cores differ, and on Intel's hybrids the efficiency cores share an L2
 * by four, which TreeMatch's costs reward: left alone, a small job goes to
 * the slowest cores.  Restricting the tree first keeps TreeMatch's placement
 * within the kinds unchanged.
 */
#include <config.h>

#include <stdlib.h>

#include "tm_topology.h"

int tm_cpu_kinds_of_leaf(const tm_cpu_kinds *k, const tm_leaf *leaf)
{
	if (!k || leaf->npus < 1)
		return k ? k->n : 0;
	for (int i = 0; i < k->n; i++) {
		const tm_cpu_kind *kd = &k->kind[i];

		/* pus are ascending: a binary search */
		int lo = 0, hi = kd->npus;
		while (lo < hi) {
			int mid = (lo + hi) / 2;

			if (kd->pus[mid] < leaf->pus[0])
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < kd->npus && kd->pus[lo] == leaf->pus[0])
			return i;
	}
	return k->n;
}

/* How many slots of cpus_per_task leaves a tree yields; -1 out of memory. */
static int count_slots(const tm_tree *t, int cpus_per_task)
{
	tm_error ignored;
	tm_tree *g;
	int n;

	if (cpus_per_task <= 1)
		return t->nleaves;
	if (t->nleaves < cpus_per_task)
		return 0;
	g = tm_tree_group_leaves(t, cpus_per_task, &ignored);
	if (!g)
		return ignored.status == TM_ERR_NOMEM ? -1 : 0;
	n = g->nleaves;
	tm_tree_free(g);
	return n;
}

/* The pruned tree of the leaves with keep[] set, and how many slots it
 * yields (-1 out of memory). */
static tm_tree *kept_tree(const tm_tree *t, const char *keep,
			  int cpus_per_task, int *slots, tm_error *err)
{
	tm_tree *sub = tm_tree_keep_leaves(t, keep, err), *pruned;

	if (!sub)
		return NULL;
	pruned = tm_tree_prune(sub, 1, err);
	tm_tree_free(sub);
	if (!pruned)
		return NULL;
	*slots = count_slots(pruned, cpus_per_task);
	if (*slots < 0) {
		tm_tree_free(pruned);
		tm_error_nomem(err);
		return NULL;
	}
	return pruned;
}

tm_tree *tm_cpu_kinds_keep_best(const tm_tree *t, const tm_cpu_kinds *k,
				int nranks, int cpus_per_task, int *nused,
				int *nlast, tm_error *err)
{
	int nkinds = k ? k->n : 0, per = cpus_per_task > 1 ? cpus_per_task : 1;
	int *kind_of = NULL, *count = NULL;
	char *keep = NULL;
	tm_tree *best = NULL;

	*nused = nkinds;
	*nlast = -1;
	if (nkinds < 2 || !k->ranked || (long)nranks * per >= t->nleaves)
		return tm_tree_copy(t, err);
	kind_of = malloc(sizeof(int) * (size_t)t->nleaves);
	count = calloc((size_t)nkinds + 1, sizeof(int));
	keep = malloc((size_t)t->nleaves);
	if (!kind_of || !count || !keep)
		goto nomem;
	/* leaves in no kind count as one more, least powerful, kind */
	for (int l = 0; l < t->nleaves; l++)
		count[kind_of[l] = tm_cpu_kinds_of_leaf(k, &t->leaf[l])]++;
	/* Whole kinds, most powerful first, while they do not hold the
	 * ranks; the first one that does not fit either is the last
	 * kind.  When the most powerful kind alone holds them, TreeMatch
	 * chooses among all its cores. */
	long before = 0;
	for (int j = 0; j <= nkinds; j++) {
		int slots;

		if (count[j] == 0)
			continue;
		for (int l = 0; l < t->nleaves; l++)
			keep[l] = kind_of[l] <= j;
		if (before + count[j] == t->nleaves) {
			if (j == 0)
				break; /* one kind here: the tree as it is */
			goto partial; /* every leaf: no need to build it */
		}
		if (before + count[j] < (long)nranks * per) {
			before += count[j];
			continue;
		}
		best = kept_tree(t, keep, per, &slots, err);
		if (!best)
			goto out;
		if (slots >= nranks && before == 0) {
			*nused = j + 1;
			goto out;
		}
		tm_tree_free(best);
		best = NULL;
		if (slots < nranks) {
			before += count[j];
			continue;
		}
partial:
		/* All the kinds before j, and as few leaves of kind j as
		 * the ranks need, in the machine's order (so they fill the
		 * fewest subtrees). */
		for (int m = (int)((long)nranks * per - before > 1 ?
				       (long)nranks * per - before : 1);
		     m <= count[j]; m++) {
			int seen = 0;

			for (int l = 0; l < t->nleaves; l++)
				keep[l] = kind_of[l] < j ||
					  (kind_of[l] == j && seen++ < m);
			if (before + m == t->nleaves)
				break;
			best = kept_tree(t, keep, per, &slots, err);
			if (!best)
				goto out;
			if (slots >= nranks) {
				*nused = j + 1;
				*nlast = m;
				goto out;
			}
			tm_tree_free(best);
			best = NULL;
		}
		break;
	}
	best = tm_tree_copy(t, err);
	goto out;
nomem:
	tm_error_nomem(err);
out:
	free(kind_of);
	free(count);
	free(keep);
	return best;
}
