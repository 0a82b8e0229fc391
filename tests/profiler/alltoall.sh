#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# alltoall.sh - the profiler on contrib/examples/alltoall: MPI_Alltoallv
# with a different size for every pair of ranks.
# The matrix must be exactly the pattern's, computed by expect; the
# program must print the same with and without the profiler.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/profiler/lib.sh"
profiler_setup

check_example alltoall 4 "3 2" "alltoall 4 3 2"
finish
