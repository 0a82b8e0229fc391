#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# halo2d.sh - the profiler on contrib/examples/halo2d: halo exchange on a
# 2 x 3 grid of ranks (Isend / Irecv / Waitall on a Cartesian communicator,
# MPI_PROC_NULL at the borders) plus one allreduce per iteration.
# The matrix must be exactly the pattern's, computed by expect; the
# program must print the same with and without the profiler.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/profiler/lib.sh"
profiler_setup

check_example halo2d 6 "2 3 50 4" "halo2d 2 3 50 4"
finish
