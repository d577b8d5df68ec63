#!/bin/bash
# corrupt perf.data: an unknown arch in the header
# SPDX-License-Identifier: GPL-2.0
#
# Data-type profiling disassembles the sampled function for the recorded
# arch.  An arch perf does not know left it with an uninitialized arch, and
# 'perf report -s type' crashed.  Now the samples get no type.

shelldir=$(dirname "$0")
err=0
perfdata=$(mktemp /tmp/__perf_test.perf.data.XXXXX)
bad=$(mktemp /tmp/__perf_test.bad.XXXXX)
result=$(mktemp /tmp/__perf_test.result.XXXXX)

cleanup() {
	rm -f "${perfdata}" "${perfdata}.old" "${bad}" "${result}"
	trap - EXIT TERM INT
}

trap_cleanup() {
	echo "Unexpected signal in ${FUNCNAME[1]}"
	cleanup
	exit 1
}
trap trap_cleanup EXIT TERM INT

command -v python3 > /dev/null || { echo "[Skip] no python3"; cleanup; exit 2; }

if ! perf record -e cpu-clock -c 100000 -o "${perfdata}" -- \
		perf test -w lockshare 300 > /dev/null 2>&1; then
	echo "[Fail] perf record"
	cleanup
	exit 1
fi

# the HEADER_ARCH string, same length: "nonesuch"
if ! python3 - "${perfdata}" "${bad}" "${shelldir}/lib" <<'PY'
import struct, sys
sys.dont_write_bytecode = True	# nothing written next to the tests
sys.path.insert(0, sys.argv[3])
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
if { [ ${rc} -gt 128 ] && [ ${rc} -le 192 ]; } ||
   grep -q 'Sanitizer\|runtime error' "${result}"; then
	echo "[Fail] perf report -s type crashed (exit ${rc})"
	err=1
fi

cleanup
exit ${err}
