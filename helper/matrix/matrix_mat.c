/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * matrix_mat.c - TreeMatch's plain .mat file: N lines of N numbers, row i
 * holding what rank i sends to each rank (doc/matrix-format.md).  Errors
 * give 1-based line:column positions, as compilers do.
 */
#include <config.h>

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/matrix_parse.h"

typedef struct mat_reader {
	const char *name;
	locale_t c_locale;  /* numbers are read the same in every locale */
	char *scratch;      /* a NUL-terminated copy of the token for strtod */
	size_t scratch_size;
	size_t n;           /* columns of the first row: the order */
	size_t first_line;  /* the line of that row */
	size_t rows;
	tm_entry_list list;
} mat_reader;

/* A token in an error: quoted, non-printable bytes as \xNN (a binary file
 * must still give one readable line), cut with "..." past TM_BRIEF_MAX. */
static size_t escape_byte(unsigned char c, char piece[5])
{
	if (c == '"' || c == '\\')
		return (size_t)snprintf(piece, 5, "\\%c", c);
	if (c < 0x21 || c > 0x7e)
		return (size_t)snprintf(piece, 5, "\\x%02x", c);
	piece[0] = (char)c;
	piece[1] = '\0';
	return 1;
}

static const char *quote_token(const char *token, size_t len,
			       char out[TM_BRIEF_MAX + 1])
{
	size_t whole = 0, used = 0;
	char piece[5];

	for (size_t p = 0; p < len; p++)
		whole += escape_byte((unsigned char)token[p], piece);
	/* Two quotes always; "..." too when the token does not fit. */
	size_t room = whole + 2 <= TM_BRIEF_MAX ? whole : TM_BRIEF_MAX - 5;

	out[used++] = '"';
	for (size_t p = 0; p < len; p++) {
		size_t plen = escape_byte((unsigned char)token[p], piece);
		if (used - 1 + plen > room)
			break;
		memcpy(out + used, piece, plen);
		used += plen;
	}
	if (room < whole) {
		memcpy(out + used, "...", 3);
		used += 3;
	}
	out[used++] = '"';
	out[used] = '\0';
	return out;
}

/* strtod's decimal syntax only: [+-] digits [. digits] [e [+-] digits],
 * with at least one digit before the exponent.  Hex, "inf" and "nan",
 * which strtod would also take, are not numbers in a matrix file. */
static int is_decimal(const char *token, size_t len)
{
	size_t p = 0, digits = 0, exponent_digits = 0;

	if (p < len && (token[p] == '+' || token[p] == '-'))
		p++;
	for (; p < len && token[p] >= '0' && token[p] <= '9'; p++)
		digits++;
	if (p < len && token[p] == '.')
		for (p++; p < len && token[p] >= '0' && token[p] <= '9'; p++)
			digits++;
	if (digits == 0)
		return 0;
	if (p < len && (token[p] == 'e' || token[p] == 'E')) {
		p++;
		if (p < len && (token[p] == '+' || token[p] == '-'))
			p++;
		for (; p < len && token[p] >= '0' && token[p] <= '9'; p++)
			exponent_digits++;
		if (exponent_digits == 0)
			return 0;
	}
	return p == len;
}

/* The token as a weight; the status says what is wrong with it. */
static tm_status read_number(mat_reader *reader, const char *token,
			     size_t len, double *w)
{
	if (!is_decimal(token, len))
		return TM_ERR_SYNTAX;
	if (len + 1 > reader->scratch_size) {
		char *bigger = realloc(reader->scratch, len + 1);
		if (!bigger)
			return TM_ERR_NOMEM;
		reader->scratch = bigger;
		reader->scratch_size = len + 1;
	}
	memcpy(reader->scratch, token, len);
	reader->scratch[len] = '\0';
	*w = strtod_l(reader->scratch, NULL, reader->c_locale);
	/* Overflow gives HUGE_VAL; underflow gives a tiny finite value,
	 * which is a fine weight. */
	return tm__weight_is_valid(*w) ? TM_OK : TM_ERR_VALUE;
}

static size_t count_tokens(const char *line, size_t len)
{
	size_t count = 0;

	for (size_t p = 0; p < len; p++)
		if (!tm__is_blank(line[p]) && (p == 0 || tm__is_blank(line[p - 1])))
			count++;
	return count;
}

static tm_status read_row(mat_reader *reader, const char *line, size_t len,
			  size_t line_number, tm_error *err)
{
	size_t count = count_tokens(line, len), column = 0, p = 0;

	if (reader->rows == 0) {
		if (count > TM_MATRIX_MAX_ORDER)
			return tm_error_set(err, TM_ERR_FORMAT,
					    "%s:%zu: %zu numbers: expected at "
					    "most %d (the largest size)",
					    reader->name, line_number, count,
					    TM_MATRIX_MAX_ORDER);
		reader->n = count;
		reader->first_line = line_number;
	} else if (count != reader->n) {
		return tm_error_set(err, TM_ERR_FORMAT,
				    "%s:%zu: expected %zu numbers (as on line "
				    "%zu), got %zu", reader->name, line_number,
				    reader->n, reader->first_line, count);
	}

	for (;;) {
		while (p < len && tm__is_blank(line[p]))
			p++;
		if (p == len)
			break;
		size_t start = p;
		while (p < len && !tm__is_blank(line[p]))
			p++;

		double w = 0;
		tm_status status = read_number(reader, line + start,
					       p - start, &w);
		char got[TM_BRIEF_MAX + 1];

		if (status == TM_ERR_NOMEM)
			return tm_error_nomem(err);
		if (status != TM_OK)
			return tm_error_set(err, status,
					    "%s:%zu:%zu: expected a finite "
					    "number >= 0, got %s", reader->name,
					    line_number, start + 1,
					    quote_token(line + start, p - start,
							got));
		if (column != reader->rows && w > 0 &&
		    tm__entry_list_push(&reader->list, (int)reader->rows,
				       (int)column, w) != 0)
			return tm_error_nomem(err);
		column++;
	}
	reader->rows++;
	return TM_OK;
}

static int is_blank_line(const char *line, size_t len)
{
	for (size_t p = 0; p < len; p++)
		if (!tm__is_blank(line[p]))
			return 0;
	return 1;
}

static tm_status read_lines(mat_reader *reader, const char *text, size_t len,
			    tm_error *err)
{
	size_t line_number = 0, blank_after_rows = 0;

	for (size_t start = 0; start < len;) {
		const char *newline = memchr(text + start, '\n', len - start);
		size_t end = newline ? (size_t)(newline - text) : len;
		const char *line = text + start;
		size_t line_len = end - start;

		line_number++;
		start = end + 1;
		if (is_blank_line(line, line_len)) {
			if (reader->rows > 0 && blank_after_rows == 0)
				blank_after_rows = line_number;
			continue;
		}
		if (reader->rows > 0 && reader->rows == reader->n)
			return tm_error_set(err, TM_ERR_FORMAT,
					    "%s:%zu: extra row: expected %zu "
					    "rows (the number of columns)",
					    reader->name, line_number,
					    reader->n);
		if (blank_after_rows)
			return tm_error_set(err, TM_ERR_FORMAT,
					    "%s:%zu: blank line between rows: "
					    "expected %zu rows (the number of "
					    "columns) without blank lines",
					    reader->name, blank_after_rows,
					    reader->n);
		tm_status status = read_row(reader, line, line_len,
					    line_number, err);
		if (status != TM_OK)
			return status;
	}
	if (reader->rows == 0)
		return tm_error_set(err, TM_ERR_FORMAT,
				    "%s: empty file: expected a JSON object "
				    "or rows of numbers", reader->name);
	if (reader->rows != reader->n)
		return tm_error_set(err, TM_ERR_FORMAT,
				    "%s: %zu rows: expected %zu (the number "
				    "of columns)", reader->name, reader->rows,
				    reader->n);
	return TM_OK;
}

tm_status tm__matrix_parse_mat(const char *name, const char *text, size_t len,
			      long order, tm_matrix **out, tm_error *err)
{
	mat_reader reader = { .name = name };
	tm_status status;

	*out = NULL;
	reader.c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (reader.c_locale == (locale_t)0)
		return tm_error_nomem(err);
	status = read_lines(&reader, text, len, err);
	if (status == TM_OK)
		status = tm__matrix_from_list(name, (int)reader.n, order, len,
					     &reader.list,
					     out, err);
	freelocale(reader.c_locale);
	free(reader.scratch);
	tm__entry_list_free(&reader.list);
	return status;
}
