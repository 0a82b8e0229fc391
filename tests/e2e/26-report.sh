#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 26-report.sh - --comm-matrix-report where there is nothing to report:
# srun -N2 -n8 -O gets one CPU per node from Slurm, and the report says
# that every task of the node shares it and nothing could be chosen
# (rather than "cost 0 ... proven optimal"); salloc --exclusive gives the
# whole nodes and the report compares costs again; the option on a step
# without a matrix says that there is nothing to report; --comm-matrix-svg
# writes one picture per node, whose title names its job, step and node.
set -u
# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
# shellcheck source=tests/e2e/plugin.sh
. "$top_srcdir/tests/e2e/plugin.sh"
tm_start 2

# 8 ranks, pairs (i, i+1) of even i talk most
tm_matrix m8.json 8 0 1 1000 2 3 1000 4 5 1000 6 7 1000 1 2 10 5 6 10

tm_run srun -Q -N2 -n8 -O --comm-matrix=m8.json --comm-matrix-report "$TM_PROBE"
check_eq "srun -N2 -n8 -O --comm-matrix-report exits 0" "$TM_RC" 0
cpus=$(tm_col allowed | sort -u | paste -sd' ' -)
if [ "$(tm_col allowed | sort -u | grep -c '^[0-9]*$')" = "$(tm_col allowed | sort -u | grep -c .)" ] &&
	[ "$(awk '{ print $2, $3 }' <<<"$TM_OUT" | sort -u | awk '{ print $1 }' | uniq -d)" = "" ]; then
	# one CPU per node: what the test cluster gives
	check_eq "... each node's report says that its 4 tasks share one CPU" \
		"$(grep -oE '^treematch: n[0-9]+: all 4 tasks share CPU [0-9]+: there was nothing to choose$' \
			<<<"$TM_ERR" | grep -c .)" 2
	check_eq "... and shows no cost nor 'proven optimal'" \
		"$(grep -E '^treematch: n[0-9]+: (cost|proven)' <<<"$TM_ERR")" ""
else
	echo "# Slurm gave more than one CPU per node ($cpus): the one-CPU case is not checked"
fi

tm_run salloc -Q -N2 --exclusive srun -Q -n8 -O --comm-matrix=m8.json \
	--comm-matrix-report "$TM_PROBE"
check_eq "salloc -N2 --exclusive srun -n8 -O --comm-matrix-report exits 0" "$TM_RC" 0
check_eq "... each node's report compares costs" \
	"$(grep -cE '^treematch: n[0-9]+: cost treematch ' <<<"$TM_ERR")" 2
check_eq "... and says nothing of a shared CPU" \
	"$(grep -E 'share CPU' <<<"$TM_ERR")" ""

tm_run srun -Q -N2 -n4 --comm-matrix-report "$TM_PROBE"
check_eq "--comm-matrix-report without a matrix: exit 0" "$TM_RC" 0
check_eq "... one line says that there is nothing to report" "$TM_ERR" \
	"treematch: --comm-matrix-report: this step uses no matrix, there is nothing to report"
check_eq "... and the tasks get no SLURM_TREEMATCH_* variable" "$(tm_col vars | sort -u)" -

# ---- --comm-matrix-svg: one picture per node, written as the user ----------

tm_matrix m4.json 4 0 1 1000 2 3 1000 1 2 10
rm -f treematch-*.svg
tm_run as_user srun -Q -N2 -n4 --comm-matrix=m4.json --comm-matrix-svg "$TM_PROBE"
check_eq "--comm-matrix-svg: exit 0" "$TM_RC" 0
check_eq "... one line per node names its picture" \
	"$(grep -cE '^treematch: wrote treematch-[0-9]+\.[0-9]+-n[12]\.svg$' <<<"$TM_ERR")" 2
for node in n1 n2; do
	f=$(ls treematch-*-"$node".svg 2>/dev/null | head -n 1)
	check "... $node's picture is in the working directory" test -s "$f"
	check_eq "... owned by the job's user, not root" "$(stat -c %U "$f" 2>/dev/null)" "$E2E_USER"
	check_match "... an SVG" "$(head -c 2000 "$f" 2>/dev/null)" '<svg'
	check_match "... that labels the node's ranks" "$(cat "$f" 2>/dev/null)" 'rank [0-3]'
	# the file's name says job.step-node: so does the picture's title
	jobstep=${f#treematch-}
	jobstep=${jobstep%-"$node".svg}
	check_match "... whose title names the job, the step and the node" \
		"$(cat "$f" 2>/dev/null)" \
		"class=\"heading\"[^>]*>2 ranks of job ${jobstep%.*}, step ${jobstep#*.} on node $node, "
	if command -v xmllint >/dev/null; then
		check "... well-formed XML" xmllint --noout "$f"
	fi
done
# the next job's name on n1 is taken by a link to a file of the test's:
# neither followed nor replaced, and the step runs all the same
job=$(sed -n 's/^treematch: wrote treematch-\([0-9]*\)\..*/\1/p' <<<"$TM_ERR" | head -n 1)
echo keep >kept.txt
ln -s kept.txt "treematch-$((job + 1)).0-n1.svg"
tm_run as_user srun -Q -N2 -n4 --comm-matrix=m4.json --comm-matrix-svg "$TM_PROBE"
check_eq "... a name already taken: the step runs" "$TM_RC" 0
check_match "... and one line says the picture was not written" "$TM_ERR" \
	"^treematch: --comm-matrix-svg: cannot write treematch-$((job + 1))\.0-n1\.svg"
check_eq "... the link's target is untouched" "$(cat kept.txt)" keep

check "no daemon died, the next job runs" cluster_healthy
e2e_finish
