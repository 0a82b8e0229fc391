/* SPDX-License-Identifier: GPL-2.0-or-later */
/* error.c - status descriptions and error reports (see tm_error.h). */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tm_error.h"

const char *tm_strerror(tm_status status)
{
	switch (status) {
	case TM_OK:           return "success";
	case TM_ERR_NOMEM:    return "out of memory";
	case TM_ERR_IO:       return "cannot read file";
	case TM_ERR_SYNTAX:   return "syntax error";
	case TM_ERR_FORMAT:   return "unexpected structure";
	case TM_ERR_VALUE:    return "invalid value";
	case TM_ERR_RANGE:    return "rank out of range";
	case TM_ERR_SIZE:     return "size mismatch";
	case TM_ERR_TOPOLOGY: return "unusable topology";
	case TM_ERR_USAGE:    return "invalid argument";
	}
	return "unknown error";
}

tm_status tm_error_set(tm_error *err, tm_status status, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return status;
	err->status = status;
	va_start(ap, fmt);
	vsnprintf(err->text, sizeof(err->text), fmt, ap);
	va_end(ap);
	/* One line: a newline inside a quoted file name would break it. */
	for (char *p = err->text; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	return status;
}

tm_status tm_error_nomem(tm_error *err)
{
	return tm_error_set(err, TM_ERR_NOMEM, "%s", tm_strerror(TM_ERR_NOMEM));
}
