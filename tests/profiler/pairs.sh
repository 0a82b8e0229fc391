#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# pairs.sh - the profiler on contrib/examples/pairs: partners exchanging
# through persistent requests, all others through MPI_Issend, on a
# communicator split with reversed keys (ranks must be translated).
# The matrix must be exactly the pattern's, computed by expect; the
# program must print the same with and without the profiler.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/profiler/lib.sh"
profiler_setup

check_example pairs 4 "200000 300 5" "pairs 4 200000 300 5"
finish
