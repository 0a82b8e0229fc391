/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * params.c - the online placement's parameters as one text (tm_online.h):
 * "interval=1,min=0.5,max=30,slope=2,policy=treematch,gain=0.05,save=FILE".
 *
 * In libtmcore: the SPANK plugin checks --comm-matrix-online with it, and
 * the profiler reads TREEMATCH_ONLINE_PARAMS with it, neither of which
 * maps.  Parsing allocates nothing and copies nothing of a hostile text
 * but what an error line quotes (cut short).  Numbers are read and written
 * in the C locale: an MPI program may set one whose decimal point is the
 * ',' that separates our items.  The reasons of the defaults and bounds
 * are in doc/online.md ("Parameters").
 */
#include <config.h>

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tm_online.h"

/* Bounds of doc/online.md: below 10 ms a round costs more than it can
 * save; above an hour a change of pattern is never followed; a slope of
 * 16 already jumps from min to max in three rounds. */
#define MIN_FLOOR 0.01
#define MAX_CEILING 3600.0
#define SLOPE_CEILING 16.0

/* How much of a bad item an error line quotes. */
enum { QUOTE_MAX = 64, NUMBER_MAX = 64 };

enum key {
	KEY_INTERVAL, KEY_MIN, KEY_MAX, KEY_SLOPE, KEY_POLICY, KEY_GAIN,
	KEY_SAVE, KEY_COUNT
};

static const char *const key_name[KEY_COUNT] = {
	"interval", "min", "max", "slope", "policy", "gain", "save"
};

#define KNOWN_KEYS "interval, min, max, slope, policy, gain or save"

void tm_online_params_default(tm_online_params *p)
{
	memset(p, 0, sizeof(*p));
	p->first = 1.0;
	p->min = 0.5;
	p->max = 30.0;
	p->slope = 2.0;
	/* Measured, not guessed: doc/online.md ("Which policy"). */
	p->policy = TM_ALGO_TREEMATCH;
	p->gain = 0.05;
	p->save[0] = '\0';
}

/* The item as an error line shows it: at most QUOTE_MAX bytes, control
 * characters as '?', so that a hostile text gives one short line. */
static void quote(const char *s, size_t len, char *out, size_t size)
{
	size_t n = len < QUOTE_MAX ? len : QUOTE_MAX;

	if (n > size - 4)
		n = size - 4;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		out[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	if (n < len) {
		memcpy(out + n, "...", 4);
	} else {
		out[n] = '\0';
	}
}

/* strtod's decimal syntax only: [+-] digits [. digits] [e [+-] digits].
 * Blanks, hex, "inf" and "nan", which strtod would also take, are not
 * numbers here. */
static int is_decimal(const char *s, size_t len)
{
	size_t p = 0, digits = 0, exponent_digits = 0;

	if (p < len && (s[p] == '+' || s[p] == '-'))
		p++;
	for (; p < len && s[p] >= '0' && s[p] <= '9'; p++)
		digits++;
	if (p < len && s[p] == '.')
		for (p++; p < len && s[p] >= '0' && s[p] <= '9'; p++)
			digits++;
	if (digits == 0)
		return 0;
	if (p < len && (s[p] == 'e' || s[p] == 'E')) {
		p++;
		if (p < len && (s[p] == '+' || s[p] == '-'))
			p++;
		for (; p < len && s[p] >= '0' && s[p] <= '9'; p++)
			exponent_digits++;
		if (exponent_digits == 0)
			return 0;
	}
	return p == len;
}

/* 0 and *v when s[0..len) is a finite decimal number; -1 otherwise
 * (including out of memory for the C locale: the caller's error then
 * says "expected a number", which is wrong only in a dying process). */
static int read_number(const char *s, size_t len, double *v)
{
	char buf[NUMBER_MAX];

	if (len == 0 || len >= sizeof(buf) || !is_decimal(s, len))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (c == (locale_t)0)
		return -1;
	*v = strtod_l(buf, NULL, c);
	freelocale(c);
	return isfinite(*v) ? 0 : -1;
}

/* What one item may hold, once it is known to be a number (or not). */
static const char *check_number(enum key k, int ok, double v)
{
	switch (k) {
	case KEY_INTERVAL:
		return ok && v > 0 ? NULL : "expected a number of seconds > 0";
	case KEY_MIN:
		return ok && v >= MIN_FLOOR ? NULL :
		       "expected a number of seconds >= 0.01";
	case KEY_MAX:
		return ok && v <= MAX_CEILING ? NULL :
		       "expected a number of seconds <= 3600";
	case KEY_SLOPE:
		if (!ok || !(v > 1))
			return "expected a number > 1";
		return v <= SLOPE_CEILING ? NULL : "expected a number <= 16";
	case KEY_GAIN:
		return ok && v >= 0 && v < 1 ? NULL :
		       "expected a number >= 0 and < 1";
	default:
		return NULL;
	}
}

static const char *check_save(const char *s, size_t len)
{
	if (len == 0)
		return "expected a file name";
	if (len >= TM_ONLINE_SAVE_MAX)
		return "expected a file name of at most 1023 bytes";
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c == 0x7f)
			return "expected a file name without control "
			       "characters";
	}
	return NULL;
}

/* Where each key was given, to quote it when the whole is checked. */
typedef struct given {
	const char *item[KEY_COUNT];
	size_t len[KEY_COUNT];
} given;

static tm_status item_error(tm_error *err, const char *what,
			    const char *item, size_t len, const char *why)
{
	char q[QUOTE_MAX + 4];

	quote(item, len, q, sizeof(q));
	return tm_error_set(err, TM_ERR_USAGE, "%s: %s: %s", what, q, why);
}

static tm_status parse_item(const char *item, size_t len, const char *what,
			    tm_online_params *p, given *g, tm_error *err)
{
	const char *eq = memchr(item, '=', len);

	if (len == 0)
		return tm_error_set(err, TM_ERR_USAGE,
				    "%s: empty item: expected key=value "
				    "with key " KNOWN_KEYS, what);
	if (!eq)
		return item_error(err, what, item, len,
				  "expected key=value with key " KNOWN_KEYS);
	size_t klen = (size_t)(eq - item);
	const char *value = eq + 1;
	size_t vlen = len - klen - 1;
	int k = 0;

	while (k < KEY_COUNT && !(strlen(key_name[k]) == klen &&
				  memcmp(key_name[k], item, klen) == 0))
		k++;
	if (k == KEY_COUNT)
		return item_error(err, what, item, len,
				  "unknown key: expected " KNOWN_KEYS);
	if (g->item[k]) {
		char why[64];

		snprintf(why, sizeof(why), "%s given twice (each key at most "
			 "once)", key_name[k]);
		return item_error(err, what, item, len, why);
	}
	g->item[k] = item;
	g->len[k] = len;

	if (k == KEY_POLICY) {
		char name[32];
		tm_algorithm a;
		int known = vlen < sizeof(name);

		if (known) {
			memcpy(name, value, vlen);
			name[vlen] = '\0';
			known = tm_algorithm_parse(name, &a) == 0;
		}
		if (!known) {
			char why[TM_ERROR_TEXT_MAX / 2];

			snprintf(why, sizeof(why), "expected %s",
				 tm_algorithm_choices());
			return item_error(err, what, item, len, why);
		}
		p->policy = a;
		return TM_OK;
	}
	if (k == KEY_SAVE) {
		const char *why = check_save(value, vlen);

		if (why)
			return item_error(err, what, item, len, why);
		memcpy(p->save, value, vlen);
		p->save[vlen] = '\0';
		return TM_OK;
	}
	double v = 0;
	int ok = read_number(value, vlen, &v) == 0;
	const char *why = check_number((enum key)k, ok, v);

	if (why)
		return item_error(err, what, item, len, why);
	switch (k) {
	case KEY_INTERVAL: p->first = v; break;
	case KEY_MIN: p->min = v; break;
	case KEY_MAX: p->max = v; break;
	case KEY_SLOPE: p->slope = v; break;
	default: p->gain = v; break;
	}
	return TM_OK;
}

/* The shortest %g text that strtod reads back to exactly v (17 digits
 * always do for a double).  Called with the C locale in use. */
static void shortest(double v, char *buf, size_t size)
{
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	/* %g writes 30 as "3e+01": an exponent >= its digits means an
	 * integer, which %.0f writes exactly and as people do. */
	if (strstr(buf, "e+") && fabs(v) < 1e16)
		snprintf(buf, size, "%.0f", v);
}

/* v as shortest() writes it, in the C locale whatever the caller's. */
static void format_number(double v, char *buf, size_t size)
{
	locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	locale_t old = c != (locale_t)0 ? uselocale(c) : (locale_t)0;

	shortest(v, buf, size);
	if (c != (locale_t)0) {
		uselocale(old);
		freelocale(c);
	}
}

/* One bound between two keys: blame the one the text gave (`a` when both
 * or neither did: the lower key of the pair, as the user reads it). */
static tm_status order_error(tm_error *err, const char *what,
			     const given *g, enum key a, double va,
			     enum key b, double vb)
{
	enum key blame = g->item[a] || !g->item[b] ? a : b;
	enum key other = blame == a ? b : a;
	double limit = blame == a ? vb : va;
	char why[96], item[QUOTE_MAX + 40], num[32];

	format_number(limit, num, sizeof(num));
	snprintf(why, sizeof(why), "expected a number %s %s (%s)",
		 blame == a ? "<=" : ">=", key_name[other], num);
	if (g->item[blame]) {
		quote(g->item[blame], g->len[blame], item, QUOTE_MAX + 4);
	} else {
		/* From an earlier text or the defaults: say so. */
		format_number(blame == a ? va : vb, num, sizeof(num));
		snprintf(item, sizeof(item), "%s (%s)", key_name[blame], num);
	}
	return tm_error_set(err, TM_ERR_USAGE, "%s: %s: %s", what, item, why);
}

tm_status tm_online_params_parse(const char *spec, const char *what,
				 tm_online_params *p, tm_error *err)
{
	tm_online_params q = *p;
	given g = { 0 };
	tm_status status;

	if (!what)
		what = "online parameters";
	if (!spec || !*spec)
		return TM_OK;
	for (const char *s = spec;;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);

		status = parse_item(s, len, what, &q, &g, err);
		if (status != TM_OK)
			return status;
		if (!comma)
			break;
		s = comma + 1;
	}
	/* The whole: min <= max, then min <= interval <= max. */
	if (!(q.min <= q.max))
		return order_error(err, what, &g, KEY_MIN, q.min, KEY_MAX,
				   q.max);
	if (!(q.min <= q.first))
		return order_error(err, what, &g, KEY_MIN, q.min,
				   KEY_INTERVAL, q.first);
	if (!(q.first <= q.max))
		return order_error(err, what, &g, KEY_INTERVAL, q.first,
				   KEY_MAX, q.max);
	*p = q;
	return TM_OK;
}

int tm_online_params_format(const tm_online_params *p, char *buf,
			    size_t size)
{
	char num[4][32];
	const double v[4] = { p->first, p->min, p->max, p->slope };
	char gain[32];

	for (int i = 0; i < 4; i++)
		format_number(v[i], num[i], sizeof(num[i]));
	format_number(p->gain, gain, sizeof(gain));
	return snprintf(buf, size,
			"interval=%s,min=%s,max=%s,slope=%s,policy=%s,gain=%s"
			"%s%.*s",
			num[0], num[1], num[2], num[3],
			tm_algorithm_name(p->policy), gain,
			p->save[0] ? ",save=" : "",
			(int)TM_ONLINE_SAVE_MAX - 1, p->save);
}

double tm_online_next_interval(const tm_online_params *p, double current,
			       bool changed)
{
	/* Eq. 1 while the mapping is stable, eq. 2 after it moved tasks. */
	double next = changed ? current / p->slope : current * p->slope;

	if (!(next >= p->min)) /* also a NaN current */
		next = p->min;
	if (next > p->max)
		next = p->max;
	return next;
}
