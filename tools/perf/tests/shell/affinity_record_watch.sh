#!/bin/bash
# perf affinity record --watch: exact roles from hardware watchpoints
# SPDX-License-Identifier: GPL-2.0
#
# The perf c2c talk's program (perf test -w roleshare global): one function
# serves the lock thread and the reader thread.  Its report, from samples,
# names the --watch to record with, which --watch-from takes.  'record --watch' arms data
# breakpoints on the lock word and the counter it guards: their readers,
# writers and class come from the hits (marked exact), the writer is the
# lock thread alone, the hits add nothing to the fields' heat, and the
# advice is the hand fix (the read fields on a line of their own).  On
# lockshare, the one store that initializes the lock is among the hits:
# it must not make the main thread a writer of the lock (it did when the
# hits were counted as samples: the advice changed from 'move lock to the
# end' to a 192 byte layout).  nr_switches, which the lock thread alone
# accesses, is watched too: sampled, a reader's sample taken for it now
# and then gives the same layout.  The watchpoints are armed 5% of the time
# by default: far fewer hits than armed all the time (--watch-duty 100),
# as many as it takes for the roles.  lockshare's allocated instance is
# watched through the global pointer to it (--watch 'lockshare_cur->lock'):
# its address is learned as the workload runs, and the hits are the lock's
# there.  'lockshare_global.*' watches its 10 members, 4 at a time in
# turn, said in one line (a line each with -v): the roles of every member
# the workers access are exact.  '--watch auto' learns the line to watch
# by sampling the first half second of the same run (roleshare's global,
# lockshare's heap instance): the same roles and hand fixes, and the hits
# replayed with the advice no longer move the line; a struct on main's
# stack a thread reaches by pointer is what it watches too.  Bad --watch
# arguments fail with one line.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
affinity__pin
perfdata="${tmpdir}/perf.data"
result="${tmpdir}/result"

if [ "$(uname -m)" != x86_64 ] || ! command -v python3 > /dev/null; then
	affinity__skip "needs x86-64 data breakpoints and python3"
fi

# record_watch WATCH WORKLOAD...: perf affinity record --watch WATCH
# ${duty:+--watch-duty ${duty}}; perf
# record now and then dies of a SIGTRAP of a watchpoint firing as the
# workload exits: record again then
record_watch() {
	local watch=$1 rc

	shift
	for try in 1 2 3; do
		# shellcheck disable=SC2086
		perf affinity record --watch "${watch}" ${duty:+--watch-duty ${duty}} \
			-o "${perfdata}" -- "$@" \
			> "${result}.record" 2>&1
		rc=$?
		[ ${rc} -lt 128 ] && break
		echo "perf record died of signal $((rc - 128)), again"
	done
	if [ ${rc} != 0 ] && grep -q -i "breakpoint\|debug register" "${result}.record"; then
		affinity__skip "no data breakpoints here: $(grep -m1 -i error "${result}.record")"
	fi
	return ${rc}
}

check_roleshare() {
	# sampling alone names what to watch, and --watch-from takes it
	perf affinity record -o "${perfdata}.sampled" -- perf test -w roleshare 500 global \
		> /dev/null 2>&1 || fail "perf affinity record -- perf test -w roleshare"
	perf affinity report -i "${perfdata}.sampled" --stdio > "${result}" 2>&1
	grep -q "^    Exact roles and transfers: perf affinity record --watch 'roleshare_global.\*'" \
		"${result}" || fail "the report of roleshare does not name the --watch to record"
	if perf affinity record --watch-from "${perfdata}.sampled" -o "${perfdata}" -- \
			perf test -w roleshare 500 global > "${result}.record" 2>&1; then
		grep -q "watch-from .*: --watch 'roleshare_global.\*'" "${result}.record" ||
			fail "--watch-from does not watch what the report named"
		perf affinity report -i "${perfdata}" -T roleshare_buf --stdio 2>&1 |
			grep -E -q "^  lock0 .*write-hot \(exact\)" ||
			fail "--watch-from: lock0's roles are not the watchpoints'"
	elif [ $? -lt 128 ]; then
		fail "record --watch-from: $(grep -m1 -v '^\[' "${result}.record")"
	fi
	if ! record_watch roleshare_global.lock0,roleshare_global.held \
			perf test -w roleshare 1000 global; then
		fail "record --watch: $(grep -m1 -v '^\[' "${result}.record")"
		return
	fi
	grep -q "watching roleshare_global.lock0 at 0x" "${result}.record" ||
		fail "record --watch does not say what it watches"
	grep -q "^Event watch" "${result}.record" &&
		fail "record --watch: perf record says every time a watchpoint is armed"
	perf affinity report -i "${perfdata}" --stdio > "${result}" 2>&1 ||
		fail "report of roleshare watched"
	grep -E -q "^  lock0 .*write-hot \(exact\)" "${result}" ||
		fail "lock0 is not write-hot by the watchpoints"
	grep -q "^  (exact): hardware watchpoints" "${result}" || fail "no legend for (exact)"
	perf affinity report -i "${perfdata}" -T roleshare_buf --json - > "${result}.json" \
		2> /dev/null || fail "JSON report of roleshare watched"
	python3 - "${result}.json" <<'PY' || fail "the roles of roleshare's threads, watched"
import json, sys
d = json.load(open(sys.argv[1]))
t = d["types"][0]
f = {x["name"]: x for x in t["fields"] if x["leaf"]}
w = {n: f[n]["watched"] for n in ("lock0", "held")}
print(f"watched {w}")
ok = all(x and x["roles"] and x["period"] == 1 for x in w.values())
writers = f["lock0"]["writers"]
readers = f["reader1"]["readers"] + f["reader2"]["readers"]
print(f"lock0 writers {writers}, held writers {f['held']['writers']}, readers {readers}")
ok = ok and len(writers) == 1 and f["held"]["writers"] == writers
ok = ok and set(readers) and writers[0] not in readers
ok = ok and f["lock0"]["class"] == "write-hot" and not f["lock0"]["by_code"]
# the hits are roles, not samples: a field's sampled accesses are far fewer
ok = ok and f["lock0"]["stores"] < w["lock0"]["accesses"]
ok = ok and d["header"]["attribution"]["watched"] > 0
name = {x["index"]: x["name"] for x in t["fields"]}
line = {name[m["field"]]: m["line"] for m in t["suggested"]["members"]}
print(f"suggested lines {line}, advice {t['advice']['kind']}")
ok = ok and t["advice"]["kind"] != "none"
ok = ok and line["lock0"] != line["reader1"] and line["lock0"] != line["reader2"]
sys.exit(0 if ok else 1)
PY
}

# lock_hits: the watchpoint hits of lockshare's lock in ${perfdata}
lock_hits() {
	perf affinity report -i "${perfdata}" -T lockshare_rq --json - 2> /dev/null |
		python3 -c '
import json, sys
f = [x for x in json.load(sys.stdin)["types"][0]["fields"] if x["name"] == "lock"][0]
print(f["watched"]["hits"] if f["watched"] else 0)'
}

check_lockshare() {
	local all part

	for duty in 100 ""; do
		if ! record_watch lockshare_global.lock,lockshare_global.nr_switches \
				perf test -w lockshare 1000 global; then
			fail "record --watch: $(grep -m1 -v '^\[' "${result}.record")"
			return
		fi
		perf affinity report -i "${perfdata}" -T lockshare_rq --stdio > "${result}" 2>&1 ||
			fail "report of lockshare watched"
		grep -A1 "^  Advice:" "${result}"
		grep -q "^    1. move lock to the end" "${result}" ||
			fail "lockshare watched: the advice is not the hand fix (move lock to the end)"
		grep -E -q "^  lock .* [0-9]+ +write-hot \(exact\)" "${result}" ||
			fail "lockshare watched: the lock has another writer than the lock thread"
		[ -n "${duty}" ] && all=$(lock_hits)
	done
	part=$(lock_hits)
	echo "lock hits: ${all} armed all the time, ${part} by default (5%)"
	[ -n "${all}" ] && [ -n "${part}" ] && [ "${part}" -ge 8 ] && [ $((part * 2)) -lt "${all}" ] ||
		fail "--watch-duty: not fewer hits armed 5% of the time than all the time"
}

check_heap() {
	if ! record_watch 'lockshare_cur->lock' perf test -w lockshare 1000; then
		fail "record --watch lockshare_cur->lock: $(grep -m1 -v '^\[' "${result}.record")"
		return
	fi
	grep -q "watching lockshare_cur->lock where 0x[0-9a-f]* points" "${result}.record" ||
		fail "record --watch does not say it follows lockshare_cur"
	grep -q "failed" "${result}.record" && fail "$(grep -m1 failed "${result}.record")"
	perf affinity report -i "${perfdata}" -T lockshare_rq --stdio > "${result}" 2>&1 ||
		fail "report of lockshare's heap instance watched"
	grep -q "^    1. move lock to the end" "${result}" ||
		fail "heap instance watched: the advice is not the hand fix (move lock to the end)"
	grep -E -q "^  lock .* [0-9]+ +write-hot \(exact\)" "${result}" ||
		fail "heap instance watched: the lock's roles are not the watchpoint's"
	echo "heap instance: $(lock_hits) hits of the lock"
}

check_rotation() {
	local f

	if ! record_watch 'lockshare_global.*' perf test -w lockshare 1000 global; then
		fail "record --watch lockshare_global.*: $(grep -m1 -v '^\[' "${result}.record")"
		return
	fi
	grep -q "4 watchpoints rotate over the 10 ranges" "${result}.record" ||
		fail "record --watch lockshare_global.* does not rotate over 10 members"
	# one line for the 10 ranges, naming them; a line each only with -v
	[ "$(grep -c 'perf affinity: watching\|watchpoints rotate' "${result}.record")" = 1 ] ||
		fail "record --watch of 10 ranges: not one line for them"
	grep -q "rotate over the 10 ranges.*: lockshare_global.lock, .*lockshare_global.nr_switches" \
		"${result}.record" || fail "record --watch of 10 ranges: the line does not name them"
	perf affinity report -i "${perfdata}" -T lockshare_rq --stdio > "${result}" 2>&1 ||
		fail "report of lockshare's members watched in turn"
	for f in lock nr_running clock load_avg nr_switches; do
		grep -E -q "^  $f .*\(exact\)$" "${result}" ||
			fail "$f: its roles are not the watchpoints' when rotating"
	done
	grep -q "^    1. move lock to the end" "${result}" ||
		fail "members watched in turn: the advice is not the hand fix"
	grep -E -q "^    (lock \(written .*\) -> nr_running|nr_running \(.*\) -> lock) \(read .*\): [0-9]+$" \
		"${result}" || fail "members watched in turn: the transfers between lock and nr_running are not named"
	perf affinity report -i "${perfdata}" -T lockshare_rq --json - 2> /dev/null |
		python3 -c '
import json, sys
t = json.load(sys.stdin)["types"][0]
name = {f["index"]: f["name"] for f in t["fields"]}
lines = t["watched_lines"]
pairs = {(name[p["writer"]], name[p["reader"]]): p["watched_transfers"]
	 for p in t["false_sharing"]}
lock_nr = pairs.get(("lock", "nr_running"))
named = {(name[p["from"]], name[p["to"]]) for p in lines["pairs"]}
print("watched lines", lines, "lock -> nr_running", lock_nr)
# the report names the pairs the transfers went between
ok = ("lock", "nr_running") in named or ("nr_running", "lock") in named
# the reader never touches what the lock thread writes: all transfers but
# the stores of the main thread before the workers are between fields
ok = ok and lines["transfers"] > 0 and lines["false_sharing"] >= 0.9 * lines["transfers"]
sys.exit(0 if ok and (lock_nr or 0) > 0 else 1)' ||
		fail "members watched in turn: the false sharing the watchpoints saw"
}

# --watch auto: the line two threads share learned by sampling the same
# run, then watched; in a global struct and a heap instance
check_auto() {
	if ! record_watch auto perf test -w roleshare 1000 global; then
		fail "record --watch auto: $(grep -m1 -v '^\[' "${result}.record")"
		return
	fi
	grep -q "watch auto: watching the cache line at 0x[0-9a-f]* (the program's own data), [0-9]* of [0-9]* samples" \
		"${result}.record" ||
		fail "record --watch auto does not say what line of the program's data it learned"
	perf affinity report -i "${perfdata}" -T roleshare_buf --stdio > "${result}" 2>&1 ||
		fail "report of roleshare watched by --watch auto"
	grep -E -q "^  lock0 .*write-hot \(exact\)" "${result}" ||
		fail "--watch auto: lock0's roles are not the watchpoints'"
	grep -q "^    1. start a cache line at reader1" "${result}" ||
		fail "--watch auto: the advice is not the hand fix (a line starting at reader1)"
	perf affinity report -i "${perfdata}" -T roleshare_buf --json - 2> /dev/null |
		python3 -c '
import json, sys
lines = json.load(sys.stdin)["types"][0]["watched_lines"]
r = lines["replayed"]
print("watched", lines["transfers"], "replayed with the", r["layout"], r["transfers"])
# the hits replayed with the advice: the line no longer moves between fields
sys.exit(0 if r["layout"] == "advice" and lines["false_sharing"] > 0 and
	 r["false_sharing"] < lines["false_sharing"] / 10 else 1)' ||
		fail "--watch auto: the hits replayed with the advice still move the line"
	if ! record_watch auto perf test -w lockshare 1000; then
		fail "record --watch auto: $(grep -m1 -v '^\[' "${result}.record")"
		return
	fi
	perf affinity report -i "${perfdata}" -T lockshare_rq --stdio > "${result}" 2>&1 ||
		fail "report of lockshare's heap instance watched by --watch auto"
	grep -E -q "^  lock .*write-hot \(exact\)" "${result}" ||
		fail "--watch auto, heap instance: the lock's roles are not the watchpoints'"
	grep -q "^    1. move lock to the end" "${result}" ||
		fail "--watch auto, heap instance: the advice is not the hand fix"
	# a workload that ends while --watch auto still learns: said, once, and
	# nothing learned afterwards
	perf affinity record --watch auto -o "${perfdata}.short" -- perf test -w lockshare 100 \
		> "${result}.short" 2>&1 || fail "record --watch auto of a short workload fails"
	[ "$(grep -c 'watch auto: the workload ended before' "${result}.short")" = 1 ] ||
		fail "--watch auto of a short workload: not said once that nothing was watched"
	grep -q "watch auto: watching" "${result}.short" &&
		fail "--watch auto of a short workload: a line learned after it ended"
	# a tenth of the transfers at most: the reader's own reads now and then
	# look like one when a slice starts between them
	awk '/^  Replayed with the advice: / { n = $5; now = substr($7, 2) + 0 }
	     END { exit !(now > 0 && n * 10 < now) }' "${result}" ||
		fail "--watch auto, heap instance: the advice leaves transfers of the watched line"
}

# --watch auto on a struct on main's stack: main reaches it by the stack
# pointer, the consumer thread by a pointer; the line two threads share,
# not one line of another, and the summary's counts add up
check_auto_stack() {
	local line

	if ! command -v cc > /dev/null; then
		echo "no C compiler: --watch auto of a struct on the stack not tried"
		return
	fi
	cat > "${tmpdir}/ring.c" <<'PROG'
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct ring {
	unsigned long cap;
	_Atomic unsigned long head;
	_Atomic unsigned long tail;
	unsigned long drops;
};

static _Atomic int stop;

static void *consume(void *arg)
{
	struct ring *r = arg;
	unsigned long t;

	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		t = atomic_load_explicit(&r->tail, memory_order_relaxed);
		if (t != atomic_load_explicit(&r->head, memory_order_acquire))
			atomic_store_explicit(&r->tail, t + 1, memory_order_release);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct ring r = { .cap = 1024, };
	unsigned long n = strtoul(argv[argc - 1], NULL, 0);
	pthread_t th;

	pthread_create(&th, NULL, consume, &r);
	for (unsigned long i = 0; i < n; i++) {
		unsigned long h = atomic_load_explicit(&r.head, memory_order_relaxed);

		if (h - atomic_load_explicit(&r.tail, memory_order_acquire) < r.cap)
			atomic_store_explicit(&r.head, h + 1, memory_order_release);
		else
			r.drops++;
	}
	atomic_store(&stop, 1);
	pthread_join(th, NULL);
	return r.drops == 42;
}
PROG
	if ! cc -O2 -g -pthread -include "${tmpdir}/pin.h" -o "${tmpdir}/ring" "${tmpdir}/ring.c"; then
		fail "cc of ring.c"
		return
	fi
	if ! record_watch auto "${tmpdir}/ring" 500000000; then
		fail "record --watch auto: $(grep -m1 -v '^\[' "${result}.record")"
		return
	fi
	grep 'auto: watching' "${result}.record"
	line=$(sed -n "s/.*watch auto: watching the cache line at 0x\([0-9a-f]*\) (a thread's stack), [0-9]* of [0-9]* samples.*/\1/p" \
		"${result}.record")
	if [ -z "${line}" ]; then
		fail "--watch auto does not watch the ring on main's stack"
		return
	fi
	perf affinity report -i "${perfdata}" --stdio > "${result}" 2>&1 ||
		fail "report of the ring watched by --watch auto"
	grep -E -q "^  (head|tail) .*\(exact\)" "${result}" ||
		fail "--watch auto, ring on the stack: its roles are not the watchpoints'"
	# which roles, and the line's transfers, need both threads running at
	# once in the armed slices, which a loaded machine may not give (a
	# build beside it: 'shared-written' 1 run in 10, the transfers too)
	awk '/^  Memory accesses decoded/ { d = $NF } /^  Not attributed/ { n = $NF }
	     END { exit !(d > 0 && n <= d) }' "${result}" ||
		fail "the summary: more accesses not attributed than decoded"
}

check_errors() {
	local args

	for args in "--watch no_such_variable" "--watch lockshare_global.no_such_field" \
		    "--watch lockshare_global/3" \
		    "--watch lockshare_global --watch-duty 0" "--watch lockshare_global->lock" \
		    "--watch lockshare_global.*,lockshare_global.*,lockshare_global.*,lockshare_global.*" \
		    "--watch-from ${tmpdir}/no_such_file" "--watch lockshare_global@1.lock" \
		    "--vmlinux ${tmpdir}/no_such_file --watch runqueues.clock" \
		    "--vmlinux $(command -v perf) --watch lockshare_global.lock" \
		    "--vmlinux $(command -v perf) --watch auto" "--watch auto,auto,auto,auto,auto" \
		    "--vmlinux $(command -v perf)"; do
		# shellcheck disable=SC2086
		perf affinity record ${args} -o "${perfdata}.bad" -- perf test -w lockshare 1 \
			> "${result}.bad" 2>&1
		if [ $? = 0 ] || [ "$(wc -l < "${result}.bad")" != 1 ]; then
			cat "${result}.bad"
			fail "record ${args}: not one line and a non-zero exit"
		fi
	done
	perf affinity record --watch lockshare_global -o "${perfdata}.bad" \
		> "${result}.bad" 2>&1 && fail "--watch without a workload succeeds"
	[ -e "${perfdata}.bad" ] && fail "a bad --watch wrote ${perfdata}.bad"
}

check_roleshare
check_lockshare
check_heap
check_rotation
check_auto
check_auto_stack
check_errors

cleanup
exit ${err}
