/* SPDX-License-Identifier: GPL-2.0-or-later */
/* util/sort.h - a stable index sort (sort.c).  Private to the library. */
#ifndef TM_UTIL_SORT_H
#define TM_UTIL_SORT_H

/* Sort idx[0..n-1] by increasing key[idx[i]]; equal keys keep their order.
 * Returns -1 when out of memory. */
int tm__sort_indices(long *idx, long n, const double *key);

#endif /* TM_UTIL_SORT_H */
