#!/bin/bash
# corrupt perf.data: samples of a process nothing else was recorded of
# SPDX-License-Identifier: GPL-2.0
#
# A sample of a thread that has no maps yet looked its IP up with bsearch()
# on the thread's empty, never allocated array of maps: undefined behaviour
# that UBSan stops perf report on.

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

# the pid and tid of every sample: 0x7ffffff0
if ! python3 - "${perfdata}" "${bad}" <<'PY'
import struct, sys
buf = bytearray(open(sys.argv[1], "rb").read())
attr_size, a_off, a_size, d_off, d_size = struct.unpack_from("<QQQQQ", buf, 16)
if a_size != attr_size:
    sys.exit(1)			# one event: every sample has its layout
sample_type = struct.unpack_from("<Q", buf, a_off + 24)[0]
if not sample_type & (1 << 1):
    sys.exit(1)			# no PERF_SAMPLE_TID
# IDENTIFIER, IP come before TID
tid = 8 + 8 * sum(1 for bit in (16, 0) if sample_type & (1 << bit))
pos, nr = d_off, 0
while pos + 8 <= d_off + d_size:
    kind, _, size = struct.unpack_from("<IHH", buf, pos)
    if size < 8:
        sys.exit(1)
    if kind == 9:		# PERF_RECORD_SAMPLE
        struct.pack_into("<II", buf, pos + tid, 0x7ffffff0, 0x7ffffff0)
        nr += 1
    pos += size
if not nr:
    sys.exit(1)
open(sys.argv[2], "wb").write(buf)
PY
then
	echo "[Fail] could not change the pid of the samples"
	cleanup
	exit 1
fi

rc=0
perf report -i "${bad}" --stdio > /dev/null 2> "${result}" || rc=$?
if { [ ${rc} -gt 128 ] && [ ${rc} -le 192 ]; } ||
   grep -q 'Sanitizer\|runtime error' "${result}"; then
	echo "[Fail] perf report of samples of an unknown process crashed (exit ${rc})"
	err=1
fi

cleanup
exit ${err}
