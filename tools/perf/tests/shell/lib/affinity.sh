# SPDX-License-Identifier: GPL-2.0
# Sourced by perf affinity shell tests: a temporary directory, ${tmpdir},
# removed at exit, and the fail and skip of a test.

err=0
tmpdir=$(mktemp -d /tmp/__perf_test.affinity.XXXXX)

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

fail() {
	echo "[Fail] $1"
	err=1
}

# affinity__skip REASON: the test cannot run here
affinity__skip() {
	echo "[Skip] $1"
	cleanup
	exit 2
}

# affinity__valid report|check|diff FILE: FILE is the JSON of that command as
# its schema (lib/affinity_*schema.json) says; true without python3's
# jsonschema, which affinity_json.sh needs
affinity__valid() {
	local schema="${shelldir}/lib/affinity_$1_schema.json"

	[ "$1" = report ] && schema="${shelldir}/lib/affinity_schema.json"
	python3 - "${schema}" "$2" <<'PY'
import json, sys
try:
	import jsonschema
except ImportError:
	sys.exit(0)
try:
	jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])),
			    cls=jsonschema.Draft202012Validator)
except (ValueError, jsonschema.ValidationError) as e:
	print(str(e).splitlines()[0])
	sys.exit(1)
PY
}

# affinity__pin: ${tmpdir}/pin.h, for 'cc -include': each thread a program
# creates goes to a CPU of its own, as far as there are, and its main
# thread to the first.  A busy machine may otherwise run the threads on one
# CPU, where no cache line moves and the false sharing a test plants is gone.
affinity__pin() {
	cat > "${tmpdir}/pin.h" <<'EOC'
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <sched.h>

static cpu_set_t pin_allowed;
static int pin_nr = -1;

static inline void pin_thread(pthread_t t, int idx)
{
	int cpu, n = 0, nr = CPU_COUNT(&pin_allowed);
	cpu_set_t one;

	for (cpu = 0; nr > 1 && cpu < CPU_SETSIZE; cpu++) {
		if (CPU_ISSET(cpu, &pin_allowed) && n++ == idx % nr) {
			CPU_ZERO(&one);
			CPU_SET(cpu, &one);
			pthread_setaffinity_np(t, sizeof(one), &one);
			return;
		}
	}
}

static inline int pin_create(pthread_t *t, const pthread_attr_t *attr,
			     void *(*fn)(void *), void *arg)
{
	int err;

	if (pin_nr < 0 && sched_getaffinity(0, sizeof(pin_allowed), &pin_allowed))
		CPU_ZERO(&pin_allowed);
	if (pin_nr < 0)
		pin_nr = 0;
	err = pthread_create(t, attr, fn, arg);
	if (!err) {
		pin_thread(*t, ++pin_nr);
		if (pin_nr == 1)
			pin_thread(pthread_self(), 0);
	}
	return err;
}
#define pthread_create pin_create
EOC
}

# affinity__cxx_in_place NAME MEMBERS: ${tmpdir}/NAME.cc with the lines of
# MEMBERS in place of those between its '// members' and '// end of members',
# built -Werror as ${tmpdir}/NAME-emit and recorded to ${tmpdir}/emit.data;
# 1 if it does not compile, 2 if the record fails
affinity__cxx_in_place() {
	sed -e '/\/\/ members$/r '"$2" -e '/\/\/ members$/,/\/\/ end of members$/{/\/\/ members$/!d}' \
		"${tmpdir}/$1.cc" > "${tmpdir}/$1-emit.cc"
	c++ -std=c++17 -Werror -Wall -g -O2 -pthread -o "${tmpdir}/$1-emit" "${tmpdir}/$1-emit.cc" ||
		return 1
	perf affinity record -o "${tmpdir}/emit.data" -- "${tmpdir}/$1-emit" > /dev/null 2>&1 ||
		return 2
}

# affinity__same_as_pahole BINARY TYPE LABEL: perf affinity layout of TYPE
# against ${tmpdir}/pahole (pahole -C's): member by member, then byte for byte
affinity__same_as_pahole() {
	if ! perf affinity layout "$1" "$2" > "${tmpdir}/ours" 2>&1; then
		fail "perf affinity layout $2"
		return
	fi
	echo -n "$3: "
	python3 "${shelldir}/lib/affinity_pahole_cmp.py" "${tmpdir}/pahole" "${tmpdir}/ours" ||
		fail "$3 is not laid out as pahole lays it out"
	if ! diff -u "${tmpdir}/pahole" "${tmpdir}/ours" > "${tmpdir}/diff"; then
		head -20 "${tmpdir}/diff"
		fail "$3 is not printed byte for byte as pahole prints it"
	fi
}

# affinity__fixtures NAME: unpack the recordings of lib/NAME.tar.xz.b64 (with
# their binaries) into ${tmpdir}, reported there with --symfs: no build ID
# cache has the binaries.  Skips without python3 or xz, fails if it cannot.
affinity__fixtures() {
	if ! command -v python3 > /dev/null || ! command -v xz > /dev/null; then
		affinity__skip "needs python3 and xz"
	fi
	if ! base64 -d "${shelldir}/lib/$1.tar.xz.b64" | tar xJf - -C "${tmpdir}"; then
		fail "cannot unpack the recordings"
		cleanup
		exit 1
	fi
	export HOME="${tmpdir}" PERF_BUILDID_DIR="${tmpdir}/.debug"
}
