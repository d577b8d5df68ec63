#!/bin/bash
# perf session releases the data pages it has read
# SPDX-License-Identifier: GPL-2.0
#
# On 64-bit perf maps the whole data section of a perf.data and every page
# it read stayed resident: reading a 600 MB recording took 600 MB more.
# The reader drops the pages it passed but for the last 64 MB.  'perf
# report --stats' of a synthesized 600 MB perf.data must peak below half
# the size of its data; and the report must be that of the whole file.

err=0
tmpdir=$(mktemp -d /tmp/__perf_test.release.XXXXX)
perfdata="${tmpdir}/perf.data"

cleanup() {
	rm -rf "${tmpdir}"
	trap - EXIT TERM INT
}

trap_cleanup() {
	echo "Unexpected signal in ${FUNCNAME[1]}"
	cleanup
	exit 1
}
trap trap_cleanup EXIT TERM INT

if [ "$(getconf LONG_BIT)" != 64 ] || ! command -v python3 > /dev/null ||
   ! perf bench affinity synth -h 2>&1 | grep -q -- '--samples'; then
	echo "[Skip] needs a 64-bit perf with 'perf bench affinity synth' and python3"
	cleanup
	exit 2
fi

# 8 M samples of 80 bytes: 610 MB of data
if ! perf bench affinity synth -n 8000000 -o "${perfdata}" > /dev/null 2>&1; then
	echo "[Fail] perf bench affinity synth"
	cleanup
	exit 1
fi
size_mb=$(( $(stat -c %s "${perfdata}") >> 20 ))

# peak RSS in MB of 'perf report --stats', and the SAMPLE events it counted
read -r rss samples < <(python3 - "${perfdata}" <<'PY'
import os, re, subprocess, sys
p = subprocess.Popen(["perf", "report", "--stats", "-i", sys.argv[1]],
                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
out = p.stdout.read()
_, status, usage = os.wait4(p.pid, 0)
m = re.search(r"^\s*SAMPLE events:\s*(\d+)", out, re.M)
print(usage.ru_maxrss >> 10, m.group(1) if m and status == 0 else 0)
PY
)
echo "data ${size_mb} MB, peak RSS ${rss} MB, ${samples} samples"
[ "${samples}" = 8000000 ] || { echo "[Fail] ${samples} samples reported, not 8000000"; err=1; }
# before: the data and perf itself; after: 64 to 80 MB of data and perf itself
[ "${rss}" -lt $((size_mb / 2)) ] ||
	{ echo "[Fail] peak RSS ${rss} MB for ${size_mb} MB of data"; err=1; }

cleanup
exit $err
