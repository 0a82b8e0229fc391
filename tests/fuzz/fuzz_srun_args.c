/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_srun_args.c - the scan of srun's own command line (srun_args.c):
 * one argument a line, with the plugin's options as options.c registers
 * them.  What it finds points into argv. */
#include <config.h>

#include "fuzz.h"
#include "srun_args.h"

static const struct spank_option own[] = {
	{ "comm-matrix", "FILE", "", 1, 0, NULL },
	{ "comm-matrix-report", NULL, "", 0, 0, NULL },
	{ "comm-matrix-topology", "TOPO", "", 1, 0, NULL },
	{ "comm-matrix-algorithm", "NAME", "", 1, 0, NULL },
	{ "comm-matrix-keep-layout", NULL, "", 0, 0, NULL },
	{ "comm-matrix-svg", NULL, "", 0, 0, NULL },
	{ "comm-matrix-online", "SPEC", "", 1, 0, NULL },
	SPANK_OPTIONS_TABLE_END
};

/* p is NULL or a string inside [store, end). */
static void check_inside(const char *p, const char *store, const char *end)
{
	if (p && (p < store || p >= end))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum { MAX_ARGS = 256 };
	char *store = fuzz_string(data, size);
	char *argv[MAX_ARGS + 2];
	srun_args a;

	if (!store)
		return 0;
	argv[0] = "srun";
	int argc = 1 + fuzz_lines(store, argv + 1, MAX_ARGS);
	argv[argc] = NULL;
	if (srun_args_scan(argc, argv, own, &a) == 0) {
		const char *end = store + size + 1;
		const char *found[] = { a.ntasks, a.nodes, a.cpus_per_task,
					a.tasks_per_node, a.nodelist,
					a.nodefile, a.exclude, a.distribution,
					a.relative, a.het_group };

		for (size_t k = 0; k < sizeof(found) / sizeof(found[0]); k++)
			check_inside(found[k], store, end);
	} else if (!memchr(a.unknown, '\0', sizeof(a.unknown))) {
		abort(); /* the unknown option's name is a string */
	}
	free(store);
	return 0;
}
