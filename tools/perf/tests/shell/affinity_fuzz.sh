#!/bin/bash
# perf affinity report survives mutated perf.data
# SPDX-License-Identifier: GPL-2.0
#
# A bounded run of the perf.data fuzzer (lib/perf_data_fuzz.py): 300 damaged
# copies of a synthesized and a recorded perf.data, each reported with
# --stdio, --json and --heatmap at once.  An error exit is fine; a signal,
# a sanitizer report or a hang is not.  Longer campaigns: FUZZING.md.

shelldir=$(dirname "$0")
work=$(mktemp -d /tmp/__perf_test.fuzz.XXXXX)

cleanup() {
	rm -rf "${work}"
	trap - EXIT TERM INT
}

trap_cleanup() {
	echo "Unexpected signal in ${FUNCNAME[1]}"
	cleanup
	exit 1
}
trap trap_cleanup EXIT TERM INT

if [ "$(uname -m)" != x86_64 ]; then
	echo "[Skip] software address sampling is x86-64 only"
	cleanup
	exit 2
fi
command -v python3 > /dev/null || { echo "[Skip] no python3"; cleanup; exit 2; }

mkdir -p "${work}/seeds"
if ! perf bench affinity synth -n 500 -I 16 -o "${work}/seeds/synth.data" > /dev/null 2>&1 ||
   ! perf affinity record --sw -o "${work}/seeds/lockshare.data" -- \
		perf test -w lockshare 100 > /dev/null 2>&1; then
	echo "[Fail] could not make the seed recordings"
	cleanup
	exit 1
fi

# the synthesized file reports in a tenth of the time: most inputs
err=0
python3 "${shelldir}/lib/perf_data_fuzz.py" --perf perf --seeds "${work}/seeds" \
	--only synth=15,lockshare=1 -n 300 -j 2 -t 60 --seed smoke -o "${work}/out" || err=1
if [ ${err} -ne 0 ]; then
	for f in "${work}"/out/*es/*/*.txt; do
		[ -f "${f}" ] && head -12 "${f}"
	done
	keep=$(mktemp -d /tmp/perf-affinity-fuzz.XXXXX)
	mv "${work}/out" "${work}/seeds" "${keep}/"
	echo "[Fail] perf affinity report crashed or hung on a mutated perf.data (inputs in ${keep})"
fi

cleanup
exit ${err}
