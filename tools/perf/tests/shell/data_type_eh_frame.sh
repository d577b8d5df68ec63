#!/bin/bash
# perf data-type profiling of a local variable by the unwind tables' CFA
# SPDX-License-Identifier: GPL-2.0
#
# gcc -O2 gives a function the CFA as its frame base (DW_OP_call_frame_cfa)
# and locals at offsets from it, and on x86-64 describes the CFA in the
# unwind tables (.eh_frame) only, not in .debug_frame.  The CFA was looked
# up in .debug_frame alone: no local of such a function had a type.  A
# struct on main's stack that another thread reads is stored to through
# %rsp; a uprobe on the store samples it exactly.

err=0
perfdata=$(mktemp /tmp/__perf_test.perf.data.XXXXX)
result=$(mktemp /tmp/__perf_test.result.XXXXX)
bindir=$(mktemp -d /tmp/__perf_test.bin.XXXXX)
probes=""

cleanup() {
	[ -n "${probes}" ] && perf probe -q -d 'probe_local:*' > /dev/null 2>&1
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

perf check feature -q dwarf_getlocations || skip "perf built without DWARF location support"
command -v cc > /dev/null || skip "no C compiler"

cat > "${bindir}/local.c" <<'PROG'
#include <pthread.h>

struct stats { long hits; long misses; };
static volatile int stop;

static void *reader(void *arg)
{
	struct stats *s = arg;
	long n = 0;

	while (!stop)
		n += __atomic_load_n(&s->misses, __ATOMIC_RELAXED);
	return (void *)n;
}

int main(void)
{
	struct stats s = { 0, 0 };
	pthread_t t;

	pthread_create(&t, NULL, reader, &s);
	for (long i = 0; i < 20000; i++)
		__atomic_store_n(&s.hits, s.hits + 1, __ATOMIC_RELAXED);
	stop = 1;
	pthread_join(t, NULL);
	return s.hits != 20000;
}
PROG
cc -g -O2 -pthread -o "${bindir}/local" "${bindir}/local.c" || {
	echo "[Fail] cc"
	cleanup
	exit 1
}
readelf -S "${bindir}/local" | grep -q '\.debug_frame' && skip "the compiler emits .debug_frame"
# main's store to s.hits, relative to %rsp
off=$(objdump -d --no-show-raw-insn "${bindir}/local" |
	awk '/<main>:/ { f = 1; next } f && /^$/ { exit }
	     f && /mov +%r[a-z0-9]+,0x[0-9a-f]+\(%rsp\)/ { sub(":", "", $1); print $1; exit }')
[ -n "${off}" ] || skip "the compiler stores to the local otherwise"
probes=1
perf probe -q -x "${bindir}/local" -a "local_store=0x${off}" > /dev/null 2>&1 || skip "no uprobes"
if ! perf record -e probe_local:local_store -o "${perfdata}" -- "${bindir}/local" \
		> /dev/null 2>&1; then
	echo "[Fail] perf record"
	cleanup
	exit 1
fi

echo "perf report -s sym,type of main's store at 0x${off}"
perf report -i "${perfdata}" -s sym,type --stdio > "${result}" 2>&1
grep 'main' "${result}"
if ! grep -q '\] main .* struct stats$' "${result}"; then
	echo "[Fail] the local struct on main's stack is not typed"
	err=1
fi

cleanup
exit $err
