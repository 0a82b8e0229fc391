#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# machines-cli.sh - treematch-helper map on real machines as a user runs it:
# hybrid processors (--cpu-kinds, the kinds in the text report), level
# costs by name on machines of different depths, hwloc 3 XML files, offline
# CPUs in --restrict, the oversubscription warning with --cpus-per-task,
# the note on an unused package.  The machines are read from the corpus
# (../shared/topologies or $TM_TOPOLOGIES) at test time; without it those
# checks are left out, and the line that says so is not a failure.
set -u
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/unit/cli-lib.sh"
corpus=${TM_TOPOLOGIES:-$top_srcdir/../shared/topologies}

if [ ! -x "$helper" ]; then
	echo "not ok - $helper is built"
	exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/tm-machines.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

# A ring of n ranks.
ring() {
	local n=$1 i sep=
	printf '{"size": %d, "entries": [' "$n"
	for ((i = 0; i + 1 < n; i++)); do
		printf '%s[%d, %d, 100]' "$sep" "$i" $((i + 1))
		sep=", "
	done
	printf ']}\n'
}
ring 4 >r4.json
ring 8 >r8.json
ring 100 >r100.json

# "cpus" of every rank, one list
cpus_of() { grep -o '"cpus":"[^"]*"' | sed 1d | sed 's/"cpus":"\(.*\)"/\1/' | paste -sd' ' -; }

# --- hwloc 3 XML: a v2 fixture whose version says 3.0 ---------------------
sed -e 's/<topology version="2.0">/<topology version="3.0">/' \
    -e 's/hwloc2.dtd/hwloc3.dtd/' \
    "$top_srcdir/tests/data/topo-2pack-16core-smt2.xml" >v3.xml
err=$("$helper" map --matrix r4.json --topology xml:v3.xml 2>&1 >/dev/null)
rc=$?
check_eq "hwloc 3 XML: exit 1" "$rc" 1
check_ematch "hwloc 3 XML: what is wrong and what to do" "$err" \
	"^treematch-helper: xml:v3.xml: cannot load: hwloc XML version 3 \\(hwloc 3's format\\) is newer than this hwloc 2\\.[0-9.]+ reads: export it with \`lstopo --export-xml-flags v2\` \\(hwloc 3\\), or run with an hwloc that reads it$"
printf 'not xml\n' >junk.xml
err=$("$helper" map --matrix r4.json --topology xml:junk.xml 2>&1 >/dev/null)
check_eq "a file that is not XML: the message as before" "$err" \
	"treematch-helper: xml:junk.xml: cannot load: not an hwloc XML topology"

# --- --cpus-per-task and oversubscription: cores and slots, not slots as cores
err=$("$helper" map --matrix r100.json --topology "synthetic:pack:2 core:18" \
	--cpus-per-task 4 2>&1 >/dev/null)
check_eq "100 ranks of 4 cores on 36 cores: the warning counts both" "$err" \
	"treematch-helper: warning: 100 ranks of 4 cores each on 36 cores: 9 slots of 4, up to 12 ranks share one"

# --- fewer ranks than cores on two sockets: the text report says so --------
out=$("$helper" map --matrix r4.json --topology "synthetic:pack:2 core:4" --format text)
check_ematch "4 ranks on 2 packages of 4 cores: the report points to spread" "$out" \
	"^note: the 4 ranks use 1 of the 2 Package: they share its memory bandwidth; --algorithm spread"
out=$("$helper" map --matrix r8.json --topology "synthetic:pack:2 core:4" --format text)
check_eq "8 ranks on 8 cores: no note" "$(grep -c '^note' <<<"$out")" 0

# --- level costs: positional errors name the levels -------------------------
err=$("$helper" map --matrix r4.json --topology "synthetic:pack:2 l3:2 core:2" --level-costs 10,1 2>&1 >/dev/null)
check_eq "--level-costs with the wrong count names the levels" "$err" \
	"treematch-helper: map: --level-costs 10,1: expected 3 numbers, root level first (or costs by level name such as numa=100,l3=30,core=1); this tree's levels, root first: Machine+NUMA, Package, L3 (try treematch-helper --help)"
err=$("$helper" map --matrix r4.json --topology "synthetic:pack:2 l3:2 core:2" --level-costs l9x=1 2>&1 >/dev/null)
rc=$?
check_eq "--level-costs with an unknown name: exit 2" "$rc" 2
err=$("$helper" map --matrix r4.json --topology "synthetic:pack:2 l3:2 core:2" --level-costs package=1,l3=5 2>&1 >/dev/null)
check_eq "--level-costs growing downwards names both levels" "$err" \
	"treematch-helper: map: --level-costs package=1,l3=5: L3 costs 5, more than Package above it (1): expected costs that do not grow from the root down (try treematch-helper --help)"
costs() { # TOPOLOGY [OPTIONS]: the level costs of the text report
	"$helper" map --matrix r4.json --topology "$@" --format text 2>/dev/null |
		sed -n 's/^cost (lower is better), level costs //p'
}
check_eq "named costs, in any case, network ignored (synthetic)" \
	"$(costs "synthetic:pack:2 l3:2 core:2" --level-costs NETWORK=1000,Package=100,l3=30,core=1)" \
	"Machine+NUMA=1000 Package=100 L3=30:"
check_eq "a level not named: ten times the level below" \
	"$(costs "synthetic:pack:2 l3:2 core:2" --level-costs l3=3)" \
	"Machine+NUMA=300 Package=30 L3=3:"
check_eq "positional costs as before" \
	"$(costs "synthetic:pack:2 l3:2 core:2" --level-costs 50,20,2)" \
	"Machine+NUMA=50 Package=20 L3=2:"

if [ ! -d "$corpus" ]; then
	echo "# $corpus is absent: the checks on real machines are not run here (set TM_TOPOLOGIES to its folder)"
	echo "# $((failed)) failed"
	[ "$failed" -eq 0 ]
	exit
fi

# --- one site-wide spec on machines of different depths ---------------------
spec=numa=100,l3=30,l2=10,core=1,network=1000
check_eq "named costs on a 4-socket Xeon (2 levels)" \
	"$(costs "xml:$corpus/linux__16em64t-4s2c2t.xml" --level-costs $spec)" \
	"Machine+NUMA=100 L3=30:"
check_eq "named costs on a 128-core Arm (4 levels; Package, Machine by the rule)" \
	"$(costs "xml:$corpus/linux__128arm-2pa2n8cluster4co.xml" --level-costs $spec)" \
	"Machine=3000 Package=300 L3+NUMA=30 Group0=1:"
check_eq "named costs on Raptor Lake's whole node (L3, L2)" \
	"$(costs "xml:$corpus/x86__Intel-RaptorLake-Corei7-1370P.xml" --level-costs $spec --cpu-kinds equal)" \
	"L3+NUMA=30 L2=10:"
check_eq "named costs with --bind pu: core is the pair of hyperthreads" \
	"$(costs "xml:$corpus/linux__16em64t-4s2c2t.xml" --level-costs $spec --bind pu)" \
	"Machine+NUMA=100 L3=30 Core=1:"

# --- hybrid processors ------------------------------------------------------
raptor=xml:$corpus/x86__Intel-RaptorLake-Corei7-1370P.xml
out=$("$helper" map --matrix r4.json --topology "$raptor")
check_eq "Raptor Lake, 4 ranks: on performance cores (PUs 0-11)" \
	"$(cpus_of <<<"$out")" "0-1 2-3 4-5 6-7"
out=$("$helper" map --matrix r4.json --topology "$raptor" --format text)
check_ematch "the text report lists the kinds, most powerful first" "$out" \
	"^cpu kinds, most powerful first: IntelCore \(CPUs 0-11\), IntelAtom \(CPUs 12-19\)$"
check_ematch "the text report says where the ranks were kept" "$out" \
	"^cpu kinds: the 4 ranks kept on IntelCore cores, the most powerful first"
out=$("$helper" map --matrix r8.json --topology "$raptor" --format text)
check_ematch "Raptor Lake, 8 ranks: every performance core, then 2 efficiency cores" "$out" \
	"^cpu kinds: the 8 ranks kept on IntelCore cores \(all of them\) and 2 IntelAtom cores"
out=$("$helper" map --matrix r4.json --topology "$raptor" --cpu-kinds equal)
check_eq "--cpu-kinds equal: TreeMatch's choice as before (the shared L2)" \
	"$(cpus_of <<<"$out")" "12 13 14 15"
"$helper" map --matrix r4.json --topology "$raptor" --cpu-kinds fast >/dev/null 2>&1
check_eq "--cpu-kinds fast: exit 2" "$?" 2
out=$("$helper" map --matrix r4.json --topology "xml:$corpus/x86__AMD-1Ah-Zen5StrixPoint-RyzenAI9HX370.xml")
check_eq "Strix Point, 4 ranks: on the Zen 5 cores (0-3, 12-15)" \
	"$(cpus_of <<<"$out")" "$(cpus_of <<<"$out" | tr ' ' '\n' | grep -Ex '(0|1|2|3|12|13|14|15)(,(0|1|2|3|12|13|14|15))*' | paste -sd' ' -)"
out=$("$helper" map --matrix r4.json --topology "xml:$corpus/x86linux__5intel64-hybrid-lakefield.xml")
check_ematch "Lakefield, 4 ranks: the one big core is used" "$(cpus_of <<<"$out")" "(^| )4( |$)"

# --- offline CPUs in --restrict ---------------------------------------------
offl=xml:$corpus/xml__16em64t-4s2c2t-offlines.xml
err=$("$helper" map --matrix r4.json --topology "$offl" --restrict 0-1,5 2>&1 >/dev/null)
check_eq "--restrict with an offline CPU says offline" "$err" \
	"treematch-helper: --restrict 0-1,5: CPUs 5 are offline in topology $offl (online: 0-1,3-4,6,12,15)"
err=$("$helper" map --matrix r4.json --topology "$offl" --restrict 5,40 2>&1 >/dev/null)
check_eq "--restrict with offline and missing CPUs tells them apart" "$err" \
	"treematch-helper: --restrict 5,40: CPUs 5 are offline and CPUs 40 are not in topology $offl (online: 0-1,3-4,6,12,15)"

# --- the same output from two processes -------------------------------------
for f in linux__128arm-2pa2n8cluster4co.xml x86__Intel-ArrowLake-CoreUltra5-225U.xml linux__nvidia-dgx-gb10.xml; do
	a=$("$helper" map --matrix r8.json --topology "xml:$corpus/$f" | sed 's/"seconds":[^}]*//')
	b=$("$helper" map --matrix r8.json --topology "xml:$corpus/$f" | sed 's/"seconds":[^}]*//')
	check_eq "$f: the same placement from two runs" "$a" "$b"
done

echo "# $failed failed"
[ "$failed" -eq 0 ]
