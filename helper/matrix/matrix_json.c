/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * matrix_json.c - the JSON matrix file, version 1 (doc/matrix-format.md):
 *   {"size": N, "entries": [[i, j, w], ...]}  or  {"size": N, "matrix": rows}
 * Errors name the JSON path of the offending value (entries[12],
 * matrix[2][1]); syntax errors carry jansson's line and column.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "matrix/matrix_parse.h"

static int brief_append(const char *buffer, size_t size, void *data)
{
	tm_brief *b = data;
	size_t room = TM_BRIEF_MAX - b->used;
	size_t take = size < room ? size : room;

	memcpy(b->text + b->used, buffer, take);
	b->used += take;
	b->text[b->used] = '\0';
	if (take < size) {
		b->cut = 1;
		return -1; /* stop: the rest of a big value is not needed */
	}
	return 0;
}

const char *tm__json_brief(const json_t *value, tm_brief *b)
{
	b->used = 0;
	b->cut = 0;
	b->text[0] = '\0';
	/* 15 digits print 0.1 as 0.1, not 0.10000000000000001. */
	json_dump_callback(value, brief_append, b,
			   JSON_ENCODE_ANY | JSON_ENSURE_ASCII |
			   JSON_REAL_PRECISION(15));
	if (b->cut)
		memcpy(b->text + TM_BRIEF_MAX - 3, "...", 4);
	return b->text;
}

static const char *type_name(const json_t *value)
{
	switch (json_typeof(value)) {
	case JSON_OBJECT:  return "an object";
	case JSON_ARRAY:   return "an array";
	case JSON_STRING:  return "a string";
	case JSON_INTEGER:
	case JSON_REAL:    return "a number";
	case JSON_TRUE:    return "true";
	case JSON_FALSE:   return "false";
	case JSON_NULL:    return "null";
	}
	return "an unknown value";
}

/* jansson quotes the token it stopped at; a control character in it
 * would break the line, and a stray non-ASCII byte garble it, so those
 * are shown as \xNN. */
static tm_status syntax_error(const char *name, const json_error_t *jerr,
			      tm_error *err)
{
	char text[4 * sizeof(jerr->text)];
	size_t used = 0;

	if (json_error_code(jerr) == json_error_out_of_memory)
		return tm_error_nomem(err);
	for (const char *p = jerr->text; *p && used + 5 < sizeof(text); p++) {
		unsigned char c = (unsigned char)*p;
		if (c < 0x20 || c >= 0x7f)
			used += (size_t)snprintf(text + used,
						 sizeof(text) - used,
						 "\\x%02x", c);
		else
			text[used++] = (char)c;
	}
	text[used] = '\0';
	if (jerr->line < 1)
		return tm_error_set(err, TM_ERR_SYNTAX,
				    "%s: invalid JSON: %s", name, text);
	return tm_error_set(err, TM_ERR_SYNTAX, "%s:%d:%d: invalid JSON: %s",
			    name, jerr->line, jerr->column, text);
}

/* The top-level keys other than the data: "version", "size", "unit".
 * Unknown keys are left alone so that files can carry extra data. */
static tm_status read_header(const char *name, const json_t *root, int *n,
			     tm_error *err)
{
	const json_t *version = json_object_get(root, "version");
	const json_t *size = json_object_get(root, "size");
	const json_t *unit = json_object_get(root, "unit");
	tm_brief b;

	if (version && !(json_is_integer(version) &&
			 json_integer_value(version) == 1))
		return tm_error_set(err, TM_ERR_FORMAT,
				    "%s: \"version\": expected 1 (the only "
				    "version this program reads), got %s",
				    name, tm__json_brief(version, &b));
	if (!size)
		return tm_error_set(err, TM_ERR_FORMAT,
				    "%s: \"size\": missing: expected the "
				    "number of ranks", name);
	if (!json_is_integer(size) || json_integer_value(size) < 1 ||
	    json_integer_value(size) > TM_MATRIX_MAX_ORDER)
		return tm_error_set(err, TM_ERR_FORMAT,
				    "%s: \"size\": expected an integer "
				    "between 1 and %d, got %s", name,
				    TM_MATRIX_MAX_ORDER, tm__json_brief(size, &b));
	if (unit && !json_is_string(unit))
		return tm_error_set(err, TM_ERR_FORMAT,
				    "%s: \"unit\": expected a string such as "
				    "\"bytes\", got %s", name,
				    tm__json_brief(unit, &b));
	*n = (int)json_integer_value(size);
	return TM_OK;
}

/* A weight read from the file: FORMAT when not a number at all, VALUE
 * when a number that is negative. */
static tm_status check_weight(const json_t *value, double *w)
{
	if (!json_is_number(value))
		return TM_ERR_FORMAT;
	*w = json_number_value(value);
	return tm__weight_is_valid(*w) ? TM_OK : TM_ERR_VALUE;
}

static tm_status read_rank(const char *name, size_t index,
			   const json_t *value, int n, int *rank,
			   tm_error *err)
{
	tm_brief b;

	if (!json_is_integer(value))
		return tm_error_set(err, TM_ERR_FORMAT,
				    "%s: entries[%zu]: rank: expected an "
				    "integer, got %s", name, index,
				    tm__json_brief(value, &b));
	if (json_integer_value(value) < 0 || json_integer_value(value) >= n)
		return tm_error_set(err, TM_ERR_RANGE,
				    "%s: entries[%zu]: rank %" JSON_INTEGER_FORMAT
				    " out of range: expected 0..%d (size %d)",
				    name, index, json_integer_value(value),
				    n - 1, n);
	*rank = (int)json_integer_value(value);
	return TM_OK;
}

static tm_status read_entries(const char *name, int n, const json_t *entries,
			      tm_entry_list *list, tm_error *err)
{
	size_t index;
	const json_t *entry;
	tm_brief b;

	if (!json_is_array(entries))
		return tm_error_set(err, TM_ERR_FORMAT,
				    "%s: \"entries\": expected an array of "
				    "[i, j, weight], got %s", name,
				    tm__json_brief(entries, &b));
	if (tm__entry_list_reserve(list, json_array_size(entries)) != 0)
		return tm_error_nomem(err);
	json_array_foreach(entries, index, entry) {
		int i = 0, j = 0;
		double w;
		tm_status status;

		if (!json_is_array(entry) || json_array_size(entry) != 3)
			return tm_error_set(err, TM_ERR_FORMAT,
					    "%s: entries[%zu]: expected "
					    "[i, j, weight], got %s", name,
					    index, tm__json_brief(entry, &b));
		status = read_rank(name, index, json_array_get(entry, 0), n,
				   &i, err);
		if (status == TM_OK)
			status = read_rank(name, index,
					   json_array_get(entry, 1), n, &j,
					   err);
		if (status != TM_OK)
			return status;
		status = check_weight(json_array_get(entry, 2), &w);
		if (status != TM_OK)
			return tm_error_set(err, status,
					    "%s: entries[%zu]: weight: expected "
					    "a finite number >= 0, got %s",
					    name, index,
					    tm__json_brief(json_array_get(entry, 2),
						     &b));
		if (i != j && w > 0 && tm__entry_list_push(list, i, j, w) != 0)
			return tm_error_nomem(err);
	}
	return TM_OK;
}

static tm_status read_rows(const char *name, int n, const json_t *matrix,
			   tm_entry_list *list, tm_error *err)
{
	size_t r, c;
	const json_t *row, *value;
	tm_brief b;

	if (!json_is_array(matrix))
		return tm_error_set(err, TM_ERR_FORMAT,
				    "%s: \"matrix\": expected an array of %d "
				    "rows (the size), got %s", name, n,
				    tm__json_brief(matrix, &b));
	if (json_array_size(matrix) != (size_t)n)
		return tm_error_set(err, TM_ERR_FORMAT,
				    "%s: matrix has %zu rows: expected %d "
				    "(the size)", name,
				    json_array_size(matrix), n);
	json_array_foreach(matrix, r, row) {
		if (!json_is_array(row))
			return tm_error_set(err, TM_ERR_FORMAT,
					    "%s: matrix[%zu]: expected a row "
					    "of %d numbers (the size), got %s",
					    name, r, n, tm__json_brief(row, &b));
		if (json_array_size(row) != (size_t)n)
			return tm_error_set(err, TM_ERR_FORMAT,
					    "%s: matrix[%zu]: expected %d "
					    "numbers (the size), got %zu",
					    name, r, n, json_array_size(row));
		json_array_foreach(row, c, value) {
			double w;
			tm_status status = check_weight(value, &w);

			if (status != TM_OK)
				return tm_error_set(
					err, status, "%s: matrix[%zu][%zu]: "
					"expected a finite number >= 0, got %s",
					name, r, c, tm__json_brief(value, &b));
			if (r != c && w > 0 &&
			    tm__entry_list_push(list, (int)r, (int)c, w) != 0)
				return tm_error_nomem(err);
		}
	}
	return TM_OK;
}

static tm_status read_root(const char *name, const json_t *root, int *n,
			   tm_entry_list *list, tm_error *err)
{
	const json_t *entries, *matrix;
	tm_status status;

	if (!json_is_object(root))
		return tm_error_set(err, TM_ERR_FORMAT,
				    "%s: top level: expected a JSON object, "
				    "got %s", name, type_name(root));
	status = read_header(name, root, n, err);
	if (status != TM_OK)
		return status;
	entries = json_object_get(root, "entries");
	matrix = json_object_get(root, "matrix");
	if (!entries && !matrix)
		return tm_error_set(err, TM_ERR_FORMAT,
				    "%s: expected \"entries\" or \"matrix\"",
				    name);
	if (entries && matrix)
		return tm_error_set(err, TM_ERR_FORMAT,
				    "%s: expected \"entries\" or \"matrix\", "
				    "not both", name);
	return entries ? read_entries(name, *n, entries, list, err) :
		read_rows(name, *n, matrix, list, err);
}

tm_status tm__matrix_parse_json(const char *name, const char *text,
			       size_t len, long order, tm_matrix **out,
			       tm_error *err)
{
	tm_status status;

	*out = NULL;
	if (tm__matrix_parse_json_fast(name, text, len, order, out, &status,
				       err))
		return status;
	/* what a node spends on a file must stay a small multiple of its
	 * size: jansson's values would take about 50 times a large one */
	if ((long long)len > TM_MATRIX_JANSSON_MAX)
		return tm_error_set(err, TM_ERR_FORMAT, "%s: %zu bytes: a JSON "
				    "matrix of more than %lld MiB must be valid "
				    "and plain: \"size\", \"entries\" or "
				    "\"matrix\", \"version\", \"unit\" and one "
				    "other list of triples, strings of ASCII "
				    "without escapes", name, len,
				    TM_MATRIX_JANSSON_MAX >> 20);
	return tm__matrix_parse_json_jansson(name, text, len, order, out, err);
}

tm_status tm__matrix_parse_json_jansson(const char *name, const char *text,
				       size_t len, long order, tm_matrix **out,
				       tm_error *err)
{
	json_error_t jerr;
	json_t *root;
	tm_entry_list list = { 0 };
	tm_status status;
	int n = 0;

	*out = NULL;
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		return syntax_error(name, &jerr, err);
	status = read_root(name, root, &n, &list, err);
	/* The tree is freed before the sparse matrix is built, so that the
	 * two never take memory together (treematch-helper's arena frees it
	 * all at once after tm_matrix_load instead: cli_map.c). */
	json_decref(root);
	if (status == TM_OK)
		status = tm__matrix_from_list(name, n, order, len, &list, out,
					      err);
	tm__entry_list_free(&list);
	return status;
}
