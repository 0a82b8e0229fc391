/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * multilevel.h - the levels of a multilevel graph algorithm: the graph,
 * then coarser and coarser copies of it in which matched pairs of
 * vertices are merged (coarsen.c).  Bisection (bisect.c) cuts the coarsest
 * and carries the cut back; the V-cycle (vcycle.c) refines a partition it
 * is given at every level.  Internal to the mapping library.
 */
#ifndef TM_MULTILEVEL_H
#define TM_MULTILEVEL_H

#include "tm_error.h"
#include "tm_matrix.h"

/* A graph of one level: edges in a tm_matrix, ranks merged per vertex. */
typedef struct tm_level {
	tm_matrix *g;      /* owned, except at level 0 */
	int *vw;           /* vertex weights */
	int *to_coarse;    /* vertex -> vertex of the next level */
	int maxvw;         /* cap on merged weights */
	int heaviest;      /* heaviest vertex here: the balance tolerance */
} tm_level;

/* Build coarse from fine by heavy-edge matching: fine->to_coarse and
 * coarse's g, vw, heaviest and maxvw are set.  When part is not NULL only
 * vertices of the same part are merged, so that a partition of fine is
 * one of coarse too. */
tm_status tm__coarsen(tm_level *fine, tm_level *coarse, const int *part,
		     tm_error *err);

#endif /* TM_MULTILEVEL_H */
