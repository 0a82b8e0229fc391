/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_json_fast.c - the direct JSON reader (helper/matrix/matrix_json_fast.c)
 * must give exactly the matrix the jansson reader gives for every file it
 * reads, and decline (leave to jansson) every file that is invalid or not
 * of its plain shape; the invalid-input suite then checks the messages.
 * Every file of tests/invalid/ is fed to it as well.
 */
#include <config.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "matrix/matrix_parse.h"

static int same_matrix(const tm_matrix *a, const tm_matrix *b)
{
	if (a->n != b->n || a->row_start[a->n] != b->row_start[b->n])
		return 0;
	for (int i = 0; i <= a->n; i++)
		if (a->row_start[i] != b->row_start[i])
			return 0;
	for (int64_t e = 0; e < a->row_start[a->n]; e++)
		if (a->col[e] != b->col[e] || a->weight[e] != b->weight[e])
			return 0;
	return 1;
}

/* Read by both; the fast reader must take it and agree. */
static void agrees(const char *what, const char *text)
{
	tm_matrix *fast = NULL, *slow = NULL;
	tm_status st = TM_OK, slow_st;
	tm_error err;
	int taken = tm__matrix_parse_json_fast("m.json", text, strlen(text), -1,
					      &fast, &st, &err);

	slow_st = tm__matrix_parse_json_jansson("m.json", text, strlen(text), -1,
					       &slow, &err);
	CHECK(slow_st == TM_OK, "%s: valid for the jansson reader", what);
	CHECK(taken && st == TM_OK, "%s: read by the fast reader", what);
	CHECK(taken && fast && slow && same_matrix(fast, slow),
	      "%s: the same matrix from both", what);
	tm_matrix_free(fast);
	tm_matrix_free(slow);
}

/* The fast reader must leave it to jansson; `valid` says whether jansson
 * accepts it (then the public reader still reads it). */
static void declined(const char *what, const char *text, int valid)
{
	tm_matrix *m = NULL;
	tm_status st = TM_OK;
	tm_error err;
	int taken = tm__matrix_parse_json_fast("m.json", text, strlen(text), -1,
					      &m, &st, &err);

	CHECK(!taken && !m, "%s: declined by the fast reader", what);
	tm_matrix_free(m);
	st = tm__matrix_parse_json("m.json", text, strlen(text), -1, &m, &err);
	CHECK((st == TM_OK) == valid, "%s: %s through the public reader",
	      what, valid ? "read" : "refused");
	tm_matrix_free(m);
}

static void valid_files(void)
{
	agrees("entries", "{\"size\": 3, \"entries\": [[0, 1, 10], "
	       "[1, 2, 5.5], [2, 0, 1e3]]}");
	agrees("size after entries", "{\"entries\": [[0, 1, 1]], \"size\": 2}");
	agrees("JSON whitespace everywhere",
	       "\n\t{ \"size\" :2 ,\"matrix\":[ [0,1],\r\n[ 2 ,0] ] }\r\n");
	agrees("version and unit", "{\"version\": 1, \"size\": 2, \"unit\": "
	       "\"bytes\", \"entries\": [[0, 1, 3]]}");
	agrees("the profiler's message counts", "{\"size\": 2, \"unit\": "
	       "\"bytes\", \"entries\": [[0, 1, 3]], \"messages\": [[0, 1, 1]]}");
	agrees("self pairs, zeros, -0, -0.0, exponents",
	       "{\"size\": 3, \"entries\": [[0, 0, 5], [0, 1, 0], [1, 2, -0], "
	       "[1, 2, -0.0], [2, 1, 0.25E+1], [2, 0, 7e-1]]}");
	agrees("no entries", "{\"size\": 1, \"entries\": []}");
	agrees("a weight that underflows to 0",
	       "{\"size\": 2, \"entries\": [[0, 1, 1e-999], [1, 0, 2]]}");
	agrees("dense rows with zeros",
	       "{\"size\": 3, \"matrix\": [[0, 0, 1], [0, 0, 0], [4, 0, 0]]}");
	agrees("18-digit weight",
	       "{\"size\": 2, \"entries\": [[0, 1, 123456789012345678]]}");
	agrees("repeated pairs add up",
	       "{\"size\": 2, \"entries\": [[0, 1, 1], [1, 0, 2], [0, 1, 4]]}");
}

static void other_files(void)
{
	declined("a repeated key", "{\"size\": 2, \"entries\": [], "
		 "\"size\": 2}", 0);
	declined("two unknown lists", "{\"size\": 2, \"entries\": [], "
		 "\"a\": [], \"a\": []}", 0);
	declined("a real size", "{\"size\": 2.0, \"entries\": []}", 0);
	declined("a rank out of range", "{\"size\": 2, \"entries\": "
		 "[[0, 2, 1]]}", 0);
	declined("a negative weight", "{\"size\": 2, \"entries\": "
		 "[[0, 1, -1]]}", 0);
	declined("an overflowing weight", "{\"size\": 2, \"entries\": "
		 "[[0, 1, 1e400]]}", 0);
	declined("a leading zero", "{\"size\": 2, \"entries\": [[0, 1, 01]]}",
		 0);
	declined("a trailing comma", "{\"size\": 2, \"entries\": [],}", 0);
	declined("text after the object", "{\"size\": 2, \"entries\": []} x",
		 0);
	declined("a short matrix", "{\"size\": 2, \"matrix\": [[0, 1]]}", 0);
	declined("entries and matrix", "{\"size\": 1, \"entries\": [], "
		 "\"matrix\": [[0]]}", 0);
	declined("a vertical tab", "{\"size\": 1,\v\"entries\": []}", 0);
	declined("a 19-digit weight", "{\"size\": 2, \"entries\": "
		 "[[0, 1, 1234567890123456789]]}", 1);
	declined("an escape in a string", "{\"size\": 2, \"unit\": "
		 "\"by\\u0074es\", \"entries\": []}", 1);
	declined("other data", "{\"size\": 2, \"entries\": [], "
		 "\"note\": {\"a\": 1}}", 1);
}

/* Every file of the invalid-input suite: declined by the fast reader, so
 * that its message is the jansson reader's, or read to the same end. */
static void invalid_suite(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int seen = 0;

	CHECK(d != NULL, "open %s", dir);
	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 5, ".json"))
			continue;
		char path[1024];
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >=
		    (int)sizeof(path))
			continue;
		FILE *f = fopen(path, "rb");
		if (!f)
			continue;
		char *text = malloc(1 << 20);
		size_t n = text ? fread(text, 1, (1 << 20) - 1, f) : 0;
		fclose(f);
		if (!text)
			continue;
		tm_matrix *m = NULL;
		tm_status st;
		tm_error err;
		int taken = tm__matrix_parse_json_fast(e->d_name, text, n, -1, &m,
						      &st, &err);
		/* a file the fast reader takes must give what jansson's
		 * gives: the same matrix (files that are bad only for their
		 * arguments, such as size-vs-ranks.json), or the same
		 * matrix-level error (tm__matrix_from_list) */
		tm_matrix *slow = NULL;
		tm_error slow_err;
		tm_status slow_st = tm__matrix_parse_json_jansson(
			e->d_name, text, n, -1, &slow, &slow_err);
		int same = taken && st == slow_st &&
			   (st == TM_OK ? same_matrix(m, slow)
					: !strcmp(err.text, slow_err.text));
		CHECK(!taken || same, "invalid/%s: declined, or the same result",
		      e->d_name);
		tm_matrix_free(m);
		tm_matrix_free(slow);
		free(text);
		seen++;
	}
	if (d)
		closedir(d);
	CHECK(seen >= 20, "the invalid suite has JSON files (%d)", seen);
}

int main(void)
{
	const char *srcdir = getenv("top_srcdir");
	char dir[1024];

	snprintf(dir, sizeof(dir), "%s/tests/invalid", srcdir ? srcdir : ".");
	valid_files();
	other_files();
	invalid_suite(dir);
	return check_status();
}
