/*
 * previous.c - reading a previous placement for spread (--previous FILE):
 * the JSON that `treematch-helper map` prints (tm_report.h), of which only
 * "size" and each placement's "rank" and "cpus" matter here.  Each rank is
 * found again as a leaf of the tree it is placed on now; see
 * tm_previous_load in tm_map.h.  Errors follow the matrix reader's style
 * (doc/matrix-format.md): the file, the JSON path, what was expected.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "matrix_parse.h"
#include "tm_list.h"
#include "tm_map.h"

enum { MAX_LIST_CPUS = 1 << 16 };

/* "0-3,8" -> sorted, distinct OS indices; the count, or -1. */
static int parse_cpus(const char *s, int **out)
{
	int *cpus = NULL;
	int n = tm_list_parse(s, 1L << 30, MAX_LIST_CPUS, &cpus);

	if (n < 0)
		return -1;
	*out = cpus;
	return tm_sort_unique(cpus, n);
}

static int same_cpus(const tm_leaf *leaf, const int *cpus, int n)
{
	return leaf->npus == n &&
	       memcmp(leaf->pus, cpus, (size_t)n * sizeof(int)) == 0;
}

static int holds_cpu(const tm_leaf *leaf, int cpu)
{
	for (int p = 0; p < leaf->npus; p++)
		if (leaf->pus[p] == cpu)
			return 1;
	return 0;
}

/* The leaf for a previous "cpus": exactly those CPUs, else the one with
 * the first of them; a leaf not claimed yet first (an oversubscribed tree
 * has several leaves on the same CPUs).  -1 when none. */
static int find_leaf(const tm_tree *t, const int *cpus, int n,
		     const char *claimed)
{
	int exact = -1, holder = -1;

	for (int l = 0; l < t->nleaves; l++) {
		if (same_cpus(&t->leaf[l], cpus, n)) {
			if (!claimed[l])
				return l;
			if (exact < 0)
				exact = l;
		}
	}
	if (exact >= 0)
		return exact;
	for (int l = 0; l < t->nleaves; l++) {
		if (holds_cpu(&t->leaf[l], cpus[0])) {
			if (!claimed[l])
				return l;
			if (holder < 0)
				holder = l;
		}
	}
	return holder;
}

static tm_status load_json(const char *path, json_t **root, tm_error *err)
{
	FILE *f = fopen(path, "rb");
	json_error_t jerr;

	if (!f)
		return tm_error_set(err, TM_ERR_IO, "%s: cannot open: %s", path,
				    strerror(errno));
	*root = json_loadf(f, JSON_REJECT_DUPLICATES, &jerr);
	int read_failed = ferror(f);
	fclose(f);
	if (*root)
		return TM_OK;
	if (read_failed)
		return tm_error_set(err, TM_ERR_IO, "%s: cannot read", path);
	if (json_error_code(&jerr) == json_error_out_of_memory)
		return tm_error_nomem(err);
	if (jerr.line < 1)
		return tm_error_set(err, TM_ERR_SYNTAX, "%s: invalid JSON: %s",
				    path, jerr.text);
	return tm_error_set(err, TM_ERR_SYNTAX, "%s:%d:%d: invalid JSON: %s",
			    path, jerr.line, jerr.column, jerr.text);
}

/* Checks the file and fills item_of[rank] with the index of its entry in
 * "placement" (-1: none). */
static tm_status read_entries(const char *path, json_t *root, int size,
			      int *item_of, tm_error *err)
{
	tm_brief got;
	json_t *value = json_object_get(root, "size");
	json_t *list = json_object_get(root, "placement"), *item;
	size_t k;

	if (value && (!json_is_integer(value) ||
		      json_integer_value(value) != size))
		return tm_error_set(err, TM_ERR_SIZE, "%s: \"size\": expected "
				    "%d (the matrix's size), got %s", path,
				    size, tm_json_brief(value, &got));
	if (!json_is_array(list))
		return tm_error_set(err, TM_ERR_FORMAT, "%s: \"placement\": "
				    "expected an array of {\"rank\": R, "
				    "\"cpus\": LIST} as treematch-helper map "
				    "prints it, got %s", path,
				    list ? tm_json_brief(list, &got) :
				    "nothing");
	for (int r = 0; r < size; r++)
		item_of[r] = -1;
	json_array_foreach(list, k, item) {
		json_t *rank = json_object_get(item, "rank");
		json_t *cpus = json_object_get(item, "cpus");
		int *parsed = NULL;

		if (!json_is_object(item))
			return tm_error_set(err, TM_ERR_FORMAT, "%s: "
					    "placement[%zu]: expected "
					    "{\"rank\": R, \"cpus\": LIST}, "
					    "got %s", path, k,
					    tm_json_brief(item, &got));
		if (!json_is_integer(rank) || json_integer_value(rank) < 0 ||
		    json_integer_value(rank) >= size)
			return tm_error_set(err, TM_ERR_RANGE, "%s: "
					    "placement[%zu].rank: expected a "
					    "rank from 0 to %d (the matrix's "
					    "size is %d), got %s", path, k,
					    size - 1, size,
					    rank ? tm_json_brief(rank, &got) :
					    "nothing");
		int r = (int)json_integer_value(rank);
		if (item_of[r] >= 0)
			return tm_error_set(err, TM_ERR_FORMAT, "%s: "
					    "placement[%zu].rank: rank %d is "
					    "already at placement[%d]", path, k,
					    r, item_of[r]);
		if (!json_is_string(cpus) ||
		    parse_cpus(json_string_value(cpus), &parsed) < 0)
			return tm_error_set(err, TM_ERR_FORMAT, "%s: "
					    "placement[%zu].cpus: expected a CPU "
					    "list such as \"0-3,8\", got %s",
					    path, k,
					    cpus ? tm_json_brief(cpus, &got) :
					    "nothing");
		free(parsed);
		item_of[r] = (int)k;
	}
	return TM_OK;
}

tm_status tm_previous_load(const char *path, const tm_tree *t, int size,
			   const int *ranks, int nranks, int *previous,
			   tm_error *err)
{
	json_t *root = NULL;
	int *item_of = malloc((size_t)size * sizeof(int) + 1);
	char *claimed = calloc((size_t)t->nleaves + 1, 1);
	tm_status status;

	if (!item_of || !claimed) {
		status = tm_error_nomem(err);
		goto out;
	}
	status = load_json(path, &root, err);
	if (status != TM_OK)
		goto out;
	if (!json_is_object(root)) {
		status = tm_error_set(err, TM_ERR_FORMAT, "%s: top level: "
				      "expected an object as treematch-helper "
				      "map prints it", path);
		goto out;
	}
	status = read_entries(path, root, size, item_of, err);
	if (status != TM_OK)
		goto out;
	json_t *list = json_object_get(root, "placement");
	int found = 0, listed = 0;
	for (int i = 0; i < nranks; i++) {
		int *cpus = NULL, item = item_of[ranks[i]];

		previous[i] = -1;
		if (item < 0)
			continue;
		listed++;
		json_t *entry = json_array_get(list, (size_t)item);
		int n = parse_cpus(json_string_value(json_object_get(entry, "cpus")),
				   &cpus);
		if (n < 0) { /* checked above: only when out of memory */
			status = tm_error_nomem(err);
			goto out;
		}
		previous[i] = find_leaf(t, cpus, n, claimed);
		free(cpus);
		if (previous[i] >= 0) {
			claimed[previous[i]] = 1;
			found++;
		}
	}
	/* A file that says nothing about these ranks, or only about CPUs
	 * this tree does not have, is most likely the wrong one. */
	if (json_array_size(list) > 0 && nranks > 0 && listed == 0)
		status = tm_error_set(err, TM_ERR_SIZE, "%s: lists none of the "
				      "%d ranks placed now (another node's "
				      "placement?)", path, nranks);
	else if (listed > 0 && found == 0)
		status = tm_error_set(err, TM_ERR_TOPOLOGY, "%s: none of its "
				      "%d ranks placed now is on CPUs of this "
				      "topology (another node's placement?)",
				      path, listed);
out:
	json_decref(root);
	free(item_of);
	free(claimed);
	return status;
}
