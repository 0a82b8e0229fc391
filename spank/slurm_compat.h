/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurm_compat.h - everything the plugin does differently on the Slurm
 * releases it supports, 22.05 to 26.05 (doc/slurm-releases.md).  The
 * release is chosen once, at build time, from the headers'
 * SLURM_VERSION_NUMBER; slurm_compat.c is the only file of spank/ that
 * tests it, and the rest of the plugin calls only what is declared here.
 */
#ifndef TM_SLURM_COMPAT_H
#define TM_SLURM_COMPAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The oldest and newest release lines the plugin is built and tested on;
 * configure refuses headers outside them. */
#define COMPAT_OLDEST_SLURM 0x160500 /* 22.05 */
#define COMPAT_NEWEST_SLURM 0x1a05ff /* 26.05.x */

/* The release the plugin was built for, as "26.05.3". */
const char *compat_slurm_release(void);

/* ---- hostlists ------------------------------------------------------ */
/* Slurm's hostlist expression `list` (such as "n[1-3],m2") as "n1,n2,n3,m2"
 * into out; the number of hosts, or -1 when it cannot be read, holds more
 * than max hosts, or does not fit. */
int compat_hostlist_join(const char *list, char *out, size_t size, int max);

/* ---- the network's topology ------------------------------------------- */
/* What `scontrol show topology` prints for the topology of `partition`
 * (NULL or "": the cluster's default; topology.yaml, 25.05 and later, may
 * give partitions topologies of their own), written to out.  Returns 1
 * when something was written, 0 when Slurm knows no topology of a kind the
 * helper reads (none, flat, or one of 26.05's ring and torus3d), -1 when
 * it could not be asked. */
int compat_topology_print(const char *partition, FILE *out);

/* ---- jobs ------------------------------------------------------------- */
/* Whether job `jobid` is over (cancelled, completed, failed, timed out,
 * or unknown to slurmctld): 1; 0 while it is pending, running or
 * suspended; -1 when slurmctld could not be asked. */
int compat_job_over(uint32_t jobid);

/* ---- srun ------------------------------------------------------------- */
/* srun's long options on this release: entry i as "name:K", K being R
 * (an argument), O (an optional one, attached with '=') or N (none); NULL
 * past the last. */
const char *compat_srun_long_option(int i);
/* srun's short options that take an argument, an optional one, none. */
extern const char compat_srun_short_with_arg[];
extern const char compat_srun_short_optional[];
extern const char compat_srun_short_plain[];

/* The variable from which srun takes -c when its command line has none:
 * SLURM_CPUS_PER_TASK since 23.11 (salloc -c sets it), before that
 * SRUN_CPUS_PER_TASK. */
const char *compat_srun_cpus_per_task_env(void);

/* Whether srun refuses -N on its command line together with the
 * arbitrary layout that SLURM_HOSTFILE sets ("--nodes is incompatible with
 * --distribution=arbitrary", 23.11 and later). */
int compat_srun_refuses_nodes_with_hostfile(void);

#endif /* TM_SLURM_COMPAT_H */
