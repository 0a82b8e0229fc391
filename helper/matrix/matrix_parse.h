/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * matrix_parse.h - what the matrix readers share (internal to the library).
 *
 * matrix_load.c reads a file and picks the reader; matrix_json.c and
 * matrix_mat.c turn text into a list of directed entries, which matrix.c
 * turns into the symmetric sparse tm_matrix.  The rules and every error
 * text are described for users in doc/matrix-format.md.
 */
#ifndef TM_MATRIX_PARSE_H
#define TM_MATRIX_PARSE_H

#include <math.h>
#include <stddef.h>

#include <jansson.h>

#include "tm_matrix.h"

/* Longest offending value quoted in an error ("got ..."): enough to
 * recognise it, short enough that the whole error stays one line. */
enum { TM_BRIEF_MAX = 40 };

/* A JSON value as it would be written, cut to TM_BRIEF_MAX characters
 * ("..." at the end when cut): one line, ASCII only, so that no character
 * is cut in half.  Every JSON file reader quotes bad values with it. */
typedef struct tm_brief {
	char text[TM_BRIEF_MAX + 1];
	size_t used;
	int cut;
} tm_brief;

/* Fills `b` and returns its text, for "got %s" (matrix_json.c). */
const char *tm__json_brief(const json_t *value, tm_brief *b);

/* Directed entries (i, j, w) as the file gives them, in file order, so
 * that weights of one pair always add up in the same order. */
typedef struct tm_entry_list {
	size_t count;
	size_t capacity;
	int *i;
	int *j;
	double *w;
} tm_entry_list;

/* Make room for `capacity` entries in all; 0, or -1 when out of memory. */
int tm__entry_list_reserve(tm_entry_list *list, size_t capacity);

/* Append one entry, growing the list as needed; 0, or -1 when out of
 * memory. */
int tm__entry_list_push(tm_entry_list *list, int i, int j, double w);

void tm__entry_list_free(tm_entry_list *list);

/* tm_matrix_from_entries on a list read from file `name`, of `len`
 * bytes; its errors (a pair whose weights add up to infinity) are
 * prefixed with the name.  The list is freed on the way
 * (tm__entry_list_free), as soon as the matrix no longer needs it: it may
 * be freed again.
 * order >= 0: the matrix must have that many ranks, checked before
 * anything of the file's size n is allocated (TM_ERR_SIZE); and above
 * TM_MATRIX_DENSE_MAX_ORDER ranks the file must hold at least one byte
 * per rank, above TM_MATRIX_LARGE_ORDER ranks
 * TM_MATRIX_LARGE_BYTES_PER_RANK (TM_ERR_SIZE), so that what the matrix
 * costs is bounded by the file's length. */
tm_status tm__matrix_from_list(const char *name, int n, long order,
			      size_t len, tm_entry_list *list,
			      tm_matrix **out, tm_error *err);

/* An order for tm__matrix_from_list and the readers: any size, every
 * check made as for -1, but no row is built: *out holds n alone (its
 * arrays NULL), for tm_matrix_check_file, whose cost is then bounded by
 * the file's length whatever its "size". */
enum { TM__ORDER_CHECK_ONLY = -2 };

/* What every weight in a file must be.  NaN fails `w >= 0`; -0 passes
 * and is then dropped with the zeros. */
static inline int tm__weight_is_valid(double w)
{
	return w >= 0 && isfinite(w);
}

/* True for the bytes that separate numbers and make a line blank. */
static inline int tm__is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The readers proper: `text` holds `len` bytes, not necessarily followed
 * by a NUL; `name` names the file in error texts; order as for
 * tm__matrix_from_list (-1: any size). */
tm_status tm__matrix_parse_json(const char *name, const char *text,
			       size_t len, long order, tm_matrix **out,
			       tm_error *err);
tm_status tm__matrix_parse_mat(const char *name, const char *text,
			      size_t len, long order, tm_matrix **out,
			      tm_error *err);

/* Above this many bytes a JSON file must be of the plain shape the fast
 * reader takes: jansson's values cost about 50 times the text (a dense
 * matrix of one-digit weights), the fast reader's about 16. */
#define TM_MATRIX_JANSSON_MAX (16LL << 20)

/* The JSON files programs write, read without building jansson values
 * (matrix_json_fast.c).  Returns 1 when it read the file (*status and
 * *out then as tm__matrix_parse_json gives them), 0 when it declined: the
 * file is not of the plain shape it knows, or is not valid, and the
 * jansson reader must decide. */
int tm__matrix_parse_json_fast(const char *name, const char *text,
			      size_t len, long order, tm_matrix **out,
			      tm_status *status, tm_error *err);
/* The reader of every JSON file and every error (jansson): what
 * tm__matrix_parse_json falls back to, and what the tests compare the fast
 * reader with. */
tm_status tm__matrix_parse_json_jansson(const char *name, const char *text,
				       size_t len, long order, tm_matrix **out,
				       tm_error *err);

#endif /* TM_MATRIX_PARSE_H */
