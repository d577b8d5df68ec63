#!/bin/bash
# perf affinity report separates falsely shared fields
# SPDX-License-Identifier: GPL-2.0
#
# Record the lock/reader and refcount workloads with whatever source this
# machine has and check the advice: the written field and the fields read
# on the other CPU are named, and the suggested layout puts them on
# different cache lines, with a lower predicted cost.

err=0
perfdata=$(mktemp /tmp/__perf_test.perf.data.XXXXX)
result=$(mktemp /tmp/__perf_test.result.XXXXX)

cleanup() {
	rm -f "${perfdata}" "${perfdata}.old" "${result}"
	trap - EXIT TERM INT
}

trap_cleanup() {
	echo "Unexpected signal in ${FUNCNAME[1]}"
	cleanup
	exit 1
}
trap trap_cleanup EXIT TERM INT

fail() {
	echo "[Fail] $1"
	err=1
}

if [ "$(uname -m)" != x86_64 ]; then
	echo "[Skip] software address sampling is x86-64 only"
	cleanup
	exit 2
fi
if [ "$(nproc)" -lt 2 ]; then
	echo "[Skip] false sharing needs two CPUs"
	cleanup
	exit 2
fi

# The cache line of a field in the suggested layout of the report
suggested_line() {
	awk -v f="$1" '
		/Suggested layout/ { in_s = 1 }
		in_s && /^}/ { exit }
		in_s && $0 ~ "[ *]" f "( __attribute__.*)?;" {
			sub(/.*\/\* */, ""); print int($1 / 64); exit
		}' "${result}"
}

# The predicted change of the cost, in percent
predicted_change() {
	awk '/total \(lines/ { print $NF; exit }' "${result}" | tr -d '%+'
}

record_report() {
	local workload=$1; shift

	if ! perf affinity record -o "${perfdata}" -- perf test -w "${workload}" 2000 "$@" \
			> /dev/null 2>&1; then
		fail "perf affinity record of ${workload}"
		return 1
	fi
	if ! perf affinity report -i "${perfdata}" --stdio -T "${workload}_${type}" \
			> "${result}" 2>&1; then
		fail "perf affinity report of ${workload}"
		return 1
	fi
}

check_separated() {
	local writer=$1 reader=$2

	if ! grep -q "${writer} (written on CPU .*-> ${reader} (read on CPU" "${result}"; then
		fail "${reader} is not named as sharing a line with ${writer}"
		return
	fi
	wl=$(suggested_line "${writer}")
	rl=$(suggested_line "${reader}")
	if [ -z "${wl}" ] || [ -z "${rl}" ]; then
		fail "no suggested layout with ${writer} and ${reader}"
	elif [ "${wl}" = "${rl}" ]; then
		fail "${writer} and ${reader} share cache line ${wl} in the suggestion"
	fi
}

echo "lockshare: the lock and the fields its line shares with the reader"
type=rq
if record_report lockshare; then
	grep -q "lock .* write-hot\|lock .* shared-written" "${result}" ||
		fail "the lock is not classified as written"
	for f in clock flags; do
		check_separated lock $f
	done
	change=$(predicted_change)
	if [ -z "${change}" ] || ! awk -v c="${change}" 'BEGIN { exit !(c < -50) }'; then
		fail "predicted cost change ${change}%, expected a large reduction"
	fi
fi

echo "refshare: the reference count and the fields read under it"
type=dst
if record_report refshare; then
	check_separated __refcnt lwtstate
	rl=$(suggested_line __refcnt)
	for f in dev ops flags header_len; do
		[ "$(suggested_line $f)" != "${rl}" ] ||
			fail "read-mostly $f shares the line of __refcnt in the suggestion"
	done
	# every call stores to __use, but time based samples seldom catch it
	grep -q "^  __use .* shared-written" "${result}" ||
		fail "__use, written by every refshare_use(), is not shared-written"
	[ "$(suggested_line __use)" != "$(suggested_line dev)" ] ||
		fail "__use shares the line of the readers' dev in the suggestion"
fi

echo "lockshare in a static variable: attributed by address too"
type=rq
if record_report lockshare global; then
	check_separated lock clock
	perf affinity report -i "${perfdata}" --stats > "${result}" 2>&1
	by_addr=$(awk -F: '/by the data address/ { print $2 + 0 }' "${result}")
	other=$(awk -F: '/both ways, other field/ { print $2 + 0 }' "${result}")
	[ "${by_addr:-0}" -gt 0 ] || fail "no access attributed by the variable's address"
	[ "${other:-1}" -eq 0 ] || fail "${other} accesses attributed to another field by address"
fi

cleanup
exit $err
