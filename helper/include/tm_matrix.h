/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tm_matrix.h - communication matrices: loading, validation, sparse storage.
 *
 * A matrix of order n holds, for every pair of ranks, the amount they
 * exchange.  Placement only cares about the pair, not the direction, so the
 * stored weight of (i, j) is w_ij + w_ji and the matrix is symmetric.  It is
 * kept in compressed sparse rows (both (i, j) and (j, i) are stored, the
 * diagonal and zeros are not), so that 65,536 ranks with a stencil pattern
 * take a few megabytes.
 *
 * Files (see doc/matrix-format.md):
 *   JSON, version 1: {"size": N, "entries": [[i, j, w], ...]}
 *                 or {"size": N, "matrix": [[w00, w01, ...], ...]}
 *   TreeMatch's .mat: N lines of N numbers separated by blanks.
 */
#ifndef TM_MATRIX_H
#define TM_MATRIX_H

#include <stddef.h>
#include <stdint.h>

#include "tm_error.h"

/* Ranks are int: 2^31 ranks is far beyond any node or job we place. */
typedef struct tm_matrix {
	int n;              /* order: number of ranks */
	int64_t *row_start; /* n + 1 offsets into col[] and weight[] */
	int *col;           /* column of each stored entry, ascending in a row */
	double *weight;     /* w_ij + w_ji, > 0 and finite */
} tm_matrix;

/* Largest order accepted from a file: bounds what a bad "size" can cost. */
enum { TM_MATRIX_MAX_ORDER = 1 << 24 };
/* Above this order (where n x n doubles would pass 128 MiB) a file must
 * hold at least one byte per rank: a 34-byte file cannot say "size":
 * 16776961 and have every reader, srun and each helper subcommand
 * allocate rows for 16 million ranks.  A real matrix of that many ranks
 * lists their pairs, several bytes per rank. */
enum { TM_MATRIX_DENSE_MAX_ORDER = 4096 };
/* Above this order (more ranks than one node places, the bound of a
 * tree: spec's leaves) a file must hold at least
 * TM_MATRIX_LARGE_BYTES_PER_RANK bytes per rank, as many as each rank's
 * row costs: one byte per rank still let 16.8 MB of blanks say 16776961
 * ranks, whose rows cost every reader 400 MB.  A real matrix of that many
 * ranks has them: a pair in "entries" takes at least 20 bytes
 * ("[1048577,1048578,1],"), 10 for each of its two ranks. */
enum { TM_MATRIX_LARGE_ORDER = 1 << 20, TM_MATRIX_LARGE_BYTES_PER_RANK = 8 };
/* Largest sum of all weights a file may have: far above any byte count,
 * and far enough below DBL_MAX that costs (weights times level costs)
 * stay finite. */
#define TM_MATRIX_MAX_TOTAL 1e250

/* Load a matrix file, JSON or .mat (told apart by the first non-blank
 * character: '{' or '[' is JSON).  On failure *out is NULL and err names
 * the file, the place (line:column, or entry / row and column) and what
 * was expected. */
tm_status tm_matrix_load(const char *path, tm_matrix **out, tm_error *err);

/* The same, refusing a file of more than max_bytes (0: no limit) before
 * reading more of it: the plugin's nodes enforce the site's max_size, as
 * srun did, whatever the file became since. */
tm_status tm_matrix_load_limited(const char *path, long long max_bytes,
				 tm_matrix **out, tm_error *err);

/* The same, and when order >= 0 the matrix must have `order` ranks (the
 * job step's task count): a file's "size" is checked against it before
 * anything of that size is allocated (TM_ERR_SIZE, "PATH: the matrix's
 * size is N, but the job step has ORDER tasks").  -1: any size.  What a
 * file costs is bounded by its length: about 16 times it for a dense
 * matrix, and JSON of more than 16 MiB must be of the plain shape
 * (doc/matrix-format.md), which is read without building JSON values. */
tm_status tm_matrix_load_sized(const char *path, long long max_bytes,
			       long order, tm_matrix **out, tm_error *err);

/* Whether tm_matrix_load_limited would accept the file, with the same
 * error, and its "size" in *size, without building the matrix: what it
 * costs is bounded by the file's length alone (its text and entries), not
 * by its "size" (srun and sbatch check a user's file with it; 16 MB of
 * blanks may say 16 million ranks, whose rows took 400 MB). */
tm_status tm_matrix_check_file(const char *path, long long max_bytes,
			       int *size, tm_error *err);

/* Parse from memory; `name` is used in error texts in place of a path. */
tm_status tm_matrix_parse(const char *name, const char *text, size_t len,
			  tm_matrix **out, tm_error *err);

/* Build from `count` directed entries (i[k], j[k], w[k]): weights of the
 * same pair add up, (i, j) and (j, i) are merged, the diagonal and zero
 * weights are dropped.  Entries must already be valid (ranks in 0..n-1,
 * weights finite and >= 0): callers validate with their own error texts. */
tm_status tm_matrix_from_entries(int n, size_t count, const int *i,
				 const int *j, const double *w,
				 tm_matrix **out, tm_error *err);

/* The submatrix of the k ranks listed (in that order): rank ranks[a] of m
 * becomes rank a of the result.  NULL when out of memory. */
tm_matrix *tm_matrix_subset(const tm_matrix *m, const int *ranks, int k);

/* Weight between i and j (0 when absent); O(log degree). */
double tm_matrix_get(const tm_matrix *m, int i, int j);

/* Sum of the weights of all pairs (each pair counted once). */
double tm_matrix_total(const tm_matrix *m);

int64_t tm_matrix_nnz(const tm_matrix *m); /* stored entries (2 per pair) */

void tm_matrix_free(tm_matrix *m);

#endif /* TM_MATRIX_H */
