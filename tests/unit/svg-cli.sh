#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# svg-cli.sh - treematch-helper map --format svg, as a user runs it: a
# well-formed document (xmllint when installed, else a structural check),
# one labelled core per rank in each drawing (the placement and packed),
# the heat map's cells, binning of a large matrix, and a topology name
# that is not XML text escaped; the title names the node, job and step
# when given (--node, --jobid, --stepid), the heat map has a linear colour
# scale whose top is the heaviest cell, and each cost is also a ratio to
# packed's (issue 25).
set -u
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/unit/cli-lib.sh"

if [ ! -x "$helper" ]; then
	echo "not ok - $helper is built"
	exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/tm-svg.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

# Well-formed XML: xmllint (libxml2-utils, which install-deps.sh
# installs) when there, else balanced tags and no raw '&' or '<' in text.
wellformed() { # FILE
	if command -v xmllint >/dev/null 2>&1 && [ -z "${TM_NO_XMLLINT:-}" ]; then
		xmllint --noout "$1" 2>&1
		return
	fi
	local opened closed
	opened=$(grep -o '<[a-zA-Z][^>]*>' "$1" | grep -vc '/>$')
	closed=$(grep -o '</[a-zA-Z]*>' "$1" | wc -l)
	head -1 "$1" | grep -q '^<?xml' || { echo "no XML declaration"; return 1; }
	[ "$opened" = "$closed" ] ||
		{ echo "$opened start tags, $closed end tags"; return 1; }
	! sed 's/&\(amp\|lt\|gt\|quot\|apos\);//g' "$1" | grep -q '&' ||
		{ echo "a raw '&'"; return 1; }
	! grep -v '^<?xml' "$1" | sed 's/<[^>]*>//g' | grep -q '[<>]' ||
		{ echo "a raw '<' or '>' in text"; return 1; }
}

# 16 ranks in pairs that do not follow rank order: packed splits them.
cat >pairs.json <<'JSON'
{"size": 16, "entries": [[0,9,1000],[1,12,1000],[2,5,1000],[3,14,1000],
 [4,7,1000],[6,11,1000],[8,13,1000],[10,15,1000],[0,12,300],[9,1,300],
 [2,14,300],[5,3,300],[4,6,300],[7,11,300],[8,10,300],[13,15,300]]}
JSON
topo='synthetic:pack:2 l3:1 l2:4 core:2 pu:1'
"$helper" map --matrix pairs.json --topology "$topo" --format svg >a.svg 2>err
check_eq "map --format svg exits 0" "$?" 0
msg=$(wellformed a.svg) && ok "the SVG is well-formed" ||
	nok "the SVG is well-formed" "$msg"
check_eq "one labelled core per rank in each of the two drawings" \
	"$(grep -c 'class="rank"' a.svg)" 32
every=yes
for r in $(seq 0 15); do
	[ "$(grep -c ">rank $r</text>" a.svg)" = 2 ] || every="rank $r"
done
check_eq "every rank is drawn once in each drawing" "$every" yes
check_eq "16 idle-free cores: no idle leaf" "$(grep -c 'leaf idle' a.svg)" 0
check_eq "the level names label the boxes (2 x 8 L2)" \
	"$(grep -c '>L2 L#' a.svg)" 16
# 16 pairs, both halves of the symmetric matrix, in each heat map
check_eq "32 heat map cells per heat map" "$(grep -c 'class="cell"' a.svg)" 64
grep -q 'treematch: cost' a.svg && grep -q 'packed: cost' a.svg &&
	ok "both placements are titled with their cost" ||
	nok "both placements are titled with their cost"
# the costs as the JSON gives them, and their ratio to packed's
json=$("$helper" map --matrix pairs.json --topology "$topo")
want=$(grep -o '"cost":{[^}]*}' <<<"$json" | tr '{},:' '    ' |
	awk '{ printf "treematch: cost %.6g, x%.2f packed|packed: cost %.6g, x1.00 packed (the reference)\n", $3, $3 / $5, $5 }')
check_eq "each cost is also a ratio to packed's (x0.06: 32000 against 572000)" \
	"$(grep -o '>[a-z-]*: cost [^<]*<' a.svg | tr -d '<>' | paste -sd'|' -)" "$want"
check_eq "without --node, --jobid, --stepid the title names the topology only" \
	"$(grep -o 'class="heading"[^>]*>[^<]*' a.svg | sed 's/.*>//')" \
	"16 ranks, topology $topo"
"$helper" map --matrix pairs.json --topology "$topo" --format svg \
	--node 'n<1>' --jobid 42 --stepid 3 >named.svg 2>err
check_eq "--node, --jobid, --stepid: exits 0" "$?" 0
check_eq "... and the title names the job, the step and the node (escaped)" \
	"$(grep -o 'class="heading"[^>]*>[^<]*' named.svg | sed 's/.*>//')" \
	"16 ranks of job 42, step 3 on node n&lt;1&gt;, topology $topo"
# the heaviest cell is 1000 (a pair's one direction): the scale's top,
# drawn darkest, and a cell of 300 is lighter, not almost as dark
check_eq "the heat map has a colour scale per drawing, up to the heaviest cell" \
	"$(grep -c '<g class="scale">' a.svg) $(grep -o 'class="scale-max"[^>]*>[^<]*' a.svg | sed 's/.*>//' | sort -u)" \
	"2 1 k"
check_ematch "... in the matrix's unit, linear" "$(cat a.svg)" \
	'traffic per cell, linear \(commprof: bytes\); white: none'
check_eq "the heaviest pairs are the darkest colour, the scale's top" \
	"$(grep 'class="cell"' a.svg | grep -c 'fill="#800026"')" 32
check_eq "... and the pairs of 300 (30 %) are light, not dark" \
	"$(grep 'class="cell"' a.svg | grep -v 'fill="#800026"' | grep -o 'fill="#[0-9a-f]*"' | sort -u)" \
	'fill="#febb76"'	# 0.3 of the way: light orange

# fewer ranks than cores: the rest is drawn idle
"$helper" map --matrix pairs.json --topology 'tree:2,4,4' --format svg \
	>b.svg 2>err
check_eq "16 ranks on 32 leaves: 16 idle leaves per drawing" \
	"$(grep -c 'leaf idle' b.svg)" 32

# 600 ranks: the heat map is binned to 256 x 256 at most
{
	printf '{"size": 600, "entries": ['
	for i in $(seq 0 598); do printf '[%d,%d,%d],' "$i" $((i + 1)) $((i % 9 + 1)); done
	printf '[0,599,5]]}\n'
} >ring.json
"$helper" map --matrix ring.json --topology 'tree:4,10,16' --format svg \
	>c.svg 2>err
check_eq "600 ranks: exits 0" "$?" 0
cells=$(grep -c 'class="cell"' c.svg)
[ "$cells" -gt 0 ] && [ "$cells" -le $((2 * 256 * 256)) ] &&
	ok "600 ranks: heat maps binned ($cells cells)" ||
	nok "600 ranks: heat maps binned" "$cells cells"
grep -q 'placement order (binned)' c.svg && ok "the binning is said" ||
	nok "the binning is said"

# A topology file whose path is markup (and a byte that is not UTF-8)
mkdir -p "$work/a<b&c>\"'d"$'\xff'
cp "$top_srcdir/tests/data/topo-2pack-16core-smt2.xml" "$work/a<b&c>\"'d"$'\xff/t.xml'
"$helper" map --matrix pairs.json \
	--topology "xml:$work/a<b&c>\"'d"$'\xff/t.xml' --format svg >d.svg 2>err
check_eq "a hostile topology path: exits 0" "$?" 0
msg=$(wellformed d.svg) && ok "a hostile topology path: still well-formed" ||
	nok "a hostile topology path: still well-formed" "$msg"
grep -q 'a&lt;b&amp;c&gt;&quot;&apos;d?/t.xml' d.svg &&
	ok "a hostile topology path is escaped" ||
	nok "a hostile topology path is escaped" "$(grep -o 'ranks on [^;]*' d.svg)"

# --format's error names the new choice
"$helper" map --matrix pairs.json --format png >/dev/null 2>err
check_eq "--format png: a usage error" "$?" 2
grep -q 'expected json, text or svg' err && ok "the error lists svg" ||
	nok "the error lists svg" "$(cat err)"

[ "$failed" = 0 ]
