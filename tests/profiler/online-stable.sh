#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# online-stable.sh - a program whose pairs never change: after the first
# round (which binds the tasks), the mapping stays, no task moves, and
# the interval is multiplied by the slope every round up to its bound
# (Equation 1 of the paper), as the mapper's log and report show.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/profiler/lib.sh"
profiler_setup
. "$top_srcdir/tests/profiler/online_lib.sh"
online_setup

dir=$work/stable
mkdir -p "$dir"
# shellcheck disable=SC2046 # online prints words on purpose
launch 4 env $(online TREEMATCH_ONLINE_PARAMS=interval=0.1,min=0.1,max=0.8,slope=2 \
	TREEMATCH_ONLINE_LOG="$dir/log") \
	"$phases" "$dir" 2 4096 s >"$dir/out" 2>"$dir/err"
program_ok stable "$dir" 4 $?
report_ok stable "$dir/err"
show "$dir/log"

# From the second round on: no move, no change, and each interval twice
# the one before, up to 0.8.
if awk '
	{ for (k = 1; k <= NF; k++) { split($k, kv, "="); v[kv[1]] = kv[2] } }
	NR >= 2 && (v["moved"] != 0 || v["changed"] != 0) { bad = 1 }
	NR >= 3 { want = 2 * last; if (want > 0.8) want = 0.8
		  if (v["interval"] + 0 != want) bad = 1 }
	{ last = v["interval"] + 0; if (last == 0.8) top = 1; n = NR }
	END { exit !(n >= 5 && top && !bad) }' "$dir/log"; then
	ok "after the first round: no move, the interval doubles up to 0.8 s"
else
	not_ok "after the first round: no move, the interval doubles up to 0.8 s"
fi
# several nodes may share the log: each line names its node
if [ -s "$dir/log" ] &&
	! grep -qv '^node [^ ][^ ]* round [0-9][0-9]* t=' "$dir/log"; then
	ok "each line of the log names its node"
else
	not_ok "each line of the log names its node: $(head -n 1 "$dir/log")"
fi

# the report lists the same intervals as the log
log_intervals=$(sed -n 's/.* interval=\([^ ]*\) .*/\1/p' "$dir/log" | tr '\n' ' ' | sed 's/ $//')
report_intervals=$(sed -n 's/^treematch online: node [^:]*: .* moves, intervals \(.*\) s, mapping.*/\1/p' "$dir/err")
if [ -n "$log_intervals" ] && [ "$log_intervals" = "$report_intervals" ]; then
	ok "the report lists each round's interval ($report_intervals)"
else
	not_ok "the report lists each round's interval: log '$log_intervals', report '$report_intervals'"
fi
moves=$(sed -n 's/^treematch online: node [^:]*: [0-9]* rounds, \([0-9]*\) moves.*/\1/p' "$dir/err")
if [ -n "$moves" ] && [ "$moves" -le 4 ]; then
	ok "moves stop: $moves in all, at most the first binding of 4 tasks"
else
	not_ok "moves stop: '$moves' in all"
fi
no_segment stable
finish
