#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check.sh - make check's part of the fuzzing: each libFuzzer target
# (tests/fuzz/fuzz_*.c) run once over each of its seeds
# (tests/fuzz/corpus/NAME), under ASan and UBSan, each seed within 100 MB
# and 1 s.  Skipped (77) where clang cannot build a libFuzzer program.
# `make fuzz` is the long run.
set -u
: "${top_builddir:?}"
env_file=$top_builddir/tests/fuzz/fuzz.env
# shellcheck source=/dev/null # written by make (Makefile.inc)
. "$env_file"
rc=0
"$FUZZ_SRCDIR/tests/fuzz/build.sh" "$env_file" || rc=$?
[ "$rc" -eq 77 ] && exit 77
[ "$rc" -eq 0 ] || { echo "not ok - the fuzz targets build"; exit 1; }
out=$top_builddir/tests/fuzz
ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=16:detect_leaks=1}
export ASAN_OPTIONS
failed=0
for t in $FUZZ_TARGETS; do
	if [ ! -x "$out/bin/fuzz_$t" ]; then
		echo "ok - fuzz_$t # SKIP not built (no Slurm headers)"
		continue
	fi
	seeds=$FUZZ_SRCDIR/tests/fuzz/corpus/$t
	n=$(find "$seeds" -type f | wc -l)
	if [ "$n" -eq 0 ]; then
		echo "not ok - fuzz_$t has seeds in tests/fuzz/corpus/$t"
		failed=1
		continue
	fi
	log=$out/logs/check-$t.log
	mkdir -p "$out/logs"
	# Files as arguments: each is run once, nothing is mutated.
	if find "$seeds" -type f -print0 | sort -z |
		xargs -0 "$out/bin/fuzz_$t" -timeout=1 -rss_limit_mb=100 \
			-malloc_limit_mb=100 >"$log" 2>&1
	then
		echo "ok - fuzz_$t: its $n seeds run clean"
	else
		echo "not ok - fuzz_$t: a seed fails (see $log):"
		grep -E 'ERROR|SUMMARY|Running:' "$log" | tail -n 5 |
			sed 's/^/# /'
		failed=1
	fi
done
exit "$failed"
