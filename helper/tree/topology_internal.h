/* SPDX-License-Identifier: GPL-2.0-or-later */
/* topology_internal.h - the kinds of topology tm_topology_load reads. */
#ifndef TM_TOPOLOGY_INTERNAL_H
#define TM_TOPOLOGY_INTERNAL_H

#include "tm_topology.h"

/* "tree:A,B,C" (topology_tree.c). */
tm_status tm__topology_abstract(const char *spec, const char *restrict_cpus,
			       tm_tree **out, tm_error *err);

#endif /* TM_TOPOLOGY_INTERNAL_H */
