/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * persistent.c - persistent send requests, counted at each MPI_Start.
 *
 * MPI_Send_init (and the other modes) record where the request sends and
 * how much; MPI_Start / MPI_Startall look the request up and count one
 * message.  MPI_Request_free forgets it: MPI may reuse the handle.
 *
 * The table is a fixed array of buckets, each a list of slots.  Slots are
 * never freed before MPI_Finalize, only emptied and reused, so a lookup
 * walks the list with atomic loads and no lock, even under
 * MPI_THREAD_MULTIPLE; only creating and freeing requests (rare, not per
 * message) take the mutex.  Lookups cost O(1) while the live persistent
 * sends stay within a few times the bucket count.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "commprof.h"

enum { BUCKET_BITS = 12, BUCKET_COUNT = 1 << BUCKET_BITS };

struct slot {
	/* The request handle's bits; valid while `used` is set.  Atomic
	 * because a lookup may read a slot that is being reused. */
	_Atomic uint64_t key;
	_Atomic bool used;
	int world_dest;
	uint64_t bytes;
	struct slot *_Atomic next;
};

static struct slot *_Atomic buckets[BUCKET_COUNT];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

/* Handles are pointers (Open MPI) or integers (MPICH): up to 8 bytes. */
static uint64_t request_key(MPI_Request request)
{
	uint64_t key = 0;

	_Static_assert(sizeof(MPI_Request) <= sizeof key,
		       "MPI_Request wider than 64 bits");
	memcpy(&key, &request, sizeof request);
	return key;
}

static struct slot *_Atomic *bucket_of(uint64_t key)
{
	/* Fibonacci hashing: handles that differ only in their low bits
	 * (aligned pointers, consecutive integers) spread over buckets. */
	return &buckets[(key * UINT64_C(0x9E3779B97F4A7C15))
			>> (64 - BUCKET_BITS)];
}

static struct slot *find(uint64_t key)
{
	struct slot *s = atomic_load_explicit(bucket_of(key),
					      memory_order_acquire);

	for (; s; s = atomic_load_explicit(&s->next, memory_order_acquire))
		if (atomic_load_explicit(&s->used, memory_order_acquire)
		    && atomic_load_explicit(&s->key, memory_order_relaxed)
		       == key)
			return s;
	return NULL;
}

void commprof_persistent_remember(MPI_Request request,
				  const struct commprof_ranks *r, int peer,
				  uint64_t bytes)
{
	uint64_t key = request_key(request);
	struct slot *_Atomic *bucket = bucket_of(key);
	struct slot *s;
	int world = commprof_counted_peer(r, peer);

	/* Sends that are never counted need no slot. */
	if (world < 0)
		return;

	pthread_mutex_lock(&table_lock);
	for (s = atomic_load(bucket); s; s = atomic_load(&s->next))
		if (!atomic_load(&s->used))
			break;
	if (!s) {
		s = calloc(1, sizeof *s);
		if (!s) {
			/* Out of memory: this request goes uncounted, which
			 * is better than failing the application. */
			pthread_mutex_unlock(&table_lock);
			return;
		}
		atomic_store(&s->next, atomic_load(bucket));
		atomic_store_explicit(bucket, s, memory_order_release);
	}
	s->world_dest = world;
	s->bytes = bytes;
	atomic_store_explicit(&s->key, key, memory_order_relaxed);
	/* Release: a lookup that sees `used` also sees dest and bytes. */
	atomic_store_explicit(&s->used, true, memory_order_release);
	pthread_mutex_unlock(&table_lock);
}

void commprof_persistent_count_start(MPI_Request request)
{
	struct slot *s;

	if (request == MPI_REQUEST_NULL)
		return;
	s = find(request_key(request));
	if (!s)
		return; /* a persistent receive, or a request we never saw */
	commprof_add(&commprof.bytes[s->world_dest], s->bytes);
	commprof_add(&commprof.messages[s->world_dest], 1);
}

void commprof_persistent_forget(MPI_Request request)
{
	struct slot *s;

	if (request == MPI_REQUEST_NULL)
		return;
	pthread_mutex_lock(&table_lock);
	s = find(request_key(request));
	if (s)
		atomic_store_explicit(&s->used, false, memory_order_release);
	pthread_mutex_unlock(&table_lock);
}

void commprof_persistent_clear(void)
{
	struct slot *s, *next;
	int b;

	for (b = 0; b < BUCKET_COUNT; b++) {
		for (s = atomic_load(&buckets[b]); s; s = next) {
			next = atomic_load(&s->next);
			free(s);
		}
		atomic_store(&buckets[b], NULL);
	}
}
