#!/bin/bash
# perf data-type profiling frees the CFA frames of .debug_frame
# SPDX-License-Identifier: GPL-2.0
#
# die_get_cfa() kept the frame libdw allocates for every CFA data-type
# profiling asks for.  Only binaries with .debug_frame have one (a
# vmlinux; here a program built without unwind tables): the unit test
# 'die_get_cfa() frees the frame of the CFA' is run on it.

err=0
tmpdir=$(mktemp -d /tmp/__perf_test.cfa.XXXXX)

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

skip() {
	echo "[Skip] $1"
	cleanup
	exit 2
}

command -v gcc > /dev/null || skip "no gcc"
cat > "${tmpdir}/cfa.c" << 'PROG'
static int leaf(int n)
{
	volatile int x = n;

	return x * 2;
}

int main(int argc, char **argv)
{
	(void)argv;
	return leaf(argc) == 2 ? 0 : 1;
}
PROG
gcc -g -O0 -fno-asynchronous-unwind-tables -fno-unwind-tables -o "${tmpdir}/cfa" \
	"${tmpdir}/cfa.c" || skip "gcc failed"
readelf -S "${tmpdir}/cfa" 2> /dev/null | grep -q '\.debug_frame' ||
	skip "gcc wrote no .debug_frame"

perf test --dso "${tmpdir}/cfa" -v 'frees the frame of the CFA' > "${tmpdir}/out" 2>&1
if ! grep -q 'frees the frame of the CFA *: Ok' "${tmpdir}/out"; then
	echo "[Fail] die_get_cfa() on ${tmpdir}/cfa:"
	cat "${tmpdir}/out"
	err=1
fi

cleanup
exit ${err}
