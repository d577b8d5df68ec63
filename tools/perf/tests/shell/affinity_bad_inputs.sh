#!/bin/bash
# perf affinity report of bad inputs and hard types
# SPDX-License-Identifier: GPL-2.0
#
# The DIAGNOSTICS table of perf-affinity.txt: every bad input (files,
# recordings nothing can be attributed in, option values) gives one line
# of error that says why and a non-zero exit, never a crash; structs with
# bitfields, unions, anonymous members, flexible and zero-length arrays,
# 4,000 fields, 2 MB, and a C++ class with base classes are reported with
# the right fields at the right offsets.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
# a build ID cache of its own: the binaries it removes must stay removed
perf="perf --buildid-dir ${tmpdir}/debug"
out="${tmpdir}/out"
errout="${tmpdir}/err"

[ "$(uname -m)" = x86_64 ] || affinity__skip "needs software address sampling (x86-64)"
if ! command -v cc > /dev/null || ! command -v c++ > /dev/null || ! command -v strip > /dev/null
then
	echo "[Skip] needs cc, c++ and strip"
	cleanup
	exit 2
fi

# report NAME ARGS...: run 'perf affinity report --stdio ARGS', leave the
# exit status in $rc; killed by a signal or hanging is a failure
report() {
	local name=$1

	shift
	rc=0
	timeout 120 ${perf} affinity report --stdio "$@" > "${out}" 2> "${errout}" || rc=$?
	case ${rc} in
	124|13[2-9])
		fail "${name}: crashed or hung, exit ${rc}: $(head -3 "${errout}")"
		return 1
		;;
	esac
	return 0
}

# check_error NAME REGEX: a non-zero exit and exactly one line of stderr
# matching REGEX
check_error() {
	[ "${rc}" -ne 0 ] || fail "$1: exit 0"
	[ "$(wc -l < "${errout}")" -eq 1 ] && grep -qE -- "$2" "${errout}" ||
		fail "$1: not one line matching '$2': $(head -3 "${errout}")"
}

# error NAME REGEX ARGS...: check_error of 'report ARGS'
error() {
	local name=$1 regex=$2

	shift 2
	report "${name}" "$@" && check_error "${name}" "${regex}"
}

# told NAME REGEX ARGS...: 'report ARGS' says why in one line: the error,
# or the warning of a report made of the few samples it could attribute
told() {
	local name=$1 regex=$2

	shift 2
	report "${name}" "$@" || return
	if [ "${rc}" -ne 0 ]; then
		check_error "${name}" "${regex}"
		return
	fi
	grep -qE -- "only [0-9]+ of [0-9]+ samples attributed to a struct field: .*${regex}" \
		"${errout}" || fail "${name}: exit 0, no warning matching '${regex}': $(head -3 "${errout}")"
}

# usage NAME REGEX ARGS...: parse-options' error line, then the usage
usage() {
	local name=$1 regex=$2

	shift 2
	report "${name}" "$@" || return
	[ "${rc}" -eq 129 ] || fail "${name}: exit ${rc}, not the usage's 129"
	head -1 "${errout}" | grep -qE -- "${regex}" &&
		grep -q "Usage: perf affinity report" "${errout}" ||
		fail "${name}: not '${regex}' and the usage: $(head -3 "${errout}")"
}

# record NAME PROG...: record PROG with software address sampling
record() {
	local data="${tmpdir}/$1.data"

	shift
	# 4 MB of buffer: a loaded machine must not lose samples, nor warn of it
	${perf} affinity record --sw-period 250000 -m 1024 -o "${data}" -- "$@" > /dev/null 2>&1 ||
		fail "perf affinity record $*"
}

# fields TYPE: 'name offset accesses' of each row of TYPE's field table
fields() {
	awk -v t="$1" '$0 ~ "^  " t ": [0-9]+ bytes" { s = 1; next }
		       s && /^# Field/ { f = 1; next }
		       f && /^#/ { next }
		       f && /^ *$/ { exit }
		       f { print $1, $2, $5 + $6 }' "${out}"
}

# field TYPE NAME OFFSET: NAME is at OFFSET in TYPE and has accesses
field() {
	local row

	row=$(fields "$1" | awk -v n="$2" '$1 == n')
	[ -n "${row}" ] && [ "$(echo "${row}" | cut -d' ' -f2)" = "$3" ] &&
		[ "$(echo "${row}" | cut -d' ' -f3)" -gt 0 ] ||
		fail "$1: no field $2 at offset $3 with accesses: '${row}'"
}

echo "files that are no perf.data"
: > "${tmpdir}/empty.data"
error "empty file" "empty file, nothing to report" -i "${tmpdir}/empty.data"
head -c 65536 /dev/urandom > "${tmpdir}/random.data"
error "random bytes" "not a perf.data file" -i "${tmpdir}/random.data"
{ printf 'PERFILE2'; head -c 4096 /dev/urandom; } > "${tmpdir}/magic.data"
error "perf.data magic, random header" "not a perf.data file, or a corrupt one" \
	-i "${tmpdir}/magic.data"
error "missing file" "No such file or directory" -i "${tmpdir}/missing.data"
mkdir "${tmpdir}/dir"
error "a directory" "a directory, and not one 'perf record' wrote" -i "${tmpdir}/dir"
rc=0
head -c 65536 /dev/urandom |
	timeout 120 ${perf} affinity report --stdio -i - > "${out}" 2> "${errout}" || rc=$?
check_error "random bytes on a pipe" "^standard input: not a perf.data stream"

echo "recordings nothing can be attributed in"
cat > "${tmpdir}/hot.c" <<'PROG'
#include <stdlib.h>
#include <time.h>
struct hot { long a; long pad[7]; long c; };

__attribute__((noinline)) void hot_work(volatile struct hot *h)
{
	for (long i = 0; i < 100000; i++)
		h->c += h->a++ VARIANT;
}

int main(void)
{
	struct hot *h = calloc(1, sizeof(*h));
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		hot_work(h);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + t.tv_nsec - t0.tv_nsec < 500000000L);
	return 0;
}
PROG
build_hot() {
	cc -O2 "-DVARIANT=$2" "${@:3}" -o "${tmpdir}/$1" "${tmpdir}/hot.c" || fail "cc $1"
}
# each its own code: a binary of the same build ID in the cache has debug info
build_hot hot "" -g
build_hot hotnog "+ 1"
build_hot hotstrip "+ 2" -g && strip "${tmpdir}/hotstrip"
build_hot hotdel "+ 3" -g
build_hot hotnew "+ 4" -g
record hot "${tmpdir}/hot"
report "a good recording" -i "${tmpdir}/hot.data" -d hot
[ "${rc}" -eq 0 ] && [ ! -s "${errout}" ] ||
	fail "a good recording: exit ${rc}: $(head -3 "${errout}")"
field "struct hot" c 64

${perf} affinity record --sw-period 100000000000 -o "${tmpdir}/nosamples.data" -- true \
	> /dev/null 2>&1 || fail "perf affinity record true"
error "no samples" "nosamples.data has no samples: record longer" -i "${tmpdir}/nosamples.data"
perf record -e cpu-clock -c 250000 -m 1024 -o "${tmpdir}/noregs.data" -- "${tmpdir}/hot" \
	> /dev/null 2>&1 || fail "perf record"
error "no registers sampled" "has no memory access samples .*without registers" \
	-i "${tmpdir}/noregs.data"
# %rsp alone gives the addresses of locals on the stack: main's counter,
# a few in a hundred samples; the rest, hot_work()'s, need %rdi.  The
# accesses to that one line prove nothing of the rest: no "nothing shared"
cat > "${tmpdir}/hotregs.c" <<'PROG'
#include <stdlib.h>
struct hot { long a; long pad[7]; long c; };

__attribute__((noinline)) void hot_work(volatile struct hot *h)
{
	for (long i = 0; i < 10000; i++)
		h->c += h->a++;
}

int main(void)
{
	struct hot *h = calloc(1, sizeof(*h));
	volatile long n = 0;

	for (long r = 0; r < 40000; r++) {
		hot_work(h);
		for (long k = 0; k < 300; k++)
			n += k;
	}
	return 0;
}
PROG
cc -O2 -g -o "${tmpdir}/hotregs" "${tmpdir}/hotregs.c" || fail "cc hotregs"
perf record -e cpu-clock -c 250000 -m 1024 --user-regs=ip,sp -o "${tmpdir}/fewregs.data" \
	-- "${tmpdir}/hotregs" > /dev/null 2>&1 || fail "perf record --user-regs=ip,sp"
told "too few registers" "lack the registers the addresses need \(sampled: sp,ip\)" \
	-i "${tmpdir}/fewregs.data" -d hotregs
record hotnog "${tmpdir}/hotnog"
error "built without -g" "no debug info for the hot DSOs.*: hotnog" \
	-i "${tmpdir}/hotnog.data" -d hotnog
record hotstrip "${tmpdir}/hotstrip"
error "stripped" "no symbols for the hot DSOs.*: hotstrip" \
	-i "${tmpdir}/hotstrip.data" -d hotstrip
# without a symbol the instruction before a sampled one is not known: the
# samples on the loop's instructions without a memory operand say so, and
# count for the reason above whatever instructions the samples land on
${perf} affinity report -i "${tmpdir}/hotstrip.data" --stats 2>&1 |
	grep -q "no symbol: instruction before unknown *: *[1-9]" ||
	fail "stripped: no sample counted as 'no symbol: instruction before unknown'"
# the same build ID as hot: its debug info is in the build ID cache
build_hot hotstrip2 "" -g && strip "${tmpdir}/hotstrip2"
record hotstrip2 "${tmpdir}/hotstrip2"
report "stripped, debug info in the build ID cache" -i "${tmpdir}/hotstrip2.data" -d hotstrip2
[ "${rc}" -eq 0 ] && [ ! -s "${errout}" ] ||
	fail "stripped, debug info in the build ID cache: exit ${rc}: $(head -3 "${errout}")"
field "struct hot" c 64
record hotdel "${tmpdir}/hotdel"
rm -rf "${tmpdir}/hotdel" "${tmpdir}/debug"
error "binary deleted" "no code for the hot DSOs.*: hotdel" -i "${tmpdir}/hotdel.data" -d hotdel
record hotnew "${tmpdir}/hotnew"
rm -rf "${tmpdir}/debug"
build_hot hotnew "+ 5" -g
error "binary rebuilt" "changed since recording \(build ID differs\): hotnew" \
	-i "${tmpdir}/hotnew.data" -d hotnew

echo "types"
cat > "${tmpdir}/types.c" <<'PROG'
#include <stdlib.h>
#include <time.h>
#include "many.h"

struct bits { unsigned long lo:3, mid:17, hi:44; long plain; };
union num { long l; double d; };
struct with_union { long a; union num u; long b; };
struct anon { long a; struct { long x; long y; }; union { long p; int q; }; };
struct flex { long n; long data[]; };
struct zero { long n; long data[0]; };
struct gflex { long n; long data[]; } gflex = { 1, { [0 ... 63] = 1 } };
struct huge { long first; char pad[2 << 20]; long last; };

#define WORK(name, type, body)						\
__attribute__((noinline)) void name(volatile type *s)			\
{									\
	for (long i = 0; i < 100000; i++) {				\
		body;							\
	}								\
}
WORK(work_bits, struct bits, s->mid++; s->plain += s->mid)
WORK(work_union, struct with_union, s->u.l++; s->b += s->u.l)
WORK(work_anon, struct anon, s->y++; s->p += s->y)
WORK(work_flex, struct flex, s->data[5]++; s->data[40] += s->data[5])
WORK(work_zero, struct zero, s->data[3]++; s->data[20] += s->data[3])
WORK(work_huge, struct huge, s->first++; s->last += s->first)
WORK(work_many, struct many, s->f3999++; s->f2000 += s->f3999)
/* an initialized flexible array member: its elements are in the variable */
WORK(work_gflex, struct gflex, *(volatile long *)&gflex.data[40] += gflex.data[5])

static long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

#define RUN(fn, type, extra) do {					\
	type *p = calloc(1, sizeof(type) + (extra));			\
	long end = now_ms() + 400;					\
	while (now_ms() < end)						\
		fn(p);							\
} while (0)

int main(void)
{
	RUN(work_bits, struct bits, 0);
	RUN(work_union, struct with_union, 0);
	RUN(work_anon, struct anon, 0);
	RUN(work_flex, struct flex, 64 * sizeof(long));
	RUN(work_zero, struct zero, 64 * sizeof(long));
	RUN(work_huge, struct huge, 0);
	RUN(work_many, struct many, 0);
	RUN(work_gflex, struct gflex, 0);
	return 0;
}
PROG
{
	echo "struct many {"
	for i in $(seq 0 3999); do
		echo "	int f$i;"
	done
	echo "};"
} > "${tmpdir}/many.h"
cat > "${tmpdir}/cls.cc" <<'PROG'
#include <ctime>
struct Base1 { long b1; virtual ~Base1() {} };
struct Base2 { long b2a, b2b; };
class Derived : public Base1, public Base2 {
public:
	long d;
	__attribute__((noinline)) void work();
};

void Derived::work()
{
	for (long i = 0; i < 100000; i++) {
		*(volatile long *)&b2b += 1;
		*(volatile long *)&d += *(volatile long *)&b1;
	}
}

int main()
{
	Derived *o = new Derived();
	time_t end = time(nullptr) + 1;

	while (time(nullptr) < end)
		o->work();
	delete o;
	return 0;
}
PROG
cc -O2 -g -I"${tmpdir}" -o "${tmpdir}/types" "${tmpdir}/types.c" || fail "cc types.c"
c++ -O2 -g -o "${tmpdir}/cls" "${tmpdir}/cls.cc" || fail "c++ cls.cc"
record types "${tmpdir}/types"
report "types" -i "${tmpdir}/types.data" --percent-limit 0 -d types
[ "${rc}" -eq 0 ] || fail "types: exit ${rc}: $(head -3 "${errout}")"
field "struct bits" lo,mid,hi 0
field "struct with_union" u 8
field "struct anon" y 16
field "struct anon" "{p|q}" 24
field "struct flex" data 8
field "struct zero" data 8
field "struct huge" first 0
field "struct huge" last 2097160
field "struct many" f2000 8000
field "struct many" f3999 15996
field "struct gflex" data 8
grep -q "offset outside the type" "${out}" && fail "types: offsets outside the type"
record cls "${tmpdir}/cls"
report "C++ class" -i "${tmpdir}/cls.data" --percent-limit 0 -d cls
[ "${rc}" -eq 0 ] || fail "C++ class: exit ${rc}: $(head -3 "${errout}")"
field Derived b2b 24
field Derived d 32

echo "option values"
good="${tmpdir}/types.data"
error "--cacheline-size 0" "^--cacheline-size 0: a power of two, 16 to 4096" \
	-i "${good}" --cacheline-size 0
error "--cacheline-size 48" "^--cacheline-size 48: a power of two" -i "${good}" --cacheline-size 48
error "--cacheline-size 8192" "^--cacheline-size 8192: a power of two" \
	-i "${good}" --cacheline-size 8192
usage "--cacheline-size -1" "Error: option .cacheline-size. expects an unsigned" \
	-i "${good}" --cacheline-size -1
error "--window 0" "^--window 0: a window has 2 to" -i "${good}" --window 0
error "--window-ns 0" "^--window-ns 0: a window lasts at least 1 ns" -i "${good}" --window-ns 0
error "--percent-limit 200" "^--percent-limit 200: a percentage, 0 to 100" \
	-i "${good}" --percent-limit 200
error "--percent-limit abc" "^--percent-limit abc: a percentage" -i "${good}" --percent-limit abc
error "--time garbage" "Invalid time string" -i "${good}" --time garbage
error "--sort bogus" "^--sort bogus: use " -i "${good}" --sort bogus
error "-F bogus" "^-F bogus: use " -i "${good}" -F bogus
error "--scope bogus" "^--scope bogus: use cpu, thread or instance" -i "${good}" --scope bogus
error "--method bogus" "^--method bogus: use auto, window or code" -i "${good}" --method bogus
error "-T ''" "^-T '': no struct type given" -i "${good}" -T ''
error "-T no_such_struct" "^-T no_such_struct: no access" -i "${good}" -T no_such_struct
error "-C garbage" "Invalid cpu_list" -i "${good}" -C garbage
error "-k of a missing file" "^-k ${tmpdir}/vmlinux: No such file" -i "${good}" \
	-k "${tmpdir}/vmlinux"
error "--symfs of a missing directory" "^--symfs ${tmpdir}/nodir: not a directory" \
	-i "${good}" --symfs "${tmpdir}/nodir"
error "--json to a missing directory" "^--json ${tmpdir}/dir/no/x.json: No such file" \
	-i "${good}" --json "${tmpdir}/dir/no/x.json"
usage "unknown option" "Error: unknown option .bogus." -i "${good}" --bogus
usage "an argument" "Error: unexpected argument: extra" -i "${good}" extra
error "-x ''" "^-x '': give the separator of the columns" -i "${good}" -x ''
[ "${rc}" -eq 234 ] || fail "-x '': exit ${rc}, not 234"

# a copy cut short: its header gives more events than it holds
head -c $(($(stat -c %s "${good}") / 2)) "${good}" > "${tmpdir}/cut.data"
error "truncated" "cut.data: truncated: its events end at byte [0-9]+, the file at [0-9]+" \
	-i "${tmpdir}/cut.data"
[ "${rc}" -eq 234 ] || fail "truncated: exit ${rc}, not 234"

# record_error NAME REGEX ARGS...: 'perf affinity record ARGS -- true' fails in one line
record_error() {
	local name=$1 regex=$2

	shift 2
	rc=0
	timeout 60 ${perf} affinity record -o "${tmpdir}/opt.data" "$@" -- true \
		> /dev/null 2> "${errout}" || rc=$?
	check_error "${name}" "${regex}"
	[ "${rc}" -eq 234 ] || fail "${name}: exit ${rc}, not 234"
	[ ! -e "${tmpdir}/opt.data" ] || fail "${name}: recorded all the same"
}
record_error "--sw-period 0" "^--sw-period 0: a sample every N events" --sw-period 0
record_error "--watch-duty 0" "^--watch-duty 0: a percentage of the time, 1 to 100" --watch-duty 0
record_error "--watch-duty 500" "^--watch-duty 500: a percentage of the time, 1 to 100" \
	--watch-duty 500

cleanup
exit $err
