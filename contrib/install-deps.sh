#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# install-deps.sh - install the Debian 12 packages slurm-treematch needs to
# build, test and run its demo, when they are missing.  Run as root; does
# nothing (and needs no network) when everything is there.
#
#   build:  compiler, autotools, hwloc, jansson and Slurm's development files
#   tests:  Slurm daemons and clients, munge (a real cluster is started),
#           iproute2 (ss), util-linux (flock, setpriv), Open MPI with PMIx,
#           chromium, libxml2-utils and zlib1g-dev (--format svg: the
#           picture rendered by a real browser and checked)
#   Slurm releases built from ../shared/slurm (tests/slurm/release.sh):
#           munge's, JSON's, YAML's, D-Bus's and readline's headers, xz
set -eu

packages="gcc make autoconf automake libtool pkg-config
	libhwloc-dev hwloc libjansson-dev libslurm-dev
	slurmctld slurmd slurm-client munge iproute2 util-linux procps
	openmpi-bin libopenmpi-dev libpmix-dev
	chromium libxml2-utils zlib1g-dev
	libmunge-dev libjson-c-dev libyaml-dev libdbus-1-dev libreadline-dev
	xz-utils"

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
