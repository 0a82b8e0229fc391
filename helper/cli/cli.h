/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli.h - the subcommands of treematch-helper. */
#ifndef TM_CLI_H
#define TM_CLI_H

/* Exit statuses, the CLI contract other parts rely on. */
enum {
	CLI_OK = 0,        /* placement printed */
	CLI_BAD_INPUT = 1, /* one line on stderr names the file and place */
	CLI_USAGE = 2,     /* bad command line */
};

#define CLI_PROGRAM "treematch-helper"

int cli_map(int argc, char **argv);
int cli_policies(int argc, char **argv);
void cli_map_usage(FILE *out);

#endif /* TM_CLI_H */
