/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * io.c - MPI_File_set_view: the order in which ranks access a file, for
 * the I/O matrix (doc/profiler.md, "The I/O matrix"; SetMatch: Venkatesan et al., EuroMPI 2013).
 *
 * A file view is set collectively by the ranks of the file's group; each
 * gives its displacement and its filetype.  The filetype is flattened
 * here into the byte regions that one instance of it covers (the view
 * repeats that pattern), and the regions' file offsets (displacement +
 * region) are kept with the view's identity.  Nothing is exchanged then:
 * at MPI_Finalize the views travel to world rank 0 (io_report.c), which
 * puts every rank's regions of one view in file order and counts the
 * adjacencies (io_order.c).
 *
 * A view's identity is its group, as the world ranks it lists (hashed),
 * and how many views this rank set before on files of that group: MPI
 * requires collective calls on a group to be made in the same order by
 * all its members, so the n-th view of a group is the same call on every
 * member.
 *
 * Datatypes are decoded with MPI_Type_get_envelope / _get_contents: every
 * constructor of MPI 3 but darray (a view made of one is not recorded, and
 * the rank says so once).  A view of more than COMMPROF_IO_MAX_REGIONS
 * regions (over all the views of the rank) is not recorded either: the
 * profiler never holds more than 16 bytes per region.
 */
#include <config.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commprof.h"

enum { COMMPROF_IO_MAX_REGIONS = 1 << 22 };

struct regions {
	size_t count, capacity;
	int64_t *offset, *length;
	bool failed;        /* out of memory, too many, or not decodable */
	const char *why;
};

static struct commprof_io_view *views;
static size_t nviews, views_capacity;
static size_t regions_held;   /* over all views of this rank */
static bool said_why;         /* one message per rank at most */
/* Views are rare: one lock keeps the list whole under
 * MPI_THREAD_MULTIPLE. */
static pthread_mutex_t views_lock = PTHREAD_MUTEX_INITIALIZER;

/* Ordinal of the next view per group: a short list, few groups use I/O. */
static struct group_count {
	uint64_t group;
	uint64_t count;
} *group_counts;
static size_t ngroups;

static void fail(struct regions *r, const char *why)
{
	if (!r->failed)
		r->why = why;
	r->failed = true;
}

static void append(struct regions *r, int64_t offset, int64_t length)
{
	if (r->failed || length <= 0)
		return;
	/* regions that follow each other in the typemap and in the file are
	 * one region: a contiguous type is one region, not one per byte */
	if (r->count > 0 &&
	    r->offset[r->count - 1] + r->length[r->count - 1] == offset) {
		r->length[r->count - 1] += length;
		return;
	}
	if (regions_held + r->count >= COMMPROF_IO_MAX_REGIONS) {
		fail(r, "more than 4194304 regions of file views");
		return;
	}
	if (r->count == r->capacity) {
		size_t capacity = r->capacity ? 2 * r->capacity : 16;
		int64_t *o = realloc(r->offset, capacity * sizeof *o);
		if (o)
			r->offset = o;
		int64_t *l = o ? realloc(r->length, capacity * sizeof *l) : NULL;
		if (!l) {
			fail(r, "out of memory");
			return;
		}
		r->length = l;
		r->capacity = capacity;
	}
	r->offset[r->count] = offset;
	r->length[r->count] = length;
	r->count++;
}

static void regions_free(struct regions *r)
{
	free(r->offset);
	free(r->length);
	memset(r, 0, sizeof *r);
}

/* `count` instances of a type whose regions are `t` and extent `extent`,
 * the first at `base`.  A type that is one region as long as its extent
 * (a basic type, a contiguous one) gives one region for all of them. */
static void repeat(struct regions *out, int64_t base, const struct regions *t,
		   int64_t extent, int64_t count)
{
	if (t->failed) {
		fail(out, t->why);
		return;
	}
	if (t->count == 1 && t->offset[0] == 0 && t->length[0] == extent) {
		append(out, base, extent * count);
		return;
	}
	for (int64_t k = 0; k < count && !out->failed; k++)
		for (size_t x = 0; x < t->count; x++)
			append(out, base + k * extent + t->offset[x], t->length[x]);
}

static bool is_named(MPI_Datatype type)
{
	int ni, na, nd, combiner;

	PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
	return combiner == MPI_COMBINER_NAMED;
}

static int64_t extent_of(MPI_Datatype type)
{
	MPI_Aint lb, extent;

	PMPI_Type_get_extent(type, &lb, &extent);
	return (int64_t)extent;
}

static void flatten(MPI_Datatype type, struct regions *out);

/* The regions of `type` as a template for repeat(). */
static void flatten_child(MPI_Datatype type, struct regions *t)
{
	memset(t, 0, sizeof *t);
	flatten(type, t);
}

/* A subarray: the rows of the subsizes box (runs along the dimension that
 * varies fastest in memory), in memory order. */
static void flatten_subarray(const int *ints, MPI_Datatype old,
			     struct regions *out)
{
	int ndims = ints[0];
	const int *sizes = ints + 1, *subsizes = ints + 1 + ndims;
	const int *starts = ints + 1 + 2 * ndims;
	bool fortran = ints[1 + 3 * ndims] == MPI_ORDER_FORTRAN;
	int64_t extent = extent_of(old), stride[32];
	int order[32], index[32];
	struct regions t;

	if (ndims < 1 || ndims > 32) {
		fail(out, "a subarray of more than 32 dimensions");
		return;
	}
	/* order[0] varies slowest in memory, order[ndims - 1] fastest: C's
	 * last dimension, Fortran's first */
	for (int k = 0; k < ndims; k++) {
		order[k] = fortran ? ndims - 1 - k : k;
		index[k] = 0;
		if (subsizes[k] == 0)
			return;
	}
	stride[order[ndims - 1]] = 1;
	for (int k = ndims - 2; k >= 0; k--)
		stride[order[k]] = stride[order[k + 1]] * sizes[order[k + 1]];
	int fast = order[ndims - 1];
	flatten_child(old, &t);
	for (;;) {
		int64_t element = 0;
		for (int d = 0; d < ndims; d++)
			element += (int64_t)(starts[d] + index[d]) * stride[d];
		repeat(out, element * extent, &t, extent, subsizes[fast]);
		/* the next row: an odometer over the other dimensions */
		int k = ndims - 2;
		while (k >= 0 && ++index[order[k]] == subsizes[order[k]]) {
			index[order[k]] = 0;
			k--;
		}
		if (k < 0 || out->failed)
			break;
	}
	regions_free(&t);
}

static void flatten(MPI_Datatype type, struct regions *out)
{
	int ni, na, nd, combiner;
	MPI_Count size;

	PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
	if (combiner == MPI_COMBINER_NAMED || combiner == MPI_COMBINER_F90_REAL ||
	    combiner == MPI_COMBINER_F90_COMPLEX ||
	    combiner == MPI_COMBINER_F90_INTEGER) {
		if (PMPI_Type_size_x(type, &size) == MPI_SUCCESS)
			append(out, 0, (int64_t)size);
		return;
	}
	int *ints = malloc(((size_t)ni + 1) * sizeof *ints);
	MPI_Aint *addrs = malloc(((size_t)na + 1) * sizeof *addrs);
	MPI_Datatype *types = malloc(((size_t)nd + 1) * sizeof *types);
	struct regions t;

	if (!ints || !addrs || !types) {
		fail(out, "out of memory");
		goto out;
	}
	PMPI_Type_get_contents(type, ni, na, nd, ints, addrs, types);
	switch (combiner) {
	case MPI_COMBINER_DUP:
	case MPI_COMBINER_RESIZED: /* moves the bounds, not the data */
		flatten(types[0], out);
		break;
	case MPI_COMBINER_CONTIGUOUS:
		flatten_child(types[0], &t);
		repeat(out, 0, &t, extent_of(types[0]), ints[0]);
		regions_free(&t);
		break;
	case MPI_COMBINER_VECTOR:
	case MPI_COMBINER_HVECTOR: {
		int64_t extent = extent_of(types[0]);
		int64_t stride = combiner == MPI_COMBINER_VECTOR ?
				 (int64_t)ints[2] * extent : (int64_t)addrs[0];
		flatten_child(types[0], &t);
		for (int k = 0; k < ints[0] && !out->failed; k++)
			repeat(out, k * stride, &t, extent, ints[1]);
		regions_free(&t);
		break;
	}
	case MPI_COMBINER_INDEXED:
	case MPI_COMBINER_HINDEXED:
	case MPI_COMBINER_INDEXED_BLOCK:
	case MPI_COMBINER_HINDEXED_BLOCK: {
		int count = ints[0];
		int64_t extent = extent_of(types[0]);
		bool block = combiner == MPI_COMBINER_INDEXED_BLOCK ||
			     combiner == MPI_COMBINER_HINDEXED_BLOCK;
		bool bytes = combiner == MPI_COMBINER_HINDEXED ||
			     combiner == MPI_COMBINER_HINDEXED_BLOCK;
		flatten_child(types[0], &t);
		for (int k = 0; k < count && !out->failed; k++) {
			int length = block ? ints[1] : ints[1 + k];
			int64_t at = bytes ? (int64_t)addrs[k] :
				     (int64_t)ints[(block ? 2 : 1 + count) + k] * extent;
			repeat(out, at, &t, extent, length);
		}
		regions_free(&t);
		break;
	}
	case MPI_COMBINER_STRUCT:
		for (int k = 0; k < ints[0] && !out->failed; k++) {
			flatten_child(types[k], &t);
			repeat(out, (int64_t)addrs[k], &t, extent_of(types[k]),
			       ints[1 + k]);
			regions_free(&t);
		}
		break;
	case MPI_COMBINER_SUBARRAY:
		flatten_subarray(ints, types[0], out);
		break;
	default: /* darray and whatever comes next */
		fail(out, "a filetype this profiler cannot decode (darray?)");
		break;
	}
	for (int k = 0; k < nd; k++)
		if (!is_named(types[k]))
			PMPI_Type_free(&types[k]);
out:
	free(ints);
	free(addrs);
	free(types);
}

/* FNV-1a of the world ranks of the file's group, in group order. */
static bool group_identity(MPI_File fh, uint64_t *id)
{
	MPI_Group group, world;
	int size;
	uint64_t hash = UINT64_C(0xcbf29ce484222325);

	if (PMPI_File_get_group(fh, &group) != MPI_SUCCESS)
		return false;
	PMPI_Comm_group(MPI_COMM_WORLD, &world);
	PMPI_Group_size(group, &size);
	int *ranks = malloc(2 * ((size_t)size + 1) * sizeof *ranks);
	bool known = ranks != NULL;
	if (ranks) {
		for (int k = 0; k < size; k++)
			ranks[k] = k;
		PMPI_Group_translate_ranks(group, size, ranks, world, ranks + size);
		for (int k = 0; k <= size; k++) {
			uint64_t v = k < size ? (uint64_t)(uint32_t)ranks[size + k] :
				     (uint64_t)size;
			for (int b = 0; b < 4; b++) {
				hash ^= (v >> (8 * b)) & 0xff;
				hash *= UINT64_C(0x100000001b3);
			}
		}
	}
	free(ranks);
	PMPI_Group_free(&group);
	PMPI_Group_free(&world);
	*id = hash;
	return known;
}

static bool next_ordinal(uint64_t group, uint64_t *ordinal)
{
	for (size_t k = 0; k < ngroups; k++)
		if (group_counts[k].group == group) {
			*ordinal = group_counts[k].count++;
			return true;
		}
	struct group_count *grown = realloc(group_counts,
					    (ngroups + 1) * sizeof *grown);
	if (!grown)
		return false;
	group_counts = grown;
	group_counts[ngroups++] = (struct group_count){ group, 1 };
	*ordinal = 0;
	return true;
}

static void say_once(const char *why)
{
	if (said_why)
		return;
	said_why = true;
	fprintf(stderr, "commprof: rank %d: a file view not recorded in the "
		"I/O matrix: %s\n", commprof.world_rank, why);
}

static void record(MPI_File fh, MPI_Offset disp, MPI_Datatype filetype)
{
	struct regions r = { 0 };
	uint64_t group, ordinal;

	/* the identity first: every view counts for the ordinals, recorded
	 * or not, so that the next ones still match across ranks */
	if (!group_identity(fh, &group) || !next_ordinal(group, &ordinal)) {
		say_once("out of memory");
		return;
	}
	flatten(filetype, &r);
	if (r.failed) {
		say_once(r.why);
		regions_free(&r);
		return;
	}
	if (nviews == views_capacity) {
		size_t capacity = views_capacity ? 2 * views_capacity : 4;
		struct commprof_io_view *grown = realloc(views,
							 capacity * sizeof *grown);
		if (!grown) {
			say_once("out of memory");
			regions_free(&r);
			return;
		}
		views = grown;
		views_capacity = capacity;
	}
	/* only where each region starts is needed from now on */
	for (size_t k = 0; k < r.count; k++)
		r.offset[k] += (int64_t)disp;
	free(r.length);
	views[nviews++] = (struct commprof_io_view){
		.group = group, .ordinal = ordinal, .count = r.count,
		.offset = (uint64_t *)r.offset };
	regions_held += r.count;
}

int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
		      MPI_Datatype filetype, const char *datarep, MPI_Info info)
{
	int rc = PMPI_File_set_view(fh, disp, etype, filetype, datarep, info);

	if (rc == MPI_SUCCESS && commprof.active) {
		pthread_mutex_lock(&views_lock);
		record(fh, disp, filetype);
		pthread_mutex_unlock(&views_lock);
	}
	return rc;
}

const struct commprof_io_view *commprof_io_views(size_t *count)
{
	*count = nviews;
	return views;
}

void commprof_io_clear(void)
{
	for (size_t k = 0; k < nviews; k++)
		free(views[k].offset);
	free(views);
	free(group_counts);
	views = NULL;
	group_counts = NULL;
	nviews = views_capacity = ngroups = regions_held = 0;
	said_why = false;
}
