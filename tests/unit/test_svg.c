/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_svg.c - tm_report_svg on trees the command line cannot make: level
 * names and a topology name that are not XML text come out escaped, and a
 * matrix larger than the heat map is binned.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tm_matrix.h"
#include "tm_report.h"
#include "tm_tree.h"

static int count(const char *text, const char *what)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* A ring of n ranks on tree t, placed in rank order. */
static char *draw(tm_tree *t, int n, const char *topology, int packed)
{
	int *i = malloc(sizeof(int) * (size_t)n), *j = malloc(sizeof(int) * (size_t)n);
	int *ranks = malloc(sizeof(int) * (size_t)n);
	double *w = malloc(sizeof(double) * (size_t)n);
	tm_matrix *m = NULL;
	tm_error err = { 0 };
	char *svg = NULL;

	for (int k = 0; k < n; k++) {
		i[k] = k;
		j[k] = (k + 1) % n;
		w[k] = 1 + k % 7;
		ranks[k] = k;
	}
	if (tm_matrix_from_entries(n, (size_t)n, i, j, w, &m, &err) == TM_OK) {
		tm_report r = { .algorithm = "treematch", .topology = topology,
				.size = n, .nranks = n, .ranks = ranks,
				.leaf_of = ranks, .tree = t, .ncosts = 1,
				.cost_name = { "treematch" }, .cost = { 42 } };
		svg = tm_report_svg(&r, m, packed ? ranks : NULL);
	}
	tm_matrix_free(m);
	free(i);
	free(j);
	free(w);
	free(ranks);
	return svg;
}

int main(void)
{
	tm_error err = { 0 };
	int arity[] = { 2, 2, 2 };
	tm_tree *t = tm_tree_regular(3, arity, &err);
	char *svg;

	CHECK(t != NULL, "a tree of 8 leaves");
	if (!t)
		return check_status();
	free(t->level_name[1]);
	t->level_name[1] = strdup("<L3 & \"x\" 'y'>\x01\xff");
	svg = draw(t, 8, "xml:/a<b>&c.xml", 1);
	CHECK(svg != NULL, "an SVG for 8 ranks");
	if (svg) {
		CHECK(strstr(svg, "&lt;L3 &amp; &quot;x&quot; &apos;y&apos;&gt;??")
		      != NULL, "a level name is escaped, control and non-UTF-8 bytes replaced");
		CHECK(strstr(svg, "xml:/a&lt;b&gt;&amp;c.xml") != NULL,
		      "the topology name is escaped");
		CHECK(!strstr(svg, "<L3") && !strstr(svg, "/a<b"),
		      "no name goes in raw");
		CHECK_INT(count(svg, "class=\"rank\""), 16,
			  "each rank labelled once per drawing");
		CHECK_INT(count(svg, "class=\"cell\""), 32,
			  "a ring of 8: 16 heat map cells per drawing");
	}
	free(svg);
	tm_tree_free(t);

	/* 4096 ranks: binned to 256 x 256 at most */
	int big[] = { 16, 16, 16 };
	t = tm_tree_regular(3, big, &err);
	svg = t ? draw(t, 4096, "tree:16,16,16", 0) : NULL;
	CHECK(svg != NULL, "an SVG for 4096 ranks");
	if (svg) {
		int cells = count(svg, "class=\"cell\"");
		CHECK(cells > 0 && cells <= 256 * 256,
		      "4096 ranks: at most 256x256 cells (%d)", cells);
		CHECK_INT(count(svg, "class=\"rank\""), 4096,
			  "4096 ranks, each labelled");
	}
	free(svg);
	tm_tree_free(t);
	return check_status();
}
