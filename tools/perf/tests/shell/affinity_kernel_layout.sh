#!/bin/bash
# perf affinity layout of kernel structs agrees with pahole
# SPDX-License-Identifier: GPL-2.0
#
# The layouts of struct rq, cfs_rq, task_struct, sk_buff and dst_entry of a
# real vmlinux: every member of the outermost struct (an anonymous union as
# one) at the offset and of the size pahole -C gives, the same size and
# cache lines, and the whole output byte for byte pahole's.  Needs a vmlinux with DWARF: AFFINITY_VMLINUX, or the one
# 'make kernel-demo' fetches into build/kernel.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"

vmlinux=${AFFINITY_VMLINUX:-${shelldir}/../../../../../kernel/vmlinux}
[ -r "${vmlinux}" ] || affinity__skip "no vmlinux with DWARF: run 'make kernel-demo', or set AFFINITY_VMLINUX"
command -v pahole > /dev/null || affinity__skip "no pahole (dwarves)"

for type in rq cfs_rq task_struct sk_buff dst_entry; do
	if ! pahole -C "${type}" "${vmlinux}" > "${tmpdir}/pahole" 2> /dev/null ||
	   [ ! -s "${tmpdir}/pahole" ]; then
		echo "struct ${type}: not in this vmlinux"
		continue
	fi
	affinity__same_as_pahole "${vmlinux}" "${type}" "struct ${type}"
done

cleanup
exit $err
