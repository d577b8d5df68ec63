#!/bin/bash
# corrupt perf.data: a data section past the end of the file
# SPDX-License-Identifier: GPL-2.0
#
# perf report reads the events through mmap.  A file cut at a page boundary
# inside its data section, or a data size in the header larger than the
# file, made it read pages past the end of the file: SIGBUS.  A data size
# smaller than an event header made it map the same page again forever.
# All must be a clear error instead.

shelldir=$(dirname "$0")
# shellcheck source=lib/corrupt_data.sh
. "${shelldir}/lib/corrupt_data.sh"

corrupt_data__record

# damage HOW: "cut N" keeps the first N pages, "size N" adds N to the
# header's data size, "set N" makes it N
damage() {
	python3 - "${perfdata}" "${bad}" "$@" <<'PY'
import os, struct, sys
buf = bytearray(open(sys.argv[1], "rb").read())
off, size = struct.unpack_from("<QQ", buf, 40)
page = os.sysconf("SC_PAGE_SIZE")
if sys.argv[3] == "cut":
    cut = int(sys.argv[4]) * page
    if cut >= off + size:
        sys.exit(1)
    del buf[cut:]
elif sys.argv[3] == "size":
    struct.pack_into("<Q", buf, 48, size + int(sys.argv[4]))
else:
    struct.pack_into("<Q", buf, 48, int(sys.argv[4]))
open(sys.argv[2], "wb").write(buf)
PY
}

check() {
	local how=$1 rc=0

	timeout -s KILL 60 perf report -i "${bad}" --stdio > /dev/null 2> "${result}" || rc=$?
	if corrupt_data__crashed ${rc}; then
		echo "[Fail] perf report of a perf.data with ${how} crashed or hung (exit ${rc})"
		err=1
	elif ! grep -q "$2" "${result}"; then
		echo "[Fail] perf report of a perf.data with ${how} did not say '$2'"
		head -3 "${result}"
		err=1
	fi
}

for pages in 3 2 1; do
	if damage cut ${pages}; then
		check "the data cut after page ${pages}" "truncated or corrupt"
	fi
done
damage size $((1 << 20)) && check "a data size 1 MB past the end of the file" "truncated or corrupt"
damage set 1 && check "a data size of 1 byte" "ends inside an event header"

cleanup
exit ${err}
