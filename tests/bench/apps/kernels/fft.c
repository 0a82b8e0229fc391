/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fft - the communication of a 3D FFT on a pencil decomposition (NAS FT,
 * P3DFFT): ranks form a P1 x P2 grid; every iteration transforms along the
 * local axis, transposes inside the process row (MPI_Alltoall on a
 * communicator of P2 ranks), transforms, transposes inside the process
 * column (P1 ranks), transforms, and transposes back the same way.  The
 * transform here is a cheap exact stand-in (declared to the simulator as
 * the 5 N log2 N flops of a real FFT): what is measured is the transposes.
 *
 *   fft [WORDS [ITERS]]    WORDS: doubles per rank per pair of a transpose
 *                          (default 64), ITERS (10)
 *
 * P1 x P2 from MPI_Dims_create; rank = row * P2 + column.
 */
#include <math.h>
#include <string.h>

#include "kernel.h"

/* Exact in integers: every value stays an integer below 2^40. */
static void transform(double *a, size_t n, int salt)
{
	for (size_t k = 0; k < n; k++)
		a[k] = fmod(a[k] * 3 + (double)((k + (size_t)salt) % 7),
			    1099511627776.0);
	kernel_compute(5.0 * (double)n * log2((double)n));
}

static void transpose(double **a, double **b, int words, MPI_Comm comm)
{
	double *t;

	MPI_Alltoall(*a, words, MPI_DOUBLE, *b, words, MPI_DOUBLE, comm);
	t = *a;
	*a = *b;
	*b = t;
}

int main(int argc, char **argv)
{
	int rank, size, words, iters, dims[2] = { 0, 0 };
	MPI_Comm row, col;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	words = kernel_arg(argc, argv, 1, 64, "WORDS", rank);
	iters = kernel_arg(argc, argv, 2, 10, "ITERS", rank);
	if (words < 0 || iters < 0)
		return kernel_usage(rank, NULL);
	MPI_Dims_create(size, 2, dims);
	MPI_Comm_split(MPI_COMM_WORLD, rank / dims[1], rank, &row);
	MPI_Comm_split(MPI_COMM_WORLD, rank % dims[1], rank, &col);

	/* a pencil holds words * P2 = words * P1 ... entries: the larger */
	size_t n = (size_t)words * (size_t)(dims[0] > dims[1] ? dims[0]
							       : dims[1]);
	/* zeroed: a transpose on the shorter side leaves the tail as it was */
	double *a = calloc(n, sizeof(double)), *b = calloc(n, sizeof(double));
	if (!a || !b) {
		fprintf(stderr, "fft: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	for (size_t k = 0; k < n; k++)
		a[k] = (double)((size_t)rank * n + k);
	MPI_Barrier(MPI_COMM_WORLD);
	double t0 = MPI_Wtime();
	for (int it = 0; it < iters; it++) {
		transform(a, n, it);
		transpose(&a, &b, words, row);
		transform(a, n, it + 1);
		transpose(&a, &b, words, col);
		transform(a, n, it + 2);
		transpose(&a, &b, words, col);
		transpose(&a, &b, words, row);
	}
	int64_t sum = 0;
	for (size_t k = 0; k < n; k++)
		sum += (int64_t)a[k] % 1000003;
	kernel_report("fft", size, t0, sum, MPI_COMM_WORLD);
	free(a);
	free(b);
	MPI_Comm_free(&row);
	MPI_Comm_free(&col);
	MPI_Finalize();
	return 0;
}
