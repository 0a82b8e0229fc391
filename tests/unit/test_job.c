/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_job.c - job-wide placement (tm_job.h): Slurm's host lists and task
 * counts, switch trees from `scontrol show topology` and topology.conf
 * text, the job's tree and its costs, block and cyclic, what crosses nodes
 * and switches, and placements that keep heavy pairs on one node and
 * groups under one switch.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "job/job_internal.h"
#include "tm_cost.h"
#include "tm_job.h"

/* The names of a host list joined by spaces, or "error: TEXT". */
static const char *expand(const char *text, int max)
{
	static char buf[4096];
	char **names;
	int n, len = 0;
	tm_error err = { 0 };

	if (tm_hostlist_expand("--nodes", text, max, &names, &n, &err)) {
		snprintf(buf, sizeof(buf), "error: %s", err.text);
		return buf;
	}
	buf[0] = '\0';
	for (int k = 0; k < n; k++)
		len += snprintf(buf + len, sizeof(buf) - (size_t)len, "%s%s",
				k ? " " : "", names[k]);
	tm_hostlist_free(names, n);
	return buf;
}

static const char *counts(const char *text, int max)
{
	static char buf[1024];
	int *c, n, len = 0;
	tm_error err = { 0 };

	if (tm_tasks_per_node_parse("--tasks-per-node", text, max, &c, &n,
				    &err)) {
		snprintf(buf, sizeof(buf), "error: %s", err.text);
		return buf;
	}
	buf[0] = '\0';
	for (int k = 0; k < n; k++)
		len += snprintf(buf + len, sizeof(buf) - (size_t)len, "%s%d",
				k ? "," : "", c[k]);
	free(c);
	return buf;
}

static int starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void test_hostlists(void)
{
	CHECK_STR(expand("n[1-4,7],gpu[01-02],login", 100),
		  "n1 n2 n3 n4 n7 gpu01 gpu02 login", "ranges, padding, lists");
	CHECK_STR(expand("n[8-10]", 100), "n8 n9 n10",
		  "a range past a power of ten is not padded");
	CHECK_STR(expand("n[098-100]", 100), "n098 n099 n100",
		  "zero padding keeps the width written");
	CHECK_STR(expand("r[1-2]n[3-4]", 100), "r1n3 r1n4 r2n3 r2n4",
		  "two brackets multiply out, the last fastest");
	CHECK_STR(expand("a.b-c_d", 100), "a.b-c_d", "a plain name");
	CHECK_STR(expand("n[1-4", 100),
		  "error: --nodes \"n[1-4\": position 6: expected ',' or ']'",
		  "an open bracket: the error names the text and position");
	CHECK(starts_with(expand("n[4-1]", 100),
			  "error: --nodes \"n[4-1]\": position 5: expected the end"),
	      "a range that goes down is refused at its end");
	CHECK(starts_with(expand("n[]", 100), "error: --nodes \"n[]\": position 3"),
	      "an empty bracket is refused");
	CHECK(starts_with(expand("a,,b", 100), "error: --nodes \"a,,b\": position 3: "
			  "expected a host name"), "an empty name is refused");
	CHECK(starts_with(expand("a,", 100), "error:"), "a trailing comma is refused");
	CHECK(starts_with(expand("", 100), "error: --nodes: empty"),
	      "an empty list is refused");
	CHECK(starts_with(expand("n 1", 100), "error: --nodes \"n 1\": position 2"),
	      "a blank inside the list is refused");
	CHECK(starts_with(expand("n[1-3]", 2), "error:"),
	      "more names than the caller's bound are refused");
	CHECK(starts_with(expand("n[0001234567890-2]", 100), "error:"),
	      "numbers of more than 9 digits are refused");

	clock_t t0 = clock();
	const char *huge = expand("n[0-999999999]x[0-999999999]", TM_JOB_MAX_NODES);
	double spent = (double)(clock() - t0) / CLOCKS_PER_SEC;
	CHECK(starts_with(huge, "error: --nodes \"n[0-999999999]x[0-999999999]\": "
			  "position 2: expected fewer names"),
	      "a huge range is refused with its position");
	CHECK(spent < 0.05, "... before anything is allocated (%.3f s)", spent);
}

static void test_counts(void)
{
	CHECK_STR(counts("2(x3),1", 16), "2,2,2,1", "2(x3),1 expands");
	CHECK_STR(counts("2,2,2,1", 16), "2,2,2,1", "a plain list");
	CHECK_STR(counts("16", 16), "16", "one node");
	CHECK(starts_with(counts("2(x3", 16), "error: --tasks-per-node \"2(x3\": "
			  "position 5: expected ')'"), "an open parenthesis");
	CHECK(starts_with(counts("0,1", 16), "error: --tasks-per-node \"0,1\": "
			  "position 1"), "a node without tasks is refused");
	CHECK(starts_with(counts("2(3)", 16), "error:"), "2(3) is refused");
	CHECK(starts_with(counts("2(x100000000)", 16), "error:"),
	      "a repeat above the bound is refused");
	CHECK(starts_with(counts("1,1,1", 2), "error:"),
	      "more counts than nodes are refused");
	CHECK(starts_with(counts("99999999999", 16), "error:"),
	      "a count beyond any job is refused");
	CHECK(starts_with(counts("1,", 16), "error:"), "a trailing comma");
	CHECK(starts_with(counts("", 16), "error: --tasks-per-node: empty"),
	      "an empty text");
}

/* The network for `nodes` (a host list) from `text`. */
static tm_tree *net_of(const char *text, const char *hostlist, int **order,
		       char ***nodes, int *n, tm_error *err)
{
	tm_tree *t = NULL;

	if (tm_hostlist_expand("nodes", hostlist, 1000, nodes, n, err))
		return NULL;
	tm_switch_tree_parse("topo", text, text ? strlen(text) : 0, *nodes, *n,
			     &t, order, err);
	return t;
}

static int leaf_named(char **nodes, const int *order, int n, const char *name)
{
	for (int l = 0; l < n; l++)
		if (strcmp(nodes[order[l]], name) == 0)
			return l;
	return -1;
}

static const char *sizes(const tm_tree *t)
{
	static char buf[256];
	int len = 0;

	for (int d = 0; d <= t->depth; d++)
		len += snprintf(buf + len, sizeof(buf) - (size_t)len, "%s%d",
				d ? "," : "", t->level_start[d + 1] - t->level_start[d]);
	return buf;
}

static const char *scontrol =
	"SwitchName=s0 Level=1 LinkSpeed=1 Nodes=n[1-8] Switches=s[1-2]\n"
	"SwitchName=s1 Level=0 LinkSpeed=1 Nodes=n[1-4]\n"
	"SwitchName=s2 Level=0 LinkSpeed=1 Nodes=n[5-8]\n"
	"SwitchName=s9 Level=0 LinkSpeed=1 Nodes=x[1-100]\n";

static void test_switches(void)
{
	tm_error err = { 0 };
	char **nodes;
	int *order, n;
	tm_tree *t = net_of(scontrol, "n[1-8]", &order, &nodes, &n, &err);

	CHECK(t != NULL, "scontrol show topology output parses (%s)", err.text);
	if (t) {
		CHECK_STR(sizes(t), "1,2,8", "two leaf switches under s0; s9 "
			  "without job nodes dropped");
		CHECK_STR(t->level_name[0], "switch s0", "the root level is s0");
		CHECK_STR(t->level_name[1], "switches s1,s2", "then s1 and s2");
		CHECK_INT(tm_tree_lca_depth(t, leaf_named(nodes, order, n, "n1"),
					    leaf_named(nodes, order, n, "n4")), 1,
			  "n1 and n4 meet at their leaf switch, not at s0 "
			  "(scontrol lists them under both)");
		CHECK_INT(tm_tree_lca_depth(t, leaf_named(nodes, order, n, "n1"),
					    leaf_named(nodes, order, n, "n5")), 0,
			  "n1 and n5 meet at s0");
	}
	tm_tree_free(t);
	free(order);
	tm_hostlist_free(nodes, n);

	t = net_of(scontrol, "n[1-4]", &order, &nodes, &n, &err);
	CHECK(t && t->depth == 1 && strcmp(t->level_name[0], "switch s1") == 0,
	      "a job under one leaf switch: s0, which it never crosses, goes");
	tm_tree_free(t);
	free(order);
	tm_hostlist_free(nodes, n);

	/* topology.conf: comments, a continued line, a node right under the
	 * top switch beside a leaf switch */
	const char *conf =
		"# the cluster\n"
		"SwitchName=top Switches=leaf \\\n"
		"    Nodes=n9   # a service node\n"
		"SwitchName=leaf Nodes=n[1-4]\n";
	t = net_of(conf, "n[1-4],n9", &order, &nodes, &n, &err);
	CHECK(t != NULL, "topology.conf with comments and a continued line "
	      "(%s)", err.text);
	if (t) {
		CHECK_STR(sizes(t), "1,2,5", "unbalanced: n9 hangs from a "
			  "single-child level, all nodes at depth 2");
		int l9 = leaf_named(nodes, order, n, "n9");
		CHECK_INT(t->parent[t->level_start[2] + l9] - t->level_start[1], 1,
			  "n9's parent is the padding node");
		CHECK_INT(tm_tree_lca_depth(t, leaf_named(nodes, order, n, "n1"), l9),
			  0, "n1 and n9 meet at the top switch");
	}
	tm_tree_free(t);
	free(order);
	tm_hostlist_free(nodes, n);

	const char *deep =
		"SwitchName=s0 Switches=s1,s4\n"
		"SwitchName=s1 Switches=s[2-3]\n"
		"SwitchName=s2 Nodes=n[1-2]\n"
		"SwitchName=s3 Nodes=n[3-4]\n"
		"SwitchName=s4 Nodes=n[5-6]\n";
	t = net_of(deep, "n[1-6]", &order, &nodes, &n, &err);
	CHECK(t && strcmp(sizes(t), "1,2,3,6") == 0,
	      "a shallow leaf switch beside a deeper subtree is padded: %s",
	      t ? sizes(t) : err.text);
	tm_tree_free(t);
	free(order);
	tm_hostlist_free(nodes, n);

	const char *chain =
		"SwitchName=s0 Switches=s1,s3\n"
		"SwitchName=s1 Switches=s2\n"
		"SwitchName=s2 Nodes=n[1-2]\n"
		"SwitchName=s3 Nodes=n[3-4]\n";
	t = net_of(chain, "n[1-4]", &order, &nodes, &n, &err);
	CHECK(t && strcmp(sizes(t), "1,2,4") == 0,
	      "a switch that passes traffic to one child is skipped: %s",
	      t ? sizes(t) : err.text);
	tm_tree_free(t);
	free(order);
	tm_hostlist_free(nodes, n);

	const char *roots = "SwitchName=a Nodes=n[1-2]\nSwitchName=b Nodes=n[3-4]\n";
	t = net_of(roots, "n[1-4]", &order, &nodes, &n, &err);
	CHECK(t && strcmp(sizes(t), "1,2,4") == 0 &&
	      strcmp(t->level_name[0], "network") == 0,
	      "two top switches get a virtual root \"network\"");
	tm_tree_free(t);
	free(order);
	tm_hostlist_free(nodes, n);

	/* topology/block as scontrol 26.05 prints it, and its topology.conf */
	const char *blocks =
		"BlockName=b1 BlockIndex=0 Nodes=n[1-2] BlockSize=2\n"
		"BlockName=b2 BlockIndex=1 Nodes=n[3-4] BlockSize=2\n"
		"AggregatedBlock=b[1-2] BlockIndex=2 Nodes=n[1-4] BlockSize=4\n";
	t = net_of(blocks, "n[1-4]", &order, &nodes, &n, &err);
	CHECK(t && strcmp(sizes(t), "1,2,4") == 0,
	      "blocks: a level above their nodes, aggregated blocks skipped: "
	      "%s", t ? sizes(t) : err.text);
	if (t)
		CHECK_INT(tm_tree_lca_depth(t, leaf_named(nodes, order, n, "n3"),
					    leaf_named(nodes, order, n, "n4")),
			  1, "n3 and n4 meet in their block");
	tm_tree_free(t);
	free(order);
	tm_hostlist_free(nodes, n);
	t = net_of("BlockName=b1 Nodes=n[1-2]\nBlockName=b2 Nodes=n[3-4]\n"
		   "BlockSizes=2,4\n", "n[1-4]", &order, &nodes, &n, &err);
	CHECK(t && strcmp(sizes(t), "1,2,4") == 0,
	      "a block topology.conf with its BlockSizes= line: %s",
	      t ? sizes(t) : err.text);
	tm_tree_free(t);
	free(order);
	tm_hostlist_free(nodes, n);

	t = net_of(scontrol, "y[1-3]", &order, &nodes, &n, &err);
	CHECK(t && strcmp(sizes(t), "1,3") == 0 &&
	      strcmp(t->level_name[0], "network") == 0,
	      "no switch holds the job's nodes: a flat network");
	tm_tree_free(t);
	free(order);
	tm_hostlist_free(nodes, n);
	t = net_of(NULL, "y[1-3]", &order, &nodes, &n, &err);
	CHECK(t && strcmp(sizes(t), "1,3") == 0 && order[2] == 2,
	      "no file: a flat network in Slurm's order");
	tm_tree_free(t);
	free(order);
	tm_hostlist_free(nodes, n);

	static const struct {
		const char *text, *nodes, *want, *what;
	} bad[] = {
		{ "SwitchName=s1 Nodes=n[1-4]\n", "n[1-4],zz",
		  "topo: job node zz under no switch", "a job node missing from "
		  "the file is named" },
		{ "SwitchName=a Switches=b\nSwitchName=b Switches=a\n", "n1",
		  "topo:1: switch a is below itself", "a loop of switches" },
		{ "SwitchName=a Switches=b\n", "n1",
		  "topo:1: Switches= names b, expected a switch defined",
		  "an undefined switch" },
		{ "SwitchName=a Nodes=n1\nSwitchName=a Nodes=n2\n", "n1",
		  "topo:2: switch a defined again", "a switch defined twice" },
		{ "Nodes=n1\n", "n1", "topo:1: expected SwitchName=NAME or "
		  "BlockName=NAME", "a line without SwitchName=" },
		{ "SwitchName=a Switches=c\nSwitchName=b Switches=c\nSwitchName=c\n",
		  "n1", "topo:2: switch c is already under switch a",
		  "a switch under two parents" },
		{ "SwitchName=a Nodes=n[1-\n", "n1",
		  "topo:1: Nodes= \"n[1-\": position 5", "a bad host list names "
		  "the line and position" },
		{ "SwitchName=a Nodes=n1\nSwitchName=b Nodes=n1\n", "n1",
		  "topo:2: node n1 is under switch b and switch a",
		  "a node under two unrelated switches" },
		{ "SwitchName=a[1-2] Nodes=n1\n", "n1", "topo:1: SwitchName=a[1-2]",
		  "a switch name that is a list" },
		{ "junk\n", "n1", "topo:1: \"junk\": expected KEY=VALUE", "junk" },
	};
	for (size_t k = 0; k < sizeof(bad) / sizeof(*bad); k++) {
		err = (tm_error){ 0 };
		t = net_of(bad[k].text, bad[k].nodes, &order, &nodes, &n, &err);
		CHECK(!t && starts_with(err.text, bad[k].want), "%s", bad[k].what);
		if (t || !starts_with(err.text, bad[k].want))
			printf("#   got \"%s\"\n", err.text);
		tm_tree_free(t);
		free(order);
		tm_hostlist_free(nodes, n);
	}
}

/* A job on `hostlist` with task counts `tasks` over the network `text`. */
static tm_job *job_of(const char *text, const char *hostlist,
		      const char *tasks, const double *costs, int ncosts,
		      tm_error *err)
{
	char **nodes;
	int *order = NULL, *c = NULL, n, nc;
	tm_tree *net = net_of(text, hostlist, &order, &nodes, &n, err);
	tm_job *job = NULL;

	if (net && tm_tasks_per_node_parse("tasks", tasks, n, &c, &nc, err) == TM_OK)
		tm_job_build(nodes, c, n, net, order, costs, ncosts, &job, err);
	tm_tree_free(net);
	free(order);
	free(c);
	tm_hostlist_free(nodes, n);
	return job;
}

static const char *costs_of(const tm_tree *t)
{
	static char buf[256];
	int len = 0;

	for (int d = 0; d <= t->depth; d++)
		len += snprintf(buf + len, sizeof(buf) - (size_t)len, "%s%g",
				d ? "," : "", t->level_cost[d]);
	return buf;
}

static const char *nodes_of(const tm_job *job, const int *leaf_of)
{
	static char buf[1024];
	int len = 0;

	for (int r = 0; r < job->ntasks; r++)
		len += snprintf(buf + len, sizeof(buf) - (size_t)len, "%d",
				job->node_of_leaf[leaf_of[r]]);
	return buf;
}

static void test_job_tree(void)
{
	tm_error err = { 0 };
	tm_job *job = job_of(NULL, "n[1-4]", "2(x4)", NULL, 0, &err);

	CHECK(job != NULL, "4 nodes x 2 tasks on a flat network (%s)", err.text);
	if (job) {
		CHECK_STR(sizes(job->tree), "1,4,8", "network, nodes, 8 slots");
		CHECK_STR(costs_of(job->tree), "10,1,0",
			  "costs: across nodes 10, one node 1");
		CHECK_INT(job->ntasks, 8, "8 tasks");
	}
	tm_job_free(job);

	job = job_of(scontrol, "n[1-8]", "1,2,1,2,1,2,1,2", NULL, 0, &err);
	CHECK(job && strcmp(sizes(job->tree), "1,2,8,12") == 0,
	      "uneven counts under two switches: %s",
	      job ? sizes(job->tree) : err.text);
	if (job) {
		CHECK_STR(costs_of(job->tree), "100,10,1,0",
			  "costs: across switches 100, one switch 10, one node 1");
		CHECK_INT(job->tasks[1], 2, "n2 holds 2 tasks");
		CHECK_INT(job->first_leaf[1], 1, "n2's slots follow n1's");
		CHECK_STR(job->tree->level_name[3], "tasks", "the leaves are tasks");
	}
	tm_job_free(job);

	double base = 5, list[2] = { 1000, 20 }, low = 0.5, up[2] = { 10, 100 };
	job = job_of(scontrol, "n[1-8]", "2(x8)", &base, 1, &err);
	CHECK(job && strcmp(costs_of(job->tree), "50,5,1,0") == 0,
	      "one network cost is the leaf switch's, ten times per level up");
	tm_job_free(job);
	job = job_of(scontrol, "n[1-8]", "2(x8)", list, 2, &err);
	CHECK(job && strcmp(costs_of(job->tree), "1000,20,1,0") == 0,
	      "a list of network costs, root first");
	tm_job_free(job);
	job = job_of(scontrol, "n[1-8]", "2(x8)", &low, 1, &err);
	CHECK(!job && strstr(err.text, "expected a finite number of at least 1"),
	      "a network cost below a node's is refused");
	job = job_of(scontrol, "n[1-8]", "2(x8)", up, 2, &err);
	CHECK(!job, "network costs growing downwards are refused");
	job = job_of(scontrol, "n[1-8]", "2(x8)", list, 3, &err);
	CHECK(!job && strstr(err.text, "expected 1 (the leaf switch's) or 2"),
	      "as many costs as levels, or one");
}

static tm_matrix *matrix_of(int n, int count, const int *i, const int *j,
			    const double *w)
{
	tm_matrix *m = NULL;

	tm_matrix_from_entries(n, (size_t)count, i, j, w, &m, NULL);
	return m;
}

static void test_assignments(void)
{
	tm_error err = { 0 };
	tm_job *job = job_of(NULL, "a,b,c", "3,1,2", NULL, 0, &err);
	int leaf_of[6];

	if (!job) {
		CHECK(0, "a job of 3 nodes (%s)", err.text);
		return;
	}
	tm_job_block(job, leaf_of);
	CHECK_STR(nodes_of(job, leaf_of), "000122", "block fills node after node");
	tm_job_cyclic(job, leaf_of);
	CHECK_STR(nodes_of(job, leaf_of), "012020",
		  "cyclic deals the ranks, skipping full nodes");

	/* a ring of 6 ranks: block cuts (2,3), (3,4) and (5,0) */
	int i[6] = { 0, 1, 2, 3, 4, 5 }, j[6] = { 1, 2, 3, 4, 5, 0 };
	double w[6] = { 1, 2, 4, 8, 16, 32 };
	tm_matrix *m = matrix_of(6, 6, i, j, w);
	tm_job_traffic tr;
	tm_job_block(job, leaf_of);
	tm_job_traffic_of(job, m, leaf_of, &tr);
	CHECK(tr.cross_node == 4 + 8 + 32, "block's cross-node bytes on a ring "
	      "(%g)", tr.cross_node);
	CHECK(tr.cost == 10 * 44 + 1 * 19, "block's tree cost (%g)", tr.cost);
	CHECK_INT(tr.nlevels, 1, "one network level");
	tm_job_cyclic(job, leaf_of);
	tm_job_traffic_of(job, m, leaf_of, &tr);
	CHECK(tr.cross_node == 31, "cyclic cuts all but (5,0) (%g)",
	      tr.cross_node);

	tm_matrix *small = matrix_of(5, 4, i, j, w);
	int kept;
	CHECK(tm_job_place(job, TM_ALGO_TREEMATCH, NULL, small, leaf_of, &kept,
			   &err) == TM_ERR_SIZE &&
	      strstr(err.text, "the matrix has 5 ranks, expected 6"),
	      "a matrix of another size: the error names both numbers");

	/* round-robin deals over the nodes: on an even ring it cuts 5
	 * edges, block 3 */
	double even[6] = { 1, 1, 1, 1, 1, 1 };
	tm_matrix *ring = matrix_of(6, 6, i, j, even);
	CHECK(tm_job_place(job, TM_ALGO_ROUND_ROBIN, NULL, ring, leaf_of, &kept,
			   &err) == TM_OK && kept == 1,
	      "a policy that cuts more than block: block is kept");
	CHECK_STR(nodes_of(job, leaf_of), "000122", "... as block placed it");
	tm_matrix_free(ring);
	tm_matrix_free(small);
	tm_matrix_free(m);
	tm_job_free(job);
}

static void test_pairs(void)
{
	/* rank i with rank i + 4 heavy, a light ring over all 8 */
	int i[16], j[16], n = 0;
	double w[16];
	for (int r = 0; r < 4; r++) {
		i[n] = r, j[n] = r + 4, w[n++] = 1000;
	}
	for (int r = 0; r < 8; r++) {
		i[n] = r, j[n] = (r + 1) % 8, w[n++] = 1;
	}
	tm_matrix *m = matrix_of(8, n, i, j, w);
	tm_error err = { 0 };
	tm_job *job = job_of(NULL, "n[1-4]", "2(x4)", NULL, 0, &err);
	int leaf_of[8], kept = -1;

	CHECK(job && tm_job_place(job, TM_ALGO_TREEMATCH, NULL, m, leaf_of,
				  &kept, &err) == TM_OK,
	      "pairs i, i+4 on 4 nodes x 2 tasks are placed (%s)", err.text);
	if (job && kept == 0) {
		int together = 1;
		for (int r = 0; r < 4; r++)
			together &= job->node_of_leaf[leaf_of[r]] ==
				    job->node_of_leaf[leaf_of[r + 4]];
		CHECK(together, "every heavy pair shares a node: %s",
		      nodes_of(job, leaf_of));
		tm_job_traffic tr, blk;
		tm_job_traffic_of(job, m, leaf_of, &tr);
		int block[8];
		tm_job_block(job, block);
		tm_job_traffic_of(job, m, block, &blk);
		CHECK(tr.cross_node <= 8, "only light bytes cross nodes (%g; "
		      "block %g)", tr.cross_node, blk.cross_node);
	}
	tm_job_free(job);
	tm_matrix_free(m);
}

static void test_groups(void)
{
	/* 4 groups of 4: group g is ranks g, g+4, g+8, g+12, all to all */
	int i[200], j[200], n = 0;
	double w[200];
	for (int g = 0; g < 4; g++)
		for (int a = 0; a < 4; a++)
			for (int b = a + 1; b < 4; b++) {
				i[n] = g + 4 * a, j[n] = g + 4 * b, w[n++] = 100;
			}
	for (int r = 0; r < 16; r++) {
		i[n] = r, j[n] = (r + 1) % 16, w[n++] = 1;
	}
	tm_matrix *m = matrix_of(16, n, i, j, w);
	tm_error err = { 0 };
	tm_job *job = job_of(scontrol, "n[1-8]", "2(x8)", NULL, 0, &err);
	int leaf_of[16], kept = -1;

	CHECK(job && tm_job_place(job, TM_ALGO_TREEMATCH, NULL, m, leaf_of,
				  &kept, &err) == TM_OK && kept == 0,
	      "4 groups of 4 on 8 nodes under 2 switches are placed (%s)",
	      err.text);
	if (!job || kept != 0) {
		tm_job_free(job);
		tm_matrix_free(m);
		return;
	}
	int under_one = 1;
	for (int g = 0; g < 4; g++)
		for (int a = 1; a < 4; a++)
			under_one &= tm_tree_lca_depth(job->tree, leaf_of[g],
						       leaf_of[g + 4 * a]) >= 1;
	CHECK(under_one, "every group sits under one switch: %s",
	      nodes_of(job, leaf_of));
	tm_job_traffic tr;
	tm_job_traffic_of(job, m, leaf_of, &tr);
	CHECK(tr.nlevels == 2 && tr.cross_level[0] <= 16 && tr.cross_level[1] == 0,
	      "only light bytes cross switches (%g), nothing crosses the root",
	      tr.cross_level[0]);
	CHECK(tr.cross_node <= 4 * 4 * 100 + 16, "groups of 4 on nodes of 2 "
	      "cut 4 pairs each (%g)", tr.cross_node);
	tm_job_free(job);
	tm_matrix_free(m);
}

static void test_block_on_switches(void)
{
	/* block's groups are the pairs (2g, 2g+1); group g talks to group
	 * g + 4, which block puts under the other switch */
	int i[16], j[16], n = 0;
	double w[16];
	for (int g = 0; g < 8; g++) {
		i[n] = 2 * g, j[n] = 2 * g + 1, w[n++] = 1000;
	}
	for (int g = 0; g < 4; g++) {
		i[n] = 2 * g, j[n] = 2 * (g + 4), w[n++] = 10;
	}
	tm_matrix *m = matrix_of(16, n, i, j, w);
	tm_error err = { 0 };
	tm_job *job = job_of(scontrol, "n[1-8]", "2(x8)", NULL, 0, &err);
	int leaf_of[16];

	if (!job || !m) {
		CHECK(0, "a job for block on switches (%s)", err.text);
		tm_job_free(job);
		tm_matrix_free(m);
		return;
	}
	tm_job_block(job, leaf_of);
	tm_job_traffic before, after;
	tm_job_traffic_of(job, m, leaf_of, &before);
	CHECK(tm__job_block_on_switches(job, TM_ALGO_TREEMATCH, NULL, m, leaf_of,
					&err) == TM_OK, "block's groups are moved "
	      "onto the switches (%s)", err.text);
	tm_job_traffic_of(job, m, leaf_of, &after);
	CHECK(after.cross_node == before.cross_node, "... with block's "
	      "cross-node bytes (%g)", after.cross_node);
	CHECK(before.cross_level[0] == 40 && after.cross_level[0] == 0,
	      "... and nothing across switches (%g before)",
	      before.cross_level[0]);
	int same = 1;
	for (int g = 0; g < 8; g++)
		same &= job->node_of_leaf[leaf_of[2 * g]] ==
			job->node_of_leaf[leaf_of[2 * g + 1]];
	CHECK(same, "... each group still on one node");
	tm_job_free(job);
	tm_matrix_free(m);
}

static void test_mapping_tree(void)
{
	tm_error err = { 0 };
	tm_job *job = job_of(scontrol, "n[1-8]", "2(x8)", NULL, 0, &err);
	tm_tree *g = (tm_tree *)1;

	CHECK(job && tm__job_mapping_tree(job, &g, &err) == TM_OK && !g,
	      "2 switches of 4 nodes: mapped on the job's tree as it is");
	tm_job_free(job);

	/* 37 nodes under one switch: 6 virtual groups of up to 7 nodes */
	job = job_of(scontrol, "x[1-37]", "1,2(x36)", NULL, 0, &err);
	if (!job || tm__job_mapping_tree(job, &g, &err) != TM_OK || !g) {
		CHECK(0, "a mapping tree for 37 nodes (%s)", err.text);
		tm_job_free(job);
		return;
	}
	CHECK_STR(sizes(g), "1,6,37,73", "a virtual level of 6 groups");
	CHECK_STR(costs_of(g), "10,10,1,0", "... that costs what the switch "
		  "costs");
	/* the node above leaf l, numbered within its level, in either tree */
	const tm_tree *t = job->tree;
	int same_nodes = g->nleaves == t->nleaves;
	for (int l = 0; same_nodes && l < g->nleaves; l++)
		same_nodes = g->parent[g->level_start[g->depth] + l] -
			     g->level_start[g->depth - 1] ==
			     t->parent[t->level_start[t->depth] + l] -
			     t->level_start[t->depth - 1];
	CHECK(same_nodes, "every leaf under the node it is under in the job");

	/* any placement costs the same on both trees */
	int n = job->ntasks, i[73], j[73], leaf_of[73];
	double w[73];
	for (int r = 0; r < n; r++) {
		i[r] = r, j[r] = (r * 7 + 3) % n, w[r] = 1 + r % 5;
		leaf_of[r] = (r * 31) % n; /* 31 is prime to 73 */
	}
	tm_matrix *m = matrix_of(n, n, i, j, w);
	CHECK(m && tm_cost_tree(g, m, leaf_of) == tm_cost_tree(job->tree, m,
							       leaf_of),
	      "a placement costs the same on both trees");
	tm_matrix_free(m);
	tm_tree_free(g);
	tm_job_free(job);

	/* 900 nodes on a flat network: 30 groups of 30 */
	g = NULL;
	job = job_of(NULL, "n[000-899]", "1(x900)", NULL, 0, &err);
	CHECK(job && tm__job_mapping_tree(job, &g, &err) == TM_OK && g &&
	      strcmp(sizes(g), "1,30,900,900") == 0,
	      "900 flat nodes: %s", g ? sizes(g) : job ? "no grouping"
						 : err.text);
	tm_tree_free(g);
	tm_job_free(job);
}

int main(void)
{
	test_hostlists();
	test_counts();
	test_switches();
	test_job_tree();
	test_assignments();
	test_pairs();
	test_groups();
	test_block_on_switches();
	test_mapping_tree();
	return check_status();
}
