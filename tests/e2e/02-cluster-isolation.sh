#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 02-cluster-isolation.sh - two test clusters at once do not see each other,
# a cluster cannot start on ports another one holds, and `cluster.sh gc`
# stops a cluster whose owner died without touching live ones.
set -u
# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
e2e_require_root_and_slurm

# nodes_and_ports CONF: "n1=PORT n2=PORT ..." as sinfo of that cluster says.
nodes_and_ports() {
	SLURM_CONF=$1 sinfo -h -N -O NodeList,Port 2>&1 | awk '{ printf "%s=%s ", $1, $2 }'
}

# ports_file_nodes DIR: the same as cluster.sh recorded the ports of DIR.
ports_file_nodes() { awk 'NR > 1 { printf "n%d=%d ", NR - 1, $1 }' "$1/ports"; }

# none_running PATTERN: no process's command line matches PATTERN (the
# daemons have their cluster's directory in theirs).
# shellcheck disable=SC2317 # called through check
none_running() { ! pgrep -af -- "$1"; }

# queue_names CONF: the names of the jobs queued on the cluster of CONF.
queue_names() { SLURM_CONF=$1 squeue -h -o %j 2>&1 | sort | tr '\n' ' '; }

cluster_start 2
conf_a=$SLURM_CONF
dir_b=
e2e_tmpdir dir_b
if ! out=$(CLUSTER_OWNER_PID=$$ NNODES=3 "$CLUSTER_SH" up "$dir_b" 2>&1); then
	nok "a second, 3-node cluster starts beside the first" "$out"
	e2e_finish
fi
echo "# $out"
conf_b=$dir_b/etc/slurm.conf

# ---- each cluster sees itself only ----------------------------------------

check_eq "sinfo of the first cluster lists its own 2 nodes and ports" \
	"$(nodes_and_ports "$conf_a")" "$(ports_file_nodes "$E2E_CLUSTER_DIR")"
check_eq "sinfo of the second cluster lists its own 3 nodes and ports" \
	"$(nodes_and_ports "$conf_b")" "$(ports_file_nodes "$dir_b")"
check "the two clusters have no port in common" \
	test -z "$(sort "$E2E_CLUSTER_DIR/ports" "$dir_b/ports" | uniq -d)"

out=$(SLURM_CONF=$conf_b timeout "$E2E_TIMEOUT" srun -Q -N3 -n3 printenv SLURMD_NODENAME 2>&1)
check_eq "srun -N3 on the second cluster runs on its 3 nodes" \
	"$(sort <<<"$out" | tr '\n' ' ')" "n1 n2 n3 "

job_a=iso-a-$$ job_b=iso-b-$$
out=$(sbatch -Q -J "$job_a" -o /dev/null --wrap "sleep 300" 2>&1) ||
	nok "submit a job to the first cluster" "$out"
out=$(SLURM_CONF=$conf_b sbatch -Q -J "$job_b" -o /dev/null --wrap "sleep 300" 2>&1) ||
	nok "submit a job to the second cluster" "$out"
check_eq "the first cluster's queue holds its own job only" "$(queue_names "$conf_a")" "$job_a "
check_eq "the second cluster's queue holds its own job only" "$(queue_names "$conf_b")" "$job_b "
scancel -n "$job_a"
SLURM_CONF=$conf_b scancel -n "$job_b"

# ---- ports that are taken ----------------------------------------------------

dir_c=
e2e_tmpdir dir_c
out=$(BASE_PORT=$(head -n 1 "$E2E_CLUSTER_DIR/ports") CLUSTER_OWNER_PID=$$ \
	"$CLUSTER_SH" up "$dir_c" 2>&1)
rc=$?
check "up on the ports of a running cluster fails" test "$rc" != 0
check_match "... and says the ports are in use" "$out" 'in use'
check "the cluster that holds the ports is still healthy" cluster_healthy

# ---- gc ------------------------------------------------------------------------

sleep 120 >/dev/null 2>&1 &	# the owner, killed below
owner=$!
dir_d=
e2e_tmpdir dir_d
out=$(CLUSTER_OWNER_PID=$owner NNODES=1 "$CLUSTER_SH" up "$dir_d" 2>&1) ||
	nok "a cluster owned by a sleep starts" "$out"
"$CLUSTER_SH" gc 2>&1 | sed 's/^/# /'
check "gc leaves alone a cluster whose owner is alive" "$CLUSTER_SH" status "$dir_d"

kill "$owner"
wait "$owner" 2>/dev/null
# (a test running in parallel may run the gc that stops it)
"$CLUSTER_SH" gc 2>&1 | sed 's/^/# /'
check "gc stopped every daemon of that cluster" none_running "$dir_d/"
check "gc removed that cluster's directory" test ! -e "$dir_d"
check "gc left the first cluster (owner alive) healthy" cluster_healthy
check "gc left the second cluster's daemons alive" "$CLUSTER_SH" status "$dir_b"
check "gc left the second cluster working" \
	env SLURM_CONF="$conf_b" timeout "$E2E_TIMEOUT" srun -Q -N3 -n3 true

e2e_finish
