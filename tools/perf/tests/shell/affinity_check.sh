#!/bin/bash
# perf affinity check and diff guard a layout and prove a fix
# SPDX-License-Identifier: GPL-2.0
#
# One workload built three times: 'good' has the lock on a cache line of
# its own, 'bad' is a later commit that moved it back next to the fields
# another thread reads, 'cold' is 'good' with a field added that nothing
# accesses.  check holds 'good' and 'cold' against a recording of 'good',
# and 'good' against one of 'bad' (the fix); it fails 'bad' with the lock,
# the fields and the cache line in pahole's format.  diff of the two
# recordings shows the transfers drop, outside the noise, and names the
# falsely shared pair that is gone; diff of a recording with itself finds
# no row changed measurably.  A report saved with --json gives check the
# same answers as the recording, also when the recording is too sparse for
# a sure saving (samples 100-300 ms apart): check is undecided (exit 2) from
# both, the saved report keeping the leading candidate.  The golden report
# (perf's own workloads) gives the same every time.  Only what every run shows is asserted: the writer thread
# always stores the lock, the reader always loads the fields, and a pair
# on separate lines has no transfers between them at all.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
affinity__pin
result="${tmpdir}/result"

if [ "$(uname -m)" != x86_64 ]; then
	affinity__skip "software address sampling is x86-64 only"
fi
if [ "$(nproc)" -lt 2 ]; then
	affinity__skip "false sharing needs two CPUs"
fi
if ! command -v cc > /dev/null; then
	affinity__skip "no C compiler"
fi

cat > "${tmpdir}/rq.c" <<'PROG'
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

struct check_rq {
#ifdef GOOD
	unsigned int	nr_running;
	unsigned long	clock;
	unsigned long	load_avg;
	unsigned long	util_avg;
	unsigned long	flags;
	unsigned int	cpu;
	int		online;
	char		name[16];
	int		lock __attribute__((aligned(64)));
	unsigned long	nr_switches;
#else
	int		lock;
	unsigned int	nr_running;
	unsigned long	clock;
	unsigned long	load_avg;
	unsigned long	util_avg;
	unsigned long	flags;
	unsigned int	cpu;
	int		online;
	char		name[16];
	unsigned long	nr_switches;
#endif
#ifdef COLD
	unsigned long	cold_stats[2];
#endif
};

static volatile int done;

__attribute__((noinline)) void check_switch(struct check_rq *rq)
{
	while (__atomic_exchange_n(&rq->lock, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&rq->lock, __ATOMIC_RELAXED))
			;
	__atomic_store_n(&rq->nr_switches, rq->nr_switches + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&rq->lock, 0, __ATOMIC_RELEASE);
}

__attribute__((noinline)) unsigned long check_read(struct check_rq *rq)
{
	unsigned long v = __atomic_load_n(&rq->nr_running, __ATOMIC_RELAXED);

	v += __atomic_load_n(&rq->clock, __ATOMIC_RELAXED);
	v += __atomic_load_n(&rq->load_avg, __ATOMIC_RELAXED);
	v += __atomic_load_n(&rq->util_avg, __ATOMIC_RELAXED);
	return v + __atomic_load_n(&rq->flags, __ATOMIC_RELAXED);
}

static void *writer(void *arg)
{
	while (!done)
		check_switch(arg);
	return NULL;
}

static void *reader(void *arg)
{
	unsigned long s = 0;

	while (!done)
		s += check_read(arg);
	return (void *)s;
}

int main(void)
{
	struct check_rq *rq = aligned_alloc(64, (sizeof(*rq) + 63) & ~63UL);
	struct timespec ts = { .tv_sec = 1, };
	pthread_t t[2];

	__builtin_memset(rq, 0, sizeof(*rq));
	pthread_create(&t[0], NULL, writer, rq);
	pthread_create(&t[1], NULL, reader, rq);
	nanosleep(&ts, NULL);
	done = 1;
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	return 0;
}
PROG

for v in good:-DGOOD bad: cold:"-DGOOD -DCOLD"; do
	# shellcheck disable=SC2086 # the flags are words
	if ! cc -g -O2 -pthread -include "${tmpdir}/pin.h" ${v#*:} -o "${tmpdir}/${v%%:*}" "${tmpdir}/rq.c"; then
		fail "cc ${v#*:} rq.c"
		cleanup
		exit 1
	fi
done
for v in good bad; do
	if ! perf affinity record -o "${tmpdir}/${v}.data" -- "${tmpdir}/${v}" > /dev/null 2>&1; then
		fail "perf affinity record -- ${v}"
		cleanup
		exit 1
	fi
done

# check_exit WANT DATA BINARY [OPTIONS]: perf affinity check exits WANT
check_exit() {
	local want=$1 data=$2 binary=$3 rc

	shift 3
	perf affinity check -i "${tmpdir}/${data}.data" "$@" "${tmpdir}/${binary}" > "${result}" 2>&1
	rc=$?
	if [ "${rc}" != "${want}" ]; then
		sed 's/^/    /' "${result}"
		fail "check -i ${data}.data ${binary} $*: exit ${rc}, not ${want}"
		return 1
	fi
}

echo "check: the good layout holds against its own recording"
check_exit 0 good good && grep -q "struct check_rq in .*: the layout holds" "${result}" ||
	fail "check of the good layout does not say it holds"

echo "check: a field nothing accesses, added: the layout holds"
if check_exit 0 good cold; then
	grep -q "new, not in the recording: cold_stats (16 bytes" "${result}" ||
		fail "check does not list the new field"
fi

echo "check: the fix holds against a recording of the bad layout"
check_exit 0 bad good

echo "check: the lock moved back next to the readers does not hold"
if check_exit 1 good bad; then
	grep -q "the layout does NOT hold" "${result}" || fail "check does not say it fails"
	grep -q "^  lock (written by thread [0-9]*) shares cache line 0 with .*nr_running" \
		"${result}" || fail "check does not name the lock and the readers"
	grep -q "more than the 1.0% --max-regression allows" "${result}" ||
		fail "check does not say what the layout costs"
	# the explanation: the cache line, in pahole's format
	grep -q "^struct check_rq {" "${result}" &&
	grep -qP "^\tint {24}lock; {17}/\* +0 +4 \*/$" "${result}" ||
		fail "check does not print the line in pahole's format"
fi

echo "check --max-regression: a cost regression alone is tolerated up to it"
check_exit 1 good bad --max-regression 100000 &&
	! grep -q "max-regression allows" "${result}" || fail "--max-regression is not heeded"

echo "check --json"
if check_exit 1 good bad --json "${tmpdir}/check.json" &&
   ! python3 - "${tmpdir}/check.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["checks"][0]
assert d["holds"] is False and c["holds"] is False, d
kinds = {f["kind"] for f in c["findings"]}
assert "shared" in kinds and "cost" in kinds, kinds
assert any(f.get("field") == "lock" and f.get("other") == "nr_running"
           for f in c["findings"]), c["findings"]
assert c["cost"]["total"] > c["recorded_cost"]["total"], c
PY
then
	fail "check --json"
fi
affinity__valid check "${tmpdir}/check.json" || fail "check --json: not as its schema says"

echo "check -i a report saved with --json: the same answers as from the recording"
for v in good bad; do
	perf affinity report -i "${tmpdir}/${v}.data" --json "${tmpdir}/${v}.json" > /dev/null 2>&1 ||
		fail "perf affinity report --json of ${v}.data"
	affinity__valid report "${tmpdir}/${v}.json" || fail "${v}.json: not as its schema says"
done
for pair in good:bad good:good bad:good good:cold; do
	data=${pair%%:*}
	binary=${pair#*:}
	perf affinity check -i "${tmpdir}/${data}.data" "${tmpdir}/${binary}" > "${tmpdir}/from_data" 2>&1
	rc_data=$?
	perf affinity check -i "${tmpdir}/${data}.json" "${tmpdir}/${binary}" > "${tmpdir}/from_json" 2>&1
	rc_json=$?
	if [ "${rc_data}" != "${rc_json}" ] || ! cmp -s "${tmpdir}/from_data" "${tmpdir}/from_json"; then
		diff -u "${tmpdir}/from_data" "${tmpdir}/from_json" | head -20
		fail "check -i ${data}.json ${binary}: not what ${data}.data says"
	fi
done

echo "check -i a saved report whose evidence was insufficient: undecided, as from the recording"
# samples 100-300 ms apart: too few transfers for a sure saving, a leading candidate
for period in 100000000 200000000 300000000; do
	perf affinity record --sw-period "${period}" -o "${tmpdir}/sparse.data" -- \
		"${tmpdir}/bad" > /dev/null 2>&1 || fail "perf affinity record --sw-period ${period}"
	perf affinity report -i "${tmpdir}/sparse.data" --json "${tmpdir}/sparse.json" \
		> /dev/null 2>&1 || fail "perf affinity report --json of sparse.data"
	python3 -c 'import json, sys
sys.exit(not json.load(open(sys.argv[1]))["types"][0]["advice"]["insufficient"])' \
		"${tmpdir}/sparse.json" 2> /dev/null && break
done
affinity__valid report "${tmpdir}/sparse.json" || fail "sparse.json: not as its schema says"
perf affinity check -i "${tmpdir}/sparse.data" "${tmpdir}/bad" > "${tmpdir}/from_data" 2>&1
rc_data=$?
perf affinity check -i "${tmpdir}/sparse.json" "${tmpdir}/bad" > "${tmpdir}/from_json" 2>&1
rc_json=$?
if ! grep -q '"insufficient": true' "${tmpdir}/sparse.json"; then
	fail "no recording of the regressed build up to 300 ms apart left the evidence insufficient"
elif [ "${rc_data}" != 2 ] || [ "${rc_json}" != 2 ] ||
     ! cmp -s "${tmpdir}/from_data" "${tmpdir}/from_json"; then
	diff -u "${tmpdir}/from_data" "${tmpdir}/from_json" | head -20
	fail "check of insufficient evidence: exit ${rc_data} from the recording, ${rc_json} from its JSON, not 2"
fi

# The golden report's recording is of perf's own workloads: deterministic
golden="${shelldir}/lib/affinity_golden.json"
perf_bin=$(command -v perf)
if [ -f "${golden}" ] && perf affinity layout "${perf_bin}" lockshare_rq > /dev/null 2>&1; then
	echo "check -i the golden report: perf's lockshare_rq does not hold, refshare_dst does"
	perf affinity check -i "${golden}" "${perf_bin}" > "${result}" 2>&1
	rc=$?
	[ ${rc} = 1 ] || fail "check -i affinity_golden.json perf: exit ${rc}, not 1"
	grep -q "^struct refshare_dst in .*: the layout holds$" "${result}" ||
		fail "refshare_dst, advised nothing, does not hold"
	grep -q "^  lock (written by thread 31338) shares cache line 0 with nr_running, clock, load_avg, util_avg, flags (read by thread 31339): so it did when recorded, and the report advises them apart$" \
		"${result}" || fail "lockshare_rq's lock and readers are not named"
	grep -q "^  cost of the recorded accesses per window: 5.46 with the recorded layout, 5.46 with this one (+0.0%, 95% interval +0.0% to +0.0%)$" \
		"${result}" || fail "the cost of lockshare_rq's own layout is not the report's model cost (5.46)"
fi

echo "check: bad input"
printf '{"schema_version": 1, "header": {' > "${tmpdir}/cut.json"
perf affinity check -i "${tmpdir}/cut.json" "${tmpdir}/good" > "${result}" 2>&1
[ $? -gt 1 ] && grep -q "cut.json: not JSON, line 1: expected a member name" "${result}" ||
	fail "check -i a cut JSON: $(head -1 "${result}")"
# a damaged saved report: a field past the end of its struct
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["types"][0]["fields"][2]["offset"] = 1 << 20
json.dump(d, open(sys.argv[2], "w"))' "${golden}" "${tmpdir}/past.json"
perf affinity check -i "${tmpdir}/past.json" "${tmpdir}/good" > "${result}" 2>&1
[ $? -gt 1 ] && grep -q "past.json: struct refshare_dst: not a struct type of perf affinity report --json" "${result}" ||
	fail "check -i a report with a field past its struct: $(head -1 "${result}")"
echo '{"schema_version": 1, "types": []}' > "${tmpdir}/other.json"
perf affinity check -i "${tmpdir}/other.json" "${tmpdir}/good" > "${result}" 2>&1
[ $? -gt 1 ] && grep -q "not the JSON of perf affinity report --json" "${result}" ||
	fail "check -i other JSON: $(head -1 "${result}")"
check_exit 254 good nonexistent
check_exit 234 good good --max-regression x
perf affinity check -i "${tmpdir}/good.data" /bin/true > "${result}" 2>&1
[ $? -gt 1 ] && grep -q "no DWARF debug info" "${result}" || fail "check of a binary without DWARF"

echo "diff: the transfers drop and the falsely shared pair is gone"
if ! perf affinity diff "${tmpdir}/bad.data" "${tmpdir}/good.data" > "${result}" 2>&1; then
	sed 's/^/    /' "${result}"
	fail "perf affinity diff"
else
	awk '/^  transfers per 1k accesses/ { found = 1; if (!($5 > $6)) exit 1 }
	     END { exit !found }' "${result}" || fail "diff does not show the transfers drop"
	grep -qP "^  lock -> \S+ .* gone$" "${result}" || fail "diff does not name the pair gone"
	grep -qP "^  lock +[0-9.]+% +[0-9.]+% +\S+ +0 +1( |$)" "${result}" ||
		fail "diff does not show the lock moved from line 0 to 1"
	grep -qP "^  transfers per 1k accesses .* 95% interval -\S+% to -\S+%$" "${result}" ||
		fail "diff does not give the transfers' drop its interval"
fi
echo "diff of a recording with itself: no row changes measurably"
if ! perf affinity diff "${tmpdir}/bad.data" "${tmpdir}/bad.data" > "${result}" 2>&1; then
	fail "perf affinity diff of one recording"
else
	n=$(grep -c "no measurable change" "${result}")
	grep -v "no measurable change" "${result}" | grep -q "95% interval" &&
		fail "diff of one recording: a measurable change"
	# lines, transfers and cost, the fields shown and the falsely shared pairs
	[ "${n}" -ge 5 ] || fail "diff of one recording: ${n} rows with intervals"
fi
perf affinity diff --json "${tmpdir}/diff.json" "${tmpdir}/bad.data" "${tmpdir}/good.data" \
	> /dev/null 2>&1 || fail "diff --json FILE"
affinity__valid diff "${tmpdir}/diff.json" || fail "diff --json: not as its schema says"
if ! perf affinity diff --json - "${tmpdir}/bad.data" "${tmpdir}/good.data" |
   python3 -c '
import json, sys
t = json.load(sys.stdin)["types"][0]
assert t["type"] == "struct check_rq", t
assert t["xfers_per_kacc"][0] > t["xfers_per_kacc"][1], t
assert any(p["writer"] == "lock" and p["xfers_per_kacc"][1] == 0 and p["measurable"]
	   for p in t["false_sharing"]), t
assert t["xfers_change"]["measurable"] and t["xfers_change"]["interval"][1] < 0, t
assert all(f["share_change"] is not None for f in t["fields"]), t
'; then
	fail "diff --json"
fi

completion="${shelldir}/../../perf-completion.sh"
if [ -f "${completion}" ]; then
	echo "bash completion of the subcommands and their options"
	# shellcheck disable=SC1090
	out=$(source "${completion}"
	      c() {
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_perf; echo "${COMPREPLY[*]}"
	      }
	      c perf affinity ch; c perf affinity check --max-r; c perf affinity diff --js)
	[ "${out}" = $'check\n--max-regression\n--json' ] ||
		fail "bash completion: '${out}'"
fi

cleanup
exit $err
