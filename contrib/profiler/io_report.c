/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * io_report.c - at MPI_Finalize, the file views every rank set (io.c)
 * travel to world rank 0, which writes the I/O matrix: for each view set
 * collectively, the regions of all its ranks in file order, and one
 * adjacency for each two ranks side by side in that order (io_order.c).
 * Written only when some rank set a file view; the byte matrix is written
 * before, as it always is (report.c).
 *
 * Each rank sends its views as one array of 64-bit words: for each view
 * its group, its ordinal, its region count, then the regions' offsets.
 * Rank 0 takes them one rank at a time, keeps (view, offset, rank) for
 * every region, sorts them by view then offset, and counts.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commprof.h"
#include "io_order.h"

enum { TAG_IO = 3 };

struct region {
	uint64_t group, ordinal, offset;
	int rank;
};

static int by_view_then_offset(const void *a, const void *b)
{
	const struct region *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->ordinal != y->ordinal)
		return x->ordinal < y->ordinal ? -1 : 1;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* This rank's views as words; *words receives their number.  NULL when
 * out of memory (or when there is nothing: then *words is 0). */
static uint64_t *pack_views(size_t *words)
{
	size_t n, total = 0;
	const struct commprof_io_view *v = commprof_io_views(&n);

	for (size_t k = 0; k < n; k++)
		total += 3 + v[k].count;
	*words = total;
	uint64_t *buf = malloc((total + 1) * sizeof *buf);
	if (!buf)
		return NULL;
	size_t at = 0;
	for (size_t k = 0; k < n; k++) {
		buf[at++] = v[k].group;
		buf[at++] = v[k].ordinal;
		buf[at++] = v[k].count;
		memcpy(buf + at, v[k].offset, v[k].count * sizeof *buf);
		at += v[k].count;
	}
	return buf;
}

struct collected {
	struct region *region;
	size_t count, capacity;
};

/* Append a rank's packed views; -1 when out of memory or malformed. */
static int unpack(struct collected *c, const uint64_t *buf, size_t words,
		  int rank)
{
	size_t at = 0;

	while (at + 3 <= words) {
		uint64_t group = buf[at], ordinal = buf[at + 1];
		size_t count = (size_t)buf[at + 2];

		at += 3;
		if (count > words - at)
			return -1;
		if (c->count + count > c->capacity) {
			size_t capacity = c->capacity ? c->capacity : 1024;
			while (capacity < c->count + count)
				capacity *= 2;
			struct region *grown = realloc(c->region,
						       capacity * sizeof *grown);
			if (!grown)
				return -1;
			c->region = grown;
			c->capacity = capacity;
		}
		for (size_t k = 0; k < count; k++)
			c->region[c->count++] = (struct region){
				group, ordinal, buf[at + k], rank };
		at += count;
	}
	return at == words ? 0 : -1;
}

/* Rank 0: every rank's views, then the adjacencies of each view. */
static int collect_and_count(const uint64_t *own, size_t own_words,
			     struct commprof_io_pairs *pairs)
{
	struct collected c = { 0 };
	int failed = 0;

	for (int sender = 0; sender < commprof.world_size; sender++) {
		if (sender == 0) {
			failed |= unpack(&c, own, own_words, 0) < 0;
			continue;
		}
		MPI_Status status;
		int words;
		PMPI_Probe(sender, TAG_IO, commprof.private_comm, &status);
		PMPI_Get_count(&status, MPI_UINT64_T, &words);
		uint64_t *buf = malloc(((size_t)words + 1) * sizeof *buf);
		/* received even when it cannot be kept, since the sender
		 * waits: into nothing, a truncation that returns (see
		 * commprof_io_report) */
		PMPI_Recv(buf ? buf : (uint64_t[1]){ 0 }, buf ? words : 0,
			  MPI_UINT64_T, sender, TAG_IO, commprof.private_comm,
			  MPI_STATUS_IGNORE);
		failed |= !buf || unpack(&c, buf, (size_t)words, sender) < 0;
		free(buf);
	}
	if (!failed) {
		qsort(c.region, c.count, sizeof *c.region, by_view_then_offset);
		struct commprof_io_block *blocks =
			malloc((c.count + 1) * sizeof *blocks);
		int *sequence = malloc((c.count + 1) * sizeof *sequence);
		failed = !blocks || !sequence;
		for (size_t first = 0, end; !failed && first < c.count;
		     first = end) {
			for (end = first; end < c.count &&
			     c.region[end].group == c.region[first].group &&
			     c.region[end].ordinal == c.region[first].ordinal;
			     end++)
				blocks[end - first] = (struct commprof_io_block){
					c.region[end].offset, c.region[end].rank };
			size_t len = commprof_io_sequence(blocks, end - first,
							  sequence);
			failed = commprof_io_pairs_add(pairs, sequence, len) < 0;
		}
		free(blocks);
		free(sequence);
	}
	free(c.region);
	commprof_io_pairs_compact(pairs);
	return failed ? -1 : 0;
}

void commprof_io_report(void)
{
	bool root = commprof.world_rank == 0;
	size_t nviews, words = 0;
	unsigned long long local, total = 0;
	struct commprof_io_pairs pairs;
	struct commprof_writer writer;
	char *path = NULL;
	int error = 0;

	/* the profiler's own communicator: a failure returns, never aborts
	 * the job */
	PMPI_Comm_set_errhandler(commprof.private_comm, MPI_ERRORS_RETURN);
	commprof_io_views(&nviews);
	local = nviews;
	PMPI_Allreduce(&local, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM,
		       commprof.private_comm);
	if (total == 0) /* no file view: no I/O matrix */
		return;
	uint64_t *own = pack_views(&words);
	if (root)
		path = commprof_io_output_path(commprof.world_size);
	/* as for the byte matrix: agree before anything moves */
	if (!commprof_writer_agree(&writer, root, path, "adjacencies",
				   own != NULL, &error)) {
		/* nothing moves; rank 0 says why below */
	} else if (root) {
		commprof_io_pairs_init(&pairs, commprof.world_size);
		if (collect_and_count(own, words, &pairs) < 0) {
			commprof_writer_abort(&writer);
			error = ENOMEM;
		} else {
			/* each pair once, i < j: a reader adding w_ij and
			 * w_ji gets the count itself */
			commprof_writer_list(&writer, "entries");
			for (size_t k = 0; k < pairs.count; k++) {
				uint64_t key = pairs.pair[k].key;
				commprof_writer_item(&writer,
					(int)(key / (uint64_t)commprof.world_size),
					(int)(key % (uint64_t)commprof.world_size),
					pairs.pair[k].count);
			}
			error = commprof_writer_close(&writer);
		}
		commprof_io_pairs_free(&pairs);
	} else {
		PMPI_Send(own, (int)words, MPI_UINT64_T, 0, TAG_IO,
			  commprof.private_comm);
	}
	if (root && error)
		fprintf(stderr, "commprof: cannot write %s: %s\n",
			path ? path : "the I/O matrix", strerror(error));
	free(path);
	free(own);
}
