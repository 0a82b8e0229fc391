/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * io_order.h - the file-access order of a collective file view, and the
 * matrix it gives (SetMatch: Venkatesan et al., EuroMPI 2013, section 3.1): every time two ranks
 * access neighbouring regions of the file, the pair counts one adjacency.
 * No MPI here, so that the unit test runs without it (io_order.c).
 */
#ifndef COMMPROF_IO_ORDER_H
#define COMMPROF_IO_ORDER_H

#include <stddef.h>
#include <stdint.h>

/* One region of the file: where it starts, and the rank that accesses it
 * (a world rank). */
struct commprof_io_block {
	uint64_t offset;
	int rank;
};

/* Sort the blocks by offset (equal offsets: by rank) and write the ranks
 * in that order to sequence[], a rank that accesses several consecutive
 * regions only once (its regions are one region of the file).  Returns
 * the length of the sequence (at most n). */
size_t commprof_io_sequence(struct commprof_io_block *blocks, size_t n,
			    int *sequence);

/* The adjacencies of ranks of a job of `size` ranks, counted per pair. */
struct commprof_io_pair {
	uint64_t key;   /* i * size + j, i < j */
	uint64_t count;
};

struct commprof_io_pairs {
	int size;
	size_t count, capacity;
	struct commprof_io_pair *pair; /* sorted by key once compacted */
};

void commprof_io_pairs_init(struct commprof_io_pairs *p, int size);
/* Count each adjacency of sequence[0..len-1] (two different ranks side
 * by side) once for its pair.  0, or -1 when out of memory. */
int commprof_io_pairs_add(struct commprof_io_pairs *p, const int *sequence,
			  size_t len);
/* Sort by pair and merge: afterwards each pair appears once, in order of
 * i then j. */
void commprof_io_pairs_compact(struct commprof_io_pairs *p);
void commprof_io_pairs_free(struct commprof_io_pairs *p);

#endif /* COMMPROF_IO_ORDER_H */
