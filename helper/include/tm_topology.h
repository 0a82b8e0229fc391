/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tm_topology.h - topology trees from hwloc.
 *
 * A topology is named as on the command line:
 *   "this"              the machine we run on
 *   "xml:PATH"          an hwloc XML export (lstopo --of xml)
 *   "synthetic:DESC"    an hwloc synthetic description, e.g.
 *                       "synthetic:pack:2 l2:3 core:2 pu:1"
 *   "tree:A,B,..."      an abstract regular tree: the root has A children,
 *                       each of those B, ...; leaf l is "CPU" l (no hwloc)
 * Every hwloc level that has structure (Group, Package, Die, L3, L2, Core...;
 * NUMA nodes show through the object they hang from) becomes a tree level;
 * levels in which every node has a single child are dropped.  A restriction
 * (hwloc list of OS PU indices, as taskset writes them; or "cores:LIST",
 * logical core indices as Slurm numbers a node's cores) keeps only those
 * PUs and the objects above them, which may make the tree irregular.
 * Logical core indices are those of the whole machine, before restriction.
 */
#ifndef TM_TOPOLOGY_H
#define TM_TOPOLOGY_H

#include "tm_error.h"
#include "tm_tree.h"

typedef enum tm_leaf_kind {
	TM_LEAF_CORE, /* one leaf per core, binding to all its allowed PUs */
	TM_LEAF_PU    /* one leaf per hardware thread */
} tm_leaf_kind;

/* Most leaves a "tree:" spec may have (the product of its arities), checked
 * before anything is built: bounds what a user's spec costs a node. */
enum { TM_TREE_SPEC_MAX_LEAVES = 1 << 20 };

/* restrict_cpus may be NULL (everything).  Errors name the topology spec or
 * the restriction and say what was expected, e.g.
 *   "--restrict 8-15: no such CPUs in topology synthetic:core:4 (0-3)". */
tm_status tm_topology_load(const char *spec, const char *restrict_cpus,
			   tm_leaf_kind leaves, tm_tree **out, tm_error *err);

/* Write a cpu list ("0-3,8,10-11") of n ascending OS indices into buf;
 * returns the length it needed (as snprintf does). */
int tm_cpulist_format(char *buf, int size, const int *cpus, int n);

#endif /* TM_TOPOLOGY_H */
