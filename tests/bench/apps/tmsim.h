/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tmsim.h - what the parts of tmsim share: the job tree a benchmark case
 * runs on, the figures of each of its levels, and placements.
 *
 * tmsim turns the helper's tree of a machine (or of a job: nodes under
 * switches, each node the machine's tree) into a SimGrid platform with one
 * host per core, computes the placements the benchmark compares, and
 * turns any placement into an SMPI hostfile (doc/bench-apps.md).
 */
#ifndef TMSIM_H
#define TMSIM_H

#include <stdio.h>

#include "tm_error.h"
#include "tm_matrix.h"
#include "tm_tree.h"

/* What two cores whose lowest common ancestor is at some level share, from
 * the closest to the farthest; each kind has its figures (levels.c). */
typedef enum tmsim_kind {
	TMSIM_L2,      /* an L2 cache (a module, a tile) */
	TMSIM_L3,      /* an L3 cache, not an L2 */
	TMSIM_NUMA,    /* a NUMA node (memory controller), not an L3 */
	TMSIM_PACKAGE, /* a package, not a NUMA node: on-package links */
	TMSIM_BOARD,   /* a node, not a package: the inter-socket links */
	TMSIM_SWITCH,  /* a leaf switch, not a node: the nodes' NICs */
	TMSIM_FABRIC,  /* only the top switch: the leaf switches' uplinks */
	TMSIM_KIND_COUNT
} tmsim_kind;

/* The machine a case runs on: the node's tree, nodes x that tree under
 * `switches` leaf switches (and one top switch when there are several). */
typedef struct tmsim_job {
	const char *node_spec; /* as tm_topology_load takes it */
	int nodes;             /* >= 1 */
	int switches;          /* 0 (single node) or 1..nodes, dividing it */
	const char *kinds;     /* NULL, or one kind name per level, root first
				* ("switch,board,l3"): for tree: specs */
	tm_tree *node;         /* the node's tree */
	tm_tree *tree;         /* the job's tree (== node for a single node) */
	int node_depth;        /* depth of the nodes' roots in tree */
	int leaves_per_node;
	tmsim_kind *kind;      /* per level of tree, depth entries */
} tmsim_job;

/* jobtree.c */
int tmsim_job_load(tmsim_job *job, tm_error *err);
void tmsim_job_free(tmsim_job *job);

/* levels.c: the figures of a kind (seconds, bytes per second) */
typedef struct tmsim_figures {
	const char *name;  /* as --kinds and the docs write it */
	double latency;    /* one way, a small message, pair at this level */
	double bandwidth;  /* of each tree edge into a node of this kind */
	int duplex;        /* 1: one link per direction (full-duplex links) */
} tmsim_figures;
const tmsim_figures *tmsim_figures_of(tmsim_kind k);
int tmsim_kind_parse(const char *name, tmsim_kind *k);
/* Fill job->kind from the level names (or job->kinds). */
int tmsim_classify(tmsim_job *job, tm_error *err);
/* MPI's own cost of a message, whatever the placement (levels.c). */
extern const double tmsim_software_latency;
/* Leaf switches' uplinks carry this fraction of what their nodes can
 * send (a tapered fat tree). */
extern const double tmsim_fabric_taper;

/* platform.c */
int tmsim_write_platform(FILE *f, const tmsim_job *job, double host_speed);

/* placement.c: rank r on leaf leaf_of[r] of job->tree */
int tmsim_write_placement(FILE *f, const tmsim_job *job, int n,
			  const int *leaf_of);
int tmsim_read_placement(const char *path, const tmsim_job *job, int n,
			 int *leaf_of, tm_error *err);
int tmsim_write_hostfile(FILE *f, int n, const int *leaf_of);

/* place.c: a policy by name (the helper's, "cyclic" or "scotch") */
int tmsim_place(const char *policy, const tmsim_job *job, const tm_matrix *m,
		int *leaf_of, tm_error *err);
const char *tmsim_policies(void);

/* scotch.c: Scotch's mapping, repaired to one rank per core */
int tmsim_place_scotch(const tmsim_job *job, const tm_matrix *m,
		       int *leaf_of, int *moved, tm_error *err);

#endif /* TMSIM_H */
