#!/bin/bash
# perf affinity report survives mutated perf.data
# SPDX-License-Identifier: GPL-2.0
#
# A bounded run of the perf.data fuzzer (lib/affinity_data_fuzz.py): 300 damaged
# copies of a synthesized perf.data, each reported with --stdio, --json and
# --heatmap at once.  An error exit is fine; a signal, a sanitizer report
# or a hang is not.  The seed is written without address space layout
# randomization, so that it and the 300 inputs are the same in every run
# of a build of perf: the test passes or fails the same way every time.
# Recorded seeds, which differ from run to run, are for the longer
# campaigns of 'make fuzz' (FUZZING.md): once in 20 runs one of them found
# a crash here, and a test must not depend on the run.

shelldir=$(dirname "$0")
# shellcheck source=lib/affinity.sh
. "${shelldir}/lib/affinity.sh"
work="${tmpdir}"

[ "$(uname -m)" = x86_64 ] || affinity__skip "software address sampling is x86-64 only"
command -v python3 > /dev/null || affinity__skip "no python3"
command -v setarch > /dev/null || affinity__skip "no setarch"

mkdir -p "${work}/seeds"
if ! setarch "$(uname -m)" -R perf bench affinity synth -n 500 -I 16 \
		-o "${work}/seeds/synth.data" > /dev/null 2>&1; then
	echo "[Fail] could not make the seed"
	cleanup
	exit 1
fi

err=0
python3 "${shelldir}/lib/affinity_data_fuzz.py" --perf perf --seeds "${work}/seeds" \
	--only synth -n 300 -j 2 -t 60 --seed smoke -o "${work}/out" || err=1
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
