#!/bin/bash
# perf data-type profiling of the memory operand of div
# SPDX-License-Identifier: GPL-2.0
#
# x86 div, idiv and mul take one operand, which can be memory: rigtorp's
# MPMCQueue computes a slot's index as the ticket modulo its capacity,
# 'divq 0x20(%rsp)' on the queue main holds.  The annotate tables had no
# such instruction: its operand was not parsed and its samples had no
# type, so the producer never read the capacity.  A uprobe on the div
# samples it exactly; its samples are typed as main's struct.

err=0
perfdata=$(mktemp /tmp/__perf_test.perf.data.XXXXX)
result=$(mktemp /tmp/__perf_test.result.XXXXX)
bindir=$(mktemp -d /tmp/__perf_test.bin.XXXXX)
probes=""

cleanup() {
	[ -n "${probes}" ] && perf probe -q -d 'probe_pair:*' > /dev/null 2>&1
	rm -f "${perfdata}" "${perfdata}.old" "${result}"
	rm -rf "${bindir}"
	trap - EXIT TERM INT
}

trap_cleanup() {
	echo "Unexpected signal in ${FUNCNAME[1]}"
	cleanup
	exit 1
}
trap trap_cleanup EXIT TERM INT

skip() {
	echo "[Skip] $1"
	cleanup
	exit 2
}

[ "$(uname -m)" = x86_64 ] || skip "x86 instructions"
perf check feature -q dwarf_getlocations || skip "perf built without DWARF location support"
command -v cc > /dev/null || skip "no C compiler"

cat > "${bindir}/pair.c" <<'PROG'
struct pair {
	unsigned long n;
	unsigned long d;
};

int main(int argc, char **argv)
{
	struct pair p = { 1000, 7 + (unsigned long)argc };
	unsigned long q = 0, r, n = 20000UL * argc;

	(void)argv;
	for (unsigned long i = 0; i < n; i++) {
		/* the divisor straight from the local: divq -0x10(%rsp) */
		asm volatile("divq %2" : "=a"(q), "=d"(r) : "m"(p.d), "a"(i), "d"(0UL));
	}
	return q == 42;
}
PROG
cc -g -O2 -o "${bindir}/pair" "${bindir}/pair.c" || {
	echo "[Fail] cc"
	cleanup
	exit 1
}
off=$(objdump -d --no-show-raw-insn "${bindir}/pair" |
	awk '/<main>:/ { f = 1; next } f && /^$/ { exit }
	     f && /divq +-?0x[0-9a-f]+\(%rsp\)/ { sub(":", "", $1); print $1; exit }')
[ -n "${off}" ] || skip "the compiler divides by the local otherwise"
probes=1
perf probe -q -x "${bindir}/pair" -a "pair_div=0x${off}" > /dev/null 2>&1 || skip "no uprobes"
if ! perf record -e probe_pair:pair_div -o "${perfdata}" -- "${bindir}/pair" \
		> /dev/null 2>&1; then
	echo "[Fail] perf record"
	cleanup
	exit 1
fi

echo "perf report -s sym,type of main's divq at 0x${off}"
perf report -i "${perfdata}" -s sym,type --stdio > "${result}" 2>&1
grep 'main' "${result}"
if ! grep -q '\] main .* struct pair$' "${result}"; then
	echo "[Fail] the div's memory operand is not typed as main's struct"
	err=1
fi

cleanup
exit $err
