/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel.h - what the benchmark's MPI kernels share: their arguments, the
 * computation they declare to the simulator, and their one-line report.
 *
 * Every kernel runs under any MPI (mpicc, mpirun) and under SimGrid's SMPI
 * (smpicc -DBENCH_SMPI, smpirun).  It really computes and really moves its
 * data in both, and rank 0 prints one line with a checksum that is the
 * same under both: sums are taken in a fixed order or in integers, never
 * by an MPI reduction on doubles whose order an MPI library chooses.
 *
 * Time: the simulator is run with smpi/simulate-computation off, so the
 * host's real speed never enters the simulated time; instead each kernel
 * declares the flops of each compute phase (kernel_compute), which the
 * simulated core runs at its configured speed.  Simulated run times are
 * then exact functions of the platform and the placement.
 */
#ifndef KERNEL_H
#define KERNEL_H

#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static inline void kernel_compute(double flops)
{
#ifdef BENCH_SMPI
	smpi_execute_flops(flops);
#else
	(void)flops; /* a real run takes the time it takes */
#endif
}

/* Argument `index` as a positive int, `fallback` when absent; -1 (after
 * one line from rank 0 naming the argument) when it is not one. */
static inline int kernel_arg(int argc, char **argv, int index, int fallback,
			     const char *name, int rank)
{
	char *end;
	long v;

	if (index >= argc)
		return fallback;
	v = strtol(argv[index], &end, 10);
	if (end == argv[index] || *end || v < 1 || v > INT_MAX / 64) {
		if (rank == 0)
			fprintf(stderr, "%s: argument %d (%s): expected a "
				"positive integer, got '%s'\n", argv[0], index,
				name, argv[index]);
		return -1;
	}
	return (int)v;
}

/* Leave with status 2 after a usage error (all ranks call it). */
static inline int kernel_usage(int rank, const char *text)
{
	if (rank == 0 && text)
		fprintf(stderr, "%s\n", text);
	MPI_Finalize();
	return 2;
}

/* A double as a fixed-point integer, for sums that every MPI gets equal. */
static inline int64_t kernel_fixed(double v)
{
	return (int64_t)(v * 1048576.0 + (v < 0 ? -0.5 : 0.5));
}

/* Rank 0's report: the kernel's wall (or simulated) time, the largest of
 * all ranks', and the checksum of the whole job. */
static inline void kernel_report(const char *name, int size, double t0,
				 int64_t local_sum, MPI_Comm comm)
{
	double t = MPI_Wtime() - t0, tmax;
	long long sum = (long long)local_sum, total;
	int rank;

	MPI_Comm_rank(comm, &rank);
	MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
	MPI_Reduce(&sum, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, comm);
	if (rank == 0)
		printf("%s: %d ranks, time %.6f s, checksum %lld\n", name,
		       size, tmax, total);
}

#endif /* KERNEL_H */
