#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# multi-cli.sh - `treematch-helper map` with several matrices (runs of one
# job): it places for their sum (the same placement as for one file
# holding the sum) or, with --combine worst, for a worst case no higher
# than the sum's; it reports the cost on each matrix and the disagreement
# of the runs, strong when the placement made for one run costs more than
# 10 % above another run's own; a matrix of another size is refused with
# one line naming it, as are more ranks than one node's placement takes.
# Also: the usage line shows --topology as optional,
# and a report where all ranks share one CPU says so instead of "proven
# optimal".
set -u
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/unit/cli-lib.sh"

if [ ! -x "$helper" ]; then
	echo "not ok - $helper is built"
	exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/tm-multi.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

topo=(--topology "synthetic:pack:2 l2:2 core:2 pu:1")
# run A: neighbours (i, i+1) of even i; run B: (i, i+4); A2: A twice over
echo '{"size": 8, "entries": [[0,1,1000],[2,3,1000],[4,5,1000],[6,7,1000],[1,2,10]]}' >A.json
echo '{"size": 8, "entries": [[0,4,1000],[1,5,1000],[2,6,1000],[3,7,1000],[1,2,10]]}' >B.json
echo '{"size": 8, "entries": [[0,1,2000],[2,3,2000],[4,5,2000],[6,7,2000],[1,2,20]]}' >A2.json
echo '{"size": 8, "entries": [[0,1,1000],[2,3,1000],[4,5,1000],[6,7,1000],[1,2,20],
  [0,4,1000],[1,5,1000],[2,6,1000],[3,7,1000]]}' >AB.json
echo '{"size": 4, "entries": [[0,1,1]]}' >four.json

# field NAME: the first value of key NAME in out.json (not nested objects)
field() { grep -o "\"$1\":\(\[[^]]*\]\|\"[^\"]*\"\|[^,}]*\)" out.json | head -1 | cut -d: -f2-; }

"$helper" map --matrix A.json --matrix B.json "${topo[@]}" >out.json 2>err.txt
check_eq "two matrices: exit 0, nothing on stderr" "$?:$(cat err.txt)" "0:"
check_eq "\"combine\" is sum by default" "$(field combine)" '"sum"'
check_eq "\"chosen\" says for what it placed" "$(field chosen)" '"treematch for the sum"'
check_eq "\"matrices\" lists both files, in order" \
	"$(grep -o '"file":"[^"]*"' out.json | paste -sd' ' -)" '"file":"A.json" "file":"B.json"'
check_eq "each with the cost of every placement and its own" \
	"$(grep -oE '\{"file":"[AB].json","cost":\{"treematch":[0-9.e+]+,"packed":[0-9.e+]+,"round-robin":[0-9.e+]+\},"own":[0-9.e+]+\}' out.json | grep -c .)" 2
check_match "\"disagreement\": strong for runs A and B" "$(cat out.json)" \
	'"disagreement":{"ratio":[0-9.e+]*,"placed-for":"[AB].json","measured-on":"[AB].json","threshold":1.1[0-9]*,"strong":true}'
placement_two=$(field placement)
"$helper" map --matrix AB.json "${topo[@]}" >out.json
check_eq "the placement for A and B is the one for their sum in one file" \
	"$(field placement)" "$placement_two"

"$helper" map --matrix A.json "${topo[@]}" >out.json
own_a=$(grep -o '"cost":{"treematch":[0-9.e+]*' out.json | cut -d: -f3)
check_eq "one matrix: no \"matrices\" key (the plugin's JSON is unchanged)" \
	"$(grep -c '"matrices"' out.json)" 0
"$helper" map --matrix A.json --matrix A2.json "${topo[@]}" >out.json
check_eq "\"own\" of A is the cost of the placement made for A alone" \
	"$(grep -o '"file":"A.json","cost":{[^}]*},"own":[0-9.e+]*' out.json | sed 's/.*"own"://')" \
	"$own_a"
check_match "A and A twice over agree: ratio 1, not strong" "$(cat out.json)" \
	'"disagreement":{"ratio":1.0,[^}]*"strong":false}'

out=$("$helper" map --matrix A.json --matrix B.json "${topo[@]}" --format text)
check_match "text: one line per matrix with each placement's cost" "$out" \
	'^  B.json: treematch [0-9.e+]* (x[0-9.]*), packed [0-9.e+]* (x[0-9.]*), round-robin'
check_match "text: the disagreement, and that one profile is not enough" "$out" \
	"^disagreement: the placement made for [AB].json costs x[0-9.]* on [AB].json against [AB].json's own: above x1.10, the runs disagree strongly: one profile is not enough"

# --combine worst: its worst case (largest xN over the matrices of the
# placement kept) is no higher than the sum's
worst_of() { sed -n 's/^  [^:]*: treematch [0-9.e+]* (x\([0-9.]*\)).*/\1/p' | sort -g | tail -1; }
# runs disagreeing on which pairs are heavy, with one much heavier pair
echo '{"size": 8, "entries": [[0,1,5000],[2,3,1000],[4,5,1000],[6,7,1000]]}' >C.json
echo '{"size": 8, "entries": [[0,2,1000],[1,3,1000],[4,6,1000],[5,7,1000],[0,1,10]]}' >D.json
for set in "A.json B.json" "C.json D.json" "A.json B.json C.json D.json"; do
	read -ra files <<<"$set"
	args=()
	for f in "${files[@]}"; do args+=(--matrix "$f"); done
	sum=$("$helper" map "${args[@]}" "${topo[@]}" --format text | worst_of)
	worst=$("$helper" map "${args[@]}" "${topo[@]}" --combine worst --format text)
	check_match "--combine worst ($set): says so" "$worst" \
		"^${#files[@]} matrices, placed for their worst ("
	w=$(worst_of <<<"$worst")
	if awk -v w="$w" -v s="$sum" 'BEGIN { exit !(w != "" && w <= s) }'; then
		ok "--combine worst ($set): worst case x$w, no higher than the sum's x$sum"
	else
		nok "--combine worst ($set): worst case x$w, no higher than the sum's x$sum"
	fi
done

"$helper" map --matrix A.json --matrix four.json "${topo[@]}" >out.json 2>err.txt
check_eq "a matrix of another size: exit 1, one line naming it" "$?:$(cat err.txt)" \
	"1:treematch-helper: four.json: the matrix's size is 4, but A.json's is 8: --matrix takes runs of one job, of one size"
"$helper" map --matrix A.json --combine worst "${topo[@]}" >/dev/null 2>err.txt
check_eq "--combine with one matrix: usage error (2)" "$?" 2
"$helper" map --matrix A.json --matrix B.json --combine most "${topo[@]}" >/dev/null 2>err.txt
check_match "--combine most: usage error naming the choices" "$?:$(cat err.txt)" \
	"^2:.*--combine most: expected sum or worst"

check_match "the usage line shows --topology as optional (default: this)" \
	"$("$helper" --help | head -1)" '^Usage: treematch-helper map --matrix FILE \[--topology TOPO\]'

out=$("$helper" map --matrix A.json --topology "synthetic:pack:1 core:1 pu:1" --format text 2>&1)
check_match "8 ranks on one CPU: the report says that all share it" "$out" \
	"^all 8 ranks share CPU 0: there was nothing to choose, the costs compare nothing$"
check_eq "... and does not claim 'proven optimal'" "$(grep -c 'proven optimal' <<<"$out")" 0

# 8 MB of blanks saying 1048577 ranks (8 bytes each, as the reader asks
# above 1048576 ranks): more ranks than one node's placement takes are
# refused in one line instead of building a slot for each (16776961 took
# minutes and GBs), with one matrix or several
{ printf '{"size": 1048577, "entries": ['
  head -c 8388616 /dev/zero | tr '\0' ' '
  printf ']}'; } >many.json
"$helper" map --matrix many.json "${topo[@]}" >/dev/null 2>err.txt
check_eq "1048577 ranks on 8 cores: exit 1, one line naming the file and the bound" \
	"$?:$(cat err.txt)" \
	"1:treematch-helper: many.json: 1048577 ranks on 8 slots: expected at most 1048576 ranks to place on one node (--ranks chooses a node's ranks)"
"$helper" map --matrix many.json --matrix many.json --combine worst "${topo[@]}" \
	>/dev/null 2>err.txt
check_eq "... the same with --combine worst" "$?:$(grep -c 'expected at most 1048576 ranks' err.txt)" "1:1"

# 16.8 MB of blanks saying 16776961 ranks (one byte each) cost map 412 MB
# and --combine 674 MB: now refused by the reader in one line, each run
# within 100 MB of address space
{ printf '{"size": 16776961, "entries": ['
  head -c 16799981 /dev/zero | tr '\0' ' '
  printf ']}'; } >huge.json
(ulimit -v 102400; "$helper" map --matrix huge.json "${topo[@]}") \
	>/dev/null 2>err.txt
check_eq "16776961 ranks in 16.8 MB: exit 1, one line saying the rule, under 100 MB" \
	"$?:$(cat err.txt)" \
	"1:treematch-helper: huge.json: \"size\": 16776961 ranks in a file of 16800014 bytes: expected at least 8 bytes per rank above 1048576 ranks"
(ulimit -v 102400; "$helper" map --matrix huge.json --matrix huge.json \
	--combine sum "${topo[@]}") >/dev/null 2>err.txt
check_eq "... the same with --combine sum" \
	"$?:$(grep -c 'expected at least 8 bytes per rank' err.txt)" "1:1"

[ "$failed" -eq 0 ]
