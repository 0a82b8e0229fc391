/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phases - a program whose pattern changes half way: first each rank
 * exchanges with its neighbours in rank order (r - 1, r + 1: a 1D domain
 * decomposition), then, after a redistribution, with partners far away in
 * rank order (r + P/2 mod P, and r +- P/4 within each half: a transpose,
 * a butterfly stage).
 * A placement good for one phase is bad for the other; the profiled
 * matrix holds both, and the placement has to serve their sum.
 *
 *   phases [BYTES [ITERS]]   BYTES per message (16384), ITERS per phase (20)
 *
 * P must be a multiple of 4.
 */
#include <string.h>

#include "kernel.h"

static int64_t swap(const unsigned char *out, unsigned char *in, int bytes,
		    int peer, int tag)
{
	int64_t got = 0;

	if (peer == MPI_PROC_NULL)
		return 0;
	MPI_Sendrecv(out, bytes, MPI_BYTE, peer, tag, in, bytes, MPI_BYTE,
		     peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	for (int k = 0; k < bytes; k += 64)
		got += in[k];
	return got;
}

int main(int argc, char **argv)
{
	int rank, size, bytes, iters;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	bytes = kernel_arg(argc, argv, 1, 16384, "BYTES", rank);
	iters = kernel_arg(argc, argv, 2, 20, "ITERS", rank);
	if (bytes < 0 || iters < 0)
		return kernel_usage(rank, NULL);
	if (size % 4)
		return kernel_usage(rank, "phases: needs a multiple of 4 ranks");
	unsigned char *out = malloc((size_t)bytes), *in = malloc((size_t)bytes);
	if (!out || !in) {
		fprintf(stderr, "phases: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	for (int k = 0; k < bytes; k++)
		out[k] = (unsigned char)(rank * 31 + k);
	MPI_Barrier(MPI_COMM_WORLD);
	double t0 = MPI_Wtime();
	int64_t sum = 0;
	/* phase 1: even ranks pair with r + 1 first, then with r - 1 */
	for (int it = 0; it < iters; it++) {
		int up = rank % 2 == 0 ? rank + 1 : rank - 1;
		int down = rank % 2 == 0 ? rank - 1 : rank + 1;
		sum += swap(out, in, bytes, up, 1);
		sum += swap(out, in, bytes, down >= 0 && down < size ? down
					    : MPI_PROC_NULL, 2);
		kernel_compute(bytes * 2.0);
	}
	/* phase 2: partners far away in rank order */
	for (int it = 0; it < iters; it++) {
		int quarter = size / 4, far = (rank + 2 * quarter) % size;
		int near = rank / quarter % 2 ? rank - quarter : rank + quarter;
		sum += swap(out, in, bytes, far, 3);
		sum += swap(out, in, bytes, near, 4);
		kernel_compute(bytes * 2.0);
	}
	kernel_report("phases", size, t0, sum, MPI_COMM_WORLD);
	free(out);
	free(in);
	MPI_Finalize();
	return 0;
}
