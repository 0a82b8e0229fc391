#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# online-phases.sh - the online mode follows a program whose pairs change:
# 4 ranks on this machine's cores (2 here: two ranks per core), phase A
# pairs (0,1) (2,3), phase B pairs (0,2) (1,3).  The affinity of each
# task, read from outside (/proc/PID/status) near the end of each phase,
# puts the talking pairs on one core.  Once with LD_PRELOAD and MPI_Init,
# once through `commprof --online` and MPI_Init_thread.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/profiler/lib.sh"
profiler_setup
. "$top_srcdir/tests/profiler/online_lib.sh"
online_setup

params=interval=0.2,min=0.1,max=0.4
seconds=3

# phase_check WHAT DIR PHASE A B C D: ranks A and B share CPUs, C and D
# too, and the two pairs are apart.
phase_check() {
	ca=$(cpus_of "$2" "$4") cb=$(cpus_of "$2" "$5")
	cc=$(cpus_of "$2" "$6") cd=$(cpus_of "$2" "$7")
	if [ -n "$ca" ] && [ "$ca" = "$cb" ] && [ "$cc" = "$cd" ] &&
	   [ "$ca" != "$cc" ]; then
		ok "$1: phase $3: ranks $4,$5 on CPU $ca, $6,$7 on CPU $cc"
	else
		not_ok "$1: phase $3: ranks $4,$5 on '$ca' '$cb', $6,$7 on '$cc' '$cd'"
	fi
}

# run_phases WHAT FLAGS COMMAND...: runs phases under COMMAND, samples.
run_phases() {
	what=$1 flags=$2
	shift 2
	dir=$work/$what
	mkdir -p "$dir"
	launch 4 "$@" "$phases" "$dir" "$seconds" 4096 "$flags" \
		>"$dir/out" 2>"$dir/err" &
	job=$!
	if wait_file "$dir/phase" A 60; then
		sleep $((seconds - 1))
		phase_check "$what" "$dir" A 0 1 2 3
	else
		not_ok "$what: phase A never started"
	fi
	if wait_file "$dir/phase" B 60; then
		sleep $((seconds - 1))
		phase_check "$what" "$dir" B 0 2 1 3
	else
		not_ok "$what: phase B never started"
	fi
	wait "$job"
	program_ok "$what" "$dir" 4 $?
	report_ok "$what" "$dir/err"
	if grep -q '^treematch online:.*\(off\|stopped\|not mapping\)' \
		"$dir/err"; then
		not_ok "$what: the online mode reports no problem"
		show "$dir/err"
	else
		ok "$what: the online mode reports no problem"
	fi
	no_segment "$what"
}

# shellcheck disable=SC2046 # online prints words on purpose
run_phases init "" env $(online TREEMATCH_ONLINE_PARAMS=$params \
	TREEMATCH_ONLINE_LOG="$work/init.log")
run_phases init_thread t "$commprof" --online=$params
finish
