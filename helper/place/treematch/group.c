/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * group.c - GroupProcesses: the step of TreeMatch that decides which
 * (virtual) processes share a parent node at one level of the tree.
 *
 * Jeannot & Mercier, "Near-optimal placement of MPI processes on
 * hierarchical NUMA architectures" (Euro-Par 2010), section 4.  A group of k
 * processes is valued by the communication it leaves to the levels above:
 * the sum of its members' total communication minus what they exchange
 * among themselves (counted in both directions).  Choosing p / k disjoint
 * groups of least total value is a minimum-weight independent set in the
 * graph of incompatible groups; the paper builds it with three greedy
 * heuristics and keeps the best.  That needs all C(p, k) groups, so it is
 * done while they are few; beyond that, two fast greedy paths follow the
 * same criterion on the groups the sparse matrix makes worth considering.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "place/treematch/treematch.h"
#include "util/sort.h"




/* ------------------------------------------------------------------ */
/* The exhaustive path                                                 */
/* ------------------------------------------------------------------ */

typedef struct group_set {
	int p, k;
	long count;        /* C(p, k) candidate groups */
	int *members;      /* count * k, in lexicographic order */
	double *value;     /* communication left to the levels above */
	long *order;       /* candidates by increasing value (then index) */
	long *rank;        /* rank[g]: position of g in order */
} group_set;

static double binomial(int p, int k)
{
	double c = 1;

	for (int i = 1; i <= k; i++)
		c = c * (p - k + i) / i;
	return c;
}

static int build_candidates(const tm_matrix *m, int p, int k, group_set *gs)
{
	double *w = calloc((size_t)p * (size_t)p, sizeof(*w));
	double *rowsum = calloc((size_t)p, sizeof(*rowsum));
	int c[64];

	gs->p = p;
	gs->k = k;
	gs->count = (long)llround(binomial(p, k));
	gs->members = malloc(sizeof(int) * (size_t)gs->count * (size_t)k);
	gs->value = malloc(sizeof(double) * (size_t)gs->count);
	gs->order = malloc(sizeof(long) * (size_t)gs->count);
	gs->rank = malloc(sizeof(long) * (size_t)gs->count);
	if (!w || !rowsum || !gs->members || !gs->value || !gs->order ||
	    !gs->rank || k > 64) {
		free(w);
		free(rowsum);
		return -1;
	}
	/* Dense copy: at most 70 x 70 here, and groups look pairs up often. */
	for (int i = 0; i < m->n; i++) {
		for (int64_t e = m->row_start[i]; e < m->row_start[i + 1]; e++) {
			w[(size_t)i * p + m->col[e]] = m->weight[e];
			rowsum[i] += m->weight[e];
		}
	}
	for (int i = 0; i < k; i++)
		c[i] = i;
	for (long g = 0; g < gs->count; g++) {
		double v = 0;

		for (int a = 0; a < k; a++) {
			gs->members[g * k + a] = c[a];
			v += rowsum[c[a]];
			for (int b = a + 1; b < k; b++)
				v -= 2 * w[(size_t)c[a] * p + c[b]];
		}
		gs->value[g] = v;
		gs->order[g] = g;
		/* next combination in lexicographic order */
		int i = k - 1;
		while (i >= 0 && c[i] == p - k + i)
			i--;
		if (i < 0)
			break;
		c[i]++;
		for (int j = i + 1; j < k; j++)
			c[j] = c[j - 1] + 1;
	}
	free(w);
	free(rowsum);
	/* Ties in value go to groups holding their fair share of the idle
	 * (dummy) processes: among equally good choices, idle cores are spread
	 * over the parents, as Slurm's default distribution spreads tasks over
	 * sockets, leaving each rank more cache and memory bandwidth.  Sort by
	 * that first; the stable sort by value keeps it among equal values. */
	double *spread = malloc(sizeof(double) * (size_t)gs->count);
	if (!spread)
		return -1;
	double fair = (double)(p - m->n) / (p / k);
	for (long g = 0; g < gs->count; g++) {
		int dummies = 0;
		for (int a = 0; a < k; a++)
			dummies += gs->members[g * k + a] >= m->n;
		spread[g] = fabs(dummies - fair);
	}
	int sorted = tm__sort_indices(gs->order, gs->count, spread) == 0 &&
		     tm__sort_indices(gs->order, gs->count, gs->value) == 0;
	free(spread);
	if (!sorted)
		return -1;
	for (long r = 0; r < gs->count; r++)
		gs->rank[gs->order[r]] = r;
	return 0;
}

static void free_candidates(group_set *gs)
{
	free(gs->members);
	free(gs->value);
	free(gs->order);
	free(gs->rank);
}

/* Take groups in the given order whenever none of their members is taken
 * yet.  Since k divides p, any maximal choice has exactly p / k groups. */
static double greedy_in_order(const group_set *gs, const long *order,
			      char *taken, long *chosen)
{
	int k = gs->k, want = gs->p / k, got = 0;
	double total = 0;

	memset(taken, 0, (size_t)gs->p);
	for (long r = 0; r < gs->count && got < want; r++) {
		const int *g = &gs->members[order[r] * k];
		int free_ = 1;

		for (int a = 0; a < k && free_; a++)
			free_ = !taken[g[a]];
		if (!free_)
			continue;
		for (int a = 0; a < k; a++)
			taken[g[a]] = 1;
		chosen[got++] = order[r];
		total += gs->value[order[r]];
	}
	return total;
}

/* "Smallest values first". */
static double smallest_values_first(const group_set *gs, char *taken,
				    long *chosen)
{
	return greedy_in_order(gs, gs->order, taken, chosen);
}

/* "Largest weighted degrees first": a group's weighted degree is the
 * average value of the groups it is incompatible with (that share a
 * member); taking a group whose rivals are expensive discards them.  For
 * k > 2 a rival sharing two members is counted twice, which keeps this a
 * sum of per-process totals (O(count * k) instead of O(count^2)). */
static double largest_weighted_degrees_first(const group_set *gs, char *taken,
					     long *chosen)
{
	int p = gs->p, k = gs->k;
	double *sum = calloc((size_t)p, sizeof(*sum));
	double *key = malloc(sizeof(*key) * (size_t)gs->count);
	long *order = malloc(sizeof(*order) * (size_t)gs->count);
	long *count = calloc((size_t)p, sizeof(*count));
	double total = INFINITY;

	if (!sum || !key || !order || !count)
		goto out;
	for (long g = 0; g < gs->count; g++) {
		for (int a = 0; a < k; a++) {
			sum[gs->members[g * k + a]] += gs->value[g];
			count[gs->members[g * k + a]]++;
		}
	}
	for (long g = 0; g < gs->count; g++) {
		double s = 0;
		long c = 0;

		for (int a = 0; a < k; a++) {
			s += sum[gs->members[g * k + a]] - gs->value[g];
			c += count[gs->members[g * k + a]] - 1;
		}
		key[g] = -(c ? s / c : 0); /* sort ascending on -degree */
		order[g] = g;
	}
	if (tm__sort_indices(order, gs->count, key) < 0)
		goto out;
	total = greedy_in_order(gs, order, taken, chosen);
out:
	free(sum);
	free(key);
	free(order);
	free(count);
	return total;
}

/* Exact cover of the processes by groups ranked below `limit`, found by
 * depth-first search: the lowest uncovered process, its groups in rank
 * order.  Returns 1 when found (chosen[] filled), 0 when none exists or
 * the budget ran out. */
typedef struct cover_search {
	const group_set *gs;
	const long *by_process;   /* groups of each process, by rank */
	long per_process;         /* C(p - 1, k - 1) */
	long limit;
	long budget;
	char *taken;
	long *chosen;
} cover_search;

static int cover_dfs(cover_search *cs, int depth)
{
	const group_set *gs = cs->gs;
	int k = gs->k, x = 0;

	if (depth == gs->p / k)
		return 1;
	while (cs->taken[x])
		x++;
	const long *list = &cs->by_process[x * cs->per_process];
	for (long i = 0; i < cs->per_process; i++) {
		long g = list[i];

		if (gs->rank[g] >= cs->limit)
			break; /* lists are in rank order */
		if (--cs->budget < 0)
			return 0;
		const int *mb = &gs->members[g * k];
		int free_ = 1;
		for (int a = 0; a < k && free_; a++)
			free_ = !cs->taken[mb[a]];
		if (!free_)
			continue;
		for (int a = 0; a < k; a++)
			cs->taken[mb[a]] = 1;
		cs->chosen[depth] = g;
		if (cover_dfs(cs, depth + 1))
			return 1;
		for (int a = 0; a < k; a++)
			cs->taken[mb[a]] = 0;
	}
	return 0;
}

/* "Largest values last": the independent set whose worst (largest-value)
 * group ranks lowest.  Binary search on that rank, starting from the one
 * that smallest-values-first reached, which is known to be achievable. */
static double largest_values_last(const group_set *gs, const long *greedy,
				  char *taken, long *chosen)
{
	int p = gs->p, k = gs->k, want = p / k;
	long per_process = (long)llround(binomial(p - 1, k - 1));
	long *by_process = malloc(sizeof(long) * (size_t)p * (size_t)per_process);
	long *fill = calloc((size_t)p, sizeof(long));
	long *trial = malloc(sizeof(long) * (size_t)want);
	double total = INFINITY;

	if (!by_process || !fill || !trial)
		goto out;
	for (long r = 0; r < gs->count; r++) {
		long g = gs->order[r];
		for (int a = 0; a < k; a++) {
			int x = gs->members[g * k + a];
			by_process[x * per_process + fill[x]++] = g;
		}
	}
	long lo = want, hi = 0;
	for (int i = 0; i < want; i++)
		if (gs->rank[greedy[i]] + 1 > hi)
			hi = gs->rank[greedy[i]] + 1;
	memcpy(chosen, greedy, sizeof(long) * (size_t)want);
	while (lo < hi) {
		long mid = lo + (hi - lo) / 2;
		cover_search cs = { gs, by_process, per_process, mid,
				    COVER_SEARCH_BUDGET, taken, trial };

		memset(taken, 0, (size_t)p);
		if (cover_dfs(&cs, 0)) {
			hi = mid;
			memcpy(chosen, trial, sizeof(long) * (size_t)want);
		} else {
			lo = mid + 1;
		}
	}
	total = 0;
	for (int i = 0; i < want; i++)
		total += gs->value[chosen[i]];
out:
	free(by_process);
	free(fill);
	free(trial);
	return total;
}

static tm_status group_exhaustive(const tm_matrix *m, int p, int k,
				  int *members, tm_error *err)
{
	group_set gs = { 0 };
	int want = p / k;
	char *taken = malloc((size_t)p);
	long *chosen[3] = {
		malloc(sizeof(long) * (size_t)want),
		malloc(sizeof(long) * (size_t)want),
		malloc(sizeof(long) * (size_t)want),
	};
	double total[3];
	tm_status st = TM_OK;

	if (!taken || !chosen[0] || !chosen[1] || !chosen[2] ||
	    build_candidates(m, p, k, &gs) < 0) {
		st = tm_error_nomem(err);
		goto out;
	}
	total[0] = smallest_values_first(&gs, taken, chosen[0]);
	total[1] = largest_values_last(&gs, chosen[0], taken, chosen[1]);
	total[2] = largest_weighted_degrees_first(&gs, taken, chosen[2]);
	int best = 0;
	for (int h = 1; h < 3; h++)
		if (total[h] < total[best])
			best = h;
	if (!isfinite(total[best])) {
		st = tm_error_nomem(err);
		goto out;
	}
	for (int g = 0; g < want; g++)
		memcpy(&members[g * k], &gs.members[chosen[best][g] * k],
		       sizeof(int) * (size_t)k);
out:
	free_candidates(&gs);
	free(taken);
	for (int h = 0; h < 3; h++)
		free(chosen[h]);
	return st;
}

/* ------------------------------------------------------------------ */
/* The fast paths                                                      */
/* ------------------------------------------------------------------ */

static double *row_sums(const tm_matrix *m)
{
	double *rs = calloc((size_t)m->n > 0 ? (size_t)m->n : 1, sizeof(*rs));

	if (!rs)
		return NULL;
	for (int i = 0; i < m->n; i++)
		for (int64_t e = m->row_start[i]; e < m->row_start[i + 1]; e++)
			rs[i] += m->weight[e];
	return rs;
}

typedef struct pair_candidate {
	double value;
	int a, b;
} pair_candidate;

static int by_pair_value(const void *x, const void *y)
{
	const pair_candidate *a = x, *b = y;

	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	return (a->b > b->b) - (a->b < b->b);
}

/* k = 2: smallest values first over the pairs that communicate (any other
 * pair is worth only the sum of its members' totals), then the processes
 * left over are paired in index order, real ones before dummies. */
static tm_status group_pairs(const tm_matrix *m, int p, int *members,
			     tm_error *err)
{
	int64_t npairs = m->row_start[m->n] / 2;
	pair_candidate *cand = malloc(sizeof(*cand) * (size_t)(npairs + 1));
	double *rs = row_sums(m);
	char *taken = calloc((size_t)p, 1);
	int got = 0;

	if (!cand || !rs || !taken) {
		free(cand);
		free(rs);
		free(taken);
		return tm_error_nomem(err);
	}
	int64_t c = 0;
	for (int i = 0; i < m->n; i++) {
		for (int64_t e = m->row_start[i]; e < m->row_start[i + 1]; e++) {
			int j = m->col[e];
			if (j > i)
				cand[c++] = (pair_candidate){
					rs[i] + rs[j] - 2 * m->weight[e], i, j };
		}
	}
	qsort(cand, (size_t)c, sizeof(*cand), by_pair_value);
	for (int64_t q = 0; q < c; q++) {
		if (taken[cand[q].a] || taken[cand[q].b])
			continue;
		taken[cand[q].a] = taken[cand[q].b] = 1;
		members[2 * got] = cand[q].a;
		members[2 * got + 1] = cand[q].b;
		got++;
	}
	int pending = -1;
	for (int x = 0; x < p; x++) {
		if (taken[x])
			continue;
		if (pending < 0) {
			pending = x;
			continue;
		}
		members[2 * got] = pending;
		members[2 * got + 1] = x;
		got++;
		pending = -1;
	}
	free(cand);
	free(rs);
	free(taken);
	return TM_OK;
}

/* k > 2: grow each group from a seed (the busiest process not yet grouped)
 * by adding, k - 1 times, the free process that exchanges the most with the
 * group so far.  When nothing free talks to the group, a dummy fills the
 * place if one is left (leaving real processes to groups they belong
 * with), else the next free process in seed order. */
typedef struct grow_state {
	const tm_matrix *m;
	double *conn;      /* connection of each process to the current group */
	int *touched;      /* processes with conn != 0 */
	int ntouched;
	char *assigned;
} grow_state;

static void grow_add(grow_state *s, int x)
{
	s->assigned[x] = 1;
	if (x >= s->m->n)
		return; /* a dummy talks to nobody */
	for (int64_t e = s->m->row_start[x]; e < s->m->row_start[x + 1]; e++) {
		int y = s->m->col[e];

		if (s->assigned[y])
			continue;
		if (s->conn[y] == 0)
			s->touched[s->ntouched++] = y;
		s->conn[y] += s->m->weight[e];
	}
}

static int grow_best(grow_state *s)
{
	int best = -1;

	for (int i = 0; i < s->ntouched; i++) {
		int y = s->touched[i];

		if (s->assigned[y])
			continue;
		if (best < 0 || s->conn[y] > s->conn[best] ||
		    (s->conn[y] == s->conn[best] && y < best))
			best = y;
	}
	return best;
}

static tm_status group_grow(const tm_matrix *m, int p, int k, int *members,
			    tm_error *err)
{
	int n = m->n;
	double *rs = row_sums(m);
	long *seeds = malloc(sizeof(*seeds) * (size_t)(n > 0 ? n : 1));
	grow_state s = { m, calloc((size_t)n + 1, sizeof(double)),
			 malloc(sizeof(int) * ((size_t)m->row_start[n] + 1)), 0,
			 calloc((size_t)p, 1) };
	tm_status st = TM_OK;

	if (!rs || !seeds || !s.conn || !s.touched || !s.assigned) {
		st = tm_error_nomem(err);
		goto out;
	}
	/* Seeds by decreasing total communication: sort on its negation. */
	for (int i = 0; i < n; i++) {
		rs[i] = -rs[i];
		seeds[i] = i;
	}
	if (tm__sort_indices(seeds, n, rs) < 0) {
		st = tm_error_nomem(err);
		goto out;
	}
	int next_seed = 0, next_dummy = n, got = 0;
	while (got < p / k) {
		int *g = &members[got * k];
		int size = 0;

		while (next_seed < n && s.assigned[seeds[next_seed]])
			next_seed++;
		if (next_seed < n) {
			g[size++] = (int)seeds[next_seed];
		} else {
			g[size++] = next_dummy++;
		}
		grow_add(&s, g[0]);
		while (size < k) {
			int x = grow_best(&s);

			if (x < 0 && next_dummy < p) {
				x = next_dummy++;
			} else if (x < 0) {
				while (s.assigned[seeds[next_seed]])
					next_seed++;
				x = (int)seeds[next_seed];
			}
			g[size++] = x;
			grow_add(&s, x);
		}
		for (int i = 0; i < s.ntouched; i++)
			s.conn[s.touched[i]] = 0;
		s.ntouched = 0;
		got++;
	}
out:
	free(rs);
	free(seeds);
	free(s.conn);
	free(s.touched);
	free(s.assigned);
	return st;
}

tm_status tm__group_processes(const tm_matrix *m, int p, int k, int *members,
			     tm_error *err)
{
	if (k <= 0 || p % k != 0 || m->n > p)
		return tm_error_set(err, TM_ERR_USAGE,
				    "cannot group %d processes by %d", p, k);
	if (k == 1 || k == p) {
		for (int x = 0; x < p; x++)
			members[x] = x;
		return TM_OK;
	}
	if (k <= 64 && binomial(p, k) <= EXHAUSTIVE_MAX_GROUPS)
		return group_exhaustive(m, p, k, members, err);
	if (k == 2)
		return group_pairs(m, p, members, err);
	return group_grow(m, p, k, members, err);
}
