/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * commprof.h - internals of libcommprof, the PMPI profiler that writes a
 * job's communication matrix (see doc/profiler.md).
 *
 * Every rank counts what it SENDS, per destination rank of MPI_COMM_WORLD:
 * the bytes of user data and the number of messages.  Counting at the
 * sender means receives (MPI_ANY_SOURCE, any size) never need probing, and
 * each rank only needs its own row of the matrix.  At MPI_Finalize the rows
 * travel to world rank 0, which writes the file.
 */
#ifndef COMMPROF_H
#define COMMPROF_H

#include <mpi.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if MPI_VERSION < 3
#error "libcommprof needs MPI 3.0 or later (const buffers, non-blocking collectives)"
#endif

/* ------------------------------------------------------------------ */
/* Global state (init.c)                                               */
/* ------------------------------------------------------------------ */

struct commprof_state {
	/* Set once MPI_Init succeeded and the counters exist, cleared when
	 * MPI_Finalize starts.  A plain bool is enough: MPI forbids calls
	 * before MPI_Init returns and concurrent with MPI_Finalize. */
	bool active;
	/* MPI_THREAD_MULTIPLE: counters are updated with atomic adds. */
	bool threaded;
	int world_rank;
	int world_size;
	/* This rank's row: what it sent to each world rank. */
	_Atomic uint64_t *bytes;
	_Atomic uint64_t *messages;
	/* Duplicate of MPI_COMM_WORLD for the profiler's own traffic, so
	 * that it never matches, nor is counted as, the application's;
	 * it only exists during the report at MPI_Finalize. */
	MPI_Comm private_comm;
};

extern struct commprof_state commprof;

/* ------------------------------------------------------------------ */
/* Counting (inline: this is the hot path)                            */
/* ------------------------------------------------------------------ */

static inline void commprof_add(_Atomic uint64_t *counter, uint64_t amount)
{
	if (commprof.threaded) {
		atomic_fetch_add_explicit(counter, amount,
					  memory_order_relaxed);
	} else {
		/* One thread calls MPI at a time: a relaxed load and store
		 * compile to a plain add, without the bus lock. */
		uint64_t old = atomic_load_explicit(counter,
						    memory_order_relaxed);
		atomic_store_explicit(counter, old + amount,
				      memory_order_relaxed);
	}
}

/* Bytes of user data in `count` elements of `type` (its size, not its
 * extent: holes are not data).  0 for count <= 0, so that insignificant
 * or null datatypes are never queried. */
static inline uint64_t commprof_data_bytes(int count, MPI_Datatype type)
{
	MPI_Count size;

	if (count <= 0 || type == MPI_DATATYPE_NULL)
		return 0;
	if (PMPI_Type_size_x(type, &size) != MPI_SUCCESS || size <= 0)
		return 0;
	return (uint64_t)count * (uint64_t)size;
}

/* ------------------------------------------------------------------ */
/* Communicators (comm.c)                                              */
/* ------------------------------------------------------------------ */

/* How the ranks that a communicator's calls name map to world ranks.
 * Built once per communicator, cached in an attribute, freed with it. */
struct commprof_ranks {
	int my_rank;    /* this process in the local group */
	int local_size; /* size of the local group */
	int peer_count; /* size of the group that ranks name */
	bool inter;     /* peers are the remote group */
	/* Peer rank -> world rank; MPI_UNDEFINED for processes outside
	 * MPI_COMM_WORLD (spawned or connected jobs), which are not counted. */
	int peer_world[];
};

int commprof_comm_setup(void);
void commprof_comm_teardown(void);

/* The translation for `comm`; NULL when it cannot be had (invalid
 * communicator, out of memory), in which case the call is not counted. */
const struct commprof_ranks *commprof_ranks_of(MPI_Comm comm);

/* The MPI_COMM_WORLD rank of peer `peer` of `r` when a message to it is
 * counted, else -1: MPI_PROC_NULL, an invalid peer (MPI will report it), a
 * process outside MPI_COMM_WORLD, or this process itself (it does not
 * cross between processes, so placement cannot help it). */
static inline int commprof_counted_peer(const struct commprof_ranks *r,
					int peer)
{
	int world;

	if (peer < 0 || peer >= r->peer_count)
		return -1;
	world = r->peer_world[peer];
	if (world == MPI_UNDEFINED || world == commprof.world_rank)
		return -1;
	return world;
}

/* One message of `bytes` to peer `peer` of `r`, even an empty one:
 * point-to-point messages are counted whatever their size (nothing for
 * the peers commprof_counted_peer leaves out). */
static inline void commprof_count_message(const struct commprof_ranks *r,
					  int peer, uint64_t bytes)
{
	int world = commprof_counted_peer(r, peer);

	if (world < 0)
		return;
	commprof_add(&commprof.bytes[world], bytes);
	commprof_add(&commprof.messages[world], 1);
}

/* One block of a collective: recorded only when it holds data, since a
 * collective moves nothing for an empty block. */
static inline void commprof_count_block(const struct commprof_ranks *r,
					int peer, uint64_t bytes)
{
	if (bytes > 0)
		commprof_count_message(r, peer, bytes);
}

/* ------------------------------------------------------------------ */
/* Persistent sends (persistent.c): counted at each MPI_Start          */
/* ------------------------------------------------------------------ */

void commprof_persistent_remember(MPI_Request request,
				  const struct commprof_ranks *r, int peer,
				  uint64_t bytes);
void commprof_persistent_count_start(MPI_Request request);
void commprof_persistent_forget(MPI_Request request);
void commprof_persistent_clear(void);

/* ------------------------------------------------------------------ */
/* Collective models (coll_model.c): what each rank sends to whom     */
/* ------------------------------------------------------------------ */

void commprof_count_barrier(MPI_Comm comm);
void commprof_count_bcast(int count, MPI_Datatype type, int root,
			  MPI_Comm comm);
void commprof_count_reduce(int count, MPI_Datatype type, int root,
			   MPI_Comm comm);
void commprof_count_allreduce(int count, MPI_Datatype type, MPI_Comm comm);
void commprof_count_gather(int sendcount, MPI_Datatype sendtype, int root,
			   MPI_Comm comm);
void commprof_count_scatter(int sendcount, MPI_Datatype sendtype, int root,
			    MPI_Comm comm);
void commprof_count_scatterv(const int sendcounts[], MPI_Datatype sendtype,
			     int root, MPI_Comm comm);
void commprof_count_allgather(const void *sendbuf, int sendcount,
			      MPI_Datatype sendtype, int recvcount,
			      MPI_Datatype recvtype, MPI_Comm comm);
void commprof_count_allgatherv(const void *sendbuf, int sendcount,
			       MPI_Datatype sendtype, const int recvcounts[],
			       MPI_Datatype recvtype, MPI_Comm comm);
void commprof_count_alltoall(const void *sendbuf, int sendcount,
			     MPI_Datatype sendtype, int recvcount,
			     MPI_Datatype recvtype, MPI_Comm comm);
void commprof_count_alltoallv(const void *sendbuf, const int sendcounts[],
			      MPI_Datatype sendtype, const int recvcounts[],
			      MPI_Datatype recvtype, MPI_Comm comm);
void commprof_count_alltoallw(const void *sendbuf, const int sendcounts[],
			      const MPI_Datatype sendtypes[],
			      const int recvcounts[],
			      const MPI_Datatype recvtypes[], MPI_Comm comm);
void commprof_count_reduce_scatter(const int recvcounts[], MPI_Datatype type,
				   MPI_Comm comm);
void commprof_count_reduce_scatter_block(int recvcount, MPI_Datatype type,
					 MPI_Comm comm);
void commprof_count_scan(int count, MPI_Datatype type, MPI_Comm comm);

/* ------------------------------------------------------------------ */
/* The file (report.c, output.c, output_path.c)                       */
/* ------------------------------------------------------------------ */

/* At MPI_Finalize, around everything the ranks write together: the
 * private communicator (false when it cannot be made: nothing is
 * written). */
bool commprof_private_open(void);
void commprof_private_close(void);

/* Collective over the private communicator, called by every rank from
 * MPI_Finalize, counting or not (bytes and messages NULL when setup
 * failed): rank 0 writes the matrix, and the I/O matrix when a rank set a
 * file view.  Problems are reported on stderr (one line) and never fail
 * the job. */
void commprof_report(void);

/* Collective over the private communicator: rank 0 writes these rows of
 * every rank to `path` (rank 0's, malloc'd, freed here; NULL elsewhere,
 * or when out of memory); bytes NULL on a rank that has none. */
void commprof_report_rows(char *path, _Atomic uint64_t *bytes,
			  _Atomic uint64_t *messages);

/* The output path: COMMPROF_OUTPUT with its %-sequences expanded, or the
 * default name.  Called on world rank 0 only.  NULL when out of memory. */
char *commprof_output_path(int world_size);
/* The I/O matrix's: COMMPROF_IO_OUTPUT expanded the same way, or the
 * output path with ".io.json" for its ".json" (appended if none). */
char *commprof_io_output_path(int world_size);

/* Writing the JSON file through a temporary file and a rename, so that a
 * reader never sees half a file. */
struct commprof_writer {
	char *path;     /* final name */
	char *tmp_path; /* where it is written until complete */
	void *file;     /* FILE *, kept opaque to keep stdio out of here */
	int error;      /* first errno seen, 0 while all is well */
	bool in_list;       /* a list is open: the next one closes it */
	bool first_in_list; /* no item in the open list yet */
};

int commprof_writer_open(struct commprof_writer *w, const char *path,
			 int size, const char *unit);
void commprof_writer_list(struct commprof_writer *w, const char *name);
void commprof_writer_item(struct commprof_writer *w, int i, int j,
			  uint64_t value);
/* Finishes, renames (or, under the commprof command, lists it in
 * COMMPROF_PENDING for the command to rename) and frees; returns 0 or the
 * errno of the first failure, in which case the temporary file is removed. */
int commprof_writer_close(struct commprof_writer *w);
/* Gives up: removes the temporary file and frees. */
void commprof_writer_abort(struct commprof_writer *w);
/* Rank 0 opens path, and all ranks agree whether to go on (output.c). */
int commprof_writer_agree(struct commprof_writer *w, bool root,
			  const char *path, const char *unit, int ready,
			  int *error);

/* ------------------------------------------------------------------ */
/* The online mode (online.c; doc/online.md)                          */
/* ------------------------------------------------------------------ */

/* At MPI_Init, after rank and size are known: with TREEMATCH_ONLINE=1,
 * points commprof.bytes and .messages at this task's rows in the node's
 * segment and, on local rank 0, starts the mapper.  false when the rows
 * are still to be allocated (online mode off or refused). */
bool commprof_online_setup(void);
/* At MPI_Finalize, before the report: local rank 0 stops its mapper. */
void commprof_online_stop(void);
/* Whether the report writes the whole run's matrix: always without the
 * online mode, only with COMMPROF_OUTPUT set in it. */
bool commprof_online_full_matrix(void);
/* From MPI_Finalize, collective over the private communicator: save= of
 * TREEMATCH_ONLINE_PARAMS. */
void commprof_online_save(void);
/* After the report: leaves the segment (the rows go with it). */
void commprof_online_teardown(void);

/* ------------------------------------------------------------------ */
/* File views (io.c, io_report.c): the I/O matrix                      */
/* ------------------------------------------------------------------ */

/* One MPI_File_set_view of this rank. */
struct commprof_io_view {
	uint64_t group;    /* hash of the file group's world ranks */
	uint64_t ordinal;  /* this rank's n-th view on files of that group */
	size_t count;
	uint64_t *offset;  /* where each of its regions starts in the file */
};

const struct commprof_io_view *commprof_io_views(size_t *count);
void commprof_io_clear(void);

/* Collective over MPI_COMM_WORLD, from commprof_report (the private
 * communicator exists): when some rank set a file view, rank 0 writes
 * the I/O matrix.  Problems: one line on stderr, never a failed job. */
void commprof_io_report(void);

#endif /* COMMPROF_H */
