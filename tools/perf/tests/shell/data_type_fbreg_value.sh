#!/bin/bash
# perf data-type profiling of a local through an inlined method's 'this'
# SPDX-License-Identifier: GPL-2.0
#
# A C++ struct on main's stack with a std::atomic member main stores to:
# the store is inlined from std::atomic's store(), whose 'this' gcc
# locates as the frame base plus an offset, as a value (DW_OP_fbreg N;
# DW_OP_stack_value): a pointer to the member, not memory there.  It was
# taken for a variable in memory at that offset, and the store typed as
# that pointer's type (struct __atomic_base<long unsigned int>*), not as
# the struct main's variable is.  A uprobe on the store samples it exactly.

err=0
perfdata=$(mktemp /tmp/__perf_test.perf.data.XXXXX)
result=$(mktemp /tmp/__perf_test.result.XXXXX)
bindir=$(mktemp -d /tmp/__perf_test.bin.XXXXX)
probes=""

cleanup() {
	[ -n "${probes}" ] && perf probe -q -d 'probe_ring:*' > /dev/null 2>&1
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

cat > "${bindir}/ring.cc" <<'PROG'
#include <atomic>
#include <thread>

struct ring {
	unsigned long cap;
	std::atomic<unsigned long> head{0};
	std::atomic<unsigned long> tail{0};
};

int main(int argc, char **argv)
{
	ring r{64};
	long n = 20000L * argc;
	std::thread t([&r, n] {
		while ((long)r.tail.load(std::memory_order_acquire) < n)
			r.head.load(std::memory_order_relaxed);
	});

	for (long i = 1; i <= n; i++)
		r.tail.store(i, std::memory_order_release);
	t.join();
	return (int)r.head.load() + (argv[0][0] == 0);
}
PROG
c++ -std=c++17 -g -O2 -pthread -o "${bindir}/ring" "${bindir}/ring.cc" || {
	echo "[Fail] c++"
	cleanup
	exit 1
}
# main's store to r.tail, relative to %rsp, in its loop: before a jump back
off=$(objdump -d --no-show-raw-insn "${bindir}/ring" |
	awk 'function hex(s,  i, n) {
		for (i = 1; i <= length(s); i++)
			n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return n
	     }
	     /<main>:/ { f = 1; next } f && /^$/ { exit }
	     f && /mov +%r[a-z0-9]+,0x[0-9a-f]+\(%rsp\)/ { sub(":", "", $1); o = $1; next }
	     f && o && $2 ~ /^j/ && hex($3) <= hex(o) { print o; exit }')
[ -n "${off}" ] || skip "the compiler stores to the local otherwise"
readelf --debug-dump=loc "${bindir}/ring" | grep -q 'DW_OP_fbreg: -*[0-9]*; DW_OP_stack_value' ||
	skip "no 'this' is the frame base plus an offset as a value"
probes=1
perf probe -q -x "${bindir}/ring" -a "ring_store=0x${off}" > /dev/null 2>&1 || skip "no uprobes"
if ! perf record -e probe_ring:ring_store -o "${perfdata}" -- "${bindir}/ring" \
		> /dev/null 2>&1; then
	echo "[Fail] perf record"
	cleanup
	exit 1
fi

echo "perf report -s sym,type of main's store at 0x${off}"
perf report -i "${perfdata}" -s sym,type --stdio > "${result}" 2>&1
grep 'main' "${result}"
if ! grep -q '\] main .* struct ring$' "${result}"; then
	echo "[Fail] the store through the inlined 'this' is not typed as main's struct"
	err=1
fi

cleanup
exit $err
