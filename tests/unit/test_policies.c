/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_policies.c - the other placement policies of the papers behind the project (doc/policies.md):
 * setmatch, hierarchical (with the Hungarian method) and spread, and the
 * --previous reader, on inputs whose answer the papers or the rules give.
 */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fixtures.h"

#include "tm_cost.h"
#include "tm_map.h"
#include "tm_matrix.h"
#include "tm_topology.h"
#include "tm_tree.h"
#include "place/policy.h"
#include "place/hierarchical/hierarchical.h"

/* ------------------------------------------------------------------ */
/* helpers                                                             */

/* A matrix from (i, j, w) triples, terminated by i < 0. */
static tm_matrix *pairs(int n, const double *triples)
{
	int count = 0;
	while (triples[3 * count] >= 0)
		count++;
	int *i = malloc(sizeof(int) * (size_t)count + 1);
	int *j = malloc(sizeof(int) * (size_t)count + 1);
	double *w = malloc(sizeof(double) * (size_t)count + 1);
	tm_matrix *m = NULL;

	for (int k = 0; k < count; k++) {
		i[k] = (int)triples[3 * k];
		j[k] = (int)triples[3 * k + 1];
		w[k] = triples[3 * k + 2];
	}
	tm_matrix_from_entries(n, (size_t)count, i, j, w, &m, NULL);
	free(i);
	free(j);
	free(w);
	return m;
}

static tm_tree *regular(int depth, const int *arity)
{
	return tm_tree_regular(depth, arity, NULL);
}

static tm_tree *topology(const char *spec)
{
	tm_tree *t = NULL;
	tm_error err = { 0 };

	if (tm_topology_load(spec, NULL, TM_LEAF_CORE, &t, &err) != TM_OK)
		printf("# %s: %s\n", spec, err.text);
	return t;
}

/* The node at depth d above a leaf. */
static int ancestor(const tm_tree *t, int leaf, int d)
{
	int v = t->level_start[t->depth] + leaf;

	for (int x = t->depth; x > d; x--)
		v = t->parent[v];
	return v - t->level_start[d];
}

/* "a,b|c,d": the ranks under each node of depth d, in node order. */
static void groups_at(const tm_tree *t, const int *leaf_of, int n, int d,
		      char *buf, size_t size)
{
	int nodes = t->level_start[d + 1] - t->level_start[d];
	size_t len = 0;

	buf[0] = '\0';
	for (int v = 0; v < nodes; v++) {
		int first = 1;
		if (v > 0)
			len += (size_t)snprintf(buf + len, size - len, "|");
		/* ranks in leaf order */
		for (int l = 0; l < t->nleaves; l++)
			for (int r = 0; r < n; r++)
				if (leaf_of[r] == l && ancestor(t, l, d) == v) {
					len += (size_t)snprintf(buf + len, size - len,
							       "%s%d", first ? "" : ",", r);
					first = 0;
				}
	}
}

/* Deterministic pseudo-random numbers (a fixed LCG). */
static uint64_t lcg_state = 12345;
static double lcg(void)
{
	lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(lcg_state >> 11) / 9007199254740992.0;
}

/* Table I of Cruz Valdivia, Tamo Turpo and Espinel Quispe's report. */

static void format_ints(const int *v, int n, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int k = 0; k < n; k++)
		len += (size_t)snprintf(buf + len, size - len, "%s%d", k ? " " : "",
				       v[k]);
}

/* ------------------------------------------------------------------ */
/* names                                                               */

static void test_names(void)
{
	tm_algorithm a;

	for (int k = 0; k < TM_ALGO_COUNT; k++) {
		const char *name = tm_algorithm_name((tm_algorithm)k);
		CHECK(tm_algorithm_parse(name, &a) == 0 && a == (tm_algorithm)k,
		      "--algorithm %s is understood", name);
		CHECK(strstr(tm_algorithm_choices(), name) != NULL,
		      "the list of algorithms in messages names %s", name);
	}
	CHECK(tm_algorithm_parse("setmatch", &a) == 0 && a == TM_ALGO_SETMATCH &&
	      tm_algorithm_parse("hierarchical", &a) == 0 &&
	      a == TM_ALGO_HIERARCHICAL &&
	      tm_algorithm_parse("spread", &a) == 0 && a == TM_ALGO_SPREAD,
	      "setmatch, hierarchical and spread are algorithm names");
	CHECK(tm_algorithm_parse("Spread", &a) < 0 &&
	      tm_algorithm_parse("", &a) < 0, "names are exact");
}

/* ------------------------------------------------------------------ */
/* the Hungarian method                                                */

static double assignment_cost(int n, const double *cost, const int *col_of)
{
	double sum = 0;
	for (int i = 0; i < n; i++)
		sum += cost[i * n + col_of[i]];
	return sum;
}

/* Smallest cost over all permutations (n <= 8). */
static double brute_force(int n, const double *cost, int *perm, int k,
			  char *used)
{
	if (k == n)
		return assignment_cost(n, cost, perm);
	double best = INFINITY;
	for (int c = 0; c < n; c++) {
		if (used[c])
			continue;
		used[c] = 1;
		perm[k] = c;
		double v = brute_force(n, cost, perm, k + 1, used);
		if (v < best)
			best = v;
		used[c] = 0;
	}
	return best;
}

static void test_hungarian(void)
{
	static const double three[9] = { 4, 1, 3, 2, 0, 5, 3, 2, 2 };
	int col_of[8], perm[8];
	char used[8];

	CHECK(tm__hungarian(3, three, col_of, NULL) == TM_OK &&
	      assignment_cost(3, three, col_of) == 5,
	      "3x3 assignment: the cheapest total is 5 (1 + 2 + 2)");
	int worst = 0;
	for (int trial = 0; trial < 200; trial++) {
		int n = 1 + trial % 8;
		double cost[64];
		for (int k = 0; k < n * n; k++)
			cost[k] = trial % 3 ? floor(lcg() * 10) : lcg() * 1e6 - 5e5;
		memset(used, 0, sizeof(used));
		double best = brute_force(n, cost, perm, 0, used);
		if (tm__hungarian(n, cost, col_of, NULL) != TM_OK ||
		    fabs(assignment_cost(n, cost, col_of) - best) > 1e-6 * (1 + fabs(best)))
			worst++;
		char seen[8] = { 0 };
		for (int i = 0; i < n; i++) {
			if (col_of[i] < 0 || col_of[i] >= n || seen[col_of[i]])
				worst++;
			else
				seen[col_of[i]] = 1;
		}
	}
	CHECK_INT(worst, 0, "200 random matrices up to 8x8 (with ties, negative "
		  "costs): the assignment is a permutation of the cheapest total");
}

/* ------------------------------------------------------------------ */
/* hierarchical                                                        */

static void test_hierarchical_paper(void)
{
	int members[8], order[8], leaf_of[8];
	double agg[16], top[4];
	char text[128];

	CHECK(tm__hier_group(paper003_table1, 8, 2, members, NULL) == TM_OK,
	      "Table I: the first matching runs");
	format_ints(members, 8, text, sizeof(text));
	CHECK_STR(text, "0 6 1 7 2 5 3 4",
		  "Table I: the pairs are (0,6) (1,7) (2,5) (3,4)");
	tm__hier_aggregate(paper003_table1, 8, members, 2, agg);
	CHECK(agg[0 * 4 + 1] == 646 && agg[0 * 4 + 2] == 72 &&
	      agg[0 * 4 + 3] == 65 && agg[1 * 4 + 2] == 69 &&
	      agg[1 * 4 + 3] == 66 && agg[2 * 4 + 3] == 744,
	      "Table II: the aggregated matrix has 646, 72, 65, 69, 66, 744");
	int symmetric = 1;
	for (int a = 0; a < 4; a++) {
		symmetric &= agg[a * 4 + a] == 0;
		for (int b = 0; b < 4; b++)
			symmetric &= agg[a * 4 + b] == agg[b * 4 + a];
	}
	CHECK(symmetric, "Table II: symmetric, 0 on the diagonal");
	int pairs2[4];
	CHECK(tm__hier_group(agg, 4, 2, pairs2, NULL) == TM_OK &&
	      pairs2[0] == 0 && pairs2[1] == 1 && pairs2[2] == 2 &&
	      pairs2[3] == 3,
	      "Table II: the second matching pairs (0,1) and (2,3), that is "
	      "(0,6,1,7) and (2,5,3,4)");
	tm__hier_aggregate(agg, 4, pairs2, 2, top);
	CHECK(top[1] == 272 && top[2] == 272,
	      "the 2x2 matrix after the second iteration holds 272");

	tm_matrix *m = dense_matrix(8, paper003_table1);
	int arity[3] = { 2, 2, 2 };
	CHECK(tm__hier_order(m, 3, arity, order, NULL) == TM_OK,
	      "Table I on a binary tree of 3 levels: the order is computed");
	format_ints(order, 8, text, sizeof(text));
	CHECK_STR(text, "0 6 1 7 2 5 3 4",
		  "Table I: the new arrangement is (0, 6, 1, 7, 2, 5, 3, 4)");
	tm_tree *t = regular(3, arity);
	CHECK(tm_map(TM_ALGO_HIERARCHICAL, t, m, leaf_of, NULL) == TM_OK &&
	      leaf_of[0] == 0 && leaf_of[6] == 1 && leaf_of[1] == 2 &&
	      leaf_of[7] == 3 && leaf_of[2] == 4 && leaf_of[5] == 5 &&
	      leaf_of[3] == 6 && leaf_of[4] == 7,
	      "--algorithm hierarchical puts rank order[p] on leaf p");
	tm_tree_free(t);
	tm_matrix_free(m);
}

/* Two cliques of `size` units among 2 * size, interleaved: even units
 * with even, odd with odd; one light edge between them. */
static double *two_cliques(int size)
{
	int u = 2 * size;
	double *w = calloc((size_t)(u * u), sizeof(double));

	for (int a = 0; a < u; a++)
		for (int b = 0; b < u; b++)
			if (a != b && a % 2 == b % 2)
				w[a * u + b] = 100 + a + b;
	w[0 * u + 1] = w[1 * u + 0] = 1;
	return w;
}

static void test_hierarchical_arity(void)
{
	int members[12];
	char text[128];

	/* odd cycles: two triangles, one light edge between them */
	double tri[36] = { 0 };
	for (int a = 0; a < 6; a++)
		for (int b = 0; b < 6; b++)
			if (a != b && a / 3 == b / 3)
				tri[a * 6 + b] = 10;
	tri[0 * 6 + 3] = tri[3 * 6 + 0] = 1;
	CHECK(tm__hier_group(tri, 6, 2, members, NULL) == TM_OK,
	      "two triangles: pairing runs");
	format_ints(members, 6, text, sizeof(text));
	CHECK_STR(text, "0 3 1 2 4 5",
		  "two triangles: the assignment's two 3-cycles are cut into "
		  "(1,2) and (4,5), and the members left out pair up: (0,3)");

	for (int k = 3; k <= 6; k++) {
		double *w = two_cliques(k);
		char want[64];
		size_t len = 0;

		CHECK(tm__hier_group(w, 2 * k, k, members, NULL) == TM_OK,
		      "groups of %d: runs", k);
		format_ints(members, 2 * k, text, sizeof(text));
		for (int x = 0; x < 2 * k; x += 2)
			len += (size_t)snprintf(want + len, sizeof(want) - len,
					       "%s%d", x ? " " : "", x);
		for (int x = 1; x < 2 * k; x += 2)
			len += (size_t)snprintf(want + len, sizeof(want) - len,
					       " %d", x);
		CHECK_STR(text, want, "groups of %d (k = %s): the even units "
			  "together, the odd ones together", k,
			  k == 3 ? "3, one odd round" : k == 4 ?
			  "2 x 2, two pairing rounds" : k == 5 ?
			  "5, one odd round" : "2 x 3, a pairing and an odd round");
		free(w);
	}
	/* a chain: the cores (0,1) and (2,3) alone would give {0,1,5} and
	 * {2,3,4}; swapping units between the groups repairs it */
	double chain[36] = { 0 };
	for (int a = 0; a + 1 < 6; a++)
		chain[a * 6 + a + 1] = chain[(a + 1) * 6 + a] = 10;
	CHECK(tm__hier_group(chain, 6, 3, members, NULL) == TM_OK,
	      "a chain of 6 in groups of 3: runs");
	format_ints(members, 6, text, sizeof(text));
	CHECK_STR(text, "0 1 2 3 4 5", "a chain of 6 in groups of 3: {0,1,2} "
		  "and {3,4,5}, one edge cut");

	double zeros[4] = { 0 };
	CHECK(tm__hier_group(zeros, 2, 3, members, NULL) == TM_ERR_USAGE,
	      "2 units do not make groups of 3: a usage error");
}

static void test_hierarchical_trees(void)
{
	int leaf_of[16];
	char text[256];

	/* 5 ranks on 8 leaves (does not divide): two heavy pairs */
	double five[] = { 0, 4, 1000, 1, 3, 900, 2, 4, 5, -1 };
	tm_matrix *m = pairs(5, five);
	int arity[3] = { 2, 2, 2 };
	tm_tree *t = regular(3, arity);
	CHECK(tm_map(TM_ALGO_HIERARCHICAL, t, m, leaf_of, NULL) == TM_OK &&
	      valid_placement(t, leaf_of, 5),
	      "5 ranks on tree:2,2,2: padded with dummies, a valid placement");
	CHECK(ancestor(t, leaf_of[0], 2) == ancestor(t, leaf_of[4], 2) &&
	      ancestor(t, leaf_of[1], 2) == ancestor(t, leaf_of[3], 2),
	      "... the heavy pairs 0-4 and 1-3 each share a leaf pair");
	tm_tree_free(t);

	/* tree:3,3: arity 3 at both levels, 9 leaves, triangles */
	double tri[] = { 0, 4, 50, 4, 8, 50, 0, 8, 50, 1, 3, 50, 3, 5, 50,
			 1, 5, 50, 2, 6, 50, 6, 7, 50, 2, 7, 50, 0, 1, 1, -1 };
	tm_matrix_free(m);
	m = pairs(9, tri);
	int a33[2] = { 3, 3 };
	t = regular(2, a33);
	CHECK(tm_map(TM_ALGO_HIERARCHICAL, t, m, leaf_of, NULL) == TM_OK &&
	      valid_placement(t, leaf_of, 9), "tree:3,3: a valid placement");
	groups_at(t, leaf_of, 9, 1, text, sizeof(text));
	CHECK_STR(text, "0,4,8|1,3,5|2,6,7",
		  "tree:3,3: the three triangles fill the three nodes");
	tm_tree_free(t);

	/* an irregular tree: tree:2,4 with leaves 0-3 and 4-5 only */
	char keep[8] = { 1, 1, 1, 1, 1, 1, 0, 0 };
	int a24[2] = { 2, 4 };
	tm_tree *full = regular(2, a24);
	t = tm_tree_keep_leaves(full, keep, NULL);
	double six[] = { 0, 5, 100, 1, 4, 100, 2, 3, 100, -1 };
	tm_matrix_free(m);
	m = pairs(6, six);
	CHECK(t && !tm_tree_is_regular(t) &&
	      tm_map(TM_ALGO_HIERARCHICAL, t, m, leaf_of, NULL) == TM_OK &&
	      valid_placement(t, leaf_of, 6),
	      "an irregular tree (4 + 2 leaves): a valid placement");
	CHECK(ancestor(t, leaf_of[0], 1) == ancestor(t, leaf_of[5], 1) &&
	      ancestor(t, leaf_of[1], 1) == ancestor(t, leaf_of[4], 1) &&
	      ancestor(t, leaf_of[2], 1) == ancestor(t, leaf_of[3], 1),
	      "... every heavy pair shares a node (ranks moved off missing "
	      "leaves go to the nearest free one)");
	tm_tree_free(t);

	/* more ranks than leaves: oversubscribed tree:2,2 with 6 ranks */
	int a22[2] = { 2, 2 };
	tm_tree_free(full);
	full = regular(2, a22);
	t = tm_tree_oversubscribe(full, 6, NULL);
	CHECK(t && tm_map(TM_ALGO_HIERARCHICAL, t, m, leaf_of, NULL) == TM_OK &&
	      valid_placement(t, leaf_of, 6),
	      "6 ranks on 4 cores (oversubscribed, irregular): a valid placement");
	tm_tree_free(t);
	tm_tree_free(full);

	/* single leaf */
	tm_matrix_free(m);
	double none[] = { -1 };
	m = pairs(1, none);
	t = regular(0, NULL);
	CHECK(tm_map(TM_ALGO_HIERARCHICAL, t, m, leaf_of, NULL) == TM_OK &&
	      leaf_of[0] == 0, "one rank on a one-leaf tree");
	tm_tree_free(t);
	tm_matrix_free(m);

	/* deterministic, and as good as TreeMatch where pairs are obvious */
	int big_arity[3] = { 4, 4, 4 };
	t = regular(3, big_arity);
	double *w = calloc(64 * 64, sizeof(double));
	for (int a = 0; a < 64; a++)
		for (int b = 0; b < 64; b++)
			if (a != b)
				w[a * 64 + b] = floor(lcg() * 10);
	m = dense_matrix(64, w);
	int first[64], again[64];
	CHECK(tm_map(TM_ALGO_HIERARCHICAL, t, m, first, NULL) == TM_OK &&
	      tm_map(TM_ALGO_HIERARCHICAL, t, m, again, NULL) == TM_OK &&
	      memcmp(first, again, sizeof(first)) == 0 &&
	      valid_placement(t, first, 64),
	      "a random dense 64x64 matrix on tree:4,4,4: the same valid "
	      "placement twice");
	int packed[64];
	tm_map(TM_ALGO_PACKED, t, m, packed, NULL);
	CHECK(tm_cost_tree(t, m, first) <= tm_cost_tree(t, m, packed),
	      "... no dearer than packed");
	free(w);
	tm_matrix_free(m);
	tm_tree_free(t);
}

/* ------------------------------------------------------------------ */
/* setmatch                                                            */

static void test_setmatch_sets(void)
{
	int set_of[8];
	char text[64];

	/* 0-1 and 2-1 significant, 0-2 not there: sets {0,1} and {2,1}
	 * interleave (share 1) and merge; 3-4 significant; 5 alone (its
	 * only weight, to 4, is insignificant) */
	double g[] = { 0, 1, 100, 2, 1, 50, 3, 4, 80, 4, 5, 9.99, -1 };
	tm_matrix *m = pairs(6, g);
	int nsets = tm__setmatch_sets(m, 10, set_of);
	format_ints(set_of, 6, text, sizeof(text));
	CHECK(nsets == 3, "three sets at 10%%");
	CHECK_STR(text, "0 0 0 1 1 2", "interleaved sets {0,1} and {1,2} merge; "
		  "{3,4}; a weight of 9.99%% of the largest is not significant");
	nsets = tm__setmatch_sets(m, 9.99, set_of);
	format_ints(set_of, 6, text, sizeof(text));
	CHECK(nsets == 2, "at 9.99%%, a weight of exactly 9.99%% is significant: "
	      "two sets");
	CHECK_STR(text, "0 0 0 1 1 1", "... 5 joins 3 and 4");
	nsets = tm__setmatch_sets(m, 0, set_of);
	CHECK(nsets == 2, "threshold 0: every non-zero weight counts");
	nsets = tm__setmatch_sets(m, 100, set_of);
	format_ints(set_of, 6, text, sizeof(text));
	CHECK(nsets == 5, "threshold 100: only the largest weight makes a set");
	CHECK_STR(text, "0 0 1 2 3 4", "... {0,1} and four singletons");
	tm_matrix_free(m);

	/* a rank seen only as another seed's member: a chain 0-2-1-3 where
	 * seed 0 takes 2 and seed 1 takes 2 and 3: one set */
	double chain[] = { 0, 2, 10, 1, 2, 10, 1, 3, 10, -1 };
	m = pairs(4, chain);
	nsets = tm__setmatch_sets(m, 10, set_of);
	CHECK(nsets == 1, "a chain 0-2-1-3: seeds 0 and 1 share 2, one set");
	tm_matrix_free(m);
}

static void test_setmatch_place(void)
{
	int leaf_of[16];
	char text[128];
	tm_error err = { 0 };
	int a24[2] = { 2, 4 };
	tm_tree *t = regular(2, a24);

	/* sets of 3, 3 and 2 on two subtrees of 4: the two 3s go one to
	 * each, the 2 is fragmented over the room left */
	double g[] = { 0, 1, 50, 1, 2, 50, 3, 4, 60, 4, 5, 60, 6, 7, 70, -1 };
	tm_matrix *m = pairs(8, g);
	tm_map_options opt = TM_MAP_OPTIONS_DEFAULT;
	CHECK(tm_map_with(TM_ALGO_SETMATCH, &opt, t, m, leaf_of, NULL) == TM_OK &&
	      valid_placement(t, leaf_of, 8), "sets 3+3+2 on 2x4: valid");
	groups_at(t, leaf_of, 8, 1, text, sizeof(text));
	CHECK_STR(text, "0,1,2,6|3,4,5,7",
		  "largest set first to the roomiest subtree (ties: the first), "
		  "the pair {6,7} fragmented over the one leaf left in each");
	tm_matrix_free(m);
	tm_tree_free(t);

	/* one chain of 6 on two subtrees of 3: fragmented along its order */
	int a23[2] = { 2, 3 };
	t = regular(2, a23);
	double chain[] = { 0, 5, 10, 5, 1, 10, 1, 4, 10, 4, 2, 10, 2, 3, 10, -1 };
	m = pairs(6, chain);
	CHECK(tm_map(TM_ALGO_SETMATCH, t, m, leaf_of, NULL) == TM_OK,
	      "a chain 0-5-1-4-2-3 on 2x3 runs");
	groups_at(t, leaf_of, 6, 1, text, sizeof(text));
	CHECK_STR(text, "0,5,1|4,2,3",
		  "a set larger than any subtree is fragmented along its growth "
		  "order, from its smallest rank: 0 5 1 | 4 2 3");
	tm_matrix_free(m);
	tm_tree_free(t);

	/* the aggregator-aware cap: 8 ranks that all talk, 2 x 8 cores */
	int a28[2] = { 2, 8 };
	t = regular(2, a28);
	double *w = calloc(64, sizeof(double));
	for (int a = 0; a < 8; a++)
		for (int b = 0; b < 8; b++)
			w[a * 8 + b] = a != b ? 10 : 0;
	m = dense_matrix(8, w);
	CHECK(tm_map(TM_ALGO_SETMATCH, t, m, leaf_of, NULL) == TM_OK,
	      "one set of 8 on 2 x 8 runs");
	groups_at(t, leaf_of, 8, 1, text, sizeof(text));
	CHECK_STR(text, "0,1,2,3,4,5,6,7|", "without a cap the set fits in the "
		  "first subtree");
	opt.set_cap = 4;
	CHECK(tm_map_with(TM_ALGO_SETMATCH, &opt, t, m, leaf_of, NULL) == TM_OK &&
	      valid_placement(t, leaf_of, 8), "--set-cap 4: valid");
	groups_at(t, leaf_of, 8, 1, text, sizeof(text));
	CHECK_STR(text, "0,1,2,3|4,5,6,7", "--set-cap 4: 4 ranks per subtree, "
		  "8 cores left for the aggregators");
	CHECK(leaf_of[0] == 0 && leaf_of[3] == 3 && leaf_of[4] == 8 &&
	      leaf_of[7] == 11, "... on the first 4 cores of each subtree");
	opt.set_cap = 3;
	CHECK(tm_map_with(TM_ALGO_SETMATCH, &opt, t, m, leaf_of, &err) ==
	      TM_ERR_USAGE, "--set-cap 3 for 8 ranks on 2 subtrees: an error");
	CHECK_STR(err.text, "setmatch: set cap 3: the 2 top-level subtrees hold "
		  "only 6 of the 8 ranks", "... which says why");
	opt.set_cap = 0;
	opt.threshold = 101;
	CHECK(tm_map_with(TM_ALGO_SETMATCH, &opt, t, m, leaf_of, &err) ==
	      TM_ERR_USAGE, "threshold 101%%: an error");
	free(w);
	tm_matrix_free(m);
	tm_tree_free(t);

	/* 12 ranks, 2 x 8 cores, cap 6: more cores than ranks */
	t = regular(2, a28);
	double twelve[] = { 0, 1, 5, 2, 3, 5, 4, 5, 5, 6, 7, 5, 8, 9, 5,
			    10, 11, 5, -1 };
	m = pairs(12, twelve);
	opt = (tm_map_options)TM_MAP_OPTIONS_DEFAULT;
	opt.set_cap = 6;
	CHECK(tm_map_with(TM_ALGO_SETMATCH, &opt, t, m, leaf_of, NULL) == TM_OK &&
	      valid_placement(t, leaf_of, 12),
	      "12 ranks on 2 x 8 with --set-cap 6: valid");
	int per[2] = { 0, 0 };
	for (int r = 0; r < 12; r++)
		per[ancestor(t, leaf_of[r], 1)]++;
	int together = 1;
	for (int r = 0; r < 12; r += 2)
		together &= ancestor(t, leaf_of[r], 1) == ancestor(t, leaf_of[r + 1], 1);
	CHECK(per[0] == 6 && per[1] == 6 && together,
	      "... 6 ranks per subtree, each pair in one");
	tm_matrix_free(m);
	tm_tree_free(t);
}

/* ------------------------------------------------------------------ */
/* spread                                                              */

static void test_spread(void)
{
	int leaf_of[16], previous[16];
	char text[128];

	tm_tree *t = topology("synthetic:pack:2 numa:2 core:2 pu:1");
	CHECK(t && tm__numa_depth(t) == 2,
	      "pack:2 numa:2 core:2: the NUMA level is the one named +NUMA "
	      "(depth 2, below the packages)");
	/* 4 pairs, heaviest first: one per NUMA node, in order */
	double four[] = { 0, 1, 10, 2, 3, 40, 4, 5, 30, 6, 7, 20, -1 };
	tm_matrix *m = pairs(8, four);
	CHECK(t && tm_map(TM_ALGO_SPREAD, t, m, leaf_of, NULL) == TM_OK &&
	      valid_placement(t, leaf_of, 8), "4 pairs on 4 NUMA nodes: valid");
	if (t)
		groups_at(t, leaf_of, 8, 2, text, sizeof(text));
	CHECK_STR(text, "2,3|4,5|6,7|0,1", "the heaviest pair on the first NUMA "
		  "node, each next pair on the next, round-robin");
	tm_matrix_free(m);
	tm_tree_free(t);

	int a24[2] = { 2, 4 };
	t = regular(2, a24);
	CHECK(tm__numa_depth(t) == 1, "tree:2,4 has no NUMA level: the top-level "
	      "subtrees stand for the NUMA nodes");
	/* (0,1) -> N0, (2,3) -> N1; (0,4): 0 is placed, 4 joins it on N0
	 * (1 core left); (5,6): N0 has one free core: skipped, N1 takes
	 * them; 7 never communicates: round-robin from N0 */
	double rules[] = { 0, 1, 100, 2, 3, 90, 0, 4, 80, 5, 6, 70, -1 };
	m = pairs(8, rules);
	CHECK(tm_map(TM_ALGO_SPREAD, t, m, leaf_of, NULL) == TM_OK &&
	      valid_placement(t, leaf_of, 8), "the rules' case: valid");
	groups_at(t, leaf_of, 8, 1, text, sizeof(text));
	CHECK_STR(text, "0,1,4,7|2,3,5,6",
		  "a rank already placed keeps its partner with it (4 joins 0); "
		  "a NUMA node with one free core is skipped for a pair (5,6); "
		  "a rank that never communicates (7) goes round-robin");
	CHECK(leaf_of[0] == 0 && leaf_of[1] == 1 && leaf_of[4] == 2 &&
	      leaf_of[7] == 3, "inside a NUMA node, ranks take the leaves "
	      "left to right as they arrive");
	tm_matrix_free(m);

	/* no NUMA node with two free cores: the pair is split */
	int a23[2] = { 2, 3 };
	tm_tree_free(t);
	t = regular(2, a23);
	double split[] = { 0, 1, 100, 2, 3, 90, 4, 5, 80, -1 };
	m = pairs(6, split);
	CHECK(tm_map(TM_ALGO_SPREAD, t, m, leaf_of, NULL) == TM_OK &&
	      valid_placement(t, leaf_of, 6), "3 pairs on 2 x 3: valid");
	groups_at(t, leaf_of, 6, 1, text, sizeof(text));
	CHECK_STR(text, "0,1,4|2,3,5", "when no NUMA node has two free cores, "
		  "the pair is split over the next ones with room");
	tm_matrix_free(m);

	/* the partner's NUMA node is full: the next one with room */
	double full[] = { 0, 1, 100, 0, 2, 90, 0, 3, 80, -1 };
	m = pairs(4, full);
	CHECK(tm_map(TM_ALGO_SPREAD, t, m, leaf_of, NULL) == TM_OK,
	      "a star 0-1, 0-2, 0-3 on 2 x 3 runs");
	groups_at(t, leaf_of, 4, 1, text, sizeof(text));
	CHECK_STR(text, "0,1,2|3", "a partner whose rank's NUMA node is full "
		  "goes round-robin");
	tm_matrix_free(m);

	/* previous placement: the pairs come back where they were */
	double re[] = { 0, 1, 100, 2, 3, 90, 4, 5, 80, -1 };
	m = pairs(6, re);
	for (int r = 0; r < 6; r++)
		previous[r] = -1;
	previous[2] = 0;  /* 2 and 3 were on N0 */
	previous[3] = 2;
	previous[0] = 4;  /* 0 and 1 on N1 */
	previous[1] = 5;
	tm_map_options opt = TM_MAP_OPTIONS_DEFAULT;
	opt.previous = previous;
	CHECK(tm_map_with(TM_ALGO_SPREAD, &opt, t, m, leaf_of, NULL) == TM_OK &&
	      valid_placement(t, leaf_of, 6), "with a previous placement: valid");
	CHECK(leaf_of[0] == 4 && leaf_of[1] == 5 && leaf_of[2] == 0 &&
	      leaf_of[3] == 2, "pairs whose NUMA nodes have room stay on "
	      "their previous cores");
	CHECK(leaf_of[4] != 0 && leaf_of[4] != 2 && leaf_of[5] != 4 &&
	      leaf_of[5] != 5, "... and the ranks that had no place do not "
	      "take them");
	/* the same again with the placement it gave: nothing moves */
	int again[6];
	opt.previous = leaf_of;
	CHECK(tm_map_with(TM_ALGO_SPREAD, &opt, t, m, again, NULL) == TM_OK &&
	      memcmp(again, leaf_of, sizeof(again)) == 0,
	      "re-mapping with its own result as the previous placement moves "
	      "no rank");
	/* a pair whose previous NUMA node has no room left moves: 4 and 5
	 * were both on N0, but heavier new pairs took N0 and N1 first */
	for (int r = 0; r < 6; r++)
		previous[r] = -1;
	previous[4] = 0;
	previous[5] = 1;
	opt.previous = previous;
	CHECK(tm_map_with(TM_ALGO_SPREAD, &opt, t, m, leaf_of, NULL) == TM_OK &&
	      valid_placement(t, leaf_of, 6), "a previous NUMA node now full: "
	      "valid");
	groups_at(t, leaf_of, 6, 1, text, sizeof(text));
	CHECK_STR(text, "1,4,0|2,3,5", "a pair whose previous NUMA node has "
		  "one free core left is placed as a new pair (here split); "
		  "new rank 0 took the leaf nobody had before (leaf 2)");
	tm_matrix_free(m);
	tm_tree_free(t);
}

/* ------------------------------------------------------------------ */
/* --previous                                                          */

static char tmpdir[64];

static const char *write_file(const char *name, const char *text)
{
	static char path[160];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return path;
}

static void check_previous_error(const tm_tree *t, const char *name,
				 const char *text, const char *want)
{
	int ranks[4] = { 0, 1, 2, 3 }, previous[4];
	tm_error err = { 0 };
	char expected[512];
	const char *path = write_file(name, text);

	snprintf(expected, sizeof(expected), want, path);
	CHECK(tm_previous_load(path, t, 4, ranks, 4, previous, &err) != TM_OK,
	      "--previous %s is refused", name);
	CHECK_STR(err.text, expected, "... with one line naming the file, the "
		  "place and what was expected");
}

static void test_previous(void)
{
	int a22[2] = { 2, 2 };
	tm_tree *t = regular(2, a22);
	int ranks[4] = { 2, 0, 1, 3 }, previous[4];
	tm_error err = { 0 };

	snprintf(tmpdir, sizeof(tmpdir), "%s", "/tmp/tm-policies.XXXXXX");
	if (!mkdtemp(tmpdir)) {
		CHECK(0, "a scratch directory");
		return;
	}
	const char *good = write_file("good.json",
		"{\"algorithm\":\"spread\",\"size\":4,\"cpus\":\"0-3\","
		"\"placement\":[{\"rank\":0,\"cpus\":\"3\",\"cores\":[3]},"
		"{\"rank\":1,\"cpus\":\"2\",\"cores\":[2]},"
		"{\"rank\":2,\"cpus\":\"0-1\",\"cores\":[0]},"
		"{\"rank\":3,\"cpus\":\"7\",\"cores\":[7]}]}\n");
	CHECK(tm_previous_load(good, t, 4, ranks, 4, previous, &err) == TM_OK,
	      "a placement as the helper prints it loads");
	CHECK(previous[0] == 0 && previous[1] == 3 && previous[2] == 2 &&
	      previous[3] == -1,
	      "each placed rank finds its leaf by its CPUs (in --ranks order); "
	      "CPUs 0-1 fall back to the leaf of CPU 0; CPU 7 is not here: "
	      "no previous place");

	char path[160];
	snprintf(path, sizeof(path), "%s/none.json", tmpdir);
	CHECK(tm_previous_load(path, t, 4, ranks, 4, previous, &err) == TM_ERR_IO,
	      "a missing file is an I/O error");
	char want[256];
	snprintf(want, sizeof(want), "%s: cannot open: No such file or directory",
		 path);
	CHECK_STR(err.text, want, "... which names it");
	check_previous_error(t, "syntax.json", "{\"placement\": [}\n",
			     "%s:1:16: invalid JSON: unexpected token near '}'");
	check_previous_error(t, "array.json", "[]\n", "%s: top level: expected "
			     "an object as treematch-helper map prints it");
	check_previous_error(t, "no-placement.json", "{\"size\": 4}\n",
			     "%s: \"placement\": expected an array of {\"rank\": "
			     "R, \"cpus\": LIST} as treematch-helper map prints "
			     "it, got nothing");
	check_previous_error(t, "size.json", "{\"size\": 8, \"placement\": []}\n",
			     "%s: \"size\": expected 4 (the matrix's size), got 8");
	check_previous_error(t, "rank.json",
			     "{\"placement\": [{\"rank\": 0, \"cpus\": \"0\"}, "
			     "{\"rank\": 4, \"cpus\": \"1\"}]}\n",
			     "%s: placement[1].rank: expected a rank from 0 to 3 "
			     "(the matrix's size is 4), got 4");
	check_previous_error(t, "twice.json",
			     "{\"placement\": [{\"rank\": 1, \"cpus\": \"0\"}, "
			     "{\"rank\": 1, \"cpus\": \"1\"}]}\n",
			     "%s: placement[1].rank: rank 1 is already at "
			     "placement[0]");
	check_previous_error(t, "cpus.json",
			     "{\"placement\": [{\"rank\": 1, \"cpus\": \"3-1\"}]}\n",
			     "%s: placement[0].cpus: expected a CPU list such as "
			     "\"0-3,8\", got \"3-1\"");
	check_previous_error(t, "item.json", "{\"placement\": [3]}\n",
			     "%s: placement[0]: expected {\"rank\": R, \"cpus\": "
			     "LIST}, got 3");
	check_previous_error(t, "elsewhere.json",
			     "{\"placement\": [{\"rank\": 1, \"cpus\": \"40\"}]}\n",
			     "%s: none of its 1 ranks placed now is on CPUs of "
			     "this topology (another node's placement?)");
	/* ranks 0-3 placed now, the file has only rank 5 of 8 */
	const char *other = write_file("other.json",
		"{\"placement\": [{\"rank\": 5, \"cpus\": \"1\"}]}\n");
	CHECK(tm_previous_load(other, t, 8, ranks, 4, previous, &err) == TM_ERR_SIZE,
	      "a file that lists none of the ranks placed now is refused");
	const char *empty = write_file("empty.json", "{\"placement\": []}\n");
	CHECK(tm_previous_load(empty, t, 4, ranks, 4, previous, &err) == TM_OK &&
	      previous[0] == -1 && previous[3] == -1,
	      "an empty previous placement: nobody had a place");
	tm_tree_free(t);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmpdir);
}

int main(void)
{
	test_names();
	test_hungarian();
	test_hierarchical_paper();
	test_hierarchical_arity();
	test_hierarchical_trees();
	test_setmatch_sets();
	test_setmatch_place();
	test_spread();
	test_previous();
	return check_status();
}
