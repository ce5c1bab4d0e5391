#!/usr/bin/env bash
# ci-step: libFuzzer + ASan + UBSan: fuzz the dispatch layer for 60 seconds and the DxDispatch model loader for 30
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

# The DxDispatch model loader of `dmlref run` (fuzz/fuzz_dxdispatch_model.cpp), from its own seeds
# (fuzz/corpus_dxdispatch/) with the format's words as a dictionary, for DMLREF_FUZZ_DXDISPATCH_SECONDS.
dx_seconds=${DMLREF_FUZZ_DXDISPATCH_SECONDS:-30}
dx_fuzzer=build/fuzz/fuzz/dmlref_fuzz_dxdispatch_model
dx_scratch=build/fuzz/scratch-corpus-dxdispatch
rm -rf "$dx_scratch"
mkdir -p "$dx_scratch"
echo "DxDispatch seed corpus: $(find fuzz/corpus_dxdispatch -type f | wc -l) inputs"
status=0
"$dx_fuzzer" -max_total_time="$dx_seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
  -dict=fuzz/dxdispatch.dict -print_final_stats=1 -artifact_prefix="$artifacts/" "$dx_scratch" fuzz/corpus_dxdispatch || status=$?
if ((status != 0)); then
  echo "the DxDispatch loader fuzzer found a problem (exit $status); the input is in $artifacts/:" >&2
  ls -l "$artifacts" >&2
  echo "replay: $dx_fuzzer <input>   (the finding and the input are printed)" >&2
  exit 1
fi
