// Random cases (support/random_cases.hpp) as gtest checks: a case runs through a dmlref layer and
// is compared, whole buffers with guards and padding, with the oracle's run on an identical buffer.
// Used by random/test_random.cpp and by the kernels' tests (kernels/test_fast_paths.cpp,
// kernels/test_threads.cpp).
//
// Each test draws its case seeds from its own full name; DMLREF_TEST_SEED=<seed> replays one case
// in the test that printed it, DMLREF_TEST_SCALE=<k> runs k times as many cases.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/random_cases.hpp"

namespace random_checks {

namespace rc = random_cases;

/// The running test's seed stream, from its full name.
std::uint64_t stream();
/// How to replay this seed in the running test.
std::string replay(std::uint64_t seed);
/// A choice a test makes per case, from the seed's bits (so that DMLREF_TEST_SEED replays it
/// too): 0 <= choice(seed, k, n) < n.
std::uint64_t choice(std::uint64_t seed, int k, std::uint64_t n);

/// The ErrorCode dmlref must report when the oracle failed so.
dmlref::ErrorCode code_for(const rc::Run& oracle_run);

/// Runs the case through one dmlref layer and compares with the oracle's run: "" when they agree,
/// otherwise what differs (also: an input buffer modified, a failing call that wrote).
std::string mismatch(const rc::Case& c, const rc::Run& expected, rc::Layer layer, const dmlref::Options& options);

/// Collects the failures of one test's cases: the first few are reported in full, the rest only
/// counted (with their seeds), so that one bug neither floods the log nor hides the other cases.
class Failures {
 public:
  /// Adds what went wrong with the current case ("" = nothing).
  void add(const std::string& why);
  /// Ends a case.
  void end_case(const rc::Case& c);
  ~Failures();

 private:
  static constexpr int kReported = 4;
  int reported_cases_ = 0, cases_ = 0;
  bool case_failed_ = false;
  std::vector<std::string> failing_;
};

/// Calls check(case, failures) for `cases` random cases of `cfg` (the seeds of the running test),
/// with the case and its replay command in the trace.
template <class Check>
void for_each_case(rc::Op op, const rc::Config& cfg, int cases, Check&& check) {
  Failures failures;
  for (const std::uint64_t seed : rc::case_seeds(stream(), cases)) {
    const rc::Case c = rc::generate(op, seed, cfg);
    SCOPED_TRACE(c.describe() + "\n  " + replay(seed));
    check(c, failures);
    failures.end_case(c);
  }
}

/// `cases` random cases of `cfg` through both layers (native types for a fifth of them), oracle
/// policy error, no collision check. `short_buffers`: a tenth of the cases also get one tensor's
/// TotalTensorSizeInBytes one byte short, which must be buffer_too_small with nothing written.
void matches_oracle(rc::Op op, const rc::Config& cfg, int cases, bool short_buffers = false);

/// Parameter names of the tests run for every operator: "Gather", "ScatterND", ...
std::string op_name(const ::testing::TestParamInfo<rc::Op>& info);

}  // namespace random_checks
