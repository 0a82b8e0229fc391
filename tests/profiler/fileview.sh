#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# fileview.sh - the I/O matrix (COMMPROF_IO_OUTPUT): programs that set
# MPI-IO file views in known orders (tests/profiler/fileview.c) give
# exactly the adjacency counts of those orders, the paper's example
# included; the byte matrix is written as before; a run without file
# views writes no I/O matrix; --io-output and the default name.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/profiler/lib.sh"
profiler_setup

fileview=$top_builddir/tests/profiler/fileview
built "$fileview"

# expected SIZE I J COUNT...: the I/O matrix as the profiler writes it
expected() {
	size=$1
	shift
	printf '{"size": %d, "unit": "adjacencies",\n "entries": [' "$size"
	sep=''
	while [ $# -ge 3 ]; do
		printf '%s\n  [%d, %d, %d]' "$sep" "$1" "$2" "$3"
		sep=','
		shift 3
	done
	if [ -n "$sep" ]; then
		printf '\n ]}\n'
	else
		printf ']}\n'
	fi
}

# run_mode MODE NP WHAT I J COUNT...: fileview MODE under commprof -o
# MODE.json; MODE.io.json must be exactly the expected matrix, and the
# project's reader must see those weights.
run_mode() {
	mode=$1 np=$2 what=$3
	shift 3
	expected "$np" "$@" >"$mode.expected"
	if launch "$np" "$commprof" -o "$mode.json" "$fileview" "$mode" \
		>"$mode.out" 2>"$mode.err"; then
		ok "fileview $mode runs on $np ranks under commprof"
	else
		not_ok "fileview $mode runs on $np ranks under commprof"
		show "$mode.out" "$mode.err"
	fi
	if grep '^commprof' "$mode.err" |
		grep -qv "^commprof: wrote $mode\(\.io\)\?\.json ($np ranks, "; then
		not_ok "fileview $mode: the profiler reports no problem"
		show "$mode.err"
	fi
	if [ -f "$mode.io.json" ] && cmp -s "$mode.expected" "$mode.io.json"
	then
		ok "fileview $mode: $what"
	else
		not_ok "fileview $mode: $what"
		echo "#   expected:"
		show "$mode.expected"
		echo "#   got:"
		[ -f "$mode.io.json" ] && show "$mode.io.json"
	fi
	if "$load_matrix" "$mode.io.json" "$mode.expected" >load.out 2>&1; then
		ok "fileview $mode: the project's matrix reader loads the counts"
	else
		not_ok "fileview $mode: the project's matrix reader loads the counts"
		show load.out
	fi
	if [ -f "$mode.json" ] && "$load_matrix" "$mode.json" "$mode.json" \
		>load.out 2>&1; then
		ok "fileview $mode: the byte matrix is written as before"
	else
		not_ok "fileview $mode: the byte matrix is written as before"
		show load.out
	fi
}

run_mode paper 6 "the paper's sequence gives the paper's 6x6 matrix (SetMatch, section 3.1)" \
	0 1 1  0 4 4  1 3 1  1 4 4  1 5 1  2 3 2  2 4 1  2 5 3  3 4 1  4 5 2
run_mode tiles 4 "2 x 2 tiles (subarray): rows 0 1 0 1 2 3 2 3" \
	0 1 3  1 2 1  2 3 3
run_mode vector 4 "interleaved ints (vector, resized): 0 1 2 3 three times" \
	0 1 3  0 3 2  1 2 3  2 3 3
run_mode twice 4 "the same view set twice counts twice" \
	0 1 6  0 3 4  1 2 6  2 3 6
run_mode split 4 "files of two sub-communicators, ranks translated to MPI_COMM_WORLD" \
	0 2 1  1 3 1
run_mode struct 4 "a struct of hindexed and contiguous blocks: 0 1 2 3 3 2 1 0" \
	0 1 2  1 2 2  2 3 2

# no file view: no I/O matrix, no message
if launch 4 "$commprof" -o none.json "$fileview" none >none.out 2>none.err &&
	[ -f none.json ] && [ ! -e none.io.json ] &&
	grep -q '^commprof: wrote none.json (4 ranks, ' none.err &&
	[ "$(grep -c . none.err)" = 1 ]; then
	ok "a run without file views writes the byte matrix and no I/O matrix"
else
	not_ok "a run without file views writes the byte matrix and no I/O matrix"
	ls | show
	show none.err
fi

# --io-output (COMMPROF_IO_OUTPUT), with its %-sequences
mkdir named
if (cd named && launch 4 "$commprof" -o m.json --io-output 'io-%n.json' \
	"$fileview" tiles >run.out 2>run.err) &&
	cmp -s tiles.expected named/io-4.json && [ ! -e named/m.io.json ]; then
	ok "--io-output io-%n.json writes io-4.json (and no m.io.json)"
else
	not_ok "--io-output io-%n.json writes io-4.json (and no m.io.json)"
	ls named | show
fi

# the default name without -o: commprof-PID.io.json beside commprof-PID.json
mkdir default
(cd default && launch 4 env -u SLURM_JOB_ID -u SLURM_JOBID -u COMMPROF_OUTPUT \
	"$commprof" "$fileview" tiles >run.out 2>run.err)
# shellcheck disable=SC2010 # the test's own, plain file names
bytes=$(ls default | grep '^commprof-[0-9]*\.json$')
if [ -n "$bytes" ] && cmp -s tiles.expected "default/${bytes%.json}.io.json"; then
	ok "without -o, the I/O matrix is $bytes with .io.json"
else
	not_ok "without -o, the I/O matrix is the byte matrix's name with .io.json"
	ls default | show
fi

# it cannot be written: one line, the application still succeeds
mkdir unwritable
if launch 4 "$commprof" -o unwritable/m.json --io-output "$work/missing/io.json" \
	"$fileview" tiles >fail.out 2>fail.err; then
	ok "an I/O matrix that cannot be written: the application still succeeds"
else
	not_ok "an I/O matrix that cannot be written: the application still succeeds"
fi
want="commprof: cannot write $work/missing/io.json: No such file or directory"
# besides the line that names the byte matrix written
if [ "$(grep -v '^commprof: wrote unwritable/m.json (4 ranks, ' fail.err)" = "$want" ]
then
	ok "... and one line on stderr names the file and the reason"
else
	not_ok "... and one line on stderr names the file and the reason"
	echo "#   expected: $want"
	show fail.err
fi
finish
