/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tm_slurm_cores.h - Slurm's core numbers as CPUs: the one reading that
 * treematch-helper's --slurm-cores and the plugin's check of the helper's
 * answer in slurmstepd must share, or a correct placement would be
 * refused (or a wrong one let through).
 */
#ifndef TM_SLURM_CORES_H
#define TM_SLURM_CORES_H

#include <hwloc.h>

/* Slurm numbers a node's cores 0..N-1 in hwloc's logical order (a machine
 * without core objects: its PUs).  ORs into cpus the PUs of the cores of
 * list ("0-3,8"), sets *ncores to the node's count, and returns 0; -1
 * when list is not a list of core numbers (nothing is set), -2 when it
 * names a core the node does not have. */
int tm_slurm_cores_cpuset(hwloc_topology_t topo, const char *list,
			  hwloc_bitmap_t cpus, int *ncores);

#endif /* TM_SLURM_CORES_H */
