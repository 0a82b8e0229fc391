#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 14-dry-run.sh - a placement computed on another topology
# (srun --comm-matrix-topology=synthetic:... or plugstack topology=xml:...):
# exported in SLURM_TREEMATCH_CPUS as the helper computes it there, status
# dry-run, and the tasks keep the binding Slurm gave them.
# (plugstack.conf arguments are split at spaces, so a synthetic description
# with several levels cannot be a topology= there: the key is tested with
# the same topology exported as XML.)
set -u
# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
# shellcheck source=tests/e2e/plugin.sh
. "$top_srcdir/tests/e2e/plugin.sh"
tm_start 2
synthetic="pack:2 core:8 pu:1"	# 2 sockets, 16 cores
xml=$TM_DIR/2x8.xml
check "lstopo exports $synthetic as XML" \
	lstopo-no-graphics --if synthetic --input "$synthetic" --of xml "$xml"

# 16 ranks per node (overcommitted 2-CPU nodes): on each node the even ranks
# all talk to each other, and so do the odd ones, so on 2 sockets of 8
# cores TreeMatch puts each kind on a socket of its own: CPUs Slurm's
# binding cannot give here.
entries=()
for base in 0 16; do
	for parity in 0 1; do
		for ((i = parity; i < 16; i += 2)); do
			for ((j = i + 2; j < 16; j += 2)); do
				entries+=($((base + i)) $((base + j)) 100)
			done
		done
	done
done
tm_matrix eo.json 32 "${entries[@]}"
tm_matrix m4.json 4 0 1 1000 2 3 1000

cat >steps.sh <<EOF
#!/bin/bash
# inside salloc -N2 -n4: the same step without and with the option
srun -Q -O -n32 "$TM_PROBE" >slurm.out 2>&1
srun -Q -O -n32 --comm-matrix=eo.json --comm-matrix-topology="synthetic:$synthetic" "$TM_PROBE" \
	>option.out 2>option.err
echo "option: \$?"
srun -Q -O -n32 --comm-matrix=eo.json "$TM_PROBE" >key.out 2>key.err
echo "key: \$?"
EOF
chmod 755 steps.sh

# check_dry_run NAME TOPOLOGY: NAME.out holds a dry run's 32 tasks.
check_dry_run() {
	local name=$1 topo=$2 slurm out
	slurm=$(sort -n slurm.out) out=$(sort -n "$name.out")
	check_eq "$name: no message" "$(cat "$name.err" 2>&1)" ""
	check_eq "$name: the 32 tasks' SLURM_TREEMATCH_STATUS is dry-run" \
		"$(tm_col status "$out" | uniq -c | awk '{ print $1, $2 }')" "32 dry-run"
	TM_OUT=$out tm_check_helper \
		"$name: SLURM_TREEMATCH_CPUS is the helper's placement on $topo" \
		eo.json 32 "" --topology "$topo"
	check_match "$name: ... which uses CPUs beyond this machine's (rank 1 on the 2nd socket)" \
		"$out" '^1 n1 allowed=[^ ]+ cpus=([89]|1[0-5]) '
	check_eq "$name: the tasks are not bound: Cpus_allowed_list is what Slurm set" \
		"$(cut -d' ' -f1-3 <<<"$out")" "$(cut -d' ' -f1-3 <<<"$slurm")"
}

# ---- srun --comm-matrix-topology ---------------------------------------------------

tm_plugstack required
tm_run salloc -Q -N2 -n4 ./steps.sh
check_match "--comm-matrix-topology: the step exits 0" "$TM_OUT" '^option: 0$'
check_eq "the same step without the option has no SLURM_TREEMATCH_* variable" \
	"$(tm_col vars "$(cat slurm.out)" | sort -u)" -
check_dry_run option "synthetic:$synthetic"

# ---- plugstack topology= -----------------------------------------------------------

tm_plugstack required "topology=xml:$xml"
tm_run salloc -Q -N2 -n4 ./steps.sh
check_match "topology=: the step exits 0" "$TM_OUT" '^key: 0$'
check_dry_run key "xml:$xml"

# A dry run with the whole machine's nodes: nothing bound either.
tm_slurm_binding srun -Q -N2 -n4 "$TM_PROBE"
slurm_n4=$TM_OUT
tm_run srun -Q -N2 -n4 --comm-matrix=m4.json --comm-matrix-report "$TM_PROBE"
check_eq "topology=, srun -N2 -n4: status dry-run" "$(tm_col status | sort -u)" dry-run
check_eq "... Slurm's own binding" "$(cut -d' ' -f1-3 <<<"$TM_OUT")" \
	"$(cut -d' ' -f1-3 <<<"$slurm_n4")"
check_match "... and the report says it is a dry run" "$TM_ERR" \
	"^treematch: n1: 2 tasks of step [0-9.]+ placed on xml:$xml \\(dry run, not bound\\)$"

check "no daemon died, the next job runs" cluster_healthy
e2e_finish
