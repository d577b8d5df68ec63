#!/bin/bash
# perf data-type profiling of a pointer a C++ lambda captured
# SPDX-License-Identifier: GPL-2.0
#
# A std::thread runs a lambda that captured a pointer to a class: its
# _M_run() loads the pointer from the closure, held in the thread's state
# through base classes (std::tuple is one) and members of class type (the
# closure is a class), and reads the object through it.  The member at the
# load's offset was not found in a base class nor in a class type: the
# pointer, and every field read through it, was untyped.

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
if ! command -v c++ > /dev/null; then
	echo "[Skip] no C++ compiler"
	cleanup
	exit 2
fi

cat > "${bindir}/policy.cc" <<'PROG'
#include <atomic>
#include <chrono>
#include <thread>

struct policy { int limit; int floor; double ratio; double burst; };
static std::atomic<bool> stop;

int main()
{
	policy *p = new policy{ 1000, 3, 1.5, 1e9 };
	std::thread t([p] {
		long n = 0;

		while (!stop.load(std::memory_order_relaxed))
			for (int i = 0; i < 100; i++)
				n += i < p->limit && i * p->ratio < p->burst && i != p->floor;
		if (n == 42)
			__builtin_trap();
	});
	std::this_thread::sleep_for(std::chrono::milliseconds(1000));
	stop = true;
	t.join();
	delete p;
	return 0;
}
PROG
if ! c++ -std=c++17 -g -O2 -pthread -o "${bindir}/policy" "${bindir}/policy.cc"; then
	echo "[Fail] c++"
	cleanup
	exit 1
fi
if ! perf record -e cpu-clock -c 100000 -o "${perfdata}" -- "${bindir}/policy" \
		> /dev/null 2>&1; then
	echo "[Fail] perf record"
	cleanup
	exit 1
fi

# share TYPE: the percent of the samples of the lambda's _M_run() typed so
share() {
	awk -v t="$1" '/_M_run/ && index($0, t) { s += $1 } END { printf "%d\n", s }' \
		"${result}"
}

echo "perf report -s sym,type"
perf report -i "${perfdata}" -s sym,type --stdio > "${result}" 2>&1
typed=$(share "struct policy")
echo "the thread's _M_run(): ${typed}% of the samples struct policy's"
# before: 0%, its loads through the pointer untyped
if [ "${typed}" -lt 20 ]; then
	echo "[Fail] the fields read through the captured pointer are not typed"
	grep "_M_run" "${result}" | head -5
	err=1
fi

cleanup
exit $err
