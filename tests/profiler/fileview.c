/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fileview - sets MPI-IO file views whose access order is known, writes
 * through them, for the profiler's I/O matrix (tests/profiler/fileview.sh).
 *
 *   fileview MODE     (run on the number of ranks the mode needs)
 *
 * Modes, each with the I/O matrix it must give:
 *   paper    6 ranks: rank r owns the ints k of the file where the paper's
 *            sequence 0 4 1 0 4 1 5 2 3 4 1 3 2 5 4 2 5 4 0 4 1 has r
 *            (MPI_Type_create_indexed_block): the paper's 6x6 matrix
 *   tiles    4 ranks: 2 x 2 tiles of a 4 x 4 array of ints
 *            (MPI_Type_create_subarray): rows go 0 1 0 1 2 3 2 3
 *   vector   4 ranks: displacement r ints, every 4th int three times
 *            (vector, resized): 0 1 2 3 0 1 2 3 0 1 2 3
 *   twice    the vector view set twice on one file: every count doubles
 *   split    4 ranks: two files, one per half of a split of
 *            MPI_COMM_WORLD (even ranks, odd ranks) numbered backwards
 *   struct   4 ranks: two blocks each, through a struct of hindexed
 *            types: 0 1 2 3 3 2 1 0
 *   none     4 ranks, no file view: no I/O matrix
 * Exit status 0 when every MPI call succeeded.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

static void check(int rc, const char *what)
{
	if (rc != MPI_SUCCESS) {
		char text[MPI_MAX_ERROR_STRING];
		int len;

		MPI_Error_string(rc, text, &len);
		fprintf(stderr, "fileview: rank %d: %s: %s\n", rank, what, text);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
}

/* Open name on comm, set the view, write count ints, close. */
static void write_view(MPI_Comm comm, const char *name, MPI_Offset disp,
		       MPI_Datatype filetype, int count, int views)
{
	MPI_File fh;
	int data[64];

	for (int k = 0; k < count; k++)
		data[k] = rank * 100 + k;
	check(MPI_File_open(comm, name, MPI_MODE_CREATE | MPI_MODE_WRONLY,
			    MPI_INFO_NULL, &fh), "MPI_File_open");
	for (int v = 0; v < views; v++)
		check(MPI_File_set_view(fh, disp, MPI_INT, filetype, "native",
					MPI_INFO_NULL), "MPI_File_set_view");
	check(MPI_File_write_all(fh, data, count, MPI_INT, MPI_STATUS_IGNORE),
	      "MPI_File_write_all");
	check(MPI_File_close(&fh), "MPI_File_close");
}

static void paper(void)
{
	static const int sequence[21] = {
		0, 4, 1, 0, 4, 1, 5, 2, 3, 4, 1, 3, 2, 5, 4, 2, 5, 4, 0, 4, 1
	};
	int displacements[21], count = 0;
	MPI_Datatype type;

	for (int k = 0; k < 21; k++)
		if (sequence[k] == rank)
			displacements[count++] = k;
	check(MPI_Type_create_indexed_block(count, 1, displacements, MPI_INT,
					    &type), "indexed_block");
	MPI_Type_commit(&type);
	write_view(MPI_COMM_WORLD, "paper.dat", 0, type, count, 1);
	MPI_Type_free(&type);
}

static void tiles(void)
{
	int sizes[2] = { 4, 4 }, subsizes[2] = { 2, 2 };
	int starts[2] = { 2 * (rank / 2), 2 * (rank % 2) };
	MPI_Datatype type;

	check(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C,
				       MPI_INT, &type), "subarray");
	MPI_Type_commit(&type);
	write_view(MPI_COMM_WORLD, "tiles.dat", 0, type, 4, 1);
	MPI_Type_free(&type);
}

static void vector(int views)
{
	MPI_Datatype strided, type;

	check(MPI_Type_vector(3, 1, 4, MPI_INT, &strided), "vector");
	check(MPI_Type_create_resized(strided, 0, 12 * sizeof(int), &type),
	      "resized");
	MPI_Type_commit(&type);
	write_view(MPI_COMM_WORLD, views > 1 ? "twice.dat" : "vector.dat",
		   (MPI_Offset)(rank * sizeof(int)), type, 3, views);
	MPI_Type_free(&type);
	MPI_Type_free(&strided);
}

static void split(void)
{
	MPI_Comm half;
	int half_rank;

	/* even and odd world ranks, each half numbered from its top */
	check(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half), "split");
	MPI_Comm_rank(half, &half_rank);
	write_view(half, rank % 2 ? "odd.dat" : "even.dat",
		   (MPI_Offset)(half_rank * sizeof(int)), MPI_INT, 1, 1);
	MPI_Comm_free(&half);
}

static void structured(void)
{
	/* two ints at int 2r and two at int 8 + 2 (3 - r) */
	MPI_Aint first = (MPI_Aint)(2 * rank * sizeof(int));
	MPI_Aint second = (MPI_Aint)((8 + 2 * (3 - rank)) * sizeof(int));
	MPI_Datatype one, two, type, parts[2];
	int lengths[2] = { 1, 1 };
	MPI_Aint where[2] = { 0, second };

	check(MPI_Type_create_hindexed(1, (int[1]){ 2 }, (MPI_Aint[1]){ first },
				       MPI_INT, &one), "hindexed");
	check(MPI_Type_contiguous(2, MPI_INT, &two), "contiguous");
	parts[0] = one;
	parts[1] = two;
	check(MPI_Type_create_struct(2, lengths, where, parts, &type), "struct");
	MPI_Type_commit(&type);
	write_view(MPI_COMM_WORLD, "struct.dat", 0, type, 4, 1);
	MPI_Type_free(&type);
	MPI_Type_free(&one);
	MPI_Type_free(&two);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int need = strcmp(mode, "paper") == 0 ? 6 : 4;
	if (size != need) {
		if (rank == 0)
			fprintf(stderr, "fileview %s: needs %d ranks, got %d\n",
				mode, need, size);
		MPI_Finalize();
		return 2;
	}
	if (strcmp(mode, "paper") == 0)
		paper();
	else if (strcmp(mode, "tiles") == 0)
		tiles();
	else if (strcmp(mode, "vector") == 0)
		vector(1);
	else if (strcmp(mode, "twice") == 0)
		vector(2);
	else if (strcmp(mode, "split") == 0)
		split();
	else if (strcmp(mode, "struct") == 0)
		structured();
	else if (strcmp(mode, "none") != 0) {
		if (rank == 0)
			fprintf(stderr, "fileview: unknown mode '%s'\n", mode);
		MPI_Finalize();
		return 2;
	}
	MPI_Finalize();
	return 0;
}
