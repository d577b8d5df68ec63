#!/bin/bash
# perf affinity report of a C++ service class
# SPDX-License-Identifier: GPL-2.0
#
# A class in a namespace with a std::string, a std::atomic<int> counter one
# thread increments through a lambda's captured pointer, and read-mostly
# policy members another thread reads, one instance from new.  The report
# analyses the class, its counter with the stores (the lambda's loop is
# rotated: AMD lands the timer on its condition), its std:: members as
# the members themselves (admitted_, not admitted_._M_i), the false
# sharing of the counter with the policy, and advice that parts them; -T
# takes the class's name with or without its keyword and namespace; its
# layout opens as pahole's, 'class Admission {'; the JSON is valid.  The
# std::atomic<bool> stop flag is the standard library's type: left out
# of the report as a system library's, unless --system-types.  --emit-c
# prints the members as C++, as the source declares them (std::string,
# '{0}', '= 1000'), which compile in place of the class's own with
# -Werror, and the rebuilt program's counter is no longer falsely shared.
# --watch auto watches the class's line, and its hits give the roles.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"

if [ "$(uname -m)" != x86_64 ]; then
	affinity__skip "needs software address sampling (x86-64)"
fi
if ! command -v c++ > /dev/null; then
	affinity__skip "no C++ compiler"
fi

cat > "${tmpdir}/svc.cc" <<'PROG'
#include <atomic>
#include <chrono>
#include <string>
#include <thread>

namespace svc {
class Admission {
public:
	explicit Admission(const std::string &n) : name_(n) {}
	void admit() { admitted_.fetch_add(1, std::memory_order_relaxed); }
	bool allowed(int x) const { return x < limit_ && x * ratio_ < burst_ && x != floor_; }
private:
	// members
	std::string name_;
	std::atomic<int> admitted_{0};
	int limit_ = 1000;
	int floor_ = 3;
	double ratio_ = 1.5;
	double burst_ = 1e9;
	// end of members
};
}

static std::atomic<bool> stop{false};

int main()
{
	svc::Admission *a = new svc::Admission("front");
	std::thread t1([a] {
		while (!stop.load(std::memory_order_relaxed))
			a->admit();
	});
	std::thread t2([a] {
		long n = 0;

		while (!stop.load(std::memory_order_relaxed))
			for (int i = 0; i < 100; i++)
				n += a->allowed(i);
		if (n == 42)
			__builtin_trap();
	});
	std::this_thread::sleep_for(std::chrono::milliseconds(1500));
	stop = true;
	t1.join();
	t2.join();
	delete a;
	return 0;
}
PROG
if ! c++ -std=c++17 -g -O2 -pthread -o "${tmpdir}/svc" "${tmpdir}/svc.cc"; then
	fail "c++ of svc.cc"
	cleanup
	exit ${err}
fi
if ! perf affinity record -o "${tmpdir}/svc.data" -- "${tmpdir}/svc" > /dev/null 2>&1; then
	fail "perf affinity record"
	cleanup
	exit ${err}
fi
perf affinity report -i "${tmpdir}/svc.data" --stdio > "${tmpdir}/report" 2>&1 ||
	fail "report: exit $?"
sed -n '/^  svc::Admission: /,/^  Advice/p' "${tmpdir}/report" | grep -E '^  (svc::Admission|[a-z_]+ +[0-9]+ +[0-9]+ +0 )|Advice'

# field LINE-PATTERN WHAT: the class's field table has a line like it
field() {
	sed -n '/^  svc::Admission: /,/^  Top co-access/p' "${tmpdir}/report" | grep -q -E "$1" ||
		fail "$2"
}

grep -q '^  svc::Admission: 64 bytes, [0-9]* accesses, 1 instance$' "${tmpdir}/report" ||
	fail "the class is not analysed, with its one instance"
field '^  admitted_ +32 +4 +0 +0 +[1-9][0-9]* .* write-hot' "the counter's stores"
field '^  burst_ +56 +8 +0 +[1-9][0-9]* +0 .* read-mostly' "the policy read"
grep -q '_M_i\|_M_dataplus' "${tmpdir}/report" && fail "members of the std:: types shown"
grep -q '^    admitted_ (written by thread [0-9]*) -> \(burst_\|ratio_\|floor_\|limit_\) (read by' \
	"${tmpdir}/report" || fail "no false sharing of the counter with the policy"
# the counter and the policy apart: whichever the advice moves
advice=$(awk '/^  svc::Admission: / { f = 1 } f && /^  Advice:/ { n = 4 } n-- > 0' "${tmpdir}/report")
echo "${advice}" | grep -q 'start a cache line at \(limit_\|admitted_\)\|move admitted_' ||
	fail "the advice does not part the counter from the policy: ${advice}"

# std::atomic<bool> stop: the standard library's, left out unless asked for
grep -q '^  std::atomic<bool> ' "${tmpdir}/report" && fail "std:: types in the default report"
perf affinity report -i "${tmpdir}/svc.data" --stdio --system-types > "${tmpdir}/system" 2>&1 ||
	fail "--system-types: exit $?"
grep -q '^  std::atomic<bool> ' "${tmpdir}/system" || fail "--system-types: no std::atomic<bool>"

for name in Admission svc::Admission 'class Admission'; do
	perf affinity report -i "${tmpdir}/svc.data" --stdio -T "${name}" > "${tmpdir}/t" 2>&1 ||
		fail "-T ${name}: exit $?"
	grep -q '^  svc::Admission: ' "${tmpdir}/t" || fail "-T ${name} does not report the class"
done
perf affinity layout "${tmpdir}/svc" svc::Admission > "${tmpdir}/layout" 2>&1 ||
	fail "layout svc::Admission: exit $?"
head -1 "${tmpdir}/layout" | grep -q '^class Admission {$' ||
	fail "layout: not the class as pahole prints it: $(head -1 "${tmpdir}/layout")"

# --emit-c: C++ in place of the class's members, compiled -Werror, recorded again
perf affinity report -i "${tmpdir}/svc.data" --stdio --emit-c -T Admission > "${tmpdir}/emit" 2>&1 ||
	fail "--emit-c: exit $?"
sed -n '/^  As C++:$/,/^};$/p' "${tmpdir}/emit" | sed '1,/^class Admission {$/d; /^};$/d' \
	> "${tmpdir}/members"
cat "${tmpdir}/members"
grep -q 'std::atomic<int> admitted_{0};' "${tmpdir}/members" ||
	fail "--emit-c: the counter not as its source declares it"
affinity__cxx_in_place svc "${tmpdir}/members"
case $? in
1)	fail "--emit-c does not compile in place" ;;
2)	fail "record of the program with the emitted members" ;;
*)
	perf affinity report -i "${tmpdir}/emit.data" --stdio > "${tmpdir}/emit.report" 2>&1
	grep -q '^  svc::Admission: 128 bytes, [0-9]* accesses' "${tmpdir}/emit.report" ||
		fail "the rebuilt class is not analysed at its new size"
	grep -q '^    admitted_ (written by thread [0-9]*) -> ' "${tmpdir}/emit.report" &&
		fail "the emitted layout leaves the counter falsely shared"
	;;
esac

# --watch auto watches the class's line (the program's heap), not a stack line
# the lambdas share: its hits give the class's roles
if perf affinity record --watch auto -o "${tmpdir}/watch.data" -- "${tmpdir}/svc" \
		> /dev/null 2> "${tmpdir}/watch.err"; then
	grep 'auto: watching' "${tmpdir}/watch.err"
	grep -q "auto: watching the cache line at 0x[0-9a-f]* (the program's own data)" \
		"${tmpdir}/watch.err" || fail "--watch auto: not the program's own line"
	perf affinity report -i "${tmpdir}/watch.data" --stdio > "${tmpdir}/watch" 2>&1
	sed -n '/^  svc::Admission: /,/^  Top co-access/p' "${tmpdir}/watch" |
		grep -q -E '^  admitted_ +32 +4 +0 +0 +[1-9][0-9]* .* write-hot \(exact\)$' ||
		fail "--watch auto: the counter's role not from the watchpoints"
else
	fail "record --watch auto: $(tail -1 "${tmpdir}/watch.err")"
fi

perf affinity report -i "${tmpdir}/svc.data" --json "${tmpdir}/svc.json" > /dev/null 2>&1 ||
	fail "--json: exit $?"
affinity__valid report "${tmpdir}/svc.json" || fail "the JSON is not valid"

cleanup
exit ${err}
