/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.c - at MPI_Finalize, every rank's row travels to world rank 0,
 * which writes the file.  Rank 0 takes the rows one at a time, in rank
 * order, and writes each before taking the next, so it never holds more
 * than one row (16 bytes per rank of the job) and the entries come out
 * sorted by sender, then receiver.  Two passes (bytes, then messages)
 * keep that true for the two lists of the file.
 *
 * Everything goes over a private duplicate of MPI_COMM_WORLD, through
 * PMPI: none of it can match, or be counted as, the application's traffic.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commprof.h"

enum { TAG_BYTES = 1, TAG_MESSAGES = 2 };

/* The non-zero counters of `row` as (receiver, value) pairs, ascending
 * receiver; returns the number of uint64_t written (twice the pairs). */
static int pack_row(_Atomic uint64_t *row, uint64_t *pairs)
{
	int used = 0, j;
	uint64_t value;

	for (j = 0; j < commprof.world_size; j++) {
		value = atomic_load_explicit(&row[j], memory_order_relaxed);
		if (value) {
			pairs[used++] = (uint64_t)j;
			pairs[used++] = value;
		}
	}
	return used;
}

static void send_row(_Atomic uint64_t *row, uint64_t *pairs, int tag)
{
	PMPI_Send(pairs, pack_row(row, pairs), MPI_UINT64_T, 0, tag,
		  commprof.private_comm);
}

/* Rank 0: one list of the file, every rank's row in turn. */
static void write_list(struct commprof_writer *w, const char *name,
		       _Atomic uint64_t *own_row, uint64_t *pairs, int tag)
{
	MPI_Status status;
	int sender, used, k;

	commprof_writer_list(w, name);
	for (sender = 0; sender < commprof.world_size; sender++) {
		if (sender == 0) {
			used = pack_row(own_row, pairs);
		} else {
			PMPI_Recv(pairs, 2 * commprof.world_size,
				  MPI_UINT64_T, sender, tag,
				  commprof.private_comm, &status);
			PMPI_Get_count(&status, MPI_UINT64_T, &used);
		}
		for (k = 0; k + 1 < used; k += 2)
			commprof_writer_item(w, sender, (int)pairs[k],
					     pairs[k + 1]);
	}
}

static void print_failure(const char *path, int error)
{
	fprintf(stderr, "commprof: cannot write %s: %s\n",
		path ? path : "the communication matrix", strerror(error));
}

void commprof_report_rows(char *path, _Atomic uint64_t *bytes,
			  _Atomic uint64_t *messages)
{
	bool root = commprof.world_rank == 0;
	struct commprof_writer writer;
	uint64_t *pairs = NULL;
	int error = 0;

	if (bytes)
		pairs = malloc(2 * (size_t)commprof.world_size
			       * sizeof *pairs);
	/* Agree before any row moves: if rank 0 cannot write, or a rank has
	 * no counters or no memory to pack them, nobody sends and nobody
	 * waits. */
	if (!commprof_writer_agree(&writer, root, path, "bytes", pairs != NULL,
				   &error)) {
		/* nothing moves; rank 0 says why below */
	} else if (root) {
		write_list(&writer, "entries", bytes, pairs, TAG_BYTES);
		write_list(&writer, "messages", messages, pairs,
			   TAG_MESSAGES);
		error = commprof_writer_close(&writer);
	} else {
		send_row(bytes, pairs, TAG_BYTES);
		send_row(messages, pairs, TAG_MESSAGES);
	}
	if (root && error)
		print_failure(path, error);
	free(path);
	free(pairs);
}

bool commprof_private_open(void)
{
	/* Made now rather than at MPI_Init: see setup() in init.c.  The
	 * application's communication is complete by now, as MPI_Finalize
	 * requires, and none of it can match this communicator anyway. */
	return PMPI_Comm_dup(MPI_COMM_WORLD, &commprof.private_comm)
	       == MPI_SUCCESS;
}

void commprof_private_close(void)
{
	PMPI_Comm_free(&commprof.private_comm);
}

void commprof_report(void)
{
	commprof_report_rows(commprof.world_rank == 0 ?
			     commprof_output_path(commprof.world_size) : NULL,
			     commprof.bytes, commprof.messages);
	/* the file views' matrix, over the same private communicator */
	commprof_io_report();
}
