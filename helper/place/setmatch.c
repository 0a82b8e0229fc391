/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * setmatch.c - the "setmatch" policy: SetMatch (Venkatesan, Anand, Gabriel
 * and Subhlok, "Optimized Process Placement for Collective I/O
 * Operations", EuroMPI 2013), made for the matrix of
 * file-access adjacencies that the profiler writes (COMMPROF_IO_OUTPUT) but
 * usable on any matrix.
 *
 * One level of hierarchy, three phases (the paper's Algorithm 1):
 *   I   make sets: for each rank i not yet in a set, in rank order, a new
 *       set of i and every j whose weight to i is significant;
 *   II  merge interleaved sets: sets that share a rank become one, until
 *       no two share a rank;
 *   III match sets: the application set with the most ranks left goes to
 *       the architecture set with the most room left; if it does not fit,
 *       it is fragmented: as many of its ranks as there is room go there
 *       and the rest stays a (smaller) set.  The architecture set keeps what
 *       room is left (it is fragmented too).  Repeat until all are placed.
 *
 * The paper's pseudocode has slips, implemented here as its text means:
 *  - line 16 adds j when matrix[i][j] <= min_value; the text says the
 *    insignificant values are the ones ignored, so j is added when the
 *    weight is significant, i.e. >= min_value (and not 0);
 *  - line 44 calls map(ranklist, archSet[i], appSet[j]) with i the
 *    application index and j the architecture one: it maps appSet[i] on
 *    archSet[j], as line 46 does;
 *  - line 10 skips i when "availList" holds, which only reads right if the
 *    list marks ranks already in a set: that is the test made here;
 *  - phase II merges a set into the first final set it interleaves with,
 *    once; a merge can make two final sets interleave, and the text wants
 *    them "completely independent", so merging goes on until none do.
 *
 * What the paper leaves to the implementation (doc/policies.md):
 *  - significant: a weight w > 0 with w >= threshold% of the largest
 *    weight of the matrix (threshold 10 by default; 0 keeps every
 *    non-zero weight, 100 only the largest ones);
 *  - architecture sets: the subtrees below the root (packages, NUMA nodes;
 *    on tree:A,B,... the A children of the root), each holding at most
 *    set_cap ranks when set_cap > 0 (the paper's 32 processes on 48-core
 *    nodes, which leaves room to the I/O aggregators);
 *  - which ranks of a set go first when it is fragmented, and where they
 *    sit inside an architecture set: each set is ordered by growing it
 *    from its smallest rank, always adding the rank that exchanges the most
 *    (all weights counted, ties to the lowest rank) with those already in;
 *    fragments take the first ranks of that order, and ranks take the free
 *    leaves of their architecture set from left to right in that order;
 *  - ties: the lowest set index (sets numbered by their smallest rank),
 *    the leftmost architecture set.
 */
#include <config.h>

#include <stdlib.h>

#include "place/policy.h"

static int find(int *parent, int x)
{
	while (parent[x] != x) {
		parent[x] = parent[parent[x]];
		x = parent[x];
	}
	return x;
}

int tm__setmatch_sets(const tm_matrix *m, double threshold, int *set_of)
{
	int n = m->n, nsets = 0;
	int *parent = malloc((size_t)n * sizeof(int) + 1);
	int *id = malloc((size_t)n * sizeof(int) + 1);
	char *in_set = calloc((size_t)n + 1, 1);
	double largest = 0;

	if (!parent || !id || !in_set) {
		free(parent);
		free(id);
		free(in_set);
		return -1;
	}
	int64_t nnz = m->row_start[n];
	for (int64_t e = 0; e < nnz; e++)
		if (m->weight[e] > largest)
			largest = m->weight[e];
	double cut = threshold / 100.0 * largest;

	for (int r = 0; r < n; r++) {
		parent[r] = r;
		id[r] = -1;
	}
	/* Phase I, and phase II as it goes: a set is its seed i with the
	 * ranks it holds; joining them in one union-find class merges every
	 * set that shares a rank with it, transitively. */
	for (int i = 0; i < n; i++) {
		if (in_set[i])
			continue;
		in_set[i] = 1;
		for (int64_t e = m->row_start[i]; e < m->row_start[i + 1]; e++) {
			if (m->weight[e] < cut)
				continue;
			int j = m->col[e];
			int a = find(parent, i), b = find(parent, j);

			in_set[j] = 1;
			/* the smaller root stays: the class's smallest rank */
			if (a < b)
				parent[b] = a;
			else
				parent[a] = b;
		}
	}
	for (int r = 0; r < n; r++) {
		int root = find(parent, r);

		if (id[root] < 0)
			id[root] = nsets++;
		set_of[r] = id[root];
	}
	free(parent);
	free(id);
	free(in_set);
	return nsets;
}

/* The ranks of each set, ordered by growth (see the top of the file):
 * order[start[s] .. start[s + 1] - 1]. */
static int order_sets(const tm_matrix *m, const int *set_of, int nsets,
		      int *order, int *start)
{
	int n = m->n;
	double *gain = calloc((size_t)n + 1, sizeof(double));
	char *done = calloc((size_t)n + 1, 1);
	int *fill = calloc((size_t)nsets + 1, sizeof(int));
	int *members = malloc((size_t)n * sizeof(int) + 1);

	if (!gain || !done || !fill || !members) {
		free(gain);
		free(done);
		free(fill);
		free(members);
		return -1;
	}
	/* members: the ranks of each set, ascending (a counting sort) */
	for (int s = 0; s <= nsets; s++)
		start[s] = 0;
	for (int r = 0; r < n; r++)
		start[set_of[r] + 1]++;
	for (int s = 0; s < nsets; s++)
		start[s + 1] += start[s];
	for (int r = 0; r < n; r++)
		members[start[set_of[r]] + fill[set_of[r]]++] = r;
	for (int s = 0; s < nsets; s++) {
		const int *mem = members + start[s];
		int size = start[s + 1] - start[s];

		for (int k = 0; k < size; k++) {
			int best = -1;
			for (int x = 0; x < size; x++)
				if (!done[mem[x]] &&
				    (best < 0 || gain[mem[x]] > gain[best]))
					best = mem[x];
			done[best] = 1;
			order[start[s] + k] = best;
			for (int64_t e = m->row_start[best];
			     e < m->row_start[best + 1]; e++)
				if (set_of[m->col[e]] == s)
					gain[m->col[e]] += m->weight[e];
		}
	}
	free(gain);
	free(done);
	free(fill);
	free(members);
	return 0;
}

tm_status tm__place_setmatch(const tm_tree *t, const tm_matrix *m,
			     const tm_map_options *opt, int *leaf_of,
			     tm_error *err)
{
	double threshold = opt->threshold;
	int set_cap = opt->set_cap;
	int n = m->n;

	if (!(threshold >= 0 && threshold <= 100))
		return tm_error_set(err, TM_ERR_USAGE, "setmatch: threshold "
				    "%g%%: expected a percentage from 0 to 100",
				    threshold);
	if (set_cap < 0)
		return tm_error_set(err, TM_ERR_USAGE, "setmatch: set cap %d: "
				    "expected a number of ranks >= 1", set_cap);
	if (t->depth == 0) { /* one leaf, n <= 1 */
		leaf_of[0] = 0;
		return TM_OK;
	}
	int k = t->arity[0];
	int *next = malloc((size_t)k * sizeof(int));  /* next free leaf */
	int *room = malloc((size_t)k * sizeof(int));  /* ranks it may take */
	int *set_of = malloc((size_t)n * sizeof(int));
	int *order = malloc((size_t)n * sizeof(int));
	int *start = NULL, *left = NULL;
	tm_status status = TM_OK;

	if (!next || !room || !set_of || !order) {
		status = tm_error_nomem(err);
		goto out;
	}
	long long capacity = 0;
	for (int s = 0; s < k; s++) {
		int end;

		tm_tree_leaf_range(t, t->first_child[0] + s, &next[s], &end);
		room[s] = end - next[s];
		if (set_cap > 0 && room[s] > set_cap)
			room[s] = set_cap;
		capacity += room[s];
	}
	if (capacity < n) {
		status = tm_error_set(err, TM_ERR_USAGE, "setmatch: set cap "
				      "%d: the %d %s hold only %lld of the %d "
				      "ranks", set_cap, k,
				      k == 1 ? "top-level subtree" :
				      "top-level subtrees", capacity, n);
		goto out;
	}
	int nsets = tm__setmatch_sets(m, threshold, set_of);
	start = malloc(((size_t)nsets + 1) * sizeof(int));
	left = malloc(((size_t)nsets + 1) * sizeof(int));
	if (nsets < 0 || !start || !left ||
	    order_sets(m, set_of, nsets, order, start) < 0) {
		status = tm_error_nomem(err);
		goto out;
	}
	/* Phase III: largest application set to the roomiest architecture
	 * set; fragments go back to the list with the ranks left over. */
	for (int s = 0; s < nsets; s++)
		left[s] = start[s + 1] - start[s];
	for (int placed = 0; placed < n;) {
		int app = 0, arch = 0;

		for (int s = 1; s < nsets; s++)
			if (left[s] > left[app])
				app = s;
		for (int s = 1; s < k; s++)
			if (room[s] > room[arch])
				arch = s;
		int take = left[app] < room[arch] ? left[app] : room[arch];
		const int *ranks = order + start[app + 1] - left[app];
		for (int x = 0; x < take; x++)
			leaf_of[ranks[x]] = next[arch]++;
		left[app] -= take;
		room[arch] -= take;
		placed += take;
	}
out:
	free(next);
	free(room);
	free(set_of);
	free(order);
	free(start);
	free(left);
	return status;
}
