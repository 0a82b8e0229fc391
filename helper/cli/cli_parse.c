/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli_parse.c - option values the subcommands share (cli.h). */
#include <config.h>

#include <errno.h>
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
