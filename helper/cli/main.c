/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * main.c - treematch-helper: compute where the ranks of a job should run.
 *
 *   treematch-helper map --matrix FILE [--topology TOPO] [options]
 *   treematch-helper job --matrix FILE --nodes HOSTLIST
 *                        --tasks-per-node COUNTS [options]
 *
 * The SPANK plugin runs it once per node, as the job's user, with the
 * node's ranks; people run it to see a placement and what it saves.
 * `job` chooses, once for the whole job, which node each rank runs on.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/json_arena.h"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: " CLI_PROGRAM " map --matrix FILE [--topology TOPO] [options]\n"
		"       " CLI_PROGRAM " job --matrix FILE --nodes HOSTLIST --tasks-per-node COUNTS\n"
		"                            [options]\n"
		"       " CLI_PROGRAM " policies [--format man]\n"
		"       " CLI_PROGRAM " --help | --version\n"
		"\n"
		"Place the ranks of an MPI job on the cores of a node so that ranks that\n"
		"exchange the most share the most caches (TreeMatch), and show what the\n"
		"placement costs against packed and round-robin placements.\n"
		"\n");
	cli_map_usage(out);
	fprintf(out, "\n");
	cli_job_usage(out);
	fprintf(out, "\nSee treematch-helper(1) for the file formats and the cost model.\n");
}

int main(int argc, char **argv)
{
	cli_json_arena_install();
	if (argc < 2) {
		fprintf(stderr, CLI_PROGRAM ": expected a command: map, job or "
			"policies (try " CLI_PROGRAM " --help)\n");
		return CLI_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return CLI_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf(CLI_PROGRAM " (" PACKAGE_NAME ") " PACKAGE_VERSION "\n");
		return CLI_OK;
	}
	if (strcmp(argv[1], "map") == 0)
		return cli_map(argc - 1, argv + 1);
	if (strcmp(argv[1], "policies") == 0)
		return cli_policies(argc - 1, argv + 1);
	if (strcmp(argv[1], "job") == 0)
		return cli_job(argc - 1, argv + 1);
	fprintf(stderr, CLI_PROGRAM ": unknown command '%s': expected map, "
		"job or policies (try " CLI_PROGRAM " --help)\n", argv[1]);
	return CLI_USAGE;
}
