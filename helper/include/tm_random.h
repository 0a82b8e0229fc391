/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tm_random.h - unpredictable bits for names other users must not guess
 * (the online segment, a matrix file's temporary file).
 */
#ifndef TM_RANDOM_H
#define TM_RANDOM_H

#include <stdint.h>

/* 64 bits from the kernel's generator; -1 with errno set when there are
 * none (getrandom blocks only before the pool is first ready, at boot). */
int tm_random_u64(uint64_t *bits);

#endif
