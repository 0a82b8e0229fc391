/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare - checks that a matrix file written by libcommprof is well
 * formed and equal, entry for entry, to the expected one.
 *
 *   compare EXPECTED ACTUAL
 *
 * Both files must follow the profiler's format (doc/profiler.md):
 *   {"size": N, "unit": "bytes",
 *    "entries": [[i, j, bytes], ...], "messages": [[i, j, count], ...]}
 * with integer ranks 0 <= i, j < N, i != j, values > 0, pairs sorted by i
 * then j without repeats, and no other keys.  Every difference is printed
 * on stdout as a "# " line; exit status 0 when the files are equal, 1
 * when they differ or ACTUAL is malformed, 2 when EXPECTED is unusable.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct list {
	size_t count;
	json_t *items; /* validated: [[i, j, v], ...] */
};

struct parsed {
	json_int_t size;
	struct list entries, messages;
};

static bool problem(const char *file, const char *what)
{
	printf("# %s: %s\n", file, what);
	return false;
}

static bool integer_at(json_t *triple, size_t k, json_int_t *out)
{
	json_t *v = json_array_get(triple, k);

	if (!json_is_integer(v))
		return false;
	*out = json_integer_value(v);
	return true;
}

static bool valid_list(const char *file, json_t *root, const char *name,
		       json_int_t size, struct list *out)
{
	json_t *list = json_object_get(root, name);
	json_int_t i, j, v, last_i = -1, last_j = -1;
	char what[160];
	json_t *triple;
	size_t k;

	if (!json_is_array(list))
		return problem(file, name[0] == 'e'
			       ? "\"entries\" is missing or not an array"
			       : "\"messages\" is missing or not an array");
	json_array_foreach(list, k, triple) {
		if (!json_is_array(triple) || json_array_size(triple) != 3
		    || !integer_at(triple, 0, &i) || !integer_at(triple, 1, &j)
		    || !integer_at(triple, 2, &v)) {
			snprintf(what, sizeof what, "%s[%zu] is not [i, j, "
				 "integer]", name, k);
			return problem(file, what);
		}
		if (i < 0 || i >= size || j < 0 || j >= size || i == j
		    || v <= 0) {
			snprintf(what, sizeof what, "%s[%zu] = [%lld, %lld, "
				 "%lld]: ranks must be distinct and in [0, "
				 "%lld), the value > 0", name, k, (long long)i,
				 (long long)j, (long long)v, (long long)size);
			return problem(file, what);
		}
		if (i < last_i || (i == last_i && j <= last_j)) {
			snprintf(what, sizeof what, "%s[%zu] = [%lld, %lld]: "
				 "not sorted by i then j, or repeated", name,
				 k, (long long)i, (long long)j);
			return problem(file, what);
		}
		last_i = i;
		last_j = j;
	}
	out->items = list;
	out->count = json_array_size(list);
	return true;
}

static bool parse(const char *file, json_t **root, struct parsed *p)
{
	json_error_t error;
	json_t *size, *unit;
	const char *key;
	json_t *value;
	char what[300];

	*root = json_load_file(file, JSON_REJECT_DUPLICATES, &error);
	if (!*root) {
		snprintf(what, sizeof what, "line %d column %d: %s",
			 error.line, error.column, error.text);
		return problem(file, what);
	}
	if (!json_is_object(*root))
		return problem(file, "not a JSON object");
	json_object_foreach(*root, key, value) {
		if (strcmp(key, "size") && strcmp(key, "unit")
		    && strcmp(key, "entries") && strcmp(key, "messages")) {
			snprintf(what, sizeof what, "unexpected key \"%s\"",
				 key);
			return problem(file, what);
		}
	}
	size = json_object_get(*root, "size");
	unit = json_object_get(*root, "unit");
	if (!json_is_integer(size) || json_integer_value(size) < 1)
		return problem(file, "\"size\" is not a positive integer");
	if (!json_is_string(unit) || strcmp(json_string_value(unit), "bytes"))
		return problem(file, "\"unit\" is not \"bytes\"");
	p->size = json_integer_value(size);
	return valid_list(file, *root, "entries", p->size, &p->entries)
	       && valid_list(file, *root, "messages", p->size, &p->messages);
}

static json_int_t field(json_t *list, size_t k, size_t f)
{
	return json_integer_value(json_array_get(json_array_get(list, k), f));
}

static int pair_order(json_int_t wi, json_int_t wj, json_int_t gi,
		      json_int_t gj)
{
	if (wi != gi)
		return wi < gi ? -1 : 1;
	if (wj != gj)
		return wj < gj ? -1 : 1;
	return 0;
}

/* Both lists are sorted by (i, j): walk them like a merge. */
static int compare_lists(const char *name, const struct list *want,
			 const struct list *got)
{
	size_t a = 0, b = 0;
	int differences = 0;

	while (a < want->count || b < got->count) {
		json_int_t wi = 0, wj = 0, gi = 0, gj = 0;
		int order;

		if (a < want->count) {
			wi = field(want->items, a, 0);
			wj = field(want->items, a, 1);
		}
		if (b < got->count) {
			gi = field(got->items, b, 0);
			gj = field(got->items, b, 1);
		}
		order = a >= want->count ? 1 : b >= got->count ? -1
			: pair_order(wi, wj, gi, gj);
		if (order < 0) {
			printf("# %s (%lld, %lld): expected %lld, missing\n",
			       name, (long long)wi, (long long)wj,
			       (long long)field(want->items, a, 2));
			a++;
			differences++;
		} else if (order > 0) {
			printf("# %s (%lld, %lld): not expected, got %lld\n",
			       name, (long long)gi, (long long)gj,
			       (long long)field(got->items, b, 2));
			b++;
			differences++;
		} else {
			json_int_t wv = field(want->items, a, 2);
			json_int_t gv = field(got->items, b, 2);

			if (wv != gv) {
				printf("# %s (%lld, %lld): expected %lld, got "
				       "%lld\n", name, (long long)wi,
				       (long long)wj, (long long)wv,
				       (long long)gv);
				differences++;
			}
			a++;
			b++;
		}
	}
	return differences;
}

int main(int argc, char **argv)
{
	json_t *want_root = NULL, *got_root = NULL;
	struct parsed want, got;
	int differences = 0, status;

	if (argc != 3) {
		fprintf(stderr, "usage: compare EXPECTED ACTUAL\n");
		return 2;
	}
	if (!parse(argv[1], &want_root, &want)) {
		json_decref(want_root);
		return 2;
	}
	if (!parse(argv[2], &got_root, &got)) {
		status = 1;
	} else if (want.size != got.size) {
		printf("# size: expected %lld, got %lld\n",
		       (long long)want.size, (long long)got.size);
		status = 1;
	} else {
		differences += compare_lists("entries", &want.entries,
					     &got.entries);
		differences += compare_lists("messages", &want.messages,
					     &got.messages);
		if (differences)
			printf("# %d differences\n", differences);
		status = differences ? 1 : 0;
	}
	json_decref(want_root);
	json_decref(got_root);
	return status;
}
