# SPDX-License-Identifier: GPL-2.0
# Sourced by mk/run-tests.sh and mk/fuzz.sh for the sanitizer build
# (SANITIZE=1): the options its perf runs with, unless already set.
#
# abort_on_error: a sanitizer report ends perf with SIGABRT, so a test that
# checks for death by a signal sees it, as with a crash of the normal build.
# detect_leaks=0: perf itself leaks at exit on paths the suite runs (stock
# 'perf report -s type' 4 MB, header error paths on damaged files), which
# fails 3 tests; perf affinity on good recordings shows none (FUZZING.md).
: "${ASAN_OPTIONS:=abort_on_error=1:detect_leaks=0:allocator_may_return_null=1}"
: "${UBSAN_OPTIONS:=abort_on_error=1:halt_on_error=1:print_stacktrace=1}"
export ASAN_OPTIONS UBSAN_OPTIONS
