#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 24-cancel.sh - scancel while treematch-helper runs: the helper (a fake
# that never answers, with a child) is stopped within 2 s of slurmstepd
# hearing of it (3 s after scancel here: Slurm's own part included) rather
# than at the site's timeout=, the tasks do not start, and the node is idle
# again well before that timeout; for a job cancelled whole and for one
# step of an allocation, whose next step then runs.  On Slurm 24.05 and
# later the same again with SlurmdParameters=contain_spank, where
# user_init runs in a clone of slurmstepd (doc/slurm-releases.md).
# scancel while srun (in salloc) runs its job-wide helper: srun notices
# the job's end within a second or so and returns, rather than at timeout=.
set -u
# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
# shellcheck source=tests/e2e/plugin.sh
. "$top_srcdir/tests/e2e/plugin.sh"
tm_start 2

timeout=300	# the site's: nothing here may wait for it (generous margins below:
		# the machine may be busy; without the fix each waits 300 s)
tm_matrix m1.json 1
tm_plugstack required "helper=$TM_FAKES/hang" "timeout=$timeout"

# wait_helper: until the fake helper runs (15 s at most)
wait_helper() {
	local deadline=$((SECONDS + 15))
	until [ -n "$(tm_live "$TM_FAKES/hang")" ]; do
		[ "$SECONDS" -lt "$deadline" ] || return 1
		sleep 0.1
	done
}
# ms_until_gone: how long until no fake helper is left, in ms (90 s at most)
ms_until_gone() {
	local t0
	t0=$(e2e_now_ms)
	while [ -n "$(tm_live "$TM_FAKES/hang")" ] && [ $(($(e2e_now_ms) - t0)) -lt 90000 ]; do
		sleep 0.05
	done
	echo $(($(e2e_now_ms) - t0))
}
# seconds_until_idle: how long until every node is idle (90 at most)
seconds_until_idle() {
	local t0=$SECONDS
	while [ "$(sinfo -h -N -o %t | grep -vc '^idle$')" != 0 ] &&
		[ $((SECONDS - t0)) -lt 90 ]; do
		sleep 0.2
	done
	echo $((SECONDS - t0))
}

# cancel_cases HOW: a job cancelled whole, then one step of an allocation
cancel_cases() {
	local how=$1 job srun_pid salloc_pid gone idle out
	# ---- the whole job ---------------------------------------------------------------

	rm -rf ran
	mkdir -m 1777 ran
	as_user timeout "$E2E_TIMEOUT" srun -Q -N1 -n1 --comm-matrix=m1.json "$TM_PROBE" "$E2E_WORK/ran" \
		>job.out 2>job.err &
	srun_pid=$!
	check "$how: the helper runs" wait_helper
	job=$(squeue -h -u "$E2E_USER" -o %i | head -n 1)
	scancel "$job"
	gone=$(ms_until_gone)
	echo "# $how: the helper was gone ${gone} ms after scancel $job"
	check "$how: scancel JOB: the helper and its child are gone within 3 s (timeout=$timeout)" test "$gone" -le 3000
	idle=$(seconds_until_idle)
	echo "# the nodes were idle ${idle}s after that"
	check "... and the node is idle again within 60 s" test "$idle" -le 60
	wait "$srun_pid"
	check_eq "... the application did not run" "$(ls ran | wc -l)" 0
	check_match "... slurmd's log says why the helper was stopped" \
		"$(cat "$E2E_CLUSTER_DIR"/log/slurmd-n*.log)" \
		"\\[$job\\.0\\] treematch: n1: step $job\\.0: the step was cancelled while treematch-helper ran: stopped it\$"

	# ---- one step of an allocation -----------------------------------------------------

	printf '%s\n' '#!/bin/bash' \
		"srun -Q -n1 --comm-matrix=$E2E_WORK/m1.json $TM_PROBE $E2E_WORK/ran" \
		'echo "first step: $?"' \
		"srun -Q -n1 $TM_PROBE" \
		'echo "second step: $?"' >steps.sh
	chmod 755 steps.sh
	as_user timeout "$E2E_TIMEOUT" salloc -Q -N1 -n1 "$E2E_WORK/steps.sh" >steps.out 2>steps.err &
	salloc_pid=$!
	check "$how: the helper runs for the allocation's first step" wait_helper
	job=$(squeue -h -u "$E2E_USER" -o %i | head -n 1)
	scancel "$job.0"
	gone=$(ms_until_gone)
	echo "# $how: the helper was gone ${gone} ms after scancel $job.0"
	check "$how: scancel JOB.0: the helper is gone within 3 s" test "$gone" -le 3000
	wait "$salloc_pid"
	out=$(cat steps.out)
	check_match "... the first step ends without its application" "$out" "^first step: [1-9]"
	check_match "... and the next step of the allocation runs" "$out" "^0 n1 allowed=.* status=- *\$"
	check_match "... which ends well" "$out" "^second step: 0\$"
	check_eq "... the application of the cancelled step did not run" "$(ls ran | wc -l)" 0
}

cancel_cases "plain"

# ---- srun's job-wide helper ---------------------------------------------------------

tm_matrix m2.json 2 0 1 1000
rm -rf ran
mkdir -m 1777 ran
tm_wait_idle
as_user timeout "$E2E_TIMEOUT" salloc -Q -N2 -n2 srun -Q --comm-matrix=m2.json "$TM_PROBE" "$E2E_WORK/ran" \
	>jobwide.out 2>jobwide.err &
salloc_pid=$!
check "job-wide: srun's helper runs" wait_helper
job=$(squeue -h -u "$E2E_USER" -o %i | head -n 1)
t0=$(e2e_now_ms)
scancel "$job"
wait "$salloc_pid"
ms=$(($(e2e_now_ms) - t0))
echo "# job-wide: salloc and srun returned ${ms} ms after scancel $job"
check "job-wide: scancel JOB: srun (and salloc) return within 5 s (timeout=$timeout)" test "$ms" -le 5000
check_eq "... the helper is gone" "$(tm_live "$TM_FAKES/hang")" ""
check_eq "... the application did not run" "$(ls ran | wc -l)" 0

# ---- a slow helper that nobody cancels still gets its time ---------------------------

tm_plugstack required "helper=$TM_FAKES/hang" timeout=3
tm_run as_user srun -Q -N1 -n1 --comm-matrix=m1.json "$TM_PROBE"
check_eq "not cancelled: the step falls back at timeout=3, not earlier" \
	"$TM_RC $(tm_col status)" "0 fallback: treematch-helper took more than 3 s (timeout)"

check_eq "no helper left" "$(tm_live "$TM_FAKES/hang")" ""
check "no daemon died, no node drained" cluster_healthy

# contain_spank (Slurm 24.05 and later): user_init in a clone of slurmstepd
if e2e_slurm_at_least 24.05; then
	cluster_stop
	SLURM_CONF_EXTRA="SlurmdParameters=contain_spank" cluster_start 2
	cd "$E2E_WORK" || exit 1
	tm_matrix m1.json 1
	tm_plugstack required "helper=$TM_FAKES/hang" "timeout=$timeout"
	cancel_cases "contain_spank"
	check "contain_spank: no daemon died, no node drained" cluster_healthy
else
	echo "# Slurm $(e2e_slurm_release) has no SlurmdParameters=contain_spank (24.05 and later)"
fi
e2e_finish
