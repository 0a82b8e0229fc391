/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spread.c - the "spread" policy: OnDeLocMap+ (Agung, Amrizal, Egawa and
 * Takizawa, "Online MPI Process Mapping for Coordinating Locality and
 * Memory Congestion on NUMA Systems", Supercomputing Frontiers and
 * Innovations 7(1), 2020, its
 * Algorithm 1) in static form: one matrix, one placement.
 *
 * The pairs of ranks are taken from the heaviest to the lightest.  The two
 * ranks of a pair go to the same NUMA node (they share its memory: the
 * locality), and each new pair goes to the NUMA node after the previous
 * pair's, round-robin (the memory controllers share the load: the
 * congestion).  With a previous placement (treematch-helper map
 * --previous), a pair whose two previous NUMA nodes both still have room
 * goes back there, so that re-mapping moves as few ranks as it can.
 *
 * NUMA nodes: the nodes of the deepest level whose name has "+NUMA" (the
 * topology loader marks the level that stands for hwloc's NUMA nodes),
 * else the top-level subtrees (tree:A,B,... has no NUMA level).
 *
 * What the paper leaves open, and the rules taken here (doc/policies.md;
 * each has a unit test):
 *  - a NUMA node with one free core left: skipped for a pair whose two
 *    ranks are still to place (the next one round-robin with two free
 *    cores takes it); when no NUMA node has two free cores, the pair is
 *    split: each rank goes to the next NUMA node with a free core;
 *  - a rank already placed (by a heavier pair): its partner joins it on its
 *    NUMA node when there is room (with a previous placement, its own
 *    previous NUMA node comes first), else goes to the next NUMA node with
 *    a free core; the pointer moves only when the round-robin chooses;
 *  - ranks that never communicate: placed last, in rank order, one per
 *    NUMA node round-robin from where the pairs left off (or on their
 *    previous NUMA node when it has room);
 *  - inside a NUMA node, ranks take its leaves from left to right in the
 *    order they arrive; with a previous placement a rank takes its own
 *    previous leaf when it is still free, and the others avoid the leaves
 *    that a rank had before when they can;
 *  - pairs of equal weight: the lower first rank, then the lower second.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "place/policy.h"

int tm__numa_depth(const tm_tree *t)
{
	for (int d = t->depth; d >= 0; d--)
		if (strstr(t->level_name[d], "+NUMA"))
			return d;
	return t->depth >= 1 ? 1 : 0;
}

typedef struct pair {
	int a, b;   /* a < b */
	double w;
} pair;

static int heaviest_first(const void *x, const void *y)
{
	const pair *p = x, *q = y;

	if (p->w != q->w)
		return p->w < q->w ? 1 : -1;
	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return (p->b > q->b) - (p->b < q->b);
}

typedef struct spread_state {
	const tm_tree *t;
	const int *previous; /* may be NULL */
	int *leaf_of;
	int nnodes;          /* NUMA nodes */
	int *first, *end;    /* their leaves: first .. end - 1 */
	int *room;           /* free leaves in each */
	int *node_of_leaf;
	char *used;          /* per leaf */
	char *reserved;      /* per leaf: some rank's previous leaf */
	int next;            /* the round-robin pointer */
} spread_state;

static void place(spread_state *s, int rank, int node)
{
	int leaf = -1;
	int own = s->previous ? s->previous[rank] : -1;

	if (own >= 0 && s->node_of_leaf[own] == node && !s->used[own])
		leaf = own;
	for (int l = s->first[node]; leaf < 0 && l < s->end[node]; l++)
		if (!s->used[l] && !s->reserved[l])
			leaf = l;
	for (int l = s->first[node]; leaf < 0 && l < s->end[node]; l++)
		if (!s->used[l])
			leaf = l;
	s->used[leaf] = 1;
	s->room[node]--;
	s->leaf_of[rank] = leaf;
}

/* The next NUMA node, from the pointer on, with `need` free leaves; -1
 * when there is none. */
static int next_with_room(const spread_state *s, int need)
{
	for (int k = 0; k < s->nnodes; k++) {
		int v = (s->next + k) % s->nnodes;
		if (s->room[v] >= need)
			return v;
	}
	return -1;
}

/* One rank, by the round-robin (there is room somewhere: n <= leaves). */
static void place_round_robin(spread_state *s, int rank)
{
	int v = next_with_room(s, 1);

	place(s, rank, v);
	s->next = (v + 1) % s->nnodes;
}

static int previous_node(const spread_state *s, int rank)
{
	return s->previous && s->previous[rank] >= 0 ?
	       s->node_of_leaf[s->previous[rank]] : -1;
}

static void place_pair(spread_state *s, int a, int b)
{
	int placed_a = s->leaf_of[a] >= 0, placed_b = s->leaf_of[b] >= 0;

	if (placed_a && placed_b)
		return;
	if (!placed_a && !placed_b) {
		int pa = previous_node(s, a), pb = previous_node(s, b);

		if (pa >= 0 && pb >= 0 &&
		    (pa == pb ? s->room[pa] >= 2 :
		     s->room[pa] >= 1 && s->room[pb] >= 1)) {
			place(s, a, pa);
			place(s, b, pb);
			return;
		}
		int v = next_with_room(s, 2);
		if (v < 0) { /* no NUMA node can hold both: split */
			place_round_robin(s, a);
			place_round_robin(s, b);
			return;
		}
		place(s, a, v);
		place(s, b, v);
		s->next = (v + 1) % s->nnodes;
		return;
	}
	int rank = placed_a ? b : a, partner = placed_a ? a : b;
	int own = previous_node(s, rank);
	int with = s->node_of_leaf[s->leaf_of[partner]];

	if (own >= 0 && s->room[own] >= 1)
		place(s, rank, own);
	else if (s->room[with] >= 1)
		place(s, rank, with);
	else
		place_round_robin(s, rank);
}

tm_status tm__place_spread(const tm_tree *t, const tm_matrix *m,
			   const tm_map_options *opt, int *leaf_of,
			   tm_error *err)
{
	const int *previous = opt->previous;
	int n = m->n, depth = tm__numa_depth(t);
	spread_state s = { .t = t, .previous = previous, .leaf_of = leaf_of };
	pair *pairs = NULL;
	tm_status status = TM_OK;

	s.nnodes = t->level_start[depth + 1] - t->level_start[depth];
	s.first = malloc((size_t)s.nnodes * sizeof(int));
	s.end = malloc((size_t)s.nnodes * sizeof(int));
	s.room = malloc((size_t)s.nnodes * sizeof(int));
	s.node_of_leaf = malloc((size_t)t->nleaves * sizeof(int));
	s.used = calloc((size_t)t->nleaves, 1);
	s.reserved = calloc((size_t)t->nleaves, 1);
	/* each pair once: half the stored entries */
	size_t npairs = (size_t)(m->row_start[n] / 2);
	pairs = malloc((npairs + 1) * sizeof(pair));
	if (!s.first || !s.end || !s.room || !s.node_of_leaf || !s.used ||
	    !s.reserved || !pairs) {
		status = tm_error_nomem(err);
		goto out;
	}
	for (int v = 0; v < s.nnodes; v++) {
		tm_tree_leaf_range(t, t->level_start[depth] + v, &s.first[v], &s.end[v]);
		s.room[v] = s.end[v] - s.first[v];
		for (int l = s.first[v]; l < s.end[v]; l++)
			s.node_of_leaf[l] = v;
	}
	for (int r = 0; r < n; r++) {
		leaf_of[r] = -1;
		if (previous && previous[r] >= 0)
			s.reserved[previous[r]] = 1;
	}
	size_t count = 0;
	for (int i = 0; i < n; i++)
		for (int64_t e = m->row_start[i]; e < m->row_start[i + 1]; e++)
			if (m->col[e] > i)
				pairs[count++] = (pair){ i, m->col[e], m->weight[e] };
	qsort(pairs, count, sizeof(pair), heaviest_first);
	for (size_t p = 0; p < count; p++)
		place_pair(&s, pairs[p].a, pairs[p].b);
	for (int r = 0; r < n; r++) {
		if (leaf_of[r] >= 0)
			continue;
		int own = previous_node(&s, r);
		if (own >= 0 && s.room[own] >= 1)
			place(&s, r, own);
		else
			place_round_robin(&s, r);
	}
out:
	free(s.first);
	free(s.end);
	free(s.room);
	free(s.node_of_leaf);
	free(s.used);
	free(s.reserved);
	free(pairs);
	return status;
}
