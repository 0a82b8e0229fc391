#!/bin/sh
# The invalid-input suite: each file NAME in this directory is a bad
# matrix, and NAME.err holds the one line that treematch-helper must print
# for it (after "treematch-helper: ").  For every NAME.err the helper runs
#   treematch-helper map --matrix NAME --topology "synthetic:pack:2 core:4"
# followed by the words of NAME.args when there is one, from inside this
# directory so that messages show bare file names, and must exit with 1,
# print that line alone on stderr and nothing on stdout.
#
# A NAME.err without a file NAME is run as is: missing.json checks the
# error for a file that does not exist.  Inputs that cannot live in a
# source tree (a directory, an unreadable file) are made in a scratch
# directory and run from there.

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
cases=$top_srcdir/tests/invalid
helper=$top_builddir/helper/treematch-helper
topology="synthetic:pack:2 core:4"

if [ ! -x "$helper" ]; then
	echo "not ok - $helper is built"
	exit 1
fi
scratch=$(mktemp -d "${TMPDIR:-/tmp}/tm-invalid.XXXXXX") || exit 1
trap 'rm -rf "$scratch"' EXIT

failed=0
as_user=   # a command prefix that runs the helper as another user

# run_case NAME DIR: run the helper on NAME from DIR and compare.
run_case() {
	name=$1
	dir=$2
	args=
	if [ -f "$cases/$name.args" ]; then
		args=$(cat "$cases/$name.args")
	fi
	# $args is split into words on purpose; no word may be a pattern.
	set -f
	(cd "$dir" && exec $as_user "$helper" map --matrix "$name" \
		--topology "$topology" $args) \
		>"$scratch/stdout" 2>"$scratch/stderr"
	status=$?
	set +f

	printf 'treematch-helper: %s\n' "$(cat "$cases/$name.err")" \
		>"$scratch/expected"
	problems=
	if [ "$status" -ne 1 ]; then
		problems="$problems exit status $status, expected 1;"
	fi
	if [ -s "$scratch/stdout" ]; then
		problems="$problems output on stdout;"
	fi
	if ! cmp -s "$scratch/expected" "$scratch/stderr"; then
		problems="$problems stderr is not the expected line;"
	fi
	if [ -z "$problems" ]; then
		echo "ok - $name"
		return
	fi
	failed=1
	echo "not ok - $name:$problems"
	echo "#   expected stderr:"
	sed 's/^/#     /' "$scratch/expected"
	echo "#   got stderr:"
	sed 's/^/#     /' "$scratch/stderr"
	if [ -s "$scratch/stdout" ]; then
		echo "#   got stdout:"
		sed 's/^/#     /' "$scratch/stdout"
	fi
}

for err in "$cases"/*.err; do
	name=$(basename "$err" .err)
	case $name in
	is-a-directory.json)
		mkdir "$scratch/$name"
		run_case "$name" "$scratch"
		;;
	unreadable.json)
		: >"$scratch/$name"
		chmod 000 "$scratch/$name"
		if [ "$(id -u)" -eq 0 ]; then
			# root reads any file: the case runs as nobody
			chmod 711 "$scratch"
			as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
			if ! $as_user test -x "$helper"; then
				echo "not ok - $name: nobody cannot run $helper" \
					"(build in a directory others may enter)"
				failed=1
				continue
			fi
		fi
		run_case "$name" "$scratch"
		as_user=
		;;
	*)
		run_case "$name" "$cases"
		;;
	esac
done

# An input without its expected line would never be checked.
for input in "$cases"/*; do
	name=$(basename "$input")
	case $name in
	*.err | *.args | run.sh | run.sh.log | run.sh.trs) continue ;;
	esac
	if [ ! -f "$input.err" ]; then
		echo "not ok - $name has its $name.err"
		failed=1
	fi
done

exit $failed
