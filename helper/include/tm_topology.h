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

/* The kinds of CPU of a hybrid processor (hwloc's cpukinds: Intel's
 * performance and efficiency cores, Arm big.LITTLE clusters, AMD's Zen 5c),
 * most powerful first.  hwloc ranks them by efficiency (higher = more
 * powerful); when it could not, they are ranked by Linux's cpu capacity, or
 * else by maximum frequency, when every kind has that value; otherwise
 * `ranked` is 0 and they are treated as equal. */
typedef struct tm_cpu_kind {
	char name[64];  /* CoreType ("IntelCore"), else "capacity 1024",
			   "3900 MHz", or "kind 2" (hwloc's index) */
	int npus;
	int *pus;       /* OS indices, ascending */
} tm_cpu_kind;

typedef struct tm_cpu_kinds {
	int n;          /* 0 when hwloc reports none, 1 when all are alike */
	int ranked;     /* 1: kind[0] is the most powerful */
	tm_cpu_kind *kind;
} tm_cpu_kinds;

/* tm_topology_load, and the machine's CPU kinds (kinds may be NULL; *kinds
 * is set to an empty list for tree: specs). */
tm_status tm_topology_load_kinds(const char *spec, const char *restrict_cpus,
				 tm_leaf_kind leaves, tm_tree **out,
				 tm_cpu_kinds **kinds, tm_error *err);
void tm_cpu_kinds_free(tm_cpu_kinds *k);

/* The kind of a leaf (the kind of its first PU), 0 = most powerful; k->n
 * when its PUs are in no kind. */
int tm_cpu_kinds_of_leaf(const tm_cpu_kinds *k, const tm_leaf *leaf);

/* Fewer ranks than cores on a hybrid node: the tree of the leaves the
 * ranks may use, pruned with the default costs.  When the most powerful
 * kind holds nranks slots of cpus_per_task leaves (tm_tree_group_leaves),
 * all its leaves (*nused = 1, *nlast = -1); otherwise every leaf of the
 * kinds before the first kind that completes the ranks, and as few of that
 * kind's leaves as they need, in the tree's order (*nused = the kinds
 * used, *nlast = the leaves of the last one kept).  When every leaf is
 * needed, or the kinds are not ranked, a copy of t (*nused = k->n, *nlast =
 * -1). */
tm_tree *tm_cpu_kinds_keep_best(const tm_tree *t, const tm_cpu_kinds *k,
				int nranks, int cpus_per_task, int *nused,
				int *nlast, tm_error *err);

/* Write a cpu list ("0-3,8,10-11") of n ascending OS indices into buf;
 * returns the length it needed (as snprintf does). */
int tm_cpulist_format(char *buf, int size, const int *cpus, int n);

#endif /* TM_TOPOLOGY_H */
