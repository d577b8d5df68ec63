#!/bin/bash
# corrupt perf.data: user space binaries said to be kernel ones
# SPDX-License-Identifier: GPL-2.0
#
# A build ID record's cpumode makes its DSO a kernel one.  When a user
# space mmap then named that DSO, map__new() asserted that it was not a
# kernel DSO (DEBUG builds), or made a user map of it, on which loading
# the symbols went the kernel's way and crashed in maps__machine().

shelldir=$(dirname "$0")
# shellcheck source=lib/corrupt_data.sh
. "${shelldir}/lib/corrupt_data.sh"

corrupt_data__record

# every build ID record of a file (not a [kernel.kallsyms]-like name): kernel
if ! python3 - "${perfdata}" "${bad}" <<'PY'
import struct, sys
from perf_data_fuzz import Layout
buf = bytearray(open(sys.argv[1], "rb").read())
off, size = [(r[1], r[2]) for r in Layout(buf).regions if r[0] == "feat:build_id"][0]
pos, changed = off, 0
while pos + 8 <= off + size:
    rec_size = struct.unpack_from("<H", buf, pos + 6)[0]
    if rec_size < 8:
        break
    name = bytes(buf[pos + 36:pos + rec_size]).split(b"\0")[0]
    if name.startswith(b"/"):
        misc = struct.unpack_from("<H", buf, pos + 4)[0]
        struct.pack_into("<H", buf, pos + 4, (misc & ~7) | 1)	# PERF_RECORD_MISC_KERNEL
        changed += 1
    pos += rec_size
assert changed
open(sys.argv[2], "wb").write(buf)
PY
then
	echo "[Fail] could not change the build ID records of the recording"
	cleanup
	exit 1
fi

corrupt_data__report --stdio

cleanup
exit ${err}
