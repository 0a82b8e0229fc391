/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hostlist.c - Slurm's compressed host lists, "n[1-4,7],gpu[01-02],login"
 * (see tm_job.h).  The text comes from the job's environment or a
 * topology file: every range is counted against the caller's bound before
 * a name is allocated, so "n[0-999999999]" costs nothing.
 */
#include <config.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tm_job.h"

/* Enough for any real range; keeps lo, hi and 10^digits in a long. */
enum { MAX_DIGITS = 9, MAX_BRACKETS = 8 };

typedef struct range {
	long lo, hi;
	int width; /* digits of lo as written: "01" pads to two */
} range;

/* One name pattern: literal text between brackets of ranges. */
typedef struct part {
	const char *lit; /* literal text, or NULL for a bracket */
	int litlen;
	int first, nranges; /* its ranges in the shared array */
	long count;         /* numbers in the bracket */
} part;

typedef struct pattern {
	int nparts;
	part part[2 * MAX_BRACKETS + 1];
} pattern;

static int name_char(int c)
{
	return isalnum(c) || c == '-' || c == '_' || c == '.';
}

static tm_status fail(tm_error *err, const char *what, const char *text,
		      const char *at, const char *expected)
{
	return tm_error_set(err, TM_ERR_FORMAT,
			    "%s \"%.200s\": position %d: expected %s", what,
			    text, (int)(at - text) + 1, expected);
}

static int digits_of(long v)
{
	int d = 1;

	while (v >= 10) {
		v /= 10;
		d++;
	}
	return d;
}

/* A number of 1..MAX_DIGITS digits at *p; advances *p. */
static int parse_number(const char **p, long *v, int *width)
{
	const char *s = *p;
	long x = 0;
	int n = 0;

	while (isdigit((unsigned char)s[n])) {
		if (n == MAX_DIGITS)
			return -1;
		x = x * 10 + (s[n] - '0');
		n++;
	}
	if (n == 0)
		return -1;
	*p = s + n;
	*v = x;
	*width = n;
	return 0;
}

/* The bracket at *p ('[' already passed): ranges into r[*nr..]; advances
 * *p past ']'.  The count of numbers is returned in *count. */
static tm_status parse_bracket(const char *what, const char *text,
			       const char **p, range *r, int *nr, long *count,
			       tm_error *err)
{
	const char *s = *p;

	*count = 0;
	for (;;) {
		range x;
		int w;

		if (parse_number(&s, &x.lo, &x.width) < 0)
			return fail(err, what, text, s,
				    "a number of 1 to 9 digits");
		x.hi = x.lo;
		if (*s == '-') {
			s++;
			if (parse_number(&s, &x.hi, &w) < 0)
				return fail(err, what, text, s,
					    "a number of 1 to 9 digits");
			if (x.hi < x.lo)
				return fail(err, what, text, s - w,
					    "the end of a range not below its start");
		}
		r[(*nr)++] = x;
		*count += x.hi - x.lo + 1; /* at most strlen * 10^9: no overflow */
		if (*s == ']') {
			*p = s + 1;
			return TM_OK;
		}
		if (*s != ',')
			return fail(err, what, text, s, "',' or ']'");
		s++;
	}
}

/* One comma-separated item at *p: its pattern, and how many names it
 * gives (refused above `room` before anything is allocated). */
static tm_status parse_item(const char *what, const char *text,
			    const char **p, pattern *pat, range *r, int *nr,
			    long room, long *count, tm_error *err)
{
	const char *s = *p, *start = s;
	long total = 1;
	int len = 0, brackets = 0;

	pat->nparts = 0;
	while (*s && *s != ',') {
		if (*s == '[') {
			if (brackets == MAX_BRACKETS)
				return fail(err, what, text, s,
					    "at most 8 brackets in one name");
			const char *open = s++;
			int first = *nr, maxw = 0;
			long c;
			tm_status st = parse_bracket(what, text, &s, r, nr,
						     &c, err);

			if (st != TM_OK)
				return st;
			for (int k = first; k < *nr; k++) {
				int w = digits_of(r[k].hi);
				maxw = w > maxw ? w : maxw;
				maxw = r[k].width > maxw ? r[k].width : maxw;
			}
			len += maxw;
			total *= c;
			if (total > room)
				return fail(err, what, text, open,
					    "fewer names (too many for this job)");
			pat->part[pat->nparts++] = (part){
				.lit = NULL, .first = first,
				.nranges = *nr - first, .count = c };
			brackets++;
			continue;
		}
		const char *lit = s;
		while (name_char((unsigned char)*s))
			s++;
		if (s == lit)
			return fail(err, what, text, s, "a host name character "
				    "(letter, digit, '-', '_', '.') or '['");
		len += (int)(s - lit);
		pat->part[pat->nparts++] = (part){
			.lit = lit, .litlen = (int)(s - lit) };
		if (len > TM_JOB_MAX_NAME)
			break;
	}
	if (s == start)
		return fail(err, what, text, s, "a host name");
	if (len > TM_JOB_MAX_NAME)
		return fail(err, what, text, start,
			    "a host name of at most 255 characters");
	*p = s;
	*count = total;
	return TM_OK;
}

/* Write the names of one pattern, in order (the last bracket fastest). */
static tm_status expand(const pattern *pat, const range *r, char **names,
			int *n, tm_error *err)
{
	long index[2 * MAX_BRACKETS + 1] = { 0 };
	char buf[TM_JOB_MAX_NAME + 16];

	for (;;) {
		int len = 0;

		for (int k = 0; k < pat->nparts; k++) {
			if (pat->part[k].lit) {
				memcpy(buf + len, pat->part[k].lit,
				       (size_t)pat->part[k].litlen);
				len += pat->part[k].litlen;
				continue;
			}
			/* the index-th number of the bracket */
			long i = index[k];
			const range *x = r + pat->part[k].first;
			while (i > x->hi - x->lo) {
				i -= x->hi - x->lo + 1;
				x++;
			}
			len += snprintf(buf + len, sizeof(buf) - (size_t)len,
					"%0*ld", x->width, x->lo + i);
		}
		buf[len] = '\0';
		if (!(names[*n] = strdup(buf)))
			return tm_error_nomem(err);
		(*n)++;
		int k = pat->nparts - 1;
		for (; k >= 0; k--) {
			if (pat->part[k].lit)
				continue;
			if (++index[k] < pat->part[k].count)
				break;
			index[k] = 0;
		}
		if (k < 0)
			return TM_OK;
	}
}

void tm_hostlist_free(char **names, int count)
{
	if (!names)
		return;
	for (int k = 0; k < count; k++)
		free(names[k]);
	free(names);
}

tm_status tm_hostlist_expand(const char *what, const char *text,
			     int max_names, char ***names, int *count,
			     tm_error *err)
{
	size_t len = text ? strlen(text) : 0;
	const char *p = text;
	long total = 0;
	int nr = 0;
	tm_status st;

	*names = NULL;
	*count = 0;
	if (!text || !*text)
		return tm_error_set(err, TM_ERR_FORMAT,
				    "%s: empty, expected a host list such as "
				    "n[1-4,7]", what);
	/* a range needs at least two characters: len / 2 + 1 of them fit */
	range *r = malloc(sizeof(*r) * (len / 2 + 1));
	pattern pat;
	if (!r)
		return tm_error_nomem(err);
	/* first pass: count, so that nothing big is allocated for nothing */
	while (*p) {
		long c;

		nr = 0;
		st = parse_item(what, text, &p, &pat, r, &nr, max_names - total,
				&c, err);
		if (st != TM_OK) {
			free(r);
			return st;
		}
		total += c;
		if (*p == ',' && !*++p) {
			free(r);
			return fail(err, what, text, p, "a host name after ','");
		}
	}
	char **out = calloc((size_t)total, sizeof(char *));
	int n = 0;
	if (!out) {
		free(r);
		return tm_error_nomem(err);
	}
	for (p = text; *p; p += *p == ',') {
		long c;

		nr = 0;
		parse_item(what, text, &p, &pat, r, &nr, max_names, &c, err);
		st = expand(&pat, r, out, &n, err);
		if (st != TM_OK) {
			free(r);
			tm_hostlist_free(out, n);
			return st;
		}
	}
	free(r);
	*names = out;
	*count = n;
	return TM_OK;
}
