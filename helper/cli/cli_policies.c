/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli_policies.c - `treematch-helper policies`: the placement policies,
 * one line each, from the policy table.  The man page's list and the
 * tests' list of policies are made from this output.
 *
 *   treematch-helper policies             NAME<TAB>OPTIONS<TAB>HELP
 *   treematch-helper policies --format man   the same as man page lines
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "tm_map.h"

static void options_text(int opts, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s",
		 opts & TM_POLICY_OPT_THRESHOLD ? " --threshold" : "",
		 opts & TM_POLICY_OPT_SET_CAP ? " --set-cap" : "",
		 opts & TM_POLICY_OPT_PREVIOUS ? " --previous" : "");
}

int cli_policies(int argc, char **argv)
{
	int man = 0;

	if (argc == 3 && strcmp(argv[1], "--format") == 0 &&
	    strcmp(argv[2], "man") == 0)
		man = 1;
	else if (argc != 1) {
		fprintf(stderr, CLI_PROGRAM ": policies: expected no option or "
			"--format man\n");
		return CLI_USAGE;
	}
	for (int a = 0; a < TM_ALGO_COUNT; a++) {
		char opts[64];

		options_text(tm_algorithm_options((tm_algorithm)a), opts,
			     sizeof(opts));
		if (man)
			printf(".TP\n.B %s\n%s%s%s\n",
			       tm_algorithm_name((tm_algorithm)a),
			       tm_algorithm_help((tm_algorithm)a),
			       opts[0] ? ". Options:" : "", opts);
		else
			printf("%s\t%s\t%s\n", tm_algorithm_name((tm_algorithm)a),
			       opts[0] ? opts + 1 : "-",
			       tm_algorithm_help((tm_algorithm)a));
	}
	return CLI_OK;
}
