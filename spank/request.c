/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * request.c - the step's request, written by srun, read and checked by
 * slurmstepd, cleared for the tasks (request.h), from one table.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "request.h"
#include "tm_map.h"

enum request_kind { FLAG, TEXT, PATH, NAME };
enum request_tasks { DROP, KEEP };

typedef struct field {
	const char *variable;
	enum request_kind kind;
	size_t offset, size;
	enum request_tasks tasks;
	const char *what;
} field;

static const field fields[] = {
#define STEP_REQUEST_ROW(f, var, kind, size, tasks, what) \
	{ var, kind, offsetof(step_request, f), size, tasks, what },
	STEP_REQUEST_FIELDS(STEP_REQUEST_ROW)
#undef STEP_REQUEST_ROW
};
enum { NFIELDS = sizeof(fields) / sizeof(fields[0]) };

static char *value_of(step_request *r, const field *f)
{
	return (char *)r + f->offset;
}

const char *request_variable(int i)
{
	return i >= 0 && i < NFIELDS ? fields[i].variable : NULL;
}

void request_write(const step_request *r, const request_env *env)
{
	for (int i = 0; i < NFIELDS; i++) {
		const char *v = value_of((step_request *)r, &fields[i]);
		char old[2];
		int cut = 0;

		if (v[0])
			env->set(env->ctx, fields[i].variable, v);
		else if (env->get(env->ctx, fields[i].variable, old,
				  sizeof(old), &cut) == 0 && (old[0] || cut))
			env->set(env->ctx, fields[i].variable, "");
	}
}

void request_clear(const request_env *env, int placed)
{
	for (int i = 0; i < NFIELDS; i++)
		if (!placed || fields[i].tasks == DROP)
			env->unset(env->ctx, fields[i].variable);
}

/* The value as a user may read it in a log: control characters as '?'
 * and at most 60 bytes. */
static void shown(char *out, size_t size, const char *v)
{
	size_t n = 0;

	for (; *v && n + 1 < size && n < 60; v++)
		out[n++] = (unsigned char)*v < 0x20 || *v == 0x7f ? '?' : *v;
	out[n] = '\0';
}

static int bad(request_error *err, const field *f, const char *v,
	       const char *expected)
{
	char text[64];

	shown(text, sizeof(text), v);
	err->variable = f->variable;
	snprintf(err->text, sizeof(err->text), "%s=\"%s\": expected %s (%s)",
		 f->variable, text, expected, f->what);
	return -1;
}

static int check(const field *f, const char *v, request_error *err)
{
	for (const char *p = v; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return bad(err, f, v, "one line without control "
				   "characters");
	switch (f->kind) {
	case FLAG:
		return strcmp(v, "yes") == 0 ? 0 : bad(err, f, v, "yes");
	case PATH:
		return v[0] == '/' ? 0 : bad(err, f, v, "an absolute path");
	case NAME: {
		tm_algorithm a;

		if (tm_algorithm_parse(v, &a) == 0)
			return 0;
		char expected[300];
		snprintf(expected, sizeof(expected), "one of %s",
			 tm_algorithm_choices());
		return bad(err, f, v, expected);
	}
	case TEXT:
		return 0;
	}
	return 0;
}

int request_read(step_request *r, const request_env *env,
		 request_error *err)
{
	memset(r, 0, sizeof(*r));
	err->variable = NULL;
	err->text[0] = '\0';
	for (int i = 0; i < NFIELDS; i++) {
		const field *f = &fields[i];
		char *v = value_of(r, f);
		int cut = 0;

		if (env->get(env->ctx, f->variable, v, f->size, &cut) < 0) {
			v[0] = '\0';
			continue;
		}
		if (cut) {
			char expected[64];

			snprintf(expected, sizeof(expected), "at most %zu bytes",
				 f->size - 1);
			bad(err, f, v, expected);
			memset(r, 0, sizeof(*r));
			return -1;
		}
		if (v[0] && check(f, v, err) < 0) {
			memset(r, 0, sizeof(*r));
			return -1;
		}
	}
	return 0;
}
