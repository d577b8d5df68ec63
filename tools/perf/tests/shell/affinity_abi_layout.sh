#!/bin/bash
# perf affinity report: no advice for a layout assembly or user space has
# SPDX-License-Identifier: GPL-2.0
#
# A struct declared in an arch's asm headers (or a uapi header) has offsets
# that assembly (asm-offsets) or user space uses: struct pt_regs is the
# kernel entry code's frame.  Its false sharing is reported, its layout is
# kept as it is, and the report says why, in the text and the JSON.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
affinity__pin

if [ "$(uname -m)" != x86_64 ] || [ "$(nproc)" -lt 2 ] || ! command -v cc > /dev/null; then
	affinity__skip "needs software address sampling (x86-64), two CPUs and cc"
fi

mkdir -p "${tmpdir}/arch/x86/include/asm"
cat > "${tmpdir}/arch/x86/include/asm/abiframe.h" <<'HDR'
/* the lock, written by one thread, beside what another reads */
struct abiframe {
	long lock;
	long state;
	long reader1;
	long reader2;
	long cold[5];
};
HDR
cat > "${tmpdir}/abiframe.c" <<'PROG'
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <asm/abiframe.h>

static struct abiframe *f;
static volatile int stop;

static void *reader(void *arg)
{
	long sum = 0;

	(void)arg;
	while (!stop)
		sum += f->reader1 + f->reader2;
	return (void *)sum;
}

int main(void)
{
	struct timespec ts;
	pthread_t t;
	double end;

	f = calloc(1, sizeof(*f));
	clock_gettime(CLOCK_MONOTONIC, &ts);
	end = ts.tv_sec + ts.tv_nsec / 1e9 + 1.0;
	pthread_create(&t, NULL, reader, NULL);
	do {
		for (int i = 0; i < 100000; i++)
			__atomic_fetch_add(&f->lock, 1, __ATOMIC_RELAXED);
		clock_gettime(CLOCK_MONOTONIC, &ts);
	} while (ts.tv_sec + ts.tv_nsec / 1e9 < end);
	stop = 1;
	pthread_join(t, NULL);
	printf("%ld\n", f->lock);
	return 0;
}
PROG
cc -O2 -g -pthread -include "${tmpdir}/pin.h" -I"${tmpdir}/arch/x86/include" -o "${tmpdir}/abiframe" \
	"${tmpdir}/abiframe.c" || affinity__skip "cc failed"
perf affinity record -o "${tmpdir}/perf.data" -- "${tmpdir}/abiframe" > /dev/null 2>&1 ||
	{ fail "record"; cleanup; exit 1; }
perf affinity report -i "${tmpdir}/perf.data" -T abiframe --stdio > "${tmpdir}/report" 2>&1 ||
	fail "report: exit $?"
perf affinity report -i "${tmpdir}/perf.data" -T abiframe --json - > "${tmpdir}/json" 2>&1 ||
	fail "report --json: exit $?"
sed -n '/^  Advice/,/^$/p' "${tmpdir}/report"
grep -q "struct abiframe: 72 bytes" "${tmpdir}/report" || fail "no struct abiframe"
grep -q "^  Advice: none" "${tmpdir}/report" || fail "a layout of an arch header's struct is advised"
grep -q "^  kept as it is: declared in .*/arch/x86/include/asm/abiframe.h, where assembly or user space has its offsets$" \
	"${tmpdir}/report" || fail "the report does not say why the layout is kept"
python3 - "${tmpdir}/json" <<'PY' || fail "the JSON advises a layout, or does not say why"
import json, sys
t = [t for t in json.load(open(sys.argv[1]))["types"] if t["name"] == "struct abiframe"][0]
a = t["advice"]
why = {k["why"] for k in a["kept"]}
print("advice:", a["kind"], "kept:", why, "changed:", t["changed"])
sys.exit(a["kind"] != "none" or t["changed"] or why != {"abi"})
PY
cleanup
exit ${err}
