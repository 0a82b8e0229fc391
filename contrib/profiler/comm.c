/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * comm.c - translating a communicator's ranks to MPI_COMM_WORLD ranks.
 *
 * The translation is built the first time a communicator is used and
 * cached in an attribute, so every later call costs one attribute lookup
 * (O(1)); MPI calls the delete callback, which frees it, when the
 * communicator is freed.  MPI_COMM_WORLD itself skips the lookup.
 *
 * An attribute lookup costs about 40 ns in Open MPI 4.1, a sixth of a
 * small shared-memory message, so without MPI_THREAD_MULTIPLE a small
 * table of recently used communicators comes first.  It needs no lock:
 * then only one thread calls MPI at a time, and the delete callback,
 * which runs inside MPI_Comm_free, removes a freed communicator before
 * MPI can give its handle to a new one.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "commprof.h"

static int ranks_keyval = MPI_KEYVAL_INVALID;
static MPI_Group world_group = MPI_GROUP_NULL;
static struct commprof_ranks *world_ranks;

/* Only taken when a communicator is seen for the first time: two threads
 * building the same translation would otherwise both set the attribute,
 * and the second set frees the first one's value while it is in use. */
static pthread_mutex_t build_lock = PTHREAD_MUTEX_INITIALIZER;

/* Direct-mapped: a program that alternates between a few communicators
 * (rows and columns of a grid, say) finds each in its own slot. */
enum { RECENT_BITS = 3, RECENT_COUNT = 1 << RECENT_BITS };

static struct recent_comm {
	MPI_Comm comm;
	const struct commprof_ranks *ranks; /* NULL: slot empty */
} recent[RECENT_COUNT];

static struct recent_comm *recent_slot(MPI_Comm comm)
{
	uint64_t bits = 0;

	/* Handles are pointers (Open MPI) or integers (MPICH). */
	_Static_assert(sizeof(MPI_Comm) <= sizeof bits,
		       "MPI_Comm wider than 64 bits");
	memcpy(&bits, &comm, sizeof comm);
	return &recent[(bits * UINT64_C(0x9E3779B97F4A7C15))
		       >> (64 - RECENT_BITS)];
}

static void forget_recent(const struct commprof_ranks *ranks)
{
	int k;

	for (k = 0; k < RECENT_COUNT; k++)
		if (recent[k].ranks == ranks)
			recent[k].ranks = NULL;
}

static int delete_ranks(MPI_Comm comm, int keyval, void *value, void *extra)
{
	(void)comm;
	(void)keyval;
	(void)extra;
	forget_recent(value);
	free(value);
	return MPI_SUCCESS;
}

static struct commprof_ranks *alloc_ranks(int peer_count)
{
	return malloc(sizeof(struct commprof_ranks)
		      + (size_t)peer_count * sizeof(int));
}

int commprof_comm_setup(void)
{
	int rc, k;

	/* MPI_COMM_NULL_COPY_FN: a duplicate gets its own translation on
	 * first use rather than sharing a pointer that either could free. */
	rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_ranks,
				     &ranks_keyval, NULL);
	if (rc != MPI_SUCCESS)
		return rc;
	rc = PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
	if (rc != MPI_SUCCESS)
		return rc;
	world_ranks = alloc_ranks(commprof.world_size);
	if (!world_ranks)
		return MPI_ERR_NO_MEM;
	world_ranks->my_rank = commprof.world_rank;
	world_ranks->local_size = commprof.world_size;
	world_ranks->peer_count = commprof.world_size;
	world_ranks->inter = false;
	for (k = 0; k < commprof.world_size; k++)
		world_ranks->peer_world[k] = k;
	return MPI_SUCCESS;
}

void commprof_comm_teardown(void)
{
	/* Attributes still attached keep the keyval alive inside MPI until
	 * their communicators are freed, so this is safe at any time. */
	if (ranks_keyval != MPI_KEYVAL_INVALID)
		PMPI_Comm_free_keyval(&ranks_keyval);
	if (world_group != MPI_GROUP_NULL)
		PMPI_Group_free(&world_group);
	free(world_ranks);
	world_ranks = NULL;
	memset(recent, 0, sizeof recent);
}

/* World ranks of every member of `peers`, in its rank order. */
static int translate_group(MPI_Group peers, int count, int *world)
{
	int *ranks = malloc((size_t)count * sizeof *ranks);
	int k, rc;

	if (!ranks)
		return MPI_ERR_NO_MEM;
	for (k = 0; k < count; k++)
		ranks[k] = k;
	rc = PMPI_Group_translate_ranks(peers, count, ranks, world_group,
					world);
	free(ranks);
	return rc;
}

static struct commprof_ranks *build_ranks(MPI_Comm comm)
{
	struct commprof_ranks *r = NULL;
	MPI_Group peers = MPI_GROUP_NULL;
	int inter, my_rank, local_size, peer_count;

	if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS
	    || PMPI_Comm_rank(comm, &my_rank) != MPI_SUCCESS
	    || PMPI_Comm_size(comm, &local_size) != MPI_SUCCESS)
		return NULL;
	if ((inter ? PMPI_Comm_remote_group(comm, &peers)
		   : PMPI_Comm_group(comm, &peers)) != MPI_SUCCESS)
		return NULL;
	if (PMPI_Group_size(peers, &peer_count) == MPI_SUCCESS)
		r = alloc_ranks(peer_count);
	if (r && translate_group(peers, peer_count, r->peer_world)
		 != MPI_SUCCESS) {
		free(r);
		r = NULL;
	}
	PMPI_Group_free(&peers);
	if (!r)
		return NULL;
	r->my_rank = my_rank;
	r->local_size = local_size;
	r->peer_count = peer_count;
	r->inter = inter;
	return r;
}

static const struct commprof_ranks *cached_ranks(MPI_Comm comm)
{
	void *value;
	int found;

	if (PMPI_Comm_get_attr(comm, ranks_keyval, &value, &found)
	    != MPI_SUCCESS || !found)
		return NULL;
	return value;
}

/* The attribute, or a translation built and attached now. */
static const struct commprof_ranks *lookup_ranks(MPI_Comm comm)
{
	const struct commprof_ranks *cached = cached_ranks(comm);
	struct commprof_ranks *built;

	if (cached)
		return cached;
	pthread_mutex_lock(&build_lock);
	cached = cached_ranks(comm);
	if (!cached) {
		built = build_ranks(comm);
		if (built && PMPI_Comm_set_attr(comm, ranks_keyval, built)
			     != MPI_SUCCESS) {
			free(built);
			built = NULL;
		}
		cached = built;
	}
	pthread_mutex_unlock(&build_lock);
	return cached;
}

const struct commprof_ranks *commprof_ranks_of(MPI_Comm comm)
{
	struct recent_comm *slot;
	const struct commprof_ranks *ranks;

	if (comm == MPI_COMM_WORLD)
		return world_ranks;
	/* MPI reports a null communicator to the application, through the
	 * application's error handler; the profiler must not fail first. */
	if (comm == MPI_COMM_NULL)
		return NULL;
	if (commprof.threaded)
		return lookup_ranks(comm);

	slot = recent_slot(comm);
	if (slot->ranks && slot->comm == comm)
		return slot->ranks;
	ranks = lookup_ranks(comm);
	if (ranks) {
		slot->comm = comm;
		slot->ranks = ranks;
	}
	return ranks;
}
