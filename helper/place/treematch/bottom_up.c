/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * treematch.c - the TreeMatch algorithm as the paper gives it (Jeannot &
 * Mercier, Euro-Par 2010, Algorithm 1), bottom-up over the levels of a
 * regular tree (strategy.c makes it one of the strategies of the
 * "treematch" placement):
 *
 *   for each level, from the leaves' parents up to the root:
 *     extend the matrix with idle (dummy) processes until the arity divides
 *     its order (ExtendComMatrix: idle cores go where they cost least);
 *     group the processes by k = arity (GroupProcesses, group.c);
 *     aggregate the matrix: a group becomes one virtual process that
 *     exchanges with another group the sum of what their members exchange;
 *   map the groups down the tree: the root holds the last group, each node's
 *   children get the members of its group, dummies leave subtrees empty.
 *
 * The paper assumes a balanced, symmetric tree.  Slurm's partial nodes give
 * trees whose nodes of one level differ in arity; on those, groups of one
 * size cannot fill every node, so they take the top-down path
 * (kpartition.c), which respects each subtree's capacity.
 */
#include <config.h>

#include <stdlib.h>

#include "place/treematch/treematch.h"



/* The matrix between groups: pairs inside a group disappear, pairs across
 * groups add up.  Each group's row is summed first into one weight per
 * neighbouring group of a higher number, so that the list handed to
 * tm_matrix_from_entries holds every pair of groups once rather than every
 * pair of their members: ten to a hundred times shorter on dense
 * matrices, where building the next level took most of the grouping's
 * time.  Group g is members[g * k .. g * k + k - 1]; dummies (>= m->n)
 * exchange nothing. */
static tm_status aggregate(const tm_matrix *m, const int *members, int k,
			   const int *group_of, int ngroups, tm_matrix **out,
			   tm_error *err)
{
	int64_t pairs = m->row_start[m->n] / 2, c = 0;
	int *gi = malloc(sizeof(int) * (size_t)(pairs + 1));
	int *gj = malloc(sizeof(int) * (size_t)(pairs + 1));
	double *w = malloc(sizeof(double) * (size_t)(pairs + 1));
	double *sum = calloc((size_t)ngroups, sizeof(*sum));
	int *seen = malloc(sizeof(int) * (size_t)ngroups);
	tm_status st;

	if (!gi || !gj || !w || !sum || !seen) {
		st = tm_error_nomem(err);
		goto out;
	}
	for (int g = 0; g < ngroups; g++)
		seen[g] = -1;
	for (int g = 0; g < ngroups; g++) {
		int64_t first = c;

		for (int x = g * k; x < g * k + k; x++) {
			int a = members[x];

			if (a >= m->n)
				continue;
			for (int64_t e = m->row_start[a]; e < m->row_start[a + 1];
			     e++) {
				int h = group_of[m->col[e]];

				if (h <= g)
					continue;
				if (seen[h] != g) { /* first weight to group h */
					seen[h] = g;
					gi[c] = g;
					gj[c++] = h;
				}
				sum[h] += m->weight[e];
			}
		}
		for (int64_t q = first; q < c; q++) {
			w[q] = sum[gj[q]];
			sum[gj[q]] = 0;
		}
	}
	st = tm_matrix_from_entries(ngroups, (size_t)c, gi, gj, w, out, err);
out:
	free(gi);
	free(gj);
	free(w);
	free(sum);
	free(seen);
	return st;
}

/* members[d]: the groups formed at depth d, k = arity of depth-d nodes;
 * order[d]: how many real (virtual) processes were grouped at depth d,
 * i.e. the order of the matrix at depth d + 1 (order[depth - 1] = n). */
static tm_status map_groups(const tm_tree *t, int *const *members,
			    const int *order, int *leaf_of, tm_error *err)
{
	int *vp = malloc(sizeof(int) * (size_t)t->nnodes);

	if (!vp)
		return tm_error_nomem(err);
	vp[0] = 0; /* the root holds the one group of the top level */
	for (int d = 0; d < t->depth; d++) {
		int k = t->arity[t->level_start[d]];

		for (int v = t->level_start[d]; v < t->level_start[d + 1]; v++) {
			for (int c = 0; c < k; c++) {
				int child = t->first_child[v] + c, x = -1;

				if (vp[v] >= 0)
					x = members[d][vp[v] * k + c];
				vp[child] = x >= 0 && x < order[d] ? x : -1;
			}
		}
	}
	for (int l = 0; l < t->nleaves; l++) {
		int r = vp[t->level_start[t->depth] + l];

		if (r >= 0)
			leaf_of[r] = l;
	}
	free(vp);
	return TM_OK;
}

tm_status tm__map_bottom_up(const tm_tree *t, const tm_matrix *m,
			   int *leaf_of, tm_error *err)
{
	if (!tm_tree_is_regular(t))
		return tm__map_top_down(t, m, leaf_of, err);
	if (t->depth == 0) {
		leaf_of[0] = 0;
		return TM_OK;
	}

	int depth = t->depth;
	int **members = calloc((size_t)depth, sizeof(*members));
	int *order = calloc((size_t)depth, sizeof(*order));
	const tm_matrix *cur = m;
	tm_matrix *owned = NULL;
	tm_status st = TM_OK;

	if (!members || !order) {
		st = tm_error_nomem(err);
		goto out;
	}
	for (int d = depth - 1; d >= 0; d--) {
		int k = t->arity[t->level_start[d]];
		int p = cur->n;
		int extended = (p + k - 1) / k * k; /* ExtendComMatrix */
		int ngroups = extended / k;
		int *group_of = malloc(sizeof(int) * (size_t)extended);

		order[d] = p;
		members[d] = malloc(sizeof(int) * (size_t)extended);
		if (!members[d] || !group_of) {
			free(group_of);
			st = tm_error_nomem(err);
			goto out;
		}
		st = tm__group_processes(cur, extended, k, members[d], err);
		if (st != TM_OK) {
			free(group_of);
			goto out;
		}
		for (int x = 0; x < extended; x++)
			group_of[members[d][x]] = x / k;

		tm_matrix *next = NULL;
		st = aggregate(cur, members[d], k, group_of, ngroups, &next,
			       err);
		free(group_of);
		if (st != TM_OK)
			goto out;
		tm_matrix_free(owned);
		owned = next;
		cur = next;
	}
	st = map_groups(t, members, order, leaf_of, err);
out:
	if (members)
		for (int d = 0; d < depth; d++)
			free(members[d]);
	free(members);
	free(order);
	tm_matrix_free(owned);
	return st;
}
