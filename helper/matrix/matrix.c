/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * matrix.c - the symmetric sparse matrix (see tm_matrix.h): building it
 * from directed entries, taking submatrices, and reading it; and the
 * entry list in which the file readers collect those entries.
 */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/matrix_parse.h"

/* calloc for `count` items that never returns NULL merely because count
 * is 0, so that an empty matrix is not mistaken for a failure. */
static void *alloc_items(size_t count, size_t size)
{
	return calloc(count ? count : 1, size);
}

void tm_matrix_free(tm_matrix *m)
{
	if (!m)
		return;
	free(m->row_start);
	free(m->col);
	free(m->weight);
	free(m);
}

static tm_status check_entries(int n, size_t count, const int *i,
			       const int *j, const double *w, tm_error *err)
{
	if (n < 0)
		return tm_error_set(err, TM_ERR_USAGE,
				    "tm_matrix_from_entries: order %d: "
				    "expected n >= 0", n);
	if (count && (!i || !j || !w))
		return tm_error_set(err, TM_ERR_USAGE,
				    "tm_matrix_from_entries: %zu entries "
				    "but no arrays", count);
	if (count > SIZE_MAX / 2)
		return tm_error_nomem(err);
	for (size_t k = 0; k < count; k++) {
		if (i[k] < 0 || i[k] >= n || j[k] < 0 || j[k] >= n)
			return tm_error_set(err, TM_ERR_USAGE,
					    "tm_matrix_from_entries: entry %zu: "
					    "ranks %d and %d: expected 0..%d",
					    k, i[k], j[k], n - 1);
		if (!tm__weight_is_valid(w[k]))
			return tm_error_set(err, TM_ERR_USAGE,
					    "tm_matrix_from_entries: entry %zu: "
					    "weight %g: expected a finite "
					    "number >= 0", k, w[k]);
	}
	return TM_OK;
}

static int is_kept(int i, int j, double w)
{
	return i != j && w > 0;
}

/*
 * The matrix is built in two steps.  First each kept entry goes, in file
 * order, into the row of its smaller rank (the upper triangle: (i, j) and
 * (j, i) meet there), each row is sorted by column with a stable merge
 * sort, and repeated columns are added up in file order: that is where
 * w_ij + w_ji is summed, once for both sides, so the matrix is exactly
 * symmetric.  The reader's entry list is given back at that point.  Then
 * the triangle is mirrored into the full rows, which come out sorted.
 *
 * What a file costs is what a node spends on a user's input: the entry
 * list and the triangle at first, the triangle and the full rows later,
 * never a second copy of every half (a dense matrix file took 34 times
 * its size with the two counting sorts this replaced, 15 now).
 */

/* Stable merge sort of col[0..n) by column, weights along; tmp_col and
 * tmp_weight hold n items.  Already sorted runs (the usual case for files
 * written row by row) cost one pass. */
static void merge_sort_row(int *col, double *weight, int64_t n, int *tmp_col,
			   double *tmp_weight)
{
	int sorted = 1;

	for (int64_t p = 1; p < n && sorted; p++)
		sorted = col[p - 1] <= col[p];
	if (sorted)
		return;
	int *src_c = col, *dst_c = tmp_col;
	double *src_w = weight, *dst_w = tmp_weight;
	for (int64_t width = 1; width < n; width *= 2) {
		for (int64_t lo = 0; lo < n; lo += 2 * width) {
			int64_t mid = lo + width < n ? lo + width : n;
			int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			int64_t a = lo, b = mid, o = lo;

			while (a < mid && b < hi) {
				/* <=: the earlier half first on a tie */
				int64_t t = src_c[a] <= src_c[b] ? a++ : b++;
				dst_c[o] = src_c[t];
				dst_w[o++] = src_w[t];
			}
			for (; a < mid; a++, o++) {
				dst_c[o] = src_c[a];
				dst_w[o] = src_w[a];
			}
			for (; b < hi; b++, o++) {
				dst_c[o] = src_c[b];
				dst_w[o] = src_w[b];
			}
		}
		int *sc = src_c;
		double *sw = src_w;
		src_c = dst_c;
		src_w = dst_w;
		dst_c = sc;
		dst_w = sw;
	}
	if (src_c != col) {
		memcpy(col, src_c, (size_t)n * sizeof(*col));
		memcpy(weight, src_w, (size_t)n * sizeof(*weight));
	}
}

/* Add up the repeated columns of each row (they are adjacent after
 * sort_halves) and close the gaps they leave. */
static tm_status merge_repeats(tm_matrix *m, tm_error *err)
{
	int64_t kept = 0;

	for (int r = 0; r < m->n; r++) {
		int64_t start = m->row_start[r], end = m->row_start[r + 1];

		m->row_start[r] = kept;
		for (int64_t p = start; p < end; p++) {
			if (kept > m->row_start[r] &&
			    m->col[kept - 1] == m->col[p]) {
				m->weight[kept - 1] += m->weight[p];
				if (isinf(m->weight[kept - 1]))
					return tm_error_set(
						err, TM_ERR_VALUE,
						"ranks %d and %d: weights add "
						"up to infinity: expected a "
						"finite sum", r, m->col[p]);
				continue;
			}
			m->col[kept] = m->col[p];
			m->weight[kept] = m->weight[p];
			kept++;
		}
	}
	m->row_start[m->n] = kept;

	/* Give back what the repeats took; shrinking cannot lose data, so a
	 * failed realloc merely keeps the larger block. */
	if (kept > 0) {
		int *col = realloc(m->col, (size_t)kept * sizeof(*col));
		double *weight = realloc(m->weight,
					 (size_t)kept * sizeof(*weight));
		if (col)
			m->col = col;
		if (weight)
			m->weight = weight;
	}
	return TM_OK;
}

/* row_start[r] has been used as row r's cursor, and so holds the start of
 * row r + 1: shift the offsets back into place.  Cursors in row_start
 * itself rather than in a copy: a copy is 8 bytes more per rank at the
 * peak, and a file may say millions of ranks (tm_matrix.h). */
static void cursors_to_starts(int64_t *row_start, int n)
{
	memmove(row_start + 1, row_start, (size_t)n * sizeof(*row_start));
	row_start[0] = 0;
}

/* The upper triangle of the entries (see above) into up, whose n is set. */
static tm_status fill_triangle(tm_matrix *up, size_t count, const int *i,
			       const int *j, const double *w)
{
	int n = up->n;
	size_t kept = 0;

	for (size_t k = 0; k < count; k++)
		if (is_kept(i[k], j[k], w[k])) {
			kept++;
			up->row_start[(i[k] < j[k] ? i[k] : j[k]) + 1]++;
		}
	for (int r = 0; r < n; r++)
		up->row_start[r + 1] += up->row_start[r];
	up->col = alloc_items(kept, sizeof(*up->col));
	up->weight = alloc_items(kept, sizeof(*up->weight));
	if (!up->col || !up->weight)
		return TM_ERR_NOMEM;
	for (size_t k = 0; k < count; k++) {
		if (!is_kept(i[k], j[k], w[k]))
			continue;
		int low = i[k] < j[k] ? i[k] : j[k];
		int64_t p = up->row_start[low]++;
		up->col[p] = i[k] < j[k] ? j[k] : i[k];
		up->weight[p] = w[k];
	}
	cursors_to_starts(up->row_start, n);
	return TM_OK;
}

static tm_status sort_triangle(tm_matrix *up)
{
	int64_t longest = 0;

	for (int r = 0; r < up->n; r++)
		if (up->row_start[r + 1] - up->row_start[r] > longest)
			longest = up->row_start[r + 1] - up->row_start[r];
	int *tmp_col = alloc_items((size_t)longest, sizeof(*tmp_col));
	double *tmp_weight = alloc_items((size_t)longest, sizeof(*tmp_weight));
	if (!tmp_col || !tmp_weight) {
		free(tmp_col);
		free(tmp_weight);
		return TM_ERR_NOMEM;
	}
	for (int r = 0; r < up->n; r++)
		merge_sort_row(up->col + up->row_start[r],
			       up->weight + up->row_start[r],
			       up->row_start[r + 1] - up->row_start[r], tmp_col,
			       tmp_weight);
	free(tmp_col);
	free(tmp_weight);
	return TM_OK;
}

/* The full rows from the merged triangle: row x gets its columns below x
 * from the rows before it, in ascending order, then its own, so every row
 * comes out sorted. */
static tm_status mirror(const tm_matrix *up, tm_matrix *m)
{
	int n = m->n;
	int64_t halves = 2 * up->row_start[n];

	m->col = alloc_items((size_t)halves, sizeof(*m->col));
	m->weight = alloc_items((size_t)halves, sizeof(*m->weight));
	if (!m->col || !m->weight)
		return TM_ERR_NOMEM;
	for (int r = 0; r < n; r++)
		for (int64_t p = up->row_start[r]; p < up->row_start[r + 1]; p++) {
			m->row_start[r + 1]++;
			m->row_start[up->col[p] + 1]++;
		}
	for (int r = 0; r < n; r++)
		m->row_start[r + 1] += m->row_start[r];
	for (int r = 0; r < n; r++)
		for (int64_t p = up->row_start[r]; p < up->row_start[r + 1]; p++) {
			int c = up->col[p];
			int64_t q = m->row_start[r]++;

			m->col[q] = c;
			m->weight[q] = up->weight[p];
			q = m->row_start[c]++;
			m->col[q] = r;
			m->weight[q] = up->weight[p];
		}
	cursors_to_starts(m->row_start, n);
	return TM_OK;
}

/* Checked entries into *out; release(arg), when given, frees them once
 * they are no longer needed, before the full matrix is allocated. */
static tm_status build(int n, size_t count, const int *i, const int *j,
		       const double *w, void (*release)(void *), void *arg,
		       tm_matrix **out, tm_error *err)
{
	tm_matrix up = { .n = n }, *m;
	tm_status status;

	*out = NULL;
	up.row_start = alloc_items((size_t)n + 1, sizeof(*up.row_start));
	status = up.row_start ? fill_triangle(&up, count, i, j, w)
			      : TM_ERR_NOMEM;
	if (release)
		release(arg);
	if (status == TM_OK)
		status = sort_triangle(&up);
	if (status == TM_OK)
		status = merge_repeats(&up, err);
	else
		tm_error_nomem(err);
	m = status == TM_OK ? calloc(1, sizeof(*m)) : NULL;
	if (m) {
		m->n = n;
		m->row_start = alloc_items((size_t)n + 1, sizeof(*m->row_start));
		if (!m->row_start || mirror(&up, m) != TM_OK) {
			tm_matrix_free(m);
			m = NULL;
		}
		if (!m)
			status = tm_error_nomem(err);
	} else if (status == TM_OK) {
		status = tm_error_nomem(err);
	}
	free(up.row_start);
	free(up.col);
	free(up.weight);
	if (status != TM_OK)
		return status;
	*out = m;
	return TM_OK;
}

tm_status tm_matrix_from_entries(int n, size_t count, const int *i,
				 const int *j, const double *w,
				 tm_matrix **out, tm_error *err)
{
	tm_status status;

	*out = NULL;
	status = check_entries(n, count, i, j, w, err);
	if (status != TM_OK)
		return status;
	return build(n, count, i, j, w, NULL, NULL, out, err);
}

/*
 * The pairs among the chosen ranks are taken once each (from the row of
 * the one listed first) and rebuilt with tm_matrix_from_entries, which
 * sorts the renumbered columns in linear time.  Also NULL when `ranks`
 * holds a rank outside 0..n-1 or a rank twice: the caller's bug, which
 * must not corrupt memory.
 */
typedef struct column {
	int col;
	double weight;
} column;

static int by_column(const void *a, const void *b)
{
	int x = ((const column *)a)->col, y = ((const column *)b)->col;

	return (x > y) - (x < y);
}

/* Columns of one row were renumbered: put them back in ascending order,
 * weights moved along (columns of a row are distinct, so any sort gives
 * the same result).  Returns -1 when out of memory. */
static int sort_row(int *col, double *weight, int64_t n)
{
	if (n > 32) {
		column *c = alloc_items((size_t)n, sizeof(*c));
		if (!c)
			return -1;
		for (int64_t i = 0; i < n; i++)
			c[i] = (column){ col[i], weight[i] };
		qsort(c, (size_t)n, sizeof(*c), by_column);
		for (int64_t i = 0; i < n; i++) {
			col[i] = c[i].col;
			weight[i] = c[i].weight;
		}
		free(c);
		return 0;
	}
	for (int64_t i = 1; i < n; i++) {
		int c = col[i];
		double w = weight[i];
		int64_t j = i;

		while (j > 0 && col[j - 1] > c) {
			col[j] = col[j - 1];
			weight[j] = weight[j - 1];
			j--;
		}
		col[j] = c;
		weight[j] = w;
	}
	return 0;
}

/* The rows are already valid (symmetric, merged, no diagonal): only keep
 * the columns that are selected and renumber them, two passes, no sort of
 * the whole.  The partitioners call this at every split. */
tm_matrix *tm_matrix_subset(const tm_matrix *m, const int *ranks, int k)
{
	int *position = NULL;
	tm_matrix *sub = NULL;

	if (!m || k < 0 || (k > 0 && !ranks))
		return NULL;
	position = alloc_items((size_t)m->n, sizeof(*position));
	sub = calloc(1, sizeof(*sub));
	if (!position || !sub)
		goto fail;
	for (int r = 0; r < m->n; r++)
		position[r] = -1;
	for (int a = 0; a < k; a++) {
		if (ranks[a] < 0 || ranks[a] >= m->n || position[ranks[a]] >= 0)
			goto fail;
		position[ranks[a]] = a;
	}
	sub->n = k;
	sub->row_start = alloc_items((size_t)k + 1, sizeof(*sub->row_start));
	if (!sub->row_start)
		goto fail;
	sub->row_start[0] = 0;
	for (int a = 0; a < k; a++) {
		int64_t kept = 0;
		for (int64_t p = m->row_start[ranks[a]];
		     p < m->row_start[ranks[a] + 1]; p++)
			kept += position[m->col[p]] >= 0;
		sub->row_start[a + 1] = sub->row_start[a] + kept;
	}
	sub->col = alloc_items((size_t)sub->row_start[k], sizeof(*sub->col));
	sub->weight = alloc_items((size_t)sub->row_start[k], sizeof(*sub->weight));
	if (!sub->col || !sub->weight)
		goto fail;
	for (int a = 0; a < k; a++) {
		int64_t o = sub->row_start[a], first = o;
		int ordered = 1;

		for (int64_t p = m->row_start[ranks[a]];
		     p < m->row_start[ranks[a] + 1]; p++) {
			int c = position[m->col[p]];
			if (c < 0)
				continue;
			ordered &= o == first || sub->col[o - 1] < c;
			sub->col[o] = c;
			sub->weight[o++] = m->weight[p];
		}
		if (!ordered && sort_row(sub->col + first, sub->weight + first,
					 o - first) < 0)
			goto fail;
	}
	free(position);
	return sub;
fail:
	free(position);
	tm_matrix_free(sub);
	return NULL;
}

double tm_matrix_get(const tm_matrix *m, int i, int j)
{
	if (!m || i < 0 || i >= m->n || j < 0 || j >= m->n)
		return 0;
	int64_t low = m->row_start[i], high = m->row_start[i + 1];

	while (low < high) {
		int64_t mid = low + (high - low) / 2;

		if (m->col[mid] < j)
			low = mid + 1;
		else
			high = mid;
	}
	return low < m->row_start[i + 1] && m->col[low] == j ?
		m->weight[low] : 0;
}

/* Each pair is counted from its upper half (j > i), in a fixed order,
 * so that the total is the same on every run. */
double tm_matrix_total(const tm_matrix *m)
{
	double total = 0;

	if (!m)
		return 0;
	for (int r = 0; r < m->n; r++)
		for (int64_t p = m->row_start[r]; p < m->row_start[r + 1]; p++)
			if (m->col[p] > r)
				total += m->weight[p];
	return total;
}

int64_t tm_matrix_nnz(const tm_matrix *m)
{
	return m ? m->row_start[m->n] : 0;
}

int tm__entry_list_reserve(tm_entry_list *list, size_t capacity)
{
	int *i, *j;
	double *w;

	if (capacity <= list->capacity)
		return 0;
	if (capacity > SIZE_MAX / sizeof(double))
		return -1;
	/* Each array is stored back as soon as it is grown, so that a
	 * failure leaves a list that tm__entry_list_free can still free. */
	i = realloc(list->i, capacity * sizeof(*i));
	if (!i)
		return -1;
	list->i = i;
	j = realloc(list->j, capacity * sizeof(*j));
	if (!j)
		return -1;
	list->j = j;
	w = realloc(list->w, capacity * sizeof(*w));
	if (!w)
		return -1;
	list->w = w;
	list->capacity = capacity;
	return 0;
}

int tm__entry_list_push(tm_entry_list *list, int i, int j, double w)
{
	if (list->count == list->capacity &&
	    tm__entry_list_reserve(list, list->capacity ?
				  2 * list->capacity : 64) != 0)
		return -1;
	list->i[list->count] = i;
	list->j[list->count] = j;
	list->w[list->count] = w;
	list->count++;
	return 0;
}

void tm__entry_list_free(tm_entry_list *list)
{
	free(list->i);
	free(list->j);
	free(list->w);
	memset(list, 0, sizeof(*list));
}

static void release_list(void *list)
{
	tm__entry_list_free(list);
}

/* A kept entry and its place in the file, for check_without_rows. */
typedef struct pair_entry {
	int low, high;
	size_t k;
	double w;
} pair_entry;

static int by_pair_then_file(const void *a, const void *b)
{
	const pair_entry *x = a, *y = b;

	if (x->low != y->low)
		return x->low < y->low ? -1 : 1;
	if (x->high != y->high)
		return x->high < y->high ? -1 : 1;
	return (x->k > y->k) - (x->k < y->k);
}

/* What build() and the total below would say of the list, in the same
 * words and with the same sums, without a row: the kept entries sorted by
 * pair, then file order, add up in the order merge_repeats adds them, and
 * the pairs come in the order tm_matrix_total takes them (rows, then
 * columns).  Costs the entries, not the ranks. */
static tm_status check_without_rows(const char *name, const tm_entry_list *l,
				    tm_error *err)
{
	size_t kept = 0;
	pair_entry *e = alloc_items(l->count, sizeof(*e));
	double total = 0;

	if (!e)
		return tm_error_nomem(err);
	for (size_t k = 0; k < l->count; k++)
		if (is_kept(l->i[k], l->j[k], l->w[k]))
			e[kept++] = (pair_entry){
				l->i[k] < l->j[k] ? l->i[k] : l->j[k],
				l->i[k] < l->j[k] ? l->j[k] : l->i[k], k,
				l->w[k] };
	qsort(e, kept, sizeof(*e), by_pair_then_file);
	for (size_t a = 0; a < kept;) {
		double sum = e[a].w;
		size_t b = a + 1;

		for (; b < kept && e[b].low == e[a].low &&
		       e[b].high == e[a].high; b++) {
			sum += e[b].w;
			if (isinf(sum)) {
				int low = e[a].low, high = e[a].high;

				free(e);
				return tm_error_set(err, TM_ERR_VALUE, "%s: ranks "
						    "%d and %d: weights add up "
						    "to infinity: expected a "
						    "finite sum", name, low,
						    high);
			}
		}
		total += sum;
		a = b;
	}
	free(e);
	if (!(total <= TM_MATRIX_MAX_TOTAL))
		return tm_error_set(err, TM_ERR_RANGE, "%s: the weights add up "
				    "to %g: expected at most %g (scale them "
				    "down, e.g. to kilobytes)", name, total,
				    TM_MATRIX_MAX_TOTAL);
	return TM_OK;
}

tm_status tm__matrix_from_list(const char *name, int n, long order,
			      size_t len, tm_entry_list *list,
			      tm_matrix **out, tm_error *err)
{
	tm_error inner;

	*out = NULL;
	/* a 34-byte file can say "size": 16777216: the matrix's rows cost
	 * that much, so the step's own size is checked first, then the
	 * file's length (tm_matrix.h) */
	if (order >= 0 && n != order)
		return tm_error_set(err, TM_ERR_SIZE, "%s: the matrix's size is "
				    "%d, but the job step has %ld tasks", name,
				    n, order);
	if (n > TM_MATRIX_DENSE_MAX_ORDER && (size_t)n > len)
		return tm_error_set(err, TM_ERR_SIZE, "%s: \"size\": %d ranks "
				    "in a file of %zu bytes: expected at least "
				    "one byte per rank above %d ranks", name, n,
				    len, (int)TM_MATRIX_DENSE_MAX_ORDER);
	if (n > TM_MATRIX_LARGE_ORDER &&
	    (size_t)n > len / TM_MATRIX_LARGE_BYTES_PER_RANK)
		return tm_error_set(err, TM_ERR_SIZE, "%s: \"size\": %d ranks "
				    "in a file of %zu bytes: expected at least "
				    "%d bytes per rank above %d ranks", name, n,
				    len, (int)TM_MATRIX_LARGE_BYTES_PER_RANK,
				    (int)TM_MATRIX_LARGE_ORDER);
	if (order == TM__ORDER_CHECK_ONLY) {
		tm_status status = check_without_rows(name, list, err);

		tm__entry_list_free(list);
		*out = status == TM_OK ? calloc(1, sizeof(**out)) : NULL;
		if (status == TM_OK && !*out)
			return tm_error_nomem(err);
		if (*out)
			(*out)->n = n;
		return status;
	}
	tm_status status = check_entries(n, list->count, list->i, list->j,
					 list->w, &inner);
	if (status == TM_OK)
		status = build(n, list->count, list->i, list->j, list->w,
			       release_list, list, out, &inner);
	if (status == TM_ERR_NOMEM)
		return tm_error_nomem(err);
	if (status != TM_OK)
		return tm_error_set(err, status, "%s: %s", name, inner.text);
	/* Costs multiply the weights by the level costs and add them up: keep
	 * room for that, so that no cost becomes infinite. */
	double total = tm_matrix_total(*out);
	if (!(total <= TM_MATRIX_MAX_TOTAL)) {
		tm_matrix_free(*out);
		*out = NULL;
		return tm_error_set(err, TM_ERR_RANGE, "%s: the weights add up "
				    "to %g: expected at most %g (scale them "
				    "down, e.g. to kilobytes)", name, total,
				    TM_MATRIX_MAX_TOTAL);
	}
	return TM_OK;
}
