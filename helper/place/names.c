/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * names.c - the policies' names, help and options, from the one table
 * (tm_policy_table.h).  Apart from the dispatcher (policy.c) so that what
 * needs only the names (the SPANK plugin checking an option) links none
 * of the policies.
 */
#include <config.h>

#include <string.h>

#include "tm_map.h"

#define TM_POLICY_ROW_(id, name, fn, help, opts) { name, help, opts },
static const struct {
	const char *name;
	const char *help;
	int options;
} policies[TM_ALGO_COUNT] = { TM_POLICY_TABLE(TM_POLICY_ROW_) };
#undef TM_POLICY_ROW_

const char *tm_algorithm_name(tm_algorithm a)
{
	return (unsigned)a < TM_ALGO_COUNT ? policies[a].name : "unknown";
}

const char *tm_algorithm_help(tm_algorithm a)
{
	return (unsigned)a < TM_ALGO_COUNT ? policies[a].help : "";
}

int tm_algorithm_options(tm_algorithm a)
{
	return (unsigned)a < TM_ALGO_COUNT ? policies[a].options : 0;
}

int tm_algorithm_parse(const char *name, tm_algorithm *a)
{
	for (int i = 0; i < TM_ALGO_COUNT; i++) {
		if (strcmp(name, policies[i].name) == 0) {
			*a = (tm_algorithm)i;
			return 0;
		}
	}
	return -1;
}

/* "a, b, c or d", made once from the table.  The names are constants, so
 * two callers racing to make it write the same bytes. */
const char *tm_algorithm_choices(void)
{
	static char choices[TM_ALGO_COUNT * 24];

	if (choices[0])
		return choices;
	char *p = choices;
	for (int i = 0; i < TM_ALGO_COUNT; i++) {
		const char *sep = i == 0 ? "" :
				  i == TM_ALGO_COUNT - 1 ? " or " : ", ";
		size_t room = sizeof(choices) - (size_t)(p - choices);
		size_t len = strlen(sep) + strlen(policies[i].name);

		if (len >= room)
			break;
		memcpy(p, sep, strlen(sep));
		memcpy(p + strlen(sep), policies[i].name,
		       strlen(policies[i].name) + 1);
		p += len;
	}
	return choices;
}
