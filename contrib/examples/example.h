/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * example.h - what the example MPI programs share: reading their sizes
 * from the command line, and reporting a wrong result.
 *
 * Every example checks what it received and exits with status 1 when
 * something is wrong, 2 on bad arguments, so that "it finished" means
 * "it communicated correctly".
 */
#ifndef EXAMPLE_H
#define EXAMPLE_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

/* Argument `index` of the command line as a positive int, `fallback` when
 * absent; -1 (after a message from rank 0) when it is not one. */
static inline int example_arg(int argc, char **argv, int index, int fallback,
			      const char *name, int rank)
{
	char *end;
	long value;

	if (index >= argc)
		return fallback;
	value = strtol(argv[index], &end, 10);
	if (end == argv[index] || *end || value < 1 || value > INT_MAX / 16) {
		if (rank == 0)
			fprintf(stderr, "%s: %s must be a positive integer, "
				"not '%s'\n", argv[0], name, argv[index]);
		return -1;
	}
	return (int)value;
}

#endif /* EXAMPLE_H */
