/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurm_cores.c - Slurm's core numbers as CPUs (tm_slurm_cores.h).  In
 * libtmcore: the plugin checks the helper's placement against the same
 * reading the helper placed with.
 */
#include <config.h>

#include "tm_slurm_cores.h"

int tm_slurm_cores_cpuset(hwloc_topology_t topo, const char *list,
			  hwloc_bitmap_t cpus, int *ncores)
{
	hwloc_obj_type_t type = HWLOC_OBJ_CORE;
	hwloc_bitmap_t cores;
	int rc = 0, c;

	*ncores = hwloc_get_nbobjs_by_type(topo, type);
	if (*ncores <= 0) { /* no core objects: a PU is a core */
		type = HWLOC_OBJ_PU;
		*ncores = hwloc_get_nbobjs_by_type(topo, type);
	}
	cores = hwloc_bitmap_alloc();
	/* an open range ("4-") reads as endless: its weight is -1 */
	if (!cores || !list || hwloc_bitmap_list_sscanf(cores, list) != 0 ||
	    hwloc_bitmap_weight(cores) <= 0) {
		rc = -1;
	} else if (hwloc_bitmap_last(cores) >= *ncores) {
		rc = -2;
	} else {
		hwloc_bitmap_foreach_begin(c, cores) {
			hwloc_obj_t core = hwloc_get_obj_by_type(topo, type,
								 (unsigned)c);
			if (core && core->cpuset)
				hwloc_bitmap_or(cpus, cpus, core->cpuset);
		} hwloc_bitmap_foreach_end();
	}
	hwloc_bitmap_free(cores);
	return rc;
}
