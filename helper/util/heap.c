/* SPDX-License-Identifier: GPL-2.0-or-later */
/* heap.c - binary max-heap of (key, vertex); see heap.h. */
#include <config.h>

#include <stdlib.h>

#include "util/heap.h"

static int above(const tm_heap_entry *a, const tm_heap_entry *b)
{
	return a->key > b->key || (a->key == b->key && a->vertex < b->vertex);
}

int tm__heap_push(tm_heap *h, double key, int vertex)
{
	if (h->size == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 64;
		tm_heap_entry *e = realloc(h->e, cap * sizeof(*e));

		if (!e)
			return -1;
		h->e = e;
		h->cap = cap;
	}
	size_t i = h->size++;
	tm_heap_entry x = { key, vertex };
	while (i > 0 && above(&x, &h->e[(i - 1) / 2])) {
		h->e[i] = h->e[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->e[i] = x;
	return 0;
}

int tm__heap_pop(tm_heap *h, tm_heap_entry *out)
{
	if (h->size == 0)
		return 0;
	*out = h->e[0];
	tm_heap_entry last = h->e[--h->size];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= h->size)
			break;
		if (c + 1 < h->size && above(&h->e[c + 1], &h->e[c]))
			c++;
		if (!above(&h->e[c], &last))
			break;
		h->e[i] = h->e[c];
		i = c;
	}
	if (h->size > 0)
		h->e[i] = last;
	return 1;
}

void tm__heap_clear(tm_heap *h)
{
	h->size = 0;
}

void tm__heap_free(tm_heap *h)
{
	free(h->e);
	h->e = NULL;
	h->size = h->cap = 0;
}
