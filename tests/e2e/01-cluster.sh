#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 01-cluster.sh - the test cluster itself: jobs reach both nodes, binding,
# batch jobs, jobs of an ordinary user, a start that fails half-way, and a
# `down` that leaves nothing behind.
set -u
# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
e2e_require_root_and_slurm

# none_running PATTERN: no process's command line matches PATTERN (the
# daemons have their cluster's directory in theirs).
# shellcheck disable=SC2317 # called through check
none_running() { ! pgrep -af -- "$1"; }

# shellcheck disable=SC2317
fails() { ! "$@"; }

# listeners_from DIR PORT...: "PORT:PID" of the processes listening on those
# ports whose command line names DIR.  As soon as a cluster frees its ports,
# a cluster of a test running in parallel may take them: that is fine.
listeners_from() {
	local dir=$1 port pid
	shift
	for port in "$@"; do
		for pid in $(ss -Htlnp "sport = :$port" | grep -o 'pid=[0-9]*' | sort -u); do
			pid=${pid#pid=}
			tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep -qF -- "$dir/" &&
				echo "$port:$pid"
		done
	done
}

# ended PID: the child PID has exited (a zombie until it is waited for).
ended() {
	local state
	state=$(ps -o stat= -p "$1")
	[ -z "$state" ] || [ "${state:0:1}" = Z ]
}

cluster_start 2

# ---- jobs on the cluster -----------------------------------------------------

out=$(timeout "$E2E_TIMEOUT" srun -Q -N2 -n4 printenv SLURMD_NODENAME 2>&1)
check_eq "srun -N2 -n4 starts 4 tasks" "$(grep -c . <<<"$out")" 4
check_eq "srun -N2 -n4 runs on n1 and n2" "$(sort -u <<<"$out" | tr '\n' ' ')" "n1 n2 "

t0=$(e2e_now_ms)
check "srun -N2 -n4 true succeeds" timeout "$E2E_TIMEOUT" srun -Q -N2 -n4 true
echo "# srun -N2 -n4 true took $(($(e2e_now_ms) - t0)) ms"

out=$(timeout "$E2E_TIMEOUT" srun -Q -N1 -n2 --cpu-bind=cores \
	grep Cpus_allowed_list /proc/self/status 2>&1)
desc="--cpu-bind=cores binds the two tasks of a node to two different CPUs"
if [ "$(awk '/^Cpus_allowed_list:/ { print $2 }' <<<"$out" | sort -u | grep -c .)" = 2 ]; then
	ok "$desc"
else
	nok "$desc" "$out"
fi

# the TaskProlog's Open MPI settings reach the tasks on every node
out=$(timeout "$E2E_TIMEOUT" srun -Q -N2 -n2 printenv OMPI_MCA_pml 2>&1)
check_eq "every task gets OMPI_MCA_pml=ucx from the TaskProlog" "$out" "ucx
ucx"

script=$E2E_WORK/two-lines.sh
cat >"$script" <<'EOF'
#!/bin/sh
echo "batch script on $SLURMD_NODENAME as $(id -un)"
srun -N2 -n2 printenv SLURMD_NODENAME | sort | tr '\n' ' '
EOF
chmod 755 "$script"
out=$(sbatch_wait -N2 "$script" 2>&1)
check_match "sbatch: the batch script runs on n1 as root" "$out" '^batch script on n1 as root$'
check_match "sbatch: its srun reaches both nodes" "$out" '^n1 n2 $'

out=$(as_user timeout "$E2E_TIMEOUT" srun -Q -N2 -n2 id -un 2>&1)
check_eq "as_user: srun runs the tasks as $E2E_USER" "$out" "$E2E_USER
$E2E_USER"

out=$(sbatch_wait --as-user -N1 "$script" 2>&1)
check_match "as_user: sbatch runs the batch script as $E2E_USER" "$out" \
	"^batch script on n1 as $E2E_USER\$"

# ---- a step that outlives its time limit (e2e_timeout) ---------------------

# What the tests use instead of timeout(1): before a stalled step is
# stopped, the log gets where each of its threads waits.
t0=$(e2e_now_ms)
described=$(eval "exec $E2E_LOG_FD>&1"
	e2e_timeout 3 as_user srun -Q -N1 -n1 sleep 300 >/dev/null 2>&1
	echo "exit $?")
check_eq "e2e_timeout: a step past its limit is stopped with exit 124" \
	"$(tail -n1 <<<"$described")" "exit 124"
check "... within seconds ($(($(e2e_now_ms) - t0)) ms)" \
	test $(($(e2e_now_ms) - t0)) -lt 30000
check_match "... after the log got each of its threads and their wait channels" \
	"$described" '^#   thread [0-9]+ [RSDT] [a-z_]+.* sleep$'
ended=no
for _ in $(seq 50); do
	[ -z "$(squeue -h -u "$E2E_USER")" ] && { ended=yes; break; }
	sleep 0.2
done
check_eq "... and its job ends" "$ended" yes
# a limit longer than E2E_TIMEOUT: described at E2E_TIMEOUT, then left to end
described=$(eval "exec $E2E_LOG_FD>&1"
	E2E_TIMEOUT=2 e2e_timeout 60 as_user srun -Q -N1 -n1 sleep 6 >/dev/null 2>&1
	echo "exit $?")
check_eq "e2e_timeout: a slow step is described, then ends by itself, exit 0" \
	"$(grep -c '^# ---- stalled: ' <<<"$described") $(grep -c '^# \.\.\. it ended by itself after [0-9]* s$' <<<"$described") $(tail -n1 <<<"$described")" \
	"1 1 exit 0"

# ---- a start that fails half-way ---------------------------------------------

# munged and slurmctld start, then slurmctld dies on the bad plugin name.
bad=
e2e_tmpdir bad
out=$(SLURM_CONF_EXTRA=SelectType=select/nonexistent CLUSTER_OWNER_PID=$$ \
	"$CLUSTER_SH" up "$bad" 2>&1)
rc=$?
check "up fails when slurmctld cannot start" test "$rc" != 0
check_match "the failed up shows the tail of slurmctld's log" "$out" \
	"(Can't find plugin for|cannot create select context for) select/nonexistent"
check "the failed up left no daemon running" none_running "$bad/"

# A directory with files of someone else in it: `up` would wipe parts of it
# and `gc` all of it.
busy_dir=
e2e_tmpdir busy_dir
echo precious >"$busy_dir/notes"
check "up refuses a directory that holds other files" \
	fails "$CLUSTER_SH" up "$busy_dir"
check_eq "... and leaves them alone" "$(cat "$busy_dir/notes")" precious

# ---- down ---------------------------------------------------------------------

mapfile -t ports <"$E2E_CLUSTER_DIR/ports"
check "before down the cluster listens on its ports" \
	test "$(listeners_from "$E2E_CLUSTER_DIR" "${ports[@]}" | wc -l)" = "${#ports[@]}"
# The task's command line, not srun's (which ends the same way).
task_re="^(/[^ ]*/)?sleep 4321\\.$$\$"	# unique to this run of this test
timeout "$E2E_TIMEOUT" srun -Q -n1 sleep "4321.$$" >/dev/null 2>&1 &
running=$!
for _ in $(seq 100); do
	pgrep -f "$task_re" >/dev/null && break
	sleep 0.1
done
check "a job's task runs before down" pgrep -af "$task_re"

t0=$(e2e_now_ms)
check "down succeeds" "$CLUSTER_SH" down "$E2E_CLUSTER_DIR"
echo "# down took $(($(e2e_now_ms) - t0)) ms"
check "after down no daemon of the cluster is alive" none_running "$E2E_CLUSTER_DIR/"
check "after down the job's task is gone" none_running "$task_re"
for _ in $(seq 50); do
	ended "$running" && break
	sleep 0.1
done
check "after down the job's srun returns (within 5 s)" ended "$running"
wait "$running"
check_eq "after down nothing of the cluster listens on its ports" \
	"$(listeners_from "$E2E_CLUSTER_DIR" "${ports[@]}")" ""
check "down again is harmless" "$CLUSTER_SH" down "$E2E_CLUSTER_DIR"
never=
e2e_tmpdir never
check "down of a directory that never held a cluster is harmless" \
	"$CLUSTER_SH" down "$never"

e2e_finish
