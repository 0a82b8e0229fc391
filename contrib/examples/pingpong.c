/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pingpong - ranks 0 and 1 bounce a BYTES-byte message ROUNDTRIPS times;
 * rank 0 prints the mean one-way time per message.  It measures the
 * profiler's overhead per message (tests/profiler/bench-overhead.sh runs
 * it with and without the library).  Other ranks, if any, only wait.
 *
 *   pingpong [BYTES [ROUNDTRIPS]]  defaults: 8 bytes, 100000 round trips
 *
 * Output (rank 0): "pingpong: BYTES bytes, ROUNDTRIPS round trips,
 * MEAN ns per message, fastest tenth FASTEST ns".  The round trips run in
 * ten equal blocks; FASTEST is the best block's time per message, which
 * other processes stealing the core (they only ever add time) disturb
 * far less than the mean.  Exit status 1 if a message came back changed.
 */
#include <mpi.h>
#include <string.h>

#include "example.h"

/* Round trips run before timing: connection setup and first-touch page
 * faults are not per-message costs. */
enum { WARMUP = 1000, BLOCKS = 10 };

static int bounce(int rank, unsigned char *buf, int bytes, int roundtrips)
{
	int trip, wrong = 0;

	for (trip = 0; trip < roundtrips; trip++) {
		if (rank == 0) {
			buf[0] = (unsigned char)trip;
			MPI_Send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
			MPI_Recv(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			wrong += buf[0] != (unsigned char)(trip + 1);
		} else if (rank == 1) {
			MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			buf[0]++;
			MPI_Send(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
		}
	}
	return wrong;
}

int main(int argc, char **argv)
{
	int rank, size, bytes, roundtrips, wrong, block, done = 0, trips;
	unsigned char *buf;
	double start, seconds = 0, block_seconds, fastest = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	bytes = example_arg(argc, argv, 1, 8, "BYTES", rank);
	roundtrips = example_arg(argc, argv, 2, 100000, "ROUNDTRIPS", rank);
	if (bytes < 0 || roundtrips < 0 || size < 2) {
		if (rank == 0 && size < 2)
			fprintf(stderr, "pingpong: needs 2 ranks\n");
		MPI_Finalize();
		return 2;
	}
	buf = calloc((size_t)bytes, 1);
	if (!buf) {
		fprintf(stderr, "pingpong: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}

	wrong = bounce(rank, buf, bytes, WARMUP);
	MPI_Barrier(MPI_COMM_WORLD);
	for (block = 0; block < BLOCKS; block++) {
		trips = (roundtrips - done) / (BLOCKS - block);
		start = MPI_Wtime();
		wrong += bounce(rank, buf, bytes, trips);
		block_seconds = MPI_Wtime() - start;
		seconds += block_seconds;
		done += trips;
		if (trips > 0 && (fastest == 0
				  || block_seconds / trips < fastest))
			fastest = block_seconds / trips;
	}

	if (rank == 0)
		printf("pingpong: %d bytes, %d round trips, %.1f ns per "
		       "message, fastest tenth %.1f ns%s\n", bytes,
		       roundtrips, seconds * 1e9 / (2.0 * roundtrips),
		       fastest * 1e9 / 2.0, wrong ? ", WRONG DATA" : "");
	free(buf);
	MPI_Finalize();
	return wrong ? 1 : 0;
}
