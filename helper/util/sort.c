/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sort.c - stable sorting of index arrays by a key.
 *
 * qsort has no context argument (a key table would have to be a global) and
 * is not stable; the algorithms need both a key and deterministic ties, so
 * this is a plain merge sort: equal keys keep their input order.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "util/sort.h"



static void merge_pass(const long *src, long *dst, long n, long width,
		       const double *key)
{
	for (long lo = 0; lo < n; lo += 2 * width) {
		long mid = lo + width < n ? lo + width : n;
		long hi = lo + 2 * width < n ? lo + 2 * width : n;
		long a = lo, b = mid, o = lo;

		while (a < mid && b < hi)
			dst[o++] = key[src[b]] < key[src[a]] ? src[b++] : src[a++];
		while (a < mid)
			dst[o++] = src[a++];
		while (b < hi)
			dst[o++] = src[b++];
	}
}

int tm__sort_indices(long *idx, long n, const double *key)
{
	long *tmp = malloc(sizeof(*tmp) * (size_t)(n > 0 ? n : 1));
	long *src = idx, *dst = tmp;

	if (!tmp)
		return -1;
	for (long width = 1; width < n; width *= 2) {
		merge_pass(src, dst, n, width, key);
		long *swap = src;
		src = dst;
		dst = swap;
	}
	if (src != idx)
		memcpy(idx, src, sizeof(*idx) * (size_t)n);
	free(tmp);
	return 0;
}
