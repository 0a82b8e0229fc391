/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * request_env.c - where the step's request lives (request.h): srun's own
 * environment, which it hands to the step, and in slurmstepd the job's
 * environment through SPANK.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "request_env.h"

static int process_get(void *ctx, const char *name, char *buf, size_t len,
		       int *cut)
{
	const char *v = getenv(name);

	(void)ctx;
	if (!v)
		return -1;
	*cut = strlen(v) >= len;
	snprintf(buf, len, "%s", v);
	return 0;
}

static void process_set(void *ctx, const char *name, const char *value)
{
	(void)ctx;
	setenv(name, value, 1);
}

static void process_unset(void *ctx, const char *name)
{
	(void)ctx;
	unsetenv(name);
}

request_env request_env_process(void)
{
	return (request_env){ process_get, process_set, process_unset, NULL };
}

static int job_get(void *ctx, const char *name, char *buf, size_t len,
		   int *cut)
{
	spank_err_t rc = spank_getenv(ctx, name, buf, (int)len);

	*cut = rc == ESPANK_NOSPACE;
	if (*cut) {
		buf[0] = '\0';
		return 0;
	}
	return rc == ESPANK_SUCCESS ? 0 : -1;
}

static void job_set(void *ctx, const char *name, const char *value)
{
	spank_setenv(ctx, name, value, 1);
}

static void job_unset(void *ctx, const char *name)
{
	spank_unsetenv(ctx, name);
}

request_env request_env_job(spank_t sp)
{
	return (request_env){ job_get, job_set, job_unset, sp };
}
