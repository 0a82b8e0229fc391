/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_tree.c - shapes, queries and transformations of topology trees
 * (helper/include/tm_tree.h), on abstract trees where leaf l stands for core l.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "tree_check.h"
#include "tm_tree.h"

/* The running example: 2 packages of 3 L2 caches of 2 cores (12 cores);
 * core c is in package c / 6 and in L2 c / 2. */
static const int example_arity[] = { 2, 3, 2 };

static tm_tree *example(void)
{
	return tm_tree_regular(3, example_arity, NULL);
}

/* The invariants every tree must keep, whatever made it; NULL if all hold,
 * else what is broken. */
static const char *broken(const tm_tree *t)
{
	if (t->level_start[0] != 0 || t->level_start[1] != 1 ||
	    t->level_start[t->depth + 1] != t->nnodes)
		return "level_start";
	if (t->nleaves != t->nnodes - t->level_start[t->depth])
		return "nleaves";
	if (t->parent[0] != -1)
		return "root parent";
	for (int d = 0; d <= t->depth; d++)
		for (int v = t->level_start[d]; v < t->level_start[d + 1]; v++) {
			if (d == t->depth) {
				if (t->arity[v] != 0 || t->first_child[v] != -1)
					return "leaf with children";
				continue;
			}
			if (t->arity[v] < 1)
				return "inner node without child";
			for (int i = 0; i < t->arity[v]; i++) {
				int c = t->first_child[v] + i;

				if (c < t->level_start[d + 1] ||
				    c >= t->level_start[d + 2] ||
				    t->parent[c] != v)
					return "child/parent mismatch";
			}
		}
	for (int l = 0; l < t->nleaves; l++)
		for (int i = 1; i < t->leaf[l].npus; i++)
			if (t->leaf[l].pus[i] <= t->leaf[l].pus[i - 1])
				return "leaf PUs not ascending";
	return NULL;
}

static int leaf_is(const tm_leaf *leaf, const int *cores, int n)
{
	if (leaf->ncores != n || leaf->npus != n)
		return 0;
	for (int i = 0; i < n; i++)
		if (leaf->cores[i] != cores[i] || leaf->pus[i] != cores[i])
			return 0;
	return 1;
}

static void test_regular(void)
{
	tm_error err = { 0 };
	tm_tree *t = tm_tree_regular(3, example_arity, &err);
	static const int starts[] = { 0, 1, 3, 9, 21 };
	int same = 1;

	CHECK(t != NULL, "regular 2x3x2 tree builds");
	if (!t)
		return;
	CHECK(broken(t) == NULL, "regular tree is consistent");
	CHECK_INT(t->depth, 3, "regular tree has depth 3");
	CHECK_INT(t->nnodes, 21, "regular tree has 1+2+6+12 nodes");
	CHECK_INT(t->nleaves, 12, "regular tree has 12 leaves");
	for (int d = 0; d < 5; d++)
		same &= t->level_start[d] == starts[d];
	CHECK(same, "levels start at nodes 0, 1, 3, 9 (and end at 21)");
	CHECK_INT(t->parent[5], 1, "node 5 (third L2) is in package node 1");
	CHECK_INT(t->parent[6], 2, "node 6 (fourth L2) is in package node 2");
	CHECK_INT(t->first_child[2], 6, "package node 2 starts at node 6");
	CHECK_INT(t->arity[2], 3, "package node 2 has 3 L2");
	CHECK_INT(t->first_child[20], -1, "a leaf has no child");
	CHECK_STR(t->level_name[0], "L0", "root level is named L0");
	CHECK_STR(t->level_name[3], "L3", "leaf level is named L3");
	CHECK(t->level_cost[0] == 100 && t->level_cost[1] == 10 &&
	      t->level_cost[2] == 1 && t->level_cost[3] == 0,
	      "default costs are 100, 10, 1 and 0 for the same leaf");
	CHECK(t->level_hops[0] == 6 && t->level_hops[1] == 4 &&
	      t->level_hops[2] == 2 && t->level_hops[3] == 0,
	      "default hops are 6, 4, 2 and 0");
	CHECK(leaf_is(&t->leaf[7], (int[]){ 7 }, 1),
	      "abstract leaf 7 binds to PU 7 of core 7");
	CHECK(tm_tree_is_regular(t), "regular tree is regular");
	tm_tree_free(t);

	t = tm_tree_regular(0, NULL, &err);
	CHECK(t && t->nnodes == 1 && t->nleaves == 1 && t->depth == 0,
	      "depth 0 tree is a single leaf");
	CHECK(t && t->level_cost[0] == 0 && t->level_hops[0] == 0,
	      "depth 0 tree costs nothing");
	CHECK(t && tm_tree_lca_depth(t, 0, 0) == 0,
	      "the single leaf is its own ancestor");
	tm_tree_free(t);
}

/* 2 packages, the first with 4 cores, the second with 1 (as Slurm gives
 * a job 5 cores of an 8-core node). */
static tm_tree *lopsided(tm_error *err)
{
	static const int size[] = { 1, 2, 5 };
	static const int parent[] = { -1, 0, 0, 1, 1, 1, 1, 2 };

	return tm_tree_build(2, size, parent, err);
}

static void test_build_irregular(void)
{
	tm_error err = { 0 };
	tm_tree *t = lopsided(&err);

	CHECK(t != NULL, "irregular tree (4 + 1 cores) builds");
	if (!t)
		return;
	CHECK(broken(t) == NULL, "irregular tree is consistent");
	CHECK(has_arities(t, 1, (int[]){ 4, 1 }, 2),
	      "packages have 4 and 1 cores");
	CHECK(!tm_tree_is_regular(t), "irregular tree is not regular");
	CHECK_INT(tm_tree_leaves_below(t, 0), 5, "5 leaves below the root");
	CHECK_INT(tm_tree_leaves_below(t, 1), 4, "4 leaves below package 0");
	CHECK_INT(tm_tree_leaves_below(t, 2), 1, "1 leaf below package 1");
	CHECK_INT(tm_tree_leaves_below(t, 7), 1, "a leaf is 1 leaf");
	CHECK_INT(tm_tree_leaves_below(t, 8), -1, "no node 8");
	CHECK_INT(tm_tree_lca_depth(t, 3, 4), 0,
		  "cores of different packages meet at the root");
	CHECK_INT(tm_tree_lca_depth(t, 0, 3), 1,
		  "cores 0 and 3 share package 0");
	tm_tree_free(t);
}

static void expect_build_error(int depth, const int *size, const int *parent,
			       const char *want, const char *what)
{
	tm_error err = { 0 };
	tm_tree *t = tm_tree_build(depth, size, parent, &err);

	CHECK(t == NULL && err.status == TM_ERR_USAGE, "rejected: %s", what);
	CHECK_STR(err.text, want, "error text for %s", what);
	tm_tree_free(t);
}

static void test_invalid_shapes(void)
{
	tm_error err = { 0 };
	tm_tree *t;

	expect_build_error(-1, (int[]){ 1 }, NULL,
			   "tree: depth -1, expected 0..300", "negative depth");
	expect_build_error(1, (int[]){ 2, 2 }, (int[]){ -1, 0, 0, 0 },
			   "tree: level_size[0] = 2, expected 1 (a single root)",
			   "two roots");
	expect_build_error(2, (int[]){ 1, 3, 2 },
			   (int[]){ -1, 0, 0, 0, 1, 2 },
			   "tree: level_size[2] = 2 is less than level_size[1]"
			   " = 3, expected a child for every node",
			   "a level narrower than the one above");
	expect_build_error(2, (int[]){ 1, 2, 3 },
			   (int[]){ -1, 0, 0, 1, 0, 2 },
			   "tree: parent[4] = 0, expected a node of depth 1 "
			   "(1..2)", "a parent two levels up");
	expect_build_error(2, (int[]){ 1, 2, 3 },
			   (int[]){ -1, 0, 0, 1, 2, 1 },
			   "tree: parent[5] = 1 after parent[4] = 2, expected "
			   "non-decreasing parents (children contiguous)",
			   "children not contiguous");
	expect_build_error(2, (int[]){ 1, 3, 3 },
			   (int[]){ -1, 0, 0, 0, 1, 1, 3 },
			   "tree: node 2 (depth 1) has no child, expected one "
			   "for every node above the leaves",
			   "an inner node without child in the middle");
	expect_build_error(2, (int[]){ 1, 2, 3 },
			   (int[]){ -1, 0, 0, 1, 1, 1 },
			   "tree: node 2 (depth 1) has no child, expected one "
			   "for every node above the leaves",
			   "the last inner node without child");
	expect_build_error(1, (int[]){ 1, 2 }, NULL,
			   "tree: no parents given", "missing parents");

	t = tm_tree_regular(2, (int[]){ 2, 0 }, &err);
	CHECK(t == NULL, "rejected: regular tree with arity 0");
	CHECK_STR(err.text, "tree: arity[1] = 0, expected >= 1",
		  "error text for arity 0");
	t = tm_tree_regular(3, (int[]){ 65536, 65536, 65536 }, &err);
	CHECK(t == NULL, "rejected: 2^48 leaves");
	CHECK_STR(err.text, "tree: more than 2147483646 nodes",
		  "error text for too many nodes");
}

static void test_lca(void)
{
	tm_tree *t = example();
	int symmetric = 1;

	CHECK_INT(tm_tree_lca_depth(t, 4, 4), 3, "a core with itself: depth 3");
	CHECK_INT(tm_tree_lca_depth(t, 0, 1), 2, "cores 0 and 1 share an L2");
	CHECK_INT(tm_tree_lca_depth(t, 1, 2), 1,
		  "cores 1 and 2 share only the package");
	CHECK_INT(tm_tree_lca_depth(t, 0, 5), 1,
		  "cores 0 and 5 share only the package");
	CHECK_INT(tm_tree_lca_depth(t, 5, 6), 0,
		  "cores 5 and 6 are in different packages");
	CHECK_INT(tm_tree_lca_depth(t, 11, 10), 2,
		  "cores 11 and 10 share an L2");
	for (int a = 0; a < 12; a++)
		for (int b = 0; b < 12; b++) {
			int want = a == b ? 3 : a / 2 == b / 2 ? 2
				 : a / 6 == b / 6 ? 1 : 0;

			symmetric &= tm_tree_lca_depth(t, a, b) == want;
		}
	CHECK(symmetric, "every pair of cores meets where expected");
	CHECK_INT(tm_tree_lca_depth(t, -1, 0), -1, "leaf -1 does not exist");
	CHECK_INT(tm_tree_lca_depth(t, 0, 12), -1, "leaf 12 does not exist");
	CHECK_INT(tm_tree_leaves_below(t, 0), 12, "12 cores below the root");
	CHECK_INT(tm_tree_leaves_below(t, 2), 6, "6 cores in package 2");
	CHECK_INT(tm_tree_leaves_below(t, 8), 2, "2 cores below an L2");
	tm_tree_free(t);
}

static void test_costs(void)
{
	tm_tree *t = example();
	tm_error err = { 0 };

	CHECK_INT(tm_tree_set_costs(t, (double[]){ 50, 5, 5 }, 3, &err), TM_OK,
		  "costs 50, 5, 5 are accepted");
	CHECK(t->level_cost[0] == 50 && t->level_cost[1] == 5 &&
	      t->level_cost[2] == 5 && t->level_cost[3] == 0,
	      "costs are set and the same core still costs 0");
	CHECK_INT(tm_tree_set_costs(t, (double[]){ 1, 2 }, 2, &err),
		  TM_ERR_USAGE, "2 costs for 3 levels are rejected");
	CHECK_STR(err.text, "costs: 2 given, expected 3 (one per level above "
		  "the leaves, root first)", "error text for a wrong count");
	CHECK_INT(tm_tree_set_costs(t, (double[]){ 10, 20, 1 }, 3, &err),
		  TM_ERR_USAGE, "costs growing downwards are rejected");
	CHECK_STR(err.text, "costs[1] = 20 is more than costs[0] = 10, "
		  "expected costs that do not grow from the root down",
		  "error text for growing costs");
	CHECK_INT(tm_tree_set_costs(t, (double[]){ 10, -1, -2 }, 3, &err),
		  TM_ERR_VALUE, "negative costs are rejected");
	CHECK_STR(err.text, "costs[1] = -1, expected a finite number >= 0",
		  "error text for a negative cost");
	CHECK_INT(tm_tree_set_costs(t, (double[]){ NAN, 1, 1 }, 3, &err),
		  TM_ERR_VALUE, "NaN costs are rejected");
	CHECK(t->level_cost[0] == 50 && t->level_cost[1] == 5,
	      "rejected costs leave the tree as it was");
	tm_tree_free(t);
}

static void test_prune(void)
{
	tm_error err = { 0 };
	tm_tree *t = tm_tree_regular(4, (int[]){ 2, 1, 3, 1 }, &err);
	tm_tree *p = tm_tree_prune(t, 1, &err);

	CHECK(p && broken(p) == NULL, "pruned tree is consistent");
	if (!p)
		return;
	CHECK_INT(p->depth, 2, "levels with one child per node vanish");
	CHECK(has_arities(p, 0, (int[]){ 2 }, 1) &&
	      has_arities(p, 1, (int[]){ 3, 3 }, 2),
	      "pruned 2x1x3x1 tree is 2x3");
	CHECK(p->level_name[0] && p->level_name[1] && p->level_name[2],
	      "pruned tree has its names");
	CHECK_STR(p->level_name[0], "L0", "root level keeps its name");
	CHECK_STR(p->level_name[1], "L2",
		  "of a node and its only child, the child's level stays");
	CHECK_STR(p->level_name[2], "L4", "leaf level keeps its name");
	CHECK(p->level_cost[0] == 10 && p->level_cost[1] == 1 &&
	      p->level_cost[2] == 0, "default costs are those of depth 2");
	CHECK(leaf_is(&p->leaf[4], (int[]){ 4 }, 1), "leaf records stay");
	tm_tree_free(p);

	p = tm_tree_prune(t, 0, &err);
	CHECK(p && p->level_cost[0] == 1000 && p->level_cost[1] == 10 &&
	      p->level_cost[2] == 0 && p->level_hops[1] == 4,
	      "costs and hops of the levels kept are carried over");
	tm_tree_free(p);
	tm_tree_free(t);

	t = tm_tree_regular(2, (int[]){ 1, 4 }, &err);
	p = tm_tree_prune(t, 1, &err);
	CHECK(p && p->depth == 1 && p->arity[0] == 4,
	      "a root with one child is dropped");
	CHECK(p && strcmp(p->level_name[0], "L1") == 0,
	      "its child becomes the root");
	tm_tree_free(p);
	tm_tree_free(t);

	t = tm_tree_regular(3, (int[]){ 1, 1, 1 }, &err);
	p = tm_tree_prune(t, 1, &err);
	CHECK(p && p->depth == 0 && p->nleaves == 1,
	      "a chain prunes to a single leaf");
	tm_tree_free(p);
	tm_tree_free(t);

	/* Package 0 has 1 L2, package 1 has 2: the L2 level is irregular and
	 * must stay although one of its nodes has a single child. */
	t = tm_tree_build(3, (int[]){ 1, 2, 3, 6 },
			  (int[]){ -1, 0, 0, 1, 2, 2, 3, 3, 4, 4, 5, 5 }, &err);
	p = t ? tm_tree_prune(t, 1, &err) : NULL;
	CHECK(p && p->depth == 3 && p->nnodes == t->nnodes,
	      "a level where some nodes have one child stays");
	tm_tree_free(p);
	tm_tree_free(t);
}

/* Whether every core of slot s is in the same group of `group` cores. */
static int slot_within(const tm_tree *t, int s, int group)
{
	const tm_leaf *leaf = &t->leaf[s];

	for (int i = 0; i < leaf->ncores; i++)
		if (leaf->cores[i] / group != leaf->cores[0] / group)
			return 0;
	return 1;
}

static void test_group_leaves(void)
{
	tm_tree *t = example(), *g;
	tm_error err = { 0 };
	int ok;

	g = tm_tree_group_leaves(t, 2, &err);
	CHECK(g && broken(g) == NULL, "--cpus-per-task 2 gives a tree");
	if (g) {
		CHECK_INT(g->nleaves, 6, "--cpus-per-task 2: 6 slots");
		CHECK(g->depth == 2 && has_arities(g, 0, (int[]){ 2 }, 1) &&
		      has_arities(g, 1, (int[]){ 3, 3 }, 2),
		      "--cpus-per-task 2: slots are the L2s, tree 2x3");
		ok = 1;
		for (int s = 0; s < 6; s++)
			ok &= leaf_is(&g->leaf[s], (int[]){ 2 * s, 2 * s + 1 },
				      2) && slot_within(g, s, 2);
		CHECK(ok, "--cpus-per-task 2: slot s has cores 2s and 2s+1");
		CHECK(g->level_cost[tm_tree_lca_depth(g, 0, 1)] == 10,
		      "--cpus-per-task 2: slots of one package cost as the "
		      "package did");
		CHECK(g->level_cost[tm_tree_lca_depth(g, 0, 0)] == 0,
		      "--cpus-per-task 2: a slot with itself costs 0");
		CHECK_STR(g->level_name[2], "Slot", "slot level is named Slot");
	}
	tm_tree_free(g);

	g = tm_tree_group_leaves(t, 3, &err);
	CHECK(g && broken(g) == NULL, "--cpus-per-task 3 gives a tree");
	if (g) {
		CHECK_INT(g->nleaves, 4, "--cpus-per-task 3: 4 slots");
		CHECK(has_arities(g, 1, (int[]){ 2, 2 }, 2),
		      "--cpus-per-task 3: 2 slots per package");
		ok = 1;
		for (int s = 0; s < 4; s++)
			ok &= leaf_is(&g->leaf[s], (int[]){ 3 * s, 3 * s + 1,
							   3 * s + 2 }, 3) &&
			      slot_within(g, s, 6) && !slot_within(g, s, 2);
		CHECK(ok, "--cpus-per-task 3: each slot is 3 cores of one "
		      "package, across two L2s");
	}
	tm_tree_free(g);

	/* Each package holds one slot of 4 and hands its other 2 cores up;
	 * the root makes a third slot of those 4 (doc/topology.md). */
	g = tm_tree_group_leaves(t, 4, &err);
	CHECK(g && broken(g) == NULL, "--cpus-per-task 4 gives a tree");
	if (g) {
		CHECK_INT(g->nleaves, 3, "--cpus-per-task 4: 3 slots");
		CHECK(g->depth == 1 && g->arity[0] == 3,
		      "--cpus-per-task 4: the slots hang from the root");
		CHECK(leaf_is(&g->leaf[0], (int[]){ 0, 1, 2, 3 }, 4) &&
		      leaf_is(&g->leaf[1], (int[]){ 6, 7, 8, 9 }, 4),
		      "--cpus-per-task 4: one slot in each package first");
		CHECK(leaf_is(&g->leaf[2], (int[]){ 4, 5, 10, 11 }, 4),
		      "--cpus-per-task 4: the 2 cores left in each package "
		      "make the last slot");
		CHECK(g->level_cost[0] == 100,
		      "--cpus-per-task 4: slots meet at the machine's cost");
	}
	tm_tree_free(g);

	g = tm_tree_group_leaves(t, 6, &err);
	CHECK(g && g->nleaves == 2 && slot_within(g, 0, 6) &&
	      slot_within(g, 1, 6) && g->leaf[1].cores[0] == 6,
	      "--cpus-per-task 6: one slot per package");
	tm_tree_free(g);

	g = tm_tree_group_leaves(t, 12, &err);
	CHECK(g && g->depth == 0 && g->nleaves == 1 && g->leaf[0].ncores == 12,
	      "--cpus-per-task 12: one slot of all cores, depth 0");
	tm_tree_free(g);

	g = tm_tree_group_leaves(t, 1, &err);
	CHECK(g && g->depth == 3 && g->nnodes == 21 &&
	      leaf_is(&g->leaf[11], (int[]){ 11 }, 1) &&
	      strcmp(g->level_name[3], "L3") == 0,
	      "--cpus-per-task 1 keeps the tree");
	tm_tree_free(g);

	g = tm_tree_group_leaves(t, 13, &err);
	CHECK(g == NULL && err.status == TM_ERR_TOPOLOGY,
	      "--cpus-per-task 13 fails on 12 cores");
	CHECK_STR(err.text, "--cpus-per-task 13: no 13 CPUs available "
		  "(12 leaves)", "error text for --cpus-per-task 13");
	g = tm_tree_group_leaves(t, 0, &err);
	CHECK(g == NULL, "--cpus-per-task 0 fails");
	CHECK_STR(err.text, "--cpus-per-task 0: expected a number >= 1",
		  "error text for --cpus-per-task 0");
	tm_tree_free(t);

	/* 4 + 1 cores, slots of 2: two in package 0, the lone core unused. */
	t = lopsided(&err);
	g = tm_tree_group_leaves(t, 2, &err);
	CHECK(g && broken(g) == NULL && g->nleaves == 2 &&
	      leaf_is(&g->leaf[0], (int[]){ 0, 1 }, 2) &&
	      leaf_is(&g->leaf[1], (int[]){ 2, 3 }, 2),
	      "irregular tree: slots of 2 from the package of 4, core 4 unused");
	tm_tree_free(g);
	g = tm_tree_group_leaves(t, 5, &err);
	CHECK(g && g->nleaves == 1 && g->leaf[0].ncores == 5,
	      "irregular tree: one slot of 5 across both packages");
	tm_tree_free(g);
	tm_tree_free(t);
}

/* How many rank slots each old leaf got. */
static void slots_per_leaf(const tm_tree *o, int *count, int nold)
{
	int first_old = o->level_start[o->depth - 1];

	memset(count, 0, (size_t)nold * sizeof(int));
	for (int l = 0; l < o->nleaves; l++)
		count[o->parent[o->level_start[o->depth] + l] - first_old]++;
}

static int sum_range(const int *v, int from, int to)
{
	int s = 0;

	for (int i = from; i < to; i++)
		s += v[i];
	return s;
}

static void test_oversubscribe(void)
{
	tm_tree *t = example(), *o;
	tm_error err = { 0 };
	int count[12], ok;

	o = tm_tree_oversubscribe(t, 13, &err);
	CHECK(o && broken(o) == NULL, "13 ranks on 12 cores give a tree");
	if (o) {
		CHECK_INT(o->depth, 4, "oversubscribed tree is one level deeper");
		CHECK_INT(o->nleaves, 13, "13 rank slots");
		slots_per_leaf(o, count, 12);
		CHECK(count[0] == 2 && sum_range(count, 1, 12) == 11,
		      "13 ranks: core 0 takes 2, the others 1");
		CHECK(o->level_cost[3] == 0 && o->level_hops[3] == 0,
		      "two ranks on one core cost 0 and 0 hops");
		CHECK(o->level_cost[tm_tree_lca_depth(o, 0, 1)] == 0,
		      "the two ranks of core 0 cost 0");
		CHECK(o->level_cost[0] == 100 && o->level_cost[1] == 10 &&
		      o->level_cost[2] == 1 && o->level_hops[1] == 4,
		      "costs above the cores are kept");
		CHECK(leaf_is(&o->leaf[1], (int[]){ 0 }, 1) &&
		      leaf_is(&o->leaf[12], (int[]){ 11 }, 1),
		      "rank slots bind to their core");
	}
	tm_tree_free(o);

	o = tm_tree_oversubscribe(t, 14, &err);
	if (o)
		slots_per_leaf(o, count, 12);
	CHECK(o && sum_range(count, 0, 6) == 7 && sum_range(count, 6, 12) == 7,
	      "14 ranks: 7 per package");
	tm_tree_free(o);

	o = tm_tree_oversubscribe(t, 18, &err);
	ok = o != NULL;
	if (o) {
		slots_per_leaf(o, count, 12);
		for (int l2 = 0; l2 < 6; l2++)
			ok &= sum_range(count, 2 * l2, 2 * l2 + 2) == 3;
	}
	CHECK(ok, "18 ranks: 3 per L2");
	tm_tree_free(o);

	o = tm_tree_oversubscribe(t, 30, &err);
	ok = o != NULL;
	if (o) {
		slots_per_leaf(o, count, 12);
		for (int c = 0; c < 12; c++)
			ok &= count[c] == 2 || count[c] == 3;
		ok &= sum_range(count, 0, 6) == 15;
	}
	CHECK(ok, "30 ranks: 2 or 3 per core, 15 per package");
	tm_tree_free(o);

	o = tm_tree_oversubscribe(t, 12, &err);
	CHECK(o && o->depth == 3 && o->nleaves == 12,
	      "12 ranks on 12 cores: the same tree");
	tm_tree_free(o);
	tm_tree_free(t);

	/* 4 + 1 cores, 7 ranks: the 2 extra ranks go where the cores are. */
	t = lopsided(&err);
	o = tm_tree_oversubscribe(t, 7, &err);
	if (o)
		slots_per_leaf(o, count, 5);
	CHECK(o && sum_range(count, 0, 4) == 6 && count[4] == 1,
	      "irregular tree: 6 ranks on the package of 4, 1 on the other");
	tm_tree_free(o);
	tm_tree_free(t);
}

static int same_tree(const tm_tree *a, const tm_tree *b)
{
	if (a->depth != b->depth || a->nnodes != b->nnodes ||
	    a->nleaves != b->nleaves)
		return 0;
	for (int v = 0; v < a->nnodes; v++)
		if (a->parent[v] != b->parent[v] || a->arity[v] != b->arity[v] ||
		    a->first_child[v] != b->first_child[v])
			return 0;
	for (int d = 0; d <= a->depth; d++)
		if (strcmp(a->level_name[d], b->level_name[d]) != 0 ||
		    a->level_cost[d] != b->level_cost[d] ||
		    a->level_hops[d] != b->level_hops[d])
			return 0;
	for (int l = 0; l < a->nleaves; l++)
		if (a->leaf[l].npus != b->leaf[l].npus ||
		    a->leaf[l].pus[0] != b->leaf[l].pus[0])
			return 0;
	return 1;
}

static void test_copy(void)
{
	tm_tree *t = example(), *c;
	tm_error err = { 0 };

	tm_tree_set_costs(t, (double[]){ 7, 3, 2 }, 3, &err);
	c = tm_tree_copy(t, &err);
	CHECK(c && same_tree(t, c), "a copy equals its original");
	tm_tree_free(t);
	CHECK(c && c->leaf[3].pus[0] == 3 && c->level_cost[0] == 7,
	      "a copy outlives its original");
	tm_tree_free(c);
	tm_tree_free(NULL);
}

/* 65,536 cores (16 x 16 x 16 x 16): the size the algorithms must handle. */
static void test_large(void)
{
	tm_tree *t = tm_tree_regular(4, (int[]){ 16, 16, 16, 16 }, NULL);
	tm_tree *g = t ? tm_tree_group_leaves(t, 4, NULL) : NULL;
	tm_tree *o = t ? tm_tree_oversubscribe(t, 100000, NULL) : NULL;

	CHECK(t && t->nleaves == 65536 && broken(t) == NULL,
	      "a tree of 65536 leaves builds");
	CHECK(t && tm_tree_lca_depth(t, 0, 65535) == 0 &&
	      tm_tree_lca_depth(t, 4096, 8191) == 1 &&
	      tm_tree_lca_depth(t, 65534, 65535) == 3,
	      "lca_depth on 65536 leaves");
	CHECK(g && g->nleaves == 16384 && g->depth == 4 &&
	      g->arity[g->level_start[3]] == 4,
	      "65536 leaves group into 16384 slots of 4, 4 per group of 16");
	CHECK(o && o->nleaves == 100000 && broken(o) == NULL,
	      "100000 ranks on 65536 leaves");
	tm_tree_free(t);
	tm_tree_free(g);
	tm_tree_free(o);
}

int main(void)
{
	test_regular();
	test_build_irregular();
	test_invalid_shapes();
	test_lca();
	test_costs();
	test_prune();
	test_group_leaves();
	test_oversubscribe();
	test_copy();
	test_large();
	return check_status();
}
