#!/bin/bash
# perf affinity report tells the roles of one function's threads apart
# SPDX-License-Identifier: GPL-2.0
#
# The perf c2c talk's program (perf test -w roleshare): a lock thread and a
# reader thread run one function, its argument picking the role, on a
# global struct whose lock word shares a cache line with the fields the
# reader reads.  The sampled code is the same for both threads, so it may
# say what goes together but not who writes: the lock's writer is the lock
# thread alone, the readers' reader the reader thread alone, and the advice
# puts the read fields on a line of their own.  Only what every run shows
# is asserted: each thread runs its loop all the time.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
perfdata="${tmpdir}/perf.data"

if [ "$(uname -m)" != x86_64 ] || ! command -v python3 > /dev/null; then
	affinity__skip "needs software address sampling (x86-64) and python3"
fi

if ! perf affinity record -o "${perfdata}" -- perf test -w roleshare 1500 > /dev/null 2>&1; then
	fail "perf affinity record -- perf test -w roleshare"
elif ! perf affinity report -i "${perfdata}" -T roleshare_buf --json - \
		> "${tmpdir}/json" 2> "${tmpdir}/err"; then
	fail "no access to struct roleshare_buf attributed: $(head -1 "${tmpdir}/err")"
else
	python3 - "${tmpdir}/json" <<'PY' || fail "the roles of roleshare's threads"
import json, sys
t = json.load(open(sys.argv[1]))["types"][0]
f = {x["name"]: x for x in t["fields"] if x["leaf"]}
writers, readers = f["lock0"]["writers"], f["reader1"]["readers"] + f["reader2"]["readers"]
print(f"lock0 writers {writers}, reader1/reader2 readers {sorted(set(readers))}")
ok = len(writers) == 1 and set(readers) and writers[0] not in readers
ok = ok and not f["reader1"]["writers"] and not f["reader2"]["writers"]
name = {x["index"]: x["name"] for x in t["fields"]}
line = {name[m["field"]]: m["line"] for m in t["suggested"]["members"]}
print(f"suggested lines {line}, advice {t['advice']['kind']}")
ok = ok and t["advice"]["kind"] != "none"
ok = ok and line["lock0"] != line["reader1"] and line["lock0"] != line["reader2"]
sys.exit(0 if ok else 1)
PY
fi

cleanup
exit ${err}
