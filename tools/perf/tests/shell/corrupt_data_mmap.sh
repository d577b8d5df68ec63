#!/bin/bash
# corrupt perf.data: mmap events that end before they start
# SPDX-License-Identifier: GPL-2.0
#
# A PERF_RECORD_MMAP2 whose length wraps around made a map that ends before
# it starts, which broke the invariants of the thread's maps (an assertion
# in a DEBUG=1 build), and one whose build ID size (a u8) is over 20 was
# copied into a 20 byte build ID on the stack.  Such events are skipped now.

shelldir=$(dirname "$0")
# shellcheck source=lib/corrupt_data.sh
. "${shelldir}/lib/corrupt_data.sh"

corrupt_data__record

# damage HOW: every PERF_RECORD_MMAP2 gets "len" 2^64 - 4096, or "build_id"
# a build ID of 255 bytes
damage() {
	python3 - "${perfdata}" "${bad}" "$1" <<'PY'
import struct, sys
buf = bytearray(open(sys.argv[1], "rb").read())
d_off, d_size = struct.unpack_from("<QQ", buf, 40)
pos, nr = d_off, 0
while pos + 8 <= d_off + d_size:
    kind, misc, size = struct.unpack_from("<IHH", buf, pos)
    if size < 8:
        sys.exit(1)
    if kind == 10:		# PERF_RECORD_MMAP2
        if sys.argv[3] == "len":
            struct.pack_into("<Q", buf, pos + 24, (1 << 64) - 4096)
        else:			# MISC_MMAP_BUILD_ID, build_id_size
            struct.pack_into("<H", buf, pos + 4, misc | (1 << 14))
            struct.pack_into("<B", buf, pos + 40, 255)
        nr += 1
    pos += size
open(sys.argv[2], "wb").write(buf)
sys.exit(0 if nr else 1)
PY
}

for how in len build_id; do
	if ! damage ${how}; then
		echo "[Fail] could not damage the mmap events (${how})"
		err=1
		continue
	fi
	rc=0
	perf report -i "${bad}" --stdio > /dev/null 2> "${result}" || rc=$?
	if corrupt_data__crashed ${rc}; then
		echo "[Fail] perf report of mmap events with a bad ${how} crashed (exit ${rc})"
		err=1
	fi
done

cleanup
exit ${err}
