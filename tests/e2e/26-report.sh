#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 26-report.sh - --comm-matrix-report where there is nothing to report:
# srun -N2 -n8 -O gets one CPU per node from Slurm, and the report says
# that every task of the node shares it and nothing could be chosen
# (rather than "cost 0 ... proven optimal"); salloc --exclusive gives the
# whole nodes and the report compares costs again; the option on a step
# without a matrix says that there is nothing to report.
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

check "no daemon died, the next job runs" cluster_healthy
e2e_finish
