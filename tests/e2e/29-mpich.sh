#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 29-mpich.sh - the loop with an MPICH program (issue 22) under srun
# --mpi=pmi2 on 2 nodes: commprof records its matrix through libcommprof.so
# (which puts libcommprof-mpich.so in its place), byte-identical to the
# Open MPI run's of the same program; the program placed with that matrix;
# online (auto=online too); and with no MPICH library installed, auto=online
# leaves the job unchanged and says why once.  Skips without MPICH.
set -u
# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
# shellcheck source=tests/e2e/plugin.sh
. "$top_srcdir/tests/e2e/plugin.sh"
# shellcheck source=tests/e2e/mpi.sh
. "$top_srcdir/tests/e2e/mpi.sh"
[ -x "$top_builddir/contrib/examples/ring-mpich" ] ||
	e2e_skip "no MPICH build of the examples (configure found no mpicc.mpich; Debian: libmpich-dev)"
mpi_start 2
srun --mpi=list 2>&1 | grep -qw pmi2 ||
	e2e_skip "srun --mpi=list has no pmi2"
cp "$top_builddir/contrib/examples/ring-mpich" "$MPI_EXAMPLES/" &&
	chmod 755 "$MPI_EXAMPLES/ring-mpich" || exit 1
ring=("$MPI_EXAMPLES/ring-mpich" 100000 7)
launch=(srun -Q --mpi=pmi2 -N2 -n4)

# ---- record ----
matrix=$E2E_WORK/ring-mpich.json
tm_run "${launch[@]}" "$MPI_COMMPROF" -o "$matrix" "${ring[@]}"
check_eq "commprof under srun --mpi=pmi2: the MPICH program exits 0" "$TM_RC" 0
mpi_ranks_ok "ring-mpich, profiled" 4
check_eq "commprof's one line names the matrix" \
	"$(grep '^commprof' <<<"$TM_ERR" | cut -d' ' -f1-5)" \
	"commprof: wrote $matrix (4 ranks,"
"$MPI_EXPECT" ring 4 100000 7 >ring.expected
check "the matrix is exactly what the program's code implies" \
	"$MPI_COMPARE" ring.expected "$matrix"
tm_run srun -Q --mpi=pmix -N2 -n4 "$MPI_COMMPROF" -o "$E2E_WORK/ring-openmpi.json" \
	"$MPI_EXAMPLES/ring" 100000 7
check "... byte-identical to the Open MPI run's of the same program" \
	cmp "$matrix" "$E2E_WORK/ring-openmpi.json"

# ---- place ----
tm_run "${launch[@]}" --comm-matrix="$matrix" --comm-matrix-report \
	"$MPI_SHOW" "${ring[@]}"
check_eq "placed with its matrix: exits 0" "$TM_RC" 0
mpi_ranks_ok "ring-mpich, placed" 4
tasks=$(mpi_tasks "$TM_OUT")
tm_check_placed "ring-mpich, placed" 4 "$tasks"
check_eq "every task was placed with ring-mpich.json" \
	"$(tm_col matrix "$tasks" | sort -u)" "$matrix"
check_eq "no warning nor error from the plugin" \
	"$(grep -E '^treematch: (warning|error)' <<<"$TM_ERR")" ""

# ---- online ----
online_ok() { # WHAT: the run of TM_RC/TM_OUT/TM_ERR went online, to its end
	check_eq "$1: exits 0" "$TM_RC" 0
	mpi_ranks_ok "$1" 4
	check_eq "$1: no line from the profiler's family check" \
		"$(grep '^commprof' <<<"$TM_ERR")" ""
	check_eq "$1: the mapper's report on each node" \
		"$(grep -cE '^treematch online: node n[0-9]+: [0-9]+ rounds, ' <<<"$TM_ERR")" 2
}
tm_plugstack required "profiler=$MPI_PROFILER"
tm_run "${launch[@]}" --comm-matrix=online \
	--comm-matrix-online=save="$E2E_WORK/online.json" \
	--comm-matrix-report "${ring[@]}"
online_ok "--comm-matrix=online"
check "save= wrote the final pattern" test -s "$E2E_WORK/online.json"
tm_plugstack required "profiler=$MPI_PROFILER" auto=online
tm_run "${launch[@]}" --comm-matrix-report "${ring[@]}"
online_ok "auto=online"

# A step started inside an online task whose library libcommprof.so put a
# family's in its place: the nested step inherits neither.
tm_plugstack required "profiler=$MPI_PROFILER"
# shellcheck disable=SC2016 # expanded by the inner task's bash
tm_run salloc -Q -N1 -n2 srun -Q -n1 --comm-matrix=online \
	env LD_PRELOAD="$TM_DIR/libcommprof-mpich.so" bash -c \
	'srun -Q -n1 --overlap bash -c "echo \${LD_PRELOAD:-none}"'
check_eq "a nested step forgets the family library libcommprof.so chose" \
	"$TM_RC:$TM_OUT" "0:none"

# ---- no library for MPICH ----
mkdir -m 755 "$TM_DIR/only-openmpi"
cp "$MPI_PROFILER" "$TM_DIR/libcommprof-openmpi.so" "$TM_DIR/only-openmpi/" &&
	chmod 755 "$TM_DIR/only-openmpi/"* || exit 1
tm_plugstack required "profiler=$TM_DIR/only-openmpi/libcommprof.so" auto=online
tm_run "${launch[@]}" "${ring[@]}"
check_eq "auto=online, no MPICH library: the job exits 0" "$TM_RC" 0
mpi_ranks_ok "auto=online, no MPICH library" 4
check_eq "... and one line from the profiler" "$(grep -c '^commprof' <<<"$TM_ERR")" 1
check_match "... which says why" "$TM_ERR" \
	"^commprof: .*ring-mpich: its MPI \(.*libmpich\.so\.12\) is the MPICH family, and .*/only-openmpi/libcommprof-mpich\.so is not installed: the program runs without the profiler$"

check "no daemon died, the next job runs" cluster_healthy
e2e_finish
