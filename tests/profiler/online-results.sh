#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# online-results.sh - the online mode changes no result: the examples
# print the same with it as without any profiler; with COMMPROF_OUTPUT
# the whole run's matrix is still exactly the expected one, and without
# it no matrix file appears (the plugin's tasks ask for none); save=
# writes the traffic after the last round as a matrix file of the
# project's format.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/profiler/lib.sh"
profiler_setup
. "$top_srcdir/tests/profiler/online_lib.sh"
online_setup

params=interval=0.1,min=0.1,max=0.4

# same_result NAME NP ARGS EXPECT_ARGS
same_result() {
	name=$1 np=$2 args=$3 expect_args=$4
	program=$examples/$name
	built "$program"
	# shellcheck disable=SC2086 # the arguments are words on purpose
	launch "$np" "$program" $args >plain.out 2>plain.err
	plain=$?
	# shellcheck disable=SC2046,SC2086
	launch "$np" env $(online TREEMATCH_ONLINE_PARAMS=$params \
		COMMPROF_OUTPUT="$name.json") "$program" $args \
		>online.out 2>online.err
	status=$?
	sort plain.out >plain.sorted
	sort online.out >online.sorted
	if [ $plain -eq 0 ] && [ $status -eq 0 ] && [ -s plain.sorted ] &&
	   cmp -s plain.sorted online.sorted; then
		ok "$name $args: the same output with the online mode"
	else
		not_ok "$name $args: the same output with the online mode"
		show online.out online.err
	fi
	# shellcheck disable=SC2086
	"$expect" $expect_args >"$name.expected"
	if [ -f "$name.json" ]; then
		check_matrix "$name: with COMMPROF_OUTPUT, the whole run's matrix is exact" \
			"$name.expected" "$name.json"
	else
		not_ok "$name: with COMMPROF_OUTPUT, the online mode wrote $name.json"
	fi
	no_segment "$name"
}

same_result ring 4 "100000 50" "ring 4 100000 50"
same_result pairs 4 "200000 300 20" "pairs 4 200000 300 20"
same_result halo2d 6 "2 3 50 40" "halo2d 2 3 50 40"
same_result alltoall 4 "3 20" "alltoall 4 3 20"

# without COMMPROF_OUTPUT: no matrix of the whole run
mkdir quiet && cd quiet || exit 1
# shellcheck disable=SC2046
launch 4 env $(online TREEMATCH_ONLINE_PARAMS=$params) "$examples/ring" \
	1000 3 >out 2>err
if [ -z "$(ls)" ] || [ "$(ls)" = "$(printf 'err\nout')" ]; then
	ok "without COMMPROF_OUTPUT the online mode writes no matrix"
else
	not_ok "without COMMPROF_OUTPUT the online mode writes no matrix: $(ls | tr '\n' ' ')"
fi
cd .. || exit 1

# save=: the pattern the tasks ended in (since the mapping last changed):
# phase B's pairs only, and most of phase B's bytes, not the sliver after
# the last round.  Rounds every 0.1 to 0.2 s see phase B within about
# 0.4 s of its 3: the file holds some 85 % of its bytes, where the
# traffic after the last round would be under 10 %.
dir=$work/save
mkdir -p "$dir"
# shellcheck disable=SC2046
launch 4 env $(online TREEMATCH_ONLINE_PARAMS=interval=0.1,min=0.1,max=0.2,save="$work/last.json") \
	COMMPROF_OUTPUT="$work/all.json" \
	"$phases" "$dir" 3 4096 >"$dir/out" 2>"$dir/err"
status=$?
info=$("$top_builddir/contrib/profiler/commprof-matrix" info \
	"$work/last.json" 2>&1)
if [ $status -eq 0 ] && [ "${info%% *}" = 4 ]; then
	ok "save=: a matrix of 4 ranks ($info)"
else
	not_ok "save=: a matrix of 4 ranks (status $status, $info)"
	show "$dir/err"
fi
# every pair with bytes in it talks in phase B: {0,2} or {1,3}
pairs=$(sed -n '/"entries"/,/"messages"/s/^ *\[\([0-9]*\), \([0-9]*\), [0-9]*\].*/\1\2/p' \
	"$work/last.json" | sort -u | tr '\n' ' ')
case " $pairs" in
*" 01 "*|*" 10 "*|*" 23 "*|*" 32 "*|" ")
	not_ok "save=: only phase B's pairs after the last round ($pairs)" ;;
*)
	ok "save=: only phase B's pairs after the last round ($pairs)" ;;
esac
# bytes of entry I J (either order) in a matrix file
entry_bytes() {
	sed -n "/\"entries\"/,/\"messages\"/s/^ *\[\($2, $3\|$3, $2\), \([0-9]*\)\].*/\2/p" "$1" |
		head -n1
}
saved=$(entry_bytes "$work/last.json" 0 2) whole=$(entry_bytes "$work/all.json" 0 2)
if [ -n "$saved" ] && [ -n "$whole" ] && [ $((saved * 2)) -ge "$whole" ]; then
	ok "save=: most of phase B's bytes between ranks 0 and 2 ($saved of $whole)"
else
	not_ok "save=: most of phase B's bytes between ranks 0 and 2 ('$saved' of '$whole')"
fi
no_segment save
finish
