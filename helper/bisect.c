/*
 * bisect.c - split a graph into two parts of exact sizes with a light cut.
 *
 * Greedy graph growing: from a seed, the part grows one vertex at a time,
 * always by the vertex that adds the least to the cut; seeds are a few
 * deterministic peripheral vertices (the ends of breadth-first searches),
 * the heaviest vertex and vertex 0.  Each result is refined by
 * Fiduccia-Mattheyses passes: tentatively move vertices one by one to the
 * other side, best gain first, each at most once, alternating sides so the
 * sizes stay exact at every other step, then keep the best balanced prefix.
 * The lightest cut wins; ties go to the earlier seed.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "heap.h"
#include "map_internal.h"

enum { MAX_FM_PASSES = 10 };

typedef struct bisection {
	const tm_matrix *g;
	int n, size_a;      /* vertices, and how many go to side 0 */
	char *side;         /* 0 or 1 per vertex */
	double *degree;     /* total weight of each vertex */
	double *ext, *in;   /* weight to the other side / to its own side */
	char *locked;
	int *moves;
	int *queue, *dist;  /* breadth-first search scratch */
	tm_heap heap[2];
} bisection;

static double cut_weight(const tm_matrix *g, const char *side)
{
	double cut = 0;

	for (int v = 0; v < g->n; v++)
		for (int64_t e = g->row_start[v]; e < g->row_start[v + 1]; e++)
			if (g->col[e] > v && side[g->col[e]] != side[v])
				cut += g->weight[e];
	return cut;
}

/* The last vertex a breadth-first search from `start` reaches. */
static int farthest_from(bisection *b, int start)
{
	const tm_matrix *g = b->g;
	int head = 0, tail = 0, last = start;

	for (int v = 0; v < b->n; v++)
		b->dist[v] = -1;
	b->dist[start] = 0;
	b->queue[tail++] = start;
	while (head < tail) {
		int v = b->queue[head++];

		last = v;
		for (int64_t e = g->row_start[v]; e < g->row_start[v + 1]; e++) {
			int u = g->col[e];
			if (b->dist[u] < 0) {
				b->dist[u] = b->dist[v] + 1;
				b->queue[tail++] = u;
			}
		}
	}
	return last;
}

/* Grow side `grown` (`target` vertices) from seed; the rest is the other
 * side.  ext[] serves as "weight to the grown part" while growing. */
static int grow(bisection *b, int seed, char grown, int target)
{
	const tm_matrix *g = b->g;
	int count = 0, next_free = 0;

	memset(b->side, 1 - grown, (size_t)b->n);
	memset(b->ext, 0, sizeof(double) * (size_t)b->n);
	tm_heap_clear(&b->heap[0]);
	for (int v = seed; count < target;) {
		b->side[v] = grown;
		count++;
		for (int64_t e = g->row_start[v]; e < g->row_start[v + 1]; e++) {
			int u = g->col[e];

			if (b->side[u] == grown)
				continue;
			b->ext[u] += g->weight[e];
			if (tm_heap_push(&b->heap[0], 2 * b->ext[u] - b->degree[u],
					 u) < 0)
				return -1;
		}
		if (count == target)
			break;
		tm_heap_entry top;
		v = -1;
		while (v < 0 && tm_heap_pop(&b->heap[0], &top)) {
			int u = top.vertex;
			if (b->side[u] != grown &&
			    top.key == 2 * b->ext[u] - b->degree[u])
				v = u;
		}
		while (v < 0) { /* component exhausted: restart elsewhere */
			if (b->side[next_free] != grown)
				v = next_free;
			next_free++;
		}
	}
	return 0;
}

static int push_gain(bisection *b, int v)
{
	return tm_heap_push(&b->heap[(int)b->side[v]], b->ext[v] - b->in[v], v);
}

/* Pop the best movable vertex of a side, or -1. */
static int pop_valid(bisection *b, int s)
{
	tm_heap_entry top;

	while (tm_heap_pop(&b->heap[s], &top)) {
		int v = top.vertex;
		if (!b->locked[v] && b->side[v] == s &&
		    top.key == b->ext[v] - b->in[v])
			return v;
	}
	return -1;
}

static int fm_pass(bisection *b, double *cut)
{
	const tm_matrix *g = b->g;
	int size = b->size_a, nmoves = 0, best_moves = 0, since_best = 0;
	int patience = 50 + b->n / 8;
	double current = *cut, best = *cut;

	tm_heap_clear(&b->heap[0]);
	tm_heap_clear(&b->heap[1]);
	memset(b->locked, 0, (size_t)b->n);
	for (int v = 0; v < b->n; v++) {
		b->ext[v] = b->in[v] = 0;
		for (int64_t e = g->row_start[v]; e < g->row_start[v + 1]; e++) {
			if (b->side[g->col[e]] == b->side[v])
				b->in[v] += g->weight[e];
			else
				b->ext[v] += g->weight[e];
		}
		if (push_gain(b, v) < 0)
			return -1;
	}
	for (;;) {
		int from, v;

		if (size != b->size_a) {
			from = size > b->size_a ? 0 : 1;
			v = pop_valid(b, from);
		} else {
			int v0 = pop_valid(b, 0), v1 = pop_valid(b, 1);
			double g0 = v0 >= 0 ? b->ext[v0] - b->in[v0] : 0;
			double g1 = v1 >= 0 ? b->ext[v1] - b->in[v1] : 0;

			from = v0 >= 0 && (v1 < 0 || g0 >= g1) ? 0 : 1;
			v = from == 0 ? v0 : v1;
			int other = from == 0 ? v1 : v0;
			if (other >= 0 && push_gain(b, other) < 0)
				return -1;
		}
		if (v < 0)
			break;
		current -= b->ext[v] - b->in[v];
		b->side[v] = (char)(1 - from);
		b->locked[v] = 1;
		double swap = b->ext[v];
		b->ext[v] = b->in[v];
		b->in[v] = swap;
		size += from == 0 ? -1 : 1;
		for (int64_t e = g->row_start[v]; e < g->row_start[v + 1]; e++) {
			int u = g->col[e];
			double w = g->weight[e];

			if (b->side[u] == b->side[v]) {
				b->in[u] += w;
				b->ext[u] -= w;
			} else {
				b->in[u] -= w;
				b->ext[u] += w;
			}
			if (!b->locked[u] && push_gain(b, u) < 0)
				return -1;
		}
		b->moves[nmoves++] = v;
		if (size == b->size_a && current < best) {
			best = current;
			best_moves = nmoves;
			since_best = 0;
		} else if (++since_best > patience) {
			break;
		}
	}
	for (int i = nmoves - 1; i >= best_moves; i--)
		b->side[b->moves[i]] = (char)(1 - b->side[b->moves[i]]);
	double before = *cut;
	*cut = cut_weight(g, b->side); /* no drift from the running sums */
	return *cut < before;
}

static int refine(bisection *b, double *cut)
{
	*cut = cut_weight(b->g, b->side);
	for (int pass = 0; pass < MAX_FM_PASSES; pass++) {
		int improved = fm_pass(b, cut);

		if (improved < 0)
			return -1;
		if (!improved)
			break;
	}
	return 0;
}

tm_status tm_bisect(const tm_matrix *g, int size_a, char *side, tm_error *err)
{
	int n = g->n;
	bisection b = { .g = g, .n = n, .size_a = size_a };
	char *best_side = malloc((size_t)n + 1);
	tm_status st = TM_OK;

	b.side = malloc((size_t)n + 1);
	b.degree = calloc((size_t)n + 1, sizeof(double));
	b.ext = malloc(sizeof(double) * ((size_t)n + 1));
	b.in = malloc(sizeof(double) * ((size_t)n + 1));
	b.locked = malloc((size_t)n + 1);
	b.moves = malloc(sizeof(int) * ((size_t)n + 1));
	b.queue = malloc(sizeof(int) * ((size_t)n + 1));
	b.dist = malloc(sizeof(int) * ((size_t)n + 1));
	if (!best_side || !b.side || !b.degree || !b.ext || !b.in ||
	    !b.locked || !b.moves || !b.queue || !b.dist) {
		st = tm_error_nomem(err);
		goto out;
	}
	if (size_a <= 0 || size_a >= n) {
		memset(side, size_a <= 0 ? 1 : 0, (size_t)n);
		goto out;
	}
	int heaviest = 0;
	for (int v = 0; v < n; v++) {
		for (int64_t e = g->row_start[v]; e < g->row_start[v + 1]; e++)
			b.degree[v] += g->weight[e];
		if (b.degree[v] > b.degree[heaviest])
			heaviest = v;
	}
	int seeds[4], nseeds = 0;
	seeds[nseeds++] = farthest_from(&b, 0);
	seeds[nseeds++] = farthest_from(&b, seeds[0]);
	seeds[nseeds++] = heaviest;
	seeds[nseeds++] = 0;
	if (n > 20000)
		nseeds = 2; /* each trial costs a few passes over the graph */

	double best_cut = 0;
	int have_best = 0;
	for (int s = 0; s < nseeds; s++) {
		int dup = 0;
		for (int t = 0; t < s; t++)
			dup |= seeds[t] == seeds[s];
		if (dup)
			continue;
		/* grow the smaller side: a peripheral seed suits it */
		int grow_a = size_a <= n - size_a;
		double cut;
		if (grow(&b, seeds[s], grow_a ? 0 : 1,
			 grow_a ? size_a : n - size_a) < 0 ||
		    refine(&b, &cut) < 0) {
			st = tm_error_nomem(err);
			goto out;
		}
		if (!have_best || cut < best_cut) {
			have_best = 1;
			best_cut = cut;
			memcpy(best_side, b.side, (size_t)n);
		}
	}
	memcpy(side, best_side, (size_t)n);
out:
	free(best_side);
	free(b.side);
	free(b.degree);
	free(b.ext);
	free(b.in);
	free(b.locked);
	free(b.moves);
	free(b.queue);
	free(b.dist);
	tm_heap_free(&b.heap[0]);
	tm_heap_free(&b.heap[1]);
	return st;
}
