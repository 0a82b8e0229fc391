#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 19-job-wide.sh - inside an allocation, srun --comm-matrix chooses which
# node each rank runs on (doc/job-wide.md): heavy pairs share a node, groups
# share a switch of topology.conf, the report's cross-node bytes are those
# of the layout the tasks see, and every case where it cannot apply runs
# with Slurm's layout and says why in one line; on every Slurm release
# (doc/slurm-releases.md): srun -N inside an allocation, srun options that
# came after 22.05, salloc -c, and topology/block (23.11 and later).
#
# Cluster: 8 nodes of this machine's CPUs (2 here), four leaf switches
# s1 = n[1-2] ... s4 = n[7-8] under s0; then the same nodes in four blocks.
set -u
# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
# shellcheck source=tests/e2e/plugin.sh
. "$top_srcdir/tests/e2e/plugin.sh"
export TOPOLOGY_CONF="SwitchName=s1 Nodes=n[1-2]
SwitchName=s2 Nodes=n[3-4]
SwitchName=s3 Nodes=n[5-6]
SwitchName=s4 Nodes=n[7-8]
SwitchName=s0 Switches=s[1-4]"
tm_start 8
cpus=$(scontrol show node n1 | grep -o 'CPUTot=[0-9]*' | cut -d= -f2)
[ "$cpus" -ge 2 ] || e2e_skip "the nodes need 2 CPUs (CPUTot=$cpus)"

check_match "scontrol show topology shows the four switches" \
	"$(scontrol show topology 2>&1)" 'SwitchName=s4 .*Nodes=n\[7-8\]'

# node_of TEXT: "rank node" lines from the probe's output
node_of() { awk '{ print $1, $2 }' <<<"$1"; }
# same_node TEXT A B: whether ranks A and B ran on one node
node_for() { awk -v r="$2" '$1 == r { print $2 }' <<<"$1"; }
# the leaf switch (or block) of a node: n1, n2 -> 1; n3, n4 -> 2...
switch_of() { echo $(((${1#n} + 1) / 2)); }
# cross_bytes MATRIX_ENTRIES TEXT: bytes between ranks on different nodes,
# from "I J W" lines and the observed layout
cross_bytes() {
	awk 'NR == FNR { node[$1] = $2; next }
	     node[$1] != node[$2] { sum += $3 }
	     END { printf "%d\n", sum }' <(node_of "$2") <(printf '%s\n' "$1")
}

# Rank i talks to rank i+N/2 (heavy) and to its neighbour (light): Slurm's
# block layout puts every heavy pair across two nodes.
pairs8="0 4 1000000
1 5 1000000
2 6 1000000
3 7 1000000
0 1 1
2 3 1
4 5 1
6 7 1"
# shellcheck disable=SC2086
tm_matrix pairs8.json 8 $pairs8

cat >pairs.sh <<EOF
#!/bin/bash
srun -Q --comm-matrix=pairs8.json --comm-matrix-report "$TM_PROBE" >placed.out 2>placed.err
echo "placed: \$?"
srun -Q -n8 --comm-matrix=pairs8.json --comm-matrix-keep-layout "$TM_PROBE" >kept.out 2>kept.err
echo "kept: \$?"
srun -Q -n8 "$TM_PROBE" >slurm.out 2>slurm.err
echo "slurm: \$?"
srun -Q -n8 --comm-matrix=pairs8.json -w n1,n2,n3,n4 "$TM_PROBE" >w.out 2>w.err
echo "w: \$?"
srun -Q -n8 --comm-matrix=pairs8.json bash -c \\
	'echo "\$SLURM_PROCID \${SLURM_HOSTFILE:-none} \${SLURM_DISTRIBUTION:-none}"' >env.out 2>env.err
echo "env: \$?"
EOF
chmod 755 pairs.sh
tm_run salloc -Q -N4 -n8 ./pairs.sh
check_eq "salloc -N4 -n8: every step exits 0" "$TM_OUT" \
	"$(printf 'placed: 0\nkept: 0\nslurm: 0\nw: 0\nenv: 0')"

placed=$(sort -n placed.out)
check_eq "srun --comm-matrix: 8 tasks ran" "$(grep -c . <<<"$placed")" 8
for i in 0 1 2 3; do
	a=$(node_for "$placed" "$i") b=$(node_for "$placed" $((i + 4)))
	check_eq "heavy pair $i-$((i + 4)) shares a node ($a, $b)" "$a" "$b"
done
check_eq "... two tasks on each of the 4 nodes" \
	"$(awk '{ print $2 }' <<<"$placed" | sort | uniq -c | awk '{ print $1 }' | sort -u)" 2
tm_check_placed "job-wide" 8 "$placed"

slurm=$(sort -n slurm.out)
check_eq "without the plugin Slurm's block layout splits every heavy pair" \
	"$(for i in 0 1 2 3; do [ "$(node_for "$slurm" "$i")" != "$(node_for "$slurm" $((i + 4)))" ] && echo split; done | grep -c split)" 4
check_eq "--comm-matrix-keep-layout keeps Slurm's layout" \
	"$(node_of "$(sort -n kept.out)")" "$(node_of "$slurm")"
check_eq "... and says nothing" "$(cat kept.err)" ""

report=$(grep 'job-wide' placed.err)
check_eq "--comm-matrix-report: one job-wide line for the job" \
	"$(grep -c . <<<"$report")" 1
check_match "... with the bytes across nodes against Slurm's block and cyclic" \
	"$report" '^treematch: job-wide: 8 ranks on 4 nodes: bytes across nodes [0-9.e+]+ \(Slurm.s block [0-9.e+]+, cyclic [0-9.e+]+\)'
got=$(sed -n 's/.*bytes across nodes \([0-9.e+]*\) .*/\1/p' <<<"$report")
want=$(cross_bytes "$pairs8" "$placed")
check_eq "... the cross-node bytes are what the tasks' layout sends across nodes ($want)" \
	"$(awk -v g="$got" 'BEGIN { printf "%d\n", g + 0 }')" "$want"
block=$(sed -n 's/.*bytes across nodes [^ ]* (Slurm.s block \([0-9.e+]*\),.*/\1/p' <<<"$report")
check_eq "... Slurm's block figure is what block sends across ($(cross_bytes "$pairs8" "$slurm"))" \
	"$(awk -v g="$block" 'BEGIN { printf "%d\n", g + 0 }')" "$(cross_bytes "$pairs8" "$slurm")"

check_match "-w given: one line says why, the step runs with Slurm's layout" \
	"$(cat w.err)" '^treematch: ranks not placed across nodes \(-w given\); Slurm.s layout is used'
check_eq "... 8 tasks ran" "$(grep -c . w.out)" 8

check_eq "SLURM_HOSTFILE and the arbitrary distribution do not reach the tasks" \
	"$(awk '{ print $2, $3 }' env.out | sort -u)" "none none"

# ---- groups under switches -----------------------------------------------------

# 4 groups of 4 ranks, interleaved: group g is g, g+4, g+8, g+12.
groups=""
for g in 0 1 2 3; do
	for a in 0 1 2 3; do
		for b in 0 1 2 3; do
			[ "$a" -lt "$b" ] && groups+="$((g + 4 * a)) $((g + 4 * b)) 1000
"
		done
	done
done
# shellcheck disable=SC2086
tm_matrix groups16.json 16 $groups
tm_run salloc -Q -N8 -n16 srun -Q --comm-matrix=groups16.json --comm-matrix-report "$TM_PROBE"
check_eq "salloc -N8 -n16, 4 groups: exit 0" "$TM_RC" 0
# groups_apart WHAT: each group under one switch (block), nothing between
groups_apart() {
	local g sw
	for g in 0 1 2 3; do
		sw=$(for a in 0 1 2 3; do switch_of "$(node_for "$TM_OUT" $((g + 4 * a)))"; done | sort -u | paste -sd' ' -)
		check_eq "group $g lies in one $1 ($sw)" "$(wc -w <<<"$sw")" 1
	done
	check_match "... the report counts the bytes between ${1}s: none" \
		"$TM_ERR" 'between switches 0 \(block [0-9.e+]+'
	check_eq "... and they are what the layout sends across ${1}s" \
		"$(awk 'NR == FNR { sub(/^n/, "", $2); sw[$1] = int(($2 + 1) / 2); next }
			sw[$1] != sw[$2] { s += $3 } END { printf "%d\n", s }' \
			<(node_of "$TM_OUT") <(printf '%s' "$groups"))" 0
}
groups_apart switch

# ---- task counts, -c, uneven steps ------------------------------------------------

tm_matrix pairs4.json 4 0 2 1000 1 3 1000
tm_run salloc -Q -N4 -n8 srun -Q -n4 --ntasks-per-node=1 --comm-matrix=pairs4.json "$TM_PROBE"
check_eq "--ntasks-per-node=1 -n4: exit 0, one task a node" \
	"$TM_RC:$(awk '{ print $2 }' <<<"$TM_OUT" | sort -u | wc -l)" "0:4"
check_eq "... heavy pairs under one switch" \
	"$(switch_of "$(node_for "$TM_OUT" 0)") $(switch_of "$(node_for "$TM_OUT" 1)")" \
	"$(switch_of "$(node_for "$TM_OUT" 2)") $(switch_of "$(node_for "$TM_OUT" 3)")"

tm_run salloc -Q -N4 -n8 srun -Q -n4 -c2 --comm-matrix=pairs4.json "$TM_PROBE"
check_eq "-n4 -c2: exit 0, one task a node (two CPUs each)" \
	"$TM_RC:$(awk '{ print $2 }' <<<"$TM_OUT" | sort -u | wc -l)" "0:4"

tm_matrix pairs6.json 6 0 3 1000 1 4 1000 2 5 1000
tm_run salloc -Q -N4 -n8 srun -Q -n6 --comm-matrix=pairs6.json "$TM_PROBE"
check_eq "-n6 on 4 nodes: exit 0, 6 tasks" "$TM_RC:$(grep -c . <<<"$TM_OUT")" "0:6"
check_eq "... no node has more tasks than CPUs" \
	"$(awk '{ print $2 }' <<<"$TM_OUT" | sort | uniq -c | awk -v c="$cpus" '$1 > c' | wc -l)" 0
# Slurm's counts on 4 nodes of 2 CPUs are 2, 2, 1, 1: two pairs can share
check_eq "... the two nodes with two tasks each hold a heavy pair" \
	"$(for i in 0 1 2; do [ "$(node_for "$TM_OUT" "$i")" = "$(node_for "$TM_OUT" $((i + 3)))" ] && echo same; done | grep -c same)" 2

# ---- a helper that lies about the nodes -------------------------------------------

# srun writes the hostfile from the allocation's own names: a helper's name
# hiding lines, or naming a node outside the allocation, leaves Slurm's
# layout and one line
tm_plugstack required "helper=$TM_FAKES/job-names"
for lie in newline outside; do
	cp pairs8.json "$lie.json"
	tm_run salloc -Q -N4 -n8 srun -Q --comm-matrix="$lie.json" "$TM_PROBE"
	out=$(sort -n <<<"$TM_OUT")
	check_eq "a helper whose node names lie ($lie): exit 0, 8 tasks, two a node" \
		"$TM_RC:$(grep -c . <<<"$out"):$(awk '{ print $2 }' <<<"$out" | sort | uniq -c | awk '{ print $1 }' | sort -u)" "0:8:2"
	check_eq "... Slurm's block layout" "$(node_of "$out")" "$(node_of "$slurm")"
	check_match "... and one line says why" "$TM_ERR" \
		"^treematch: ranks not placed across nodes \(treematch-helper job gave no usable assignment\)"
done
tm_plugstack required

# ---- what differs between Slurm releases --------------------------------------------

release=$(e2e_slurm_release)
# srun -N inside an allocation: since 23.11 srun refuses -N with the
# arbitrary layout of a hostfile, so the ranks keep Slurm's layout there
tm_run salloc -Q -N4 -n8 srun -Q -N2 -n4 --comm-matrix=pairs4.json "$TM_PROBE"
check_eq "Slurm $release: srun -N2 -n4 inside salloc -N4: exit 0, 4 tasks on 2 nodes" \
	"$TM_RC:$(grep -c . <<<"$TM_OUT"):$(awk '{ print $2 }' <<<"$TM_OUT" | sort -u | wc -l)" "0:4:2"
if e2e_slurm_at_least 23.11; then
	check_match "... one line says why the ranks keep Slurm's layout" "$TM_ERR" \
		"^treematch: ranks not placed across nodes \(srun -N: Slurm ${release//./\\.} runs no step with both -N and a layout of its ranks"
else
	check_eq "... placed: heavy pairs share a node, nothing said" \
		"$(node_for "$TM_OUT" 0) $(node_for "$TM_OUT" 1):$TM_ERR" \
		"$(node_for "$TM_OUT" 2) $(node_for "$TM_OUT" 3):"
fi

# an option srun gained after 22.05, its value in the next word: placement
# goes on (the plugin knows the options of the release it was built for)
if e2e_slurm_at_least 23.11; then
	tm_run salloc -Q -N4 -n8 srun -Q -n8 --treewidth 2 --comm-matrix=pairs8.json "$TM_PROBE"
	out=$(sort -n <<<"$TM_OUT")
	check_eq "srun --treewidth 2 (23.11 and later): exit 0, heavy pairs share a node, nothing said" \
		"$TM_RC:$(for i in 0 1 2 3; do [ "$(node_for "$out" "$i")" = "$(node_for "$out" $((i + 4)))" ] && echo same; done | grep -c same):$TM_ERR" "0:4:"
fi
# another plugin's option, its value attached: placement goes on; without
# '=' the plugin cannot tell its value from the command and says so
tm_run salloc -Q -N4 -n8 srun -Q -n8 --comm-matrix=pairs8.json --comm-matrix-algorithm=treematch "$TM_PROBE"
check_eq "a plugin option with its value attached: heavy pairs share a node" \
	"$TM_RC:$(out=$(sort -n <<<"$TM_OUT"); for i in 0 1 2 3; do [ "$(node_for "$out" "$i")" = "$(node_for "$out" $((i + 4)))" ] && echo same; done | grep -c same)" "0:4"

# salloc -c 2: srun takes -c from SLURM_CPUS_PER_TASK since 23.11 (before,
# SRUN_CPUS_PER_TASK): one two-CPU task a node, heavy pairs in one switch
tm_run salloc -Q -N4 -n4 -c2 srun -Q -n4 --comm-matrix=pairs4.json --comm-matrix-report "$TM_PROBE"
check_eq "salloc -c 2, srun -n4: exit 0, one task a node" \
	"$TM_RC:$(awk '{ print $2 }' <<<"$TM_OUT" | sort -u | wc -l)" "0:4"
check_match "... placed across nodes (the report's job-wide line)" "$TM_ERR" \
	'^treematch: job-wide: 4 ranks on 4 nodes'
check_eq "... heavy pairs under one switch" \
	"$(switch_of "$(node_for "$TM_OUT" 0)") $(switch_of "$(node_for "$TM_OUT" 1)")" \
	"$(switch_of "$(node_for "$TM_OUT" 2)") $(switch_of "$(node_for "$TM_OUT" 3)")"

# ---- sbatch with several steps; srun allocating itself -----------------------------

cat >job.sh <<EOF
#!/bin/bash
#SBATCH -N4 -n8
#SBATCH --comm-matrix=pairs8.json
srun -Q "$TM_PROBE" >"$E2E_WORK/step1.out" 2>"$E2E_WORK/step1.err"
srun -Q "$TM_PROBE" >"$E2E_WORK/step2.out" 2>"$E2E_WORK/step2.err"
EOF
check "sbatch with #SBATCH --comm-matrix and two steps completes" sbatch_wait job.sh
for step in step1 step2; do
	out=$(sort -n "$step.out")
	check_eq "$step: heavy pairs share a node" \
		"$(for i in 0 1 2 3; do [ "$(node_for "$out" "$i")" = "$(node_for "$out" $((i + 4)))" ] && echo same; done | grep -c same)" 4
done

tm_run srun -Q -N4 -n8 --comm-matrix=pairs8.json "$TM_PROBE"
check_eq "srun allocating its own 4 nodes: exit 0, nothing said (Slurm's layout, documented)" \
	"$TM_RC:$TM_ERR" "0:"
check_eq "... Slurm's block layout" "$(node_of "$TM_OUT")" "$(node_of "$slurm")"

# ---- topology/block (23.11 and later): a block is a level above its nodes ----------
# With topology.yaml (25.05 and later) the blocks are the topology of one
# partition only, beside a default tree that pairs the nodes otherwise
# (s1 = n1,n3 ...): each partition's steps are placed by its own.

blocks_conf="BlockName=b1 Nodes=n[1-2]
BlockName=b2 Nodes=n[3-4]
BlockName=b3 Nodes=n[5-6]
BlockName=b4 Nodes=n[7-8]"
topology_yaml="- topology: interleaved
  cluster_default: true
  tree:
    switches:
      - switch: s0
        children: s[1-4]
      - switch: s1
        nodes: n[1,3]
      - switch: s2
        nodes: n[2,4]
      - switch: s3
        nodes: n[5,7]
      - switch: s4
        nodes: n[6,8]
- topology: blocks
  block:
    block_sizes: [2]
    blocks:
      - block: b1
        nodes: n[1-2]
      - block: b2
        nodes: n[3-4]
      - block: b3
        nodes: n[5-6]
      - block: b4
        nodes: n[7-8]"
if e2e_slurm_at_least 25.05; then
	saved=$PWD/groups16.json	# the first cluster's directory stays
	cluster_stop
	TOPOLOGY_CONF= TOPOLOGY_YAML=$topology_yaml \
		SLURM_CONF_EXTRA="PartitionName=blk Nodes=ALL MaxTime=INFINITE State=UP Topology=blocks" \
		cluster_start 8
	cd "$E2E_WORK" || exit 1
	cp "$saved" .
	check_match "topology.yaml: scontrol show topology blocks shows the four blocks" \
		"$(scontrol show topology blocks 2>&1)" 'BlockName=b4 .*Nodes=n\[7-8\]'
	tm_run salloc -Q -p blk -N8 -n16 srun -Q --comm-matrix=groups16.json --comm-matrix-report "$TM_PROBE"
	check_eq "partition blk (Topology=blocks), salloc -N8 -n16, 4 groups: exit 0" "$TM_RC" 0
	groups_apart block
	tm_run salloc -Q -N8 -n16 srun -Q --comm-matrix=groups16.json --comm-matrix-report "$TM_PROBE"
	check_eq "the default partition (the interleaved tree): exit 0" "$TM_RC" 0
	for g in 0 1 2 3; do
		sw=$(for a in 0 1 2 3; do n=$(node_for "$TM_OUT" $((g + 4 * a))); n=${n#n}
			echo $(( (n - 1) / 4 * 2 + (n - 1) % 2 )); done | sort -u | paste -sd' ' -)
		check_eq "... group $g lies under one interleaved switch ($sw)" "$(wc -w <<<"$sw")" 1
	done
elif e2e_slurm_at_least 23.11; then
	saved=$PWD/groups16.json	# the first cluster's directory stays
	cluster_stop
	TOPOLOGY_CONF=$blocks_conf TOPOLOGY_PLUGIN=topology/block cluster_start 8
	cd "$E2E_WORK" || exit 1
	cp "$saved" .
	check_match "scontrol show topology shows the four blocks" \
		"$(scontrol show topology 2>&1)" 'BlockName=b4 .*Nodes=n\[7-8\]'
	tm_run salloc -Q -N8 -n16 srun -Q --comm-matrix=groups16.json --comm-matrix-report "$TM_PROBE"
	check_eq "topology/block, salloc -N8 -n16, 4 groups: exit 0" "$TM_RC" 0
	groups_apart block
else
	echo "# Slurm $release has no topology/block (23.11 and later)"
fi

e2e_finish
