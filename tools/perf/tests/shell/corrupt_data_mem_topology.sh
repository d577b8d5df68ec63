#!/bin/bash
# corrupt perf.data: a memory topology with a bitmap larger than its section
# SPDX-License-Identifier: GPL-2.0
#
# Each node of the MEM_TOPOLOGY feature ends in a bitmap: its size in bits,
# then its u64s.  The size was allocated as an int (bitmap_zalloc()) and
# read as a u64: a size of 0x4000000000000c8 allocated 200 bits and read
# the rest of the section past them, and glibc stopped perf on its heap
# (found by the perf.data fuzzer, a bit flipped in the size).  A count of
# nodes the section cannot hold made the node array's size overflow too.
# Now a bitmap or a count larger than the section is an error.

shelldir=$(dirname "$0")
# shellcheck source=lib/corrupt_data.sh
. "${shelldir}/lib/corrupt_data.sh"

corrupt_data__record

# WHAT VALUE: ${bad}, ${perfdata} with the u64 of the memory topology
# section WHAT (nr: its node count, bits: the size of node 0's bitmap) set
corrupt_data__mem_topology() {
	python3 - "${perfdata}" "${bad}" "$@" <<'PY'
import struct, sys
from perf_data_fuzz import Layout
buf = bytearray(open(sys.argv[1], "rb").read())
what, value = sys.argv[3], int(sys.argv[4], 0)
regions = [r for r in Layout(buf).regions if r[0] == "feat:mem_topology"]
if not regions:
    sys.exit(2)
off = regions[0][1]
# version, block size, count; node 0: node, size, bitmap size, bitmap
struct.pack_into("<Q", buf, off + {"nr": 16, "bits": 40}[what], value)
open(sys.argv[2], "wb").write(buf)
PY
}

for change in "bits 0x4000000000000c8" "bits 0x7fffffff" "nr 0x2000000000000001"; do
	rc=0
	# shellcheck disable=SC2086
	corrupt_data__mem_topology ${change} || rc=$?
	[ ${rc} -ne 2 ] || corrupt_data__skip "the recording has no memory topology"
	[ ${rc} -eq 0 ] || { echo "[Fail] could not damage the recording"; err=1; break; }
	rc=0
	timeout -s KILL 10 perf report -i "${bad}" --header-only > /dev/null 2> "${result}" ||
		rc=$?
	if corrupt_data__crashed ${rc}; then
		echo "[Fail] ${change}: perf report --header-only crashed or took over 10 s (exit ${rc})"
		head -3 "${result}"
		err=1
	fi
done

cleanup
exit ${err}
