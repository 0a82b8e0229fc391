#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# build-deb.sh - build the Debian package slurm-treematch from a configured
# build tree, with plain dpkg tools and no network.
#
#   contrib/build-deb.sh [-o OUTDIR] [BUILDDIR]
#
# BUILDDIR (default: the current directory) is a configured build tree of
# this project: its sources (`make distdir`) are configured again for
# Debian's paths (--prefix=/usr, the plugin in Slurm's plugin directory)
# and for the Slurm BUILDDIR was configured with (--with-slurm), built with
# dpkg-buildflags and installed into a staging tree (`make install
# DESTDIR=`), which becomes OUTDIR/slurm-treematch_VERSION+slurmSERIES_ARCH.deb
# (default OUTDIR: BUILDDIR, made when missing): one package per Slurm release, since Slurm
# loads no plugin built for another.  The last line printed is the
# package's path.  BUILDDIR itself is not changed.
#
# The Slurm decides the plugin's directory and the dependencies:
#   Debian's (libslurm-dev owns spank.h): /usr/lib/MULTIARCH/slurm-wlm,
#     Depends slurm-client or slurmd of that series, Breaks the next;
#   SchedMD's packages (slurm-smd-dev): /usr/lib/MULTIARCH/slurm, Depends
#     slurm-smd of that series only;
#   one built from source (no package owns spank.h): the plugin in
#     /usr/lib/MULTIARCH/slurm-treematch beside the profiler, no Slurm
#     dependency dpkg could check; the version and the description name
#     the release and its prefix.
#
# Needs gcc, make, dpkg-dev (dpkg-architecture, dpkg-shlibdeps,
# dpkg-buildflags: without them the host's multiarch comes from gcc and the
# dependencies from `dpkg -S` of the linked libraries) and the build
# dependencies, Slurm's headers (libslurm-dev) included: a package without
# the plugin is refused.  The package's fields are in contrib/debian/.
set -eu

out=
while getopts o: opt; do
	case $opt in
	o) out=$OPTARG ;;
	*) echo "usage: $0 [-o OUTDIR] [BUILDDIR]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
build=$(cd "${1:-.}" && pwd)
# OUTDIR is made when missing, as cp or make install would: the user named
# where the package should go.
if [ -n "$out" ] && ! mkdir -p -- "$out"; then
	echo "build-deb.sh: cannot make the output directory $out" >&2
	exit 1
fi
out=$(cd "${out:-$build}" && pwd)
[ -f "$build/config.status" ] || {
	echo "build-deb.sh: $build is not a configured build tree" >&2
	exit 1
}
srcdir=$(sed -n 's/^abs_top_srcdir = //p' "$build/Makefile")
debian=$srcdir/contrib/debian

multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null ||
	gcc -print-multiarch)
arch=$(dpkg-architecture -qDEB_HOST_ARCH 2>/dev/null ||
	dpkg --print-architecture)
version=$(sed -n 's/^PACKAGE_VERSION = //p' "$build/Makefile")
libdir=/usr/lib/$multiarch

# The Slurm this build tree was configured with, and who installed it.
with_slurm=$("$build/config.status" --config | tr ' ' '\n' |
	sed -n "s/^'\{0,1\}--with-slurm=\([^']*\)'\{0,1\}\$/\1/p")
release=$(sed -n 's/^SLURM_RELEASE = //p' "$build/Makefile")
[ -n "$release" ] || {
	echo "build-deb.sh: $build was configured without Slurm's headers (apt-get install libslurm-dev, or --with-slurm=PREFIX)" >&2
	exit 1
}
series=$(echo "$release" | cut -d. -f1-2)
next=$(echo "$series" | awk -F. '{ printf "%s.%02d~", $1, $2 + 1 }')
spank_h=${with_slurm:-/usr}/include/slurm/spank.h
slurm_pkg=$(dpkg -S "$spank_h" 2>/dev/null | cut -d: -f1 | head -n 1)
case $slurm_pkg in
libslurm-dev)
	plugindir=$libdir/slurm-wlm
	slurm_depends="slurm-client (>= $series) | slurmd (>= $series)"
	slurm_breaks="slurm-client (>= $next), slurmd (>= $next)"
	built_for="Debian's Slurm $series" ;;
slurm-smd-dev)
	plugindir=$libdir/slurm
	slurm_depends="slurm-smd (>= $series), slurm-smd (<< $next)"
	slurm_breaks=
	built_for="SchedMD's Slurm $series packages" ;;
*)
	plugindir=$libdir/slurm-treematch
	slurm_depends=
	slurm_breaks=
	built_for="Slurm $release installed from source in ${with_slurm:-/usr}" ;;
esac
version=$version+slurm$series

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tm-deb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
src=$tmp/slurm-treematch-$version
stage=$tmp/stage

echo "build-deb.sh: sources of $build"
make -s -C "$build" distdir distdir="$src" >"$tmp/log" 2>&1 || {
	cat "$tmp/log" >&2
	exit 1
}
echo "build-deb.sh: configure and build for $plugindir"
if command -v dpkg-buildflags >/dev/null; then
	# hardening and optimisation flags, as a Debian package is built
	eval "$(DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --export=sh)"
fi
(
	cd "$src"
	./configure -q --prefix=/usr --sysconfdir=/etc --localstatedir=/var \
		--libdir="$libdir" --with-spank-plugindir="$plugindir" \
		${with_slurm:+--with-slurm="$with_slurm"} &&
		make -s -j"$(nproc 2>/dev/null || echo 2)" &&
		make -s install DESTDIR="$stage"
) >"$tmp/log" 2>&1 || {
	tail -n 40 "$tmp/log" >&2
	exit 1
}
[ -f "$stage$plugindir/treematch.so" ] || {
	echo "build-deb.sh: the plugin was not built (no Slurm headers? apt-get install libslurm-dev)" >&2
	exit 1
}

# Debian's layout: no libtool archives, stripped objects, compressed man
# pages, the copyright file, the example plugstack line in Slurm's
# plugstack.conf.d (Debian's plugstack.conf includes *.conf there: the
# example stays inactive until renamed).
find "$stage" -name '*.la' -delete
find "$stage" -type f \( -name '*.so' -o -perm -u+x \) | while read -r f; do
	case $(head -c 4 "$f" | od -An -c | tr -d ' ') in
	177ELF) strip --remove-section=.comment --remove-section=.note \
		--strip-unneeded "$f" ;;
	esac
done
find "$stage" -type f -name '*.so' -exec chmod 644 {} +
find "$stage/usr/share/man" -type f -exec gzip -9n {} +
install -D -m 644 "$debian/copyright" \
	"$stage/usr/share/doc/slurm-treematch/copyright"
install -d -m 755 "$stage/etc/slurm/plugstack.conf.d"
sed -e "s|/usr/local/lib/slurm-treematch/treematch.so|$plugindir/treematch.so|g" \
	-e "s|/usr/local/bin/treematch-helper|/usr/bin/treematch-helper|g" \
	-e "s|/usr/local/lib/slurm-treematch/libcommprof.so|$libdir/slurm-treematch/libcommprof.so|g" \
	"$srcdir/etc/plugstack.conf.example" \
	>"$stage/etc/slurm/plugstack.conf.d/treematch.conf.example"
chmod 644 "$stage/etc/slurm/plugstack.conf.d/treematch.conf.example"

# Dependencies: the libraries the programs and the plugin link (the
# profiler's MPI library only recommended: it is loaded into MPI programs,
# which bring their own), and Slurm of the series whose spank.h the plugin
# was built with (Slurm refuses plugins of another major release).
elves=$(find "$stage" -type f | while read -r f; do
	case $(head -c 4 "$f" | od -An -c | tr -d ' ') in 177ELF) echo "$f" ;; esac
done)
main=$(echo "$elves" | grep -v '/libcommprof[-a-z]*\.so$' || true)
profiler=$(echo "$elves" | grep '/libcommprof[-a-z]*\.so$' || true)
shlib_deps() { # FIELD FILE...: "shlibs:FIELD=..." from dpkg -S of the
	field=$1  # libraries each file names (NEEDED), found by ldd
	shift
	[ $# -gt 0 ] || return 0
	pkgs=$(for f in "$@"; do
		ldd "$f" | awk -v needed=" $(objdump -p "$f" |
			awk '$1 == "NEEDED" { printf "%s ", $2 }')" \
			'$2 == "=>" && index(needed, " " $1 " ") { print $3 }'
	done | sort -u | while read -r lib; do
		dpkg -S "$lib" 2>/dev/null || dpkg -S "$(readlink -f "$lib")" 2>/dev/null ||
			dpkg -S "/usr$lib" 2>/dev/null || true
	done | cut -d: -f1 | sort -u | paste -sd, - | sed 's/,/, /g')
	echo "shlibs:$field=$pkgs"
}
if command -v dpkg-shlibdeps >/dev/null; then
	mkdir -p "$tmp/shlibs/debian"
	printf 'Source: slurm-treematch\n\nPackage: slurm-treematch\nArchitecture: any\n' \
		>"$tmp/shlibs/debian/control"
	# shellcheck disable=SC2086 # one file a word (no spaces: our paths)
	subst=$(cd "$tmp/shlibs" &&
		dpkg-shlibdeps -O -e$main \
			${profiler:+-dRecommends -e$profiler} 2>"$tmp/log") || {
		cat "$tmp/log" >&2
		exit 1
	}
else
	# shellcheck disable=SC2086
	subst="$(shlib_deps Depends $main)
$(shlib_deps Recommends $profiler)"
fi
depends=$(echo "$subst" | sed -n 's/^shlibs:Depends=//p')
recommends=$(echo "$subst" | sed -n 's/^shlibs:Recommends=//p')
depends="$depends${slurm_depends:+, $slurm_depends}"

mkdir -p "$stage/DEBIAN"
size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
# (# as the separator: dependencies hold | and paths /)
sed -e "s#@VERSION@#$version#" -e "s#@ARCH@#$arch#" \
	-e "s#@MAINTAINER@#${DEBFULLNAME:-slurm-treematch maintainers} <${DEBEMAIL:-root@localhost}>#" \
	-e "s#@SIZE@#$size#" -e "s#@DEPENDS@#$depends#" \
	-e "s#@BREAKS@#$slurm_breaks#" -e "s#@BUILT_FOR@#$built_for#" \
	"$debian/control.in" >"$stage/DEBIAN/control"
[ -n "$slurm_breaks" ] || sed -i '/^Breaks: $/d' "$stage/DEBIAN/control"
if [ -n "$recommends" ]; then
	sed -i "s#@RECOMMENDS@#$recommends#" "$stage/DEBIAN/control"
else
	sed -i '/^Recommends: /d' "$stage/DEBIAN/control"
fi
(cd "$stage" && find etc -type f | sed 's|^|/|') >"$stage/DEBIAN/conffiles"
(cd "$stage" && find usr -type f -exec md5sum {} + | sort -k2) \
	>"$stage/DEBIAN/md5sums"
chmod 644 "$stage/DEBIAN/control" "$stage/DEBIAN/conffiles" \
	"$stage/DEBIAN/md5sums"
find "$stage" -type d -exec chmod 755 {} +

deb=$out/slurm-treematch_${version}_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "$deb"
