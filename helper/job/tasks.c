/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tasks.c - SLURM_TASKS_PER_NODE, "2(x3),1" or "2,2,2,1" (see tm_job.h).
 * Repeats are counted against the bound before the list is allocated.
 */
#include <config.h>

#include <ctype.h>
#include <stdlib.h>

#include "tm_job.h"

static tm_status fail(tm_error *err, const char *what, const char *text,
		      const char *at, const char *expected)
{
	return tm_error_set(err, TM_ERR_FORMAT,
			    "%s \"%.200s\": position %d: expected %s", what,
			    text, (int)(at - text) + 1, expected);
}

/* A decimal number in 1..max at *p, advancing *p; -1 otherwise. */
static long number(const char **p, long max)
{
	const char *s = *p;
	long v = 0;

	if (!isdigit((unsigned char)*s))
		return -1;
	while (isdigit((unsigned char)*s)) {
		v = v * 10 + (*s++ - '0');
		if (v > max)
			return -1;
	}
	if (v < 1)
		return -1;
	*p = s;
	return v;
}

/* One pass over the text: the number of counts, their sum, and (when
 * counts is not NULL) the counts themselves. */
static tm_status scan(const char *what, const char *text, int max_nodes,
		      int *counts, long *n, long *sum, tm_error *err)
{
	const char *p = text;

	*n = 0;
	*sum = 0;
	while (*p) {
		const char *at = p;
		long v = number(&p, TM_MATRIX_MAX_ORDER), times = 1;

		if (v < 0)
			return fail(err, what, text, at, "a task count of at least 1");
		if (*p == '(') {
			if (p[1] != 'x')
				return fail(err, what, text, p + 1, "'x' as in 2(x3)");
			at = p += 2;
			times = number(&p, max_nodes);
			if (times < 0)
				return fail(err, what, text, at,
					    "a repeat count of at least 1, "
					    "at most the number of nodes");
			if (*p != ')')
				return fail(err, what, text, p, "')'");
			p++;
		}
		if (times > max_nodes - *n)
			return fail(err, what, text, at,
				    "at most one count per node of the job");
		if (v * times > TM_MATRIX_MAX_ORDER - *sum)
			return fail(err, what, text, at,
				    "fewer tasks (too many for one job)");
		for (long k = 0; counts && k < times; k++)
			counts[*n + k] = (int)v;
		*n += times;
		*sum += v * times;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return fail(err, what, text, p, "',' between counts");
	}
	if (*n == 0)
		return tm_error_set(err, TM_ERR_FORMAT,
				    "%s: empty, expected task counts such as "
				    "2(x3),1", what);
	return TM_OK;
}

tm_status tm_tasks_per_node_parse(const char *what, const char *text,
				  int max_nodes, int **counts, int *n,
				  tm_error *err)
{
	long count, sum;
	tm_status st;

	*counts = NULL;
	*n = 0;
	if (!text)
		text = "";
	st = scan(what, text, max_nodes, NULL, &count, &sum, err);
	if (st != TM_OK)
		return st;
	int *out = malloc(sizeof(int) * (size_t)count);
	if (!out)
		return tm_error_nomem(err);
	scan(what, text, max_nodes, out, &count, &sum, err);
	*counts = out;
	*n = (int)count;
	return TM_OK;
}
