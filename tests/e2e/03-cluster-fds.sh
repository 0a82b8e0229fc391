#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 03-cluster-fds.sh - the daemons of a test cluster hold no descriptor of
# whoever started it: a caller's lock file held open (as make, a CI runner
# or another test may hold one) is released when the caller closes it, not
# kept by munged or slurmd for their whole life.
set -u
# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
e2e_require_root_and_slurm

tmp=
e2e_tmpdir tmp
held=$tmp/held.lock
# fds 7 and 8 stay open while the cluster starts; 8 holds a lock on it
exec 7>>"$held" 8<"$held"
flock 8
cluster_start 2

# open_elsewhere: "NAME PID FD -> TARGET" for each daemon descriptor above 2
# that points to the caller's file or to cluster.sh's registry lock.
open_elsewhere() {
	local name pid start fd target
	while read -r name pid start; do
		for fd in /proc/"$pid"/fd/*; do
			[ "${fd##*/}" -gt 2 ] || continue
			target=$(readlink "$fd") || continue
			case $target in
			"$held" | */slurm-treematch-clusters/lock)
				echo "$name $pid ${fd##*/} -> $target" ;;
			esac
		done
	done <"$E2E_CLUSTER_DIR/pids"
}
daemons=$(awk '{ print $1 }' "$E2E_CLUSTER_DIR/pids" | sort -u | tr '\n' ' ')
check_match "the cluster's daemons are recorded" "$daemons" 'munged .*slurmctld .*slurmd-n1 '
check_eq "no daemon holds the caller's lock file or the registry's lock" \
	"$(open_elsewhere)" ""
exec 7>&- 8<&-
check "once the caller closes its file, another process can lock it at once" \
	flock -n "$held" true
check "the cluster works" cluster_healthy
e2e_finish
