/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * init.c - MPI_Init, MPI_Init_thread and MPI_Finalize: the profiler's
 * setup and its report.
 */
#include <stdio.h>
#include <stdlib.h>

#include "commprof.h"

struct commprof_state commprof = {
	.active = false,
	.private_comm = MPI_COMM_NULL,
};

/* MPI_Init went through us: MPI_Finalize must take part in the report,
 * even on a rank whose setup failed, since the report is collective. */
static bool initialized;

static void free_counters(void)
{
	free(commprof.bytes);
	free(commprof.messages);
	commprof.bytes = NULL;
	commprof.messages = NULL;
}

/* Everything a rank needs before the application's first call.  It is
 * local on purpose: no communication, no communicator.  (In Open MPI 4.1
 * creating any communicator, a duplicate included, adds the non-blocking
 * collectives' progress function to every polling loop for good, which
 * made each small message of a ping-pong about 70 ns slower.) */
static void setup(int thread_level)
{
	PMPI_Comm_rank(MPI_COMM_WORLD, &commprof.world_rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &commprof.world_size);
	commprof.threaded = thread_level == MPI_THREAD_MULTIPLE;
	/* the online mode puts the rows in the node's segment */
	if (!commprof_online_setup()) {
		commprof.bytes = calloc((size_t)commprof.world_size,
					sizeof *commprof.bytes);
		commprof.messages = calloc((size_t)commprof.world_size,
					   sizeof *commprof.messages);
	}
	initialized = true;
	if (!commprof.bytes || !commprof.messages
	    || commprof_comm_setup() != MPI_SUCCESS) {
		/* The report will say that no file could be written. */
		fprintf(stderr, "commprof: rank %d: out of memory, not "
			"counting\n", commprof.world_rank);
		commprof_comm_teardown();
		commprof_online_stop();
		commprof_online_teardown();
		free_counters();
		return;
	}
	commprof.active = true;
}

int MPI_Init(int *argc, char ***argv)
{
	int rc = PMPI_Init(argc, argv);
	int provided;

	if (rc == MPI_SUCCESS) {
		PMPI_Query_thread(&provided);
		setup(provided);
	}
	return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	int rc = PMPI_Init_thread(argc, argv, required, provided);

	if (rc == MPI_SUCCESS)
		setup(*provided);
	return rc;
}

int MPI_Finalize(void)
{
	if (initialized) {
		initialized = false;
		commprof.active = false;
		/* the mapper never reads a row after this */
		commprof_online_stop();
		/* Collective from here on, counting or not: every rank takes
		 * part in what the others write. */
		if (commprof_private_open()) {
			/* in the online mode, only when somebody asked */
			if (commprof_online_full_matrix())
				commprof_report();
			/* the online mode's final pattern (save=) */
			commprof_online_save();
			commprof_private_close();
		}
		commprof_io_clear();
		commprof_persistent_clear();
		commprof_comm_teardown();
		commprof_online_teardown();
		free_counters();
	}
	return PMPI_Finalize();
}
