/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * local.c - srun, sbatch and salloc, running as the user: decide which
 * matrix a step uses, check it before anything launches, and tell the
 * nodes through the job's environment (variables in tm_spank.h).
 *
 * Which file:
 *   --comm-matrix=FILE: as matrix_file.c resolves it.
 *   auto=yes and no option: <matrix_dir>/<job name>.json, used only when it
 *     exists and its size is the step's task count (recurring jobs).
 *   --comm-matrix=online, or auto=online and no such file: none; the
 *     tasks map themselves from their live traffic (online.c).
 *
 * What the check covers: a regular file no larger than max_size, readable
 * by the user, that parses, whose size is the step's task count; a file
 * of matrix_dir also owned by root or the user, in a directory that others
 * cannot write to (or with the sticky bit).  Failing,
 * on_error=warn prints one warning and the step runs with Slurm's binding;
 * on_error=fail prints the error and the step does not start (srun stops
 * here when the plugin is "required"; when it is "optional" Slurm ignores
 * plugin errors, so the nodes refuse to start the tasks instead).
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "request_env.h"
#include "tm_matrix.h"
#include "tm_spank.h"

/* What init_post_opt decided, for local_user_init (same srun process). */
static struct {
	int asked;                    /* --comm-matrix given */
	int online;                   /* --comm-matrix=online */
	char params[ONLINE_TEXT_MAX]; /* its parameters, canonical */
	char path[PATH_TEXT_MAX];     /* the file, absolute */
	int size;                     /* its "size", once it parsed */
	char problem[TEXT_MAX];       /* why it cannot be used, or "" */
} chosen;

/* The checks srun can make as the user; *size set when the file parsed. */
static int check_file(const site_config *cfg, const char *path, int *size,
		      char *problem, size_t plen)
{
	struct stat st;
	tm_error err = { 0 };

	if (matrix_file_trusted(cfg, path, getuid(), problem, plen) < 0)
		return -1;
	if (stat(path, &st) < 0) {
		snprintf(problem, plen, "%.512s: cannot open: %s", path,
			 strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(problem, plen, "%.512s: expected a regular file", path);
		return -1;
	}
	if (st.st_size > cfg->max_size) {
		snprintf(problem, plen, "%.512s: %lld bytes, more than the site's "
			 "limit of %lld (max_size)", path,
			 (long long)st.st_size, cfg->max_size);
		return -1;
	}
	/* the same limit while reading: the file may grow after the stat;
	 * checked without building it (the nodes do), so that what a file
	 * costs srun is bounded by its length, not by its "size" */
	if (tm_matrix_check_file(path, cfg->max_size, size, &err) != TM_OK) {
		text_clean(problem, plen, err.text, sizeof(err.text));
		return -1;
	}
	return 0;
}

/* Tell the nodes: the step's request (request.h) in srun's environment,
 * which srun hands to the step after local_user_init.  srun took its copy
 * before and afterwards only merges what is set now, so what the request
 * leaves unset is blanked (request_write), and the nodes take "" as unset. */
static void tell_nodes(const step_request *r)
{
	request_env env = request_env_process();

	request_write(r, &env);
}

static void report_problem(const site_config *cfg, const char *problem)
{
	if (cfg->fail)
		say(PLUGIN ": error: %s; the step does not start (on_error=fail)",
		    problem);
	else
		say(PLUGIN ": warning: %s; tasks keep Slurm's binding", problem);
}

/* init_post_opt, in srun, sbatch and salloc. */
int local_check_options(const site_config *cfg)
{
	memset(&chosen, 0, sizeof(chosen));
	if (!user_opt.matrix && user_opt.online && !cfg->auto_online &&
	    !cfg->error[0]) {
		/* parameters for nothing: say so rather than drop them */
		report_problem(cfg, "--comm-matrix-online: only with "
			       "--comm-matrix=online");
		return cfg->fail ? -1 : 0;
	}
	if (!user_opt.matrix)
		return 0;
	chosen.asked = 1;
	chosen.online = online_asked(user_opt.matrix);
	if (cfg->error[0]) {
		snprintf(chosen.problem, sizeof(chosen.problem),
			 "the plugin is disabled: %.900s", cfg->error);
	} else if (chosen.online) {
		/* the option callback checked --comm-matrix-online already */
		online_params(cfg, user_opt.algorithm, user_opt.online,
			      "--comm-matrix-online",
			      chosen.params, sizeof(chosen.params),
			      chosen.problem, sizeof(chosen.problem));
	} else if (user_opt.online) {
		snprintf(chosen.problem, sizeof(chosen.problem),
			 "--comm-matrix-online: only with --comm-matrix=online "
			 "(%.512s is a matrix file)", user_opt.matrix);
	} else {
		matrix_file_resolve(cfg, user_opt.matrix, chosen.path,
				     sizeof(chosen.path), chosen.problem,
				     sizeof(chosen.problem));
		if (!chosen.problem[0])
			check_file(cfg, chosen.path, &chosen.size,
				   chosen.problem, sizeof(chosen.problem));
	}
	if (spank_context() == S_CTX_ALLOCATOR && !cfg->error[0] &&
	    chosen.path[0] && !chosen.online) {
		/* For the sruns of the job; each checks its own step again. */
		step_request r = { 0 };

		snprintf(r.matrix, sizeof(r.matrix), "%s", chosen.path);
		snprintf(r.matrix_arg, sizeof(r.matrix_arg), "%s",
			 user_opt.matrix);
		tell_nodes(&r);
	}
	if (chosen.problem[0]) {
		report_problem(cfg, chosen.problem);
		return cfg->fail ? -1 : 0;
	}
	return 0;
}

/* A job name that can be a file name in matrix_dir: no way out of it. */
static int usable_job_name(const char *name)
{
	return name && name[0] && name[0] != '.' && !strchr(name, '/') &&
	       strlen(name) < 256;
}

/* auto=yes: the job's own matrix in matrix_dir, if there is one that fits. */
static int auto_matrix(const site_config *cfg, uint32_t ntasks)
{
	const char *name = getenv("SLURM_JOB_NAME");
	char file[300];
	int size = 0;

	if (!cfg->auto_matrix || !cfg->matrix_dir[0] || !usable_job_name(name))
		return 0;
	snprintf(file, sizeof(file), "%s.json", name);
	if (matrix_file_in_dir(cfg->matrix_dir, file, chosen.path,
			       sizeof(chosen.path)) < 0)
		return 0;
	if (check_file(cfg, chosen.path, &size, chosen.problem,
		       sizeof(chosen.problem)) < 0) {
		/* The site's file is broken: say so, but the user did not ask
		 * for a placement, so the step runs as it would without. */
		say(PLUGIN ": warning: auto=yes: %s; the step runs without "
		    "placement", chosen.problem);
		return 0;
	}
	if ((uint32_t)size != ntasks) {
		slurm_verbose(PLUGIN ": auto=yes: %s has %d ranks, the step "
			      "%u tasks: not used", chosen.path, size, ntasks);
		return 0;
	}
	return 1;
}

/* local_user_init, in srun only: the step's size is now known. */
int local_prepare_step(spank_t sp, const site_config *cfg)
{
	uint32_t ntasks = 0;
	int use = 0;
	static step_request req; /* large: not on srun's stack */

	memset(&req, 0, sizeof(req));
	if (spank_get_item(sp, S_JOB_TOTAL_TASK_COUNT, &ntasks) != ESPANK_SUCCESS)
		ntasks = 0;
	if (chosen.asked && chosen.online && !chosen.problem[0]) {
		use = 1;
	} else if (chosen.asked) {
		/* init_post_opt said what it found; what only the step's size
		 * shows is said here */
		int found = 0;
		uint32_t cpt = 0;

		if (!chosen.problem[0] && (uint32_t)chosen.size != ntasks) {
			snprintf(chosen.problem, sizeof(chosen.problem),
				 "%.512s: \"size\" is %d, but the step has %u tasks",
				 chosen.path, chosen.size, ntasks);
			found = 1;
		} else if (!chosen.problem[0] && user_opt.topology &&
			   !cfg->topology[0]) {
			if (spank_get_item(sp, S_STEP_CPUS_PER_TASK, &cpt) !=
			    ESPANK_SUCCESS)
				cpt = 1;
			found = topology_too_big(user_opt.topology, ntasks, cpt,
						 chosen.problem,
						 sizeof(chosen.problem));
		}
		if (found)
			report_problem(cfg, chosen.problem);
		if (chosen.problem[0]) {
			text_clean(cfg->fail ? req.abort : req.fallback,
				   sizeof(req.abort), chosen.problem,
				   strlen(chosen.problem));
			tell_nodes(&req);
			return cfg->fail ? -1 : 0;
		}
		use = 1;
	} else if (!cfg->error[0]) {
		use = auto_matrix(cfg, ntasks);
		/* auto=online: the job's own matrix first, else online */
		if (!use && cfg->auto_online &&
		    online_params(cfg, user_opt.algorithm, user_opt.online,
				  "--comm-matrix-online",
				  chosen.params, sizeof(chosen.params),
				  chosen.problem, sizeof(chosen.problem)) == 0)
			use = chosen.online = 1;
		else if (!use && cfg->auto_online)
			say(PLUGIN ": warning: auto=online: %s; the step runs "
			    "without placement", chosen.problem);
	}
	if (!use) {
		if (user_opt.report && !chosen.asked)
			say(PLUGIN ": --comm-matrix-report: this step uses no "
			    "matrix, there is nothing to report");
		tell_nodes(&req);
		return 0;
	}
	/* the nodes take srun's arbitrary distribution out of the tasks'
	 * environment, where it would confuse a nested srun */
	if (jobwide_placed())
		strcpy(req.jobwide, "yes");
	if (chosen.online)
		snprintf(req.online, sizeof(req.online), "%s", chosen.params);
	else
		snprintf(req.matrix, sizeof(req.matrix), "%s", chosen.path);
	if (user_opt.report)
		strcpy(req.report, "yes");
	if (user_opt.svg)
		strcpy(req.svg, "yes");
	if (user_opt.topology)
		snprintf(req.topology, sizeof(req.topology), "%s",
			 user_opt.topology);
	/* The user's choice; without one the nodes take the site's
	 * algorithm= (the same plugstack.conf), else the helper's default. */
	if (user_opt.algorithm)
		snprintf(req.algorithm, sizeof(req.algorithm), "%s",
			 user_opt.algorithm);
	tell_nodes(&req);
	return 0;
}
