/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * alltoall - MPI_Alltoallv where every pair exchanges a different amount:
 * rank i sends (i + 1) * (j + 2) * SCALE ints to rank j, ROUNDS times.
 *
 *   alltoall [SCALE [ROUNDS]]      defaults: SCALE = 1, ROUNDS = 3
 *
 * Each rank checks every element it receives and prints one line with a
 * checksum; the exit status is 1 if any element was wrong.
 */
#include <mpi.h>
#include <stdint.h>

#include "example.h"

static int block_length(int sender, int receiver, int scale)
{
	return (sender + 1) * (receiver + 2) * scale;
}

/* Element k of the block `sender` sends to `receiver` in `round`. */
static int element(int sender, int receiver, int k, int round)
{
	return sender * 1000003 + receiver * 1009 + k + round;
}

/* Counts and displacements of one side of the exchange, and the total. */
static int layout(int size, int rank, int scale, int sending, int *counts,
		  int *displs)
{
	int peer, total = 0;

	for (peer = 0; peer < size; peer++) {
		counts[peer] = sending ? block_length(rank, peer, scale)
				       : block_length(peer, rank, scale);
		displs[peer] = total;
		total += counts[peer];
	}
	return total;
}

int main(int argc, char **argv)
{
	int rank, size, scale, rounds, round, peer, k, send_total, recv_total;
	int *sendcounts, *sdispls, *recvcounts, *rdispls, *out, *in;
	uint64_t checksum = 0;
	int wrong = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	scale = example_arg(argc, argv, 1, 1, "SCALE", rank);
	rounds = example_arg(argc, argv, 2, 3, "ROUNDS", rank);
	if (scale < 0 || rounds < 0) {
		MPI_Finalize();
		return 2;
	}
	sendcounts = malloc((size_t)size * sizeof(int));
	sdispls = malloc((size_t)size * sizeof(int));
	recvcounts = malloc((size_t)size * sizeof(int));
	rdispls = malloc((size_t)size * sizeof(int));
	if (!sendcounts || !sdispls || !recvcounts || !rdispls) {
		fprintf(stderr, "alltoall: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	send_total = layout(size, rank, scale, 1, sendcounts, sdispls);
	recv_total = layout(size, rank, scale, 0, recvcounts, rdispls);
	out = malloc((size_t)send_total * sizeof(int));
	in = malloc((size_t)recv_total * sizeof(int));
	if (!out || !in) {
		fprintf(stderr, "alltoall: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}

	for (round = 0; round < rounds; round++) {
		for (peer = 0; peer < size; peer++)
			for (k = 0; k < sendcounts[peer]; k++)
				out[sdispls[peer] + k] =
					element(rank, peer, k, round);
		MPI_Alltoallv(out, sendcounts, sdispls, MPI_INT, in,
			      recvcounts, rdispls, MPI_INT, MPI_COMM_WORLD);
		for (peer = 0; peer < size; peer++)
			for (k = 0; k < recvcounts[peer]; k++) {
				int got = in[rdispls[peer] + k];

				wrong += got != element(peer, rank, k, round);
				checksum += (uint64_t)(unsigned)got;
			}
	}

	printf("rank %d: received %d ints per round from %d ranks, "
	       "checksum %llu%s\n", rank, recv_total, size,
	       (unsigned long long)checksum, wrong ? ", WRONG DATA" : "");
	free(out);
	free(in);
	free(sendcounts);
	free(sdispls);
	free(recvcounts);
	free(rdispls);
	MPI_Finalize();
	return wrong ? 1 : 0;
}
