#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-online.sh - what the online mode costs (doc/online.md, "Overhead").
# A benchmark, not a test: run it by hand from the build directory after
# `make check`:
#
#   sh tests/profiler/bench-online.sh [REPEATS]      default 5
#
# 1. Instructions per MPI_Send, with valgrind's callgrind when it is
#    installed (perf's counters are often missing in virtual machines):
#    rank 0 of contrib/examples/pingpong, inclusive count of MPI_Send, no
#    profiler / the profiler / the profiler in online mode.
# 2. Time per message of pingpong (8 bytes) for the same three, runs
#    alternated so that all see the same machine state.
# 3. Total wall time of the example programs with the profiler in online
#    mode against no profiler at all, alternated, and the share of the run
#    the mapper spent mapping (its report).
: "${top_builddir:=$(pwd)}"
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
export top_builddir top_srcdir
. "$top_srcdir/tests/profiler/lib.sh"
profiler_setup
. "$top_srcdir/tests/profiler/online_lib.sh"
online_setup

repeats=${1:-5}
pingpong=$examples/pingpong
built "$pingpong"
params=interval=0.5,min=0.5,max=30

# config NAME: the env(1) words of a configuration.
config() {
	case $1 in
	none) echo "TREEMATCH_BENCH=none" ;;
	profiler) echo "LD_PRELOAD=$profiler_lib COMMPROF_OUTPUT=$work/b.json" ;;
	online) online "TREEMATCH_ONLINE_PARAMS=$params" ;;
	esac
}

# ---- 1. instructions ------------------------------------------------------
if command -v valgrind >/dev/null 2>&1; then
	cat >"$work/vg.sh" <<'VG'
#!/bin/sh
if [ "$OMPI_COMM_WORLD_RANK" = 0 ] || [ "$PMI_RANK" = 0 ]; then
	exec valgrind -q --tool=callgrind --callgrind-out-file="$VGOUT" \
		--toggle-collect="$VGFN" "$@"
fi
exec "$@"
VG
	chmod +x "$work/vg.sh"
	trips=3000
	echo "instructions per MPI_Send (rank 0, inclusive, callgrind," \
	     "$((trips + 1000)) sends):"
	for c in none profiler online; do
		fn=MPI_Send
		[ $c = none ] && fn=PMPI_Send # libmpi's own name for it
		# shellcheck disable=SC2046
		launch 2 env $(config $c) VGFN=$fn VGOUT="$work/cg.$c" \
			"$work/vg.sh" "$pingpong" 8 $trips >/dev/null 2>&1
		ir=$(sed -n 's/^summary: //p' "$work"/cg.$c* | head -n 1)
		eval "ir_$c=\${ir:-0}"
		echo "  $c: $(awk -v a="${ir:-0}" -v n=$((trips + 1000)) \
			'BEGIN { printf "%.1f", a / n }')"
	done
	# shellcheck disable=SC2154 # set by eval above
	awk -v a="$ir_profiler" -v b="$ir_online" -v z="$ir_none" 'BEGIN {
		if (a > 0 && z > 0)
			printf "  online / profiler %.4f, profiler / none %.3f\n",
			       b / a, a / z }'
fi

# ---- 2. time per message --------------------------------------------------
echo "pingpong 8 bytes, 100000 round trips, $repeats runs of each" \
     "(median of the runs' means; fastest tenth in brackets):"
: >"$work/pp"
run=1
while [ $run -le "$repeats" ]; do
	for c in none profiler online; do
		# shellcheck disable=SC2046
		launch 2 env $(config $c) "$pingpong" 8 100000 2>/dev/null |
		sed -n "s/.*, \([0-9.]*\) ns per message, fastest tenth \([0-9.]*\) ns.*/$c \1 \2/p" \
			>>"$work/pp"
	done
	run=$((run + 1))
done
for c in none profiler online; do
	mean=$(awk -v c=$c '$1 == c { print $2 }' "$work/pp" | median)
	fast=$(awk -v c=$c '$1 == c { print $3 }' "$work/pp" | sort -n | head -n 1)
	eval "pp_$c=$mean"
	echo "  $c: $mean ns ($fast ns)"
done
# shellcheck disable=SC2154
awk -v z="$pp_none" -v a="$pp_profiler" -v b="$pp_online" 'BEGIN {
	printf "  online / profiler %.3f, online / none %.3f\n", b / a, b / z }'

# ---- 3. whole runs of the examples ----------------------------------------
now() { date +%s.%N; }
echo "examples, wall time of $repeats runs each (median), online against" \
     "no profiler, and the mapper's share of the run:"
# Two ranks: on a machine of two cores, more would compare the online
# mode's binding of busy-polling ranks two to a core against the kernel
# spreading them, not the online mode's own cost (run with 4 to see it).
np=${BENCH_ONLINE_NP:-2}
for case in "ring $np 1000000 800" "pairs $np 1000000 300 400" \
	    "halo2d $np $((np / 2)) 2 400 1000" "alltoall $np 400 400"; do
	# shellcheck disable=SC2086
	set -- $case
	name=$1 np=$2
	shift 2
	: >"$work/t"
	run=1
	while [ $run -le "$repeats" ]; do
		for c in none online; do
			start=$(now)
			# shellcheck disable=SC2046
			launch "$np" env $(config $c) "$examples/$name" "$@" \
				>/dev/null 2>"$work/err"
			echo "$c $(awk -v a="$start" -v b="$(now)" \
				'BEGIN { print b - a }')" >>"$work/t"
			[ $c = online ] && sed -n 's/.*mapping [0-9.]* ms (\([0-9.]*\) % of.*/share \1/p' \
				"$work/err" >>"$work/t"
		done
		run=$((run + 1))
	done
	off=$(awk '$1 == "none" { print $2 }' "$work/t" | median)
	on=$(awk '$1 == "online" { print $2 }' "$work/t" | median)
	share=$(awk '$1 == "share" { print $2 }' "$work/t" | median)
	awk -v n="$name $*" -v a="$off" -v b="$on" -v s="${share:-0}" 'BEGIN {
		printf "  %-24s off %.3f s, online %.3f s: ratio %.3f, " \
		       "mapping %s %% of the run\n", n, a, b, b / a, s }'
done
