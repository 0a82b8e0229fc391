#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-apps.sh - application run time under each placement, simulated by
# SimGrid's SMPI (make bench-apps; doc/bench-apps.md).
#
#   bench-apps.sh [CASES]      CASES: part of a case name, e.g. cg or
#                              /sandy-x32/ (as `make bench CASES=...`)
# Environment: SIZES="32 64" keeps those rank counts only; JOBS (2)
# simulations at once; MPIRUN_MAX (64): largest size profiled under
# mpirun, larger ones under SMPI; MPIPP_MAX (512): largest size placed
# by mpipp and mpipp1 (NA above); top_srcdir, top_builddir (make sets
# them); TOPOLOGIES: the folder of hwloc XML files (../shared/topologies).
#
# For every program x machine x size: profile once (commprof), then for
# every placement build the hostfile, simulate, and print the simulated
# run time; every run's checksum must equal the profiled run's.
set -u

src=$(cd "${top_srcdir:-.}" && pwd)
build=$(cd "${top_builddir:-.}" && pwd)
here=$src/tests/bench/apps
topologies=${TOPOLOGIES:-$src/../shared/topologies}
work=$build/tests/bench/apps/work
bin=$work/bin
filter=${1:-}
jobs=${JOBS:-2}
mpirun_max=${MPIRUN_MAX:-64}
# mpipp's passes try every core for every rank: at 1,024 ranks of 16
# nodes one placement had not ended after 2 minutes here, longer than the
# ten simulations of the case; it is a baseline, not the point
mpipp_max=${MPIPP_MAX:-512}
tmsim=$build/tests/bench/apps/tmsim
helper=$build/helper/treematch-helper
profiler_lib=$build/contrib/profiler/.libs/libcommprof.so
commprof=$build/contrib/profiler/commprof
host_speed=2e9

# The placements compared, peers first (what a user gets without the
# helper), then every policy of the helper.
peers="packed round-robin cyclic scotch"
policies="treematch mpipp mpipp1 setmatch hierarchical spread"

# SMPI: computation is what the kernels declare (kernel.h), not the time
# this machine takes; CM02 is the plain latency + size / bandwidth model
# with max-min sharing, so the platform's figures are the figures used.
# MPI_Alltoallv: a ring of exchanges; SMPI 3.32's default one stops on
# some placements (its max-min solver's precision), its pairwise one
# needs a power of two ranks.  (Open MPI's whole selector,
# smpi/coll-selector:ompi, makes 512-rank runs 7 times slower to simulate
# through its communicator creation.)
smpi_opts="--cfg=smpi/simulate-computation:no --cfg=network/model:CM02
 --cfg=smpi/alltoallv:ring
 --cfg=smpi/display-timing:yes --log=root.thres:warning
 --log=smpi_utils.thres:info"

die() { echo "bench-apps: $*" >&2; exit 1; }

for tool in smpicc smpirun mpicc mpirun scotch_gmap; do
	command -v $tool >/dev/null || die "$tool not found (make bench-apps installs libsimgrid-dev simgrid scotch; mpicc: openmpi-bin libopenmpi-dev)"
done
[ -x "$tmsim" ] || die "$tmsim: not built (make bench-apps builds it)"
[ -d "$topologies" ] || die "$topologies: no such folder of hwloc XML files (set TOPOLOGIES)"
mkdir -p "$bin" "$work/matrices" "$work/platforms" "$work/runs"

as_root=
[ "$(id -u)" = 0 ] && as_root=--allow-run-as-root

# --- building: each program three ways --------------------------------
# NAME.smpi simulates, NAME.prof is that plus the profiler linked in (for
# sizes mpirun cannot run here), NAME.mpi is the plain MPI build.
# the library's sources (not commprof-matrix's), and the mapping library
# its online mode links (never switched on here)
profiler_src=$(ls "$src"/contrib/profiler/*.c | grep -v '/commprof_matrix\.c$')
profiler_libs="$build/helper/.libs/libtreematch.a $build/helper/.libs/libtmcore.a -lhwloc -ljansson"
build_program() { # name source
	local name=$1 file=$src/tests/bench/apps/$2 inc
	case $2 in contrib/*) file=$src/$2 ;; esac
	inc="-I$(dirname "$file") -I$here/kernels"
	if [ ! -x "$bin/$name.mpi" ] || [ "$file" -nt "$bin/$name.mpi" ]; then
		rm -f "$bin/$name.smpi" "$bin/$name.prof" "$bin/$name.mpi"
		smpicc -O2 -DBENCH_SMPI $inc -o "$bin/$name.smpi" "$file" -lm 2>"$bin/$name.log" &&
		smpicc -O2 -DBENCH_SMPI $inc -I"$build" -I"$src/contrib/profiler" \
			-I"$src/helper/include" -o "$bin/$name.prof" \
			"$file" $profiler_src $profiler_libs -lm -lpthread 2>>"$bin/$name.log" &&
		mpicc -O2 $inc -o "$bin/$name.mpi" "$file" -lm 2>>"$bin/$name.log" ||
			die "cannot build $name (see $bin/$name.log)"
	fi
}

# --- arguments ---------------------------------------------------------
# "PX PY" become a near-square grid of n ranks
grid_args() { # n args...
	local n=$1 px=1 py; shift
	for ((py = 1; py * py <= n; py++)); do ((n % py == 0)) && px=$py; done
	py=$((n / px))
	echo "$*" | sed "s/PX/$py/; s/PY/$px/"
}

fits() { # takes n
	case $1 in
	any) return 0 ;;
	even) ((($2 % 2) == 0)) ;;
	mult4) ((($2 % 4) == 0)) ;;
	pow2) (((($2 & ($2 - 1))) == 0)) ;;
	esac
}

# --- machines ----------------------------------------------------------
machine_opts() { # topology nodes switches
	local spec=$1
	case $spec in *.xml) spec=xml:$topologies/$1 ;; esac
	echo "--topology $spec"
	[ "$2" -gt 1 ] && echo "--nodes $2 --switches $3"
}

# --- one simulation ------------------------------------------------------
simulate() { # n platform hostfile binary args... ; prints "time checksum"
	local n=$1 platform=$2 hostfile=$3 out log; shift 3
	# SMPI's report (stderr) apart from the program's lines (stdout):
	# stdout is block-buffered, and a flush that fell around SMPI's
	# report once cut a rank's "checksum" in two (pairs, 64 ranks)
	log=$(mktemp) || return 1
	out=$(smpirun -np "$n" -platform "$platform" -hostfile "$hostfile" \
		$smpi_opts "$@" 2>"$log")
	local t=$(sed -n 's/.*Simulated time: \([0-9.e+-]*\) seconds.*/\1/p' "$log")
	rm -f "$log"
	# the kernels print one checksum line from rank 0, the examples
	# one per rank: the sorted checksums stand for the run
	local sum=$(echo "$out" | grep -o 'checksum [0-9]*' | sort | md5sum | cut -c1-8)
	echo "${t:-NA} $sum"
}

profile() { # name n args... ; writes $work/matrices/name-n.json
	local name=$1 n=$2 m=$work/matrices/$1-$2.json; shift 2
	[ -s "$m" ] && return 0
	local flat=$work/platforms/flat-$n.xml hosts=$work/platforms/flat-$n.hosts
	"$tmsim" platform --topology "tree:$n" > "$flat" || return 1
	seq 0 $((n - 1)) | sed 's/^/c/' > "$hosts"
	if [ "$n" -le "$mpirun_max" ]; then
		COMMPROF_LIBRARY=$profiler_lib mpirun $as_root --oversubscribe \
			-np "$n" --mca mpi_yield_when_idle 1 "$commprof" -o "$m" \
			"$bin/$name.mpi" "$@" > "$m.out" 2>&1 || { cat "$m.out" >&2; return 1; }
		# the same program under SMPI must write the same matrix
		COMMPROF_OUTPUT=$m.smpi simulate "$n" "$flat" "$hosts" "$bin/$name.prof" "$@" >/dev/null
		if ! cmp -s "$m" "$m.smpi"; then
			echo "bench-apps: $name on $n ranks: the matrices of mpirun and SMPI differ ($m, $m.smpi)" >&2
		fi
	else
		COMMPROF_OUTPUT=$m simulate "$n" "$flat" "$hosts" "$bin/$name.prof" "$@" >/dev/null
	fi
	[ -s "$m" ]
}

place() { # policy matrix machine-options... ; placement JSON on stdout
	local policy=$1 m=$2; shift 2
	# one node: the helper itself, as a user runs it; a job of several
	# nodes: the same library on the composed tree (tmsim)
	case " $peers " in *" $policy "*) ;; *)
		if [ "$#" -eq 2 ]; then
			"$helper" map --matrix "$m" "$@" --algorithm "$policy" --format json
			return
		fi ;;
	esac
	"$tmsim" place "$@" --matrix "$m" --policy "$policy"
}

# --- one case: every placement of one profiled run -----------------------
all="$peers $policies"
results=$work/results.tsv

run_case() { # case name n platform program-args...
	local case=$1 name=$2 n=$3 platform=$4; shift 4
	local dir=$work/runs/${case//\//_} m=$work/matrices/$name-$n.json p
	local started=$SECONDS
	mkdir -p "$dir"
	if ! profile "$name" "$n" "$@"; then
		echo "bench-apps: $case: profiling failed" >&2
		return
	fi
	local ref=$(grep -o 'checksum [0-9]*' "$m.out" 2>/dev/null | sort | md5sum | cut -c1-8)
	for p in $all; do
		rm -f "$dir/$p.time"
		case $p in mpipp*) [ "$n" -le "$mpipp_max" ] || continue ;; esac
		if place "$p" "$m" "${mopts[@]}" > "$dir/$p.json" 2> "$dir/$p.err" &&
		   "$tmsim" hostfile "${mopts[@]}" --placement "$dir/$p.json" \
			--ranks "$n" > "$dir/$p.hosts" 2>> "$dir/$p.err"; then
			( simulate "$n" "$platform" "$dir/$p.hosts" "$bin/$name.smpi" "$@" \
				> "$dir/$p.time" ) &
			while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
		else
			echo "bench-apps: $case: $p: $(head -1 "$dir/$p.err")" >&2
		fi
	done
	wait
	local row="$case	$n" t sum first=
	for p in $all; do
		read -r t sum < "$dir/$p.time" 2>/dev/null || { t=NA; sum=; }
		[ -z "$first" ] && first=$sum
		# every placement must compute what every other computes, and
		# what the profiled mpirun run printed
		if [ -n "$sum" ] && { [ "$sum" != "$first" ] ||
			{ [ "$n" -le "$mpirun_max" ] && [ "$sum" != "$ref" ]; }; }; then
			echo "bench-apps: $case: $p: checksum differs" >&2
		fi
		row="$row	$t"
	done
	echo "$row" >> "$results"
	# wall time of the case (profile, placements, simulations), to
	# budget runs: doc/bench-apps.md gives them
	echo "$case	$((SECONDS - started))" >> "$work/case-times.tsv"
	echo "$row" | awk -f "$here/table.awk" -v mode=row
}

# --- all cases -------------------------------------------------------------
: > "$results"
awk -f "$here/table.awk" -v mode=header -v columns="$all" /dev/null
grep -v '^#' "$here/machines.list" | while read -r machine topo nodes switches progs sizes; do
	[ -n "$machine" ] || continue
	mopts=($(machine_opts "$topo" "$nodes" "$switches"))
	platform=$work/platforms/$machine.xml
	"$tmsim" platform "${mopts[@]}" --speed $host_speed > "$platform" ||
		die "$machine: no platform"
	for n in $sizes; do
		[ -z "${SIZES:-}" ] || case " $SIZES " in *" $n "*) ;; *) continue ;; esac
		grep -v '^#' "$here/programs.list" | while read -r -a f; do
			[ "${#f[@]}" -ge 4 ] || continue
			name=${f[0]} takes=${f[-2]} max=${f[-1]}
			case=$name/$machine/$n
			[ "$progs" = all ] || case ",$progs," in *",$name,"*) ;; *) continue ;; esac
			case $case in *"$filter"*) ;; *) continue ;; esac
			fits "$takes" "$n" && [ "$n" -le "$max" ] || continue
			build_program "$name" "${f[1]}"
			run_case "$case" "$name" "$n" "$platform" \
				$(grid_args "$n" "${f[@]:2:${#f[@]}-4}") < /dev/null
		done
	done
done
awk -f "$here/table.awk" -v mode=summary -v columns="$all" "$results"
