/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * round.c - one online mapping round on one node (tm_online_map_round,
 * tm_online.h; doc/online.md, "One round").
 *
 * The paper's OnDeLocMap+ moves a process only when the new mapping is
 * different; here it must also be worth it: tasks move when the new
 * placement is cheaper than the current one by p->gain of its tree cost,
 * and after the policy's placement has been turned, by a symmetry of the
 * tree, as close to the current one as it goes (relabel.c), so that a
 * same-cost answer laid out differently moves no task.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "online/online_internal.h"
#include "tm_cost.h"
#include "tm_online.h"

/* previous must be a placement of m->n ranks on distinct leaves of t. */
static tm_status check_previous(const tm_tree *t, int n, const int *previous,
				tm_error *err)
{
	char *taken = calloc((size_t)t->nleaves, 1);

	if (!taken)
		return tm_error_nomem(err);
	for (int r = 0; r < n; r++) {
		int l = previous[r];

		if (l < 0 || l >= t->nleaves || taken[l]) {
			free(taken);
			return tm_error_set(err, TM_ERR_USAGE,
					    "online round: previous[%d] = %d: "
					    "expected a leaf from 0 to %d "
					    "that no other rank has", r, l,
					    t->nleaves - 1);
		}
		taken[l] = 1;
	}
	free(taken);
	return TM_OK;
}

/* Map, then bring the result as close to previous as the same cost
 * allows; the relabeling must keep the cost (it does by construction:
 * this is its guard, not a choice). */
static tm_status map_fresh(const tm_online_params *p, const tm_tree *t,
			   const tm_matrix *m, const int *previous,
			   int *fresh, double *cost, tm_error *err)
{
	tm_map_options opt = TM_MAP_OPTIONS_DEFAULT;
	tm_status status;

	if (tm_algorithm_options(p->policy) & TM_POLICY_OPT_PREVIOUS)
		opt.previous = previous;
	status = tm_map_with(p->policy, &opt, t, m, fresh, err);
	if (status != TM_OK)
		return status;
	*cost = tm_cost_tree(t, m, fresh);

	int *turned = malloc((size_t)m->n * sizeof(int));
	if (!turned)
		return tm_error_nomem(err);
	memcpy(turned, fresh, (size_t)m->n * sizeof(int));
	/* Siblings first (free), then exchanges across parents (priced),
	 * then siblings again inside what was exchanged. */
	status = tm__online_relabel(t, m->n, previous, turned, err);
	if (status == TM_OK)
		status = tm__online_regroup(t, m, previous, turned, err);
	if (status == TM_OK)
		status = tm__online_relabel(t, m->n, previous, turned, err);
	/* Exchanges of zero cost may reorder the sum's rounding: allow
	 * that much, never more. */
	double after = status == TM_OK ? tm_cost_tree(t, m, turned) : 0;
	if (status == TM_OK && after <= *cost * (1 + 1e-12)) {
		memcpy(fresh, turned, (size_t)m->n * sizeof(int));
		*cost = after;
	}
	free(turned);
	return status;
}

tm_status tm_online_map_round(const tm_online_params *p, const tm_tree *t,
			      const tm_matrix *m, const int *previous,
			      int *leaf_of, tm_online_round *round,
			      tm_error *err)
{
	tm_online_round res = { 0 };
	tm_status status;

	if (!p || !t || !m || !previous || !leaf_of)
		return tm_error_set(err, TM_ERR_USAGE,
				    "online round: missing argument");
	if (m->n > t->nleaves)
		return tm_error_set(err, TM_ERR_USAGE,
				    "online round: %d ranks do not fit on "
				    "%d leaves", m->n, t->nleaves);
	int n = m->n;
	if (n == 0) {
		if (round)
			*round = res;
		return TM_OK;
	}
	status = check_previous(t, n, previous, err);
	if (status != TM_OK)
		return status;

	/* Scratch for the new placement: leaf_of may be previous itself. */
	int *fresh = malloc((size_t)n * sizeof(int));
	if (!fresh)
		return tm_error_nomem(err);
	for (int r = 0; r < n; r++)
		fresh[r] = r;
	res.packed_cost = tm_cost_tree(t, m, fresh);
	res.previous_cost = tm_cost_tree(t, m, previous);
	res.cost = res.previous_cost;

	int take = 0;
	/* No traffic: nothing to gain, and every placement would tie. */
	if (tm_matrix_nnz(m) > 0) {
		double cost;

		status = map_fresh(p, t, m, previous, fresh, &cost, err);
		if (status != TM_OK) {
			free(fresh);
			return status;
		}
		/* Strictly cheaper, and by the gain: with gain = 0 an
		 * equal cost still moves no task. */
		take = cost < res.previous_cost &&
		       cost <= res.previous_cost * (1.0 - p->gain);
		if (take)
			res.cost = cost;
	}
	if (take) {
		for (int r = 0; r < n; r++)
			res.moved += fresh[r] != previous[r];
		memcpy(leaf_of, fresh, (size_t)n * sizeof(int));
	} else if (leaf_of != previous) {
		memcpy(leaf_of, previous, (size_t)n * sizeof(int));
	}
	res.changed = res.moved > 0;
	free(fresh);
	if (round)
		*round = res;
	return TM_OK;
}
