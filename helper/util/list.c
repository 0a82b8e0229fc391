/* SPDX-License-Identifier: GPL-2.0-or-later */
/* list.c - number lists such as "0-3,8" (see tm_list.h). */
#include <config.h>

#include <errno.h>
#include <stdlib.h>

#include "tm_list.h"

int tm_list_parse(const char *text, long max_value, int max_count, int **out)
{
	int n = 0, cap = 16;
	int *list = malloc(sizeof(int) * (size_t)cap);
	const char *p = text;

	if (!list || !text)
		goto bad;
	while (*p) {
		char *end;
		long a, b;

		errno = 0;
		a = strtol(p, &end, 10);
		if (errno || end == p || a < 0 || a > max_value)
			goto bad;
		b = a;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (errno || end == p + 1 || b < a || b > max_value)
				goto bad;
			p = end;
		}
		if (b - a + 1 > (long)max_count - n)
			goto bad;
		while (n + (b - a + 1) > cap) {
			int *grown = realloc(list, sizeof(int) * (size_t)cap * 2);
			if (!grown)
				goto bad;
			list = grown;
			cap *= 2;
		}
		for (long x = a; x <= b; x++)
			list[n++] = (int)x;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			goto bad;
	}
	if (n == 0)
		goto bad;
	*out = list;
	return n;
bad:
	free(list);
	return -1;
}

int tm_compare_ints(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int tm_sort_unique(int *list, int n)
{
	int m = 0;

	qsort(list, (size_t)n, sizeof(int), tm_compare_ints);
	for (int i = 0; i < n; i++)
		if (m == 0 || list[m - 1] != list[i])
			list[m++] = list[i];
	return m;
}
