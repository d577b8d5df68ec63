#!/bin/bash
# perf affinity report of damaged perf.data files
# SPDX-License-Identifier: GPL-2.0
#
# Inputs the fuzzer (lib/perf_data_fuzz.py) found perf affinity's own code
# crashing or hanging on, made again from a synthesized perf.data: each must
# end within a minute, without a signal, with an error or a report.

shelldir=$(dirname "$0")
# shellcheck source=lib/corrupt_data.sh
. "${shelldir}/lib/corrupt_data.sh"

if ! perf bench affinity synth -n 500 -I 16 -o "${perfdata}" > /dev/null 2>&1; then
	echo "[Fail] perf bench affinity synth"
	cleanup
	exit 1
fi

# damage FEATURE OFFSET FORMAT VALUE: pack VALUE at OFFSET of a feature section
damage() {
	python3 - "${perfdata}" "${bad}" "$@" <<'PY'
import struct, sys
from perf_data_fuzz import Layout
buf = bytearray(open(sys.argv[1], "rb").read())
feat, off, fmt, val = sys.argv[3:7]
where = [r[1] for r in Layout(buf).regions if r[0] == "feat:" + feat][0]
struct.pack_into(fmt, buf, where + int(off), int(val, 0))
open(sys.argv[2], "wb").write(buf)
PY
}

# check WHAT EXPECTED: no signal, no hang; EXPECTED on stderr if not empty
check() {
	local rc=0

	timeout -s KILL 60 perf affinity report -i "${bad}" --stdio > /dev/null 2> "${result}" || rc=$?
	if corrupt_data__crashed ${rc}; then
		echo "[Fail] perf affinity report of a perf.data with $1 crashed or hung (exit ${rc})"
		err=1
	elif [ -n "$2" ] && ! grep -q "$2" "${result}"; then
		echo "[Fail] perf affinity report of a perf.data with $1 did not say '$2'"
		head -3 "${result}"
		err=1
	fi
}

# 541 million CPUs: a CPU set of that many bits per field, walked per table
damage nrcpus 0 "<I" 541065218 && check "541065218 CPUs" "CPUs, more than"

# auxtrace SIZE: the 100th sample made a PERF_RECORD_AUXTRACE whose data,
# which the reader skips, is SIZE bytes: past the data section, the file
# and the mapping (input 112143 of --seed 1: the pages dropped behind the
# reader were then past the mapping, the stack among them)
auxtrace() {
	python3 - "${perfdata}" "${bad}" "$1" <<'PY'
import struct, sys
buf = bytearray(open(sys.argv[1], "rb").read())
off, size = struct.unpack_from("<QQ", buf, 40)
pos, samples = off, 0
while pos + 8 <= off + size:
    typ, misc, sz = struct.unpack_from("<IHH", buf, pos)
    if sz < 8:
        sys.exit(1)
    if typ == 9 and sz >= 48:
        samples += 1
        if samples == 100:
            struct.pack_into("<I", buf, pos, 71)
            struct.pack_into("<Q", buf, pos + 8, int(sys.argv[3], 0))
            open(sys.argv[2], "wb").write(buf)
            sys.exit(0)
    pos += sz
sys.exit(1)
PY
}
auxtrace $((1 << 30)) && check "AUXTRACE data 1 GB past the file" "cannot process its events"

cleanup
exit ${err}
