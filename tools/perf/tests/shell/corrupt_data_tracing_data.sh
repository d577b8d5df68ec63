#!/bin/bash
# corrupt perf.data: tracing data that cannot be read
# SPDX-License-Identifier: GPL-2.0
#
# When the TRACING_DATA feature could not be read past its start,
# trace_report() freed the trace event handle it had made but left the
# session pointing to it: the session then looked the tracepoint events'
# formats up in freed memory and freed the handle again when deleted (a
# SIGSEGV in libtraceevent's tep_find_event() found by the perf.data
# fuzzer).  The normal build rarely crashes on it, so the report is run
# under valgrind, which sees every read of freed memory (a sanitizer build
# sees them itself); without either the test only checks that perf does
# not crash.

shelldir=$(dirname "$0")
# shellcheck source=lib/corrupt_data.sh
. "${shelldir}/lib/corrupt_data.sh"

if ! perf record -e sched:sched_switch -o "${perfdata}" -- \
		perf test -w noploop 1 > /dev/null 2>&1; then
	corrupt_data__skip "cannot record a tracepoint"
fi

# the name of the first header file the tracing data holds, misspelt
if ! python3 - "${perfdata}" "${bad}" <<'PY'
import sys
from perf_data_fuzz import Layout
buf = bytearray(open(sys.argv[1], "rb").read())
regions = [r for r in Layout(buf).regions if r[0] == "feat:tracing_data"]
if not regions:
    sys.exit(1)
off, size = regions[0][1], regions[0][2]
i = buf.find(b"header_page", off, off + size)
if i < 0:
    sys.exit(1)
buf[i] = ord("X")
open(sys.argv[2], "wb").write(buf)
PY
then
	corrupt_data__skip "the recording has no tracing data to damage"
fi

# a sanitizer build sees the reads itself, and cannot run under valgrind
run=()
if command -v valgrind > /dev/null &&
   ! ldd "$(command -v perf)" 2> /dev/null | grep -q 'lib[at]san'; then
	run=(valgrind -q --error-exitcode=99)
fi
rc=0
"${run[@]}" perf report -i "${bad}" --stdio > /dev/null 2> "${result}" || rc=$?
if [ ${rc} -eq 99 ] || corrupt_data__crashed ${rc}; then
	echo "[Fail] perf report read or freed freed memory (exit ${rc})"
	grep -m 3 -A 3 "Invalid" "${result}"
	err=1
fi

cleanup
exit ${err}
