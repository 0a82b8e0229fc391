/* SPDX-License-Identifier: GPL-2.0-or-later */
/* job/names.h - finding a host or switch name among many (names.c). */
#ifndef TM_JOB_NAMES_H
#define TM_JOB_NAMES_H

#include "tm_error.h"

typedef struct tm__name_entry {
	const char *name; /* not owned */
	int index;
} tm__name_entry;

typedef struct tm__name_index {
	int n;
	tm__name_entry *entry; /* sorted by name */
} tm__name_index;

/* Index names[0..n).  A name given twice is TM_ERR_FORMAT: *dup is then
 * the index of its second occurrence; err is left to the caller, which
 * knows what the names are. */
tm_status tm__name_index_build(char *const *names, int n, tm__name_index *ix,
			       int *dup, tm_error *err);
/* The index of name, or -1. */
int tm__name_index_find(const tm__name_index *ix, const char *name);
void tm__name_index_free(tm__name_index *ix);

#endif /* TM_JOB_NAMES_H */
