/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bisect.c - split a graph into two parts of exact sizes with a light cut,
 * by multilevel bisection:
 *
 *   coarsen: match each vertex with the unmatched neighbour it exchanges
 *     most with (heavy-edge matching) and merge the pairs, again and again,
 *     until the graph is small; vertex weights count the ranks merged;
 *   cut the small graph: greedy graph growing from a few deterministic
 *     peripheral seeds, each refined, the lightest kept;
 *   uncoarsen: carry the cut back level by level, each time refined by
 *     Fiduccia-Mattheyses passes (tentative moves, best gain first, each
 *     vertex once per pass; the best prefix is kept) within a balance
 *     tolerance of the heaviest vertex of that level, and at the last level
 *     to the exact sizes.
 *
 * Coarse levels see the graph's large structure, which a single level of
 * FM cannot move; the last levels fix the details.  Yet on regular grids,
 * growing from a peripheral vertex of the graph itself gives the cleaner
 * cut (the ball it grows is a compact block, which heavy-edge matching
 * blurs), so that single-level cut is tried as well and the lighter cut
 * wins.  Every choice breaks ties by vertex index: the same result on
 * every run.
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/heap.h"

#include "place/treematch/multilevel.h"
#include "place/treematch/treematch.h"


typedef tm_level level;

typedef struct work {
	int n;
	char *side;
	double *degree, *ext, *in;
	char *locked;
	int *moves, *queue, *dist;
	tm_heap heap[2];
} work;

static int work_alloc(work *w, int n)
{
	size_t m = (size_t)n + 1;

	w->n = n;
	w->side = malloc(m);
	w->degree = malloc(sizeof(double) * m);
	w->ext = malloc(sizeof(double) * m);
	w->in = malloc(sizeof(double) * m);
	w->locked = malloc(m);
	w->moves = malloc(sizeof(int) * m);
	w->queue = malloc(sizeof(int) * m);
	w->dist = malloc(sizeof(int) * m);
	return w->side && w->degree && w->ext && w->in && w->locked &&
	       w->moves && w->queue && w->dist ? 0 : -1;
}

static void work_free(work *w)
{
	free(w->side);
	free(w->degree);
	free(w->ext);
	free(w->in);
	free(w->locked);
	free(w->moves);
	free(w->queue);
	free(w->dist);
	tm__heap_free(&w->heap[0]);
	tm__heap_free(&w->heap[1]);
}

static double cut_weight(const tm_matrix *g, const char *side)
{
	double cut = 0;

	for (int v = 0; v < g->n; v++)
		for (int64_t e = g->row_start[v]; e < g->row_start[v + 1]; e++)
			if (g->col[e] > v && side[g->col[e]] != side[v])
				cut += g->weight[e];
	return cut;
}

/* ------------------------------------------------------------------ */
/* growing and refining                                                 */

int tm__farthest_vertex(const tm_matrix *g, int start, int *dist, int *queue)
{
	int head = 0, tail = 0, last = start;

	for (int v = 0; v < g->n; v++)
		dist[v] = -1;
	dist[start] = 0;
	queue[tail++] = start;
	while (head < tail) {
		int v = queue[head++];
		last = v;
		for (int64_t e = g->row_start[v]; e < g->row_start[v + 1]; e++) {
			int u = g->col[e];
			if (dist[u] < 0) {
				dist[u] = dist[v] + 1;
				queue[tail++] = u;
			}
		}
	}
	return last;
}

/* Side `grown` takes vertices from seed, least cut first, until it weighs
 * about target; the rest is the other side. */
static int grow(work *w, const level *lv, int seed, char grown, long target)
{
	const tm_matrix *g = lv->g;
	long weight = 0;
	int next_free = 0;

	memset(w->side, 1 - grown, (size_t)g->n);
	memset(w->ext, 0, sizeof(double) * (size_t)g->n);
	tm__heap_clear(&w->heap[0]);
	for (int v = seed;;) {
		w->side[v] = grown;
		weight += lv->vw[v];
		for (int64_t e = g->row_start[v]; e < g->row_start[v + 1]; e++) {
			int u = g->col[e];
			if (w->side[u] == grown)
				continue;
			w->ext[u] += g->weight[e];
			if (tm__heap_push(&w->heap[0], 2 * w->ext[u] - w->degree[u],
					 u) < 0)
				return -1;
		}
		if (weight >= target)
			break;
		tm_heap_entry top;
		v = -1;
		while (v < 0 && tm__heap_pop(&w->heap[0], &top)) {
			int u = top.vertex;
			if (w->side[u] != grown &&
			    top.key == 2 * w->ext[u] - w->degree[u])
				v = u;
		}
		while (v < 0 && next_free < g->n) { /* start another component */
			if (w->side[next_free] != grown)
				v = next_free;
			next_free++;
		}
		if (v < 0 || weight + lv->vw[v] > target + lv->heaviest)
			break;
	}
	return 0;
}

static int push_gain(work *w, int v)
{
	return tm__heap_push(&w->heap[(int)w->side[v]], w->ext[v] - w->in[v], v);
}

static int pop_valid(work *w, int s)
{
	tm_heap_entry top;

	while (tm__heap_pop(&w->heap[s], &top)) {
		int v = top.vertex;
		if (!w->locked[v] && w->side[v] == s &&
		    top.key == w->ext[v] - w->in[v])
			return v;
	}
	return -1;
}

/* One pass of Fiduccia-Mattheyses: keep the best prefix among the states
 * whose side 0 weighs target +- tol (the least imbalanced on equal cuts).
 * Returns 1 when the cut or the balance improved. */
static int fm_pass(work *w, const level *lv, long target, long tol,
		   double *cut)
{
	const tm_matrix *g = lv->g;
	long wa = 0;
	int nmoves = 0, best_moves = 0, since_best = 0;
	int patience = 50 + g->n / 16;

	tm__heap_clear(&w->heap[0]);
	tm__heap_clear(&w->heap[1]);
	memset(w->locked, 0, (size_t)g->n);
	for (int v = 0; v < g->n; v++) {
		/* sums in registers, no branch on the side: this loop over
		 * every edge starts each pass and was a third of FM's time */
		double in = 0, ext = 0;
		char s = w->side[v];

		if (s == 0)
			wa += lv->vw[v];
		for (int64_t e = g->row_start[v]; e < g->row_start[v + 1]; e++) {
			double x = g->weight[e];
			int same = w->side[g->col[e]] == s;

			in += same ? x : 0;
			ext += same ? 0 : x;
		}
		w->in[v] = in;
		w->ext[v] = ext;
		/* Only the boundary can gain; inner vertices join the heaps
		 * when a neighbour moves, or when balance needs them. */
		if (w->ext[v] > 0 && push_gain(w, v) < 0)
			return -1;
	}
	int inner_pushed[2] = { 0, 0 };
	double current = *cut, best = *cut;
	long best_off = labs(wa - target);
	for (;;) {
		int from, v;

		if (wa > target + tol || wa < target - tol) {
			from = wa > target + tol ? 0 : 1;
			v = pop_valid(w, from);
			if (v < 0 && !inner_pushed[from]) {
				/* balance must move a vertex off the boundary */
				inner_pushed[from] = 1;
				for (int u = 0; u < g->n; u++)
					if (w->side[u] == from && !w->locked[u] &&
					    w->ext[u] <= 0 && push_gain(w, u) < 0)
						return -1;
				v = pop_valid(w, from);
			}
		} else {
			int v0 = pop_valid(w, 0), v1 = pop_valid(w, 1);
			double g0 = v0 >= 0 ? w->ext[v0] - w->in[v0] : 0;
			double g1 = v1 >= 0 ? w->ext[v1] - w->in[v1] : 0;

			/* balance first on equal gains: the side that is heavy */
			from = v0 >= 0 && (v1 < 0 || g0 > g1 ||
					   (g0 == g1 && wa >= target)) ? 0 : 1;
			v = from == 0 ? v0 : v1;
			int other = from == 0 ? v1 : v0;
			if (other >= 0 && push_gain(w, other) < 0)
				return -1;
		}
		if (v < 0)
			break;
		current -= w->ext[v] - w->in[v];
		w->side[v] = (char)(1 - from);
		w->locked[v] = 1;
		double swap = w->ext[v];
		w->ext[v] = w->in[v];
		w->in[v] = swap;
		wa += from == 0 ? -lv->vw[v] : lv->vw[v];
		for (int64_t e = g->row_start[v]; e < g->row_start[v + 1]; e++) {
			int u = g->col[e];
			double x = g->weight[e];

			if (w->side[u] == w->side[v]) {
				w->in[u] += x;
				w->ext[u] -= x;
			} else {
				w->in[u] -= x;
				w->ext[u] += x;
			}
			if (!w->locked[u] && push_gain(w, u) < 0)
				return -1;
		}
		w->moves[nmoves++] = v;
		long off = labs(wa - target);
		int balanced = off <= tol;
		if (balanced && (best_off > tol || current < best ||
				 (current == best && off < best_off))) {
			best = current;
			best_off = off;
			best_moves = nmoves;
			since_best = 0;
		} else if (++since_best > patience) {
			break;
		}
	}
	for (int i = nmoves - 1; i >= best_moves; i--)
		w->side[w->moves[i]] = (char)(1 - w->side[w->moves[i]]);
	/* the running sum: each move changed the cut by exactly its gain */
	*cut = best;
	return best_moves > 0;
}

static long side0_weight(const work *w, const level *lv)
{
	long wa = 0;

	for (int v = 0; v < lv->g->n; v++)
		if (w->side[v] == 0)
			wa += lv->vw[v];
	return wa;
}

/* Passes while they lower the cut; a pass that only restores the balance
 * counts as progress. */
static int refine(work *w, const level *lv, long target, long tol,
		  double *cut)
{
	*cut = cut_weight(lv->g, w->side);
	for (int pass = 0; pass < MAX_FM_PASSES; pass++) {
		double before = *cut;
		int was_balanced = labs(side0_weight(w, lv) - target) <= tol;
		int r = fm_pass(w, lv, target, tol, cut);

		if (r < 0)
			return -1;
		if (r == 0 || (was_balanced && *cut >= before))
			break;
	}
	return 0;
}

/* Unit weights at the finest level: move the vertices that cost least from
 * the heavy side until the sizes are exact, whatever FM could not do. */
static int rebalance(work *w, const tm_matrix *g, long target)
{
	long wa = 0;

	for (int v = 0; v < g->n; v++)
		wa += w->side[v] == 0;
	while (wa != target) {
		int from = wa > target ? 0 : 1, best = -1;
		double best_gain = 0;

		for (int v = 0; v < g->n; v++) {
			if (w->side[v] != from)
				continue;
			double gain = 0;
			for (int64_t e = g->row_start[v]; e < g->row_start[v + 1]; e++)
				gain += w->side[g->col[e]] == from ? -g->weight[e]
								   : g->weight[e];
			if (best < 0 || gain > best_gain) {
				best = v;
				best_gain = gain;
			}
		}
		if (best < 0)
			return -1;
		w->side[best] = (char)(1 - from);
		wa += from == 0 ? -1 : 1;
	}
	return 0;
}

static void degrees(work *w, const tm_matrix *g)
{
	for (int v = 0; v < g->n; v++) {
		w->degree[v] = 0;
		for (int64_t e = g->row_start[v]; e < g->row_start[v + 1]; e++)
			w->degree[v] += g->weight[e];
	}
}

/* The coarsest graph: grow from each seed, refine, keep the lightest. */
static int initial_cut(work *w, const level *lv, long target, long total,
		       long tol)
{
	const tm_matrix *g = lv->g;
	char *best_side = malloc((size_t)g->n + 1);
	int seeds[SEEDS], heaviest = 0;
	double best_cut = 0;
	int have = 0;

	if (!best_side)
		return -1;
	degrees(w, g);
	for (int v = 1; v < g->n; v++)
		if (w->degree[v] > w->degree[heaviest])
			heaviest = v;
	seeds[0] = tm__farthest_vertex(g, 0, w->dist, w->queue);
	seeds[1] = tm__farthest_vertex(g, seeds[0], w->dist, w->queue);
	seeds[2] = heaviest;
	seeds[3] = 0;
	int grow_a = target <= total - target;
	/* on the whole graph (tol 0: the single-level cut), the two ends of a
	 * breadth-first diameter, which is what suits grids; on the coarsest
	 * graph of the multilevel path, trials are cheap: all four */
	int nseeds = tol == 0 && g->n > COARSEST ? 2 : SEEDS;
	for (int s = 0; s < nseeds; s++) {
		int dup = 0;
		for (int t = 0; t < s; t++)
			dup |= seeds[t] == seeds[s];
		if (dup)
			continue;
		double cut;
		if (grow(w, lv, seeds[s], grow_a ? 0 : 1,
			 grow_a ? target : total - target) < 0 ||
		    refine(w, lv, target, tol, &cut) < 0) {
			free(best_side);
			return -1;
		}
		if (!have || cut < best_cut) {
			have = 1;
			best_cut = cut;
			memcpy(best_side, w->side, (size_t)g->n);
		}
	}
	memcpy(w->side, best_side, (size_t)g->n);
	free(best_side);
	return 0;
}

tm_status tm__bisect(const tm_matrix *g, int size_a, int grid_trial, char *side,
		    tm_error *err)
{
	int n = g->n, nlevels = 1, cap = 32;
	level *lv = calloc((size_t)cap, sizeof(level));
	work w = { 0 };
	tm_status st = TM_OK;

	if (!lv)
		return tm_error_nomem(err);
	if (size_a <= 0 || size_a >= n) {
		memset(side, size_a <= 0 ? 1 : 0, (size_t)n);
		free(lv);
		return TM_OK;
	}
	lv[0].g = (tm_matrix *)g;
	lv[0].vw = malloc(sizeof(int) * (size_t)n);
	int small = size_a < n - size_a ? size_a : n - size_a;
	/* a merged vertex must fit in the smaller side several times over */
	lv[0].maxvw = small / 8 > 1 ? small / 8 : 1;
	if (!lv[0].vw) {
		st = tm_error_nomem(err);
		goto out;
	}
	for (int v = 0; v < n; v++)
		lv[0].vw[v] = 1;
	lv[0].heaviest = 1;
	while (lv[nlevels - 1].g->n > COARSEST && nlevels < cap) {
		level *f = &lv[nlevels - 1], *c = &lv[nlevels];
		st = tm__coarsen(f, c, NULL, err);
		if (st != TM_OK)
			goto out;
		nlevels++;
		if (c->g->n > f->g->n * 9 / 10)
			break; /* matching no longer shrinks it: stop here */
	}
	if (work_alloc(&w, n) < 0) {
		st = tm_error_nomem(err);
		goto out;
	}
	double multilevel_cut = -1;
	if (nlevels > 1) {
		const level *top = &lv[nlevels - 1];
		if (initial_cut(&w, top, size_a, n, top->heaviest) < 0) {
			st = tm_error_nomem(err);
			goto out;
		}
		for (int l = nlevels - 2; l >= 0; l--) {
			const level *f = &lv[l];
			/* project: a fine vertex is where its coarse vertex is */
			for (int v = f->g->n - 1; v >= 0; v--)
				w.in[v] = w.side[f->to_coarse[v]];
			for (int v = 0; v < f->g->n; v++)
				w.side[v] = (char)w.in[v];
			long tol = l == 0 ? 0 : f->heaviest;
			if (refine(&w, f, size_a, tol, &multilevel_cut) < 0) {
				st = tm_error_nomem(err);
				goto out;
			}
		}
		if (rebalance(&w, g, size_a) < 0)
			goto unsplittable;
		multilevel_cut = cut_weight(g, w.side);
		memcpy(side, w.side, (size_t)n);
	}
	/* the single-level cut, on the graph itself: for sparse graphs, the
	 * grids it suits (a dense graph's structure is the coarse levels') */
	if (nlevels > 1 && (!grid_trial ||
			    g->row_start[n] > (int64_t)n * TM_GRID_TRIAL_MAX_DEGREE))
		goto out;
	if (initial_cut(&w, &lv[0], size_a, n, 0) < 0) {
		st = tm_error_nomem(err);
		goto out;
	}
	if (rebalance(&w, g, size_a) < 0)
		goto unsplittable;
	if (multilevel_cut < 0 || cut_weight(g, w.side) < multilevel_cut)
		memcpy(side, w.side, (size_t)n);
	goto out;
unsplittable:
	st = tm_error_set(err, TM_ERR_USAGE, "cannot split %d vertices %d / %d",
			  n, size_a, n - size_a);
out:
	for (int l = 0; l < nlevels; l++) {
		if (l > 0)
			tm_matrix_free(lv[l].g);
		free(lv[l].vw);
		free(lv[l].to_coarse);
	}
	free(lv);
	work_free(&w);
	return st;
}

tm_status tm__bisect_refine(const tm_matrix *g, const int *vw, int size_a,
			   int tol, char *side, tm_error *err)
{
	int n = g->n;
	level lv = { (tm_matrix *)g, malloc(sizeof(int) * ((size_t)n + 1)),
		     NULL, 1, 1 };
	work w = { 0 };
	tm_status st = TM_OK;
	double cut;

	if (!lv.vw || work_alloc(&w, n) < 0) {
		st = tm_error_nomem(err);
		goto out;
	}
	for (int v = 0; v < n; v++) {
		lv.vw[v] = vw ? vw[v] : 1;
		if (lv.vw[v] > lv.heaviest)
			lv.heaviest = lv.vw[v];
	}
	memcpy(w.side, side, (size_t)n);
	if (refine(&w, &lv, size_a, tol, &cut) < 0) {
		st = tm_error_nomem(err);
		goto out;
	}
	if (vw) { /* FM's state: the best within the tolerance */
		memcpy(side, w.side, (size_t)n);
		goto out;
	}
	if (rebalance(&w, g, size_a) < 0) {
		st = tm_error_set(err, TM_ERR_USAGE,
				  "cannot split %d vertices %d / %d", n, size_a,
				  n - size_a);
		goto out;
	}
	if (cut_weight(g, w.side) < cut_weight(g, side))
		memcpy(side, w.side, (size_t)n);
out:
	free(lv.vw);
	work_free(&w);
	return st;
}
