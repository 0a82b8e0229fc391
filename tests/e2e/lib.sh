# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/lib.sh - sourced (bash) by every end-to-end test: starts a private
# Slurm cluster through tests/slurm/cluster.sh, stops it whatever happens, and
# counts the checks.  A test looks like:
#
#     #!/bin/bash
#     set -u
#     . "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
#     e2e_require_root_and_slurm
#     tmp=
#     e2e_tmpdir tmp
#     echo "required /path/of/plugin.so" >"$tmp/plugstack.conf"
#     PLUGSTACK=$tmp/plugstack.conf cluster_start 2
#     out=$(srun -Q -N2 -n2 printenv SLURMD_NODENAME | sort | tr '\n' ' ')
#     check_eq "one task per node" "$out" "n1 n2 "
#     e2e_finish
#
# After cluster_start the test has SLURM_CONF (exported), E2E_CLUSTER_DIR
# (the cluster; its logs are in E2E_CLUSTER_DIR/log), E2E_NNODES, and E2E_WORK,
# a scratch directory that every user may read and write.  CLUSTER_SH is
# tests/slurm/cluster.sh, for tests that start more clusters.
#
# Knobs (environment): E2E_USER=tmuser (the ordinary user of as_user),
# E2E_TIMEOUT=60 (seconds for one job in sbatch_wait and cluster_healthy),
# E2E_RUN_LIMIT=E2E_TIMEOUT (seconds after which tm_run and sbatch_wait give
# up on a job; a tm_run still going after E2E_TIMEOUT is described in the
# log first),
# E2E_TEST_TIMEOUT=600 (the whole test, then it is stopped as failed),
# E2E_TMPDIR=/tmp (where e2e_tmpdir makes directories; keep it short).
#
# The library owns the EXIT, INT, TERM and HUP traps: a test must not set its
# own.  Public names: e2e_*, cluster_*, ok, nok, check*, as_user, sbatch_wait.
# A test may start a second cluster (cluster_stop, then cluster_start: say a
# setting of slurm.conf only some of its checks need).

E2E_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# make check exports both; by hand, run the test from the top of the build
# tree.
top_srcdir=${top_srcdir:-$(cd "$E2E_LIB_DIR/../.." && pwd)}
top_builddir=${top_builddir:-$PWD}
export top_srcdir top_builddir
CLUSTER_SH=$(cd "$E2E_LIB_DIR/../slurm" && pwd)/cluster.sh
E2E_USER=${E2E_USER:-tmuser}
E2E_TIMEOUT=${E2E_TIMEOUT:-60}
E2E_RUN_LIMIT=${E2E_RUN_LIMIT:-$E2E_TIMEOUT}
E2E_TEST_TIMEOUT=${E2E_TEST_TIMEOUT:-600}
E2E_CHECKS=0
E2E_FAILED=0
_E2E_DIRS=()		# directories (maybe clusters) to stop and remove at exit
declare -A _E2E_LOG_MARK=()	# slurmd log -> its size at the previous check
_E2E_WATCHDOG=
_E2E_AT_EXIT=()		# functions to run at exit (e2e_at_exit)

# Variables of an outer Slurm job or user (make check run inside a job) would
# send our srun/sbatch to that job or cluster, or change their options.
while read -r _e2e_var; do
	case $_e2e_var in
	SLURM_CONF_EXTRA) ;;
	SLURM_* | SBATCH_* | SALLOC_* | SRUN_* | SQUEUE_* | SINFO_*) unset "$_e2e_var" ;;
	esac
done < <(compgen -e)
unset _e2e_var

# ---- requirements -----------------------------------------------------------

e2e_skip() {
	echo "SKIP: $*"
	exit 77
}

e2e_require_root_and_slurm() {
	# tests/run-all.sh runs the clusters once, not again inside distcheck
	[ "${TM_E2E:-}" != skip ] || e2e_skip "TM_E2E=skip"
	[ "$(id -u)" = 0 ] || e2e_skip "needs root (slurmd starts jobs as their users)"
	local c
	for c in slurmctld slurmd srun sbatch sinfo squeue scontrol scancel munged ss flock setpriv useradd; do
		command -v "$c" >/dev/null 2>&1 ||
			e2e_skip "$c not found (Debian: slurmctld slurmd slurm-client munge iproute2)"
	done
}

e2e_now_ms() { echo $((${EPOCHREALTIME/./} / 1000)); }

# The test's own output (its log under make check), kept before any
# redirection, so that a stall is described there even from inside a
# command whose output goes elsewhere.
exec {E2E_LOG_FD}>&1

# e2e_timeout SECONDS COMMAND...: COMMAND with a time limit, as timeout(1)
# does (exit 124 when it ran past it; COMMAND gets SIGTERM, then SIGKILL 5 s
# later), but a run still going after E2E_TIMEOUT seconds (or SECONDS, if
# shorter) is first described in the test's log (e2e_describe_stall: each
# thread of the test user's processes and of every slurmstepd, where it
# waits, and the MPI ranks' backtraces), so that a stall leaves where each
# thread waited.  With SECONDS longer than E2E_TIMEOUT, a slow run is
# described and then left to finish.
e2e_timeout() {
	local limit=$1 describe_at=$E2E_TIMEOUT pid ticks=0 described=
	shift
	[ "$describe_at" -lt "$limit" ] || describe_at=$limit
	"$@" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		if [ -z "$described" ] && [ "$ticks" -ge $((describe_at * 10)) ]; then
			e2e_describe_stall "$*" >&"$E2E_LOG_FD" 2>&1
			described=yes
		fi
		if [ "$ticks" -ge $((limit * 10)) ]; then
			_e2e_signal_tree TERM "$pid"
			ticks=0
			while kill -0 "$pid" 2>/dev/null && [ "$ticks" -lt 50 ]; do
				sleep 0.1
				ticks=$((ticks + 1))
			done
			_e2e_signal_tree KILL "$pid"
			wait "$pid"
			return 124
		fi
		sleep 0.1
		ticks=$((ticks + 1))
	done
	[ -z "$described" ] ||
		echo "# ... it ended by itself after $((ticks / 10)) s" >&"$E2E_LOG_FD"
	wait "$pid"
}

# _e2e_signal_tree SIGNAL PID: PID and all its descendants (COMMAND may be
# a function, whose subshell would leave its srun behind).
_e2e_signal_tree() {
	local -a tree=("$2")
	local i=0 child
	while [ "$i" -lt "${#tree[@]}" ]; do
		for child in $(pgrep -P "${tree[$i]}"); do
			tree+=("$child")
		done
		i=$((i + 1))
	done
	kill -"$1" "${tree[@]}" 2>/dev/null
}

# e2e_describe_stall WHAT: "# " lines: the cluster's jobs, then each
# process of E2E_USER and each slurmstepd with its state, blocked signals
# and CPUs, every thread's state and kernel wait channel (all of them
# first, a snapshot taken in well under a second), then the backtrace of
# every thread of the processes that run MPI (libmpi mapped), by eu-stack:
# gdb took over 30 s a process on a loaded machine and gave nothing.
e2e_describe_stall() {
	local pid tid
	local -a pids mpi=()
	echo "# ---- stalled: $1"
	squeue -h -o '%i %T %N %j' 2>&1 | sed 's/^/# squeue: /'
	mapfile -t pids < <(pgrep -u "$E2E_USER"; pgrep -x slurmstepd)
	for pid in "${pids[@]}"; do
		[ -r "/proc/$pid/status" ] || continue
		echo "# pid $pid ($(cat "/proc/$pid/comm" 2>/dev/null)): $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | cut -c1-160)"
		grep -E '^(State|SigBlk|Cpus_allowed_list)' "/proc/$pid/status" |
			tr -s '\t ' ' ' | sed 's/^/#   /'
		for tid in /proc/"$pid"/task/*; do
			echo "#   thread ${tid##*/} $(cut -d' ' -f3 "$tid/stat" 2>/dev/null) $(cat "$tid/wchan" 2>/dev/null) $(cat "$tid/comm" 2>/dev/null)"
		done
		grep -q 'libmpi' "/proc/$pid/maps" 2>/dev/null && mpi+=("$pid")
	done
	for pid in "${mpi[@]}"; do
		echo "# backtraces of pid $pid"
		timeout 20 eu-stack -n 15 -p "$pid" 2>&1 |
			grep -E '^(TID|#)' | sed 's/^/#   /'
	done
	echo "# ---- end of stall"
}

# e2e_slurm_release: the release of the Slurm whose commands are on PATH
# (Debian's, or one built by tests/slurm/release.sh), such as "26.05.3";
# after cluster_start (srun reads SLURM_CONF even for --version).
e2e_slurm_release() { srun --version 2>/dev/null | awk '{ print $2; exit }'; }

# e2e_slurm_at_least MAJOR.MINOR: that release or a later one runs here;
# for the checks of what only some releases do (doc/slurm-releases.md).
e2e_slurm_at_least() {
	local have want
	have=$(e2e_slurm_release | awk -F. '{ printf "%d%02d", $1, $2 }')
	want=$(echo "$1" | awk -F. '{ printf "%d%02d", $1, $2 }')
	[ -n "$have" ] && [ "$have" -ge "$want" ]
}

# ---- checks -----------------------------------------------------------------

ok() {
	E2E_CHECKS=$((E2E_CHECKS + 1))
	echo "ok - $1"
	_e2e_mark_logs
}

# A misspelt command in a test (or a tool missing on this machine) must
# fail the test, not pass it quietly.  Bash calls this in the subshell that
# tried the command, so the failure is reported there and flagged in a file
# the test's own shell reads at the end.
command_not_found_handle() {
	echo "not ok - command not found: $1"
	[ -n "${E2E_WORK:-}" ] && echo "$1" >>"$E2E_WORK/.command-not-found"
	return 127
}

# nok DESC [DETAILS...]: each DETAILS argument is printed, indented, after the
# "not ok" line, then what the slurmd logs said about jobs since the previous
# check.
nok() {
	E2E_CHECKS=$((E2E_CHECKS + 1))
	E2E_FAILED=$((E2E_FAILED + 1))
	echo "not ok - $1"
	shift
	local d
	for d in "$@"; do
		printf '%s\n' "$d" | tail -n 40 | sed 's/^/#   /'
	done
	_e2e_show_job_logs
	_e2e_mark_logs
}

# check DESC CMD...: passes when CMD succeeds; its output is shown only on
# failure.  CMD runs in a subshell: variables it sets are lost.
check() {
	local desc=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" = 0 ]; then
		ok "$desc"
	else
		nok "$desc" "\$ $* -> exit $rc" "$out"
	fi
}

check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		nok "$1" "got:  ${2//$'\n'/$'\n'      }" "want: ${3//$'\n'/$'\n'      }"
	fi
}

# check_match DESC TEXT REGEX: passes when a line of TEXT matches the
# extended REGEX (as grep -E).
check_match() {
	if printf '%s\n' "$2" | grep -qE -- "$3"; then
		ok "$1"
	else
		nok "$1" "no line matches /$3/ in:" "$2"
	fi
}

e2e_finish() {
	if [ -s "${E2E_WORK:-/nonexistent}/.command-not-found" ]; then
		E2E_FAILED=$((E2E_FAILED + 1))
		echo "# commands not found: $(sort -u "$E2E_WORK/.command-not-found" | paste -sd' ' -)"
	fi
	echo "# $E2E_CHECKS checks, $E2E_FAILED failed"
	if [ "$E2E_CHECKS" = 0 ]; then
		echo "# no check ran: that is a failure"
		exit 1
	fi
	[ "$E2E_FAILED" = 0 ] || exit 1
	exit 0
}

_e2e_mark_logs() {
	local f
	[ -n "${E2E_CLUSTER_DIR:-}" ] || return 0
	for f in "$E2E_CLUSTER_DIR"/log/slurmd-*.log; do
		[ -f "$f" ] && _E2E_LOG_MARK[$f]=$(stat -c %s "$f")
	done
}

_e2e_show_job_logs() {
	local f lines
	[ -n "${E2E_CLUSTER_DIR:-}" ] || return 0
	for f in "$E2E_CLUSTER_DIR"/log/slurmd-*.log; do
		[ -f "$f" ] || continue
		lines=$(tail -c +$((${_E2E_LOG_MARK[$f]:-0} + 1)) "$f" |
			grep -iE 'job|step|error|fatal|\[[0-9]+\.' | tail -n 12)
		[ -n "$lines" ] || continue
		echo "#   ${f##*/}, since the previous check:"
		printf '%s\n' "$lines" | sed 's/^/#     /'
	done
}

# ---- the cluster ------------------------------------------------------------

# e2e_tmpdir VAR: VAR = a new, short directory (/tmp/tm-e2e.XXXXXX), for
# files a test needs before cluster_start (its plugstack.conf) or for a
# second cluster.  At exit any cluster in it is stopped and it is removed
# (kept, and named, when a check failed).
e2e_tmpdir() {
	local d
	d=$(mktemp -d "${E2E_TMPDIR:-/tmp}/tm-e2e.XXXXXX") || {
		nok "make a directory in ${E2E_TMPDIR:-/tmp}"
		exit 1
	}
	chmod 755 "$d"	# munged and the jobs' users must traverse it
	_E2E_DIRS+=("$d")
	_e2e_install_traps
	printf -v "$1" %s "$d"
}

# cluster_start [NNODES]: start this test's cluster (default 2 nodes) with
# $PLUGSTACK, $TASK_PLUGIN and $SLURM_CONF_EXTRA if set; first stop what
# killed runs left behind.  Exits (failed) when the cluster does not start.
cluster_start() {
	local n=${1:-2} out
	"$CLUSTER_SH" gc 2>&1 | sed 's/^/# /'
	e2e_tmpdir E2E_CLUSTER_DIR
	# CLUSTER_OWNER_PID: $$ is this test even inside $(...); once it is gone
	# (killed without running its traps), the next gc stops the cluster.
	if ! out=$(CLUSTER_OWNER_PID=$$ NNODES=$n PLUGSTACK=${PLUGSTACK:-} \
		TASK_PLUGIN=${TASK_PLUGIN:-} SLURM_CONF_EXTRA=${SLURM_CONF_EXTRA:-} \
		"$CLUSTER_SH" up "$E2E_CLUSTER_DIR" 2>&1); then
		nok "a $n-node cluster starts" "$out"
		exit 1
	fi
	echo "# $out"
	export SLURM_CONF=$E2E_CLUSTER_DIR/etc/slurm.conf
	E2E_NNODES=$n
	E2E_WORK=$E2E_CLUSTER_DIR/work
	mkdir -m 1777 "$E2E_WORK"
	_e2e_mark_logs
}

# cluster_healthy: every node idle (none down, drained or not responding),
# every daemon alive, and a job on all nodes runs.  For after a test fed the
# cluster something bad; call it when no job of the test is running.
# cluster_stop: stop the cluster of the last cluster_start (its directory
# stays until the test ends), before a test starts another.
cluster_stop() {
	"$CLUSTER_SH" down "$E2E_CLUSTER_DIR" 2>&1 | sed 's/^/# /'
}

cluster_healthy() {
	local dir=${E2E_CLUSTER_DIR:?cluster_start first} n=${E2E_NNODES:?} states
	local deadline=$((SECONDS + 10))
	if ! "$CLUSTER_SH" status "$dir" >/dev/null; then
		echo "a daemon is gone:"
		"$CLUSTER_SH" status "$dir"
		return 1
	fi
	# right after a job its nodes may still be "completing" for a moment
	while states=$(sinfo -h -N -o '%N %t' 2>&1)
		[ "$(grep -c ' idle$' <<<"$states")" -lt "$n" ]; do
		if [ "$SECONDS" -ge "$deadline" ]; then
			printf 'not every node is idle:\n%s\n' "$states"
			return 1
		fi
		sleep 0.1
	done
	timeout "$E2E_TIMEOUT" srun -Q -N"$n" -n"$n" true ||
		{ echo "srun -N$n -n$n true failed"; return 1; }
}

# ---- jobs -------------------------------------------------------------------

# as_user CMD...: run a program as the ordinary user $E2E_USER (created if
# needed), in $E2E_WORK, with the test's environment (SLURM_CONF included).
as_user() {
	_e2e_ensure_user || return 1
	local dir=${E2E_WORK:-/tmp}
	(cd "$dir" && exec setpriv --reuid="$E2E_USER" --regid="$(id -g "$E2E_USER")" \
		--init-groups env HOME="$dir" USER="$E2E_USER" LOGNAME="$E2E_USER" "$@")
}

_e2e_ensure_user() {
	id -u "$E2E_USER" >/dev/null 2>&1 && return 0
	local lock=/run/lock
	[ -d "$lock" ] || lock=/tmp
	# Parallel tests may both get here, and useradd fails while another
	# holds /etc/passwd: one at a time, and look again once inside.
	(
		flock -w 30 9 || exit 1
		id -u "$E2E_USER" >/dev/null 2>&1 && exit 0
		if getent group "$E2E_USER" >/dev/null; then
			set -- --gid "$E2E_USER"
		else
			set -- --user-group
		fi
		useradd "$@" --no-create-home --shell /bin/sh \
			--comment "slurm-treematch end-to-end tests" "$E2E_USER"
	) 9>>"$lock/slurm-treematch-e2e-useradd.lock"
}

# sbatch_wait [--as-user] [SBATCH_OPTIONS...] SCRIPT [ARGS...]: submit (as
# $E2E_USER with --as-user: then give absolute paths), wait for the job to end
# (at most $E2E_TIMEOUT s, then cancel it), print its output file.  Succeeds
# when the job COMPLETED (exit code 0).  Output goes to
# $E2E_WORK/slurm-JOBID.out unless the options say otherwise.
sbatch_wait() {
	local -a runner=()
	local id state out deadline=$((SECONDS + E2E_RUN_LIMIT))
	if [ "${1:-}" = --as-user ]; then
		runner=(as_user)
		shift
	fi
	id=$("${runner[@]}" sbatch --parsable --output="${E2E_WORK:-$PWD}/slurm-%j.out" "$@") || {
		echo "sbatch $* failed" >&2
		return 1
	}
	id=${id%%;*}
	# squeue fails now and then on a busy controller: only an empty answer
	# or "Invalid job id" (purged already) means that the job has left
	while :; do
		if ! state=$(squeue -h -j "$id" -o %T 2>&1); then
			grep -q 'Invalid job id' <<<"$state" && break
			state=unknown
		fi
		[ -n "$state" ] || break
		if [ "$SECONDS" -ge "$deadline" ]; then
			scancel "$id"
			echo "job $id still $state after ${E2E_TIMEOUT}s: cancelled" >&2
			return 1
		fi
		sleep 0.1
	done
	state=$(scontrol show job "$id" 2>&1)
	out=$(sed -n 's/^ *StdOut=//p' <<<"$state")
	cat -- "$out" || echo "job $id: no output file $out" >&2
	grep -q 'JobState=COMPLETED ' <<<"$state" && return 0
	echo "job $id did not complete: $(grep -oE '(JobState|Reason|ExitCode)=[^ ]*' <<<"$state" | tr '\n' ' ')" >&2
	return 1
}

# ---- the end, whatever happens ----------------------------------------------

_e2e_install_traps() {
	[ -z "$_E2E_WATCHDOG" ] || return 0
	trap _e2e_on_exit EXIT
	trap '_e2e_on_signal INT 130' INT
	trap '_e2e_on_signal TERM 143' TERM
	trap '_e2e_on_signal HUP 129' HUP
	_e2e_start_watchdog
}

_e2e_on_signal() {
	echo "not ok - interrupted by SIG$1"
	E2E_CHECKS=$((E2E_CHECKS + 1))
	E2E_FAILED=$((E2E_FAILED + 1))
	exit "$2"
}

# A hung srun must not hang `make check` with a cluster up: after
# E2E_TEST_TIMEOUT the watchdog stops the test and what it is waiting for;
# the EXIT trap then stops the cluster.  It checks every second that the test
# is still its parent: when the test was killed outright, it leaves quietly
# (signalling $$ later could hit an unrelated process that reused the pid).
_e2e_start_watchdog() {
	(
		trap 'kill "$sleeper" 2>/dev/null; exit 0' TERM
		me=$BASHPID	# this subshell (inside $(...) BASHPID is another)
		for ((left = E2E_TEST_TIMEOUT; left > 0; left--)); do
			sleep 1 >/dev/null 2>&1 &
			sleeper=$!
			wait "$sleeper" || exit 0
			[ "$(_e2e_parent_of "$me")" = $$ ] || exit 0
		done
		echo "# the test ran for more than E2E_TEST_TIMEOUT=${E2E_TEST_TIMEOUT}s: stopping it"
		kill -TERM $$
		pkill -TERM -P $$	# the command the test waits for
	) </dev/null &
	_E2E_WATCHDOG=$!
}

_e2e_parent_of() {
	local stat
	read -r stat 2>/dev/null <"/proc/$1/stat" || return 1
	stat=${stat##*) }	# skip the command name, which may hold spaces
	stat=${stat#* }		# and the state
	echo "${stat%% *}"
}

# e2e_at_exit FUNC: run FUNC when the test ends, whatever the reason
# (before its clusters stop), e.g. to undo what it changed on the machine;
# FUNC failing fails the test.
e2e_at_exit() {
	_E2E_AT_EXIT+=("$1")
	_e2e_install_traps
}

# A directory with an "owner" file holds a cluster (see cluster.sh).
_e2e_on_exit() {
	local rc=$? d out f
	trap - EXIT INT TERM HUP
	[ -z "$_E2E_WATCHDOG" ] || kill -TERM "$_E2E_WATCHDOG" 2>/dev/null
	for f in "${_E2E_AT_EXIT[@]}"; do
		"$f" || rc=1
	done
	for d in "${_E2E_DIRS[@]}"; do
		[ -f "$d/owner" ] || continue
		out=$("$CLUSTER_SH" down "$d" 2>&1) || rc=1
		printf '%s\n' "$out" | sed 's/^/# /'
	done
	if [ "$E2E_FAILED" = 0 ] && { [ "$rc" = 0 ] || [ "$rc" = 77 ]; }; then
		rm -rf -- "${_E2E_DIRS[@]}"
	else
		for d in "${_E2E_DIRS[@]}"; do
			if [ -d "$d/log" ]; then
				echo "# kept $d for a look (logs: $d/log/*.log)"
			elif [ -d "$d" ]; then
				echo "# kept $d"
			fi
		done
	fi
	exit "$rc"
}
