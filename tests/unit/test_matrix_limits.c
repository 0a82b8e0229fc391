/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_matrix_limits.c - what a matrix file or a tree: spec can make a node
 * spend (treematch-helper runs them for every step): a "size" that is not
 * the step's task count is refused before anything of that size exists, as
 * is one of more than TM_MATRIX_DENSE_MAX_ORDER ranks in a file of fewer
 * bytes than ranks (whoever reads it), a dense matrix costs a bounded multiple of its text, a large JSON file
 * that the direct reader cannot take is refused rather than handed to
 * jansson, and a tree: spec of too many leaves is refused before it is
 * built.  Each case runs in a child, whose peak RSS is measured alone.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "tm_matrix.h"
#include "tm_topology.h"

/* The peak RSS in KB of a child running fn(arg), which returns its exit
 * status (0 when it behaved); *status gets it.  The child measures itself
 * (RUSAGE_CHILDREN would give the largest of all children so far). */
static long child_peak_kb(int (*fn)(void *), void *arg, int *status)
{
	long kb = -1;
	int ws = 0, fds[2];
	pid_t pid;

	fflush(stdout);
	if (pipe(fds) < 0)
		return *status = -1;
	pid = fork();
	if (pid == 0) {
		struct rusage self;
		int rc = fn(arg);

		getrusage(RUSAGE_SELF, &self);
		kb = self.ru_maxrss;
		if (write(fds[1], &kb, sizeof(kb)) != sizeof(kb))
			rc = 1;
		fflush(stdout);
		_exit(rc);
	}
	close(fds[1]);
	if (pid < 0 || read(fds[0], &kb, sizeof(kb)) != sizeof(kb))
		kb = -1;
	close(fds[0]);
	if (pid < 0 || waitpid(pid, &ws, 0) != pid) {
		*status = -1;
		return -1;
	}
	*status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
	return kb;
}

static char *write_temp(const char *text, size_t len)
{
	const char *tmpdir = getenv("TMPDIR");
	static char path[4096];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "%s/test_matrix_limits.XXXXXX",
		 tmpdir && *tmpdir ? tmpdir : "/tmp");
	fd = mkstemp(path);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f || fwrite(text, 1, len, f) != len) {
		if (f)
			fclose(f);
		return NULL;
	}
	fclose(f);
	return path;
}

struct load_case {
	const char *path;
	long order;
	tm_status want;
	char want_text[200];
};

static int load(void *arg)
{
	struct load_case *c = arg;
	tm_matrix *m = NULL;
	tm_error err = { 0 };
	tm_status st = tm_matrix_load_sized(c->path, 0, c->order, &m, &err);

	if (st != c->want || (c->want_text[0] && !strstr(err.text, c->want_text))) {
		printf("# got status %d: %s\n", (int)st, st ? err.text : "ok");
		return 1;
	}
	tm_matrix_free(m);
	return 0;
}

/* A dense n x n matrix of one-digit weights: the most entries per byte. */
static char *dense_text(int n, size_t *len, const char *extra)
{
	/* per row: "[", n digits and n separators, "," or "]", "\n" */
	size_t size = (size_t)n * (2 * (size_t)n + 3) + 256;
	char *text = malloc(size), *p = text;

	if (!text)
		return NULL;
	p += sprintf(p, "{\"size\": %d, %s\"matrix\": [\n", n, extra);
	for (int r = 0; r < n; r++) {
		*p++ = '[';
		for (int c = 0; c < n; c++) {
			*p++ = (char)('1' + (r * 7 + c * 3) % 9);
			*p++ = c + 1 < n ? ',' : ']';
		}
		*p++ = r + 1 < n ? ',' : ']';
		*p++ = '\n';
	}
	p += sprintf(p, "}\n");
	*len = (size_t)(p - text);
	return text;
}

static void test_size_before_allocation(void)
{
	static const char text[] = "{\"size\":16777216,\"entries\":[]}";
	struct load_case c = { write_temp(text, strlen(text)), 4, TM_ERR_SIZE,
			       "the matrix's size is 16777216, but the job step "
			       "has 4 tasks" };
	int status;

	CHECK(c.path != NULL, "a 31-byte file of size 16777216 written");
	if (!c.path)
		return;
	long kb = child_peak_kb(load, &c, &status);
	CHECK(status == 0, "\"size\" 16777216 with --ntasks 4: refused, saying "
	      "both numbers");
	/* building it took 264 MB */
	CHECK(kb > 0 && kb < 32 * 1024, "... with a peak RSS of %ld KB, under "
	      "32 MB (the matrix of that size took 264 MB)", kb);
	c.order = -1;
	snprintf(c.want_text, sizeof(c.want_text), "\"size\": 16777216 ranks "
		 "in a file of %zu bytes: expected at least one byte per rank "
		 "above %d ranks", strlen(text), (int)TM_MATRIX_DENSE_MAX_ORDER);
	kb = child_peak_kb(load, &c, &status);
	CHECK(status == 0, "the same file without a task count (srun, "
	      "treematch-helper map and job, commprof): refused, saying the "
	      "rule");
	/* srun took 388 MB and treematch-helper map 3.96 GB, still growing */
	CHECK(kb > 0 && kb < 32 * 1024, "... with a peak RSS of %ld KB, under "
	      "32 MB", kb);
	unlink(c.path);
}

/* A file {"size": N, "entries": []} of `len` bytes, blanks before the
 * entries' "]"; its path (write_temp's), or NULL.  Written in blocks: a
 * malloc() of the whole file, freed, would raise glibc's mmap threshold
 * for the rest of this process and its children, and change the peaks
 * that the later cases measure. */
static char *padded(int n, size_t len)
{
	char head[64], blanks[65536];
	int h = snprintf(head, sizeof(head), "{\"size\": %d, \"entries\": [",
			 n);
	char *path = len >= (size_t)h + 2 ? write_temp(head, (size_t)h) : NULL;
	FILE *f = path ? fopen(path, "a") : NULL;
	size_t left = len - (size_t)h - 2;

	if (!f)
		return NULL;
	memset(blanks, ' ', sizeof(blanks));
	while (left > 0) {
		size_t part = left < sizeof(blanks) ? left : sizeof(blanks);

		if (fwrite(blanks, 1, part, f) != part)
			break;
		left -= part;
	}
	if (fputs("]}", f) == EOF)
		left = 1;
	if (fclose(f) != 0 || left > 0) {
		unlink(path);
		return NULL;
	}
	return path;
}

/* The rule's edges: up to TM_MATRIX_DENSE_MAX_ORDER ranks any file will
 * do; above it, one byte per rank; and a file that has them is served at
 * a cost bounded by its length (a few words per rank). */
static void test_size_per_byte(void)
{
	const int small = TM_MATRIX_DENSE_MAX_ORDER, big = 200000;
	struct load_case c = { padded(small, 40), -1, TM_OK, "" };
	int status;
	long kb;

	if (c.path)
		child_peak_kb(load, &c, &status);
	CHECK(c.path && status == 0, "\"size\": %d in 40 bytes loads (at most "
	      "%d ranks: any length)", small, small);
	c.path = padded(small + 1, 40);
	c.want = TM_ERR_SIZE;
	snprintf(c.want_text, sizeof(c.want_text), "\"size\": %d ranks in a "
		 "file of 40 bytes: expected at least one byte per rank above "
		 "%d ranks", small + 1, small);
	if (c.path)
		child_peak_kb(load, &c, &status);
	CHECK(c.path && status == 0, "\"size\": %d in 40 bytes: refused, "
	      "naming the file, \"size\" and the rule", small + 1);
	c.path = padded(big, (size_t)big - 1);
	snprintf(c.want_text, sizeof(c.want_text), "\"size\": %d ranks in a "
		 "file of %d bytes", big, big - 1);
	if (c.path)
		child_peak_kb(load, &c, &status);
	CHECK(c.path && status == 0, "\"size\": %d in %d bytes: refused",
	      big, big - 1);
	c.path = padded(big, (size_t)big);
	c.want = TM_OK;
	c.want_text[0] = '\0';
	kb = c.path ? child_peak_kb(load, &c, &status) : -1;
	CHECK(c.path && status == 0, "\"size\": %d in %d bytes (blanks) loads",
	      big, big);
	CHECK(kb > 0 && kb < 16 * 1024, "... with a peak RSS of %ld KB, under "
	      "16 MB", kb);
	if (c.path)
		unlink(c.path);
}

/* Above TM_MATRIX_LARGE_ORDER ranks, 8 bytes per rank: 16.8 MB of blanks
 * saying 16776961 ranks passed the one-byte rule and cost every reader
 * (treematch-helper map, --combine, commprof merge and info) 400 to 670
 * MB; now it is refused in one line, and a file that has its 8 bytes per
 * rank loads within 3.5 times its length. */
static void test_large_order(void)
{
	const int huge = 16776961, edge = 2 * TM_MATRIX_LARGE_ORDER;
	const size_t huge_len = 16800014;
	const size_t edge_len = (size_t)edge * TM_MATRIX_LARGE_BYTES_PER_RANK;
	struct load_case c = { padded(huge, huge_len), -1, TM_ERR_SIZE, "" };
	int status = -1;
	long kb;

	snprintf(c.want_text, sizeof(c.want_text), "\"size\": %d ranks in a "
		 "file of %zu bytes: expected at least %d bytes per rank above "
		 "%d ranks", huge, huge_len,
		 (int)TM_MATRIX_LARGE_BYTES_PER_RANK,
		 (int)TM_MATRIX_LARGE_ORDER);
	kb = c.path ? child_peak_kb(load, &c, &status) : -1;
	CHECK(c.path && status == 0, "\"size\": %d in %zu bytes of blanks: "
	      "refused, saying the rule", huge, huge_len);
	CHECK(kb > 0 && kb < 40 * 1024, "... with a peak RSS of %ld KB, under "
	      "40 MB (its rows took 400 MB)", kb);
	if (c.path)
		unlink(c.path);
	c.path = padded(edge, edge_len - 1);
	snprintf(c.want_text, sizeof(c.want_text), "\"size\": %d ranks in a "
		 "file of %zu bytes: expected at least", edge, edge_len - 1);
	if (c.path)
		child_peak_kb(load, &c, &status);
	CHECK(c.path && status == 0, "\"size\": %d in %zu bytes: refused",
	      edge, edge_len - 1);
	if (c.path)
		unlink(c.path);
	c.path = padded(edge, edge_len);
	c.want = TM_OK;
	c.want_text[0] = '\0';
	kb = c.path ? child_peak_kb(load, &c, &status) : -1;
	CHECK(c.path && status == 0, "\"size\": %d in %zu bytes loads", edge,
	      edge_len);
	/* the text, then the triangle's rows and the matrix's (8 bytes a
	 * rank each): 3 times; cursors in copies of the rows took 4 */
	CHECK(kb > 0 && kb < (long)(edge_len >> 10) * 7 / 2, "... with a peak "
	      "RSS of %ld KB, under 3.5 times the file", kb);
	if (c.path)
		unlink(c.path);
}

/* srun's check (tm_matrix_check_file) says what loading says, word for
 * word, and gives the size. */
static void test_check_agrees(void)
{
	static const char *const texts[] = {
		"{\"size\": 4, \"entries\": [[0, 1, 5], [1, 0, 2], [3, 2, 1], "
		"[2, 2, 9], [0, 3, 0]]}",
		"{\"size\": 2, \"entries\": [[0, 1, 1e308], [1, 0, 1e308]]}",
		"{\"size\": 3, \"entries\": [[0, 1, 1e308], [2, 1, 1e308], "
		"[1, 0, 1e308]]}",
		"{\"size\": 3, \"entries\": [[0, 1, 1e249], [0, 2, 1e249], "
		"[1, 2, 1e249], [1, 0, 1e249], [2, 0, 1e249], [2, 1, 1e249], "
		"[0, 1, 1e249], [0, 2, 1e249], [1, 2, 1e249], [2, 1, 1e249], "
		"[1, 0, 1e249]]}",
		"{\"size\": 2, \"entries\": [[0, 1, -1]]}",
		"{\"size\": 2, \"entries\": [[0, 2, 1]]}",
		"{\"size\": 2, \"matrix\": [[0, 3], [4, 0]]}",
		"0 1 2\n1 0 3\n2 3 0\n",
		"{\"size\": 5000, \"entries\": []}",
	};

	for (size_t t = 0; t < sizeof(texts) / sizeof(*texts); t++) {
		char *path = write_temp(texts[t], strlen(texts[t]));
		tm_matrix *m = NULL;
		tm_error load_err = { 0 }, check_err = { 0 };
		int size = -1;

		if (!path) {
			CHECK(0, "case %zu written", t);
			continue;
		}
		tm_status loaded = tm_matrix_load_limited(path, 0, &m,
							  &load_err);
		tm_status checked = tm_matrix_check_file(path, 0, &size,
							 &check_err);
		CHECK(loaded == checked && (loaded != TM_OK ||
					    size == m->n) &&
		      !strcmp(load_err.text, check_err.text),
		      "case %zu: the check says what loading says (%s)", t,
		      loaded == TM_OK ? "accepted" : load_err.text);
		tm_matrix_free(m);
		unlink(path);
	}
}

struct check_case {
	const char *path;
	int want_size;
};

static int check_only(void *arg)
{
	struct check_case *c = arg;
	tm_error err = { 0 };
	int size = -1;
	tm_status st = tm_matrix_check_file(c->path, 0, &size, &err);

	if (st != TM_OK || size != c->want_size) {
		printf("# got status %d, size %d: %s\n", (int)st, size,
		       st ? err.text : "ok");
		return 1;
	}
	return 0;
}

/* 32 MB of blanks may say 4 million ranks (8 bytes each, as the reader
 * asks above TM_MATRIX_LARGE_ORDER ranks): srun checks such a file at the
 * cost of its text, not of rows for every rank. */
static void test_check_cost(void)
{
	const int n = 4000000;
	const size_t len = (size_t)n * TM_MATRIX_LARGE_BYTES_PER_RANK;
	struct check_case c = { padded(n, len), n };
	int status = -1;
	long kb = c.path ? child_peak_kb(check_only, &c, &status) : -1;

	CHECK(c.path && status == 0, "tm_matrix_check_file: \"size\": %d in "
	      "%zu bytes of blanks: accepted, size %d", n, len, n);
	/* the rows take 64 MB more (16 bytes a rank) */
	CHECK(kb > 0 && kb < (long)(len >> 10) * 3 / 2 + 4096, "... with a "
	      "peak RSS of %ld KB, under 1.5 times the file", kb);
	if (c.path)
		unlink(c.path);
}

static void test_dense_cost(void)
{
	size_t len = 0;
	char *text = dense_text(1200, &len, "");
	struct load_case c = { text ? write_temp(text, len) : NULL, 1200, TM_OK,
			       "" };
	int status;

	free(text);
	CHECK(c.path != NULL, "a dense 1200 x 1200 matrix written");
	if (!c.path)
		return;
	long kb = child_peak_kb(load, &c, &status);
	double factor = (double)kb * 1024 / (double)len;
	printf("# dense 1200 x 1200, one-digit weights: %zu bytes, peak RSS "
	       "%ld KB, %.1f times the file\n", len, kb, factor);
	CHECK(status == 0, "the dense matrix loads");
	/* it was 33 times with the two counting sorts, 22 without the
	 * second copy of the halves, 16 with the triangle first */
	CHECK(factor < 20, "its peak RSS is under 20 times the file (%.1f)",
	      factor);
	unlink(c.path);
}

static void test_large_not_plain(void)
{
	size_t len = 0;
	/* 17 MiB of valid JSON that the direct reader declines (an escape) */
	char *text = dense_text(2950, &len, "\"unit\": \"b\\u0079tes\", ");
	struct load_case c = { text ? write_temp(text, len) : NULL, -1,
			       TM_ERR_FORMAT, "must be valid and plain" };
	int status;

	free(text);
	CHECK(c.path != NULL && len > (16u << 20), "%zu bytes of JSON with an "
	      "escaped string written", len);
	if (!c.path)
		return;
	long kb = child_peak_kb(load, &c, &status);
	CHECK(status == 0, "more than 16 MiB not in the plain shape: refused, "
	      "saying what is expected");
	CHECK(kb > 0 && kb < 3 * (long)(len >> 10), "... without building it "
	      "(peak RSS %ld KB for %zu bytes)", kb, len);
	unlink(c.path);
}

static int big_tree(void *arg)
{
	tm_tree *t = NULL;
	tm_error err = { 0 };
	tm_status st = tm_topology_load(arg, NULL, TM_LEAF_CORE, &t, &err);

	if (st != TM_ERR_USAGE || !strstr(err.text, "more than 1048576 leaves")) {
		printf("# got status %d: %s\n", (int)st, st ? err.text : "ok");
		return 1;
	}
	return 0;
}

static void test_tree_leaves(void)
{
	int status;
	long kb = child_peak_kb(big_tree, "tree:8388608,2", &status);

	CHECK(status == 0, "tree:8388608,2: refused, saying the bound");
	CHECK(kb > 0 && kb < 32 * 1024, "... before it is built (peak RSS %ld "
	      "KB; it took 3.6 GB)", kb);
	kb = child_peak_kb(big_tree, "tree:1024,1024,2", &status);
	CHECK(status == 0, "tree:1024,1024,2: refused (2 x 2^20 leaves)");
	tm_tree *t = NULL;
	tm_error err;
	CHECK(tm_topology_load("tree:1024,64", NULL, TM_LEAF_CORE, &t, &err) ==
	      TM_OK, "tree:1024,64 (65536 leaves) is built");
	tm_tree_free(t);
}

int main(void)
{
	test_size_before_allocation();
	test_size_per_byte();
	test_large_order();
	test_check_agrees();
	test_check_cost();
	test_dense_cost();
	test_large_not_plain();
	test_tree_leaves();
	return check_status();
}
