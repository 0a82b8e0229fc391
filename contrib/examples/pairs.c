/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pairs - world ranks 2k and 2k+1 are partners: every round they exchange
 * BIG bytes through persistent requests (MPI_Send_init / MPI_Recv_init,
 * MPI_Startall), and every rank sends SMALL bytes to each other rank
 * with MPI_Issend.  All of it runs on a communicator split from
 * MPI_COMM_WORLD with the keys reversed (its rank s is world rank
 * P - 1 - s), so that a profiler has to translate ranks to get the pairs
 * right.
 *
 *   pairs [BIG [SMALL [ROUNDS]]]   defaults: 100000, 100, 5; P even
 *
 * Each rank prints one line with a checksum; the exit status is 1 if any
 * byte was wrong.
 */
#include <mpi.h>
#include <stdint.h>

#include "example.h"

/* Byte k sent by world rank `sender` in `round`; `big` tells the two
 * kinds of message apart. */
static unsigned char pair_byte(int sender, int round, int big, int k)
{
	return (unsigned char)(sender * 31 + round * 17 + big * 101 + k);
}

int main(int argc, char **argv)
{
	int world_rank, size, rank, big, small, rounds, round, partner;
	int peer, k, others, wrong = 0;
	unsigned char *big_out, *big_in, *small_out, *small_in;
	MPI_Request *requests;
	uint64_t checksum = 0;
	MPI_Comm reversed;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	big = example_arg(argc, argv, 1, 100000, "BIG", world_rank);
	small = example_arg(argc, argv, 2, 100, "SMALL", world_rank);
	rounds = example_arg(argc, argv, 3, 5, "ROUNDS", world_rank);
	if (big < 0 || small < 0 || rounds < 0 || size % 2) {
		if (world_rank == 0 && size % 2)
			fprintf(stderr, "pairs: needs an even number of "
				"ranks, not %d\n", size);
		MPI_Finalize();
		return 2;
	}

	MPI_Comm_split(MPI_COMM_WORLD, 0, size - 1 - world_rank, &reversed);
	MPI_Comm_rank(reversed, &rank);
	/* Partner of world rank w is w ^ 1, named here in `reversed`. */
	partner = size - 1 - (world_rank ^ 1);
	others = size - 2;
	big_out = malloc((size_t)big);
	big_in = malloc((size_t)big);
	small_out = malloc((size_t)small);
	small_in = malloc((size_t)small * (size_t)size);
	requests = malloc((size_t)(2 + 2 * size) * sizeof *requests);
	if (!big_out || !big_in || !small_out || !small_in || !requests) {
		fprintf(stderr, "pairs: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}

	MPI_Recv_init(big_in, big, MPI_BYTE, partner, 0, reversed,
		      &requests[0]);
	MPI_Send_init(big_out, big, MPI_BYTE, partner, 0, reversed,
		      &requests[1]);
	for (round = 0; round < rounds; round++) {
		int n = 2;

		for (k = 0; k < big; k++)
			big_out[k] = pair_byte(world_rank, round, 1, k);
		for (k = 0; k < small; k++)
			small_out[k] = pair_byte(world_rank, round, 0, k);
		MPI_Startall(2, requests);
		for (peer = 0; peer < size; peer++) {
			if (peer == rank || peer == partner)
				continue;
			MPI_Irecv(small_in + (size_t)peer * small, small,
				  MPI_BYTE, peer, 1, reversed, &requests[n++]);
			MPI_Issend(small_out, small, MPI_BYTE, peer, 1,
				   reversed, &requests[n++]);
		}
		MPI_Waitall(n, requests, MPI_STATUSES_IGNORE);

		for (k = 0; k < big; k++) {
			wrong += big_in[k] != pair_byte(world_rank ^ 1, round,
							1, k);
			checksum += big_in[k];
		}
		for (peer = 0; peer < size; peer++) {
			if (peer == rank || peer == partner)
				continue;
			for (k = 0; k < small; k++) {
				unsigned char got =
					small_in[(size_t)peer * small + k];

				wrong += got != pair_byte(size - 1 - peer,
							  round, 0, k);
				checksum += got;
			}
		}
	}
	MPI_Request_free(&requests[0]);
	MPI_Request_free(&requests[1]);

	printf("rank %d: partner %d, %d rounds of %d bytes with it and %d "
	       "with %d others, checksum %llu%s\n", world_rank,
	       world_rank ^ 1, rounds, big, small, others,
	       (unsigned long long)checksum, wrong ? ", WRONG DATA" : "");
	free(big_out);
	free(big_in);
	free(small_out);
	free(small_in);
	free(requests);
	MPI_Comm_free(&reversed);
	MPI_Finalize();
	return wrong ? 1 : 0;
}
