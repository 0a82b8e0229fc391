#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# release.sh - a Slurm release from ../shared/slurm, built into a cache
# outside the source tree and reused while its source and options stay the
# same.  Prints the prefix on its last line of standard output.
#
#   release.sh list               the releases there are (one per line)
#   release.sh headers VERSION    only Slurm's public headers (seconds): a
#                                 prefix whose include/slurm/ the plugin can
#                                 be compiled against
#   release.sh build VERSION      configure, make and install (about 10 min
#                                 on 2 cores): a prefix with bin/, sbin/,
#                                 lib/slurm/ and include/ for a test cluster
#
# Environment:
#   TM_SLURM_SOURCES=DIR   where the tarballs are (default: ../shared/slurm
#                          beside the project's root)
#   TM_SLURM_CACHE=DIR     the cache (default: /var/cache/slurm-treematch)
#
# A cache entry's name holds a digest of the tarball and of the build recipe
# below, so a changed source or option builds anew; an entry is complete once
# its .done file exists (a build that was interrupted is built again).
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
sources=${TM_SLURM_SOURCES:-$top/../shared/slurm}
cache=${TM_SLURM_CACHE:-/var/cache/slurm-treematch}

# What a test cluster of several slurmd on one host needs (the sources'
# README): PMIx for mpi/pmix, several slurmd per host; without slurmrestd
# and debug symbols the build takes half the time.
CONFIGURE_OPTIONS="--with-pmix=/usr/lib/x86_64-linux-gnu/pmix2
--enable-multiple-slurmd --disable-slurmrestd --disable-debug
--sysconfdir=/etc/slurm-treematch-unused"
RECIPE=2

die() { echo "release.sh: $*" >&2; exit 1; }

tarball_of() {
	t=$sources/slurm-$1.tar.xz
	[ -f "$t" ] || die "no Slurm $1 in $sources (there: $(list | tr '\n' ' '))"
	echo "$t"
}

list() {
	for t in "$sources"/slurm-*.tar.xz; do
		[ -f "$t" ] || continue
		t=${t##*/slurm-}
		echo "${t%.tar.xz}"
	done | sort -V
}

# key KIND TARBALL: what the entry depends on, as a short digest
key() {
	{
		echo "$1 $RECIPE $CONFIGURE_OPTIONS"
		sha256sum <"$2"
	} | sha256sum | cut -c1-12
}

# version_number VERSION: SLURM_VERSION_NUMBER as slurm_version.h writes it
version_number() {
	IFS=. read -r major minor micro <<EOF
$1
EOF
	printf '0x%02x%02x%02x' "$major" "$minor" "$micro"
}

headers() {
	version=$1
	t=$(tarball_of "$version")
	prefix=$cache/headers-$version-$(key headers "$t")
	if [ ! -f "$prefix/.done" ]; then
		rm -rf "$prefix"
		mkdir -p "$prefix/include"
		tar -xJf "$t" -C "$prefix/include" --strip-components=1 \
			"slurm-$version/slurm"
		in=$prefix/include/slurm/slurm_version.h.in
		sed "s/^#undef SLURM_VERSION_NUMBER\$/#define SLURM_VERSION_NUMBER $(version_number "$version")/" \
			"$in" >"${in%.in}"
		grep -q '^#define SLURM_VERSION_NUMBER ' "${in%.in}" ||
			die "$t: no SLURM_VERSION_NUMBER line in slurm_version.h.in"
		touch "$prefix/.done"
	fi
	echo "$prefix"
}

build() {
	version=$1
	t=$(tarball_of "$version")
	prefix=$cache/slurm-$version-$(key build "$t")
	if [ -f "$prefix/.done" ]; then
		echo "$prefix"
		return 0
	fi
	work=$(mktemp -d "${TMPDIR:-/var/tmp}/slurm-build.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	rm -rf "$prefix"
	echo "release.sh: building Slurm $version into $prefix (about 10 min)" >&2
	tar -xJf "$t" -C "$work"
	log=$work/build.log
	# shellcheck disable=SC2086 # the options are words
	if ! (cd "$work/slurm-$version" &&
		./configure --prefix="$prefix" $CONFIGURE_OPTIONS &&
		make -j"$(nproc)" &&
		make install) >"$log" 2>&1; then
		tail -n 40 "$log" >&2
		rm -rf "$prefix"
		die "Slurm $version did not build (the end of its log is above)"
	fi
	touch "$prefix/.done"
	echo "$prefix"
}

case ${1:-} in
list) list ;;
headers) [ $# -eq 2 ] || die "usage: release.sh headers VERSION"; headers "$2" ;;
build) [ $# -eq 2 ] || die "usage: release.sh build VERSION"; build "$2" ;;
*) sed -n '3,/^set -eu/{/^#/s/^# \{0,1\}//p}' "$0" >&2; exit 2 ;;
esac
