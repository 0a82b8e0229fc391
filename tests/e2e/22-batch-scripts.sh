#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 22-batch-scripts.sh - contrib/batch as an ordinary user would submit it:
# record.sbatch writes the job's matrix (exactly what the program's code
# implies) and reuse.sbatch's later run is placed with that very file, one
# report per node; a failed run (rank 0 exits 1 after MPI_Finalize) or one
# that hardly communicated does not replace the matrix, and the job's log
# says why; reuse.sbatch without a matrix, or with a missing one, stops
# with a message saying what to give; on a site with matrix_dir + auto=yes, MATRIX_DIR=DIR
# record.sbatch and then auto.sbatch, which has no option at all, do the
# same, and a job of another name is left alone.
#
# The scripts are submitted as they are: the program and its arguments are
# the scripts' arguments, the task count an sbatch option (-N2 -n4: the
# test nodes have 2 CPUs), commprof comes from PATH and MATRIX_DIR from the
# environment.  The scripts assume no program, size or job name: without a
# program or a task count they stop with one line; record.sbatch names the
# matrix after the program unless the job has a name of its own, and says
# "commprof: wrote" once.
set -u
# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
# shellcheck source=tests/e2e/plugin.sh
. "$top_srcdir/tests/e2e/plugin.sh"
# shellcheck source=tests/e2e/mpi.sh
. "$top_srcdir/tests/e2e/mpi.sh"
mpi_start 2

batch=$top_srcdir/contrib/batch
app=("$MPI_EXAMPLES/halo2d" 2 2 50 4)	# unnamed jobs: matrices/halo2d.json
"$MPI_EXPECT" halo2d 2 2 50 4 >expected.json
export PATH=$TM_DIR:$PATH	# commprof, as if installed
shape=(-N2 -n4)
named=(--job-name=halo2d)	# a wrapper or another program, the same matrix
tm_slurm_binding srun -Q "${shape[@]}" "$TM_PROBE"
slurm=$TM_OUT

# check_placed DESC OUTPUT MATRIX: the job's tasks (MPI_SHOW lines) all ran
# halo2d correctly, bound where the plugin placed them with MATRIX.
check_placed() {
	local desc=$1 out=$2 matrix=$3 tasks
	tasks=$(mpi_tasks "$out")
	mpi_ranks_ok "$desc" 4 "$out"
	tm_check_placed "$desc" 4 "$tasks"
	check_eq "$desc: every task was placed with $matrix" \
		"$(tm_col matrix "$tasks" | sort -u)" "$matrix"
	TM_OUT=$tasks tm_check_helper \
		"$desc: each node's CPUs are what treematch-helper map gives for it" \
		"$matrix" 4 "$slurm" --topology this
}

# ---- what the scripts refuse ----------------------------------------------------

for script in record reuse auto; do
	out=$(sbatch_wait --as-user "${shape[@]}" "$batch/$script.sbatch" 2>&1)
	check "$script.sbatch without a program fails" test $? != 0
	check_match "... with one line saying what to give" "$(grep -v '^#' <<<"$out")" \
		"^$script.sbatch: (no program to run|expected a matrix and a program): sbatch -n NTASKS "
	check_eq "... and nothing else (but sbatch_wait's line on the job's end)" \
		"$(grep -v '^#' <<<"$out" | grep -vc '^job [0-9]* did not complete: ')" 1
done
out=$(sbatch_wait --as-user -N1 "$batch/record.sbatch" "${app[@]}" 2>&1)
check "record.sbatch without a task count (sbatch -N1 only) fails" test $? != 0
check_match "... saying so in one line" "$out" \
	"^record.sbatch: the job has no task count: sbatch -n NTASKS record.sbatch "
check "... before any step: no matrix directory" test ! -e "$E2E_WORK/matrices"
out=$(sbatch_wait --as-user "${shape[@]}" "$batch/auto.sbatch" "${app[@]}" 2>&1)
check "auto.sbatch without --job-name fails" test $? != 0
check_match "... saying which name to give" "$out" \
	"^auto.sbatch: the job needs the name its matrix was recorded under: sbatch --job-name=halo2d -n 4 auto.sbatch "

# ---- record.sbatch, then reuse.sbatch -------------------------------------------

out=$(sbatch_wait --as-user "${shape[@]}" "$batch/record.sbatch" "${app[@]}" 2>&1)
check "record.sbatch completes" test $? = 0
mpi_ranks_ok "record.sbatch" 4 "$out"
recorded=$E2E_WORK/matrices/halo2d.json
check_match "it says where the matrix is (named after the program)" "$out" \
	"^record.sbatch: $recorded holds the communication of this run's 4 ranks$"
check_eq "one \"commprof: wrote\" line, naming the matrix" \
	"$(grep '^commprof: wrote' <<<"$out" | cut -d' ' -f1-3)" "commprof: wrote $recorded"
check_eq "the matrix belongs to the user who ran the job" \
	"$(stat -c %U "$recorded" 2>&1)" "$E2E_USER"
check "it is exactly what halo2d's code implies" "$MPI_COMPARE" expected.json "$recorded"

cp "$recorded" recorded.json

# a program that fails after MPI_Finalize, as LAMMPS on a bad input
fails=$E2E_WORK/fails-after
printf '#!/bin/bash\n"$@" || exit\n[ "$SLURM_PROCID" != 0 ] || exit 1\n' >"$fails"
chmod 755 "$fails"
out=$(sbatch_wait --as-user "${shape[@]}" "${named[@]}" "$batch/record.sbatch" "$fails" "${app[@]}" 2>&1)
check "record.sbatch of a run that fails after MPI_Finalize: the job fails" test $? != 0
check "... and the matrix is left as it was" cmp -s recorded.json "$recorded"
check_match "... and the log says so" "$out" \
	"^record.sbatch: the step failed \(srun exited 1\): $recorded is left as it was$"
check_eq "... and leaves no temporary matrix" "$(ls -A "$E2E_WORK/matrices")" halo2d.json

# the same job name and size, hardly any communication: 4 bytes in all
out=$(sbatch_wait --as-user "${shape[@]}" "${named[@]}" "$batch/record.sbatch" "$MPI_EXAMPLES/ring" 1 1 2>&1)
check "record.sbatch of a run that hardly communicated: the job fails" test $? != 0
check "... and the matrix is left as it was" cmp -s recorded.json "$recorded"
check_match "... and the log says why" "$out" \
	"^commprof: kept $recorded: this run's matrix holds 4 in all, under 1 % of "
check_eq "... and leaves no temporary matrix" "$(ls -A "$E2E_WORK/matrices")" halo2d.json

out=$(sbatch_wait --as-user "${shape[@]}" "$batch/reuse.sbatch" "$MPI_SHOW" 2>&1)
check "reuse.sbatch without a matrix fails" test $? != 0
check_match "... saying that the matrix is required" "$out" \
	"^reuse.sbatch: expected a matrix and a program: sbatch -n NTASKS reuse.sbatch MATRIX PROGRAM"
out=$(sbatch_wait --as-user "${shape[@]}" "$batch/reuse.sbatch" matrices/none.json \
	"$MPI_SHOW" "${app[@]}" 2>&1)
check "reuse.sbatch with a missing matrix fails" test $? != 0
check_match "... naming it" "$out" "^reuse.sbatch: matrices/none.json: no such readable file"

out=$(sbatch_wait --as-user "${shape[@]}" "$batch/reuse.sbatch" matrices/halo2d.json \
	"$MPI_SHOW" "${app[@]}" 2>&1)
check "reuse.sbatch matrices/halo2d.json, from the same directory, completes" test $? = 0
check_placed "reuse.sbatch" "$out" "$recorded"
check_eq "reuse.sbatch: the report (--comm-matrix-report) names each node once" \
	"$(grep -oE '^treematch: n[0-9]+: [0-9]+ tasks of step' <<<"$out" | sort | uniq -c |
		awk '{ print $1, $3 }' | paste -sd' ' -)" "1 n1: 1 n2:"
check_eq "reuse.sbatch: no warning from the plugin" \
	"$(grep -E '^treematch: (warning|error)' <<<"$out")" ""

# ---- the site's matrix_dir and auto=yes ------------------------------------------

site=$E2E_WORK/site
mkdir -m 1777 "$site"	# as an admin would: every user writes their own files
tm_plugstack required "matrix_dir=$site" auto=yes
export MATRIX_DIR=$site
out=$(sbatch_wait --as-user "${shape[@]}" "$batch/record.sbatch" "${app[@]}" 2>&1)
check "MATRIX_DIR=site record.sbatch completes" test $? = 0
unset MATRIX_DIR
check "... and writes site/halo2d.json, exactly what halo2d's code implies" \
	"$MPI_COMPARE" expected.json "$site/halo2d.json"

out=$(sbatch_wait --as-user "${shape[@]}" "${named[@]}" "$batch/auto.sbatch" "$MPI_SHOW" "${app[@]}" 2>&1)
check "auto.sbatch (no placement option) completes" test $? = 0
check_placed "auto.sbatch" "$out" "$site/halo2d.json"

out=$(sbatch_wait --as-user "${shape[@]}" --job-name=other "$batch/auto.sbatch" \
	"$MPI_SHOW" "${app[@]}" 2>&1)
check "auto.sbatch as job \"other\" (no matrix of that name) completes" test $? = 0
mpi_ranks_ok "auto.sbatch as other" 4 "$out"
check_eq "... and its tasks get no SLURM_TREEMATCH_* variable" \
	"$(tm_col vars "$(mpi_tasks "$out")" | sort -u)" -

check "no daemon died, the next job runs" cluster_healthy
e2e_finish
