#!/bin/sh
# summarize.sh [BUILDDIR] - after make check: list every test with its
# result, print the checks that failed, and end with "N passed, N failed".
# N counts checks (the "ok -" / "not ok -" lines of every test's log); a test
# that failed without a "not ok" line (it crashed, or timed out) counts as
# one failed check.  Exit 1 when anything failed.
set -u
dir=${1:-.}

passed=0 failed=0 skipped=0
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
		echo "SKIP  $name: $(tail -n 1 "$log" 2>/dev/null)"
		continue ;;
	FAIL|ERROR)
		[ "$bad" -eq 0 ] && bad=1 ;;
	esac
	passed=$((passed + ok))
	failed=$((failed + bad))
	printf '%-5s %s (%d checks)\n' "$result" "$name" $((ok + bad))
	if [ "$result" != PASS ]; then
		grep '^not ok - ' "$log" | sed 's/^/      /'
	fi
done
[ "$skipped" -gt 0 ] && echo "($skipped tests skipped)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
