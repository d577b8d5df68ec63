#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The main job: record the bundled false sharing workloads with whatever
# source this machine has, and print perf affinity's report and advice.
#
#   lockshare  the perf c2c lock/reader example: a lock word written on one
#              CPU in the cache line of the fields another CPU reads
#   refshare   a reference count next to read-mostly fields, laid out like
#              struct dst_entry before its false sharing fix
#
# Both are built into perf ('perf test -w'), from
# tools/perf/tests/workloads/falseshare.c.  The recordings stay in
# build/demo/ for 'perf affinity report -i' (the TUI, --json, ...).
set -e

out="$BUILD/demo"
mkdir -p "$out"
PATH="$BUILD:$PATH"
PERF_PAGER=cat
export PATH PERF_PAGER

for w in lockshare refshare; do
	echo
	echo "######## $w: perf affinity record -o build/demo/$w.data -- perf test -w $w 2000"
	perf affinity record -o "$out/$w.data" -- perf test -w "$w" 2000 2>&1 |
		grep -v '^\[ perf record: Woken up'
	echo
	echo "######## $w: perf affinity report --stdio -i build/demo/$w.data"
	perf affinity report --stdio -i "$out/$w.data"
done

# a second recording of lockshare, and one report of both: the counts of
# both, narrower intervals, their threads told apart (tid@recording)
echo
echo "######## lockshare again: perf affinity record -o build/demo/lockshare-2.data -- perf test -w lockshare 2000"
perf affinity record -o "$out/lockshare-2.data" -- perf test -w lockshare 2000 2>&1 |
	grep -v '^\[ perf record: Woken up'
echo
echo "######## both in one report: perf affinity report --stdio -i build/demo/lockshare.data -i build/demo/lockshare-2.data"
perf affinity report --stdio -i "$out/lockshare.data" -i "$out/lockshare-2.data"
echo
echo "The recordings are in $out: try 'build/perf affinity report -i $out/lockshare.data'"
