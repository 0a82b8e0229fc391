#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# install-deps.sh - install the Debian 12 packages slurm-treematch needs to
# build, test and run its demo, when they are missing.  Run as root; does
# nothing (and needs no network) when everything is there.
#
#   contrib/install-deps.sh           install the missing packages
#   contrib/install-deps.sh --check   one line per missing command or file,
#                                     naming its package; exit 1 if any
#
# The packages, and what of each our scripts use, are contrib/deps.list:
# the one list (tests/unit/deps-list.sh checks the scripts against it).
set -eu

list=$(dirname "$0")/deps.list
[ -r "$list" ] || {
	echo "install-deps.sh: $list: cannot read the list of packages" >&2
	exit 1
}

# entries: "PACKAGE ITEM..." lines of the list, without comments and the
# [packages] run by hand
entries() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e '/^[[:space:]]*\[/d' "$list"
}

if [ "${1:-}" = --check ]; then
	# the daemons and useradd are in sbin, on root's PATH
	PATH=$PATH:/usr/local/sbin:/usr/sbin:/sbin
	missing=0
	# shellcheck disable=SC2086 # a line: the package, then its items
	while read -r package items; do
		for item in $items; do
			case $item in
			/*)	# a file; a * stands for the multiarch directory
				set -- $item
				[ -e "$1" ] && continue
				what="file $item" ;;
			*)
				command -v "$item" >/dev/null 2>&1 && continue
				what="command $item" ;;
			esac
			echo "install-deps.sh: missing $what: install the Debian package $package (contrib/install-deps.sh)"
			missing=1
		done
	done <<EOF
$(entries)
EOF
	exit "$missing"
fi
if [ $# -gt 0 ]; then
	echo "usage: install-deps.sh [--check]" >&2
	exit 2
fi

packages=$(entries | awk '{ print $1 }')
missing=
for p in $packages; do
	if ! dpkg-query -W -f '${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "install-deps.sh: missing Debian packages:$missing" >&2
	echo "install-deps.sh: run as root (or install them) first" >&2
	exit 1
fi
echo "install-deps.sh: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# policy-rc.d-less containers may try to start the daemons: we never use
# the system's slurmctld/slurmd/munged, so a failed start is harmless.
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
