/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz.h - what the libFuzzer targets share (tests/fuzz/fuzz_*.c).
 *
 * libFuzzer hands bytes that are not NUL-terminated; most parsers here take
 * C strings (an option's value, an environment variable), so a target
 * copies the input into a string of its own first.  ASan then sees a read
 * past the input's end as a read past the copy.
 */
#ifndef TM_FUZZ_H
#define TM_FUZZ_H
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tm_error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a string: NULL when out of memory (the input is skipped).
 * An embedded NUL ends the string early, as it would in argv or environ. */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}

/* Split s in place at '\n' into at most max words, for targets whose input
 * is a list (argv, plugstack arguments, variables); the count. */
static inline int fuzz_lines(char *s, char **word, int max)
{
	int n = 0;

	while (n < max) {
		word[n++] = s;
		s = strchr(s, '\n');
		if (!s)
			break;
		*s++ = '\0';
	}
	return n;
}
/* What every parser promises on failure: one line of text saying what
 * was wrong (an error that is empty or spans lines is a finding too). */
static inline void fuzz_check_error(tm_status st, const tm_error *err)
{
	if (st != TM_OK && (!err->text[0] || strchr(err->text, '\n')))
		abort();
}
#endif /* TM_FUZZ_H */
