#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fresh-root.sh - the README's two commands on a truly fresh Debian 12
# machine: a minimal root made by `debootstrap --variant=minbase bookworm`,
# with what a real machine mounts (proc, sys and its cgroups, dev, dev/pts,
# dev/shm, run; and this machine's lock for test cluster ports: the network
# is shared), the tree cloned into root's own 0700 home, ../shared
# beside it read-only; then, in a chroot, contrib/demo.sh and
# tests/run-all.sh, each with its wall time and last line.  A package that
# contrib/install-deps.sh forgets shows up here, not on a machine where
# someone installed it by hand.  `make check-fresh-root`; not in CI or make
# check (root, network, about 45 minutes: debootstrap 1, the demo 2,
# run-all.sh 40 with the Slurm build from ../shared/slurm).
#
#   tests/slurm/fresh-root.sh
#
# Environment:
#   FRESH_ROOT_TREE=DIR     the git tree to clone (default: the one this
#                           script is in); its committed HEAD is what runs
#   FRESH_ROOT_SHARED=DIR   bound read-only as ../shared (default:
#                           TREE/../shared, when there)
#   FRESH_ROOT_DIR=DIR      where the root is made (default: a new
#                           directory in /var/tmp), removed at the end
#   FRESH_ROOT_KEEP=yes     keep the root (unmounted) for a look
#   FRESH_ROOT_LOGS=DIR     the logs (default: ./fresh-root-logs)
#   FRESH_ROOT_MIRROR=URL   Debian mirror (default: the first of apt's
#                           sources, else http://deb.debian.org/debian)
#   FRESH_ROOT_TIMEOUT=S    seconds each command may take (default 5400)
#   FRESH_ROOT_COMMANDS     what runs in the root, one per line (default:
#                           the README's contrib/demo.sh, tests/run-all.sh)
#
# Exit status: 0 when both commands exit 0, 1 otherwise.
set -u

# Bash reads a script as it runs: editing this file during the hour it
# takes would change what runs.  Run from a copy.
if [ -z "${FRESH_ROOT_RUNNING_COPY:-}" ]; then
	self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
	: "${FRESH_ROOT_TREE:=$(cd "$(dirname "$0")/../.." && pwd)}"
	copy=$(mktemp /tmp/fresh-root.XXXXXX.sh) || exit 1
	cp "$self" "$copy" || exit 1
	FRESH_ROOT_RUNNING_COPY=$copy FRESH_ROOT_TREE=$FRESH_ROOT_TREE \
		bash "$copy" "$@"
	rc=$?
	rm -f "$copy"
	exit "$rc"
fi

say() { printf 'fresh-root: %s\n' "$*"; }
die() {
	printf 'fresh-root: error: %s\n' "$*" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || die "run me as root (debootstrap, mount, chroot)"
tree=$(cd "$FRESH_ROOT_TREE" && pwd) || die "FRESH_ROOT_TREE=$FRESH_ROOT_TREE: no such directory"
git -C "$tree" rev-parse --git-dir >/dev/null 2>&1 ||
	die "$tree: not a git tree (FRESH_ROOT_TREE): the root gets a clone"
shared=${FRESH_ROOT_SHARED:-$tree/../shared}
[ -d "$shared" ] && shared=$(cd "$shared" && pwd) || shared=
logs=${FRESH_ROOT_LOGS:-$PWD/fresh-root-logs}
mkdir -p "$logs" && logs=$(cd "$logs" && pwd) || die "cannot make $logs"
limit=${FRESH_ROOT_TIMEOUT:-5400}
readme_commands='contrib/demo.sh
tests/run-all.sh'
commands=${FRESH_ROOT_COMMANDS:-$readme_commands}

mirror=${FRESH_ROOT_MIRROR:-}
if [ -z "$mirror" ]; then
	mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources 2>/dev/null |
		awk '$1 == "deb" && $2 ~ /^https?:/ && $2 !~ /security/ { print $2; exit }
		     $1 == "URIs:" && $2 ~ /^https?:/ && $2 !~ /security/ { print $2; exit }')
	: "${mirror:=http://deb.debian.org/debian}"
fi

if ! command -v debootstrap >/dev/null; then
	say "installing debootstrap"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null ||
		die "apt-get install debootstrap failed"
fi

root=${FRESH_ROOT_DIR:-}
if [ -z "$root" ]; then
	root=$(mktemp -d /var/tmp/tm-fresh-root.XXXXXX) || die "mktemp failed"
else
	mkdir -p "$root" || die "cannot make $root"
	[ -z "$(ls -A "$root")" ] || die "$root is not empty (FRESH_ROOT_DIR)"
fi
root=$(cd "$root" && pwd)
chmod 755 "$root"

# mounts_under DIR: the mount points at or below DIR, deepest first
mounts_under() {
	awk -v d="$1" '$5 == d || index($5, d "/") == 1 { print $5 }' \
		/proc/self/mountinfo | sort -r
}

# The end, whatever happens: stop what still runs in the root (a test
# cluster an interrupted run left), unmount everything, and remove the
# root only when nothing is mounted in it any more: an `rm -rf` through a
# bind mount of /dev or /sys would remove the machine's own files.
cleanup() {
	local rc=$? pid pids m tries
	trap - EXIT INT TERM HUP
	for tries in 1 2 3; do
		pids=
		for pid in /proc/[0-9]*; do
			[ "$(readlink "$pid/root" 2>/dev/null)" = "$root" ] &&
				pids="$pids ${pid#/proc/}"
		done
		[ -n "$pids" ] || break
		[ "$tries" = 1 ] && say "stopping what still runs in the root:$pids"
		# shellcheck disable=SC2086
		kill -TERM $pids 2>/dev/null
		sleep 3
		[ "$tries" = 3 ] && kill -KILL $pids 2>/dev/null
	done
	for tries in 1 2 3; do
		for m in $(mounts_under "$root"); do
			umount -R "$m" 2>/dev/null
		done
		[ -z "$(mounts_under "$root")" ] && break
		sleep 2
	done
	if [ -n "$(mounts_under "$root")" ]; then
		say "still mounted, NOT removing $root:" $(mounts_under "$root") >&2
		rc=1
	elif [ "${FRESH_ROOT_KEEP:-no}" = yes ]; then
		say "kept $root (FRESH_ROOT_KEEP=yes)"
	else
		rm -rf --one-file-system -- "$root"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

seconds() { date +%s; }

say "tree $tree ($(git -C "$tree" log -1 --format='%h %s' | cut -c1-60))"
say "root $root, mirror $mirror, logs in $logs"
t=$(seconds)
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$logs/debootstrap.log" 2>&1 || {
	tail -n 20 "$logs/debootstrap.log" >&2
	die "debootstrap failed (the whole log: $logs/debootstrap.log)"
}
say "debootstrap --variant=minbase bookworm: $(($(seconds) - t)) s"

# What a real machine has mounted.  rslave: an unmount in the root never
# reaches the machine's own mounts.
bind() {	# bind SRC DEST [ro]
	mkdir -p "$2" && mount --rbind "$1" "$2" && mount --make-rslave "$2" ||
		die "mount --rbind $1 $2 failed"
	if [ "${3:-}" = ro ]; then
		mount -o remount,bind,ro "$2" || die "cannot make $2 read-only"
	fi
}
mount -t proc proc "$root/proc" || die "cannot mount proc"
mount -t sysfs sysfs "$root/sys" || die "cannot mount sysfs"
# slurmd needs the cgroup filesystems under /sys/fs/cgroup
bind /sys/fs/cgroup "$root/sys/fs/cgroup"
bind /dev "$root/dev"
mountpoint -q "$root/dev/pts" || bind /dev/pts "$root/dev/pts"
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$root/dev/shm" || die "cannot mount dev/shm"
mount -t tmpfs -o mode=755,nosuid,nodev tmpfs "$root/run" || die "cannot mount run"
# /run/lock is the machine's: the MPI tests take a lock there so that no
# two tests' ranks spin on the same cores, and the root's tests run on this
# machine's cores (tests/e2e/mpi.sh, mpi_exclusive).
bind /run/lock "$root/run/lock"
# One thing a real machine does not share: the network.  The root's test
# clusters and this machine's (other runs of the tests here) pick their
# ports from the same ones, so they take turns under the same lock
# (tests/slurm/cluster.sh; without it: "slurmctld died before listening",
# Address already in use).
registry=/run/slurm-treematch-clusters
mkdir -p "$registry" "$root$registry" && touch "$registry/lock" "$root$registry/lock" &&
	mount --bind "$registry/lock" "$root$registry/lock" ||
	die "cannot share $registry/lock with the root"

# Daemons installed by apt must not start (the host's, or a half-made
# machine's): what a container or a chroot does.
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 755 "$root/usr/sbin/policy-rc.d"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
[ -s "$root/etc/hosts" ] || cp /etc/hosts "$root/etc/hosts"

# The tree as a newcomer has it: cloned into root's own home (0700), with
# ../shared beside it.
chmod 700 "$root/root"
name=slurm-treematch
clone=$root/root/$name
git clone -q "$tree" "$clone" || die "git clone $tree failed"
if [ -n "$shared" ]; then
	bind "$shared" "$root/root/shared" ro
fi
say "cloned $(git -C "$clone" log -1 --format=%h) into /root/$name (mode 0700 home)${shared:+, $shared as /root/shared (read-only)}"

# inroot COMMAND: run it in the root as root with a login's environment
inroot() {
	chroot "$root" /usr/bin/env -i HOME=/root USER=root LOGNAME=root \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		LANG=C.UTF-8 TERM=dumb SHELL=/bin/bash \
		/bin/bash -c "cd /root/$name && $1"
}

status=0
n=0
summary=
while read -r cmd; do
	[ -n "$cmd" ] || continue
	n=$((n + 1))
	log=$logs/$n-$(basename "${cmd%% *}" .sh).log
	say "running $cmd in the root (log: $log)"
	t=$(seconds)
	inroot "timeout $limit $cmd" </dev/null >"$log" 2>&1
	rc=$?
	took=$(($(seconds) - t))
	last=$(tail -n 1 "$log")
	line="$cmd: exit $rc, $took s, last line: $last"
	say "$line"
	summary="$summary$line"$'\n'
	[ "$rc" = 0 ] || status=1
done <<<"$commands"

# The tests' own logs (beside the clone: run-all.sh copies them back)
for f in "$clone"/*.log; do
	[ -f "$f" ] && cp "$f" "$logs/"
done
printf '\nfresh-root: summary\n%s' "$summary"
exit "$status"
