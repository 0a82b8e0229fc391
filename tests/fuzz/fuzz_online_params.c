/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_online_params.c - online parameters ("interval=2,policy=...") as
 * --comm-matrix-online, the site key and TREEMATCH_ONLINE_PARAMS give
 * them; what parses must format to text that parses back to the same. */
#include <config.h>

#include <stdio.h>

#include "fuzz.h"
#include "tm_online.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = fuzz_string(data, size);
	tm_online_params p, again;
	char text[2 * TM_ONLINE_SAVE_MAX + 256], text2[sizeof(text)];
	tm_error err;

	if (!spec)
		return 0;
	tm_online_params_default(&p);
	tm_status st = tm_online_params_parse(spec, "fuzz", &p, &err);
	fuzz_check_error(st, &err);
	if (st == TM_OK) {
		int len = tm_online_params_format(&p, text, sizeof(text));

		if (len < 0 || (size_t)len >= sizeof(text))
			abort(); /* the buffer is sized for any parameters */
		tm_online_params_default(&again);
		if (tm_online_params_parse(text, "fuzz", &again, &err) != TM_OK) {
			fprintf(stderr, "'%s' does not parse back: %s\n", text,
				err.text);
			abort();
		}
		tm_online_params_format(&again, text2, sizeof(text2));
		if (strcmp(text, text2))
			abort();
		tm_online_next_interval(&p, p.first, true);
		tm_online_next_interval(&p, p.first, false);
	}
	free(spec);
	return 0;
}
