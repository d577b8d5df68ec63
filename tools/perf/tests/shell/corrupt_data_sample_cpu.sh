#!/bin/bash
# corrupt perf.data: a sample on a CPU past the recorded topology
# SPDX-License-Identifier: GPL-2.0
#
# machine__resolve() looked up the socket of a sample's CPU in the CPU
# topology of the header without checking that the CPU is in it: a damaged
# CPU number read far past the array, and perf report crashed.

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

if ! perf record -e cpu-clock -c 100000 --sample-cpu -o "${perfdata}" -- \
		perf test -w lockshare 300 > /dev/null 2>&1; then
	echo "[Fail] perf record"
	cleanup
	exit 1
fi

# the CPU of every sample: 0x10000000
if ! python3 - "${perfdata}" "${bad}" <<'PY'
import struct, sys
buf = bytearray(open(sys.argv[1], "rb").read())
attr_size, a_off, a_size, d_off, d_size = struct.unpack_from("<QQQQQ", buf, 16)
if a_size != attr_size:
    sys.exit(1)			# one event: every sample has its layout
sample_type = struct.unpack_from("<Q", buf, a_off + 24)[0]
if not sample_type & (1 << 7):
    sys.exit(1)			# no PERF_SAMPLE_CPU
# IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID come before CPU
cpu = 8 + 8 * sum(1 for bit in (16, 0, 1, 2, 3, 6, 9) if sample_type & (1 << bit))
pos, nr = d_off, 0
while pos + 8 <= d_off + d_size:
    kind, _, size = struct.unpack_from("<IHH", buf, pos)
    if size < 8:
        sys.exit(1)
    if kind == 9:		# PERF_RECORD_SAMPLE
        struct.pack_into("<I", buf, pos + cpu, 0x10000000)
        nr += 1
    pos += size
if not nr:
    sys.exit(1)
open(sys.argv[2], "wb").write(buf)
PY
then
	echo "[Fail] could not change the CPU of the samples"
	cleanup
	exit 1
fi

rc=0
perf report -i "${bad}" --stdio > /dev/null 2> "${result}" || rc=$?
if { [ ${rc} -gt 128 ] && [ ${rc} -le 192 ]; } ||
   grep -q 'Sanitizer\|runtime error' "${result}"; then
	echo "[Fail] perf report of samples on CPU 0x10000000 crashed (exit ${rc})"
	err=1
fi

cleanup
exit ${err}
