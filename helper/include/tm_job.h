/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tm_job.h - job-wide placement: which ranks of a step share a node.
 *
 * Slurm gives a step its nodes (a hostlist such as "n[1-4,7]"), the number
 * of tasks on each ("2(x3),1"), and with topology/tree a tree of switches
 * above the nodes.  The job's tree is that switch tree, pruned to the
 * switches that hold the job's nodes, then one node per job node, then
 * exactly tasks[i] leaves ("slots") under node i.  Mapping the step's
 * matrix onto it says which node each rank should run on; which cores
 * inside a node is left to the per-node run (tm_map.h on the node's own
 * tree), as before.
 *
 * Level costs (tm_tree.h): two ranks on one node cost 1, two nodes under
 * one leaf switch cost the network cost (10 by default), each switch level
 * further up ten times more.  doc/job-wide.md has the details.
 */
#ifndef TM_JOB_H
#define TM_JOB_H

#include <stddef.h>

#include "tm_error.h"
#include "tm_map.h"
#include "tm_matrix.h"
#include "tm_tree.h"

/* Bounds on what Slurm's text may expand to: far above any real job,
 * low enough that a hostile "n[0-999999999]" is refused before memory is
 * asked for. */
enum {
	TM_JOB_MAX_NODES = 1 << 16,     /* nodes of one job */
	TM_JOB_MAX_NAME = 255,          /* characters of one host name */
	TM_JOB_MAX_FILE_NAMES = 1 << 20,/* names one topology value expands to */
	TM_JOB_MAX_SWITCHES = 1 << 16,  /* switches of a topology file */
	TM_JOB_MAX_LEVELS = 16,         /* network levels above the nodes */
};
/* A topology file larger than this is refused before it is read. */
#define TM_JOB_MAX_FILE_BYTES (64LL << 20)

/* --- Slurm's text ------------------------------------------------------ */

/* Expand a hostlist ("n[1-4,7],gpu[01-02],login", several brackets in one
 * name multiply out) into at most max_names names, in the order written.
 * `what` names the text in errors ("--nodes"), which also give the
 * position (1-based) and what was expected.  Ranges are counted before
 * anything is allocated.  *names is an array of *count strings
 * (tm_hostlist_free). */
tm_status tm_hostlist_expand(const char *what, const char *text,
			     int max_names, char ***names, int *count,
			     tm_error *err);
void tm_hostlist_free(char **names, int count);

/* SLURM_TASKS_PER_NODE: "2(x3),1" or "2,2,2,1", at most max_nodes counts,
 * each at least 1, summing to at most TM_MATRIX_MAX_ORDER.  *counts is
 * malloc()ed. */
tm_status tm_tasks_per_node_parse(const char *what, const char *text,
				  int max_nodes, int **counts, int *n,
				  tm_error *err);

/* --- the switch tree -------------------------------------------------- */

/* The network above the job's nodes, from `scontrol show topology` output
 * or a topology.conf (name, for errors, and text of len bytes): a tree
 * whose leaves are the job's nodes, leaf l being node order[l] of
 * nodes[] (*order is malloc()ed, nnodes entries).  Switches without job
 * nodes are dropped, a switch that passes the job's traffic through one
 * child only is replaced by that child, several top switches get a
 * virtual root ("network"), and nodes that hang higher than others get
 * single-child levels so that all sit at one depth.  Text without a
 * switch that holds a job node gives a flat network: a root "network"
 * over the nodes in their order.  A job node that the file does not
 * place while others are placed is an error that names it (Slurm's
 * topology/tree does not allocate such a node either).
 * Level names: "network", "switch s0", "switches s1,s2", "nodes". */
tm_status tm_switch_tree_parse(const char *name, const char *text, size_t len,
			       char *const *nodes, int nnodes, tm_tree **net,
			       int **order, tm_error *err);
/* The same from a file (at most TM_JOB_MAX_FILE_BYTES); path NULL gives
 * the flat network. */
tm_status tm_switch_tree_load(const char *path, char *const *nodes,
			      int nnodes, tm_tree **net, int **order,
			      tm_error *err);

/* --- the job's tree ---------------------------------------------------- */

typedef struct tm_job {
	int nnodes;
	char **node;       /* names, in Slurm's order */
	int *tasks;        /* tasks on each node */
	int ntasks;        /* their sum: the ranks of the step */
	tm_tree *tree;     /* network levels, nodes, one leaf per task */
	int node_depth;    /* depth of the node level: tree->depth - 1 */
	int *first_leaf;   /* node i holds leaves first_leaf[i] .. + tasks[i] */
	int *node_of_leaf; /* per leaf */
} tm_job;

/* Build the job's tree on net (leaves: the job's nodes, leaf l is node
 * order[l]; tm_switch_tree_parse).  Network costs: ncosts 0 gives the
 * defaults, 1 a base network cost (two nodes under one leaf switch; each
 * level up ten times more), net->depth costs one per network level, root
 * first.  Two ranks on one node always cost 1, so network costs must be
 * at least 1 and not grow downwards.  Names, tasks and the tree are
 * copied. */
tm_status tm_job_build(char *const *node, const int *tasks, int nnodes,
		       const tm_tree *net, const int *order,
		       const double *costs, int ncosts, tm_job **out,
		       tm_error *err);
void tm_job_free(tm_job *job);

/* --- placing and pricing ------------------------------------------------ */

/* Place the step's ranks with policy a: m must have exactly job->ntasks
 * ranks (the error names both numbers).  If the policy's placement sends
 * more bytes across nodes than Slurm's block distribution, block is kept
 * (*kept_block = 1): the job-wide step never does worse than that. */
tm_status tm_job_place(const tm_job *job, tm_algorithm a,
		       const tm_map_options *opt, const tm_matrix *m,
		       int *leaf_of, int *kept_block, tm_error *err);

/* Slurm's distributions with the same counts, as leaves: block fills node
 * after node, cyclic deals ranks round-robin over the nodes, skipping the
 * full ones. */
void tm_job_block(const tm_job *job, int *leaf_of);
void tm_job_cyclic(const tm_job *job, int *leaf_of);

/* What a placement sends over the network.  cross_level[k] counts the
 * pairs whose lowest common ancestor is above network level k, numbered
 * from the leaf switches up (k = 0 is the level just above the nodes, the
 * last one the root, which nothing crosses). */
typedef struct tm_job_traffic {
	double cross_node;
	int nlevels;                           /* job->node_depth */
	double cross_level[TM_JOB_MAX_LEVELS];
	double cost;                           /* tm_cost_tree */
} tm_job_traffic;

void tm_job_traffic_of(const tm_job *job, const tm_matrix *m,
		       const int *leaf_of, tm_job_traffic *out);

#endif /* TM_JOB_H */
