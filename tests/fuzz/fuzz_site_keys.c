/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_site_keys.c - the site's keys, the arguments after the plugin's
 * path in plugstack.conf (config.c), one a line. */
#include <config.h>

#include "fuzz.h"
#include "tm_spank.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum { MAX_ARGS = 64 };
	char *store = fuzz_string(data, size);
	char *av[MAX_ARGS];
	site_config cfg;

	if (!store)
		return 0;
	int ac = fuzz_lines(store, av, MAX_ARGS);
	config_parse(&cfg, ac, av);
	if (!memchr(cfg.error, '\0', sizeof(cfg.error)) ||
	    strchr(cfg.error, '\n'))
		abort(); /* the error is one line */
	free(store);
	return 0;
}
