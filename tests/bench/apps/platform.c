/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * platform.c - a SimGrid platform from a tree: one host per leaf (core),
 * one router per inner node, and for every edge of the tree a link whose
 * figures are those of the level it leads into (levels.c).
 *
 * Why edges and not one link per level: a message between two cores goes
 * up from one to their lowest common ancestor and down to the other, so
 * it crosses exactly the edges of that tree path; the edge of a child into
 * its parent is what all the ranks below that child share when they talk
 * across it (the uplink of a socket, the NIC of a node, the uplink of a
 * switch), which is where congestion happens.  Latencies are split so
 * that a pair whose lowest common ancestor is at level d has the latency
 * of level d's kind end to end.  Links of full-duplex hardware (socket
 * links, networks) are one link per direction; caches and memory
 * controllers are one link shared by both directions.
 *
 * Routing is DijkstraCache over this graph: a tree has one path between
 * two hosts, so shortest paths are the tree paths, and the cache computes
 * each source's paths once (all-pairs patterns of 1,024 ranks).
 */
#include <config.h>

#include <stdlib.h>

#include "tmsim.h"

static const char *parent_id(const tm_tree *t, int v, char *buf, size_t size)
{
	snprintf(buf, size, "r%d", t->parent[v]);
	return buf;
}

static const char *node_id(const tm_tree *t, int v, char *buf, size_t size)
{
	int first_leaf = t->level_start[t->depth];

	if (v >= first_leaf)
		snprintf(buf, size, "c%d", v - first_leaf);
	else
		snprintf(buf, size, "r%d", v);
	return buf;
}

static int depth_of(const tm_tree *t, int v)
{
	int d = 0;

	while (t->level_start[d + 1] <= v)
		d++;
	return d;
}

/* The edge from node v up to its parent: its link(s) on pass 0, its
 * routes on pass 1. */
static void write_edge(FILE *f, const tmsim_job *job, const double *total,
		       int v, int pass)
{
	const tm_tree *t = job->tree;
	int d = depth_of(t, v);
	const tmsim_figures *fig = tmsim_figures_of(job->kind[d - 1]);
	double lat = (total[d - 1] - total[d]) / 2, bw = fig->bandwidth;
	char a[32], b[32];

	if (d == t->depth)
		lat += tmsim_software_latency;
	if (job->kind[d - 1] == TMSIM_FABRIC)
		bw = tmsim_figures_of(TMSIM_SWITCH)->bandwidth * t->arity[v]
		     * tmsim_fabric_taper;
	node_id(t, v, a, sizeof(a));
	parent_id(t, v, b, sizeof(b));
	if (pass == 0 && !fig->duplex)
		fprintf(f, "<link id=\"e%d\" bandwidth=\"%.6gBps\" latency="
			"\"%.6gs\"/>\n", v, bw, lat);
	else if (pass == 0)
		fprintf(f, "<link id=\"u%d\" bandwidth=\"%.6gBps\" latency="
			"\"%.6gs\"/>\n<link id=\"d%d\" bandwidth=\"%.6gBps\" "
			"latency=\"%.6gs\"/>\n", v, bw, lat, v, bw, lat);
	else if (!fig->duplex)
		fprintf(f, "<route src=\"%s\" dst=\"%s\"><link_ctn id=\"e%d\""
			"/></route>\n", a, b, v);
	else
		fprintf(f, "<route src=\"%s\" dst=\"%s\" symmetrical=\"NO\">"
			"<link_ctn id=\"u%d\"/></route>\n<route src=\"%s\" "
			"dst=\"%s\" symmetrical=\"NO\"><link_ctn id=\"d%d\"/>"
			"</route>\n", a, b, v, b, a, v);
}

int tmsim_write_platform(FILE *f, const tmsim_job *job, double host_speed)
{
	const tm_tree *t = job->tree;
	double *total = malloc(((size_t)t->depth + 1) * sizeof(double));
	if (!total)
		return -1;
	/* end-to-end latency of a pair by the depth of its common ancestor:
	 * never less than that of a deeper level */
	total[t->depth] = 0;
	for (int d = t->depth - 1; d >= 0; d--) {
		double own = tmsim_figures_of(job->kind[d])->latency;
		total[d] = own > total[d + 1] ? own : total[d + 1];
	}

	fprintf(f, "<?xml version='1.0'?>\n"
		"<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
		"<platform version=\"4.1\">\n"
		"<!-- tmsim platform: %s, %d node(s), %d switch(es); "
		"levels, root first:", job->node_spec, job->nodes,
		job->switches);
	for (int d = 0; d < t->depth; d++)
		fprintf(f, " %s=%s", t->level_name[d],
			tmsim_figures_of(job->kind[d])->name);
	fprintf(f, " -->\n<zone id=\"job\" routing=\"DijkstraCache\">\n");
	for (int l = 0; l < t->nleaves; l++)
		fprintf(f, "<host id=\"c%d\" speed=\"%.6gf\"/>\n", l, host_speed);
	for (int v = 0; v < t->level_start[t->depth]; v++)
		fprintf(f, "<router id=\"r%d\"/>\n", v);

	/* SimGrid's DTD wants every link before the first route */
	for (int pass = 0; pass < 2; pass++)
		for (int v = 1; v < t->nnodes; v++)
			write_edge(f, job, total, v, pass);
	fprintf(f, "</zone>\n</platform>\n");
	free(total);
	return ferror(f) ? -1 : 0;
}
