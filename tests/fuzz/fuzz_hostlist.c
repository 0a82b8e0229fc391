/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_hostlist.c - Slurm's host lists ("n[1-4,7],gpu[01-02]") as
 * SLURM_JOB_NODELIST and a topology file's Nodes= give them. */
#include <config.h>

#include "fuzz.h"
#include "tm_job.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);
	char **names = NULL;
	int count = 0;
	tm_error err;

	if (!text)
		return 0;
	tm_status st = tm_hostlist_expand("fuzz", text, 4096, &names, &count,
					  &err);
	fuzz_check_error(st, &err);
	if (st == TM_OK) {
		if (count < 0 || count > 4096)
			abort();
		for (int k = 0; k < count; k++)
			if (!names[k] || !names[k][0])
				abort(); /* every name is a name */
		tm_hostlist_free(names, count);
	}
	free(text);
	return 0;
}
