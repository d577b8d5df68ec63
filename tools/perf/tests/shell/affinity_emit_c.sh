#!/bin/bash
# perf affinity report --emit-c compiles in place of typedef'd structs
# SPDX-License-Identifier: GPL-2.0
#
# A lock thread and a reader thread on a global struct whose lock shares
# a cache line with the read fields, declared three ways: 'typedef struct
# _buf {...} buf;', 'typedef struct {...} buf;' and 'struct _buf {...};'
# with a separate 'typedef struct _buf buf;'.  The C that --emit-c prints
# for the suggested layout replaces the declaration in the source, which
# must compile with -Werror and run, with the read fields moved off the
# lock's line.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
perfdata="${tmpdir}/perf.data"
result="${tmpdir}/result"

if [ "$(uname -m)" != x86_64 ] || ! command -v cc > /dev/null; then
	affinity__skip "needs software address sampling (x86-64) and a C compiler"
fi

# program DECLARATION: the program with the struct declared so, marked
program() {
	cat <<EOC
#include <pthread.h>
#include <stddef.h>
#include <time.h>
/* BEGIN */
$1
/* END */
static buf b;
static volatile int stop;

static void *locker(void *arg)
{
	while (!stop) {
		while (__atomic_exchange_n(&b.lock0, 1, __ATOMIC_ACQUIRE))
			;
		b.held++;
		__atomic_store_n(&b.lock0, 0, __ATOMIC_RELEASE);
	}
	return arg;
}

static void *reader(void *arg)
{
	long s = 0;

	while (!stop)
		s += *(volatile long *)&b.reader1 + *(volatile long *)&b.reader2;
	return (void *)s;
}

int main(void)
{
	struct timespec ts = { .tv_nsec = 700000000 };
	pthread_t t[2];

	pthread_create(&t[0], NULL, locker, NULL);
	pthread_create(&t[1], NULL, reader, NULL);
	nanosleep(&ts, NULL);
	stop = 1;
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	return offsetof(buf, reader1) / 64 == offsetof(buf, lock0) / 64;
}
EOC
}

fields="long lock0; long held; long reader1; long reader2;"
affinity__pin
n=0
for decl in "typedef struct _buf { ${fields} } buf;" \
	    "typedef struct { ${fields} } buf;" \
	    "struct _buf { ${fields} };
typedef struct _buf buf;"; do
	n=$((n + 1))
	echo "${n}: $(echo "${decl}" | sed "s/${fields}/.../" | tr '\n' ' ')"
	program "${decl}" > "${tmpdir}/p${n}.c"
	if ! cc -O2 -g -pthread -include "${tmpdir}/pin.h" -o "${tmpdir}/p${n}" "${tmpdir}/p${n}.c"; then
		fail "${n}: the program does not compile"
		continue
	fi
	if ! perf affinity record -o "${perfdata}" -- "${tmpdir}/p${n}" > /dev/null 2>&1 &&
	   [ ! -s "${perfdata}" ]; then
		fail "${n}: perf affinity record"
		continue
	fi
	# data-type profiling names it by its typedef, as the code does
	perf affinity report -i "${perfdata}" --stdio -T buf --emit-c > "${result}" 2>&1
	awk '/^  As C:/ { c = 1; next } c && /^(typedef |struct )/ { p = 1 } p { print }
	     p && /^}/ { exit }' "${result}" > "${tmpdir}/c${n}"
	if [ ! -s "${tmpdir}/c${n}" ]; then
		fail "${n}: no C of a suggested layout: $(grep -E 'Advice|Suggested' "${result}")"
		continue
	fi
	# the declaration, replaced by the C printed
	awk -v c="${tmpdir}/c${n}" '
		/^\/\* BEGIN \*\/$/ { print; while ((getline l < c) > 0) print l; skip = 1; next }
		/^\/\* END \*\/$/ { skip = 0 }
		!skip { print }' "${tmpdir}/p${n}.c" > "${tmpdir}/q${n}.c"
	# a separate typedef stays: C11 allows declaring it again
	if [ ${n} -eq 3 ]; then
		echo "typedef struct _buf buf;" > "${tmpdir}/td"
		sed -i "/^\/\* END \*\/$/r ${tmpdir}/td" "${tmpdir}/q${n}.c"
	fi
	if ! cc -std=gnu11 -O2 -Wall -Werror -pthread -o "${tmpdir}/q${n}" "${tmpdir}/q${n}.c" \
			2> "${result}"; then
		fail "${n}: the C of --emit-c does not compile in place: $(head -3 "${result}")"
		continue
	fi
	"${tmpdir}/q${n}" || fail "${n}: the read fields are still on the lock's line"
done

cleanup
exit ${err}
