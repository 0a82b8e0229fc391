/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tm_error.h - status codes and error reports of the mapping library.
 *
 * The library never prints and never exits: a function that fails fills a
 * tm_error with a status and one line of text that names the file, the place
 * in it and what was expected, e.g.
 *   "m.json:3:17: expected a number >= 0, got -2"
 * and returns the status.  Callers decide how to show it.
 */
#ifndef TM_ERROR_H
#define TM_ERROR_H

typedef enum tm_status {
	TM_OK = 0,
	TM_ERR_NOMEM,    /* out of memory */
	TM_ERR_IO,       /* a file cannot be opened or read */
	TM_ERR_SYNTAX,   /* not valid JSON / .mat text (line and column given) */
	TM_ERR_FORMAT,   /* well-formed, but not the structure expected */
	TM_ERR_VALUE,    /* a weight that is negative, NaN or infinite */
	TM_ERR_RANGE,    /* a rank outside 0..size-1 */
	TM_ERR_SIZE,     /* a size that does not match what was asked for */
	TM_ERR_TOPOLOGY, /* a topology that cannot be loaded or used */
	TM_ERR_USAGE,    /* an invalid argument */
} tm_status;

enum { TM_ERROR_TEXT_MAX = 512 };

typedef struct tm_error {
	tm_status status;
	char text[TM_ERROR_TEXT_MAX]; /* one line, no trailing newline */
} tm_error;

/* A short fixed description of a status ("out of memory", ...). */
const char *tm_strerror(tm_status status);

/* Fill *err (err may be NULL) with status and a printf-style text; returns
 * status so that callers can write `return tm_error_set(err, ...);`. */
tm_status tm_error_set(tm_error *err, tm_status status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Shorthand for the most common failure. */
tm_status tm_error_nomem(tm_error *err);

#endif /* TM_ERROR_H */
