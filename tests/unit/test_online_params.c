/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_online_params.c - the online placement's parameters (tm_online.h):
 * the defaults, every key, the canonical text read back to the same
 * values, and each error's exact line, as the plugin and the profiler
 * will show them.
 */
#include <config.h>

#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tm_online.h"

#define WHAT "--comm-matrix-online"

static int same_params(const tm_online_params *a, const tm_online_params *b)
{
	return a->first == b->first && a->min == b->min && a->max == b->max &&
	       a->slope == b->slope && a->policy == b->policy &&
	       a->gain == b->gain && strcmp(a->save, b->save) == 0;
}

/* Parse spec over the defaults; the error line, or "" when it passed. */
static const char *error_of(const char *spec)
{
	static tm_error err;
	tm_online_params p;

	tm_online_params_default(&p);
	err.text[0] = '\0';
	if (tm_online_params_parse(spec, WHAT, &p, &err) == TM_OK)
		return "";
	return err.text;
}

static void check_defaults(void)
{
	tm_online_params p;
	char text[256];

	tm_online_params_default(&p);
	CHECK(p.first == 1 && p.min == 0.5 && p.max == 30 && p.slope == 2,
	      "defaults: first interval 1 s, min 0.5 s, max 30 s, slope 2");
	CHECK(p.gain == 0.05 && p.save[0] == '\0',
	      "defaults: gain 0.05, save nowhere");
	CHECK_STR(tm_algorithm_name(p.policy), "treematch",
		  "default policy: treematch (doc/online.md measures it)");
	tm_online_params_format(&p, text, sizeof(text));
	CHECK_STR(text,
		  "interval=1,min=0.5,max=30,slope=2,policy=treematch,"
		  "gain=0.05", "the defaults' canonical text");
}

static void check_keys(void)
{
	tm_online_params p, d;
	tm_error err;

	tm_online_params_default(&d);
	p = d;
	CHECK(tm_online_params_parse("", WHAT, &p, &err) == TM_OK &&
	      same_params(&p, &d), "an empty text changes nothing");
	CHECK(tm_online_params_parse(NULL, WHAT, &p, &err) == TM_OK &&
	      same_params(&p, &d), "no text changes nothing");

	p = d;
	CHECK(tm_online_params_parse("interval=2.5", WHAT, &p, &err) ==
	      TM_OK && p.first == 2.5, "interval= sets the first interval");
	p = d;
	CHECK(tm_online_params_parse("min=0.25", WHAT, &p, &err) == TM_OK &&
	      p.min == 0.25, "min= sets the shortest interval");
	p = d;
	CHECK(tm_online_params_parse("max=120", WHAT, &p, &err) == TM_OK &&
	      p.max == 120, "max= sets the longest interval");
	p = d;
	CHECK(tm_online_params_parse("slope=1.5", WHAT, &p, &err) == TM_OK &&
	      p.slope == 1.5, "slope= sets v");
	p = d;
	CHECK(tm_online_params_parse("policy=spread", WHAT, &p, &err) ==
	      TM_OK && p.policy == TM_ALGO_SPREAD, "policy= takes spread");
	p = d;
	CHECK(tm_online_params_parse("gain=0", WHAT, &p, &err) == TM_OK &&
	      p.gain == 0, "gain=0 is allowed");
	p = d;
	CHECK(tm_online_params_parse("save=/tmp/a=b.json", WHAT, &p, &err) ==
	      TM_OK && strcmp(p.save, "/tmp/a=b.json") == 0,
	      "save= keeps the name after the first '='");

	p = d;
	CHECK(tm_online_params_parse("save=m.json,gain=0.2,policy=packed,"
				     "slope=4,max=8,min=0.125,interval=0.25",
				     WHAT, &p, &err) == TM_OK &&
	      p.first == 0.25 && p.min == 0.125 && p.max == 8 &&
	      p.slope == 4 && p.policy == TM_ALGO_PACKED && p.gain == 0.2 &&
	      strcmp(p.save, "m.json") == 0, "every key at once, any order");

	/* Later texts apply over earlier values (site, then user). */
	p = d;
	tm_online_params_parse("slope=3", WHAT, &p, &err);
	tm_online_params_parse("gain=0.1", WHAT, &p, &err);
	CHECK(p.slope == 3 && p.gain == 0.1,
	      "a second text keeps what the first set");

	p = d;
	tm_online_params_parse("slope=3", WHAT, &p, &err);
	tm_online_params q = p;
	CHECK(tm_online_params_parse("gain=0.5,slope=0.5", WHAT, &p, &err) !=
	      TM_OK && same_params(&p, &q),
	      "on error nothing changes, not even the keys read before");

	/* Bounds themselves are allowed. */
	CHECK_STR(error_of("min=0.01,interval=0.01"), "",
		  "min=0.01 and interval=min pass");
	CHECK_STR(error_of("max=3600,interval=3600"), "",
		  "max=3600 and interval=max pass");
	CHECK_STR(error_of("slope=16"), "", "slope=16 passes");
	CHECK_STR(error_of("gain=0.999"), "", "gain just under 1 passes");
	CHECK_STR(error_of("interval=1e0,min=+5e-1,max=3.0E1"), "",
		  "decimal exponents and signs are numbers");
	CHECK_STR(error_of("policy=hierarchical"), "",
		  "any name of the policy table is a policy");
}

static void check_round_trip(void)
{
	char text[2048], again[2048];
	tm_online_params p, q;
	tm_error err;
	int ok = 1;
	uint64_t x = 12345;

	for (int k = 0; k < 200; k++) {
		/* Values with long decimal expansions: 1/3, 0.1, ... */
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		double u = (double)(x >> 11) / 9007199254740992.0;
		tm_online_params_default(&p);
		p.min = 0.01 + u;
		p.first = p.min + u / 3;
		p.max = p.first + 1000 * u / 7;
		p.slope = 1 + 15 * u + 1e-9;
		p.gain = u * 0.999;
		p.policy = (tm_algorithm)(k % TM_ALGO_COUNT);
		snprintf(p.save, sizeof(p.save), "run-%d/m %d.json", k, k);
		tm_online_params_format(&p, text, sizeof(text));
		tm_online_params_default(&q);
		if (tm_online_params_parse(text, WHAT, &q, &err) != TM_OK ||
		    !same_params(&p, &q)) {
			printf("# %s\n", text);
			ok = 0;
			break;
		}
		tm_online_params_format(&q, again, sizeof(again));
		if (strcmp(text, again) != 0)
			ok = 0;
	}
	CHECK(ok, "200 parameter sets: format, parse, the same bits back");

	tm_online_params_default(&p);
	p.first = 1.0 / 3;
	p.gain = 0.1;
	tm_online_params_format(&p, text, sizeof(text));
	CHECK_STR(text, "interval=0.3333333333333333,min=0.5,max=30,slope=2,"
		  "policy=treematch,gain=0.1",
		  "the shortest text that reads back (16 digits for 1/3)");
	p.first = 1;
	p.max = 1500;
	p.gain = 1e-5;
	tm_online_params_format(&p, text, sizeof(text));
	CHECK_STR(text, "interval=1,min=0.5,max=1500,slope=2,"
		  "policy=treematch,gain=1e-05",
		  "integers without exponent, tiny numbers with one");
	p.max = 30;

	memset(p.save, 'f', TM_ONLINE_SAVE_MAX - 1);
	p.save[TM_ONLINE_SAVE_MAX - 1] = '\0';
	p.first = 1;
	int need = tm_online_params_format(&p, text, 16);
	CHECK(need > 1000 && strlen(text) == 15,
	      "format returns the length it needed, like snprintf");
	tm_online_params_format(&p, text, sizeof(text));
	tm_online_params_default(&q);
	CHECK(tm_online_params_parse(text, WHAT, &q, &err) == TM_OK &&
	      same_params(&p, &q), "a save name of 1023 bytes round-trips");

	/* A program may run in a locale whose decimal point is ','. */
	const char *comma[] = { "de_DE.UTF-8", "fr_FR.UTF-8", "de_DE",
				"fr_FR", NULL };
	int set = 0;
	for (int i = 0; comma[i] && !set; i++)
		set = setlocale(LC_NUMERIC, comma[i]) != NULL;
	if (set) {
		tm_online_params_default(&p);
		tm_online_params_format(&p, text, sizeof(text));
		tm_online_params_default(&q);
		q.min = 0.25;
		CHECK(strstr(text, "min=0.5,") != NULL &&
		      tm_online_params_parse(text, WHAT, &q, &err) == TM_OK &&
		      same_params(&p, &q),
		      "a ',' decimal locale neither breaks format nor parse");
		setlocale(LC_NUMERIC, "C");
	} else {
		printf("# no locale with a ',' decimal point installed: "
		       "its check is skipped\n");
	}
}

static void check_errors(void)
{
	CHECK_STR(error_of("slope=1"), WHAT ": slope=1: expected a number > 1",
		  "slope=1 is refused (v > 1)");
	CHECK_STR(error_of("slope=17"),
		  WHAT ": slope=17: expected a number <= 16",
		  "slope=17 is refused");
	CHECK_STR(error_of("slope=two"),
		  WHAT ": slope=two: expected a number > 1",
		  "slope=two is not a number");
	CHECK_STR(error_of("interval=0"),
		  WHAT ": interval=0: expected a number of seconds > 0",
		  "interval=0 is refused");
	CHECK_STR(error_of("interval=0.1"),
		  WHAT ": interval=0.1: expected a number >= min (0.5)",
		  "interval below min is refused");
	CHECK_STR(error_of("interval=31"),
		  WHAT ": interval=31: expected a number <= max (30)",
		  "interval above max is refused");
	CHECK_STR(error_of("min=0.001"),
		  WHAT ": min=0.001: expected a number of seconds >= 0.01",
		  "min below 10 ms is refused");
	CHECK_STR(error_of("min=2"),
		  WHAT ": min=2: expected a number <= interval (1)",
		  "min above the default interval names it");
	CHECK_STR(error_of("max=4000"),
		  WHAT ": max=4000: expected a number of seconds <= 3600",
		  "max above an hour is refused");
	CHECK_STR(error_of("max=0.8"),
		  WHAT ": max=0.8: expected a number >= interval (1)",
		  "max below the default interval names it");
	CHECK_STR(error_of("min=5,max=2"),
		  WHAT ": min=5: expected a number <= max (2)",
		  "min above max blames min");
	CHECK_STR(error_of("gain=1"),
		  WHAT ": gain=1: expected a number >= 0 and < 1",
		  "gain=1 is refused");
	CHECK_STR(error_of("gain=-0.1"),
		  WHAT ": gain=-0.1: expected a number >= 0 and < 1",
		  "a negative gain is refused");
	CHECK_STR(error_of("gain=nan"),
		  WHAT ": gain=nan: expected a number >= 0 and < 1",
		  "nan is not a number");
	CHECK_STR(error_of("max=inf"),
		  WHAT ": max=inf: expected a number of seconds <= 3600",
		  "inf is not a number");
	CHECK_STR(error_of("gain=0x1p-3"),
		  WHAT ": gain=0x1p-3: expected a number >= 0 and < 1",
		  "hex is not a number here");
	CHECK_STR(error_of("gain= 0.1"),
		  WHAT ": gain= 0.1: expected a number >= 0 and < 1",
		  "a blank before a number is refused");
	CHECK_STR(error_of("interval=1e999"),
		  WHAT ": interval=1e999: expected a number of seconds > 0",
		  "an overflowing number is refused");
	CHECK_STR(error_of("policy=fast"),
		  WHAT ": policy=fast: expected treematch, packed, round-robin, "
		  "mpipp, mpipp1, setmatch, hierarchical or spread",
		  "an unknown policy lists the table's names");
	CHECK_STR(error_of("policy="),
		  WHAT ": policy=: expected treematch, packed, round-robin, "
		  "mpipp, mpipp1, setmatch, hierarchical or spread",
		  "an empty policy is refused");
	CHECK_STR(error_of("save="), WHAT ": save=: expected a file name",
		  "an empty save name is refused");
	CHECK_STR(error_of("save=a\tb"),
		  WHAT ": save=a?b: expected a file name without control "
		  "characters", "a control character in save is refused");
	CHECK_STR(error_of("speed=3"),
		  WHAT ": speed=3: unknown key: expected interval, min, max, "
		  "slope, policy, gain or save", "an unknown key lists the keys");
	CHECK_STR(error_of("Slope=3"),
		  WHAT ": Slope=3: unknown key: expected interval, min, max, "
		  "slope, policy, gain or save", "keys are case-sensitive");
	CHECK_STR(error_of("interval"),
		  WHAT ": interval: expected key=value with key interval, min, "
		  "max, slope, policy, gain or save", "a key without a value");
	CHECK_STR(error_of("save=a,b"),
		  WHAT ": b: expected key=value with key interval, min, max, "
		  "slope, policy, gain or save", "',' ends the save name");
	CHECK_STR(error_of("interval=1,,min=0.5"),
		  WHAT ": empty item: expected key=value with key interval, "
		  "min, max, slope, policy, gain or save",
		  "an empty item between commas");
	CHECK_STR(error_of("interval=1,"),
		  WHAT ": empty item: expected key=value with key interval, "
		  "min, max, slope, policy, gain or save", "a trailing comma");
	CHECK_STR(error_of("slope=3,gain=0.1,slope=4"),
		  WHAT ": slope=4: slope given twice (each key at most once)",
		  "a key given twice is refused");
	CHECK_STR(error_of("policy=packed,policy=packed"),
		  WHAT ": policy=packed: policy given twice (each key at most "
		  "once)", "even with the same value");

	/* The whole is checked against values from an earlier text. */
	tm_online_params p;
	tm_error err;
	tm_online_params_default(&p);
	p.min = 5; /* as if set by hand, bypassing the parser */
	CHECK(tm_online_params_parse("gain=0.1", WHAT, &p, &err) != TM_OK,
	      "earlier values that break the rules are refused");
	CHECK_STR(err.text, WHAT ": min (5): expected a number <= interval (1)",
		  "... and the line says where the value came from");
}

static void check_hostile(void)
{
	size_t big = 1 << 20;
	char *s = malloc(big + 64);
	const char *e;

	if (!s) {
		CHECK(0, "memory for the hostile texts");
		return;
	}
	memset(s, 'x', big);
	s[big] = '\0';
	e = error_of(s);
	CHECK(strlen(e) > 0 && strlen(e) < 200 && strstr(e, "xxx...: "),
	      "a 1 MiB key: a short line quoting its start");

	memcpy(s, "save=", 5);
	e = error_of(s);
	char want[256];
	/* The first 64 bytes of the item, then "...". */
	snprintf(want, sizeof(want), "%s: save=%.59s...: expected a file "
		 "name of at most 1023 bytes", WHAT, s + 5);
	CHECK_STR(e, want, "a 1 MiB save name is refused, quoted short");

	memcpy(s, "interval=", 9);
	memset(s + 9, '1', big - 9);
	e = error_of(s);
	CHECK(strstr(e, WHAT ": interval=111") == e &&
	      strstr(e, "...: expected a number of seconds > 0"),
	      "a number of a million digits is refused");

	e = error_of("sa\nve=1\r\x1b[2J");
	CHECK(strchr(e, '\n') == NULL && strchr(e, '\r') == NULL &&
	      strchr(e, '\x1b') == NULL,
	      "control characters never reach the error line");
	CHECK_STR(e, WHAT ": sa?ve=1??[2J: unknown key: expected interval, "
		  "min, max, slope, policy, gain or save",
		  "... they show as '?'");

	/* A million commas: fails at the first empty item, reads no more. */
	memset(s, ',', big);
	s[big] = '\0';
	CHECK(strstr(error_of(s), "empty item") != NULL,
	      "a million commas: empty item");
	free(s);
}

static void check_next_interval(void)
{
	tm_online_params p;

	tm_online_params_default(&p);
	CHECK(tm_online_next_interval(&p, 1, false) == 2 &&
	      tm_online_next_interval(&p, 1, true) == 0.5,
	      "eq. 1 doubles a stable interval, eq. 2 halves a changed one");
	CHECK(tm_online_next_interval(&p, 20, false) == 30 &&
	      tm_online_next_interval(&p, 0.6, true) == 0.5,
	      "the interval stays within [min, max]");
	CHECK(tm_online_next_interval(&p, NAN, false) == 0.5,
	      "a NaN interval becomes min");
}

int main(void)
{
	check_defaults();
	check_keys();
	check_round_trip();
	check_errors();
	check_hostile();
	check_next_interval();
	return check_status();
}
