#!/bin/bash
# perf annotate names branch targets as objdump does
# SPDX-License-Identifier: GPL-2.0
#
# The LLVM disassembler named a branch target after the function the DWARF
# has there, and read all the debug info of the file for it (hundreds of
# MB for a vmlinux, in every data-type profile).  A call to the PLT came
# out as <_init+0x40>.  Targets are now named from perf's symbols, as
# objdump names them: <getpid@plt>, and <main+0x1c> for a jump in main;
# so is the global variable a RIP-relative load reads: <counter>.

err=0
tmpdir=$(mktemp -d /tmp/__perf_test.branch.XXXXX)

cleanup() {
	rm -rf "${tmpdir}"
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

command -v gcc > /dev/null || skip "no gcc"
cat > "${tmpdir}/prog.c" << 'PROG'
#include <unistd.h>

volatile long counter;

static inline __attribute__((always_inline)) int step(volatile int *a, long i)
{
	if (a[i & 7] > 3)
		return a[i & 7] - 1;
	return a[i & 7] + 2;
}

int main(void)
{
	volatile int a[8] = { 1, 5, 2, 7, 3, 9, 4, 6 };
	long s = 0;

	for (long i = 0; i < 200000000; i++) {
		s += step(a, i);
		counter += i & 1;
	}
	return s == getpid();
}
PROG
gcc -O2 -g -o "${tmpdir}/prog" "${tmpdir}/prog.c" || skip "gcc failed"

if ! perf record -e cpu-clock -o "${tmpdir}/perf.data" -- "${tmpdir}/prog" \
		> /dev/null 2>&1; then
	skip "perf record failed"
fi
perf annotate --stdio -i "${tmpdir}/perf.data" -s main > "${tmpdir}/annotate" 2>&1

# jumps to main's own code: "jne 0x1068 <main+0x28>", as objdump names them
start=$(nm "${tmpdir}/prog" | awk '$3 == "main" { print $1 }')
size=$(nm -S "${tmpdir}/prog" | awk '$4 == "main" { print $2 }')
[ -n "${start}" ] && [ -n "${size}" ] || skip "no symbol main"
if ! python3 - "${tmpdir}/annotate" "${start}" "${size}" << 'CHECK'; then
import re, sys
text = open(sys.argv[1]).read()
start, size = int(sys.argv[2], 16), int(sys.argv[3], 16)
jumps = re.findall(r"\bj[a-z]+\s+0x([0-9a-f]+) <([^>]+)>", text)
inside = [(int(a, 16), n) for a, n in jumps if start <= int(a, 16) < start + size]
bad = [(hex(a), n) for a, n in inside if n != "main+%#x" % (a - start) and
       not (a == start and n == "main")]
calls = re.findall(r"\bcall[a-z]*\s+0x[0-9a-f]+ <([^>]*)>", text)
data = re.findall(r"# 0x[0-9a-f]+ <([^>]*)>", text)
print("jumps within main:", len(inside), "misnamed:", bad[:5], "calls:", calls,
      "data:", data)
sys.exit(1 if not inside or bad or "getpid@plt" not in calls or "counter" not in data else 0)
CHECK
	echo "[Fail] branch targets not named as objdump names them"
	err=1
fi

cleanup
exit ${err}
