/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hierarchical.c - the "hierarchical" policy: hierarchical assignment with
 * the Hungarian method (Cruz Valdivia, Tamo Turpo and Espinel Quispe,
 * "Process Assignment in Multi-core Clusters Using Job Assignment
 * Algorithm", technical report, Universidad Nacional de San Agustín).
 *
 * From the leaves up, the ranks are grouped as the tree groups cores: on a
 * binary level, into pairs that exchange the most (a maximum-weight
 * matching, found with the Hungarian method on the negated weights, a rank
 * never paired with itself); each group then becomes one unit whose weight
 * to another is the sum of the weights between their members (the paper's
 * "aggregated" matrix), and the next level up groups those units.  The
 * root's single group lists every rank in the order of the leaves: with
 * the paper's Table I and a binary tree of 3 levels, (0,6) (1,7) (2,5)
 * (3,4), then (0,6,1,7) (2,5,3,4), the order 0 6 1 7 2 5 3 4.
 *
 * What the paper leaves open, and the rules taken here (doc/policies.md):
 *  - Sizes that do not divide: the matrix is padded with dummy ranks that
 *    talk to nobody, up to one unit per leaf; a leaf whose unit is a dummy
 *    stays free.
 *  - The assignment is a permutation, not a matching: it may send 0 to 1,
 *    1 to 2 and 2 to 0.  Each cycle of it is cut into pairs along the
 *    cycle, the heavier way round (an even cycle has two ways, an odd one
 *    as many ways as members, each leaving one member out); the members
 *    left out are paired among themselves the same way.
 *  - Arity k: the paper pairs log2(k) times (its loop doubles j up to the
 *    arity).  Write k = 2^a * m with m odd: a pairing rounds, then, when
 *    m > 1, one round that makes groups of m: the heaviest pairs of a
 *    matching become the groups' cores, one per group, and m - 2 further
 *    assignments (Hungarian, groups x free units) give each group one more
 *    unit, the one that exchanges most with it.  Those groups, and the
 *    final groups of k, are then polished: two units of different groups
 *    swap while that keeps more weight inside the groups (powers of two
 *    stay the paper's matchings, untouched).
 *  - A tree whose nodes of one level do not all have the same arity (a
 *    partly allocated node, oversubscription): the order is computed on the
 *    regular tree with the largest arity of each level; a rank whose place
 *    there is a leaf this tree has keeps it, the others take the free leaf
 *    nearest to their place (deepest common ancestor), leftmost first.
 *  - Within a group, units are listed in increasing order, and groups in
 *    the order of their first unit, so that the result is deterministic.
 *
 * Cost: each level solves assignments on dense matrices of its unit
 * count, O(u^3) at worst: on 1,024 leaves 0.2 s for a stencil, 6 s for a
 * dense matrix.  Trees with more than TM_HIER_MAX_LEAVES leaves (after
 * padding) are refused: 16 u^2 bytes at the peak (the level's matrix and
 * the assignment's cost matrix).
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "place/policy.h"
#include "tm_list.h"
#include "place/hierarchical/hierarchical.h"

enum { TM_HIER_MAX_LEAVES = 4096 };

/* ------------------------------------------------------------------ */
/* Pairing: a maximum-weight matching from the Hungarian method        */

static double pair_weight(const double *w, int u, int a, int b)
{
	return w[(size_t)a * (size_t)u + (size_t)b];
}

/* Cut one cycle c[0..len-1] of the assignment into pairs, the heavier way
 * round; the member left out of an odd cycle goes to left[*nleft]. */
static void cut_cycle(const double *w, int u, const int *c, int len,
		      int *partner, int *left, int *nleft)
{
	int best_skip = 0;
	double best = -1;

	if (len % 2 == 0) {
		/* two ways: (c0 c1)(c2 c3)... or (c1 c2)...(c_{len-1} c0) */
		for (int way = 0; way < 2; way++) {
			double sum = 0;
			for (int t = way; t < len + way; t += 2)
				sum += pair_weight(w, u, c[t % len],
						   c[(t + 1) % len]);
			if (sum > best) {
				best = sum;
				best_skip = way;
			}
		}
		for (int t = best_skip; t < len + best_skip; t += 2) {
			partner[c[t % len]] = c[(t + 1) % len];
			partner[c[(t + 1) % len]] = c[t % len];
		}
		return;
	}
	/* odd: leave out c[s], pair the others along the cycle after it */
	for (int s = 0; s < len; s++) {
		double sum = 0;
		for (int t = 1; t + 1 < len; t += 2)
			sum += pair_weight(w, u, c[(s + t) % len],
					   c[(s + t + 1) % len]);
		if (sum > best) {
			best = sum;
			best_skip = s;
		}
	}
	for (int t = 1; t + 1 < len; t += 2) {
		int a = c[(best_skip + t) % len], b = c[(best_skip + t + 1) % len];

		partner[a] = b;
		partner[b] = a;
	}
	left[(*nleft)++] = c[best_skip];
}

/* Pair the s units listed in set[] (ascending) of the u x u weights w:
 * partner[unit] receives its partner, or stays -1 for the one unit left
 * when s is odd. */
static tm_status pair_set(const double *w, int u, const int *set, int s,
			  int *partner, tm_error *err)
{
	if (s < 2)
		return TM_OK;
	if (s == 2) {
		partner[set[0]] = set[1];
		partner[set[1]] = set[0];
		return TM_OK;
	}
	size_t ss = (size_t)s;
	double *cost = calloc(ss * ss, sizeof(double));
	int *col_of = malloc(ss * sizeof(int));
	int *cycle = malloc(ss * sizeof(int));
	int *left = malloc(ss * sizeof(int));
	char *done = calloc(ss, 1);
	tm_status status = TM_ERR_NOMEM;
	int nleft = 0;

	if (!cost || !col_of || !cycle || !left || !done) {
		tm_error_nomem(err);
		goto out;
	}
	/* Scaled to [-1, 0] so that the forbidden diagonal (s + 1: more than
	 * any other assignment could ever save) stays exact in doubles. */
	double largest = 0;
	for (int a = 0; a < s; a++)
		for (int b = 0; b < s; b++)
			if (pair_weight(w, u, set[a], set[b]) > largest)
				largest = pair_weight(w, u, set[a], set[b]);
	for (int a = 0; a < s; a++)
		for (int b = 0; b < s; b++)
			cost[(size_t)a * ss + (size_t)b] = a == b ? s + 1.0 :
				largest > 0 ?
				-pair_weight(w, u, set[a], set[b]) / largest : 0.0;
	status = tm__hungarian(s, cost, col_of, err);
	if (status != TM_OK)
		goto out;
	/* Each cycle starts at its smallest member: the smallest not yet
	 * seen. */
	for (int start = 0; start < s; start++) {
		int len = 0;

		for (int a = start; !done[a]; a = col_of[a]) {
			done[a] = 1;
			cycle[len++] = set[a];
		}
		if (len > 0)
			cut_cycle(w, u, cycle, len, partner, left, &nleft);
	}
	qsort(left, (size_t)nleft, sizeof(int), tm_compare_ints);
	status = pair_set(w, u, left, nleft, partner, err);
out:
	free(cost);
	free(col_of);
	free(cycle);
	free(left);
	free(done);
	return status;
}

/* Pair all u units: partner[] of size u receives each one's partner (or
 * -1 for the one left when u is odd). */
static tm_status pair_all(const double *w, int u, int *partner, tm_error *err)
{
	int *all = malloc((size_t)u * sizeof(int));

	if (!all)
		return tm_error_nomem(err);
	for (int a = 0; a < u; a++) {
		partner[a] = -1;
		all[a] = a;
	}
	tm_status status = pair_set(w, u, all, u, partner, err);
	free(all);
	return status;
}

/* ------------------------------------------------------------------ */
/* Groups of k                                                         */

void tm__hier_aggregate(const double *w, int u, const int *members, int k,
		       double *out)
{
	int g = u / k;

	for (int a = 0; a < g; a++) {
		out[(size_t)a * (size_t)g + (size_t)a] = 0;
		for (int b = a + 1; b < g; b++) {
			double sum = 0;
			for (int x = 0; x < k; x++)
				for (int y = 0; y < k; y++)
					sum += pair_weight(w, u, members[a * k + x],
							   members[b * k + y]);
			out[(size_t)a * (size_t)g + (size_t)b] = sum;
			out[(size_t)b * (size_t)g + (size_t)a] = sum;
		}
	}
}

/* Groups of `size` units as rows of members[]: sort each row, then the
 * rows by their first unit. */
static tm_status canonical(int *members, int ngroups, int size, tm_error *err)
{
	size_t row = (size_t)size * sizeof(int);
	int *copy = malloc((size_t)ngroups * row);
	int *firsts = malloc((size_t)ngroups * 2 * sizeof(int));

	if (!copy || !firsts) {
		free(copy);
		free(firsts);
		return tm_error_nomem(err);
	}
	for (int g = 0; g < ngroups; g++) {
		qsort(members + (size_t)g * (size_t)size, (size_t)size,
		      sizeof(int), tm_compare_ints);
		firsts[2 * g] = members[(size_t)g * (size_t)size];
		firsts[2 * g + 1] = g;
	}
	/* pairs (first unit, group): the first units are distinct */
	qsort(firsts, (size_t)ngroups, 2 * sizeof(int), tm_compare_ints);
	memcpy(copy, members, (size_t)ngroups * row);
	for (int g = 0; g < ngroups; g++)
		memcpy(members + (size_t)g * (size_t)size,
		       copy + (size_t)firsts[2 * g + 1] * (size_t)size, row);
	free(copy);
	free(firsts);
	return TM_OK;
}

/* Pair the u units of w: members[] gets u / 2 rows of 2 (u even). */
static tm_status pairing_round(const double *w, int u, int *members,
			       tm_error *err)
{
	int *partner = malloc((size_t)u * sizeof(int));
	tm_status status = TM_ERR_NOMEM;

	if (!partner) {
		tm_error_nomem(err);
		goto out;
	}
	status = pair_all(w, u, partner, err);
	if (status != TM_OK)
		goto out;
	for (int a = 0, g = 0; a < u; a++)
		if (partner[a] > a) {
			members[2 * g] = a;
			members[2 * g + 1] = partner[a];
			g++;
		}
	status = canonical(members, u / 2, 2, err);
out:
	free(partner);
	return status;
}

typedef struct core {
	int a, b;
	double weight;
} core;

static int heavier_first(const void *x, const void *y)
{
	const core *p = x, *q = y;

	if (p->weight != q->weight)
		return p->weight < q->weight ? 1 : -1;
	return tm_compare_ints(&p->a, &q->a);
}

/* The cores of an odd round are chosen before the groups exist, so two
 * cores that belong together can end up apart (on a chain 0-1-2-3-4-5,
 * cores (0,1) and (2,3) give {0,1,5} and {2,3,4}), and the pairing rounds
 * before it never saw the groups of k they feed.  So the odd round's groups
 * and, when k has an odd factor, the finished groups of k units are
 * polished: two units of
 * different groups swap whenever that keeps more weight inside the groups;
 * passes over all pairs in order, first improvement, until a pass changes
 * nothing (at most SWAP_PASSES: a bound on work, not on time).  Groups of
 * a power of two stay exactly the paper's matchings. */
enum { SWAP_PASSES = 20 };

static tm_status swap_units(const double *w, int u, int m, int *members,
			    tm_error *err)
{
	int g = u / m;
	int *group_of = malloc((size_t)u * sizeof(int));
	int *slot_of = malloc((size_t)u * sizeof(int));
	/* to[x * g + G]: the weight between unit x and the units of group G */
	double *to = calloc((size_t)u * (size_t)g, sizeof(double));

	if (!group_of || !slot_of || !to) {
		free(group_of);
		free(slot_of);
		free(to);
		return tm_error_nomem(err);
	}
	for (int G = 0; G < g; G++)
		for (int y = 0; y < m; y++) {
			group_of[members[G * m + y]] = G;
			slot_of[members[G * m + y]] = G * m + y;
		}
	for (int x = 0; x < u; x++)
		for (int y = 0; y < u; y++)
			to[(size_t)x * (size_t)g + (size_t)group_of[y]] +=
				pair_weight(w, u, x, y);
	for (int pass = 0; pass < SWAP_PASSES; pass++) {
		int swapped = 0;

		for (int a = 0; a < u; a++)
			for (int b = a + 1; b < u; b++) {
				int A = group_of[a], B = group_of[b];
				if (A == B)
					continue;
				const double *ta = to + (size_t)a * (size_t)g;
				const double *tb = to + (size_t)b * (size_t)g;
				double gain = ta[B] + tb[A] - ta[A] - tb[B] -
					      2 * pair_weight(w, u, a, b);
				/* a relative margin: rounding must not make
				 * two swaps undo each other forever */
				if (gain <= 1e-12 * (ta[A] + tb[B] + ta[B] + tb[A]))
					continue;
				for (int x = 0; x < u; x++) {
					double *tx = to + (size_t)x * (size_t)g;
					double wa = pair_weight(w, u, x, a);
					double wb = pair_weight(w, u, x, b);
					tx[A] += wb - wa;
					tx[B] += wa - wb;
				}
				group_of[a] = B;
				group_of[b] = A;
				int sa = slot_of[a];
				slot_of[a] = slot_of[b];
				slot_of[b] = sa;
				members[slot_of[a]] = a;
				members[slot_of[b]] = b;
				swapped = 1;
			}
		if (!swapped)
			break;
	}
	free(group_of);
	free(slot_of);
	free(to);
	return TM_OK;
}

/* Groups of an odd m >= 3 from u = g * m units: the g heaviest pairs of a
 * matching are the cores, and m - 2 assignments of the free units to the
 * groups (Hungarian, on the weight of a unit to a group's members) fill
 * them, one unit per group each time. */
static tm_status odd_round(const double *w, int u, int m, int *members,
			   tm_error *err)
{
	int g = u / m, nfree = 0;
	int *partner = malloc((size_t)u * sizeof(int));
	core *cores = malloc((size_t)u * sizeof(core));
	char *taken = calloc((size_t)u, 1);
	double *cost = NULL;
	int *col_of = NULL, *free_units = NULL;
	tm_status status = TM_ERR_NOMEM;

	if (!partner || !cores || !taken) {
		tm_error_nomem(err);
		goto out;
	}
	status = pair_all(w, u, partner, err);
	if (status != TM_OK)
		goto out;
	int npairs = 0;
	for (int a = 0; a < u; a++)
		if (partner[a] > a)
			cores[npairs++] = (core){ a, partner[a],
						  pair_weight(w, u, a, partner[a]) };
	qsort(cores, (size_t)npairs, sizeof(core), heavier_first);
	for (int c = 0; c < g; c++) { /* npairs >= g since m >= 3 */
		members[c * m] = cores[c].a;
		members[c * m + 1] = cores[c].b;
		taken[cores[c].a] = taken[cores[c].b] = 1;
	}
	size_t f = (size_t)(u - 2 * g);
	free_units = malloc(f * sizeof(int) + 1);
	cost = malloc(f * f * sizeof(double) + 1);
	col_of = malloc(f * sizeof(int) + 1);
	if (!free_units || !cost || !col_of) {
		status = tm_error_nomem(err);
		goto out;
	}
	for (int round = 2; round < m; round++) {
		nfree = 0;
		for (int a = 0; a < u; a++)
			if (!taken[a])
				free_units[nfree++] = a;
		/* rows: the g groups, then nfree - g rows of zeros that take
		 * the units left for the next rounds */
		size_t nf = (size_t)nfree;
		double largest = 0;
		for (int c = 0; c < g; c++)
			for (int x = 0; x < nfree; x++) {
				double gain = 0;
				for (int y = 0; y < round; y++)
					gain += pair_weight(w, u, members[c * m + y],
							    free_units[x]);
				cost[(size_t)c * nf + (size_t)x] = gain;
				if (gain > largest)
					largest = gain;
			}
		for (int c = 0; c < nfree; c++)
			for (int x = 0; x < nfree; x++) {
				double *v = &cost[(size_t)c * nf + (size_t)x];
				*v = c < g && largest > 0 ? -*v / largest : 0.0;
			}
		status = tm__hungarian(nfree, cost, col_of, err);
		if (status != TM_OK)
			goto out;
		for (int c = 0; c < g; c++) {
			members[c * m + round] = free_units[col_of[c]];
			taken[free_units[col_of[c]]] = 1;
		}
	}
	status = swap_units(w, u, m, members, err);
	if (status == TM_OK)
		status = canonical(members, g, m, err);
out:
	free(partner);
	free(cores);
	free(taken);
	free(cost);
	free(col_of);
	free(free_units);
	return status;
}

tm_status tm__hier_group(const double *w, int u, int k, int *members,
			tm_error *err)
{
	int twos = 0, odd = k;

	if (k < 1 || u % k != 0)
		return tm_error_set(err, TM_ERR_USAGE, "hierarchical: %d units "
				    "do not make groups of %d", u, k);
	while (odd % 2 == 0) {
		odd /= 2;
		twos++;
	}
	/* flat[g * size ..]: the units of current group g, ascending */
	int size = 1, count = u;
	int *flat = malloc((size_t)u * sizeof(int));
	int *step = malloc((size_t)u * sizeof(int));
	int *next = malloc((size_t)u * sizeof(int));
	double *cw = NULL, *nw = NULL;
	tm_status status = TM_OK;

	if (!flat || !step || !next) {
		status = tm_error_nomem(err);
		goto out;
	}
	for (int a = 0; a < u; a++)
		flat[a] = a;
	/* cw: the weights between the current groups; w itself at first */
	const double *weights = w;
	for (int round = 0; round < twos + (odd > 1) && status == TM_OK;
	     round++) {
		int factor = round < twos ? 2 : odd;

		status = round < twos ? pairing_round(weights, count, step, err) :
			 odd_round(weights, count, odd, step, err);
		if (status != TM_OK)
			break;
		/* the new groups' units: their parts' units, in order */
		int used = 0;
		for (int g = 0; g < count / factor; g++) {
			for (int x = 0; x < factor; x++) {
				int part = step[g * factor + x];
				memcpy(next + used, flat + part * size,
				       (size_t)size * sizeof(int));
				used += size;
			}
			qsort(next + (size_t)g * (size_t)(size * factor),
			      (size_t)(size * factor), sizeof(int),
			      tm_compare_ints);
		}
		int *swap = flat;
		flat = next;
		next = swap;
		size *= factor;
		count /= factor;
		if (count == 1 || round + 1 == twos + (odd > 1))
			continue;
		free(nw);
		nw = malloc((size_t)count * (size_t)count * sizeof(double));
		if (!nw) {
			status = tm_error_nomem(err);
			break;
		}
		tm__hier_aggregate(w, u, flat, size, nw);
		free(cw);
		cw = nw;
		nw = NULL;
		weights = cw;
	}
	if (status == TM_OK) {
		memcpy(members, flat, (size_t)u * sizeof(int));
		/* an odd factor: the groups of k units are polished as the
		 * odd round's groups were (both help: swapping whole pairs,
		 * then single units) */
		if (odd > 1)
			status = swap_units(w, u, k, members, err);
	}
	if (status == TM_OK)
		status = canonical(members, u / k, k, err);
out:
	free(flat);
	free(step);
	free(next);
	free(cw);
	free(nw);
	return status;
}

/* ------------------------------------------------------------------ */
/* The order of the ranks on a regular tree                            */

tm_status tm__hier_order(const tm_matrix *m, int depth, const int *arity,
			int *order, tm_error *err)
{
	long long leaves = 1;

	for (int d = 0; d < depth; d++) {
		leaves *= arity[d];
		if (leaves > TM_HIER_MAX_LEAVES)
			return tm_error_set(err, TM_ERR_USAGE, "hierarchical: "
					    "more than %d leaves (the regular "
					    "tree that holds this one): its "
					    "dense matrices would not fit",
					    TM_HIER_MAX_LEAVES);
	}
	int u = (int)leaves;
	if (m->n > u)
		return tm_error_set(err, TM_ERR_USAGE, "hierarchical: %d ranks "
				    "on %d leaves", m->n, u);
	size_t uu = (size_t)u;
	double *w = calloc(uu * uu, sizeof(double));
	int *flat = malloc(uu * sizeof(int));
	int *next = malloc(uu * sizeof(int));
	int *groups = malloc(uu * sizeof(int));
	double *agg = NULL;
	tm_status status = TM_OK;

	if (!w || !flat || !next || !groups) {
		status = tm_error_nomem(err);
		goto out;
	}
	/* units n..u-1 are the dummies: rows of zeros */
	for (int r = 0; r < m->n; r++)
		for (int64_t e = m->row_start[r]; e < m->row_start[r + 1]; e++)
			w[(size_t)r * uu + (size_t)m->col[e]] = m->weight[e];
	for (int a = 0; a < u; a++)
		flat[a] = a;
	int count = u, size = 1;
	for (int d = depth - 1; d >= 0; d--) {
		int k = arity[d];

		status = tm__hier_group(w, count, k, groups, err);
		if (status != TM_OK)
			goto out;
		for (int g = 0, used = 0; g < count / k; g++)
			for (int x = 0; x < k; x++, used += size)
				memcpy(next + used, flat + groups[g * k + x] * size,
				       (size_t)size * sizeof(int));
		int *swap = flat;
		flat = next;
		next = swap;
		if (d > 0) {
			size_t g = (size_t)(count / k);
			agg = malloc(g * g * sizeof(double) + 1);
			if (!agg) {
				status = tm_error_nomem(err);
				goto out;
			}
			tm__hier_aggregate(w, count, groups, k, agg);
			free(w);
			w = agg;
			agg = NULL;
		}
		count /= k;
		size *= k;
	}
	for (int p = 0; p < u; p++)
		order[p] = flat[p] < m->n ? flat[p] : -1;
out:
	free(w);
	free(flat);
	free(next);
	free(groups);
	free(agg);
	return status;
}

/* ------------------------------------------------------------------ */
/* Any tree: the regular tree around it, and back                     */

/* Position of leaf l in the regular tree of arities envelope[]: its child
 * index at each level as the digits of a mixed-radix number. */
static long long envelope_position(const tm_tree *t, const int *envelope,
				   int leaf)
{
	long long pos = 0, stride = 1;
	int v = t->level_start[t->depth] + leaf;

	for (int d = t->depth - 1; d >= 0; d--) {
		int parent = t->parent[v];

		pos += (long long)(v - t->first_child[parent]) * stride;
		stride *= envelope[d];
		v = parent;
	}
	return pos;
}

/* Levels two positions of the regular tree share from the root down. */
static int shared_levels(long long a, long long b, const int *envelope,
			 int depth)
{
	int digits_a[64], digits_b[64], shared = 0;

	for (int d = depth - 1; d >= 0; d--) {
		digits_a[d] = (int)(a % envelope[d]);
		digits_b[d] = (int)(b % envelope[d]);
		a /= envelope[d];
		b /= envelope[d];
	}
	while (shared < depth && digits_a[shared] == digits_b[shared])
		shared++;
	return shared;
}

tm_status tm__place_hierarchical(const tm_tree *t, const tm_matrix *m,
				 const tm_map_options *opt, int *leaf_of,
				 tm_error *err)
{
	(void)opt;
	int depth = t->depth;
	int envelope[64];
	long long leaves = 1;

	if (depth >= 64)
		return tm_error_set(err, TM_ERR_USAGE, "hierarchical: a tree "
				    "of depth %d, expected less than 64", depth);
	for (int d = 0; d < depth; d++) {
		envelope[d] = 0;
		for (int v = t->level_start[d]; v < t->level_start[d + 1]; v++)
			if (t->arity[v] > envelope[d])
				envelope[d] = t->arity[v];
		/* past the limit, tm__hier_order says why */
		leaves = leaves > TM_HIER_MAX_LEAVES ? leaves :
			 leaves * envelope[d];
	}
	int u = leaves > TM_HIER_MAX_LEAVES ? TM_HIER_MAX_LEAVES + 1 : (int)leaves;
	int *order = malloc((size_t)u * sizeof(int));
	long long *real_pos = malloc((size_t)t->nleaves * sizeof(long long));
	int *real_at = malloc((size_t)u * sizeof(int));
	char *used = calloc((size_t)t->nleaves, 1);
	tm_status status = TM_OK;

	if (!order || !real_pos || !real_at || !used) {
		status = tm_error_nomem(err);
		goto out;
	}
	status = tm__hier_order(m, depth, envelope, order, err);
	if (status != TM_OK)
		goto out;
	for (int p = 0; p < u; p++)
		real_at[p] = -1;
	for (int l = 0; l < t->nleaves; l++) {
		real_pos[l] = envelope_position(t, envelope, l);
		real_at[real_pos[l]] = l;
	}
	/* ranks whose place exists stay there ... */
	for (int p = 0; p < u; p++)
		if (order[p] >= 0 && real_at[p] >= 0) {
			leaf_of[order[p]] = real_at[p];
			used[real_at[p]] = 1;
		}
	/* ... the others take the nearest free leaf, leftmost first */
	for (int p = 0; p < u; p++) {
		if (order[p] < 0 || real_at[p] >= 0)
			continue;
		int best = -1, best_shared = -1;
		for (int l = 0; l < t->nleaves; l++) {
			if (used[l])
				continue;
			int shared = shared_levels(p, real_pos[l], envelope, depth);
			if (shared > best_shared) {
				best_shared = shared;
				best = l;
			}
		}
		leaf_of[order[p]] = best; /* n <= nleaves: always found */
		used[best] = 1;
	}
out:
	free(order);
	free(real_pos);
	free(real_at);
	free(used);
	return status;
}
