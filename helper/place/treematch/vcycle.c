/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vcycle.c - refine a k-way partition (tm__partition_refine).
 *
 * Recursive bisection decides each split once, for the parts on either
 * side as a whole.  Afterwards, every two parts that exchange something are
 * refined together: Fiduccia-Mattheyses on their union, sizes kept.  Moves
 * between p and q change no edge to a third part, so each step can only
 * lower the cut of the whole split.  Heaviest pairs first (those that
 * exchange less than half the average of a pair are left: little to gain);
 * rounds repeat while one helps, at most a few times.
 *
 * Moving one rank at a time cannot move a boundary that only pays off once
 * a whole region has crossed it (a stencil whose long-range pairs pull
 * blocks out of shape).  So the pairs are refined at every level of a
 * V-cycle: the graph is coarsened with the partition held fixed (only
 * ranks of one part merge), the coarsest level is refined first, where a
 * move carries a whole cluster, and each finer level starts from the
 * level above.  Merged vertices carry their rank counts; on coarse levels
 * a part may hold a little more or less than its size (tolerance below),
 * and before the last level restore_sizes moves the fewest-cost ranks
 * back, so every part ends with exactly its size.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>


#include "place/treematch/multilevel.h"
#include "place/treematch/treematch.h"
#include "util/sort.h"


/* How far a part's weight may stray on a coarse level: a vertex of that
 * level, or 2 % of the smallest part if more.  Some slack lets a cluster
 * cross without an exact counterweight, which is what moves a boundary;
 * restore_sizes takes it back at the end (2 % cut the stencils with
 * long-range pairs 1-4 % more than exact balance did, and 8 % lost it). */
static int tolerance(const tm_level *lv, int smallest)
{
	int slack = smallest * SLACK_PERCENT / 100;

	return lv->heaviest > slack ? lv->heaviest : slack;
}

static double cut_between(const tm_matrix *m, const int *part_of, int nparts,
			  double *between)
{
	double total = 0;

	memset(between, 0, sizeof(double) * (size_t)nparts * (size_t)nparts);
	for (int v = 0; v < m->n; v++)
		for (int64_t e = m->row_start[v]; e < m->row_start[v + 1]; e++) {
			int u = m->col[e], p = part_of[v], q = part_of[u];
			if (u > v && p != q) {
				between[p * nparts + q] += m->weight[e];
				between[q * nparts + p] += m->weight[e];
				total += m->weight[e];
			}
		}
	return total;
}

/* Refine parts p and q together: p's weight is brought to want[p] +- tol
 * (vw NULL: ranks, exactly). */
static tm_status refine_pair(const tm_matrix *m, const int *vw,
			     const int *want, int tol, int *part_of, int p,
			     int q, int *verts, int *sub_vw, char *side,
			     tm_error *err)
{
	int k = 0;

	for (int v = 0; v < m->n; v++)
		if (part_of[v] == p || part_of[v] == q) {
			side[k] = part_of[v] == p ? 0 : 1;
			sub_vw[k] = vw ? vw[v] : 1;
			verts[k++] = v;
		}
	tm_matrix *sub = tm_matrix_subset(m, verts, k);
	if (!sub)
		return tm_error_nomem(err);
	tm_status st = tm__bisect_refine(sub, vw ? sub_vw : NULL, want[p], tol,
					side, err);
	tm_matrix_free(sub);
	for (int i = 0; i < k && st == TM_OK; i++)
		part_of[verts[i]] = side[i] == 0 ? p : q;
	return st;
}

static tm_status refine_pairs(const tm_matrix *m, const int *vw,
			      const int *want, int tol, int nparts,
			      int *part_of, tm_error *err)
{
	size_t np2 = (size_t)nparts * (size_t)nparts;
	double *between = malloc(sizeof(double) * np2);
	int *pair_p = malloc(sizeof(int) * np2), *pair_q = malloc(sizeof(int) * np2);
	double *key = malloc(sizeof(double) * np2);
	long *order = malloc(sizeof(long) * np2);
	int *verts = malloc(sizeof(int) * ((size_t)m->n + 1));
	int *sub_vw = malloc(sizeof(int) * ((size_t)m->n + 1));
	char *side = malloc((size_t)m->n + 1);
	tm_status st = TM_OK;

	if (!between || !pair_p || !pair_q || !key || !order || !verts || !sub_vw ||
	    !side) {
		st = tm_error_nomem(err);
		goto out;
	}
	double cut = cut_between(m, part_of, nparts, between);
	for (int round = 0; round < PAIR_ROUNDS && st == TM_OK; round++) {
		long npairs = 0;

		long adjacent = 0;
		for (int p = 0; p < nparts; p++)
			for (int q = p + 1; q < nparts; q++)
				adjacent += between[p * nparts + q] > 0;
		/* pairs that exchange little have little to gain: refine those
		 * above half the average cut of a pair */
		double floor = adjacent ? cut / (2.0 * (double)adjacent) : 0;
		for (int p = 0; p < nparts; p++)
			for (int q = p + 1; q < nparts; q++) {
				if (between[p * nparts + q] <= 0 ||
				    between[p * nparts + q] < floor)
					continue;
				pair_p[npairs] = p;
				pair_q[npairs] = q;
				key[npairs] = -between[p * nparts + q];
				order[npairs] = npairs;
				npairs++;
			}
		if (tm__sort_indices(order, npairs, key) < 0) {
			st = tm_error_nomem(err);
			break;
		}
		for (long i = 0; i < npairs && st == TM_OK; i++)
			st = refine_pair(m, vw, want, tol, part_of,
					 pair_p[order[i]], pair_q[order[i]], verts,
					 sub_vw, side, err);
		double before = cut;
		cut = cut_between(m, part_of, nparts, between);
		if (cut >= before * (1 - MIN_ROUND_GAIN))
			break;
	}
out:
	free(between);
	free(pair_p);
	free(pair_q);
	free(key);
	free(order);
	free(verts);
	free(sub_vw);
	free(side);
	return st;
}

/* The part a rank of an over-full part should go to: among the parts
 * that want more, the one it exchanges most with (`under`, the first of
 * them, when it exchanges with none); *gain is what the move saves.  to[]
 * is scratch of nparts zeros, left zero. */
static int best_move(const tm_matrix *m, const int *part_of, const int *have,
		     const int *want, int under, int v, double *to,
		     double *gain)
{
	int p = part_of[v], q = under;

	for (int64_t e = m->row_start[v]; e < m->row_start[v + 1]; e++)
		to[part_of[m->col[e]]] += m->weight[e];
	for (int64_t e = m->row_start[v]; e < m->row_start[v + 1]; e++) {
		int r = part_of[m->col[e]];
		if (have[r] < want[r] && to[r] > to[q])
			q = r;
	}
	*gain = to[q] - to[p];
	for (int64_t e = m->row_start[v]; e < m->row_start[v + 1]; e++)
		to[part_of[m->col[e]]] = 0;
	to[p] = to[q] = 0;
	return q;
}

/* Ranks: while parts hold more than they want, move the ranks of those
 * parts whose moves cost least, each to the part that wants more and that
 * it exchanges most with.  Coarse levels left the sizes a few ranks off
 * (up to 2 % of a part).  Each pass prices every candidate and moves the
 * cheapest eighth of the excess: moving them all on stale prices cost the
 * small stencils up to 1.6 %, one move per pass is a scan per move. */
static tm_status restore_sizes(const tm_matrix *m, int nparts,
			       const int *want, int *part_of, tm_error *err)
{
	int *have = calloc((size_t)nparts, sizeof(int));
	int *target = malloc(sizeof(int) * ((size_t)m->n + 1));
	double *to = calloc((size_t)nparts, sizeof(double));
	double *key = malloc(sizeof(double) * ((size_t)m->n + 1));
	long *order = malloc(sizeof(long) * ((size_t)m->n + 1));
	tm_status st = TM_OK;

	if (!have || !target || !to || !key || !order) {
		st = tm_error_nomem(err);
		goto out;
	}
	for (int v = 0; v < m->n; v++)
		have[part_of[v]]++;
	for (;;) {
		int under = -1;
		long count = 0, excess = 0;

		for (int q = 0; q < nparts; q++) {
			if (have[q] < want[q] && under < 0)
				under = q;
			excess += have[q] > want[q] ? have[q] - want[q] : 0;
		}
		if (under < 0)
			break; /* no part wants more, so none has too many */
		for (int v = 0; v < m->n; v++) {
			double gain;

			if (have[part_of[v]] <= want[part_of[v]])
				continue;
			target[v] = best_move(m, part_of, have, want, under, v,
					      to, &gain);
			key[v] = -gain;
			order[count++] = v;
		}
		if (tm__sort_indices(order, count, key) < 0) {
			st = tm_error_nomem(err);
			goto out;
		}
		/* an eighth of the excess per pass: one move at a time (the
		 * best, priced afresh) on the usual few ranks, few passes on
		 * the thousands a 65,536-rank split can leave */
		long moves = (excess + 7) / 8;
		for (long i = 0; i < count && under >= 0 && moves > 0; i++) {
			int v = (int)order[i], p = part_of[v], q = target[v];

			if (have[p] <= want[p])
				continue;
			moves--;
			if (have[q] >= want[q]) /* filled by earlier moves */
				q = under;
			have[p]--;
			have[q]++;
			part_of[v] = q;
			/* parts before `under` never want more again */
			while (under >= 0 && have[under] >= want[under])
				under = under + 1 < nparts ? under + 1 : -1;
		}
	}
out:
	free(have);
	free(target);
	free(to);
	free(key);
	free(order);
	return st;
}

/* One V-cycle: part_of is refined in place; size[p] is what part p must
 * hold at the end, smallest the least nonzero size. */
static tm_status vcycle(const tm_matrix *m, int nparts, const int *size,
			int smallest, int *part_of, tm_error *err)
{
	enum { MAX_LEVELS = 32 };
	tm_level lv[MAX_LEVELS] = { { 0 } };
	int *part[MAX_LEVELS] = { part_of };
	int nlevels = 1;
	tm_status st = TM_OK;

	lv[0].g = (tm_matrix *)m;
	lv[0].vw = malloc(sizeof(int) * ((size_t)m->n + 1));
	if (!lv[0].vw)
		return tm_error_nomem(err);
	for (int v = 0; v < m->n; v++)
		lv[0].vw[v] = 1;
	/* clusters small enough that each part keeps several */
	lv[0].maxvw = smallest / 4 > 1 ? smallest / 4 : 1;
	lv[0].heaviest = 1;
	while (lv[nlevels - 1].g->n > nparts * COARSEST_PER_PART &&
	       nlevels < MAX_LEVELS) {
		tm_level *f = &lv[nlevels - 1], *c = &lv[nlevels];

		st = tm__coarsen(f, c, part[nlevels - 1], err);
		if (st != TM_OK)
			goto out;
		part[nlevels] = malloc(sizeof(int) * ((size_t)c->g->n + 1));
		nlevels++;
		if (!part[nlevels - 1]) {
			st = tm_error_nomem(err);
			goto out;
		}
		for (int v = 0; v < f->g->n; v++)
			part[nlevels - 1][f->to_coarse[v]] = part[nlevels - 2][v];
		if (c->g->n > f->g->n * 9 / 10)
			break; /* matching no longer shrinks it: stop here */
	}
	/* coarse levels may trade a vertex's weight of balance for a lighter
	 * cut; the ranks then get their exact sizes back */
	for (int l = nlevels - 1; l >= 0 && st == TM_OK; l--) {
		if (l < nlevels - 1)
			for (int v = 0; v < lv[l].g->n; v++)
				part[l][v] = part[l + 1][lv[l].to_coarse[v]];
		if (l == 0 && nlevels > 1)
			st = restore_sizes(m, nparts, size, part_of, err);
		if (st == TM_OK)
			st = refine_pairs(lv[l].g, l > 0 ? lv[l].vw : NULL, size,
					  l > 0 ? tolerance(&lv[l], smallest) : 0,
					  nparts, part[l], err);
	}
out:
	for (int l = 0; l < nlevels; l++) {
		if (l > 0) {
			tm_matrix_free(lv[l].g);
			free(part[l]);
		}
		free(lv[l].vw);
		free(lv[l].to_coarse);
	}
	return st;
}


tm_status tm__partition_refine(const tm_matrix *m, int nparts, int *part_of,
			      tm_error *err)
{
	int smallest = m->n;
	int *size = calloc((size_t)nparts, sizeof(int));
	double *between = malloc(sizeof(double) * (size_t)nparts *
				 (size_t)nparts);
	tm_status st = TM_OK;

	if (!size || !between) {
		st = tm_error_nomem(err);
		goto out;
	}
	for (int v = 0; v < m->n; v++)
		size[part_of[v]]++;
	for (int p = 0; p < nparts; p++)
		if (size[p] > 0 && size[p] < smallest)
			smallest = size[p];
	double cut = cut_between(m, part_of, nparts, between);
	for (int cycle = 0; cycle < MAX_CYCLES && st == TM_OK; cycle++) {
		double before = cut;

		st = vcycle(m, nparts, size, smallest, part_of, err);
		cut = cut_between(m, part_of, nparts, between);
		if (cut > before * (1 - ANOTHER_CYCLE_GAIN))
			break;
	}
out:
	free(size);
	free(between);
	return st;
}
