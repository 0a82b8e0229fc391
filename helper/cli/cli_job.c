/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli_job.c - `treematch-helper job`: which node each rank of a step runs
 * on, once for the whole job, across Slurm's switch tree (tm_job.h,
 * doc/job-wide.md).  Prints the assignment and what crosses nodes and
 * switches against Slurm's block and cyclic distributions, and writes
 * Slurm's arbitrary-distribution hostfile.  Exit 0 on success, 1 on bad
 * input (one line on stderr that names the file and the place), 2 on a
 * bad command line.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/json_arena.h"
#include "tm_job.h"
#include "tm_map.h"
#include "tm_matrix.h"

typedef struct job_options {
	const char *matrix;
	const char *nodes;
	const char *tasks;
	const char *switches;
	const char *hostfile;
	double costs[TM_JOB_MAX_LEVELS];
	int ncosts;
	long long max_size;
	tm_algorithm algorithm;
	int text;
} job_options;

void cli_job_usage(FILE *out)
{
	fprintf(out,
		"job options (" CLI_PROGRAM " job ...: the node of every rank, once for the job):\n"
		"  --matrix FILE           communication matrix of the whole step (as for map)\n"
		"  --nodes HOSTLIST        the job's nodes, in Slurm's order: \"$SLURM_JOB_NODELIST\"\n"
		"  --tasks-per-node COUNTS tasks on each node: \"$SLURM_TASKS_PER_NODE\" (2(x3),1)\n"
		"  --switches FILE         Slurm's switch tree: `scontrol show topology` output or\n"
		"                          topology.conf                  [a flat network]\n"
		"  --network-costs LIST    cost of two nodes under one leaf switch (one number),\n"
		"                          or of each network level, root first; two ranks on\n"
		"                          one node cost 1       [10, ten times more per level up]\n"
		"  --algorithm NAME        the placement policy (see map)          [treematch]\n"
		"  --max-size BYTES        refuse a matrix file larger than this\n"
		"  --hostfile FILE         write Slurm's hostfile (line i: node of rank i) for\n"
		"                          srun -m arbitrary; FILE must not exist\n"
		"  --format json|text      output for programs or one line for people   [json]\n");
}

static int parse_options(int argc, char **argv, job_options *o)
{
	enum { OPT_MATRIX = 256, OPT_NODES, OPT_TASKS, OPT_SWITCHES,
	       OPT_COSTS, OPT_ALGORITHM, OPT_MAX_SIZE, OPT_HOSTFILE,
	       OPT_FORMAT };
	static const struct option longopts[] = {
		{ "matrix", required_argument, NULL, OPT_MATRIX },
		{ "nodes", required_argument, NULL, OPT_NODES },
		{ "tasks-per-node", required_argument, NULL, OPT_TASKS },
		{ "switches", required_argument, NULL, OPT_SWITCHES },
		{ "network-costs", required_argument, NULL, OPT_COSTS },
		{ "algorithm", required_argument, NULL, OPT_ALGORITHM },
		{ "max-size", required_argument, NULL, OPT_MAX_SIZE },
		{ "hostfile", required_argument, NULL, OPT_HOSTFILE },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*o = (job_options){ .algorithm = TM_ALGO_TREEMATCH };
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_MATRIX: o->matrix = optarg; break;
		case OPT_NODES: o->nodes = optarg; break;
		case OPT_TASKS: o->tasks = optarg; break;
		case OPT_SWITCHES: o->switches = optarg; break;
		case OPT_HOSTFILE: o->hostfile = optarg; break;
		case OPT_COSTS:
			o->ncosts = cli_parse_costs(optarg, o->costs,
						    TM_JOB_MAX_LEVELS);
			if (o->ncosts < 0)
				return cli_usage_error("job", "--network-costs %s: expected "
						   "numbers such as 100,10 or 10",
						   optarg);
			break;
		case OPT_ALGORITHM:
			if (tm_algorithm_parse(optarg, &o->algorithm) < 0)
				return cli_usage_error("job", "--algorithm %s: expected %s",
						   optarg, tm_algorithm_choices());
			break;
		case OPT_MAX_SIZE:
			if (cli_parse_bytes(optarg, &o->max_size) < 0)
				return cli_usage_error("job", "--max-size %s: expected a "
						   "number of bytes", optarg);
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "json") == 0)
				o->text = 0;
			else if (strcmp(optarg, "text") == 0)
				o->text = 1;
			else
				return cli_usage_error("job", "--format %s: expected json or text",
						   optarg);
			break;
		case 'h':
			cli_job_usage(stdout);
			return -1;
		default:
			return cli_usage_error("job", "%s: unknown option or missing value",
					   argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error("job", "unexpected argument '%s'", argv[optind]);
	if (!o->matrix || !o->nodes || !o->tasks)
		return cli_usage_error("job", "--matrix FILE, --nodes HOSTLIST and "
				   "--tasks-per-node COUNTS are required");
	return 0;
}

/* Nodes and task counts, one count per node. */
static int read_job_text(const job_options *o, char ***nodes, int *nnodes,
			 int **tasks, tm_error *err)
{
	int ncounts;

	if (tm_hostlist_expand("--nodes", o->nodes, TM_JOB_MAX_NODES, nodes,
			       nnodes, err) ||
	    tm_tasks_per_node_parse("--tasks-per-node", o->tasks,
				    TM_JOB_MAX_NODES, tasks, &ncounts, err))
		return CLI_BAD_INPUT;
	if (ncounts != *nnodes) {
		tm_error_set(err, TM_ERR_SIZE, "--tasks-per-node \"%.100s\": %d "
			     "counts, expected %d: one per node of --nodes",
			     o->tasks, ncounts, *nnodes);
		return CLI_BAD_INPUT;
	}
	return CLI_OK;
}

/* The hostfile: line i is the node of rank i.  A file that exists is
 * never overwritten (nor followed, if a link): it may be someone
 * else's, or the hostfile of a job still running. */
static int write_hostfile(const char *path, const tm_job *job,
			  const int *leaf_of, tm_error *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		      O_CLOEXEC, 0644);

	if (fd < 0) {
		tm_error_set(err, TM_ERR_IO, "--hostfile %s: %s%s", path,
			     strerror(errno), errno == EEXIST
			     ? ", expected a new file (never overwritten)" : "");
		return CLI_BAD_INPUT;
	}
	FILE *f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(path);
		tm_error_nomem(err);
		return CLI_BAD_INPUT;
	}
	for (int r = 0; r < job->ntasks; r++)
		fprintf(f, "%s\n", job->node[job->node_of_leaf[leaf_of[r]]]);
	int bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		tm_error_set(err, TM_ERR_IO, "--hostfile %s: cannot write it",
			     path);
		unlink(path);
		return CLI_BAD_INPUT;
	}
	return CLI_OK;
}

static void print_traffic(const char *name, const tm_job_traffic *t,
			  const char *sep)
{
	printf("\"%s\":{\"cross-node\":%.17g,\"cross-switch\":[", name,
	       t->cross_node);
	for (int k = 0; k < t->nlevels; k++)
		printf("%s%.17g", k ? "," : "", t->cross_level[k]);
	printf("],\"cost\":%.17g}%s", t->cost, sep);
}

/* One line of JSON; names are letters, digits and "-_.,: " (hostlist.c
 * and switches.c refuse anything else), so nothing needs escaping. */
static void print_json(const job_options *o, const tm_job *job,
		       const int *leaf_of, const tm_job_traffic tr[3],
		       int kept_block, double seconds)
{
	const char *algo = tm_algorithm_name(o->algorithm);

	printf("{\"size\":%d,\"nodes\":[", job->ntasks);
	for (int j = 0; j < job->nnodes; j++)
		printf("%s\"%s\"", j ? "," : "", job->node[j]);
	printf("],\"tasks-per-node\":[");
	for (int j = 0; j < job->nnodes; j++)
		printf("%s%d", j ? "," : "", job->tasks[j]);
	printf("],\"algorithm\":\"%s\",\"node-of\":[", algo);
	for (int r = 0; r < job->ntasks; r++)
		printf("%s%d", r ? "," : "", job->node_of_leaf[leaf_of[r]]);
	printf("],\"levels\":[");
	for (int k = 0; k < job->node_depth; k++)
		printf("%s\"%s\"", k ? "," : "",
		       job->tree->level_name[job->node_depth - 1 - k]);
	printf("],\"traffic\":{");
	print_traffic(algo, &tr[0], ",");
	print_traffic("block", &tr[1], ",");
	print_traffic("cyclic", &tr[2], "");
	printf("},\"kept-block\":%s,\"seconds\":%.6f}\n",
	       kept_block ? "true" : "false", seconds);
}

/* "0", or two significant digits: what one line to a user needs. */
static const char *bytes(double v, char *buf, size_t size)
{
	if (v == 0)
		snprintf(buf, size, "0");
	else
		snprintf(buf, size, "%.1e", v);
	return buf;
}

static void print_text(const job_options *o, const tm_job *job,
		       const tm_job_traffic tr[3], int kept_block)
{
	char a[32], b[32], c[32];

	printf("job-wide");
	if (o->algorithm != TM_ALGO_TREEMATCH)
		printf(" (%s)", tm_algorithm_name(o->algorithm));
	printf(": %d ranks on %d nodes: cross-node bytes %s (block %s, "
	       "cyclic %s)", job->ntasks, job->nnodes,
	       bytes(tr[0].cross_node, a, sizeof(a)),
	       bytes(tr[1].cross_node, b, sizeof(b)),
	       bytes(tr[2].cross_node, c, sizeof(c)));
	/* level 0 is the leaf switches' when there is a level above it */
	if (job->node_depth > 1)
		printf("; across switches %s (block %s)",
		       bytes(tr[0].cross_level[0], a, sizeof(a)),
		       bytes(tr[1].cross_level[0], b, sizeof(b)));
	if (kept_block)
		printf("; kept block: %s sent more across nodes",
		       tm_algorithm_name(o->algorithm));
	printf("\n");
}

static double seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) +
	       (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

/* Place, price the three assignments, write the hostfile, print. */
static int place_and_print(const job_options *o, const tm_job *job,
			   const tm_matrix *m, tm_error *err)
{
	int *leaf_of = malloc(sizeof(int) * ((size_t)m->n + 1));
	int *other = malloc(sizeof(int) * ((size_t)m->n + 1));
	tm_job_traffic tr[3];
	struct timespec start;
	int kept_block = 0, rc = CLI_OK;

	if (!leaf_of || !other) {
		free(leaf_of);
		free(other);
		tm_error_nomem(err);
		return CLI_BAD_INPUT;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	if (tm_job_place(job, o->algorithm, NULL, m, leaf_of, &kept_block,
			 err))
		rc = CLI_BAD_INPUT;
	double seconds = seconds_since(&start);
	if (rc == CLI_OK) {
		tm_job_traffic_of(job, m, leaf_of, &tr[0]);
		tm_job_block(job, other);
		tm_job_traffic_of(job, m, other, &tr[1]);
		tm_job_cyclic(job, other);
		tm_job_traffic_of(job, m, other, &tr[2]);
		if (o->hostfile)
			rc = write_hostfile(o->hostfile, job, leaf_of, err);
	}
	if (rc == CLI_OK) {
		if (o->text)
			print_text(o, job, tr, kept_block);
		else
			print_json(o, job, leaf_of, tr, kept_block, seconds);
	}
	free(leaf_of);
	free(other);
	return rc;
}

int cli_job(int argc, char **argv)
{
	job_options o;
	tm_error err = { 0 };
	tm_matrix *m = NULL;
	tm_tree *net = NULL;
	tm_job *job = NULL;
	char **nodes = NULL;
	int *tasks = NULL, *order = NULL, nnodes = 0;
	int rc = parse_options(argc, argv, &o);

	if (rc < 0)
		return CLI_OK; /* --help */
	if (rc)
		return rc;
	rc = read_job_text(&o, &nodes, &nnodes, &tasks, &err);
	/* The step's task count is known before the file is read: a
	 * "size" of another count is refused before rows of that size
	 * exist (a 16 MB file may say 16 million ranks). */
	long sum = 0;
	for (int j = 0; rc == CLI_OK && j < nnodes; j++)
		sum += tasks[j];
	if (rc == CLI_OK && tm_matrix_load_sized(o.matrix, o.max_size, sum,
						 &m, &err))
		rc = CLI_BAD_INPUT;
	cli_json_release();
	if (rc == CLI_OK && tm_switch_tree_load(o.switches, nodes, nnodes,
						&net, &order, &err))
		rc = CLI_BAD_INPUT;
	if (rc == CLI_OK && tm_job_build(nodes, tasks, nnodes, net, order,
					 o.costs, o.ncosts, &job, &err))
		/* costs that do not fit this network are the command line's */
		rc = err.status == TM_ERR_USAGE ? CLI_USAGE : CLI_BAD_INPUT;
	if (rc == CLI_OK)
		rc = place_and_print(&o, job, m, &err);
	if (rc == CLI_USAGE && err.status != TM_OK)
		cli_usage_error("job", "--network-costs: %s", err.text);
	else if (rc == CLI_BAD_INPUT && err.status != TM_OK)
		cli_input_error(&err);
	tm_job_free(job);
	tm_tree_free(net);
	free(order);
	free(tasks);
	tm_hostlist_free(nodes, nnodes);
	tm_matrix_free(m);
	if (rc == CLI_OK && fflush(stdout) != 0) {
		fprintf(stderr, CLI_PROGRAM ": cannot write the assignment: %s\n",
			strerror(errno));
		rc = CLI_BAD_INPUT;
	}
	return rc;
}
