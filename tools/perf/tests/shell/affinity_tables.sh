#!/bin/bash
# perf affinity report tables: -F, --sort and -x
# SPDX-License-Identifier: GPL-2.0
#
# The struct table and the field tables are perf hists: -F picks their
# columns, --sort their order (each table the keys it has), -x prints one
# of them and nothing else (--table), one line of column keys first.  The
# JSON follows the struct table's order.  Synthesized samples: the same
# report every run.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
perfdata="${tmpdir}/perf.data"
result="${tmpdir}/result"
errout="${tmpdir}/errout"

[ "$(uname -m)" = x86_64 ] || affinity__skip "perf bench affinity synth decodes x86-64 code only"

if ! perf bench affinity synth -n 20000 -s 3 -o "${perfdata}" > /dev/null 2>&1; then
	fail "perf bench affinity synth"
	cleanup
	exit 1
fi

# report ARGS...: the stdio report in ${result}
report() {
	perf affinity report -i "${perfdata}" --stdio "$@" > "${result}" 2> "${errout}" ||
		fail "perf affinity report $*: $(head -1 "${errout}")"
}

# header TYPE: the column header line of TYPE's field table
header() {
	awk -v t="$1" '$0 ~ "^  " t ": " { s = 1; next }
		       s && /^# / { sub(/^# /, ""); print; exit }' "${result}"
}

# rows TYPE: the rows of TYPE's field table, without the leading blanks
rows() {
	awk -v t="$1" '$0 ~ "^  " t ": " { s = 1; next }
		       s && /^# / { f = 1; next }
		       f && /^#/ { next }
		       f && /^ *$/ { exit }
		       f { sub(/^ +/, ""); print }' "${result}"
}

# table N: stdout is one table of N columns, its keys first, as CSV reads it
table() {
	python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
n = int(sys.argv[2])
bad = [r for r in rows if len(r) != n or any(f != f.strip() for f in r)]
print(len(rows) - 1, "rows;", "bad:", bad[:2])
sys.exit(1 if bad or len(rows) < 2 else 0)' "${result}" "$1"
}

echo "default: the field table by offset, every column"
report
[ "$(header "struct lockshare_rq" | awk '{ $1 = $1; print }')" = \
  "Field Off Size Line Loads Stores Hitm Acc% Readers Writers Class" ] ||
	fail "default columns: '$(header "struct lockshare_rq")'"
rows "struct lockshare_rq" | awk '{ print $2 }' > "${tmpdir}/offsets"
[ "$(wc -l < "${tmpdir}/offsets")" -ge 2 ] || fail "default: fewer than two fields"
sort -n -c "${tmpdir}/offsets" 2> /dev/null || fail "default: fields not by offset"

echo "-F name,stores,class --sort stores"
report -F name,stores,class --sort stores
[ "$(header "struct lockshare_rq" | awk '{ $1 = $1; print }')" = "Field Stores Class" ] ||
	fail "-F: columns '$(header "struct lockshare_rq")'"
rows "struct lockshare_rq" | awk '{ print $2 }' > "${tmpdir}/stores"
sort -n -r -c "${tmpdir}/stores" 2> /dev/null || fail "--sort stores: fields not by stores"
[ "$(rows "struct lockshare_rq" | head -1 | awk '{ print $1 }')" = lock ] ||
	fail "--sort stores: lock (the most stored) is not first"
awk '/^# Struct/ { $1 = $1; print; exit }' "${result}" | grep -q "^# Struct Stores$" ||
	fail "-F: the struct table has other columns than name and stores"

echo "--sort share -F name: a sort key is a column too"
report --sort share -F name
[ "$(header "struct lockshare_rq" | awk '{ $1 = $1; print }')" = "Field Acc%" ] ||
	fail "--sort share -F name: columns '$(header "struct lockshare_rq")'"

echo "-F gain: the field tables keep their columns"
report -F gain
header "struct lockshare_rq" | grep -q "^Field .* Class$" ||
	fail "-F gain: field columns '$(header "struct lockshare_rq")'"

echo "--sort name: both tables by name"
report --sort name --percent-limit 0
rows "struct lockshare_rq" | awk '{ print $1 }' > "${tmpdir}/names"
LC_ALL=C sort -c "${tmpdir}/names" 2> /dev/null || fail "--sort name: fields not by name"
awk '/^# Struct/ { s = 1; next } s && /^#/ { next } s && /^ *$/ { exit }
     s { print $2 }' "${result}" > "${tmpdir}/structs"
[ "$(wc -l < "${tmpdir}/structs")" -ge 2 ] || fail "--sort name: fewer than two structs"
LC_ALL=C sort -c "${tmpdir}/structs" 2> /dev/null || fail "--sort name: structs not by name"

echo "-x ,: the struct table, and nothing else"
report -x ,
[ "$(head -1 "${result}")" = "name,size,accesses,stores,hitm,fs,lines,gain,gain_interval" ] ||
	fail "-x: header '$(head -1 "${result}")'"
table 9 || fail "-x: not a table of 9 columns"
grep -q "^struct lockshare_rq," "${result}" || fail "-x: no row of struct lockshare_rq"

echo "-x , --table fields: the field tables as one, the type first, lists quoted"
report -x , --table fields
[ "$(head -1 "${result}")" = \
  "struct,name,offset,size,line,loads,stores,hitm,share,readers,writers,class" ] ||
	fail "-x --table fields: header '$(head -1 "${result}")'"
table 12 || fail "-x --table fields: not a table of 12 columns"
[ "$(grep -c "^struct lockshare_rq," "${result}")" -ge 2 ] ||
	fail "-x --table fields: fewer than two fields of struct lockshare_rq"

echo "--table without -x, or of no such table: an error"
for args in "--table fields" "-x , --table bogus"; do
	# shellcheck disable=SC2086
	if perf affinity report -i "${perfdata}" ${args} > "${result}" 2> "${errout}"; then
		fail "${args}: exit 0"
	fi
	[ "$(wc -l < "${errout}")" = 1 ] && grep -q "^--table" "${errout}" ||
		fail "${args}: not one line naming --table: $(head -2 "${errout}")"
done

echo "--json follows --sort"
perf affinity report -i "${perfdata}" --sort name --json - > "${result}" 2> "${errout}" ||
	fail "--json -: $(head -1 "${errout}")"
python3 -c '
import json, sys
names = [t["name"] for t in json.load(open(sys.argv[1]))["types"]]
sys.exit(len(names) < 2 or names != sorted(names))' "${result}" ||
	fail "--json with --sort name: types not by name"

echo "-F bogus: one line"
if perf affinity report -i "${perfdata}" --stdio -F bogus > "${result}" 2> "${errout}"; then
	fail "-F bogus accepted"
fi
[ "$(wc -l < "${errout}")" -eq 1 ] && grep -q "^-F bogus: use name, size" "${errout}" ||
	fail "-F bogus: not a one line error: $(head -3 "${errout}")"

cleanup
exit $err
