/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tm_tree.h - the topology tree that ranks are mapped onto.
 *
 * A balanced tree: every leaf is at depth `depth` (the root is at depth 0).
 * Arity may differ between nodes of one level: a node of which Slurm gave a
 * job only some cores yields an irregular tree, and everything must work on
 * it.  Nodes are stored level by level (breadth first); the children of a
 * node are contiguous and in hwloc's left-to-right order, so leaf l is node
 * level_start[depth] + l and leaves are numbered as hwloc numbers cores.
 *
 * Cost model: a pair of ranks on leaves a and b whose lowest common ancestor
 * is at depth d costs level_cost[d] per unit of weight and level_hops[d]
 * hops.  By default the level just above the leaves costs 1 and each level
 * up costs ten times more; level_cost[depth] (same leaf) is 0.
 *
 * This header does not depend on hwloc: tm_topology.h builds trees from it.
 */
#ifndef TM_TREE_H
#define TM_TREE_H

#include "tm_error.h"

/* What a leaf binds a rank to. */
typedef struct tm_leaf {
	int npus;
	int *pus;   /* OS indices of its processing units, ascending */
	int ncores;
	int *cores; /* logical indices of the cores holding them, ascending */
} tm_leaf;

typedef struct tm_tree {
	int depth;          /* leaves are at this depth; 0 = a single leaf */
	int nnodes;
	int *level_start;   /* depth + 2 entries */
	int *parent;        /* per node; -1 for the root */
	int *first_child;   /* per node; -1 for leaves */
	int *arity;         /* per node; 0 for leaves */
	char **level_name;  /* depth + 1 names ("Machine", "Package", "L2", "Core") */
	double *level_cost; /* depth + 1 costs, see above */
	int *level_hops;    /* depth + 1 hop counts, 2 * (depth - d) by default */
	int nleaves;
	tm_leaf *leaf;      /* nleaves entries */
} tm_tree;

/* Build from the parent of every node.  level_size[d] nodes are at depth d
 * (d = 0..depth, level_size[0] = 1); parent[] lists, for nodes 1..N-1 in
 * level order, the index of their parent, which must be in the previous
 * level and non-decreasing (children contiguous); parent[0] is ignored.
 * Every non-leaf node must have a child.  Leaves get empty tm_leaf records
 * (leaf l gets pus = cores = {l} so that abstract trees print sensibly),
 * levels get the names "L0".."Ln" and the default costs.  NULL when out of
 * memory or when the shape is invalid (err says which). */
tm_tree *tm_tree_build(int depth, const int *level_size, const int *parent,
		       tm_error *err);

/* A regular tree: every node at depth d has arity[d] children. */
tm_tree *tm_tree_regular(int depth, const int *arity, tm_error *err);

/* Set level_cost[d] = costs[d] for d = 0..depth-1 (root first); the same
 * leaf stays 0.  Costs must be finite, >= 0 and non-increasing downwards. */
tm_status tm_tree_set_costs(tm_tree *t, const double *costs, int ncosts,
			    tm_error *err);

/* --level-costs SPEC: either one number per level above the leaves, root
 * first ("100,10,1"), or costs by level name, case-insensitive
 * ("numa=100,l3=30,l2=10,core=1"): a name is a level's type as level_name
 * gives it before any "+NUMA" ("machine", "package", "group0", "l3",
 * "l1d", "core", "pu"), a family ("group", "l1"), or "numa" for a level
 * that carries NUMA nodes; the most exact name wins.  The cost of a level
 * is what a pair whose lowest common ancestor is at that level costs.
 * Names of levels this tree does not have (and "network", the levels above
 * the node) are ignored; levels not named get the default rule (ten times
 * the level below, 1 just above the leaves) capped by the nearest named
 * level above.  Errors list the tree's levels. */
tm_status tm_tree_set_level_costs(tm_tree *t, const char *spec,
				  tm_error *err);

/* Whether all nodes of each level have the same arity. */
int tm_tree_is_regular(const tm_tree *t);

/* Whether every node at depth d has exactly one child (a level that
 * tm_tree_prune drops). */
int tm_tree_level_is_single_child(const tm_tree *t, int d);

/* Depth of the lowest common ancestor of two leaves (depth if a == b). */
int tm_tree_lca_depth(const tm_tree *t, int leaf_a, int leaf_b);

/* Number of leaves below node v. */
int tm_tree_leaves_below(const tm_tree *t, int v);

/* The leaves below node v are leaves first .. end - 1 (contiguous). */
void tm_tree_leaf_range(const tm_tree *t, int v, int *first, int *end);

/* --- transformations; each returns a new tree, or NULL (err set) ---- */

/* Drop every level whose nodes all have exactly one child (the root level
 * too, if the root has one child).  Leaf records, names and the costs of the
 * levels kept are carried over; costs are reset to the default when
 * default_costs is set. */
tm_tree *tm_tree_prune(const tm_tree *t, int default_costs, tm_error *err);

/* --cpus-per-task: group the leaves into slots of `per_slot` leaves, each
 * slot inside the smallest subtree that can hold it, and return the tree of
 * slots (leaves are slots; their records list all their PUs and cores).
 * Leaves that cannot complete a slot stay unused.  Error when no slot fits. */
tm_tree *tm_tree_group_leaves(const tm_tree *t, int per_slot, tm_error *err);

/* More ranks than leaves: return a tree one level deeper in which every leaf
 * has floor(n / nleaves) or that plus one "slot" children (the extra ones
 * spread evenly over the subtrees), each slot a copy of its leaf; the level
 * of the old leaves costs 0 and is 0 hops.  n <= nleaves gives a copy. */
tm_tree *tm_tree_oversubscribe(const tm_tree *t, int n, tm_error *err);

/* The tree of the leaves l with keep[l] set (and their ancestors): what a
 * partially allocated node looks like.  Costs and names are carried over;
 * levels left with one child everywhere are not pruned here. */
tm_tree *tm_tree_keep_leaves(const tm_tree *t, const char *keep,
			     tm_error *err);

tm_tree *tm_tree_copy(const tm_tree *t, tm_error *err);
void tm_tree_free(tm_tree *t);

#endif /* TM_TREE_H */
