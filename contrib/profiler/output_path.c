/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * output_path.c - where the matrix goes: COMMPROF_OUTPUT with its
 * %-sequences expanded, or the default name (see doc/profiler.md).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commprof.h"

/* A Slurm variable, under its current name or its older one. */
static const char *slurm_env(const char *name, const char *old_name,
			     const char *outside_slurm)
{
	const char *value = getenv(name);

	if (!value || !*value)
		value = getenv(old_name);
	return value && *value ? value : outside_slurm;
}

static void put_hostname(FILE *out)
{
	char host[256];

	if (gethostname(host, sizeof host) != 0)
		fputs("unknown", out);
	else {
		host[sizeof host - 1] = '\0';
		fputs(host, out);
	}
}

/* Copy `pattern` to `out`, replacing each known %-sequence; an unknown
 * one is copied as it is, so a stray '%' in a name still works. */
static void expand(FILE *out, const char *pattern, int world_size)
{
	const char *p;

	for (p = pattern; *p; p++) {
		if (*p != '%' || !p[1]) {
			fputc(*p, out);
			continue;
		}
		switch (*++p) {
		case 'j':
			fputs(slurm_env("SLURM_JOB_ID", "SLURM_JOBID",
					"nojob"), out);
			break;
		case 's':
			fputs(slurm_env("SLURM_STEP_ID", "SLURM_STEPID",
					"nostep"), out);
			break;
		case 'p':
			fprintf(out, "%ld", (long)getpid());
			break;
		case 'h':
			put_hostname(out);
			break;
		case 'n':
			fprintf(out, "%d", world_size);
			break;
		case '%':
			fputc('%', out);
			break;
		default:
			fputc('%', out);
			fputc(*p, out);
			break;
		}
	}
}

static char *expanded(const char *pattern, int world_size)
{
	char *path = NULL;
	size_t length = 0;
	FILE *out;

	out = open_memstream(&path, &length);
	if (!out)
		return NULL;
	expand(out, pattern, world_size);
	if (fclose(out) != 0) {
		free(path);
		return NULL;
	}
	return path;
}

char *commprof_output_path(int world_size)
{
	const char *pattern = getenv("COMMPROF_OUTPUT");

	if (!pattern || !*pattern)
		pattern = getenv("SLURM_JOB_ID") || getenv("SLURM_JOBID")
			  ? "commprof-%j.%s.json" : "commprof-%p.json";
	return expanded(pattern, world_size);
}

char *commprof_io_output_path(int world_size)
{
	const char *pattern = getenv("COMMPROF_IO_OUTPUT");
	static const char suffix[] = ".json", io[] = ".io.json";

	if (pattern && *pattern)
		return expanded(pattern, world_size);
	/* next to the byte matrix: m.json -> m.io.json */
	char *bytes = commprof_output_path(world_size);
	if (!bytes)
		return NULL;
	size_t len = strlen(bytes), keep = len;
	if (len >= sizeof suffix - 1 &&
	    strcmp(bytes + len - (sizeof suffix - 1), suffix) == 0)
		keep = len - (sizeof suffix - 1);
	char *path = malloc(keep + sizeof io);
	if (path) {
		memcpy(path, bytes, keep);
		memcpy(path + keep, io, sizeof io);
	}
	free(bytes);
	return path;
}
