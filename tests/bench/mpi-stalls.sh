#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# mpi-stalls.sh - loops the two-node MPI cases of the end-to-end tests on a
# busy machine and counts the runs that stall (`make check-stalls`, by hand,
# never in CI): the placed halo2d of 20-mpi-loop.sh (6 ranks on 2 nodes of
# 2 CPUs, recorded with commprof, then run with --comm-matrix) and the
# two-node phases run of 28-online.sh (8 ranks, --comm-matrix=online).
#
#   RUNS=30        runs of each case
#   LOAD=make      a parallel `make -j2` loop of a scratch build of the
#                  project beside the runs (LOAD=none: none)
#   STALL_AFTER=60 seconds after which a run counts as stalled (the e2e
#                  tests' E2E_TIMEOUT)
#   CASES="halo2d online"
#
# A stalled run is not just killed: before it is, every thread of its
# tasks, of their srun and of their slurmstepd is written to the log
# (tests/e2e/lib.sh's e2e_timeout: state, kernel wait channel, eu-stack's
# backtrace of the ranks), so that the cause can be read (doc/loop.md,
# "Known noise").  Last line:
# "CASE: N runs, S stalled, seconds min/median/max" for each case.
set -u
E2E_TEST_TIMEOUT=${E2E_TEST_TIMEOUT:-86400}
# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
# shellcheck source=tests/e2e/plugin.sh
. "$top_srcdir/tests/e2e/plugin.sh"
# shellcheck source=tests/e2e/mpi.sh
. "$top_srcdir/tests/e2e/mpi.sh"
RUNS=${RUNS:-30}
LOAD=${LOAD:-make}
STALL_AFTER=${STALL_AFTER:-60}
CASES=${CASES:-halo2d online}
mpi_start 2

# ---- the load ----------------------------------------------------------------

load_pid=
stop_load() {
	[ -n "$load_pid" ] && kill -- -"$load_pid" 2>/dev/null
	wait 2>/dev/null
}
e2e_at_exit stop_load
if [ "$LOAD" = make ]; then
	load_dir=$E2E_WORK/load-build
	mkdir -p "$load_dir"
	(cd "$load_dir" && "$top_srcdir/configure" --quiet >/dev/null 2>&1) ||
		{ nok "configure a scratch build for the load"; e2e_finish; }
	# its own process group, so that stop_load ends the whole loop
	setsid bash -c "cd '$load_dir' && while :; do make -s -j2 clean; make -s -j2 all; done" \
		>/dev/null 2>&1 {MPI_LOCK_FD}>&- &
	load_pid=$!
	echo "# load: make -j2 clean all, over and over (pid $load_pid)"
fi

# ---- one run --------------------------------------------------------------

declare -A durations=() stalls=()

# timed_run CASE COMMAND...: COMMAND as the user; a run past STALL_AFTER
# is described in the log (e2e_timeout: every thread's state and wait
# channel, the ranks' backtraces), then stopped.
timed_run() {
	local what=$1 t0 rc ms
	shift
	tm_wait_idle
	t0=$(e2e_now_ms)
	e2e_timeout "$STALL_AFTER" as_user "$@" >"$E2E_WORK/run.out" 2>"$E2E_WORK/run.err"
	rc=$?
	ms=$(($(e2e_now_ms) - t0))
	if [ "$rc" = 124 ]; then
		stalls[$what]=$((${stalls[$what]:-0} + 1))
		nok "$what: run stalled past ${STALL_AFTER} s (its threads are above)"
		scancel -u "$E2E_USER" 2>/dev/null
		return
	fi
	durations[$what]+="$ms "
	echo "# $what: $ms ms, exit $rc"
	check_eq "$what: run exits 0" "$rc" 0
	[ "$rc" = 0 ] || sed 's/^/# /' "$E2E_WORK/run.err" | head -n 20
}

# ---- the cases ----------------------------------------------------------

halo_matrix=$E2E_WORK/halo2d.json
halo2d=(salloc -Q -N2 -n4 srun -Q --mpi=pmix -N2 -O -n6)
if [[ " $CASES " = *" halo2d "* ]]; then
	as_user "${halo2d[@]}" "$MPI_COMMPROF" -o "$halo_matrix" \
		"$MPI_EXAMPLES/halo2d" 2 3 50 4 >/dev/null 2>&1
	check "halo2d: commprof recorded its matrix" test -s "$halo_matrix"
fi
PHASES=$TM_DIR/phases
cp "$top_builddir/tests/profiler/phases" "$PHASES" && chmod 755 "$PHASES"
tm_plugstack required "profiler=$MPI_PROFILER"

for i in $(seq "$RUNS"); do
	if [[ " $CASES " = *" halo2d "* ]]; then
		timed_run halo2d "${halo2d[@]}" --comm-matrix="$halo_matrix" \
			"$MPI_EXAMPLES/halo2d" 2 3 50 4
	fi
	if [[ " $CASES " = *" online "* ]]; then
		dir=$E2E_WORK/phases.$i
		mkdir -m 777 "$dir"
		timed_run online salloc -Q -N2 -n4 srun -Q --mpi=pmix -O -n8 \
			--comm-matrix=online --comm-matrix-online=interval=0.2,min=0.1,max=0.4 \
			"$PHASES" "$dir" 3 4096 ""
	fi
	echo "# round $i done"
done

for what in $CASES; do
	# shellcheck disable=SC2086 # one number a word
	echo "# $what: $RUNS runs, ${stalls[$what]:-0} stalled, seconds $(printf '%s\n' ${durations[$what]:-} |
		sort -n | awk '{ t[NR] = $1 / 1000 } END { if (NR) printf "%.1f/%.1f/%.1f", t[1], t[int((NR + 1) / 2)], t[NR]; else print "-" }')"
done
e2e_finish
