#!/bin/bash
# corrupt perf.data: a build ID record larger than a file name
# SPDX-License-Identifier: GPL-2.0
#
# The build ID table is read at open time; each record's file name was read
# into a PATH_MAX buffer on the stack for as many bytes as the record's
# size says.  A size of 64 kB (or one smaller than the record header) ran
# over it: stack smashing.  Now such a table is an error.

shelldir=$(dirname "$0")
# shellcheck source=lib/corrupt_data.sh
. "${shelldir}/lib/corrupt_data.sh"

corrupt_data__record

# set the size of the first build ID record to SIZE and append 80 kB, so
# that there is more to read than the buffer holds
damage() {
	python3 - "${perfdata}" "${bad}" "$1" <<'PY'
import struct, sys
from perf_data_fuzz import Layout
buf = bytearray(open(sys.argv[1], "rb").read())
regions = [r for r in Layout(buf).regions if r[0] == "feat:build_id"]
if not regions:
    sys.exit(1)
struct.pack_into("<H", buf, regions[0][1] + 6, int(sys.argv[3]))
buf += b"/" * 80000
open(sys.argv[2], "wb").write(buf)
PY
}

for size in 65535 4; do
	if ! damage ${size}; then
		corrupt_data__skip "the recording has no build ID table"
	fi
	rc=0
	perf report -i "${bad}" --stdio > /dev/null 2> "${result}" || rc=$?
	if corrupt_data__crashed ${rc}; then
		echo "[Fail] perf report, build ID record of ${size} bytes: crashed (exit ${rc})"
		err=1
	fi
done

cleanup
exit ${err}
