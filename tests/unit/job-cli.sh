#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# job-cli.sh - `treematch-helper job` as the plugin and users run it: the
# hostfile for srun -m arbitrary, the JSON's fields, the one text line, and
# the errors (exit 1: bad input, one line naming the place; exit 2: usage).
set -u
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/unit/cli-lib.sh"

if [ ! -x "$helper" ]; then
	echo "not ok - $helper is built"
	exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/tm-job.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

# 16 ranks: rank i talks most with rank i + 8, a little with i + 1
{
	printf '{"size": 16, "entries": ['
	for i in $(seq 0 7); do printf '[%d, %d, 1000], ' "$i" $((i + 8)); done
	for i in $(seq 0 14); do printf '[%d, %d, 10], ' "$i" $((i + 1)); done
	printf '[15, 0, 10]]}\n'
} >pairs.json
cat >topo.txt <<'EOF'
SwitchName=s0 Level=1 LinkSpeed=1 Nodes=n[1-8] Switches=s[1-2]
SwitchName=s1 Level=0 LinkSpeed=1 Nodes=n[1-4]
SwitchName=s2 Level=0 LinkSpeed=1 Nodes=n[5-8]
EOF

# field NAME FILE: the value of a top-level array or scalar
field() { grep -o "\"$1\":\(\[[^]]*\]\|[^,}]*\)" "$2" | head -1 | cut -d: -f2-; }

"$helper" job --matrix pairs.json --nodes 'n[1-8]' --tasks-per-node '2(x8)' \
	--switches topo.txt --hostfile hf >out.json 2>err.txt
check_eq "job: exit 0, nothing on stderr" "$?:$(cat err.txt)" "0:"
check_eq "\"size\" is the number of ranks" "$(field size out.json)" 16
check_eq "\"nodes\" lists the job's nodes in Slurm's order" \
	"$(field nodes out.json)" '["n1","n2","n3","n4","n5","n6","n7","n8"]'
check_eq "\"tasks-per-node\" expands 2(x8)" "$(field tasks-per-node out.json)" \
	"[2,2,2,2,2,2,2,2]"
check_eq "\"algorithm\" is treematch by default" "$(field algorithm out.json)" \
	'"treematch"'
check_eq "\"levels\": leaf switches first" "$(field levels out.json)" \
	'["switches s1,s2","switch s0"]'
check_eq "\"kept-block\" is false" "$(field kept-block out.json)" false
check_match "\"seconds\" is a number" "$(field seconds out.json)" '^[0-9.]*$'
node_of=$(field node-of out.json | tr -d '[]' | tr ',' ' ')
set -- $node_of
check_eq "\"node-of\" has one node per rank" "$#" 16
same=1
for i in $(seq 1 8); do
	eval "a=\${$i}; b=\${$((i + 8))}"
	[ "$a" = "$b" ] || same=0
done
check_eq "every heavy pair (i, i+8) shares a node" "$same" 1
check_eq "\"traffic\" has treematch, block and cyclic, in that order" \
	"$(grep -o '"[a-z]*":{"cross-node"' out.json | cut -d'"' -f2 | paste -sd' ' -)" \
	"treematch block cyclic"
check_match "each has cross-node, cross-switch per level and cost" \
	"$(cat out.json)" '"block":{"cross-node":[0-9.e+]*,"cross-switch":\[[0-9.e+]*,0\],"cost":[0-9.e+]*}'
tm_cross=$(grep -o '"treematch":{"cross-node":[0-9.e+]*' out.json | cut -d: -f3)
block_cross=$(grep -o '"block":{"cross-node":[0-9.e+]*' out.json | cut -d: -f3)
check_eq "fewer cross-node bytes than block" \
	"$(awk -v a="$tm_cross" -v b="$block_cross" 'BEGIN { print (a < b) }')" 1

check_eq "the hostfile has one line per rank" "$(wc -l <hf | tr -d ' ')" 16
hosts=""
for n in $node_of; do hosts="$hosts n$((n + 1))"; done
check_eq "hostfile line i is the node of rank i" "$(paste -sd' ' hf)" "${hosts# }"
check_eq "the hostfile is readable by the job (0644)" "$(stat -c %a hf)" 644

text=$("$helper" job --matrix pairs.json --nodes 'n[1-8]' --tasks-per-node '2(x8)' \
	--switches topo.txt --format text)
check_match "--format text: one line for the job" "$text" \
	'^job-wide: 16 ranks on 8 nodes: cross-node bytes [0-9.e+]* (block [0-9.e+]*, cyclic [0-9.e+]*); across switches [0-9.e+]* (block [0-9.e+]*)$'
check_eq "--format text: a single line" "$(printf '%s\n' "$text" | wc -l | tr -d ' ')" 1
text=$("$helper" job --matrix pairs.json --nodes 'n[1-8]' --tasks-per-node '2(x8)' \
	--format text)
check_match "without --switches: no switch figures" "$text" \
	'^job-wide: 16 ranks on 8 nodes: cross-node bytes [0-9.e+]* (block [0-9.e+]*, cyclic [0-9.e+]*)$'
"$helper" job --matrix pairs.json --nodes 'n[1-8]' --tasks-per-node '2(x8)' \
	>flat.json
check_eq "flat network: one level, \"network\"" "$(field levels flat.json)" '["network"]'
"$helper" job --matrix pairs.json --nodes 'a,b,c,d' --tasks-per-node '5,3,4,4' \
	--algorithm round-robin >rr.json
check_eq "--algorithm names the traffic's first entry" \
	"$(grep -o '"round-robin":{"cross-node"' rr.json)" '"round-robin":{"cross-node"'
check_eq "uneven counts: each node holds its count" \
	"$(field node-of rr.json | tr -d '[]' | tr ',' '\n' | sort | uniq -c | awk '{print $1}' | paste -sd' ' -)" \
	"5 3 4 4"

# errors: exit status and the one line on stderr
run() { # EXPECTED-STATUS ARGS...: sets out, err
	local want=$1
	shift
	"$helper" job "$@" >out.txt 2>err.txt
	status=$?
	err=$(cat err.txt)
	[ "$status" = "$want" ]
}
run 1 --matrix pairs.json --nodes 'n[1-8]' --tasks-per-node '3(x8)'
check_eq "sum of tasks != matrix size: exit 1" "$status" 1
check_eq "... the line names the file and both numbers" "$err" \
	"treematch-helper: pairs.json: the matrix's size is 16, but the job step has 24 tasks"
run 1 --matrix pairs.json --nodes 'n[1-8' --tasks-per-node '2(x8)'
check_eq "a bad host list: exit 1 and the position" "$status:$err" \
	"1:treematch-helper: --nodes \"n[1-8\": position 6: expected ',' or ']'"
run 1 --matrix pairs.json --nodes 'n[0-999999999]' --tasks-per-node 1
check_match "a huge host list is refused" "$status:$err" \
	'^1:treematch-helper: --nodes "n\[0-999999999\]": position 2: expected fewer names'
run 1 --matrix pairs.json --nodes 'n[1-8]' --tasks-per-node '2(x7)'
check_eq "fewer counts than nodes: exit 1" "$status:$err" \
	"1:treematch-helper: --tasks-per-node \"2(x7)\": 7 counts, expected 8: one per node of --nodes"
run 1 --matrix pairs.json --nodes 'n[1-8]' --tasks-per-node "2(x8"
check_match "a bad task count: exit 1 and the position" "$status:$err" \
	'^1:treematch-helper: --tasks-per-node "2(x8": position 5: expected'
run 2 --matrix pairs.json --nodes 'n[1-8]' --tasks-per-node '2(x8)' --algorithm nope
check_match "an unknown algorithm: exit 2" "$status:$err" \
	'^2:treematch-helper: job: --algorithm nope: expected treematch, '
echo keep >existing
run 1 --matrix pairs.json --nodes 'n[1-8]' --tasks-per-node '2(x8)' --hostfile existing
check_eq "an existing hostfile: exit 1" "$status:$err" \
	"1:treematch-helper: --hostfile existing: File exists, expected a new file (never overwritten)"
check_eq "... and it is left as it was" "$(cat existing)" keep
ln -s nowhere link
run 1 --matrix pairs.json --nodes 'n[1-8]' --tasks-per-node '2(x8)' --hostfile link
check_eq "a symbolic link as hostfile is not followed" "$status:$(ls nowhere 2>&1 | grep -c 'No such')" "1:1"
run 1 --matrix pairs.json --nodes 'n[1-8]' --tasks-per-node '3(x8)' --hostfile new
check_eq "no hostfile is written when the input is bad" "$(ls new 2>/dev/null)" ""
run 1 --matrix pairs.json --nodes 'n[1-8],zz' --tasks-per-node '2(x7),1,1' \
	--switches topo.txt
check_match "a job node missing from the switch tree is named" "$status:$err" \
	'^1:treematch-helper: topo.txt: job node zz under no switch'
run 1 --matrix pairs.json --nodes 'n[1-8]' --tasks-per-node '2(x8)' --switches absent.conf
check_match "an unreadable switch file: exit 1" "$status:$err" \
	'^1:treematch-helper: absent.conf: No such file'
printf 'SwitchName=s0 Switches=s1\n' >undefined.conf
run 1 --matrix pairs.json --nodes 'n[1-8]' --tasks-per-node '2(x8)' --switches undefined.conf
check_match "a switch file naming an undefined switch: the line" "$status:$err" \
	'^1:treematch-helper: undefined.conf:1: Switches= names s1'
run 2 --matrix pairs.json --nodes 'n[1-8]' --tasks-per-node '2(x8)' \
	--switches topo.txt --network-costs 100,10,1
check_match "network costs that do not fit the levels: exit 2" "$status:$err" \
	'^2:treematch-helper: job: --network-costs: 3 network costs, expected 1'
run 2 --matrix pairs.json --nodes 'n[1-8]' --tasks-per-node '2(x8)' --network-costs x
check_eq "network costs that are not numbers: exit 2" "$status" 2
run 0 --matrix pairs.json --nodes 'n[1-8]' --tasks-per-node '2(x8)' \
	--switches topo.txt --network-costs 1000,20
check_eq "network costs, root first: exit 0" "$status" 0
run 1 --matrix pairs.json --nodes 'n[1-8]' --tasks-per-node '2(x8)' --max-size 10
check_match "--max-size refuses a larger matrix: exit 1" "$status:$err" '^1:treematch-helper: pairs.json'
run 2 --matrix pairs.json --nodes 'n[1-8]'
check_match "--tasks-per-node is required: exit 2" "$status:$err" \
	'^2:treematch-helper: job: --matrix FILE, --nodes HOSTLIST and --tasks-per-node COUNTS are required'
run 2 --matrix pairs.json --nodes 'n[1-8]' --tasks-per-node '2(x8)' --format xml
check_eq "an unknown format: exit 2" "$status" 2
run 0 --help
check_match "--help lists the job options" "$(cat out.txt)" '--tasks-per-node COUNTS'
check_match "treematch-helper --help shows job" "$("$helper" --help)" \
	'treematch-helper job --matrix FILE --nodes HOSTLIST --tasks-per-node COUNTS'

if [ "$failed" -gt 0 ]; then
	echo "# $failed failed"
	exit 1
fi
exit 0
