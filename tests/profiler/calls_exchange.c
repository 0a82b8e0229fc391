/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * calls_exchange.c - the `calls` test program's all-to-all,
 * reduce-scatter and scan cases, blocking or not, in place or not (see
 * calls.c).
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "calls.h"

void run_alltoall(struct ctx *x)
{
	int m = peers(x), c = x->c, j, e;
	int *out = ints((size_t)m * c), *in = ints((size_t)m * c);
	const void *send = out;
	int sendcount = c;
	MPI_Datatype sendtype = MPI_INT;
	MPI_Request rq;

	for (j = 0; j < m; j++)
		for (e = 0; e < c; e++)
			out[j * c + e] = pair_value(x->me, j, e);
	if (x->in_place) {
		memcpy(in, out, (size_t)m * c * sizeof(int));
		send = MPI_IN_PLACE;
		sendcount = GARBAGE;
		sendtype = MPI_DATATYPE_NULL;
	}
	if (x->nonblocking) {
		MPI_Ialltoall(send, sendcount, sendtype, in, c, MPI_INT,
			      x->comm, &rq);
		complete(&rq);
	} else {
		MPI_Alltoall(send, sendcount, sendtype, in, c, MPI_INT,
			     x->comm);
	}
	for (j = 0; j < m; j++)
		for (e = 0; e < c; e++)
			expect_true(x, in[j * c + e] == pair_value(j, x->me, e),
				    "exchanged data");
	free(out);
	free(in);
}

/* Elements from i to j in alltoallv: (i + 2j + 1) C, or (i + j + 1) C
 * in place, where both directions must match. */
static int v_count(const struct ctx *x, int i, int j)
{
	return (x->in_place ? i + j + 1 : i + 2 * j + 1) * x->c;
}

void run_alltoallv(struct ctx *x)
{
	int m = peers(x), j, e, stotal = 0, rtotal = 0;
	int *scounts = ints((size_t)m), *sdispls = ints((size_t)m);
	int *rcounts = ints((size_t)m), *rdispls = ints((size_t)m);
	int *out, *in;
	const void *send;
	MPI_Request rq;

	for (j = 0; j < m; j++) {
		scounts[j] = v_count(x, x->me, j);
		sdispls[j] = stotal;
		stotal += scounts[j];
		rcounts[j] = v_count(x, j, x->me);
		rdispls[j] = rtotal;
		rtotal += rcounts[j];
	}
	out = ints((size_t)stotal);
	in = ints((size_t)rtotal);
	for (j = 0; j < m; j++)
		for (e = 0; e < scounts[j]; e++)
			out[sdispls[j] + e] = pair_value(x->me, j, e);
	send = out;
	if (x->in_place) {
		memcpy(in, out, (size_t)stotal * sizeof(int));
		send = MPI_IN_PLACE;
		free(scounts);
		free(sdispls);
		scounts = sdispls = NULL;
	}
	if (x->nonblocking) {
		MPI_Ialltoallv(send, scounts, sdispls, MPI_INT, in, rcounts,
			       rdispls, MPI_INT, x->comm, &rq);
		complete(&rq);
	} else {
		MPI_Alltoallv(send, scounts, sdispls, MPI_INT, in, rcounts,
			      rdispls, MPI_INT, x->comm);
	}
	for (j = 0; j < m; j++)
		for (e = 0; e < rcounts[j]; e++)
			expect_true(x, in[rdispls[j] + e]
				    == pair_value(j, x->me, e),
				    "exchanged data");
	free(scounts);
	free(sdispls);
	free(rcounts);
	free(rdispls);
	free(out);
	free(in);
}

/* Element type from i to j in alltoallw: by the receiver's parity, or in
 * place by the pair's, which is the same seen from both ends. */
static MPI_Datatype w_type(const struct ctx *x, int i, int j)
{
	int selector = x->in_place ? i + j : j;

	return selector % 2 ? MPI_DOUBLE : MPI_INT;
}

static int w_size(MPI_Datatype type)
{
	return type == MPI_DOUBLE ? (int)sizeof(double) : (int)sizeof(int);
}

static void w_put(char *at, MPI_Datatype type, int v)
{
	if (type == MPI_DOUBLE) {
		double d = v;

		memcpy(at, &d, sizeof d);
	} else {
		memcpy(at, &v, sizeof v);
	}
}

static int w_get(const char *at, MPI_Datatype type)
{
	double d;
	int v;

	if (type == MPI_DOUBLE) {
		memcpy(&d, at, sizeof d);
		return (int)d;
	}
	memcpy(&v, at, sizeof v);
	return v;
}

void run_alltoallw(struct ctx *x)
{
	int m = peers(x), j, e, stotal = 0, rtotal = 0;
	int *scounts = ints((size_t)m), *sdispls = ints((size_t)m);
	int *rcounts = ints((size_t)m), *rdispls = ints((size_t)m);
	MPI_Datatype *stypes = alloc((size_t)m * sizeof(MPI_Datatype));
	MPI_Datatype *rtypes = alloc((size_t)m * sizeof(MPI_Datatype));
	char *out, *in;
	const void *send;
	MPI_Request rq;

	for (j = 0; j < m; j++) {
		scounts[j] = (x->me + j + 1) * x->c;
		stypes[j] = w_type(x, x->me, j);
		sdispls[j] = stotal;
		stotal += scounts[j] * w_size(stypes[j]);
		rcounts[j] = (j + x->me + 1) * x->c;
		rtypes[j] = w_type(x, j, x->me);
		rdispls[j] = rtotal;
		rtotal += rcounts[j] * w_size(rtypes[j]);
	}
	out = alloc((size_t)stotal);
	in = alloc((size_t)rtotal);
	for (j = 0; j < m; j++)
		for (e = 0; e < scounts[j]; e++)
			w_put(out + sdispls[j] + e * w_size(stypes[j]),
			      stypes[j], pair_value(x->me, j, e));
	send = out;
	if (x->in_place) {
		memcpy(in, out, (size_t)stotal);
		send = MPI_IN_PLACE;
		free(scounts);
		free(sdispls);
		free(stypes);
		scounts = sdispls = NULL;
		stypes = NULL;
	}
	if (x->nonblocking) {
		MPI_Ialltoallw(send, scounts, sdispls, stypes, in, rcounts,
			       rdispls, rtypes, x->comm, &rq);
		complete(&rq);
	} else {
		MPI_Alltoallw(send, scounts, sdispls, stypes, in, rcounts,
			      rdispls, rtypes, x->comm);
	}
	for (j = 0; j < m; j++)
		for (e = 0; e < rcounts[j]; e++)
			expect_true(x, w_get(in + rdispls[j]
					     + e * w_size(rtypes[j]),
					     rtypes[j])
				    == pair_value(j, x->me, e),
				    "exchanged data");
	free(scounts);
	free(sdispls);
	free(stypes);
	free(rcounts);
	free(rdispls);
	free(rtypes);
	free(out);
	free(in);
}

static void reduce_scatter_any(struct ctx *x, bool block)
{
	int *displs, total, k;
	int *counts = growing_counts(x, x->n, &displs, &total);
	int *out, *in;
	const void *send;
	MPI_Request rq;

	if (block)
		for (k = 0; k < x->n; k++)
			counts[k] = x->c, displs[k] = k * x->c;
	total = displs[x->n - 1] + counts[x->n - 1];
	out = ints((size_t)total);
	in = ints((size_t)total);
	fill(out, total, x->me);
	send = out;
	if (x->in_place) {
		fill(in, total, x->me);
		send = MPI_IN_PLACE;
	}
	if (block && x->nonblocking)
		MPI_Ireduce_scatter_block(send, in, x->c, MPI_INT, MPI_SUM,
					  x->comm, &rq);
	else if (block)
		MPI_Reduce_scatter_block(send, in, x->c, MPI_INT, MPI_SUM,
					 x->comm);
	else if (x->nonblocking)
		MPI_Ireduce_scatter(send, in, counts, MPI_INT, MPI_SUM,
				    x->comm, &rq);
	else
		MPI_Reduce_scatter(send, in, counts, MPI_INT, MPI_SUM,
				   x->comm);
	if (x->nonblocking)
		complete(&rq);
	expect_true(x, is_reduced(in, counts[x->me], 0, contributors(x),
				  displs[x->me]), "reduced block");
	free(counts);
	free(displs);
	free(out);
	free(in);
}

void run_reduce_scatter(struct ctx *x)
{
	reduce_scatter_any(x, false);
}

void run_reduce_scatter_block(struct ctx *x)
{
	reduce_scatter_any(x, true);
}

static void scan_any(struct ctx *x, bool exclusive)
{
	int *out = ints((size_t)x->c), *in = ints((size_t)x->c);
	const void *send = out;
	MPI_Request rq;

	fill(out, x->c, x->me);
	if (x->in_place) {
		fill(in, x->c, x->me);
		send = MPI_IN_PLACE;
	}
	if (exclusive && x->nonblocking)
		MPI_Iexscan(send, in, x->c, MPI_INT, MPI_SUM, x->comm, &rq);
	else if (exclusive)
		MPI_Exscan(send, in, x->c, MPI_INT, MPI_SUM, x->comm);
	else if (x->nonblocking)
		MPI_Iscan(send, in, x->c, MPI_INT, MPI_SUM, x->comm, &rq);
	else
		MPI_Scan(send, in, x->c, MPI_INT, MPI_SUM, x->comm);
	if (x->nonblocking)
		complete(&rq);
	/* Exscan leaves rank 0's buffer undefined. */
	if (!exclusive || x->me > 0)
		expect_true(x, is_reduced(in, x->c, 0,
					  x->me + (exclusive ? 0 : 1), 0),
			    "scanned data");
	free(out);
	free(in);
}

void run_scan(struct ctx *x) { scan_any(x, false); }
void run_exscan(struct ctx *x) { scan_any(x, true); }
