/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_matrix_fast.c - the fast JSON matrix reader (the plain shape that
 * programs write, read without jansson's values), and whenever it reads a
 * file, the check that jansson's reader agrees that it is valid: a file
 * the fast reader takes and jansson refuses would be read differently by
 * small and large files. */
#include <config.h>

#include <stdio.h>

#include "fuzz.h"
#include "matrix/matrix_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	tm_matrix *fast = NULL, *slow = NULL;
	tm_status st = TM_OK, slow_st;
	tm_error err;

	if (!tm__matrix_parse_json_fast("fuzz.json", text, size, -1, &fast,
					&st, &err))
		return 0;
	slow_st = tm__matrix_parse_json_jansson("fuzz.json", text, size, -1,
						&slow, &err);
	if ((st == TM_OK) != (slow_st == TM_OK) ||
	    (fast && slow && (fast->n != slow->n ||
			      tm_matrix_nnz(fast) != tm_matrix_nnz(slow)))) {
		fprintf(stderr, "fast reader: %d, jansson: %d (%s)\n", (int)st,
			(int)slow_st, err.text);
		abort();
	}
	tm_matrix_free(fast);
	tm_matrix_free(slow);
	/* The check-only pass (srun's) on the same text. */
	fast = NULL;
	if (tm__matrix_parse_json_fast("fuzz.json", text, size,
				       TM__ORDER_CHECK_ONLY, &fast, &st, &err))
		tm_matrix_free(fast);
	return 0;
}
