/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_placement.c - the placement JSON the helper writes and the plugin
 * (and --previous) reads back: with the step's size known and not. */
#include <config.h>

#include "fuzz.h"
#include "tm_placement.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int sizes[] = { 0, 8 };

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		tm_placement_file *p = NULL;
		tm_error err;
		tm_status st = tm_placement_parse("fuzz.json",
						  (const char *)data, size,
						  sizes[k], 1024, &p, &err);

		fuzz_check_error(st, &err);
		if (st != TM_OK)
			continue;
		if (p->nentries < 0 || p->nentries > 1024 || p->ncpus < 0 ||
		    p->ncosts < 0 || p->ncosts > TM_PLACEMENT_MAX_COSTS)
			abort();
		for (int c = 1; c < p->ncpus; c++)
			if (p->cpus[c] <= p->cpus[c - 1])
				abort(); /* ascending and distinct */
		tm_placement_free(p);
	}
	return 0;
}
