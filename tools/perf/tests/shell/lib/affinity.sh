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
