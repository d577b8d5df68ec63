#!/bin/bash
# perf affinity report of a C++ class template held by value in another
# SPDX-License-Identifier: GPL-2.0
#
# lf::Meter<long>, a class template with a std::atomic counter beside
# read-mostly limits, is a member of class Service, one instance from new:
# one thread counts hits, another reads the limits.  Meter is analysed as
# itself (as well as in Service), and the advice that parts the counter
# from the limits is Meter's: Service's report and the shared line point
# to it.  -T takes the template's name, its qualified name, with the comma
# of its arguments, or a regular expression.  The summary counts each
# access once.  --emit-c opens with the template's header and its members
# compile in place with -Werror; the rebuilt program's counter is no longer
# falsely shared, check passes it and fails the original; the JSON is valid.
# The same class as Service's base is analysed as itself, printed as
# pahole prints an ancestor, named '(base lf::Meter<long int>)', kept in
# place, and its JSON valid (an empty member name was not).  An empty
# member at the counter's offset ([[no_unique_address]]) holds none of the
# counter's accesses.  Where the source names
# std::hardware_destructive_interference_size (kLine), --emit-c aligns to
# that name, and the members compile in place.  Instances in a std::vector
# that the threads' lambdas capture by reference are analysed as the class.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"

if [ "$(uname -m)" != x86_64 ]; then
	affinity__skip "needs software address sampling (x86-64)"
fi
if ! command -v c++ > /dev/null; then
	affinity__skip "no C++ compiler"
fi

cat > "${tmpdir}/meter.cc" <<'PROG'
#include <atomic>
#include <chrono>
#include <thread>

namespace lf {
template <typename T>
class Meter {
public:
	void hit() { count_.fetch_add(1, std::memory_order_relaxed); }
	bool over(T x) const { return x * scale_ > cap_ || x < floor_; }
private:
	// members
	std::atomic<T> count_{0};
	T scale_ = 3;
	T cap_ = 1000000;
	T floor_ = -1;
	// end of members
};
}

static std::atomic<bool> stop{false};

class Service {
public:
	void serve()
	{
		while (!stop.load(std::memory_order_relaxed))
			meter_.hit();
	}
	long police()
	{
		long n = 0;

		while (!stop.load(std::memory_order_relaxed))
			for (long i = 0; i < 100; i++)
				n += !meter_.over(i);
		return n;
	}
private:
	lf::Meter<long> meter_;
};

int main()
{
	Service *s = new Service;
	long n = 0;
	std::thread t1([s] { s->serve(); });
	std::thread t2([s, &n] { n = s->police(); });

	std::this_thread::sleep_for(std::chrono::milliseconds(1500));
	stop = true;
	t1.join();
	t2.join();
	delete s;
	return n == 42;
}
PROG
if ! c++ -std=c++17 -g -O2 -pthread -o "${tmpdir}/meter" "${tmpdir}/meter.cc"; then
	fail "c++ of meter.cc"
	cleanup
	exit ${err}
fi
if ! perf affinity record -o "${tmpdir}/meter.data" -- "${tmpdir}/meter" > /dev/null 2>&1; then
	fail "perf affinity record"
	cleanup
	exit ${err}
fi
perf affinity report -i "${tmpdir}/meter.data" --stdio > "${tmpdir}/report" 2>&1 ||
	fail "report: exit $?"
sed -n '/^# Struct /,/^$/p' "${tmpdir}/report"
grep -E '^  (Meter|Service).*bytes|Advice|note: the false sharing inside' "${tmpdir}/report"

meter='lf::Meter<long int>'
grep -q "^  ${meter}: 32 bytes, [0-9]* accesses, 1 instance$" "${tmpdir}/report" ||
	fail "the class template is not analysed as itself"
grep -q '^  Service: 32 bytes, [0-9]* accesses, 1 instance$' "${tmpdir}/report" ||
	fail "the class holding it is not analysed"
# std::atomic<T>'s value is its base's member: no tail padding to note
sed -n "/^  ${meter}: /,/^  Suggested layout/p" "${tmpdir}/report" | grep -q 'last struct has' &&
	fail "the std::atomic member is noted with padding it has not"
sed -n "/^  ${meter}: /,/^  Top co-access/p" "${tmpdir}/report" |
	grep -q -E '^  count_ +0 +8 +0 +0 +[1-9][0-9]* .* write-hot' ||
	fail "the counter's stores, as Meter's"
grep -q '^    count_ (written by thread [0-9]*) -> \(scale_\|cap_\|floor_\) (read by' \
	"${tmpdir}/report" || fail "no false sharing of the counter with the limits in Meter"
advice=$(awk -v m="  ${meter}: " 'index($0, m) == 1 { f = 1 } f && /^  Advice:/ { n = 3 } n-- > 0' \
	"${tmpdir}/report")
echo "${advice}" | grep -q 'start a cache line at \(scale_\|cap_\|floor_\|count_\)\|move count_' ||
	fail "Meter's advice does not part the counter from the limits: ${advice}"
grep -q "^  note: the false sharing inside meter_ is of ${meter}'s members" "${tmpdir}/report" ||
	fail "Service's report does not point to Meter's advice"
grep -q "^    Advice: see ${meter} above: its fields share the line" "${tmpdir}/report" ||
	fail "the shared line's advice is not Meter's"

# the summary counts an access once, not once per class it is in
stores=$(awk '/stores and read-modify-writes/ { print $NF; exit }' "${tmpdir}/report")
mstores=$(awk -v m="  ${meter} " 'index($0, m) == 1 { split(substr($0, length(m)), f); print f[3]; exit }' \
	"${tmpdir}/report")
[ "${stores}" = "${mstores}" ] ||
	fail "the summary's stores (${stores}) are not Meter's (${mstores}) once"

for name in Meter lf::Meter "${meter}" "Meter<long int>,Service" 'Met.*r'; do
	perf affinity report -i "${tmpdir}/meter.data" --stdio -T "${name}" > "${tmpdir}/t" 2>&1 ||
		fail "-T ${name}: exit $?"
	grep -q "^  ${meter}: " "${tmpdir}/t" || fail "-T ${name} does not report Meter"
done
grep -q '^  Service: ' "${tmpdir}/t" && fail "-T Met.*r reports Service"
if perf affinity report -i "${tmpdir}/meter.data" --stdio -T 'Meter(' > "${tmpdir}/t" 2>&1; then
	fail "-T with a broken regular expression: exit 0"
fi
grep -q "^-T 'Meter(': not a type name nor a regular expression" "${tmpdir}/t" ||
	fail "-T with a broken regular expression: $(head -1 "${tmpdir}/t")"

# --emit-c: the template's members in place, compiled -Werror, recorded again
perf affinity report -i "${tmpdir}/meter.data" --stdio --emit-c -T Meter > "${tmpdir}/emit" 2>&1 ||
	fail "--emit-c: exit $?"
sed -n '/^  As C++:$/,/^};$/p' "${tmpdir}/emit" > "${tmpdir}/class"
head -3 "${tmpdir}/class" | grep -q '^template <typename T>$' ||
	fail "--emit-c: no template header: $(head -3 "${tmpdir}/class")"
sed '1,/^class \(alignas([0-9]*) \)\?Meter {$/d; /^};$/d' "${tmpdir}/class" > "${tmpdir}/members"
cat "${tmpdir}/members"
affinity__cxx_in_place meter "${tmpdir}/members"
case $? in
1)	fail "--emit-c does not compile in place" ;;
2)	fail "record of the program with the emitted members" ;;
*)
	perf affinity report -i "${tmpdir}/emit.data" --stdio > "${tmpdir}/emit.report" 2>&1
	grep -q "^  ${meter}: 128 bytes, [0-9]* accesses" "${tmpdir}/emit.report" ||
		fail "the rebuilt class is not analysed at its new size"
	grep -q '^    count_ (written by thread [0-9]*) -> ' "${tmpdir}/emit.report" &&
		fail "the emitted layout leaves the counter falsely shared"
	perf affinity check -i "${tmpdir}/meter.data" "${tmpdir}/meter-emit" > "${tmpdir}/check" 2>&1 ||
		fail "check fails the advised layout: $(grep 'NOT hold' "${tmpdir}/check")"
	grep -q "^${meter} in .*: the layout holds" "${tmpdir}/check" ||
		fail "check does not judge Meter"
	;;
esac
perf affinity check -i "${tmpdir}/meter.data" "${tmpdir}/meter" > "${tmpdir}/check" 2>&1 &&
	fail "check passes the recorded layout"
grep -q "^${meter} in .*: the layout does NOT hold" "${tmpdir}/check" ||
	fail "check does not fail Meter as recorded"

perf affinity report -i "${tmpdir}/meter.data" --json "${tmpdir}/meter.json" > /dev/null 2>&1 ||
	fail "--json: exit $?"
affinity__valid report "${tmpdir}/meter.json" || fail "the JSON is not valid"

# variant NAME STD: build ${tmpdir}/NAME.cc with -std=STD and record it
# into NAME.data; the test ends if either fails
variant() {
	if ! c++ -std="$2" -g -O2 -pthread -o "${tmpdir}/$1" "${tmpdir}/$1.cc" ||
	   ! perf affinity record -o "${tmpdir}/$1.data" -- "${tmpdir}/$1" > /dev/null 2>&1; then
		fail "c++ or record of $1.cc"
		cleanup
		exit ${err}
	fi
}

# the same class as a base: analysed as itself, the base printed as a base
# (pahole's '<ancestor>'), named, kept in place; the JSON still valid
sed -e 's/^class Service {$/class Service : public lf::Meter<long> {/' \
    -e 's/meter_\.//' -e '/lf::Meter<long> meter_;/d' "${tmpdir}/meter.cc" > "${tmpdir}/base.cc"
variant base c++17
perf affinity report -i "${tmpdir}/base.data" --stdio > "${tmpdir}/base.report" 2>&1 ||
	fail "report of the base: exit $?"
grep -E '^class Service|<ancestor>|^  (kept in place|note):' "${tmpdir}/base.report"
grep -q "^  ${meter}: 32 bytes, [0-9]* accesses, 1 instance$" "${tmpdir}/base.report" ||
	fail "the base class is not analysed as itself"
grep -q '^class Service : public Meter<long int> {$' "${tmpdir}/base.report" ||
	fail "the layout does not open with the class's base"
grep -q '^	/\* class Meter<long int> *<ancestor>; \*/ *\/\*     0    32 \*/$' \
	"${tmpdir}/base.report" || fail "the base is not printed as pahole prints an ancestor"
grep -q "^  kept in place: (base ${meter}) (a base class: the compiler places it)$" \
	"${tmpdir}/base.report" || fail "the base is not named and kept in place"
grep -q "^  note: the false sharing is of the members of its base ${meter}: " \
	"${tmpdir}/base.report" || fail "Service's report does not point to its base's advice"
perf affinity report -i "${tmpdir}/base.data" --json "${tmpdir}/base.json" > /dev/null 2>&1 ||
	fail "--json of the base: exit $?"
affinity__valid report "${tmpdir}/base.json" || fail "the JSON of a class with a base is not valid"

# an empty member at the counter's offset ([[no_unique_address]], as
# MPMCQueue's allocator_) holds no data: none of the counter's accesses
sed -e 's|^	std::atomic<T> count_{0};$|	[[no_unique_address]] std::allocator<T> alloc_;\n&|' \
    -e 's|^#include <atomic>$|&\n#include <memory>|' "${tmpdir}/meter.cc" > "${tmpdir}/empty.cc"
variant empty c++20
perf affinity report -i "${tmpdir}/empty.data" --stdio -T Meter > "${tmpdir}/empty.report" 2>&1 ||
	fail "report of the empty member: exit $?"
grep -E '^  (alloc_|count_) ' "${tmpdir}/empty.report"
grep -q -E '^  alloc_ +0 +1 +0 +([1-9][0-9]* +[0-9]+|[0-9]+ +[1-9][0-9]*) ' "${tmpdir}/empty.report" &&
	fail "the empty member at the counter's offset is given accesses"
grep -q 'allocator<long int> *alloc_; */\* *0 *1 \*/' "${tmpdir}/empty.report" ||
	fail "the empty member is not in the class's layout"
grep -q -E '^  count_ +0 +8 +0 +[0-9]+ +[1-9][0-9]* .* write-hot' "${tmpdir}/empty.report" ||
	fail "the counter beside an empty member has not its stores"

# a source that names std::hardware_destructive_interference_size: the
# emitted members align to that name, and compile in place with -Werror
sed -e 's|^namespace lf {$|&\n#ifdef __cpp_lib_hardware_interference_size\nconstexpr std::size_t kLine = std::hardware_destructive_interference_size;\n#else\nconstexpr std::size_t kLine = 64;\n#endif|' \
    -e 's|^#include <atomic>$|&\n#include <new>|' "${tmpdir}/meter.cc" > "${tmpdir}/line.cc"
variant line c++17
perf affinity report -i "${tmpdir}/line.data" --stdio --emit-c -T Meter > "${tmpdir}/line.emit" 2>&1 ||
	fail "--emit-c of line.cc: exit $?"
sed -n '/^  As C++:$/,/^};$/p' "${tmpdir}/line.emit" |
	sed '1,/^class \(alignas([0-9a-zA-Z]*) \)\?Meter {$/d; /^};$/d' > "${tmpdir}/line.members"
grep alignas "${tmpdir}/line.members"
grep -q '^	alignas(kLine) ' "${tmpdir}/line.members" ||
	fail "--emit-c does not align to the source's name of the interference size"
affinity__cxx_in_place line "${tmpdir}/line.members"
[ $? = 1 ] && fail "--emit-c aligned to kLine does not compile in place"

# instances in a std::vector on main's stack, which the threads' lambdas
# capture by reference: reached through the closure's reference and the
# vector's _M_start, by a constant index past the first element
sed '/^int main()$/,$d' "${tmpdir}/meter.cc" > "${tmpdir}/vector.cc"
cat >> "${tmpdir}/vector.cc" <<'PROG'
int main()
{
	std::vector<lf::Meter<long>> meters(2);
	long n = 0;
	std::thread t1([&meters] {
		while (!stop.load(std::memory_order_relaxed))
			meters[1].hit();
	});
	std::thread t2([&meters, &n] {
		while (!stop.load(std::memory_order_relaxed))
			for (long i = 0; i < 100; i++)
				n += !meters[1].over(i);
	});

	std::this_thread::sleep_for(std::chrono::milliseconds(1500));
	stop = true;
	t1.join();
	t2.join();
	return n == 42;
}
PROG
sed -i 's|^#include <atomic>$|&\n#include <vector>|' "${tmpdir}/vector.cc"
variant vector c++17
perf affinity report -i "${tmpdir}/vector.data" --stdio > "${tmpdir}/vector.report" 2>&1 ||
	fail "report of the vector: exit $?"
grep -E "^  ${meter}: |^    count_ \(written" "${tmpdir}/vector.report"
grep -q "^  ${meter}: 32 bytes, [0-9]* accesses, 1 instance$" "${tmpdir}/vector.report" ||
	fail "the element of a vector a lambda captures by reference is not analysed as its class"
grep -q '^    count_ (written by thread [0-9]*) -> \(scale_\|cap_\|floor_\) (read by' \
	"${tmpdir}/vector.report" || fail "no false sharing of the vector element's counter"

cleanup
exit ${err}
