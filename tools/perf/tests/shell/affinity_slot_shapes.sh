#!/bin/bash
# perf affinity report of per-thread data in the shapes of programs written elsewhere
# SPDX-License-Identifier: GPL-2.0
#
# The slotshapes workloads, recorded with default options, each a shape a
# program written outside perf gave its per-thread data:
#
# Heap lines are named by the global pointer the code reaches them by.
#
# - vecsum: 8-byte counters a thread, the main thread also sums them with
#   16-byte loads.  False sharing, not "true sharing ... none by layout":
#   a byte is its writer's, the sum shares only the bytes it reads; the
#   advice pads the stride, and names the code that reads every slot when
#   the samples saw it.
# - threadstats: 24-byte structs from calloc() behind a global pointer:
#   the struct's instances are found, the advice aligns the struct and
#   its allocation (no index stride of whole 24-byte slots is one line).
# - slotsum: a malloc()ed size_t a thread, summed by the main thread:
#   pad the stride to 64 bytes, 8 elements.
# - interleave: a heap int array of many lines, 4 threads each taking
#   every 4th element: one finding for the array, not a finding a line,
#   and a block per thread as the advice.
#
# With --watch auto the slots' line is the hits' (exact), and nothing
# suggests watching the bytes watched.
#
# The fixes ('padded') leave nothing that a layout removes: 'nothing
# shared', exit 0, and diff shows what a line per thread removes go to 0.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
affinity__pin

if [ "$(uname -m)" != x86_64 ]; then
	affinity__skip "needs software address sampling (x86-64)"
fi

# rec NAME WORKLOAD [padded]: record it into NAME.data, its report in NAME
rec() {
	local name=$1

	shift
	if ! perf affinity record -o "${tmpdir}/${name}.data" -- perf test -w "$@" \
		> /dev/null 2>&1; then
		fail "perf affinity record -- perf test -w $*"
		return 1
	fi
	if ! perf affinity report -i "${tmpdir}/${name}.data" --stdio > "${tmpdir}/${name}" 2>&1; then
		fail "perf affinity report of $*: exit $?, $(head -1 "${tmpdir}/${name}")"
		return 1
	fi
}

# has NAME PATTERN WHAT: the report NAME has a line matching PATTERN
has() {
	grep -q -e "$2" "${tmpdir}/$1" || fail "$1: $3"
}

# hasnt NAME PATTERN WHAT: the report NAME has no line matching PATTERN
hasnt() {
	grep -q -e "$2" "${tmpdir}/$1" && fail "$1: $3"
}

# the shared line of a workload: from its "line" header to the next blank line
line_of() {
	sed -n "/^  line 0x.*$2/,/^$/p" "${tmpdir}/$1"
}

echo "vecsum: false sharing, the sum true sharing of the bytes it reads"
if rec vecsum vecsum 1500; then
	line_of vecsum heap > "${tmpdir}/vecsum.line"
	cat "${tmpdir}/vecsum.line"
	has vecsum.line '^  line 0x[0-9a-f]*  \*nallocs  ' "the heap line not named by its pointer, nallocs"
	has vecsum.line 'false sharing: 2 threads[,;]' "the slots' line not false sharing"
	hasnt vecsum.line 'none by layout' "no edit advised for the slots"
	has vecsum.line 'Advice: .*\(pad the stride to 64 bytes\|pad the per-thread stride to 64 bytes\)' \
		"the stride not padded"
	# the code that reads every slot, when a sample saw it
	if grep -q 'loads by vecsum_total' "${tmpdir}/vecsum.line"; then
		has vecsum.line 'the whole edit: .*vecsum_total' "the sum not named as part of the edit"
	fi
fi

echo "threadstats: 24-byte structs from calloc(): align the struct and the allocation"
if rec threadstats threadstats 1500; then
	grep -A1 '^  Advice' "${tmpdir}/threadstats"
	has threadstats '^  struct wstats *24 ' "struct wstats not in the struct table"
	has threadstats '^  Advice: align the struct to the 64 byte cache line and allocate the instances at 64 byte boundaries' \
		"the aligned struct and allocation not advised"
	hasnt threadstats 'index by thread x 2,' "a 48-byte stride advised"
fi

echo "slotsum: a malloc()ed size_t a thread: pad the stride"
if rec slotsum slotsum 1500; then
	line_of slotsum heap > "${tmpdir}/slotsum.line"
	cat "${tmpdir}/slotsum.line"
	has slotsum.line '^  line 0x[0-9a-f]*  \*counts  ' "the heap line not named by its pointer, counts"
	has slotsum.line 'false sharing: 2 threads' "the slots' line not false sharing"
	has slotsum.line 'Advice: .*\(pad the stride to 64 bytes (a slot per cache line: index by thread x 8\|pad the per-thread stride to 64 bytes (8 elements)\)' \
		"the stride not padded to 8 elements"
fi

echo "interleave: one finding for the array, a block per thread"
if rec interleave interleave 1500; then
	sed -n '/^  lines 0x/,/^$/p' "${tmpdir}/interleave" > "${tmpdir}/interleave.group"
	cat "${tmpdir}/interleave.group"
	has interleave.group 'lines of one array of int' "the array's lines not one finding"
	has interleave.group '^  lines 0x[0-9a-f]*-0x[0-9a-f]*  \*weave  ' "the array not named by its pointer, weave"
	has interleave.group 'false sharing: 4 threads, interleaved' "not seen interleaved"
	has interleave.group 'every 4th element from \[3\]' "the threads' elements not named"
	has interleave.group 'give each thread a block of the array of its own, not every 4th element' \
		"a block per thread not advised"
	[ "$(grep -c '^  line 0x.*heap' "${tmpdir}/interleave")" -le 2 ] ||
		fail "interleave: the array's lines reported one by one"
	# and so in JSON, where a script applies it
	perf affinity report -i "${tmpdir}/interleave.data" --json "${tmpdir}/interleave.json" \
		> /dev/null 2>&1 || fail "interleave --json: exit $?"
	affinity__valid report "${tmpdir}/interleave.json" || fail "interleave --json: not as its schema says"
	python3 -c '
import json, sys
a = [a for a in json.load(open(sys.argv[1]))["data_arrays"] if a["interleaved"] == 4]
sys.exit(not (a and a[0]["advice"] == "blocks" and a[0]["type"] == "int" and a[0]["lines"] > 2))
' "${tmpdir}/interleave.json" || fail "interleave --json: no data_arrays[] entry, interleaved by 4, advised blocks"
fi

echo "slotsum --watch auto: the line's transfers and roles from the hits, no second --watch"
if perf affinity record --watch auto -o "${tmpdir}/watched.data" -- perf test -w slotsum 1500 \
	> "${tmpdir}/watched.rec" 2>&1; then
	perf affinity report -i "${tmpdir}/watched.data" --stdio > "${tmpdir}/watched" 2>&1 ||
		fail "report of the hits: exit $?"
	line_of watched heap > "${tmpdir}/watched.line"
	head -3 "${tmpdir}/watched.line"
	has watched.line 'transfers (watchpoint hits, exact)$' "the hits not the line's account"
	has watched.line 'false sharing: 2 threads' "the watched slots not false sharing"
	has watched.line 'Advice: .*pad the stride to 64 bytes' "the hits changed the advice"
	hasnt watched 'Exact roles and transfers: perf affinity record --watch' \
		"watching the watched bytes suggested"
elif grep -q 'breakpoint' "${tmpdir}/watched.rec"; then
	echo "no hardware watchpoints here: $(tail -1 "${tmpdir}/watched.rec")"
else
	fail "record --watch auto: $(tail -1 "${tmpdir}/watched.rec")"
fi

echo "the fixes: nothing a layout removes"
for w in slotsum interleave; do
	rec "${w}-padded" "${w}" 1500 padded || continue
	hasnt "${w}-padded" '^    false sharing' "false sharing after the fix"
	grep -A3 'Shared Data Cache Lines' "${tmpdir}/${w}-padded" | tail -1
done
has interleave-padded 'nothing shared: of the [0-9]* data lines accessed, none moved' \
	"the fixed array not 'nothing shared'"

# the slots' element as recorded: not judged (the fix may be the index), no
# failure; whatever the workload's other types (a local struct timespec)
# say, and 254 when there are none
echo "check of untyped slots: says what guards them instead"
rc=0
perf affinity check -i "${tmpdir}/slotsum.data" "$(command -v perf)" > "${tmpdir}/check" 2>&1 || rc=$?
grep -A1 '^  \*counts' "${tmpdir}/check"
[ "${rc}" != 1 ] && grep -q "^    not judged: its element is size_t, 8 bytes, as recorded: .*perf affinity diff" \
	"${tmpdir}/check" || fail "check of untyped slots: exit ${rc}, $(tail -1 "${tmpdir}/check")"

# The mix program with its slots an element @2 (a declaration of struct
# slot), checked against the recording of mix.c: a line like @4, the slots'
# JSON verdict @5, and exit @3 if it is 1 (struct pair's own verdict varies
# with what the samples saw)
check_slots() {
	sed "s/static long \\*slots;/$2\\nstatic struct slot *slots;/; s/&slots\\[t\\]/\\&slots[t].v/" \
		"${tmpdir}/mix.c" > "${tmpdir}/mix-$1.c"
	cc -g -O2 -pthread -o "${tmpdir}/mix-$1" "${tmpdir}/mix-$1.c" || fail "cc of mix-$1.c"
	rc=0
	perf affinity check -i "${tmpdir}/mix.data" "${tmpdir}/mix-$1" > "${tmpdir}/mix-$1.check" 2>&1 ||
		rc=$?
	grep -A1 '^  \*slots' "${tmpdir}/mix-$1.check"
	[ "$3" != 1 ] || [ "${rc}" = 1 ] || fail "check of the slots' $1: exit ${rc}, not 1"
	has "mix-$1.check" "$4" "check of the slots' $1"
	perf affinity check -i "${tmpdir}/mix.data" --json "${tmpdir}/mix-$1.json" \
		"${tmpdir}/mix-$1" > /dev/null 2>&1
	affinity__valid check "${tmpdir}/mix-$1.json" || fail "check --json of the slots' $1"
	grep -q '"variable": "slots", .*"verdict": "'"$5"'"' "${tmpdir}/mix-$1.json" ||
		fail "check --json: slots not $5"
}

echo "a newcomer's program: counters of a struct beside read-only flags, and heap slots"
if command -v cc > /dev/null; then
	cat > "${tmpdir}/mix.c" <<'PROG'
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

struct pair {
	long a;
	long b;
};
static struct pair pr;
static long *slots;
static volatile int done;

static void *w(void *arg)
{
	long t = (long)arg;

	while (!done) {
		if (t)
			__atomic_fetch_add(&pr.b, 1, __ATOMIC_RELAXED);
		else
			__atomic_fetch_add(&pr.a, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&slots[t], 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

int main(void)
{
	pthread_t th[2];

	slots = calloc(2, sizeof(*slots));
	for (long i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, w, (void *)i);
	usleep(1500000);
	done = 1;
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	return 0;
}
PROG
	if cc -g -O2 -pthread -include "${tmpdir}/pin.h" -o "${tmpdir}/mixprog" "${tmpdir}/mix.c" &&
	   perf affinity record -o "${tmpdir}/mix.data" -- "${tmpdir}/mixprog" > /dev/null 2>&1; then
		perf affinity report -i "${tmpdir}/mix.data" --stdio > "${tmpdir}/mix" 2>&1
		line_of mix 'done+0x0' > "${tmpdir}/mix.line"
		cat "${tmpdir}/mix.line"
		# the flag and the pointer are read-only: no true sharing of them
		hasnt mix.line 'Advice: none by layout' "the counters' line given up as true sharing"
		hasnt mix.line "--watch 'done+0,done+0'" "the same bytes watched twice"
		perf affinity check -i "${tmpdir}/mix.data" "${tmpdir}/mixprog" > "${tmpdir}/mix.check" 2>&1
		tail -3 "${tmpdir}/mix.check"
		has mix.check "^    not judged: its element is long int, 8 bytes, as recorded" \
			"check judged slots whose fix may be the index"
		check_slots fix 'struct slot { long v; } __attribute__((aligned(64)));' 0 \
			'now struct slot, 64 bytes, aligned 64: .* each on lines of its own, holds' holds
		check_slots bad 'struct slot { long v, w; };' 1 \
			'now struct slot, 16 bytes, aligned 8: .* still share lines, does not hold' shared
	else
		fail "cc or record of mix.c"
	fi
fi

echo "diff: the fix removes what a line per thread removes"
perf affinity diff "${tmpdir}/slotsum.data" "${tmpdir}/slotsum-padded.data" > "${tmpdir}/diff" 2>&1 ||
	fail "diff: exit $?"
grep -A5 'data cache lines threads share' "${tmpdir}/diff"
grep -q '^    a line per thread removes *[0-9.]* *0.00 *-100.0%' "${tmpdir}/diff" ||
	fail "diff: the false sharing not gone"

cleanup
exit ${err}
