/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * refine.c - polish a placement with exact tree costs.
 *
 * Whatever built a placement (bottom-up grouping, top-down partitioning)
 * decided level by level; this looks at the whole tree at once.  For each
 * rank in turn it tries the swaps that could bring it next to the ranks it
 * exchanges with: with the occupant of every leaf near each of its heaviest
 * neighbours (the neighbour's siblings, then its cousins), or a move to
 * such a leaf when it is idle.  The rank's own side of every candidate is
 * priced in O(depth) from the weights of its neighbours summed over the
 * tree's nodes; the few candidates whose own side gains most are then
 * priced exactly, both sides, and the best swap that lowers the cost is
 * made.  So a rank costs O(degree x depth) plus a constant number of its
 * partners' degrees, dense rows included.  Passes repeat until one gains
 * less than a thousandth of the cost, or a fixed number of them: counts and
 * costs, never times, so the result never depends on the machine.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>


#include "tm_cost.h"
#include "place/cost_internal.h"
#include "place/policy.h"
#include "util/sort.h"

enum {
	REFINE_MAX_PASSES = 8,
	REFINE_MAX_NEIGHBOURS = 16,   /* heaviest ones looked at per rank */
	REFINE_MAX_BLOCK = 32,        /* leaves tried around one neighbour */
	REFINE_EXACT = 8,             /* candidates priced on both sides */
	REFINE_ALL_LEAVES = 256,      /* up to this many leaves, try them all */
};

/* A pass that lowers the cost by less than this fraction is the last. */
#define REFINE_MIN_GAIN 1e-3

typedef struct refiner {
	const tm_tree *t;
	const tm_matrix *m;
	int *anc;          /* tm__leaf_ancestors */
	int *leaf_of;      /* the placement being improved */
	int *occupant;     /* rank on each leaf, -1 if idle */
	int *seen;         /* node -> stamp of the rank that last tried it */
	long *by_weight;   /* scratch: a rank's neighbours, heaviest first */
	double *key;
	double *acc;       /* per node: weight of the rank's neighbours below */
	double *w_to;      /* per rank: its weight to the rank being moved */
	double eps;        /* below this a change is rounding noise */
} refiner;

/* The part of rank a's cost that depends on where it sits, for every leaf
 * below `node` at once: a pair costs C_0 minus the drops C_{d-1} - C_d of
 * every level d its two leaves share, and acc[] holds, per node, the
 * weight of a's neighbours below it.  `prefix` is the sum over node and its
 * ancestors; each level down adds one term, so a leaf costs O(1). */
static double node_prefix(const refiner *r, int node, int depth)
{
	const tm_tree *t = r->t;
	double c = 0;

	for (int d = depth; d >= 1; d--, node = t->parent[node])
		c -= (t->level_cost[d - 1] - t->level_cost[d]) * r->acc[node];
	return c;
}

/* Add rank a's neighbours to acc[] and w_to[], or (on = 0) clear exactly
 * the entries that adding set, so that nothing else needs resetting. */
static void set_neighbours(refiner *r, int a, int on)
{
	const tm_matrix *m = r->m;
	int L = r->t->nleaves;

	for (int64_t e = m->row_start[a]; e < m->row_start[a + 1]; e++) {
		int k = m->col[e];

		r->w_to[k] = on ? m->weight[e] : 0;
		for (int d = 1; d <= r->t->depth; d++) {
			double *slot = &r->acc[r->anc[d * L + r->leaf_of[k]]];
			*slot = on ? *slot + m->weight[e] : 0;
		}
	}
}

/* Keep the `REFINE_EXACT` lowest (delta, leaf) seen, sorted. */
typedef struct shortlist {
	int n;
	double delta[REFINE_EXACT];
	int leaf[REFINE_EXACT];
} shortlist;

static void shortlist_offer(shortlist *s, double delta, int leaf)
{
	int i = s->n < REFINE_EXACT ? s->n++ : REFINE_EXACT - 1;

	if (i == REFINE_EXACT - 1 && s->n == REFINE_EXACT &&
	    delta >= s->delta[i])
		return;
	while (i > 0 && s->delta[i - 1] > delta) {
		s->delta[i] = s->delta[i - 1];
		s->leaf[i] = s->leaf[i - 1];
		i--;
	}
	s->delta[i] = delta;
	s->leaf[i] = leaf;
}

typedef struct search {
	int a, la, stamp;
	double here;       /* a's own cost where it is */
	shortlist sl;
} search;

static void offer_leaves(refiner *r, search *q, int node, int depth,
			 double prefix)
{
	const tm_tree *t = r->t;

	if (depth == t->depth) {
		int lb = node - t->level_start[t->depth], b = r->occupant[lb];
		if (lb == q->la)
			return;
		/* own side; a swap partner b keeps its distance to a */
		double delta = prefix - q->here;
		if (b >= 0)
			delta += r->w_to[b] * tm__pair_cost(t, r->anc, q->la, lb);
		shortlist_offer(&q->sl, delta, lb);
		return;
	}
	double drop = t->level_cost[depth] - t->level_cost[depth + 1];
	for (int c = 0; c < t->arity[node]; c++) {
		int child = t->first_child[node] + c;
		offer_leaves(r, q, child, depth + 1, prefix - drop * r->acc[child]);
	}
}

/* Best swap for rank a among leaves near its heaviest neighbours. */
static int best_target(refiner *r, int a, int stamp, double *best)
{
	const tm_tree *t = r->t;
	const tm_matrix *m = r->m;
	int64_t first = m->row_start[a], deg = m->row_start[a + 1] - first;
	int L = t->nleaves, best_leaf = -1;
	search q = { .a = a, .la = r->leaf_of[a], .stamp = stamp };

	if (deg == 0)
		return -1;
	set_neighbours(r, a, 1);
	q.here = node_prefix(r, t->level_start[t->depth] + q.la, t->depth);
	if (t->nleaves <= REFINE_ALL_LEAVES) {
		/* a small machine: every leaf is a candidate */
		offer_leaves(r, &q, 0, 0, 0);
		goto priced;
	}
	for (int64_t e = 0; e < deg; e++) {
		r->by_weight[e] = e;
		r->key[e] = -m->weight[first + e];
	}
	if (deg > REFINE_MAX_NEIGHBOURS &&
	    tm__sort_indices(r->by_weight, deg, r->key) < 0) {
		set_neighbours(r, a, 0);
		return -2;
	}
	for (int64_t i = 0; i < deg && i < REFINE_MAX_NEIGHBOURS; i++) {
		int lk = r->leaf_of[m->col[first + r->by_weight[i]]];
		int d = t->depth - 1, node = r->anc[d * L + lk];

		/* the neighbour's siblings, or its cousins when they are few */
		if (d >= 2) {
			int up = r->anc[(d - 1) * L + lk];
			if (tm_tree_leaves_below(t, up) <= REFINE_MAX_BLOCK) {
				node = up;
				d--;
			}
		}
		if (d < 1 || r->seen[node] == stamp ||
		    tm_tree_leaves_below(t, node) > REFINE_MAX_BLOCK)
			continue;
		r->seen[node] = stamp;
		offer_leaves(r, &q, node, d, node_prefix(r, node, d));
	}
priced:
	set_neighbours(r, a, 0);
	*best = -r->eps;
	for (int i = 0; i < q.sl.n; i++) {
		int lb = q.sl.leaf[i], b = r->occupant[lb];
		double delta = q.sl.delta[i];

		/* a swap that does not help a itself is b's to find (when b's
		 * turn comes, a's leaf is near b's neighbours if b gains) */
		if (delta >= 0)
			break;
		if (b >= 0)
			delta += tm__move_delta(t, r->anc, r->m, r->leaf_of, b,
					       lb, q.la, a);
		if (delta < *best) {
			*best = delta;
			best_leaf = lb;
		}
	}
	return best_leaf;
}

static int setup(refiner *r)
{
	const tm_tree *t = r->t;
	int64_t maxdeg = 1;

	for (int a = 0; a < r->m->n; a++)
		if (r->m->row_start[a + 1] - r->m->row_start[a] > maxdeg)
			maxdeg = r->m->row_start[a + 1] - r->m->row_start[a];
	r->anc = tm__leaf_ancestors(t);
	r->occupant = malloc(sizeof(int) * (size_t)t->nleaves);
	r->seen = calloc((size_t)t->nnodes, sizeof(int));
	r->by_weight = malloc(sizeof(long) * (size_t)maxdeg);
	r->key = malloc(sizeof(double) * (size_t)maxdeg);
	r->acc = calloc((size_t)t->nnodes, sizeof(double));
	r->w_to = calloc((size_t)r->m->n, sizeof(double));
	if (!r->anc || !r->occupant || !r->seen || !r->by_weight || !r->key ||
	    !r->acc || !r->w_to)
		return -1;
	for (int l = 0; l < t->nleaves; l++)
		r->occupant[l] = -1;
	for (int a = 0; a < r->m->n; a++)
		r->occupant[r->leaf_of[a]] = a;
	r->eps = 1e-12 * tm_matrix_total(r->m) * t->level_cost[0];
	return 0;
}

tm_status tm__refine(const tm_tree *t, const tm_matrix *m, int *leaf_of,
		    tm_error *err)
{
	refiner r = { .t = t, .m = m, .leaf_of = leaf_of };
	tm_status st = TM_OK;
	int stamp = 0;

	if (t->depth < 1 || m->n < 2)
		return TM_OK;
	if (setup(&r) < 0) {
		st = tm_error_nomem(err);
		goto out;
	}
	double cost = tm_cost_tree(t, m, leaf_of);
	for (int pass = 0; pass < REFINE_MAX_PASSES; pass++) {
		int moved = 0;
		double gained = 0;

		for (int a = 0; a < m->n; a++) {
			double delta;
			int lb = best_target(&r, a, ++stamp, &delta);

			if (lb == -2) {
				st = tm_error_nomem(err);
				goto out;
			}
			if (lb < 0)
				continue;
			int la = leaf_of[a], b = r.occupant[lb];
			gained -= delta;
			leaf_of[a] = lb;
			r.occupant[lb] = a;
			r.occupant[la] = b;
			if (b >= 0)
				leaf_of[b] = la;
			moved++;
		}
		/* another pass would gain less than this one did: stop when
		 * that is a rounding of the cost (computed, not timed) */
		if (!moved || gained < REFINE_MIN_GAIN * cost)
			break;
		cost -= gained;
	}
out:
	free(r.anc);
	free(r.occupant);
	free(r.seen);
	free(r.by_weight);
	free(r.key);
	free(r.acc);
	free(r.w_to);
	return st;
}
