#!/bin/bash
# corrupt perf.data: a build ID record larger than a file name
# SPDX-License-Identifier: GPL-2.0
#
# The build ID table is read at open time; each record's file name was read
# into a PATH_MAX buffer on the stack for as many bytes as the record's
# size says.  A size of 64 kB (or one smaller than the record header) ran
# over it: stack smashing.  Now such a table is an error.

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

# set the size of the first build ID record to SIZE and append 80 kB, so
# that there is more to read than the buffer holds
damage() {
	python3 - "${perfdata}" "${bad}" "$1" "${shelldir}/lib" <<'PY'
import struct, sys
sys.dont_write_bytecode = True	# nothing written next to the tests
sys.path.insert(0, sys.argv[4])
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
		echo "[Skip] the recording has no build ID table"
		cleanup
		exit 2
	fi
	rc=0
	perf report -i "${bad}" --stdio > /dev/null 2> "${result}" || rc=$?
	if { [ ${rc} -gt 128 ] && [ ${rc} -le 192 ]; } ||
	   grep -q 'Sanitizer\|runtime error\|smashing' "${result}"; then
		echo "[Fail] perf report, build ID record of ${size} bytes: crashed (exit ${rc})"
		err=1
	fi
done

cleanup
exit ${err}
