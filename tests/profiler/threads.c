/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * threads - under MPI_THREAD_MULTIPLE, THREADS threads of every rank send
 * at the same time: each sends MESSAGES messages of BYTES bytes to rank
 * + 1 (mod P) and receives as many from rank - 1, alternating between a
 * persistent request of its own (created, started and freed while the
 * other threads run) and MPI_Sendrecv.  The profiler must count every
 * message: the matrix is the ring's, with THREADS x MESSAGES rounds.
 *
 *   threads THREADS MESSAGES BYTES
 *
 * Exit status: 0 when all data arrived right, 1 otherwise, 2 on bad
 * arguments, 3 when the MPI library does not provide
 * MPI_THREAD_MULTIPLE (the test then skips).
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct worker {
	pthread_t thread;
	int id, threads, messages, bytes;
	int right, left;
	int wrong;
};

static unsigned char byte_of(int sender, int thread, int k, int e)
{
	return (unsigned char)(sender * 11 + thread * 5 + k * 3 + e);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	unsigned char *out = malloc((size_t)w->bytes);
	unsigned char *in = malloc((size_t)w->bytes);
	MPI_Request rq[2];
	int rank, k, e;

	if (!out || !in) {
		w->wrong = 1;
		free(out);
		free(in);
		return NULL;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	/* Tags keep each thread's messages apart: id for the persistent
	 * requests, threads + id for MPI_Sendrecv. */
	MPI_Recv_init(in, w->bytes, MPI_BYTE, w->left, w->id, MPI_COMM_WORLD,
		      &rq[0]);
	MPI_Send_init(out, w->bytes, MPI_BYTE, w->right, w->id,
		      MPI_COMM_WORLD, &rq[1]);
	for (k = 0; k < w->messages; k++) {
		for (e = 0; e < w->bytes; e++)
			out[e] = byte_of(rank, w->id, k, e);
		if (k % 2 == 0) {
			MPI_Startall(2, rq);
			MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
		} else {
			MPI_Sendrecv(out, w->bytes, MPI_BYTE, w->right,
				     w->threads + w->id, in, w->bytes,
				     MPI_BYTE, w->left, w->threads + w->id,
				     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
		for (e = 0; e < w->bytes; e++)
			w->wrong += in[e] != byte_of(w->left, w->id, k, e);
	}
	MPI_Request_free(&rq[0]);
	MPI_Request_free(&rq[1]);
	free(out);
	free(in);
	return NULL;
}

static int positive(const char *text)
{
	char *end;
	long value = strtol(text, &end, 10);

	return end != text && !*end && value > 0 && value < 1000000
	       ? (int)value : -1;
}

int main(int argc, char **argv)
{
	struct worker *workers;
	int provided, rank, size, threads, messages, bytes, t, wrong = 0;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (provided < MPI_THREAD_MULTIPLE) {
		if (rank == 0)
			printf("threads: MPI_THREAD_MULTIPLE not provided\n");
		MPI_Finalize();
		return 3;
	}
	threads = argc == 4 ? positive(argv[1]) : -1;
	messages = argc == 4 ? positive(argv[2]) : -1;
	bytes = argc == 4 ? positive(argv[3]) : -1;
	workers = calloc(threads > 0 ? (size_t)threads : 1, sizeof *workers);
	if (threads < 0 || messages < 0 || bytes < 0 || !workers) {
		if (rank == 0)
			fprintf(stderr, "usage: threads THREADS MESSAGES "
				"BYTES\n");
		free(workers);
		MPI_Finalize();
		return 2;
	}

	for (t = 0; t < threads; t++) {
		workers[t] = (struct worker){
			.id = t, .threads = threads, .messages = messages,
			.bytes = bytes, .right = (rank + 1) % size,
			.left = (rank + size - 1) % size,
		};
		if (pthread_create(&workers[t].thread, NULL, work,
				   &workers[t]) != 0) {
			fprintf(stderr, "threads: cannot start a thread\n");
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
	}
	for (t = 0; t < threads; t++) {
		pthread_join(workers[t].thread, NULL);
		wrong += workers[t].wrong;
	}
	if (wrong)
		fprintf(stderr, "threads: rank %d received wrong data\n", rank);
	free(workers);
	MPI_Finalize();
	return wrong ? 1 : 0;
}
