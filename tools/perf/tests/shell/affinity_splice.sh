#!/bin/bash
# perf affinity advises merging parallel arrays and splitting a struct
# SPDX-License-Identifier: GPL-2.0
#
# The tinyalloc workload, an allocator's fast path in 2 threads: the
# per-thread caches tiny_head[] and tiny_count[], both indexed by the size
# class in every alloc and free, are to be merged into one array; of
# struct tiny_slab_meta, whose slabs the refills scan reading freelist,
# used and capacity only, the hot half is to be split from the cold.  The
# control runs unrelated code on the same data: no merge, no split.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
perfdata="${tmpdir}/perf.data"
result="${tmpdir}/result"

[ "$(uname -m)" = x86_64 ] || affinity__skip "thread-local variables are x86-64 only"

# record MODE...: tinyalloc, 1.5 s, into ${perfdata}
record() {
	perf affinity record -o "${perfdata}" -- perf test -w tinyalloc 1500 "$@" \
		> /dev/null 2>&1
}

if ! record; then
	fail "perf affinity record -- perf test -w tinyalloc"
	cleanup
	exit 1
fi

echo "--stats: the thread-local accesses are attributed"
perf affinity report -i "${perfdata}" --stats > "${result}" 2>&1 || fail "--stats"
tls=$(awk '/Thread-local \(%fs:\) accesses/ { print $NF + 0 }' "${result}")
done_=$(awk '/^    attributed / { print $NF + 0 }' "${result}")
echo "${done_:-0} of ${tls:-0} thread-local accesses attributed"
[ "${tls:-0}" -gt 100 ] || fail "too few thread-local accesses: ${tls:-0}"
[ $(( ${done_:-0} * 100 )) -ge $(( ${tls:-0} * 95 )) ] ||
	fail "${done_:-0} of ${tls:-0} thread-local accesses attributed"

echo "--dump-raw-accesses: to elements of both arrays"
perf affinity report -i "${perfdata}" --dump-raw-accesses > "${result}" 2>&1 ||
	fail "--dump-raw-accesses"
grep -q " tiny_alloc tiny_head\[[0-9]*\]$\| tiny_free tiny_head\[[0-9]*\]$" "${result}" ||
	fail "no access attributed to an element of tiny_head"
grep -q " tiny_count\[[0-9]*\]$" "${result}" || fail "no access attributed to an element of tiny_count"

echo "the report: merge the caches, split the slab metadata"
perf affinity report -i "${perfdata}" --stdio --json "${tmpdir}/json" > "${result}" 2>&1 ||
	fail "perf affinity report --stdio --json"
grep -q "^  tiny_head: thread-local void \*\[64\], 8 bytes each" "${result}" ||
	fail "tiny_head is not listed"
grep -q "^  Advice: merge tiny_head and tiny_count into one array of struct tiny_head_count (16 bytes)" \
	"${result}" || fail "no merge of tiny_head and tiny_count"
grep -q "^  predicted: .*lines per visit 2.00 -> 1.00" "${result}" ||
	fail "the merge does not predict one line per visit instead of two"
awk '/^  struct [a-z_]*: [0-9]* bytes/ { f = /tiny_slab_meta/ } /Arrays of scalars/ { f = 0 } f' \
	"${result}" > "${tmpdir}/slab"
grep -q "^  Advice: split it into a hot and a cold struct" "${tmpdir}/slab" ||
	fail "no split of struct tiny_slab_meta"
# the struct table's gain is the split's saving, not the 0 of its layout
split=$(sed -n 's/^  predicted: -\([0-9.]*\)% (bytes of the array.*/\1/p' "${tmpdir}/slab" | head -1)
# the first percentage of the row: Gain, then its interval ('-' for a split)
gain=$(awk '$1 == "struct" && $2 == "tiny_slab_meta" {
		for (i = 3; i <= NF; i++) if ($i ~ /%$/) { print $i; exit } }' "${result}" | head -1)
echo "struct table: tiny_slab_meta gain ${gain:-none}, the split's saving ${split:-none}%"
[ -n "${split}" ] && [ "${gain}" = "${split}%" ] ||
	fail "the struct table's gain of tiny_slab_meta (${gain:-none}) is not the split's (${split:-none}%)"
grep -q "^    hot : freelist, used, capacity (16 bytes)" "${tmpdir}/slab" ||
	fail "the hot part is not freelist, used, capacity"
grep -q "^struct tiny_slab_meta_cold {" "${tmpdir}/slab" || fail "no C of the cold part"

echo "--json: the same advice"
python3 - "${tmpdir}/json" <<'PY' || fail "the JSON has not the merge and the split"
import json, sys
d = json.load(open(sys.argv[1]))
m = d["merges"]
assert len(m) == 1 and m[0]["arrays"] == ["tiny_head", "tiny_count"], m
t = [t for t in d["types"] if t["name"] == "struct tiny_slab_meta"][0]
a = t["advice"]
assert a["kind"] == "split" and a["split"]["hot"] == ["freelist", "used", "capacity"], a
PY

echo "the control: no merge, no split"
record control || fail "perf affinity record -- perf test -w tinyalloc 1500 control"
perf affinity report -i "${perfdata}" --stdio > "${result}" 2>&1 || fail "perf affinity report"
grep -q "^  tiny_head: thread-local" "${result}" || fail "control: tiny_head is not listed"
grep -q "^  Advice: merge" "${result}" && fail "control: a merge is advised"
grep -q "^  Advice: split" "${result}" && fail "control: a split is advised"

cleanup
exit $err
