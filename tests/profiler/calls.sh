#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# calls.sh - every MPI call the profiler counts, on MPI_COMM_WORLD, on a
# communicator with reversed ranks and on an intercommunicator, in
# blocking, non-blocking and in-place forms: the matrix of each group of
# calls must be exactly the one the counting model gives (expect.c), and
# every call must still deliver the right data (calls.c checks it).
# When a group differs, each of its calls is run alone to name the culprits.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/profiler/lib.sh"
profiler_setup

calls=$top_builddir/tests/profiler/calls
built "$calls"
np=4
unit=3

p2p="send bsend ssend rsend isend ibsend issend irsend sendrecv
     sendrecv_replace persistent rsend_init startall zero proc_null"
collectives="barrier bcast bcast0 reduce allreduce gather gatherv scatter
     scatterv allgather allgatherv alltoall alltoallv alltoallw
     reduce_scatter reduce_scatter_block"
nonblocking=$(for c in $collectives; do printf 'i%s ' "$c"; done)
intra_only="self scan exscan iscan iexscan"
in_place=$(for c in allreduce reduce gather scatter allgather allgatherv \
	alltoall alltoallv alltoallw reduce_scatter reduce_scatter_block \
	scan exscan; do printf '%s_ip i%s_ip ' "$c" "$c"; done)

# run_calls COMM CASE...: 0 when the run succeeds and the matrix matches.
run_calls() {
	comm=$1
	shift
	rm -f calls.json compare.out
	launch "$np" "$commprof" -o calls.json "$calls" "$comm" "$unit" "$@" \
		>calls.out 2>&1 || return 1
	"$expect" calls "$np" "$comm" "$unit" "$@" >calls.expected || return 1
	[ -f calls.json ] && "$compare" calls.expected calls.json >compare.out
}

# check_group WHAT COMM CASE...
check_group() {
	what=$1 comm=$2
	shift 2
	if run_calls "$comm" "$@"; then
		ok "$what on $comm: matrix as modelled, data right"
		return
	fi
	not_ok "$what on $comm: matrix as modelled, data right"
	for case in "$@"; do
		run_calls "$comm" "$case" && continue
		echo "#   $case:"
		show calls.out
		[ -f compare.out ] && show compare.out
	done
}

for comm in world reversed inter; do
	# shellcheck disable=SC2086 # lists of words
	check_group "point-to-point" "$comm" $p2p
	# shellcheck disable=SC2086
	check_group "collectives" "$comm" $collectives
	# shellcheck disable=SC2086
	check_group "non-blocking collectives" "$comm" $nonblocking
done
check_group "communicators freed and created again" world reuse
for comm in world reversed; do
	# shellcheck disable=SC2086
	check_group "self, scan, exscan" "$comm" $intra_only
	# shellcheck disable=SC2086
	check_group "MPI_IN_PLACE forms" "$comm" $in_place
done
finish
