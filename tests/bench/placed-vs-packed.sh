#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# placed-vs-packed.sh [BUILDDIR] - a real MPI kernel on this machine's real
# cores, bound as treematch-helper places it against packed (rank i on
# core i, Slurm's block binding) and round-robin, in one run: the kernel is
# profiled once (commprof), each placement is computed on this machine's
# topology (`--topology this`), then the three bindings run RUNS times each,
# interleaved, and the medians and their ratios to packed are printed.
# Needs Open MPI's mpirun and a built tree (the helper, the profiler, the
# examples); with LEVEL_COSTS=FILE the helper takes measured level costs
# (`--level-costs @FILE`, treematch-helper probe).  Not run by make check.
#
#   NP=16 RUNS=5 KERNEL="halo2d 4 4 300 400" tests/bench/placed-vs-packed.sh build
#
# Each rank binds itself (taskset) to the CPUs its placement gives, so the
# same mpirun line runs every binding; OUT=DIR keeps the matrix, the
# placements and the timings there.
set -u
build=$(cd "${1:-.}" && pwd)
np=${NP:-16}
runs=${RUNS:-5}
kernel=${KERNEL:-halo2d 4 4 300 400}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
helper=$build/helper/treematch-helper
lib=$build/contrib/profiler/.libs/libcommprof.so
prog=$build/contrib/examples/${kernel%% *}
args=${kernel#* }
mpirun=${MPIRUN:-mpirun}
say() { printf '%s\n' "$*" | tee -a "$out/summary.txt"; }

for f in "$helper" "$lib" "$prog"; do
	[ -e "$f" ] || { echo "placed-vs-packed.sh: $f is missing (build the tree first)" >&2; exit 1; }
done
root=()
[ "$(id -u)" = 0 ] && root=(--allow-run-as-root)
# shared memory and self only: the ranks are on one machine
mpi=("$mpirun" "${root[@]}" -np "$np" --oversubscribe --bind-to none
	--mca pml ob1 --mca btl self,vader)

# bind.sh PLACEMENT: rank r execs the kernel on the CPUs of line r
cat >"$out/bind.sh" <<'EOF'
#!/bin/sh
placement=$1
shift
rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}
cpus=$(sed -n "$((rank + 1))p" "$placement")
exec taskset -c "$cpus" "$@"
EOF
chmod 755 "$out/bind.sh"

say "# $(nproc) CPUs, $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)"
say "# kernel: $kernel on $np ranks, $runs runs of each binding, interleaved"

# 1. the kernel's matrix, from one profiled run
if ! "${mpi[@]}" -x LD_PRELOAD="$lib" -x COMMPROF_OUTPUT="$out/matrix.json" \
	"$prog" $args >"$out/profile.log" 2>&1 || [ ! -s "$out/matrix.json" ]; then
	# the library's own output variable may differ: commprof's -o
	COMMPROF_LIBRARY=$lib "${mpi[@]}" "$build/contrib/profiler/commprof" \
		-o "$out/matrix.json" "$prog" $args >"$out/profile.log" 2>&1
fi
[ -s "$out/matrix.json" ] || { cat "$out/profile.log" >&2; echo "no matrix" >&2; exit 1; }

# 2. the placements on this machine
costs=()
[ -n "${LEVEL_COSTS:-}" ] && costs=(--level-costs "@$LEVEL_COSTS")
for policy in treematch packed round-robin; do
	extra=()
	[ "$policy" = treematch ] && extra=("${costs[@]}")
	"$helper" map --matrix "$out/matrix.json" --topology this \
		--algorithm "$policy" "${extra[@]}" --format json >"$out/$policy.json" ||
		exit 1
	# one line per rank: its CPUs
	python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["placement"]
for e in sorted(p, key=lambda e: e["rank"]):
    print(e["cpus"])' "$out/$policy.json" >"$out/$policy.cpus" || exit 1
done

# 3. the runs, interleaved
now() { date +%s.%N; }
for ((i = 1; i <= runs; i++)); do
	for policy in treematch packed round-robin; do
		t0=$(now)
		"${mpi[@]}" "$out/bind.sh" "$out/$policy.cpus" "$prog" $args \
			>"$out/run.log" 2>&1 || { cat "$out/run.log" >&2; exit 1; }
		echo "$policy $(awk -v a="$(now)" -v b="$t0" 'BEGIN { printf "%.4f", a - b }')" >>"$out/times.txt"
	done
done
median() { grep "^$1 " "$out/times.txt" | awk '{ print $2 }' | sort -n |
	awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
packed=$(median packed)
for policy in treematch packed round-robin; do
	m=$(median "$policy")
	say "$(printf '%-12s median %8.3f s   x%.3f of packed   (placement cost %s)' \
		"$policy" "$m" "$(awk -v a="$m" -v b="$packed" 'BEGIN { print a / b }')" \
		"$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1])).get("cost",{}); print(c.get(sys.argv[2], "?"))' "$out/$policy.json" "$policy")")"
done
