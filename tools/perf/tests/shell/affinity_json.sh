#!/bin/bash
# perf affinity report --json and --heatmap
# SPDX-License-Identifier: GPL-2.0
#
# Write the report of PEBS-shaped samples of the lockshare workload (every
# access of its code to one instance: the same false sharing in every run,
# wherever software samples would land) as JSON and as a heatmap and check
# them (lib/affinity_json_check.py):
# the JSON against its schema (lib/affinity_schema.json) and for the lock
# and its false sharing, field indexes and layouts; the heatmap as XML that
# shows the fields, cells and cache lines of the JSON.  Then the options:
# '-' is standard output instead of the stdio report, -T and unwritable
# files.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
perfdata="${tmpdir}/perf.data"
json="${tmpdir}/json"
svg="${tmpdir}/svg"
result="${tmpdir}/result"

[ "$(uname -m)" = x86_64 ] || affinity__skip "perf bench affinity synth decodes x86-64 code only"
command -v python3 > /dev/null || affinity__skip "no python3"
python3 -c 'import jsonschema' 2> /dev/null || affinity__skip "no python3 jsonschema module"

if ! perf bench affinity synth -n 20000 -I 1 -o "${perfdata}" > /dev/null 2>&1; then
	fail "perf bench affinity synth"
	cleanup
	exit 1
fi

echo "--json and --heatmap files, with the stdio report"
if ! perf affinity report -i "${perfdata}" --stdio --json "${json}" --heatmap "${svg}" \
		> "${result}" 2>&1; then
	fail "perf affinity report --json --heatmap"
else
	grep -q "Struct Table" "${result}" || fail "no stdio report next to --json FILE"
	python3 "${shelldir}/lib/affinity_json_check.py" "${shelldir}/lib/affinity_schema.json" \
		"${json}" "${svg}" || err=1
fi

echo "--heatmap FILE.html: an HTML page whose body is the SVG image"
if ! perf affinity report -i "${perfdata}" --heatmap "${svg}.html" -T lockshare_rq \
		> /dev/null 2>&1; then
	fail "perf affinity report --heatmap FILE.html"
elif ! python3 -c '
import sys, xml.etree.ElementTree as ET
page = open(sys.argv[1]).read()
ok = page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
ET.fromstring(page[page.index("<svg"):page.index("</svg>") + 6])	# well formed
sys.exit(0 if ok and " 1 cache lines" not in page else 1)' "${svg}.html"; then
	fail "--heatmap FILE.html: not an HTML page around an SVG image"
fi

echo "--json -: the JSON on standard output, and nothing else"
if ! perf affinity report -i "${perfdata}" --json - -T lockshare_rq > "${result}" 2> /dev/null; then
	fail "perf affinity report --json -"
elif ! python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
sys.exit([t["name"] for t in doc["types"]] != ["struct lockshare_rq"])' "${result}"; then
	fail "--json - -T lockshare_rq: not JSON of struct lockshare_rq alone"
fi

echo "unwritable files: one line, non-zero exit"
for opt in --json --heatmap; do
	if perf affinity report -i "${perfdata}" "${opt}" /nonexistent/x > /dev/null \
			2> "${result}"; then
		fail "${opt} /nonexistent/x succeeded"
	elif [ "$(wc -l < "${result}")" -ne 1 ] ||
	     ! grep -q -- "${opt} /nonexistent/x" "${result}"; then
		fail "${opt} /nonexistent/x: not one line naming the file: $(cat "${result}")"
	fi
done

cleanup
exit $err
