/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * switch_tree.c - the network above a job's nodes (tm_switch_tree_parse,
 * tm_job.h), from the switch records of switches.c.
 *
 * Only what the job's traffic can cross matters: switches without job
 * nodes go, and so does a switch through which the job's nodes reach one
 * child only (it offers no choice, and would make every level above it
 * look ten times dearer).  tm_tree needs every leaf at one depth, so a
 * subtree shallower than its siblings hangs from single-child levels; the
 * nodes a switch holds directly beside child switches are gathered under
 * one such chain, since they share that switch as a leaf switch's nodes do.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/switches.h"
#include "tm_job.h"
#include "util/grow.h"

/* Deeper switch trees than this in a file are refused: it bounds the
 * walks up the tree (Slurm's own trees have a handful of levels). */
enum { MAX_FILE_DEPTH = 64 };

enum kind { VROOT, SWITCH, PAD_SWITCH, PAD_DIRECT, NODE };

typedef struct item {
	enum kind kind;
	int id;      /* switch, or job node for NODE */
	int h;       /* height: levels above the nodes */
	int parent;  /* item index */
} item;

typedef struct net {
	const char *name;
	const tm__switches *s;
	char *const *nodes;
	int nnodes;
	int *depth;        /* per switch */
	int *best;         /* per job node: the lowest switch naming it */
	int *jobcount;     /* per switch: job nodes below it */
	int *direct_start; /* per switch + 1: its own nodes in direct[] */
	int *direct;
	int *height;       /* per switch that holds job nodes */
	int *roots, nroots;
	item *items;
	int nitems, cap;
} net;

static tm_status nomem(tm_error *err)
{
	return tm_error_nomem(err);
}

/* depth[] of every switch; a loop of Switches= is an error. */
static tm_status switch_depths(net *n, tm_error *err)
{
	const tm__switches *s = n->s;
	char *state = calloc((size_t)s->n + 1, 1);
	int *path = malloc(sizeof(int) * ((size_t)s->n + 1));
	tm_status st = TM_OK;

	if (!state || !path) {
		free(state);
		free(path);
		return nomem(err);
	}
	for (int k = 0; k < s->n && st == TM_OK; k++) {
		int len = 0, v = k, base = -1;

		while (v >= 0 && state[v] == 0) {
			state[v] = 1;
			path[len++] = v;
			v = s->sw[v].parent;
		}
		if (v >= 0 && state[v] == 1) {
			st = tm_error_set(err, TM_ERR_FORMAT,
					  "%s:%d: switch %s is below itself "
					  "(Switches= loop), expected a tree",
					  n->name, s->sw[v].line, s->sw[v].name);
			break;
		}
		if (v >= 0)
			base = n->depth[v];
		for (int i = len - 1; i >= 0; i--) {
			n->depth[path[i]] = ++base;
			state[path[i]] = 2;
		}
		if (base > MAX_FILE_DEPTH)
			st = tm_error_set(err, TM_ERR_FORMAT,
					  "%s:%d: switch %s has %d switches "
					  "above it, expected at most %d",
					  n->name, s->sw[k].line, s->sw[k].name,
					  base, MAX_FILE_DEPTH);
	}
	free(state);
	free(path);
	return st;
}

static int is_ancestor(const net *n, int a, int b)
{
	while (b >= 0 && n->depth[b] > n->depth[a])
		b = n->s->sw[b].parent;
	return b == a;
}

/* best[]: scontrol names a node under every switch above it too; keep
 * the lowest, and refuse two switches of which neither is above the
 * other. */
static tm_status lowest_switches(net *n, tm_error *err)
{
	const tm__switches *s = n->s;

	for (int j = 0; j < n->nnodes; j++)
		n->best[j] = -1;
	for (int k = 0; k < s->n; k++)
		for (int c = 0; c < s->sw[k].nnode; c++) {
			int j = s->sw[k].node[c], b = n->best[j];

			if (b < 0 || is_ancestor(n, b, k))
				n->best[j] = k;
			else if (b != k && !is_ancestor(n, k, b))
				return tm_error_set(err, TM_ERR_FORMAT,
					"%s:%d: node %s is under switch %s and "
					"switch %s (line %d), expected one of "
					"them above the other", n->name,
					s->sw[k].line, n->nodes[j], s->sw[k].name,
					s->sw[b].name, s->sw[b].line);
		}
	return TM_OK;
}

/* Nodes of the job that no switch names, when others are named: Slurm's
 * topology/tree would not have allocated them, so the file is not this
 * cluster's (or is out of date); guessing a place would hide that. */
static tm_status check_missing(const net *n, int placed, tm_error *err)
{
	char list[256] = "";
	int len = 0, missing = n->nnodes - placed, shown = 0;

	for (int j = 0; j < n->nnodes && shown < 3; j++)
		if (n->best[j] < 0) {
			len += snprintf(list + len, sizeof(list) - (size_t)len,
					"%s%.60s", shown ? ", " : "", n->nodes[j]);
			shown++;
		}
	if (missing > shown)
		snprintf(list + len, sizeof(list) - (size_t)len,
			 " and %d more", missing - shown);
	return tm_error_set(err, TM_ERR_TOPOLOGY,
			    "%s: job node%s %s under no switch, expected every "
			    "node of the job in the switch tree", n->name,
			    missing > 1 ? "s" : "", list);
}

static int kept_children(const net *n, int s, int *only)
{
	int kept = 0;

	for (int c = 0; c < n->s->sw[s].nchild; c++)
		if (n->jobcount[n->s->sw[s].child[c]] > 0) {
			*only = n->s->sw[s].child[c];
			kept++;
		}
	return kept;
}

static int ndirect(const net *n, int s)
{
	return n->direct_start[s + 1] - n->direct_start[s];
}

/* What switch s stands for once single-child switches are skipped. */
static int effective(const net *n, int s)
{
	int only = -1;

	while (ndirect(n, s) == 0 && kept_children(n, s, &only) == 1)
		s = only;
	return s;
}

/* jobcount[], the direct nodes of each switch, and height[], children
 * (deeper) before parents. */
static tm_status shape(net *n, tm_error *err)
{
	const tm__switches *s = n->s;

	for (int j = 0; j < n->nnodes; j++) {
		n->direct_start[n->best[j] + 1]++;
		for (int v = n->best[j]; v >= 0; v = s->sw[v].parent)
			n->jobcount[v]++;
	}
	for (int k = 0; k < s->n; k++)
		n->direct_start[k + 1] += n->direct_start[k];
	int *fill = calloc((size_t)s->n + 1, sizeof(int));
	if (!fill)
		return nomem(err);
	for (int j = 0; j < n->nnodes; j++) {
		int b = n->best[j];
		n->direct[n->direct_start[b] + fill[b]++] = j;
	}
	free(fill);
	for (int d = MAX_FILE_DEPTH; d >= 0; d--)
		for (int k = 0; k < s->n; k++) {
			if (n->depth[k] != d || n->jobcount[k] == 0)
				continue;
			int h = ndirect(n, k) > 0;
			for (int c = 0; c < s->sw[k].nchild; c++) {
				int ch = s->sw[k].child[c];
				if (n->jobcount[ch] == 0)
					continue;
				int e = effective(n, ch);
				if (n->height[e] + 1 > h)
					h = n->height[e] + 1;
			}
			n->height[k] = h;
		}
	return TM_OK;
}

static int emit(net *n, enum kind kind, int id, int h, int parent)
{
	if (n->nitems == n->cap) {
		int grown = n->cap ? 2 * n->cap : 256;
		if (tm__grow_array(&n->items, sizeof(item), grown) < 0)
			return -1;
		n->cap = grown;
	}
	n->items[n->nitems++] = (item){ kind, id, h, parent };
	return 0;
}

/* Switch e at height h: itself, or a single-child level above it. */
static int emit_wrapped(net *n, int e, int h, int parent)
{
	return emit(n, n->height[e] == h ? SWITCH : PAD_SWITCH, e, h, parent);
}

static int emit_direct(net *n, int s, int h, int parent)
{
	if (h > 0)
		return emit(n, PAD_DIRECT, s, h, parent);
	for (int k = n->direct_start[s]; k < n->direct_start[s + 1]; k++)
		if (emit(n, NODE, n->direct[k], 0, parent) < 0)
			return -1;
	return 0;
}

static int emit_children(net *n, int at)
{
	item it = n->items[at];
	const tm__switch *sw = it.kind == VROOT ? NULL : &n->s->sw[it.id];
	int h = it.h - 1, rc = 0;

	switch (it.kind) {
	case VROOT:
		for (int r = 0; r < n->nroots && !rc; r++)
			rc = emit_wrapped(n, effective(n, n->roots[r]), h, at);
		return rc;
	case SWITCH:
		for (int c = 0; c < sw->nchild && !rc; c++)
			if (n->jobcount[sw->child[c]] > 0)
				rc = emit_wrapped(n, effective(n, sw->child[c]),
						  h, at);
		if (!rc && ndirect(n, it.id) > 0)
			rc = emit_direct(n, it.id, h, at);
		return rc;
	case PAD_SWITCH:
		return emit_wrapped(n, it.id, h, at);
	case PAD_DIRECT:
		return emit_direct(n, it.id, h, at);
	case NODE:
		break;
	}
	return 0;
}

/* "network", "switch s0", "switches s1,s2", "16 switches: s1,s2,...". */
static char *level_name(const net *n, int first, int end)
{
	char buf[128];
	int count = 0, len = 0, cut = 0;

	if (n->items[first].kind == VROOT)
		return strdup("network");
	if (n->items[first].kind == NODE)
		return strdup("nodes");
	for (int k = first; k < end; k++) {
		if (n->items[k].kind != SWITCH)
			continue;
		const char *name = n->s->sw[n->items[k].id].name;
		if (!cut && len + strlen(name) + 2 < 64)
			len += snprintf(buf + len, sizeof(buf) - (size_t)len,
					"%s%s", count ? "," : "", name);
		else if (!cut) {
			len += snprintf(buf + len, sizeof(buf) - (size_t)len,
					",...");
			cut = 1;
		}
		count++;
	}
	char out[160];
	if (count == 0)
		snprintf(out, sizeof(out), "single-child level");
	else if (count == 1)
		snprintf(out, sizeof(out), "switch %s", buf);
	else if (cut)
		snprintf(out, sizeof(out), "%d switches: %s", count, buf);
	else
		snprintf(out, sizeof(out), "switches %s", buf);
	return strdup(out);
}

/* The items, level by level, as a tm_tree. */
static tm_status to_tree(net *n, int height, tm_tree **out, int **order,
			 tm_error *err)
{
	int level_size[TM_JOB_MAX_LEVELS + 1], start[TM_JOB_MAX_LEVELS + 2];
	int *parent = NULL;

	start[0] = 0;
	for (int d = 0; d <= height; d++) {
		start[d + 1] = n->nitems;
		level_size[d] = start[d + 1] - start[d];
		if (d < height)
			for (int k = start[d]; k < start[d + 1]; k++)
				if (emit_children(n, k) < 0)
					return nomem(err);
	}
	parent = malloc(sizeof(int) * (size_t)n->nitems);
	*order = malloc(sizeof(int) * ((size_t)n->nnodes + 1));
	if (!parent || !*order) {
		free(parent);
		free(*order);
		*order = NULL;
		return nomem(err);
	}
	for (int k = 0; k < n->nitems; k++)
		parent[k] = n->items[k].parent;
	*out = tm_tree_build(height, level_size, parent, err);
	free(parent);
	for (int k = start[height]; k < start[height + 1]; k++)
		(*order)[k - start[height]] = n->items[k].id;
	for (int d = 0; *out && d <= height; d++) {
		char *name = level_name(n, start[d], start[d + 1]);
		if (!name) {
			tm_tree_free(*out);
			*out = NULL;
			tm_error_nomem(err);
			break;
		}
		free((*out)->level_name[d]);
		(*out)->level_name[d] = name;
	}
	if (!*out) {
		free(*order);
		*order = NULL;
		return err ? err->status : TM_ERR_NOMEM;
	}
	return TM_OK;
}

/* The flat network: a root over the nodes, in Slurm's order. */
static tm_status flat(int nnodes, tm_tree **out, int **order, tm_error *err)
{
	int level_size[2] = { 1, nnodes };
	int *parent = calloc((size_t)nnodes + 1, sizeof(int));

	*order = malloc(sizeof(int) * ((size_t)nnodes + 1));
	if (!parent || !*order) {
		free(parent);
		free(*order);
		*order = NULL;
		return nomem(err);
	}
	for (int j = 0; j < nnodes; j++)
		(*order)[j] = j;
	*out = tm_tree_build(1, level_size, parent, err);
	free(parent);
	if (*out) {
		char *a = strdup("network"), *b = strdup("nodes");
		free((*out)->level_name[0]);
		free((*out)->level_name[1]);
		(*out)->level_name[0] = a;
		(*out)->level_name[1] = b;
		if (a && b)
			return TM_OK;
		tm_tree_free(*out);
		*out = NULL;
		tm_error_nomem(err);
	}
	free(*order);
	*order = NULL;
	return err ? err->status : TM_ERR_NOMEM;
}

static tm_status build_net(net *n, tm_tree **out, int **order, tm_error *err)
{
	const tm__switches *s = n->s;
	tm_status st = switch_depths(n, err);
	int placed = 0;

	if (st == TM_OK)
		st = lowest_switches(n, err);
	if (st != TM_OK)
		return st;
	for (int j = 0; j < n->nnodes; j++)
		placed += n->best[j] >= 0;
	if (placed == 0)
		return flat(n->nnodes, out, order, err);
	if (placed < n->nnodes)
		return check_missing(n, placed, err);
	if ((st = shape(n, err)) != TM_OK)
		return st;
	int height = 0;
	for (int k = 0; k < s->n; k++)
		if (s->sw[k].parent < 0 && n->jobcount[k] > 0) {
			n->roots[n->nroots++] = k;
			int h = n->height[effective(n, k)];
			height = h > height ? h : height;
		}
	if (n->nroots > 1)
		height++;
	if (height > TM_JOB_MAX_LEVELS)
		return tm_error_set(err, TM_ERR_TOPOLOGY,
				    "%s: %d switch levels above the job's nodes, "
				    "expected at most %d", n->name, height,
				    TM_JOB_MAX_LEVELS);
	if (n->nroots > 1)
		st = emit(n, VROOT, -1, height, -1) < 0 ? nomem(err) : TM_OK;
	else
		st = emit(n, SWITCH, effective(n, n->roots[0]), height, -1) < 0
		     ? nomem(err) : TM_OK;
	if (st != TM_OK)
		return st;
	return to_tree(n, height, out, order, err);
}

tm_status tm_switch_tree_parse(const char *name, const char *text, size_t len,
			       char *const *nodes, int nnodes, tm_tree **out,
			       int **order, tm_error *err)
{
	tm__switches s;
	tm_status st;

	*out = NULL;
	*order = NULL;
	if (nnodes < 1 || nnodes > TM_JOB_MAX_NODES)
		return tm_error_set(err, TM_ERR_USAGE, "%d job nodes, expected "
				    "1 to %d", nnodes, TM_JOB_MAX_NODES);
	if (!text)
		return flat(nnodes, out, order, err);
	st = tm__switches_parse(name, text, len, nodes, nnodes, &s, err);
	if (st != TM_OK)
		return st;
	size_t ns = (size_t)s.n + 1, nn = (size_t)nnodes + 1;
	net n = { .name = name, .s = &s, .nodes = nodes, .nnodes = nnodes };
	n.depth = calloc(ns, sizeof(int));
	n.best = calloc(nn, sizeof(int));
	n.jobcount = calloc(ns, sizeof(int));
	n.direct_start = calloc(ns + 1, sizeof(int));
	n.direct = calloc(nn, sizeof(int));
	n.height = calloc(ns, sizeof(int));
	n.roots = calloc(ns, sizeof(int));
	if (!n.depth || !n.best || !n.jobcount || !n.direct_start ||
	    !n.direct || !n.height || !n.roots)
		st = nomem(err);
	else
		st = build_net(&n, out, order, err);
	free(n.depth);
	free(n.best);
	free(n.jobcount);
	free(n.direct_start);
	free(n.direct);
	free(n.height);
	free(n.roots);
	free(n.items);
	tm__switches_free(&s);
	return st;
}
