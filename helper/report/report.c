/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report.c - JSON and text forms of a placement (see tm_report.h). */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tm_list.h"
#include "tm_report.h"
#include "tm_topology.h"

/* The cpu list of a leaf; lists are short, but size it from the data. */
static char *leaf_cpus(const tm_leaf *leaf)
{
	int need = tm_cpulist_format(NULL, 0, leaf->pus, leaf->npus);
	char *buf = malloc((size_t)need + 1);

	if (buf)
		tm_cpulist_format(buf, need + 1, leaf->pus, leaf->npus);
	return buf;
}

/* Every CPU of the tree: what the placement chose among. */
static char *tree_cpus(const tm_tree *t)
{
	size_t n = 0;
	for (int l = 0; l < t->nleaves; l++)
		n += (size_t)t->leaf[l].npus;
	int *all = malloc(sizeof(int) * (n + 1)), k = 0;
	if (!all)
		return NULL;
	for (int l = 0; l < t->nleaves; l++)
		for (int p = 0; p < t->leaf[l].npus; p++)
			all[k++] = t->leaf[l].pus[p];
	int u = tm_sort_unique(all, k);
	tm_leaf whole = { u, all, 0, NULL };
	char *text = leaf_cpus(&whole);
	free(all);
	return text;
}

/* Several matrices: "combine", "chosen", "matrices", "disagreement". */
static int add_matrices(json_t *root, const tm_report *r)
{
	json_t *list, *item, *cost, *dis;

	if (r->nmatrices < 2)
		return 0;
	list = json_array();
	if (!list || json_object_set_new(root, "combine",
					 json_string(r->combine)) ||
	    json_object_set_new(root, "chosen", json_string(r->chosen)) ||
	    json_object_set_new(root, "matrices", list))
		return -1;
	for (int k = 0; k < r->nmatrices; k++) {
		const tm_report_matrix *m = &r->matrices[k];

		cost = json_object();
		if (!cost)
			return -1;
		for (int c = 0; c < r->ncosts; c++)
			json_object_set_new(cost, r->cost_name[c],
					    json_real(m->cost[c]));
		item = json_pack("{s:s, s:o, s:f}", "file", m->file, "cost",
				 cost, "own", m->own);
		if (!item || json_array_append_new(list, item))
			return -1;
	}
	dis = json_pack("{s:f, s:s, s:s, s:f, s:b}",
			"ratio", r->disagreement,
			"placed-for", r->matrices[r->placed_for].file,
			"measured-on", r->matrices[r->measured_on].file,
			"threshold", r->disagreement_threshold,
			"strong", r->disagreement > r->disagreement_threshold);
	return !dis || json_object_set_new(root, "disagreement", dis) ? -1 : 0;
}

/* The CPUs every rank shares when there is no other CPU to go to (more
 * than one rank, each on all the tree's CPUs), else NULL. */
static char *shared_cpus(const tm_report *r)
{
	char *all, *one;
	int same = r->nranks > 1;

	if (!same || !(all = tree_cpus(r->tree)))
		return NULL;
	for (int i = 0; i < r->nranks && same; i++) {
		one = leaf_cpus(&r->tree->leaf[r->leaf_of[i]]);
		same = one && strcmp(one, all) == 0;
		free(one);
	}
	if (!same) {
		free(all);
		return NULL;
	}
	return all;
}

char *tm_report_json(const tm_report *r)
{
	json_t *root = json_object(), *placement = json_array();
	json_t *cost = json_object(), *hops = json_object();
	char *text = NULL;

	if (!root || !placement || !cost || !hops)
		goto out;
	for (int i = 0; i < r->nranks; i++) {
		const tm_leaf *leaf = &r->tree->leaf[r->leaf_of[i]];
		char *cpus = leaf_cpus(leaf);
		json_t *cores = json_array(), *item = NULL;

		if (cpus && cores) {
			for (int c = 0; c < leaf->ncores; c++)
				json_array_append_new(cores,
						      json_integer(leaf->cores[c]));
			item = json_pack("{s:i, s:s, s:O}", "rank", r->ranks[i],
					 "cpus", cpus, "cores", cores);
		}
		free(cpus);
		json_decref(cores);
		if (!item || json_array_append_new(placement, item) < 0)
			goto out;
	}
	for (int c = 0; c < r->ncosts; c++) {
		json_object_set_new(cost, r->cost_name[c], json_real(r->cost[c]));
		json_object_set_new(hops, r->cost_name[c],
				    json_real(r->hop_bytes[c]));
	}
	char *all_cpus = tree_cpus(r->tree);
	int failed = !all_cpus ||
		json_object_set_new(root, "algorithm", json_string(r->algorithm)) ||
		json_object_set_new(root, "size", json_integer(r->size)) ||
		json_object_set_new(root, "cpus", json_string(all_cpus));
	free(all_cpus);
	if (failed ||
	    json_object_set(root, "placement", placement) ||
	    json_object_set(root, "cost", cost) ||
	    json_object_set(root, "hop-bytes", hops) ||
	    json_object_set_new(root, "proven-optimal",
				json_boolean(r->proven_optimal)) ||
	    json_object_set_new(root, "seconds", json_real(r->seconds)) ||
	    add_matrices(root, r))
		goto out;
	/* Into our own buffer: json_dumps would hand back memory from
	 * whatever allocator the program gave jansson. */
	size_t flags = JSON_PRESERVE_ORDER | JSON_COMPACT;
	size_t len = json_dumpb(root, NULL, 0, flags);
	text = len ? malloc(len + 2) : NULL;
	if (text) {
		json_dumpb(root, text, len, flags);
		memcpy(text + len, "\n", 2);
	}
out:
	json_decref(root);
	json_decref(placement);
	json_decref(cost);
	json_decref(hops);
	return text;
}

/* A growing string for the text form. */
typedef struct strbuf {
	char *s;
	size_t len, cap;
	int failed;
} strbuf;

static void sb_printf(strbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sb_printf(strbuf *b, const char *fmt, ...)
{
	va_list ap;

	if (b->failed)
		return;
	va_start(ap, fmt);
	int need = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (b->len + (size_t)need + 1 > b->cap) {
		size_t cap = (b->cap ? b->cap : 256);
		while (cap < b->len + (size_t)need + 1)
			cap *= 2;
		char *s = realloc(b->s, cap);
		if (!s) {
			b->failed = 1;
			return;
		}
		b->s = s;
		b->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)need;
}

/* Hybrid nodes: the kinds, most powerful first, and the choice. */
static void text_kinds(strbuf *b, const tm_report *r)
{
	const tm_cpu_kinds *k = r->kinds;

	if (!k || k->n < 2)
		return;
	sb_printf(b, "cpu kinds%s:", k->ranked ? ", most powerful first" :
		  " (hwloc could not rank them: treated as equal)");
	for (int i = 0; i < k->n; i++) {
		tm_leaf all = { k->kind[i].npus, k->kind[i].pus, 0, NULL };
		char *cpus = leaf_cpus(&all);

		sb_printf(b, "%s %s (CPUs %s)", i ? "," : "", k->kind[i].name,
			  cpus ? cpus : "?");
		free(cpus);
	}
	sb_printf(b, "\n");
	if (!k->ranked)
		return;
	if (r->kinds_equal) {
		sb_printf(b, "cpu kinds: --cpu-kinds equal, every kind "
			  "treated alike\n");
	} else if (r->kinds_used < k->n || r->kinds_last >= 0) {
		int whole = r->kinds_last >= 0 ? r->kinds_used - 1
					       : r->kinds_used;

		sb_printf(b, "cpu kinds: the %d rank%s kept on", r->nranks,
			  r->nranks == 1 ? "" : "s");
		for (int i = 0; i < whole; i++)
			sb_printf(b, "%s %s", i ? "," : "", k->kind[i].name);
		if (whole)
			sb_printf(b, " %ss%s", r->leaves_are_pus ? "PU" : "core",
				  r->kinds_last >= 0 ?
				  " (all of them) and" : "");
		if (r->kinds_last >= 0)
			sb_printf(b, " %d %s %s%s", r->kinds_last,
				  k->kind[whole].name,
				  r->leaves_are_pus ? "PU" : "core",
				  r->kinds_last == 1 ? "" : "s");
		sb_printf(b, ", the most powerful first (--cpu-kinds equal "
			  "to use every kind alike)\n");
	} else {
		sb_printf(b, "cpu kinds: every kind used\n");
	}
}

/* Fewer ranks than cores may leave a package or NUMA node empty: the ranks
 * then share the memory bandwidth of the others.  The shallowest level
 * named after packages or NUMA nodes is the one that counts. */
static void text_memory_note(strbuf *b, const tm_report *r)
{
	const tm_tree *t = r->tree;
	int d, nodes, used = 0;
	char *seen;

	if (r->nranks >= t->nleaves)
		return;
	for (d = 1; d < t->depth; d++)
		if (strstr(t->level_name[d], "Package") ||
		    strstr(t->level_name[d], "NUMA"))
			break;
	if (d >= t->depth)
		return;
	nodes = t->level_start[d + 1] - t->level_start[d];
	if (nodes < 2 || !(seen = calloc((size_t)nodes, 1)))
		return;
	for (int i = 0; i < r->nranks; i++) {
		int v = t->level_start[t->depth] + r->leaf_of[i];

		while (v >= t->level_start[d + 1])
			v = t->parent[v];
		if (!seen[v - t->level_start[d]]++)
			used++;
	}
	free(seen);
	if (used < nodes)
		sb_printf(b, "note: the %d ranks use %d of the %d %s: they "
			  "share %s memory bandwidth; --algorithm spread "
			  "spreads them over the NUMA nodes\n", r->nranks,
			  used, nodes, t->level_name[d],
			  used == 1 ? "its" : "their");
}

/* Several matrices: the placement on each, and whether they agree. */
static void text_matrices(strbuf *b, const tm_report *r)
{
	sb_printf(b, "%d matrices, placed for their %s (%s); cost on each, "
		  "xN: against the placement made for that matrix alone:\n",
		  r->nmatrices, r->combine, r->chosen);
	for (int k = 0; k < r->nmatrices; k++) {
		const tm_report_matrix *m = &r->matrices[k];

		sb_printf(b, "  %s:", m->file);
		for (int c = 0; c < r->ncosts; c++) {
			sb_printf(b, " %s %.6g", r->cost_name[c], m->cost[c]);
			if (m->own > 0)
				sb_printf(b, " (x%.2f)", m->cost[c] / m->own);
			sb_printf(b, c + 1 < r->ncosts ? "," : "\n");
		}
	}
	sb_printf(b, "disagreement: the placement made for %s costs x%.2f on "
		  "%s against %s's own", r->matrices[r->placed_for].file,
		  r->disagreement, r->matrices[r->measured_on].file,
		  r->matrices[r->measured_on].file);
	if (r->disagreement > r->disagreement_threshold)
		sb_printf(b, ": above x%.2f, the runs disagree strongly: one "
			  "profile is not enough (see doc/loop.md)\n",
			  r->disagreement_threshold);
	else
		sb_printf(b, " (at most x%.2f: the runs agree)\n",
			  r->disagreement_threshold);
}

char *tm_report_text(const tm_report *r)
{
	strbuf b = { 0 };
	const tm_tree *t = r->tree;

	sb_printf(&b, "%s placement of %d of %d ranks on %s (%d %s)\n",
		  r->algorithm, r->nranks, r->size, r->topology, t->nleaves,
		  t->nleaves == 1 ? "leaf" : "leaves");
	text_kinds(&b, r);
	sb_printf(&b, "%8s  %-12s %s\n", "rank", "cpus", "cores");
	for (int i = 0; i < r->nranks && !b.failed; i++) {
		const tm_leaf *leaf = &t->leaf[r->leaf_of[i]];
		char *cpus = leaf_cpus(leaf);

		sb_printf(&b, "%8d  %-12s ", r->ranks[i], cpus ? cpus : "?");
		for (int c = 0; c < leaf->ncores; c++)
			sb_printf(&b, "%s%d", c ? "," : "", leaf->cores[c]);
		sb_printf(&b, "\n");
		free(cpus);
	}
	sb_printf(&b, "cost (lower is better), level costs");
	for (int d = 0; d < t->depth; d++)
		sb_printf(&b, " %s=%g", t->level_name[d], t->level_cost[d]);
	sb_printf(&b, ":\n");
	for (int c = 0; c < r->ncosts; c++) {
		sb_printf(&b, "  %-12s %14.6g", r->cost_name[c], r->cost[c]);
		if (c > 0 && r->cost[0] > 0)
			sb_printf(&b, "  x%.2f of %s", r->cost[c] / r->cost[0],
				  r->cost_name[0]);
		sb_printf(&b, "   hop-bytes %.6g\n", r->hop_bytes[c]);
	}
	text_memory_note(&b, r);
	char *shared = shared_cpus(r);
	if (shared) {
		/* srun -O on one CPU per node: "proven optimal" would be
		 * true and useless */
		sb_printf(&b, "all %d ranks share CPU%s %s: there was nothing "
			  "to choose, the costs compare nothing\n", r->nranks,
			  strpbrk(shared, ",-") ? "s" : "", shared);
		free(shared);
	} else if (r->proven_optimal) {
		sb_printf(&b, "%s: proven optimal, no placement on this tree "
			  "costs less\n", r->algorithm);
	}
	if (r->nmatrices > 1)
		text_matrices(&b, r);
	sb_printf(&b, "%s took %.3f s\n", r->algorithm, r->seconds);
	if (b.failed) {
		free(b.s);
		return NULL;
	}
	return b.s;
}
