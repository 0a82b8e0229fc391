/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tree_transform.c - trees derived from trees (see tm_tree.h): pruning
 * pass-through levels, grouping leaves into --cpus-per-task slots, and
 * adding rank slots when there are more ranks than leaves.
 *
 * Each transformation describes the new shape (level sizes and parents),
 * lets tm_tree_build check and lay it out, then fills in leaf records,
 * level names and costs.
 */
#include <config.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tm_list.h"
#include "tm_tree.h"
#include "util/grow.h"

/* Replace a leaf record (tm_tree_build's default) with copies of lists. */
static tm_status set_leaf(tm_leaf *leaf, const int *pus, int npus,
			  const int *cores, int ncores)
{
	int *p = malloc((npus > 0 ? (size_t)npus : 1) * sizeof(int));
	int *c = malloc((ncores > 0 ? (size_t)ncores : 1) * sizeof(int));

	if (!p || !c) {
		free(p);
		free(c);
		return TM_ERR_NOMEM;
	}
	if (npus > 0)
		memcpy(p, pus, (size_t)npus * sizeof(int));
	if (ncores > 0)
		memcpy(c, cores, (size_t)ncores * sizeof(int));
	free(leaf->pus);
	free(leaf->cores);
	leaf->pus = p;
	leaf->npus = npus;
	leaf->cores = c;
	leaf->ncores = ncores;
	return TM_OK;
}

static tm_status set_level_name(tm_tree *t, int d, const char *name)
{
	char *copy = strdup(name);

	if (!copy)
		return TM_ERR_NOMEM;
	free(t->level_name[d]);
	t->level_name[d] = copy;
	return TM_OK;
}

/* ------------------------------------------------------------------ */
/* prune                                                                */

/* Nodes of a dropped level map one to one onto their only children, so
 * the kept levels keep their nodes, in the same order; a kept node's new
 * parent is its ancestor in the kept level above. */
static tm_tree *prune_shape(const tm_tree *t, const int *kept, int nkept,
			    tm_error *err)
{
	int *level_size = malloc((size_t)nkept * sizeof(int));
	int *parent = NULL;
	int nnodes = 0;
	tm_tree *p = NULL;

	if (!level_size)
		goto nomem;
	for (int i = 0; i < nkept; i++) {
		level_size[i] = t->level_start[kept[i] + 1] -
				t->level_start[kept[i]];
		nnodes += level_size[i];
	}
	parent = malloc((size_t)nnodes * sizeof(int));
	if (!parent)
		goto nomem;
	parent[0] = -1;
	for (int i = 1, start = 0, v_new = 1; i < nkept; i++) {
		int up = kept[i - 1];

		for (int v = t->level_start[kept[i]];
		     v < t->level_start[kept[i] + 1]; v++) {
			int u = v;

			for (int d = kept[i]; d > up; d--)
				u = t->parent[u];
			parent[v_new++] = start + u - t->level_start[up];
		}
		start += level_size[i - 1];
	}
	p = tm_tree_build(nkept - 1, level_size, parent, err);
	free(parent);
	free(level_size);
	return p;
nomem:
	free(level_size);
	tm_error_nomem(err);
	return NULL;
}

tm_tree *tm_tree_prune(const tm_tree *t, int default_costs, tm_error *err)
{
	int *kept = malloc(((size_t)t->depth + 1) * sizeof(int));
	int nkept = 0;
	tm_tree *p;

	if (!kept) {
		tm_error_nomem(err);
		return NULL;
	}
	for (int d = 0; d <= t->depth; d++)
		if (d == t->depth || !tm_tree_level_is_single_child(t, d))
			kept[nkept++] = d;
	p = prune_shape(t, kept, nkept, err);
	if (!p)
		goto out;
	for (int l = 0; l < t->nleaves; l++) {
		const tm_leaf *leaf = &t->leaf[l];

		if (set_leaf(&p->leaf[l], leaf->pus, leaf->npus,
			     leaf->cores, leaf->ncores) != TM_OK)
			goto nomem;
	}
	for (int i = 0; i < nkept; i++) {
		if (set_level_name(p, i, t->level_name[kept[i]]) != TM_OK)
			goto nomem;
		if (!default_costs) {
			p->level_cost[i] = t->level_cost[kept[i]];
			p->level_hops[i] = t->level_hops[kept[i]];
		}
	}
out:
	free(kept);
	return p;
nomem:
	free(kept);
	tm_tree_free(p);
	tm_error_nomem(err);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* group_leaves                                                         */

/* Which leaves form which slot, and where each slot was formed. */
typedef struct slot_plan {
	int per_slot;
	int nslots;
	int *leaves;      /* nslots * per_slot leaf indices */
	int *slot_first;  /* per node: index of the first slot it formed */
	int *slot_count;  /* per node: how many slots it formed */
	char *alive;      /* per node: whether a slot was formed in its subtree */
	int form_depth;   /* depth of the deepest node that formed a slot */
} slot_plan;

static void slot_plan_free(slot_plan *plan)
{
	free(plan->leaves);
	free(plan->slot_first);
	free(plan->slot_count);
	free(plan->alive);
}

/* The rule of doc/topology.md: bottom-up, each node gathers its children's
 * leftover leaves in left-to-right order, cuts whole slots from the front
 * of that list and hands the rest to its parent.  The leftovers are linked
 * lists threaded through next[] so that gathering costs O(arity). */
static tm_status plan_slots(const tm_tree *t, int per_slot, slot_plan *plan)
{
	int n = t->nnodes, leaf0 = t->level_start[t->depth];
	int *next = malloc((size_t)t->nleaves * sizeof(int));
	int *head = malloc((size_t)n * sizeof(int));
	int *tail = malloc((size_t)n * sizeof(int));
	int *count = malloc((size_t)n * sizeof(int));
	tm_status status = TM_ERR_NOMEM;

	memset(plan, 0, sizeof(*plan));
	plan->per_slot = per_slot;
	plan->form_depth = -1;
	plan->leaves = malloc((size_t)(t->nleaves / per_slot) * per_slot *
			      sizeof(int));
	plan->slot_first = malloc((size_t)n * sizeof(int));
	plan->slot_count = calloc((size_t)n, sizeof(int));
	plan->alive = calloc((size_t)n, 1);
	if (!next || !head || !tail || !count || !plan->leaves ||
	    !plan->slot_first || !plan->slot_count || !plan->alive)
		goto out;
	for (int d = t->depth; d >= 0; d--) {
		for (int v = t->level_start[d]; v < t->level_start[d + 1]; v++) {
			head[v] = tail[v] = -1;
			count[v] = 0;
			if (t->arity[v] == 0) {
				head[v] = tail[v] = v - leaf0;
				next[v - leaf0] = -1;
				count[v] = 1;
			}
			for (int c = t->first_child[v];
			     c >= 0 && c < t->first_child[v] + t->arity[v];
			     c++) {
				if (plan->alive[c])
					plan->alive[v] = 1;
				if (count[c] == 0)
					continue;
				if (head[v] < 0)
					head[v] = head[c];
				else
					next[tail[v]] = head[c];
				tail[v] = tail[c];
				count[v] += count[c];
			}
			plan->slot_first[v] = plan->nslots;
			for (; count[v] >= per_slot; count[v] -= per_slot) {
				int *slot = plan->leaves +
					    (size_t)plan->nslots * per_slot;

				for (int i = 0; i < per_slot; i++) {
					slot[i] = head[v];
					head[v] = next[head[v]];
				}
				plan->nslots++;
				plan->slot_count[v]++;
				plan->alive[v] = 1;
				if (plan->form_depth < d)
					plan->form_depth = d;
			}
		}
	}
	status = TM_OK;
out:
	free(next);
	free(head);
	free(tail);
	free(count);
	return status;
}

/* A node of the tree of slots: an original node, a slot, or a
 * pass-through node above a slot that was formed higher than the rest. */
enum item_kind { ITEM_NODE, ITEM_PAD, ITEM_SLOT };

typedef struct item_list {
	int n, cap;
	unsigned char *kind;
	int *id;      /* original node index, or slot index */
	int *parent;  /* index of the parent item, -1 for the root */
} item_list;

static int item_push(item_list *items, int kind, int id, int parent)
{
	if (items->n == items->cap) {
		int cap = items->cap ? 2 * items->cap : 64;

		if (tm__grow_array(&items->kind, sizeof(*items->kind), cap) < 0 ||
		    tm__grow_array(&items->id, sizeof(*items->id), cap) < 0 ||
		    tm__grow_array(&items->parent, sizeof(*items->parent),
				   cap) < 0)
			return -1;
		items->cap = cap;
	}
	items->kind[items->n] = (unsigned char)kind;
	items->id[items->n] = id;
	items->parent[items->n] = parent;
	items->n++;
	return 0;
}

/* Level by level from the root: a node's children are its original
 * children that hold a slot, then the slots it formed itself; a slot sits
 * at depth form_depth + 1, below pass-through nodes if formed higher up. */
static int lay_out_slots(const tm_tree *t, const slot_plan *plan,
			 item_list *items, int *level_size)
{
	int slot_depth = plan->form_depth + 1, start = 0;

	if (item_push(items, ITEM_NODE, 0, -1))
		return -1;
	level_size[0] = 1;
	for (int d = 0; d < slot_depth; d++) {
		int end = items->n, below = d + 1 == slot_depth ? ITEM_SLOT
							       : ITEM_PAD;

		for (int i = start; i < end; i++) {
			int v = items->id[i];

			if (items->kind[i] == ITEM_PAD) {
				/* v is the slot it leads to */
				if (item_push(items, below, v, i))
					return -1;
				continue;
			}
			for (int c = t->first_child[v];
			     c >= 0 && c < t->first_child[v] + t->arity[v]; c++)
				if (plan->alive[c] &&
				    item_push(items, ITEM_NODE, c, i))
					return -1;
			for (int s = 0; s < plan->slot_count[v]; s++)
				if (item_push(items, below,
					      plan->slot_first[v] + s, i))
					return -1;
		}
		level_size[d + 1] = items->n - end;
		start = end;
	}
	return 0;
}

/* A slot binds to every PU and core of its leaves. */
static tm_status set_slot_leaf(const tm_tree *t, const slot_plan *plan,
			       int slot, tm_leaf *out)
{
	const int *leaves = plan->leaves + (size_t)slot * plan->per_slot;
	int npus = 0, ncores = 0;
	int *pus, *cores;
	tm_status status = TM_ERR_NOMEM;

	for (int i = 0; i < plan->per_slot; i++) {
		npus += t->leaf[leaves[i]].npus;
		ncores += t->leaf[leaves[i]].ncores;
	}
	pus = malloc((size_t)(npus + 1) * sizeof(int));
	cores = malloc((size_t)(ncores + 1) * sizeof(int));
	if (pus && cores) {
		npus = ncores = 0;
		for (int i = 0; i < plan->per_slot; i++) {
			const tm_leaf *leaf = &t->leaf[leaves[i]];

			memcpy(pus + npus, leaf->pus,
			       (size_t)leaf->npus * sizeof(int));
			npus += leaf->npus;
			memcpy(cores + ncores, leaf->cores,
			       (size_t)leaf->ncores * sizeof(int));
			ncores += leaf->ncores;
		}
		status = set_leaf(out, pus, tm_sort_unique(pus, npus),
				  cores, tm_sort_unique(cores, ncores));
	}
	free(pus);
	free(cores);
	return status;
}

/* "4 cores", "8 PUs": how the error names the leaves it counted. */
static const char *leaf_noun(const tm_tree *t)
{
	const char *name = t->level_name[t->depth];

	if (strcmp(name, "Core") == 0)
		return "cores";
	if (strcmp(name, "PU") == 0)
		return "PUs";
	return "leaves";
}

static tm_tree *build_slot_tree(const tm_tree *t, const slot_plan *plan,
				tm_error *err)
{
	int slot_depth = plan->form_depth + 1;
	int *level_size = malloc(((size_t)slot_depth + 1) * sizeof(int));
	item_list items = { 0 };
	tm_tree *s = NULL;

	if (!level_size || lay_out_slots(t, plan, &items, level_size))
		goto nomem;
	s = tm_tree_build(slot_depth, level_size, items.parent, err);
	if (!s)
		goto out;
	for (int l = 0; l < s->nleaves; l++) {
		int i = s->level_start[slot_depth] + l;

		if (set_slot_leaf(t, plan, items.id[i], &s->leaf[l]) != TM_OK)
			goto nomem;
	}
	for (int d = 0; d < slot_depth; d++) {
		if (set_level_name(s, d, t->level_name[d]) != TM_OK)
			goto nomem;
		s->level_cost[d] = t->level_cost[d];
		s->level_hops[d] = t->level_hops[d];
	}
	if (set_level_name(s, slot_depth, plan->per_slot == 1
			   ? t->level_name[t->depth] : "Slot") != TM_OK)
		goto nomem;
	s->level_cost[slot_depth] = t->level_cost[t->depth];
	s->level_hops[slot_depth] = t->level_hops[t->depth];
	goto out;
nomem:
	tm_tree_free(s);
	s = NULL;
	tm_error_nomem(err);
out:
	free(items.kind);
	free(items.id);
	free(items.parent);
	free(level_size);
	return s;
}

tm_tree *tm_tree_group_leaves(const tm_tree *t, int per_slot, tm_error *err)
{
	slot_plan plan;
	tm_tree *slots, *pruned;

	if (per_slot < 1) {
		tm_error_set(err, TM_ERR_USAGE,
			     "--cpus-per-task %d: expected a number >= 1",
			     per_slot);
		return NULL;
	}
	/* Every leftover reaches the root, so a slot fits iff enough leaves
	 * exist. */
	if (t->nleaves < per_slot) {
		tm_error_set(err, TM_ERR_TOPOLOGY,
			     "--cpus-per-task %d: no %d CPUs available (%d %s)",
			     per_slot, per_slot, t->nleaves, leaf_noun(t));
		return NULL;
	}
	if (plan_slots(t, per_slot, &plan) != TM_OK) {
		slot_plan_free(&plan);
		tm_error_nomem(err);
		return NULL;
	}
	slots = build_slot_tree(t, &plan, err);
	slot_plan_free(&plan);
	if (!slots)
		return NULL;
	/* The slots keep the costs of the levels they were formed in. */
	pruned = tm_tree_prune(slots, 0, err);
	tm_tree_free(slots);
	return pruned;
}

/* ------------------------------------------------------------------ */
/* oversubscribe                                                        */

typedef struct share {
	long long remainder;
	int child;
} share;

/* Larger remainders first; leftmost first among equals, so that the
 * result does not depend on qsort's order. */
static int compare_shares(const void *a, const void *b)
{
	const share *x = a, *y = b;

	if (x->remainder != y->remainder)
		return x->remainder < y->remainder ? 1 : -1;
	return (x->child > y->child) - (x->child < y->child);
}

/* Split each node's extra ranks among its children in proportion to their
 * leaves (largest remainder), top-down, so that the extras spread evenly
 * over packages first, then over what is inside them. */
static tm_status spread_extras(const tm_tree *t, int extras, int *extra)
{
	int leaf0 = t->level_start[t->depth], widest = 1;
	int *size = malloc((size_t)t->nnodes * sizeof(int));
	share *shares;

	for (int v = 0; v < leaf0; v++)
		if (t->arity[v] > widest)
			widest = t->arity[v];
	shares = malloc((size_t)widest * sizeof(share));
	if (!size || !shares) {
		free(size);
		free(shares);
		return TM_ERR_NOMEM;
	}
	for (int v = t->nnodes - 1; v >= 0; v--) {
		size[v] = v >= leaf0 ? 1 : 0;
		for (int i = 0; i < t->arity[v]; i++)
			size[v] += size[t->first_child[v] + i];
	}
	memset(extra, 0, (size_t)t->nnodes * sizeof(int));
	extra[0] = extras;
	for (int v = 0; v < leaf0; v++) {
		int given = 0;

		for (int i = 0; i < t->arity[v]; i++) {
			int c = t->first_child[v] + i;
			long long part = (long long)extra[v] * size[c];

			extra[c] = (int)(part / size[v]);
			given += extra[c];
			shares[i].remainder = part % size[v];
			shares[i].child = c;
		}
		qsort(shares, (size_t)t->arity[v], sizeof(share),
		      compare_shares);
		for (int i = 0; given < extra[v]; i++, given++)
			extra[shares[i].child]++;
	}
	free(size);
	free(shares);
	return TM_OK;
}

/* The shape: the old tree plus, under each old leaf, its rank slots. */
static tm_tree *add_slot_level(const tm_tree *t, int n, const int *extra,
			       tm_error *err)
{
	int depth = t->depth, leaf0 = t->level_start[depth];
	int *level_size = malloc(((size_t)depth + 2) * sizeof(int));
	int *parent = malloc(((size_t)t->nnodes + n) * sizeof(int));
	tm_tree *o = NULL;

	if (!level_size || !parent) {
		tm_error_nomem(err);
		goto out;
	}
	for (int d = 0; d <= depth; d++)
		level_size[d] = t->level_start[d + 1] - t->level_start[d];
	level_size[depth + 1] = n;
	memcpy(parent, t->parent, (size_t)t->nnodes * sizeof(int));
	for (int l = 0, v = t->nnodes; l < t->nleaves; l++)
		for (int k = 0; k < n / t->nleaves + extra[leaf0 + l]; k++)
			parent[v++] = leaf0 + l;
	o = tm_tree_build(depth + 1, level_size, parent, err);
out:
	free(level_size);
	free(parent);
	return o;
}

tm_tree *tm_tree_oversubscribe(const tm_tree *t, int n, tm_error *err)
{
	int *extra;
	tm_tree *o = NULL;

	if (n <= t->nleaves)
		return tm_tree_copy(t, err);
	if (n > INT_MAX - t->nnodes) {
		tm_error_set(err, TM_ERR_USAGE,
			     "oversubscribe: %d ranks, expected at most %d",
			     n, INT_MAX - t->nnodes);
		return NULL;
	}
	extra = malloc((size_t)t->nnodes * sizeof(int));
	if (!extra || spread_extras(t, n % t->nleaves, extra) != TM_OK) {
		tm_error_nomem(err);
		goto out;
	}
	o = add_slot_level(t, n, extra, err);
	if (!o)
		goto out;
	for (int l = 0; l < o->nleaves; l++) {
		int old = o->parent[o->level_start[o->depth] + l] -
			  t->level_start[t->depth];
		const tm_leaf *leaf = &t->leaf[old];

		if (set_leaf(&o->leaf[l], leaf->pus, leaf->npus,
			     leaf->cores, leaf->ncores) != TM_OK)
			goto nomem;
	}
	for (int d = 0; d <= t->depth; d++) {
		if (set_level_name(o, d, t->level_name[d]) != TM_OK)
			goto nomem;
		o->level_cost[d] = t->level_cost[d];
		o->level_hops[d] = t->level_hops[d];
	}
	/* Two ranks on one leaf share everything it has. */
	o->level_cost[t->depth] = 0.0;
	o->level_hops[t->depth] = 0;
	o->level_cost[o->depth] = 0.0;
	o->level_hops[o->depth] = 0;
	if (set_level_name(o, o->depth, "Slot") != TM_OK)
		goto nomem;
	goto out;
nomem:
	tm_tree_free(o);
	o = NULL;
	tm_error_nomem(err);
out:
	free(extra);
	return o;
}

/* ------------------------------------------------------------------ */
/* keep_leaves                                                          */

/* A node stays when a kept leaf is below it; the nodes that stay keep
 * their order, so the new parents follow from an old-to-new numbering. */
tm_tree *tm_tree_keep_leaves(const tm_tree *t, const char *keep, tm_error *err)
{
	char *stays = calloc((size_t)t->nnodes, 1);
	int *renumber = malloc(sizeof(int) * (size_t)t->nnodes);
	int *level_size = calloc((size_t)t->depth + 1, sizeof(int));
	int *parent = malloc(sizeof(int) * (size_t)t->nnodes);
	tm_tree *k = NULL;
	int n = 0;

	if (!stays || !renumber || !level_size || !parent) {
		tm_error_nomem(err);
		goto out;
	}
	for (int l = 0; l < t->nleaves; l++)
		for (int v = t->level_start[t->depth] + l; keep[l] && v >= 0 &&
		     !stays[v]; v = t->parent[v])
			stays[v] = 1;
	if (!stays[0]) {
		tm_error_set(err, TM_ERR_TOPOLOGY, "no leaf left to place on");
		goto out;
	}
	for (int d = 0; d <= t->depth; d++)
		for (int v = t->level_start[d]; v < t->level_start[d + 1]; v++) {
			if (!stays[v])
				continue;
			renumber[v] = n;
			parent[n++] = v ? renumber[t->parent[v]] : -1;
			level_size[d]++;
		}
	k = tm_tree_build(t->depth, level_size, parent, err);
	if (!k)
		goto out;
	for (int d = 0; d <= t->depth; d++) {
		k->level_cost[d] = t->level_cost[d];
		k->level_hops[d] = t->level_hops[d];
		if (set_level_name(k, d, t->level_name[d]) != TM_OK)
			goto nomem;
	}
	for (int l = 0, kl = 0; l < t->nleaves; l++) {
		const tm_leaf *from = &t->leaf[l];

		if (keep[l] && set_leaf(&k->leaf[kl++], from->pus, from->npus,
					from->cores, from->ncores) != TM_OK)
			goto nomem;
	}
	goto out;
nomem:
	tm_tree_free(k);
	k = NULL;
	tm_error_nomem(err);
out:
	free(stays);
	free(renumber);
	free(level_size);
	free(parent);
	return k;
}
