/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * calls.h - what the parts of the `calls` test program share.  calls.c
 * says what the program does and the exact arguments of every case.
 */
#ifndef CALLS_H
#define CALLS_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

struct ctx {
	MPI_Comm comm;
	bool inter;
	bool in_group_a;  /* inter: this process is an even world rank */
	int me, n;        /* rank and size in the local group */
	int c;            /* unit count */
	bool nonblocking; /* run the I-form of the collective */
	bool in_place;
	const char *name; /* of the case running, for messages */
	int failures;
};

/* What insignificant arguments are set to, to catch who reads them. */
enum { GARBAGE = 12345 };

/* calls_util.c: data, checks and roles */
void *alloc(size_t bytes);
int *ints(size_t count);
int value(int s, int e);
int pair_value(int s, int j, int e);
void fill(int *buf, int count, int s);
void expect_true(struct ctx *x, bool ok, const char *what);
bool filled_with(const int *buf, int count, int s);
int value_sum(int from, int to, int e);
void complete(MPI_Request *request);
int root_arg(const struct ctx *x);
bool is_root(const struct ctx *x);
bool is_leaf(const struct ctx *x);
int peers(const struct ctx *x);
int contributors(const struct ctx *x);
bool is_reduced(const int *buf, int count, int from, int to, int offset);
int *growing_counts(const struct ctx *x, int ranks, int **displs,
		    int *total);

/* calls_p2p.c */
void run_send(struct ctx *x);
void run_bsend(struct ctx *x);
void run_ssend(struct ctx *x);
void run_rsend(struct ctx *x);
void run_isend(struct ctx *x);
void run_ibsend(struct ctx *x);
void run_issend(struct ctx *x);
void run_irsend(struct ctx *x);
void run_sendrecv(struct ctx *x);
void run_sendrecv_replace(struct ctx *x);
void run_persistent(struct ctx *x);
void run_rsend_init(struct ctx *x);
void run_startall(struct ctx *x);
void run_zero(struct ctx *x);
void run_proc_null(struct ctx *x);
void run_self(struct ctx *x);
void run_reuse(struct ctx *x);

/* calls_coll.c: rooted collectives, allreduce and allgather */
void run_barrier(struct ctx *x);
void run_bcast(struct ctx *x);
void run_bcast0(struct ctx *x);
void run_reduce(struct ctx *x);
void run_allreduce(struct ctx *x);
void run_gather(struct ctx *x);
void run_gatherv(struct ctx *x);
void run_scatter(struct ctx *x);
void run_scatterv(struct ctx *x);
void run_allgather(struct ctx *x);
void run_allgatherv(struct ctx *x);

/* calls_exchange.c: all-to-all, reduce-scatter and scans */
void run_alltoall(struct ctx *x);
void run_alltoallv(struct ctx *x);
void run_alltoallw(struct ctx *x);
void run_reduce_scatter(struct ctx *x);
void run_reduce_scatter_block(struct ctx *x);
void run_scan(struct ctx *x);
void run_exscan(struct ctx *x);

#endif /* CALLS_H */
