/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli_parse.c - option values the subcommands share (cli.h). */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"

int cli_parse_costs(const char *s, double *costs, int max)
{
	int n = 0;
	const char *p = s;

	while (*p && n < max) {
		char *end;

		errno = 0;
		costs[n++] = strtod(p, &end);
		if (errno || end == p)
			return -1;
		p = end;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return -1;
	}
	return *p || n == 0 ? -1 : n;
}

int cli_parse_bytes(const char *s, long long *out)
{
	char *end;

	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < 1)
		return -1;
	*out = v;
	return 0;
}

int cli_usage_error(const char *command, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, CLI_PROGRAM ": %s: ", command);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (try " CLI_PROGRAM " --help)\n");
	return CLI_USAGE;
}

int cli_input_error(const tm_error *err)
{
	fprintf(stderr, CLI_PROGRAM ": %s\n", err->text);
	return CLI_BAD_INPUT;
}
