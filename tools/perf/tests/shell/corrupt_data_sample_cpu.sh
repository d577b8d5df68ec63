#!/bin/bash
# corrupt perf.data: a sample on a CPU past the recorded topology
# SPDX-License-Identifier: GPL-2.0
#
# machine__resolve() looked up the socket of a sample's CPU in the CPU
# topology of the header without checking that the CPU is in it: a damaged
# CPU number read far past the array, and perf report crashed.

shelldir=$(dirname "$0")
# shellcheck source=lib/corrupt_data.sh
. "${shelldir}/lib/corrupt_data.sh"

corrupt_data__record --sample-cpu

# the CPU of every sample: 0x10000000
if ! python3 - "${perfdata}" "${bad}" <<'PY'
import struct, sys
from perf_data_fuzz import sample_fields
buf = bytearray(open(sys.argv[1], "rb").read())
fields = sample_fields(buf, 7)
for pos in fields:
    struct.pack_into("<I", buf, pos, 0x10000000)
open(sys.argv[2], "wb").write(buf)
sys.exit(0 if fields else 1)
PY
then
	echo "[Fail] could not change the CPU of the samples"
	cleanup
	exit 1
fi

rc=0
perf report -i "${bad}" --stdio > /dev/null 2> "${result}" || rc=$?
if corrupt_data__crashed ${rc}; then
	echo "[Fail] perf report of samples on CPU 0x10000000 crashed (exit ${rc})"
	err=1
fi

cleanup
exit ${err}
