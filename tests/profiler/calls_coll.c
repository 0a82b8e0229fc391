/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * calls_coll.c - the `calls` test program's rooted collectives, barrier,
 * allreduce and allgather(v), blocking or not, in place or not (see
 * calls.c).
 */
#include <mpi.h>
#include <stdlib.h>

#include "calls.h"

void run_barrier(struct ctx *x)
{
	MPI_Request rq;

	if (x->nonblocking) {
		MPI_Ibarrier(x->comm, &rq);
		complete(&rq);
	} else {
		MPI_Barrier(x->comm);
	}
}

static void bcast_count(struct ctx *x, int count)
{
	int *buf = ints((size_t)count);
	MPI_Request rq;

	if (is_root(x))
		fill(buf, count, x->me);
	if (x->nonblocking) {
		MPI_Ibcast(buf, count, MPI_INT, root_arg(x), x->comm, &rq);
		complete(&rq);
	} else {
		MPI_Bcast(buf, count, MPI_INT, root_arg(x), x->comm);
	}
	if (is_leaf(x))
		expect_true(x, filled_with(buf, count, x->inter ? 0 : 1 % x->n),
			    "broadcast data");
	free(buf);
}

void run_bcast(struct ctx *x) { bcast_count(x, x->c); }
void run_bcast0(struct ctx *x) { bcast_count(x, 0); }

void run_reduce(struct ctx *x)
{
	int *out = ints((size_t)x->c), *in = ints((size_t)x->c);
	const void *send = out;
	MPI_Request rq;

	fill(out, x->c, x->me);
	if (x->in_place && is_root(x)) {
		fill(in, x->c, x->me);
		send = MPI_IN_PLACE;
	}
	if (x->nonblocking) {
		MPI_Ireduce(send, in, x->c, MPI_INT, MPI_SUM, root_arg(x),
			    x->comm, &rq);
		complete(&rq);
	} else {
		MPI_Reduce(send, in, x->c, MPI_INT, MPI_SUM, root_arg(x),
			   x->comm);
	}
	if (is_root(x))
		expect_true(x, is_reduced(in, x->c, 0, contributors(x), 0),
			    "reduced data");
	free(out);
	free(in);
}

void run_allreduce(struct ctx *x)
{
	int *out = ints((size_t)x->c), *in = ints((size_t)x->c);
	const void *send = out;
	MPI_Request rq;

	fill(out, x->c, x->me);
	if (x->in_place) {
		fill(in, x->c, x->me);
		send = MPI_IN_PLACE;
	}
	if (x->nonblocking) {
		MPI_Iallreduce(send, in, x->c, MPI_INT, MPI_SUM, x->comm, &rq);
		complete(&rq);
	} else {
		MPI_Allreduce(send, in, x->c, MPI_INT, MPI_SUM, x->comm);
	}
	expect_true(x, is_reduced(in, x->c, 0, contributors(x), 0),
		    "reduced data");
	free(out);
	free(in);
}

static void gather_any(struct ctx *x, bool v)
{
	int senders = contributors(x), *displs, total, k;
	int *counts = growing_counts(x, senders, &displs, &total);
	int mine = v ? (x->me + 1) * x->c : x->c;
	int *out = ints((size_t)mine), *in = ints((size_t)total);
	const void *send = out;
	int sendcount = mine;
	MPI_Datatype sendtype = MPI_INT;
	MPI_Request rq;

	if (!v)
		for (k = 0; k < senders; k++)
			counts[k] = x->c, displs[k] = k * x->c;
	fill(out, mine, x->me);
	if (x->in_place && is_root(x)) {
		fill(in + displs[x->me], mine, x->me);
		send = MPI_IN_PLACE;
		sendcount = GARBAGE;
		sendtype = MPI_DATATYPE_NULL;
	}
	if (v && x->nonblocking)
		MPI_Igatherv(send, sendcount, sendtype, in, counts, displs,
			     MPI_INT, root_arg(x), x->comm, &rq);
	else if (v)
		MPI_Gatherv(send, sendcount, sendtype, in, counts, displs,
			    MPI_INT, root_arg(x), x->comm);
	else if (x->nonblocking)
		MPI_Igather(send, sendcount, sendtype, in, x->c, MPI_INT,
			    root_arg(x), x->comm, &rq);
	else
		MPI_Gather(send, sendcount, sendtype, in, x->c, MPI_INT,
			   root_arg(x), x->comm);
	if (x->nonblocking)
		complete(&rq);
	if (is_root(x))
		for (k = 0; k < senders; k++)
			expect_true(x, filled_with(in + displs[k], counts[k],
						   k), "gathered data");
	free(counts);
	free(displs);
	free(out);
	free(in);
}

void run_gather(struct ctx *x) { gather_any(x, false); }
void run_gatherv(struct ctx *x) { gather_any(x, true); }

static void scatter_any(struct ctx *x, bool v)
{
	int receivers = x->inter ? peers(x) : x->n, *displs, total, k;
	int *counts = growing_counts(x, receivers, &displs, &total);
	int mine = v ? (x->me + 1) * x->c : x->c;
	int *out = ints((size_t)total), *in = ints((size_t)mine);
	void *recv = in;
	int recvcount = mine;
	MPI_Datatype recvtype = MPI_INT;
	MPI_Request rq;

	if (!v)
		for (k = 0; k < receivers; k++)
			counts[k] = x->c, displs[k] = k * x->c;
	for (k = 0; k < receivers; k++)
		fill(out + displs[k], counts[k], k);
	if (x->in_place && is_root(x)) {
		recv = MPI_IN_PLACE;
		recvcount = GARBAGE;
		recvtype = MPI_DATATYPE_NULL;
	}
	if (v && x->nonblocking)
		MPI_Iscatterv(out, counts, displs, MPI_INT, recv, recvcount,
			      recvtype, root_arg(x), x->comm, &rq);
	else if (v)
		MPI_Scatterv(out, counts, displs, MPI_INT, recv, recvcount,
			     recvtype, root_arg(x), x->comm);
	else if (x->nonblocking)
		MPI_Iscatter(out, x->c, MPI_INT, recv, recvcount, recvtype,
			     root_arg(x), x->comm, &rq);
	else
		MPI_Scatter(out, x->c, MPI_INT, recv, recvcount, recvtype,
			    root_arg(x), x->comm);
	if (x->nonblocking)
		complete(&rq);
	if (is_leaf(x))
		expect_true(x, filled_with(in, mine, x->me), "scattered data");
	free(counts);
	free(displs);
	free(out);
	free(in);
}

void run_scatter(struct ctx *x) { scatter_any(x, false); }
void run_scatterv(struct ctx *x) { scatter_any(x, true); }

static void allgather_any(struct ctx *x, bool v)
{
	int senders = contributors(x), *displs, total, k;
	int *counts = growing_counts(x, senders, &displs, &total);
	int mine = v ? (x->me + 1) * x->c : x->c;
	int *out = ints((size_t)mine), *in = ints((size_t)total);
	const void *send = out;
	int sendcount = mine;
	MPI_Datatype sendtype = MPI_INT;
	MPI_Request rq;

	if (!v)
		for (k = 0; k < senders; k++)
			counts[k] = x->c, displs[k] = k * x->c;
	fill(out, mine, x->me);
	if (x->in_place) {
		fill(in + displs[x->me], mine, x->me);
		send = MPI_IN_PLACE;
		sendcount = GARBAGE;
		sendtype = MPI_DATATYPE_NULL;
	}
	if (v && x->nonblocking)
		MPI_Iallgatherv(send, sendcount, sendtype, in, counts, displs,
				MPI_INT, x->comm, &rq);
	else if (v)
		MPI_Allgatherv(send, sendcount, sendtype, in, counts, displs,
			       MPI_INT, x->comm);
	else if (x->nonblocking)
		MPI_Iallgather(send, sendcount, sendtype, in, x->c, MPI_INT,
			       x->comm, &rq);
	else
		MPI_Allgather(send, sendcount, sendtype, in, x->c, MPI_INT,
			      x->comm);
	if (x->nonblocking)
		complete(&rq);
	for (k = 0; k < senders; k++)
		expect_true(x, filled_with(in + displs[k], counts[k], k),
			    "gathered data");
	free(counts);
	free(displs);
	free(out);
	free(in);
}

void run_allgather(struct ctx *x) { allgather_any(x, false); }
void run_allgatherv(struct ctx *x) { allgather_any(x, true); }
