/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_matrix_jansson.c - the JSON matrix reader that takes every file
 * (jansson): with any size, with the step's task count, and as srun's
 * check (no rows built). */
#include <config.h>

#include "fuzz.h"
#include "matrix/matrix_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const long orders[] = { -1, 4, TM__ORDER_CHECK_ONLY };
	tm_error err;

	for (size_t k = 0; k < sizeof(orders) / sizeof(orders[0]); k++) {
		tm_matrix *m = NULL;
		tm_status st = tm__matrix_parse_json_jansson(
			"fuzz.json", (const char *)data, size, orders[k], &m,
			&err);

		fuzz_check_error(st, &err);
		if (m && orders[k] != TM__ORDER_CHECK_ONLY)
			tm_matrix_total(m);
		tm_matrix_free(m);
	}
	return 0;
}
