#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh ENV SECONDS - `make fuzz`: build the targets (build.sh) and fuzz
# each for its share of SECONDS, starting from its seeds
# (tests/fuzz/corpus/NAME, read only) and what earlier runs found
# (DIR/work/NAME).  An input that crashes, leaks, or costs over 100 MB or
# 1 s is a finding: saved as DIR/findings/NAME-KIND-HASH, and the run
# fails.  Prints, per target, executions and findings.
set -eu
env_file=$1
seconds=${2:-600}
# shellcheck source=/dev/null # written by make (Makefile.inc)
. "$env_file"
out=$(cd "$(dirname "$env_file")" && pwd)
"$FUZZ_SRCDIR/tests/fuzz/build.sh" "$env_file"

targets=
for t in $FUZZ_TARGETS; do
	[ -x "$out/bin/fuzz_$t" ] && targets="$targets $t"
done
count=$(echo "$targets" | wc -w)
each=$((seconds / count))
[ "$each" -ge 1 ] || each=1
echo "fuzzing $count targets for $each s each"
mkdir -p "$out/findings" "$out/logs"
# A small quarantine: freed memory that ASan keeps counts in the RSS that
# -rss_limit_mb bounds.
ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=16:detect_leaks=1}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS UBSAN_OPTIONS
failed=0
for t in $targets; do
	mkdir -p "$out/work/$t"
	log=$out/logs/$t.log
	rc=0
	"$out/bin/fuzz_$t" -max_total_time="$each" -timeout=1 \
		-rss_limit_mb=100 -malloc_limit_mb=100 -print_final_stats=1 \
		-artifact_prefix="$out/findings/$t-" \
		"$out/work/$t" "$FUZZ_SRCDIR/tests/fuzz/corpus/$t" \
		>"$log" 2>&1 || rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" |
		tail -n 1)
	found=$(find "$out/findings" -name "$t-*" | wc -l)
	printf '%-16s %10s executions, %s findings, exit %s\n' "$t" \
		"${runs:-?}" "$found" "$rc"
	if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
		failed=1
		grep -E '^(==|SUMMARY|#)|ERROR|out-of-memory|timeout' "$log" |
			grep -v '^#[0-9]' | head -n 20 | sed 's/^/    /'
	fi
done
exit "$failed"
