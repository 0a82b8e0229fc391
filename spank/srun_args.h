/* SPDX-License-Identifier: GPL-2.0-or-later */
/* srun_args.h - srun's own command line, as far as placement goes. */
#ifndef TM_SRUN_ARGS_H
#define TM_SRUN_ARGS_H

#include <slurm/spank.h>

/* The options of srun's command line that decide which node a task runs
 * on; NULL when absent.  A SPANK option callback runs while srun parses
 * its options, so the options written after --comm-matrix are not known
 * to srun yet: they are read here from srun's own argv. */
typedef struct srun_args {
	const char *ntasks, *nodes, *cpus_per_task, *tasks_per_node;
	const char *nodelist, *nodefile, *exclude, *distribution, *relative;
	const char *het_group;
	int overcommit;
	int het_colon;    /* a ':' after the command: another component */
	int keep_layout;  /* --comm-matrix-keep-layout */
	int dry_run;      /* --comm-matrix-topology */
	char unknown[64]; /* an option not known here: nothing is trusted */
} srun_args;

/* Scan argv[1..argc-1] (argv[0] is srun), knowing srun's options and
 * own, the plugin's (ended by an entry without a name); 0, or -1 when the
 * line cannot be read (an unknown option, named in a->unknown).  The
 * strings point into argv. */
int srun_args_scan(int argc, char **argv, const struct spank_option *own,
		   srun_args *a);

/* srun's argv from /proc/self/cmdline into buf; the count, or -1. */
int srun_args_read_self(char *buf, int size, char **argv, int max);

#endif /* TM_SRUN_ARGS_H */
