/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * matrix_json_fast.c - a direct reader for the matrix files programs write
 * (doc/matrix-format.md): {"size": N, "entries": [[i, j, w], ...]} or
 * {"size": N, "matrix": [[...], ...]}, with "version", "unit" and lists of
 * triples under other keys (the profiler's "messages").
 *
 * jansson builds a value for every number before the reader looks at it:
 * on a matrix of a few hundred thousand weights that is most of the
 * helper's time.  This reader scans the text once and fills the entry list
 * directly.  It accepts only well-formed input of that shape, strictly by
 * the JSON grammar (ASCII strings without escapes); anything else, valid
 * or not, it hands back untouched, and the jansson reader decides and
 * words the error.  So both readers accept the same files and give the
 * same matrices: a valid file it declines is simply read the slow way.
 */
#include <config.h>

#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/matrix_parse.h"

typedef struct scan {
	const char *p, *end;
} scan;

/* JSON's whitespace: the four characters RFC 8259 allows. */
static void skip_ws(scan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' ||
				 *s->p == '\n' || *s->p == '\r'))
		s->p++;
}

static int take(scan *s, char c)
{
	skip_ws(s);
	if (s->p < s->end && *s->p == c) {
		s->p++;
		return 1;
	}
	return 0;
}

/* A string of printable ASCII without escapes into buf; 0 if anything
 * else (the jansson reader handles the rest of JSON's strings). */
static int string(scan *s, char *buf, size_t size)
{
	size_t n = 0;

	if (!take(s, '"'))
		return 0;
	while (s->p < s->end && *s->p != '"') {
		unsigned char c = (unsigned char)*s->p++;
		if (c < 0x20 || c >= 0x7f || c == '\\' || n + 1 >= size)
			return 0;
		buf[n++] = (char)c;
	}
	if (s->p == s->end)
		return 0;
	s->p++;
	buf[n] = '\0';
	return 1;
}

/* A number by JSON's grammar; *is_integer when it has no fraction or
 * exponent (what jansson stores as an integer).  Integers come back in
 * *ival (up to 18 digits, else 0: the slow reader judges larger ones),
 * every number in *dval. */
static int number(scan *s, int *is_integer, long long *ival, double *dval)
{
	const char *start;
	char buf[64];

	skip_ws(s);
	start = s->p;
	if (s->p < s->end && *s->p == '-')
		s->p++;
	if (s->p == s->end || *s->p < '0' || *s->p > '9')
		return 0;
	/* the integer part is converted as it is scanned: strtoll's locale
	 * and base handling took a third of the reading time */
	unsigned long long digits = 0;
	if (*s->p == '0') {
		s->p++;
	} else {
		while (s->p < s->end && *s->p >= '0' && *s->p <= '9' &&
		       s->p - start < 19)
			digits = digits * 10 + (unsigned)(*s->p++ - '0');
		/* too long for an integer: the length check below says no */
		while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
			s->p++;
	}
	*is_integer = 1;
	if (s->p < s->end && *s->p == '.') {
		*is_integer = 0;
		if (++s->p == s->end || *s->p < '0' || *s->p > '9')
			return 0;
		while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
			s->p++;
	}
	if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
		*is_integer = 0;
		if (++s->p < s->end && (*s->p == '+' || *s->p == '-'))
			s->p++;
		if (s->p == s->end || *s->p < '0' || *s->p > '9')
			return 0;
		while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
			s->p++;
	}
	size_t len = (size_t)(s->p - start);
	if (len >= sizeof(buf) || (*is_integer && len > 18))
		return 0;
	if (*is_integer) {
		*ival = *start == '-' ? -(long long)digits : (long long)digits;
		*dval = (double)*ival;
		return 1;
	}
	memcpy(buf, start, len);
	buf[len] = '\0';
	*dval = strtod(buf, NULL);
	return 1;
}

/* A weight as the jansson reader takes it: any number, finite, >= 0. */
static int weight(scan *s, double *w)
{
	int is_integer;
	long long i;

	return number(s, &is_integer, &i, w) && tm__weight_is_valid(*w);
}

static int rank(scan *s, long long *r)
{
	int is_integer;
	double d;

	return number(s, &is_integer, r, &d) && is_integer && *r >= 0 &&
	       *r < TM_MATRIX_MAX_ORDER;
}

/* [[i, j, w], ...]; kept in list when list is not NULL (else only
 * checked: the profiler's message counts); *max_rank is the largest rank
 * seen, to be checked against the size once it is known. */
static int triples(scan *s, tm_entry_list *list, long long *max_rank)
{
	if (!take(s, '['))
		return 0;
	if (take(s, ']'))
		return 1;
	do {
		long long i, j;
		double w;

		if (!take(s, '[') || !rank(s, &i) || !take(s, ',') ||
		    !rank(s, &j) || !take(s, ',') || !weight(s, &w) ||
		    !take(s, ']'))
			return 0;
		if (i > *max_rank)
			*max_rank = i;
		if (j > *max_rank)
			*max_rank = j;
		if (list && i != j && w > 0 &&
		    tm__entry_list_push(list, (int)i, (int)j, w) != 0)
			return 0;
	} while (take(s, ','));
	return take(s, ']');
}

/* [[w, ...], ...]: every row's length must be the row count, checked
 * against the size at the end. */
static int rows(scan *s, tm_entry_list *list, long long *nrows)
{
	long long r = 0;

	if (!take(s, '['))
		return 0;
	if (take(s, ']'))
		return 0; /* no rows: the size is at least 1 */
	do {
		long long c = 0;
		double w;

		if (!take(s, '['))
			return 0;
		if (!take(s, ']')) {
			do {
				if (!weight(s, &w) || r >= TM_MATRIX_MAX_ORDER ||
				    c >= TM_MATRIX_MAX_ORDER)
					return 0;
				if (r != c && w > 0 &&
				    tm__entry_list_push(list, (int)r, (int)c, w))
					return 0;
				c++;
			} while (take(s, ','));
			if (!take(s, ']'))
				return 0;
		}
		if (r > 0 && c != *nrows)
			return 0;
		*nrows = c; /* the first row's length, for the next rows */
		r++;
	} while (take(s, ','));
	if (r != *nrows)
		return 0;
	return take(s, ']');
}

int tm__matrix_parse_json_fast(const char *name, const char *text,
			      size_t len, long order, tm_matrix **out,
			      tm_status *status, tm_error *err)
{
	enum { SEEN_VERSION = 1, SEEN_SIZE = 2, SEEN_UNIT = 4,
	       SEEN_ENTRIES = 8, SEEN_MATRIX = 16 };
	scan s = { text, text + len };
	tm_entry_list list = { 0 };
	long long size = 0, max_rank = -1, nrows = -1;
	int seen = 0, ok = 0;
	char key[64], unit[256], other[64] = "";

	/* strtod follows the locale's decimal point; jansson does not (srun,
	 * which reads matrices through this library, may set a locale) */
	if (localeconv()->decimal_point[0] != '.' ||
	    localeconv()->decimal_point[1] != '\0')
		return 0;
	if (!take(&s, '{'))
		return 0;
	do {
		int is_integer;
		long long v;
		double d;
		int bit = 0;

		if (!string(&s, key, sizeof(key)) || !take(&s, ':'))
			goto decline;
		if (!strcmp(key, "version")) {
			bit = SEEN_VERSION;
			if (!number(&s, &is_integer, &v, &d) || !is_integer ||
			    v != 1)
				goto decline;
		} else if (!strcmp(key, "size")) {
			bit = SEEN_SIZE;
			if (!number(&s, &is_integer, &size, &d) || !is_integer ||
			    size < 1 || size > TM_MATRIX_MAX_ORDER)
				goto decline;
		} else if (!strcmp(key, "unit")) {
			bit = SEEN_UNIT;
			if (!string(&s, unit, sizeof(unit)))
				goto decline;
		} else if (!strcmp(key, "entries")) {
			bit = SEEN_ENTRIES;
			if (!triples(&s, &list, &max_rank))
				goto decline;
		} else if (!strcmp(key, "matrix")) {
			bit = SEEN_MATRIX;
			if (!rows(&s, &list, &nrows))
				goto decline;
		} else {
			/* other data must not change the matrix; one list of
			 * triples is recognised here (the profiler's message
			 * counts), more goes the slow way, which also checks
			 * that no key repeats */
			long long ignored = -1;
			if (other[0] || !triples(&s, NULL, &ignored))
				goto decline;
			strcpy(other, key);
		}
		if (seen & bit)
			goto decline; /* duplicate key: jansson refuses it */
		seen |= bit;
	} while (take(&s, ','));
	if (!take(&s, '}'))
		goto decline;
	skip_ws(&s);
	if (s.p != s.end || !(seen & SEEN_SIZE) ||
	    !(seen & SEEN_ENTRIES) == !(seen & SEEN_MATRIX) ||
	    max_rank >= size || ((seen & SEEN_MATRIX) && nrows != size))
		goto decline;
	ok = 1;
	*status = tm__matrix_from_list(name, (int)size, order, len, &list,
				       out, err);
decline:
	tm__entry_list_free(&list);
	return ok;
}
