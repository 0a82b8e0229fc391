#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 12-site-defaults.sh - the site's plugstack.conf keys: matrix_dir (bare
# names found there), auto=yes (a recurring job's <matrix_dir>/<job
# name>.json, used only when its size fits), and the report, asked with
# --comm-matrix-report or given by report=yes: once per node, every rank,
# its CPUs, the cost against packed and round-robin, or, where every
# placement of the node's tasks costs the same, no cost and one line for
# the step from rank 0's node.
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
tm_plugstack required "matrix_dir=$site"

tm_slurm_binding srun -Q -N2 -n4 "$TM_PROBE"
slurm_n4=$TM_OUT

# ---- matrix_dir -----------------------------------------------------------------

tm_matrix "$site/cg.json" 4 0 1 1000 2 3 1000 1 2 10
tm_run srun -Q -N2 -n4 --comm-matrix=cg.json "$TM_PROBE"
check_eq "--comm-matrix=cg.json, only in matrix_dir: exit 0, no message" "$TM_RC:$TM_ERR" "0:"
tm_check_placed "cg.json from matrix_dir" 4
tm_check_helper "... placed with matrix_dir/cg.json" "$site/cg.json" 4 "$slurm_n4" --topology this

# A file of that name in the current directory comes first: here a broken
# one, which srun must then report.
mkdir own
echo '{ "size": 4, "entries": [[0, 1,' >own/cg.json
tm_run bash -c "cd own && srun -Q -N2 -n4 --comm-matrix=cg.json $TM_PROBE"
check_match "a cg.json in the current directory is used before matrix_dir's" "$TM_ERR" \
	"^treematch: warning: $E2E_WORK/own/cg.json:"
tm_run srun -Q -N2 -n4 --comm-matrix=nowhere.json "$TM_PROBE"
check_match "a bare name in neither place: the warning names both directories" "$TM_ERR" \
	"^treematch: warning: nowhere.json: no such file in $E2E_WORK nor in the site's matrix_dir $site"

# ---- auto=yes -------------------------------------------------------------------

tm_plugstack required "matrix_dir=$site" auto=yes
tm_matrix "$site/recurring.json" 4 0 1 1000 2 3 1000 1 2 10
tm_matrix "$site/bigger.json" 8 0 1 1000 2 3 1000
echo '{ "size": 4, "entries": [[0, 1, 5], [1, 2, "x"]] }' >"$site/broken.json"
chmod 644 "$site"/*.json
cat >job.sh <<EOF
#!/bin/bash
srun -n4 "$TM_PROBE" >"$E2E_WORK/\$SLURM_JOB_NAME.out" 2>"$E2E_WORK/\$SLURM_JOB_NAME.err"
echo "srun: \$?"
EOF
chmod 755 job.sh

out=$(sbatch_wait -N2 -n4 -J recurring job.sh 2>&1)
check "sbatch -J recurring (no option) completes" test $? = 0
check_eq "auto=yes, recurring.json of the right size: no message" "$out$(cat recurring.err)" \
	"srun: 0"
tm_check_placed "auto=yes, recurring.json" 4 "$(sort -n recurring.out)"
TM_OUT=$(sort -n recurring.out) tm_check_helper "... placed with matrix_dir/recurring.json" \
	"$site/recurring.json" 4 "$slurm_n4" --topology this

out=$(sbatch_wait -N2 -n4 -J bigger job.sh 2>&1)
check "sbatch -J bigger (8 ranks in bigger.json, 4 tasks) completes" test $? = 0
check_eq "auto=yes, wrong size: no warning" "$out$(cat bigger.err)" "srun: 0"
TM_OUT=$(sort -n bigger.out)
check_eq "auto=yes, wrong size: 4 tasks, none with a SLURM_TREEMATCH_* variable" \
	"$(tm_col vars | uniq -c | awk '{ print $1, $2 }')" "4 -"
check_eq "auto=yes, wrong size: Slurm's own binding" "$(cut -d' ' -f1-3 <<<"$TM_OUT")" \
	"$(cut -d' ' -f1-3 <<<"$slurm_n4")"

out=$(sbatch_wait -N2 -n4 -J broken job.sh 2>&1)
check "sbatch -J broken (broken.json does not parse) completes" test $? = 0
check_match "auto=yes, broken file: a warning naming the file and the place" \
	"$(cat broken.err)" "^treematch: warning: auto=yes: $site/broken.json: entries\\[1\\]"
check_eq "... one line" "$(grep -c treematch broken.err)" 1
TM_OUT=$(sort -n broken.out)
check_eq "auto=yes, broken file: the 4 tasks run without SLURM_TREEMATCH_* variables" \
	"$(tm_col vars | uniq -c | awk '{ print $1, $2 }')" "4 -"

tm_run srun -Q -N2 -n4 -J no-such-matrix "$TM_PROBE"
check_eq "auto=yes, no file for the job name: exit 0, no message" "$TM_RC:$TM_ERR" "0:"
check_eq "... no SLURM_TREEMATCH_* variable" "$(tm_col vars | sort -u)" -

# ---- the report -------------------------------------------------------------------

# check_report DESC: TM_ERR holds exactly one report per node: a header,
# each of its ranks with the CPUs its task got and the cores the helper
# names, and its costs against packed and round-robin, all as the helper
# run by hand for that node's ranks says; when the helper says that every
# placement there costs the same (2 tasks on 2 cores), no cost and no
# "proven optimal", and the node of rank 0 says so once for the step.
check_report() {
	local desc=$1 node ranks want got json same has0 lines step
	local -a restrict
	check_eq "$desc: nothing else on stderr" \
		"$(grep -v "^treematch: n[0-9]*: " <<<"$TM_ERR")" ""
	for node in n1 n2; do
		ranks=$(tm_node_ranks "$node")
		restrict=(--restrict "$(tm_node_allowed "$node" "$slurm_n4")")
		got=$(grep "^treematch: $node: " <<<"$TM_ERR")
		json=$("$TM_HELPER" map --matrix m.json --topology this --ntasks 4 \
			--ranks "$ranks" "${restrict[@]}")
		proven=$(grep -c '"proven-optimal":true' <<<"$json")
		same=0 has0=0
		tm_nothing_to_choose "$json" && same=1
		[[ ,$ranks, == *,0,* ]] && has0=1
		if [ "$same" = 1 ]; then
			lines=$((3 + has0))
			want="3 lines (no cost: nothing to choose)"
			[ "$has0" = 0 ] || want="4 lines (no cost, the step's line: rank 0 is here)"
		else
			lines=$((4 + proven))
			want="4 lines, 5 when proven optimal"
		fi
		check_eq "$desc: $node: one report of $want" \
			"$(grep -c . <<<"$got")" "$lines"
		check_eq "$desc: $node: its two ranks, which only talk to each other here, are proven optimally placed" \
			"$proven" 1
		check_eq "$desc: $node: 'proven optimal' exactly when the helper proves it and there was a choice" \
			"$(grep -c "^treematch: $node: proven optimal: no placement of these tasks on this node costs less\$" <<<"$got")" \
			"$((proven && !same))"
		step=$(grep -oE "^treematch: $node: nothing to choose here \(every placement of these tasks costs the same\), nor on any node of step [0-9]+\.[0-9]+ whose report shows no cost\$" <<<"$got" | grep -c .)
		check_eq "$desc: $node: 'nothing to choose' once for the step, from rank 0's node, when the helper's costs are all the same" \
			"$step" "$((same && has0))"
		check_match "$desc: $node: a header for the step" "$got" \
			"^treematch: $node: 2 tasks of step [0-9]+\\.[0-9]+ placed on CPUs ${restrict[1]}\$"
		want=$(grep -o '"rank":[0-9]*,"cpus":"[^"]*","cores":\[[^]]*\]' <<<"$json" |
			sed 's/"rank":\([0-9]*\),"cpus":"\([^"]*\)","cores":\[\([^]]*\)\]/\1 \2 \3/' |
			while read -r rank cpus cores; do
				case $cores in *,*) s=s ;; *) s= ;; esac
				echo "treematch: $node:   rank $rank -> CPUs $cpus (core$s $cores)"
			done)
		check_eq "$desc: $node: each rank, its CPUs and cores, as the helper says" \
			"$(grep ' rank ' <<<"$got")" "$want"
		check_eq "$desc: $node: each rank's CPUs are its task's SLURM_TREEMATCH_CPUS" \
			"$(grep ' rank ' <<<"$got" | awk '{ print $4, $7 }')" "$(tm_node_cpus "$node")"
		want=$(grep -o '"cost":{[^}]*}' <<<"$json" | tr '{},:' '    ' | awk -v node="$node" '
			{ t = $3; p = $5; r = $7
			  printf "treematch: %s: cost treematch %.6g, packed %.6g (x%.2f), round-robin %.6g (x%.2f)\n",
				node, t, p, (t > 0 ? p / t : 1), r, (t > 0 ? r / t : 1) }')
		[ "$same" = 0 ] || want=""
		check_eq "$desc: $node: its cost against packed and round-robin, as the helper says (none: nothing to choose)" \
			"$(grep ': cost ' <<<"$got")" "$want"
	done
}

tm_plugstack required
# 0-2 and 1-3 talk most: packed (0,1 | 2,3 on a node) costs more
tm_matrix m.json 4 0 2 1000 1 3 1000 0 1 10 2 3 10
tm_run srun -Q -N2 -n4 --comm-matrix=m.json --comm-matrix-report "$TM_PROBE"
check_eq "srun --comm-matrix-report exits 0" "$TM_RC" 0
tm_check_placed "with --comm-matrix-report" 4
check_report "--comm-matrix-report"
tm_run srun -Q -N2 -n4 --comm-matrix=m.json "$TM_PROBE"
check_eq "without --comm-matrix-report (report=no): no report" "$TM_RC:$TM_ERR" "0:"

tm_plugstack required report=yes
tm_run srun -Q -N2 -n4 --comm-matrix=m.json "$TM_PROBE"
check_eq "report=yes: srun exits 0" "$TM_RC" 0
check_report "report=yes"
tm_run srun -Q -N2 -n4 "$TM_PROBE"
check_eq "report=yes, a step without a matrix: no report, no variable" \
	"$TM_RC:$TM_ERR:$(tm_col vars | sort -u)" "0::-"

check "no daemon died, the next job runs" cluster_healthy
e2e_finish
