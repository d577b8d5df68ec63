#!/bin/bash
# perf test runs every case of a suite selected by its description
# SPDX-License-Identifier: GPL-2.0
#
# The cases of 'DSO data tests' do not repeat the suite's description: when
# the suite is selected by description, all of them must run, as they do
# when it is selected by number.

nr_cases=$(perf test list 'DSO data tests' 2>/dev/null | grep -c '^ *[0-9]*\.[0-9]*:')
if [ "${nr_cases}" -lt 2 ]; then
	echo "[Skip] no multi-case 'DSO data tests' suite"
	exit 2
fi

nr_run=$(perf test 'DSO data tests' 2>&1 |
	 grep -c '^ *[0-9]*\.[0-9]*: .*: \(Ok\|FAILED!\|Skip.*\)$')
if [ "${nr_run}" -ne "${nr_cases}" ]; then
	echo "[Fail] 'perf test \"DSO data tests\"' ran ${nr_run} of ${nr_cases} test cases"
	exit 1
fi
exit 0
