#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Fuzz $PERF's 'perf affinity report' with mutated copies of small
# recordings (tools/perf/tests/shell/lib/affinity_data_fuzz.py, on
# perf_data_fuzz.py; FUZZING.md).
# The seeds are recorded with $PERF once, into $FUZZ_OUT/seeds.
#
#   sh mk/fuzz.sh -n 1000 -j 2 [perf_data_fuzz.py options]
set -eu
mk=$(dirname "$0")
. "$mk/env.sh"

. "$TOP/mk/sanitize-env.sh"
out=${FUZZ_OUT:-$BUILD/fuzz}
seeds=$out/seeds
set -- --seeds "$seeds" -o "$out" --progress 1000 "$@"
[ -f "$seeds/synth.data" ] || set -- --record-seeds "$seeds" "$@"
exec python3 "$TREE/tools/perf/tests/shell/lib/affinity_data_fuzz.py" --perf "$PERF" "$@"
