#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cluster.sh - a throwaway but real Slurm cluster on this one machine: a
# private munged, one slurmctld and NNODES slurmd "nodes" (n1..nN, all on
# 127.0.0.1, one TCP port each).  Used by the end-to-end tests (through
# tests/e2e/lib.sh) and by the README's demo.
#
#   cluster.sh up DIR      start a cluster whose every file lives under DIR
#                          (new, empty, or the directory of an earlier cluster)
#   cluster.sh down DIR    stop it, wait until its processes are gone
#   cluster.sh status DIR  list its daemons; exit 0 when all of them are alive
#   cluster.sh restart DIR NODE
#                          stop node NODE's slurmd (n1, n2...) and start it
#                          again; its running jobs' slurmstepds live on
#   cluster.sh gc          stop the clusters whose owner process is gone and
#                          remove their directories
#
# Environment for `up`:
#   NNODES=2                number of slurmd nodes
#   PLUGSTACK=FILE          plugstack.conf to use (default: an empty one,
#                           DIR/etc/plugstack.conf)
#   TASK_PLUGIN=task/affinity
#   SLURM_CONF_EXTRA=LINES  appended to slurm.conf (later settings win)
#   TOPOLOGY_CONF=LINES     a switch tree: written as topology.conf, with
#                           TopologyPlugin=$TOPOLOGY_PLUGIN
#   TOPOLOGY_PLUGIN=topology/tree  (topology/block for BlockName= lines)
#   TOPOLOGY_YAML=TEXT      topology.yaml instead (Slurm 25.05 and later:
#                           several topologies, one per partition)
#   BASE_PORT=N             slurmctld's port; node i listens on N+i (default:
#                           the first free block above 20000, picked under a
#                           lock so that parallel runs never share one)
#   CLUSTER_OWNER_PID=PID   once PID is gone, `gc` stops the cluster (default:
#                           the caller, $PPID; 1 keeps it until `down`)
# For every subcommand:
#   CLUSTER_TIMEOUT=30      seconds to wait for a daemon or the nodes
#   CLUSTER_LOCK_TIMEOUT=180 seconds to wait for the lock
#   CLUSTER_REGISTRY=/run/slurm-treematch-clusters
#                           the lock and the list of live clusters, for `gc`
#
# After `up`, `. DIR/env.sh` exports SLURM_CONF; the daemons' logs are
# DIR/log/*.log.  Needs root, Slurm 22.05 (slurmctld, slurmd, client
# commands), munge, iproute2 (ss) and util-linux (flock).  It never touches
# /etc/slurm, the system's munged or systemd, and configures no cgroup; but
# slurmd 22.05 still needs /sys/fs/cgroup mounted ("No filesystem mounted
# on /sys/fs/cgroup" otherwise, in a container or chroot): `up` checks.
set -u
shopt -s nullglob

PROG=${0##*/}
REGISTRY=${CLUSTER_REGISTRY:-/run/slurm-treematch-clusters}
TIMEOUT=${CLUSTER_TIMEOUT:-30}
# The lock's holder starts munged, slurmctld and the slurmds, and may wait
# TIMEOUT for each: on a loaded machine two tests starting at once waited
# the other out past 30 s (a fresh root's run failed two tests so).
LOCK_TIMEOUT=${CLUSTER_LOCK_TIMEOUT:-$((TIMEOUT * 6))}
# Every process a cluster starts carries this variable: the daemons get it from
# `up`, slurmstepd inherits it from slurmd and the TaskProlog gives it to every
# task.  `down` finds leftover job processes by it, never by name, so it cannot
# hit another cluster's processes nor anything else on the machine.
MARKER=TREEMATCH_TEST_CLUSTER
# The daemons' and srun's unix sockets live under DIR (munged's socket, the
# slurmstepd sockets in DIR/spool/nN, PMIx's in DIR/tmp/nN), and a socket path
# must fit in 108 bytes.
MAX_DIR_LEN=64
FIRST_AUTO_PORT=20000
LAST_AUTO_PORT=32767	# below the kernel's ephemeral ports (32768-60999)

# An outer Slurm job's variables (make check run inside a job) would steer our
# client commands to the wrong job or cluster.  SLURM_CONF_EXTRA is ours.
CONF_EXTRA=${SLURM_CONF_EXTRA:-}
while read -r var; do unset "$var"; done < <(compgen -e | grep '^SLURM_')

say() { printf '%s: %s\n' "$PROG" "$*"; }
warn() { say "$*" >&2; }
die() { warn "$*"; exit 1; }

usage() {
	sed -n '2,/^set -u/{/^#/s/^# \{0,1\}//p}' "$0"
	exit "$1"
}

now_us() { echo "${EPOCHREALTIME/./}"; }
seconds_since() {	# seconds_since START_US -> "0.23"
	local us=$(($(now_us) - $1))
	printf '%d.%02d' $((us / 1000000)) $((us % 1000000 / 10000))
}

# ---- processes --------------------------------------------------------------

# proc_stat PID: prints "STATE STARTTIME PPID" from /proc/PID/stat.
proc_stat() {
	local line
	read -r line 2>/dev/null <"/proc/$1/stat" || return 1
	line=${line##*) }	# the command name may hold spaces and parentheses
	# shellcheck disable=SC2086 # splitting the fields is the point
	set -- $line
	printf '%s %s %s\n' "$1" "${20}" "$2"
}

# alive PID [STARTTIME]: PID exists and is not a zombie (PID 1 here reaps
# orphans only seconds later, so kill -0 would see exited daemons as alive)
# and, when STARTTIME is given, is still the process we recorded and not a
# newer one that reused the pid.
alive() {
	local st
	st=$(proc_stat "$1") || return 1
	case ${st%% *} in Z | X | x) return 1 ;; esac
	local rest=${st#* }
	[ -z "${2:-}" ] || [ "${rest%% *}" = "$2" ]
}

start_time() {
	local st
	st=$(proc_stat "$1") || return 1
	st=${st#* }
	echo "${st%% *}"
}

# wait_gone SECONDS PID:START...: wait until none of them is alive.
wait_gone() {
	local deadline=$((SECONDS + $1)) p left
	shift
	while :; do
		left=0
		for p in "$@"; do alive "${p%:*}" "${p#*:}" && left=1; done
		[ "$left" = 0 ] && return 0
		[ "$SECONDS" -lt "$deadline" ] || return 1
		sleep 0.02
	done
}

# stop_procs SECONDS PID:START...: TERM them, wait, then KILL what is left.
stop_procs() {
	local wait=$1 p
	shift
	[ $# -gt 0 ] || return 0
	for p in "$@"; do alive "${p%:*}" "${p#*:}" && kill -TERM "${p%:*}" 2>/dev/null; done
	wait_gone "$wait" "$@" && return 0
	for p in "$@"; do
		alive "${p%:*}" "${p#*:}" || continue
		warn "pid ${p%:*} ignored SIGTERM for ${wait}s: SIGKILL"
		kill -KILL "${p%:*}" 2>/dev/null
	done
	wait_gone 5 "$@" || { warn "some processes of $DIR would not die: $*"; return 1; }
}

# marked_procs: "PID:START" of every process carrying this cluster's marker,
# except this script and its ancestors (down may be run from inside a job).
marked_procs() {
	local -A mine=()
	local p=$$ st f
	while [ "$p" -gt 1 ]; do
		mine[$p]=1
		st=$(proc_stat "$p") || break
		p=${st##* }
	done
	while read -r f; do
		p=${f#/proc/}
		p=${p%/environ}
		[ -n "${mine[$p]:-}" ] && continue
		st=$(start_time "$p") && echo "$p:$st"
	done < <(grep -lzxF -- "$MARKER=$DIR" /proc/[0-9]*/environ 2>/dev/null)
}

# ---- registry: the lock and the list of live clusters -----------------------

registry_init() {
	mkdir -p "$REGISTRY/clusters" || die "cannot create $REGISTRY"
	chmod 755 "$REGISTRY"
}

# take_lock: serialise port picking and gc between parallel runs.  Fd 9 must
# never reach a daemon: it would hold the lock for its whole life.
take_lock() {
	exec 9>>"$REGISTRY/lock" || die "cannot open $REGISTRY/lock"
	flock -w "$LOCK_TIMEOUT" 9 || die "waited ${LOCK_TIMEOUT}s for $REGISTRY/lock"
}
release_lock() { exec 9>&-; }

registry_entry() { echo "$REGISTRY/clusters/${1//\//%}"; }
register() { ln -sfn "$DIR" "$(registry_entry "$DIR")"; }
unregister() { rm -f "$(registry_entry "$DIR")"; }

# ---- ports ------------------------------------------------------------------

listening_ports() {
	ss -Htln | awk '{ n = split($4, a, ":"); print a[n] }' | sort -nu
}

# free_block COUNT: the first port of COUNT consecutive free ports.
free_block() {
	listening_ports | awk -v n="$1" -v b="$FIRST_AUTO_PORT" -v hi="$LAST_AUTO_PORT" '
		$1 >= b && $1 < b + n { b = $1 + 1 }
		END { if (b + n - 1 <= hi) print b }'
}

# ports_in_use FIRST LAST: prints those already listened on.
ports_in_use() {
	listening_ports | awk -v lo="$1" -v hi="$2" '$1 >= lo && $1 <= hi'
}

# listens PID PORT: that very process (not another cluster's) has the port.
listens() {
	ss -Htlnp "sport = :$2" | grep -q "pid=$1,"
}

# ---- up ---------------------------------------------------------------------

# check_dir_name: before anything is created.
check_dir_name() {
	case $DIR in
	/ | *[!A-Za-z0-9._/-]*)
		# slurm.conf and the TaskProlog's output take paths unquoted
		die "DIR must be a plain path (letters, digits, . _ - /): $DIR" ;;
	esac
	[ "${#DIR}" -le "$MAX_DIR_LEN" ] ||
		die "DIR is ${#DIR} bytes long, at most $MAX_DIR_LEN: unix socket paths under it must stay below 108 bytes"
}

# check_dir_parents: munged refuses a socket unless every directory above it
# is a+x, and the jobs of other users must reach the socket and slurm.conf.
check_dir_parents() {
	local p=$DIR
	while [ -n "$p" ]; do
		p=${p%/*}
		(($(stat -c '%#a' "${p:-/}") & 1)) ||
			die "${p:-/} is not a+x (munged and the jobs' users must traverse it)"
	done
}

up_failed() {
	trap - INT TERM
	warn "up failed: $*"
	local log
	for log in "$DIR"/log/*.log; do
		[ -s "$log" ] || continue
		printf '==> %s (last lines) <==\n' "$log"
		tail -n 15 "$log"
	done >&2
	release_lock
	cmd_down >&2
	exit 1
}

# launch NAME CMD...: start a daemon that forks itself into the background,
# with the marker in its environment, no descriptor but 0-2 (the lock's fd 9
# and whatever our caller holds open, e.g. its own lock file, would stay
# open in the daemon for its whole life) and its early complaints (before
# it opens its log) in DIR/log/NAME.log.
launch() {
	local name=$1
	shift
	(
		local fd
		exec </dev/null >>"$DIR/log/$name.log" 2>&1
		for fd in /proc/$BASHPID/fd/*; do
			fd=${fd##*/}
			[ "$fd" -gt 2 ] 2>/dev/null && eval "exec $fd>&-"
		done
		exec env "$MARKER=$DIR" "$@"
	)
}

# record NAME PIDFILE: wait for the daemon's pid file, append "NAME PID
# STARTTIME" to DIR/pids and set PID and START.
record() {
	local deadline=$((SECONDS + TIMEOUT))
	PID=""
	while :; do
		read -r PID 2>/dev/null <"$2"
		[ -n "$PID" ] && START=$(start_time "$PID") && break
		[ "$SECONDS" -lt "$deadline" ] || up_failed "$1 wrote no pid to $2"
		sleep 0.01
	done
	echo "$1 $PID $START" >>"$DIR/pids"
}

# wait_listening NAME PID START PORT
wait_listening() {
	local deadline=$((SECONDS + TIMEOUT))
	until listens "$2" "$4"; do
		alive "$2" "$3" || up_failed "$1 died before listening on port $4"
		[ "$SECONDS" -lt "$deadline" ] || up_failed "$1 is not listening on port $4"
		sleep 0.01
	done
}

write_slurm_conf() {
	local host hw nodes ports last=$((BASE_PORT + NNODES))
	host=$(hostname -s)
	# The node's hardware exactly as slurmd detects it, or slurmd would
	# register with less than configured and be drained.
	hw=$(SLURM_CONF=$DIR/etc/slurm.conf slurmd -C | head -n 1 | tr ' ' '\n' |
		grep -E '^(CPUs|Boards|SocketsPerBoard|CoresPerSocket|ThreadsPerCore|RealMemory)=' |
		tr '\n' ' ')
	[ -n "$hw" ] || up_failed "slurmd -C printed no hardware line"
	if [ "$NNODES" -eq 1 ]; then
		nodes=n1 ports=$last
	else
		nodes="n[1-$NNODES]" ports="[$((BASE_PORT + 1))-$last]"
	fi
	cat >"$DIR/etc/slurm.conf" <<EOF
# Generated by $PROG for a throwaway test cluster: every file under $DIR.
ClusterName=tm$BASE_PORT
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$BASE_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$DIR/munge/munge.socket
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool/%n
# Per node: mpi/pmix makes spmix_appdir_<uid>_<job>.<step> there, which would
# collide between the slurmds of one host sharing /tmp.
TmpFS=$DIR/tmp/%n
SlurmctldPidFile=$DIR/run/slurmctld.pid
SlurmdPidFile=$DIR/run/slurmd-%n.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$PLUGSTACK
TaskProlog=$DIR/etc/task-prolog.sh
TaskPlugin=$TASK_PLUGIN
# No cgroups, no systemd, no accounting database.
ProctrackType=proctrack/linuxproc
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
SwitchType=switch/none
# slurmctld refuses to start when the mail program is missing.
MailProg=/bin/true
# Batch jobs start about 1 s after sbatch rather than 3 s.
SchedulerParameters=batch_sched_delay=0
ReturnToService=2
InactiveLimit=0
KillWait=2
NodeName=$nodes NodeHostname=$host NodeAddr=127.0.0.1 Port=$ports ${hw}State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
	[ -z "$CONF_EXTRA" ] || printf '%s\n' "$CONF_EXTRA" >>"$DIR/etc/slurm.conf"
	if [ -n "${TOPOLOGY_YAML:-}" ]; then
		# Slurm 25.05 and later: several topologies, chosen per partition
		printf '%s\n' "$TOPOLOGY_YAML" >"$DIR/etc/topology.yaml"
	elif [ -n "${TOPOLOGY_CONF:-}" ]; then
		# Slurm reads topology.conf beside slurm.conf
		printf '%s\n' "$TOPOLOGY_CONF" >"$DIR/etc/topology.conf"
		echo "TopologyPlugin=${TOPOLOGY_PLUGIN:-topology/tree}" >>"$DIR/etc/slurm.conf"
	fi
}

# The TaskProlog's "export NAME=VALUE" lines reach every task's environment.
write_task_prolog() {
	cat >"$DIR/etc/task-prolog.sh" <<EOF
#!/bin/sh
# Generated by $PROG: runs as the job's user before each task.
echo "export $MARKER=$DIR"
# Open MPI 4.1 on several slurmd "nodes" of one host: the default ob1 PML with
# the vader BTL crashes, the ranks of two nodes naming their segments alike
# in /dev/shm (btl_vader_backing_directory per node cures that; the UCX PML
# has been the tests' since, doc/loop.md "Known noise").
echo "export OMPI_MCA_pml=ucx"
echo "export OMPI_MCA_pml_ucx_tls=any"
echo "export OMPI_MCA_pml_ucx_devices=any"
echo "export OMPI_MCA_btl=self"
# Session directories per cluster and node: job ids repeat across clusters.
echo "export OMPI_MCA_orte_tmpdir_base=$DIR/tmp/\$SLURMD_NODENAME"
EOF
	chmod 755 "$DIR/etc/task-prolog.sh"
}

fresh_dirs() {
	local -a node_dirs
	mapfile -t node_dirs < <(seq -f "$DIR/spool/n%g" "$NNODES"; seq -f "$DIR/tmp/n%g" "$NNODES")
	rm -rf "${DIR:?}"/{state,spool,log,run,tmp,munge} "$DIR"/{pids,ports,env.sh}
	if ! mkdir -p "$DIR/etc" ||
		! mkdir -m 755 "$DIR"/{state,spool,log,run,tmp,munge} "${node_dirs[@]}"; then
		die "cannot create the directories of $DIR"
	fi
	chmod 1777 "$DIR"/tmp/n*	# the jobs of any user write there
}

start_munged() {
	head -c 1024 /dev/urandom >"$DIR/munge/munge.key"
	chmod 400 "$DIR/munge/munge.key"
	launch munged munged \
		--key-file="$DIR/munge/munge.key" \
		--socket="$DIR/munge/munge.socket" \
		--pid-file="$DIR/munge/munged.pid" \
		--seed-file="$DIR/munge/munged.seed" \
		--log-file="$DIR/log/munged.log" || up_failed "munged exited with status $?"
	record munged "$DIR/munge/munged.pid"
}

cmd_up() {
	local t0 owner owner_start i last busy
	t0=$(now_us)
	NNODES=${NNODES:-2}
	TASK_PLUGIN=${TASK_PLUGIN:-task/affinity}
	case $NNODES in '' | *[!0-9]* | 0) die "NNODES must be a positive number, not '$NNODES'" ;; esac
	local b
	for b in munged slurmctld slurmd sinfo squeue scancel ss flock; do
		command -v "$b" >/dev/null || die "$b is not installed"
	done
	grep -q '^[^ ]* /sys/fs/cgroup ' /proc/self/mounts ||
		die "/sys/fs/cgroup is not mounted: slurmd 22.05 needs it, cgroup plugins or not (in a container or chroot: mount -t cgroup2 none /sys/fs/cgroup)"
	check_dir_name
	owner=${CLUSTER_OWNER_PID:-$PPID}
	owner_start=$(start_time "$owner") || die "owner process $owner is not running"

	mkdir -p "$DIR" || die "cannot create $DIR"
	chmod 755 "$DIR"
	check_dir_parents
	# DIR/owner marks a cluster's directory: `up` wipes what it made there
	# before, and `gc` removes it all, so never take a directory with files
	# of someone else in it.
	if [ ! -f "$DIR/owner" ] && [ -n "$(ls -A "$DIR")" ]; then
		die "$DIR is neither empty nor a cluster's directory: give a new or empty one"
	fi
	if load_pids && any_daemon_alive; then
		die "a cluster is already running in $DIR (stop it with: $PROG down $DIR)"
	fi
	echo "$owner $owner_start" >"$DIR/owner"
	fresh_dirs
	if [ -z "${PLUGSTACK:-}" ]; then
		PLUGSTACK=$DIR/etc/plugstack.conf
		: >"$PLUGSTACK"
	fi
	[ -r "$PLUGSTACK" ] || die "cannot read PLUGSTACK $PLUGSTACK"
	export SLURM_CONF=$DIR/etc/slurm.conf
	registry_init
	register
	trap 'up_failed "interrupted"' INT TERM

	# From picking the ports until every daemon listens on its own, another
	# run could pick the same ones: hold the lock meanwhile.
	take_lock
	if [ -n "${BASE_PORT:-}" ]; then
		case $BASE_PORT in *[!0-9]*) up_failed "BASE_PORT must be a number" ;; esac
	else
		BASE_PORT=$(free_block $((NNODES + 1)))
		[ -n "$BASE_PORT" ] || up_failed "no $((NNODES + 1)) free ports in $FIRST_AUTO_PORT-$LAST_AUTO_PORT"
	fi
	last=$((BASE_PORT + NNODES))
	busy=$(ports_in_use "$BASE_PORT" "$last" | tr '\n' ' ')
	[ -z "$busy" ] || up_failed "port(s) already in use: $busy(another cluster would answer our commands)"
	seq "$BASE_PORT" "$last" >"$DIR/ports"

	write_slurm_conf
	write_task_prolog
	start_munged
	launch slurmctld slurmctld -i -f "$SLURM_CONF" || up_failed "slurmctld exited with status $?"
	record slurmctld "$DIR/run/slurmctld.pid"
	wait_listening slurmctld "$PID" "$START" "$BASE_PORT"
	# Each slurmd takes some 30 ms to daemonise: start them all at once.
	local -a launchers=()
	for ((i = 1; i <= NNODES; i++)); do
		launch "slurmd-n$i" slurmd -N "n$i" -f "$SLURM_CONF" &
		launchers+=($!)
	done
	for ((i = 1; i <= NNODES; i++)); do
		wait "${launchers[i - 1]}" || up_failed "slurmd -N n$i exited with status $?"
	done
	for ((i = 1; i <= NNODES; i++)); do
		record "slurmd-n$i" "$DIR/run/slurmd-n$i.pid"
		wait_listening "slurmd-n$i" "$PID" "$START" $((BASE_PORT + i))
	done
	release_lock

	wait_nodes_idle
	printf 'export SLURM_CONF=%q\n' "$SLURM_CONF" >"$DIR/env.sh"
	trap - INT TERM
	say "$NNODES node(s) up in $DIR, ports $BASE_PORT-$last, $(seconds_since "$t0") s"
}

wait_nodes_idle() {
	local deadline=$((SECONDS + TIMEOUT)) idle
	while :; do
		idle=$(sinfo -h -N -t idle -o '%N' 2>/dev/null | sort -u | wc -l)
		[ "$idle" -ge "$NNODES" ] && return 0
		any_daemon_dead && up_failed "a daemon died while the nodes registered"
		[ "$SECONDS" -lt "$deadline" ] || up_failed "only $idle of $NNODES nodes idle after ${TIMEOUT}s: $(sinfo -h -N -o '%N=%T' 2>&1 | tr '\n' ' ')"
		sleep 0.02
	done
}

# ---- the recorded daemons ---------------------------------------------------

# load_pids: NAMES, PIDS and STARTS from DIR/pids; false when there is none.
load_pids() {
	NAMES=() PIDS=() STARTS=()
	[ -s "$DIR/pids" ] || return 1
	local n p s
	while read -r n p s; do
		NAMES+=("$n") PIDS+=("$p") STARTS+=("$s")
	done <"$DIR/pids"
}

any_daemon_alive() {
	local i
	for i in "${!PIDS[@]}"; do alive "${PIDS[i]}" "${STARTS[i]}" && return 0; done
	return 1
}

any_daemon_dead() {
	local i
	load_pids || return 1
	for i in "${!PIDS[@]}"; do alive "${PIDS[i]}" "${STARTS[i]}" || return 0; done
	return 1
}

# daemons [-v] NAME_PATTERN: "PID:START" of the recorded daemons whose name
# matches (or, with -v, does not match) the glob.
daemons() {
	local invert=0 i
	[ "$1" = -v ] && invert=1 && shift
	for i in "${!NAMES[@]}"; do
		# shellcheck disable=SC2053 # the pattern is a glob on purpose
		if [[ ${NAMES[i]} == $1 ]]; then
			[ "$invert" = 0 ] && echo "${PIDS[i]}:${STARTS[i]}"
		else
			[ "$invert" = 1 ] && echo "${PIDS[i]}:${STARTS[i]}"
		fi
	done
}

# ---- down -------------------------------------------------------------------

# cancel_jobs: let slurmstepd end every job properly (tasks killed, files
# closed) before the daemons go.  Asked only of our own live slurmctld: when
# it is gone another cluster may have its port.
cancel_jobs() {
	local ctld deadline=$((SECONDS + TIMEOUT)) ids
	ctld=$(daemons slurmctld)
	[ -n "$ctld" ] && alive "${ctld%:*}" "${ctld#*:}" || return 0
	ids=$(squeue -h -o %A 2>/dev/null)
	[ -n "$ids" ] || return 0
	# shellcheck disable=SC2086 # one job id per word
	scancel $ids 2>/dev/null
	while [ -n "$(squeue -h -o %A 2>/dev/null)" ] && [ "$SECONDS" -lt "$deadline" ]; do
		sleep 0.05
	done
}

cmd_down() {
	local t0 n=0
	t0=$(now_us)
	[ ! -d "$REGISTRY" ] || unregister
	if [ ! -f "$DIR/owner" ]; then
		say "nothing to stop: no cluster in $DIR"
		return 0
	fi
	export SLURM_CONF=$DIR/etc/slurm.conf
	if load_pids; then
		n=${#PIDS[@]}
		cancel_jobs
		# shellcheck disable=SC2046 # one PID:START per word
		stop_procs 10 $(daemons -v munged)
	fi
	# slurmstepds and tasks that outlived their slurmd (a job that would not
	# end, a killed slurmd)
	# shellcheck disable=SC2046
	stop_procs 5 $(marked_procs)
	# munged last: the others use it until they are gone
	# shellcheck disable=SC2046
	stop_procs 5 $(daemons munged)
	rm -f "$DIR/pids"
	if [ "$n" = 0 ]; then
		say "nothing was running in $DIR"
	else
		say "stopped $n daemon(s) of $DIR in $(seconds_since "$t0") s"
	fi
}

# ---- status -----------------------------------------------------------------

cmd_status() {
	local i state all=0
	load_pids || { say "no cluster started in $DIR"; return 1; }
	for i in "${!PIDS[@]}"; do
		if alive "${PIDS[i]}" "${STARTS[i]}"; then state=alive; else state=dead all=1; fi
		printf '%-12s %8s  %s\n' "${NAMES[i]}" "${PIDS[i]}" "$state"
	done
	return "$all"
}

# ---- restart ----------------------------------------------------------------

# cmd_restart NODE: stop node NODE's slurmd (SIGTERM, as systemctl restart
# does; its slurmstepds and jobs live on) and start it again, as a site
# restarts slurmd under load.  The new pid replaces the old in DIR/pids.
cmd_restart() {
	local node=$1 i old port t0
	t0=$(now_us)
	case $node in n[1-9]*) ;; *) die "restart: expected a node name such as n1, not '$node'" ;; esac
	i=${node#n}
	load_pids || die "no cluster started in $DIR"
	old=$(daemons "slurmd-$node")
	[ -n "$old" ] || die "restart: no slurmd-$node in $DIR/pids"
	port=$(sed -n "$((i + 1))p" "$DIR/ports")
	[ -n "$port" ] || die "restart: no port for $node in $DIR/ports"
	export SLURM_CONF=$DIR/etc/slurm.conf
	stop_procs 10 "$old" || die "restart: slurmd-$node would not stop"
	rm -f "$DIR/run/slurmd-$node.pid"
	launch "slurmd-$node" slurmd -N "$node" -f "$SLURM_CONF" ||
		die "restart: slurmd -N $node exited with status $?"
	up_failed() { die "restart: $*"; }
	record "slurmd-$node.new" "$DIR/run/slurmd-$node.pid"
	wait_listening "slurmd-$node" "$PID" "$START" "$port"
	# one line per daemon: the new one in place of the old
	awk -v name="slurmd-$node" -v line="slurmd-$node $PID $START" '
		$1 == name { next }
		$1 == name ".new" { print line; next }
		{ print }' "$DIR/pids" >"$DIR/pids.new" && mv "$DIR/pids.new" "$DIR/pids"
	say "restarted slurmd of $node in $DIR (pid $PID), $(seconds_since "$t0") s"
}

# ---- gc ---------------------------------------------------------------------

cmd_gc() {
	local entry opid ostart
	registry_init
	# Under the lock, so that two gc runs never stop one cluster together.
	take_lock
	for entry in "$REGISTRY"/clusters/*; do
		DIR=$(readlink "$entry") || continue
		if [ ! -d "$DIR" ]; then
			rm -f "$entry"
			continue
		fi
		opid="" ostart=""
		read -r opid ostart 2>/dev/null <"$DIR/owner"
		[ -n "$opid" ] && alive "$opid" "$ostart" && continue
		say "gc: the owner (pid ${opid:-?}) of $DIR is gone: stopping its cluster"
		(cmd_down)
		# `up` took DIR empty: all of it is the cluster's (and its jobs')
		[ ! -f "$DIR/owner" ] || rm -rf "${DIR:?}"
		rm -f "$entry"
	done
	release_lock
}

# ---- main -------------------------------------------------------------------

[ "${1:-}" = -h ] || [ "${1:-}" = --help ] && usage 0
[ "$(id -u)" = 0 ] || die "must run as root (slurmd starts jobs as their users)"
case ${1:-}:$# in
up:2 | down:2 | status:2)
	DIR=$(realpath -m -- "$2") || die "bad directory $2"
	"cmd_$1"
	;;
restart:3)
	DIR=$(realpath -m -- "$2") || die "bad directory $2"
	cmd_restart "$3"
	;;
gc:1) cmd_gc ;;
*) usage 2 >&2 ;;
esac
