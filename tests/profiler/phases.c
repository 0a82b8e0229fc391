/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phases - a program whose communication changes half-way, for the
 * online mode's tests (tests/profiler/online-phases.sh): in phase A,
 * world ranks r and r ^ 1 ping-pong BYTES-byte messages for SECONDS; in
 * phase B, ranks r and r ^ 2 do.  An even number of ranks, at least 4.
 *
 *   phases DIR SECONDS [BYTES [FLAGS]]   BYTES default 65536
 *
 * Each rank writes its pid to DIR/pid.RANK before the phases; rank 0
 * (ranks without a partner r ^ 2, the last two of 4k + 2, keep r ^ 1)
 * writes the phase it enters to DIR/phase ("A", "B", then "done"), each
 * time after a barrier, so that a script sampling the ranks' affinity
 * from outside knows which phase it sees.  FLAGS: 't' starts with
 * MPI_Init_thread (MPI_THREAD_FUNNELED); 's' (stable) keeps phase A's
 * pairs in phase B.  Each rank prints one line with
 * a checksum of the bytes it received, which depends only on how many
 * round trips it made; the exit status is 1 if a byte came back wrong.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[4096], tmp[4200];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "%s\n", text) < 0 || fclose(f) != 0) {
		perror(tmp);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	rename(tmp, path); /* whole, for the sampling script */
}

/* Ping-pong with `peer` for `seconds`: the lower rank of the pair decides
 * when to stop and says so in the first byte of its message.  Returns
 * the round trips made; *wrong counts bytes that came back changed. */
static long exchange(int rank, int peer, double seconds, unsigned char *buf,
		     int bytes, int *wrong)
{
	int lead = rank < peer, k, go = 1;
	double end = MPI_Wtime() + seconds;
	long trips = 0;

	while (go) {
		if (lead) {
			go = MPI_Wtime() < end;
			buf[0] = (unsigned char)go;
			for (k = 1; k < bytes; k++)
				buf[k] = (unsigned char)(k + trips);
			MPI_Send(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
			MPI_Recv(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			go = buf[0];
			MPI_Send(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
		}
		for (k = 1; k < bytes; k++)
			if (buf[k] != (unsigned char)(k + trips))
				(*wrong)++;
		trips++;
	}
	return trips;
}

int main(int argc, char **argv)
{
	int rank, size, bytes = 65536, wrong = 0, provided, second;
	const char *flags;
	unsigned char *buf;
	double seconds;
	long a, b;
	char text[64];

	if (argc < 3) {
		fprintf(stderr, "usage: phases DIR SECONDS [BYTES [FLAGS]]\n");
		return 2;
	}
	seconds = atof(argv[2]);
	if (argc > 3)
		bytes = atoi(argv[3]);
	flags = argc > 4 ? argv[4] : "";
	if (strchr(flags, 't'))
		MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
	else
		MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size < 4 || size % 2 || bytes < 1) {
		if (rank == 0)
			fprintf(stderr, "phases: an even number of ranks >= 4 "
				"and BYTES >= 1\n");
		MPI_Finalize();
		return 2;
	}
	buf = malloc((size_t)bytes);
	if (!buf)
		MPI_Abort(MPI_COMM_WORLD, 2);
	snprintf(text, sizeof text, "%ld", (long)getpid());
	snprintf((char *)buf, (size_t)bytes < 32 ? (size_t)bytes : 32,
		 "pid.%d", rank);
	write_file(argv[1], (char *)buf, text);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		write_file(argv[1], "phase", "A");
	a = exchange(rank, rank ^ 1, seconds, buf, bytes, &wrong);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		write_file(argv[1], "phase", "B");
	second = strchr(flags, 's') || (rank ^ 2) >= size ? rank ^ 1 : rank ^ 2;
	b = exchange(rank, second, seconds, buf, bytes, &wrong);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		write_file(argv[1], "phase", "done");
	printf("phases: rank %d: %ld + %ld round trips, %d wrong\n", rank, a,
	       b, wrong);
	free(buf);
	MPI_Finalize();
	return wrong ? 1 : 0;
}
