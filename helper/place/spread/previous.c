/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * previous.c - reading a previous placement for spread (--previous FILE):
 * the JSON that `treematch-helper map` prints (tm_report.h), of which only
 * "size" and each placement's "rank" and "cpus" matter here, read by the
 * one placement reader (tm_placement.h).  Each rank is found again as a
 * leaf of the tree it is placed on now; see tm_previous_load in tm_map.h.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "tm_map.h"
#include "tm_placement.h"

static int same_cpus(const tm_leaf *leaf, const int *cpus, int n)
{
	return leaf->npus == n &&
	       memcmp(leaf->pus, cpus, (size_t)n * sizeof(int)) == 0;
}

static int holds_cpu(const tm_leaf *leaf, int cpu)
{
	for (int p = 0; p < leaf->npus; p++)
		if (leaf->pus[p] == cpu)
			return 1;
	return 0;
}

/* The leaf for a previous "cpus": exactly those CPUs, else the one with
 * the first of them; a leaf not claimed yet first (an oversubscribed tree
 * has several leaves on the same CPUs).  -1 when none. */
static int find_leaf(const tm_tree *t, const int *cpus, int n,
		     const char *claimed)
{
	int exact = -1, holder = -1;

	for (int l = 0; l < t->nleaves; l++) {
		if (same_cpus(&t->leaf[l], cpus, n)) {
			if (!claimed[l])
				return l;
			if (exact < 0)
				exact = l;
		}
	}
	if (exact >= 0)
		return exact;
	for (int l = 0; l < t->nleaves; l++) {
		if (holds_cpu(&t->leaf[l], cpus[0])) {
			if (!claimed[l])
				return l;
			if (holder < 0)
				holder = l;
		}
	}
	return holder;
}

tm_status tm_previous_load(const char *path, const tm_tree *t, int size,
			   const int *ranks, int nranks, int *previous,
			   tm_error *err)
{
	tm_placement_file *file = NULL;
	int *entry_of = malloc((size_t)size * sizeof(int) + 1);
	char *claimed = calloc((size_t)t->nleaves + 1, 1);
	tm_status status;

	if (!entry_of || !claimed) {
		status = tm_error_nomem(err);
		goto out;
	}
	status = tm_placement_load(path, size, size, &file, err);
	if (status != TM_OK)
		goto out;
	for (int r = 0; r < size; r++)
		entry_of[r] = -1;
	for (int k = 0; k < file->nentries; k++)
		entry_of[file->entry[k].rank] = k;
	int found = 0, listed = 0;
	for (int i = 0; i < nranks; i++) {
		int k = entry_of[ranks[i]];

		previous[i] = -1;
		if (k < 0)
			continue;
		listed++;
		previous[i] = find_leaf(t, file->entry[k].cpus,
					file->entry[k].ncpus, claimed);
		if (previous[i] >= 0) {
			claimed[previous[i]] = 1;
			found++;
		}
	}
	/* A file that says nothing about these ranks, or only about CPUs
	 * this tree does not have, is most likely the wrong one. */
	if (file->nentries > 0 && nranks > 0 && listed == 0)
		status = tm_error_set(err, TM_ERR_SIZE, "%s: lists none of the "
				      "%d ranks placed now (another node's "
				      "placement?)", path, nranks);
	else if (listed > 0 && found == 0)
		status = tm_error_set(err, TM_ERR_TOPOLOGY, "%s: none of its "
				      "%d ranks placed now is on CPUs of this "
				      "topology (another node's placement?)",
				      path, listed);
out:
	tm_placement_free(file);
	free(entry_of);
	free(claimed);
	return status;
}
