#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# launch-latency.sh - what --comm-matrix adds to a step's launch: on its own
# 2-node test cluster, `srun -N2 -n4 true` with and without --comm-matrix (a
# small valid matrix), alternately, RUNS times each, both as jobs of their
# own and as steps of one allocation; prints the median and mean of each and
# their ratio (with / without; the goal is below 1.10), then where the time
# goes: the helper alone, and hwloc's topology discovery, which the helper
# does once per node and step (slurmstepd itself never loads a topology:
# it passes Slurm's core numbers to the helper with --slurm-cores).
# A benchmark, not a test: run by hand, as root, from the top of the build
# tree (or with top_srcdir/top_builddir set):
#
#   tests/bench/launch-latency.sh            RUNS=30
#   RUNS=100 tests/bench/launch-latency.sh
set -u
# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
# shellcheck source=tests/e2e/plugin.sh
. "$top_srcdir/tests/e2e/plugin.sh"
e2e_require_root_and_slurm
RUNS=${RUNS:-30}

# stats LABEL FILE: "LABEL  median M ms  mean A ms  (min..max)" of the
# milliseconds in FILE, one a line; sets MEDIAN.
stats() {
	local label=$1 file=$2
	MEDIAN=$(sort -n "$file" | awk '{ v[NR] = $1 }
		END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
	sort -n "$file" | awk -v label="$label" -v median="$MEDIAN" '
		{ sum += $1; if (NR == 1) min = $1; max = $1 }
		END { printf "%-44s median %7.1f ms   mean %7.1f ms   (%d runs, %.1f..%.1f)\n",
			label, median, sum / NR, NR, min, max }'
}

# ratio A B: A / B to 3 decimals
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'; }

# time_ms CMD...: run CMD, print how long it took in ms (0.01 ms resolution)
time_ms() {
	local t0=$EPOCHREALTIME t1
	"$@" >/dev/null 2>&1 || echo "# failed: $*" >&2
	t1=$EPOCHREALTIME
	awk -v a="${t0/./}" -v b="${t1/./}" 'BEGIN { printf "%.2f\n", (b - a) / 1000 }'
}

tm_setup
cluster_start 2
cd "$E2E_WORK" || exit 1
tm_matrix m4.json 4 0 1 1000 2 3 1000 1 2 10
check "a placed step works" \
	bash -c "srun -Q -N2 -n4 --comm-matrix=m4.json printenv SLURM_TREEMATCH_STATUS | grep -qx applied"
echo "# $(nproc) CPUs, $RUNS runs of each, alternating, plugin $TM_SO"

# ---- srun -N2 -n4 true, each a job of its own -------------------------------------

: >jobs.without
: >jobs.with
for ((i = 0; i < RUNS; i++)); do
	tm_wait_idle	# else srun polls for the previous job's nodes
	time_ms srun -Q -N2 -n4 true >>jobs.without
	tm_wait_idle
	time_ms srun -Q -N2 -n4 --comm-matrix=m4.json true >>jobs.with
done
stats "srun -N2 -n4 true (a job each)" jobs.without
without=$MEDIAN
stats "srun -N2 -n4 --comm-matrix=m4.json true" jobs.with
echo "ratio with/without (medians): $(ratio "$MEDIAN" "$without")"

# ---- the same as steps of one allocation -------------------------------------------

cat >steps.sh <<EOF
#!/bin/bash
$(declare -f time_ms)
for ((i = 0; i < $RUNS; i++)); do
	time_ms srun -Q -n4 true >>steps.without
	time_ms srun -Q -n4 --comm-matrix=m4.json true >>steps.with
done
EOF
chmod 755 steps.sh
: >steps.without
: >steps.with
salloc -Q -N2 -n4 ./steps.sh
stats "srun -n4 true (steps of one salloc -N2 -n4)" steps.without
without=$MEDIAN
stats "srun -n4 --comm-matrix=m4.json true" steps.with
echo "ratio with/without (medians): $(ratio "$MEDIAN" "$without")"

# ---- where the time goes -------------------------------------------------------------

# As the plugin runs it: a clean environment ([VAR=VALUE...] -- ARGS...).
# shellcheck disable=SC2317 # called through time_ms
helper() {
	local -a vars=()
	while [ "$1" != -- ]; do vars+=("$1"); shift; done
	shift
	env -i PATH=/usr/bin:/bin LC_ALL=C "${vars[@]}" "$TM_HELPER" map \
		--matrix m4.json --ranks 0,1 --ntasks 4 --format json "$@"
}
for f in helper.this helper.noplugins helper.synthetic true.exec hwloc.load; do : >"$f"; done
for ((i = 0; i < RUNS; i++)); do
	time_ms helper -- --topology this --restrict 0-1 >>helper.this
	time_ms helper HWLOC_PLUGINS_PATH=/nonexistent -- --topology this --restrict 0-1 \
		>>helper.noplugins
	time_ms helper -- --topology "synthetic:pack:1 core:2 pu:1" >>helper.synthetic
	time_ms /bin/true >>true.exec
	time_ms lstopo-no-graphics --of synthetic >>hwloc.load
done
stats "treematch-helper map, this machine" helper.this
stats "... without hwloc's plugins (HWLOC_PLUGINS_PATH)" helper.noplugins
stats "... on a synthetic topology (no discovery)" helper.synthetic
stats "fork + exec of /bin/true" true.exec
stats "lstopo-no-graphics (hwloc discovery + print)" hwloc.load
echo "hwloc plugins installed: $(find /usr/lib/*/hwloc -name '*.so' -printf '%f ' 2>/dev/null)"
grep -h 'tasks placed' "$E2E_CLUSTER_DIR"/log/slurmd-n1.log | tail -n 1 | sed 's/^/# last slurmd line: /'
e2e_finish
