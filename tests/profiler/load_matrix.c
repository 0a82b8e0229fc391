/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * load_matrix - loads a matrix written by libcommprof with the project's
 * own reader (tm_matrix_load: what srun --comm-matrix and
 * treematch-helper use), and checks that the reader sees the expected
 * weights.
 *
 *   load_matrix FILE EXPECTED
 *
 * EXPECTED is the matrix as printed by `expect` (read here with jansson,
 * not with the reader under test).  The reader ignores "messages" and
 * stores w_ij + w_ji for each pair, so that is what is checked: the size,
 * and the weight of every pair.
 */
#include <jansson.h>
#include <stdlib.h>

#include "tm_matrix.h"
#include "../unit/check.h"

/* Dense bytes from i to j of the "entries" of a file in the profiler's
 * format; NULL if it has none. */
static double *expected_bytes(const char *path, int *size)
{
	json_error_t error;
	json_t *root = json_load_file(path, 0, &error), *entry;
	double *w = NULL;
	size_t k;
	int n, i, j;

	if (!root)
		return NULL;
	n = (int)json_integer_value(json_object_get(root, "size"));
	if (n > 0)
		w = calloc((size_t)n * (size_t)n, sizeof *w);
	json_array_foreach(json_object_get(root, "entries"), k, entry) {
		i = (int)json_integer_value(json_array_get(entry, 0));
		j = (int)json_integer_value(json_array_get(entry, 1));
		if (!w || i < 0 || j < 0 || i >= n || j >= n)
			continue;
		w[i * n + j] += (double)json_integer_value(
			json_array_get(entry, 2));
	}
	json_decref(root);
	*size = n;
	return w;
}

int main(int argc, char **argv)
{
	tm_matrix *m = NULL;
	tm_error err;
	double *sent, want;
	int n = 0, i, j, wrong = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: load_matrix FILE EXPECTED\n");
		return 2;
	}
	sent = expected_bytes(argv[2], &n);
	if (!sent) {
		fprintf(stderr, "load_matrix: %s: no usable expected matrix\n",
			argv[2]);
		return 2;
	}

	CHECK(tm_matrix_load(argv[1], &m, &err) == TM_OK,
	      "the project's reader loads %s", argv[1]);
	if (!m) {
		printf("#   %s\n", err.text);
		free(sent);
		return check_status();
	}
	CHECK_INT(m->n, n, "the reader sees %d ranks", n);
	if (m->n == n) {
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++) {
				want = sent[i * n + j] + sent[j * n + i];
				if (tm_matrix_get(m, i, j) == want)
					continue;
				printf("#   pair (%d, %d): reader %.0f, expected "
				       "%.0f\n", i, j, tm_matrix_get(m, i, j),
				       want);
				wrong++;
			}
		CHECK(wrong == 0, "the reader sees the expected weight for "
		      "every pair");
	}
	tm_matrix_free(m);
	free(sent);
	return check_status();
}
