#!/bin/bash
# perf affinity report of code mapped again at the same address
# SPDX-License-Identifier: GPL-2.0
#
# The report resolves each (thread, instruction address) once and keeps
# the result until an event changes the maps.  A program that dlopen()s a
# library, runs it, dlclose()s it and dlopen()s another of the same size
# gets the second mapped where the first was: the same thread samples the
# same addresses in another DSO, whose code accesses another struct type.
# Both types must be reported (with the resolution kept past the MMAP
# event, every access went to the first).

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"

if [ "$(uname -m)" != x86_64 ] || ! command -v cc > /dev/null; then
	affinity__skip "needs software address sampling (x86-64) and a C compiler"
fi

cat > "${tmpdir}/lib.c" <<'EOC'
struct NAME {
	long	FIELD;
	long	other;
};

#define READ_ONCE(x)	(*(const volatile typeof(x) *)&(x))

__attribute__((noinline)) long lib_walk(struct NAME *p, long n)
{
	long v = 0;

	for (long i = 0; i < n; i++)
		v += READ_ONCE(p->FIELD);
	return v;
}
EOC
cat > "${tmpdir}/main.c" <<'EOC'
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/* run lib_walk() of the library at @path, print where it was */
static long run(const char *path, long n)
{
	long (*walk)(void *p, long n);
	void *h = dlopen(path, RTLD_NOW), *p = calloc(1, 64);
	long v;

	if (!h || !p) {
		fprintf(stderr, "%s\n", dlerror());
		exit(1);
	}
	walk = (long (*)(void *, long))dlsym(h, "lib_walk");
	printf("%p\n", (void *)walk);
	fflush(stdout);
	v = walk(p, n);
	dlclose(h);
	free(p);
	return v;
}

int main(int argc, char **argv)
{
	long n = 1000000000;

	return argc < 3 || (run(argv[1], n) + run(argv[2], n)) == 1;
}
EOC
if ! cc -O2 -g -shared -fPIC -DNAME=remap_alpha -DFIELD=alpha -o "${tmpdir}/liba.so" \
		"${tmpdir}/lib.c" ||
   ! cc -O2 -g -shared -fPIC -DNAME=remap_beta -DFIELD=beta -o "${tmpdir}/libb.so" \
		"${tmpdir}/lib.c" ||
   ! cc -O2 -g -o "${tmpdir}/main" "${tmpdir}/main.c" -ldl; then
	fail "cc"
	cleanup
	exit 1
fi

if ! perf affinity record -o "${tmpdir}/perf.data" -- "${tmpdir}/main" "${tmpdir}/liba.so" \
		"${tmpdir}/libb.so" > "${tmpdir}/where" 2> /dev/null; then
	fail "perf affinity record"
elif ! perf affinity report -i "${tmpdir}/perf.data" --stdio > "${tmpdir}/report" 2>&1; then
	fail "perf affinity report: $(head -1 "${tmpdir}/report")"
else
	[ "$(sort -u "${tmpdir}/where" | wc -l)" = 1 ] ||
		echo "(the libraries were mapped at different addresses: $(tr '\n' ' ' < "${tmpdir}/where"))"
	grep -q "^  struct remap_alpha " "${tmpdir}/report" || fail "struct remap_alpha not reported"
	grep -q "^  struct remap_beta " "${tmpdir}/report" ||
		fail "struct remap_beta, of the library mapped where the first was, not reported"
fi

cleanup
exit $err
