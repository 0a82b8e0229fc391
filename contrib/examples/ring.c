/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ring - every rank sends BYTES bytes to rank + 1 (mod P), ROUNDS times,
 * with MPI_Sendrecv, and checks what it receives from rank - 1.
 *
 *   ring [BYTES [ROUNDS]]          defaults: 1000 bytes, 10 rounds
 *
 * Each rank prints one line with a checksum of what it received; the
 * exit status is 1 if any byte was wrong.
 */
#include <mpi.h>
#include <stdint.h>

#include "example.h"

/* Byte k that `sender` sends in `round`: differs per sender and round,
 * so that a message from the wrong rank or round is caught. */
static unsigned char ring_byte(int sender, int round, int k)
{
	return (unsigned char)(sender * 7 + round * 13 + k);
}

int main(int argc, char **argv)
{
	int rank, size, bytes, rounds, right, left, round, k, wrong = 0;
	unsigned char *out, *in;
	uint64_t checksum = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	bytes = example_arg(argc, argv, 1, 1000, "BYTES", rank);
	rounds = example_arg(argc, argv, 2, 10, "ROUNDS", rank);
	if (bytes < 0 || rounds < 0) {
		MPI_Finalize();
		return 2;
	}
	out = malloc((size_t)bytes);
	in = malloc((size_t)bytes);
	if (!out || !in) {
		fprintf(stderr, "ring: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}

	right = (rank + 1) % size;
	left = (rank + size - 1) % size;
	for (round = 0; round < rounds; round++) {
		for (k = 0; k < bytes; k++)
			out[k] = ring_byte(rank, round, k);
		MPI_Sendrecv(out, bytes, MPI_BYTE, right, round, in, bytes,
			     MPI_BYTE, left, round, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE);
		for (k = 0; k < bytes; k++) {
			wrong += in[k] != ring_byte(left, round, k);
			checksum += in[k];
		}
	}

	printf("rank %d: received %d x %d bytes from rank %d, checksum %llu%s\n",
	       rank, rounds, bytes, left, (unsigned long long)checksum,
	       wrong ? ", WRONG DATA" : "");
	free(out);
	free(in);
	MPI_Finalize();
	return wrong ? 1 : 0;
}
