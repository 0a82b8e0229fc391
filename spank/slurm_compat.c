/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurm_compat.c - the one place where the Slurm release matters
 * (slurm_compat.h).  Each difference below names the release that brought
 * it; they were read from SchedMD's sources at every release tag from
 * 22.05 to 26.05 and are checked by the end-to-end tests on each release
 * (doc/slurm-releases.md).
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <slurm/slurm.h>
#include <slurm/slurm_version.h>

#include "slurm_compat.h"

#if SLURM_VERSION_NUMBER < COMPAT_OLDEST_SLURM || \
	SLURM_VERSION_NUMBER > COMPAT_NEWEST_SLURM
#error "slurm-treematch supports Slurm 22.05 to 26.05 (configure says so)"
#endif

#define AT_LEAST(major, minor) \
	(SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(major, minor, 0))

const char *compat_slurm_release(void)
{
	static char text[16];

	if (!text[0])
		snprintf(text, sizeof(text), "%d.%02d.%d",
			 (int)SLURM_VERSION_MAJOR(SLURM_VERSION_NUMBER),
			 (int)SLURM_VERSION_MINOR(SLURM_VERSION_NUMBER),
			 (int)SLURM_VERSION_MICRO(SLURM_VERSION_NUMBER));
	return text;
}

/* ---- hostlists: a pointer type until 23.02, the struct since 23.11 ---- */
#if AT_LEAST(23, 11)
typedef hostlist_t *compat_hostlist;
#else
typedef hostlist_t compat_hostlist;
#endif

int compat_hostlist_join(const char *list, char *out, size_t size, int max)
{
	compat_hostlist hl = slurm_hostlist_create(list);
	char *h;
	int n = 0;
	size_t len = 0;

	if (!hl)
		return -1;
	if (size)
		out[0] = '\0';
	while ((h = slurm_hostlist_shift(hl))) {
		int w = n < max ? snprintf(out + len, size - len, "%s%s",
					   n ? "," : "", h) : -1;

		free(h);
		if (w < 0 || (size_t)w >= size - len) {
			n = -1;
			break;
		}
		len += (size_t)w;
		n++;
	}
	slurm_hostlist_destroy(hl);
	return n;
}

/* ---- topology --------------------------------------------------------- */

/* The topology that topology.yaml (25.05 and later) gives the partition,
 * into name; "" for the default. */
static void partition_topology(const char *partition, char *name,
			       size_t size)
{
	name[0] = '\0';
#if AT_LEAST(25, 5)
	partition_info_msg_t *parts = NULL;

	if (!partition || !*partition ||
	    slurm_load_partitions((time_t)0, &parts, 0) != 0 || !parts)
		return;
	for (uint32_t i = 0; i < parts->record_count; i++) {
		partition_info_t *p = &parts->partition_array[i];

		if (p->name && strcmp(p->name, partition) == 0 &&
		    p->topology_name)
			snprintf(name, size, "%s", p->topology_name);
	}
	slurm_free_partition_info_msg(parts);
#else
	(void)partition;
	(void)size;
#endif
}

/* Does the printed text describe switches or blocks, the topologies the
 * helper reads?  topology/default prints nothing (or a flat line), ring
 * and torus3d (26.05) print lines of their own. */
static int helper_reads(const char *text)
{
	for (const char *p = text; p && *p; p = strchr(p, '\n')) {
		while (*p == '\n')
			p++;
		if (!strncmp(p, "SwitchName=", 11) || !strncmp(p, "BlockName=", 10))
			return 1;
	}
	return 0;
}

int compat_topology_print(const char *partition, FILE *out)
{
	topo_info_response_msg_t *topo = NULL;
	char name[256], *text = NULL;
	size_t len = 0;
	int rc;

	partition_topology(partition, name, sizeof(name));
#if AT_LEAST(25, 5)
	rc = slurm_load_topo(&topo, name[0] ? name : NULL);
#else
	rc = slurm_load_topo(&topo);
#endif
	if (rc != 0 || !topo) {
		if (topo)
			slurm_free_topo_info_msg(topo);
		return -1;
	}
	/* printed to memory first: only a tree or blocks go to the helper */
	FILE *mem = open_memstream(&text, &len);
	if (!mem) {
		slurm_free_topo_info_msg(topo);
		return -1;
	}
#if AT_LEAST(25, 5)
	slurm_print_topo_info_msg(mem, topo, NULL, NULL, 1);
#elif AT_LEAST(23, 11)
	slurm_print_topo_info_msg(mem, topo, NULL, 1);
#else
	if (topo->record_count > 0)
		slurm_print_topo_info_msg(mem, topo, 1);
#endif
	fclose(mem);
	slurm_free_topo_info_msg(topo);
	rc = 0;
	if (text && helper_reads(text))
		rc = fwrite(text, 1, len, out) == len ? 1 : -1;
	free(text);
	return rc;
}

/* ---- jobs ------------------------------------------------------------- */

/* slurm_load_job takes the job's id until 25.11, a slurm_step_id_t since
 * 26.05 (the id alone only with SLURM_BACKWARD_COMPAT). */
int compat_job_over(uint32_t jobid)
{
	job_info_msg_t *jobs = NULL;
	int over = 1;
#if AT_LEAST(26, 5)
	slurm_step_id_t id = SLURM_STEP_ID_INITIALIZER;

	id.job_id = jobid;
#else
	uint32_t id = jobid;
#endif

	if (slurm_load_job(&jobs, id, SHOW_ALL) != 0 || !jobs) {
		int invalid = errno == ESLURM_INVALID_JOB_ID;

		if (jobs)
			slurm_free_job_info_msg(jobs);
		return invalid ? 1 : -1;
	}
	for (uint32_t i = 0; i < jobs->record_count; i++) {
		uint32_t state = jobs->job_array[i].job_state & JOB_STATE_BASE;

		if (jobs->job_array[i].job_id == jobid &&
		    (state == JOB_PENDING || state == JOB_RUNNING ||
		     state == JOB_SUSPENDED))
			over = 0;
	}
	slurm_free_job_info_msg(jobs);
	return over;
}

/* ---- srun ------------------------------------------------------------- */

typedef struct srun_option {
	const char *name;
	char arg;
	uint32_t since, until;
} srun_option;

static const srun_option srun_options[] = {
#include "srun_options.inc"
};

const char *compat_srun_long_option(int i)
{
	static char entry[sizeof(srun_options) / sizeof(srun_options[0])][40];
	int k = -1;

	for (size_t j = 0; j < sizeof(srun_options) / sizeof(srun_options[0]);
	     j++) {
		const srun_option *o = &srun_options[j];

		if (SLURM_VERSION_NUMBER < o->since ||
		    (o->until && SLURM_VERSION_NUMBER >= o->until))
			continue;
		if (++k < i)
			continue;
		if (!entry[j][0])
			snprintf(entry[j], sizeof(entry[j]), "%s:%c", o->name,
				 o->arg);
		return entry[j];
	}
	return NULL;
}

/* The same on every release from 22.05 to 26.05 (srun-options.sh). */
const char compat_srun_short_with_arg[] = "ABCDFGJLMNSTWbcdeimnopqrtwx";
const char compat_srun_short_optional[] = "IKk";
const char compat_srun_short_plain[] = "?EHOQVXZhlsuv";

const char *compat_srun_cpus_per_task_env(void)
{
	return AT_LEAST(23, 11) ? "SLURM_CPUS_PER_TASK" : "SRUN_CPUS_PER_TASK";
}

int compat_srun_refuses_nodes_with_hostfile(void)
{
	return AT_LEAST(23, 11);
}

/* ---- callbacks -------------------------------------------------------- */
#if AT_LEAST(25, 5)
/* A problem of this plugin must never drain a node: since 25.05 a plugin
 * chooses what a failing callback costs, and the default is the node. */
int slurm_spank_init_failure_mode = ESPANK_JOB_FAILURE;
#endif
