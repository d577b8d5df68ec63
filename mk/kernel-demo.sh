#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# perf affinity on real kernel structs: fetch a vmlinux with DWARF once
# (mk/fetch-vmlinux.sh), print struct rq as perf affinity lays it out, at
# 64 and 128 byte cache lines, and check the layouts of five kernel structs
# against pahole's.
set -e

sh "$TOP/mk/fetch-vmlinux.sh"
vmlinux="$BUILD/kernel/vmlinux"
PATH="$BUILD:$PATH"
PERF_PAGER=cat
export PATH PERF_PAGER

echo
echo "######## perf affinity layout build/kernel/vmlinux rq"
perf affinity layout "$vmlinux" rq
echo
echo "######## the same at 128 byte cache lines (POWER): where the lines end"
perf affinity layout --cacheline-size 128 "$vmlinux" rq | grep -- "--- cacheline\|size:"
echo
echo "######## the layouts of rq, cfs_rq, task_struct, sk_buff, dst_entry against pahole -C"
cd "$TREE/tools/perf"
AFFINITY_VMLINUX="$vmlinux" bash tests/shell/affinity_kernel_layout.sh
echo
echo "######## perf bench affinity kernel-synth: PEBS-shaped samples of struct rq, 4 CPUs"
data="$BUILD/kernel/perf.data"
perf bench affinity kernel-synth -k "$vmlinux" -o "$data" -c 4
echo
echo "######## perf affinity report -k build/kernel/vmlinux --stats"
perf affinity report -i "$data" -k "$vmlinux" --stats 2>&1 | sed -n '/Field Attribution/,/Not attributed/p'
for size in 64 128; do
	echo
	echo "######## perf affinity report -k build/kernel/vmlinux --cacheline-size $size (struct rq)"
	perf affinity report -i "$data" -k "$vmlinux" --cacheline-size $size --stdio 2>&1 |
		sed -n '/False sharing/,/Clusters/p; /Predicted cost/,/full reorder/p'
done
