/* SPDX-License-Identifier: GPL-2.0-or-later */
/* text.c - messages that reach people (see tm_spank.h). */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tm_spank.h"

void text_clean(char *dst, size_t size, const char *src, size_t len)
{
	size_t o = 0;

	if (size == 0)
		return;
	for (size_t i = 0; i < len && src[i] && o + 1 < size; i++) {
		unsigned char c = (unsigned char)src[i];

		dst[o++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	dst[o] = '\0';
}

/* Straight to stderr with one write, so that lines from several tasks or
 * threads do not interleave, and so that srun -Q does not hide them. */
void say(const char *fmt, ...)
{
	char line[TEXT_MAX + 2];
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	if (write(STDERR_FILENO, line, (size_t)n) < 0) {
		/* nowhere left to report it */
	}
}

/* A text of any length (a report of many lines), with a newline added, in
 * as few writes as the kernel allows. */
void say_text(const char *text, size_t len)
{
	char *buf = malloc(len + 1);
	size_t done = 0;

	if (!buf)
		return;
	memcpy(buf, text, len);
	buf[len++] = '\n';
	while (done < len) {
		ssize_t n = write(STDERR_FILENO, buf + done, len - done);
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	free(buf);
}
