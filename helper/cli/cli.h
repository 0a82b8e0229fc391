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

#include "tm_error.h"

int cli_map(int argc, char **argv);
int cli_policies(int argc, char **argv);
int cli_job(int argc, char **argv);
void cli_map_usage(FILE *out);
void cli_job_usage(FILE *out);

/* Shared option values (cli_parse.c). */
/* "100,10,1": at most max numbers into costs; their count, or -1. */
int cli_parse_costs(const char *s, double *costs, int max);
/* "treematch-helper COMMAND: ... (try treematch-helper --help)" on
 * stderr; returns CLI_USAGE. */
int cli_usage_error(const char *command, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The library's one line on stderr; returns CLI_BAD_INPUT. */
int cli_input_error(const tm_error *err);
/* A number of bytes >= 1; 0, or -1 when s is not one. */
int cli_parse_bytes(const char *s, long long *out);

#endif /* TM_CLI_H */
