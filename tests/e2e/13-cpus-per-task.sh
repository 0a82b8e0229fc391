#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 13-cpus-per-task.sh - --cpus-per-task is honoured: with srun -N2 -n2 -c2
# each task gets the two CPUs Slurm gave it, and it is bound to them.
set -u
# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
# shellcheck source=tests/e2e/plugin.sh
. "$top_srcdir/tests/e2e/plugin.sh"
tm_start 2
# Expected CPUs come from what Slurm itself binds without the plugin, so
# that the test holds on nodes of any size (2 CPUs each on the test VM).

tm_matrix m2.json 2 0 1 1000
tm_slurm_binding srun -Q -N2 -n2 -c2 "$TM_PROBE"
slurm_c2=$TM_OUT
check_eq "without the plugin, srun -N2 -n2 -c2 binds each task to 2 CPUs of its node" \
	"$(for l in $(tm_col allowed "$slurm_c2"); do tm_cpu_count "$l"; done | paste -sd' ' -)" "2 2"

tm_run srun -Q -N2 -n2 -c2 --comm-matrix=m2.json "$TM_PROBE"
check_eq "srun -N2 -n2 -c2 --comm-matrix: exit 0, no message" "$TM_RC:$TM_ERR" "0:"
tm_check_placed "-N2 -n2 -c2" 2
check_eq "each task gets both CPUs Slurm gave it on its node" \
	"$(awk '{ print $2, $4 }' <<<"$TM_OUT" | sort | paste -sd' ' -)" \
	"$(awk '{ sub("allowed=", "cpus=", $3); print $2, $3 }' <<<"$slurm_c2" | sort | paste -sd' ' -)"
tm_check_helper "... as treematch-helper map --cpus-per-task 2 says" m2.json 2 "$slurm_c2" \
	--topology this --cpus-per-task 2

# Two tasks of 1 CPU, and one of 2 CPUs, on one node: the CPUs differ.
tm_run srun -Q -N1 -n2 -c1 --comm-matrix=m2.json "$TM_PROBE"
tm_check_placed "-N1 -n2 -c1" 2
check_eq "-N1 -n2 -c1: the two tasks get one CPU each, not the same" \
	"$(tm_col cpus | grep -E '^[0-9]+$' | sort -u | wc -l)" 2
# The same with --cpu-bind=none, where Slurm would leave both on the node.
tm_run srun -Q -N1 -n2 -c1 --cpu-bind=none --comm-matrix=m2.json "$TM_PROBE"
tm_check_placed "-N1 -n2 -c1 --cpu-bind=none" 2
check_eq "-N1 -n2 -c1 --cpu-bind=none: each task is bound to one CPU of its own" \
	"$(tm_col allowed | grep -E '^[0-9]+$' | sort -u | wc -l)" 2
tm_matrix m1.json 1
tm_run srun -Q -N1 -n1 -c2 --comm-matrix=m1.json --comm-matrix-report "$TM_PROBE"
tm_check_placed "-N1 -n1 -c2" 1
check_eq "-N1 -n1 -c2: the task gets two CPUs" "$(tm_cpu_count "$(tm_col cpus)")" 2
check_match "... and the report names both cores" "$TM_ERR" \
	"^treematch: n1:   rank 0 -> CPUs $(tm_col cpus) \\(cores [0-9]+,[0-9]+\\)\$"

check "no daemon died, the next job runs" cluster_healthy
e2e_finish
