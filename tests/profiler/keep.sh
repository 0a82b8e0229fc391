#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# keep.sh - what the commprof command does with the matrix of a run, as a
# user checks it: a successful run's matrix is written and named on
# stderr; a run that exits non-zero after MPI_Finalize (LAMMPS on a bad
# input) leaves the previous matrix as it was and commprof exits with the
# program's status; a trivially small matrix does not replace a real one
# (unless --force); --no-clobber never replaces; `commprof merge` adds
# runs of one size and refuses two sizes; `commprof replace` applies the
# same rule to a file recorded under another name (record.sbatch).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/profiler/lib.sh"
profiler_setup

ring=$examples/ring
built "$ring"
tool=$top_builddir/contrib/profiler/commprof-matrix
built "$tool"
np=4
# commprof's own temporary files, apart from those of tests running beside
TMPDIR=$work/tmp
mkdir "$TMPDIR"
export TMPDIR
"$expect" ring $np 64 2 >ring.expected

# run WHAT COMMPROF-OPTIONS... -- COMMAND...: under commprof, stderr in
# run.err, the status in $status.
run() {
	launch $np "$commprof" "$@" >run.out 2>run.err
	status=$?
}

# check_err WHAT PATTERN: run.err (without the launcher's lines) is one
# line matching PATTERN (grep -E).
check_err() {
	lines=$(grep '^commprof' run.err)
	if [ "$(echo "$lines" | grep -c .)" = 1 ] &&
		echo "$lines" | grep -Eq "$2"; then
		ok "$1"
	else
		not_ok "$1"
		echo "#   expected one line matching: $2"
		show run.err
	fi
}

check_same() {
	if cmp -s "$2" "$3"; then ok "$1"; else not_ok "$1"; fi
}

# only the matrix is left: no temporary file next to it, none in TMPDIR
check_clean() {
	# shellcheck disable=SC2010 # the test's own, plain file names
	left=$(ls -a | grep -E '\.tmp\.|pending' ; ls "${TMPDIR:-/tmp}" |
		grep "^commprof-pending\.")
	if [ -z "$left" ]; then ok "$1: no temporary file left"
	else not_ok "$1: no temporary file left"; echo "#   $left"; fi
}

run -o m.json "$ring" 64 2
if [ $status -eq 0 ]; then ok "a good run: commprof exits 0"
else not_ok "a good run: commprof exits 0"; show run.err; fi
check_matrix "a good run: m.json is the run's matrix" ring.expected m.json
check_err "a good run: one line on stderr says which file it wrote" \
	"^commprof: wrote m\.json \(4 ranks, 4 pairs exchanged data, 512 in all\)$"
cp m.json good.json

# Slurm 25.05 starts a step's tasks with SIGCHLD blocked
# (doc/slurm-releases.md): commprof still sees its program end (under
# dash it waited for ever)
blocked='use POSIX; sigprocmask(SIG_BLOCK, POSIX::SigSet->new(SIGCHLD)); exec @ARGV or die'
rm -f m.json
COMMPROF_TEST_TIMEOUT=30 launch $np perl -e "$blocked" "$commprof" -o m.json "$ring" 64 2 \
	>run.out 2>run.err
status=$?
if [ $status -eq 0 ]; then ok "started with SIGCHLD blocked: commprof exits 0 (not stuck)"
else not_ok "started with SIGCHLD blocked: commprof exits 0 (got $status)"; show run.err; fi
check_matrix "... and writes the run's matrix" ring.expected m.json
cp good.json m.json

# LAMMPS on an input error: MPI_Finalize, then rank 0 exits 1.  Only rank
# 0 fails: a launcher stops the other ranks when one fails, which would
# stop rank 0 before it exits (its matrix is discarded then too, but the
# message differs).
rank0_fails='"$0" "$@"; s=$?; [ "${OMPI_COMM_WORLD_RANK:-${SLURM_PROCID:-0}}" != 0 ] || exit 3; exit $s'
run -o m.json sh -c "$rank0_fails" "$ring" 64 4
if [ $status -eq 3 ]; then ok "a run that exits 3 after MPI_Finalize: commprof exits 3"
else not_ok "a run that exits 3 after MPI_Finalize: commprof exits 3 (got $status)"; fi
check_same "... and m.json is left as it was" good.json m.json
check_err "... and stderr says why" \
	"^commprof: sh exited with status 3: its matrix is discarded, m\.json left as it was$"
check_clean "a failed run"

run -o fresh.json sh -c "$rank0_fails" "$ring" 64 2
if [ ! -e fresh.json ]; then ok "a failed run with no previous file writes none"
else not_ok "a failed run with no previous file writes none"; fi

# a run of the same size that hardly communicated
run -o m.json "$ring" 1 1
check_same "a trivially small matrix (1 % of the file's) does not replace it" \
	good.json m.json
check_err "... and stderr says why" \
	"^commprof: kept m\.json: this run's matrix holds 4 in all, under 1 % of the 512 that file holds"
if [ $status -eq 0 ]; then ok "... yet commprof exits with the program's 0"
else not_ok "... yet commprof exits with the program's 0"; fi
check_clean "a small run"

run --force -o m.json "$ring" 1 1
if [ "$("$tool" info m.json)" = "4 4 4" ]; then ok "--force replaces it anyway"
else not_ok "--force replaces it anyway"; fi
cp good.json m.json

run --no-clobber -o m.json "$ring" 64 4
check_same "--no-clobber: an existing m.json is not replaced" good.json m.json
check_err "... and stderr says so" \
	"^commprof: m\.json exists \(--no-clobber\): this run's matrix is discarded$"
run --no-clobber -o new.json "$ring" 64 2
check_matrix "--no-clobber: a new file is written" ring.expected new.json

# a bigger run does replace it
run -o m.json "$ring" 64 4
if [ "$("$tool" info m.json)" = "4 4 1024" ]; then ok "a good run replaces the matrix"
else not_ok "a good run replaces the matrix"; fi

# --- merge ----------------------------------------------------------------

if out=$("$commprof" merge -o sum.json good.json m.json 2>&1) &&
	[ "$("$tool" info sum.json)" = "4 4 1536" ]; then
	ok "commprof merge adds two runs' matrices"
else
	not_ok "commprof merge adds two runs' matrices"
	echo "#   $out"
fi
case $out in
"commprof: wrote sum.json, the sum of 2 matrices (4 ranks, 4 pairs exchanged data, 1536 in all)")
	ok "... and says what it wrote" ;;
*)	not_ok "... and says what it wrote"; echo "#   $out" ;;
esac
"$expect" ring 6 64 2 >six.json
out=$("$commprof" merge -o bad.json good.json six.json 2>&1)
if [ $? -eq 1 ] && [ ! -e bad.json ] && [ "$out" = \
	"commprof: six.json: \"size\" is 6, but good.json's is 4: merge adds matrices of one size (runs of the same task count)" ]
then
	ok "commprof merge refuses matrices of two sizes, naming the file"
else
	not_ok "commprof merge refuses matrices of two sizes, naming the file"
	echo "#   $out"
fi
"$commprof" merge -o x.json good.json >/dev/null 2>&1
if [ $? -eq 2 ]; then ok "commprof merge of one file is a usage error"
else not_ok "commprof merge of one file is a usage error"; fi

# --- replace (what record.sbatch does) ---------------------------------------

"$expect" ring $np 1 1 >tiny.json
cp good.json kept.json
out=$("$commprof" replace tiny.json kept.json 2>&1)
if [ $? -eq 1 ] && [ ! -e tiny.json ] && cmp -s good.json kept.json; then
	ok "commprof replace refuses a trivially small matrix, removes it"
else
	not_ok "commprof replace refuses a trivially small matrix, removes it"
	echo "#   $out"
fi
cp good.json other.json
if out=$("$commprof" replace other.json replaced.json 2>&1) &&
	[ ! -e other.json ] && cmp -s good.json replaced.json &&
	[ "$out" = "commprof: wrote replaced.json (4 ranks, 4 pairs exchanged data, 512 in all)" ]
then
	ok "commprof replace renames the new matrix when there is no old one"
else
	not_ok "commprof replace renames the new matrix when there is no old one"
	echo "#   $out"
fi
finish
