/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json_arena.c - the arena treematch-helper's JSON values come from.
 */
#include <config.h>

#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>

#include <jansson.h>

#include "cli/json_arena.h"

/* jansson allocates every number and array of a matrix file on its own and
 * frees them one by one once the matrix is read: on a dense matrix that is
 * as much work as parsing.  This program is short-lived, so its JSON
 * values come from an arena: a bump of a pointer each, freeing is nothing,
 * and the whole arena goes at exit.  (Only this program does so; the
 * library and the SPANK plugin keep jansson's own malloc.) */
enum { ARENA_CHUNK = 1 << 20 };

typedef struct chunk {
	struct chunk *prev;
	max_align_t data[];   /* what is handed out, suitably aligned */
} chunk;

static chunk *arena_last;
static char *arena_next, *arena_end;

static void *arena_block(size_t size)
{
	chunk *c = malloc(sizeof(chunk) + size);

	if (!c)
		return NULL;
	c->prev = arena_last;
	arena_last = c;
	return c->data;
}

static void *arena_alloc(size_t size)
{
	size_t align = alignof(max_align_t);

	size = (size + align - 1) / align * align;
	if (size > ARENA_CHUNK / 4)
		return arena_block(size); /* a big array: a block of its own */
	if ((size_t)(arena_end - arena_next) < size) {
		arena_next = arena_block(ARENA_CHUNK);
		arena_end = arena_next ? arena_next + ARENA_CHUNK : NULL;
		if (!arena_next)
			return NULL;
	}
	void *p = arena_next;
	arena_next += size;
	return p;
}

static void arena_free(void *p)
{
	(void)p;
}

static void arena_release(void)
{
	while (arena_last) {
		chunk *prev = arena_last->prev;
		free(arena_last);
		arena_last = prev;
	}
	arena_next = arena_end = NULL;
}

void cli_json_release(void)
{
	arena_release();
}

void cli_json_arena_install(void)
{
	json_set_alloc_funcs(arena_alloc, arena_free);
	atexit(arena_release);
}
