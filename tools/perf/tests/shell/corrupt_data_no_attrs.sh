#!/bin/bash
# corrupt perf.data: no event attributes
# SPDX-License-Identifier: GPL-2.0
#
# A perf.data whose attribute section is smaller than one attribute (one
# bit of its size flipped, found by the fuzz smoke test of perf affinity)
# has no events.  Its samples were still read, each against the list head
# of the empty event list taken for an event: perf report printed an
# empty report and exited 0, and the unit and scale of EVENT_UPDATE
# records (perf stat and perf affinity record write them) were written
# into the event list itself, over its ID hash, which perf affinity
# report then walked (a segfault when a sample's ID hashed there).  Such
# a file is now refused when it is opened.

shelldir=$(dirname "$0")
# shellcheck source=lib/corrupt_data.sh
. "${shelldir}/lib/corrupt_data.sh"

corrupt_data__record

# the size of the attribute section (header offset 0x20): 8, less than one
if ! python3 - "${perfdata}" "${bad}" <<'PY'
import struct, sys
buf = bytearray(open(sys.argv[1], "rb").read())
struct.pack_into("<Q", buf, 0x20, 8)
open(sys.argv[2], "wb").write(buf)
PY
then
	echo "[Fail] could not change the header of the recording"
	cleanup
	exit 1
fi

corrupt_data__report --stdio
rc=0
perf report -i "${bad}" --stdio > /dev/null 2> "${result}" || rc=$?
if [ ${rc} -eq 0 ]; then
	echo "[Fail] perf report read a file without events and exited 0"
	err=1
fi

cleanup
exit ${err}
