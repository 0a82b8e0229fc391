/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_matrix_mat.c - TreeMatch's .mat reader (any size, srun's check),
 * and the choice of reader by first character that every file goes
 * through (tm_matrix_parse). */
#include <config.h>

#include "fuzz.h"
#include "matrix/matrix_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	tm_matrix *m = NULL;
	tm_error err;

	fuzz_check_error(tm__matrix_parse_mat("fuzz.mat", text, size, -1, &m,
					      &err), &err);
	tm_matrix_free(m);
	m = NULL;
	fuzz_check_error(tm__matrix_parse_mat("fuzz.mat", text, size,
					      TM__ORDER_CHECK_ONLY, &m, &err),
			 &err);
	tm_matrix_free(m);
	m = NULL;
	fuzz_check_error(tm_matrix_parse("fuzz", text, size, &m, &err), &err);
	tm_matrix_free(m);
	return 0;
}
