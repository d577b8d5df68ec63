#!/bin/bash
# corrupt perf.data: group descriptions of a billion groups
# SPDX-License-Identifier: GPL-2.0
#
# The number of groups of the GROUP_DESC feature was taken as it was: for
# a damaged one perf allocated 16 bytes a group, failed to read the first
# and freed the names of every group, a billion of them: close to a minute
# of a report that takes a second.  Now a count the section cannot hold is
# an error, and only the names read are freed: a damaged section size can
# hold a billion groups too.

shelldir=$(dirname "$0")
# shellcheck source=lib/corrupt_data.sh
. "${shelldir}/lib/corrupt_data.sh"

corrupt_data__record

# group_desc SIZE: add a GROUP_DESC feature (bit 17) of SIZE bytes whose
# group count is 0x40000000, at the end of the file
group_desc() {
	python3 - "${perfdata}" "${bad}" "$1" <<'PY'
import struct, sys
buf = bytearray(open(sys.argv[1], "rb").read())
d_off, d_size = struct.unpack_from("<QQ", buf, 40)
feats = int.from_bytes(buf[72:104], "little")
GROUP_DESC = 17
if feats & (1 << GROUP_DESC):
    sys.exit(1)
tab = d_off + d_size
idx = bin(feats & ((1 << GROUP_DESC) - 1)).count("1")
# the sections after the table move by the entry put into it
for i in range(bin(feats).count("1")):
    off = struct.unpack_from("<Q", buf, tab + 16 * i)[0]
    if off >= tab:
        struct.pack_into("<Q", buf, tab + 16 * i, off + 16)
buf[tab + 16 * idx:tab + 16 * idx] = struct.pack("<QQ", len(buf) + 16, int(sys.argv[3]))
buf += struct.pack("<I", 0x40000000)
buf[72:104] = (feats | 1 << GROUP_DESC).to_bytes(32, "little")
open(sys.argv[2], "wb").write(buf)
PY
}

# the header alone takes a fraction of a second
for size in 4 $((1 << 40)); do
	group_desc ${size} || corrupt_data__skip "the recording has group descriptions already"
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
