# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/unit/cli-lib.sh - sourced by the CLI's shell tests: where the
# helper is, and the checks, each printing "ok - ..." or "not ok - ..."
# (with what was got and wanted) and counting failures in $failed.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
helper=$top_builddir/helper/treematch-helper
failed=0

ok() { echo "ok - $1"; }
nok() {
	echo "not ok - $1"
	shift
	for line in "$@"; do printf '#   %s\n' "$line"; done
	failed=$((failed + 1))
}
check_eq() { # DESC GOT WANT
	if [ "$2" = "$3" ]; then ok "$1"; else nok "$1" "got:  $2" "want: $3"; fi
}
check_match() { # DESC GOT PATTERN (grep basic regular expression)
	if printf '%s\n' "$2" | grep -q -- "$3"; then ok "$1"
	else nok "$1" "got:  $2" "want: /$3/"; fi
}
check_ematch() { # DESC GOT PATTERN (extended regular expression)
	if printf '%s\n' "$2" | grep -Eq -- "$3"; then ok "$1"
	else nok "$1" "got:  $2" "want: /$3/"; fi
}
check() { # DESC COMMAND...
	local desc=$1
	shift
	if "$@"; then ok "$desc"; else nok "$desc" "failed: $*"; fi
}
