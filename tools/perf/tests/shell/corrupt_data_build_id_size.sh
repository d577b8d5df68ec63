#!/bin/bash
# corrupt perf.data: a build ID longer than any
# SPDX-License-Identifier: GPL-2.0
#
# A build ID record may say how long its build ID is (misc bit
# PERF_RECORD_MISC_BUILD_ID_SIZE, a u8 size).  The size was used as it was
# to copy the build ID into a 20 byte buffer on the stack: a damaged size
# of 255 smashed the stack.  Now such a record is ignored.

shelldir=$(dirname "$0")
# shellcheck source=lib/corrupt_data.sh
. "${shelldir}/lib/corrupt_data.sh"

corrupt_data__record

# the first build ID record says its build ID is SIZE bytes long
damage() {
	python3 - "${perfdata}" "${bad}" "$1" <<'PY'
import struct, sys
from perf_data_fuzz import Layout
buf = bytearray(open(sys.argv[1], "rb").read())
regions = [r for r in Layout(buf).regions if r[0] == "feat:build_id"]
if not regions:
    sys.exit(1)
off = regions[0][1]
misc = struct.unpack_from("<H", buf, off + 4)[0]
struct.pack_into("<H", buf, off + 4, misc | (1 << 15))	# BUILD_ID_SIZE
struct.pack_into("<B", buf, off + 32, int(sys.argv[3]))
open(sys.argv[2], "wb").write(buf)
PY
}

for size in 255 64; do
	if ! damage ${size}; then
		corrupt_data__skip "the recording has no build ID table"
	fi
	rc=0
	perf report -i "${bad}" --stdio > /dev/null 2> "${result}" || rc=$?
	if corrupt_data__crashed ${rc}; then
		echo "[Fail] perf report with a build ID of ${size} bytes crashed (exit ${rc})"
		err=1
	fi
done

cleanup
exit ${err}
