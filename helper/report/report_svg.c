/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_svg.c - a placement as a picture (see tm_report.h): the node as
 * nested boxes, one per tree node, each leaf labelled with its rank and
 * coloured by the rank's group, beside the matrix as a heat map with the
 * ranks in placement order; then the same for a second placement (packed).
 *
 * The size of the text is bounded: one box per tree node, and at most
 * SVG_BINS x SVG_BINS heat map cells whatever the matrix's order.
 */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tm_report.h"

enum {
	SVG_BINS = 256,      /* heat map cells per side, at most */
	SVG_PALETTE = 12,    /* group colours before they repeat */
};

/* Box geometry in SVG user units (pixels at scale 1). */
#define LEAF_W 66.0
#define LEAF_H 36.0
#define GAP 5.0
#define HEADER 15.0
#define MARGIN 16.0
#define ROW_TITLE 24.0
#define MAX_WIDTH 1800.0  /* wider drawings are scaled down to this */

/* Qualitative colours, light enough for black text, neighbours distinct. */
static const char *const palette[SVG_PALETTE] = {
	"#8dd3c7", "#fdb462", "#bebada", "#fb8072", "#80b1d3", "#b3de69",
	"#fccde5", "#ffed6f", "#bc80bd", "#ccebc5", "#d9d9d9", "#e5c494",
};

/* --- a growing text ------------------------------------------------ */

typedef struct sbuf {
	char *s;
	size_t len, cap;
	int failed;
} sbuf;

static void put(sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->failed)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL,
			      b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->failed = 1;
			return;
		}
		if (b->s && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		size_t cap = b->cap ? b->cap : 8192;
		while (cap <= b->len + (size_t)n)
			cap *= 2;
		char *s = realloc(b->s, cap);
		if (!s) {
			b->failed = 1;
			return;
		}
		b->s = s;
		b->cap = cap;
	}
}

/* Length of the valid UTF-8 sequence at s, or 0. */
static int utf8_len(const unsigned char *s)
{
	int n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* overlong, surrogates, beyond U+10FFFF */
	if ((n == 3 && s[0] == 0xe0 && s[1] < 0xa0) ||
	    (n == 3 && s[0] == 0xed && s[1] >= 0xa0) ||
	    (n == 4 && s[0] == 0xf0 && s[1] < 0x90) ||
	    (n == 4 && s[0] == 0xf4 && s[1] >= 0x90))
		return 0;
	return n;
}

/* s as XML character data (or an attribute value): markup escaped, and
 * what XML 1.0 cannot carry (control characters, bytes that are not
 * UTF-8: a path is any bytes) shown as '?', so the document stays
 * well-formed whatever the name. */
static void put_text(sbuf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	while (*p) {
		int n = utf8_len(p);

		switch (*p) {
		case '&': put(b, "&amp;"); break;
		case '<': put(b, "&lt;"); break;
		case '>': put(b, "&gt;"); break;
		case '"': put(b, "&quot;"); break;
		case '\'': put(b, "&apos;"); break;
		default:
			if (n == 0 || (*p < 0x20 && *p != '\t'))
				put(b, "?");
			else
				put(b, "%.*s", n, (const char *)p);
		}
		p += n ? n : 1;
	}
}

/* --- the node -------------------------------------------------------- */

typedef struct layout {
	double *w, *h, *x, *y;  /* per tree node */
	int *cols;              /* children per row */
} layout;

static void layout_free(layout *l)
{
	free(l->w);
	free(l->h);
	free(l->x);
	free(l->y);
	free(l->cols);
	*l = (layout){ 0 };
}

/* Sizes bottom up, children in a grid as close to 16:9 as their number
 * allows (lstopo puts siblings side by side and wraps long rows), then
 * positions top down from (x0, y0). */
static int layout_tree(const tm_tree *t, double x0, double y0, layout *l)
{
	size_t n = (size_t)t->nnodes;

	l->w = malloc(n * sizeof(double));
	l->h = malloc(n * sizeof(double));
	l->x = malloc(n * sizeof(double));
	l->y = malloc(n * sizeof(double));
	l->cols = malloc(n * sizeof(int));
	if (!l->w || !l->h || !l->x || !l->y || !l->cols)
		return -1;
	for (int v = t->nnodes - 1; v >= 0; v--) {
		int k = t->arity[v];
		double cw = 0, ch = 0, best = HUGE_VAL;

		if (k == 0) {
			l->w[v] = LEAF_W;
			l->h[v] = LEAF_H;
			l->cols[v] = 0;
			continue;
		}
		for (int c = 0; c < k; c++) {
			int u = t->first_child[v] + c;
			cw = l->w[u] > cw ? l->w[u] : cw;
			ch = l->h[u] > ch ? l->h[u] : ch;
		}
		for (int c = 1; c <= k; c++) {
			int rows = (k + c - 1) / c;
			double w = c * cw + (c + 1) * GAP;
			double h = HEADER + rows * ch + (rows + 1) * GAP;
			double off = fabs(log(w / h) - log(16.0 / 9.0));

			if (rows * c - k >= c) /* an empty last row */
				continue;
			if (rows * c != k) /* full rows read better */
				off += 0.5;
			if (off < best) {
				best = off;
				l->cols[v] = c;
				l->w[v] = w;
				l->h[v] = h;
			}
		}
	}
	l->x[0] = x0;
	l->y[0] = y0;
	for (int v = 0; v < t->nnodes; v++) {
		int k = t->arity[v];

		for (int c = 0; c < k; c++) {
			int u = t->first_child[v] + c;
			int col = c % l->cols[v], row = c / l->cols[v];
			double cw = (l->w[v] - (l->cols[v] + 1) * GAP) / l->cols[v];
			int rows = (k + l->cols[v] - 1) / l->cols[v];
			double ch = (l->h[v] - HEADER - (rows + 1) * GAP) / rows;

			l->x[u] = l->x[v] + GAP + col * (cw + GAP);
			l->y[u] = l->y[v] + HEADER + GAP + row * (ch + GAP);
			/* siblings of one level share a size: fill the cell */
			l->w[u] = cw;
			l->h[u] = ch;
		}
	}
	return 0;
}

/* Fill of a box that holds no rank, by level, as lstopo greys them. */
static const char *level_fill(const tm_tree *t, int d)
{
	if (d == 0)
		return "#ffffff";
	if (d == t->depth)
		return "#ffffff";
	return d % 2 ? "#e4e4e4" : "#f6f6f6";
}

static void draw_tree(sbuf *b, const tm_tree *t, const layout *l,
		      const int *rank_at, const int *group_of_rank,
		      const tm_report *r)
{
	for (int d = 0; d <= t->depth; d++) {
		for (int v = t->level_start[d]; v < t->level_start[d + 1]; v++) {
			int idx = v - t->level_start[d];
			int i = d == t->depth ? rank_at[idx] : -1;
			const char *fill = i >= 0
				? palette[group_of_rank[i] % SVG_PALETTE]
				: level_fill(t, d);

			put(b, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" "
			    "width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
			    "stroke=\"#000\" stroke-width=\"%s\"%s/>\n",
			    d == t->depth ? (i >= 0 ? "leaf used" : "leaf idle")
					  : "box",
			    l->x[v], l->y[v], l->w[v], l->h[v], fill,
			    d == t->depth ? "0.8" : "1",
			    d == t->depth && i < 0
			    ? " stroke-dasharray=\"3,2\"" : "");
			put(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\">",
			    l->x[v] + 4, l->y[v] + 11, d == t->depth ? 9 : 11);
			put_text(b, t->level_name[d]);
			put(b, " L#%d</text>\n", idx);
			if (d == t->depth && i >= 0)
				put(b, "<text class=\"rank\" x=\"%.1f\" y=\"%.1f\" "
				    "font-size=\"12\" font-weight=\"bold\">rank %d"
				    "</text>\n", l->x[v] + 4, l->y[v] + 28,
				    r->ranks[i]);
		}
	}
}

/* --- the matrix -------------------------------------------------------- */

static int ancestor_at(const tm_tree *t, int leaf, int d)
{
	int v = t->level_start[t->depth] + leaf;

	for (int k = t->depth; k > d; k--)
		v = t->parent[v];
	return v;
}


/* A weight for a label: three digits and an SI prefix (11 M, 30 k). */
static void put_si(sbuf *b, double v)
{
	static const char prefix[] = " kMGTPE";
	int p = 0;

	while (fabs(v) >= 1000 && p < (int)sizeof(prefix) - 2) {
		v /= 1000;
		p++;
	}
	if (p)
		put(b, "%.3g %c", v, prefix[p]);
	else
		put(b, "%.3g", v);
}

/* White (no traffic) is not on the ramp: light yellow, orange, dark red. */
static void ramp(double t, char out[8])
{
	static const double stop[3][3] = {
		{ 255, 255, 204 }, { 253, 141, 60 }, { 128, 0, 38 },
	};
	int s = t < 0.5 ? 0 : 1;
	double f = t < 0.5 ? t * 2 : (t - 0.5) * 2;
	int c[3];

	for (int k = 0; k < 3; k++)
		c[k] = (int)lround(stop[s][k] + f * (stop[s + 1][k] - stop[s][k]));
	snprintf(out, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
}

/* The heat map of m with the ranks in the order of their leaves, side
 * `side` units at (x0, y0); a strip of group colours along both axes,
 * lines between the node's boxes at level gl: what falls inside a block
 * is cheap. */
static int draw_heat(sbuf *b, const tm_report *r, const tm_matrix *m,
		     const int *leaf_of, const int *group_of_rank, int gl,
		     double x0, double y0, double side)
{
	int n = r->nranks, bins = n < SVG_BINS ? n : SVG_BINS;
	int *order = malloc(sizeof(int) * ((size_t)n + 1));
	int *pos = malloc(sizeof(int) * ((size_t)n + 1));
	double *cell = calloc((size_t)bins * (size_t)bins + 1, sizeof(double));
	double cs = side / bins, hi = 0;
	char colour[8];

	if (!order || !pos || !cell) {
		free(order);
		free(pos);
		free(cell);
		return -1;
	}
	/* placement order: by leaf, then by rank (stable counting) */
	for (int i = 0; i < n; i++)
		order[i] = i;
	for (int i = 1; i < n; i++) {
		int v = order[i], j = i;

		while (j > 0 && leaf_of[order[j - 1]] > leaf_of[v]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = v;
	}
	for (int p = 0; p < n; p++)
		pos[order[p]] = (int)((int64_t)p * bins / n);
	for (int i = 0; i < n && i < m->n; i++)
		for (int64_t e = m->row_start[i]; e < m->row_start[i + 1]; e++)
			if (m->col[e] < n)
				cell[(size_t)pos[i] * (size_t)bins +
				     (size_t)pos[m->col[e]]] += m->weight[e];
	for (size_t c = 0; c < (size_t)bins * (size_t)bins; c++)
		hi = cell[c] > hi ? cell[c] : hi;
	put(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
	    "fill=\"#ffffff\" stroke=\"#000\"/>\n", x0, y0, side, side);
	put(b, "<g class=\"heat\">\n");
	for (int bi = 0; bi < bins; bi++)
		for (int bj = 0; bj < bins; bj++) {
			double v = cell[(size_t)bi * (size_t)bins + (size_t)bj];

			if (v <= 0)
				continue;
			/* linear: a cell 300 times lighter in traffic looks
			 * it (a log scale made 0.03 MB look like 11 MB);
			 * the lightest still differs from white */
			ramp(v / hi, colour);
			put(b, "<rect class=\"cell\" x=\"%.2f\" y=\"%.2f\" "
			    "width=\"%.2f\" height=\"%.2f\" fill=\"%s\"/>\n",
			    x0 + bj * cs, y0 + bi * cs, cs, cs, colour);
		}
	put(b, "</g>\n");
	/* group strips: the first rank of each bin gives its colour */
	for (int p = 0; p < n; p++) {
		int bin = (int)((int64_t)p * bins / n);
		const char *g = palette[group_of_rank[order[p]] % SVG_PALETTE];

		if (p > 0 && (int)((int64_t)(p - 1) * bins / n) == bin)
			continue;
		put(b, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"6\" "
		    "fill=\"%s\"/>\n<rect x=\"%.1f\" y=\"%.2f\" width=\"6\" "
		    "height=\"%.2f\" fill=\"%s\"/>\n", x0 + bin * cs, y0 - 8,
		    cs, g, x0 - 8, y0 + bin * cs, cs, g);
		if (n <= 48)
			put(b, "<text x=\"%.1f\" y=\"%.2f\" font-size=\"%.1f\" "
			    "text-anchor=\"end\">%d</text>\n", x0 - 10,
			    y0 + (bin + 0.8) * cs, cs < 10 ? cs : 10.0,
			    r->ranks[order[p]]);
	}
	/* the boxes of level gl, in this placement */
	put(b, "<g class=\"bounds\" stroke=\"#555\" stroke-width=\"0.6\">\n");
	for (int p = 1; p < n; p++) {
		int bin = (int)((int64_t)p * bins / n);

		if (ancestor_at(r->tree, leaf_of[order[p]], gl) ==
		    ancestor_at(r->tree, leaf_of[order[p - 1]], gl) ||
		    (int)((int64_t)(p - 1) * bins / n) == bin)
			continue;
		put(b, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\"/>\n"
		    "<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\"/>\n",
		    x0 + bin * cs, y0, x0 + bin * cs, y0 + side,
		    x0, y0 + bin * cs, x0 + side, y0 + bin * cs);
	}
	put(b, "</g>\n");
	put(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">rows send to "
	    "columns; ranks in placement order%s</text>\n", x0, y0 + side + 16,
	    bins < n ? " (binned)" : "");
	/* the colour scale: linear from 0 to the heaviest cell, in the
	 * matrix's unit (bytes for commprof's) */
	double bar = side < 300 ? side : 300;
	put(b, "<g class=\"scale\">\n");
	for (int k = 0; k < 20; k++) {
		ramp((k + 0.5) / 20, colour);
		put(b, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
		    "height=\"10\" fill=\"%s\"/>\n", x0 + k * bar / 20,
		    y0 + side + 24, bar / 20 + 0.05, colour);
	}
	put(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"10\" "
	    "fill=\"none\" stroke=\"#000\" stroke-width=\"0.5\"/>\n",
	    x0, y0 + side + 24, bar);
	put(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">0</text>\n"
	    "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" "
	    "text-anchor=\"middle\">", x0, y0 + side + 46, x0 + bar / 2,
	    y0 + side + 46);
	put_si(b, hi / 2);
	put(b, "</text>\n<text class=\"scale-max\" x=\"%.1f\" y=\"%.1f\" "
	    "font-size=\"10\" text-anchor=\"end\">", x0 + bar,
	    y0 + side + 46);
	put_si(b, hi);
	put(b, "</text>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">"
	    "traffic per cell, linear (commprof: bytes); white: none"
	    "</text>\n</g>\n", x0, y0 + side + 60);
	free(order);
	free(pos);
	free(cell);
	return 0;
}

/* --- groups ---------------------------------------------------------- */

/* The level that names a rank's group: the deepest one above the leaves
 * at which a node holds several ranks and the groups fit the palette;
 * otherwise the top-level subtrees. */
static int group_level(const tm_report *r, int *count)
{
	const tm_tree *t = r->tree;

	for (int d = t->depth - 1; d >= 1; d--) {
		int groups = 0, several = 0;

		memset(count, 0, sizeof(int) * (size_t)t->nnodes);
		for (int i = 0; i < r->nranks; i++) {
			int v = ancestor_at(t, r->leaf_of[i], d);

			groups += count[v] == 0;
			several |= ++count[v] > 1;
		}
		if (several && groups <= SVG_PALETTE)
			return d;
	}
	return t->depth >= 1 ? 1 : 0;
}

static const double *cost_of(const tm_report *r, const char *name)
{
	for (int c = 0; c < r->ncosts; c++)
		if (strcmp(r->cost_name[c], name) == 0)
			return &r->cost[c];
	return NULL;
}

/* One row: the title, the node, the heat map.  Returns its height. */
static int draw_row(sbuf *b, const tm_report *r, const tm_matrix *m,
		    const int *leaf_of, const char *name, const int *group,
		    int gl, double y, double node_w, double node_h, double side,
		    int *rank_at, double *height)
{
	layout l = { 0 };
	const double *cost = cost_of(r, name), *packed = cost_of(r, "packed");
	const tm_tree *t = r->tree;

	for (int k = 0; k < t->nleaves; k++)
		rank_at[k] = -1;
	for (int i = r->nranks - 1; i >= 0; i--)
		rank_at[leaf_of[i]] = i;
	put(b, "<text class=\"title\" x=\"%.1f\" y=\"%.1f\" font-size=\"14\" "
	    "font-weight=\"bold\">", MARGIN, y + 15);
	put_text(b, name);
	if (cost)
		put(b, ": cost %.6g", *cost);
	/* a bare cost means little: its ratio to packed says how much
	 * closer the traffic is (x0.50: half of packed's) */
	if (cost && packed && *packed > 0)
		put(b, ", x%.2f packed%s", *cost / *packed,
		    strcmp(name, "packed") ? "" : " (the reference)");
	else if (cost && packed)
		put(b, " (packed costs 0 too)");
	put(b, "</text>\n");
	y += ROW_TITLE;
	if (layout_tree(t, MARGIN, y, &l) < 0) {
		layout_free(&l);
		return -1;
	}
	draw_tree(b, t, &l, rank_at, group, r);
	layout_free(&l);
	if (draw_heat(b, r, m, leaf_of, group, gl, MARGIN + node_w + 40,
		      y + 10, side) < 0)
		return -1;
	*height = ROW_TITLE + (node_h > side + 76 ? node_h : side + 76) + 20;
	return 0;
}

char *tm_report_svg(const tm_report *r, const tm_matrix *m,
		    const int *packed_leaf_of)
{
	const tm_tree *t = r->tree;
	sbuf b = { 0 };
	layout l = { 0 };
	int *count = calloc((size_t)t->nnodes + 1, sizeof(int));
	int *group = calloc((size_t)r->nranks + 1, sizeof(int));
	int *rank_at = malloc(sizeof(int) * ((size_t)t->nleaves + 1));
	int *colour_of = malloc(sizeof(int) * ((size_t)t->nnodes + 1));
	double node_w, node_h, side, width, height, h1, h2 = 0;
	int gl, ncolours = 0, rows = packed_leaf_of ? 2 : 1;

	if (!count || !group || !rank_at || !colour_of ||
	    layout_tree(t, 0, 0, &l) < 0)
		goto fail;
	node_w = l.w[0];
	node_h = l.h[0];
	layout_free(&l);
	side = r->nranks * 14.0;
	side = side < 200 ? 200 : side > 420 ? 420 : side;
	/* a tall node gets a heat map as tall, up to 800 */
	if (node_h - 44 > side)
		side = node_h - 44 < 800 ? node_h - 44 : 800;
	/* groups from the chosen placement; a rank keeps its colour in the
	 * second drawing, so what packed splits shows as mixed colours */
	gl = group_level(r, count);
	for (int v = 0; v < t->nnodes; v++)
		colour_of[v] = -1;
	for (int k = 0; k < t->nleaves; k++)
		rank_at[k] = -1;
	for (int i = 0; i < r->nranks; i++)
		rank_at[r->leaf_of[i]] = i;
	for (int k = 0; k < t->nleaves; k++) { /* colours left to right */
		int v = ancestor_at(t, k, gl);

		if (rank_at[k] >= 0 && colour_of[v] < 0)
			colour_of[v] = ncolours++;
	}
	for (int i = 0; i < r->nranks; i++)
		group[i] = colour_of[ancestor_at(t, r->leaf_of[i], gl)];
	/* the heat map's lines of text need about 360 units */
	width = MARGIN * 2 + node_w + 40 + (side > 360 ? side : 360) + 20;
	/* room for the first line (about 8 units a character) */
	size_t title_len = strlen(r->topology) + 40 +
			   (r->node ? strlen(r->node) : 0) +
			   (r->jobid ? strlen(r->jobid) : 0) +
			   (r->stepid ? strlen(r->stepid) : 0);
	if (width < MARGIN * 2 + 8.0 * (double)title_len)
		width = MARGIN * 2 + 8.0 * (double)title_len;
	if (width < 720) /* the lines under the title */
		width = 720;
	put(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
	    "font-family=\"sans-serif\" ");
	/* the height is known once the rows are drawn: leave room */
	size_t size_at = b.len;
	put(&b, "%-80s>\n", "");
	put(&b, "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
	/* what a picture found in a directory later must say by itself:
	 * which node, job and step it shows (issue 25) */
	put(&b, "<text class=\"heading\" x=\"%.1f\" y=\"20\" "
	    "font-size=\"15\">%d rank%s", MARGIN, r->nranks,
	    r->nranks == 1 ? "" : "s");
	if (r->jobid) {
		put(&b, " of job ");
		put_text(&b, r->jobid);
	}
	if (r->stepid) {
		put(&b, r->jobid ? ", step " : " of step ");
		put_text(&b, r->stepid);
	}
	if (r->node) {
		put(&b, " on node ");
		put_text(&b, r->node);
	}
	put(&b, ", topology ");
	put_text(&b, r->topology);
	put(&b, "</text>\n<text x=\"%.1f\" y=\"38\" font-size=\"13\">"
	    "colour: a rank&apos;s ", MARGIN);
	put_text(&b, t->level_name[gl]);
	put(&b, " in the ");
	put_text(&b, r->algorithm);
	put(&b, " placement</text>\n<text x=\"%.1f\" y=\"55\" "
	    "font-size=\"13\">cost: each pair&apos;s traffic times the cost "
	    "of the level joining it, summed (lower is better); "
	    "xR: R times packed&apos;s</text>\n", MARGIN);
	height = 66;
	if (draw_row(&b, r, m, r->leaf_of, r->algorithm, group, gl, height,
		     node_w, node_h, side, rank_at, &h1) < 0)
		goto fail;
	height += h1;
	if (rows == 2) {
		if (draw_row(&b, r, m, packed_leaf_of, "packed", group, gl,
			     height, node_w, node_h, side, rank_at, &h2) < 0)
			goto fail;
		height += h2;
	}
	put(&b, "</svg>\n");
	if (b.failed)
		goto fail;
	{
		char head[96];
		int n = snprintf(head, sizeof(head),
				 "width=\"%.0f\" height=\"%.0f\" "
				 "viewBox=\"0 0 %.0f %.0f\"",
				 width > MAX_WIDTH ? MAX_WIDTH : width,
				 width > MAX_WIDTH ? height * MAX_WIDTH / width
						   : height, width, height);
		if (n < 0 || n > 80)
			goto fail;
		memcpy(b.s + size_at, head, (size_t)n);
	}
	free(count);
	free(group);
	free(rank_at);
	free(colour_of);
	return b.s;
fail:
	layout_free(&l);
	free(count);
	free(group);
	free(rank_at);
	free(colour_of);
	free(b.s);
	return NULL;
}
