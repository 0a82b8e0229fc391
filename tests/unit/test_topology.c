/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_topology.c - trees from hwloc topologies (helper/include/tm_topology.h):
 * synthetic descriptions, the XML fixtures of tests/data, restrictions,
 * the machine we run on, and every error text.
 *
 * Fixtures are found through $top_srcdir, which the test harness exports.
 */
#include <config.h>

#include <stdlib.h>

#include "check.h"
#include "tree_check.h"
#include "tm_topology.h"

static tm_tree *load(const char *spec, const char *cpus, tm_leaf_kind kind)
{
	tm_tree *t = NULL;
	tm_error err = { 0 };

	if (tm_topology_load(spec, cpus, kind, &t, &err) != TM_OK)
		printf("#   %s: %s\n", spec, err.text);
	return t;
}

static const char *fixture(const char *name, char *buf, size_t size)
{
	const char *top = getenv("top_srcdir");

	snprintf(buf, size, "xml:%s/tests/data/%s", top ? top : ".", name);
	return buf;
}

static int same_list(const int *got, int ngot, const int *want, int nwant)
{
	if (ngot != nwant)
		return 0;
	for (int i = 0; i < ngot; i++)
		if (got[i] != want[i])
			return 0;
	return 1;
}

/* Leaf l binds to PUs pus[] of cores cores[]. */
static int leaf_is(const tm_tree *t, int l, const int *pus, int npus,
		   const int *cores, int ncores)
{
	return l < t->nleaves &&
	       same_list(t->leaf[l].pus, t->leaf[l].npus, pus, npus) &&
	       same_list(t->leaf[l].cores, t->leaf[l].ncores, cores, ncores);
}

static int level_names_are(const tm_tree *t, const char *const *names)
{
	for (int d = 0; d <= t->depth; d++)
		if (strcmp(t->level_name[d], names[d]) != 0) {
			printf("#   level %d is %s, want %s\n", d,
			       t->level_name[d], names[d]);
			return 0;
		}
	return 1;
}

/* Same shape, names, costs and leaf records. */
static int same_tree(const tm_tree *a, const tm_tree *b)
{
	if (a->depth != b->depth || a->nnodes != b->nnodes)
		return 0;
	for (int v = 0; v < a->nnodes; v++)
		if (a->parent[v] != b->parent[v] || a->arity[v] != b->arity[v])
			return 0;
	for (int d = 0; d <= a->depth; d++)
		if (strcmp(a->level_name[d], b->level_name[d]) != 0 ||
		    a->level_cost[d] != b->level_cost[d] ||
		    a->level_hops[d] != b->level_hops[d])
			return 0;
	for (int l = 0; l < a->nleaves; l++)
		if (!leaf_is(b, l, a->leaf[l].pus, a->leaf[l].npus,
			     a->leaf[l].cores, a->leaf[l].ncores))
			return 0;
	return 1;
}

static void test_synthetic(void)
{
	tm_tree *t = load("synthetic:pack:2 l2:3 core:2 pu:1", NULL,
			  TM_LEAF_CORE);
	int ok;

	CHECK(t != NULL, "pack:2 l2:3 core:2 pu:1 loads");
	if (!t)
		return;
	CHECK_INT(t->depth, 3, "pack:2 l2:3 core:2: depth 3");
	CHECK(has_arities(t, 0, (int[]){ 2 }, 1) &&
	      has_arities(t, 1, (int[]){ 3, 3 }, 2) &&
	      has_arities(t, 2, (int[]){ 2, 2, 2, 2, 2, 2 }, 6),
	      "pack:2 l2:3 core:2: arities 2, 3, 2");
	CHECK(level_names_are(t, (const char *[]){ "Machine+NUMA", "Package",
						   "L2", "Core" }),
	      "levels are Machine+NUMA, Package, L2, Core");
	ok = 1;
	for (int l = 0; l < 12; l++)
		ok &= leaf_is(t, l, (int[]){ l }, 1, (int[]){ l }, 1);
	CHECK(ok, "core l binds to PU l");
	CHECK(t->level_cost[0] == 100 && t->level_cost[2] == 1 &&
	      t->level_cost[3] == 0, "default costs 100, 10, 1, 0");
	tm_tree_free(t);

	t = load("synthetic:pack:2 l2:3 core:2 pu:2", NULL, TM_LEAF_CORE);
	CHECK(t && t->depth == 3 && t->nleaves == 12 &&
	      leaf_is(t, 1, (int[]){ 2, 3 }, 2, (int[]){ 1 }, 1),
	      "with 2 PUs per core, core 1 binds to PUs 2 and 3");
	tm_tree_free(t);

	t = load("synthetic:pack:2 l2:3 core:2 pu:2", NULL, TM_LEAF_PU);
	CHECK(t && t->depth == 4 && t->nleaves == 24,
	      "--bind pu: one level deeper, 24 leaves");
	CHECK(t && has_arities(t, 3, (int[]){ 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
					     2, 2 }, 12) &&
	      strcmp(t->level_name[3], "Core") == 0 &&
	      strcmp(t->level_name[4], "PU") == 0,
	      "--bind pu: cores have 2 PU leaves");
	CHECK(t && leaf_is(t, 3, (int[]){ 3 }, 1, (int[]){ 1 }, 1),
	      "--bind pu: leaf 3 is PU 3 of core 1");
	tm_tree_free(t);

	t = load("synthetic:pack:1 l3:1 l2:4 core:1 pu:2", NULL, TM_LEAF_CORE);
	CHECK(t && t->depth == 1 && t->nleaves == 4 && t->arity[0] == 4,
	      "pack:1 l3:1 l2:4 core:1 pu:2 prunes to 4 leaves in 1 level");
	CHECK(t && level_names_are(t, (const char *[]){ "L3+NUMA", "Core" }),
	      "the L3 stands for the machine, its package and NUMA node");
	CHECK(t && leaf_is(t, 2, (int[]){ 4, 5 }, 2, (int[]){ 2 }, 1),
	      "core 2 binds to PUs 4 and 5");
	CHECK(t && t->level_cost[0] == 1 && t->level_hops[0] == 2,
	      "default costs of the pruned depth");
	tm_tree_free(t);

	t = load("synthetic:core:4", NULL, TM_LEAF_CORE);
	CHECK(t && t->nleaves == 4 && t->depth == 1,
	      "synthetic:core:4 means 4 cores of one PU");
	tm_tree_free(t);
}

static void test_restriction(void)
{
	tm_tree *t = load("synthetic:pack:2 core:4 pu:1", "0-4", TM_LEAF_CORE);
	int ok;

	CHECK(t && t->depth == 2 && t->nleaves == 5,
	      "--restrict 0-4 keeps 5 cores in 2 packages");
	CHECK(t && has_arities(t, 1, (int[]){ 4, 1 }, 2) &&
	      !tm_tree_is_regular(t),
	      "--restrict 0-4: packages of 4 and 1 cores (irregular)");
	CHECK(t && leaf_is(t, 4, (int[]){ 4 }, 1, (int[]){ 4 }, 1),
	      "--restrict 0-4: the last leaf is core 4 of package 1");
	tm_tree_free(t);

	t = load("synthetic:pack:2 core:4 pu:1", "4-7", TM_LEAF_CORE);
	ok = t && t->nleaves == 4 && t->depth == 1;
	for (int l = 0; ok && l < 4; l++)
		ok &= leaf_is(t, l, (int[]){ 4 + l }, 1, (int[]){ 4 + l }, 1);
	CHECK(ok, "--restrict 4-7 keeps cores 4..7 (not renumbered 0..3)");
	CHECK(t && strcmp(t->level_name[0], "Package+NUMA") == 0,
	      "--restrict 4-7: the root is the second package");
	tm_tree_free(t);

	t = load("synthetic:pack:1 core:2 pu:2", "0-2", TM_LEAF_CORE);
	CHECK(t && t->nleaves == 2 &&
	      leaf_is(t, 0, (int[]){ 0, 1 }, 2, (int[]){ 0 }, 1) &&
	      leaf_is(t, 1, (int[]){ 2 }, 1, (int[]){ 1 }, 1),
	      "--restrict 0-2: core 1 binds only to its allowed PU 2");
	tm_tree_free(t);

	t = load("synthetic:pack:1 core:2 pu:2", "1,3", TM_LEAF_PU);
	CHECK(t && t->nleaves == 2 &&
	      leaf_is(t, 0, (int[]){ 1 }, 1, (int[]){ 0 }, 1) &&
	      leaf_is(t, 1, (int[]){ 3 }, 1, (int[]){ 1 }, 1),
	      "--restrict 1,3 --bind pu: PUs 1 and 3 of cores 0 and 1");
	tm_tree_free(t);
}

static void test_xml(void)
{
	char path[4096];
	tm_tree *x, *s;
	int ok;

	x = load(fixture("topo-2pack-16core-smt2.xml", path, sizeof(path)),
		 NULL, TM_LEAF_CORE);
	s = load("synthetic:pack:2 [numa] l3:1 l2:4 core:2 "
		 "pu:2(indexes=2*16:1*2)", NULL, TM_LEAF_CORE);
	CHECK(x != NULL, "the 2-socket 16-core XML fixture loads");
	CHECK(x && s && same_tree(x, s),
	      "2-socket XML gives the tree of its synthetic description");
	CHECK(x && x->depth == 3 &&
	      has_arities(x, 0, (int[]){ 2 }, 1) &&
	      has_arities(x, 1, (int[]){ 4, 4 }, 2) &&
	      level_names_are(x, (const char *[]){ "Machine", "L3+NUMA", "L2",
						   "Core" }),
	      "2-socket XML: 2 L3+NUMA of 4 L2 of 2 cores");
	CHECK(x && leaf_is(x, 0, (int[]){ 0, 16 }, 2, (int[]){ 0 }, 1) &&
	      leaf_is(x, 15, (int[]){ 15, 31 }, 2, (int[]){ 15 }, 1),
	      "2-socket XML: core 0 has PUs 0 and 16, core 15 PUs 15, 31");
	tm_tree_free(x);
	tm_tree_free(s);

	x = load(path, "16-31", TM_LEAF_CORE);
	ok = x && x->nleaves == 16;
	for (int l = 0; ok && l < 16; l++)
		ok &= leaf_is(x, l, (int[]){ 16 + l }, 1, (int[]){ l }, 1);
	CHECK(ok, "--restrict 16-31: the second PU of each of the 16 cores");
	tm_tree_free(x);

	x = load(path, "0-7", TM_LEAF_PU);
	CHECK(x && x->depth == 2 && x->nleaves == 8 &&
	      strcmp(x->level_name[0], "L3+NUMA") == 0 &&
	      leaf_is(x, 7, (int[]){ 7 }, 1, (int[]){ 7 }, 1),
	      "--restrict 0-7 --bind pu: one PU of cores 0..7, package 0");
	tm_tree_free(x);

	x = load(fixture("topo-2pack-4numa-16core-smt2.xml", path,
			 sizeof(path)), NULL, TM_LEAF_CORE);
	s = load("synthetic:pack:2 numa:2 l3:2 core:2 pu:2", NULL,
		 TM_LEAF_CORE);
	CHECK(x != NULL, "the 4-NUMA XML fixture loads");
	CHECK(x && s && same_tree(x, s),
	      "4-NUMA XML gives the tree of its synthetic description");
	CHECK(x && x->depth == 4 && x->nleaves == 16 &&
	      level_names_are(x, (const char *[]){ "Machine", "Package",
						   "Group0+NUMA", "L3",
						   "Core" }),
	      "4-NUMA XML: 2 packages of 2 NUMA groups of 2 L3 of 2 cores");
	tm_tree_free(x);
	tm_tree_free(s);

	/* As in a cgroup: PUs 0-3 exist but this process may not use them. */
	x = load(fixture("topo-2pack-8core-allowed-4-7.xml", path,
			 sizeof(path)), NULL, TM_LEAF_CORE);
	ok = x && x->nleaves == 4;
	for (int l = 0; ok && l < 4; l++)
		ok &= leaf_is(x, l, (int[]){ 4 + l }, 1, (int[]){ 4 + l }, 1);
	CHECK(ok, "disallowed PUs 0-3 are left out, cores keep indices 4..7");
	tm_tree_free(x);
	x = load(path, "3-5", TM_LEAF_CORE);
	CHECK(x && x->nleaves == 2 &&
	      leaf_is(x, 0, (int[]){ 4 }, 1, (int[]){ 4 }, 1),
	      "--restrict 3-5 on PUs 4-7: cores 4 and 5");
	tm_tree_free(x);
}

static void test_this(void)
{
	tm_tree *t = load("this", NULL, TM_LEAF_CORE);
	int ok = t && t->nleaves >= 1;

	for (int l = 0; ok && l < t->nleaves; l++)
		ok &= t->leaf[l].npus >= 1 && t->leaf[l].ncores == 1;
	CHECK(ok, "this machine loads; each core has PUs");
	tm_tree_free(t);
	t = load("this", NULL, TM_LEAF_PU);
	ok = t && t->nleaves >= 1;
	for (int l = 0; ok && l < t->nleaves; l++)
		ok &= t->leaf[l].npus == 1 && t->leaf[l].ncores == 1;
	CHECK(ok, "this machine with --bind pu: one PU per leaf");
	tm_tree_free(t);
}

static void expect_error(const char *spec, const char *cpus, tm_status status,
			 const char *want)
{
	static tm_tree stale;
	tm_tree *t = &stale; /* a failed load must set it to NULL */
	tm_error err = { 0 };
	tm_status got = tm_topology_load(spec, cpus, TM_LEAF_CORE, &t, &err);

	CHECK(got == status && t == NULL, "%s%s%s fails", spec,
	      cpus ? " --restrict " : "", cpus ? cpus : "");
	CHECK_STR(err.text, want, "error text for %s", want);
}

static void test_errors(void)
{
	char path[4096], want[4200];
	tm_tree *t;
	tm_error err = { 0 };

	expect_error("synthetic:foo", NULL, TM_ERR_TOPOLOGY,
		     "synthetic:foo: invalid hwloc synthetic description");
	expect_error("xml:/nope.xml", NULL, TM_ERR_IO,
		     "xml:/nope.xml: cannot load: No such file or directory");
	fixture("make-topology-fixtures.sh", path, sizeof(path));
	snprintf(want, sizeof(want),
		 "%s: cannot load: not an hwloc XML topology", path);
	expect_error(path, NULL, TM_ERR_TOPOLOGY, want);
	expect_error("what", NULL, TM_ERR_USAGE,
		     "what: expected this, xml:PATH, synthetic:DESCRIPTION or tree:ARITIES");
	expect_error("synthetic:core:4", "8-15", TM_ERR_TOPOLOGY,
		     "--restrict 8-15: no such CPUs in topology "
		     "synthetic:core:4 (0-3)");
	expect_error("synthetic:core:4", "2-5", TM_ERR_TOPOLOGY,
		     "--restrict 2-5: CPUs 4-5 are not in topology "
		     "synthetic:core:4 (0-3)");
	expect_error("synthetic:core:4", "0-x", TM_ERR_USAGE,
		     "--restrict 0-x: expected a CPU list such as 0-3,8");
	expect_error("synthetic:core:4", "", TM_ERR_USAGE,
		     "--restrict : expected a CPU list such as 0-3,8");
	expect_error("synthetic:core:4", "2-", TM_ERR_USAGE,
		     "--restrict 2-: expected a CPU list such as 0-3,8");
	fixture("topo-2pack-8core-allowed-4-7.xml", path, sizeof(path));
	snprintf(want, sizeof(want), "--restrict 0-3: none of these CPUs is "
		 "available to this process in topology %s (available CPUs: 4-7)",
		 path);
	expect_error(path, "0-3", TM_ERR_TOPOLOGY, want);

	/* --cpus-per-task counts what the leaves are. */
	t = load("synthetic:core:4", NULL, TM_LEAF_CORE);
	CHECK(t && tm_tree_group_leaves(t, 5, &err) == NULL,
	      "--cpus-per-task 5 on 4 cores fails");
	CHECK_STR(err.text, "--cpus-per-task 5: no 5 CPUs available (4 cores)",
		  "error text for --cpus-per-task 5 on 4 cores");
	tm_tree_free(t);
	t = load("synthetic:core:2 pu:2", NULL, TM_LEAF_PU);
	CHECK(t && tm_tree_group_leaves(t, 5, &err) == NULL,
	      "--cpus-per-task 5 on 4 PUs fails");
	CHECK_STR(err.text, "--cpus-per-task 5: no 5 CPUs available (4 PUs)",
		  "error text for --cpus-per-task 5 on 4 PUs");
	tm_tree_free(t);
}

static void test_cpulist(void)
{
	char buf[64];
	int n;

	n = tm_cpulist_format(buf, sizeof(buf), (int[]){ 0, 1, 2, 3, 8, 10, 11 },
			      7);
	CHECK_STR(buf, "0-3,8,10-11", "cpu list 0-3,8,10-11");
	CHECK_INT(n, 11, "cpu list 0-3,8,10-11 has 11 characters");
	tm_cpulist_format(buf, sizeof(buf), (int[]){ 5 }, 1);
	CHECK_STR(buf, "5", "cpu list of one CPU");
	tm_cpulist_format(buf, sizeof(buf), NULL, 0);
	CHECK_STR(buf, "", "empty cpu list");
	tm_cpulist_format(buf, sizeof(buf), (int[]){ 0, 16, 17, 31 }, 4);
	CHECK_STR(buf, "0,16-17,31", "cpu list 0,16-17,31");
	n = tm_cpulist_format(buf, 4, (int[]){ 0, 1, 2, 3, 8, 10, 11 }, 7);
	CHECK(n == 11 && strcmp(buf, "0-3") == 0,
	      "a short buffer gets what fits and the length needed");
	n = tm_cpulist_format(NULL, 0, (int[]){ 0, 1, 2, 3, 8, 10, 11 }, 7);
	CHECK_INT(n, 11, "size 0 only measures");
}

int main(void)
{
	test_synthetic();
	test_restriction();
	test_xml();
	test_this();
	test_errors();
	test_cpulist();
	return check_status();
}
