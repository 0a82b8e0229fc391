#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 10-bind.sh - srun --comm-matrix binds every task where treematch-helper
# placed it, different matrices give different bindings, --export=NONE
# works, and a step without the option is exactly what Slurm alone gives.
set -u
# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
# shellcheck source=tests/e2e/plugin.sh
. "$top_srcdir/tests/e2e/plugin.sh"
tm_start 2

check "srun --help lists --comm-matrix (the plugin is loaded)" \
	grep -q -- '--comm-matrix=FILE' <(srun --help 2>&1)

# ---- srun -N2 -n4 --comm-matrix ------------------------------------------------

# 0-1 and 2-3 talk most, 1-2 a little
tm_matrix m4.json 4 0 1 1000 2 3 1000 1 2 10
tm_slurm_binding srun -Q -N2 -n4 "$TM_PROBE"
slurm_n4=$TM_OUT
check_eq "without the plugin, srun -N2 -n4 runs 4 tasks" "$(grep -c . <<<"$slurm_n4")" 4

tm_run srun -Q -N2 -n4 --comm-matrix=m4.json "$TM_PROBE"
check_eq "srun -N2 -n4 --comm-matrix=m4.json exits 0" "$TM_RC" 0
check_eq "... and says nothing on stderr" "$TM_ERR" ""
tm_check_placed "-N2 -n4" 4
check_match "... on both nodes" "$(awk '{ print $2 }' <<<"$TM_OUT" | sort -u | paste -sd' ' -)" '^n1 n2$'
tm_check_helper "-N2 -n4: each node's CPUs are what treematch-helper map gives its ranks" \
	m4.json 4 "$slurm_n4" --topology this
placed_n4=$TM_OUT

# With --cpu-bind=none Slurm leaves every task on the whole node; the plugin
# still binds each task to its own CPUs.
tm_slurm_binding srun -Q -N2 -n4 --cpu-bind=none "$TM_PROBE"
read -r node_cpus </sys/devices/system/cpu/online
check_eq "without the plugin, --cpu-bind=none leaves each task on all the node's CPUs" \
	"$(tm_col allowed | sort -u)" "$node_cpus"
tm_run srun -Q -N2 -n4 --cpu-bind=none --comm-matrix=m4.json "$TM_PROBE"
check_eq "--cpu-bind=none --comm-matrix=m4.json: exit 0, no message" "$TM_RC:$TM_ERR" "0:"
tm_check_placed "--cpu-bind=none" 4
check_eq "--cpu-bind=none: the same placement as without it" \
	"$(tm_col cpus)" "$(tm_col cpus "$placed_n4")"

# ---- different matrices, different bindings (4 tasks per node on 2 CPUs) -------

# srun -O -N2 -n8 alone gets one CPU per node; inside a 2-CPU-per-node
# allocation an overcommitted step has both.
tm_matrix A.json 8 0 1 1000 2 3 1000 4 5 1000 6 7 1000
tm_matrix B.json 8 0 2 1000 1 3 1000 4 6 1000 5 7 1000
cat >overcommit.sh <<EOF
#!/bin/bash
for m in A B; do
	srun -Q -O -n8 --comm-matrix=\$m.json "$TM_PROBE" >\$m.out 2>\$m.err
	echo "\$m: \$?"
done
srun -Q -O -n8 "$TM_PROBE" >none.out 2>&1
echo "none: \$?"
EOF
chmod 755 overcommit.sh
tm_run salloc -Q -N2 -n4 ./overcommit.sh
check_eq "salloc -N2 -n4: srun -O -n8 with A, with B and without exit 0" "$TM_OUT" \
	"A: 0
B: 0
none: 0"
a_out=$(sort -n A.out) b_out=$(sort -n B.out) none_out=$(sort -n none.out)
check_eq "A: no message on stderr" "$(cat A.err)" ""
tm_check_placed "A (-O -n8)" 8 "$a_out"
tm_check_placed "B (-O -n8)" 8 "$b_out"
check_eq "A: ranks 0-1, 2-3, 4-5, 6-7 share a CPU" "$(tm_groups "$a_out")" \
	"n1:0,1/2,3 n2:4,5/6,7"
check_eq "B: ranks 0-2, 1-3, 4-6, 5-7 share a CPU" "$(tm_groups "$b_out")" \
	"n1:0,2/1,3 n2:4,6/5,7"
TM_OUT=$a_out tm_check_helper "A: each node's CPUs are what treematch-helper map gives" \
	A.json 8 "$none_out" --topology this
TM_OUT=$b_out tm_check_helper "B: each node's CPUs are what treematch-helper map gives" \
	B.json 8 "$none_out" --topology this
check_eq "the same step without --comm-matrix has no SLURM_TREEMATCH_* variable" \
	"$(tm_col vars "$none_out" | sort -u)" -

# ---- --export=NONE --------------------------------------------------------------

tm_run srun -Q -N2 -n4 --export=NONE --comm-matrix=m4.json "$TM_PROBE"
check_eq "--export=NONE: srun exits 0" "$TM_RC" 0
tm_check_placed "--export=NONE" 4
check_eq "--export=NONE: the same CPUs as with the environment" \
	"$(tm_col cpus)" "$(tm_col cpus "$placed_n4")"

# ---- without --comm-matrix: Slurm's own binding, nothing of ours ---------------

for shape in "-N2 -n4" "-N2 -n2" "-N1 -n1" "-N2 -n2 -c2" "-N2 -n4 --cpu-bind=none" \
	"-N2 -n4 --export=NONE"; do
	read -ra opts <<<"$shape"
	tm_slurm_binding srun -Q "${opts[@]}" "$TM_PROBE"
	slurm=$TM_OUT
	tm_run srun -Q "${opts[@]}" "$TM_PROBE"
	check_eq "srun $shape without --comm-matrix: exit 0, stderr empty" \
		"$TM_RC:$TM_ERR" "0:"
	check_eq "srun $shape without --comm-matrix: no SLURM_TREEMATCH_* variable" \
		"$(tm_col vars | sort -u)" -
	check_eq "srun $shape without --comm-matrix: exactly Slurm's own binding" \
		"$(cut -d' ' -f1-3 <<<"$TM_OUT")" "$(cut -d' ' -f1-3 <<<"$slurm")"
done

# Variables of the plugin's left in the user's environment (an srun run from
# a placed task has them) are not an option.
tm_run env SLURM_TREEMATCH_MATRIX="$E2E_WORK/m4.json" SLURM_TREEMATCH_REPORT=yes \
	SLURM_TREEMATCH_ABORT=stale SLURM_TREEMATCH_CPUS=0 SLURM_TREEMATCH_STATUS=applied \
	srun -Q -N2 -n4 "$TM_PROBE"
check_eq "stale SLURM_TREEMATCH_* variables without --comm-matrix: exit 0, no message" \
	"$TM_RC:$TM_ERR" "0:"
check_eq "... no SLURM_TREEMATCH_* variable in the tasks" "$(tm_col vars | sort -u)" -
check_eq "... and Slurm's own binding" "$(cut -d' ' -f1-3 <<<"$TM_OUT")" \
	"$(cut -d' ' -f1-3 <<<"$slurm_n4")"

check "no daemon died, the next job runs" cluster_healthy
e2e_finish
