#!/usr/bin/env bash
# ci-step: clang++ 14, AddressSanitizer + UndefinedBehaviorSanitizer (no recovery): build and run all the tests
#
# The `asan-ubsan` preset builds every test and example (not the tests/noexcept programs, which
# `dev` runs) with -fsanitize=address,undefined -fno-sanitize-recover=all, and its test preset
# runs them with LeakSanitizer on: any report ends the test process with a failure, so ctest
# fails. The test executable runs as six gtest shards, not a process per test
# (DMLREF_TEST_PROCESS_PER_TEST=OFF): starting a sanitized process costs ~0.5 s, a thousand of them
# took five minutes. The shards run with small caches (DMLREF_CACHE_SIZES, so that small tensors
# cross the kernels' thresholds), copy_run's vector loop for runs in memcpy's slow window
# (DMLREF_SLOW_ALIASED_MEMCPY=1) and a quarter of the random cases (DMLREF_TEST_SCALE=0.25: the
# oracle at -O0 under ASan is ~40x slower), and without the TBB and OpenMP adapters' big cases
# (*ExecutorOp.*, 150 s here: the same kernels as the Threads tests, which run; the tsan step runs
# the TBB adapter's tests).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

log=build/asan-ubsan-ctest.log
mkdir -p build
cmake --workflow --preset asan-ubsan 2>&1 | tee "$log"
# Belt and braces: a report that somehow did not fail its test still fails CI.
if grep -nE 'ERROR: (Address|Leak)Sanitizer|runtime error:|SUMMARY: (Address|UndefinedBehavior|Leak)Sanitizer' "$log"; then
  echo "sanitizer report in the test output (see above)" >&2
  exit 1
fi
