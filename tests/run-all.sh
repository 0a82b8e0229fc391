#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run-all.sh - the README's test command: install what is missing, build,
# run every test (unit, golden, invalid input, end-to-end on a real Slurm
# cluster, MPI), check that a release tarball builds and passes, and end
# with one line "N passed, N failed" (checks, counted across all tests).
#
#   tests/run-all.sh                   everything (as root)
#   TM_DISTCHECK=no tests/run-all.sh   skip the tarball check
#   TM_SLURM_RELEASES="25.05.8 26.05.3" tests/run-all.sh
#                                      the e2e suite also on these releases
#                                      of ../shared/slurm (default: the
#                                      newest; "none" for none), each built
#                                      once into /var/cache/slurm-treematch
#
# Everything must run: a test that skips (no Slurm, no MPI, not root)
# counts as failed here, so that a green line means the clusters really
# started.  A step that fails (packages, configure, build) is counted too,
# and the last line is printed whatever happens.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
jobs=$(nproc 2>/dev/null || echo 2)
step_failures=0

# step NAME COMMAND...: run COMMAND quietly; on failure say so with the
# end of its output, count it, and stop.
step() {
	name=$1
	shift
	if "$@" >"$top/run-all.step.log" 2>&1; then
		return 0
	fi
	echo "not ok - $name (exit $?)"
	tail -n 30 "$top/run-all.step.log" | sed 's/^/#   /'
	step_failures=$((step_failures + 1))
	echo "0 passed, $step_failures failed"
	exit 1
}

# A tree configured before Slurm's headers or MPI were installed would
# quietly build without the plugin or the profiler, and their tests skip.
configured_without_deps() {
	[ -f Makefile ] && [ -f config.status ] || return 0
	if [ -f /usr/include/slurm/spank.h ] &&
		! grep -q '^S\["HAVE_SLURM_TRUE"\]=""' config.status; then
		return 0
	fi
	if command -v mpicc >/dev/null &&
		grep -q '^S\["MPICC"\]=""' config.status; then
		return 0
	fi
	return 1
}

if [ "$(id -u)" -ne 0 ]; then
	echo "not ok - run as root (packages, test clusters, test users)"
	echo "0 passed, 1 failed"
	exit 1
fi

# What the tests need, before anything else: install what is missing, then
# check that every command and file of contrib/deps.list is there (one
# line for each that is not, naming its package).  The staged copy below
# has just been checked.
if [ -z "${TM_RUN_ALL_COPY:-}" ]; then
	step "install dependencies" contrib/install-deps.sh
	if ! contrib/install-deps.sh --check >"$top/run-all.step.log" 2>&1; then
		sed 's/^/not ok - /' "$top/run-all.step.log"
		echo "0 passed, $(grep -c . "$top/run-all.step.log") failed"
		exit 1
	fi
fi

# The end-to-end tests run jobs as an unprivileged test user, who must be
# able to enter the tree (batch scripts, matrices, the tarball check).  A
# clone in root's own home (mode 0700) is not: the tests then run from a
# copy in a directory every user may enter, and say so.
reachable_by_others() {
	d=$1
	while [ "$d" != / ] && [ -n "$d" ]; do
		perm=$(stat -c %A "$d") || return 1
		case $perm in
		d????????[xt]) ;;
		*) return 1 ;;
		esac
		d=$(dirname "$d")
	done
	return 0
}
if [ -z "${TM_RUN_ALL_COPY:-}" ] && ! reachable_by_others "$top"; then
	stage=$(mktemp -d /tmp/slurm-treematch-tests.XXXXXX) || exit 1
	chmod 755 "$stage"
	echo "# $top cannot be entered by other users (a directory above it,"
	echo "# e.g. root's 0700 home, has no x for others), and the end-to-end"
	echo "# tests run jobs as an ordinary user: running all the tests from a"
	echo "# copy in $stage instead (logs come back here, the copy is removed)"
	# the sources as they are (not a build configured for the other path)
	if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		(cd "$top" && git ls-files -z -co --exclude-standard |
			tar --null --ignore-failed-read -T - -cf -) |
			(cd "$stage" && tar -xpf -)
	else
		cp -a "$top/." "$stage/"
	fi || { echo "not ok - copy to $stage"; echo "0 passed, 1 failed"; exit 1; }
	chmod -R o+rX "$stage"
	# the corpus of real machines the tests read beside the tree
	if [ -z "${TM_TOPOLOGIES:-}" ] && [ -d "$top/../shared/topologies" ]; then
		TM_TOPOLOGIES=$(cd "$top/../shared/topologies" && pwd)
		export TM_TOPOLOGIES
	fi
	# and the Slurm releases' sources
	if [ -z "${TM_SLURM_SOURCES:-}" ] && [ -d "$top/../shared/slurm" ]; then
		TM_SLURM_SOURCES=$(cd "$top/../shared/slurm" && pwd)
		export TM_SLURM_SOURCES
	fi
	TM_RUN_ALL_COPY=$top "$stage/tests/run-all.sh"
	status=$?
	# keep the logs beside the original tree, remove the copy
	for log in run-all.check.log distcheck.log slurm-releases.log; do
		[ -f "$stage/$log" ] && cp "$stage/$log" "$top/$log"
	done
	rm -rf "$stage"
	exit "$status"
fi

if [ ! -x configure ] || [ configure.ac -nt configure ]; then
	step autoreconf autoreconf -fi
fi
if configured_without_deps; then
	step configure ./configure -q
fi
step build make -j"$jobs"

# Results of an earlier run must not be counted if this one cannot run.
find . -name '*.trs' -not -path '*/_build/*' -exec rm -f {} +

status=0
extra_failed=0
if ! make -j"$jobs" check >run-all.check.log 2>&1; then
	status=1
	# a test program that does not compile stops make check before any
	# test result is written
	if ! find . -name '*.trs' -not -path '*/_build/*' \
		-exec grep -l '^:test-result: \(FAIL\|ERROR\)' {} + |
		grep -q .; then
		echo "not ok - make check stopped before its tests" \
			"(see run-all.check.log)"
		tail -n 30 run-all.check.log | sed 's/^/#   /'
		extra_failed=1
	fi
fi

# The whole e2e suite again on Slurm built from ../shared/slurm (the
# newest release by default): the plugin is compiled for each release, and
# what a release does differently is checked on it (doc/slurm-releases.md).
rm -rf slurm-releases
releases=${TM_SLURM_RELEASES:-$(tests/slurm/release.sh list 2>/dev/null | tail -n 1)}
if [ "$releases" != none ] && [ -n "$releases" ]; then
	# shellcheck disable=SC2086 # one release a word
	if tests/slurm/check-releases.sh $releases >slurm-releases.log 2>&1; then
		echo "ok - the e2e suite on Slurm $releases"
	else
		echo "not ok - the e2e suite on Slurm $releases (see slurm-releases.log)"
		grep -v '^# Slurm .*: PASS:' slurm-releases.log | tail -n 20 | sed 's/^/#   /'
		status=1
		# a failed test is counted from its log; a release that did not
		# build has none
		grep -q '^not ok - ' slurm-releases.log &&
			extra_failed=$((extra_failed + 1))
	fi
fi

distcheck_failed=0
if [ "${TM_DISTCHECK:-yes}" = yes ]; then
	# The tarball's own make check repeats the fast tests; the clusters
	# were just exercised above.
	if make -j"$jobs" distcheck TM_E2E=skip >distcheck.log 2>&1; then
		echo "ok - make distcheck"
	else
		echo "not ok - make distcheck (see distcheck.log)"
		tail -n 30 distcheck.log | sed 's/^/#   /'
		distcheck_failed=1
	fi
fi

extra_passed=0
if [ "${TM_DISTCHECK:-yes}" = yes ] && [ "$distcheck_failed" -eq 0 ]; then
	extra_passed=1
fi
TM_EXTRA_PASSED=$extra_passed \
TM_EXTRA_FAILED=$((extra_failed + distcheck_failed)) \
	tests/summarize.sh --no-skip . || status=1
exit "$status"
