/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tmsim - simulated machines for the application benchmark
 * (doc/bench-apps.md): a SimGrid platform from the helper's tree of a
 * machine or a job, the placements to compare, SMPI hostfiles.
 *
 *   tmsim platform  MACHINE [--speed FLOPS]            > platform.xml
 *   tmsim place     MACHINE --matrix M --policy NAME    > placement.json
 *   tmsim hostfile  MACHINE --placement P --ranks N     > hostfile
 *   tmsim levels    MACHINE
 *
 * MACHINE: --topology SPEC (one node: xml:PATH, synthetic:..., tree:...)
 *          [--nodes N [--switches S]] [--kinds K,K,...]
 * With --nodes, the job is N nodes of that topology under S leaf switches
 * (1 by default), under a top switch when S > 1.  --kinds names what each
 * level is (l2, l3, numa, package, board, switch, fabric; root first),
 * which a tree: spec needs when the default (from the bottom: l3, board,
 * switch, fabric) is not the machine meant.
 * Exit status: 0 done, 1 bad input (one line on stderr), 2 bad usage.
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tm_matrix.h"
#include "tmsim.h"

typedef struct args {
	const char *command, *matrix, *policy, *placement;
	double speed;
	int ranks;
} args;

static int usage(const char *why)
{
	fprintf(stderr, "tmsim: %s\nusage: tmsim platform|place|hostfile|"
		"levels --topology SPEC [--nodes N [--switches S]] "
		"[--kinds LIST]\n  [--speed FLOPS] [--matrix M --policy NAME] "
		"[--placement P --ranks N]\n", why);
	return 2;
}

static int int_arg(const char *opt, const char *text, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || *end || v < 1 || v > INT_MAX) {
		fprintf(stderr, "tmsim: %s %s: expected a positive integer\n",
			opt, text);
		return -1;
	}
	*out = (int)v;
	return 0;
}

static int parse(int argc, char **argv, args *a, tmsim_job *job)
{
	if (argc < 2)
		return usage("expected a command");
	a->command = argv[1];
	for (int i = 2; i < argc; i += 2) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1]
							       : NULL;
		char *end;
		if (!val) {
			fprintf(stderr, "tmsim: %s: expected a value\n", opt);
			return 2;
		}
		if (!strcmp(opt, "--topology"))
			job->node_spec = val;
		else if (!strcmp(opt, "--nodes")) {
			if (int_arg(opt, val, &job->nodes))
				return 2;
		} else if (!strcmp(opt, "--switches")) {
			if (int_arg(opt, val, &job->switches))
				return 2;
		} else if (!strcmp(opt, "--kinds"))
			job->kinds = val;
		else if (!strcmp(opt, "--matrix"))
			a->matrix = val;
		else if (!strcmp(opt, "--policy"))
			a->policy = val;
		else if (!strcmp(opt, "--placement"))
			a->placement = val;
		else if (!strcmp(opt, "--ranks")) {
			if (int_arg(opt, val, &a->ranks))
				return 2;
		} else if (!strcmp(opt, "--speed")) {
			a->speed = strtod(val, &end);
			if (end == val || *end || !(a->speed > 0)) {
				fprintf(stderr, "tmsim: --speed %s: expected "
					"flop/s > 0, e.g. 2e9\n", val);
				return 2;
			}
		} else {
			fprintf(stderr, "tmsim: unknown option '%s'\n", opt);
			return 2;
		}
	}
	if (!job->node_spec)
		return usage("--topology is required");
	if (job->nodes > 1 && job->switches == 0)
		job->switches = 1;
	return 0;
}

static void print_levels(const tmsim_job *job)
{
	const tm_tree *t = job->tree;

	for (int d = 0; d < t->depth; d++) {
		const tmsim_figures *f = tmsim_figures_of(job->kind[d]);
		printf("%d %-14s arity %-3d %-8s %6.0f ns %6.1f GB/s%s\n", d,
		       t->level_name[d], t->arity[t->level_start[d]], f->name,
		       f->latency * 1e9, f->bandwidth / 1e9,
		       f->duplex ? " duplex" : "");
	}
	printf("%d leaves\n", t->nleaves);
}

static int run(const args *a, tmsim_job *job, tm_error *err)
{
	tm_matrix *m = NULL;
	int *leaf_of = NULL, status = -1, n = a->ranks;

	if (!strcmp(a->command, "levels")) {
		print_levels(job);
		return 0;
	}
	if (!strcmp(a->command, "platform"))
		return tmsim_write_platform(stdout, job, a->speed);
	if (!strcmp(a->command, "place")) {
		if (!a->matrix || !a->policy)
			return usage("place needs --matrix and --policy");
		if (tm_matrix_load(a->matrix, &m, err) != TM_OK)
			return -1;
		n = m->n;
	} else if (!strcmp(a->command, "hostfile")) {
		if (!a->placement || !n)
			return usage("hostfile needs --placement and --ranks");
	} else {
		fprintf(stderr, "tmsim: unknown command '%s': expected "
			"platform, place, hostfile or levels\n", a->command);
		return 2;
	}
	if (!(leaf_of = malloc((size_t)n * sizeof(int)))) {
		tm_matrix_free(m);
		return tm_error_nomem(err), -1;
	}
	if (m)
		status = tmsim_place(a->policy, job, m, leaf_of, err) ? -1 :
			 tmsim_write_placement(stdout, job, n, leaf_of);
	else
		status = tmsim_read_placement(a->placement, job, n, leaf_of,
					      err) ? -1 :
			 tmsim_write_hostfile(stdout, n, leaf_of);
	free(leaf_of);
	tm_matrix_free(m);
	return status;
}

int main(int argc, char **argv)
{
	args a = { .speed = 2e9 };
	tmsim_job job = { .nodes = 1 };
	tm_error err = { TM_OK, "" };
	int status;

	if ((status = parse(argc, argv, &a, &job)) != 0)
		return status;
	if (tmsim_job_load(&job, &err) != 0) {
		fprintf(stderr, "tmsim: %s\n", err.text);
		return 1;
	}
	status = run(&a, &job, &err);
	if (status < 0)
		fprintf(stderr, "tmsim: %s\n", err.text[0] ? err.text :
			"cannot write the output");
	tmsim_job_free(&job);
	return status < 0 ? 1 : status;
}
