#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 16-helper-failures.sh - a helper that hangs (killed at timeout=, with its
# children), crashes, answers garbage, places ranks outside the CPUs it says it placed them among,
# prints without end, or does not exist: the step falls back (on_error=warn)
# or does not start (on_error=fail), promptly, and leaves nothing behind.
# A helper that leaves a child in a session of its own (setsid): nothing
# is left after the step, after srun's job-wide helper, nor after kill -9
# of srun during it.  on_error=fail with the helper failing on one node of
# two: the whole step fails at once, the other node's running task
# included, with one line naming the node and the reason.
set -u
# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
# shellcheck source=tests/e2e/plugin.sh
. "$top_srcdir/tests/e2e/plugin.sh"
tm_start 2

tm_matrix m4.json 4 0 1 1000 2 3 1000
tm_matrix m2.json 2 0 1 1000
# srun -N2 -n2: one task and one CPU per node, so the node has CPUs that are
# not the step's (for the fake that grabs them all).
tm_slurm_binding srun -Q -N2 -n2 "$TM_PROBE"
slurm_n2=$TM_OUT
check_eq "srun -N2 -n2: Slurm gives each task one CPU" \
	"$(tm_col allowed "$slurm_n2" | grep -c '^[0-9]*$')" 2

# name  step  what the status and the message say after "fallback: "
cases=(
	"hang		treematch-helper took more than 2 s \\(timeout\\)"
	"crash		treematch-helper crashed \\(signal 11\\)"
	"garbage	the helper's output is not JSON \\(.*\\)"
	"outside	the helper placed rank [0-9]+ on CPUs [0-9,-]+, outside the step's CPUs on this node \\([0-9,-]+\\)"
	"flood		treematch-helper printed too much"
	"missing	cannot execute $TM_FAKES/missing: No such file or directory"
)

for on_error in warn fail; do
	for c in "${cases[@]}"; do
		name=${c%%$'\t'*}
		what=${c##*$'\t'}
		tm_plugstack required "helper=$TM_FAKES/$name" timeout=2 "on_error=$on_error"
		rm -rf ran
		mkdir -m 1777 ran
		tm_wait_idle
		t0=$(e2e_now_ms)
		tm_run srun -Q -N2 -n2 --comm-matrix=m2.json "$TM_PROBE" "$E2E_WORK/ran"
		ms=$(($(e2e_now_ms) - t0))
		echo "# $name, on_error=$on_error: srun took $ms ms"
		ran=$(find ran -name 'ran.*' | wc -l)
		# a helper that is not stopped would hold the step forever; the
		# margin is for a loaded machine
		check "$name, $on_error: the step ends within 15 s (timeout=2)" test "$ms" -lt 15000
		if [ "$on_error" = warn ]; then
			check_eq "$name, $on_error: srun exits 0 and both tasks run" "$TM_RC $ran" "0 2"
			check_eq "$name, $on_error: each task's status says why" \
				"$(tm_col status | grep -cE "^fallback: $what")" 2
			check_eq "$name, $on_error: the tasks keep Slurm's binding" \
				"$(cut -d' ' -f1-3 <<<"$TM_OUT")" "$(cut -d' ' -f1-3 <<<"$slurm_n2")"
			check_eq "$name, $on_error: one warning per node" \
				"$(grep -E "^treematch: warning: n[12]: $what; tasks keep Slurm's binding\$" <<<"$TM_ERR" |
					cut -d' ' -f3 | sort | paste -sd' ' -)" "n1: n2:"
		else
			check "$name, $on_error: srun exits non-zero" test "$TM_RC" != 0
			check_eq "$name, $on_error: the application does not run" "$ran" 0
			check_eq "$name, $on_error: one error per node" \
				"$(grep -E "^treematch: error: n[12]: $what; the step is cancelled \\(on_error=fail\\)\$" <<<"$TM_ERR" |
					cut -d' ' -f3 | sort | paste -sd' ' -)" "n1: n2:"
		fi
		check_eq "$name, $on_error: nothing else mentions the plugin (one line per node)" \
			"$(grep -c 'treematch' <<<"$TM_ERR")" 2
		check_eq "$name, $on_error: no helper process left behind" \
			"$(tm_live "$TM_FAKES/$name"; tm_live tm-fake-helper-flood)" ""
	done
done

# ---- a helper that leaves a child in a session of its own -------------------------

orphans() { tm_live tm-fake-setsid-orphan; }
# orphans_gone_within MS: no child of the helper's is left, waiting MS at most
orphans_gone_within() {
	local deadline=$(($(e2e_now_ms) + $1))
	while [ -n "$(orphans)" ] && [ "$(e2e_now_ms)" -lt "$deadline" ]; do
		sleep 0.05
	done
	[ -z "$(orphans)" ]
}
tm_plugstack required "helper=$TM_FAKES/setsid-child" timeout=10
tm_run srun -Q -N2 -n2 --comm-matrix=m2.json "$TM_PROBE"
check_eq "setsid-child on the nodes: srun exits 0, both tasks fall back" \
	"$TM_RC $(tm_col status | grep -c '^fallback: setsid-child: left a child of its own$')" "0 2"
check_eq "... and after the step no child of the helper's is left" "$(orphans)" ""

# srun's job-wide helper (inside an allocation of two nodes)
tm_run as_user salloc -Q -N2 -n2 srun -Q --comm-matrix=m2.json "$TM_PROBE"
check_eq "setsid-child in srun (job-wide) and on the nodes: exit 0" "$TM_RC" 0
check_eq "... and after the job no child of a helper's is left" "$(orphans)" ""

# kill -9 of srun while its job-wide helper runs (it hangs for *slow*)
tm_matrix slow.json 2 0 1 1000
tm_wait_idle
as_user timeout "$E2E_TIMEOUT" salloc -Q -N2 -n2 srun -Q --comm-matrix=slow.json "$TM_PROBE" \
	>slow.out 2>slow.err &
salloc_pid=$!
deadline=$((SECONDS + 15))
until [ -n "$(orphans)" ] || [ "$SECONDS" -ge "$deadline" ]; do sleep 0.1; done
# the oldest: the helper's keeper is a fork of srun, with its command line
srun_pid=$(pgrep -o -f -- '^srun -Q --comm-matrix=slow\.json')
check "kill -9 of srun during its job-wide helper: the helper's child runs first" \
	test -n "$(orphans)" -a -n "$srun_pid"
[ -n "$srun_pid" ] && kill -9 "$srun_pid"
check "... and is gone within 3 s of kill -9 of srun" orphans_gone_within 3000
wait "$salloc_pid"

# ---- on_error=fail, the helper failing on one node only ----------------------------

tm_plugstack required "helper=$TM_FAKES/fail-on-rank0" timeout=10 on_error=fail
printf '%s\n' '#!/bin/bash' "\"$TM_PROBE\" \"\$@\"" 'exec -a tm-fake-long-task sleep 120' >long-task
chmod 755 long-task
rm -rf ran
mkdir -m 1777 ran
tm_wait_idle
t0=$(e2e_now_ms)
tm_run srun -Q -N2 -n2 --comm-matrix=m2.json "$E2E_WORK/long-task" "$E2E_WORK/ran"
ms=$(($(e2e_now_ms) - t0))
echo "# on_error=fail, the helper failing on n1 only: srun took $ms ms"
check "fail on n1 only: srun ends within 15 s (n2's task would run 120 s)" test "$ms" -lt 15000
check "... srun exits non-zero" test "$TM_RC" != 0
check "... rank 0's application (on n1) did not run" test ! -e ran/ran.0
check_eq "... one line names the node and the reason, nothing else mentions the plugin" \
	"$(grep -c treematch <<<"$TM_ERR") $(grep -cE '^treematch: error: n1: fail-on-rank0: refused on the node of rank 0; the step is cancelled \(on_error=fail\)$' <<<"$TM_ERR")" \
	"1 1"
check_eq "... n2's task is not left running" "$(tm_live tm-fake-long-task)" ""
check_match "... slurmd's log on n1 says why" "$(cat "$E2E_CLUSTER_DIR"/log/slurmd-n1.log)" \
	"treematch: n1: fail-on-rank0: refused on the node of rank 0; the step is cancelled\$"

check "after all of it no daemon died and the next job runs" cluster_healthy
e2e_finish
