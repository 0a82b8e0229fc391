#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# threads.sh - the profiler under MPI_THREAD_MULTIPLE: 4 threads of every
# rank send at once, through persistent requests and MPI_Sendrecv; every
# message must be counted (a lost counter update would show as a pair
# with too few messages).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/profiler/lib.sh"
profiler_setup

threads=$top_builddir/tests/profiler/threads
built "$threads"
np=4 nthreads=4 messages=5000 bytes=8

launch "$np" "$commprof" -o threads.json "$threads" $nthreads $messages \
	$bytes >threads.out 2>&1
status=$?
if [ $status -eq 3 ] || grep -q 'MPI_THREAD_MULTIPLE not provided' threads.out
then
	skip "this MPI does not provide MPI_THREAD_MULTIPLE"
fi
if [ $status -eq 0 ]; then
	ok "$nthreads threads per rank communicate correctly under commprof"
else
	not_ok "$nthreads threads per rank communicate correctly under commprof"
	show threads.out
fi
"$expect" ring "$np" "$bytes" $((nthreads * messages)) >threads.expected
if [ -f threads.json ]; then
	check_matrix "every message of every thread is counted" \
		threads.expected threads.json
else
	not_ok "the profiler wrote threads.json"
fi
finish
