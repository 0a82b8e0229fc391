# tests/profiler/online_lib.sh - what the online mode's tests share
# (sourced after lib.sh and profiler_setup).
# SPDX-License-Identifier: GPL-2.0-or-later
#
# online_setup: finds the phases program, picks a segment name of this
# test's own (other tests may run at the same time) and makes sure it is
# gone on exit.  The launcher is the profiler tests' (mpirun by default):
# Open MPI gives each rank OMPI_COMM_WORLD_LOCAL_RANK and _SIZE.

online_setup() {
	phases=$top_builddir/tests/profiler/phases
	built "$phases"
	TREEMATCH_ONLINE_SEGMENT=/treematch-online.test.$$
	export TREEMATCH_ONLINE_SEGMENT
	shm=/dev/shm$TREEMATCH_ONLINE_SEGMENT
	trap 'rm -rf "$work"; rm -f "$shm"' EXIT
	unset TREEMATCH_ONLINE TREEMATCH_ONLINE_PARAMS TREEMATCH_ONLINE_LOG \
		TREEMATCH_ONLINE_REPORT TREEMATCH_ONLINE_LOCAL_RANK \
		TREEMATCH_ONLINE_LOCAL_SIZE TREEMATCH_ONLINE_NODE
}

# online NAME=VALUE...: the environment of an online run, for env(1).
online() {
	echo "LD_PRELOAD=$profiler_lib TREEMATCH_ONLINE=1 TREEMATCH_ONLINE_REPORT=1 $*"
}

# wait_file PATH CONTENT SECONDS: until PATH holds CONTENT; 1 on timeout.
wait_file() {
	tries=$(($3 * 20))
	while [ "$tries" -gt 0 ]; do
		[ "$(cat "$1" 2>/dev/null)" = "$2" ] && return 0
		sleep 0.05
		tries=$((tries - 1))
	done
	return 1
}

# cpus_of DIR RANK: the CPUs rank RANK of the phases program in DIR may
# use now, as the kernel says from outside the task.
cpus_of() {
	p=$(cat "$1/pid.$2" 2>/dev/null) &&
		sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$p/status"
}

# no_segment WHAT: the step's segment is gone.
no_segment() {
	if [ -e "$shm" ]; then
		not_ok "$1: $shm is left behind"
		rm -f "$shm"
	else
		ok "$1: no segment left in /dev/shm"
	fi
}

# report_ok WHAT FILE: FILE holds the mapper's two report lines.
report_ok() {
	if grep -Eq '^treematch online: node [^:]+: [0-9]+ rounds, [0-9]+ moves, intervals( [0-9.e+-]+)+( \.\.\.)? s, mapping [0-9.]+ ms \([0-9.]+ % of [0-9.]+ s\)$' "$2" &&
	   grep -Eq '^treematch online: node [^:]+: where the ranks ended: rank [0-9]+ on CPUs? [0-9,-]+(, rank [0-9]+ on CPUs? [0-9,-]+)*; cost [0-9.e+-]+, (x[0-9.]+ packed \([0-9.e+-]+\)|packed 0)$' "$2"; then
		ok "$1: the mapper's report"
	else
		not_ok "$1: the mapper's report"
		show "$2"
	fi
}

# program_ok WHAT DIR NP STATUS: the phases program ran correctly.
program_ok() {
	if [ "$4" -eq 0 ] && [ "$(grep -c ' 0 wrong$' "$2/out")" -eq "$3" ]
	then
		ok "$1: the program ran correctly on $3 ranks"
	else
		not_ok "$1: the program ran correctly on $3 ranks (status $4)"
		show "$2/out" "$2/err"
	fi
}
