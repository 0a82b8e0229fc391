/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cg - conjugate gradient on a sparse symmetric positive definite matrix
 * with the communication of NAS CG: ranks form a grid of NPROWS x NPCOLS
 * (NPCOLS = NPROWS or 2 NPROWS; a power of two ranks), rank (i, j) holds
 * block (i, j) of the matrix and segment j of the vectors.  Each
 * iteration: q = A p sums the row's partial products by recursive
 * doubling inside the process row (log2 NPCOLS exchanges of the whole
 * row segment), then swaps segments with its "transpose" partner; the two
 * dot products are summed inside the row the same way (NAS does both with
 * MPI_Send/Irecv pairs, as here).  Sums are taken in a fixed order, so
 * every MPI computes the same numbers.
 *
 *   cg [SEG [ITERS]]       SEG: vector entries per rank column (512),
 *                          ITERS: CG iterations (25)
 *
 * The matrix: row g has entries at g +- o (mod order) for a few offsets o
 * spread over the whole order (as NAS's random matrix touches every block),
 * values symmetric in (g, c), and a diagonal that dominates.
 */
#include <string.h>

#include "kernel.h"

static const int offsets[] = { 1, 5, 37, 211, 1301, 7919, 40009 };
enum { NOFF = sizeof(offsets) / sizeof(offsets[0]) };

typedef struct grid {
	int rows, cols, i, j, seg, order, rowlen;
	MPI_Comm row;            /* ranks of this process row, by column */
	int partner;             /* world rank of the transpose partner */
	int send_half;           /* which half of the row segment it needs */
	int *rstart, *col;       /* block in compressed rows */
	double *val;
} grid;

static double entry(int a, int b)
{
	int lo = a < b ? a : b, hi = a < b ? b : a;
	return 0.5 + (double)((lo * 7 + hi * 3) % 101) / 202.0;
}

static int build_block(grid *g)
{
	int r0 = g->i * g->rowlen, c0 = g->j * g->seg, k = 0;

	g->rstart = malloc(((size_t)g->rowlen + 1) * sizeof(int));
	g->col = malloc((size_t)g->rowlen * (2 * NOFF + 1) * sizeof(int));
	g->val = malloc((size_t)g->rowlen * (2 * NOFF + 1) * sizeof(double));
	if (!g->rstart || !g->col || !g->val)
		return -1;
	for (int r = 0; r < g->rowlen; r++) {
		int gr = r0 + r;
		g->rstart[r] = k;
		for (int s = -NOFF; s <= NOFF; s++) {
			int gc, o = s < 0 ? -offsets[-s - 1]
				    : s > 0 ? offsets[s - 1] : 0;
			gc = ((gr + o) % g->order + g->order) % g->order;
			if (gc < c0 || gc >= c0 + g->seg)
				continue;
			g->col[k] = gc - c0;
			/* diagonal: more than the row's off-diagonal sum */
			g->val[k++] = o == 0 ? 2.0 * NOFF + 1.0
					     : -entry(gr, gc) / 2;
		}
	}
	g->rstart[g->rowlen] = k;
	return 0;
}

/* Sum v[0..n) over the process row by recursive doubling; the lower
 * column's part is always added first, so every rank gets the same bits. */
static void row_sum(const grid *g, double *v, double *tmp, int n)
{
	for (int step = 1; step < g->cols; step <<= 1) {
		int peer = g->j ^ step;
		MPI_Sendrecv(v, n, MPI_DOUBLE, peer, step, tmp, n, MPI_DOUBLE,
			     peer, step, g->row, MPI_STATUS_IGNORE);
		for (int k = 0; k < n; k++)
			v[k] = peer < g->j ? tmp[k] + v[k] : v[k] + tmp[k];
	}
}

static double dot(const grid *g, const double *a, const double *b)
{
	double s = 0, tmp;

	for (int k = 0; k < g->seg; k++)
		s += a[k] * b[k];
	row_sum(g, &s, &tmp, 1);
	return s;
}

/* q = A p: this block's product, summed over the row, then the segment
 * this rank's column needs, from the transpose partner. */
static void matvec(const grid *g, const double *p, double *q, double *w,
		   double *tmp)
{
	for (int r = 0; r < g->rowlen; r++) {
		double s = 0;
		for (int k = g->rstart[r]; k < g->rstart[r + 1]; k++)
			s += g->val[k] * p[g->col[k]];
		w[r] = s;
	}
	kernel_compute(2.0 * g->rstart[g->rowlen]);
	row_sum(g, w, tmp, g->rowlen);
	MPI_Sendrecv(w + (size_t)g->send_half * g->seg, g->seg, MPI_DOUBLE,
		     g->partner, 99, q, g->seg, MPI_DOUBLE, g->partner, 99,
		     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static int setup(grid *g, int rank, int size, int seg)
{
	int log2p = 0;

	while ((1 << log2p) < size)
		log2p++;
	if ((1 << log2p) != size)
		return -1;
	g->rows = 1 << (log2p / 2);
	g->cols = size / g->rows; /* rows or 2 rows */
	g->i = rank / g->cols;
	g->j = rank % g->cols;
	g->seg = seg;
	g->order = seg * g->cols;
	g->rowlen = g->order / g->rows; /* seg, or 2 seg */
	/* rank (i, j) needs segment j, in row block j * seg / rowlen; the
	 * partner in that row is the one that needs our segment back */
	int per = g->rowlen / seg, pi = g->j / per;
	int pj = g->i * per + g->j % per;
	g->partner = pi * g->cols + pj;
	g->send_half = pj % per;
	MPI_Comm_split(MPI_COMM_WORLD, g->i, g->j, &g->row);
	return build_block(g);
}

int main(int argc, char **argv)
{
	int rank, size, seg, iters;
	grid g;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	memset(&g, 0, sizeof(g));
	seg = kernel_arg(argc, argv, 1, 512, "SEG", rank);
	iters = kernel_arg(argc, argv, 2, 25, "ITERS", rank);
	if (seg < 0 || iters < 0)
		return kernel_usage(rank, NULL);
	if (setup(&g, rank, size, seg) != 0)
		return kernel_usage(rank, "cg: needs a power of two ranks");
	size_t n = (size_t)g.seg, rl = (size_t)g.rowlen;
	double *x = calloc(n, sizeof(double)), *r = calloc(n, sizeof(double));
	double *p = calloc(n, sizeof(double)), *q = calloc(n, sizeof(double));
	double *w = malloc(rl * sizeof(double)), *tmp = malloc(rl * sizeof(double));
	if (!x || !r || !p || !q || !w || !tmp) {
		fprintf(stderr, "cg: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	/* solve A x = b with b = 1: r = p = b */
	for (size_t k = 0; k < n; k++)
		r[k] = p[k] = 1.0;
	MPI_Barrier(MPI_COMM_WORLD);
	double t0 = MPI_Wtime(), rho = dot(&g, r, r);
	for (int it = 0; it < iters; it++) {
		matvec(&g, p, q, w, tmp);
		double alpha = rho / dot(&g, p, q);
		for (size_t k = 0; k < n; k++) {
			x[k] += alpha * p[k];
			r[k] -= alpha * q[k];
		}
		double rho_new = dot(&g, r, r);
		for (size_t k = 0; k < n; k++)
			p[k] = r[k] + rho_new / rho * p[k];
		rho = rho_new;
		kernel_compute(10.0 * (double)n);
	}
	int64_t sum = 0;
	/* each segment is held by every rank of its column: count row 0's */
	for (size_t k = 0; g.i == 0 && k < n; k++)
		sum += kernel_fixed(x[k] * 1000);
	if (rank == 0)
		sum += kernel_fixed(rho * 1e6);
	kernel_report("cg", size, t0, sum, MPI_COMM_WORLD);
	free(x), free(r), free(p), free(q), free(w), free(tmp);
	free(g.rstart), free(g.col), free(g.val);
	MPI_Comm_free(&g.row);
	MPI_Finalize();
	return 0;
}
