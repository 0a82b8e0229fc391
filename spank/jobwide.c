/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobwide.c - srun only: choose which node each rank runs on, once for
 * the step, across Slurm's switch tree (doc/job-wide.md).
 *
 * srun reads SLURM_HOSTFILE once its options are parsed and, when no node
 * list was given, runs the step in the arbitrary distribution that file
 * describes (every release from 22.05 to 26.05; what differs between
 * them, such as -N since 23.11, comes from slurm_compat.h).  The last
 * moment to set it
 * is the --comm-matrix option callback; init_post_opt comes too late.  So
 * the callback reads srun's whole command line (srun_args.c), decides
 * whether a job-wide layout can apply, runs `treematch-helper job` as the
 * user with the allocation's nodes and the counts Slurm would give, and
 * exports the answer as an in-memory hostfile.  init_post_opt withdraws
 * the variable (srun has read the file; nested sruns must not) and says
 * in one line what was done, or why not.  Each node then maps its own
 * ranks exactly as before.
 *
 * Everything here runs in srun as the user: no privilege is involved,
 * and any failure leaves Slurm's own layout.
 */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <jansson.h>

#include "helper_run.h"
#include "jobwide_counts.h"
#include "slurm_compat.h"
#include "srun_args.h"
#include "tm_job.h"
#include "tm_spank.h"

enum {
	MAX_NODES = 65536,
	MAX_ARGV = 4096,
	CMDLINE_MAX = 1 << 20,
	NODES_TEXT_MAX = 1 << 20,
	MAX_HELPER_OUT = 64 << 20,
};

static struct {
	int hostfile_fd;          /* our SLURM_HOSTFILE, -1: none */
	int placed;               /* the hostfile was exported */
	int several_nodes;        /* the step would span several nodes */
	char line[TEXT_MAX];      /* the job-wide report line */
	char why[TEXT_MAX];       /* why not placed, "" when placed or quiet */
} state = { .hostfile_fd = -1 };

void jobwide_withdraw(void)
{
	if (state.hostfile_fd >= 0) {
		close(state.hostfile_fd);
		unsetenv("SLURM_HOSTFILE");
	}
	state.hostfile_fd = -1;
	state.placed = 0;
	/* nor a reason why it was not placed: it is not asked any more */
	state.why[0] = state.line[0] = '\0';
}

static void not_placed(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static void not_placed(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(state.why, sizeof(state.why), fmt, ap);
	va_end(ap);
}

/* A positive count, or -1. */
static long positive(const char *s)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	return errno || *end || v < 1 || v > 1L << 30 ? -1 : v;
}

/* Slurm's switch tree or blocks for the job's partition, as `scontrol
 * show topology` prints them, in an in-memory file for the helper's
 * stdin; -1 when there are none the helper reads. */
static int switch_tree_fd(void)
{
	int fd = memfd_create("treematch-switches", MFD_CLOEXEC);
	FILE *f = fd >= 0 ? fdopen(dup(fd), "w") : NULL;
	int printed = f ? compat_topology_print(getenv("SLURM_JOB_PARTITION"),
						f) : -1;

	if (f && fclose(f) != 0)
		printed = -1;
	if (printed <= 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	lseek(fd, 0, SEEK_SET);
	return fd;
}

/* Checks the helper's answer against what was asked (it runs as the
 * user, who may have replaced it: its node names must be the allocation's
 * own, in order, and the hostfile is written from the allocation's names,
 * so that no name of the helper's, a newline in one included, reaches
 * srun) and writes the hostfile. */
static int write_hostfile(json_t *root, const char *our_nodes, int ntasks,
			  int nnodes, const int *count)
{
	json_t *nodes = json_object_get(root, "nodes");
	json_t *node_of = json_object_get(root, "node-of");
	int *used = calloc((size_t)nnodes, sizeof(int));
	const char **name = calloc((size_t)nnodes, sizeof(*name));
	int *name_len = calloc((size_t)nnodes, sizeof(int));
	FILE *f = NULL;
	int fd = -1, rc = -1;

	if (!used || !name || !name_len || !json_is_array(nodes) ||
	    !json_is_array(node_of) ||
	    json_array_size(nodes) != (size_t)nnodes ||
	    json_array_size(node_of) != (size_t)ntasks)
		goto out;
	const char *p = our_nodes;
	for (int j = 0; j < nnodes; j++) {
		json_t *theirs = json_array_get(nodes, (size_t)j);

		name[j] = p;
		name_len[j] = (int)strcspn(p, ",");
		p += name_len[j] + (p[name_len[j]] == ',');
		if (!json_is_string(theirs) ||
		    strlen(json_string_value(theirs)) != (size_t)name_len[j] ||
		    memcmp(json_string_value(theirs), name[j],
			   (size_t)name_len[j]) != 0)
			goto out;
	}
	fd = memfd_create("treematch-hostfile", 0);
	if (fd < 0 || !(f = fdopen(dup(fd), "w")))
		goto out;
	for (int r = 0; r < ntasks; r++) {
		json_t *v = json_array_get(node_of, (size_t)r);
		long long j = json_is_integer(v) ? json_integer_value(v) : -1;

		if (j < 0 || j >= nnodes || ++used[j] > count[j])
			goto out;
		fprintf(f, "%.*s\n", name_len[j], name[j]);
	}
	if (fflush(f) != 0)
		goto out;
	rc = 0;
out:
	if (f)
		fclose(f);
	free(used);
	free(name);
	free(name_len);
	if (rc == 0) {
		char path[64];

		lseek(fd, 0, SEEK_SET);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		state.hostfile_fd = fd;
		setenv("SLURM_HOSTFILE", path, 1);
	} else if (fd >= 0) {
		close(fd);
	}
	return rc;
}

static void short_number(char *buf, size_t size, double v)
{
	snprintf(buf, size, v == 0 ? "0" : "%.3g", v);
}

static void report_line(json_t *root, int ntasks, int nnodes)
{
	json_t *tr = json_object_get(root, "traffic");
	const char *names[] = { "treematch", "block", "cyclic" };
	char cross[3][32], sw[3][32];
	json_t *top;

	for (int k = 0; k < 3; k++) {
		json_t *t = json_object_get(tr, names[k]);
		json_t *levels = json_object_get(t, "cross-switch");

		short_number(cross[k], sizeof(cross[k]), json_number_value(
				     json_object_get(t, "cross-node")));
		/* leaf switches first: what leaves them goes between
		 * switches, up the network */
		top = json_array_get(levels, 0);
		short_number(sw[k], sizeof(sw[k]), json_number_value(top));
	}
	int len = snprintf(state.line, sizeof(state.line),
			   PLUGIN ": job-wide: %d ranks on %d nodes: bytes "
			   "across nodes %s (Slurm's block %s, cyclic %s)",
			   ntasks, nnodes, cross[0], cross[1], cross[2]);
	if (json_array_size(json_object_get(json_object_get(tr, "treematch"),
					    "cross-switch")) > 0 && len > 0 &&
	    (size_t)len < sizeof(state.line))
		snprintf(state.line + len, sizeof(state.line) - (size_t)len,
			 "; between switches %s (block %s, cyclic %s)",
			 sw[0], sw[1], sw[2]);
	if (json_is_true(json_object_get(root, "kept-block")))
		snprintf(state.line + strlen(state.line),
			 sizeof(state.line) - strlen(state.line),
			 "; Slurm's block kept: nothing sends less");
}

/* Asked twice a second while srun's helper runs: has the job ended
 * (scancel, its time limit)?  Then the helper is stopped at once, rather
 * than at the site's timeout=: nothing waits for its answer.  slurmctld
 * out of reach counts as not ended. */
static int job_over(void *arg)
{
	return compat_job_over(*(const uint32_t *)arg) == 1;
}

/* Run `treematch-helper job` and export its answer. */
static void place(const site_config *cfg, const char *matrix,
		  const char *nodes, int nnodes, int ntasks, const int *count)
{
	char *counts = malloc((size_t)nnodes * 12 + 1), why[TEXT_MAX] = "";
	size_t len = 0, room = (size_t)nnodes * 12 + 1;
	helper_result res = { 0 };
	char *argv[24];
	int a = 0, switches = switch_tree_fd();
	char max_size[32];
	static uint32_t jobid; /* job_over's: a number slurmctld knows */
	long id = positive(getenv("SLURM_JOB_ID"));

	jobid = id > 0 ? (uint32_t)id : 0;
	if (!counts) {
		not_placed("out of memory");
		goto out;
	}
	for (int i = 0; i < nnodes; i++)
		len += (size_t)snprintf(counts + len, room - len, "%s%d",
					i ? "," : "", count[i]);
	snprintf(max_size, sizeof(max_size), "%lld", cfg->max_size);
	argv[a++] = (char *)cfg->helper;
	argv[a++] = "job";
	argv[a++] = "--matrix";
	argv[a++] = (char *)matrix;
	argv[a++] = "--nodes";
	argv[a++] = (char *)nodes;
	argv[a++] = "--tasks-per-node";
	argv[a++] = counts;
	argv[a++] = "--max-size";
	argv[a++] = max_size;
	if (switches >= 0) {
		argv[a++] = "--switches";
		argv[a++] = "/dev/stdin";
	}
	if (cfg->network_costs[0]) {
		argv[a++] = "--network-costs";
		argv[a++] = (char *)cfg->network_costs;
	}
	argv[a++] = "--format";
	argv[a++] = "json";
	argv[a] = NULL;

	helper_job job = { cfg->helper, argv, getuid(), getgid(), NULL, 0,
			   cfg->timeout, MAX_HELPER_OUT, 65536,
			   .as_caller = 1, .stdin_fd = switches,
			   .cancelled = jobid ? job_over : NULL,
			   .cancel_arg = &jobid };
	if (helper_run(&job, &res, why, sizeof(why)) < 0) {
		not_placed("treematch-helper job could not run: %s", why);
		goto out;
	}
	if (res.cancelled) {
		not_placed("job %u ended while treematch-helper job ran: "
			   "stopped it", jobid);
		goto out;
	}
	if (!res.exited || res.exit_code != 0) {
		char clean[TEXT_MAX] = "";

		if (res.err)
			text_clean(clean, sizeof(clean), res.err,
				   strcspn(res.err, "\n"));
		not_placed("treematch-helper job failed%s%s",
			   clean[0] ? ": " : "", clean);
		goto out;
	}
	json_error_t jerr;
	json_t *root = json_loadb(res.out ? res.out : "", res.out_len, 0, &jerr);
	if (!root || write_hostfile(root, nodes, ntasks, nnodes, count) < 0) {
		not_placed("treematch-helper job gave no usable assignment");
	} else {
		state.placed = 1;
		report_line(root, ntasks, nnodes);
	}
	json_decref(root);
out:
	helper_result_free(&res);
	free(counts);
	if (switches >= 0)
		close(switches);
}

void jobwide_option(const site_config *cfg, const char *matrix_arg,
		    const struct spank_option *own)
{
	static char cmdline[CMDLINE_MAX];
	char *argv[MAX_ARGV];
	srun_args args;
	char path[PATH_TEXT_MAX], problem[TEXT_MAX] = "";
	const char *list = getenv("SLURM_JOB_NODELIST");

	jobwide_withdraw(); /* the option may come twice: #SBATCH, then srun's */
	state.several_nodes = 0;
	/* topology=: a dry run, nothing is bound nor moved */
	if (spank_context() != S_CTX_LOCAL || cfg->error[0] || !cfg->nodes ||
	    cfg->topology[0])
		return;
	/* whether a reason not to place is worth a line on the terminal */
	state.several_nodes = positive(getenv("SLURM_JOB_NUM_NODES")) > 1;
	int argc = srun_args_read_self(cmdline, sizeof(cmdline), argv,
				       MAX_ARGV);
	if (argc < 0 || srun_args_scan(argc, argv, own, &args) < 0) {
		not_placed("srun's command line holds %s, which srun %s does "
			   "not know without an attached =VALUE (another "
			   "plugin's option?)",
			   args.unknown[0] ? args.unknown : "(unreadable)",
			   compat_slurm_release());
		return;
	}
	if (args.keep_layout || user_opt.keep_layout || args.dry_run)
		return; /* asked for, or nothing is bound: quietly */
	if (!getenv("SLURM_JOB_ID") || !list) {
		not_placed("srun allocates its own nodes here (job-wide "
			   "placement applies inside salloc or sbatch)");
		return;
	}
	if (getenv("SLURM_HET_SIZE") || args.het_group || args.het_colon) {
		not_placed("a heterogeneous job");
		return;
	}
	const char *given = args.nodelist ? "-w" : args.nodefile ? "-F" :
			    args.distribution ? "-m" : args.exclude ? "-x" :
			    args.relative ? "-r" :
			    getenv("SLURM_HOSTFILE") ? "SLURM_HOSTFILE" :
			    getenv("SLURM_DISTRIBUTION") ? "SLURM_DISTRIBUTION" :
			    NULL;
	if (given) {
		not_placed("%s given", given);
		return;
	}

	static char nodes[NODES_TEXT_MAX];
	int nnodes = compat_hostlist_join(list, nodes, sizeof(nodes), MAX_NODES);
	int *cpus = NULL, ncounts = 0;
	int *count = nnodes > 0 ? calloc((size_t)nnodes, sizeof(int)) : NULL;
	tm_error err;
	/* "2(x3),1", one count per node: the helper's reader of Slurm's
	 * counts (libtmcore) */
	if (!count || tm_tasks_per_node_parse("SLURM_JOB_CPUS_PER_NODE",
					      getenv("SLURM_JOB_CPUS_PER_NODE"),
					      nnodes, &cpus, &ncounts,
					      &err) != TM_OK ||
	    ncounts != nnodes) {
		not_placed("cannot read the allocation (SLURM_JOB_NODELIST, "
			   "SLURM_JOB_CPUS_PER_NODE)");
		goto out;
	}
	/* -N: Slurm takes the first nodes of the allocation */
	long want_nodes = args.nodes ? positive(args.nodes) : nnodes;
	if (want_nodes < 1 || want_nodes > nnodes) {
		not_placed("-N %s: expected 1 to %d nodes", args.nodes, nnodes);
		goto out;
	}
	if (want_nodes < nnodes) {
		char *cut = nodes;
		for (long i = 0; i < want_nodes; i++)
			cut = strchr(cut, ',') + 1;
		cut[-1] = '\0';
		nnodes = (int)want_nodes;
	}
	state.several_nodes = nnodes > 1;
	if (nnodes < 2)
		goto out; /* one node: nothing to choose */
	if (args.nodes && compat_srun_refuses_nodes_with_hostfile()) {
		not_placed("srun -N: Slurm %s runs no step with both -N and a "
			   "layout of its ranks (drop -N and give -n to have "
			   "them placed)", compat_slurm_release());
		goto out;
	}
	const char *cpt_env = getenv(compat_srun_cpus_per_task_env());
	long cpt = args.cpus_per_task ? positive(args.cpus_per_task) :
		   cpt_env && *cpt_env ? positive(cpt_env) : 1;
	const char *tpn_text = args.tasks_per_node ? args.tasks_per_node :
			       getenv("SLURM_NTASKS_PER_NODE");
	long tpn = tpn_text ? positive(tpn_text) : 0;
	long ntasks = args.ntasks ? positive(args.ntasks) :
		      !args.nodes && getenv("SLURM_NTASKS") ?
		      positive(getenv("SLURM_NTASKS")) :
		      tpn > 0 ? tpn * nnodes : nnodes;
	if (cpt < 1 || ntasks < 1 || (tpn_text && tpn < 1)) {
		not_placed("cannot read the task count, -c or "
			   "--ntasks-per-node");
		goto out;
	}
	for (int i = 0; i < nnodes; i++) {
		cpus[i] = args.overcommit ? (int)ntasks : (int)(cpus[i] / cpt);
		if (tpn > 0 && cpus[i] > tpn)
			cpus[i] = (int)tpn;
	}
	if (jobwide_task_counts((int)ntasks, nnodes, cpus, count) < 0) {
		not_placed("%ld tasks do not fit the CPUs of %d nodes", ntasks,
			   nnodes);
		goto out;
	}
	matrix_file_resolve(cfg, matrix_arg, path, sizeof(path), problem,
			     sizeof(problem));
	if (problem[0])
		goto out; /* init_post_opt says what is wrong with it */
	place(cfg, path, nodes, nnodes, (int)ntasks, count);
out:
	free(cpus);
	free(count);
}

void jobwide_post_opt(const site_config *cfg)
{
	/* srun has read the file: the variable must not reach the tasks,
	 * where a nested srun would be placed by it */
	if (state.hostfile_fd >= 0) {
		close(state.hostfile_fd);
		state.hostfile_fd = -1;
		unsetenv("SLURM_HOSTFILE");
	}
	if (state.placed && (user_opt.report || cfg->report))
		say("%s", state.line);
	else if (!state.placed && state.why[0] && state.several_nodes)
		say(PLUGIN ": ranks not placed across nodes (%s); Slurm's "
		    "layout is used, placement within each node still "
		    "applies", state.why);
	else if (!state.placed && state.why[0])
		slurm_verbose(PLUGIN ": job-wide placement: %s", state.why);
}

int jobwide_placed(void)
{
	return state.placed;
}
