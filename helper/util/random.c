/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * random.c - unpredictable bits (see tm_random.h).
 */
#include <config.h>

#include <errno.h>
#include <sys/random.h>

#include "tm_random.h"

int tm_random_u64(uint64_t *bits)
{
	size_t got = 0;

	while (got < sizeof(*bits)) {
		ssize_t n = getrandom((char *)bits + got, sizeof(*bits) - got,
				      0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		got += (size_t)n;
	}
	return 0;
}
