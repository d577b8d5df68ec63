#!/bin/bash
# perf affinity record chooses its source and keeps earlier data
# SPDX-License-Identifier: GPL-2.0
#
# Without a memory sampling PMU (or with --sw) record must say that it uses
# software address sampling, sample the timer with the general purpose
# registers and data mmaps, rotate an existing output to .old, and reject
# contradictory options with a message.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
perfdata="${tmpdir}/perf.data"
result="${tmpdir}/result"

if [ "$(uname -m)" != x86_64 ]; then
	echo "[Skip] software address sampling is x86-64 only"
	cleanup
	exit 2
fi

echo "record -e list"
perf affinity record -e list > "${result}" 2>&1 || fail "-e list exited with $?"
grep -q -- '--sw .*available' "${result}" || fail "-e list does not list software sampling"

echo "record --sw"
rm -f "${perfdata}"
perf affinity record --sw -o "${perfdata}" -- perf test -w noploop 1 > "${result}" 2>&1 ||
	fail "record --sw exited with $?"
[ -f "${perfdata}.old" ] && fail "a .old file appeared from nothing"
grep -q 'using software address sampling: cpu-clock/period=' "${result}" ||
	fail "record does not say which source it uses"
perf evlist -v -i "${perfdata}" > "${result}" 2>&1
grep -q 'cpu-clock.*sample_regs_user: 0xff01ff.*sample_regs_intr: 0xff01ff' "${result}" ||
	fail "cpu-clock is not sampled with the general purpose registers"
grep -q 'cpu-clock.*mmap_data: 1' "${result}" || fail "no data mmaps"
grep -q 'cpu-clock.*CPU' "${result}" || fail "no sample CPU"

echo "record -u: user registers only"
perf affinity record --sw -u -o "${perfdata}" -- true > /dev/null 2>&1 ||
	fail "record -u exited with $?"
[ -f "${perfdata}.old" ] || fail "the earlier perf.data was not kept as .old"
perf evlist -v -i "${perfdata}.old" 2>&1 | grep -q 'sample_regs_intr: 0xff01ff' ||
	fail "the .old file is not the earlier recording"
perf evlist -v -i "${perfdata}" > "${result}" 2>&1
grep -q 'sample_regs_user: 0xff01ff' "${result}" || fail "-u: no user registers"
grep -q 'sample_regs_intr' "${result}" && fail "-u: interrupt registers recorded"

echo "contradictory options"
perf affinity record -u -k -o "${perfdata}" -- true > "${result}" 2>&1 &&
	fail "-u -k accepted"
grep -q 'exclude each other' "${result}" || fail "-u -k: no message"

cleanup
exit $err
