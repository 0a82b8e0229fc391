/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_spank.c - the plugin's parts that need no cluster, on the Slurm
 * release it was built for: srun's command line as the option callback
 * reads it, the task counts of a job-wide layout, the site's keys, the
 * step's request from srun to slurmstepd (a round trip, and hostile
 * values from the user's environment), hostlists.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <slurm/slurm_version.h>

#include "check.h"
#include "jobwide_counts.h"
#include "request.h"
#include "slurm_compat.h"
#include "srun_args.h"
#include "tm_spank.h"

#define AT_LEAST(major, minor) \
	(SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(major, minor, 0))

/* ---- srun's command line ------------------------------------------------ */

static const struct spank_option own[] = {
	{ "comm-matrix", "FILE", "", 1, 0, NULL },
	{ "comm-matrix-keep-layout", NULL, "", 0, 0, NULL },
	{ "comm-matrix-topology", "TOPO", "", 1, 0, NULL },
	SPANK_OPTIONS_TABLE_END
};

/* Scan a command line given as one string of words. */
static int scan(const char *line, srun_args *a, char *store, size_t size)
{
	char *argv[64];
	int argc = 0;

	snprintf(store, size, "%s", line);
	for (char *w = strtok(store, " "); w && argc < 63; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	return srun_args_scan(argc, argv, own, a);
}

static void test_srun_args(void)
{
	char store[512];
	srun_args a;

	printf("# srun %s\n", compat_slurm_release());
	CHECK(scan("srun -N2 -n4 --comm-matrix=m.json ./app -n 9", &a, store,
		   sizeof(store)) == 0 && a.nodes && !strcmp(a.nodes, "2") &&
	      a.ntasks && !strcmp(a.ntasks, "4"),
	      "srun -N2 -n4 --comm-matrix=m.json ./app: -N and -n read, the "
	      "command's own -n left alone");
	CHECK(scan("srun -c2 --ntasks-per-n=2 --comm-matrix m.json app", &a,
		   store, sizeof(store)) == 0 && a.cpus_per_task &&
	      !strcmp(a.cpus_per_task, "2") && a.tasks_per_node &&
	      !strcmp(a.tasks_per_node, "2"),
	      "-c2 attached and --ntasks-per-n, a unique prefix of "
	      "--ntasks-per-node");
	CHECK(scan("srun --pty bash", &a, store, sizeof(store)) == 0,
	      "--pty (an optional argument, attached): bash is the command");
	CHECK(scan("srun -w n1 -m block -n2 app", &a, store, sizeof(store)) ==
	      0 && a.nodelist && a.distribution,
	      "-w and -m given: seen, so that Slurm's layout is kept");
	CHECK(scan("srun --comm-matrix-keep-layout -n2 app", &a, store,
		   sizeof(store)) == 0 && a.keep_layout,
	      "the plugin's own options are known");
	CHECK(scan("srun --container-image=x.sqsh -n4 app", &a, store,
		   sizeof(store)) == 0 && a.ntasks && !strcmp(a.ntasks, "4"),
	      "another plugin's option with its value attached is passed "
	      "over");
	CHECK(scan("srun --container-image x.sqsh -n4 app", &a, store,
		   sizeof(store)) < 0 &&
	      !strcmp(a.unknown, "--container-image"),
	      "... without '=' the line cannot be read, and the option is "
	      "named");
	CHECK(scan("srun -n4 app : -n2 other", &a, store, sizeof(store)) ==
	      0 && a.het_colon, "a heterogeneous step's ':' is seen");

	/* options that differ by release */
	int tree = scan("srun --treewidth 2 -n4 app", &a, store, sizeof(store));
	if (AT_LEAST(23, 11))
		CHECK(tree == 0 && a.ntasks && !strcmp(a.ntasks, "4"),
		      "--treewidth 2 (srun 23.11 and later): its value is "
		      "the next word");
	else
		CHECK(tree < 0 && !strcmp(a.unknown, "--treewidth"),
		      "--treewidth is not srun %s's", compat_slurm_release());
	int gid = scan("srun --gid 5 -n4 app", &a, store, sizeof(store));
	if (AT_LEAST(23, 2))
		CHECK(gid < 0, "--gid is gone from srun %s",
		      compat_slurm_release());
	else
		CHECK(gid == 0 && a.ntasks, "--gid 5 is srun 22.05's");
	int tpt = scan("srun --tres-per-task cpu:2 -n4 app", &a, store,
		       sizeof(store));
	CHECK(AT_LEAST(23, 2) ? tpt == 0 : tpt < 0,
	      "--tres-per-task with its value in the next word: %s",
	      AT_LEAST(23, 2) ? "srun's" : "unknown before 23.02");
	int oom = scan("srun --oom-kill-step -n4 app", &a, store,
		       sizeof(store));
	CHECK(AT_LEAST(24, 11) ? oom == 0 && a.ntasks : oom < 0,
	      "--oom-kill-step (an optional argument, 24.11 and later)");

	/* hostile lines: no crash, no read past the end */
	CHECK(scan("srun -n", &a, store, sizeof(store)) < 0,
	      "-n without its value: the line cannot be read");
	CHECK(scan("srun --comm-matrix", &a, store, sizeof(store)) < 0,
	      "--comm-matrix without its value: the line cannot be read");
	char *many[5002];
	many[0] = "srun";
	for (int i = 1; i < 5001; i++)
		many[i] = "-Q";
	many[5001] = NULL;
	CHECK(srun_args_scan(5001, many, own, &a) == 0,
	      "5,000 options: read to the end");
}

/* ---- task counts --------------------------------------------------------- */

static const char *counts(int ntasks, int nnodes, const int *cap)
{
	static char text[128];
	int count[16];
	size_t len = 0;

	if (jobwide_task_counts(ntasks, nnodes, cap, count) < 0)
		return "does not fit";
	for (int i = 0; i < nnodes; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%d",
					i ? "," : "", count[i]);
	return text;
}

static void test_task_counts(void)
{
	const int two[] = { 2, 2, 2, 2 }, one[] = { 1, 1, 1, 1 };
	const int mixed[] = { 4, 1, 1, 2 };

	CHECK_STR(counts(8, 4, two), "2,2,2,2", "8 tasks on 4 nodes of 2");
	CHECK_STR(counts(6, 4, two), "2,2,1,1",
		  "6 tasks on 4 nodes: the first nodes take one more");
	CHECK_STR(counts(4, 4, one), "1,1,1,1",
		  "salloc -c 2 on 2-CPU nodes: one task a node");
	CHECK_STR(counts(5, 4, one), "does not fit",
		  "5 tasks of 2 CPUs on 4 nodes of 2 CPUs");
	CHECK_STR(counts(8, 4, mixed), "4,1,1,2",
		  "a node without room passes its tasks to the next with room");
	CHECK_STR(counts(3, 4, two), "does not fit",
		  "fewer tasks than nodes: no node may stay empty");
}

/* ---- the site's keys ----------------------------------------------------- */

static void test_site_keys(void)
{
	site_config cfg;
	char *good[] = { "on_error=fail", "timeout=30", "bind=pu",
			 "algorithm=treematch", "nodes=no", "max_size=1048576" };
	char *bad[] = { "timeout=30", "timeout=forever" };
	char *unknown[] = { "colour=blue" };

	config_parse(&cfg, 6, good);
	CHECK(!cfg.error[0] && cfg.fail && cfg.timeout == 30 && cfg.bind_pu &&
	      !strcmp(cfg.algorithm, "treematch") && !cfg.nodes &&
	      cfg.max_size == 1048576,
	      "every key of a good line is taken (%s)", cfg.error);
	config_parse(&cfg, 2, bad);
	CHECK(cfg.error[0] && strstr(cfg.error, "timeout=forever"),
	      "a bad value names the key and value: %s", cfg.error);
	config_parse(&cfg, 1, unknown);
	CHECK(cfg.error[0] && strstr(cfg.error, "colour"),
	      "an unknown key is named: %s", cfg.error);
}

/* ---- the step's request ----------------------------------------------------- */

/* An environment of its own, as srun's or the job's would be. */
enum { VARS = 32 };
typedef struct fake_env {
	char name[VARS][64];
	char *value[VARS];
} fake_env;

static int env_get(void *ctx, const char *name, char *buf, size_t len,
		   int *cut)
{
	fake_env *e = ctx;

	for (int i = 0; i < VARS; i++)
		if (e->value[i] && !strcmp(e->name[i], name)) {
			*cut = strlen(e->value[i]) >= len;
			snprintf(buf, len, "%s", e->value[i]);
			return 0;
		}
	return -1;
}

static void env_unset(void *ctx, const char *name)
{
	fake_env *e = ctx;

	for (int i = 0; i < VARS; i++)
		if (e->value[i] && !strcmp(e->name[i], name)) {
			free(e->value[i]);
			e->value[i] = NULL;
		}
}

static void env_set(void *ctx, const char *name, const char *value)
{
	fake_env *e = ctx;

	env_unset(ctx, name);
	for (int i = 0; i < VARS; i++)
		if (!e->value[i]) {
			snprintf(e->name[i], sizeof(e->name[i]), "%s", name);
			e->value[i] = strdup(value);
			return;
		}
}

static int env_count(const fake_env *e, int nonempty)
{
	int n = 0;

	for (int i = 0; i < VARS; i++)
		n += e->value[i] && (!nonempty || e->value[i][0]);
	return n;
}

static void test_request(void)
{
	static fake_env store;
	request_env env = { env_get, env_set, env_unset, &store };
	static step_request sent, got;
	request_error err;
	char probe[64];
	int cut;

	snprintf(sent.matrix, sizeof(sent.matrix), "/home/u/m.json");
	strcpy(sent.report, "yes");
	strcpy(sent.algorithm, "treematch");
	snprintf(sent.topology, sizeof(sent.topology), "tree:2,4");
	env_set(&store, "SLURM_TREEMATCH_SVG", "yes"); /* stale, the user's */
	request_write(&sent, &env);
	CHECK(request_read(&got, &env, &err) == 0 &&
	      memcmp(&sent, &got, sizeof(sent)) == 0,
	      "a request reads back as srun wrote it (%s)", err.text);
	CHECK_INT(env_count(&store, 1), 4,
		  "... its 4 fields set, the stale --comm-matrix-svg blanked");
	request_clear(&env, 1);
	CHECK(env_count(&store, 0) == 1 &&
	      env_get(&store, "SLURM_TREEMATCH_MATRIX", probe, sizeof(probe),
		      &cut) == 0 && !strcmp(probe, sent.matrix),
	      "the tasks of a placed step keep only SLURM_TREEMATCH_MATRIX");
	request_clear(&env, 0);
	CHECK_INT(env_count(&store, 0), 0,
		  "other steps' tasks see none of the request's variables");
	for (int i = 0; request_variable(i); i++)
		CHECK(!strncmp(request_variable(i), "SLURM_TREEMATCH_", 16),
		      "%s survives --export=NONE (SLURM_*)",
		      request_variable(i));

	static const struct {
		const char *name, *value, *want;
	} hostile[] = {
		{ "SLURM_TREEMATCH_MATRIX", "m.json", "expected an absolute path" },
		{ "SLURM_TREEMATCH_REPORT", "1", "expected yes" },
		{ "SLURM_TREEMATCH_ALGORITHM", "rm -rf /", "expected one of" },
		{ "SLURM_TREEMATCH_TOPOLOGY", "tree:2\n--helper=/x",
		  "expected one line without control characters" },
		{ "SLURM_TREEMATCH_FALLBACK", "\033]0;owned\007",
		  "expected one line" },
	};
	for (size_t k = 0; k < sizeof(hostile) / sizeof(*hostile); k++) {
		request_clear(&env, 0);
		env_set(&store, hostile[k].name, hostile[k].value);
		int rc = request_read(&got, &env, &err);
		CHECK(rc < 0 && err.variable &&
		      !strcmp(err.variable, hostile[k].name) &&
		      strstr(err.text, hostile[k].want) &&
		      !strchr(err.text, '\n') && !strchr(err.text, '\033'),
		      "%s from the user's environment is refused in one clean "
		      "line: %s", hostile[k].name, err.text);
		CHECK(got.matrix[0] == '\0' && got.algorithm[0] == '\0',
		      "... and nothing of the request is left to use");
	}
	char *huge = malloc(1 << 20);
	memset(huge, 'a', (1 << 20) - 1);
	huge[0] = '/';
	huge[(1 << 20) - 1] = '\0';
	request_clear(&env, 0);
	env_set(&store, "SLURM_TREEMATCH_MATRIX", huge);
	CHECK(request_read(&got, &env, &err) < 0 &&
	      strstr(err.text, "at most 4095 bytes"),
	      "a 1 MB path is refused by its size: %.80s...", err.text);
	free(huge);
	request_clear(&env, 0);
}

/* ---- hostlists --------------------------------------------------------------- */

static void test_hostlists(void)
{
	char out[64];

	CHECK(compat_hostlist_join("n[1-3],m2", out, sizeof(out), 16) == 4 &&
	      !strcmp(out, "n1,n2,n3,m2"),
	      "Slurm's hostlist n[1-3],m2 expands in order (%s)", out);
	CHECK(compat_hostlist_join("n[1-100]", out, sizeof(out), 1000) < 0,
	      "100 hosts do not fit 64 bytes: refused, not cut");
	CHECK(compat_hostlist_join("n[1-100]", out, sizeof(out), 8) < 0,
	      "more hosts than allowed: refused");
}

int main(void)
{
	test_srun_args();
	test_task_counts();
	test_site_keys();
	test_request();
	test_hostlists();
	return check_status();
}
