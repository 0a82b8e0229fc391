#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# output.sh - where and how the profiler writes its file: COMMPROF_OUTPUT
# and its %-sequences, the default names in and out of Slurm, plain
# LD_PRELOAD without the wrapper, failures to write (one line on stderr,
# the application still succeeds, no temporary file left), programs that
# never call MPI_Init, and the commprof command's own options.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/profiler/lib.sh"
profiler_setup

ring=$examples/ring
built "$ring"
np=4
"$expect" ring $np 64 2 >ring.expected

# profiled DIR ENV...: runs `ring 64 2` in DIR under commprof, with the
# given environment (env's -u NAME first, then NAME=VALUE).
# COMMPROF_OUTPUT is unset unless given.
profiled() {
	run_dir=$1
	shift
	mkdir -p "$run_dir"
	(cd "$run_dir" && launch $np env "$@" "$commprof" "$ring" 64 2 \
		>ring.out 2>ring.err)
}

# only_file DIR NAME WHAT: DIR holds exactly the matrix NAME (besides the
# run's own ring.out and ring.err), and it is the expected one.
only_file() {
	# shellcheck disable=SC2010 # the test's own, plain file names
	files=$(cd "$1" && ls | grep -v '^ring\.\(out\|err\)$')
	if [ "$files" = "$2" ]; then
		check_matrix "$3" ring.expected "$1/$2"
	else
		not_ok "$3"
		echo "#   expected only '$2' in $1, found: $files"
	fi
}

# --- names ---------------------------------------------------------------

host=$(hostname)
profiled named COMMPROF_OUTPUT='m-%j.%s-%n-%h-%%-%q.json' \
	SLURM_JOB_ID=4242 SLURM_STEP_ID=7
only_file named "m-4242.7-$np-$host-%-%q.json" \
	"COMMPROF_OUTPUT expands %j %s %n %h %% and keeps an unknown %q"

profiled in-slurm SLURM_JOB_ID=4242 SLURM_STEP_ID=7
only_file in-slurm commprof-4242.7.json \
	"under Slurm the default name is commprof-JOBID.STEPID.json"

profiled outside -u SLURM_JOB_ID -u SLURM_JOBID
# shellcheck disable=SC2010 # the test's own, plain file names
name=$(cd outside && ls | grep '^commprof-[0-9][0-9]*\.json$')
only_file outside "${name:-commprof-PID.json}" \
	"outside Slurm the default name is commprof-PID.json"

profiled absolute COMMPROF_OUTPUT="$work/absolute/a.json"
only_file absolute a.json "an absolute COMMPROF_OUTPUT is honoured"

mkdir preload
(cd preload && launch $np env LD_PRELOAD="$profiler_lib" \
	COMMPROF_OUTPUT=direct.json "$ring" 64 2 >ring.out 2>ring.err)
only_file preload direct.json "LD_PRELOAD without the wrapper works too"

mkdir not-mpi
(cd not-mpi && "$commprof" -o never.json sh -c 'echo hello' >ring.out \
	2>ring.err)
if [ "$(cat not-mpi/ring.out)" = hello ] && [ ! -e not-mpi/never.json ]
then
	ok "a program that never calls MPI_Init runs and writes nothing"
else
	not_ok "a program that never calls MPI_Init runs and writes nothing"
	show not-mpi/ring.out not-mpi/ring.err
fi

# --- failures --------------------------------------------------------------

# write_failure WHAT DIR TARGET REASON: ring succeeds, prints exactly one
# line naming TARGET and REASON, and leaves nothing behind in DIR.
write_failure() {
	what=$1 target_dir=$2 target=$3 reason=$4
	before=$(ls -a "$target_dir")
	if profiled fail COMMPROF_OUTPUT="$target"; then
		ok "$what: the application still succeeds"
	else
		not_ok "$what: the application still succeeds"
		show fail/ring.err
	fi
	want="commprof: cannot write $target: $reason"
	if [ "$(cat fail/ring.err)" = "$want" ]; then
		ok "$what: one line on stderr names the file and the reason"
	else
		not_ok "$what: one line on stderr names the file and the reason"
		echo "#   expected: $want"
		show fail/ring.err
	fi
	if [ "$(ls -a "$target_dir")" = "$before" ]; then
		ok "$what: no file is left behind"
	else
		not_ok "$what: no file is left behind"
		# shellcheck disable=SC2012 # for people, not parsed
		ls -a "$target_dir" | show
	fi
	if [ "$(sort fail/ring.out)" = "$(sort outside/ring.out)" ]; then
		ok "$what: the application's output is unchanged"
	else
		not_ok "$what: the application's output is unchanged"
	fi
	rm -rf fail
}

mkdir failures
write_failure "missing directory" failures \
	"$work/failures/missing/m.json" "No such file or directory"
# The temporary file is written, then rename() fails: it must go.
mkdir failures/taken
write_failure "target is a directory" failures "$work/failures/taken" \
	"Is a directory"
if [ "$(id -u)" -ne 0 ]; then
	mkdir read-only
	chmod 555 read-only
	write_failure "read-only directory" read-only \
		"$work/read-only/m.json" "Permission denied"
	chmod 755 read-only
else
	echo "# read-only directory: not checked as root (root may write)"
fi

# --- the commprof command ----------------------------------------------------

if "$commprof" --help | grep -q '^Usage: commprof'; then
	ok "commprof --help shows the usage"
else
	not_ok "commprof --help shows the usage"
fi
# MpiDefault=none clusters need srun --mpi=pmix for Open MPI (issue 25)
if "$commprof" --help | grep -q 'srun -n 8 --mpi=pmix commprof -o app.json ./app$'; then
	ok "commprof --help shows srun --mpi=pmix"
else
	not_ok "commprof --help shows srun --mpi=pmix"
fi
"$commprof" >/dev/null 2>&1
if [ $? -eq 2 ]; then
	ok "commprof without a program fails with status 2"
else
	not_ok "commprof without a program fails with status 2"
fi
"$commprof" --bogus true >/dev/null 2>&1
if [ $? -eq 2 ]; then
	ok "commprof with an unknown option fails with status 2"
else
	not_ok "commprof with an unknown option fails with status 2"
fi
message=$(COMMPROF_LIBRARY=$work/none.so "$commprof" true 2>&1)
if [ $? -eq 1 ] && [ "$message" = \
	"commprof: cannot read $work/none.so (set COMMPROF_LIBRARY?)" ]; then
	ok "commprof refuses to run unprofiled when the library is missing"
else
	not_ok "commprof refuses to run unprofiled when the library is missing"
	echo "#   $message"
fi
finish
