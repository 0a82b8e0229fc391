/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * io_order.c - from the regions of a file view to the adjacency counts
 * of the I/O matrix (see io_order.h).  With the paper's sequence
 * 0 4 1 0 4 1 5 2 3 4 1 3 2 5 4 2 5 4 0 4 1, ranks 0 and 4 are side by
 * side four times, so their pair counts 4, as in the paper's matrix.
 */
#include <config.h>

#include <stdlib.h>

#include "io_order.h"

static int by_offset(const void *a, const void *b)
{
	const struct commprof_io_block *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

size_t commprof_io_sequence(struct commprof_io_block *blocks, size_t n,
			    int *sequence)
{
	size_t len = 0;

	qsort(blocks, n, sizeof *blocks, by_offset);
	for (size_t k = 0; k < n; k++)
		if (len == 0 || sequence[len - 1] != blocks[k].rank)
			sequence[len++] = blocks[k].rank;
	return len;
}

void commprof_io_pairs_init(struct commprof_io_pairs *p, int size)
{
	p->size = size;
	p->count = p->capacity = 0;
	p->pair = NULL;
}

static int by_key(const void *a, const void *b)
{
	const struct commprof_io_pair *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

void commprof_io_pairs_compact(struct commprof_io_pairs *p)
{
	size_t kept = 0;

	qsort(p->pair, p->count, sizeof *p->pair, by_key);
	for (size_t k = 0; k < p->count; k++) {
		if (kept > 0 && p->pair[kept - 1].key == p->pair[k].key)
			p->pair[kept - 1].count += p->pair[k].count;
		else
			p->pair[kept++] = p->pair[k];
	}
	p->count = kept;
}

/* Room for one more: compacting first, so that a pair met again and again
 * takes one slot, not one per meeting. */
static int make_room(struct commprof_io_pairs *p)
{
	if (p->count < p->capacity)
		return 0;
	commprof_io_pairs_compact(p);
	if (p->count < p->capacity / 2 + 1 && p->count < p->capacity)
		return 0;
	size_t capacity = p->capacity ? 2 * p->capacity : 256;
	struct commprof_io_pair *grown = realloc(p->pair,
						 capacity * sizeof *grown);
	if (!grown)
		return -1;
	p->pair = grown;
	p->capacity = capacity;
	return 0;
}

int commprof_io_pairs_add(struct commprof_io_pairs *p, const int *sequence,
			  size_t len)
{
	for (size_t k = 1; k < len; k++) {
		int a = sequence[k - 1], b = sequence[k];

		if (a == b)
			continue;
		if (make_room(p) < 0)
			return -1;
		uint64_t i = (uint64_t)(a < b ? a : b), j = (uint64_t)(a < b ? b : a);
		p->pair[p->count].key = i * (uint64_t)p->size + j;
		p->pair[p->count].count = 1;
		p->count++;
	}
	return 0;
}

void commprof_io_pairs_free(struct commprof_io_pairs *p)
{
	free(p->pair);
	commprof_io_pairs_init(p, p->size);
}
