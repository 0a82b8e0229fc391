/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * calls_util.c - the `calls` test program's data (what each rank sends),
 * its checks, and who plays which part in a rooted call.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "calls.h"

void *alloc(size_t bytes)
{
	void *p = calloc(bytes ? bytes : 1, 1);

	if (!p) {
		fprintf(stderr, "calls: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	return p;
}

int *ints(size_t count)
{
	return alloc(count * sizeof(int));
}

/* Element e of what rank s contributes (to a given peer j, when the
 * data differs per peer). */
int value(int s, int e)
{
	return s * 1000 + e + 1;
}

int pair_value(int s, int j, int e)
{
	return s * 100000 + j * 1000 + e + 1;
}

void fill(int *buf, int count, int s)
{
	int e;

	for (e = 0; e < count; e++)
		buf[e] = value(s, e);
}

void expect_true(struct ctx *x, bool ok, const char *what)
{
	int world;

	if (ok)
		return;
	MPI_Comm_rank(MPI_COMM_WORLD, &world);
	fprintf(stderr, "calls: world rank %d: case %s: %s is wrong\n", world,
		x->name, what);
	x->failures++;
}

bool filled_with(const int *buf, int count, int s)
{
	int e;

	for (e = 0; e < count; e++)
		if (buf[e] != value(s, e))
			return false;
	return true;
}

/* Sum over ranks s in [from, to) of value(s, e). */
int value_sum(int from, int to, int e)
{
	int s, sum = 0;

	for (s = from; s < to; s++)
		sum += value(s, e);
	return sum;
}

void complete(MPI_Request *request)
{
	MPI_Wait(request, MPI_STATUS_IGNORE);
}

/* The root argument this process passes, and whether it is the root. */
int root_arg(const struct ctx *x)
{
	if (!x->inter)
		return 1 % x->n;
	if (!x->in_group_a)
		return 0;
	return x->me == 0 ? MPI_ROOT : MPI_PROC_NULL;
}

bool is_root(const struct ctx *x)
{
	return x->inter ? x->in_group_a && x->me == 0 : x->me == 1 % x->n;
}

/* Receives data on an intercommunicator rooted call's non-root side. */
bool is_leaf(const struct ctx *x)
{
	return x->inter ? !x->in_group_a : !is_root(x);
}

/* Number of peers: ranks named by the calls. */
int peers(const struct ctx *x)
{
	int m;

	if (!x->inter)
		return x->n;
	MPI_Comm_remote_size(x->comm, &m);
	return m;
}

/* Contributions to a reduction come from ranks [0, count) of the group
 * that sends: the local group, or the remote one on an intercomm. */
int contributors(const struct ctx *x)
{
	return x->inter ? peers(x) : x->n;
}

/* Is element e of buf, for every e < count, the sum over ranks s in
 * [from, to) of value(s, offset + e)? */
bool is_reduced(const int *buf, int count, int from, int to, int offset)
{
	int e;

	for (e = 0; e < count; e++)
		if (buf[e] != value_sum(from, to, offset + e))
			return false;
	return true;
}

/* Counts of rank k's block in the v-variants: (k + 1) C. */
int *growing_counts(const struct ctx *x, int ranks, int **displs,
		    int *total)
{
	int *counts = ints((size_t)ranks), k;

	*displs = ints((size_t)ranks);
	*total = 0;
	for (k = 0; k < ranks; k++) {
		counts[k] = (k + 1) * x->c;
		(*displs)[k] = *total;
		*total += counts[k];
	}
	return counts;
}
