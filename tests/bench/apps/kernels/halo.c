/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * halo - a Jacobi sweep on a 2D or 3D grid split in blocks, one per rank:
 * every iteration each rank sends its faces to its 4 or 6 neighbours
 * (MPI_Isend / MPI_Irecv, non-periodic), then updates its cells from
 * theirs; every 10 iterations a residual is summed (MPI_Allreduce on an
 * integer, so that every MPI gets the same).  The pattern of the stencil
 * codes behind NAS MG, BT, SP and LU.
 *
 *   halo DIMS [N [ITERS]]     DIMS 2 or 3; N cells per block side
 *                             (default 48 in 2D, 12 in 3D), ITERS 50
 *
 * Ranks form a grid from MPI_Dims_create, rank order x fastest.
 */
#include <string.h>

#include "kernel.h"

typedef struct block {
	int dims, n, nbr[6];     /* neighbours: -x +x -y +y -z +z */
	int ext[3];              /* n + 2 along used axes, 1 otherwise */
	double *u, *v;           /* cells with one ghost layer */
	double *send[6], *recv[6];
} block;

static size_t at(const block *b, int x, int y, int z)
{
	return ((size_t)z * b->ext[1] + (size_t)y) * b->ext[0] + (size_t)x;
}

/* Face f's cells (inner layer: ghost = 0 gives the cells sent, 1 the ghost
 * layer received), in a fixed order, copied out (dir 0) or in (dir 1). */
static void face(block *b, int f, int ghost, double *buf, int dir)
{
	int axis = f / 2, hi = f % 2, n = b->n, k = 0;
	int fixed = hi ? (ghost ? n + 1 : n) : (ghost ? 0 : 1);
	int n2 = b->dims == 3 ? n : 1, lo2 = b->dims == 3 ? 1 : 0;

	for (int j = lo2; j < lo2 + n2; j++)
		for (int i = 1; i <= n; i++) {
			int c[3];
			c[axis] = fixed;
			c[(axis + 1) % b->dims] = i;
			if (b->dims == 3)
				c[(axis + 2) % 3] = j;
			else
				c[2] = 0;
			double *cell = &b->u[at(b, c[0], c[1], c[2])];
			if (dir)
				*cell = buf[k++];
			else
				buf[k++] = *cell;
		}
}

static double sweep(block *b)
{
	int n = b->n, z0 = b->dims == 3 ? 1 : 0, z1 = b->dims == 3 ? n : 0;
	double change = 0;

	for (int z = z0; z <= z1; z++)
		for (int y = 1; y <= n; y++)
			for (int x = 1; x <= n; x++) {
				double s = b->u[at(b, x - 1, y, z)] +
					   b->u[at(b, x + 1, y, z)] +
					   b->u[at(b, x, y - 1, z)] +
					   b->u[at(b, x, y + 1, z)];
				if (b->dims == 3)
					s += b->u[at(b, x, y, z - 1)] +
					     b->u[at(b, x, y, z + 1)];
				double nv = s / (2 * b->dims);
				change += nv > b->u[at(b, x, y, z)]
					  ? nv - b->u[at(b, x, y, z)]
					  : b->u[at(b, x, y, z)] - nv;
				b->v[at(b, x, y, z)] = nv;
			}
	double *t = b->u;
	b->u = b->v;
	b->v = t;
	return change;
}

static int setup(block *b, MPI_Comm cart, const int *coords)
{
	size_t cells, facesize = (size_t)b->n * (b->dims == 3 ? b->n : 1);

	for (int a = 0; a < 3; a++)
		b->ext[a] = a < b->dims ? b->n + 2 : 1;
	cells = (size_t)b->ext[0] * b->ext[1] * b->ext[2];
	b->u = calloc(cells, sizeof(double));
	b->v = calloc(cells, sizeof(double));
	if (!b->u || !b->v)
		return -1;
	for (int f = 0; f < 2 * b->dims; f++) {
		MPI_Cart_shift(cart, b->dims - 1 - f / 2, 1, &b->nbr[f & ~1],
			       &b->nbr[f | 1]);
		b->send[f] = malloc(facesize * sizeof(double));
		b->recv[f] = malloc(facesize * sizeof(double));
		if (!b->send[f] || !b->recv[f])
			return -1;
	}
	/* a smooth start that depends on the global position */
	for (size_t k = 0; k < cells; k++) {
		size_t x = k % b->ext[0], y = k / b->ext[0] % b->ext[1],
		       z = k / b->ext[0] / b->ext[1];
		b->u[k] = (double)((coords[b->dims - 1] * b->n + (int)x) % 17 +
				   (coords[b->dims - 2] * b->n + (int)y) % 13 +
				   (b->dims == 3 ? (coords[0] * b->n + (int)z)
						   % 11 : 0));
	}
	memcpy(b->v, b->u, cells * sizeof(double));
	return 0;
}

int main(int argc, char **argv)
{
	int rank, size, dims_n, iters, dims[3] = { 0, 0, 0 }, periods[3] = { 0 };
	int coords[3];
	block b;
	MPI_Comm cart;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	memset(&b, 0, sizeof(b));
	dims_n = kernel_arg(argc, argv, 1, 0, "DIMS", rank);
	if (dims_n != 2 && dims_n != 3)
		return kernel_usage(rank, "usage: halo 2|3 [N [ITERS]]");
	b.dims = dims_n;
	b.n = kernel_arg(argc, argv, 2, dims_n == 2 ? 48 : 12, "N", rank);
	iters = kernel_arg(argc, argv, 3, 50, "ITERS", rank);
	if (b.n < 0 || iters < 0)
		return kernel_usage(rank, NULL);
	/* dims[0] is the slowest axis: rank order is x fastest */
	MPI_Dims_create(size, b.dims, dims);
	MPI_Cart_create(MPI_COMM_WORLD, b.dims, dims, periods, 0, &cart);
	MPI_Cart_coords(cart, rank, b.dims, coords);
	if (setup(&b, cart, coords) != 0) {
		fprintf(stderr, "halo: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	int nf = 2 * b.dims, count = b.n * (b.dims == 3 ? b.n : 1);
	double cells = (double)b.n * b.n * (b.dims == 3 ? b.n : 1);
	MPI_Request req[12];
	MPI_Barrier(cart);
	double t0 = MPI_Wtime();
	long long residual = 0;
	for (int it = 0; it < iters; it++) {
		for (int f = 0; f < nf; f++) {
			face(&b, f, 0, b.send[f], 0);
			MPI_Irecv(b.recv[f], count, MPI_DOUBLE, b.nbr[f], it,
				  cart, &req[2 * f]);
			MPI_Isend(b.send[f], count, MPI_DOUBLE, b.nbr[f], it,
				  cart, &req[2 * f + 1]);
		}
		MPI_Waitall(2 * nf, req, MPI_STATUSES_IGNORE);
		for (int f = 0; f < nf; f++)
			if (b.nbr[f] != MPI_PROC_NULL)
				face(&b, f, 1, b.recv[f], 1);
		double change = sweep(&b);
		/* 2 dims + 2 flops a cell: the sum, the scaling, the change */
		kernel_compute(cells * (2.0 * b.dims + 2));
		if (it % 10 == 9) {
			long long mine = kernel_fixed(change);
			MPI_Allreduce(&mine, &residual, 1, MPI_LONG_LONG,
				      MPI_SUM, cart);
		}
	}
	int64_t sum = 0;
	for (size_t k = 0; k < (size_t)b.ext[0] * b.ext[1] * b.ext[2]; k++)
		sum += kernel_fixed(b.u[k]);
	kernel_report(b.dims == 2 ? "halo2" : "halo3", size, t0,
		      sum + (rank == 0 ? residual : 0), cart);
	for (int f = 0; f < nf; f++) {
		free(b.send[f]);
		free(b.recv[f]);
	}
	free(b.u);
	free(b.v);
	MPI_Comm_free(&cart);
	MPI_Finalize();
	return 0;
}
