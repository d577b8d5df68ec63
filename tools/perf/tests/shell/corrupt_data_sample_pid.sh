#!/bin/bash
# corrupt perf.data: samples of a process nothing else was recorded of
# SPDX-License-Identifier: GPL-2.0
#
# A sample of a thread that has no maps yet looked its IP up with bsearch()
# on the thread's empty, never allocated array of maps: undefined behaviour
# that UBSan stops perf report on.

shelldir=$(dirname "$0")
# shellcheck source=lib/corrupt_data.sh
. "${shelldir}/lib/corrupt_data.sh"

corrupt_data__record

# the pid and tid of every sample: 0x7ffffff0
if ! python3 - "${perfdata}" "${bad}" <<'PY'
import struct, sys
from perf_data_fuzz import sample_fields
buf = bytearray(open(sys.argv[1], "rb").read())
fields = sample_fields(buf, 1)
for pos in fields:
    struct.pack_into("<II", buf, pos, 0x7ffffff0, 0x7ffffff0)
open(sys.argv[2], "wb").write(buf)
sys.exit(0 if fields else 1)
PY
then
	echo "[Fail] could not change the pid of the samples"
	cleanup
	exit 1
fi

rc=0
perf report -i "${bad}" --stdio > /dev/null 2> "${result}" || rc=$?
if corrupt_data__crashed ${rc}; then
	echo "[Fail] perf report of samples of an unknown process crashed (exit ${rc})"
	err=1
fi

cleanup
exit ${err}
