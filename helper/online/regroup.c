/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * regroup.c - exchanges of same-shaped subtrees across parents that keep
 * the tree cost and move fewer ranks (tm__online_regroup,
 * online_internal.h).
 *
 * relabel.c only permutes siblings, which can never change a cost.  But a
 * policy that gets pairs that do not talk to each other puts them in
 * packages as it likes: TreeMatch packs two pairs into package 0 where
 * the ranks had been one pair per package, and four ranks would migrate
 * for nothing.  Here, level by level from the top, each subtree u is
 * exchanged (through an isomorphism) with the subtree h of the same level
 * and shape where most of its ranks were before, when that puts more ranks
 * back below their previous subtree and the change of cost, which only
 * the edges leaving u and h feel, is not positive.  One pass per level:
 * O(depth x (n depth + edges of the ranks exchanged x depth)).
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "online/online_internal.h"
#include "place/cost_internal.h"

typedef struct slot {
	int shape, node;
} slot;

static int by_shape(const void *x, const void *y)
{
	const slot *p = x, *q = y;

	if (p->shape != q->shape)
		return p->shape < q->shape ? -1 : 1;
	return (p->node > q->node) - (p->node < q->node);
}

typedef struct ctx {
	const tm_tree *t;
	const tm_matrix *m;
	const int *previous;
	int *leaf_of;
	int *shape;
	int *rank_at;   /* per leaf */
	int *count;     /* per node, zero between uses */
	int *leafmap;   /* per leaf: where an exchange sends it */
	int *queue;     /* 2 x nodes */
	slot *sa, *sb;  /* largest arity */
	char *in_swap;  /* per rank */
	int *ranks;     /* per rank: scratch of an exchange */
	int *cand;      /* per rank: candidate nodes of an exchange */
	int *anc;       /* tm__leaf_ancestors */
} ctx;

/* Leaf's ancestor at depth d, from the cost module's table. */
static int ancestor(const ctx *c, int leaf, int d)
{
	return c->anc[d * c->t->nleaves + leaf];
}

/* leafmap of the leaves below u and h: an isomorphism between the two
 * subtrees and back, children paired by shape in the tree's order. */
static void isomorphism(ctx *c, int u, int h)
{
	const tm_tree *t = c->t;
	int L = t->level_start[t->depth], head = 0, tail = 0;

	c->queue[tail++] = u;
	c->queue[tail++] = h;
	while (head < tail) {
		int a = c->queue[head++], b = c->queue[head++];
		int k = t->arity[a];

		if (k == 0) {
			c->leafmap[a - L] = b - L;
			c->leafmap[b - L] = a - L;
			continue;
		}
		for (int i = 0; i < k; i++) {
			int x = t->first_child[a] + i, y = t->first_child[b] + i;
			c->sa[i] = (slot){ c->shape[x], x };
			c->sb[i] = (slot){ c->shape[y], y };
		}
		qsort(c->sa, (size_t)k, sizeof(slot), by_shape);
		qsort(c->sb, (size_t)k, sizeof(slot), by_shape);
		for (int i = 0; i < k; i++) {
			c->queue[tail++] = c->sa[i].node;
			c->queue[tail++] = c->sb[i].node;
		}
	}
}

/* Ranks below v whose previous leaf is below w (v, w at depth d). */
static int agree(const ctx *c, int v, int w, int d)
{
	int first, end, n = 0;

	tm_tree_leaf_range(c->t, v, &first, &end);
	for (int l = first; l < end; l++) {
		int r = c->rank_at[l];
		n += r >= 0 && ancestor(c, c->previous[r], d) == w;
	}
	return n;
}

/* The change of tree cost if the ranks below u and h moved by leafmap:
 * only their edges to ranks elsewhere change depth. */
static double delta_cost(ctx *c, int u, int h)
{
	const tm_tree *t = c->t;
	const tm_matrix *m = c->m;
	int ends[2][2];
	double delta = 0;

	tm_tree_leaf_range(t, u, &ends[0][0], &ends[0][1]);
	tm_tree_leaf_range(t, h, &ends[1][0], &ends[1][1]);
	for (int s = 0; s < 2; s++)
		for (int l = ends[s][0]; l < ends[s][1]; l++)
			if (c->rank_at[l] >= 0)
				c->in_swap[c->rank_at[l]] = 1;
	for (int s = 0; s < 2; s++)
		for (int l = ends[s][0]; l < ends[s][1]; l++) {
			int x = c->rank_at[l];
			if (x < 0)
				continue;
			for (int64_t e = m->row_start[x];
			     e < m->row_start[x + 1]; e++) {
				int y = m->col[e];
				if (c->in_swap[y])
					continue;
				int py = c->leaf_of[y];
				delta += m->weight[e] *
					 (tm__pair_cost(t, c->anc, c->leafmap[l], py) -
					  tm__pair_cost(t, c->anc, l, py));
			}
		}
	for (int s = 0; s < 2; s++)
		for (int l = ends[s][0]; l < ends[s][1]; l++)
			if (c->rank_at[l] >= 0)
				c->in_swap[c->rank_at[l]] = 0;
	return delta;
}

static void exchange(ctx *c, int u, int h)
{
	int ends[2][2], n = 0;

	tm_tree_leaf_range(c->t, u, &ends[0][0], &ends[0][1]);
	tm_tree_leaf_range(c->t, h, &ends[1][0], &ends[1][1]);
	for (int s = 0; s < 2; s++)
		for (int l = ends[s][0]; l < ends[s][1]; l++) {
			if (c->rank_at[l] >= 0)
				c->ranks[n++] = c->rank_at[l];
			c->rank_at[l] = -1;
		}
	for (int i = 0; i < n; i++) {
		int r = c->ranks[i];
		c->leaf_of[r] = c->leafmap[c->leaf_of[r]];
		c->rank_at[c->leaf_of[r]] = r;
	}
}

/* The node h of depth d, of u's shape, whose exchange with u puts the
 * most ranks back below their previous subtree (only where some rank of
 * u was before are there candidates); -1 when none gains. */
static int best_exchange(ctx *c, int u, int d)
{
	int first, end, ncand = 0, best = -1, best_gain = 0;

	tm_tree_leaf_range(c->t, u, &first, &end);
	for (int l = first; l < end; l++) {
		int r = c->rank_at[l];
		if (r < 0)
			continue;
		int w = ancestor(c, c->previous[r], d);
		if (c->count[w]++ == 0)
			c->cand[ncand++] = w;
	}
	int stay = c->count[u];
	for (int i = 0; i < ncand; i++) {
		int h = c->cand[i];
		if (h == u || c->shape[h] != c->shape[u])
			continue;
		int gain = c->count[h] + agree(c, h, u, d) - stay -
			   agree(c, h, h, d);
		if (gain > best_gain || (gain == best_gain && gain > 0 &&
					 h < best)) {
			best = h;
			best_gain = gain;
		}
	}
	for (int i = 0; i < ncand; i++)
		c->count[c->cand[i]] = 0;
	return best;
}

static void regroup_level(ctx *c, int d)
{
	const tm_tree *t = c->t;

	for (int u = t->level_start[d]; u < t->level_start[d + 1]; u++) {
		int h = best_exchange(c, u, d);
		if (h < 0)
			continue;
		isomorphism(c, u, h);
		if (delta_cost(c, u, h) > 0)
			continue;
		exchange(c, u, h);
	}
}

tm_status tm__online_regroup(const tm_tree *t, const tm_matrix *m,
			     const int *previous, int *leaf_of, tm_error *err)
{
	if (t->depth < 2 || m->n <= 0)
		return TM_OK; /* one level: siblings only, relabel.c's job */
	int maxk = 1;
	for (int v = 0; v < t->nnodes; v++)
		if (t->arity[v] > maxk)
			maxk = t->arity[v];
	size_t nodes = (size_t)t->nnodes, leaves = (size_t)t->nleaves;
	ctx c = { .t = t, .m = m, .previous = previous, .leaf_of = leaf_of };
	int *sig = malloc(nodes * sizeof(int));
	int *cur = malloc((size_t)maxk * sizeof(int));
	tm_status status = TM_OK;

	c.shape = malloc(nodes * sizeof(int));
	c.rank_at = malloc(leaves * sizeof(int));
	c.count = calloc(nodes, sizeof(int));
	c.leafmap = malloc(leaves * sizeof(int));
	c.queue = malloc(2 * nodes * sizeof(int));
	c.sa = malloc((size_t)maxk * sizeof(slot));
	c.sb = malloc((size_t)maxk * sizeof(slot));
	c.in_swap = calloc((size_t)m->n, 1);
	c.ranks = malloc((size_t)m->n * sizeof(int));
	c.cand = malloc((size_t)m->n * sizeof(int));
	c.anc = tm__leaf_ancestors(t);
	if (!sig || !cur || !c.shape || !c.rank_at || !c.count ||
	    !c.leafmap || !c.queue || !c.sa || !c.sb || !c.in_swap ||
	    !c.ranks || !c.cand || !c.anc) {
		status = tm_error_nomem(err);
		goto out;
	}
	tm__online_shapes(t, c.shape, sig, cur);
	for (size_t l = 0; l < leaves; l++)
		c.rank_at[l] = -1;
	for (int r = 0; r < m->n; r++)
		c.rank_at[leaf_of[r]] = r;
	/* Down to the leaves: a rank that talks to nobody goes back to its
	 * core for free. */
	for (int d = 1; d <= t->depth; d++)
		regroup_level(&c, d);
out:
	free(sig);
	free(cur);
	free(c.shape);
	free(c.rank_at);
	free(c.count);
	free(c.leafmap);
	free(c.queue);
	free(c.sa);
	free(c.sb);
	free(c.in_swap);
	free(c.ranks);
	free(c.cand);
	free(c.anc);
	return status;
}
