#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# other-family.sh - the profiler and programs of two MPI families (issue
# 22): an MPICH program (contrib/examples/*-mpich, under mpiexec.mpich) is
# profiled through libcommprof.so exactly as the Open MPI one, to the same
# bytes; every profiler library, preloaded into a program of either family
# (online mode asked too), leaves it running to the end with its output;
# with no library for the program's MPI, the program runs as without the
# profiler and one line says why.  Skips without MPICH.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/profiler/lib.sh"
profiler_setup

[ -n "${MPICC_MPICH:-}" ] || skip "configure found no MPICH (mpicc.mpich; Debian: libmpich-dev)"
[ -n "${MPIEXEC_MPICH:-}" ] || skip "configure found no mpiexec.mpich (Debian: mpich)"
libs=$top_builddir/contrib/profiler/.libs
for file in "$libs/libcommprof-openmpi.so" "$libs/libcommprof-mpich.so" \
	"$examples/ring-mpich" "$examples/halo2d-mpich"; do
	built "$file"
done
# Hydra would start the ranks through srun inside an allocation.
unset SLURM_JOB_ID SLURM_JOBID SLURM_NODELIST SLURM_JOB_NODELIST

launch_mpich() {
	np=$1
	shift
	timeout "${COMMPROF_TEST_TIMEOUT:-120}" "$MPIEXEC_MPICH" -n "$np" "$@"
}

# same_run WHAT PLAIN.out RUN.out RUN.status: the run succeeded and
# printed what the plain run printed (ranks in any order).
same_run() {
	if [ "$4" -eq 0 ] && [ -s "$2" ] &&
		sort "$2" | cmp -s - "$(sort "$3" >"$3.sorted"; echo "$3.sorted")"; then
		ok "$1: exit status 0, output unchanged"
	else
		not_ok "$1: exit status 0 (got $4), output unchanged"
		show "$3" "${3%.out}.err"
	fi
}

# commprof_lines FILE: the number of lines the profiler said
commprof_lines() {
	grep -c '^commprof' "$1"
}

for name in ring halo2d; do
	case $name in
	ring) np=4 args="100000 7" expect_args="ring 4 100000 7" ;;
	halo2d) np=6 args="2 3 50 4" expect_args="halo2d 2 3 50 4" ;;
	esac
	# shellcheck disable=SC2086 # the arguments are words on purpose
	launch_mpich "$np" "$examples/$name-mpich" $args >"$name.plain.out" 2>&1 ||
		not_ok "$name-mpich runs without the profiler"
	# shellcheck disable=SC2086
	launch_mpich "$np" "$commprof" -o "$name-mpich.json" \
		"$examples/$name-mpich" $args >"$name.prof.out" 2>"$name.prof.err"
	same_run "$name-mpich under commprof (mpiexec.mpich)" \
		"$name.plain.out" "$name.prof.out" $?
	# shellcheck disable=SC2086
	"$expect" $expect_args >"$name.expected"
	if [ -f "$name-mpich.json" ]; then
		check_matrix "$name-mpich: the matrix is exactly the expected one" \
			"$name.expected" "$name-mpich.json"
	else
		not_ok "$name-mpich: commprof wrote $name-mpich.json"
		show "$name.prof.err"
	fi
	# the Open MPI run of the same program
	# shellcheck disable=SC2086
	launch "$np" "$commprof" -o "$name-openmpi.json" "$examples/$name" \
		$args >/dev/null 2>"$name.ompi.err"
	if [ -f "$name-openmpi.json" ] &&
		cmp -s "$name-openmpi.json" "$name-mpich.json"; then
		ok "$name: the MPICH run's matrix is byte-identical to the Open MPI run's"
	else
		not_ok "$name: the MPICH run's matrix is byte-identical to the Open MPI run's"
		show "$name.ompi.err"
	fi
done

# Every library of the build, by hand, online mode asked (whose mapper
# needs nothing more under either launcher): the program runs to its end.
args="100000 7"
# shellcheck disable=SC2086
launch "4" "$examples/ring" $args >ring-ompi.plain.out 2>&1 ||
	not_ok "ring runs without the profiler"
for lib in libcommprof.so libcommprof-openmpi.so libcommprof-mpich.so; do
	# shellcheck disable=SC2086
	launch_mpich 4 env LD_PRELOAD="$libs/$lib" TREEMATCH_ONLINE=1 \
		"$examples/ring-mpich" $args >m.out 2>m.err
	same_run "$lib preloaded into an MPICH program" ring.plain.out m.out $?
	# shellcheck disable=SC2086
	launch 4 env LD_PRELOAD="$libs/$lib" TREEMATCH_ONLINE=1 \
		"$examples/ring" $args >o.out 2>o.err
	same_run "$lib preloaded into an Open MPI program" ring-ompi.plain.out o.out $?
done

# The online mode under mpiexec.mpich finds its node's ranks (MPICH's
# MPI_LOCALRANKID and MPI_LOCALNRANKS): local rank 0's mapper reports.
# shellcheck disable=SC2086
launch_mpich 4 env LD_PRELOAD="$libs/libcommprof.so" TREEMATCH_ONLINE=1 \
	TREEMATCH_ONLINE_REPORT=1 "$examples/ring-mpich" $args >r.out 2>r.err
same_run "online mode in an MPICH program" ring.plain.out r.out $?
if [ "$(grep -cE '^treematch online: node [^:]+: [0-9]+ rounds, ' r.err)" -eq 1 ] &&
	! grep -q 'online mode off' r.err; then
	ok "online mode in an MPICH program: the node's mapper reports once"
else
	not_ok "online mode in an MPICH program: the node's mapper reports once"
	show r.err
fi

# An installation with no library for MPICH: only Open MPI's beside
# libcommprof.so.  The program runs as without the profiler, one line.
mkdir only-openmpi
cp "$libs/libcommprof.so" "$libs/libcommprof-openmpi.so" only-openmpi/
for lib in libcommprof.so libcommprof-openmpi.so; do
	# shellcheck disable=SC2086
	launch_mpich 4 env LD_PRELOAD="$PWD/only-openmpi/$lib" \
		TREEMATCH_ONLINE=1 "$examples/ring-mpich" $args >n.out 2>n.err
	same_run "$lib without an MPICH library, in an MPICH program" \
		ring.plain.out n.out $?
	lines=$(commprof_lines n.err)
	if [ "$lines" -eq 1 ] &&
		grep -q "^commprof: .*ring-mpich: its MPI (.*libmpich\.so\.12) is the MPICH family, and .*only-openmpi/libcommprof-mpich\.so is not installed: the program runs without the profiler$" n.err; then
		ok "$lib without an MPICH library: one line says why"
	else
		not_ok "$lib without an MPICH library: one line says why (got $lines)"
		show n.err
	fi
done
# commprof itself: the same line, no matrix, the program's status
# shellcheck disable=SC2086
COMMPROF_LIBRARY=$PWD/only-openmpi/libcommprof.so \
	COMMPROF_TOOL=$top_builddir/contrib/profiler/commprof-matrix \
	launch_mpich 4 "$commprof" -o none.json "$examples/ring-mpich" $args \
	>c.out 2>c.err
same_run "commprof without an MPICH library" ring.plain.out c.out $?
if [ ! -e none.json ] && [ "$(commprof_lines c.err)" -eq 1 ]; then
	ok "commprof without an MPICH library: no matrix, one line"
else
	not_ok "commprof without an MPICH library: no matrix, one line"
	show c.err
fi
finish
