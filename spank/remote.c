/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * remote.c - slurmstepd, user_init, once per node and step (root's real
 * uid, the job user's effective ids; before any task exists): find this
 * node's ranks and CPUs, run the helper for them as the job's user, and
 * keep each task's CPUs for task.c.
 *
 * Ranks on different nodes cost the same wherever they sit on their nodes,
 * so the job's best placement is the union of each node's: one helper run
 * per node, nothing crosses the network.
 */
#include <config.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <slurm/slurm.h>

#include "helper_run.h"
#include "placement.h"
#include "request_env.h"
#include "step_watch.h"
#include "tm_map.h"
#include "tm_list.h"
#include "tm_spank.h"

enum { CPULIST_MAX = 8192 };

typedef struct step_info {
	uint32_t jobid, stepid, ntasks, nlocal, cpus_per_task;
	uint32_t *ranks;          /* global rank of each local task */
	uid_t uid;
	gid_t gid;
	gid_t *gids;
	int ngids;
	char node[64];
	char matrix[PATH_TEXT_MAX];
	char topology[TEXT_MAX];  /* "" = this machine */
	char algorithm[TEXT_MAX]; /* "" = the helper's default */
	int report;
	char *cores;              /* the step's cores here, Slurm's numbers */
	int ncores;
	char step_cpus[CPULIST_MAX]; /* their OS CPUs, from Slurm and hwloc */
	char cpus[CPULIST_MAX];   /* their OS CPUs, as the helper found them */
	int svg;                  /* --comm-matrix-svg */
	char **svg_argv;          /* the helper's command line for it */
} step_info;

static void free_argv(char **argv)
{
	for (int i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* A job variable, "" counting as unset (srun blanks what it forgets). */
static int job_env(spank_t sp, const char *name, char *buf, int len)
{
	return spank_getenv(sp, name, buf, len) == ESPANK_SUCCESS && buf[0] ?
	       0 : -1;
}

/* The tasks get none of the request's variables (request.h), nor stale
 * or blanked ones from the user's environment, nor what a task of another
 * step was told; those of a step placed from a matrix keep its path. */
static void forget_variables(spank_t sp, int placed)
{
	request_env env = request_env_job(sp);

	request_clear(&env, placed);
	spank_unsetenv(sp, ENV_CPUS);
	spank_unsetenv(sp, ENV_STATUS);
}

/* The node's Slurm name: several slurmds on one host (and the tests) share
 * a host name.  slurmstepd inherits SLURMD_NODENAME from its slurmd; the
 * job's environment is no guide: in a batch job it names the batch host,
 * the same on every node. */
static void node_name(char *buf, int len)
{
	const char *own = getenv("SLURMD_NODENAME");

	if (own && *own) {
		snprintf(buf, (size_t)len, "%s", own);
		return;
	}
	if (gethostname(buf, (size_t)len) < 0 || !buf[0])
		snprintf(buf, (size_t)len, "?");
	buf[len - 1] = '\0';
}

static int read_step(spank_t sp, step_info *s, char *why, size_t wl)
{
	if (spank_get_item(sp, S_JOB_ID, &s->jobid) ||
	    spank_get_item(sp, S_JOB_STEPID, &s->stepid) ||
	    spank_get_item(sp, S_JOB_TOTAL_TASK_COUNT, &s->ntasks) ||
	    spank_get_item(sp, S_JOB_LOCAL_TASK_COUNT, &s->nlocal) ||
	    spank_get_item(sp, S_JOB_UID, &s->uid) ||
	    spank_get_item(sp, S_JOB_GID, &s->gid) ||
	    spank_get_item(sp, S_JOB_SUPPLEMENTARY_GIDS, &s->gids, &s->ngids)) {
		snprintf(why, wl, "Slurm did not give the step's layout");
		return -1;
	}
	if (spank_get_item(sp, S_STEP_CPUS_PER_TASK, &s->cpus_per_task) ||
	    s->cpus_per_task == 0)
		s->cpus_per_task = 1;
	s->ranks = calloc((size_t)s->nlocal + 1, sizeof(uint32_t));
	if (!s->ranks) {
		snprintf(why, wl, "out of memory");
		return -1;
	}
	for (uint32_t i = 0; i < s->nlocal; i++) {
		if (spank_get_item(sp, S_JOB_LOCAL_TO_GLOBAL_ID, i, &s->ranks[i])) {
			snprintf(why, wl, "Slurm did not give task %u's rank", i);
			return -1;
		}
	}
	return 0;
}

/* How many numbers a list such as "0-3,8" holds, or -1. */
static int count_list(const char *list)
{
	int *numbers = NULL;
	int n = tm_list_parse(list, 1L << 30, 1 << 24, &numbers);

	free(numbers);
	return n;
}

/* "0,1,5" for --ranks, in local task order. */
static char *rank_list(const step_info *s)
{
	size_t size = (size_t)s->nlocal * 11 + 1, len = 0;
	char *buf = malloc(size);

	if (!buf)
		return NULL;
	buf[0] = '\0';
	for (uint32_t i = 0; i < s->nlocal; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%u",
					i ? "," : "", s->ranks[i]);
	return buf;
}

/* What the helper said went wrong, as one clean line. */
static void helper_problem(const helper_result *res, const site_config *cfg,
			   char *why, size_t wl)
{
	char line[TEXT_MAX] = "";
	static const char prefix[] = "treematch-helper: ";

	if (res->err) {
		size_t n = strcspn(res->err, "\n");
		const char *start = res->err;
		if (!strncmp(start, prefix, sizeof(prefix) - 1)) {
			start += sizeof(prefix) - 1;
			n -= sizeof(prefix) - 1;
		}
		text_clean(line, sizeof(line), start, n);
	}
	if (res->timed_out)
		snprintf(why, wl, "treematch-helper took more than %d s "
			 "(timeout)", cfg->timeout);
	else if (res->too_much)
		snprintf(why, wl, "treematch-helper printed too much");
	else if (res->signal)
		snprintf(why, wl, "treematch-helper crashed (signal %d)",
			 res->signal);
	else if (res->exit_code == 2)
		snprintf(why, wl, "treematch-helper rejected its arguments: %s",
			 line);
	else if (line[0])
		snprintf(why, wl, "%s", line);
	else
		snprintf(why, wl, "treematch-helper failed (exit status %d)",
			 res->exit_code);
}

/* The same command line with --format svg, on the heap: the node's first
 * task runs it as the user (task.c); its title names the node, the job
 * and the step (--node, --jobid, --stepid).  NULL when out of memory. */
static char **svg_command(char *const *argv, int n, const step_info *s)
{
	char jobid[16], stepid[16];
	const char *names[] = { "--node", s->node, "--jobid", jobid,
				"--stepid", stepid };
	int k = (int)(sizeof(names) / sizeof(names[0]));
	char **copy = calloc((size_t)(n + k) + 1, sizeof(char *));

	snprintf(jobid, sizeof(jobid), "%u", s->jobid);
	snprintf(stepid, sizeof(stepid), "%u", s->stepid);
	for (int i = 0; copy && i < n + k; i++) {
		const char *arg = i >= n ? names[i - n] :
				  i > 0 && strcmp(argv[i - 1], "--format") == 0 ?
				  "svg" : argv[i];

		if (!(copy[i] = strdup(arg))) {
			free_argv(copy);
			return NULL;
		}
	}
	return copy;
}

/* The step's OS CPUs (placement_step_cpus) take a topology load, a few
 * milliseconds that would add to every placed step's launch: they are
 * found in a thread of their own while the helper runs, and waited for
 * only when its answer is checked. */
typedef struct step_cpus_job {
	const char *cores;
	char *out;
	size_t size;
	int rc;
	char why[TEXT_MAX];
	pthread_t thread;
	int threaded;
} step_cpus_job;

static void *step_cpus_run(void *arg)
{
	step_cpus_job *j = arg;

	j->rc = placement_step_cpus(j->cores, j->out, j->size, j->why,
				    sizeof(j->why));
	return NULL;
}

static void step_cpus_start(step_cpus_job *j)
{
	j->threaded = pthread_create(&j->thread, NULL, step_cpus_run, j) == 0;
	if (!j->threaded)
		step_cpus_run(j);
}

/* 0, or -1 with why filled. */
static int step_cpus_finish(step_cpus_job *j, char *why, size_t wl)
{
	if (!j)
		return 0;
	if (j->threaded)
		pthread_join(j->thread, NULL);
	j->threaded = 0;
	if (j->rc < 0)
		snprintf(why, wl, "%s", j->why);
	return j->rc;
}

static int run_helper(const site_config *cfg, step_info *s, placement *pl,
		      step_cpus_job *step_cpus, char *why, size_t wl)
{
	char ntasks[16], cpt[16], max_size[24], *ranks = rank_list(s);
	const char *topology = s->topology[0] ? s->topology : "this";
	char *argv[26];
	int a = 0;
	helper_result res;

	if (!ranks) {
		snprintf(why, wl, "out of memory");
		return -1;
	}
	/* Slurm counts CPUs per task, hardware threads on SMT nodes, and
	 * gave each task its share of the step's cores: that many cores. */
	uint32_t leaves = s->cpus_per_task;
	if (!cfg->bind_pu && !s->topology[0] && s->nlocal > 0) {
		uint32_t share = (uint32_t)s->ncores / s->nlocal;
		if (share < leaves)
			leaves = share > 0 ? share : 1;
	}
	snprintf(ntasks, sizeof(ntasks), "%u", s->ntasks);
	snprintf(cpt, sizeof(cpt), "%u", leaves);
	argv[a++] = (char *)cfg->helper;
	argv[a++] = "map";
	argv[a++] = "--matrix";
	argv[a++] = s->matrix;
	argv[a++] = "--topology";
	argv[a++] = (char *)topology;
	if (!s->topology[0]) {
		argv[a++] = "--slurm-cores";
		argv[a++] = s->cores;
	}
	/* srun checked the size; the file may have changed since, or be a
	 * device or a pipe that never ends */
	snprintf(max_size, sizeof(max_size), "%lld", cfg->max_size);
	argv[a++] = "--max-size";
	argv[a++] = max_size;
	argv[a++] = "--ranks";
	argv[a++] = ranks;
	argv[a++] = "--ntasks";
	argv[a++] = ntasks;
	argv[a++] = "--cpus-per-task";
	argv[a++] = cpt;
	argv[a++] = "--bind";
	argv[a++] = cfg->bind_pu ? "pu" : "core";
	if (cfg->cpu_kinds_equal) {
		argv[a++] = "--cpu-kinds";
		argv[a++] = "equal";
	}
	if (s->algorithm[0]) {
		argv[a++] = "--algorithm";
		argv[a++] = s->algorithm;
	}
	argv[a++] = "--format";
	argv[a++] = "json";
	argv[a] = NULL;
	if (s->svg)
		s->svg_argv = svg_command(argv, a, s);

	step_watch watch;
	helper_job job = { cfg->helper, argv, s->uid, s->gid, s->gids, s->ngids,
			   cfg->timeout, 65536 + (size_t)s->nlocal * 512, 65536,
			   .as_caller = 0, .stdin_fd = -1,
			   .cancelled = step_watch_cancelled,
			   .cancel_arg = step_watch_init(&watch, s->node, s->jobid,
							 s->stepid) };
	int rc = helper_run(&job, &res, why, wl);
	free(ranks);
	if (step_cpus_finish(step_cpus, rc < 0 ? NULL : why,
			     rc < 0 ? 0 : wl) < 0 && rc == 0) {
		helper_result_free(&res);
		return -1;
	}
	if (rc < 0) {
		helper_result_free(&res);
		return -1;
	}
	if (res.cancelled) {
		snprintf(why, wl, "the step was cancelled while "
			 "treematch-helper ran: stopped it");
		helper_result_free(&res);
		return -2;
	}
	if (!res.exited || res.exit_code != 0 || res.timed_out ||
	    res.too_much) {
		helper_problem(&res, cfg, why, wl);
		helper_result_free(&res);
		return -1;
	}
	rc = placement_parse(res.out ? res.out : "", res.out_len, (int)s->nlocal,
			     s->ranks, s->topology[0] ? NULL : s->step_cpus, pl,
			     s->cpus, sizeof(s->cpus), why, wl);
	helper_result_free(&res);
	return rc;
}

/* The report, printed once per node on the job's stderr by task 0. */
static char *report_text(const step_info *s, const placement *pl)
{
	size_t size = 512 + (size_t)s->nlocal * 128, len = 0;
	char *buf = malloc(size);

	if (!buf)
		return NULL;
	len += (size_t)snprintf(buf + len, size - len,
		PLUGIN ": %s: %u task%s of step %u.%u placed on %s%s\n",
		s->node, s->nlocal, s->nlocal == 1 ? "" : "s", s->jobid,
		s->stepid, s->topology[0] ? s->topology : "CPUs ",
		s->topology[0] ? " (dry run, not bound)" : s->cpus);
	for (uint32_t i = 0; i < s->nlocal && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len,
			PLUGIN ": %s:   rank %u -> CPUs %s (core%s %s)\n",
			s->node, s->ranks[i], pl->cpus[i],
			strchr(pl->cores[i], ',') ? "s" : "", pl->cores[i]);
	/* srun -O with one CPU per node: every cost is 0 and "proven
	 * optimal" true, which says nothing */
	int shared = s->nlocal > 1 && !s->topology[0];
	for (uint32_t i = 0; i < s->nlocal && shared; i++)
		shared = strcmp(pl->cpus[i], s->cpus) == 0;
	if (shared && len < size)
		len += (size_t)snprintf(buf + len, size - len,
			PLUGIN ": %s: all %u tasks share CPU%s %s: there was "
			"nothing to choose\n", s->node, s->nlocal,
			strpbrk(s->cpus, ",-") ? "s" : "", s->cpus);
	/* Nothing to choose (2 tasks on the 2 cores Slurm gave them here):
	 * every placement compared costs the same and none costs less.
	 * Such a node prints no cost and no "proven optimal" (a 4-node report
	 * had 16 lines of "x1.00 ... proven optimal"); the one holding rank 0
	 * says it once for the step. */
	int same = pl->ncosts > 0 && pl->proven_optimal && !shared;
	for (int c = 1; c < pl->ncosts && same; c++)
		same = pl->cost[c] <= pl->cost[0] * (1 + 1e-9);
	int has_rank0 = 0;
	for (uint32_t i = 0; i < s->nlocal; i++)
		has_rank0 |= s->ranks[i] == 0;
	if (same && has_rank0 && len < size)
		len += (size_t)snprintf(buf + len, size - len,
			PLUGIN ": %s: nothing to choose here (every placement "
			"of these tasks costs the same), nor on any node of step "
			"%u.%u whose report shows no cost\n", s->node, s->jobid,
			s->stepid);
	int no_costs = shared || same;
	if (pl->ncosts > 0 && len < size && !no_costs) {
		len += (size_t)snprintf(buf + len, size - len,
					PLUGIN ": %s: cost %s %.6g", s->node,
					pl->cost_name[0], pl->cost[0]);
		for (int c = 1; c < pl->ncosts && len < size; c++)
			len += (size_t)snprintf(buf + len, size - len,
				", %s %.6g (x%.2f)", pl->cost_name[c], pl->cost[c],
				pl->cost[0] > 0 ? pl->cost[c] / pl->cost[0] : 1.0);
		if (len < size)
			len += (size_t)snprintf(buf + len, size - len, "\n");
	}
	if (pl->proven_optimal && len < size && !no_costs)
		len += (size_t)snprintf(buf + len, size - len,
			PLUGIN ": %s: proven optimal: no placement of these "
			"tasks on this node costs less\n", s->node);
	return buf;
}

static int step_is_placed(uint32_t stepid)
{
	/* batch scripts, the extern step and interactive shells are not MPI
	 * ranks: Slurm runs them exactly as it would without the plugin */
	return stepid != SLURM_BATCH_SCRIPT && stepid != SLURM_EXTERN_CONT &&
	       stepid != SLURM_INTERACTIVE_STEP;
}

static void fail_or_warn(const site_config *cfg, node_plan *plan,
			 const char *node, const char *raw_why)
{
	/* the reason may quote the user's path or the helper's words: one
	 * clean line for slurmd's log and the job's stderr */
	char why[TEXT_MAX - sizeof("fallback: ")];
	text_clean(why, sizeof(why), raw_why, strlen(raw_why));
	snprintf(plan->status, sizeof(plan->status), "fallback: %s", why);
	size_t len = strlen(why) + strlen(node) + 128;
	plan->message = malloc(len);
	if (cfg->fail) {
		/* the whole step fails, not only this node's tasks: task 0
		 * cancels it (task.c) */
		plan->refuse = 1;
		plan->cancel_step = 1;
		/* slurm_info: slurmstepd copies its errors to the job's stderr,
		 * where task 0 prints the message below: one line, not two. */
		slurm_info(PLUGIN ": %s: %s; the step is cancelled", node, why);
		if (plan->message)
			snprintf(plan->message, len, PLUGIN ": error: %s: %s; the "
				 "step is cancelled (on_error=fail)", node, why);
	} else {
		slurm_info(PLUGIN ": %s: %s; tasks keep Slurm's binding", node,
			   why);
		if (plan->message)
			snprintf(plan->message, len, PLUGIN ": warning: %s: %s; "
				 "tasks keep Slurm's binding", node, why);
	}
}

/* The step's matrix, checked here and given to the helper for this node's
 * ranks: plan's CPUs, or why not in why (-1), or -2 when the step was
 * cancelled meanwhile. */
static int plan_from_matrix(spank_t sp, const site_config *cfg,
			    const step_request *req, step_info *s,
			    node_plan *plan, char *why, size_t wl)
{
	placement pl = { 0 };
	step_cpus_job step_cpus = { 0 };

	snprintf(s->matrix, sizeof(s->matrix), "%s", req->matrix);
	if (cfg->error[0]) {
		snprintf(why, wl, "the plugin is disabled: %.900s", cfg->error);
		return -1;
	}
	if (read_step(sp, s, why, wl) < 0)
		return -1;
	/* srun checked it; the file may have been replaced since */
	if (matrix_file_trusted(cfg, s->matrix, s->uid, why, wl) < 0)
		return -1;
	if (cfg->topology[0]) {
		snprintf(s->topology, sizeof(s->topology), "%s", cfg->topology);
	} else if (req->topology[0]) {
		snprintf(s->topology, sizeof(s->topology), "%s", req->topology);
		/* the user's: what it may cost this node is bounded */
		if (topology_too_big(s->topology, s->ntasks, s->cpus_per_task,
				     why, wl))
			return -1;
	}
	plan->dry_run = s->topology[0] != '\0';
	/* The user's --comm-matrix-algorithm (checked by request_read) wins
	 * over the site's algorithm=. */
	snprintf(s->algorithm, sizeof(s->algorithm), "%s",
		 req->algorithm[0] ? req->algorithm : cfg->algorithm);
	s->report = cfg->report || req->report[0];
	s->svg = req->svg[0] != '\0';
	if (!plan->dry_run) {
		if (spank_get_item(sp, S_STEP_ALLOC_CORES, &s->cores) ||
		    (s->ncores = count_list(s->cores)) <= 0) {
			snprintf(why, wl, "Slurm gave no core list for the step "
				 "(%.200s)", s->cores ? s->cores : "none");
			return -1;
		}
		/* what the helper's answer is checked against: Slurm's */
		step_cpus = (step_cpus_job){ .cores = s->cores,
					     .out = s->step_cpus,
					     .size = sizeof(s->step_cpus) };
		step_cpus_start(&step_cpus);
	}
	int ran = run_helper(cfg, s, &pl, plan->dry_run ? NULL : &step_cpus,
			     why, wl);
	step_cpus_finish(&step_cpus, NULL, 0); /* on every path: joined */
	if (ran < 0) {
		placement_free(&pl);
		return ran;
	}
	if (s->report)
		plan->message = report_text(s, &pl);
	if (s->svg_argv) {
		plan->svg_argv = s->svg_argv; /* taken over: task 0 runs it */
		s->svg_argv = NULL;
		plan->timeout = cfg->timeout;
		snprintf(plan->svg_file, sizeof(plan->svg_file),
			 "treematch-%u.%u-%s.svg", s->jobid, s->stepid,
			 s->node);
	}
	plan->ntasks = (int)s->nlocal;
	plan->cpus = pl.cpus; /* taken over: the tasks read them */
	pl.cpus = NULL;
	placement_free(&pl);
	snprintf(plan->status, sizeof(plan->status), "%s",
		 plan->dry_run ? "dry-run" : "applied");
	slurm_info(PLUGIN ": %s: step %u.%u: %u tasks placed (%s)", s->node,
		   s->jobid, s->stepid, s->nlocal, plan->status);
	return 0;
}

/* --comm-matrix=online: the tasks map themselves (online.c); 1 when the
 * step is not online, 0 when planned, -1 with why. */
static int plan_online(spank_t sp, const site_config *cfg,
		       const step_request *req, node_plan *plan, char *why,
		       size_t wl)
{
	int online = online_plan_node(sp, cfg, plan, req->online, why, wl);

	if (online > 0)
		return 1;
	if (online < 0 || cfg->error[0]) {
		if (!why[0])
			snprintf(why, wl, "the plugin is disabled: %.900s",
				 cfg->error);
		plan->online = 0;
		return -1;
	}
	plan->report = cfg->report || req->report[0];
	snprintf(plan->status, sizeof(plan->status), "online");
	slurm_info(PLUGIN ": %s: %u tasks placed online", plan->node,
		   plan->nlocal);
	return 0;
}

int remote_plan_node(spank_t sp, const site_config *cfg, node_plan *plan)
{
	step_info s = { 0 };
	char why[TEXT_MAX] = "", dist[32];
	uint32_t stepid = 0;
	static step_request req; /* large: not on slurmstepd's stack */
	request_env job = request_env_job(sp);
	request_error bad;
	int rc;

	memset(plan, 0, sizeof(*plan));
	plan->fail = cfg->fail;
	if (spank_get_item(sp, S_JOB_STEPID, &stepid) || !step_is_placed(stepid))
		return 0;
	node_name(s.node, sizeof(s.node));
	snprintf(plan->node, sizeof(plan->node), "%s", s.node);
	/* what srun asked, checked in one call: the job's environment is the
	 * user's to change */
	int readable = request_read(&req, &job, &bad);
	if (readable == 0 && req.jobwide[0] &&
	    job_env(sp, "SLURM_DISTRIBUTION", dist, sizeof(dist)) == 0 &&
	    strcmp(dist, "arbitrary") == 0)
		/* srun placed the ranks on the nodes with an arbitrary
		 * distribution of its own: a nested srun in a task must not
		 * inherit it */
		spank_unsetenv(sp, "SLURM_DISTRIBUTION");
	forget_variables(sp, readable == 0 && req.matrix[0] &&
			     !req.abort[0] && !req.fallback[0] &&
			     !req.online[0]);
	if (readable < 0) {
		plan->active = 1;
		snprintf(why, sizeof(why), "%.1000s", bad.text);
		rc = -1;
	} else if (req.abort[0] || req.fallback[0]) {
		/* srun already said why on the user's terminal: the status */
		plan->active = 1;
		plan->refuse = req.abort[0] != '\0';
		snprintf(plan->status, sizeof(plan->status), "fallback: %.1000s",
			 req.abort[0] ? req.abort : req.fallback);
		return 0;
	} else if ((rc = plan_online(sp, cfg, &req, plan, why,
				     sizeof(why))) <= 0) {
		plan->active = 1;
	} else if (!req.matrix[0]) {
		return 0; /* no matrix: the step is Slurm's alone */
	} else {
		plan->active = 1;
		rc = plan_from_matrix(sp, cfg, &req, &s, plan, why,
				      sizeof(why));
	}
	if (rc == -2) {
		/* nothing to fall back to: Slurm is ending the step */
		char clean[TEXT_MAX - 16];

		plan->refuse = 1;
		text_clean(clean, sizeof(clean), why, strlen(why));
		snprintf(plan->status, sizeof(plan->status), "fallback: %s",
			 clean);
		slurm_info(PLUGIN ": %s: step %u.%u: %s", s.node, s.jobid,
			   s.stepid, clean);
	} else if (rc < 0) {
		fail_or_warn(cfg, plan, s.node, why);
	}
	free(s.ranks);
	free_argv(s.svg_argv);
	return 0;
}

void node_plan_free(node_plan *plan)
{
	free_argv(plan->svg_argv);
	if (plan->cpus)
		for (int i = 0; i < plan->ntasks; i++)
			free(plan->cpus[i]);
	free(plan->cpus);
	free(plan->message);
	memset(plan, 0, sizeof(*plan));
}
