#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 23-hardening.sh - what an ordinary user tried against the plugin on a real
# cluster, and what an admin would check afterwards: no forged line in
# slurmd's log from an option smuggled into the step's environment, no task
# bound outside the step's CPUs by a replaced helper, no huge tree: built
# for a step, no matrix of another user picked from the site's matrix_dir,
# and the nodes still fine.
set -u
# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
# shellcheck source=tests/e2e/plugin.sh
. "$top_srcdir/tests/e2e/plugin.sh"
e2e_require_root_and_slurm

tm_setup
site=$TM_DIR/site
mkdir -m 755 "$site"
cluster_start 2
cd "$E2E_WORK" || exit 1
_e2e_ensure_user || { nok "create the user $E2E_USER"; e2e_finish; }
ncpus=$(nproc --all)

# ---- 1. an option's value with a line break, straight to slurmstepd -------

forged='[2026-01-01T00:00:00.000] FAKE'
tm_run as_user env "_SLURM_SPANK_OPTION_treematch_comm_matrix_topology=bogus
$forged line" srun -Q -n1 true
check_eq "a smuggled option value with a line break: the step runs" "$TM_RC" 0
check_eq "... and no slurmd log has a line that starts like the forged one" \
	"$(grep -hF -- "$forged" "$E2E_CLUSTER_DIR"/log/slurmd-*.log | grep -c "^\\[2026-01-01")" 0
check_eq "... nor mentions it at all" \
	"$(cat "$E2E_CLUSTER_DIR"/log/slurmd-*.log | grep -cF -- FAKE)" 0

# ---- 2. a replaced helper that grabs the whole node ---------------------------

tm_matrix m1.json 1
tm_matrix m2.json 2 0 1 1000
if [ "$ncpus" -lt 2 ]; then
	ok "SKIP: one CPU here, a step always owns the whole node"
else
	tm_slurm_binding as_user srun -Q -N1 -n1 "$TM_PROBE"
	slurm_n1=$TM_OUT
	own=$(tm_col allowed "$slurm_n1")
	check_eq "srun -n1: Slurm gives the task fewer CPUs than the node's $ncpus" \
		"$(test "$(tm_cpu_count "$own")" -lt "$ncpus" && echo fewer)" fewer
	for on_error in warn fail; do
		tm_plugstack required "helper=$TM_FAKES/grab" "on_error=$on_error"
		rm -rf ran
		mkdir -m 1777 ran
		tm_run as_user srun -Q -N1 -n1 --comm-matrix=m1.json "$TM_PROBE" "$E2E_WORK/ran"
		why="the helper placed rank 0 on CPUs [0-9,-]+, outside the step's CPUs on this node \\($own\\)"
		if [ "$on_error" = warn ]; then
			check_eq "grab, $on_error: the step runs" "$TM_RC $(ls ran | wc -l)" "0 1"
			check_match "grab, $on_error: its status is a fallback that says why" \
				"$(tm_col status)" "^fallback: $why\$"
			check_eq "grab, $on_error: the task keeps Slurm's CPUs ($own)" \
				"$(tm_col allowed)" "$own"
		else
			check_eq "grab, $on_error: the application does not run" \
				"$(test "$TM_RC" != 0 && echo refused) $(ls ran | wc -l)" "refused 0"
		fi
		check_match "grab, $on_error: the user is told why" "$TM_ERR" \
			"^treematch: (warning|error): n1: $why; "
	done
	# two steps of one job side by side, each on its own CPUs
	tm_plugstack required "helper=$TM_FAKES/grab"
	tm_run as_user salloc -Q -N1 -n2 bash -c \
		"srun -Q --exact -n1 $TM_PROBE & srun -Q --exact -n1 --comm-matrix=m1.json $TM_PROBE; wait"
	check_match "grab, a second step beside another: refused" "$TM_OUT" \
		"status=fallback: the helper placed rank 0 on CPUs"
	check_eq "grab, two steps: each task has one CPU of its own" \
		"$(tm_col allowed | sort -u | wc -l) $(tm_col allowed | grep -c '^[0-9]*$')" "2 2"
	# the real helper on the same step is still accepted
	tm_plugstack required
	tm_run as_user srun -Q -N1 -n1 --comm-matrix=m1.json "$TM_PROBE"
	tm_check_placed "the real helper, srun -n1" 1
	check_eq "the real helper, srun -n1: on Slurm's CPU" "$(tm_col allowed)" "$own"
fi

# ---- 3. what a step's options can make a node spend ------------------------

tm_plugstack required
tm_run as_user srun -Q -N1 -n2 --comm-matrix=m2.json --comm-matrix-topology=tree:8388608,2 "$TM_PROBE"
check_match "tree:8388608,2 for a 2-task step: refused in srun, saying the bound" "$TM_ERR" \
	"^treematch: warning: --comm-matrix-topology=tree:8388608,2: more than 65536 leaves: expected at most 65536 for this step; tasks keep Slurm's binding\$"
check_eq "... the step runs, its status says why" "$TM_RC $(tm_col status | sort -u)" \
	"0 fallback: --comm-matrix-topology=tree:8388608,2: more than 65536 leaves: expected at most 65536 for this step"
tm_run as_user srun -Q -N1 -n2 --comm-matrix=m2.json --comm-matrix-topology=tree:2,8,2 "$TM_PROBE"
check_eq "tree:2,8,2 for the same step: a dry run as before" "$TM_RC $(tm_col status | sort -u)" "0 dry-run"

# ---- 5. matrix_dir: whose files are used ----------------------------------------

other=nobody
tm_matrix "$site/theirs.json" 2 0 1 1000
tm_matrix "$site/mine.json" 2 0 1 1000
tm_matrix "$site/roots.json" 2 0 1 1000
chown "$other" "$site/theirs.json"
chown "$E2E_USER" "$site/mine.json"
tm_plugstack required "matrix_dir=$site"
tm_run as_user srun -Q -N2 -n2 --comm-matrix=theirs.json "$TM_PROBE"
check_match "matrix_dir: another user's file is refused, the warning says whose" "$TM_ERR" \
	"^treematch: warning: $site/theirs.json: owned by uid $(id -u "$other"), expected root or the job's user \\(uid $(id -u "$E2E_USER")\\) in the site's matrix_dir; tasks keep Slurm's binding\$"
check_eq "... and the step runs with Slurm's binding" "$TM_RC $(tm_col status | sort -u)" "0 fallback: $site/theirs.json: owned by uid $(id -u "$other"), expected root or the job's user (uid $(id -u "$E2E_USER")) in the site's matrix_dir"
for f in mine roots; do
	tm_run as_user srun -Q -N2 -n2 --comm-matrix=$f.json "$TM_PROBE"
	check_eq "matrix_dir: $f.json is used" "$TM_RC:$TM_ERR" "0:"
	tm_check_placed "matrix_dir: $f.json" 2
done
chmod 777 "$site"
tm_run as_user srun -Q -N2 -n2 --comm-matrix=roots.json "$TM_PROBE"
check_match "matrix_dir writable by everyone: its files are refused" "$TM_ERR" \
	"^treematch: warning: $site: the site's matrix_dir is writable by everyone without the sticky bit: its files are not used; "
chmod 1777 "$site"
tm_run as_user srun -Q -N2 -n2 --comm-matrix=roots.json "$TM_PROBE"
check_eq "... with the sticky bit they are used" "$TM_RC:$TM_ERR" "0:"
chmod 755 "$site"

# auto=yes picks a file by the job's name: another user's is not used
tm_plugstack required "matrix_dir=$site" auto=yes
cp "$site/theirs.json" "$site/victim.json"
chown "$other" "$site/victim.json"
tm_run as_user srun -Q -N2 -n2 -J victim "$TM_PROBE"
check_match "auto=yes: another user's file under the job's name is refused" "$TM_ERR" \
	"^treematch: warning: auto=yes: $site/victim.json: owned by uid $(id -u "$other"), .* the step runs without placement\$"
check_eq "... the step runs, without the plugin's variables" "$TM_RC $(tm_col vars | sort -u)" "0 -"
chown root "$site/victim.json"
tm_run as_user srun -Q -N2 -n2 -J victim "$TM_PROBE"
tm_check_placed "auto=yes: root's file under the job's name" 2

check "no daemon died, no node drained" cluster_healthy
e2e_finish
