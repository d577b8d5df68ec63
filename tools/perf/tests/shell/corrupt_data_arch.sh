#!/bin/bash
# corrupt perf.data: an unknown arch in the header
# SPDX-License-Identifier: GPL-2.0
#
# Data-type profiling disassembles the sampled function for the recorded
# arch.  An arch perf does not know left it with an uninitialized arch, and
# 'perf report -s type' crashed.  Now the samples get no type.

shelldir=$(dirname "$0")
# shellcheck source=lib/corrupt_data.sh
. "${shelldir}/lib/corrupt_data.sh"

corrupt_data__record

# the HEADER_ARCH string, same length: "nonesuch"
if ! python3 - "${perfdata}" "${bad}" <<'PY'
import struct, sys
from perf_data_fuzz import Layout
buf = bytearray(open(sys.argv[1], "rb").read())
off = [r[1] for r in Layout(buf).regions if r[0] == "feat:arch"][0]
length = struct.unpack_from("<I", buf, off)[0]
buf[off + 4:off + 4 + length] = b"nonesuch".ljust(length, b"\0")
open(sys.argv[2], "wb").write(buf)
PY
then
	echo "[Fail] could not change the arch of the recording"
	cleanup
	exit 1
fi

rc=0
perf report -i "${bad}" -s type --stdio > /dev/null 2> "${result}" || rc=$?
if corrupt_data__crashed ${rc}; then
	echo "[Fail] perf report -s type crashed (exit ${rc})"
	err=1
fi

cleanup
exit ${err}
