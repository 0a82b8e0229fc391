#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# srun-options.sh - the plugin's table of srun's options
# (spank/srun_options.inc, and the short options in spank/slurm_compat.c)
# is what each Slurm release in ../shared/slurm really accepts: for every
# release, the options read from its src/common/slurm_opt.c must be those
# the table gives for its SLURM_VERSION_NUMBER.  A release whose srun
# gained or lost an option the plugin does not know would otherwise make
# job-wide placement give up on command lines that hold it.
set -u
top=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
sources=${TM_SLURM_SOURCES:-$top/../shared/slurm}
releases=$("$top/tests/slurm/release.sh" list 2>/dev/null)
if [ -z "$releases" ]; then
	echo "# no Slurm sources in $sources: nothing to compare"
	exit 77
fi
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
failed=0 checks=0

# table_for CODE: the long options the table gives a release, "name:K"
table_for() {
	# versions as "0x" and six hex digits compare as strings
	awk -v v="$1" '
		/^\t\{ "/ {
			line = $0; gsub(/[{},"'"'"']/, " ", line); split(line, f, " ")
			if (v >= f[3] && (f[4] == "0" || v < f[4])) print f[1] ":" f[2]
		}' "$top/spank/srun_options.inc" | LC_ALL=C sort -u
}

# shorts KIND: the short options slurm_compat.c gives, "-c:K" lines
shorts() {
	for kind in with_arg:R optional:O plain:N; do
		letters=$(sed -n "s/^const char compat_srun_short_${kind%:*}\[\] = \"\(.*\)\";/\1/p" \
			"$top/spank/slurm_compat.c")
		printf '%s\n' "$letters" | fold -w1 | sed "s/^/-/; s/\$/:${kind#*:}/"
	done | LC_ALL=C sort -u
}

for v in $releases; do
	checks=$((checks + 1))
	tar -xJf "$sources/slurm-$v.tar.xz" -C "$work" "slurm-$v/src/common/slurm_opt.c" ||
		{ echo "not ok - $v: cannot read its slurm_opt.c"; failed=$((failed + 1)); continue; }
	"$top/tests/slurm/srun-options-of.sh" "$work/slurm-$v/src/common/slurm_opt.c" >"$work/$v.srun"
	IFS=. read -r major minor micro <<END
$v
END
	code=$(printf '0x%02x%02x%02x' "$major" "$minor" "$micro")
	{ table_for "$code"; shorts; } | LC_ALL=C sort -u >"$work/$v.table"
	# the table lists x11 also where a Slurm built without X11 hides it
	grep -v '^x11:' "$work/$v.table" >"$work/$v.table.cmp"
	grep -v '^x11:' "$work/$v.srun" >"$work/$v.srun.cmp"
	if [ "$(wc -l <"$work/$v.srun.cmp")" -lt 150 ]; then
		echo "not ok - srun $v: only $(wc -l <"$work/$v.srun.cmp") options read from its sources (the reader is broken)"
		failed=$((failed + 1))
	elif diff -u "$work/$v.srun.cmp" "$work/$v.table.cmp" >"$work/$v.diff"; then
		echo "ok - srun $v: the plugin knows its $(wc -l <"$work/$v.srun.cmp") options, each with its kind of argument"
	else
		echo "not ok - srun $v: the table differs from its sources (- sources, + table):"
		sed -n '3,$p' "$work/$v.diff" | grep '^[-+]' | sed 's/^/#   /'
		failed=$((failed + 1))
	fi
	rm -rf "${work:?}/slurm-$v"
done
echo "# $checks releases, $failed failed"
[ "$failed" -eq 0 ]
