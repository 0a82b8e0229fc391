/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_cli.c - treematch-helper as users and the SPANK plugin run it: the
 * JSON it prints, the options that shape a placement, its exit statuses.
 * Runs the built program (top_builddir) on matrices written to a temp dir.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "check.h"

static char helper[1024], dir[64];

typedef struct run {
	int status;      /* exit status, -1 if it did not exit */
	char *out, *err; /* whole stdout and stderr */
	json_t *json;    /* stdout parsed, or NULL */
} run;

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, got;

	if (!f)
		return strdup("");
	do {
		if (len + 4096 + 1 > cap) {
			cap = cap ? 2 * cap : 8192;
			buf = realloc(buf, cap);
		}
		got = fread(buf + len, 1, 4096, f);
		len += got;
	} while (got > 0);
	fclose(f);
	buf[len] = '\0';
	return buf;
}

/* Run the helper with args (a shell-quoted string, our own). */
static run helper_run(const char *args)
{
	char cmd[4096];
	run r = { -1, NULL, NULL, NULL };

	snprintf(cmd, sizeof(cmd), "cd %s && '%s' %s >out 2>err", dir, helper,
		 args);
	int st = system(cmd);
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	snprintf(cmd, sizeof(cmd), "%s/out", dir);
	r.out = slurp(cmd);
	snprintf(cmd, sizeof(cmd), "%s/err", dir);
	r.err = slurp(cmd);
	r.json = json_loads(r.out, 0, NULL);
	return r;
}

static void run_free(run *r)
{
	free(r->out);
	free(r->err);
	json_decref(r->json);
}

static void write_file(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

/* rank r's first CPU in the placement, or -1 */
static int cpu_of(const run *r, int rank)
{
	json_t *list = json_object_get(r->json, "placement"), *item;
	size_t i;

	json_array_foreach(list, i, item)
		if (json_integer_value(json_object_get(item, "rank")) == rank)
			return atoi(json_string_value(json_object_get(item, "cpus")));
	return -1;
}

static const char *cpus_of(const run *r, size_t index)
{
	json_t *item = json_array_get(json_object_get(r->json, "placement"), index);
	return json_string_value(json_object_get(item, "cpus"));
}

static double cost_of(const run *r, const char *name)
{
	return json_number_value(json_object_get(json_object_get(r->json, "cost"),
						 name));
}

static const char fig1[] =
	"{\"size\": 8, \"matrix\": ["
	"[0,1000,10,1,100,1,1,1],[1000,0,1000,1,1,100,1,1],"
	"[10,1000,0,1000,1,1,100,1],[1,1,1000,0,1,1,1,100],"
	"[100,1,1,1,0,1000,10,1],[1,100,1,1,1000,0,1000,1],"
	"[1,1,100,1,10,1000,0,1000],[1,1,1,100,1,1,1000,0]]}\n";

/* pack:2 l2:3 core:2 numbers CPUs as cores: L2 = cpu / 2, package = cpu / 6 */
static void paper_example(void)
{
	run r = helper_run("map --matrix fig1.json "
			   "--topology 'synthetic:pack:2 l2:3 core:2'");

	CHECK(r.status == 0 && r.json, "Fig. 1 through the CLI: exit 0, JSON out");
	CHECK_STR(json_string_value(json_object_get(r.json, "algorithm")),
		  "treematch", "JSON names the algorithm");
	CHECK_INT(json_integer_value(json_object_get(r.json, "size")), 8,
		  "JSON gives the matrix size");
	CHECK_INT(json_array_size(json_object_get(r.json, "placement")), 8,
		  "JSON places the 8 ranks");
	int l2_ok = 1;
	for (int k = 0; k < 8; k += 2)
		l2_ok &= cpu_of(&r, k) / 2 == cpu_of(&r, k + 1) / 2;
	CHECK(l2_ok, "Fig. 1: pairs (0,1) (2,3) (4,5) (6,7) share an L2");
	CHECK(cpu_of(&r, 0) / 6 == cpu_of(&r, 3) / 6 &&
	      cpu_of(&r, 4) / 6 == cpu_of(&r, 7) / 6 &&
	      cpu_of(&r, 0) / 6 != cpu_of(&r, 4) / 6,
	      "Fig. 1: ranks 0-3 in one package, 4-7 in the other");
	CHECK(cost_of(&r, "treematch") < cost_of(&r, "packed") &&
	      cost_of(&r, "treematch") < cost_of(&r, "round-robin"),
	      "JSON costs: treematch below packed and round-robin");
	CHECK(json_is_number(json_object_get(r.json, "seconds")),
	      "JSON gives the time taken");
	/* rank 2 would need 1, 3 and 6 beside it, rank 1 needs 0, 2 and 5,
	 * rank 5 needs 4 and 6: seven ranks for a 6-core package */
	CHECK(json_is_false(json_object_get(r.json, "proven-optimal")),
	      "Fig. 1: no placement reaches the bound, none is called optimal");
	run again = helper_run("map --matrix fig1.json "
			       "--topology 'synthetic:pack:2 l2:3 core:2'");
	json_object_del(r.json, "seconds");
	json_object_del(again.json, "seconds");
	CHECK(again.json && json_equal(r.json, again.json),
	      "the same input gives the same placement");
	run_free(&again);
	run_free(&r);
}

/* Two pairs that exchange much, on two packages of two cores: each pair
 * on its own package is as good as placement gets, and the helper says so
 * in both forms. */
static void proven_optimal(void)
{
	write_file("pairs.json", "{\"size\": 4, \"entries\": [[0, 1, 100], "
				 "[2, 3, 100], [0, 2, 1]]}\n");
	run r = helper_run("map --matrix pairs.json --topology tree:2,2");

	CHECK(r.status == 0 && cpu_of(&r, 0) / 2 == cpu_of(&r, 1) / 2 &&
	      cpu_of(&r, 2) / 2 == cpu_of(&r, 3) / 2,
	      "two heavy pairs on 2x2: each pair shares a package");
	CHECK(json_is_true(json_object_get(r.json, "proven-optimal")),
	      "two heavy pairs on 2x2: JSON says proven optimal");
	run_free(&r);
	r = helper_run("map --matrix pairs.json --topology tree:2,2 "
		       "--format text");
	CHECK(r.status == 0 && strstr(r.out, "treematch: proven optimal, no "
				      "placement on this tree costs less\n"),
	      "two heavy pairs on 2x2: the text says proven optimal");
	run_free(&r);
	r = helper_run("map --matrix pairs.json --topology tree:2,2 "
		       "--algorithm round-robin");
	CHECK(json_is_false(json_object_get(r.json, "proven-optimal")),
	      "round-robin splits both pairs: not called optimal");
	run_free(&r);
}

static void options(void)
{
	run r = helper_run("map --matrix fig1.json --topology tree:2,3,2 "
			   "--ranks 5,1,3");
	json_t *list = json_object_get(r.json, "placement");
	CHECK(r.status == 0 && json_array_size(list) == 3 &&
	      json_integer_value(json_object_get(json_array_get(list, 0), "rank")) == 5 &&
	      json_integer_value(json_object_get(json_array_get(list, 2), "rank")) == 3,
	      "--ranks 5,1,3: the placement lists ranks 5, 1, 3 in that order");
	run_free(&r);

	r = helper_run("map --matrix fig1.json --topology "
		       "'synthetic:pack:2 l2:3 core:2' --cpus-per-task 2 --ranks 0-5");
	int pairs_ok = r.status == 0;
	for (size_t i = 0; i < 6 && pairs_ok; i++) {
		int a, b;
		pairs_ok = sscanf(cpus_of(&r, i), "%d-%d", &a, &b) == 2 &&
			   b == a + 1 && a % 2 == 0;
	}
	CHECK(pairs_ok, "--cpus-per-task 2: every rank gets the two cores of an L2");
	run_free(&r);

	r = helper_run("map --matrix fig1.json --topology "
		       "'synthetic:pack:2 core:4' --restrict 0-4 --ranks 0-4");
	int inside = r.status == 0;
	for (size_t i = 0; i < 5 && inside; i++)
		inside = atoi(cpus_of(&r, i)) <= 4;
	CHECK(inside, "--restrict 0-4 (one package and a core): all ranks inside");
	run_free(&r);

	r = helper_run("map --matrix fig1.json --topology "
		       "'synthetic:pack:2 core:4' --slurm-cores 4-7 --ranks 0-3");
	int second = r.status == 0;
	for (size_t i = 0; i < 4 && second; i++)
		second = atoi(cpus_of(&r, i)) >= 4;
	CHECK(second, "--slurm-cores 4-7: the ranks go to the second package");
	run_free(&r);

	r = helper_run("map --matrix fig1.json --topology tree:2,2");
	int load[4] = { 0 }, even = r.status == 0;
	for (size_t i = 0; i < 8 && even; i++) {
		int c = atoi(cpus_of(&r, i));
		even = c >= 0 && c < 4;
		if (even)
			load[c]++;
	}
	for (int c = 0; c < 4; c++)
		even &= load[c] == 2;
	CHECK(even, "8 ranks on 4 cores: exit 0, two ranks on every core");
	CHECK(strstr(r.err, "warning: 8 ranks on 4 cores") != NULL,
	      "8 ranks on 4 cores: a one-line warning says so");
	CHECK(cpu_of(&r, 0) == cpu_of(&r, 1) && cpu_of(&r, 2) == cpu_of(&r, 3),
	      "8 ranks on 4 cores: the heaviest pairs share a core");
	run_free(&r);

	r = helper_run("map --matrix ring4.json --topology "
		       "'synthetic:pack:1 core:1 pu:1'");
	CHECK(r.status == 0 && r.json,
	      "4 ranks on a single core: placed, no crash");
	run_free(&r);

	r = helper_run("map --matrix fig1.json --topology tree:2,3,2 "
		       "--format text");
	CHECK(r.status == 0 && strstr(r.out, "rank") && strstr(r.out, "packed"),
	      "--format text: a table with the ranks and the costs");
	run_free(&r);

	r = helper_run("map --matrix fig1.json --topology tree:2,3,2 "
		       "--algorithm packed");
	CHECK(r.status == 0 && cpu_of(&r, 0) == 0 && cpu_of(&r, 7) == 7,
	      "--algorithm packed: rank i on core i");
	run_free(&r);
}

static void statuses(void)
{
	static const struct {
		const char *args;
		int status;
		const char *what;
	} cases[] = {
		{ "--help", 0, "--help exits 0" },
		{ "--version", 0, "--version exits 0" },
		{ "map --help", 0, "map --help exits 0" },
		{ "", 2, "no command: exit 2" },
		{ "frobnicate", 2, "unknown command: exit 2" },
		{ "map --topology tree:2", 2, "map without --matrix: exit 2" },
		{ "map --matrix fig1.json --bind thread", 2, "--bind thread: exit 2" },
		{ "map --matrix fig1.json --nope", 2, "unknown option: exit 2" },
		{ "map --matrix fig1.json --ranks 0,0", 2, "--ranks 0,0: exit 2" },
		{ "map --matrix fig1.json --topology tree:2,3,2 --level-costs 1",
		  2, "--level-costs with the wrong count: exit 2" },
		{ "map --matrix fig1.json --topology xml:/nonexistent.xml", 1,
		  "a missing topology file: exit 1" },
		{ "map --matrix fig1.json --topology tree:2,x", 2,
		  "--topology tree:2,x: exit 2" },
		{ "map --matrix fig1.json --topology tree:2,3,2 --restrict 0-x",
		  2, "--restrict 0-x: exit 2" },
		{ "map --matrix fig1.json --topology tree:2,3,2 --ntasks 9", 1,
		  "--ntasks that differs from the size: exit 1" },
		{ "map --matrix fig1.json --topology tree:2,3,2 --max-size 10",
		  1, "a file over --max-size: exit 1" },
		{ "map --matrix /dev/zero --topology tree:2,3,2 --max-size 4096",
		  1, "an endless file with --max-size: exit 1" },
		{ "map --matrix fig1.json --topology tree:2,3,2 --max-size 0",
		  2, "--max-size 0: exit 2" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		run r = helper_run(cases[i].args);
		CHECK_INT(r.status, cases[i].status, "%s", cases[i].what);
		if (cases[i].status != 0) {
			char *nl = strchr(r.err, '\n');
			CHECK(nl && nl[1] == '\0' &&
			      strncmp(r.err, "treematch-helper: ", 18) == 0,
			      "%s: one line on stderr, naming the program",
			      cases[i].what);
		}
		run_free(&r);
	}
	run big = helper_run("map --matrix fig1.json --topology tree:2,3,2 "
			     "--max-size 10");
	CHECK_STR(big.err, "treematch-helper: fig1.json: more than 10 bytes, "
		  "the limit (--max-size, the site's max_size)\n",
		  "--max-size: the message names the file and the limit");
	run_free(&big);
	run fits = helper_run("map --matrix fig1.json --topology tree:2,3,2 "
			      "--max-size 100000");
	CHECK_INT(fits.status, 0, "a file under --max-size maps");
	run_free(&fits);
	run r = helper_run("--version");
	CHECK(strstr(r.out, PACKAGE_VERSION) != NULL, "--version prints %s",
	      PACKAGE_VERSION);
	run_free(&r);
}

/* 4,096 ranks of a 3D stencil: maps, and better than packed (the time is
 * printed for information: timing goals are the benchmark's). */
static void large(void)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/s4096.json", dir);
	FILE *f = fopen(path, "w");
	int n = 16;
	fprintf(f, "{\"size\": %d, \"entries\": [", n * n * n);
	int first = 1;
	for (int z = 0; z < n; z++)
		for (int y = 0; y < n; y++)
			for (int x = 0; x < n; x++) {
				int me = (z * n + y) * n + x;
				if (x + 1 < n)
					fprintf(f, "%s[%d,%d,1000]", first ? "" : ",", me, me + 1), first = 0;
				if (y + 1 < n)
					fprintf(f, ",[%d,%d,1000]", me, me + n);
				if (z + 1 < n)
					fprintf(f, ",[%d,%d,1000]", me, me + n * n);
			}
	fprintf(f, "]}\n");
	fclose(f);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	run r = helper_run("map --matrix s4096.json --topology tree:16,4,8,8");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	CHECK(r.status == 0 &&
	      json_array_size(json_object_get(r.json, "placement")) == 4096,
	      "4,096 ranks of a 3D stencil are placed");
	CHECK(cost_of(&r, "treematch") < 0.5 * cost_of(&r, "packed"),
	      "4,096 ranks: TreeMatch costs less than half of packed");
	printf("# 4,096 ranks: %.2f s (informative)\n",
	       (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	run_free(&r);
}

int main(void)
{
	const char *builddir = getenv("top_builddir");

	snprintf(helper, sizeof(helper), "%s/helper/treematch-helper",
		 builddir ? builddir : ".");
	snprintf(dir, sizeof(dir), "/tmp/tm-cli.XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	write_file("fig1.json", fig1);
	write_file("ring4.json", "{\"size\": 4, \"entries\": [[0,1,1],[1,2,1],"
				 "[2,3,1],[3,0,1]]}\n");
	paper_example();
	proven_optimal();
	options();
	statuses();
	large();
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	return check_status();
}
