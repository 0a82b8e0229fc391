#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# build.sh ENV - build the libFuzzer targets (tests/fuzz/fuzz_*.c) with
# clang -fsanitize=fuzzer,address,undefined into DIR/bin, DIR being the
# folder of ENV (tests/fuzz/fuzz.env in the build tree, written by make
# with the sources and flags of the normal build).  The library's sources
# are compiled again here, with the sanitizers, apart from the normal
# build, which never needs clang.  Exit 77 when the compiler cannot build
# a libFuzzer program (no clang, no libclang-rt-14-dev).
set -eu
env_file=$1
# shellcheck source=/dev/null # written by make (Makefile.inc)
. "$env_file"
out=$(cd "$(dirname "$env_file")" && pwd)
cc=${FUZZ_CC:-clang}
san="-fsanitize=address,undefined -fno-sanitize-recover=all"
cflags="-g -O1 -fno-omit-frame-pointer $san -std=c11 -Wall -Wextra"
cppflags="-DHAVE_CONFIG_H -I$FUZZ_TOP_BUILDDIR -I$FUZZ_SRCDIR/helper/include
 -I$FUZZ_SRCDIR/helper -I$FUZZ_SRCDIR/spank -I$FUZZ_SRCDIR/tests/fuzz
 $FUZZ_CPPFLAGS"
mkdir -p "$out/obj" "$out/bin"

probe=$out/obj/probe
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n)
{ (void)d; (void)n; return 0; }\n' >"$probe.c"
if ! $cc -fsanitize=fuzzer,address,undefined "$probe.c" -o "$probe" \
	>"$probe.log" 2>&1; then
	echo "# no libFuzzer: '$cc -fsanitize=fuzzer' fails" \
	     "(Debian 12: apt-get install clang libclang-rt-14-dev)"
	sed 's/^/# /' "$probe.log"
	exit 77
fi

# One object per source, named after its path; rebuilt when its source,
# any header or the flags (the env file) changed since it was built.
stamp=$out/obj/stamp
all=yes
if [ -f "$stamp" ] && [ ! "$env_file" -nt "$stamp" ] &&
   [ -z "$(find "$FUZZ_SRCDIR/helper" "$FUZZ_SRCDIR/spank" \
	"$FUZZ_SRCDIR/tests/fuzz" -name '*.h' -newer "$stamp" | head -n 1)" ]
then
	all=no
fi
object() { echo "$out/obj/$(echo "$1" | tr / _ | sed 's/\.c$/.o/')"; }
stale=
for src in $FUZZ_CORE_FILES $FUZZ_SPANK_FILES; do
	o=$(object "$src")
	if [ "$all" = yes ] || [ ! -f "$o" ] || [ "$FUZZ_SRCDIR/$src" -nt "$o" ]
	then
		stale="$stale $src"
	fi
done
# Two compilers at a time at most: the machine is shared.
export cc cflags cppflags out FUZZ_SRCDIR
# shellcheck disable=SC2016 # expanded by the inner shell
for src in $stale; do echo "$src"; done |
	xargs -r -P 2 -n 1 sh -c '
		o=$out/obj/$(echo "$1" | tr / _ | sed "s/\.c\$/.o/")
		$cc $cppflags $cflags -fsanitize=fuzzer-no-link \
			-c "$FUZZ_SRCDIR/$1" -o "$o" || exit 255' sh
touch "$stamp"

core=
for src in $FUZZ_CORE_FILES; do core="$core $(object "$src")"; done
spank=
for src in $FUZZ_SPANK_FILES; do spank="$spank $(object "$src")"; done
for t in $FUZZ_TARGETS; do
	case " $FUZZ_SPANK_TARGETS " in
	*" $t "*) [ -n "$FUZZ_SPANK_FILES" ] || continue; extra=$spank ;;
	*) extra= ;;
	esac
	# shellcheck disable=SC2086 # flag and object lists are word lists
	$cc $cppflags $cflags -fsanitize=fuzzer \
		"$FUZZ_SRCDIR/tests/fuzz/fuzz_$t.c" $core $extra \
		$FUZZ_LIBS -o "$out/bin/fuzz_$t"
done
