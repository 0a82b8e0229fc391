#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# deps-list.sh - every external command that the test and contrib shell
# scripts call is named in contrib/deps.list, the list that
# contrib/install-deps.sh installs and checks: a script that starts using
# a command nobody installs fails here, naming the script and the command,
# not on the next fresh machine.  Then the check itself: a planted script
# that calls an unlisted command must fail it.
set -u
export LC_ALL=C
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
list=$top_srcdir/contrib/deps.list
scanner=$top_srcdir/tests/unit/shell-commands.awk
# "ok - " / "not ok - " lines: what tests/summarize.sh counts
failed=0
ok() { echo "ok - $1"; }
nok() {
	failed=$((failed + 1))
	echo "not ok - $1"
	shift
	printf '%s\n' "$@" | sed 's/^/#   /'
}

# Need no entry: the shell's keywords and builtins, coreutils (Essential
# on every Debian machine, and always with the shell), and the programs
# this project builds.
no_entry="
	! [ [[ ]] . : alias bg bind break builtin caller cd command compgen
	complete continue declare dirs disown done echo enable esac eval exec
	exit export false fc fg fi getopts hash help history jobs kill let
	local logout mapfile popd printf pushd pwd read readarray readonly
	return set shift shopt source suspend test times trap true type
	typeset ulimit umask unalias unset wait
	arch b2sum base32 base64 basename cat chcon chgrp chmod chown chroot
	cksum comm cp csplit cut date dd df dir dircolors dirname du env expand
	expr factor fmt fold groups head hostid id install join link ln logname
	ls md5sum mkdir mkfifo mknod mktemp mv nice nl nohup nproc numfmt od
	paste pathchk pinky pr printenv ptx readlink realpath rm rmdir runcon
	seq sha1sum sha224sum sha256sum sha384sum sha512sum shred shuf sleep
	sort split stat stdbuf stty sum sync tac tail tee timeout touch tr
	truncate tsort tty uname unexpand uniq unlink users vdir wc who whoami
	yes
	treematch-helper commprof commprof-matrix
	chromium-browser
"
# (chromium-browser: Ubuntu's name; svg-render.sh tries chromium first)

# listed: every command named in deps.list, [by hand] packages included
listed=$(sed -e 's/#.*//' "$list" | awk '{ for (i = 2; i <= NF; i++) print $i }' |
	grep -v '^/' | sort -u)
if [ -n "$listed" ]; then
	ok "contrib/deps.list names commands ($(wc -l <<<"$listed"))"
else
	nok "contrib/deps.list names commands" "$list"
fi
set -f	# the words below are names, not patterns ("[", "[[")
# shellcheck disable=SC2086 # one name a word
allowed=$(printf '%s\n' $no_entry $listed | sort -u)

# unlisted FILE...: "FILE:LINE COMMAND" for each command not allowed; the
# functions the scripts define (in any of them: lib.sh's are used by all)
# are not commands.
unlisted() {
	local found functions
	found=$(awk -f "$scanner" "$@") || return 2
	functions=$(awk '$2 == "function" { print $3 }' <<<"$found" | sort -u)
	# shellcheck disable=SC2086 # one name a word
	awk '$2 != "function"' <<<"$found" | sort -k2,2 |
		join -1 2 -2 1 -v 1 -o 1.1,1.2 - <(printf '%s\n' $functions $allowed | sort -u) |
		sort
}

cd "$top_srcdir" || exit 1
# the test and contrib scripts: *.sh (the libraries they source too), and
# the files whose first line runs a shell (batch scripts, fake helpers,
# commprof)
# (not any executable: an in-tree build has libtool's wrapper scripts)
scripts=$(find tests contrib -type f \( -name '*.sh' -o -name '*.sbatch' -o -name '*.in' -o -path '*/fake-helpers/*' \) |
	while read -r f; do
		case $f:$(head -n 1 "$f") in
		*.sh:* | *:'#!'*sh*) echo "$f" ;;
		esac
	done | sort)
count=$(wc -l <<<"$scripts")
if [ "$count" -ge 40 ]; then
	ok "$count shell scripts under tests/ and contrib/"
else
	nok "at least 40 shell scripts under tests/ and contrib/" "$scripts"
fi
# shellcheck disable=SC2086 # one file a word
missing=$(unlisted $scripts)
if [ -z "$missing" ]; then
	ok "every command they call is in contrib/deps.list (or a builtin, coreutils, ours)"
else
	nok "every command they call is in contrib/deps.list" \
		"not listed (SCRIPT:LINE COMMAND; add it under its package):" "$missing"
fi
for c in dpkg-architecture man awk flock setpriv ss xz git; do
	if grep -qx -- "$c" <<<"$listed"; then
		ok "contrib/deps.list names $c"
	else
		nok "contrib/deps.list names $c"
	fi
done

# The check can fail: a planted script calling an unlisted command, in the
# ways our scripts call commands.
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/planted.sh" <<'EOF'
#!/bin/bash
# not-a-command in a comment
listed_function() { grep -q x "$1"; }
echo "plain-text (in quotes) not-a-command"
awk '{ print $1 }
	not-an-awk-command' /dev/null
out=$(tm-planted-one --flag | sort)
if tm-planted-two; then :; fi
timeout 10 tm-planted-three arg && listed_function file
case $1 in
pattern) tm-planted-four ;;
esac
cat <<EOT
not-a-command in a here document
EOT
EOF
got=$(unlisted "$tmp/planted.sh" | sed "s|^$tmp/||")
want=$(sort <<'EOF'
planted.sh:7 tm-planted-one
planted.sh:8 tm-planted-two
planted.sh:9 tm-planted-three
planted.sh:11 tm-planted-four
EOF
)
if [ "$got" = "$want" ]; then
	ok "a planted script: its four unlisted commands are found, with their lines, and nothing else"
else
	nok "a planted script: its four unlisted commands are found, with their lines, and nothing else" \
		"got:" "$got" "want:" "$want"
fi
# and the test's own verdict on it
if missing=$(unlisted "$tmp/planted.sh") && [ -n "$missing" ]; then
	ok "... so the check fails on it"
else
	nok "... so the check fails on it"
fi

[ "$failed" = 0 ]
