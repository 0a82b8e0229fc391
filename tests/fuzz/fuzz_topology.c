/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_topology.c - the network above a job's nodes from `scontrol show
 * topology` output or a topology.conf (tm_switch_tree_load's text), for a
 * job on n1..n8; a tree it builds has the job's nodes as its leaves. */
#include <config.h>

#include "fuzz.h"
#include "tm_job.h"
#include "tm_tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *const nodes[] = { "n1", "n2", "n3", "n4",
				       "n5", "n6", "n7", "n8" };
	enum { NNODES = sizeof(nodes) / sizeof(nodes[0]) };
	tm_tree *net = NULL;
	int *order = NULL;
	tm_error err;

	for (int nn = 1; nn <= NNODES; nn += NNODES - 1) {
		tm_status st = tm_switch_tree_parse("fuzz.conf",
						    (const char *)data, size,
						    nodes, nn, &net, &order,
						    &err);
		fuzz_check_error(st, &err);
		if (st != TM_OK)
			continue;
		int seen[NNODES] = { 0 };
		for (int l = 0; l < nn; l++) {
			if (order[l] < 0 || order[l] >= nn || seen[order[l]]++)
				abort(); /* each node is one leaf */
		}
		tm_tree_free(net);
		free(order);
		net = NULL;
		order = NULL;
	}
	return 0;
}
