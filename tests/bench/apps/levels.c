/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * levels.c - what crossing each level of the tree costs: the kind of
 * resource two cores share at their lowest common ancestor, and its
 * figures.  doc/bench-apps.md cites where each figure comes from; they
 * are approximate, rounded values of published measurements, and they
 * are hardware figures: MPI's own cost of a message, the same for every
 * placement, is tmsim_software_latency.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tmsim.h"

/* latency: one way, small message, between two cores whose closest shared
 * resource is this one; bandwidth: of one core's (or one child's) path
 * into it, so that the children of a node compete for their own edges and
 * congestion shows where many ranks cross one boundary. */
static const tmsim_figures figures[TMSIM_KIND_COUNT] = {
	[TMSIM_L2]      = { "l2",      5e-9,   40e9,   0 },
	[TMSIM_L3]      = { "l3",      20e-9,  25e9,   0 },
	[TMSIM_NUMA]    = { "numa",    90e-9,  15e9,   0 },
	[TMSIM_PACKAGE] = { "package", 120e-9, 15e9,   1 },
	[TMSIM_BOARD]   = { "board",   150e-9, 20e9,   1 },
	[TMSIM_SWITCH]  = { "switch",  1.0e-6, 12.5e9, 1 },
	[TMSIM_FABRIC]  = { "fabric",  1.2e-6, 12.5e9, 1 },
};

/* Shared-memory MPI's latency between two cores sharing a cache is a few
 * hundred nanoseconds of software (queues, matching), whatever the
 * hardware below: 0.1 us on each side of every message. */
const double tmsim_software_latency = 0.1e-6;

/* A fat tree with half the bandwidth up as down (2:1), common in clusters
 * where most traffic stays under one leaf switch. */
const double tmsim_fabric_taper = 0.5;

const tmsim_figures *tmsim_figures_of(tmsim_kind k)
{
	return &figures[k];
}

int tmsim_kind_parse(const char *name, tmsim_kind *k)
{
	for (int i = 0; i < TMSIM_KIND_COUNT; i++)
		if (strcasecmp(name, figures[i].name) == 0) {
			*k = (tmsim_kind)i;
			return 0;
		}
	return -1;
}

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* A level of a machine's tree (as the helper names them, doc/topology.md),
 * knowing what lies below it.  Names are what there is to go by: a level
 * that holds a single object below it is dropped with its name (Skylake's
 * Package, which holds one L3, shows as "L3"), and CPUID dumps know no
 * NUMA nodes (the whole machine is "Machine+NUMA"), so NUMA marks only
 * tell packages of several NUMA nodes apart. */
static tmsim_kind node_kind(const tm_tree *t, int d)
{
	const char *name = t->level_name[d];
	int numa_below = 0, package_below = 0;

	for (int e = d + 1; e < t->depth; e++) {
		numa_below |= strstr(t->level_name[e], "NUMA") != NULL;
		package_below |= starts(t->level_name[e], "Package");
	}
	if (starts(name, "L2") || starts(name, "L1") ||
	    starts(name, "Core") || starts(name, "PU"))
		return TMSIM_L2;
	if (starts(name, "L3"))
		return TMSIM_L3;
	/* the root of a machine of several children: its packages (a
	 * single-package machine's root is the Package itself) */
	if (starts(name, "Machine") || package_below)
		return TMSIM_BOARD;
	/* a Package, Die or Group: several NUMA nodes below it, or several
	 * L3s of one memory */
	return numa_below && !strstr(name, "NUMA") ? TMSIM_PACKAGE
						   : TMSIM_NUMA;
}

/* An abstract tree's levels have no names: from the bottom, cores share
 * an L3, L3s make a board, boards hang from switches. */
static tmsim_kind abstract_kind(int from_bottom)
{
	static const tmsim_kind order[] = { TMSIM_L3, TMSIM_BOARD,
					    TMSIM_SWITCH };
	return from_bottom < 3 ? order[from_bottom] : TMSIM_FABRIC;
}

static int parse_kinds(tmsim_job *job, tm_error *err)
{
	char *list = strdup(job->kinds), *save = NULL, *tok;
	int d = 0;

	if (!list)
		return tm_error_nomem(err), -1;
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save), d++) {
		if (d >= job->tree->depth ||
		    tmsim_kind_parse(tok, &job->kind[d]) != 0) {
			tm_error_set(err, TM_ERR_USAGE, "--kinds %s: item %d "
				     "('%s'): expected one of l2, l3, numa, "
				     "package, board, switch, fabric, one per "
				     "level above the cores (%d)", job->kinds,
				     d + 1, tok, job->tree->depth);
			free(list);
			return -1;
		}
	}
	free(list);
	if (d != job->tree->depth) {
		tm_error_set(err, TM_ERR_USAGE, "--kinds %s: expected %d "
			     "kinds, one per level above the cores, got %d",
			     job->kinds, job->tree->depth, d);
		return -1;
	}
	return 0;
}

int tmsim_classify(tmsim_job *job, tm_error *err)
{
	const tm_tree *t = job->tree, *node = job->node;
	int abstract = starts(job->node_spec, "tree:");

	job->kind = calloc((size_t)t->depth + 1, sizeof(tmsim_kind));
	if (!job->kind)
		return tm_error_nomem(err), -1;
	if (job->kinds)
		return parse_kinds(job, err);
	for (int d = 0; d < t->depth; d++) {
		int nd = d - job->node_depth; /* level in the node's tree */
		if (nd < 0)
			job->kind[d] = strcmp(t->level_name[d], "Fabric") == 0
				       ? TMSIM_FABRIC : TMSIM_SWITCH;
		else if (abstract)
			job->kind[d] = abstract_kind(node->depth - 1 - nd);
		else
			job->kind[d] = node_kind(node, nd);
	}
	return 0;
}
