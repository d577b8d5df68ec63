#!/bin/bash
# perf affinity report --heatmap: weights, split and merge advice, rendered
# SPDX-License-Identifier: GPL-2.0
#
# Record the tinyalloc workload with timer samples: too sparse for windows,
# so co-access is the code method's, which weighs every pair of fields of a
# function alike.  The heatmap's cells must still tell the pairs apart (the
# sampled accesses both fields had in the functions accessing both), and
# whatever split or merge the stdio report advises must be drawn: the split
# as a panel of its hot part naming the cold members, the merge as cache
# lines of both arrays.  Then render the SVG image (CairoSVG, where python
# has it) and check that it is not blank.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
perfdata="${tmpdir}/perf.data"
svg="${tmpdir}/heatmap.svg"
stdio="${tmpdir}/stdio"

[ "$(uname -m)" = x86_64 ] || affinity__skip "the workload's accesses are decoded on x86-64 only"
command -v python3 > /dev/null || affinity__skip "no python3"

if ! perf affinity record -o "${perfdata}" -- perf test -w tinyalloc > /dev/null 2>&1; then
	fail "perf affinity record -- perf test -w tinyalloc"
	cleanup
	exit 1
fi

echo "--stdio and --heatmap of one recording"
if ! perf affinity report -i "${perfdata}" --stdio --heatmap "${svg}" > "${stdio}" 2>&1; then
	fail "perf affinity report --heatmap"
	cleanup
	exit 1
fi

python3 - "${svg}" "${stdio}" <<'EOF' || fail "the heatmap does not show what --stdio advises"
import re, sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
svg = ET.parse(sys.argv[1]).getroot()
stdio = open(sys.argv[2]).read()
ok = True

def texts(g):
    return ["".join(t.itertext()) for t in g.iter(NS + "text")]

def bad(msg):
    global ok
    print("FAIL:", msg)
    ok = False

# Under the code method the cells weigh the pairs by their samples
varied = False
for g in svg.iter(NS + "g"):
    if g.get("class") != "type" or not any("by the code method" in t for t in texts(g)):
        continue
    weights = {}
    for r in g.iter(NS + "rect"):
        if r.get("class") != "cell":
            continue
        title = r.find(NS + "title")
        m = re.search(r"both sampled (\d+) times", title.text if title is not None else "")
        if not m:
            bad("a cell of the code method without its sampled accesses: %s" % title.text)
            break
        weights.setdefault(int(m.group(1)), set()).add(r.get("fill"))
    if len(weights) >= 2:
        varied = varied or max(weights) >= 2 * max(min(weights), 1)
        lightest, heaviest = weights[min(weights)], weights[max(weights)]
        if lightest & heaviest:
            bad("the lightest and heaviest pairs have one colour")
if not varied:
    bad("no struct type of the code method whose cells tell pairs apart")

# The split advised: a panel of the hot part, the cold members named
m = re.search(r"Advice: split it.*\n.*\n\s+cold: ([^(]*) \(", stdio)
if m:
    cold = [f.strip() for f in m.group(1).split(",")]
    all_text = texts(svg)
    named = [t for t in all_text if t.startswith("cold, in")]
    if not any(t.startswith("split: a hot") for t in all_text):
        bad("the split advised is not drawn")
    elif not named or any(f not in named[0].split() for f in cold):
        bad("the split's cold members %s are not named: %s" % (cold, named))

# The merges advised: a group each, both arrays' lines
merges = re.findall(r"Advice: merge (\S+) and (\S+) into", stdio)
drawn = [" ".join(texts(g)) for g in svg.iter(NS + "g") if g.get("class") == "merge"]
for a, b in merges:
    if not any("merge %s and %s into" % (a, b) in d for d in drawn):
        bad("the merge of %s and %s is not drawn" % (a, b))
if not m and not merges:
    bad("tinyalloc's report advises neither a split nor a merge")
sys.exit(0 if ok else 1)
EOF

echo "the image renders and is not blank"
renderer=""
for py in python3 /usr/bin/python3; do
	if "${py}" -c 'import cairosvg, PIL' 2> /dev/null; then
		renderer="${py}"
		break
	fi
done
if [ -z "${renderer}" ]; then
	echo "no python with CairoSVG and PIL: not rendered"
elif ! "${renderer}" - "${svg}" "${tmpdir}/heatmap.png" <<'EOF'; then
import sys
import cairosvg
from PIL import Image

cairosvg.svg2png(url=sys.argv[1], write_to=sys.argv[2])
im = Image.open(sys.argv[2]).convert("RGBA")
w, h = im.size
inked = sum(1 for p in im.getdata() if p[3] and p[:3] != (255, 255, 255))
print("%dx%d, %.1f%% of the pixels inked" % (w, h, 100.0 * inked / (w * h)))
sys.exit(0 if w >= 400 and h >= 200 and inked > w * h // 100 else 1)
EOF
	fail "the heatmap renders blank or not at all"
fi

cleanup
exit ${err}
