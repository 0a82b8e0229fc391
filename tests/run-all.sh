#!/bin/sh
# run-all.sh - the README's test command: install what is missing, build,
# run every test (unit, golden, invalid input, end-to-end on a real Slurm
# cluster, MPI), check that a release tarball builds and passes, and end
# with one line "N passed, N failed" (checks, counted across all tests).
#
#   tests/run-all.sh            everything
#   TM_DISTCHECK=no tests/run-all.sh   skip the tarball check
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
jobs=$(nproc 2>/dev/null || echo 2)

contrib/install-deps.sh
if [ ! -x configure ] || [ configure.ac -nt configure ]; then
	autoreconf -fi >/dev/null
fi
[ -f Makefile ] || ./configure -q
make -j"$jobs" >/dev/null

status=0
make -j"$jobs" check >/dev/null 2>&1 || status=$?

if [ "${TM_DISTCHECK:-yes}" = yes ]; then
	# The tarball's own make check repeats the fast tests; the clusters
	# were just exercised above.
	if make -j"$jobs" distcheck TM_E2E=skip >distcheck.log 2>&1; then
		echo "ok - make distcheck"
	else
		echo "not ok - make distcheck (see distcheck.log)"
		tail -n 30 distcheck.log
		status=1
	fi
fi

tests/summarize.sh . || status=1
exit "$status"
