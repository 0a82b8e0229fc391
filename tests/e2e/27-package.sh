#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 27-package.sh - the Debian package (contrib/build-deb.sh), as an admin
# installs it: built from this build tree, installed with dpkg -i, its files
# where Slurm and users look for them; a placed step on a test cluster with
# the installed plugin and helper (the example plugstack line as it is, the
# plugin's own default helper path); srun --help lists the options, each
# with one line of help; the man page renders and names every option, key
# and variable; the batch scripts and commprof(1) are installed (issue 25).
# Then the package is purged: /usr and /etc are as before.
# Skips when the package (or any file of it) is already on the machine:
# the test would replace it, then remove it.
set -u
# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
# shellcheck source=tests/e2e/plugin.sh
. "$top_srcdir/tests/e2e/plugin.sh"
e2e_require_root_and_slurm
for c in dpkg dpkg-deb dpkg-query gcc make; do
	command -v "$c" >/dev/null || e2e_skip "$c not found (Debian: dpkg-dev)"
done
[ -f "$top_builddir/spank/.libs/treematch.so" ] ||
	e2e_skip "the plugin was not built: no Slurm headers?"
pkg="slurm-treematch"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null ||
	gcc -print-multiarch)
# One package per Slurm release: the one this tree was built for, Debian's
# (its plugin directory, its packages as dependencies) or one built from
# source (tests/slurm/release.sh: no package to depend on).
with_slurm=$("$top_builddir/config.status" --config | tr ' ' '\n' |
	sed -n "s/^'\{0,1\}--with-slurm=\([^']*\)'\{0,1\}\$/\1/p")
release=$(sed -n 's/^SLURM_RELEASE = //p' "$top_builddir/Makefile")
series=${release%.*}
if [ "$(dpkg -S "${with_slurm:-/usr}/include/slurm/spank.h" 2>/dev/null |
	cut -d: -f1)" = libslurm-dev ]; then
	plugindir=/usr/lib/$multiarch/slurm-wlm
	debian_slurm=yes
else
	plugindir=/usr/lib/$multiarch/slurm-treematch
	debian_slurm=
fi
start=$(e2e_now_ms)

# One package test at a time on a machine (dpkg's own lock would make a
# second one fail); the lock goes with the test.
exec 9>/run/lock/tm-e2e-package.lock
flock -w 300 9 || e2e_skip "another package test held the lock for 300 s"
case $(dpkg-query -W -f '${db:Status-Abbrev}' "$pkg" 2>/dev/null) in
'' | un* | pn*) ;;
*) e2e_skip "$pkg is installed on this machine (dpkg -l $pkg): the test would replace it" ;;
esac

tmp=
e2e_tmpdir tmp
t0=$(e2e_now_ms)
# -o names a directory that does not exist yet: build-deb.sh makes it
if "$top_srcdir/contrib/build-deb.sh" -o "$tmp/debs" "$top_builddir" >"$tmp/build.log" 2>&1; then
	deb=$(tail -n 1 "$tmp/build.log")
	ok "contrib/build-deb.sh -o NEWDIR builds $(basename "$deb") ($(($(e2e_now_ms) - t0)) ms)"
else
	nok "contrib/build-deb.sh -o NEWDIR builds the package" "$(tail -n 20 "$tmp/build.log")"
	e2e_finish
fi
check_eq "... into NEWDIR" "$(dirname "$deb")" "$tmp/debs"
info=$(dpkg-deb -f "$deb")
check_match "Package: $pkg" "$info" "^Package: $pkg$"
check_match "the version names the Slurm release it is for ($series)" \
	"$info" "^Version: [0-9.]+\+slurm${series//./\\.}\$"
check_match "... and so does the file's name" "$(basename "$deb")" \
	"^${pkg}_[0-9.]+\+slurm${series//./\\.}_[a-z0-9]+\.deb\$"
for dep in libhwloc15 libjansson4; do
	check_match "Depends names $dep" "$(grep '^Depends:' <<<"$info")" "$dep"
done
if [ -n "$debian_slurm" ]; then
	check_match "Depends names Debian's Slurm $series" \
		"$(grep '^Depends:' <<<"$info")" \
		"slurm-client \(>= ${series//./\\.}\) \| slurmd \(>= ${series//./\\.}\)"
	check_match "Breaks the next Slurm release (another plugin ABI)" "$info" \
		'^Breaks: slurm-client \(>= [0-9.]+~\), slurmd'
else
	check "Slurm built from source: no Slurm package in Depends" \
		test -z "$(grep '^Depends:' <<<"$info" | grep -i slurm)"
	check_match "... and the description names the release and its prefix" \
		"$info" "Built for Slurm ${release//./\\.} installed from source in ${with_slurm//./\\.}"
fi

# What the package would put on the machine, and what is there now: any of
# its files already there (a `make install` into /usr) is left alone.
files=$(dpkg-deb --fsys-tarfile "$deb" | tar -t | sed 's|^\./|/|; s|/$||' |
	grep -v '^/\?$')
clash=$(while read -r f; do
	[ -d "$f" ] || [ ! -e "$f" ] || echo "$f"
done <<<"$files")
[ -z "$clash" ] || e2e_skip "files of the package are on this machine already: $(tr '\n' ' ' <<<"$clash")"
before=$(while read -r f; do [ -e "$f" ] && echo "$f"; done <<<"$files")
# (a directory's time changes when a file comes and goes: not compared)
etc_state() {
	find /etc/slurm \( -type d -printf '%p %m\n' \) -o \
		-printf '%p %m %s %T@\n' 2>/dev/null | sort
}
etc_before=$(etc_state)

installed=
purge_package() {
	[ -n "$installed" ] || return 0
	installed=
	if dpkg --purge "$pkg" >"$tmp/purge.log" 2>&1; then
		ok "dpkg --purge $pkg"
	else
		nok "dpkg --purge $pkg" "$(cat "$tmp/purge.log")"
	fi
	after=$(while read -r f; do [ -e "$f" ] && echo "$f"; done <<<"$files")
	check_eq "after the purge, the package's paths are as before the test" \
		"$after" "$before"
	check_eq "after the purge, /etc/slurm is as before the test" \
		"$(etc_state)" "$etc_before"
}
e2e_at_exit purge_package
installed=yes
check "dpkg -i $(basename "$deb")" dpkg -i "$deb"
listed=$(dpkg -L "$pkg")
for f in "$plugindir/treematch.so" /usr/bin/treematch-helper \
	/usr/share/man/man8/spank-treematch.8.gz \
	/usr/share/man/man1/treematch-helper.1.gz \
	/etc/slurm/plugstack.conf.d/treematch.conf.example \
	/usr/share/doc/$pkg/copyright; do
	if grep -qxF -- "$f" <<<"$listed" && [ -f "$f" ]; then
		ok "dpkg -L lists $f, and it is there"
	else
		nok "dpkg -L lists $f, and it is there" "$listed"
	fi
done
if [ -x "$top_builddir/contrib/profiler/commprof" ]; then
	check "dpkg -L lists /usr/bin/commprof" grep -qxF /usr/bin/commprof <<<"$listed"
	check_match "commprof preloads the installed library" \
		"$(cat /usr/bin/commprof)" \
		"COMMPROF_LIBRARY:-/usr/lib/$multiarch/$pkg/libcommprof.so"
	check "... which is there" test -f "/usr/lib/$multiarch/$pkg/libcommprof.so"
	# ... with the library of each MPI family the tree was built for
	for f in "$top_builddir"/contrib/profiler/.libs/libcommprof-*.so; do
		[ -e "$f" ] || continue
		check "... and ${f##*/} beside it" \
			test -f "/usr/lib/$multiarch/$pkg/${f##*/}"
	done
fi
check_eq "dpkg -S: $plugindir/treematch.so belongs to $pkg" \
	"$(dpkg -S "$plugindir/treematch.so" 2>&1)" "$pkg: $plugindir/treematch.so"
# By its path: which treematch-helper comes first on the PATH is not the
# package's business (a `make install` may have left one in /usr/local).
check_eq "dpkg -S: /usr/bin/treematch-helper belongs to $pkg" \
	"$(dpkg -S /usr/bin/treematch-helper 2>&1)" "$pkg: /usr/bin/treematch-helper"
check "/usr/bin/treematch-helper --version runs" /usr/bin/treematch-helper --version
example=/etc/slurm/plugstack.conf.d/treematch.conf.example
line=$(grep -E '^(optional|required) ' "$example")
check_match "the example line loads the installed plugin" "$line" \
	"^optional $plugindir/treematch.so "
check_match "the example names the installed helper as the default" \
	"$(cat "$example")" '^# helper=/usr/bin/treematch-helper$'
if [ -x "$top_builddir/contrib/profiler/commprof" ]; then
	profiler=$(sed -n 's/^# profiler=//p' "$example")
	check "the example's default profiler= is the installed library ($profiler)" \
		test -f "$profiler"
fi

# What the README and the man pages point users to (issue 25): the batch
# scripts of a recurring job, ready to run, and commprof(1).
for f in /usr/share/$pkg/batch/record.sbatch /usr/share/$pkg/batch/reuse.sbatch \
	/usr/share/$pkg/batch/auto.sbatch; do
	if grep -qxF -- "$f" <<<"$listed" && [ -x "$f" ]; then
		ok "dpkg -L lists $f, and it is there, executable"
	else
		nok "dpkg -L lists $f, and it is there, executable" "$listed"
	fi
done
check "dpkg -L lists /usr/share/$pkg/batch/README.md" \
	grep -qxF "/usr/share/$pkg/batch/README.md" <<<"$listed"
if [ -x "$top_builddir/contrib/profiler/commprof" ]; then
	f=/usr/share/man/man1/commprof.1.gz
	if grep -qxF -- "$f" <<<"$listed" && [ -f "$f" ]; then
		ok "dpkg -L lists $f, and it is there"
	else
		nok "dpkg -L lists $f, and it is there" "$listed"
	fi
	page=$(MANWIDTH=200 man -l "$f" 2>&1)
	check_match "man -l commprof.1.gz renders, naming the installed library" \
		"$page" "/usr/lib/$multiarch/$pkg/libcommprof\.so"
	check_match "... and the installed batch scripts" "$page" "/usr/share/$pkg/batch/"
fi

# A placed step with the installed files (copies, as every plugin test
# makes), then with the example line itself: the installed plugin, its
# compiled-in default helper /usr/bin/treematch-helper.
TM_INSTALLED=1 TM_INSTALLED_SO=$plugindir/treematch.so tm_start 2
tm_matrix m4.json 4 0 1 1000 2 3 1000 1 2 10
tm_slurm_binding srun -Q -N2 -n4 "$TM_PROBE"
slurm_n4=$TM_OUT
tm_run srun -Q -N2 -n4 --comm-matrix=m4.json "$TM_PROBE"
check_eq "installed plugin and helper (copies): srun exits 0" "$TM_RC" 0
tm_check_placed "installed plugin and helper (copies)" 4
echo "$line" >"$TM_PLUGSTACK.new" && chmod 644 "$TM_PLUGSTACK.new" &&
	mv "$TM_PLUGSTACK.new" "$TM_PLUGSTACK"
tm_run as_user srun -Q -N2 -n4 --comm-matrix=m4.json "$TM_PROBE"
check_eq "the example line as installed: srun exits 0, silent" \
	"$TM_RC:$TM_ERR" "0:"
tm_check_placed "the example line as installed (its default helper)" 4
tm_check_helper "... each node's CPUs are what the installed helper gives" \
	m4.json 4 "$slurm_n4" --topology this

# srun --help: every option, with one line of help (beside the option, or
# on the next line when the option is too long for its column).
help=$(timeout "$E2E_TIMEOUT" srun --help 2>&1)
help_of() {
	awk -v o="--$1" '
	{ line[NR] = $0 }
	END {
		for (i = 1; i <= NR; i++) {
			n = split(line[i], w, " ")
			if (n == 0 || w[1] != o) continue
			text = line[i]; sub("^ *" o " *", "", text); next_i = i + 1
			if (text == "") { text = line[i + 1]; sub("^ *", "", text); next_i = i + 2 }
			if (line[next_i] ~ /^                    +[^ -]/) text = text " (more lines)"
			print text
			exit
		}
	}' <<<"$help"
}
for o in 'comm-matrix=FILE' comm-matrix-report 'comm-matrix-topology=TOPO' \
	'comm-matrix-algorithm=NAME' comm-matrix-keep-layout comm-matrix-svg; do
	text=$(help_of "$o")
	if [ -n "$text" ] && [[ $text != *"(more lines)" ]]; then
		ok "srun --help: --$o: $text"
	else
		nok "srun --help: --$o with one line of help" "$text" "$help"
	fi
done

# The man page: man -l of the installed file, and man finds it by name.
page=$(MANWIDTH=200 man -l /usr/share/man/man8/spank-treematch.8.gz 2>&1)
check_match "man -l spank-treematch.8.gz renders" "$page" '^SITE KEYS$'
# man -a: every page of that name (one from a `make install` in /usr/local
# may come first)
check_match "man -aw spank-treematch finds the installed page" \
	"$(man -aw spank-treematch 2>&1)" '^/usr/share/man/man8/spank-treematch\.8\.gz$'
for o in comm-matrix comm-matrix-report comm-matrix-topology \
	comm-matrix-algorithm comm-matrix-keep-layout comm-matrix-svg \
	comm-matrix-online; do
	check_match "the man page: --$o" "$page" "^ +--$o(=| |$)"
done
# every key config.c accepts (its own list, for the error message)
keys=$(sed -n '/static const char keys\[\] =/,/;/p' "$top_srcdir/spank/config.c" |
	grep -o '"[^"]*"' | tr -d '"' | tr -d '\n' | sed 's/ or /, /' | tr -d ' ' | tr , ' ')
check "config.c's list of keys is found" test -n "$keys"
for k in $keys; do
	check_match "the man page: site key $k=" "$page" "^ +$k="
done
for v in SLURM_TREEMATCH_CPUS SLURM_TREEMATCH_STATUS; do
	check_match "the man page: $v" "$page" "^ +$v$"
done
check_match "the man page: EXIT STATUS" "$page" '^EXIT STATUS$'

# The purge (also run at exit if the test stops earlier).
purge_package
check "no daemon died" cluster_healthy
echo "# the whole test: $(($(e2e_now_ms) - start)) ms"
e2e_finish
