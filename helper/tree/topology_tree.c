/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * topology_tree.c - abstract trees: "tree:2,8,4,2" is a machine whose root
 * has 2 children, each of them 8, and so on, root level first; leaf l binds
 * to "CPU" l.  The same kind of target as Scotch's "tleaf": for planning on
 * a machine one does not have, and for benchmarks at sizes where building
 * an hwloc synthetic topology would take longer than the mapping itself.
 * A restriction keeps only the leaves listed (an irregular tree).
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tm_list.h"
#include "tree/topology_internal.h"

enum { ABSTRACT_MAX_DEPTH = 32 };

static tm_status bad_spec(const char *spec, tm_error *err)
{
	return tm_error_set(err, TM_ERR_USAGE,
			    "%s: expected arities such as tree:2,8,2 (root "
			    "level first, each from 1 to 16777216, at most %d "
			    "levels)", spec, ABSTRACT_MAX_DEPTH);
}

/* Leaves of a restriction ("0-3,8", or "cores:0-3,8" as the plugin's
 * --slurm-cores gives it: in a tree: topology leaf l is core l), each
 * < nleaves; parsed with that bound, so that no huge list is expanded. */
static tm_status restriction(const char *cpus, int nleaves, char *keep,
			     tm_error *err)
{
	int by_core = strncmp(cpus, "cores:", 6) == 0;
	const char *option = by_core ? "--slurm-cores" : "--restrict";
	const char *list_text = cpus + (by_core ? 6 : 0);
	int *list = NULL;
	int n = tm_list_parse(list_text, nleaves - 1, 1 << 30, &list);

	if (n < 0)
		return tm_error_set(err, TM_ERR_USAGE, "%s %s: expected %s of "
				    "the tree (0-%d), such as 0-3,8", option,
				    list_text, by_core ? "cores" : "CPUs",
				    nleaves - 1);
	for (int i = 0; i < n; i++)
		keep[list[i]] = 1;
	free(list);
	return TM_OK;
}

tm_status tm__topology_abstract(const char *spec, const char *restrict_cpus,
			       tm_tree **out, tm_error *err)
{
	int arity[ABSTRACT_MAX_DEPTH], depth = 0;
	const char *p = spec + strlen("tree:");

	while (*p) {
		char *end;
		errno = 0;
		long a = strtol(p, &end, 10);
		if (errno || end == p || a < 1 || a > (1 << 24) ||
		    depth == ABSTRACT_MAX_DEPTH)
			return bad_spec(spec, err);
		arity[depth++] = (int)a;
		p = end;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return bad_spec(spec, err);
	}
	if (depth == 0)
		return bad_spec(spec, err);
	/* checked before the tree is built: each leaf costs about 400 bytes
	 * with its ancestors, and tree:8388608,2 took 3.6 GB */
	long long leaves = 1;
	for (int d = 0; d < depth; d++) {
		leaves *= arity[d];
		if (leaves > TM_TREE_SPEC_MAX_LEAVES)
			return tm_error_set(err, TM_ERR_USAGE, "%s: more than %d "
					    "leaves: expected at most that many "
					    "(the product of the arities)", spec,
					    TM_TREE_SPEC_MAX_LEAVES);
	}
	tm_tree *t = tm_tree_regular(depth, arity, err);
	if (!t)
		return err ? err->status : TM_ERR_NOMEM;
	if (restrict_cpus) {
		char *keep = calloc((size_t)t->nleaves, 1);
		tm_status st = keep ? restriction(restrict_cpus, t->nleaves,
						  keep, err)
				    : tm_error_nomem(err);
		tm_tree *kept = st == TM_OK ? tm_tree_keep_leaves(t, keep, err)
					    : NULL;
		free(keep);
		tm_tree_free(t);
		if (!kept)
			return err ? err->status : TM_ERR_NOMEM;
		t = kept;
	}
	tm_tree *pruned = tm_tree_prune(t, 1, err);
	tm_tree_free(t);
	if (!pruned)
		return err ? err->status : TM_ERR_NOMEM;
	*out = pruned;
	return TM_OK;
}
