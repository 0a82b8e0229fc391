/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online_env.c - what a task of the online mode reads from its
 * environment (doc/online.md, "Outside Slurm" lists every variable).  The
 * plugin sets them under Slurm; mpirun users set them by hand or through
 * `commprof --online`.  Every value is checked: a bad one is one line on
 * stderr naming the variable, and online mode off for the task; the
 * application runs unchanged either way.
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "online.h"

bool online_requested(void)
{
	const char *v = getenv(TM_ONLINE_ENV);

	return v && strcmp(v, "1") == 0;
}

bool online_params_read(tm_online_params *p)
{
	const char *spec = getenv(TM_ONLINE_ENV_PARAMS);
	tm_error err = { 0 };

	tm_online_params_default(p);
	if (!spec)
		return true;
	if (tm_online_params_parse(spec, TM_ONLINE_ENV_PARAMS, p, &err)
	    == TM_OK)
		return true;
	fprintf(stderr, ONLINE_PREFIX "%s; online mode off\n", err.text);
	return false;
}

/* A decimal int in [min, max], nothing else. */
static bool parse_int(const char *text, int min, int max, int *out)
{
	char *end;
	long v;

	if (!text || !*text || *text == ' ' || *text == '+')
		return false;
	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = (int)v;
	return true;
}

/* The local rank and size: the plugin's, else Open MPI's, else those of
 * MPICH's launcher (Hydra: mpiexec.mpich). */
static bool read_local(struct online_config *c, int world_size)
{
	const char *rank_var = TM_ONLINE_ENV_LOCAL_RANK;
	const char *size_var = TM_ONLINE_ENV_LOCAL_SIZE;
	const char *rank, *size;

	rank = getenv(rank_var);
	size = getenv(size_var);
	if (!rank && !size) {
		rank_var = "OMPI_COMM_WORLD_LOCAL_RANK";
		size_var = "OMPI_COMM_WORLD_LOCAL_SIZE";
		rank = getenv(rank_var);
		size = getenv(size_var);
	}
	if (!rank && !size) {
		rank_var = "MPI_LOCALRANKID";
		size_var = "MPI_LOCALNRANKS";
		rank = getenv(rank_var);
		size = getenv(size_var);
	}
	if (!rank || !size) {
		fprintf(stderr, ONLINE_PREFIX TM_ONLINE_ENV_LOCAL_RANK " "
			"and " TM_ONLINE_ENV_LOCAL_SIZE " are not set (nor "
			"Open MPI's OMPI_COMM_WORLD_LOCAL_RANK and _SIZE, nor "
			"MPICH's MPI_LOCALRANKID and MPI_LOCALNRANKS): online "
			"mode off\n");
		return false;
	}
	if (!parse_int(size, 1, world_size, &c->local_size)) {
		fprintf(stderr, ONLINE_PREFIX "%s=%s: expected a number of "
			"tasks from 1 to %d: online mode off\n", size_var,
			size, world_size);
		return false;
	}
	if (!parse_int(rank, 0, c->local_size - 1, &c->local_rank)) {
		fprintf(stderr, ONLINE_PREFIX "%s=%s: expected a local rank "
			"from 0 to %d: online mode off\n", rank_var, rank,
			c->local_size - 1);
		return false;
	}
	return true;
}

/* What all ranks of the job on this node share, from the launcher: Open
 * MPI's job id, a PMIx namespace, else the parent process (the node's
 * launcher daemon when the tasks are its children). */
static void launcher_key(char *key, size_t size)
{
	static const char *const vars[] = {
		"OMPI_MCA_ess_base_jobid", "OMPI_MCA_orte_ess_jobid",
		"PMIX_NAMESPACE", "PMI_JOBID", NULL
	};
	const char *v;
	size_t k, len;

	for (k = 0; vars[k]; k++) {
		v = getenv(vars[k]);
		if (v && *v)
			break;
	}
	if (!vars[k]) {
		snprintf(key, size, "ppid%ld", (long)getppid());
		return;
	}
	snprintf(key, size, "%s", v);
	/* a namespace may hold any character: keep the name's alphabet */
	len = strlen(key);
	for (k = 0; k < len; k++) {
		char c = key[k];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '-'))
			key[k] = '_';
	}
}

static bool read_segment(struct online_config *c)
{
	const char *name = getenv(TM_ONLINE_ENV_SEGMENT);
	char key[128];

	if (name) {
		if (!online_segment_name_ok(name)) {
			fprintf(stderr, ONLINE_PREFIX TM_ONLINE_ENV_SEGMENT
				"=%.*s: expected /treematch-online. followed "
				"by letters, digits, '.', '_' or '-', at most "
				"%d characters: online mode off\n", 300, name,
				ONLINE_NAME_MAX);
			return false;
		}
		snprintf(c->segment, sizeof c->segment, "%s", name);
		return true;
	}
	launcher_key(key, sizeof key);
	snprintf(c->segment, sizeof c->segment, "/treematch-online.%ld.%s",
		 (long)getuid(), key);
	if (!online_segment_name_ok(c->segment)) {
		fprintf(stderr, ONLINE_PREFIX "no usable segment name from "
			"the launcher (%s): set " TM_ONLINE_ENV_SEGMENT "; "
			"online mode off\n", c->segment);
		return false;
	}
	return true;
}

static void read_node(struct online_config *c)
{
	const char *node = getenv(TM_ONLINE_ENV_NODE);

	if (node && *node) {
		snprintf(c->node, sizeof c->node, "%s", node);
		return;
	}
	if (gethostname(c->node, sizeof c->node) != 0)
		snprintf(c->node, sizeof c->node, "?");
	c->node[sizeof c->node - 1] = '\0';
}

bool online_config_read(struct online_config *c,
			const tm_online_params *params, int world_size)
{
	const char *v;

	memset(c, 0, sizeof *c);
	c->params = *params;
	if (!read_local(c, world_size) || !read_segment(c))
		return false;
	v = getenv(TM_ONLINE_ENV_CPT);
	if (v && !parse_int(v, 1, CPU_SETSIZE, &c->cpus_per_task)) {
		fprintf(stderr, ONLINE_PREFIX TM_ONLINE_ENV_CPT
			"=%.64s: expected a number of CPUs from 1 to %d: "
			"online mode off\n", v, CPU_SETSIZE);
		return false;
	}
	v = getenv(TM_ONLINE_ENV_REPORT);
	c->report = v && strcmp(v, "1") == 0;
	v = getenv(TM_ONLINE_ENV_LOG);
	if (v && *v) {
		if (strlen(v) >= sizeof c->log_path) {
			fprintf(stderr, ONLINE_PREFIX TM_ONLINE_ENV_LOG ": "
				"a path of at most %zu characters expected: "
				"online mode off\n", sizeof c->log_path - 1);
			return false;
		}
		snprintf(c->log_path, sizeof c->log_path, "%s", v);
	}
	read_node(c);
	return true;
}
