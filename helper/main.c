/*
 * main.c - treematch-helper: compute where the ranks of a job should run.
 *
 *   treematch-helper map --matrix FILE --topology TOPO [options]
 *
 * The SPANK plugin runs it once per node, as the job's user, with the
 * node's ranks; people run it to see a placement and what it saves.
 */
#include <config.h>

#include <stdalign.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"

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

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: " CLI_PROGRAM " map --matrix FILE --topology TOPO [options]\n"
		"       " CLI_PROGRAM " --help | --version\n"
		"\n"
		"Place the ranks of an MPI job on the cores of a node so that ranks that\n"
		"exchange the most share the most caches (TreeMatch), and show what the\n"
		"placement costs against packed and round-robin placements.\n"
		"\n");
	cli_map_usage(out);
	fprintf(out, "\nSee treematch-helper(1) for the file formats and the cost model.\n");
}

int main(int argc, char **argv)
{
	json_set_alloc_funcs(arena_alloc, arena_free);
	atexit(arena_release);
	if (argc < 2) {
		fprintf(stderr, CLI_PROGRAM ": expected a command: map "
			"(try " CLI_PROGRAM " --help)\n");
		return CLI_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return CLI_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf(CLI_PROGRAM " (" PACKAGE_NAME ") " PACKAGE_VERSION "\n");
		return CLI_OK;
	}
	if (strcmp(argv[1], "map") == 0)
		return cli_map(argc - 1, argv + 1);
	fprintf(stderr, CLI_PROGRAM ": unknown command '%s': expected map "
		"(try " CLI_PROGRAM " --help)\n", argv[1]);
	return CLI_USAGE;
}
