/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_tasks.c - task counts: SLURM_TASKS_PER_NODE ("2(x3),1" or "2,2,1"),
 * as the job-wide helper reads them. */
#include <config.h>

#include "fuzz.h"
#include "tm_job.h"
#include "tm_matrix.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);
	int *counts = NULL, n = 0;
	tm_error err;

	if (!text)
		return 0;
	tm_status st = tm_tasks_per_node_parse("fuzz", text, 4096, &counts,
					       &n, &err);
	fuzz_check_error(st, &err);
	if (st == TM_OK) {
		long long sum = 0;

		if (n < 1 || n > 4096)
			abort();
		for (int k = 0; k < n; k++) {
			if (counts[k] < 1)
				abort();
			sum += counts[k];
		}
		if (sum > TM_MATRIX_MAX_ORDER)
			abort();
		free(counts);
	}
	free(text);
	return 0;
}
