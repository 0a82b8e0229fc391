/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * level_costs.c - --level-costs: one cost per level, root first, or costs by
 * level name ("numa=100,l3=30,l2=10,core=1"), which one site can write for
 * nodes of different depths (see tm_tree.h and doc/topology.md).
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tm_tree.h"

enum { MAX_COSTS = 64, NAME_MAX_LEN = 32 };

typedef struct named_cost {
	char name[NAME_MAX_LEN]; /* lower case */
	double cost;
} named_cost;

/* "Machine, Package+NUMA, L3" into buf: the levels a cost can be given
 * for (the leaf level is the same leaf, which costs 0). */
static void list_levels(const tm_tree *t, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int d = 0; d < t->depth && len < size; d++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					d ? ", " : "", t->level_name[d]);
	if (t->depth == 0)
		snprintf(buf, size, "none (a single leaf)");
}

/* Whether s is "prefix" followed by digits only (at least one). */
static int prefix_digits(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	if (strncmp(s, prefix, n) != 0 || !s[n])
		return 0;
	for (s += n; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* A name some level of some machine may have: hwloc's types, "numa",
 * "network" (the levels above the node, ignored here), "slot". */
static int known_name(const char *n)
{
	static const char *const names[] = {
		"machine", "package", "die", "group", "numa", "core", "pu",
		"slot", "network", NULL
	};
	size_t len = strlen(n);

	for (int i = 0; names[i]; i++)
		if (strcmp(n, names[i]) == 0)
			return 1;
	if (prefix_digits(n, "group"))
		return 1;
	/* l1 .. l5, l1d, l2i, ...: caches (and tree: specs' L0, L1, ...) */
	if (n[0] == 'l' && len >= 2 && isdigit((unsigned char)n[1]) &&
	    (len == 2 || (len == 3 && (n[2] == 'd' || n[2] == 'i'))))
		return 1;
	return 0;
}

/* How well a name of the spec matches level name `level` ("Package+NUMA"):
 * 3 its type exactly, 2 a family ("group" for Group0, "l1" for L1d), 1
 * "numa" for a level that carries NUMA nodes, 0 not at all. */
static int match(const char *name, const char *level)
{
	char type[NAME_MAX_LEN];
	const char *plus = strchr(level, '+');
	size_t n = plus ? (size_t)(plus - level) : strlen(level);

	if (n >= sizeof(type))
		n = sizeof(type) - 1;
	for (size_t i = 0; i < n; i++)
		type[i] = (char)tolower((unsigned char)level[i]);
	type[n] = '\0';
	if (strcmp(name, type) == 0)
		return 3;
	if (strcmp(name, "group") == 0 && prefix_digits(type, "group"))
		return 2;
	if (strlen(name) == 2 && name[0] == 'l' &&
	    strncmp(name, type, 2) == 0 && strlen(type) == 3 &&
	    (type[2] == 'd' || type[2] == 'i'))
		return 2;
	if (strcmp(name, "numa") == 0 && plus &&
	    strcasecmp(plus + 1, "NUMA") == 0)
		return 1;
	return 0;
}

static int parse_number(const char *s, const char *end, double *out)
{
	char buf[64], *stop;
	size_t n = (size_t)(end - s);

	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	*out = strtod(buf, &stop);
	if (errno || *stop || !isfinite(*out) || *out < 0)
		return -1;
	return 0;
}

static tm_status bad_spec(tm_error *err, const tm_tree *t, const char *why)
{
	char levels[512];

	list_levels(t, levels, sizeof(levels));
	return tm_error_set(err, TM_ERR_USAGE, "%s; this tree's levels, root "
			    "first: %s", why, levels);
}

/* Costs that do not grow from the root down, or an error naming the
 * two levels. */
static tm_status check_order(const tm_tree *t, const double *cost,
			     tm_error *err)
{
	for (int d = 1; d < t->depth; d++)
		if (cost[d] > cost[d - 1])
			return tm_error_set(err, TM_ERR_USAGE,
					    "%s costs %g, more than %s above "
					    "it (%g): expected costs that do "
					    "not grow from the root down",
					    t->level_name[d], cost[d],
					    t->level_name[d - 1], cost[d - 1]);
	return TM_OK;
}

static tm_status set_positional(tm_tree *t, const char *spec, tm_error *err)
{
	double cost[MAX_COSTS];
	int n = 0;
	const char *p = spec;
	char why[256];

	while (*p) {
		const char *end = strchr(p, ',');

		if (!end)
			end = p + strlen(p);
		if (n == MAX_COSTS || parse_number(p, end, &cost[n]) < 0) {
			snprintf(why, sizeof(why), "expected numbers >= 0 "
				 "separated by commas, root level first, or "
				 "costs by level name such as numa=100,l3=30,"
				 "core=1");
			return bad_spec(err, t, why);
		}
		n++;
		p = *end ? end + 1 : end;
		if (*end && !*p)
			return bad_spec(err, t, "expected a number after the "
					"last comma");
	}
	if (n != t->depth) {
		snprintf(why, sizeof(why), "expected %d number%s, root level "
			 "first (or costs by level name such as numa=100,"
			 "l3=30,core=1)", t->depth, t->depth == 1 ? "" : "s");
		return bad_spec(err, t, why);
	}
	if (check_order(t, cost, err) != TM_OK)
		return err->status;
	return tm_tree_set_costs(t, cost, n, err);
}

static tm_status set_named(tm_tree *t, const char *spec, tm_error *err)
{
	named_cost given[MAX_COSTS];
	double cost[MAX_COSTS + 1];
	int named[MAX_COSTS + 1];
	int n = 0;
	const char *p = spec;
	char why[256];

	while (*p) {
		const char *end = strchr(p, ','), *eq = strchr(p, '=');
		size_t len;

		if (!end)
			end = p + strlen(p);
		if (!eq || eq > end || eq == p || n == MAX_COSTS ||
		    (len = (size_t)(eq - p)) >= NAME_MAX_LEN) {
			snprintf(why, sizeof(why), "expected NAME=COST items "
				 "separated by commas (e.g. numa=100,l3=30,"
				 "core=1), or one number per level");
			return bad_spec(err, t, why);
		}
		for (size_t i = 0; i < len; i++)
			given[n].name[i] = (char)tolower((unsigned char)p[i]);
		given[n].name[len] = '\0';
		if (parse_number(eq + 1, end, &given[n].cost) < 0) {
			snprintf(why, sizeof(why), "%.*s: expected a number >= "
				 "0 after '='", (int)(end - p), p);
			return bad_spec(err, t, why);
		}
		for (int i = 0; i < n; i++)
			if (strcmp(given[i].name, given[n].name) == 0) {
				snprintf(why, sizeof(why), "%.31s: given twice",
					 given[n].name);
				return bad_spec(err, t, why);
			}
		int known = known_name(given[n].name);
		for (int d = 0; d <= t->depth && !known; d++)
			known = match(given[n].name, t->level_name[d]) == 3;
		if (!known) {
			snprintf(why, sizeof(why), "%.31s: not a level name "
				 "(machine, package, die, group0, numa, l3, "
				 "l2, l1d, core, pu, network, ...)",
				 given[n].name);
			return bad_spec(err, t, why);
		}
		n++;
		p = *end ? end + 1 : end;
		if (*end && !*p)
			return bad_spec(err, t, "expected NAME=COST after the "
					"last comma");
	}
	if (t->depth > MAX_COSTS)
		return bad_spec(err, t, "too many levels");
	/* The best-matching name of each level above the leaves ("network"
	 * is above the node: it never matches). */
	for (int d = 0; d < t->depth; d++) {
		int best = 0;

		named[d] = 0;
		for (int i = 0; i < n; i++) {
			int m = match(given[i].name, t->level_name[d]);

			if (m > best) {
				best = m;
				cost[d] = given[i].cost;
				named[d] = 1;
			}
		}
	}
	/* Levels not named: the default rule, each ten times the level
	 * below (1 just above the leaves), but never more than the nearest
	 * named level above, so that costs still do not grow downwards. */
	for (int d = t->depth - 1; d >= 0; d--) {
		if (named[d])
			continue;
		double c = d + 1 < t->depth && cost[d + 1] > 0 ?
				   10 * cost[d + 1] : 1;
		for (int u = d - 1; u >= 0; u--)
			if (named[u]) {
				if (cost[u] < c)
					c = cost[u];
				break;
			}
		cost[d] = c;
	}
	if (check_order(t, cost, err) != TM_OK)
		return err->status;
	return tm_tree_set_costs(t, cost, t->depth, err);
}

tm_status tm_tree_set_level_costs(tm_tree *t, const char *spec,
				  tm_error *err)
{
	if (!spec || !*spec)
		return bad_spec(err, t, "expected costs");
	if (strchr(spec, '='))
		return set_named(t, spec, err);
	return set_positional(t, spec, err);
}
