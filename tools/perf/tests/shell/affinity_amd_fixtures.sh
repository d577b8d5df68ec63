#!/bin/bash
# perf affinity report of recordings made on AMD, anywhere
# SPDX-License-Identifier: GPL-2.0
#
# Where a timer interrupt lands depends on the CPU: on an AMD EPYC, a
# sample of a tight loop lands on its closing branch, not after its load,
# and a sample of ref_get() after its 'lock addq' almost never where the
# instance is identified.  Two recordings made there, with their binaries
# (lib/affinity_amd_fixtures.tar.xz.b64: the affinity_remap.sh and
# affinity_instances.sh programs), are reported here with --symfs on any
# machine: the accesses of the sampled basic blocks are recovered and the
# atomic is attributed to the instance identified after it.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"

affinity__fixtures affinity_amd_fixtures

# json FILE.data: the report's JSON of a recording, its binaries under --symfs
json() {
	perf affinity report -i "$1" --symfs "$(dirname "$1")" --json - 2> /dev/null
}

echo "lib_walk: 602 samples on the loop's branch, cmp and adds, not its load"
fx="${tmpdir}/amd-remap/remap.data"
json "${fx}" | python3 -c '
import json, sys
j = json.load(sys.stdin)
d, a = j["header"]["decode"], j["header"]["attribution"]
types = sorted(t["name"] for t in j["types"])
res, nsw, blk = a["resolved"], j["header"]["samples"]["sw"], d["block"]
print(f"  {res} of {nsw} samples attributed, {blk} further back in the block, {types}")
ok = a["resolved"] >= 572 and types == ["struct remap_alpha", "struct remap_beta"]
sys.exit(0 if ok else 1)' || fail "lib_walk's samples not attributed (>= 572 of 602)"

echo "ref_get: an atomic, its instance identified by two samples of node_use"
fx="${tmpdir}/amd-refget/refget.data"
n=$(perf affinity report -i "${fx}" --symfs "$(dirname "${fx}")" --dump-raw-accesses \
	-x , 2> /dev/null | awk -F, '$8 != "drop" && $11 == "ref_get"' | wc -l)
json "${fx}" | python3 -c '
import json, sys
n = int(sys.argv[1])
j = json.load(sys.stdin)
refs = [f["rmws"] for t in j["types"] if t["name"] == "struct node"
        for f in t["fields"] if f["name"] == "refs"]
got = refs[0] if refs else 0
print(f"  {got} of the {n} accesses of ref_get attributed to struct node.refs")
sys.exit(0 if n >= 900 and got * 10 >= n * 9 else 1)' "${n}" ||
	fail "ref_get's accesses not attributed to struct node.refs (>= 90%)"

cleanup
exit ${err}
