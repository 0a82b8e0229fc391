/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tm_policy_table.h - every placement policy, once.
 *
 * The one list from which the algorithm enum (tm_map.h), the names that
 * --algorithm, --comm-matrix-algorithm and algorithm= accept, the CLI's
 * usage, the `treematch-helper policies` listing (which the man page and
 * the tests read) and the dispatch of tm_map_with all come.  Adding a
 * policy is one file with its entry point, one row here and its test.
 *
 * X(ID, "name", entry point, "one line of help", options it reads)
 *
 * The entry point has the signature of tm__policy_fn (place/policy.h);
 * only the dispatcher expands that column, so naming a function here
 * links nothing into what uses the names alone (the SPANK plugin).
 * Options: TM_POLICY_OPT_* of tm_map.h, or'ed.
 */
#ifndef TM_POLICY_TABLE_H
#define TM_POLICY_TABLE_H

#define TM_POLICY_TABLE(X)                                                   \
	X(TREEMATCH, "treematch", tm__place_treematch,                       \
	  "TreeMatch (Jeannot & Mercier): point-to-point traffic of any "    \
	  "pattern", 0)                                                      \
	X(PACKED, "packed", tm__place_packed,                                \
	  "rank i on core i (what Slurm's block binding gives)", 0)          \
	X(ROUND_ROBIN, "round-robin", tm__place_round_robin,                 \
	  "rank i in top-level subtree i mod k", 0)                          \
	X(MPIPP, "mpipp", tm__place_mpipp,                                   \
	  "MPIPP: random starts and pairwise swaps, best of 5 (a baseline: " \
	  "about 1 s at 256 cores)", 0)                                      \
	X(MPIPP1, "mpipp1", tm__place_mpipp1,                                \
	  "MPIPP with a single start (a baseline)", 0)                       \
	X(SETMATCH, "setmatch", tm__place_setmatch,                          \
	  "SetMatch (Venkatesan et al.): collective-I/O matrices",           \
	  TM_POLICY_OPT_THRESHOLD | TM_POLICY_OPT_SET_CAP)                   \
	X(HIERARCHICAL, "hierarchical", tm__place_hierarchical,              \
	  "level-by-level matching (Hungarian method): fixed partners",     \
	  0)                                                                 \
	X(SPREAD, "spread", tm__place_spread,                                \
	  "OnDeLocMap+ (Agung et al.): memory-bound codes, re-mapping",     \
	  TM_POLICY_OPT_PREVIOUS)

#endif /* TM_POLICY_TABLE_H */
