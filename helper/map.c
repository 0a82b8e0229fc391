/* map.c - algorithm names and the dispatch of tm_map (see tm_map.h). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "map_internal.h"
#include "tm_map.h"

static const char *const algorithm_names[TM_ALGO_COUNT] = {
	[TM_ALGO_TREEMATCH] = "treematch",
	[TM_ALGO_PACKED] = "packed",
	[TM_ALGO_ROUND_ROBIN] = "round-robin",
	[TM_ALGO_MPIPP] = "mpipp",
	[TM_ALGO_MPIPP1] = "mpipp1",
	[TM_ALGO_SETMATCH] = "setmatch",
	[TM_ALGO_HIERARCHICAL] = "hierarchical",
	[TM_ALGO_SPREAD] = "spread",
};

const char *tm_algorithm_name(tm_algorithm a)
{
	return (unsigned)a < TM_ALGO_COUNT ? algorithm_names[a] : "unknown";
}

int tm_algorithm_parse(const char *name, tm_algorithm *a)
{
	for (int i = 0; i < TM_ALGO_COUNT; i++) {
		if (strcmp(name, algorithm_names[i]) == 0) {
			*a = (tm_algorithm)i;
			return 0;
		}
	}
	return -1;
}

const char *tm_algorithm_choices(void)
{
	/* Written out rather than built, so that it is a constant; the unit
	 * test checks that it names every algorithm. */
	return "treematch, packed, round-robin, mpipp, mpipp1, setmatch, "
	       "hierarchical or spread";
}

int *tm_leaf_ancestors(const tm_tree *t)
{
	int L = t->nleaves;
	int *anc = malloc(sizeof(*anc) * (size_t)L * (size_t)(t->depth + 1));

	if (!anc)
		return NULL;
	for (int l = 0; l < L; l++)
		anc[t->depth * L + l] = t->level_start[t->depth] + l;
	for (int d = t->depth - 1; d >= 0; d--)
		for (int l = 0; l < L; l++)
			anc[d * L + l] = t->parent[anc[(d + 1) * L + l]];
	return anc;
}

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

	if (!opt)
		opt = &defaults;
	if (m->n > t->nleaves)
		return tm_error_set(err, TM_ERR_USAGE,
				    "%d ranks do not fit on %d leaves",
				    m->n, t->nleaves);
	if (m->n == 0)
		return TM_OK;
	switch (a) {
	case TM_ALGO_TREEMATCH:
		return tm_map_treematch(t, m, leaf_of, err);
	case TM_ALGO_PACKED:
		tm_map_packed(t, m->n, leaf_of);
		return TM_OK;
	case TM_ALGO_ROUND_ROBIN:
		return tm_map_round_robin(t, m->n, leaf_of, err);
	case TM_ALGO_MPIPP:
		return tm_map_mpipp(t, m, 5, leaf_of, err);
	case TM_ALGO_MPIPP1:
		return tm_map_mpipp(t, m, 1, leaf_of, err);
	case TM_ALGO_SETMATCH:
		return tm_map_setmatch(t, m, opt->threshold, opt->set_cap,
				       leaf_of, err);
	case TM_ALGO_HIERARCHICAL:
		return tm_map_hierarchical(t, m, leaf_of, err);
	case TM_ALGO_SPREAD:
		return tm_map_spread(t, m, opt->previous, leaf_of, err);
	}
	return tm_error_set(err, TM_ERR_USAGE, "unknown algorithm %d", (int)a);
}
