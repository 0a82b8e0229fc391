/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tm_list.h - lists of numbers as Slurm, taskset and hwloc write them:
 * "0-3,8,10-11".  Ranks, CPUs and cores all come this way.
 */
#ifndef TM_LIST_H
#define TM_LIST_H

/* Parse text into *out (malloc()ed; ranges expanded, in the order
 * written).  Every number must be in 0..max_value, and at most max_count
 * of them.  Returns how many, or -1 when text is not such a list (empty,
 * a range that goes down, junk, out of range, too many) or on ENOMEM; the
 * caller says which list was wrong, in its own words. */
int tm_list_parse(const char *text, long max_value, int max_count, int **out);

/* qsort's comparison of two ints, increasing. */
int tm_compare_ints(const void *a, const void *b);

/* Sort list[0..n) increasing and drop repeats; returns the new length. */
int tm_sort_unique(int *list, int n);

#endif /* TM_LIST_H */
