/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * commprof_matrix.c - commprof-matrix, what the commprof command needs to
 * know about matrix files (it runs no MPI):
 *
 *   commprof-matrix info FILE          prints "SIZE PAIRS TOTAL": ranks,
 *                                      pairs that exchanged, the sum of
 *                                      all pairs' weights
 *   commprof-matrix merge OUT FILE...  writes OUT, the sum of the FILEs
 *                                      (all of one size)
 *
 * The files are read with the helper's reader, so that any matrix srun
 * accepts can be merged.  The sum is written as one [i, j, w] entry per
 * pair with i < j holding w_ij + w_ji of every file: placement adds the
 * two directions anyway (doc/matrix-format.md).  OUT is written under a
 * temporary name nobody can guess and renamed when complete (tmpfile.h).
 * Exit 0, or 1 with one line on stderr naming the file and what was
 * expected.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tm_matrix.h"
#include "tmpfile.h"

#define PROGRAM "commprof"

static int load(const char *path, tm_matrix **m)
{
	tm_error err = { 0 };

	if (tm_matrix_load(path, m, &err) != TM_OK) {
		fprintf(stderr, PROGRAM ": %s\n", err.text);
		return -1;
	}
	return 0;
}

static int info(const char *path)
{
	tm_matrix *m;

	if (load(path, &m) < 0)
		return 1;
	printf("%d %lld %.15g\n", m->n, (long long)(tm_matrix_nnz(m) / 2),
	       tm_matrix_total(m));
	tm_matrix_free(m);
	return 0;
}

/* The pairs of every file, one entry per pair and file (i < j). */
struct pairs {
	size_t count, cap;
	int *i, *j;
	double *w;
};

static int add(struct pairs *p, const tm_matrix *m)
{
	for (int i = 0; i < m->n; i++)
		for (int64_t k = m->row_start[i]; k < m->row_start[i + 1]; k++) {
			if (m->col[k] <= i)
				continue;
			if (p->count == p->cap) {
				size_t cap = p->cap ? 2 * p->cap : 1024;
				int *ni = realloc(p->i, cap * sizeof *ni);
				if (ni)
					p->i = ni;
				int *nj = realloc(p->j, cap * sizeof *nj);
				if (nj)
					p->j = nj;
				double *nw = realloc(p->w, cap * sizeof *nw);
				if (nw)
					p->w = nw;
				if (!ni || !nj || !nw)
					return -1;
				p->cap = cap;
			}
			p->i[p->count] = i;
			p->j[p->count] = m->col[k];
			p->w[p->count] = m->weight[k];
			p->count++;
		}
	return 0;
}

/* Written as output.c writes the profiler's matrix (tmpfile.h): OUT is
 * often in a directory shared with others. */
static int write_sum(const char *out, const tm_matrix *sum, int files)
{
	char *tmp;
	FILE *f = commprof_tmpfile_create(out, &tmp);
	int first = 1, error;

	if (!f) {
		fprintf(stderr, PROGRAM ": cannot write %s: %s\n", out,
			strerror(errno));
		return 1;
	}
	fprintf(f, "{\"version\": 1, \"size\": %d, \"merged\": %d,\n"
		" \"entries\": [", sum->n, files);
	for (int i = 0; i < sum->n; i++)
		for (int64_t k = sum->row_start[i]; k < sum->row_start[i + 1]; k++)
			if (sum->col[k] > i) {
				fprintf(f, "%s\n  [%d, %d, %.17g]",
					first ? "" : ",", i, sum->col[k],
					sum->weight[k]);
				first = 0;
			}
	fputs(first ? "]}\n" : "\n ]}\n", f);
	error = commprof_tmpfile_finish(f, out);
	if (!error && rename(tmp, out) != 0)
		error = errno;
	if (error) {
		fprintf(stderr, PROGRAM ": cannot write %s: %s\n", out,
			strerror(error));
		unlink(tmp);
	}
	free(tmp);
	return error ? 1 : 0;
}

static int merge(const char *out, int nfiles, char **files)
{
	struct pairs p = { 0 };
	tm_matrix *m, *sum = NULL;
	tm_error err = { 0 };
	int n = 0, rc = 1;

	for (int f = 0; f < nfiles; f++) {
		if (load(files[f], &m) < 0)
			goto out;
		if (f == 0) {
			n = m->n;
		} else if (m->n != n) {
			fprintf(stderr, PROGRAM ": %s: \"size\" is %d, but %s's "
				"is %d: merge adds matrices of one size (runs "
				"of the same task count)\n",
				files[f], m->n, files[0], n);
			tm_matrix_free(m);
			goto out;
		}
		int failed = add(&p, m);
		tm_matrix_free(m);
		if (failed) {
			fprintf(stderr, PROGRAM ": %s: no memory for its pairs\n",
				files[f]);
			goto out;
		}
	}
	if (tm_matrix_from_entries(n, p.count, p.i, p.j, p.w, &sum, &err)) {
		fprintf(stderr, PROGRAM ": %s: %s\n", out, err.text);
		goto out;
	}
	rc = write_sum(out, sum, nfiles);
out:
	tm_matrix_free(sum);
	free(p.i);
	free(p.j);
	free(p.w);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "info") == 0)
		return info(argv[2]);
	if (argc >= 4 && strcmp(argv[1], "merge") == 0)
		return merge(argv[2], argc - 3, argv + 3);
	fprintf(stderr, "usage: commprof-matrix info FILE | "
		"commprof-matrix merge OUT FILE...\n");
	return 2;
}
