/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online.h - libcommprof's online mode (doc/online.md): what the tasks
 * read from their environment, the mapper thread of each node's local
 * rank 0, its tree and its moves.  Nothing here calls MPI: the mapper
 * runs beside the application's threads, and MPI may not be thread-safe
 * in this job.  The MPI side is online.c.
 */
#ifndef ONLINE_H
#define ONLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tm_online.h"
#include "tm_tree.h"

#include "online_segment.h"

/* Every line the online mode prints starts with this. */
#define ONLINE_PREFIX "treematch online: "

/* How many rounds' intervals the report lists. */
enum { ONLINE_REPORT_INTERVALS = 64 };

/* ---- online_env.c: the environment -------------------------------- */

struct online_config {
	tm_online_params params;
	char segment[ONLINE_NAME_MAX + 1];
	int local_rank;
	int local_size;
	/* TREEMATCH_ONLINE_CPUS_PER_TASK (srun -c): CPUs each rank keeps;
	 * 0 when not said (mpirun): the tasks' own masks tell */
	int cpus_per_task;
	bool report;           /* TREEMATCH_ONLINE_REPORT=1 */
	char node[256];        /* TREEMATCH_ONLINE_NODE, else the host name */
	char log_path[4096];   /* TREEMATCH_ONLINE_LOG, "" for none */
};

/* TREEMATCH_ONLINE=1. */
bool online_requested(void);

/* TREEMATCH_ONLINE_PARAMS over the defaults; false (one line printed)
 * when it does not parse.  Every rank reads the same text, so every rank
 * reaches the same answer: the collective save at MPI_Finalize relies on
 * it. */
bool online_params_read(tm_online_params *p);

/* The rest of this task's configuration, with the parameters read
 * already; false (one line printed on stderr) when something is missing
 * or wrong: online mode is then off for this task. */
bool online_config_read(struct online_config *c,
			const tm_online_params *params, int world_size);

/* ---- online_tree.c: the node's tree and the CPUs of its leaves ------ */

/* The tree of the CPUs in the union of masks[0..n-1] (the step's CPUs on
 * this node), one leaf per rank's share of cores (cpus_per_task CPUs,
 * or with 0 the fewest cores a task was bound to; one core when every
 * task may run anywhere), one more level of slots when the n ranks
 * outnumber the leaves.  NULL with err set on failure. */
tm_tree *online_tree_build(const cpu_set_t *masks, int n, int cpus_per_task,
			   tm_error *err);

/* The CPUs of a leaf. */
void online_leaf_cpus(const tm_tree *t, int leaf, cpu_set_t *out);

/* A distinct leaf for every rank, as close as can be to where it runs:
 * the leaf whose CPUs are exactly its mask, else one inside its mask,
 * else one sharing a CPU with it, else any free leaf. */
void online_initial_leaves(const tm_tree *t, const cpu_set_t *masks, int n,
			   int *leaf_of);

/* ---- online_apply.c: moving a task -------------------------------- */

/* Sets the affinity of every thread of process pid to cpus, after
 * checking that pid is still the task that registered (its start time).
 * 0, or an errno (ESRCH: the task is gone). */
int online_move_task(int pid, uint64_t start_time, const cpu_set_t *cpus);

/* ---- online_report.c: the report and the log ---------------------- */

struct online_stats {
	int rounds;
	long moves;
	double interval;         /* the next round's */
	double intervals[ONLINE_REPORT_INTERVALS];
	double mapping_seconds;  /* snapshots, mapping and moves */
	double wall_seconds;     /* the mapper's whole life */
	double cost, packed_cost; /* of the last round */
	/* the final placement: n ranks */
	int n;
	const int *local_rank;
	const int *world_rank;
	const cpu_set_t *cpus;
};

/* "a-b,c" for a CPU set, "" when empty. */
void online_cpulist(const cpu_set_t *s, char *buf, size_t size);

/* The two lines of TREEMATCH_ONLINE_REPORT=1, on stderr. */
void online_report_print(const char *node, const struct online_stats *s);

/* One line of TREEMATCH_ONLINE_LOG per round, naming the node. */
void online_log_round(const char *path, const char *node, int round,
		      double t, double interval, bool changed, int moved,
		      double cost);

/* ---- online_mapper.c: the mapper thread ---------------------------- */

struct online_mapper;

/* Starts the mapper of this node (local rank 0) on the segment, which it
 * unlinks once every local rank registered, or after the first interval
 * at the latest.  NULL (one line printed) when it cannot start; the
 * segment is then unlinked. */
struct online_mapper *online_mapper_start(const struct online_config *c,
					  struct online_segment *seg);

/* Wakes the mapper, joins it, prints the report if asked, frees it. */
void online_mapper_stop(struct online_mapper *m);

#endif /* ONLINE_H */
