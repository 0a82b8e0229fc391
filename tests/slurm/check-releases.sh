#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# check-releases.sh [VERSION...] - the whole end-to-end suite on Slurm
# releases built from ../shared/slurm (default: every release there), run
# from a configured build tree of this project: for each release, the
# release is built into the cache (tests/slurm/release.sh: reused when
# present), this tree's sources (`make distdir`) are configured against it
# in BUILDS/VERSION (--with-slurm: the tests then run that release's
# daemons and commands), built, and `make check` runs every e2e test
# there.  The results stay in BUILDS/VERSION/tests/**/*.log and *.trs,
# which tests/summarize.sh counts.  Exit 0 when every release passed.
#
#   TM_RELEASE_BUILDS=DIR  where the build trees go (default: slurm-releases
#                          in the current directory)
# `make check-slurm-releases` runs it for every release (not in CI: about
# 15 minutes a release on 2 cores, most of it building Slurm).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
builds=${TM_RELEASE_BUILDS:-$PWD/slurm-releases}
[ $# -gt 0 ] || set -- $("$top/tests/slurm/release.sh" list)
[ $# -gt 0 ] || { echo "check-releases.sh: no Slurm release to test" >&2; exit 1; }
jobs=$(nproc 2>/dev/null || echo 2)
# The e2e tests one at a time (TM_RELEASE_CHECK_JOBS): each starts a
# cluster whose MPI ranks already share this machine's cores; two at once
# doubled that, and the two MPI runs between test nodes that stalled today
# (doc/loop.md, "Known noise") both ran so.
check_jobs=${TM_RELEASE_CHECK_JOBS:-1}
status=0
for v in "$@"; do
	t0=$(date +%s)
	echo "# Slurm $v: building it (or taking it from the cache)"
	prefix=$("$top/tests/slurm/release.sh" build "$v" | tail -n 1) || {
		echo "not ok - Slurm $v could not be built"
		status=1
		continue
	}
	b=$builds/$v
	rm -rf "$b"
	mkdir -p "$builds"
	log=$builds/$v.log
	echo "# Slurm $v in $prefix: configure, build and e2e tests in $b"
	# a copy of the sources: a tree configured in place takes no other build
	if ! { make -s --no-print-directory distdir distdir="$b" &&
		(cd "$b" && ./configure -q --with-slurm="$prefix" &&
			make -j"$jobs"); } >"$log" 2>&1; then
		tail -n 30 "$log" | sed 's/^/#   /'
		echo "not ok - slurm-treematch did not build against Slurm $v"
		status=1
		continue
	fi
	chmod -R o+rX "$b" # the tests' ordinary user reads it
	tests=$(make -s --no-print-directory -C "$b" print-e2e-tests)
	# shellcheck disable=SC2086 # one test a word
	make -C "$b" -j"$check_jobs" check TESTS="$tests" >>"$log" 2>&1 || status=1
	grep -h '^\(PASS\|FAIL\|SKIP\|ERROR\|XPASS\|XFAIL\):' "$log" |
		sed "s/^/# Slurm $v: /"
	echo "# Slurm $v: $(( $(date +%s) - t0 )) s"
done
exit "$status"
