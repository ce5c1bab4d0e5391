#!/usr/bin/env bash
# ci-step: libFuzzer + ASan + UBSan: fuzz the dispatch layer for 60 seconds
#
# Builds fuzz/fuzz_dispatch.cpp (the `fuzz` preset) and runs it from the committed seed corpus,
# fuzz/corpus/, for DMLREF_FUZZ_SECONDS (default 60). New inputs go to a scratch directory, so the
# committed corpus stays as it is. Any crash, sanitizer report, disagreement with the oracle,
# input slower than 10 s or use of more than 2 GiB is a finding: the step fails and prints the
# input (also kept in build/fuzz/artifacts/). To fuzz longer, see README.md, "Fuzzing".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

seconds=${DMLREF_FUZZ_SECONDS:-60}
cmake --workflow --preset fuzz

fuzzer=build/fuzz/fuzz/dmlref_fuzz_dispatch
artifacts=build/fuzz/artifacts
scratch=build/fuzz/scratch-corpus
rm -rf "$scratch"
mkdir -p "$artifacts" "$scratch"
echo "seed corpus: $(find fuzz/corpus -type f | wc -l) inputs"
status=0
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=1024 \
  -print_final_stats=1 -artifact_prefix="$artifacts/" "$scratch" fuzz/corpus || status=$?
if ((status != 0)); then
  echo "the fuzzer found a problem (exit $status); the input is in $artifacts/:" >&2
  ls -l "$artifacts" >&2
  echo "replay: $fuzzer <input>   (DMLREF_FUZZ_VERBOSE=1 prints the decoded call)" >&2
  exit 1
fi
