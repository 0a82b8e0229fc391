/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * calls - makes every MPI call that libcommprof counts, with known
 * arguments, and checks the results, so that a test can compare the
 * profiler's matrix with the model of each call (tests/profiler/expect.c
 * computes it from this description, not from this code).
 *
 *   calls COMM C CASE...
 *
 * COMM is the communicator every case runs on:
 *   world     MPI_COMM_WORLD
 *   reversed  MPI_Comm_split with reversed keys: rank k is world P-1-k
 *   inter     intercommunicator between the even world ranks (group A,
 *             rank k = world 2k) and the odd ones (group B, rank k =
 *             world 2k+1); P must be even
 * C is the unit count; elements are MPI_INT unless said otherwise.
 * Below, n is the communicator's size (of the local group), me this
 * process's rank in it, and on an intercommunicator the "peers" are the
 * remote group (same size as the local one), otherwise the local group.
 *
 * Point-to-point (any COMM; `self` not on inter): each rank sends to
 * right = (me + 1) mod n and receives from left = (me - 1) mod n:
 *   send bsend ssend rsend isend ibsend issend irsend sendrecv
 *   sendrecv_replace   one message of C ints
 *   persistent         MPI_Send_init, started twice: two messages of C
 *   rsend_init         MPI_Rsend_init, started once: one message of C
 *   startall           Send_init, Bsend_init and Ssend_init, all started
 *                      twice with MPI_Startall: six messages of C
 *   zero               one message of 0 ints
 *   proc_null          sends of every kind to MPI_PROC_NULL: nothing
 *   self               a message of C ints to oneself: nothing
 *   reuse              (world only) three times: split MPI_COMM_WORLD
 *                      with keys making rank k world rank m(k), send C
 *                      ints to the right in it, free it; m(k) is P-1-k,
 *                      then k, then k-1 mod P.  MPI may give the freed
 *                      handle to the next communicator: a profiler that
 *                      kept a stale translation is caught.
 *   rsend, irsend and rsend_init also make one MPI_Barrier, so that the
 *   receive is posted before the ready send.
 *
 * Collectives, each also as a non-blocking case named with an `i` in
 * front (ibarrier, ibcast, ...).  On world and reversed the root is rank
 * 1 mod n.  On inter, group A's rank 0 is the root (MPI_ROOT; the rest of
 * A pass MPI_PROC_NULL, B passes 0), and rank k of a group means its k-th
 * member:
 *   barrier bcast(C) reduce(C) allreduce(C) gather(C) gatherv((k+1)C from
 *   rank k) scatter(C) scatterv((k+1)C to rank k) allgather(C)
 *   allgatherv((k+1)C from rank k) alltoall(C) alltoallv((i+2j+1)C from i
 *   to j) alltoallw((i+j+1)C elements from i to j, of MPI_INT when j is
 *   even and MPI_DOUBLE when odd) reduce_scatter(recvcounts (k+1)C)
 *   reduce_scatter_block(C) scan(C) exscan(C) (scan and exscan not on
 *   inter) bcast0 (a bcast of 0 elements)
 *
 * In place (world and reversed only), each also with an `i` in front:
 *   allreduce_ip reduce_ip gather_ip scatter_ip allgather_ip allgatherv_ip
 *   alltoall_ip alltoallv_ip alltoallw_ip reduce_scatter_ip
 *   reduce_scatter_block_ip scan_ip exscan_ip
 * with the same counts as above, except alltoallv_ip ((i+j+1)C) and
 * alltoallw_ip ((i+j+1)C elements of MPI_INT when i+j is even, MPI_DOUBLE
 * when odd): in place, what goes to j has the size of what comes from j.
 * The send arguments that MPI_IN_PLACE makes insignificant are garbage
 * (counts of 12345, MPI_DATATYPE_NULL, NULL arrays): a profiler that
 * reads them is caught.
 *
 * Exit status: 0 when every result was right, 1 otherwise, 2 on bad
 * arguments.  Errors are printed on stderr.
 */
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calls.h"

enum { INTRA = 1, INTER = 2, ANY = INTRA | INTER };

struct call_case {
	const char *name;
	void (*run)(struct ctx *);
	int where;
	bool nonblocking, in_place;
};

#define P2P(name, where) { #name, run_##name, where, false, false }
#define COLL(name, where) \
	{ #name, run_##name, where, false, false }, \
	{ "i" #name, run_##name, where, true, false }
#define IN_PLACE(name) \
	{ #name "_ip", run_##name, INTRA, false, true }, \
	{ "i" #name "_ip", run_##name, INTRA, true, true }

static const struct call_case cases[] = {
	P2P(send, ANY), P2P(bsend, ANY), P2P(ssend, ANY), P2P(rsend, ANY),
	P2P(isend, ANY), P2P(ibsend, ANY), P2P(issend, ANY),
	P2P(irsend, ANY), P2P(sendrecv, ANY), P2P(sendrecv_replace, ANY),
	P2P(persistent, ANY), P2P(rsend_init, ANY), P2P(startall, ANY),
	P2P(zero, ANY), P2P(proc_null, ANY), P2P(self, INTRA),
	P2P(reuse, INTRA),
	COLL(barrier, ANY), COLL(bcast, ANY), COLL(bcast0, ANY),
	COLL(reduce, ANY), COLL(allreduce, ANY), COLL(gather, ANY),
	COLL(gatherv, ANY), COLL(scatter, ANY), COLL(scatterv, ANY),
	COLL(allgather, ANY), COLL(allgatherv, ANY), COLL(alltoall, ANY),
	COLL(alltoallv, ANY), COLL(alltoallw, ANY),
	COLL(reduce_scatter, ANY), COLL(reduce_scatter_block, ANY),
	COLL(scan, INTRA), COLL(exscan, INTRA),
	IN_PLACE(allreduce), IN_PLACE(reduce), IN_PLACE(gather),
	IN_PLACE(scatter), IN_PLACE(allgather), IN_PLACE(allgatherv),
	IN_PLACE(alltoall), IN_PLACE(alltoallv), IN_PLACE(alltoallw),
	IN_PLACE(reduce_scatter), IN_PLACE(reduce_scatter_block),
	IN_PLACE(scan), IN_PLACE(exscan),
};

static const struct call_case *find_case(const char *name)
{
	size_t k;

	for (k = 0; k < sizeof cases / sizeof cases[0]; k++)
		if (strcmp(cases[k].name, name) == 0)
			return &cases[k];
	return NULL;
}

/* The communicator named on the command line; false if it cannot be. */
static bool make_comm(struct ctx *x, const char *kind)
{
	int world_rank, world_size;
	MPI_Comm half;

	MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &world_size);
	if (strcmp(kind, "world") == 0) {
		x->comm = MPI_COMM_WORLD;
	} else if (strcmp(kind, "reversed") == 0) {
		MPI_Comm_split(MPI_COMM_WORLD, 0, world_size - 1 - world_rank,
			       &x->comm);
	} else if (strcmp(kind, "inter") == 0 && world_size % 2 == 0) {
		x->inter = true;
		x->in_group_a = world_rank % 2 == 0;
		MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank,
			       &half);
		/* The remote leader is world rank 1 for group A, 0 for B. */
		MPI_Intercomm_create(half, 0, MPI_COMM_WORLD,
				     x->in_group_a ? 1 : 0, 99, &x->comm);
		MPI_Comm_free(&half);
	} else {
		return false;
	}
	MPI_Comm_rank(x->comm, &x->me);
	MPI_Comm_size(x->comm, &x->n);
	return true;
}

int main(int argc, char **argv)
{
	struct ctx x = { 0 };
	const struct call_case *cc;
	int world_rank, k, bsend_size;
	char *end;
	void *bsend_buffer;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
	x.c = argc > 2 ? (int)strtol(argv[2], &end, 10) : 0;
	if (argc < 4 || x.c < 1 || *end || !make_comm(&x, argv[1])) {
		if (world_rank == 0)
			fprintf(stderr, "usage: calls world|reversed|inter C "
				"CASE...  (inter needs an even number of "
				"ranks)\n");
		MPI_Finalize();
		return 2;
	}
	for (k = 3; k < argc; k++) {
		cc = find_case(argv[k]);
		if (!cc || !(cc->where & (x.inter ? INTER : INTRA))) {
			if (world_rank == 0)
				fprintf(stderr, "calls: no case '%s' on %s\n",
					argv[k], argv[1]);
			MPI_Finalize();
			return 2;
		}
	}

	/* Room for the buffered sends of one case (at most two pending). */
	bsend_size = 2 * (x.c * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
	bsend_buffer = alloc((size_t)bsend_size);
	MPI_Buffer_attach(bsend_buffer, bsend_size);

	for (k = 3; k < argc; k++) {
		cc = find_case(argv[k]);
		x.name = cc->name;
		x.nonblocking = cc->nonblocking;
		x.in_place = cc->in_place;
		cc->run(&x);
	}

	MPI_Buffer_detach(&bsend_buffer, &bsend_size);
	free(bsend_buffer);
	if (x.comm != MPI_COMM_WORLD)
		MPI_Comm_free(&x.comm);
	MPI_Finalize();
	return x.failures ? 1 : 0;
}
