#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# ring.sh - the profiler on contrib/examples/ring: every rank sends
# 100000 bytes to the next one, 7 times, with MPI_Sendrecv.
# The matrix must be exactly the pattern's, computed by expect; the
# program must print the same with and without the profiler.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/profiler/lib.sh"
profiler_setup

check_example ring 4 "100000 7" "ring 4 100000 7"
finish
