/* SPDX-License-Identifier: GPL-2.0-or-later */
/* names.c - a sorted index of names, for lookups by binary search: a
 * topology file of thousands of nodes is matched against a job's nodes
 * without a quadratic scan. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "job/names.h"

static int by_name(const void *a, const void *b)
{
	const tm__name_entry *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	/* ties by index, so that a duplicate's second occurrence is known */
	return c ? c : (x->index > y->index) - (x->index < y->index);
}

tm_status tm__name_index_build(char *const *names, int n, tm__name_index *ix,
			       int *dup, tm_error *err)
{
	ix->n = 0;
	ix->entry = malloc(sizeof(*ix->entry) * ((size_t)n + 1));
	if (!ix->entry)
		return tm_error_nomem(err);
	for (int k = 0; k < n; k++)
		ix->entry[k] = (tm__name_entry){ names[k], k };
	qsort(ix->entry, (size_t)n, sizeof(*ix->entry), by_name);
	ix->n = n;
	for (int k = 1; k < n; k++)
		if (strcmp(ix->entry[k - 1].name, ix->entry[k].name) == 0) {
			*dup = ix->entry[k].index;
			tm__name_index_free(ix);
			return TM_ERR_FORMAT;
		}
	return TM_OK;
}

int tm__name_index_find(const tm__name_index *ix, const char *name)
{
	int lo = 0, hi = ix->n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		int c = strcmp(ix->entry[mid].name, name);

		if (c == 0)
			return ix->entry[mid].index;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

void tm__name_index_free(tm__name_index *ix)
{
	free(ix->entry);
	ix->entry = NULL;
	ix->n = 0;
}
