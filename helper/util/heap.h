/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * heap.h - a max-heap of (key, vertex) with lazy updates: a vertex whose key
 * changes is pushed again, and callers skip popped entries that no longer
 * match their current key.  Equal keys pop the smaller vertex first, so
 * that every algorithm using it is deterministic.
 */
#ifndef TM_HEAP_H
#define TM_HEAP_H

#include <stddef.h>

typedef struct tm_heap_entry {
	double key;
	int vertex;
} tm_heap_entry;

typedef struct tm_heap {
	tm_heap_entry *e;
	size_t size, cap;
} tm_heap;

int tm__heap_push(tm_heap *h, double key, int vertex); /* -1 on ENOMEM */
int tm__heap_pop(tm_heap *h, tm_heap_entry *out);      /* 0 when empty */
void tm__heap_clear(tm_heap *h);
void tm__heap_free(tm_heap *h);

#endif /* TM_HEAP_H */
