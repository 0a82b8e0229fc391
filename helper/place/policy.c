/* SPDX-License-Identifier: GPL-2.0-or-later */
/* policy.c - tm_map_with: one row of tm_policy_table.h per policy. */
#include <config.h>

#include "place/policy.h"
#include "tm_map.h"

#define TM_POLICY_ENTRY_(id, name, fn, help, opts) [TM_ALGO_##id] = fn,
static tm__policy_fn *const entry_point[TM_ALGO_COUNT] = {
	TM_POLICY_TABLE(TM_POLICY_ENTRY_)
};
#undef TM_POLICY_ENTRY_

tm_status tm_map(tm_algorithm a, const tm_tree *t, const tm_matrix *m,
		 int *leaf_of, tm_error *err)
{
	return tm_map_with(a, NULL, t, m, leaf_of, err);
}

tm_status tm_map_with(tm_algorithm a, const tm_map_options *opt,
		      const tm_tree *t, const tm_matrix *m, int *leaf_of,
		      tm_error *err)
{
	static const tm_map_options defaults = TM_MAP_OPTIONS_DEFAULT;

	if ((unsigned)a >= TM_ALGO_COUNT)
		return tm_error_set(err, TM_ERR_USAGE, "unknown algorithm %d",
				    (int)a);
	if (!opt)
		opt = &defaults;
	if (m->n > t->nleaves)
		return tm_error_set(err, TM_ERR_USAGE,
				    "%d ranks do not fit on %d leaves",
				    m->n, t->nleaves);
	if (m->n == 0)
		return TM_OK;
	return entry_point[a](t, m, opt, leaf_of, err);
}
