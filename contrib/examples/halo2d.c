/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * halo2d - a 2D grid of PX x PY ranks, each owning N x N cells, exchanges
 * its edges with its 4 neighbours (non-periodic: ranks on the border have
 * fewer) every iteration with MPI_Isend / MPI_Irecv / MPI_Waitall, then
 * sums all cells with one MPI_Allreduce.
 *
 *   halo2d PX PY [N [ITERS]]       defaults: N = 100, ITERS = 10
 *
 * Rank r sits at column x = r % PX, row y = r / PX (a Cartesian
 * communicator without reordering).  Cell (gx, gy) of the global grid
 * holds gx + 1000 gy + 1000000 t at iteration t, so every halo and the
 * global sum can be checked exactly.  Each rank prints one line; the
 * exit status is 1 if a halo or the sum was wrong.
 */
#include <mpi.h>
#include <stdint.h>

#include "example.h"

enum { WEST, EAST, SOUTH, NORTH, SIDES };

static double cell(int64_t gx, int64_t gy, int t)
{
	return (double)(gx + 1000 * gy + 1000000 * (int64_t)t);
}

/* The global column and row of cell k of the edge on `side` of the block
 * at (x, y); `outside` = 1 gives the neighbour's cell just beyond it. */
static void edge_cell(int side, int x, int y, int n, int k, int outside,
		      int64_t *gx, int64_t *gy)
{
	int64_t left = (int64_t)x * n, bottom = (int64_t)y * n;

	switch (side) {
	case WEST:
		*gx = left - outside, *gy = bottom + k;
		break;
	case EAST:
		*gx = left + n - 1 + outside, *gy = bottom + k;
		break;
	case SOUTH:
		*gx = left + k, *gy = bottom - outside;
		break;
	default: /* NORTH */
		*gx = left + k, *gy = bottom + n - 1 + outside;
		break;
	}
}

/* The exact sum of every cell of the global grid at iteration t. */
static double expected_sum(int64_t width, int64_t height, int t)
{
	int64_t columns = width * (width - 1) / 2;
	int64_t rows = height * (height - 1) / 2;

	return (double)(height * columns + 1000 * width * rows
			+ 1000000 * (int64_t)t * width * height);
}

int main(int argc, char **argv)
{
	int rank, size, px, py, n, iters, x, y, t, side, k, count = 0;
	int dims[2], periods[2] = { 0, 0 }, coords[2], neighbour[SIDES];
	double *send[SIDES], *recv[SIDES], local, global = 0;
	MPI_Request requests[2 * SIDES];
	/* not MPI_STATUSES_IGNORE: MPICH defines it as (MPI_Status *)1,
	 * which gcc's -Wstringop-overflow takes for an empty array */
	MPI_Status statuses[2 * SIDES];
	MPI_Comm grid;
	int64_t gx, gy;
	int wrong = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc < 3) {
		if (rank == 0)
			fprintf(stderr, "usage: halo2d PX PY [N [ITERS]]\n");
		MPI_Finalize();
		return 2;
	}
	px = example_arg(argc, argv, 1, 1, "PX", rank);
	py = example_arg(argc, argv, 2, 1, "PY", rank);
	n = example_arg(argc, argv, 3, 100, "N", rank);
	iters = example_arg(argc, argv, 4, 10, "ITERS", rank);
	if (px < 0 || py < 0 || n < 0 || iters < 0) {
		MPI_Finalize();
		return 2;
	}
	if (px * py != size) {
		if (rank == 0)
			fprintf(stderr, "halo2d: %d x %d ranks needed, not "
				"%d\n", px, py, size);
		MPI_Finalize();
		return 2;
	}

	/* Row-major: dims {rows, columns} makes rank = y * PX + x. */
	dims[0] = py;
	dims[1] = px;
	MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
	MPI_Cart_coords(grid, rank, 2, coords);
	y = coords[0];
	x = coords[1];
	MPI_Cart_shift(grid, 1, 1, &neighbour[WEST], &neighbour[EAST]);
	MPI_Cart_shift(grid, 0, 1, &neighbour[SOUTH], &neighbour[NORTH]);
	for (side = 0; side < SIDES; side++) {
		send[side] = malloc((size_t)n * sizeof(double));
		recv[side] = malloc((size_t)n * sizeof(double));
		if (!send[side] || !recv[side]) {
			fprintf(stderr, "halo2d: out of memory\n");
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
	}

	for (t = 0; t < iters; t++) {
		/* Border ranks post to MPI_PROC_NULL too, as stencil codes
		 * do: such calls complete at once and move nothing. */
		for (side = 0; side < SIDES; side++) {
			for (k = 0; k < n; k++) {
				edge_cell(side, x, y, n, k, 0, &gx, &gy);
				send[side][k] = cell(gx, gy, t);
			}
			MPI_Irecv(recv[side], n, MPI_DOUBLE, neighbour[side],
				  t, grid, &requests[2 * side]);
			MPI_Isend(send[side], n, MPI_DOUBLE, neighbour[side],
				  t, grid, &requests[2 * side + 1]);
		}
		MPI_Waitall(2 * SIDES, requests, statuses);
		for (side = 0; side < SIDES; side++) {
			if (neighbour[side] == MPI_PROC_NULL)
				continue;
			for (k = 0; k < n; k++) {
				edge_cell(side, x, y, n, k, 1, &gx, &gy);
				wrong += recv[side][k] != cell(gx, gy, t);
			}
		}

		local = 0;
		for (gy = (int64_t)y * n; gy < (int64_t)(y + 1) * n; gy++)
			for (gx = (int64_t)x * n; gx < (int64_t)(x + 1) * n;
			     gx++)
				local += cell(gx, gy, t);
		MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, grid);
		wrong += global != expected_sum((int64_t)px * n,
						 (int64_t)py * n, t);
	}
	for (side = 0; side < SIDES; side++)
		count += neighbour[side] != MPI_PROC_NULL;

	printf("rank %d at (%d, %d): %d neighbours, %d iterations, "
	       "last global sum %.0f%s\n", rank, x, y, count, iters, global,
	       wrong ? ", WRONG DATA" : "");
	for (side = 0; side < SIDES; side++) {
		free(send[side]);
		free(recv[side]);
	}
	MPI_Comm_free(&grid);
	MPI_Finalize();
	return wrong ? 1 : 0;
}
