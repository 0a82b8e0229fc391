#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shared-dir.sh - matrix files written into a directory other users can
# write to (sticky, mode 1777, like /tmp or a project's scratch): another
# user (nobody) plants "NAME.tmp.N" links to a file of ours for every
# name the writers could pick, and neither `commprof merge` nor the
# profiler writes through them: the linked file stays as it was, and the
# matrix is a regular file of ours with the right content and mode.
# Needs root (to act as the other user); skips otherwise.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/profiler/lib.sh"
profiler_setup

[ "$(id -u)" = 0 ] || skip "needs root, to plant links as another user"
command -v setpriv >/dev/null 2>&1 || skip "needs setpriv (util-linux)"
other=nobody
id "$other" >/dev/null 2>&1 || skip "no user $other"

ring=$examples/ring
built "$ring"
tool=$top_builddir/contrib/profiler/commprof-matrix
built "$tool"
np=4
TMPDIR=$work/tmp
mkdir "$TMPDIR"
export TMPDIR
umask 022

# The other user's directory (links in a sticky directory are followed
# by others when its owner made them, even with fs.protected_symlinks).
chmod 755 "$work"
shared=$work/shared
mkdir "$shared"
chown "$other" "$shared"
chmod 1777 "$shared"
printf 'private\n' >victim
chmod 600 victim
cp victim victim.orig

# plant NAME: links NAME.tmp.N and NAME.tmp.N.K -> victim for the pids
# to come, made by the other user
plant() {
	# shellcheck disable=SC2016 # perl's variables, not the shell's
	setpriv --reuid="$other" --regid="$(id -g "$other")" --clear-groups \
		perl -e 'my ($name, $to, $from) = @ARGV;
			for my $n ($from .. $from + 3000) {
				symlink($to, "$name.tmp.$n") or die "$name.tmp.$n: $!";
				symlink($to, "$name.tmp.$n.$_") for 0 .. 2;
			}' "$shared/$1" "$work/victim" "$$"
}

# check_target WHAT NAME MODE EXPECTED_INFO
check_target() {
	if cmp -s victim victim.orig; then ok "$1: the linked file is unchanged"
	else not_ok "$1: the linked file is unchanged"; show victim; fi
	if [ -f "$shared/$2" ] && [ ! -L "$shared/$2" ] && [ -O "$shared/$2" ]
	then ok "$1: $2 is a regular file of ours"
	else not_ok "$1: $2 is a regular file of ours"; stat -c '%A %U %N' "$shared/$2" | show; fi
	mode=$(stat -c %a "$shared/$2" 2>/dev/null)
	if [ "$mode" = "$3" ]; then ok "$1: $2 has mode $3"
	else not_ok "$1: $2 has mode $3 (got $mode)"; fi
	info=$("$tool" info "$shared/$2" 2>&1)
	if [ "$info" = "$4" ]; then ok "$1: $2 holds the matrix ($4)"
	else not_ok "$1: $2 holds the matrix ($4)"; echo "#   $info"; fi
}

"$expect" ring $np 64 2 >a.json
"$expect" ring $np 64 4 >b.json

# --- commprof merge ----------------------------------------------------

plant sum.json
"$commprof" merge -o "$shared/sum.json" a.json b.json >merge.out 2>&1 \
	|| { echo "#   merge failed:"; show merge.out; }
check_target "merge into a new file" sum.json 644 "4 4 1536"

# replacing a file of ours keeps its mode
chmod 640 "$shared/sum.json"
"$commprof" merge -o "$shared/sum.json" b.json b.json >merge.out 2>&1 \
	|| { echo "#   merge failed:"; show merge.out; }
check_target "merge over an existing 0640 file" sum.json 640 "4 4 2048"

# --- the profiler's own output -----------------------------------------

plant run.json
launch $np "$commprof" -o "$shared/run.json" "$ring" 64 2 >run.out 2>&1 \
	|| { echo "#   the run failed:"; show run.out; }
check_target "a profiled run" run.json 644 "4 4 512"

# nothing of ours is left beside them
left=$(find "$shared" -user "$(id -u)" ! -name sum.json ! -name run.json \
	! -path "$shared")
if [ -z "$left" ]; then ok "no temporary file of ours is left"
else not_ok "no temporary file of ours is left"; echo "#   $left"; fi

finish
