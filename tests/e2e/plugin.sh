# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/plugin.sh - sourced after lib.sh by the plugin's end-to-end tests
# (tests/e2e/1?-*.sh): the built plugin on a test cluster, matrices, and what
# each task got.
#
#   tm_setup                 before cluster_start: a private directory TM_DIR
#                            with copies of the built treematch.so (TM_SO)
#                            and treematch-helper (TM_HELPER) (with
#                            TM_INSTALLED=1: of the installed ones, in
#                            TM_INSTALLED_SO and /usr/bin), the fake
#                            helpers (TM_FAKES/NAME) and the probe (TM_PROBE);
#                            writes TM_PLUGSTACK (exported as PLUGSTACK) with
#                            the plugin `required` and helper=TM_HELPER
#   tm_plugstack [required|optional|none] [KEY=VALUE...]
#                            rewrite TM_PLUGSTACK (srun and every new
#                            slurmstepd read it again; nothing restarts);
#                            helper=TM_HELPER comes first, so a helper= given
#                            here wins; `none`: an empty file, no plugin
#   tm_matrix FILE SIZE [I J W]...
#                            a JSON matrix with these entries
#   tm_run [as_user] CMD...  once the nodes are idle, run CMD (under
#                            E2E_RUN_LIMIT); sets TM_RC, TM_OUT
#                            (stdout, sorted by its first number: the probe's
#                            rank) and TM_ERR (stderr)
#   tm_slurm_binding CMD...  tm_run CMD with no plugin in plugstack.conf, then
#                            the plugstack.conf as it was: Slurm's own binding
#   tm_helper_map ARGS...    treematch-helper map ARGS, as "RANK CPUS" lines
#   tm_col NAME [TEXT]       a field of every probe line (default TEXT: TM_OUT)
#   tm_node_ranks NODE [TEXT]  "0,1": the ranks the probe saw on NODE
#   tm_node_cpus NODE [TEXT]   "RANK CPUS" lines of NODE's tasks
#   tm_node_allowed NODE [TEXT]  the union of NODE's tasks' allowed= lists
#   tm_groups [TEXT]         which ranks share CPUs, per node:
#                            "n1:0,1/2,3 n2:4,5/6,7" (from the cpus= fields)
#   tm_cpulist_union LIST... one CPU list ("0-3,8") holding all of them
#   tm_check_placed DESC N [TEXT]
#                            checks: N tasks ran, each with status "applied",
#                            each bound to its SLURM_TREEMATCH_CPUS
#   tm_check_helper DESC MATRIX NTASKS SLURM_TEXT [HELPER_ARGS...]
#                            check: on every node of TM_OUT, the tasks' cpus=
#                            are what `treematch-helper map` run by hand says
#                            for that node's ranks (--ntasks NTASKS, and
#                            --restrict the node's CPUs under Slurm's own
#                            binding SLURM_TEXT unless it is empty)
#   tm_nothing_to_choose JSON  true when the helper's JSON (map, for one
#                            node's ranks) says every placement costs the
#                            same and none costs less: that node's report
#                            shows no cost (2 tasks on 2 cores)
#   tm_wait_idle             wait (10 s at most) until every node is idle,
#                            before a step whose duration is measured
#   tm_live PATTERN          processes (not zombies) whose command line
#                            matches PATTERN
#
# The probe, run as a task, prints one line:
#   RANK NODE allowed=CPUS cpus=CPUS|- vars=NAMES|- status=TEXT|-
# with allowed= its Cpus_allowed_list, cpus= and status= its
# SLURM_TREEMATCH_CPUS and SLURM_TREEMATCH_STATUS, vars= the names of every
# SLURM_TREEMATCH_* variable it has.  `probe DIR` also creates DIR/ran.RANK,
# to show that the application ran.
#
# Copies, not the build tree's files: other work may relink the plugin while
# a test runs, and a job's user must be able to reach them (TM_DIR is 755).

# tm_setup: see above.  Skips (77) when the plugin was not built.
tm_setup() {
	local so=${top_builddir:?}/spank/.libs/treematch.so
	local helper=$top_builddir/helper/treematch-helper
	if [ "${TM_INSTALLED:-}" = 1 ]; then
		# the package's files (tests/e2e/27-package.sh)
		so=${TM_INSTALLED_SO:?}
		# by its path: a `make install` may have left another one
		# earlier on the PATH, in /usr/local
		helper=/usr/bin/treematch-helper
		[ -f "$so" ] || { nok "the installed plugin $so exists"; exit 1; }
		[ -x "$helper" ] || { nok "the installed helper $helper exists"; exit 1; }
	fi
	[ -f "$so" ] || e2e_skip "the plugin was not built ($so): no Slurm headers?"
	[ -x "$helper" ] || e2e_skip "treematch-helper was not built ($helper)"
	TM_DIR=
	e2e_tmpdir TM_DIR
	TM_SO=$TM_DIR/treematch.so
	TM_HELPER=$TM_DIR/treematch-helper
	TM_FAKES=$TM_DIR/fake-helpers
	TM_PROBE=$TM_DIR/probe
	TM_PLUGSTACK=$TM_DIR/plugstack.conf
	if ! { cp "$so" "$TM_SO.new" && mv "$TM_SO.new" "$TM_SO" &&
		cp "$helper" "$TM_HELPER" && mkdir -m 755 "$TM_FAKES" &&
		cp "${top_srcdir:?}"/tests/e2e/fake-helpers/* "$TM_FAKES/"; }; then
		nok "copy the plugin, the helper and the fake helpers into $TM_DIR"
		exit 1
	fi
	chmod 755 "$TM_FAKES"/*
	cat >"$TM_PROBE" <<'EOF'
#!/bin/bash
# probe: one line about this task (tests/e2e/plugin.sh)
vars=
# sed, not bash's read: /proc/PID/status is generated again when read
# seeks back, and lines could shift under it.
allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$$/status")
for v in $(compgen -e); do
	case $v in SLURM_TREEMATCH_*) vars+=${vars:+,}$v ;; esac
done
if [ $# -gt 0 ]; then : >"$1/ran.$SLURM_PROCID"; fi
echo "$SLURM_PROCID $SLURMD_NODENAME allowed=${allowed:--}" \
	"cpus=${SLURM_TREEMATCH_CPUS:--} vars=${vars:--}" \
	"status=${SLURM_TREEMATCH_STATUS:--}"
EOF
	chmod 755 "$TM_PROBE" "$TM_SO" "$TM_HELPER"
	tm_plugstack required
	export PLUGSTACK=$TM_PLUGSTACK
}

# tm_start [NNODES]: how a plugin test begins: root and Slurm required (or
# skip), the plugin set up (tm_setup), a cluster of NNODES nodes (2), and
# the cluster's work directory as the current one.
tm_start() {
	e2e_require_root_and_slurm
	tm_setup
	cluster_start "${1:-2}"
	cd "$E2E_WORK" || exit 1
}

tm_plugstack() {
	local how=${1:-required}
	[ $# -eq 0 ] || shift
	if [ "$how" = none ]; then
		: >"$TM_PLUGSTACK.new"
	else
		echo "$how $TM_SO helper=$TM_HELPER $*" >"$TM_PLUGSTACK.new"
	fi
	chmod 644 "$TM_PLUGSTACK.new"
	mv "$TM_PLUGSTACK.new" "$TM_PLUGSTACK"
}

tm_matrix() {
	local file=$1 size=$2 sep='' entries=''
	shift 2
	while [ $# -ge 3 ]; do
		entries+="${sep}[$1, $2, $3]"
		sep=', '
		shift 3
	done
	printf '{ "size": %d, "unit": "bytes",\n  "entries": [%s] }\n' \
		"$size" "$entries" >"$file"
	chmod 644 "$file"
}

tm_run() {
	local o e
	o=$(mktemp "$TM_DIR/out.XXXXXX") && e=$(mktemp "$TM_DIR/err.XXXXXX") ||
		return 1
	tm_wait_idle	# srun waiting for busy nodes polls slowly
	# e2e_timeout, not timeout(1): a run that stalls is described in the
	# test's log before it is stopped
	e2e_timeout "$E2E_RUN_LIMIT" "$@" >"$o" 2>"$e"
	# shellcheck disable=SC2034 # TM_RC, TM_OUT, TM_ERR: for the tests
	TM_RC=$? TM_OUT=$(sort -n -k1,1 -s "$o") TM_ERR=$(cat "$e")
	rm -f "$o" "$e"
}

tm_slurm_binding() {
	cp "$TM_PLUGSTACK" "$TM_DIR/plugstack.saved" &&
		tm_plugstack none &&
		tm_run "$@"
	mv "$TM_DIR/plugstack.saved" "$TM_PLUGSTACK"
}

tm_helper_map() {
	local err
	err=$(mktemp "$TM_DIR/err.XXXXXX") || return 1
	"$TM_HELPER" map --format json "$@" 2>"$err" |
		grep -o '"rank":[0-9]*,"cpus":"[^"]*"' |
		sed 's/"rank":\([0-9]*\),"cpus":"\([^"]*\)"/\1 \2/'
	sed 's/^/# by hand: /' "$err" >&2
	rm -f "$err"
}

tm_col() {
	local text=${2-$TM_OUT}
	if [ "$1" = status ]; then
		sed -n 's/.* status=//p' <<<"$text"
	else
		sed -n "s/ status=.*//; s/.* $1=\([^ ]*\).*/\1/p" <<<"$text"
	fi
}

tm_node_ranks() {
	awk -v node="$1" '$2 == node { print $1 }' <<<"${2-$TM_OUT}" | paste -sd, -
}

tm_node_cpus() {
	awk -v node="$1" '$2 == node { sub("cpus=", "", $4); print $1, $4 }' \
		<<<"${2-$TM_OUT}"
}

tm_live() {
	local pid
	for pid in $(pgrep -f -- "$1"); do
		case $(ps -o stat= -p "$pid" 2>/dev/null) in
		'' | Z*) ;;
		*) ps -o pid=,stat=,args= -p "$pid" ;;
		esac
	done
}

tm_node_allowed() {
	# shellcheck disable=SC2046 # one argument per task
	tm_cpulist_union $(awk -v node="$1" \
		'$2 == node { sub("allowed=", "", $3); print $3 }' <<<"${2-$TM_OUT}")
}

tm_groups() {
	awk '{ sub("cpus=", "", $4); key = $2 " " $4
	       if (key in group) group[key] = group[key] "," $1
	       else group[key] = $1 }
	     END { for (k in group) { split(k, f, " "); print f[1], group[k] } }' \
		<<<"${1-$TM_OUT}" |
		sort -k1,1 -k2,2n |
		awk '$1 != node { if (node != "") printf " "; node = $1
				  printf "%s:%s", $1, $2; next }
		     { printf "/%s", $2 }
		     END { if (node != "") printf "\n" }'
}

tm_cpulist_union() {
	local list range
	local -a ranges
	for list in "$@"; do
		IFS=, read -ra ranges <<<"$list"
		for range in "${ranges[@]}"; do
			case $range in
			*-*) seq "${range%-*}" "${range#*-}" ;;
			?*) echo "$range" ;;
			esac
		done
	done | sort -un |
		awk 'function out() { printf "%s%s%s", sep, first, (first == last ? "" : "-" last); sep = "," }
		     NR == 1 { first = last = $1; next }
		     $1 == last + 1 { last = $1; next }
		     { out(); first = last = $1 }
		     END { if (NR) { out(); printf "\n" } }'
}

tm_check_placed() {
	local desc=$1 n=$2 text=${3-$TM_OUT} bad
	check_eq "$desc: $n tasks ran" "$(grep -c . <<<"$text")" "$n"
	check_eq "$desc: every task's SLURM_TREEMATCH_STATUS is applied" \
		"$(tm_col status "$text" | sort -u)" applied
	bad=$(awk '{ a = $3; c = $4; sub("allowed=", "", a); sub("cpus=", "", c)
		     if (a != c || c == "-") print }' <<<"$text")
	if [ -n "$text" ] && [ -z "$bad" ]; then
		ok "$desc: each task's Cpus_allowed_list is its SLURM_TREEMATCH_CPUS"
	else
		nok "$desc: each task's Cpus_allowed_list is its SLURM_TREEMATCH_CPUS" \
			"these differ:" "$bad" "all tasks:" "$text"
	fi
}

tm_check_helper() {
	local desc=$1 matrix=$2 ntasks=$3 slurm=$4 node ranks got want
	local -a restrict
	shift 4
	got='' want=''
	while read -r node; do
		ranks=$(tm_node_ranks "$node")
		restrict=()
		[ -z "$slurm" ] ||
			restrict=(--restrict "$(tm_node_allowed "$node" "$slurm")")
		got+="$node: $(tm_node_cpus "$node" | tr '\n' ' ')"$'\n'
		want+="$node: $(tm_helper_map --matrix "$matrix" --ranks "$ranks" \
			--ntasks "$ntasks" "${restrict[@]}" "$@" | tr '\n' ' ')"$'\n'
	done < <(awk '{ print $2 }' <<<"$TM_OUT" | sort -u)
	if [ -z "$got" ]; then
		nok "$desc" "no task printed its placement"
		return
	fi
	check_eq "$desc" "$got" "$want"
}

# tm_cpu_count LIST: how many CPUs an hwloc/Linux list such as 0-1,4 names
tm_cpu_count() {
	awk -F, '{ n = 0
		for (i = 1; i <= NF; i++) {
			k = split($i, r, "-")
			n += (k == 2) ? r[2] - r[1] + 1 : 1
		}
		print n }' <<<"$1"
}

tm_wait_idle() {
	local deadline=$((SECONDS + 10))
	while [ "$(sinfo -h -N -o %t | grep -vc '^idle$')" != 0 ] &&
		[ "$SECONDS" -lt "$deadline" ]; do
		sleep 0.1
	done
}

tm_nothing_to_choose() {
	grep -q '"proven-optimal":true' <<<"$1" || return 1
	grep -o '"cost":{[^}]*}' <<<"$1" | sed 's/"cost":{//; s/}//' | tr ',' '\n' |
		cut -d: -f2 | awk 'NR == 1 { lo = hi = $1 }
			{ lo = $1 < lo ? $1 : lo; hi = $1 > hi ? $1 : hi }
			END { exit !(NR > 0 && hi <= lo * (1 + 1e-9)) }'
}
