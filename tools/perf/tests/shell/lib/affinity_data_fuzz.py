#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The perf.data fuzzer (perf_data_fuzz.py) on perf affinity report.

Every damaged input is reported with --stdio, --json and --heatmap at
once; the seeds are two live recordings of false sharing workloads and a
synthesized one; a crash whose top frame is perf affinity's own code is
counted as its.  Takes perf_data_fuzz.py's options.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perf_data_fuzz import main  # noqa: E402

AFFINITY = {
    "cmd": "affinity report -i {input} --stdio --json {json} --heatmap {svg}",
    "ours": r"^fa_|util/affinity/|builtin-affinity|browsers/affinity|bench/affinity",
    "seeds": [
        ("lockshare", ["affinity", "record", "--sw", "-o", "{out}", "--",
                       "{perf}", "test", "-w", "lockshare", "300"]),
        ("refshare", ["affinity", "record", "--sw", "-o", "{out}", "--",
                      "{perf}", "test", "-w", "refshare", "300"]),
        ("synth", ["bench", "affinity", "synth", "-n", "500", "-I", "16", "-o", "{out}"]),
    ],
}

if __name__ == "__main__":
    sys.exit(main(AFFINITY))
