#!/bin/bash
# perf affinity report summary, sorting and filters
# SPDX-License-Identifier: GPL-2.0
#
# The summary agrees with --stats, --sort orders the struct table, bad
# keys are refused with one line, and --cpu, --comms and --time filter
# the samples the way perf report does.  A type never accessed and a
# recording without memory accesses are one line errors.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
perfdata="${tmpdir}/perf.data"
result="${tmpdir}/result"
errout="${tmpdir}/err"

if [ "$(uname -m)" != x86_64 ] || [ "$(nproc)" -lt 2 ]; then
	echo "[Skip] needs software address sampling (x86-64) and two CPUs"
	cleanup
	exit 2
fi

# The value of a 'label : value' line of the report
value() {
	awk -F: -v l="$1" '$1 ~ "^ *" l " *$" { print $2 + 0; exit }' "${result}"
}

# The struct names of the struct table, in order
struct_names() {
	awk '/^  Struct Table/ { t = 1; next }
	     t && /^# Struct/ { s = 1; next }
	     s && /^$/ { exit }
	     s && /^  [^(]/ { $1 = $1; sub(/ [0-9].*/, ""); print }' "${result}"
}

if ! perf affinity record -o "${perfdata}" -- perf test -w lockshare 1000 > /dev/null 2>&1; then
	fail "perf affinity record"
	cleanup
	exit 1
fi

echo "the summary agrees with --stats"
perf affinity report -i "${perfdata}" --stats > "${result}" 2>&1
stats_acc=$(awk -F: '/^  Accesses / { print $2 + 0; exit }' "${result}")
stats_attr=$(value "Attributed to a struct field")
perf affinity report -i "${perfdata}" --stdio > "${result}" 2>&1 || fail "report exited with $?"
grep -q "Memory Access Information" "${result}" || fail "no summary block"
[ "$(value "Memory accesses decoded")" = "${stats_acc}" ] ||
	fail "summary accesses $(value "Memory accesses decoded") != --stats ${stats_acc}"
[ "$(value "Attributed to struct fields")" = "${stats_attr}" ] ||
	fail "summary attributed $(value "Attributed to struct fields") != --stats ${stats_attr}"
loads=$(value "loads")
stores=$(value "stores and read-modify-writes")
[ $((loads + stores)) -le "${stats_attr}" ] && [ "${stores}" -gt 0 ] ||
	fail "loads ${loads} + stores ${stores} do not add up to at most ${stats_attr}"

echo "--sort"
perf affinity report -i "${perfdata}" --stdio --percent-limit 0 --sort name > "${result}" 2>&1
struct_names > "${errout}"
[ "$(wc -l < "${errout}")" -ge 1 ] || fail "--sort name: no struct in the table"
# the loader's structs are sampled in most runs, not all
LC_ALL=C sort -c "${errout}" 2> /dev/null || fail "--sort name: not sorted by name"
perf affinity report -i "${perfdata}" --stdio --percent-limit 0 > "${result}" 2>&1
[ "$(struct_names | head -1)" = "struct lockshare_rq" ] ||
	fail "by accesses, struct lockshare_rq is not first"
grep -q "more struct.* below --percent-limit" "${result}" &&
	fail "--percent-limit 0 hides structs"
if perf affinity report -i "${perfdata}" --stdio --sort bogus > "${result}" 2> "${errout}"; then
	fail "--sort bogus accepted"
fi
[ "$(wc -l < "${errout}")" -eq 1 ] && grep -q "^--sort bogus: use " "${errout}" ||
	fail "--sort bogus: not a one line error: $(head -3 "${errout}")"

echo "--method window: no code context"
# no function is known to store a field: sorting and searching those none
# were a qsort() and bsearch() of NULL (the sanitizer build stopped there)
perf affinity report -i "${perfdata}" --stdio --method window > "${result}" 2>&1 ||
	fail "--method window exited with $?: $(grep -m1 'runtime error' "${result}")"
grep -q "^  Top co-access pairs (window method" "${result}" || fail "--method window: not used"

echo "--cpu: the lock is written on the first CPU only"
# the workload runs its writer on the first CPU it may use
cpu0=$(awk '/^Cpus_allowed_list/ { sub(/[,-].*/, "", $2); print $2 }' /proc/self/status)
others=$(perf affinity report -i "${perfdata}" --stdio -C "$((cpu0 + 1))" 2>&1 | tee "${result}" |
	 awk '/^  struct lockshare_rq/ { print $5; exit }')
grep -q "samples filtered out" "${result}" || fail "-C: no samples filtered out"
[ "${others:-x}" = 0 ] || fail "-C $((cpu0 + 1)): lock stores ${others:-none}, expected 0"

echo "--comms, --time"
perf affinity report -i "${perfdata}" --stdio --comms no-such-comm > "${result}" 2>&1 ||
	fail "--comms exited with $?"
grep -q "No sample is left after filtering" "${result}" || fail "--comms: samples left"
all=$(perf affinity report -i "${perfdata}" --stdio 2>&1 | awk -F: '/^  Samples / { print $2 + 0 }')
part=$(perf affinity report -i "${perfdata}" --stdio --time 0%-50% 2>&1 |
       awk -F: '/^  Samples / { print $2 + 0 }')
[ "${part:-0}" -gt 0 ] && [ "${part}" -lt "${all}" ] ||
	fail "--time 0%-50%: ${part} of ${all} samples"

echo "-T of a type never accessed, a recording of other events: one line errors"
if perf affinity report -i "${perfdata}" --stdio -T no_such_struct \
	> "${result}" 2> "${errout}"; then
	fail "-T no_such_struct: exit 0"
fi
[ "$(wc -l < "${errout}")" -eq 1 ] && grep -q "^-T no_such_struct: no access" "${errout}" ||
	fail "-T no_such_struct: not a one line error: $(head -3 "${errout}")"
perf affinity report -i "${perfdata}" --stdio -T lockshare_rq > "${result}" 2>&1 ||
	fail "-T lockshare_rq exited with $?"
only=$(value "Attributed to struct fields")
other=$(value "Of other types than -T's")
[ $((only + ${other:-0})) -eq "${stats_attr}" ] ||
	fail "-T lockshare_rq: ${only} + ${other:-0} of other types != ${stats_attr} attributed"

echo "--keep and --keep-order name what is wrong"
if perf affinity report -i "${perfdata}" --stdio --keep nosuchfield > "${result}" \
	2> "${errout}"; then
	fail "--keep nosuchfield: exit 0"
fi
[ "$(wc -l < "${errout}")" -eq 1 ] &&
	grep -q "^--keep nosuchfield: no member 'nosuchfield' in any reported type" "${errout}" ||
	fail "--keep nosuchfield: not named in one line: $(head -3 "${errout}")"
if perf affinity report -i "${perfdata}" --stdio --keep-order lock-nosuch > "${result}" \
	2> "${errout}"; then
	fail "--keep-order lock-nosuch: exit 0"
fi
grep -q "^--keep-order lock-nosuch: no member 'nosuch' in any reported type" "${errout}" ||
	fail "--keep-order lock-nosuch: not named: $(head -3 "${errout}")"
perf affinity report -i "${perfdata}" --stdio -T lockshare_rq --keep-order clock-lock \
	> "${result}" 2> "${errout}" || fail "--keep-order clock-lock exited with $?"
grep -q "^--keep-order clock-lock: clock comes after lock in struct lockshare_rq: taken as lock-clock" \
	"${errout}" || fail "--keep-order clock-lock: no note: $(head -3 "${errout}")"

perf record -q -e cpu-clock -o "${perfdata}" -- perf test -w noploop 1 > /dev/null 2>&1
if perf affinity report -i "${perfdata}" --stdio > "${result}" 2> "${errout}"; then
	fail "a recording without memory access samples: exit 0"
fi
grep -q "has no memory access samples.*'perf affinity record'" "${errout}" ||
	fail "a recording without memory access samples: $(head -3 "${errout}")"

cleanup
exit $err
