/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_io_order.c - the I/O matrix from a file-access order
 * (contrib/profiler/io_order.c), on the paper's own example (SetMatch,
 * Venkatesan et al., EuroMPI 2013, section 3.1): the sequence
 *   0 4 1 0 4 1 5 2 3 4 1 3 2 5 4 2 5 4 0 4 1
 * gives exactly the 6x6 matrix printed there.  No MPI needed.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/check.h"
#include "io_order.h"

static const int paper_sequence[21] = {
	0, 4, 1, 0, 4, 1, 5, 2, 3, 4, 1, 3, 2, 5, 4, 2, 5, 4, 0, 4, 1
};

static const int paper_matrix[6][6] = {
	{ 0, 1, 0, 0, 4, 0 },
	{ 1, 0, 0, 1, 4, 1 },
	{ 0, 0, 0, 2, 1, 3 },
	{ 0, 1, 2, 0, 1, 0 },
	{ 4, 4, 1, 1, 0, 2 },
	{ 0, 1, 3, 0, 2, 0 },
};

/* The symmetric dense matrix of compacted pairs. */
static void dense(const struct commprof_io_pairs *p, int n, long *m)
{
	memset(m, 0, sizeof(long) * (size_t)(n * n));
	for (size_t k = 0; k < p->count; k++) {
		int i = (int)(p->pair[k].key / (uint64_t)n);
		int j = (int)(p->pair[k].key % (uint64_t)n);
		m[i * n + j] += (long)p->pair[k].count;
		m[j * n + i] += (long)p->pair[k].count;
	}
}

static int rows_differ(const long *m, char *why, size_t size)
{
	for (int i = 0; i < 6; i++)
		for (int j = 0; j < 6; j++)
			if (m[i * 6 + j] != paper_matrix[i][j]) {
				snprintf(why, size, "row %d column %d: %ld, want %d",
					 i, j, m[i * 6 + j], paper_matrix[i][j]);
				return 1;
			}
	return 0;
}

int main(void)
{
	struct commprof_io_pairs pairs;
	long m[36];
	char why[80] = "";

	/* the sequence as it comes */
	commprof_io_pairs_init(&pairs, 6);
	CHECK(commprof_io_pairs_add(&pairs, paper_sequence, 21) == 0,
	      "the paper's sequence is counted");
	commprof_io_pairs_compact(&pairs);
	dense(&pairs, 6, m);
	CHECK(!rows_differ(m, why, sizeof(why)),
	      "the paper's sequence gives exactly the paper's 6x6 matrix %s", why);
	CHECK(m[0 * 6 + 4] == 4 && m[1 * 6 + 5] == 1,
	      "ranks 0 and 4 are side by side four times, 1 and 5 once (the "
	      "paper's own words)");
	int sorted = 1;
	for (size_t k = 1; k < pairs.count; k++)
		sorted &= pairs.pair[k - 1].key < pairs.pair[k].key;
	CHECK(sorted && pairs.count == 10, "10 pairs once each, in order of i "
	      "then j");
	commprof_io_pairs_free(&pairs);

	/* the same from file regions given in any order: region k of the
	 * file (offset 4k) belongs to the k-th rank of the sequence */
	struct commprof_io_block blocks[21];
	int sequence[21];
	for (int k = 0; k < 21; k++) {
		int from = (k * 8) % 21; /* a permutation: 8 and 21 are coprime */
		blocks[k].offset = 4 * (uint64_t)from;
		blocks[k].rank = paper_sequence[from];
	}
	size_t len = commprof_io_sequence(blocks, 21, sequence);
	CHECK(len == 21 && memcmp(sequence, paper_sequence, sizeof(sequence)) == 0,
	      "regions given out of order are put in file order");

	/* consecutive regions of one rank are one region; equal offsets
	 * go by rank */
	struct commprof_io_block runs[6] = {
		{ 40, 2 }, { 0, 1 }, { 10, 1 }, { 20, 3 }, { 30, 2 }, { 20, 0 },
	};
	len = commprof_io_sequence(runs, 6, sequence);
	CHECK(len == 4 && sequence[0] == 1 && sequence[1] == 0 &&
	      sequence[2] == 3 && sequence[3] == 2,
	      "1 1 | 0 3 (same offset: lower rank first) | 2 2: the sequence "
	      "1 0 3 2");

	/* many adjacencies of few pairs: compaction keeps them small */
	commprof_io_pairs_init(&pairs, 3);
	int *many = malloc(sizeof(int) * 100001);
	for (int k = 0; k <= 100000; k++)
		many[k] = k % 3;
	CHECK(commprof_io_pairs_add(&pairs, many, 100001) == 0,
	      "100,000 adjacencies are counted");
	commprof_io_pairs_compact(&pairs);
	long three[9];
	dense(&pairs, 3, three);
	CHECK(pairs.count == 3 && three[0 * 3 + 1] == 33334 &&
	      three[1 * 3 + 2] == 33333 && three[0 * 3 + 2] == 33333 &&
	      pairs.capacity <= 512,
	      "0 1 2 0 1 2 ...: three pairs, 33334 + 33333 + 33333, in a few "
	      "hundred slots at most");
	free(many);
	commprof_io_pairs_free(&pairs);
	return check_status();
}
