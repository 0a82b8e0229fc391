/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * switches.c - read Slurm's switch records (job/switches.h).
 *
 * Both `scontrol show topology` and topology.conf are lines of KEY=VALUE
 * words: SwitchName=NAME, Nodes=HOSTLIST, Switches=HOSTLIST; other keys
 * (Level=, LinkSpeed=) say nothing about the shape and are skipped.
 * topology/block (Slurm 23.11 and later) prints BlockName=NAME ...
 * Nodes=HOSTLIST lines: a block is read as a switch above its nodes, all
 * blocks under one root; its AggregatedBlock= lines (blocks of blocks,
 * named by a host list of blocks) are skipped, which keeps each block's
 * own nodes together and leaves only the aggregation levels unseen.
 * topology.conf adds '#' comments and lines continued by a final '\'.
 * scontrol lists under an upper switch all the nodes below it, not only
 * its own: switch_tree.c keeps each node under the lowest switch naming it.
 */
#include <config.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "job/names.h"
#include "job/switches.h"
#include "tm_job.h"
#include "util/grow.h"

typedef struct record {
	char *name, *switches, *nodes; /* into the text's copy */
	int line;
} record;

/* Comments become blanks and continued lines one line, in place; a
 * continuation newline becomes '\v', a blank that still counts a line. */
static void join_lines(char *s)
{
	for (char *p = s; *p; p++) {
		if (*p == '#')
			while (*p && *p != '\n')
				*p++ = ' ';
		if (*p == '\\') {
			char *q = p + 1;
			while (*q == ' ' || *q == '\t' || *q == '\r')
				q++;
			if (*q == '\n') {
				*p = ' ';
				while (p < q)
					*p++ = ' ';
				*q = '\v';
				p = q;
			}
		}
		if (!*p)
			break;
	}
}

static int blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int switch_name_ok(const char *s)
{
	if (!*s || strlen(s) > TM_JOB_MAX_NAME)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' &&
		    *s != '.')
			return 0;
	return 1;
}

/* The words of one line (NUL-terminated in place) into *r. */
static tm_status parse_line(const char *name, char *line, int lineno,
			    record *r, int *empty, tm_error *err)
{
	char *p = line;
	int words = 0, block = 0, aggregated = 0;

	*r = (record){ .line = lineno };
	while (*p) {
		while (blank((unsigned char)*p))
			p++;
		if (!*p)
			break;
		char *word = p;
		while (*p && !blank((unsigned char)*p))
			p++;
		if (*p)
			*p++ = '\0';
		words++;
		char *eq = strchr(word, '=');
		if (!eq || eq == word)
			return tm_error_set(err, TM_ERR_FORMAT,
					    "%s:%d: \"%.100s\": expected KEY=VALUE "
					    "words (SwitchName=, Nodes=, Switches=)",
					    name, lineno, word);
		*eq = '\0';
		char *value = eq + 1, **slot = NULL;
		if (strcasecmp(word, "SwitchName") == 0 ||
		    strcasecmp(word, "BlockName") == 0)
			slot = &r->name;
		else if (strcasecmp(word, "Nodes") == 0)
			slot = &r->nodes;
		else if (strcasecmp(word, "Switches") == 0)
			slot = &r->switches;
		else if (strcasecmp(word, "AggregatedBlock") == 0)
			aggregated = 1;
		else if (strcasecmp(word, "BlockSize") == 0 ||
			 strcasecmp(word, "BlockSizes") == 0)
			block = 1;
		if (!slot)
			continue;
		if (*slot)
			return tm_error_set(err, TM_ERR_FORMAT,
					    "%s:%d: %s= given twice, expected it "
					    "once per switch", name, lineno, word);
		/* scontrol prints a switch without nodes as Nodes=(null) */
		*slot = strcmp(value, "(null)") == 0 ? "" : value;
	}
	/* topology.conf's BlockSizes= line says nothing of the shape */
	*empty = words == 0 || ((aggregated || block) && !r->name);
	if (*empty)
		return TM_OK;
	if (!r->name)
		return tm_error_set(err, TM_ERR_FORMAT,
				    "%s:%d: expected SwitchName=NAME or "
				    "BlockName=NAME", name, lineno);
	if (!switch_name_ok(r->name))
		return tm_error_set(err, TM_ERR_FORMAT,
				    "%s:%d: SwitchName=%.100s: expected one name "
				    "of letters, digits, '-', '_' and '.'",
				    name, lineno, r->name);
	return TM_OK;
}

static tm_status read_records(const char *name, char *text, record **out,
			      int *n, tm_error *err)
{
	int cap = 0, lineno = 1;
	record *rec = NULL;

	*n = 0;
	for (char *p = text; *p;) {
		char *line = p, *nl = strchr(p, '\n');
		int here = lineno, empty;

		p = nl ? nl + 1 : p + strlen(p);
		if (nl)
			*nl = '\0';
		for (char *q = line; *q; q++)
			lineno += *q == '\v';
		lineno++;
		if (*n == cap) {
			if (cap == TM_JOB_MAX_SWITCHES) {
				free(rec);
				return tm_error_set(err, TM_ERR_FORMAT,
						    "%s:%d: more than %d switches",
						    name, here,
						    TM_JOB_MAX_SWITCHES);
			}
			int grown = cap ? 2 * cap : 64;
			if (tm__grow_array(&rec, sizeof(*rec), grown) < 0) {
				free(rec);
				return tm_error_nomem(err);
			}
			cap = grown;
		}
		tm_status st = parse_line(name, line, here, &rec[*n], &empty,
					  err);
		if (st != TM_OK) {
			free(rec);
			return st;
		}
		*n += !empty;
	}
	*out = rec;
	return TM_OK;
}

void tm__switches_free(tm__switches *s)
{
	if (!s || !s->sw)
		return;
	for (int k = 0; k < s->n; k++) {
		free(s->sw[k].name);
		free(s->sw[k].child);
		free(s->sw[k].node);
	}
	free(s->sw);
	s->sw = NULL;
	s->n = 0;
}

/* Switches=: every name a switch of the file, each under one parent. */
static tm_status link_children(const char *name, const record *r, int k,
			       tm__switches *s, const tm__name_index *ix,
			       tm_error *err)
{
	char what[64], **names;
	int count;
	tm_status st;

	if (!r->switches)
		return TM_OK;
	snprintf(what, sizeof(what), "%.40s:%d: Switches=", name, r->line);
	st = tm_hostlist_expand(what, r->switches, TM_JOB_MAX_SWITCHES,
				&names, &count, err);
	if (st != TM_OK)
		return st;
	s->sw[k].child = malloc(sizeof(int) * (size_t)count);
	if (!s->sw[k].child) {
		tm_hostlist_free(names, count);
		return tm_error_nomem(err);
	}
	for (int c = 0; c < count && st == TM_OK; c++) {
		int sw = tm__name_index_find(ix, names[c]);

		if (sw < 0)
			st = tm_error_set(err, TM_ERR_FORMAT,
					  "%s:%d: Switches= names %s, expected "
					  "a switch defined by a SwitchName= line",
					  name, r->line, names[c]);
		else if (sw == k || s->sw[sw].parent >= 0)
			st = tm_error_set(err, TM_ERR_FORMAT,
					  "%s:%d: switch %s is already under "
					  "switch %s, expected one parent per "
					  "switch", name, r->line, names[c],
					  sw == k ? names[c]
						  : s->sw[s->sw[sw].parent].name);
		else {
			s->sw[sw].parent = k;
			s->sw[k].child[s->sw[k].nchild++] = sw;
		}
	}
	tm_hostlist_free(names, count);
	return st;
}

/* Nodes=: keep the job's nodes only. */
static tm_status keep_job_nodes(const char *name, const record *r, int k,
				tm__switches *s, const tm__name_index *jobix,
				tm_error *err)
{
	char what[64], **names;
	int count;
	tm_status st;

	if (!r->nodes || !*r->nodes)
		return TM_OK;
	snprintf(what, sizeof(what), "%.40s:%d: Nodes=", name, r->line);
	st = tm_hostlist_expand(what, r->nodes, TM_JOB_MAX_FILE_NAMES, &names,
				&count, err);
	if (st != TM_OK)
		return st;
	int *node = malloc(sizeof(int) * ((size_t)count + 1)), n = 0;
	if (!node) {
		tm_hostlist_free(names, count);
		return tm_error_nomem(err);
	}
	for (int c = 0; c < count; c++) {
		int j = tm__name_index_find(jobix, names[c]);
		if (j >= 0)
			node[n++] = j;
	}
	tm_hostlist_free(names, count);
	s->sw[k].node = node;
	s->sw[k].nnode = n;
	return TM_OK;
}

static tm_status build(const char *name, const record *rec, int n,
		       char *const *nodes, int nnodes, tm__switches *s,
		       tm_error *err)
{
	tm__name_index ix, jobix;
	char **names = malloc(sizeof(char *) * ((size_t)n + 1));
	int dup = -1;
	tm_status st;

	if (!names)
		return tm_error_nomem(err);
	for (int k = 0; k < n; k++)
		names[k] = rec[k].name;
	st = tm__name_index_build(names, n, &ix, &dup, err);
	free(names);
	if (st == TM_ERR_FORMAT) {
		int first = 0;
		while (strcmp(rec[first].name, rec[dup].name) != 0)
			first++;
		return tm_error_set(err, TM_ERR_FORMAT,
				    "%s:%d: switch %s defined again, expected "
				    "one SwitchName= line per switch (first on "
				    "line %d)", name, rec[dup].line,
				    rec[dup].name, rec[first].line);
	}
	if (st != TM_OK)
		return st;
	st = tm__name_index_build(nodes, nnodes, &jobix, &dup, err);
	if (st != TM_OK) {
		tm__name_index_free(&ix);
		return st == TM_ERR_FORMAT
		       ? tm_error_set(err, TM_ERR_FORMAT, "job node %s listed "
				      "twice, expected each node once",
				      nodes[dup])
		       : st;
	}
	s->sw = calloc((size_t)n + 1, sizeof(*s->sw));
	if (!s->sw)
		st = tm_error_nomem(err);
	for (int k = 0; st == TM_OK && k < n; k++) {
		s->n++;
		s->sw[k].line = rec[k].line;
		s->sw[k].parent = -1;
		if (!(s->sw[k].name = strdup(rec[k].name)))
			st = tm_error_nomem(err);
	}
	for (int k = 0; st == TM_OK && k < n; k++) {
		st = link_children(name, &rec[k], k, s, &ix, err);
		if (st == TM_OK)
			st = keep_job_nodes(name, &rec[k], k, s, &jobix, err);
	}
	tm__name_index_free(&ix);
	tm__name_index_free(&jobix);
	return st;
}

tm_status tm__switches_parse(const char *name, const char *text, size_t len,
			     char *const *nodes, int nnodes,
			     tm__switches *out, tm_error *err)
{
	record *rec = NULL;
	int n = 0;
	tm_status st;

	*out = (tm__switches){ 0 };
	if (memchr(text, '\0', len))
		return tm_error_set(err, TM_ERR_FORMAT, "%s: a NUL byte, "
				    "expected text", name);
	char *copy = malloc(len + 1);
	if (!copy)
		return tm_error_nomem(err);
	memcpy(copy, text, len);
	copy[len] = '\0';
	join_lines(copy);
	st = read_records(name, copy, &rec, &n, err);
	if (st == TM_OK)
		st = build(name, rec, n, nodes, nnodes, out, err);
	if (st != TM_OK)
		tm__switches_free(out);
	free(rec);
	free(copy);
	return st;
}
