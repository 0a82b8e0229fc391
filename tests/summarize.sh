#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# summarize.sh [--no-skip] [BUILDDIR] - after make check: list every test
# with its result, print the checks that failed, and end with "N passed,
# N failed".  N counts checks (the "ok -" / "not ok -" lines of every
# test's log); a test that failed without a "not ok" line (it crashed, or
# timed out), or passed without a single check, counts as one failed
# check.  With --no-skip a skipped test counts as one failed check too
# (the full run must run everything).  TM_EXTRA_PASSED / TM_EXTRA_FAILED
# add checks made outside make check (run-all.sh's distcheck).  Exit 1
# when anything failed.
set -u
no_skip=0
if [ "${1:-}" = --no-skip ]; then
	no_skip=1
	shift
fi
dir=${1:-.}

passed=${TM_EXTRA_PASSED:-0} failed=${TM_EXTRA_FAILED:-0} skipped=0
for trs in $(find "$dir" -name '*.trs' -not -path '*/_build/*' | sort); do
	log=${trs%.trs}.log
	result=$(sed -n 's/^:test-result: //p' "$trs" | head -n 1)
	name=${trs#"$dir"/}
	name=${name%.trs}
	ok=$(grep -c '^ok - ' "$log" 2>/dev/null) || ok=0
	bad=$(grep -c '^not ok - ' "$log" 2>/dev/null) || bad=0
	case $result in
	SKIP)
		skipped=$((skipped + 1))
		why=$(tail -n 1 "$log" 2>/dev/null)
		if [ "$no_skip" -eq 1 ]; then
			failed=$((failed + 1))
			echo "FAIL  $name: skipped: $why"
		else
			echo "SKIP  $name: $why"
		fi
		continue ;;
	FAIL|ERROR)
		[ "$bad" -eq 0 ] && bad=1 ;;
	PASS)
		if [ $((ok + bad)) -eq 0 ]; then
			result=FAIL
			bad=1
			echo "      (no check ran)"
		fi ;;
	esac
	passed=$((passed + ok))
	failed=$((failed + bad))
	printf '%-5s %s (%d checks)\n' "$result" "$name" $((ok + bad))
	if [ "$result" != PASS ]; then
		# each failed check with the lines that say what it got (at
		# most 6), and a run past its time limit with where its threads
		# waited (tests/e2e/lib.sh, e2e_timeout): the test's log may be
		# gone with the copy the tests ran from, this output stays
		awk '/^not ok - / { print; more = 6; next }
		     more > 0 && /^#   / { print; more--; next }
		     { more = 0 }' "$log" | sed 's/^/      /'
		sed -n '/^# ---- stalled: /,/^# ---- end of stall/p' "$log" |
			head -n 80 | sed 's/^/      /'
	fi
done
[ "$skipped" -gt 0 ] && echo "($skipped tests skipped)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
