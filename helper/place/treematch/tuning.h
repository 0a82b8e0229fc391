/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * place/treematch/tuning.h - every tuned constant of the treematch policy,
 * with why it has its value.  All are counts or ratios, never times, so
 * that a placement never depends on the machine's speed.  The benchmark
 * (`make bench`) is what moves them; change one only with its table.
 */
#ifndef TM_TREEMATCH_TUNING_H
#define TM_TREEMATCH_TUNING_H

/* ---- bottom-up grouping (group.c) ---------------------------------- */

/* Up to this many candidate groups, all are enumerated (the paper's way):
 * 70 processes in pairs, 24 in threes, 16 in fours, 12 in sixes...  Beyond
 * that the fast paths take over: enumerating costs more than the whole
 * placement is worth at launch. */
enum { EXHAUSTIVE_MAX_GROUPS = 2500 };
/* Search nodes allowed to one exact-cover check of "largest values last";
 * a count, not a time, so that results never depend on the machine. */
enum { COVER_SEARCH_BUDGET = 4000 };

/* ---- bisection (bisect.c) ------------------------------------------ */

enum {
	/* stop coarsening at about this many vertices: small enough that
	 * growing several seeds there is cheap */
	COARSEST = 80,
	/* Fiduccia-Mattheyses passes per level; later ones rarely move */
	MAX_FM_PASSES = 8,
	/* growing trials on the coarsest graph, the lightest cut is kept */
	SEEDS = 4,
};

/* A graph with an average degree up to this is sparse enough (a stencil)
 * for a cut grown on the graph itself from its periphery to be worth
 * trying beside the multilevel one; denser graphs gain nothing from it. */
enum { TM_GRID_TRIAL_MAX_DEGREE = 16 };

/* ---- V-cycle refinement of k-way splits (vcycle.c) ----------------- */

enum {
	/* rounds of pairwise FM between parts at one level */
	PAIR_ROUNDS = 3,
	/* stop coarsening at about this many vertices a part */
	COARSEST_PER_PART = 8,
	/* of the smallest part, the slack allowed on coarse levels: without
	 * slack the V-cycle gained about nothing */
	SLACK_PERCENT = 2,
};

/* Another round of pairs is worth it only after one that cut this much:
 * later rounds on random graphs gained hundredths of a percent for a
 * fifth of the mapping time. */
#define MIN_ROUND_GAIN 3e-3

/* A V-cycle that still cuts this much off the weight between parts shows
 * that recursive bisection left the parts far from where they belong (a
 * stencil with long-range pairs: 7.7 %, then 0.9 %); another cycle starts
 * from its result.  On the benchmark's other cases the first cycle gains 0
 * to 3 % and a second one almost nothing. */
#define ANOTHER_CYCLE_GAIN 0.05
enum { MAX_CYCLES = 3 };

/* ---- the heavy skeleton (skeleton.c) ------------------------------- */

/* An edge is light when this many times its weight is still less than the
 * heaviest edge of both of its ranks: the benchmark's 8-byte allreduce and
 * gather beside a halo of 11 kB are (a ratio near 1,500), while the
 * diagonal partners of a stencil 10 times lighter than its faces stay in
 * the skeleton (the benchmark's 3D corners, 100 times lighter, go, but
 * that stretches the grid too little to try it: SKELETON_STRETCH). */
#define LIGHT_EDGE_RATIO 64

/* The skeleton is partitioned only when its breadth-first diameter is at
 * least this many times the matrix's: the light edges were shortcuts (a
 * 3D halo of 1,024 ranks: 1 with an allreduce over all pairs, 2 with a
 * gather to one rank, 29 without either).  Without this test the
 * benchmark's random graphs, whose few lightest edges are light too, were
 * partitioned twice for a 0.1 % gain: 4,096 ranks on 256 nodes took 0.50 s
 * instead of 0.25 s. */
enum { SKELETON_STRETCH = 2 };

/* ---- choice among strategies (strategy.c) -------------------------- */

/* Whether to try the top-down path with multilevel cuts only, beside the
 * one that also grows cuts on the graph itself: on large sparse grids
 * (a diameter of at least 1.5 log2 n: stencils, not random graphs, whose
 * diameter is below log2 n) the greedily lighter grid cut at one
 * bisection sometimes leads to heavier splits below, 3 to 8 % on the
 * benchmark's 3D stencils and stencils with long-range pairs of about
 * a thousand ranks.  It doubles the top-down time, which from 512 ranks up
 * is small next to what Scotch takes, and elsewhere gains nothing. */
enum { LARGE_GRID_RANKS = 512 };

/* Refining is what costs time, and it rarely lifts a placement past one
 * that was much better before: refine the best and those close to it. */
#define WORTH_REFINING 1.05

/* Packed wins a tie with the chosen placement (strategy.c): costs within
 * this relative difference are equal (only fractional level costs make
 * them differ at all, in the last bits of a double). */
#define TIE_SLACK 1e-12

#endif /* TM_TREEMATCH_TUNING_H */
