#!/bin/bash
# corrupt perf.data: feature section sizes and counts
# SPDX-License-Identifier: GPL-2.0
#
# The readers of the header features take counts from their sections and
# check them against the section size, if at all.  A section size past the
# end of the file allowed any count: process_cache() allocated 0x20000000
# cache levels and, failing to read the second, freed the strings of all
# of them.  Such a section is now skipped, and the count of cache levels
# is bounded by the section even when its size is right.

shelldir=$(dirname "$0")
# shellcheck source=lib/corrupt_data.sh
. "${shelldir}/lib/corrupt_data.sh"

corrupt_data__record

# cache SIZE: the CACHE feature (bit 20) of 0x20000000 levels, SIZE bytes
# long (0: as it is)
cache() {
	python3 - "${perfdata}" "${bad}" "$1" <<'PY'
import struct, sys
buf = bytearray(open(sys.argv[1], "rb").read())
d_off, d_size = struct.unpack_from("<QQ", buf, 40)
feats = int.from_bytes(buf[72:104], "little")
CACHE = 20
if not feats & (1 << CACHE):
    sys.exit(1)
entry = d_off + d_size + 16 * bin(feats & ((1 << CACHE) - 1)).count("1")
off = struct.unpack_from("<Q", buf, entry)[0]
if int(sys.argv[3]):
    struct.pack_into("<Q", buf, entry + 8, int(sys.argv[3]))
struct.pack_into("<I", buf, off + 4, 0x20000000)	# after the version
open(sys.argv[2], "wb").write(buf)
PY
}

for size in 0 $((1 << 40)); do
	cache ${size} || corrupt_data__skip "the recording has no cache feature"
	rc=0
	timeout -s KILL 5 perf report -i "${bad}" --header-only > /dev/null 2> "${result}" ||
		rc=$?
	if corrupt_data__crashed ${rc}; then
		echo "[Fail] section size ${size}: perf report --header-only crashed or took over 5 s (exit ${rc})"
		err=1
	fi
done

cleanup
exit ${err}
