#!/bin/bash
# perf affinity report: several recordings in one report
# SPDX-License-Identifier: GPL-2.0
#
# Two recordings of one workload, read together: the counts of both, the
# same report whatever their order on the command line or given as a
# directory; their threads told apart.  Two recordings of the AMD fixtures
# (lib/affinity_amd_advice.tar.xz.b64, amd-refdst): intervals narrower than
# either's, the advice of each.  (Two live recordings' intervals vary too
# much from one pair to the next to be compared each run.)  Two builds
# that lay one struct out two ways: each layout reported apart.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
affinity__pin

if [ "$(uname -m)" != x86_64 ] || [ "$(nproc)" -lt 2 ]; then
	affinity__skip "needs software address sampling (x86-64) and two CPUs"
fi

mkdir -p "${tmpdir}/recs"
for r in a b; do
	perf affinity record -o "${tmpdir}/recs/$r.data" -- perf test -w lockshare 1000 \
		> /dev/null 2>&1 || { fail "record $r"; cleanup; exit 1; }
done
a="${tmpdir}/recs/a.data"
b="${tmpdir}/recs/b.data"
report() {
	perf affinity report --stdio -T lockshare_rq "$@" 2> /dev/null
}
report -i "$a" -i "$b" > "${tmpdir}/ab" || fail "report -i a -i b: exit $?"
report -i "$b" -i "$a" > "${tmpdir}/ba" || fail "report -i b -i a: exit $?"
report -i "${tmpdir}/recs" > "${tmpdir}/dir" || fail "report -i DIR: exit $?"
head -4 "${tmpdir}/ab"
cmp -s "${tmpdir}/ab" "${tmpdir}/ba" || fail "the order of -i changes the report"
cmp -s "${tmpdir}/ab" "${tmpdir}/dir" || fail "the directory is not read as its recordings"
grep -q "^#   2: ${b}, recorded on" "${tmpdir}/ab" || fail "the header does not list the recordings"
grep -Eq "lock \(written by thread [0-9]+@1,[0-9]+@2\)" "${tmpdir}/ab" ||
	fail "the threads of the two recordings are not told apart"
grep -Eq "^  line 0x[0-9a-f]+ .* pid [0-9]+@2:" "${tmpdir}/ab" ||
	fail "the data lines do not say which recording they are of"
# one function, however many recordings sampled it
nr=$(sed -n '/^  False sharing/,/^$/p' "${tmpdir}/ab" | grep -c '^        lockshare_switch ')
[ "${nr}" -le 5 ] || fail "a function is listed once per recording"

for f in a b ab; do
	case $f in
	ab)	args="-i $a -i $b" ;;
	*)	args="-i ${tmpdir}/recs/$f.data" ;;
	esac
	# shellcheck disable=SC2086
	perf affinity report $args -T lockshare_rq --json "${tmpdir}/$f.json" --stdio \
		> /dev/null 2>&1 || fail "report --json $f: exit $?"
done
affinity__valid report "${tmpdir}/ab.json" || fail "the JSON of two recordings is not valid"
# counts: CHECK TYPE DIR: the accesses of TYPE in DIR/{a,b,ab}.json add up,
# and with CHECK=narrower its false sharing interval is narrower merged
counts() {
	python3 - "$@" <<'PY'
import json, sys
check, name, where = sys.argv[1:4]
d = {f: json.load(open(f"{where}/{f}.json")) for f in ("a", "b", "ab")}
t = {f: [t for t in d[f]["types"] if t["name"] == name][0] for f in d}
acc = {f: t[f]["accesses"] for f in t}
print(name, "accesses:", acc, "recordings:", len(d["ab"]["header"]["recordings"]))
ok = acc["ab"] == acc["a"] + acc["b"] and len(d["ab"]["header"]["recordings"]) == 2
if check == "narrower":
    w = {f: (lambda i: i[1] - i[0])(t[f]["false_sharing"][0]["share_interval"]) for f in t}
    print("false sharing interval widths:", {f: round(v, 3) for f, v in w.items()})
    ok &= w["ab"] < min(w["a"], w["b"])
    adv = {f: [e["text"] for e in t[f]["advice"]["edits"]] for f in t}
    print("advice:", adv)
    ok &= adv["ab"] == adv["a"] == adv["b"]
sys.exit(not ok)
PY
}
counts add "struct lockshare_rq" "${tmpdir}" || fail "the counts do not add up"

affinity__fixtures affinity_amd_advice
fx="${tmpdir}/amd-refdst"
for f in a b ab; do
	case $f in
	a)	args="-i ${fx}/ref-none1.data" ;;
	b)	args="-i ${fx}/ref-none2.data" ;;
	ab)	args="-i ${fx}/ref-none2.data -i ${fx}/ref-none1.data" ;;
	esac
	# shellcheck disable=SC2086
	perf affinity report $args --symfs "${fx}" -T refdst --json "${fx}/$f.json" --stdio \
		> /dev/null 2>&1 || fail "report --json amd-refdst $f: exit $?"
done
counts narrower "struct refdst" "${fx}" ||
	fail "amd-refdst: not the counts of both, a narrower interval and the same advice"

# errors: one line, non-zero
if perf affinity report -i "$a" -i - > /dev/null 2> "${tmpdir}/err" < "$a"; then
	fail "standard input with another recording is read"
fi
grep -q "read alone" "${tmpdir}/err" || fail "no one-line error for -i - with others"
mkdir "${tmpdir}/empty"
if perf affinity report -i "${tmpdir}/empty" > /dev/null 2> "${tmpdir}/err"; then
	fail "a directory with no recordings is read"
fi
grep -q "nor one of recordings" "${tmpdir}/err" || fail "no one-line error for an empty directory"

# two layouts of one struct: reported apart, each with its own offsets
if command -v cc > /dev/null; then
	cat > "${tmpdir}/pair.c" <<'PROG'
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

struct pair {
#ifdef SWAP
	long reads;
	long pad[6];
	long hits;
#else
	long hits;
	long pad[6];
	long reads;
#endif
};

static struct pair *p;
static volatile int stop;

static void *reader(void *arg)
{
	long sum = 0;

	while (!stop)
		sum += __atomic_load_n(&p->reads, __ATOMIC_RELAXED);
	return arg ? (void *)sum : NULL;
}

int main(void)
{
	struct timespec ts;
	pthread_t t;
	double end;

	p = calloc(1, sizeof(*p));
	clock_gettime(CLOCK_MONOTONIC, &ts);
	end = ts.tv_sec + ts.tv_nsec / 1e9 + 0.5;
	pthread_create(&t, NULL, reader, NULL);
	do {
		for (int i = 0; i < 100000; i++)
			__atomic_fetch_add(&p->hits, 1, __ATOMIC_RELAXED);
		clock_gettime(CLOCK_MONOTONIC, &ts);
	} while (ts.tv_sec + ts.tv_nsec / 1e9 < end);
	stop = 1;
	pthread_join(t, NULL);
	return 0;
}
PROG
	cc -O2 -g -pthread -include "${tmpdir}/pin.h" -o "${tmpdir}/pair1" "${tmpdir}/pair.c" &&
	cc -O2 -g -pthread -include "${tmpdir}/pin.h" -DSWAP -o "${tmpdir}/pair2" "${tmpdir}/pair.c" ||
		affinity__skip "cc failed"
	for r in 1 2; do
		perf affinity record -o "${tmpdir}/pair$r.data" -- "${tmpdir}/pair$r" \
			> /dev/null 2>&1 || fail "record pair$r"
	done
	perf affinity report --stdio -T pair -i "${tmpdir}/pair1.data" -i "${tmpdir}/pair2.data" \
		> "${tmpdir}/pairs" 2>&1 || fail "report of two layouts: exit $?"
	grep "layout" "${tmpdir}/pairs" | grep -v "^  \(Current\|Suggested\)"
	grep -q "^  layout 2 of struct pair: the recordings' binaries lay it out differently" \
		"${tmpdir}/pairs" || fail "no line says the layouts differ"
	# each layout's hot member where its binary has it
	python3 - "${tmpdir}/pairs" <<'PY' || fail "a layout's fields are at the other's offsets"
import re, sys
secs = re.split(r"\n=+\n  (struct pair[^:]*): \d+ bytes", open(sys.argv[1]).read())
found = {}
for name, body in zip(secs[1::2], secs[2::2]):
    fields = dict(re.findall(r"^  (hits|reads)\s+(\d+)\s", body, re.M))
    found[name] = fields
print(found)
ok = found.get("struct pair", {}).get("hits") == "0" and \
     found.get("struct pair (layout 2)", {}).get("reads") == "0"
sys.exit(not ok)
PY
fi
cleanup
exit ${err}
