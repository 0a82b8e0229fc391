#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# policies-cli.sh - treematch-helper map with --algorithm setmatch,
# hierarchical and spread, as a user runs it: the JSON (the policy's cost
# first, then treematch, packed and round-robin), the policies' own options
# (--threshold, --set-cap, --previous), their errors and the help text.
set -u
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/unit/cli-lib.sh"

if [ ! -x "$helper" ]; then
	echo "not ok - $helper is built"
	exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/tm-policies.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

# Table I of Cruz Valdivia et al.'s hierarchical assignment report: the hierarchical order is 0 6 1 7 2 5 3 4.
cat >table1.json <<'EOF'
{"size": 8, "matrix": [
 [0, 100, 19, 12, 19, 11, 2511, 223],
 [100, 0, 12, 12, 25, 28, 223, 1412],
 [19, 12, 0, 223, 251, 1584, 17, 10],
 [12, 12, 223, 0, 1995, 112, 17, 17],
 [19, 25, 251, 1995, 0, 158, 17, 12],
 [11, 28, 1584, 112, 158, 0, 25, 19],
 [2511, 223, 17, 17, 17, 25, 0, 100],
 [223, 1412, 10, 17, 12, 19, 100, 0]]}
EOF
# four pairs, heaviest 2-3, then 4-5, 6-7, 0-1
cat >pairs.json <<'EOF'
{"size": 8, "entries": [[0, 1, 10], [2, 3, 40], [4, 5, 30], [6, 7, 20]]}
EOF
numa="synthetic:pack:2 numa:2 core:2 pu:1"

# Fields of the helper's JSON (one line, keys in a fixed order: tm_report.h)
# placement FILE: "R:CPUS" for each rank, in the order printed
placement() {
	grep -o '"rank":[0-9]*,"cpus":"[^"]*"' "$1" |
		sed 's/"rank":\([0-9]*\),"cpus":"\([^"]*\)"/\1:\2/' | paste -sd' ' -
}
# object_keys NAME FILE: the keys of the object "NAME", in order
object_keys() {
	grep -o "\"$1\":{[^}]*}" "$2" | sed "s/\"$1\":{//; s/}//" | tr ',' '\n' |
		sed 's/^"\([^"]*\)":.*/\1/' | paste -sd' ' -
}
# cost NAME FILE: the cost of NAME
cost() {
	grep -o '"cost":{[^}]*}' "$2" | grep -o "\"$1\":[^,}]*" | cut -d: -f2
}

# every policy of the table but the three each report compares against
others=$("$helper" policies | cut -f1 | grep -vx 'treematch\|packed\|round-robin')
check_eq "treematch-helper policies lists the papers' policies" \
	"$(echo $others | grep -o 'setmatch hierarchical spread')" "setmatch hierarchical spread"
for policy in $others; do
	"$helper" map --matrix table1.json --topology tree:2,2,2 \
		--algorithm "$policy" >"$policy.json" 2>"$policy.err"
	check_eq "--algorithm $policy: exit 0, nothing on stderr" \
		"$?:$(cat "$policy.err")" "0:"
	check_eq "--algorithm $policy: \"algorithm\" names it" \
		"$(grep -o '"algorithm":"[^"]*"' "$policy.json")" "\"algorithm\":\"$policy\""
	check_eq "--algorithm $policy: its cost first, beside treematch, packed and round-robin" \
		"$(object_keys cost "$policy.json")" \
		"$policy treematch packed round-robin"
	check_eq "--algorithm $policy: hop-bytes for the same four" \
		"$(object_keys hop-bytes "$policy.json")" \
		"$policy treematch packed round-robin"
	check_eq "--algorithm $policy: 8 ranks on 8 distinct CPUs" \
		"$(placement "$policy.json" | tr ' ' '\n' | cut -d: -f2 | sort -u | wc -l)" 8
	"$helper" map --matrix table1.json --topology tree:2,2,2 \
		--algorithm "$policy" --format text >"$policy.txt"
	check_eq "--format text: the $policy placement, its cost on the first line of costs" \
		"$(sed -n '1s/ .*//p; /^cost/{n;s/^ *\([^ ]*\) .*/\1/p}' "$policy.txt" | paste -sd' ' -)" \
		"$policy $policy"
done
check_eq "hierarchical on Table I: the CPUs of ranks 0..7 follow the order 0 6 1 7 2 5 3 4" \
	"$(placement hierarchical.json)" "0:0 1:2 2:4 3:6 4:7 5:5 6:1 7:3"
check_eq "hierarchical on Table I: as cheap as treematch (the optimum here, 97204)" \
	"$(cost hierarchical hierarchical.json) $(cost treematch hierarchical.json)" \
	"97204.0 97204.0"

# spread: pairs to NUMA nodes, round-robin
"$helper" map --matrix pairs.json --topology "$numa" --algorithm spread >spread-numa.json
check_eq "spread on $numa: the heaviest pair on the first NUMA node, the next ones on the next" \
	"$(placement spread-numa.json)" "0:6 1:7 2:0 3:1 4:2 5:3 6:4 7:5"

# --previous: the same matrix again moves nothing; a new matrix keeps the
# pairs whose NUMA nodes have room
"$helper" map --matrix pairs.json --topology "$numa" --algorithm spread \
	--previous spread-numa.json >again.json
check_eq "spread --previous (its own output): the same placement" \
	"$(placement again.json)" "$(placement spread-numa.json)"
cat >changed.json <<'EOF'
{"size": 8, "entries": [[0, 1, 100], [2, 3, 40], [4, 5, 30], [6, 7, 20]]}
EOF
"$helper" map --matrix changed.json --topology "$numa" --algorithm spread >fresh.json
"$helper" map --matrix changed.json --topology "$numa" --algorithm spread \
	--previous spread-numa.json >kept.json
check_eq "spread without --previous on a changed matrix: pair 0-1 now first, on NUMA node 0" \
	"$(placement fresh.json)" "0:0 1:1 2:2 3:3 4:4 5:5 6:6 7:7"
check_eq "spread --previous on the changed matrix: no rank moves" \
	"$(placement kept.json)" "$(placement spread-numa.json)"
# --ranks: the previous placement is matched by global rank; a changed
# matrix shows that it is used at all
"$helper" map --matrix pairs.json --topology "$numa" --algorithm spread \
	--ranks 4-7 >half.json
check_eq "spread --ranks 4-7: four ranks placed" \
	"$(placement half.json | wc -w)" 4
cat >swapped.json <<'EOF'
{"size": 8, "entries": [[0, 1, 10], [2, 3, 40], [4, 5, 20], [6, 7, 30]]}
EOF
"$helper" map --matrix swapped.json --topology "$numa" --algorithm spread \
	--ranks 4-7 >half-fresh.json
"$helper" map --matrix swapped.json --topology "$numa" --algorithm spread \
	--ranks 4-7 --previous half.json >half-kept.json
check "spread --ranks 4-7, pair 6-7 now heavier: a fresh placement differs" \
	test "$(placement half-fresh.json)" != "$(placement half.json)"
check_eq "spread --ranks 4-7 --previous: global ranks are matched, none moves" \
	"$(placement half-kept.json)" "$(placement half.json)"

# errors: one line, naming the file and the place
echo '{"placement": [{"rank": 0, "cpus": "zero"}]}' >bad.json
"$helper" map --matrix pairs.json --topology "$numa" --algorithm spread \
	--previous bad.json >out.txt 2>err.txt
check_eq "--previous with a bad CPU list: exit 1, one line" \
	"$?:$(cat out.txt):$(cat err.txt)" \
	'1::treematch-helper: bad.json: placement[0].cpus: expected a CPU list such as "0-3,8", got "zero"'
"$helper" map --matrix pairs.json --topology "$numa" --algorithm spread \
	--previous table1.json >out.txt 2>err.txt
check_eq "--previous with a matrix file: exit 1, says what was expected" \
	"$?:$(cat err.txt)" \
	'1:treematch-helper: table1.json: "placement": expected an array of {"rank": R, "cpus": LIST} as treematch-helper map prints it, got nothing'
"$helper" map --matrix pairs.json --topology "$numa" --previous again.json \
	>/dev/null 2>err.txt
check_eq "--previous without --algorithm spread: a usage error (2)" \
	"$?:$(cat err.txt)" \
	"2:treematch-helper: map: --previous: applies to --algorithm spread only (try treematch-helper --help)"
"$helper" map --matrix pairs.json --topology "$numa" --algorithm hierarchical \
	--set-cap 2 >/dev/null 2>err.txt
check_eq "--set-cap without --algorithm setmatch: a usage error (2)" \
	"$?:$(cat err.txt)" \
	"2:treematch-helper: map: --set-cap: applies to --algorithm setmatch only (try treematch-helper --help)"
"$helper" map --matrix pairs.json --topology "$numa" --algorithm setmatch \
	--threshold 10.5x >/dev/null 2>err.txt
check_eq "--threshold 10.5x: a usage error (2)" "$?:$(cat err.txt)" \
	"2:treematch-helper: map: --threshold 10.5x: expected a percentage from 0 to 100 (try treematch-helper --help)"
"$helper" map --matrix pairs.json --topology "$numa" --algorithm setmatch \
	--set-cap 1 >/dev/null 2>err.txt
check_eq "--set-cap 1 for 8 ranks on 2 packages: exit 1, one line" \
	"$?:$(cat err.txt)" \
	"1:treematch-helper: setmatch: set cap 1: the 2 top-level subtrees hold only 2 of the 8 ranks"
"$helper" map --matrix pairs.json --topology "$numa" --algorithm SetMatch \
	>/dev/null 2>err.txt
check_eq "--algorithm SetMatch (names are exact): a usage error listing the names" \
	"$?:$(cat err.txt)" \
	"2:treematch-helper: map: --algorithm SetMatch: expected treematch, packed, round-robin, mpipp, mpipp1, setmatch, hierarchical or spread (try treematch-helper --help)"

# setmatch --set-cap: the paper's per-node cap, with idle cores
"$helper" map --matrix table1.json --topology tree:2,8 --algorithm setmatch \
	--set-cap 4 >capped.json
check_eq "setmatch --set-cap 4 on tree:2,8: 4 ranks on the first 4 cores of each subtree" \
	"$(placement capped.json | tr ' ' '\n' | cut -d: -f2 | sort -n | paste -sd, -)" \
	"0,1,2,3,8,9,10,11"
"$helper" map --matrix table1.json --topology tree:2,2,2 --algorithm setmatch \
	--threshold 5 >t5.json
"$helper" map --matrix table1.json --topology tree:2,2,2 --algorithm setmatch \
	--threshold 50 >t50.json
check_eq "setmatch --threshold: 5% and 50% give different sets, so different placements" \
	"$([ "$(placement t5.json)" != "$(placement t50.json)" ] && echo differ)" differ

help=$("$helper" map --help)
# every policy and every option a policy takes, from the table
for word in $("$helper" policies | cut -f1) \
	$("$helper" policies | cut -f2 | grep -vx -- -); do
	case $help in
	*"$word"*) ok "map --help mentions $word" ;;
	*) nok "map --help mentions $word" ;;
	esac
done

echo "# $failed check(s) failed"
[ "$failed" -eq 0 ]
