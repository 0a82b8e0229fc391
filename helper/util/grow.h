/* SPDX-License-Identifier: GPL-2.0-or-later */
/* util/grow.h - growing arrays kept side by side (grow.c). */
#ifndef TM_UTIL_GROW_H
#define TM_UTIL_GROW_H

#include <stddef.h>

/* Reallocate the array whose pointer is at arrayp (any T **) to cap
 * elements of elem bytes.  0, or -1 when out of memory, the array then as
 * it was: parallel arrays grown one after another all stay valid, so the
 * caller raises its capacity only once all of them have grown. */
int tm__grow_array(void *arrayp, size_t elem, int cap);

#endif /* TM_UTIL_GROW_H */
