/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tm_spank.h - the parts of the treematch SPANK plugin and what they share.
 *
 * Where things run (see the README's "How it works", and FINDINGS in the
 * design notes):
 *   srun, sbatch, salloc (as the user): options, then local.c checks the
 *     matrix file and tells the nodes which one to use through the job's
 *     environment (SLURM_TREEMATCH_*, which survives --export=NONE);
 *   slurmstepd, user_init (once per node and step; real uid root, effective
 *     ids the user's): remote.c runs treematch-helper as the job's user
 *     (helper_run.c) for this node's ranks and keeps each task's CPUs;
 *   each task, task_init (as the user, after Slurm's own binding): task.c
 *     binds it and exports SLURM_TREEMATCH_CPUS / SLURM_TREEMATCH_STATUS.
 */
#ifndef TM_SPANK_H
#define TM_SPANK_H

#include <stddef.h>
#include <stdint.h>

#include <slurm/spank.h>

#include "tm_online.h"

#define PLUGIN "treematch"

/* What srun/sbatch ask of the nodes is the step's request (request.h);
 * what each task gets: */
#define ENV_CPUS        "SLURM_TREEMATCH_CPUS"
#define ENV_STATUS      "SLURM_TREEMATCH_STATUS"

enum { TEXT_MAX = 1024, PATH_TEXT_MAX = 4096 };
/* the online parameters: a save= path of up to TEXT_MAX and the rest */
enum { ONLINE_TEXT_MAX = 2 * TEXT_MAX };

/* ---- site configuration: the arguments on the plugstack.conf line --- */
typedef struct site_config {
	char helper[PATH_TEXT_MAX];     /* helper=PATH */
	int fail;                       /* on_error=fail (else warn) */
	int timeout;                    /* timeout=SECONDS */
	int bind_pu;                    /* bind=pu (else core) */
	int cpu_kinds_equal;            /* cpu_kinds=equal (else ordered) */
	int report;                     /* report=yes */
	char matrix_dir[PATH_TEXT_MAX]; /* matrix_dir=DIR, "" if none */
	int auto_matrix;                /* auto=yes or auto=online */
	int auto_online;                /* auto=online: steps without a
					 * matrix of their own go online */
	tm_online_params online;        /* online=SPEC over tm_online.h's
					 * defaults */
	char profiler[PATH_TEXT_MAX];   /* profiler=PATH: libcommprof.so */
	char topology[TEXT_MAX];        /* topology=..., "" = the real one */
	long long max_size;             /* max_size=BYTES of a matrix file */
	char algorithm[32];             /* algorithm=NAME, "" = the helper's
					 * default (treematch) */
	int nodes;                      /* nodes=yes: job-wide placement */
	char network_costs[128];        /* network_costs=LIST, "" = the
					 * helper's default */
	char error[TEXT_MAX];           /* why the line is invalid, "" if ok */
} site_config;

/* Parse av[0..ac-1]; at the first bad argument parsing stops (keys before
 * it keep their values, on_error= included, so that a site that asked for
 * fail gets its steps refused rather than silently unplaced), cfg->error
 * says what is wrong and the plugin places nothing but says so. */
void config_parse(site_config *cfg, int ac, char **av);

/* ---- the user's options (options.c) ------------------------------- */
typedef struct user_options {
	char *matrix;    /* --comm-matrix=FILE, NULL if not given */
	int report;      /* --comm-matrix-report */
	char *topology;  /* --comm-matrix-topology=TOPO */
	char *algorithm; /* --comm-matrix-algorithm=NAME, checked */
	int keep_layout; /* --comm-matrix-keep-layout */
	int svg;         /* --comm-matrix-svg */
	char *online;    /* --comm-matrix-online=SPEC, checked */
} user_options;

extern user_options user_opt;
int options_register(spank_t sp, const site_config *cfg);


/* ---- srun / sbatch / salloc (local.c) ----------------------------- */
int local_check_options(const site_config *cfg);         /* init_post_opt */
int local_prepare_step(spank_t sp, const site_config *cfg); /* local_user_init */
/* ---- the matrix file (matrix_file.c) ------------------------------- */
/* --comm-matrix's value to an absolute path (matrix_file.c says how), or
 * why not in problem. */
void matrix_file_resolve(const site_config *cfg, const char *arg,
			 char *path, size_t psize, char *problem,
			 size_t plen);
/* dir/name into out when that file exists: 0, else -1. */
int matrix_file_in_dir(const char *dir, const char *name, char *out,
		       size_t size);
/* A file directly in the site's matrix_dir (a bare name, auto=yes) is
 * used only when root or `user` owns it and the directory is not writable
 * by everyone without the sticky bit: -1 and problem otherwise.  Other
 * paths: 0. */
int matrix_file_trusted(const site_config *cfg, const char *path,
			uid_t user, char *problem, size_t plen);

/* ---- srun: which node each rank runs on (jobwide.c) ---------------- */
/* In the --comm-matrix option callback: export a hostfile or say why;
 * own: the plugin's options, for reading srun's command line. */
void jobwide_option(const site_config *cfg, const char *matrix_arg,
		    const struct spank_option *own);
/* Withdraw SLURM_HOSTFILE once srun has read it; the one-line report. */
void jobwide_post_opt(const site_config *cfg);
/* Clear another decision (--comm-matrix-keep-layout from #SBATCH). */
void jobwide_withdraw(void);
int jobwide_placed(void);

/* ---- slurmstepd (remote.c) ---------------------------------------- */
typedef struct node_plan {
	int active;        /* this step asked for a placement */
	int refuse;        /* on_error=fail and it failed: tasks must not run */
	int fail;          /* on_error=fail: a task that cannot bind must not run */
	int cancel_step;   /* on_error=fail and this node failed: its task 0
			    * cancels the whole step (step_cancel.c) */
	int dry_run;       /* computed on another topology: do not bind */
	int ntasks;        /* tasks on this node */
	char **cpus;       /* per local task id: its CPU list, or NULL */
	char status[TEXT_MAX];
	char *message;     /* printed once on the job's stderr, or NULL */
	/* --comm-matrix-svg: the helper's command line for the picture, run
	 * by the node's first task as the user, and the file it goes to */
	char **svg_argv;
	char svg_file[PATH_TEXT_MAX];
	int timeout;
	/* --comm-matrix=online: the tasks map themselves (online.c) */
	int online;
	char online_params[ONLINE_TEXT_MAX]; /* canonical, checked here */
	char online_segment[160];      /* the step's shm name on this node,
					* removed at the end of the step */
	char node[64];
	int report;
	uint32_t nlocal;
	uint32_t cpus_per_task;        /* srun -c */
	char profiler[PATH_TEXT_MAX];
} node_plan;

int remote_plan_node(spank_t sp, const site_config *cfg, node_plan *plan);
void node_plan_free(node_plan *plan);

/* ---- --comm-matrix=online (online.c) ------------------------------ */
/* The word that asks for online placement instead of a file. */
#define ONLINE_WORD "online"
int online_asked(const char *matrix_arg);
/* The parameters a step gets: tm_online.h's defaults, then the site's
 * online=, then policy (the user's --comm-matrix-algorithm, may be NULL),
 * then spec (the user's --comm-matrix-online, may be NULL), canonical
 * into out.  0, or -1 with one line in why naming `what`. */
int online_params(const site_config *cfg, const char *policy,
		  const char *spec, const char *what, char *out, size_t size,
		  char *why, size_t wl);
/* slurmstepd, user_init: a step whose request has online parameters
 * (spec, "" when none) gets plan->online (and 0; plan->node must be set),
 * one without has any online variables it inherited removed (returns 1:
 * not online).  -1 with why: online asked, not possible. */
int online_plan_node(spank_t sp, const site_config *cfg, node_plan *plan,
		     const char *spec, char *why, size_t wl);
/* Each task, task_init (as the user): what the profiler's online mode
 * reads, and the library in LD_PRELOAD. */
void online_task_env(spank_t sp, const node_plan *plan, int local_id);
/* slurmstepd, exit (root): the step's segment, by its fixed name. */
void online_step_end(const node_plan *plan);

/* ---- each task (task.c) ------------------------------------------- */
int task_apply(spank_t sp, const node_plan *plan);

/* ---- small helpers (text.c) --------------------------------------- */
/* Copy at most size-1 bytes of src, turning control characters into '?':
 * texts from users and from the helper go into logs and terminals. */
void text_clean(char *dst, size_t size, const char *src, size_t len);
/* One-line messages on the user's terminal (srun/sbatch) or, from a task,
 * on the job's stderr; never suppressed by srun -Q. */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same for a text of any length, such as a many-line report. */
void say_text(const char *text, size_t len);

/* ---- what a dry-run topology may cost (topology_check.c) ---------- */
/* A user's tree:ARITIES topology with more leaves than a step of ntasks
 * tasks of cpus_per_task CPUs can need (at least TOPOLOGY_STEP_MIN_LEAVES,
 * a large node): 1 and why.  0 for anything else (the helper checks the
 * rest and bounds every tree: at TM_TREE_SPEC_MAX_LEAVES). */
enum { TOPOLOGY_STEP_MIN_LEAVES = 65536 };
int topology_too_big(const char *topology, uint32_t ntasks,
		     uint32_t cpus_per_task, char *why, size_t wl);

#endif /* TM_SPANK_H */
