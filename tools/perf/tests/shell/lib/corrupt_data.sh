# SPDX-License-Identifier: GPL-2.0
# Sourced by the corrupt perf.data tests: temporary files, a recording to
# damage a copy of, and the check that perf did not crash on the copy.

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

corrupt_data__skip() {
	echo "[Skip] $1"
	cleanup
	exit 2
}

command -v python3 > /dev/null || corrupt_data__skip "no python3"

# the damaging Python scripts import perf_data_fuzz (Layout, samples)
PYTHONPATH="$(dirname "${BASH_SOURCE[0]}")${PYTHONPATH:+:${PYTHONPATH}}"
PYTHONDONTWRITEBYTECODE=1
export PYTHONPATH PYTHONDONTWRITEBYTECODE

# corrupt_data__record [perf record options]: a small recording, ${perfdata}
corrupt_data__record() {
	if ! perf record -e cpu-clock -c 100000 "$@" -o "${perfdata}" -- \
			perf test -w thloop 1 > /dev/null 2>&1; then
		echo "[Fail] perf record"
		cleanup
		exit 1
	fi
}

# corrupt_data__crashed RC: did perf die of a signal, or of a sanitizer's
# or glibc's report (its stderr is in ${result})?
corrupt_data__crashed() {
	{ [ "$1" -gt 128 ] && [ "$1" -le 192 ]; } ||
		grep -q 'ERROR: [A-Za-z]*Sanitizer\|runtime error\|stack smashing' "${result}"
}

# corrupt_data__report OPTION...: perf report of ${bad} with each option
# must not crash (an error exit is fine); sets err=1 if it does
corrupt_data__report() {
	local opt rc

	for opt in "$@"; do
		rc=0
		perf report -i "${bad}" "${opt}" > /dev/null 2> "${result}" || rc=$?
		if corrupt_data__crashed ${rc}; then
			echo "[Fail] perf report ${opt} crashed (exit ${rc})"
			head -3 "${result}"
			err=1
		fi
	done
}

# corrupt_data__add_feature BIT SIZE VALUE: ${bad}, a copy of ${perfdata}
# with a feature section BIT added at the end of the file, of SIZE bytes
# as its table entry says, holding the u32 VALUE (a count).  Fails if the
# recording has that feature already.
corrupt_data__add_feature() {
	python3 - "${perfdata}" "${bad}" "$@" <<'PY'
import struct, sys
buf = bytearray(open(sys.argv[1], "rb").read())
bit, size, value = (int(a, 0) for a in sys.argv[3:6])
d_off, d_size = struct.unpack_from("<QQ", buf, 40)
feats = int.from_bytes(buf[72:104], "little")
if feats & (1 << bit):
    sys.exit(1)
tab = d_off + d_size
idx = bin(feats & ((1 << bit) - 1)).count("1")
# the sections after the table move by the entry put into it
for i in range(bin(feats).count("1")):
    off = struct.unpack_from("<Q", buf, tab + 16 * i)[0]
    if off >= tab:
        struct.pack_into("<Q", buf, tab + 16 * i, off + 16)
buf[tab + 16 * idx:tab + 16 * idx] = struct.pack("<QQ", len(buf) + 16, size)
buf += struct.pack("<I", value)
buf[72:104] = (feats | 1 << bit).to_bytes(32, "little")
open(sys.argv[2], "wb").write(buf)
PY
}
