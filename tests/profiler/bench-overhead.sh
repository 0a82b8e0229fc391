#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-overhead.sh - what the profiler costs per message: a ping-pong of
# small messages between two ranks (contrib/examples/pingpong), run with
# and without libcommprof, alternately, in the same invocation, so that
# both see the same machine state.  A benchmark, not a test: run it by
# hand from the build directory after `make check`:
#
#   sh tests/profiler/bench-overhead.sh [BYTES [ROUNDTRIPS [REPEATS]]]
#
# defaults: 8 bytes, 100000 round trips, 10 repeats.  Prints every run,
# then for each side the median of the runs' mean time per message and
# the fastest tenth of any run, with their differences and ratios.  On a
# shared machine other processes steal the cores the two ranks spin on,
# which only ever adds time: the fastest tenths are then the better
# estimate of the profiler's own cost, the medians show the spread.
: "${top_builddir:=$(pwd)}"
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
export top_builddir top_srcdir
. "$top_srcdir/tests/profiler/lib.sh"
profiler_setup

bytes=${1:-8} roundtrips=${2:-100000} repeats=${3:-10}
pingpong=$examples/pingpong
built "$pingpong"

# "MEAN FASTEST" ns per message printed by one run.
one_run() {
	launch 2 "$@" "$pingpong" "$bytes" "$roundtrips" 2>run.err | sed -n \
	's/.*, \([0-9.]*\) ns per message, fastest tenth \([0-9.]*\) ns.*/\1 \2/p'
}

# The smallest of a column of numbers (median: lib.sh).
smallest() {
	sort -n | head -n 1
}

# compare WHAT WITHOUT WITH: one line with the difference and the ratio.
compare() {
	awk -v what="$1" -v a="$2" -v b="$3" 'BEGIN {
		printf "%s: without %.1f ns, with %.1f ns per message: " \
		       "%+.1f ns, ratio %.3f\n", what, a, b, b - a, b / a }'
}

echo "pingpong: $bytes bytes, $roundtrips round trips, $repeats runs each"
echo "(per run: the mean time per message, and in brackets the fastest"
echo " tenth of the run, which other processes disturb the least)"
run=1
while [ $run -le "$repeats" ]; do
	plain=$(one_run env)
	profiled=$(one_run env LD_PRELOAD="$profiler_lib" \
		COMMPROF_OUTPUT="$work/bench.json")
	if [ -z "$plain" ] || [ -z "$profiled" ]; then
		echo "a run failed:" >&2
		cat run.err >&2
		exit 1
	fi
	echo "$plain" >>plain.times
	echo "$profiled" >>profiled.times
	# shellcheck disable=SC2086 # "MEAN FASTEST" pairs, split on purpose
	set -- $plain $profiled
	echo "run $run: without $1 ns ($2), with $3 ns ($4)"
	run=$((run + 1))
done
compare "median of the means   " "$(cut -d' ' -f1 plain.times | median)" \
	"$(cut -d' ' -f1 profiled.times | median)"
compare "fastest tenth, overall" "$(cut -d' ' -f2 plain.times | smallest)" \
	"$(cut -d' ' -f2 profiled.times | smallest)"
