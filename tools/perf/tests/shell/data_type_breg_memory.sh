#!/bin/bash
# perf data-type profiling of a variable in memory at a register
# SPDX-License-Identifier: GPL-2.0
#
# A std::thread runs a lambda that captured a pointer and calls a method
# through it, inlined: the method's 'this' is the closure's member, in
# memory at an offset from the register that holds the closure
# (DW_OP_breg5 8, no DW_OP_stack_value).  The load of the pointer from
# there is an access to the variable itself, a pointer, not to the object
# it points to; it was taken as one through the register, to the object's
# first member.  A uprobe on the load samples it exactly.

err=0
perfdata=$(mktemp /tmp/__perf_test.perf.data.XXXXX)
result=$(mktemp /tmp/__perf_test.result.XXXXX)
bindir=$(mktemp -d /tmp/__perf_test.bin.XXXXX)
event=""

cleanup() {
	[ -n "${event}" ] && perf probe -q -d "${event}" > /dev/null 2>&1
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

perf check feature -q dwarf_getlocations || skip "perf built without DWARF location support"
command -v c++ > /dev/null || skip "no C++ compiler"

cat > "${bindir}/admit.cc" <<'PROG'
#include <atomic>
#include <chrono>
#include <thread>

struct admission {
	long name;
	std::atomic<int> admitted;
	void admit() { admitted.fetch_add(1, std::memory_order_relaxed); }
};
static std::atomic<bool> stop;

int main()
{
	admission *a = new admission();
	std::thread t([a] {
		while (!stop.load(std::memory_order_relaxed))
			a->admit();
	});
	std::this_thread::sleep_for(std::chrono::milliseconds(300));
	stop = true;
	t.join();
	delete a;
	return 0;
}
PROG
c++ -std=c++17 -g -O2 -pthread -o "${bindir}/admit" "${bindir}/admit.cc" || {
	echo "[Fail] c++"
	cleanup
	exit 1
}
# the lambda's load of the captured pointer from its closure, %rdi
off=$(objdump -d --no-show-raw-insn "${bindir}/admit" |
	awk '/_M_run.*>:$/ { f = 1 } f && /mov +0x8\(%rdi\),%r/ { sub(":", "", $1); print $1; exit }')
[ -n "${off}" ] || skip "the compiler loads the captured pointer otherwise"
event="probe_admit:load"
perf probe -q -x "${bindir}/admit" -a "load=0x${off}" > /dev/null 2>&1 ||
	skip "no uprobe at 0x${off}"
if ! perf record -e "${event}" -o "${perfdata}" -- "${bindir}/admit" > /dev/null 2>&1; then
	echo "[Fail] perf record"
	cleanup
	exit 1
fi

echo "perf report -s sym,type of the load at 0x${off}"
perf report -i "${perfdata}" -s sym,type --stdio > "${result}" 2>&1
grep '_M_run' "${result}" | head -2
if ! grep -q '_M_run.* struct admission \?\*$' "${result}"; then
	echo "[Fail] the load of the captured pointer is not typed as the pointer"
	err=1
fi

cleanup
exit $err
