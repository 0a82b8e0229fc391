/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * relabel.c - keeping ranks where they were when a new placement allows
 * it (tm__online_relabel, online_internal.h).
 *
 * A policy maps a round's matrix with no regard for where the ranks are:
 * TreeMatch may put the same groups on the other socket, or swap two ranks
 * of one L2, at the same cost, and each such rank would migrate for
 * nothing.  Exchanging two isomorphic subtrees of the tree changes no
 * lowest common ancestor's depth, so no tree cost; composing such
 * exchanges top-down gives the symmetry used here.  At each node, the
 * children of the new placement are matched to the children of the node
 * they go to, among isomorphic ones, heaviest agreement first (the ranks
 * below a child whose previous leaf is below the other).  Greedy, top-down
 * on purpose: a migration between packages costs more than one between
 * two cores of an L2, so the high levels settle first.  Cost: the leaves
 * scanned once per level and each rank's walk up the tree, O(n depth^2 +
 * leaves x depth), far below any mapping.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "online/online_internal.h"

/* Distinct subtree shapes remembered per level.  Beyond, a node gets a
 * shape of its own: it is exchanged with nothing, which is always safe. */
enum { SHAPES_MAX = 64 };

typedef struct pair {
	int a, b;  /* child positions under the source and the target */
	int count; /* ranks below a whose previous leaf is below b */
} pair;

typedef struct slot {
	int shape, pos;
} slot;

static int by_int(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;
	return (a > b) - (a < b);
}

/* Most agreement first; at equal counts a child that stays in place
 * (a == b), then the tree's order, so that the result is deterministic. */
static int by_count(const void *x, const void *y)
{
	const pair *p = x, *q = y;

	if (p->count != q->count)
		return p->count > q->count ? -1 : 1;
	if ((p->a == p->b) != (q->a == q->b))
		return p->a == p->b ? -1 : 1;
	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return (p->b > q->b) - (p->b < q->b);
}

static int by_shape(const void *x, const void *y)
{
	const slot *p = x, *q = y;

	if (p->shape != q->shape)
		return p->shape < q->shape ? -1 : 1;
	return (p->pos > q->pos) - (p->pos < q->pos);
}

void tm__online_shapes(const tm_tree *t, int *shape, int *sig, int *cur)
{
	for (int v = t->level_start[t->depth];
	     v < t->level_start[t->depth + 1]; v++)
		shape[v] = 0;
	for (int d = t->depth - 1; d >= 0; d--) {
		int rep_off[SHAPES_MAX], rep_len[SHAPES_MAX];
		int nreps = 0, used = 0, unique = SHAPES_MAX;

		for (int v = t->level_start[d]; v < t->level_start[d + 1];
		     v++) {
			int k = t->arity[v], r;

			for (int i = 0; i < k; i++)
				cur[i] = shape[t->first_child[v] + i];
			qsort(cur, (size_t)k, sizeof(int), by_int);
			for (r = 0; r < nreps; r++)
				if (rep_len[r] == k &&
				    memcmp(sig + rep_off[r], cur,
					   (size_t)k * sizeof(int)) == 0)
					break;
			if (r < nreps) {
				shape[v] = r;
			} else if (nreps < SHAPES_MAX) {
				rep_off[nreps] = used;
				rep_len[nreps] = k;
				memcpy(sig + used, cur, (size_t)k * sizeof(int));
				used += k;
				shape[v] = nreps++;
			} else {
				shape[v] = unique++;
			}
		}
	}
}

typedef struct work {
	const tm_tree *t;
	const int *previous;
	const int *rank_at; /* per leaf: the rank the new placement puts there */
	const int *shape;
	int *phi;           /* per node: where the symmetry sends it */
	int *bpos;          /* scratch, n entries */
	pair *pairs;        /* scratch, n entries */
	slot *sa, *sb;      /* scratch, max arity entries each */
	char *a_done, *b_done;
} work;

/* Send the children of s to the children of tau = phi[s]. */
static void match_children(work *w, int s, int d)
{
	const tm_tree *t = w->t;
	int tau = w->phi[s], k = t->arity[s];
	int cs = t->first_child[s], ct = t->first_child[tau];
	int leaves = t->level_start[t->depth], npairs = 0;

	if (k <= 0) /* no inner node is childless; this tells the compiler */
		return;
	for (int i = 0; i < k; i++) {
		int first, end, cnt = 0;

		tm_tree_leaf_range(t, cs + i, &first, &end);
		for (int l = first; l < end; l++) {
			int r = w->rank_at[l];
			if (r < 0)
				continue;
			int u = leaves + w->previous[r];
			for (int x = t->depth; x > d + 1; x--)
				u = t->parent[u];
			if (t->parent[u] != tau ||
			    w->shape[u] != w->shape[cs + i])
				continue;
			w->bpos[cnt++] = u - ct;
		}
		qsort(w->bpos, (size_t)cnt, sizeof(int), by_int);
		for (int c = 0; c < cnt;) {
			int e = c;
			while (e < cnt && w->bpos[e] == w->bpos[c])
				e++;
			w->pairs[npairs++] = (pair){ i, w->bpos[c], e - c };
			c = e;
		}
	}
	qsort(w->pairs, (size_t)npairs, sizeof(pair), by_count);
	memset(w->a_done, 0, (size_t)k);
	memset(w->b_done, 0, (size_t)k);
	for (int p = 0; p < npairs; p++) {
		int a = w->pairs[p].a, b = w->pairs[p].b;
		if (w->a_done[a] || w->b_done[b])
			continue;
		w->a_done[a] = w->b_done[b] = 1;
		w->phi[cs + a] = ct + b;
	}
	/* The rest keep their place when they can, else pair up in order
	 * within each shape (both sides hold the same shapes left). */
	for (int i = 0; i < k; i++) {
		if (!w->a_done[i] && !w->b_done[i] &&
		    w->shape[cs + i] == w->shape[ct + i]) {
			w->a_done[i] = w->b_done[i] = 1;
			w->phi[cs + i] = ct + i;
		}
	}
	int na = 0, nb = 0;
	for (int i = 0; i < k; i++) {
		if (!w->a_done[i])
			w->sa[na++] = (slot){ w->shape[cs + i], i };
		if (!w->b_done[i])
			w->sb[nb++] = (slot){ w->shape[ct + i], i };
	}
	qsort(w->sa, (size_t)na, sizeof(slot), by_shape);
	qsort(w->sb, (size_t)nb, sizeof(slot), by_shape);
	for (int i = 0; i < na && i < nb; i++)
		w->phi[cs + w->sa[i].pos] = ct + w->sb[i].pos;
}

tm_status tm__online_relabel(const tm_tree *t, int n, const int *previous,
			     int *leaf_of, tm_error *err)
{
	if (t->depth == 0 || n <= 0)
		return TM_OK;
	int maxk = 1;
	for (int v = 0; v < t->nnodes; v++)
		if (t->arity[v] > maxk)
			maxk = t->arity[v];
	size_t nodes = (size_t)t->nnodes, ranks = (size_t)n;
	int *shape = malloc(nodes * sizeof(int));
	int *sig = malloc(nodes * sizeof(int));
	int *cur = malloc((size_t)maxk * sizeof(int));
	int *phi = malloc(nodes * sizeof(int));
	int *rank_at = malloc((size_t)t->nleaves * sizeof(int));
	int *bpos = malloc(ranks * sizeof(int));
	pair *pairs = malloc(ranks * sizeof(pair));
	slot *sa = malloc((size_t)maxk * sizeof(slot));
	slot *sb = malloc((size_t)maxk * sizeof(slot));
	char *a_done = malloc((size_t)maxk), *b_done = malloc((size_t)maxk);
	tm_status status = TM_OK;

	if (!shape || !sig || !cur || !phi || !rank_at || !bpos || !pairs ||
	    !sa || !sb || !a_done || !b_done) {
		status = tm_error_nomem(err);
		goto out;
	}
	tm__online_shapes(t, shape, sig, cur);
	for (int l = 0; l < t->nleaves; l++)
		rank_at[l] = -1;
	for (int r = 0; r < n; r++)
		rank_at[leaf_of[r]] = r;
	work w = { t, previous, rank_at, shape, phi, bpos, pairs, sa, sb,
		   a_done, b_done };
	phi[0] = 0;
	for (int d = 0; d < t->depth; d++)
		for (int s = t->level_start[d]; s < t->level_start[d + 1]; s++)
			match_children(&w, s, d);
	int leaves = t->level_start[t->depth];
	for (int r = 0; r < n; r++)
		leaf_of[r] = phi[leaves + leaf_of[r]] - leaves;
out:
	free(shape);
	free(sig);
	free(cur);
	free(phi);
	free(rank_at);
	free(bpos);
	free(pairs);
	free(sa);
	free(sb);
	free(a_done);
	free(b_done);
	return status;
}
