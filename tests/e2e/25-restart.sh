#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 25-restart.sh - slurmd restarted under load, as a site does on upgrades:
# while a placed step runs, and while treematch-helper runs for a step
# (the hang fake, with a short timeout=).  The steps finish or fail
# cleanly, no node is drained or down, no helper is left behind.
set -u
# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
# shellcheck source=tests/e2e/plugin.sh
. "$top_srcdir/tests/e2e/plugin.sh"
tm_start 2

tm_matrix m2.json 2 0 1 1000

# wait_for CMD...: until CMD succeeds (20 s at most)
wait_for() {
	local deadline=$((SECONDS + 20))
	until "$@"; do
		[ "$SECONDS" -lt "$deadline" ] || return 1
		sleep 0.1
	done
}
ran_count() { [ "$(find "$E2E_WORK/ran" -name 'ran.*' | wc -l)" -ge "$1" ]; }
helper_running() { [ -n "$(tm_live "$TM_FAKES/hang")" ]; }
# no_node_drained: sinfo lists every node, none drained, down or failing
no_node_drained() {
	local states
	states=$(sinfo -h -N -o '%N %T')
	echo "$states"
	[ "$(grep -c . <<<"$states")" = "$E2E_NNODES" ] &&
		! grep -qiE 'drain|down|fail|not_responding|\*' <<<"$states"
}
restart() {
	"$CLUSTER_SH" restart "$E2E_CLUSTER_DIR" "$1" 2>&1 | sed 's/^/# /'
	return "${PIPESTATUS[0]}"
}

# ---- while a placed step runs ---------------------------------------------------

rm -rf ran
mkdir -m 1777 ran
as_user timeout "$E2E_TIMEOUT" srun -Q -N2 -n2 --comm-matrix=m2.json \
	bash -c "$TM_PROBE $E2E_WORK/ran; sleep 3" >running.out 2>running.err &
srun_pid=$!
check "the placed step's tasks run" wait_for ran_count 2
check "slurmd of n1 restarts while they run" restart n1
check "slurmd of n2 restarts while they run" restart n2
wait "$srun_pid"
rc=$?
TM_OUT=$(sort -n running.out)
check_eq "the step finishes: srun exits 0" "$rc" 0
tm_check_placed "the step placed before the restarts" 2
check "no node drained or down" no_node_drained

# ---- while the helper runs ------------------------------------------------------

tm_plugstack required "helper=$TM_FAKES/hang" timeout=4
rm -rf ran
mkdir -m 1777 ran
as_user timeout "$E2E_TIMEOUT" srun -Q -N2 -n2 --comm-matrix=m2.json \
	"$TM_PROBE" "$E2E_WORK/ran" >helper.out 2>helper.err &
srun_pid=$!
check "the helper runs on both nodes" wait_for helper_running
check "slurmd of n1 restarts while the helper runs" restart n1
wait "$srun_pid"
rc=$?
TM_OUT=$(sort -n helper.out)
check_eq "the step finishes: srun exits 0, both tasks ran" "$rc $(ls ran | wc -l)" "0 2"
check_eq "... each with a fallback at timeout=4 (not a cancellation)" \
	"$(tm_col status | sort -u)" "fallback: treematch-helper took more than 4 s (timeout)"
check_eq "no helper left" "$(tm_live "$TM_FAKES/hang")" ""
check "no node drained or down" no_node_drained

# and the same with on_error=fail: the step is refused, nothing is left
tm_plugstack required "helper=$TM_FAKES/hang" timeout=4 on_error=fail
rm -rf ran
mkdir -m 1777 ran
as_user timeout "$E2E_TIMEOUT" srun -Q -N2 -n2 --comm-matrix=m2.json \
	"$TM_PROBE" "$E2E_WORK/ran" >fail.out 2>fail.err &
srun_pid=$!
check "on_error=fail: the helper runs" wait_for helper_running
check "slurmd of n2 restarts while the helper runs" restart n2
wait "$srun_pid"
rc=$?
check_eq "on_error=fail: srun fails (not killed by the test's timeout), the application does not run" \
	"$(test "$rc" != 0 && test "$rc" != 124 && echo failed) $(ls ran | wc -l)" "failed 0"
check_match "... saying why" "$(cat fail.err)" \
	"^treematch: error: n[12]: treematch-helper took more than 4 s \\(timeout\\); the step is cancelled \\(on_error=fail\\)\$"
check_eq "no helper left" "$(tm_live "$TM_FAKES/hang")" ""

tm_plugstack required
check "no daemon died, no node drained, the next job runs" cluster_healthy
e2e_finish
