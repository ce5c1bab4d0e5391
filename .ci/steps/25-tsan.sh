#!/usr/bin/env bash
# ci-step: clang++ 14, ThreadSanitizer: the thread and executor tests
#
# The `tsan` preset builds the test executable from tests/kernels/test_threads.cpp and the oneTBB
# adapter's tests (tests/executors/test_tbb.cpp) alone, with -fsanitize=thread, and its test preset
# runs (GTEST_FILTER, six shards) the tests whose names contain "Thread" or "TbbExecutor"
# (ThreadsAndExecutorsMatchSequentialOracle for every operator: the default pool, a reversing
# executor and a thread-per-task executor; ScatterThreads; the TbbExecutor tests). Debian's libtbb
# is not instrumented: tests/executors/tsan_tbb.supp silences reports inside TBB itself, and a test
# checks that it silences no race of the tasks' own code.
# halt_on_error=1: the first report fails the test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

log=build/tsan-ctest.log
mkdir -p build
cmake --workflow --preset tsan 2>&1 | tee "$log"
if grep -nE 'WARNING: ThreadSanitizer|ERROR: ThreadSanitizer|SUMMARY: ThreadSanitizer' "$log"; then
  echo "ThreadSanitizer report in the test output (see above)" >&2
  exit 1
fi
