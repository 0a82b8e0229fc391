/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json_arena.h - jansson's values from an arena, for the short-lived
 * treematch-helper only (json_arena.c says why); the library and the
 * SPANK plugin keep jansson's own malloc.
 */
#ifndef TM_CLI_JSON_ARENA_H
#define TM_CLI_JSON_ARENA_H

/* Make every later JSON value come from the arena, freed at exit. */
void cli_json_arena_install(void);

/* Free every JSON value made so far at once: call it only when none is
 * still in use, as after the matrix file is read. */
void cli_json_release(void);

#endif /* TM_CLI_JSON_ARENA_H */
