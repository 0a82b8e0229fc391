/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_request.c - the step request srun hands the nodes through the
 * job's environment (request.c), read as slurmstepd reads it: the input
 * is NAME=VALUE lines.  A request that reads must write and read back the
 * same. */
#include <config.h>

#include "fuzz.h"
#include "request.h"

enum { MAX_VARS = 32 };

typedef struct fake_env {
	int n;
	char *name[MAX_VARS];
	char *value[MAX_VARS];
} fake_env;

static int find(const fake_env *e, const char *name)
{
	for (int k = e->n - 1; k >= 0; k--) /* the last one set wins */
		if (e->name[k] && !strcmp(e->name[k], name))
			return k;
	return -1;
}

static int env_get(void *ctx, const char *name, char *buf, size_t len,
		   int *cut)
{
	int k = find(ctx, name);

	if (k < 0)
		return -1;
	const char *v = ((fake_env *)ctx)->value[k];
	size_t vlen = strlen(v);
	*cut = vlen >= len;
	if (*cut)
		vlen = len - 1;
	memcpy(buf, v, vlen);
	buf[vlen] = '\0';
	return 0;
}

/* Names and values of a written request point into the request read:
 * both outlive the fake environment. */
static void env_set(void *ctx, const char *name, const char *value)
{
	fake_env *e = ctx;

	if (e->n < MAX_VARS) {
		e->name[e->n] = (char *)name;
		e->value[e->n++] = (char *)value;
	}
}

static void env_unset(void *ctx, const char *name)
{
	int k;

	while ((k = find(ctx, name)) >= 0)
		((fake_env *)ctx)->name[k] = NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *store = fuzz_string(data, size);
	char *line[MAX_VARS];
	static fake_env in, out;
	static step_request got, again;
	request_error err;

	if (!store)
		return 0;
	memset(&in, 0, sizeof(in));
	memset(&got, 0, sizeof(got));
	int n = fuzz_lines(store, line, MAX_VARS);
	for (int k = 0; k < n; k++) {
		char *eq = strchr(line[k], '=');
		if (eq) {
			*eq = '\0';
			env_set(&in, line[k], eq + 1);
		}
	}
	if (request_read(&got, &(request_env){ env_get, env_set, env_unset,
						&in }, &err) == 0) {
		request_env oenv = { env_get, env_set, env_unset, &out };

		memset(&out, 0, sizeof(out));
		request_write(&got, &oenv);
		memset(&again, 0, sizeof(again));
		if (request_read(&again, &oenv, &err) != 0)
			abort(); /* what was read writes back readable */
#define SAME_FIELD(field, var, kind, fsize, tasks, what) \
		if (strcmp(got.field, again.field)) \
			abort(); /* ... and the same */
		STEP_REQUEST_FIELDS(SAME_FIELD)
#undef SAME_FIELD
	} else if (!memchr(err.text, '\0', sizeof(err.text)) ||
		   strchr(err.text, '\n')) {
		abort();
	}
	request_clear(&(request_env){ env_get, env_set, env_unset, &in }, 0);
	free(store);
	return 0;
}
