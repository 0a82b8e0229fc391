/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options.c - the options the plugin adds to srun, sbatch and salloc.
 *
 * Registered in every context: srun/sbatch/salloc parse them, and
 * slurmstepd must know them to receive their values.  An #SBATCH line
 * reaches every srun of the script through SLURM_SPANK_* variables.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "tm_map.h"
#include "tm_spank.h"

user_options user_opt;

static int set_string(char **dst, const char *v)
{
	char *copy = v ? strdup(v) : NULL;

	if (v && !copy)
		return -1;
	free(*dst);
	*dst = copy;
	return 0;
}

enum { OPT_MATRIX, OPT_REPORT, OPT_TOPOLOGY, OPT_ALGORITHM,
       OPT_KEEP_LAYOUT, OPT_SVG, OPT_ONLINE };

static const site_config *site;
/* the table below, for reading srun's command line (srun_args.c) */
static const struct spank_option *table;

static int option_cb(int val, const char *optarg, int remote)
{
	/* In slurmstepd the values come from the job's environment, which
	 * the user controls: nothing is checked or logged here (Slurm would
	 * log a refused value as it is, line breaks included); remote.c
	 * reads the plugin's own variables as untrusted input. */
	if (remote)
		return 0;
	/* the nodes read these back from the job's environment into buffers
	 * of TEXT_MAX: a longer value would be lost there, not refused */
	if (optarg && strlen(optarg) >= TEXT_MAX - 1) {
		say(PLUGIN ": --comm-matrix option value of %zu characters: "
		    "expected at most %d", strlen(optarg), TEXT_MAX - 2);
		return -1;
	}
	switch (val) {
	case OPT_MATRIX:
		if (!optarg || !*optarg) {
			say(PLUGIN ": --comm-matrix: expected a file name");
			return -1;
		}
		if (set_string(&user_opt.matrix, optarg) < 0)
			return -1;
		/* The last --comm-matrix wins wholly (#SBATCH's, then srun's,
		 * or twice on one line): what an earlier FILE placed across
		 * nodes goes with it.  online: no matrix yet, nothing to
		 * place the ranks by. */
		if (online_asked(optarg))
			jobwide_withdraw();
		else if (site)
			jobwide_option(site, optarg, table);
		return 0;
	case OPT_KEEP_LAYOUT:
		user_opt.keep_layout = 1;
		jobwide_withdraw();
		return 0;
	case OPT_SVG:
		user_opt.svg = 1;
		return 0;
	case OPT_REPORT:
		user_opt.report = 1;
		return 0;
	case OPT_TOPOLOGY:
		if (!optarg || (strncmp(optarg, "xml:", 4) &&
				strncmp(optarg, "synthetic:", 10) &&
				strncmp(optarg, "tree:", 5))) {
			say(PLUGIN ": --comm-matrix-topology=%s: expected "
			    "xml:PATH, synthetic:DESCRIPTION or tree:ARITIES",
			    optarg ? optarg : "");
			return -1;
		}
		return set_string(&user_opt.topology, optarg);
	case OPT_ONLINE: {
		/* checked here, with the site's online= under it, so that a
		 * typo stops srun before anything is allocated */
		char params[ONLINE_TEXT_MAX], why[TEXT_MAX];

		if (!site || online_params(site, NULL, optarg ? optarg : "",
					   "--comm-matrix-online", params,
					   sizeof(params), why,
					   sizeof(why)) < 0) {
			say(PLUGIN ": %s", site ? why : "not configured");
			return -1;
		}
		return set_string(&user_opt.online, optarg ? optarg : "");
	}
	case OPT_ALGORITHM: {
		/* Checked here, in srun, with the helper's own list: a typo
		 * stops the step before anything is allocated. */
		tm_algorithm a;

		if (!optarg || tm_algorithm_parse(optarg, &a) < 0) {
			say(PLUGIN ": --comm-matrix-algorithm=%s: expected %s",
			    optarg ? optarg : "", tm_algorithm_choices());
			return -1;
		}
		return set_string(&user_opt.algorithm, optarg);
	}
	}
	return -1;
}

/* srun --help prints each usage in a column of about 48 characters under
 * "Options provided by plugins": one line each (tests/e2e/27-package.sh);
 * spank-treematch(8) says the rest. */
static struct spank_option options[] = {
	{ "comm-matrix", "FILE",
	  "Place tasks by TreeMatch from this matrix",
	  1, OPT_MATRIX, option_cb },
	{ "comm-matrix-report", NULL,
	  "Print each node's placement and cost on stderr",
	  0, OPT_REPORT, option_cb },
	{ "comm-matrix-topology", "TOPO",
	  "Dry run for TOPO (xml:, synthetic:, tree:2,8,2)",
	  1, OPT_TOPOLOGY, option_cb },
	{ "comm-matrix-algorithm", "NAME",
	  "Placement policy (treematch-helper policies)",
	  1, OPT_ALGORITHM, option_cb },
	{ "comm-matrix-keep-layout", NULL,
	  "Keep Slurm's nodes; place within each node",
	  0, OPT_KEEP_LAYOUT, option_cb },
	{ "comm-matrix-svg", NULL,
	  "Draw each node's placement (SVG file)",
	  0, OPT_SVG, option_cb },
	{ "comm-matrix-online", "SPEC",
	  "With =online: interval=S,max=S,slope=V...",
	  1, OPT_ONLINE, option_cb },
	SPANK_OPTIONS_TABLE_END
};

int options_register(spank_t sp, const site_config *cfg)
{
	site = cfg;
	table = options;
	for (struct spank_option *o = options; o->name; o++) {
		spank_err_t rc = spank_option_register(sp, o);

		if (rc != ESPANK_SUCCESS) {
			slurm_error(PLUGIN ": cannot register --%s: %s", o->name,
				    spank_strerror(rc));
			return -1;
		}
	}
	return 0;
}
