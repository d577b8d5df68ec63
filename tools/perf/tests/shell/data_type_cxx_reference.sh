#!/bin/bash
# perf data-type profiling through a C++ reference
# SPDX-License-Identifier: GPL-2.0
#
# A lambda that captures by reference holds a pointer in its closure: a
# std::thread's _M_run() loads it from the closure and stores through it.
# The type of that member is a C++ reference, which the type tracker did
# not dereference as it does a pointer: the store had no type.  A uprobe
# on it samples it exactly; its samples are typed as the captured struct.

err=0
perfdata=$(mktemp /tmp/__perf_test.perf.data.XXXXX)
result=$(mktemp /tmp/__perf_test.result.XXXXX)
bindir=$(mktemp -d /tmp/__perf_test.bin.XXXXX)
probes=""

cleanup() {
	[ -n "${probes}" ] && perf probe -q -d 'probe_capture:*' > /dev/null 2>&1
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

skip() {
	echo "[Skip] $1"
	cleanup
	exit 2
}

[ "$(uname -m)" = x86_64 ] || skip "x86 instructions"
perf check feature -q dwarf_getlocations || skip "perf built without DWARF location support"
command -v c++ > /dev/null || skip "no C++ compiler"

cat > "${bindir}/capture.cc" <<'PROG'
#include <thread>

struct Slot { long limit; volatile long hits; };

int main(int argc, char **argv)
{
	Slot slot = { argc, 0 };
	long n = 10000L * argc;

	(void)argv;
	/* the closure holds &slot: _M_run() loads it, then stores through it */
	std::thread t([&slot, n] { for (long i = 0; i < n; i++) slot.hits = slot.hits + 1; });
	t.join();
	return slot.hits == 42;
}
PROG
c++ -std=c++17 -g -O2 -pthread -o "${bindir}/capture" "${bindir}/capture.cc" || {
	echo "[Fail] c++"
	cleanup
	exit 1
}
# the store to hits, 8 bytes into the struct, in the lambda's _M_run()
off=$(objdump -d --no-show-raw-insn -C "${bindir}/capture" |
	awk '/_M_run\(\)>:$/ { f = 1; next } f && /^$/ { exit }
	     f && /mov +%r[a-z0-9]+,0x8\(%r[a-z0-9]+\)$/ { sub(":", "", $1); print $1; exit }')
[ -n "${off}" ] || skip "the compiler stores through the capture otherwise"
probes=1
perf probe -q -x "${bindir}/capture" -a "capture_store=0x${off}" > /dev/null 2>&1 ||
	skip "no uprobes"
if ! perf record -e probe_capture:capture_store -o "${perfdata}" -- "${bindir}/capture" \
		> /dev/null 2>&1; then
	echo "[Fail] perf record"
	cleanup
	exit 1
fi

echo "perf report -s type,typeoff of the store at 0x${off}"
perf report -i "${perfdata}" -s type,typeoff --stdio > "${result}" 2>&1
grep '%' "${result}"
if ! grep -q 'struct Slot +0x8 (hits)$' "${result}"; then
	echo "[Fail] the store through the captured reference is not typed as Slot's hits"
	err=1
fi

cleanup
exit $err
