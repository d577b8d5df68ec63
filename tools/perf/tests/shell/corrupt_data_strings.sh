#!/bin/bash
# corrupt perf.data: header strings without a terminating zero
# SPDX-License-Identifier: GPL-2.0
#
# The strings of the header features (hostname, os release, arch, CPU
# description...) are NUL padded when perf record writes them, and were
# used as read.  Without a zero in them, perf read past their buffers
# (the sanitizer build stops there).

shelldir=$(dirname "$0")
# shellcheck source=lib/corrupt_data.sh
. "${shelldir}/lib/corrupt_data.sh"

corrupt_data__record

# every byte of the os release and arch strings: 'x'
if ! python3 - "${perfdata}" "${bad}" <<'PY'
import struct, sys
from perf_data_fuzz import Layout
buf = bytearray(open(sys.argv[1], "rb").read())
for feat in ("feat:osrelease", "feat:arch"):
    off = [r[1] for r in Layout(buf).regions if r[0] == feat][0]
    length = struct.unpack_from("<I", buf, off)[0]
    buf[off + 4:off + 4 + length] = b"x" * length
open(sys.argv[2], "wb").write(buf)
PY
then
	echo "[Fail] could not change the strings of the recording"
	cleanup
	exit 1
fi

corrupt_data__report --header-only --stdio

cleanup
exit ${err}
