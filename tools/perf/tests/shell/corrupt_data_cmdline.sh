#!/bin/bash
# corrupt perf.data: a command line longer than its section
# SPDX-License-Identifier: GPL-2.0
#
# The command line feature is read into a buffer of the section's size:
# a feature table that says the section is 1 byte long made perf copy the
# recorded command line, here 20 kB, past that buffer (found by the fuzz
# campaign, a zeroed feature table entry; the sanitizer build stops there,
# the normal build corrupts its heap).

shelldir=$(dirname "$0")
# shellcheck source=lib/corrupt_data.sh
. "${shelldir}/lib/corrupt_data.sh"

long=$(printf 'x%.0s' $(seq 20000))
if ! perf record -e cpu-clock -c 100000 -o "${perfdata}" -- \
		perf test -w noploop 1 "${long}" > /dev/null 2>&1; then
	echo "[Fail] perf record"
	cleanup
	exit 1
fi

# the size of the cmdline section in the feature table: 1
if ! python3 - "${perfdata}" "${bad}" <<'PY'
import struct, sys
from perf_data_fuzz import Layout
buf = bytearray(open(sys.argv[1], "rb").read())
layout = Layout(buf)
feats = [r for r in layout.regions if r[0].startswith("feat:")]
table = [r for r in layout.regions if r[0] == "feat-table"][0][1]
k = [i for i, r in enumerate(feats) if r[0] == "feat:cmdline"][0]
struct.pack_into("<Q", buf, table + 16 * k + 8, 1)
open(sys.argv[2], "wb").write(buf)
PY
then
	echo "[Fail] could not change the feature table of the recording"
	cleanup
	exit 1
fi

corrupt_data__report --header-only --stdio

cleanup
exit ${err}
