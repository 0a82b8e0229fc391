#!/bin/bash
# 13-cpus-per-task.sh - --cpus-per-task is honoured: with srun -N2 -n2 -c2
# each task gets both CPUs of its node, and it is bound to them.
set -u
# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
# shellcheck source=tests/e2e/plugin.sh
. "$top_srcdir/tests/e2e/plugin.sh"
tm_start 2
read -r node_cpus </sys/devices/system/cpu/online
[ "$node_cpus" = 0-1 ] || echo "# this machine has CPUs $node_cpus, the test expects 0-1"

tm_matrix m2.json 2 0 1 1000
tm_slurm_binding srun -Q -N2 -n2 -c2 "$TM_PROBE"
slurm_c2=$TM_OUT
check_eq "without the plugin, srun -N2 -n2 -c2 binds each task to 2 CPUs of its node" \
	"$(tm_col allowed "$slurm_c2" | paste -sd' ' -)" "0-1 0-1"

tm_run srun -Q -N2 -n2 -c2 --comm-matrix=m2.json "$TM_PROBE"
check_eq "srun -N2 -n2 -c2 --comm-matrix: exit 0, no message" "$TM_RC:$TM_ERR" "0:"
tm_check_placed "-N2 -n2 -c2" 2
check_eq "each task gets both CPUs of its node" \
	"$(awk '{ print $2, $4 }' <<<"$TM_OUT" | paste -sd' ' -)" "n1 cpus=0-1 n2 cpus=0-1"
tm_check_helper "... as treematch-helper map --cpus-per-task 2 says" m2.json 2 "$slurm_c2" \
	--topology this --cpus-per-task 2

# Two tasks of 1 CPU, and one of 2 CPUs, on one node: the CPUs differ.
tm_run srun -Q -N1 -n2 -c1 --comm-matrix=m2.json "$TM_PROBE"
tm_check_placed "-N1 -n2 -c1" 2
check_eq "-N1 -n2 -c1: the two tasks get one CPU each, not the same" \
	"$(tm_col cpus | sort | paste -sd' ' -)" "0 1"
# The same with --cpu-bind=none, where Slurm would leave both on the node.
tm_run srun -Q -N1 -n2 -c1 --cpu-bind=none --comm-matrix=m2.json "$TM_PROBE"
tm_check_placed "-N1 -n2 -c1 --cpu-bind=none" 2
check_eq "-N1 -n2 -c1 --cpu-bind=none: each task is bound to one CPU of its own" \
	"$(tm_col allowed | sort | paste -sd' ' -)" "0 1"
tm_matrix m1.json 1
tm_run srun -Q -N1 -n1 -c2 --comm-matrix=m1.json --comm-matrix-report "$TM_PROBE"
tm_check_placed "-N1 -n1 -c2" 1
check_eq "-N1 -n1 -c2: the task gets both CPUs" "$(tm_col cpus)" 0-1
check_match "... and the report names both cores" "$TM_ERR" \
	'^treematch: n1:   rank 0 -> CPUs 0-1 \(cores 0,1\)$'

check "no daemon died, the next job runs" cluster_healthy
e2e_finish
