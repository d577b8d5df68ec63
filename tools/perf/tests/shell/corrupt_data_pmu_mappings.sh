#!/bin/bash
# corrupt perf.data: PMU mappings count without its mappings
# SPDX-License-Identifier: GPL-2.0
#
# process_pmu_mappings() stored the section's count before reading the
# mappings.  When the section ended early, the count stayed with no
# strings, and evlist__has_amd_ibs() (run for recordings of AMD x86
# machines) walked that many strings through perf's own, shorter, list:
# with a count of 0xffffffff until it left the heap.

shelldir=$(dirname "$0")
# shellcheck source=lib/corrupt_data.sh
. "${shelldir}/lib/corrupt_data.sh"

[ "$(uname -m)" = x86_64 ] || corrupt_data__skip "the AMD IBS path is x86's"

corrupt_data__record

# the count: 0xffffffff; the CPU: an AMD one, whatever this machine is
if ! python3 - "${perfdata}" "${bad}" <<'PY'
import struct, sys
from perf_data_fuzz import Layout
buf = bytearray(open(sys.argv[1], "rb").read())
regions = {r[0]: r[1] for r in Layout(buf).regions}
struct.pack_into("<I", buf, regions["feat:pmu_mappings"], 0xffffffff)
off = regions["feat:cpuid"]
length = struct.unpack_from("<I", buf, off)[0]
amd = b"AuthenticAMD,25,1,1"
assert len(amd) < length
buf[off + 4:off + 4 + length] = amd.ljust(length, b"\0")
open(sys.argv[2], "wb").write(buf)
PY
then
	echo "[Fail] could not change the PMU mappings of the recording"
	cleanup
	exit 1
fi

corrupt_data__report --header-only --stdio

cleanup
exit ${err}
