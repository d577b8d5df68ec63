#!/bin/bash
# corrupt perf.data: a hybrid topology of a billion nodes
# SPDX-License-Identifier: GPL-2.0
#
# The number of nodes of the HYBRID_TOPOLOGY feature was taken as it was:
# for a damaged one perf allocated 16 bytes a node, failed to read the first
# node and freed the strings of every node, a billion of them: 17 seconds
# (minutes in a sanitizer build) of a report that takes one.  Now a count
# the section cannot hold is an error, and only the nodes read are freed:
# a damaged section size can hold a billion nodes too.

shelldir=$(dirname "$0")
# shellcheck source=lib/corrupt_data.sh
. "${shelldir}/lib/corrupt_data.sh"

corrupt_data__record

# hybrid SIZE: add a HYBRID_TOPOLOGY feature (bit 30) of SIZE bytes whose
# node count is 0x40000000, at the end of the file
hybrid() {
	python3 - "${perfdata}" "${bad}" "$1" <<'PY'
import struct, sys
buf = bytearray(open(sys.argv[1], "rb").read())
d_off, d_size = struct.unpack_from("<QQ", buf, 40)
feats = int.from_bytes(buf[72:104], "little")
HYBRID = 30
if feats & (1 << HYBRID):
    sys.exit(1)
tab = d_off + d_size
idx = bin(feats & ((1 << HYBRID) - 1)).count("1")
# the sections after the table move by the entry put into it
for i in range(bin(feats).count("1")):
    off = struct.unpack_from("<Q", buf, tab + 16 * i)[0]
    if off >= tab:
        struct.pack_into("<Q", buf, tab + 16 * i, off + 16)
buf[tab + 16 * idx:tab + 16 * idx] = struct.pack("<QQ", len(buf) + 16, int(sys.argv[3]))
buf += struct.pack("<I", 0x40000000)
buf[72:104] = (feats | 1 << HYBRID).to_bytes(32, "little")
open(sys.argv[2], "wb").write(buf)
PY
}

# the header alone takes a fraction of a second
for size in 4 $((1 << 40)); do
	hybrid ${size} || corrupt_data__skip "the recording has a hybrid topology already"
	rc=0
	timeout -s KILL 5 perf report -i "${bad}" --header-only > /dev/null 2> "${result}" ||
		rc=$?
	if corrupt_data__crashed ${rc}; then
		echo "[Fail] section of ${size} bytes: perf report --header-only crashed or took over 5 s (exit ${rc})"
		err=1
	fi
done

cleanup
exit ${err}
