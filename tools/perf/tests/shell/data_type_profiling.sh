#!/bin/bash
# perf data-type profiling of a lock/reader workload
# SPDX-License-Identifier: GPL-2.0
#
# 'perf report -s type,typeoff' and 'perf annotate --data-type' disassemble
# every sampled function, including ld.so's; resolving their call targets
# used to free the DSO's map and crash perf.  The debug info must be that of
# the binary recorded, even when the file has been replaced since.

set -e

err=0
perfdata=$(mktemp /tmp/__perf_test.perf.data.XXXXX)
result=$(mktemp /tmp/__perf_test.result.XXXXX)
bindir=$(mktemp -d /tmp/__perf_test.bin.XXXXX)

cleanup() {
	rm -f "${perfdata}" "${perfdata}.old" "${result}"
	rm -rf "${bindir}"
	trap - EXIT TERM INT
}

trap_cleanup() {
	echo "Unexpected signal in ${FUNCNAME[1]}"
	cleanup
	exit 1
}
trap trap_cleanup EXIT TERM INT

if ! perf check feature -q dwarf_getlocations; then
	echo "[Skip] perf built without DWARF location support"
	cleanup
	exit 2
fi

echo "Record a lock/reader workload"
if ! perf record -e cpu-clock -c 100000 -o "${perfdata}" -- \
		perf test -w lockshare 1000 > /dev/null 2>&1; then
	echo "[Fail] perf record"
	cleanup
	exit 1
fi

echo "perf report -s type,typeoff"
rc=0
perf report -i "${perfdata}" -s type,typeoff --stdio > "${result}" 2>&1 || rc=$?
if [ ${rc} -ne 0 ]; then
	echo "[Fail] perf report -s type,typeoff exited with ${rc}"
	tail -5 "${result}"
	err=1
fi
for field in lock nr_running clock load_avg; do
	if ! grep -q "struct lockshare_rq +0[x0-9a-f]* (${field})" "${result}"; then
		echo "[Fail] no samples attributed to lockshare_rq.${field}"
		err=1
	fi
done

echo "perf annotate --data-type"
rc=0
perf annotate -i "${perfdata}" --data-type=lockshare_rq --stdio > "${result}" 2>&1 || rc=$?
if [ ${rc} -ne 0 ]; then
	echo "[Fail] perf annotate --data-type exited with ${rc}"
	tail -5 "${result}"
	err=1
elif ! grep -q "nr_running" "${result}"; then
	echo "[Fail] perf annotate --data-type does not show lockshare_rq.nr_running"
	err=1
fi

echo "perf report -s type,typeoff after the binary was replaced"
# a copy of perf is the workload; the build ID cache keeps what was recorded
cp "$(command -v perf)" "${bindir}/perf"
if ! perf --buildid-dir "${bindir}/debug" record -e cpu-clock -c 100000 -o "${perfdata}" -- \
		"${bindir}/perf" test -w lockshare 1000 > /dev/null 2>&1; then
	echo "[Fail] perf record of a copy of perf"
	err=1
elif ! command -v cc > /dev/null; then
	echo "[Skip] no C compiler to replace the binary with"
else
	echo 'int main(void) { return 0; }' | cc -g -x c - -o "${bindir}/perf"
	perf --buildid-dir "${bindir}/debug" report -i "${perfdata}" -s type,typeoff \
		--stdio > "${result}" 2>&1 || true
	if ! grep -q "struct lockshare_rq +0[x0-9a-f]* (clock)" "${result}"; then
		echo "[Fail] the debug info of the replaced binary was used"
		err=1
	fi
fi

cleanup
exit $err
