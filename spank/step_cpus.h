/* step_cpus.h - the OS CPUs of a step on this node (step_cpus.c). */
#ifndef TM_STEP_CPUS_H
#define TM_STEP_CPUS_H

#include <stddef.h>

/* abstract_cores: S_STEP_ALLOC_CORES ("0-3,8").  Writes the OS CPU list
 * ("0-3,16-19") into cpus and how many PUs a core has.  -1 with why set
 * when the list does not fit this machine. */
int step_cpus(const char *abstract_cores, char *cpus, size_t size,
	      int *pus_per_core, char *why, size_t whylen);

#endif /* TM_STEP_CPUS_H */
