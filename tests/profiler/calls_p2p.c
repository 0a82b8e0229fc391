/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * calls_p2p.c - the point-to-point cases of the `calls` test program
 * (see calls.c).
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "calls.h"

enum mode { STANDARD, BUFFERED, SYNCHRONOUS, READY };

static int right(const struct ctx *x)
{
	return (x->me + 1) % peers(x);
}

static int left(const struct ctx *x)
{
	return (x->me + peers(x) - 1) % peers(x);
}

static void blocking_send(struct ctx *x, enum mode mode)
{
	int *out = ints((size_t)x->c), *in = ints((size_t)x->c);
	MPI_Request rq;

	fill(out, x->c, x->me);
	MPI_Irecv(in, x->c, MPI_INT, left(x), 1, x->comm, &rq);
	if (mode == READY)
		MPI_Barrier(x->comm);
	switch (mode) {
	case STANDARD:
		MPI_Send(out, x->c, MPI_INT, right(x), 1, x->comm);
		break;
	case BUFFERED:
		MPI_Bsend(out, x->c, MPI_INT, right(x), 1, x->comm);
		break;
	case SYNCHRONOUS:
		MPI_Ssend(out, x->c, MPI_INT, right(x), 1, x->comm);
		break;
	case READY:
		MPI_Rsend(out, x->c, MPI_INT, right(x), 1, x->comm);
		break;
	}
	complete(&rq);
	expect_true(x, filled_with(in, x->c, left(x)), "received data");
	free(out);
	free(in);
}

static void nonblocking_send(struct ctx *x, enum mode mode)
{
	int *out = ints((size_t)x->c), *in = ints((size_t)x->c);
	MPI_Request rq[2];

	fill(out, x->c, x->me);
	MPI_Irecv(in, x->c, MPI_INT, left(x), 1, x->comm, &rq[0]);
	if (mode == READY)
		MPI_Barrier(x->comm);
	switch (mode) {
	case STANDARD:
		MPI_Isend(out, x->c, MPI_INT, right(x), 1, x->comm, &rq[1]);
		break;
	case BUFFERED:
		MPI_Ibsend(out, x->c, MPI_INT, right(x), 1, x->comm, &rq[1]);
		break;
	case SYNCHRONOUS:
		MPI_Issend(out, x->c, MPI_INT, right(x), 1, x->comm, &rq[1]);
		break;
	case READY:
		MPI_Irsend(out, x->c, MPI_INT, right(x), 1, x->comm, &rq[1]);
		break;
	}
	MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
	expect_true(x, filled_with(in, x->c, left(x)), "received data");
	free(out);
	free(in);
}

void run_send(struct ctx *x) { blocking_send(x, STANDARD); }
void run_bsend(struct ctx *x) { blocking_send(x, BUFFERED); }
void run_ssend(struct ctx *x) { blocking_send(x, SYNCHRONOUS); }
void run_rsend(struct ctx *x) { blocking_send(x, READY); }
void run_isend(struct ctx *x) { nonblocking_send(x, STANDARD); }
void run_ibsend(struct ctx *x) { nonblocking_send(x, BUFFERED); }
void run_issend(struct ctx *x) { nonblocking_send(x, SYNCHRONOUS); }
void run_irsend(struct ctx *x) { nonblocking_send(x, READY); }

void run_sendrecv(struct ctx *x)
{
	int *out = ints((size_t)x->c), *in = ints((size_t)x->c);

	fill(out, x->c, x->me);
	MPI_Sendrecv(out, x->c, MPI_INT, right(x), 1, in, x->c, MPI_INT,
		     left(x), 1, x->comm, MPI_STATUS_IGNORE);
	expect_true(x, filled_with(in, x->c, left(x)), "received data");
	free(out);
	free(in);
}

void run_sendrecv_replace(struct ctx *x)
{
	int *buf = ints((size_t)x->c);

	fill(buf, x->c, x->me);
	MPI_Sendrecv_replace(buf, x->c, MPI_INT, right(x), 1, left(x), 1,
			     x->comm, MPI_STATUS_IGNORE);
	expect_true(x, filled_with(buf, x->c, left(x)), "received data");
	free(buf);
}

void run_persistent(struct ctx *x)
{
	int *out = ints((size_t)x->c), *in = ints((size_t)x->c), round;
	MPI_Request rq[2];

	MPI_Recv_init(in, x->c, MPI_INT, left(x), 1, x->comm, &rq[0]);
	MPI_Send_init(out, x->c, MPI_INT, right(x), 1, x->comm, &rq[1]);
	for (round = 0; round < 2; round++) {
		fill(out, x->c, x->me + round);
		MPI_Start(&rq[0]);
		MPI_Start(&rq[1]);
		MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
		expect_true(x, filled_with(in, x->c, left(x) + round),
			    "received data");
	}
	MPI_Request_free(&rq[0]);
	MPI_Request_free(&rq[1]);
	free(out);
	free(in);
}

void run_rsend_init(struct ctx *x)
{
	int *out = ints((size_t)x->c), *in = ints((size_t)x->c);
	MPI_Request rq[2];

	fill(out, x->c, x->me);
	MPI_Recv_init(in, x->c, MPI_INT, left(x), 1, x->comm, &rq[0]);
	MPI_Rsend_init(out, x->c, MPI_INT, right(x), 1, x->comm, &rq[1]);
	MPI_Start(&rq[0]);
	MPI_Barrier(x->comm);
	MPI_Start(&rq[1]);
	MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
	expect_true(x, filled_with(in, x->c, left(x)), "received data");
	MPI_Request_free(&rq[0]);
	MPI_Request_free(&rq[1]);
	free(out);
	free(in);
}

void run_startall(struct ctx *x)
{
	int *out = ints((size_t)x->c), *in = ints(3 * (size_t)x->c);
	MPI_Request rq[6];
	int round, k;

	fill(out, x->c, x->me);
	for (k = 0; k < 3; k++)
		MPI_Recv_init(in + k * x->c, x->c, MPI_INT, left(x), 10 + k,
			      x->comm, &rq[k]);
	MPI_Send_init(out, x->c, MPI_INT, right(x), 10, x->comm, &rq[3]);
	MPI_Bsend_init(out, x->c, MPI_INT, right(x), 11, x->comm, &rq[4]);
	MPI_Ssend_init(out, x->c, MPI_INT, right(x), 12, x->comm, &rq[5]);
	for (round = 0; round < 2; round++) {
		memset(in, 0, 3 * (size_t)x->c * sizeof(int));
		MPI_Startall(6, rq);
		MPI_Waitall(6, rq, MPI_STATUSES_IGNORE);
		for (k = 0; k < 3; k++)
			expect_true(x, filled_with(in + k * x->c, x->c,
						   left(x)), "received data");
	}
	for (k = 0; k < 6; k++)
		MPI_Request_free(&rq[k]);
	free(out);
	free(in);
}

void run_zero(struct ctx *x)
{
	MPI_Request rq;
	MPI_Status status;
	int count, dummy = 0;

	MPI_Irecv(&dummy, 1, MPI_INT, left(x), 1, x->comm, &rq);
	MPI_Send(&dummy, 0, MPI_INT, right(x), 1, x->comm);
	MPI_Wait(&rq, &status);
	MPI_Get_count(&status, MPI_INT, &count);
	expect_true(x, count == 0, "received count");
}

void run_proc_null(struct ctx *x)
{
	int *buf = ints((size_t)x->c);
	MPI_Request rq;

	fill(buf, x->c, x->me);
	MPI_Send(buf, x->c, MPI_INT, MPI_PROC_NULL, 1, x->comm);
	MPI_Ssend(buf, x->c, MPI_INT, MPI_PROC_NULL, 1, x->comm);
	MPI_Bsend(buf, x->c, MPI_INT, MPI_PROC_NULL, 1, x->comm);
	MPI_Rsend(buf, x->c, MPI_INT, MPI_PROC_NULL, 1, x->comm);
	MPI_Isend(buf, x->c, MPI_INT, MPI_PROC_NULL, 1, x->comm, &rq);
	complete(&rq);
	MPI_Sendrecv_replace(buf, x->c, MPI_INT, MPI_PROC_NULL, 1,
			     MPI_PROC_NULL, 1, x->comm, MPI_STATUS_IGNORE);
	MPI_Send_init(buf, x->c, MPI_INT, MPI_PROC_NULL, 1, x->comm, &rq);
	MPI_Start(&rq);
	complete(&rq);
	MPI_Request_free(&rq);
	expect_true(x, filled_with(buf, x->c, x->me), "untouched buffer");
	free(buf);
}

void run_self(struct ctx *x)
{
	int *out = ints((size_t)x->c), *in = ints((size_t)x->c);
	MPI_Request rq;

	fill(out, x->c, x->me);
	MPI_Irecv(in, x->c, MPI_INT, x->me, 1, x->comm, &rq);
	MPI_Send(out, x->c, MPI_INT, x->me, 1, x->comm);
	complete(&rq);
	expect_true(x, filled_with(in, x->c, x->me), "received data");
	free(out);
	free(in);
}

/* World rank of rank k in round `round` of the reuse case, and back. */
static int reuse_world(int round, int k, int size)
{
	return round == 0 ? size - 1 - k : round == 1 ? k : (k + size - 1) % size;
}

void run_reuse(struct ctx *x)
{
	int world_rank, size, round, key, *out, *in;
	struct ctx sub = *x;

	MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (round = 0; round < 3; round++) {
		/* The key is this process's rank in the new communicator. */
		for (key = 0; reuse_world(round, key, size) != world_rank;)
			key++;
		MPI_Comm_split(MPI_COMM_WORLD, 0, key, &sub.comm);
		MPI_Comm_rank(sub.comm, &sub.me);
		MPI_Comm_size(sub.comm, &sub.n);
		out = ints((size_t)x->c);
		in = ints((size_t)x->c);
		fill(out, x->c, sub.me);
		MPI_Sendrecv(out, x->c, MPI_INT, right(&sub), 1, in, x->c,
			     MPI_INT, left(&sub), 1, sub.comm,
			     MPI_STATUS_IGNORE);
		expect_true(x, filled_with(in, x->c, left(&sub)),
			    "received data");
		free(out);
		free(in);
		MPI_Comm_free(&sub.comm);
	}
}
