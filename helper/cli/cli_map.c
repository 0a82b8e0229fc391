/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli_map.c - `treematch-helper map`: load a matrix and a topology, place
 * the ranks asked for, print the placement and its cost against the
 * baselines.  Exit 0 on success, 1 on bad input (one line on stderr that
 * names the file and the place), 2 on a bad command line.
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/cli_multi.h"
#include "cli/json_arena.h"
#include "tm_list.h"
#include "tm_cost.h"
#include "tm_map.h"
#include "tm_matrix.h"
#include "tm_report.h"
#include "tm_topology.h"
#include "tm_tree.h"

typedef struct map_options {
	const char *matrix;
	const char *topology;
	const char *restrict_cpus;
	char slurm_cores[4096];   /* "cores:LIST" for --slurm-cores */
	const char *ranks;        /* as given, for messages */
	const char *level_costs;
	long long max_size;       /* --max-size, 0: no limit */
	int cpus_per_task;
	tm_leaf_kind bind;
	tm_algorithm algorithm;
	int text;                 /* 0 json, 1 text, 2 svg */
	long ntasks;              /* -1: not given */
	double threshold;         /* setmatch --threshold, percent */
	int threshold_given;
	int set_cap;              /* setmatch --set-cap, 0: none */
	const char *previous;     /* spread --previous FILE */
	int cpu_kinds_equal;      /* --cpu-kinds equal */
	cli_multi multi;          /* every --matrix, --combine (cli_multi.c) */
	const char *node, *jobid, *stepid; /* the SVG's title, NULL: unknown */
} map_options;

void cli_map_usage(FILE *out)
{
	fprintf(out,
		"map options:\n"
		"  --matrix FILE         communication matrix: JSON ({\"size\": N, \"entries\"|\"matrix\"})\n"
		"                        or TreeMatch's .mat (N lines of N numbers); given\n"
		"                        several times (runs of one job, one size), places\n"
		"                        for all and reports the cost on each\n"
		"  --combine sum|worst   several matrices: place for their sum, or for the\n"
		"                        lowest worst case over them (doc/loop.md)  [sum]\n"
		"  --topology TOPO       this | xml:PATH | synthetic:DESCRIPTION | tree:ARITIES\n"
		"                        [this]; e.g. synthetic:\"pack:2 l2:3 core:2 pu:1\",\n"
		"                        tree:2,8,2\n"
		"  --restrict CPULIST    use only these OS CPUs (e.g. 0-3,8)\n"
		"  --slurm-cores LIST    use only these cores, numbered as Slurm numbers a\n"
		"                        node's cores (the SPANK plugin passes the step's)\n"
		"  --max-size BYTES      refuse a matrix file larger than this\n"
		"  --ranks LIST          place only these ranks, listed in this order\n"
		"                        (e.g. 4-7,0); default: all ranks of the matrix\n"
		"  --ntasks N            the job has N tasks: the matrix size must be N\n"
		"  --cpus-per-task N     give each rank N cores (or PUs) in one subtree  [1]\n"
		"  --bind core|pu        what a rank is bound to                         [core]\n"
		"  --algorithm NAME      the placement policy, one of:           [treematch]\n");
	for (int a = 0; a < TM_ALGO_COUNT; a++)
		fprintf(out, "      %-18s%s\n", tm_algorithm_name((tm_algorithm)a),
			tm_algorithm_help((tm_algorithm)a));
	fprintf(out,
		"                        (doc/policies.md says when each is the right one)\n"
		"  --threshold PERCENT   setmatch: a weight is significant when it is at least\n"
		"                        PERCENT %% of the largest one                    [10]\n"
		"  --set-cap N           setmatch: at most N ranks per top-level subtree\n"
		"                        (package, NUMA node)                     [its size]\n"
		"  --previous FILE       spread: the placement before (this command's JSON);\n"
		"                        pairs whose NUMA nodes have room stay there\n"
		"  --level-costs LIST    cost of a pair per level, root first (e.g. 100,10,1),\n"
		"                        or by level name: numa=100,l3=30,l2=10,core=1\n"
		"                        [each level up costs ten times more]\n"
		"  --cpu-kinds ordered|equal  hybrid processors: fewer ranks than cores go\n"
		"                        to the most powerful kind of core first, or treat\n"
		"                        every kind alike                          [ordered]\n"
		"  --format json|text|svg  output for programs or for people; svg draws\n"
		"                        the node and the matrix, against packed  [json]\n"
		"  --node NAME, --jobid ID, --stepid ID\n"
		"                        svg: the node, job and step the title names\n"
		"                        (the SPANK plugin passes them)\n"
		"  -h, --help            this text\n"
		"Exit status: 0 placed, 1 bad input (one line on stderr), 2 bad usage.\n");
}

/* A whole decimal number in [min, max], or -1 (LONG_MIN never asked for). */
static int parse_long(const char *s, long min, long max, long *out)
{
	char *end;

	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* A percentage: a decimal number from 0 to 100. */
static int parse_percent(const char *s, double *out)
{
	char *end;

	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0 && v <= 100))
		return -1;
	*out = v;
	return 0;
}

static int parse_options(int argc, char **argv, map_options *o)
{
	enum { OPT_MATRIX = 256, OPT_TOPOLOGY, OPT_RESTRICT, OPT_SLURM_CORES,
	       OPT_RANKS,
	       OPT_NTASKS, OPT_CPT, OPT_BIND, OPT_ALGORITHM, OPT_COSTS,
	       OPT_FORMAT, OPT_THRESHOLD, OPT_SET_CAP, OPT_PREVIOUS,
	       OPT_MAX_SIZE, OPT_CPU_KINDS, OPT_COMBINE, OPT_NODE, OPT_JOBID,
	       OPT_STEPID };
	static const struct option longopts[] = {
		{ "matrix", required_argument, NULL, OPT_MATRIX },
		{ "topology", required_argument, NULL, OPT_TOPOLOGY },
		{ "restrict", required_argument, NULL, OPT_RESTRICT },
		{ "slurm-cores", required_argument, NULL, OPT_SLURM_CORES },
		{ "ranks", required_argument, NULL, OPT_RANKS },
		{ "ntasks", required_argument, NULL, OPT_NTASKS },
		{ "cpus-per-task", required_argument, NULL, OPT_CPT },
		{ "bind", required_argument, NULL, OPT_BIND },
		{ "algorithm", required_argument, NULL, OPT_ALGORITHM },
		{ "level-costs", required_argument, NULL, OPT_COSTS },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ "set-cap", required_argument, NULL, OPT_SET_CAP },
		{ "previous", required_argument, NULL, OPT_PREVIOUS },
		{ "max-size", required_argument, NULL, OPT_MAX_SIZE },
		{ "cpu-kinds", required_argument, NULL, OPT_CPU_KINDS },
		{ "combine", required_argument, NULL, OPT_COMBINE },
		{ "node", required_argument, NULL, OPT_NODE },
		{ "jobid", required_argument, NULL, OPT_JOBID },
		{ "stepid", required_argument, NULL, OPT_STEPID },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	long v;

	*o = (map_options){ .topology = "this", .cpus_per_task = 1,
			    .bind = TM_LEAF_CORE,
			    .algorithm = TM_ALGO_TREEMATCH, .ntasks = -1,
			    .threshold = 10.0 };
	opterr = 0; /* our messages, one line each */
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_MATRIX:
			if (o->multi.n == CLI_MULTI_MAX)
				return cli_usage_error("map", "--matrix %s: at most %d "
						       "matrices", optarg, CLI_MULTI_MAX);
			o->multi.file[o->multi.n++] = optarg;
			if (!o->matrix)
				o->matrix = optarg;
			break;
		case OPT_COMBINE:
			if (strcmp(optarg, "sum") && strcmp(optarg, "worst"))
				return cli_usage_error("map", "--combine %s: expected "
						       "sum or worst", optarg);
			o->multi.worst = strcmp(optarg, "worst") == 0;
			break;
		case OPT_TOPOLOGY: o->topology = optarg; break;
		case OPT_RESTRICT: o->restrict_cpus = optarg; break;
		case OPT_SLURM_CORES:
			if (snprintf(o->slurm_cores, sizeof(o->slurm_cores),
				     "cores:%s", optarg) >= (int)sizeof(o->slurm_cores))
				return cli_usage_error("map", "--slurm-cores: list too long");
			break;
		case OPT_RANKS: o->ranks = optarg; break;
		case OPT_COSTS: o->level_costs = optarg; break;
		case OPT_NTASKS:
			if (parse_long(optarg, 1, TM_MATRIX_MAX_ORDER, &v) < 0)
				return cli_usage_error("map", "--ntasks %s: expected a number of tasks",
						   optarg);
			o->ntasks = v;
			break;
		case OPT_CPT:
			if (parse_long(optarg, 1, 1 << 20, &v) < 0)
				return cli_usage_error("map", "--cpus-per-task %s: expected a positive number",
						   optarg);
			o->cpus_per_task = (int)v;
			break;
		case OPT_BIND:
			if (strcmp(optarg, "core") == 0)
				o->bind = TM_LEAF_CORE;
			else if (strcmp(optarg, "pu") == 0)
				o->bind = TM_LEAF_PU;
			else
				return cli_usage_error("map", "--bind %s: expected core or pu",
						   optarg);
			break;
		case OPT_ALGORITHM:
			if (tm_algorithm_parse(optarg, &o->algorithm) < 0)
				return cli_usage_error("map", "--algorithm %s: expected %s",
						   optarg, tm_algorithm_choices());
			break;
		case OPT_THRESHOLD:
			if (parse_percent(optarg, &o->threshold) < 0)
				return cli_usage_error("map", "--threshold %s: expected a "
						   "percentage from 0 to 100",
						   optarg);
			o->threshold_given = 1;
			break;
		case OPT_SET_CAP:
			if (parse_long(optarg, 1, TM_MATRIX_MAX_ORDER, &v) < 0)
				return cli_usage_error("map", "--set-cap %s: expected a positive "
						   "number of ranks", optarg);
			o->set_cap = (int)v;
			break;
		case OPT_PREVIOUS: o->previous = optarg; break;
		case OPT_NODE: o->node = optarg; break;
		case OPT_JOBID: o->jobid = optarg; break;
		case OPT_STEPID: o->stepid = optarg; break;
		case OPT_MAX_SIZE:
			if (cli_parse_bytes(optarg, &o->max_size) < 0)
				return cli_usage_error("map", "--max-size %s: expected a "
						   "number of bytes", optarg);
			break;
		case OPT_CPU_KINDS:
			if (strcmp(optarg, "ordered") == 0)
				o->cpu_kinds_equal = 0;
			else if (strcmp(optarg, "equal") == 0)
				o->cpu_kinds_equal = 1;
			else
				return cli_usage_error("map", "--cpu-kinds %s: expected ordered or equal",
						   optarg);
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "json") == 0)
				o->text = 0;
			else if (strcmp(optarg, "text") == 0)
				o->text = 1;
			else if (strcmp(optarg, "svg") == 0)
				o->text = 2;
			else
				return cli_usage_error("map", "--format %s: expected json, text or svg",
						   optarg);
			break;
		case 'h':
			cli_map_usage(stdout);
			return -1;
		default:
			return cli_usage_error("map", "%s: unknown option or missing value",
					   argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error("map", "unexpected argument '%s'", argv[optind]);
	if (!o->matrix)
		return cli_usage_error("map", "--matrix FILE is required");
	/* Options of one policy given to another are a mistake, not a
	 * detail to ignore: the user expected them to change something. */
	if ((o->threshold_given || o->set_cap) &&
	    o->algorithm != TM_ALGO_SETMATCH)
		return cli_usage_error("map", "%s: applies to --algorithm setmatch only",
				   o->threshold_given ? "--threshold" : "--set-cap");
	if (o->multi.worst && o->multi.n < 2)
		return cli_usage_error("map", "--combine: applies to several --matrix only");
	if (o->previous && o->algorithm != TM_ALGO_SPREAD)
		return cli_usage_error("map", "--previous: applies to --algorithm spread only");
	if (o->slurm_cores[0]) {
		if (o->restrict_cpus)
			return cli_usage_error("map", "--restrict and --slurm-cores: "
					   "expected one of them");
		o->restrict_cpus = o->slurm_cores;
	}
	return 0;
}

/* The ranks to place: --ranks, or all of them.  Checks them against the
 * matrix; the error names the matrix file, since that is what is short. */
static int select_ranks(const map_options *o, const tm_matrix *m, int **ranks,
			int *nranks, tm_error *err)
{
	if (o->ntasks >= 0 && o->ntasks != m->n) {
		tm_error_set(err, TM_ERR_SIZE,
			     "%s: the matrix's size is %d, but the job step has %ld tasks",
			     o->matrix, m->n, o->ntasks);
		return CLI_BAD_INPUT;
	}
	if (!o->ranks) {
		*ranks = malloc(sizeof(int) * (size_t)m->n);
		if (!*ranks) {
			tm_error_nomem(err);
			return CLI_BAD_INPUT;
		}
		for (int r = 0; r < m->n; r++)
			(*ranks)[r] = r;
		*nranks = m->n;
		return CLI_OK;
	}
	int n = tm_list_parse(o->ranks, TM_MATRIX_MAX_ORDER - 1,
			      TM_MATRIX_MAX_ORDER, ranks);
	if (n < 0)
		return cli_usage_error("map", "--ranks %s: expected a list of ranks such "
				   "as 0-3,8", o->ranks);
	char *seen = calloc((size_t)m->n, 1);
	if (!seen) {
		free(*ranks);
		tm_error_nomem(err);
		return CLI_BAD_INPUT;
	}
	int rc = CLI_OK;
	for (int i = 0; i < n && rc == CLI_OK; i++) {
		int r = (*ranks)[i];

		if (r >= m->n) {
			tm_error_set(err, TM_ERR_SIZE,
				     "%s: the matrix's size is %d, but --ranks %s asks for rank %d",
				     o->matrix, m->n, o->ranks, r);
			rc = CLI_BAD_INPUT;
		} else if (seen[r]) {
			rc = cli_usage_error("map", "--ranks %s: rank %d listed twice",
					 o->ranks, r);
		} else {
			seen[r] = 1;
		}
	}
	free(seen);
	if (rc != CLI_OK) {
		free(*ranks);
		*ranks = NULL;
		return rc;
	}
	*nranks = n;
	return CLI_OK;
}

/* What the tree was made from, for the report. */
typedef struct tree_info {
	tm_cpu_kinds *kinds;
	int kinds_used;          /* kinds kept (kinds->n: all) */
	int kinds_last;          /* leaves kept of the last one, -1: all */
} tree_info;

/* The tree the ranks go on: the topology, the most powerful kinds of core
 * on a hybrid node, slots of --cpus-per-task, the level costs, and one more
 * level when ranks outnumber leaves. */
static int build_tree(const map_options *o, int nranks, tm_tree **out,
		      tree_info *info, tm_error *err)
{
	tm_tree *t = NULL, *next;
	int cores;

	/* a --topology, --restrict or --slurm-cores that does not parse is a
	 * bad command line (2); a topology file that cannot be read, or CPUs
	 * the machine does not have, are bad input (1) */
	if (tm_topology_load_kinds(o->topology, o->restrict_cpus, o->bind, &t,
				   &info->kinds, err))
		return err->status == TM_ERR_USAGE ? CLI_USAGE : CLI_BAD_INPUT;
	info->kinds_used = info->kinds->n;
	info->kinds_last = -1;
	cores = t->nleaves;
	if (!o->cpu_kinds_equal) {
		next = tm_cpu_kinds_keep_best(t, info->kinds, nranks,
					      o->cpus_per_task,
					      &info->kinds_used,
					      &info->kinds_last, err);
		tm_tree_free(t);
		if (!next)
			return CLI_BAD_INPUT;
		t = next;
	}
	if (o->cpus_per_task > 1) {
		next = tm_tree_group_leaves(t, o->cpus_per_task, err);
		tm_tree_free(t);
		if (!next)
			return CLI_BAD_INPUT;
		t = next;
	}
	if (o->level_costs &&
	    tm_tree_set_level_costs(t, o->level_costs, err)) {
		tm_tree_free(t);
		err->status = TM_OK; /* printed here, as a usage error */
		return cli_usage_error("map", "--level-costs %s: %s",
				       o->level_costs, err->text);
	}
	if (nranks > t->nleaves && nranks > TM_TREE_SPEC_MAX_LEAVES) {
		/* one slot per rank: a file's "size" alone must not make
		 * millions of them (minutes and gigabytes); the same bound
		 * as a tree: spec's leaves */
		tm_error_set(err, TM_ERR_SIZE, "%s: %d ranks on %d slots: "
			     "expected at most %d ranks to place on one node "
			     "(--ranks chooses a node's ranks)", o->matrix,
			     nranks, t->nleaves, TM_TREE_SPEC_MAX_LEAVES);
		tm_tree_free(t);
		return CLI_BAD_INPUT;
	}
	if (nranks > t->nleaves) {
		const char *unit = o->bind == TM_LEAF_PU ? "PU" : "core";

		/* with --cpus-per-task a leaf is a slot of N cores: count
		 * both, not slots as cores */
		if (o->cpus_per_task > 1)
			fprintf(stderr, CLI_PROGRAM ": warning: %d ranks of %d "
				"%ss each on %d %ss: %d slot%s of %d, up to %d "
				"ranks share one\n", nranks, o->cpus_per_task,
				unit, cores, unit, t->nleaves,
				t->nleaves == 1 ? "" : "s", o->cpus_per_task,
				(nranks + t->nleaves - 1) / t->nleaves);
		else
			fprintf(stderr, CLI_PROGRAM ": warning: %d ranks on %d "
				"%s%s: up to %d ranks share one\n", nranks,
				t->nleaves, unit, t->nleaves == 1 ? "" : "s",
				(nranks + t->nleaves - 1) / t->nleaves);
		next = tm_tree_oversubscribe(t, nranks, err);
		tm_tree_free(t);
		if (!next)
			return CLI_BAD_INPUT;
		t = next;
	}
	*out = t;
	return CLI_OK;
}

static double seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) +
	       (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

/* Place with the chosen algorithm, then with the baselines to compare. */
static int place_and_compare(const map_options *o, const tm_tree *t,
			     const tm_matrix *sub, const int *previous,
			     tm_report *rep, int *leaf_of, tm_error *err)
{
	tm_map_options opt = TM_MAP_OPTIONS_DEFAULT;
	static const tm_algorithm compared[] = {
		TM_ALGO_TREEMATCH, TM_ALGO_PACKED, TM_ALGO_ROUND_ROBIN
	};
	int *other = malloc(sizeof(int) * ((size_t)sub->n + 1));
	struct timespec start;

	if (!other) {
		tm_error_nomem(err);
		return CLI_BAD_INPUT;
	}
	opt.threshold = o->threshold;
	opt.set_cap = o->set_cap;
	opt.previous = previous;
	clock_gettime(CLOCK_MONOTONIC, &start);
	if (tm_map_with(o->algorithm, &opt, t, sub, leaf_of, err)) {
		free(other);
		return CLI_BAD_INPUT;
	}
	rep->seconds = seconds_since(&start);
	if (tm_placement_is_optimal(t, sub, leaf_of, &rep->proven_optimal,
				    err)) {
		free(other);
		return CLI_BAD_INPUT;
	}
	rep->ncosts = 0;
	rep->cost_name[rep->ncosts] = tm_algorithm_name(o->algorithm);
	tm_cost_both(t, sub, leaf_of, &rep->cost[rep->ncosts],
		     &rep->hop_bytes[rep->ncosts]);
	rep->ncosts++;
	for (size_t a = 0; a < sizeof(compared) / sizeof(*compared); a++) {
		if (compared[a] == o->algorithm)
			continue;
		if (tm_map(compared[a], t, sub, other, err)) {
			free(other);
			return CLI_BAD_INPUT;
		}
		rep->cost_name[rep->ncosts] = tm_algorithm_name(compared[a]);
		tm_cost_both(t, sub, other, &rep->cost[rep->ncosts],
			     &rep->hop_bytes[rep->ncosts]);
		rep->ncosts++;
	}
	free(other);
	return CLI_OK;
}

int cli_map(int argc, char **argv)
{
	map_options o;
	tm_error err = { 0 };
	tm_matrix *m = NULL, *sub = NULL;
	tm_tree *t = NULL;
	int *ranks = NULL, *leaf_of = NULL, *previous = NULL, nranks = 0;
	tree_info info = { 0 };
	char *text = NULL;
	int rc = parse_options(argc, argv, &o);

	if (rc < 0)
		return CLI_OK; /* --help */
	if (rc)
		return rc;
	/* --ntasks: a "size" of another step is refused before the matrix
	 * of that size is built */
	if (o.multi.n > 1 ? cli_multi_load(&o.multi, o.max_size, o.ntasks, &m,
					   &err)
	    : tm_matrix_load_sized(o.matrix, o.max_size, o.ntasks, &m,
				    &err)) {
		cli_multi_free(&o.multi);
		return cli_input_error(&err);
	}
	/* the file's JSON values are done with: give their memory back
	 * before the mapping needs its own (a dense matrix's take ~20 times
	 * the sparse matrix's) */
	cli_json_release();
	rc = select_ranks(&o, m, &ranks, &nranks, &err);
	if (rc == CLI_OK)
		rc = build_tree(&o, nranks, &t, &info, &err);
	if (rc == CLI_OK) {
		sub = tm_matrix_subset(m, ranks, nranks);
		leaf_of = malloc(sizeof(int) * ((size_t)nranks + 1));
		if (!sub || !leaf_of) {
			tm_error_nomem(&err);
			rc = CLI_BAD_INPUT;
		}
	}
	if (rc == CLI_OK && o.previous) {
		previous = malloc(sizeof(int) * ((size_t)nranks + 1));
		if (!previous)
			tm_error_nomem(&err);
		if (!previous || tm_previous_load(o.previous, t, m->n, ranks,
						  nranks, previous, &err))
			rc = CLI_BAD_INPUT;
	}
	tm_report rep = { .algorithm = tm_algorithm_name(o.algorithm),
			  .topology = o.topology, .size = m->n,
			  .nranks = nranks, .ranks = ranks,
			  .leaf_of = leaf_of, .tree = t,
			  .kinds = info.kinds, .kinds_used = info.kinds_used,
			  .kinds_last = info.kinds_last,
			  .kinds_equal = o.cpu_kinds_equal,
			  .leaves_are_pus = o.bind == TM_LEAF_PU,
			  .node = o.node, .jobid = o.jobid, .stepid = o.stepid };
	if (rc == CLI_OK)
		rc = place_and_compare(&o, t, sub, previous, &rep, leaf_of, &err);
	if (rc == CLI_OK && o.multi.n > 1) {
		tm_map_options opt = { .threshold = o.threshold,
				       .set_cap = o.set_cap, .previous = previous };
		if (cli_multi_place(&o.multi, o.algorithm, &opt, t, sub, ranks,
				    nranks, leaf_of, &rep, &err))
			rc = CLI_BAD_INPUT;
	}
	if (rc == CLI_OK && o.text == 2) {
		/* the picture compares with packed: place it once more */
		int *packed = malloc(sizeof(int) * ((size_t)nranks + 1));

		if (!packed)
			tm_error_nomem(&err);
		if (!packed || tm_map(TM_ALGO_PACKED, t, sub, packed, &err))
			rc = CLI_BAD_INPUT;
		else if (!(text = tm_report_svg(&rep, sub, packed)))
			tm_error_nomem(&err);
		free(packed);
	}
	if (rc == CLI_OK) {
		if (!text)
			text = o.text ? (o.text == 2 ? NULL : tm_report_text(&rep))
				      : tm_report_json(&rep);
		if (!text) {
			tm_error_nomem(&err);
			rc = CLI_BAD_INPUT;
		} else {
			fputs(text, stdout);
		}
	}
	if ((rc == CLI_BAD_INPUT || rc == CLI_USAGE) && err.status != TM_OK)
		cli_input_error(&err);
	free(text);
	free(leaf_of);
	free(previous);
	free(ranks);
	tm_matrix_free(sub);
	tm_matrix_free(m);
	tm_tree_free(t);
	tm_cpu_kinds_free(info.kinds);
	cli_multi_free(&o.multi);
	if (rc == CLI_OK && fflush(stdout) != 0) {
		fprintf(stderr, CLI_PROGRAM ": cannot write the placement: %s\n",
			strerror(errno));
		rc = CLI_BAD_INPUT;
	}
	return rc;
}
