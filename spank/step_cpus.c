/*
 * step_cpus.c - which OS CPUs a step has on this node.
 *
 * Slurm gives the step's cores as its own abstract core indices
 * (S_STEP_ALLOC_CORES: socket-major, as in the node's slurm.conf line),
 * not as OS CPU numbers.  Slurm's task/affinity maps them to the machine
 * through hwloc's logical order of cores, and so does this: abstract core
 * c is hwloc's core of logical index c, and the step may use its PUs.
 * Reading /sys with hwloc as root is safe: nothing here comes from users.
 */
#include <config.h>

#include <stdio.h>

#include <hwloc.h>

#include "step_cpus.h"

int step_cpus(const char *abstract_cores, char *cpus, size_t size,
	      int *pus_per_core, char *why, size_t whylen)
{
	hwloc_topology_t topo;
	hwloc_bitmap_t wanted = hwloc_bitmap_alloc();
	hwloc_bitmap_t result = hwloc_bitmap_alloc();
	int rc = -1;

	if (!wanted || !result || hwloc_topology_init(&topo) < 0) {
		snprintf(why, whylen, "out of memory");
		hwloc_bitmap_free(wanted);
		hwloc_bitmap_free(result);
		return -1;
	}
	if (hwloc_topology_load(topo) < 0) {
		snprintf(why, whylen, "hwloc cannot read this node's topology");
		goto out;
	}
	hwloc_obj_type_t type = HWLOC_OBJ_CORE;
	int ncores = hwloc_get_nbobjs_by_type(topo, type);
	if (ncores <= 0) { /* no core information: one core per PU */
		type = HWLOC_OBJ_PU;
		ncores = hwloc_get_nbobjs_by_type(topo, type);
	}
	int npus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
	*pus_per_core = ncores > 0 && npus >= ncores ? npus / ncores : 1;
	if (!abstract_cores || hwloc_bitmap_list_sscanf(wanted, abstract_cores) < 0 ||
	    hwloc_bitmap_iszero(wanted)) {
		snprintf(why, whylen, "Slurm gave no usable core list (%s)",
			 abstract_cores ? abstract_cores : "none");
		goto out;
	}
	if (hwloc_bitmap_last(wanted) >= ncores) {
		snprintf(why, whylen, "the step's cores %s do not exist on this "
			 "node (%d cores): slurm.conf and the hardware differ",
			 abstract_cores, ncores);
		goto out;
	}
	int c;
	hwloc_bitmap_foreach_begin(c, wanted) {
		hwloc_obj_t core = hwloc_get_obj_by_type(topo, type, (unsigned)c);
		hwloc_bitmap_or(result, result, core->cpuset);
	} hwloc_bitmap_foreach_end();
	if (hwloc_bitmap_list_snprintf(cpus, size, result) >= (int)size) {
		snprintf(why, whylen, "too many CPUs");
		goto out;
	}
	rc = 0;
out:
	hwloc_topology_destroy(topo);
	hwloc_bitmap_free(wanted);
	hwloc_bitmap_free(result);
	return rc;
}
