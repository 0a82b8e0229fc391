#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# svg-render.sh - the picture of `treematch-helper map --format svg` as a
# real browser draws it: headless Chromium (Debian's chromium, installed
# by contrib/install-deps.sh) takes a screenshot, and pngstat (built here
# from tests/unit/pngstat.c with zlib) checks that the PNG has the window's
# size, is not blank, and shows the group colours and the heat map.
# Skips (77) without chromium, a C compiler or zlib's header.
set -u
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/unit/cli-lib.sh"

if [ ! -x "$helper" ]; then
	echo "not ok - $helper is built"
	exit 1
fi
browser=$(command -v chromium || command -v chromium-browser) || {
	echo "# skip: no chromium (contrib/install-deps.sh installs it)"
	exit 77
}
work=$(mktemp -d "${TMPDIR:-/tmp}/tm-render.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
if ! ${CC:-cc} -std=c11 -O1 -o pngstat "$top_srcdir/tests/unit/pngstat.c" \
	-lz 2>cc.err; then
	echo "# skip: cannot build pngstat (a C compiler and zlib1g-dev)"
	sed 's/^/# /' cc.err
	exit 77
fi

cat >pairs.json <<'JSON'
{"size": 16, "entries": [[0,9,1000],[1,12,1000],[2,5,1000],[3,14,1000],
 [4,7,1000],[6,11,1000],[8,13,1000],[10,15,1000],[0,12,300],[9,1,300],
 [2,14,300],[5,3,300],[4,6,300],[7,11,300],[8,10,300],[13,15,300]]}
JSON
"$helper" map --matrix pairs.json \
	--topology 'synthetic:pack:2 l3:1 l2:4 core:2 pu:1' --format svg \
	>map.svg || { echo "not ok - map --format svg"; exit 1; }

# A fresh profile, nothing from the network, no GPU.  --no-sandbox: as
# root (how the tests run) Chromium refuses to start without it and writes
# no picture; an ordinary user leaves it out (doc/loop.md).
shot() { # SVG PNG
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$work/profile" --screenshot="$2" \
		--window-size=1200,900 "file://$work/$1" >chromium.log 2>&1
}
start=$(date +%s)
shot map.svg map.png
if [ -s map.png ]; then
	ok "chromium renders the SVG ($(($(date +%s) - start)) s)"
else
	nok "chromium renders the SVG" "$(tail -3 chromium.log)"
	exit 1
fi
[ -n "${TM_KEEP_PNG:-}" ] && cp map.png "$TM_KEEP_PNG"

# the palette's first colours (the first groups), the darkest heat map
# colour (the heaviest pairs), white
read -r w h distinct g1 g2 g3 heavy white < <(./pngstat map.png \
	8dd3c7 fdb462 bebada 800026 ffffff) ||
	{ echo "not ok - pngstat reads the PNG"; exit 1; }
[ "$w x $h" = "1200 x 900" ] && ok "the PNG is 1200 x 900" ||
	nok "the PNG is 1200 x 900" "got $w x $h"
[ "$distinct" -ge 50 ] && ok "not blank: $distinct distinct colours" ||
	nok "not blank" "$distinct distinct colours"
total=$((w * h))
[ "$white" -gt $((total / 3)) ] && [ "$white" -lt $((total * 95 / 100)) ] &&
	ok "a white page with a drawing on it ($white white pixels)" ||
	nok "a white page with a drawing on it" "$white of $total white"
# each group colour fills two cores of about 58 x 22 pixels in each drawing
for c in "$g1" "$g2" "$g3"; do
	[ "$c" -ge 2000 ] || bad="$c"
done
[ -z "${bad:-}" ] && ok "the group colours fill the cores ($g1, $g2, $g3 px)" ||
	nok "the group colours fill the cores" "$g1 $g2 $g3 pixels"
# 8 heaviest pairs, twice each, in the treematch heat map, 14 x 14 px a
# cell; packed's heat map has them too
[ "$heavy" -ge $((2 * 16 * 100)) ] &&
	ok "the heat maps show the heaviest pairs ($heavy px)" ||
	nok "the heat maps show the heaviest pairs" "$heavy pixels"

# the same picture twice gives the same pixels: nothing animated or random
shot map.svg again.png
[ "$(./pngstat map.png)" = "$(./pngstat again.png)" ] &&
	ok "rendering twice gives the same picture" ||
	nok "rendering twice gives the same picture"

[ "$failed" = 0 ]
