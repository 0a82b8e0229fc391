/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_matrix.c - the matrix reader and the sparse matrix it builds:
 * both JSON forms and .mat give the same matrix, weights are symmetrised
 * and added up, submatrices renumber ranks, and a 65,536-rank stencil
 * loads whole.  Error texts are checked in tests/invalid/; here only the
 * status codes that callers act on.
 */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "tm_matrix.h"

static tm_matrix *parse(const char *name, const char *text)
{
	tm_matrix *m = NULL;
	tm_error err;

	if (tm_matrix_parse(name, text, strlen(text), &m, &err) != TM_OK)
		printf("# %s\n", err.text);
	return m;
}

/* Same order, same rows, same columns, bit-identical weights. */
static int same_csr(const tm_matrix *a, const tm_matrix *b)
{
	if (!a || !b || a->n != b->n)
		return 0;
	if (memcmp(a->row_start, b->row_start,
		   ((size_t)a->n + 1) * sizeof(*a->row_start)) != 0)
		return 0;
	size_t nnz = (size_t)a->row_start[a->n];
	return memcmp(a->col, b->col, nnz * sizeof(*a->col)) == 0 &&
		memcmp(a->weight, b->weight, nnz * sizeof(*a->weight)) == 0;
}

/* What every tm_matrix promises: columns ascending in each row, no
 * diagonal, positive finite weights, and w(i, j) == w(j, i) exactly. */
static int is_well_formed(const tm_matrix *m)
{
	for (int r = 0; r < m->n; r++)
		for (int64_t p = m->row_start[r]; p < m->row_start[r + 1]; p++) {
			if (p > m->row_start[r] && m->col[p - 1] >= m->col[p])
				return 0;
			if (m->col[p] == r || !(m->weight[p] > 0))
				return 0;
			if (tm_matrix_get(m, m->col[p], r) != m->weight[p])
				return 0;
		}
	return 1;
}

/* An asymmetric 4-rank matrix with a diagonal and a zero: the same data
 * in the three notations. */
static const char *const sparse_json =
	"{\"version\": 1, \"size\": 4, \"unit\": \"bytes\",\n"
	" \"entries\": [[0, 1, 100], [1, 0, 300], [1, 2, 50], [2, 2, 9],\n"
	"             [3, 0, 0], [2, 3, 25], [0, 3, 1.5]],\n"
	" \"messages\": [[0, 1, 2], [1, 0, 6]]}\n";
static const char *const dense_json =
	"{\"size\": 4, \"matrix\": [[0, 100, 0, 1.5],\n"
	"                         [300, 0, 50, 0],\n"
	"                         [0, 0, 9, 25],\n"
	"                         [0, 0, 0, 0]]}";
static const char *const dense_mat =
	"\n"
	"0   100 0  1.5\r\n"
	"300 0   50 0\r\n"
	"\t0 0 9 2.5e1\r\n"
	"0 0 0 -0\n"
	"\n  \n";

static void test_three_notations(void)
{
	tm_matrix *sparse = parse("sparse.json", sparse_json);
	tm_matrix *dense = parse("dense.json", dense_json);
	tm_matrix *mat = parse("dense.mat", dense_mat);

	CHECK(sparse && dense && mat, "all three notations load");
	if (!sparse || !dense || !mat)
		goto out;
	CHECK(same_csr(sparse, dense), "\"entries\" and \"matrix\" give the "
	      "same sparse matrix");
	CHECK(same_csr(sparse, mat), ".mat gives the same matrix as JSON");
	CHECK(is_well_formed(sparse), "rows sorted, no diagonal, symmetric");
	CHECK_INT(sparse->n, 4, "order is \"size\"");
	CHECK(tm_matrix_get(sparse, 0, 1) == 400 &&
	      tm_matrix_get(sparse, 1, 0) == 400,
	      "w(0,1) = w01 + w10 = 400, both ways");
	CHECK(tm_matrix_get(sparse, 0, 3) == 1.5, "w(0,3) = 1.5");
	CHECK(tm_matrix_get(sparse, 2, 2) == 0, "the diagonal is dropped");
	CHECK(tm_matrix_get(sparse, 0, 2) == 0, "an absent pair weighs 0");
	CHECK(tm_matrix_get(sparse, 0, 4) == 0 &&
	      tm_matrix_get(sparse, -1, 0) == 0,
	      "a rank outside the matrix weighs 0");
	/* pairs 0-1, 1-2, 2-3, 0-3: the zero 3->0 does not add a pair */
	CHECK_INT(tm_matrix_nnz(sparse), 8, "4 pairs stored both ways");
	CHECK(tm_matrix_total(sparse) == 400 + 50 + 25 + 1.5,
	      "total counts each pair once");
out:
	tm_matrix_free(sparse);
	tm_matrix_free(dense);
	tm_matrix_free(mat);
}

static void test_from_entries(void)
{
	/* (0,1) three times in both directions, weights that do not add up
	 * exactly in floating point: both halves must still be equal. */
	int i[] = { 0, 1, 0, 2, 3, 2 };
	int j[] = { 1, 0, 1, 2, 1, 1 };
	double w[] = { 0.1, 0.2, 0.3, 7, 0, 5 };
	tm_matrix *m = NULL;
	tm_error err;

	CHECK(tm_matrix_from_entries(4, 6, i, j, w, &m, &err) == TM_OK,
	      "tm_matrix_from_entries accepts valid entries");
	if (!m)
		return;
	CHECK(tm_matrix_get(m, 0, 1) == 0.1 + 0.2 + 0.3,
	      "repeated pairs add up in the order given");
	CHECK(tm_matrix_get(m, 0, 1) == tm_matrix_get(m, 1, 0),
	      "both halves of a pair are bit-identical");
	CHECK(tm_matrix_get(m, 1, 2) == 5, "w(1,2) = 5 from (2,1) alone");
	CHECK_INT(tm_matrix_nnz(m), 4, "diagonal (2,2) and zero (3,1) "
		  "dropped: 2 pairs");
	CHECK_INT(m->row_start[4] - m->row_start[3], 0,
		  "rank 3 has no neighbour");
	tm_matrix_free(m);

	i[0] = 4;
	CHECK(tm_matrix_from_entries(4, 6, i, j, w, &m, &err) ==
	      TM_ERR_USAGE && m == NULL,
	      "a rank outside 0..n-1 is refused, not written out of bounds");
	i[0] = 0;
	w[0] = -1;
	CHECK(tm_matrix_from_entries(4, 6, i, j, w, &m, &err) ==
	      TM_ERR_USAGE && m == NULL, "a negative weight is refused");

	CHECK(tm_matrix_from_entries(3, 0, NULL, NULL, NULL, &m, &err) ==
	      TM_OK && m && tm_matrix_nnz(m) == 0 && tm_matrix_total(m) == 0,
	      "no entries: 3 ranks that do not communicate");
	tm_matrix_free(m);
}

static void test_subset(void)
{
	tm_matrix *m = parse("sparse.json", sparse_json);
	const int ranks[] = { 3, 0, 2 };
	tm_matrix *sub = m ? tm_matrix_subset(m, ranks, 3) : NULL;

	CHECK(sub != NULL, "subset of ranks 3, 0, 2");
	if (sub) {
		CHECK_INT(sub->n, 3, "the subset has 3 ranks");
		CHECK(is_well_formed(sub), "subset rows sorted and symmetric");
		CHECK(tm_matrix_get(sub, 0, 1) == 1.5,
		      "new 0-1 is old 3-0 (1.5)");
		CHECK(tm_matrix_get(sub, 0, 2) == 25,
		      "new 0-2 is old 3-2 (25)");
		CHECK(tm_matrix_get(sub, 1, 2) == 0,
		      "new 1-2 is old 0-2 (none)");
		CHECK_INT(tm_matrix_nnz(sub), 4, "pairs to rank 1 (left "
			  "out) are gone");
		CHECK(tm_matrix_total(sub) == 26.5, "subset total 26.5");
	}
	tm_matrix_free(sub);

	const int twice[] = { 1, 1 }, outside[] = { 0, 4 };
	CHECK(m && !tm_matrix_subset(m, twice, 2) &&
	      !tm_matrix_subset(m, outside, 2),
	      "a rank listed twice or out of range gives no subset");
	tm_matrix_free(m);
}

static void expect_status(const char *name, const char *text,
			  tm_status want, const char *what)
{
	static tm_matrix stale;
	tm_matrix *m = &stale; /* a failed parse must set it to NULL */
	tm_error err = { .text = "" };
	tm_status got = tm_matrix_parse(name, text, strlen(text), &m, &err);

	CHECK(got == want && m == NULL && strncmp(err.text, name,
						   strlen(name)) == 0,
	      "%s: %s, error names the file", what, tm_strerror(want));
	if (got != want)
		printf("#   got %s: %s\n", tm_strerror(got), err.text);
}

static void test_statuses(void)
{
	expect_status("a.json", "{\"size\": 2,}", TM_ERR_SYNTAX,
		      "JSON syntax");
	expect_status("a.json", "  \n\t ", TM_ERR_FORMAT, "blank file");
	expect_status("a.json", "{\"size\": 2}", TM_ERR_FORMAT,
		      "no data");
	expect_status("a.json", "{\"size\": 2, \"entries\": [[0, 2, 1]]}",
		      TM_ERR_RANGE, "rank out of range");
	expect_status("a.json", "{\"size\": 2, \"entries\": [[0, 1, -1]]}",
		      TM_ERR_VALUE, "negative weight");
	expect_status("a.json", "{\"size\": 2, \"entries\": [[0, 1, \"1\"]]}",
		      TM_ERR_FORMAT, "weight that is a string");
	expect_status("a.mat", "0 1\n1 x\n", TM_ERR_SYNTAX, ".mat word");
	expect_status("a.mat", "0 1\n1 -1\n", TM_ERR_VALUE,
		      ".mat negative weight");
	expect_status("a.mat", "0 1\n1 1e400\n", TM_ERR_VALUE,
		      ".mat weight beyond a double");
	expect_status("a.mat", "0 1\n1\n", TM_ERR_FORMAT, ".mat short row");

	tm_matrix *m = NULL;
	tm_error err;
	CHECK(tm_matrix_load("/nonexistent/m.json", &m, &err) == TM_ERR_IO &&
	      strcmp(err.text, "/nonexistent/m.json: cannot open: No such "
		     "file or directory") == 0, "a missing file is an I/O "
	      "error with strerror's text");

	/* A row of more than TM_MATRIX_MAX_ORDER numbers is refused before
	 * anything is stored. */
	size_t len = 2 * ((size_t)TM_MATRIX_MAX_ORDER + 1);
	char *huge = malloc(len + 1);
	if (huge) {
		for (size_t p = 0; p < len; p += 2)
			memcpy(huge + p, "0 ", 2);
		huge[len] = '\0';
		expect_status("wide.mat", huge, TM_ERR_FORMAT,
			      ".mat row of 16777217 numbers");
		free(huge);
	}

	/* Only `len` bytes are read: what follows is not part of the file. */
	const char mat[] = "0 1\n1 0\n", mat_more[] = "0 1\n1 0\nnot read";
	CHECK(tm_matrix_parse("cut.mat", mat_more, strlen(mat), &m, &err) ==
	      TM_OK && tm_matrix_nnz(m) == 2, ".mat: parse stops at len");
	tm_matrix_free(m);
	const char json[] = "{\"size\": 1, \"entries\": []}",
		json_more[] = "{\"size\": 1, \"entries\": []} not read";
	CHECK(tm_matrix_parse("cut.json", json_more, strlen(json), &m, &err) ==
	      TM_OK && m && m->n == 1, "JSON: parse stops at len");
	tm_matrix_free(m);

	/* Tiny weights are fine: underflow is not an error. */
	m = parse("tiny.mat", "0 1e-400\n0 0\n");
	CHECK(m && tm_matrix_nnz(m) == 0, ".mat 1e-400 reads as 0");
	tm_matrix_free(m);
}

/*
 * A 64 x 32 x 32 periodic grid, one rank per point, each sending to its
 * 6 neighbours: 1000 along x, 2000 along y, 4000 along z.  Every pair is
 * listed from both ends, so it weighs twice its direction's amount.
 */
enum { NX = 64, NY = 32, NZ = 32, NRANKS = NX * NY * NZ };

static int grid_rank(int x, int y, int z)
{
	return ((z + NZ) % NZ * NY + (y + NY) % NY) * NX + (x + NX) % NX;
}

static int write_stencil(FILE *f)
{
	const int step[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
	const int amount[3] = { 1000, 2000, 4000 };
	const char *separator = "";

	fprintf(f, "{\"version\": 1, \"size\": %d, \"unit\": \"bytes\",\n"
		" \"entries\": [", NRANKS);
	for (int z = 0; z < NZ; z++)
		for (int y = 0; y < NY; y++)
			for (int x = 0; x < NX; x++)
				for (int d = 0; d < 3; d++)
					for (int s = -1; s <= 1; s += 2) {
						fprintf(f, "%s[%d, %d, %d]",
							separator,
							grid_rank(x, y, z),
							grid_rank(x + s * step[d][0],
								  y + s * step[d][1],
								  z + s * step[d][2]),
							amount[d]);
						separator = ",\n";
					}
	fprintf(f, "]}\n");
	return fflush(f) == 0 && !ferror(f);
}

static void test_stencil(void)
{
	const char *tmpdir = getenv("TMPDIR");
	char path[4096];
	struct timespec start, end;
	tm_matrix *m = NULL;
	tm_error err;
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "%s/test_matrix.XXXXXX",
		 tmpdir && *tmpdir ? tmpdir : "/tmp");
	fd = mkstemp(path);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	CHECK(f && write_stencil(f), "stencil written to %s", path);
	if (f)
		fclose(f);

	clock_gettime(CLOCK_MONOTONIC, &start);
	tm_status status = tm_matrix_load(path, &m, &err);
	clock_gettime(CLOCK_MONOTONIC, &end);
	unlink(path);
	CHECK(status == TM_OK, "65,536-rank 3D stencil loads");
	if (status != TM_OK) {
		printf("#   %s\n", err.text);
		return;
	}
	struct rusage usage;
	getrusage(RUSAGE_SELF, &usage);
	printf("# %d ranks, %d entries: loaded in %.3f s, peak RSS %ld MB\n",
	       NRANKS, 6 * NRANKS,
	       (double)(end.tv_sec - start.tv_sec) +
	       (double)(end.tv_nsec - start.tv_nsec) * 1e-9,
	       usage.ru_maxrss / 1024);

	CHECK_INT(m->n, NRANKS, "order 65,536");
	CHECK_INT(tm_matrix_nnz(m), 6 * (int64_t)NRANKS,
		  "6 neighbours per rank");
	CHECK(tm_matrix_total(m) == (double)NRANKS * 2 * (1000 + 2000 + 4000),
	      "total = ranks x 2 x (1000 + 2000 + 4000)");
	CHECK(tm_matrix_get(m, grid_rank(5, 6, 7), grid_rank(5, 6, 8)) == 8000,
	      "z neighbours weigh 2 x 4000");
	CHECK(tm_matrix_get(m, grid_rank(0, 0, 0), grid_rank(NX - 1, 0, 0)) ==
	      2000, "x wraps around: 2 x 1000");
	CHECK(tm_matrix_get(m, grid_rank(0, 0, 0), grid_rank(1, 1, 0)) == 0,
	      "diagonal neighbours do not communicate");
	CHECK(is_well_formed(m), "stencil rows sorted and symmetric");

	/* One node's share: the first 8 ranks of a row along x. */
	int ranks[8];
	for (int k = 0; k < 8; k++)
		ranks[k] = grid_rank(7 - k, 3, 3);
	tm_matrix *node = tm_matrix_subset(m, ranks, 8);
	CHECK(node && tm_matrix_nnz(node) == 14 &&
	      tm_matrix_total(node) == 7 * 2000,
	      "8 ranks in a line keep their 7 links");
	tm_matrix_free(node);
	tm_matrix_free(m);
}

int main(void)
{
	test_three_notations();
	test_from_entries();
	test_subset();
	test_statuses();
	test_stencil();
	return check_status();
}
