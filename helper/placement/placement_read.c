/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * placement_read.c - the placement JSON reader (tm_placement.h).  Its
 * input may come from a user (--previous) or from a helper the user can
 * rewrite (the plugin, in root's slurmstepd): every value is checked
 * before it is used, CPU lists are bounded, and "placement" is counted
 * before anything is allocated for it.  Error texts follow the matrix
 * reader's (doc/matrix-format.md): the input, the JSON path, what was
 * expected.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "matrix/matrix_parse.h"
#include "tm_list.h"
#include "tm_placement.h"

void tm_placement_free(tm_placement_file *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->nentries; i++) {
		free(p->entry[i].cpus);
		free(p->entry[i].cpus_text);
		free(p->entry[i].cores_text);
	}
	free(p->entry);
	free(p->cpus);
	free(p->cpus_text);
	free(p);
}

/* "0-3,8": digits, '-' and ',' only (no sign, no space, no open range),
 * every index below TM_PLACEMENT_MAX_CPU, at least one.  The count of
 * distinct ascending indices, or -1. */
static int parse_cpus(const char *s, int **out)
{
	int *cpus = NULL;

	for (const char *c = s; *c; c++)
		if (!(*c >= '0' && *c <= '9') && *c != '-' && *c != ',')
			return -1;
	int n = tm_list_parse(s, TM_PLACEMENT_MAX_CPU - 1,
			      TM_PLACEMENT_MAX_CPU, &cpus);
	if (n < 0)
		return -1;
	*out = cpus;
	return tm_sort_unique(cpus, n);
}

/* "cores": [4, 5] as "4,5", cut where it would not fit a short line (it
 * is only shown, in the report). */
static char *cores_text(const json_t *cores)
{
	char buf[256] = "";
	size_t len = 0, i;
	json_t *c;

	json_array_foreach(cores, i, c) {
		if (!json_is_integer(c) || len + 24 >= sizeof(buf))
			break;
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%lld",
					i ? "," : "",
					(long long)json_integer_value(c));
	}
	return strdup(buf);
}

static tm_status read_entry(const char *name, json_t *item, size_t k,
			    int size, tm_placement_entry *e, tm_error *err)
{
	tm_brief got;
	json_t *rank = json_object_get(item, "rank");
	json_t *cpus = json_object_get(item, "cpus");

	if (!json_is_object(item))
		return tm_error_set(err, TM_ERR_FORMAT, "%s: placement[%zu]: "
				    "expected {\"rank\": R, \"cpus\": LIST}, "
				    "got %s", name, k, tm__json_brief(item, &got));
	if (!json_is_integer(rank) || json_integer_value(rank) < 0 ||
	    json_integer_value(rank) >= (size > 0 ? size : 1LL << 31)) {
		if (size > 0)
			return tm_error_set(err, TM_ERR_RANGE, "%s: "
					    "placement[%zu].rank: expected a "
					    "rank from 0 to %d (the matrix's "
					    "size is %d), got %s", name, k,
					    size - 1, size,
					    rank ? tm__json_brief(rank, &got) :
					    "nothing");
		return tm_error_set(err, TM_ERR_RANGE, "%s: placement[%zu].rank: "
				    "expected a rank >= 0, got %s", name, k,
				    rank ? tm__json_brief(rank, &got) :
				    "nothing");
	}
	e->rank = (int)json_integer_value(rank);
	if (!json_is_string(cpus) ||
	    (e->ncpus = parse_cpus(json_string_value(cpus), &e->cpus)) < 0)
		return tm_error_set(err, TM_ERR_FORMAT, "%s: placement[%zu].cpus: "
				    "expected a CPU list such as \"0-3,8\", "
				    "got %s", name, k,
				    cpus ? tm__json_brief(cpus, &got) :
				    "nothing");
	e->cpus_text = strdup(json_string_value(cpus));
	e->cores_text = cores_text(json_object_get(item, "cores"));
	if (!e->cpus_text || !e->cores_text)
		return tm_error_nomem(err);
	return TM_OK;
}

/* Ranks listed twice: a sort of (rank, index) pairs would do, but the
 * entries are at most max_entries, so a table of the ranks seen, bounded
 * by the largest one, is simpler; it is only made when size bounds it. */
static tm_status check_unique(const char *name, const tm_placement_file *p,
			      tm_error *err)
{
	int top = 0;

	for (int i = 0; i < p->nentries; i++)
		if (p->entry[i].rank >= top)
			top = p->entry[i].rank + 1;
	if (top > 4 * p->nentries + 1024)
		top = -1; /* sparse ranks: compare pairs after sorting */
	if (top >= 0) {
		int *at = malloc(sizeof(int) * (size_t)top + 1);

		if (!at)
			return tm_error_nomem(err);
		for (int r = 0; r < top; r++)
			at[r] = -1;
		for (int i = 0; i < p->nentries; i++) {
			int r = p->entry[i].rank;

			if (at[r] >= 0) {
				int first = at[r];

				free(at);
				return tm_error_set(err, TM_ERR_FORMAT, "%s: "
						    "placement[%d].rank: rank "
						    "%d is already at "
						    "placement[%d]", name, i,
						    r, first);
			}
			at[r] = i;
		}
		free(at);
		return TM_OK;
	}
	for (int i = 0; i < p->nentries; i++)
		for (int j = 0; j < i; j++)
			if (p->entry[i].rank == p->entry[j].rank)
				return tm_error_set(err, TM_ERR_FORMAT, "%s: "
						    "placement[%d].rank: rank "
						    "%d is already at "
						    "placement[%d]", name, i,
						    p->entry[i].rank, j);
	return TM_OK;
}

static tm_status read_root(const char *name, json_t *root, int size,
			   int max_entries, tm_placement_file *p,
			   tm_error *err)
{
	tm_brief got;
	json_t *value = json_object_get(root, "size");
	json_t *all = json_object_get(root, "cpus");
	json_t *list = json_object_get(root, "placement");
	json_t *cost = json_object_get(root, "cost"), *v;
	const char *key;
	tm_status st;

	if (!json_is_object(root))
		return tm_error_set(err, TM_ERR_FORMAT, "%s: top level: expected "
				    "an object as treematch-helper map prints "
				    "it", name);
	if (value && (!json_is_integer(value) ||
		      (size > 0 && json_integer_value(value) != size) ||
		      json_integer_value(value) < 0 ||
		      json_integer_value(value) >= 1LL << 31))
		return tm_error_set(err, TM_ERR_SIZE, "%s: \"size\": expected "
				    "%d (the matrix's size), got %s", name,
				    size, tm__json_brief(value, &got));
	p->size = value ? (int)json_integer_value(value) : -1;
	if (all && (!json_is_string(all) ||
		    (p->ncpus = parse_cpus(json_string_value(all),
					   &p->cpus)) < 0))
		return tm_error_set(err, TM_ERR_FORMAT, "%s: \"cpus\": expected "
				    "a CPU list such as \"0-3,8\", got %s",
				    name, tm__json_brief(all, &got));
	if (all && !(p->cpus_text = strdup(json_string_value(all))))
		return tm_error_nomem(err);
	if (!json_is_array(list))
		return tm_error_set(err, TM_ERR_FORMAT, "%s: \"placement\": "
				    "expected an array of {\"rank\": R, "
				    "\"cpus\": LIST} as treematch-helper map "
				    "prints it, got %s", name,
				    list ? tm__json_brief(list, &got) :
				    "nothing");
	if (json_array_size(list) > (size_t)max_entries)
		return tm_error_set(err, TM_ERR_SIZE, "%s: \"placement\": "
				    "expected at most %d ranks, got %zu", name,
				    max_entries, json_array_size(list));
	p->entry = calloc(json_array_size(list) + 1, sizeof(*p->entry));
	if (!p->entry)
		return tm_error_nomem(err);
	for (size_t k = 0; k < json_array_size(list); k++) {
		p->nentries++;
		st = read_entry(name, json_array_get(list, k), k, size,
				&p->entry[k], err);
		if (st != TM_OK)
			return st;
	}
	st = check_unique(name, p, err);
	if (st != TM_OK)
		return st;
	json_object_foreach(cost, key, v) {
		if (p->ncosts == TM_PLACEMENT_MAX_COSTS || !json_is_number(v))
			break;
		snprintf(p->cost_name[p->ncosts], sizeof(p->cost_name[0]), "%s",
			 key);
		p->cost[p->ncosts++] = json_number_value(v);
	}
	p->proven_optimal = json_is_true(json_object_get(root, "proven-optimal"));
	return TM_OK;
}

static tm_status json_failed(const char *name, const json_error_t *jerr,
			     tm_error *err)
{
	if (json_error_code(jerr) == json_error_out_of_memory)
		return tm_error_nomem(err);
	if (jerr->line < 1)
		return tm_error_set(err, TM_ERR_SYNTAX, "%s: invalid JSON: %s",
				    name, jerr->text);
	return tm_error_set(err, TM_ERR_SYNTAX, "%s:%d:%d: invalid JSON: %s",
			    name, jerr->line, jerr->column, jerr->text);
}

static tm_status from_json(const char *name, json_t *root, int size,
			   int max_entries, tm_placement_file **out,
			   tm_error *err)
{
	tm_placement_file *p = calloc(1, sizeof(*p));
	tm_status st = p ? read_root(name, root, size, max_entries, p, err) :
			   tm_error_nomem(err);

	json_decref(root);
	if (st != TM_OK) {
		tm_placement_free(p);
		return st;
	}
	*out = p;
	return TM_OK;
}

tm_status tm_placement_parse(const char *name, const char *text, size_t len,
			     int size, int max_entries,
			     tm_placement_file **out, tm_error *err)
{
	json_error_t jerr;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);

	if (!root)
		return json_failed(name, &jerr, err);
	return from_json(name, root, size, max_entries, out, err);
}

tm_status tm_placement_load(const char *path, int size, int max_entries,
			    tm_placement_file **out, tm_error *err)
{
	FILE *f = fopen(path, "rb");
	json_error_t jerr;

	if (!f)
		return tm_error_set(err, TM_ERR_IO, "%s: cannot open: %s", path,
				    strerror(errno));
	json_t *root = json_loadf(f, JSON_REJECT_DUPLICATES, &jerr);
	int read_failed = ferror(f);
	fclose(f);
	if (!root && read_failed)
		return tm_error_set(err, TM_ERR_IO, "%s: cannot read", path);
	if (!root)
		return json_failed(path, &jerr, err);
	return from_json(path, root, size, max_entries, out, err);
}
