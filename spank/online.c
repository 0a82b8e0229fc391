/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online.c - srun --comm-matrix=online (doc/online.md): no matrix file;
 * the tasks watch their own MPI traffic and move themselves.
 *
 * The plugin's part is small on purpose, since the work happens in the
 * job's own processes, as the user:
 *   srun (as the user): the parameters (tm_online.h's defaults, the site's
 *     online=, the user's --comm-matrix-online) are checked and passed in
 *     SLURM_TREEMATCH_ONLINE;
 *   slurmstepd, user_init: checked again (the job's environment is the
 *     user's), the step's shared-memory name on this node fixed, with 64
 *     random bits in it so that no other user can take it first;
 *   each task, task_init (as the user, just before exec): the profiler's
 *     library goes into LD_PRELOAD after the application's own, with the
 *     variables its online mode reads (TREEMATCH_ONLINE_*);
 *   slurmstepd, exit (root): the step's segment is removed by its name,
 *     even when the tasks were killed before they could.
 * Root never opens, reads nor maps the segment: it only unlinks the name
 * it chose.
 */
#include <config.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "tm_online.h"
#include "tm_random.h"
#include "tm_spank.h"

/* LD_PRELOAD with the application's own list and ours */
enum { PRELOAD_MAX = 8192 };

int online_asked(const char *matrix_arg)
{
	return matrix_arg && strcmp(matrix_arg, ONLINE_WORD) == 0;
}

int online_params(const site_config *cfg, const char *policy,
		  const char *spec, const char *what, char *out, size_t size,
		  char *why, size_t wl)
{
	tm_online_params p = cfg->online; /* the defaults, the site's */
	tm_error err = { 0 };

	/* --comm-matrix-algorithm says which policy the user wants; a
	 * policy= of --comm-matrix-online, more specific, still wins */
	if (policy) {
		char item[64];

		snprintf(item, sizeof(item), "policy=%s", policy);
		if (tm_online_params_parse(item, "--comm-matrix-algorithm", &p,
					   &err) != TM_OK)
			goto bad;
	}
	if (spec &&
	    tm_online_params_parse(spec, what, &p, &err) != TM_OK)
		goto bad;
	int n = tm_online_params_format(&p, out, size);
	if (n < 0 || (size_t)n >= size) {
		snprintf(why, wl, "%s: the parameters are too long", what);
		return -1;
	}
	return 0;
bad:
	text_clean(why, wl, err.text, strlen(err.text));
	return -1;
}

/* Names of what a task inherits from an online step. */
static const char *const lib_variables[] = {
	TM_ONLINE_ENV, TM_ONLINE_ENV_PARAMS, TM_ONLINE_ENV_SEGMENT,
	TM_ONLINE_ENV_LOCAL_RANK, TM_ONLINE_ENV_LOCAL_SIZE, TM_ONLINE_ENV_NODE,
	TM_ONLINE_ENV_REPORT, TM_ONLINE_ENV_CPT,
};

/* Whether the LD_PRELOAD element p (n bytes) is `library` or one of the
 * libraries of an MPI family beside it (DIR/libcommprof.so puts
 * DIR/libcommprof-FAMILY.so in its own place, doc/profiler.md). */
static int is_profiler(const char *p, size_t n, const char *library)
{
	size_t liblen = strlen(library), stem;

	if (n == liblen && !strncmp(p, library, n))
		return 1;
	if (liblen < 3 || strcmp(library + liblen - 3, ".so") != 0)
		return 0;
	stem = liblen - 3;
	return n > stem + 4 && !strncmp(p, library, stem) && p[stem] == '-' &&
	       !memchr(p + stem, '/', n - stem) &&
	       !strncmp(p + n - 3, ".so", 3);
}

/* LD_PRELOAD without the element `library` (nor its families'), into out
 * ("" if nothing is left); 0, or -1 when it does not fit. */
static int preload_without(const char *preload, const char *library,
			   char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	/* ld.so separates the list by colons and spaces */
	for (const char *p = preload; *p;) {
		size_t n = strcspn(p, ": ");

		if (n > 0 && !is_profiler(p, n, library)) {
			if (len + n + 2 > size)
				return -1;
			if (len)
				out[len++] = ':';
			memcpy(out + len, p, n);
			len += n;
			out[len] = '\0';
		}
		p += n;
		if (*p)
			p++;
	}
	return 0;
}

/* A task of a step that is not online, started from a task of one (a
 * nested srun): the online variables and our library it inherited would
 * make it join the outer step's monitoring. */
static void forget_inherited(spank_t sp, const site_config *cfg)
{
	char env[PRELOAD_MAX], kept[PRELOAD_MAX];

	if (spank_getenv(sp, TM_ONLINE_ENV, env, sizeof(env)) != ESPANK_SUCCESS)
		return;
	for (size_t i = 0; i < sizeof(lib_variables) / sizeof(*lib_variables);
	     i++)
		spank_unsetenv(sp, lib_variables[i]);
	if (spank_getenv(sp, "LD_PRELOAD", env, sizeof(env)) != ESPANK_SUCCESS)
		return;
	if (preload_without(env, cfg->profiler, kept, sizeof(kept)) < 0)
		return;
	if (kept[0])
		spank_setenv(sp, "LD_PRELOAD", kept, 1);
	else
		spank_unsetenv(sp, "LD_PRELOAD");
}

int online_plan_node(spank_t sp, const site_config *cfg, node_plan *plan,
		     const char *spec, char *why, size_t wl)
{
	struct stat st;
	uid_t uid;
	uint32_t jobid, stepid;

	if (!spec[0]) {
		forget_inherited(sp, cfg);
		return 1;
	}
	plan->online = 1;
	if (spank_get_item(sp, S_JOB_UID, &uid) ||
	    spank_get_item(sp, S_JOB_ID, &jobid) ||
	    spank_get_item(sp, S_JOB_STEPID, &stepid) ||
	    spank_get_item(sp, S_JOB_LOCAL_TASK_COUNT, &plan->nlocal)) {
		snprintf(why, wl, "Slurm did not give the step's layout");
		return -1;
	}
	/* srun -c: each rank keeps that many CPUs wherever it moves */
	if (spank_get_item(sp, S_STEP_CPUS_PER_TASK, &plan->cpus_per_task) ||
	    plan->cpus_per_task == 0)
		plan->cpus_per_task = 1;
	/* srun checked them; the job's environment is the user's to change */
	if (online_params(cfg, NULL, spec, "SLURM_TREEMATCH_ONLINE",
			  plan->online_params,
			  sizeof(plan->online_params), why, wl) < 0)
		return -1;
	/* The library is the site's file; a step cannot use it when it is
	 * not there (a node built without MPI). */
	if (stat(cfg->profiler, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(why, wl, "online: the profiler library %.512s is not "
			 "installed on this node (profiler=)", cfg->profiler);
		return -1;
	}
	snprintf(plan->profiler, sizeof(plan->profiler), "%s", cfg->profiler);
	/* The node's name too: /dev/shm is per host, and a host may run
	 * several slurmds (multiple-slurmd setups, the test cluster), each
	 * node with its own mapper.  The library accepts [A-Za-z0-9._-]. */
	char node[sizeof(plan->node)];
	size_t i;
	for (i = 0; plan->node[i] && i < sizeof(node) - 1; i++) {
		char c = plan->node[i];
		node[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '.' || c == '_' ||
			  c == '-' ? c : '_';
	}
	node[i] = '\0';
	/* The ids alone are known to every user of the cluster, and
	 * /dev/shm is theirs too: a name taken first (the segment is
	 * created O_EXCL) would turn the step's online mode off, and root
	 * could not remove another user's file there.  64 random bits make
	 * the name one nobody can take in advance; it reaches the tasks in
	 * their environment and is removed by this name at the end. */
	uint64_t bits;
	if (tm_random_u64(&bits) < 0) {
		snprintf(why, wl, "online: no random bits for the step's "
			 "shared-memory name: %s", strerror(errno));
		return -1;
	}
	snprintf(plan->online_segment, sizeof(plan->online_segment),
		 "/treematch-online.%u.%u.%u.%s.%016llx", (unsigned)uid, jobid,
		 stepid, node, (unsigned long long)bits);
	return 0;
}

void online_task_env(spank_t sp, const node_plan *plan, int local_id)
{
	char number[16], env[PRELOAD_MAX], preload[PRELOAD_MAX];

	spank_setenv(sp, TM_ONLINE_ENV, "1", 1);
	spank_setenv(sp, TM_ONLINE_ENV_PARAMS, plan->online_params, 1);
	spank_setenv(sp, TM_ONLINE_ENV_SEGMENT, plan->online_segment, 1);
	snprintf(number, sizeof(number), "%d", local_id);
	spank_setenv(sp, TM_ONLINE_ENV_LOCAL_RANK, number, 1);
	snprintf(number, sizeof(number), "%u", plan->nlocal);
	spank_setenv(sp, TM_ONLINE_ENV_LOCAL_SIZE, number, 1);
	spank_setenv(sp, TM_ONLINE_ENV_NODE, plan->node, 1);
	snprintf(number, sizeof(number), "%u", plan->cpus_per_task);
	spank_setenv(sp, TM_ONLINE_ENV_CPT, number, 1);
	if (plan->report)
		spank_setenv(sp, TM_ONLINE_ENV_REPORT, "1", 1);
	else
		spank_unsetenv(sp, TM_ONLINE_ENV_REPORT);
	/* The application's own preloaded libraries come first and stay:
	 * ours only adds the MPI functions none of them defines. */
	if (spank_getenv(sp, "LD_PRELOAD", env, sizeof(env)) != ESPANK_SUCCESS)
		env[0] = '\0';
	if (preload_without(env, plan->profiler, preload, sizeof(preload)) < 0 ||
	    strlen(preload) + strlen(plan->profiler) + 2 > sizeof(preload)) {
		say(PLUGIN ": warning: task %d: LD_PRELOAD is too long to add "
		    "the profiler: this task is not monitored", local_id);
		return;
	}
	if (preload[0])
		strcat(preload, ":");
	strcat(preload, plan->profiler);
	spank_setenv(sp, "LD_PRELOAD", preload, 1);
}

void online_step_end(const node_plan *plan)
{
	/* ENOENT is the usual case: the tasks removed it themselves once
	 * they had all opened it */
	if (plan->online && plan->online_segment[0])
		shm_unlink(plan->online_segment);
}
