/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_online_round.c - one online mapping round (tm_online_map_round)
 * on hwloc synthetic nodes: a pattern that changes moves ranks so that
 * partners share an L2, the same pattern again moves none, no traffic
 * moves none, the gain threshold holds, the relabeling moves as few ranks
 * as it can and never changes a cost, and the interval follows eq. 1, 2.
 */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixtures.h"
#include "online/online_internal.h"
#include "tm_cost.h"
#include "tm_online.h"
#include "tm_topology.h"

/* 2 packages, 2 L2 each, 2 cores each: leaves 2k and 2k+1 share an L2
 * (the single L3 per package is pruned away). */
#define NODE "synthetic:pack:2 l3:1 l2:2 core:2 pu:1"

static tm_tree *topology(const char *spec, const char *restrict_cpus)
{
	tm_tree *t = NULL;
	tm_error err;

	if (tm_topology_load(spec, restrict_cpus, TM_LEAF_CORE, &t, &err) !=
	    TM_OK)
		printf("# %s: %s\n", spec, err.text);
	return t;
}

/* n ranks, weight w between a[k] and b[k] for each of the np pairs. */
static tm_matrix *pairs(int n, const int *a, const int *b, int np, double w)
{
	double ws[64];
	tm_matrix *m = NULL;

	for (int k = 0; k < np; k++)
		ws[k] = w;
	tm_matrix_from_entries(n, (size_t)np, a, b, ws, &m, NULL);
	return m;
}

/* Whether each pair's two ranks share an L2 (lowest common ancestor just
 * above the leaves). */
static int pairs_share_l2(const tm_tree *t, const int *leaf_of,
			  const int *a, const int *b, int np)
{
	for (int k = 0; k < np; k++)
		if (tm_tree_lca_depth(t, leaf_of[a[k]], leaf_of[b[k]]) !=
		    t->depth - 1)
			return 0;
	return 1;
}

static void check_two_phases(void)
{
	tm_tree *t = topology(NODE, NULL);
	static const int a1[] = { 0, 2, 4, 6 }, b1[] = { 1, 3, 5, 7 };
	static const int a2[] = { 0, 1, 4, 5 }, b2[] = { 2, 3, 6, 7 };
	tm_matrix *ma = pairs(8, a1, b1, 4, 100);
	tm_matrix *mb = pairs(8, a2, b2, 4, 100);
	tm_online_params p;
	tm_online_round r;
	tm_error err;
	/* Partners start on different L2s: rank r on leaf 2r mod 7. */
	int prev[8] = { 0, 2, 4, 6, 1, 3, 5, 7 }, now[8], again[8];

	if (!t || !ma || !mb) {
		CHECK(0, "the node and the matrices");
		return;
	}
	CHECK_INT(t->nleaves, 8, "the node has 8 cores");
	tm_online_params_default(&p);

	CHECK(tm_online_map_round(&p, t, ma, prev, now, &r, &err) == TM_OK,
	      "phase A: a round runs");
	CHECK(valid_placement(t, now, 8) && pairs_share_l2(t, now, a1, b1, 4),
	      "phase A: pairs (0,1), (2,3), (4,5), (6,7) share an L2");
	CHECK(r.changed && r.cost == 400 && r.previous_cost > r.cost,
	      "phase A: changed, cost 400 (4 pairs x 100 x 1) from %g",
	      r.previous_cost);
	/* Each L2 held two ranks of different pairs: one of them can stay,
	 * so 4 moves suffice.  TreeMatch groups the pairs into packages as
	 * it likes (they do not talk): regroup.c must undo that. */
	CHECK_INT(r.moved, 4, "phase A: 4 ranks move, 4 stay where they were");
	int moved = 0;
	for (int i = 0; i < 8; i++)
		moved += now[i] != prev[i];
	CHECK_INT(r.moved, moved, "phase A: moved counts the ranks moved");
	CHECK(r.packed_cost == 400,
	      "phase A: packed_cost is rank i on leaf i's (%g)", r.packed_cost);

	memcpy(prev, now, sizeof(prev));
	CHECK(tm_online_map_round(&p, t, mb, prev, now, &r, &err) == TM_OK &&
	      valid_placement(t, now, 8) && pairs_share_l2(t, now, a2, b2, 4),
	      "phase B: pairs (0,2), (1,3), (4,6), (5,7) now share an L2");
	CHECK(r.changed && r.moved > 0 && r.moved <= 4 && r.cost == 400,
	      "phase B: ranks moved (%d, at most 4 needed), cost 400",
	      r.moved);

	memcpy(prev, now, sizeof(prev));
	CHECK(tm_online_map_round(&p, t, mb, prev, again, &r, &err) ==
	      TM_OK && !r.changed && r.moved == 0 &&
	      memcmp(again, prev, sizeof(prev)) == 0 &&
	      r.cost == r.previous_cost,
	      "the same matrix again: nothing changes, nothing moves");

	p.gain = 0;
	CHECK(tm_online_map_round(&p, t, mb, prev, again, &r, &err) ==
	      TM_OK && !r.changed && memcmp(again, prev, sizeof(prev)) == 0,
	      "gain=0: an equal cost still moves nothing");

	/* leaf_of may be previous itself. */
	int inplace[8] = { 0, 2, 4, 6, 1, 3, 5, 7 };
	CHECK(tm_online_map_round(&p, t, ma, inplace, inplace, &r, &err) ==
	      TM_OK && r.changed && pairs_share_l2(t, inplace, a1, b1, 4),
	      "leaf_of == previous works");

	tm_matrix_free(ma);
	tm_matrix_free(mb);
	tm_tree_free(t);
}

static void check_keep(void)
{
	tm_tree *t = topology(NODE, NULL);
	static const int a1[] = { 0, 2, 4, 6 }, b1[] = { 1, 3, 5, 7 };
	tm_matrix *m = pairs(8, a1, b1, 4, 100);
	tm_matrix *zero = pairs(8, a1, b1, 0, 0);
	tm_online_params p;
	tm_online_round r;
	tm_error err;
	/* Pairs (4,5) and (6,7) split over the two L2s of package 1:
	 * 2 x 100 + 2 x 100 x 10 = 2200; the best is 400, 82 % less. */
	int prev[8] = { 0, 1, 2, 3, 4, 6, 5, 7 }, now[8];

	if (!t || !m || !zero) {
		CHECK(0, "the node and the matrices");
		return;
	}
	tm_online_params_default(&p);
	CHECK(tm_online_map_round(&p, t, zero, prev, now, &r, &err) ==
	      TM_OK && !r.changed && r.moved == 0 &&
	      memcmp(now, prev, sizeof(prev)) == 0 && r.cost == 0,
	      "no traffic: previous is kept");

	p.gain = 0.85;
	CHECK(tm_online_map_round(&p, t, m, prev, now, &r, &err) == TM_OK &&
	      !r.changed && memcmp(now, prev, sizeof(prev)) == 0 &&
	      r.previous_cost == 2200 && r.cost == 2200,
	      "gain=0.85: 2200 -> 400 (-82 %%) is not enough, nothing moves");
	p.gain = 0.8;
	CHECK(tm_online_map_round(&p, t, m, prev, now, &r, &err) == TM_OK &&
	      r.changed && r.cost == 400 && pairs_share_l2(t, now, a1, b1, 4),
	      "gain=0.8: the same round moves");
	CHECK_INT(r.moved, 2, "... and only the 2 ranks that swap cores");

	int bad[8] = { 0, 1, 2, 3, 4, 5, 6, 6 };
	CHECK(tm_online_map_round(&p, t, m, bad, now, &r, &err) ==
	      TM_ERR_USAGE && strstr(err.text, "previous[7] = 6"),
	      "two ranks on one leaf in previous are refused: %s", err.text);
	tm_matrix_free(m);
	tm_matrix_free(zero);
	tm_tree_free(t);
}

/* Fewer ranks than cores, partners split across packages. */
static void check_undersubscribed(void)
{
	tm_tree *t = topology(NODE, NULL);
	static const int a[] = { 0, 2 }, b[] = { 1, 3 };
	tm_matrix *m = pairs(4, a, b, 2, 10);
	tm_online_params p;
	tm_online_round r;
	tm_error err;
	int prev[4] = { 0, 4, 1, 5 }, now[4];

	if (!t || !m) {
		CHECK(0, "the node and the matrix");
		return;
	}
	tm_online_params_default(&p);
	CHECK(tm_online_map_round(&p, t, m, prev, now, &r, &err) == TM_OK &&
	      r.changed && valid_placement(t, now, 4) &&
	      pairs_share_l2(t, now, a, b, 2),
	      "4 ranks on 8 cores: pairs end on an L2");
	CHECK_INT(r.moved, 2, "... moving one rank of each pair only");
	tm_matrix_free(m);
	tm_tree_free(t);
}

static void check_spread(void)
{
	tm_tree *t = topology("synthetic:pack:2 numa:2 core:4 pu:1", NULL);
	static const int a[] = { 0, 1, 2, 3, 8 }, b[] = { 5, 9, 6, 7, 12 };
	tm_matrix *m = pairs(16, a, b, 5, 50);
	tm_online_params p;
	tm_online_round r;
	tm_error err;
	int prev[16], now[16], again[16];

	if (!t || !m) {
		CHECK(0, "the node and the matrix");
		return;
	}
	for (int i = 0; i < 16; i++)
		prev[i] = 15 - i;
	tm_online_params_default(&p);
	p.policy = TM_ALGO_SPREAD;
	CHECK(tm_online_map_round(&p, t, m, prev, now, &r, &err) == TM_OK &&
	      valid_placement(t, now, 16), "spread maps a round");
	CHECK(tm_online_map_round(&p, t, m, now, again, &r, &err) == TM_OK &&
	      !r.changed && memcmp(again, now, sizeof(now)) == 0,
	      "spread, the same matrix again: nothing moves");
	tm_matrix_free(m);
	tm_tree_free(t);
}

/* A random symmetry of t: at each node, its isomorphic children shuffled
 * (here regular subtrees: all children of a node are alike). */
static uint64_t seed = 88172645463325252ull;
static int next_rand(int n)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (int)(seed % (uint64_t)n);
}

static void shuffle_symmetry(const tm_tree *t, int *phi)
{
	phi[0] = 0;
	for (int d = 0; d < t->depth; d++)
		for (int s = t->level_start[d]; s < t->level_start[d + 1]; s++) {
			int k = t->arity[s], perm[64];
			for (int i = 0; i < k; i++)
				perm[i] = i;
			for (int i = k - 1; i > 0; i--) {
				int j = next_rand(i + 1), x = perm[i];
				perm[i] = perm[j];
				perm[j] = x;
			}
			for (int i = 0; i < k; i++)
				phi[t->first_child[s] + i] =
					t->first_child[phi[s]] + perm[i];
		}
}

/* The relabeling itself: a placement moved by any symmetry comes back
 * exactly; on random placements it never changes a pair's common
 * ancestor's depth; on an irregular node too. */
static void check_relabel(void)
{
	tm_tree *t = topology("synthetic:pack:2 numa:2 l2:2 core:2 pu:1", NULL);
	/* Package 0: two L3s of 2 cores; package 1: two L3s of 3. */
	tm_tree *irr = topology("synthetic:pack:2 l3:2 core:3 pu:1",
				"0-1,3-4,6-11");
	int ok_back = 1, ok_depth = 1, ok_irr = 1, ok_irr_back = 1;

	if (!t || !irr) {
		CHECK(0, "the nodes");
		return;
	}
	int nl = t->nleaves, L = t->level_start[t->depth];
	int *phi = malloc(sizeof(int) * (size_t)t->nnodes);
	int prev[64], fresh[64], turned[64];
	tm_error err;

	for (int trial = 0; trial < 100 && phi; trial++) {
		int n = 4 + next_rand(nl - 3);
		for (int i = 0; i < nl; i++)
			prev[i] = i;
		for (int i = nl - 1; i > 0; i--) {
			int j = next_rand(i + 1), x = prev[i];
			prev[i] = prev[j];
			prev[j] = x;
		}
		shuffle_symmetry(t, phi);
		for (int r = 0; r < n; r++)
			fresh[r] = phi[L + prev[r]] - L;
		memcpy(turned, fresh, sizeof(fresh));
		if (tm__online_relabel(t, n, prev, turned, &err) != TM_OK ||
		    memcmp(turned, prev, sizeof(int) * (size_t)n) != 0)
			ok_back = 0;
		/* an unrelated placement: depths of all pairs kept */
		for (int r = 0; r < n; r++)
			fresh[r] = (prev[r] * 5 + 3) % nl;
		memcpy(turned, fresh, sizeof(fresh));
		if (tm__online_relabel(t, n, prev, turned, &err) != TM_OK ||
		    !valid_placement(t, turned, n))
			ok_depth = 0;
		for (int x = 0; x < n && ok_depth; x++)
			for (int y = x + 1; y < n; y++)
				if (tm_tree_lca_depth(t, fresh[x], fresh[y]) !=
				    tm_tree_lca_depth(t, turned[x], turned[y]))
					ok_depth = 0;
	}
	CHECK(ok_back, "100 placements moved by a random symmetry come back "
	      "exactly (no rank moves)");
	CHECK(ok_depth, "100 unrelated placements: every pair keeps the depth "
	      "of its common ancestor");

	/* Irregular: 10 cores. */
	int n = irr->nleaves;
	for (int trial = 0; trial < 100; trial++) {
		for (int i = 0; i < n; i++)
			prev[i] = i;
		for (int i = n - 1; i > 0; i--) {
			int j = next_rand(i + 1), x = prev[i];
			prev[i] = prev[j];
			prev[j] = x;
		}
		for (int r = 0; r < n; r++)
			fresh[r] = (prev[r] + 1 + trial) % n;
		memcpy(turned, fresh, sizeof(fresh));
		if (tm__online_relabel(irr, n, prev, turned, &err) != TM_OK ||
		    !valid_placement(irr, turned, n))
			ok_irr = 0;
		for (int x = 0; x < n && ok_irr; x++)
			for (int y = x + 1; y < n; y++)
				if (tm_tree_lca_depth(irr, fresh[x], fresh[y]) !=
				    tm_tree_lca_depth(irr, turned[x], turned[y]))
					ok_irr = 0;
		/* identity is its own best: nothing moves */
		memcpy(turned, prev, sizeof(prev));
		if (tm__online_relabel(irr, n, prev, turned, &err) != TM_OK ||
		    memcmp(turned, prev, sizeof(int) * (size_t)n) != 0)
			ok_irr_back = 0;
	}
	CHECK(irr->nleaves == 10 && !tm_tree_is_regular(irr),
	      "the restricted node is irregular (%d cores)", irr->nleaves);
	CHECK(ok_irr, "irregular node: every pair keeps its depth");
	CHECK(ok_irr_back, "irregular node: a placement equal to the previous "
	      "one stays as it is");

	/* The L3 of 2 cores and an L3 of 3 are not alike: on the irregular
	 * node, a rank alone in a 2-core L3 is never sent to a 3-core one
	 * when that would change a depth (checked above); and two siblings
	 * that simply swapped come back. */
	for (int i = 0; i < n; i++)
		prev[i] = i;
	memcpy(fresh, prev, sizeof(prev));
	fresh[0] = 1;
	fresh[1] = 0;
	if (tm__online_relabel(irr, n, prev, fresh, &err) != TM_OK)
		fresh[0] = -1;
	CHECK(fresh[0] == 0 && fresh[1] == 1,
	      "two ranks that swapped sibling cores keep their cores");

	/* Exchanges across parents: random sparse traffic, never a higher
	 * cost, always distinct leaves. */
	int ok_cost = 1, nr = t->nleaves;
	for (int trial = 0; trial < 100; trial++) {
		int ia[64], ja[64];
		double wa[64];
		tm_matrix *m = NULL;
		int ne = 1 + next_rand(24);
		for (int e = 0; e < ne; e++) {
			ia[e] = next_rand(nr);
			ja[e] = next_rand(nr);
			wa[e] = 1 + next_rand(1000);
		}
		tm_matrix_from_entries(nr, (size_t)ne, ia, ja, wa, &m, NULL);
		for (int i = 0; i < nr; i++)
			prev[i] = fresh[i] = i;
		for (int i = nr - 1; i > 0; i--) {
			int j = next_rand(i + 1), x = prev[i];
			prev[i] = prev[j];
			prev[j] = x;
		}
		double before = m ? tm_cost_tree(t, m, fresh) : -1;
		if (!m || tm__online_regroup(t, m, prev, fresh, &err) != TM_OK ||
		    !valid_placement(t, fresh, nr) ||
		    tm_cost_tree(t, m, fresh) > before * (1 + 1e-12))
			ok_cost = 0;
		tm_matrix_free(m);
	}
	CHECK(ok_cost, "100 random matrices: exchanges across parents never "
	      "raise the cost");
	free(phi);
	tm_tree_free(t);
	tm_tree_free(irr);
}

static void check_interval_rule(void)
{
	tm_online_params p;
	double want_up[] = { 2, 4, 8, 16, 30, 30 };
	double want_down[] = { 15, 7.5, 3.75, 1.875, 0.9375, 0.5, 0.5 };
	double x;
	int ok = 1;

	tm_online_params_default(&p);
	x = p.first;
	for (int i = 0; i < 6; i++) {
		x = tm_online_next_interval(&p, x, false);
		ok &= x == want_up[i];
	}
	CHECK(ok, "stable: 1, 2, 4, 8, 16, then max 30 and 30 again");
	ok = 1;
	for (int i = 0; i < 7; i++) {
		x = tm_online_next_interval(&p, x, true);
		ok &= x == want_down[i];
	}
	CHECK(ok, "changing: 15, 7.5, 3.75, 1.875, 0.9375, then min 0.5");
	p.slope = 3;
	CHECK(tm_online_next_interval(&p, 12, false) == 30 &&
	      tm_online_next_interval(&p, 9, true) == 3,
	      "slope 3: 12 -> 30 (clamped), 9 -> 3");
}

int main(void)
{
	check_two_phases();
	check_keep();
	check_undersubscribed();
	check_spread();
	check_relabel();
	check_interval_rule();
	return check_status();
}
