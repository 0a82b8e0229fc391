/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_cases.c - the cases of the mapping benchmark: 2D and 3D stencils
 * with and without diagonals, a NAS-CG-like pattern, random sparse graphs,
 * hierarchical patterns with a planted optimum, a stencil with long-range
 * pairs, under-subscribed machines, and trees whose arities are not powers
 * of two; 16 to 4,096 ranks on trees of 3 to 5 levels.
 */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_cases.h"

static uint64_t rng;

static double uniform(void)
{
	uint64_t z = (rng += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

static void add(bench_case *c, int a, int b, double w)
{
	if (a == b || w <= 0)
		return;
	if (c->count == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 1024;
		c->i = realloc(c->i, c->cap * sizeof(int));
		c->j = realloc(c->j, c->cap * sizeof(int));
		c->w = realloc(c->w, c->cap * sizeof(double));
		if (!c->i || !c->j || !c->w) {
			fprintf(stderr, "bench: out of memory\n");
			exit(1);
		}
	}
	c->i[c->count] = a;
	c->j[c->count] = b;
	c->w[c->count++] = round(w);
}

static bench_case *new_case(bench_case **all, int *count, const char *pattern,
			    int n, int depth, const int *arity)
{
	*all = realloc(*all, sizeof(bench_case) * (size_t)(*count + 1));
	bench_case *c = &(*all)[(*count)++];

	memset(c, 0, sizeof(*c));
	snprintf(c->pattern, sizeof(c->pattern), "%s", pattern);
	c->n = n;
	c->depth = depth;
	for (int d = 0; d < depth; d++)
		c->arity[d] = arity[d];
	int len = snprintf(c->name, sizeof(c->name), "%s-%d", pattern, n);
	for (int d = 0; d < depth; d++)
		len += snprintf(c->name + len, sizeof(c->name) - (size_t)len,
				"%s%d", d ? "x" : "@", arity[d]);
	rng = 0xB5E7C0DEull ^ ((uint64_t)n << 20) ^ (uint64_t)(*count);
	return c;
}

/* Halo exchanges: faces weigh 1000, edges 100, corners 10. */
static void stencil(bench_case *c, int nx, int ny, int nz, int diagonals)
{
	for (int z = 0; z < nz; z++)
		for (int y = 0; y < ny; y++)
			for (int x = 0; x < nx; x++) {
				int me = (z * ny + y) * nx + x;
				for (int dz = -1; dz <= 1; dz++)
					for (int dy = -1; dy <= 1; dy++)
						for (int dx = -1; dx <= 1; dx++) {
							int X = x + dx, Y = y + dy, Z = z + dz;
							int moved = abs(dx) + abs(dy) + abs(dz);
							if (!moved || X < 0 || Y < 0 || Z < 0 ||
							    X >= nx || Y >= ny || Z >= nz)
								continue;
							if (moved > 1 && !diagonals)
								continue;
							add(c, me, (Z * ny + Y) * nx + X,
							    1000 / pow(10, moved - 1));
						}
			}
}

/* NAS CG: a grid of rows x cols ranks; within a row, exchanges with the
 * ranks whose column differs in one bit (recursive-doubling reductions,
 * equal sizes), and one exchange with the transpose partner. */
static void nas_cg(bench_case *c, int rows, int cols)
{
	for (int r = 0; r < rows; r++)
		for (int q = 0; q < cols; q++) {
			int me = r * cols + q;
			for (int bit = 1; bit < cols; bit <<= 1)
				add(c, me, r * cols + (q ^ bit), 1000);
			/* transposed coordinates, folded into the grid */
			int partner = (q % rows) * cols +
				      (r + (q / rows) * rows) % cols;
			add(c, me, partner, 2000);
		}
}

static void random_sparse(bench_case *c, int degree)
{
	for (int a = 0; a < c->n; a++)
		for (int k = 0; k < degree; k++)
			add(c, a, (int)(uniform() * c->n), 1 + floor(uniform() * 1000));
}

/* Ranks whose planted leaves are close exchange more: 10^(d+1) +-20% when
 * their lowest common ancestor is at depth d; rank order shuffled. */
static void hierarchical(bench_case *c)
{
	int n = c->n, stride[BENCH_MAX_DEPTH + 1];

	c->planted = malloc(sizeof(int) * (size_t)n);
	for (int r = 0; r < n; r++)
		c->planted[r] = r;
	for (int r = n - 1; r > 0; r--) {
		int s = (int)(uniform() * (r + 1)), x = c->planted[r];
		c->planted[r] = c->planted[s];
		c->planted[s] = x;
	}
	stride[c->depth] = 1;
	for (int d = c->depth - 1; d >= 0; d--)
		stride[d] = stride[d + 1] * c->arity[d];
	int *rank_at = malloc(sizeof(int) * (size_t)n);
	for (int r = 0; r < n; r++)
		rank_at[c->planted[r]] = r;
	/* every pair below the same depth-1 node (sparse above that level: a
	 * dense matrix of 4,096 ranks is not what profilers produce) */
	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++) {
			int d = 0;
			while (d < c->depth && a / stride[d + 1] == b / stride[d + 1])
				d++;
			/* d: depth of the lowest common ancestor of leaves a, b */
			if (d == 0 && uniform() > 8.0 / n)
				continue;
			add(c, rank_at[a], rank_at[b],
			    pow(10, d + 1) * (0.8 + 0.4 * uniform()));
		}
	free(rank_at);
}

/* A 2D stencil, and n/16 random pairs far apart that exchange a lot. */
static void stencil_long_range(bench_case *c, int nx, int ny)
{
	stencil(c, nx, ny, 1, 0);
	for (int k = 0; k < c->n / 16; k++)
		add(c, (int)(uniform() * c->n), (int)(uniform() * c->n), 5000);
}

static int grid_side(int n, int dims, int *side)
{
	/* the most cubic factorisation of n into dims factors */
	int rest = n;
	for (int d = 0; d < dims; d++) {
		int want = (int)round(pow(rest, 1.0 / (dims - d)));
		while (want > 1 && rest % want)
			want--;
		side[d] = want;
		rest /= want;
	}
	return side[0] * side[1] * (dims > 2 ? side[2] : 1) == n;
}

typedef struct machine {
	int depth;
	int arity[BENCH_MAX_DEPTH];
} machine;

static const machine machines[] = {
	{ 3, { 2, 2, 4 } },          /*    16: 2 nodes x 2 sockets x 4 cores */
	{ 3, { 2, 4, 8 } },          /*    64 */
	{ 4, { 4, 2, 4, 2 } },       /*    64: with L2 pairs */
	{ 4, { 4, 4, 8, 2 } },       /*   256 */
	{ 5, { 4, 2, 2, 8, 2 } },    /*   256, 5 levels */
	{ 4, { 8, 4, 8, 4 } },       /*  1024 */
	{ 4, { 16, 4, 8, 8 } },      /*  4096 */
	{ 5, { 8, 2, 4, 8, 8 } },    /*  4096, 5 levels */
	{ 3, { 3, 6, 2 } },          /*    36: arities not powers of two */
	{ 4, { 4, 3, 5, 2 } },       /*   120 */
	{ 4, { 6, 2, 3, 6 } },       /*   216 */
	{ 4, { 5, 3, 6, 12 } },      /*  1080 */
};

int bench_cases(const char *filter, bench_case **out)
{
	bench_case *all = NULL;
	int count = 0, side[3];

	for (size_t m = 0; m < sizeof(machines) / sizeof(*machines); m++) {
		const machine *mc = &machines[m];
		int leaves = 1;
		for (int d = 0; d < mc->depth; d++)
			leaves *= mc->arity[d];
		bench_case *c;

		if (grid_side(leaves, 2, side)) {
			c = new_case(&all, &count, "stencil2d", leaves, mc->depth, mc->arity);
			stencil(c, side[0], side[1], 1, 0);
			c = new_case(&all, &count, "stencil2d-diag", leaves, mc->depth, mc->arity);
			stencil(c, side[0], side[1], 1, 1);
			c = new_case(&all, &count, "stencil2d-long", leaves, mc->depth, mc->arity);
			stencil_long_range(c, side[0], side[1]);
		}
		if (grid_side(leaves, 3, side) && side[2] > 1) {
			c = new_case(&all, &count, "stencil3d", leaves, mc->depth, mc->arity);
			stencil(c, side[0], side[1], side[2], 0);
			c = new_case(&all, &count, "stencil3d-diag", leaves, mc->depth, mc->arity);
			stencil(c, side[0], side[1], side[2], 1);
		}
		int cols = 1;
		while (cols * cols < leaves)
			cols <<= 1;
		if (leaves % cols == 0 && (leaves & (leaves - 1)) == 0) {
			c = new_case(&all, &count, "nas-cg", leaves, mc->depth, mc->arity);
			nas_cg(c, leaves / cols, cols);
		}
		c = new_case(&all, &count, "random", leaves, mc->depth, mc->arity);
		random_sparse(c, 4);
		c = new_case(&all, &count, "hierarchical", leaves, mc->depth, mc->arity);
		hierarchical(c);
		/* three quarters of the machine: idle cores to place */
		int n = leaves * 3 / 4;
		if (grid_side(n, 3, side) && side[2] > 1) {
			c = new_case(&all, &count, "under-3d", n, mc->depth, mc->arity);
			stencil(c, side[0], side[1], side[2], 0);
		} else if (grid_side(n, 2, side)) {
			c = new_case(&all, &count, "under-2d", n, mc->depth, mc->arity);
			stencil(c, side[0], side[1], 1, 0);
		}
	}
	/* 65,536 ranks of a sparse 3D stencil on a 5-level machine: the size
	 * goal (under 10 s and 2 GB). Scotch needs minutes here, so this case
	 * runs only when the filter names it (CASES=65536). */
	static const machine big = { 5, { 16, 16, 4, 8, 8 } };
	bench_case *c = new_case(&all, &count, "stencil3d", 65536, big.depth,
				 big.arity);
	stencil(c, 64, 32, 32, 0);

	int kept = 0;
	for (int k = 0; k < count; k++) {
		char ranks[16];
		snprintf(ranks, sizeof(ranks), "%d", all[k].n);
		int wanted = all[k].n <= BENCH_LARGE_RANKS
				     ? !filter || strstr(all[k].name, filter)
				     : filter && strstr(all[k].name, filter) &&
					       strstr(filter, ranks);
		if (wanted)
			all[kept++] = all[k];
		else
			bench_case_free(&all[k]);
	}
	*out = all;
	return kept;
}

void bench_case_free(bench_case *c)
{
	free(c->i);
	free(c->j);
	free(c->w);
	free(c->planted);
	memset(c, 0, sizeof(*c));
}

/* One case of a pattern on a regular tree, for benchmarks whose machines
 * are not the ones above (bench_job.c: a job's switches, nodes and
 * tasks).  Seeded from the pattern, n and the tree alone. */
int bench_case_make(const char *pattern, int depth, const int *arity,
		    bench_case *out)
{
	bench_case *one = NULL;
	int count = 0, side[3], n = 1;

	for (int d = 0; d < depth; d++)
		n *= arity[d];
	bench_case *c = new_case(&one, &count, pattern, n, depth, arity);
	int fits = 1;
	if (strcmp(pattern, "stencil2d") == 0 && (fits = grid_side(n, 2, side)))
		stencil(c, side[0], side[1], 1, 0);
	else if (strcmp(pattern, "stencil3d") == 0 &&
		 (fits = grid_side(n, 3, side) && side[2] > 1))
		stencil(c, side[0], side[1], side[2], 0);
	else if (strcmp(pattern, "nas-cg") == 0) {
		int cols = 1;
		while (cols * cols < n)
			cols <<= 1;
		if ((fits = n % cols == 0 && (n & (n - 1)) == 0))
			nas_cg(c, n / cols, cols);
	} else if (strcmp(pattern, "random") == 0)
		random_sparse(c, 4);
	else if (strcmp(pattern, "hierarchical") == 0)
		hierarchical(c);
	else
		fits = 0;
	if (!fits) {
		bench_case_free(c);
		free(one);
		return -1;
	}
	*out = *c;
	free(one);
	return 0;
}

int bench_case_write_json(const bench_case *c, const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "{\"size\": %d, \"entries\": [", c->n);
	for (size_t k = 0; k < c->count; k++)
		fprintf(f, "%s[%d,%d,%.0f]", k ? "," : "", c->i[k], c->j[k],
			c->w[k]);
	fprintf(f, "]}\n");
	return fclose(f) == 0 ? 0 : -1;
}
