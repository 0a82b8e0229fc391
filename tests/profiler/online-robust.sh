#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# online-robust.sh - the online mode when things are not as planned: a
# rank killed mid-run, more ranks than cores, a local rank that never
# registers (as a task that never calls MPI), no local rank 0 at all, and
# bad values in the environment.  The job's result never changes, and no
# segment is left in /dev/shm; while the segment exists it is the user's,
# mode 0600.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/profiler/lib.sh"
profiler_setup
. "$top_srcdir/tests/profiler/online_lib.sh"
online_setup

fast=interval=0.2,min=0.1,max=0.8

# --- a rank killed with KILL in phase A ---------------------------------
dir=$work/kill
mkdir -p "$dir"
# shellcheck disable=SC2046 # online prints words on purpose
launch 4 env $(online TREEMATCH_ONLINE_PARAMS=$fast) \
	"$phases" "$dir" 3 4096 >"$dir/out" 2>"$dir/err" &
job=$!
if wait_file "$dir/phase" A 60; then
	sleep 1
	kill -9 "$(cat "$dir/pid.2")"
fi
wait "$job"
status=$?
if [ $status -ne 0 ]; then
	ok "kill: the job fails as without the online mode (status $status)"
else
	not_ok "kill: the job fails as without the online mode"
fi
no_segment kill

# --- 6 ranks on this machine's cores ------------------------------------
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
np=6
[ "$cores" -ge 6 ] && np=$((2 * cores + 2))
dir=$work/over
mkdir -p "$dir"
# shellcheck disable=SC2046
launch $np env $(online TREEMATCH_ONLINE_PARAMS=$fast) \
	"$phases" "$dir" 1 4096 >"$dir/out" 2>"$dir/err"
program_ok over "$dir" $np $?
report_ok over "$dir/err"
placed=$(grep -o ' rank [0-9]* on CPU' "$dir/err" | wc -l)
if [ "$placed" -eq $np ]; then
	ok "over: all $np ranks placed on $cores cores"
else
	not_ok "over: $placed of $np ranks placed"
fi
no_segment over

# --- local rank 3 never registers: the segment waits one interval -------
# A wrapper gives local rank 3 a bad local rank: it runs without the
# online mode, as a task that never calls MPI would.
dir=$work/absent
mkdir -p "$dir"
# shellcheck disable=SC2046,SC2016
launch 4 env $(online TREEMATCH_ONLINE_PARAMS=interval=1.5,min=0.1,max=3) \
	sh -c 'r=$OMPI_COMM_WORLD_LOCAL_RANK; [ "$r" = 3 ] && r=none
		TREEMATCH_ONLINE_LOCAL_RANK=$r \
		TREEMATCH_ONLINE_LOCAL_SIZE=$OMPI_COMM_WORLD_LOCAL_SIZE \
		exec "$@"' sh "$phases" "$dir" 1 4096 \
	>"$dir/out" 2>"$dir/err" &
job=$!
if wait_file "$dir/phase" A 60; then
	mode=$(stat -c '%a %u' "$shm" 2>/dev/null)
	if [ "$mode" = "600 $(id -u)" ]; then
		ok "absent: while it exists, the segment is the user's, mode 0600"
	else
		not_ok "absent: the segment is '$mode', expected '600 $(id -u)'"
	fi
else
	not_ok "absent: phase A never started"
fi
wait "$job"
program_ok absent "$dir" 4 $?
report_ok absent "$dir/err"
placed=$(grep -o ' rank [0-9]* on CPU' "$dir/err" | wc -l)
if [ "$placed" -eq 3 ]; then
	ok "absent: the 3 registered ranks are mapped"
else
	not_ok "absent: $placed ranks mapped, expected 3"
	show "$dir/err"
fi
no_segment absent

# --- no local rank 0: every rank gives up after the first interval ------
# Local ranks 1, 2, 3 wait for a local rank 0 that never comes; the last
# task has a bad local rank.
dir=$work/norank0
mkdir -p "$dir"
# shellcheck disable=SC2046,SC2016
launch 4 env $(online TREEMATCH_ONLINE_PARAMS=interval=0.3,min=0.1,max=1) \
	sh -c 'r=$((OMPI_COMM_WORLD_LOCAL_RANK + 1)); [ "$r" = 4 ] && r=none
		TREEMATCH_ONLINE_LOCAL_RANK=$r \
		TREEMATCH_ONLINE_LOCAL_SIZE=$OMPI_COMM_WORLD_LOCAL_SIZE \
		exec "$@"' sh "$phases" "$dir" 1 4096 \
	>"$dir/out" 2>"$dir/err"
program_ok norank0 "$dir" 4 $?
if [ "$(grep -c 'not made by local rank 0 within 0.3 s: online mode off' "$dir/err")" -eq 3 ]; then
	ok "norank0: each rank says it runs without the online mode"
else
	not_ok "norank0: each rank says it runs without the online mode"
	show "$dir/err"
fi
no_segment norank0

# --- bad values: one line naming the variable, the program unchanged ----
ring=$examples/ring
built "$ring"
launch 4 "$ring" 1000 3 >plain.out 2>plain.err
sort plain.out >plain.sorted
bad_value() {
	what=$1 variable=$2
	shift 2
	# shellcheck disable=SC2046
	launch 4 env $(online "$@") "$ring" 1000 3 >bad.out 2>bad.err
	status=$?
	sort bad.out >bad.sorted
	if [ $status -eq 0 ] && cmp -s plain.sorted bad.sorted; then
		ok "$what: the program runs unchanged"
	else
		not_ok "$what: the program runs unchanged (status $status)"
		show bad.out bad.err
	fi
	if grep -q "^treematch online: .*$variable.*online mode off" bad.err
	then
		ok "$what: one line names $variable"
	else
		not_ok "$what: one line names $variable"
		show bad.err
	fi
	[ -e "$shm" ] && not_ok "$what: $shm exists" && rm -f "$shm"
}
bad_value "slope=1" TREEMATCH_ONLINE_PARAMS TREEMATCH_ONLINE_PARAMS=slope=1
bad_value "a segment name with a slash" TREEMATCH_ONLINE_SEGMENT \
	TREEMATCH_ONLINE_SEGMENT=/treematch-online.a/b
bad_value "a local rank that is no number" TREEMATCH_ONLINE_LOCAL_RANK \
	TREEMATCH_ONLINE_LOCAL_RANK=x TREEMATCH_ONLINE_LOCAL_SIZE=4
bad_value "a local size over the job's" TREEMATCH_ONLINE_LOCAL_SIZE \
	TREEMATCH_ONLINE_LOCAL_RANK=0 TREEMATCH_ONLINE_LOCAL_SIZE=99
finish
