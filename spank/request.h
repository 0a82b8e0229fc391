/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * request.h - what srun (or sbatch, for the steps of its job) asks of the
 * nodes for one step: one typed request, carried in the job's environment
 * (SLURM_* names survive --export=NONE).  srun writes it, slurmstepd reads
 * and checks it in one call, and the tasks never see it; every part of
 * that comes from the table below, so a new field is one row.
 *
 * The environment is the user's: slurmstepd trusts nothing srun checked.
 * Each field has a kind that request_read enforces before anything uses
 * it.  An empty value counts as unset: srun merges what it sets after
 * taking its copy of the environment, so it blanks instead of unsetting.
 */
#ifndef TM_REQUEST_H
#define TM_REQUEST_H

#include <stddef.h>

/* X(FIELD, VARIABLE, KIND, SIZE, TASKS, WHAT): SIZE bytes hold the value
 * and its NUL; KIND is one of
 *   FLAG  "yes" or unset
 *   TEXT  one line of printable text
 *   PATH  an absolute path
 *   NAME  a placement policy's name (tm_algorithm_parse)
 * TASKS: KEEP when the tasks of a step placed from a matrix keep the
 * variable (which matrix placed them, spank-treematch(8)), DROP when no
 * task ever sees it. */
#define STEP_REQUEST_FIELDS(X)                                              \
	X(matrix, "SLURM_TREEMATCH_MATRIX", PATH, 4096, KEEP,               \
	  "the matrix file")                                                \
	X(matrix_arg, "SLURM_TREEMATCH_MATRIX_ARG", TEXT, 4096, DROP,       \
	  "--comm-matrix as sbatch saw it, for the steps of its job")       \
	X(fallback, "SLURM_TREEMATCH_FALLBACK", TEXT, 1024, DROP,           \
	  "why srun places nothing (it said so already)")                   \
	X(abort, "SLURM_TREEMATCH_ABORT", TEXT, 1024, DROP,                 \
	  "why srun refuses the step (on_error=fail)")                      \
	X(report, "SLURM_TREEMATCH_REPORT", FLAG, 4, DROP,                  \
	  "--comm-matrix-report")                                           \
	X(topology, "SLURM_TREEMATCH_TOPOLOGY", TEXT, 1024, DROP,           \
	  "--comm-matrix-topology: a dry run on that machine")              \
	X(algorithm, "SLURM_TREEMATCH_ALGORITHM", NAME, 32, DROP,           \
	  "--comm-matrix-algorithm")                                        \
	X(svg, "SLURM_TREEMATCH_SVG", FLAG, 4, DROP, "--comm-matrix-svg")   \
	X(jobwide, "SLURM_TREEMATCH_JOBWIDE", FLAG, 4, DROP,                \
	  "srun chose each rank's node (an arbitrary layout)")              \
	X(online, "SLURM_TREEMATCH_ONLINE", TEXT, 2048, DROP,               \
	  "--comm-matrix=online: its parameters")

typedef struct step_request {
#define STEP_REQUEST_MEMBER(field, var, kind, size, tasks, what) \
	char field[size];
	STEP_REQUEST_FIELDS(STEP_REQUEST_MEMBER)
#undef STEP_REQUEST_MEMBER
} step_request;

/* What is wrong with a request: the variable and one line naming it. */
typedef struct request_error {
	const char *variable;
	char text[1200];
} request_error;

/* Where a request is read from and written to: the job's environment
 * through SPANK in slurmstepd, the process's own in srun; get returns 0
 * and the value (truncated to len - 1 bytes: *cut set), or -1 when
 * unset. */
typedef struct request_env {
	int (*get)(void *ctx, const char *name, char *buf, size_t len,
		   int *cut);
	void (*set)(void *ctx, const char *name, const char *value);
	void (*unset)(void *ctx, const char *name);
	void *ctx;
} request_env;

/* srun: set the fields that are set, blank those that are not but exist
 * in the environment (an "" reaches the nodes as unset). */
void request_write(const step_request *r, const request_env *env);

/* slurmstepd: read every field and check it by its kind; 0, or -1 with
 * err naming the first bad variable (nothing of r may then be used). */
int request_read(step_request *r, const request_env *env,
		 request_error *err);

/* The tasks: remove the table's variables, all of them, or (placed set:
 * a step placed from a matrix) all but those marked KEEP. */
void request_clear(const request_env *env, int placed);

/* The table's variables, for the man page's test and the docs: entry i,
 * NULL past the last. */
const char *request_variable(int i);

#endif /* TM_REQUEST_H */
