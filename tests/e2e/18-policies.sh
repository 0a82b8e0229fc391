#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 18-policies.sh - srun --comm-matrix-algorithm=NAME (setmatch, hierarchical,
# spread) and the site's algorithm=NAME: every task is bound where
# treematch-helper map --algorithm NAME puts it, with status applied; the
# report prints the policy's cost beside treematch, packed and round-robin;
# the user's option wins over the site's; #SBATCH passes it on; a bad name
# stops srun with one line; a stale SLURM_TREEMATCH_ALGORITHM is no option.
set -u
# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
# shellcheck source=tests/e2e/plugin.sh
. "$top_srcdir/tests/e2e/plugin.sh"
tm_start 2

check "srun --help lists --comm-matrix-algorithm" \
	grep -q -- '--comm-matrix-algorithm=NAME' <(srun --help 2>&1)

# 0-2 and 1-3 talk most
tm_matrix m4.json 4 0 2 1000 1 3 1000 0 1 10 2 3 10
tm_slurm_binding srun -Q -N2 -n4 "$TM_PROBE"
slurm_n4=$TM_OUT

# want_costs NODE JSON: the report's cost line for the helper's JSON:
# "treematch: NODE: cost FIRST X, NAME Y (xR), ..." in the JSON's order.
want_costs() {
	grep -o '"cost":{[^}]*}' <<<"$2" | sed 's/"cost":{//; s/}//' | tr ',' '\n' |
		tr -d '"' | awk -F: -v node="$1" '
		NR == 1 { first = $2; printf "treematch: %s: cost %s %.6g", node, $1, $2; next }
		{ printf ", %s %.6g (x%.2f)", $1, $2, (first > 0 ? $2 / first : 1) }
		END { printf "\n" }'
}

# ---- each policy, bound on the real nodes -----------------------------------------

# every policy of the table but the three each report compares against
for policy in $("$TM_HELPER" policies | cut -f1 | grep -vx 'treematch\|packed\|round-robin'); do
	tm_run srun -Q -N2 -n4 --comm-matrix=m4.json --comm-matrix-algorithm=$policy \
		--comm-matrix-report "$TM_PROBE"
	check_eq "$policy: srun exits 0" "$TM_RC" 0
	tm_check_placed "$policy" 4
	tm_check_helper "$policy: each node's CPUs are what treematch-helper map --algorithm $policy gives" \
		m4.json 4 "$slurm_n4" --topology this --algorithm $policy
	for node in n1 n2; do
		ranks=$(tm_node_ranks "$node")
		json=$("$TM_HELPER" map --matrix m4.json --topology this --ntasks 4 \
			--ranks "$ranks" --restrict "$(tm_node_allowed "$node" "$slurm_n4")" \
			--algorithm $policy)
		got=$(grep "^treematch: $node: cost " <<<"$TM_ERR")
		if tm_nothing_to_choose "$json"; then
			# 2 tasks on 2 cores: every placement costs the same
			check_eq "$policy: $node: nothing to choose, no cost in the report" "$got" ""
			continue
		fi
		check_match "$policy: $node's report puts the $policy cost first, then treematch, packed and round-robin" \
			"$got" "^treematch: $node: cost $policy [^,]+, treematch [^,]+ \\(x[0-9.]+\\), packed [^,]+ \\(x[0-9.]+\\), round-robin [^,]+ \\(x[0-9.]+\\)\$"
		check_eq "$policy: $node's report costs are the helper's" "$got" \
			"$(want_costs "$node" "$json")"
	done
	check_eq "$policy: stderr holds only the two nodes' reports" \
		"$(grep -vc '^treematch: n[12]: ' <<<"$TM_ERR")" 0
done

# Where there is a choice (4 tasks on each node's 2 CPUs, the nodes whole),
# the report's cost line puts the policy first.  0-1 and 2-3 talk most:
# round-robin splits them.
tm_matrix m8.json 8 0 1 1000 2 3 1000 4 5 1000 6 7 1000 1 2 10 5 6 10
tm_run salloc -Q -N2 --exclusive srun -Q -n8 -O --comm-matrix=m8.json \
	--comm-matrix-algorithm=setmatch --comm-matrix-report "$TM_PROBE"
check_eq "setmatch, 4 tasks a node on 2 CPUs: exit 0" "$TM_RC" 0
check_eq "... each node's report puts the setmatch cost first, then treematch, packed and round-robin" \
	"$(grep -cE '^treematch: n[12]: cost setmatch [^,]+, treematch [^,]+ \(x[0-9.]+\), packed [^,]+ \(x[0-9.]+\), round-robin [^,]+ \(x[0-9.]+\)$' <<<"$TM_ERR")" 2

# ---- distinct placements, seen on a bigger (dry-run) topology -------------------

# 8 ranks per node on 2 packages x 2 NUMA nodes x 2 cores: four pairs, the
# heaviest is 6-7 (and 14-15); spread puts it on the first NUMA node
# (CPUs 0 and 1), the next pairs on the next NUMA nodes.
topo="synthetic:pack:2 numa:2 core:2 pu:1"
tm_matrix pairs.json 16 6 7 400 4 5 300 2 3 200 0 1 100 0 2 50 \
	14 15 400 12 13 300 10 11 200 8 9 100 8 10 50
cat >steps.sh <<EOF
#!/bin/bash
# inside salloc -N2 -n4: 16 ranks, 8 per node, computed on $topo
for policy in treematch setmatch hierarchical spread; do
	srun -Q -O -n16 --comm-matrix=pairs.json --comm-matrix-topology="$topo" \\
		--comm-matrix-algorithm=\$policy "$TM_PROBE" >\$policy.out 2>\$policy.err
	echo "\$policy: \$?"
done
srun -Q -O -n16 --comm-matrix=pairs.json --comm-matrix-topology="$topo" \\
	"$TM_PROBE" >site.out 2>site.err
echo "site: \$?"
EOF
chmod 755 steps.sh

# dry_run_check NAME POLICY: NAME.out is a dry run of POLICY.
dry_run_check() {
	local name=$1 policy=$2 out
	out=$(sort -n "$name.out")
	check_eq "$name: no message" "$(cat "$name.err" 2>&1)" ""
	check_eq "$name: the 16 tasks' status is dry-run" \
		"$(tm_col status "$out" | uniq -c | awk '{ print $1, $2 }')" "16 dry-run"
	TM_OUT=$out tm_check_helper \
		"$name: SLURM_TREEMATCH_CPUS is treematch-helper map --algorithm $policy on the topology" \
		pairs.json 16 "" --topology "$topo" --algorithm "$policy"
}

tm_run salloc -Q -N2 -n4 ./steps.sh
check_eq "the dry runs of the four policies exit 0" "$TM_OUT" \
	"treematch: 0
setmatch: 0
hierarchical: 0
spread: 0
site: 0"
for policy in treematch setmatch hierarchical spread; do
	dry_run_check "$policy" "$policy"
done
check_eq "spread: the heaviest pair (6,7) on NUMA node 0 (CPUs 0, 1), then (4,5), (2,3), (0,1)" \
	"$(tm_col cpus "$(sort -n spread.out | head -8)" | paste -sd' ' -)" \
	"6 7 4 5 2 3 0 1"
check "spread's placement is not treematch's (the option reaches the helper)" \
	test "$(tm_col cpus "$(sort -n spread.out)")" != "$(tm_col cpus "$(sort -n treematch.out)")"
dry_run_check site treematch

# ---- the site's algorithm=, and the user's option over it -----------------------

tm_plugstack required algorithm=spread
tm_run salloc -Q -N2 -n4 ./steps.sh
check_match "algorithm=spread: the steps exit 0" "$TM_OUT" '^site: 0$'
dry_run_check site spread
dry_run_check hierarchical hierarchical
check_eq "algorithm=spread, --comm-matrix-algorithm=treematch: the user's wins" \
	"$(tm_col cpus "$(sort -n treematch.out)")" \
	"$(tm_helper_map --matrix pairs.json --topology "$topo" --ntasks 16 --ranks 0-7 |
		cut -d' ' -f2; tm_helper_map --matrix pairs.json --topology "$topo" \
		--ntasks 16 --ranks 8-15 | cut -d' ' -f2)"

# #SBATCH --comm-matrix-algorithm reaches the script's sruns
tm_plugstack required
cat >job.sh <<EOF
#!/bin/bash
#SBATCH -N2 -n4
#SBATCH --comm-matrix-algorithm=spread
srun -O -n16 --comm-matrix=pairs.json --comm-matrix-topology="$topo" "$TM_PROBE" \\
	>"$E2E_WORK/job.out" 2>"$E2E_WORK/job.err"
echo "srun: \$?"
EOF
chmod 755 job.sh
out=$(sbatch_wait job.sh 2>&1)
check "sbatch with #SBATCH --comm-matrix-algorithm=spread completes" test $? = 0
check_match "... its srun exits 0" "$out" '^srun: 0$'
dry_run_check job spread

# ---- mistakes ------------------------------------------------------------------

tm_run srun -Q -N2 -n4 --comm-matrix=m4.json --comm-matrix-algorithm=bogus "$TM_PROBE"
check "--comm-matrix-algorithm=bogus: srun fails" test "$TM_RC" -ne 0
check_match "... and says why in one line" "$TM_ERR" \
	'^treematch: --comm-matrix-algorithm=bogus: expected treematch, packed, round-robin, mpipp, mpipp1, setmatch, hierarchical or spread$'
check_eq "... before any task ran" "$TM_OUT" ""

tm_run env SLURM_TREEMATCH_ALGORITHM=bogus srun -Q -N2 -n4 --comm-matrix=m4.json "$TM_PROBE"
check_eq "a stale SLURM_TREEMATCH_ALGORITHM=bogus in the environment: no option, exit 0, no message" \
	"$TM_RC:$TM_ERR" "0:"
tm_check_placed "stale SLURM_TREEMATCH_ALGORITHM" 4
tm_check_helper "... placed with treematch, the default" m4.json 4 "$slurm_n4" --topology this

tm_plugstack required algorithm=bogus
tm_run srun -Q -N2 -n4 --comm-matrix=m4.json "$TM_PROBE"
check_eq "plugstack algorithm=bogus (on_error=warn): the step runs" "$TM_RC" 0
check_match "... with one warning naming the key and the names expected" "$TM_ERR" \
	"^treematch: warning: the plugin is disabled: plugstack.conf: 'algorithm=bogus': expected treematch, packed, round-robin, mpipp, mpipp1, setmatch, hierarchical or spread; tasks keep Slurm's binding\$"
check_eq "... and Slurm's own binding" "$(cut -d' ' -f1-3 <<<"$TM_OUT")" \
	"$(cut -d' ' -f1-3 <<<"$slurm_n4")"
tm_plugstack required

check "no daemon died, the next job runs" cluster_healthy
e2e_finish
