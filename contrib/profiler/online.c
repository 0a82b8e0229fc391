/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online.c - the MPI side of the online mode (doc/online.md): at
 * MPI_Init, each task joins its node's segment and counts straight into
 * its rows there, and local rank 0 starts the node's mapper; at
 * MPI_Finalize the mapper stops and reports, and with save= world rank 0
 * writes the traffic since the mapping last changed as a matrix file.
 *
 * Whatever goes wrong (a variable, the segment, memory) is one line on
 * stderr and this task counting in private memory as without the online
 * mode: the application never stops nor changes because of it.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commprof.h"
#include "online.h"

static struct {
	bool requested;       /* TREEMATCH_ONLINE=1 */
	bool params_ok;       /* TREEMATCH_ONLINE_PARAMS parses */
	tm_online_params params;
	bool active;          /* counting in the segment */
	struct online_config cfg;
	struct online_segment seg;
	struct online_mapper *mapper;
} online;

bool commprof_online_setup(void)
{
	struct online_slot *slot;
	cpu_set_t cpus;
	char why[512] = "";
	int rc;

	online.requested = online_requested();
	if (!online.requested)
		return false;
	/* read before anything can fail: whether to save is collective */
	online.params_ok = online_params_read(&online.params);
	if (!online.params_ok)
		return false;
	if (!online_atomics_ok()) {
		fprintf(stderr, ONLINE_PREFIX "64-bit atomics are not "
			"lock-free here: online mode off\n");
		return false;
	}
	if (!online_config_read(&online.cfg, &online.params,
				commprof.world_size))
		return false;
	if (sched_getaffinity(0, sizeof cpus, &cpus) != 0) {
		fprintf(stderr, ONLINE_PREFIX "rank %d: sched_getaffinity "
			"failed: online mode off\n", commprof.world_rank);
		return false;
	}
	if (online.cfg.local_rank == 0)
		rc = online_segment_create(&online.seg, online.cfg.segment,
					   commprof.world_size,
					   online.cfg.local_size, why,
					   sizeof why);
	else
		rc = online_segment_attach(&online.seg, online.cfg.segment,
					   commprof.world_size,
					   online.cfg.local_size,
					   online.cfg.params.first, why,
					   sizeof why);
	if (rc != 0) {
		fprintf(stderr, ONLINE_PREFIX "rank %d: %s: online mode off "
			"for this task\n", commprof.world_rank, why);
		return false;
	}
	slot = online_segment_slot(&online.seg, online.cfg.local_rank);
	if (atomic_load_explicit(&slot->state, memory_order_acquire)
	    != ONLINE_SLOT_EMPTY) {
		fprintf(stderr, ONLINE_PREFIX "rank %d: local rank %d is "
			"taken in %s: online mode off for this task\n",
			commprof.world_rank, online.cfg.local_rank,
			online.cfg.segment);
		online_segment_close(&online.seg);
		return false;
	}
	/* the hot path counts into the segment from now on */
	commprof.bytes = online_slot_row(&online.seg, slot, ONLINE_ROW_BYTES);
	commprof.messages = online_slot_row(&online.seg, slot,
					    ONLINE_ROW_MESSAGES);
	online_segment_register(&online.seg, online.cfg.local_rank,
				commprof.world_rank, (int)getpid(),
				online_process_start_time((int)getpid()),
				&cpus);
	online.active = true;
	if (online.cfg.local_rank == 0)
		online.mapper = online_mapper_start(&online.cfg, &online.seg);
	return true;
}

void commprof_online_stop(void)
{
	online_mapper_stop(online.mapper);
	online.mapper = NULL;
}

bool commprof_online_full_matrix(void)
{
	/* under the plugin nobody asked for the whole run's matrix; under
	 * commprof -o, or with COMMPROF_OUTPUT set by hand, somebody did */
	return !online.requested || getenv("COMMPROF_OUTPUT") != NULL;
}

/* Collective, from MPI_Finalize (every rank, with the private
 * communicator): the rows minus the snapshot the mapper took when the
 * mapping last changed. */
void commprof_online_save(void)
{
	_Atomic uint64_t *bytes = NULL, *messages = NULL;
	_Atomic uint64_t *snap_bytes = NULL, *snap_messages = NULL;
	size_t n = (size_t)commprof.world_size, j;
	struct online_slot *slot;

	if (!online.requested || !online.params_ok || !online.params.save[0])
		return;
	/* every node's mapper stopped before its rank 0 got here */
	PMPI_Barrier(commprof.private_comm);
	if (commprof.bytes) {
		bytes = calloc(n, sizeof *bytes);
		messages = calloc(n, sizeof *messages);
	}
	if (online.active) {
		slot = online_segment_slot(&online.seg, online.cfg.local_rank);
		atomic_load_explicit(&online.seg.header->snap_epoch,
				     memory_order_acquire);
		snap_bytes = online_slot_row(&online.seg, slot,
					     ONLINE_ROW_SNAP_BYTES);
		snap_messages = online_slot_row(&online.seg, slot,
						ONLINE_ROW_SNAP_MESSAGES);
	}
	if (bytes && messages) {
		for (j = 0; j < n; j++) {
			uint64_t b = atomic_load(&commprof.bytes[j]);
			uint64_t m = atomic_load(&commprof.messages[j]);

			if (snap_bytes) {
				b -= atomic_load(&snap_bytes[j]);
				m -= atomic_load(&snap_messages[j]);
			}
			atomic_store(&bytes[j], b);
			atomic_store(&messages[j], m);
		}
	}
	commprof_report_rows(commprof.world_rank == 0 ?
			     strdup(online.params.save) : NULL,
			     bytes && messages ? bytes : NULL,
			     bytes && messages ? messages : NULL);
	free(bytes);
	free(messages);
}

void commprof_online_teardown(void)
{
	struct online_slot *slot;

	if (!online.active)
		return;
	slot = online_segment_slot(&online.seg, online.cfg.local_rank);
	atomic_store_explicit(&slot->state, ONLINE_SLOT_GONE,
			      memory_order_release);
	online_segment_close(&online.seg);
	online.active = false;
	commprof.bytes = NULL;
	commprof.messages = NULL;
}
