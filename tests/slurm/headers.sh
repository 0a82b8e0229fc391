#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# headers.sh - the plugin compiles with no error and no warning against
# the headers of every Slurm release in ../shared/slurm (and those this
# tree was configured with, Debian's 22.05 by default): seconds each, no
# Slurm built.  slurm_compat.c chooses the release's calls from its
# SLURM_VERSION_NUMBER; a release that changed an API the plugin uses
# fails here first.
set -u
top=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${top_builddir:-$PWD}
if ! grep -q '^SLURM_RELEASE = [0-9]' "$build/Makefile" 2>/dev/null; then
	echo "# this tree was configured without Slurm's headers"
	exit 77
fi
releases=$("$top/tests/slurm/release.sh" list 2>/dev/null)
failed=0 checks=0
compile() {	# compile WHAT CPPFLAGS
	checks=$((checks + 1))
	if out=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory -C "$build" spank-syntax-check SLURM_CPPFLAGS="$2" 2>&1) &&
		[ -z "$out" ]; then
		echo "ok - the plugin compiles against $1 with no warning"
	else
		echo "not ok - the plugin against $1:"
		printf '%s\n' "$out" | head -n 20 | sed 's/^/#   /'
		failed=$((failed + 1))
	fi
}
configured=$(sed -n 's/^SLURM_CPPFLAGS = //p' "$build/Makefile")
compile "the headers it was configured with (Slurm $(sed -n 's/^SLURM_RELEASE = //p' "$build/Makefile"))" \
	"$configured"
# where those headers are, for the check of a release outside the range
include=${configured#-I}
include=${include%% *}
include=${include:-/usr/include}
for v in $releases; do
	prefix=$("$top/tests/slurm/release.sh" headers "$v" | tail -n 1) || {
		echo "not ok - Slurm $v: its headers could not be unpacked"
		failed=$((failed + 1))
		continue
	}
	compile "Slurm $v's headers" "-I$prefix/include"
	include=$prefix/include
done
# a release outside 22.05..26.05 is refused by the compat module itself
checks=$((checks + 1))
old=$(mktemp -d) && mkdir -p "$old/slurm" &&
	for h in "$include"/slurm/*.h; do cp "$h" "$old/slurm/"; done &&
	sed -i 's/^#define SLURM_VERSION_NUMBER .*/#define SLURM_VERSION_NUMBER 0x150800/' \
		"$old/slurm/slurm_version.h"
out=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory -C "$build" spank-syntax-check SLURM_CPPFLAGS="-I$old" 2>&1)
rm -rf "$old"
case $out in
*"supports Slurm 22.05 to 26.05"*) echo "ok - headers of Slurm 21.08 are refused with one line" ;;
*) echo "not ok - headers of Slurm 21.08 are not refused:"; printf '%s\n' "$out" | head -5 | sed 's/^/#   /'
	failed=$((failed + 1)) ;;
esac
echo "# $checks compilations, $failed failed"
[ "$failed" -eq 0 ]
