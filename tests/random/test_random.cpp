// Property tests: random valid cases of every operator (support/random_cases.hpp) run through
// dmlref's dispatch layer (TensorDesc, exact TotalTensorSizeInBytes) and typed layer (TensorView,
// storage and native element types), compared bit for bit with the independent oracle
// (support/oracle.hpp) run on an identical buffer. Whole buffers are compared, guards and padding
// included: dmlref may write addressed output elements only, and nothing at all when it fails.
//
// A failing case prints its seed; DMLREF_TEST_SEED=<seed> replays it alone in the same test.
// The same cases aimed at each fast path, and the thread tests, are in tests/kernels/.
//   coalescing (packed layouts) versus none (padded, permuted, broadcast)     every test
//   IndexPolicy::clamp                                                       ClampPolicy...
//   index_out_of_range, nothing written                                      OutOfRangeIndex...
//   check_collisions                                                         CollisionCheck...
//   in place scatters                                                        InPlaceMatchesOracle
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/random_checks.hpp"

namespace {

namespace rc = random_cases;
using dmlref::ErrorCode;
using random_checks::choice;
using random_checks::code_for;
using random_checks::Failures;
using random_checks::matches_oracle;
using random_checks::mismatch;
using random_checks::replay;
using random_checks::stream;
using rc::Layer;
using rc::Op;

class RandomOp : public ::testing::TestWithParam<Op> {};

TEST_P(RandomOp, MatchesOracleOnBothLayers) {
  rc::Config cfg;
  matches_oracle(GetParam(), cfg, 400, true);
}

// About a third of the index values are out of range (type extremes, -n-1, n, ...). With
// IndexPolicy::clamp dmlref must match the oracle's clamp policy; with the default policy both
// must fail whenever any value is out of range.
TEST_P(RandomOp, ClampPolicyMatchesOracle) {
  rc::Config cfg;
  cfg.values = rc::Values::wild;
  dmlref::Options clamp;
  clamp.index_policy = dmlref::IndexPolicy::clamp;
  random_checks::for_each_case(GetParam(), cfg, 120, [&](const rc::Case& c, Failures& failures) {
    const bool odd = choice(c.seed, 1, 2) == 1;
    const rc::Run clamped = rc::run_oracle(c, oracle::Policy::clamp, false);
    if (!clamped.ok) failures.add("the oracle's clamp policy failed: " + clamped.error);
    failures.add(mismatch(c, clamped, odd ? Layer::dispatch : Layer::typed_storage, clamp));
    if (choice(c.seed, 2, 5) == 0) failures.add(mismatch(c, clamped, Layer::typed_native, clamp));
    const rc::Run strict = rc::run_oracle(c, oracle::Policy::error, false);
    failures.add(mismatch(c, strict, odd ? Layer::typed_storage : Layer::dispatch, {}));
  });
}

// Every value in range: clamping changes nothing, so a clamping call takes the kernels of checked
// values (staged lines, unbatched runs), and must match the oracle as the default policy does.
TEST_P(RandomOp, ClampPolicyWithValuesInRangeMatchesOracle) {
  dmlref::Options clamp;
  clamp.index_policy = dmlref::IndexPolicy::clamp;
  for (const rc::Aim aim : {rc::Aim::staged, rc::Aim::rows, rc::Aim::any}) {
    rc::Config cfg;
    cfg.aim = aim;
    random_checks::for_each_case(GetParam(), cfg, 40, [&](const rc::Case& c, Failures& failures) {
      const rc::Run clamped = rc::run_oracle(c, oracle::Policy::clamp, false);
      if (!clamped.ok) failures.add("the oracle's clamp policy failed: " + clamped.error);
      failures.add(mismatch(c, clamped, choice(c.seed, 1, 2) == 1 ? Layer::dispatch : Layer::typed_storage, clamp));
    });
  }
}

// Exactly one index element is out of range: dmlref must report index_out_of_range and leave the
// output untouched (also in place); with the clamp policy the same case must match the oracle.
TEST_P(RandomOp, OutOfRangeIndexFailsAndWritesNothing) {
  rc::Config cfg;
  cfg.values = rc::Values::one_out_of_range;
  cfg.in_place_percent = 30;
  dmlref::Options clamp;
  clamp.index_policy = dmlref::IndexPolicy::clamp;
  random_checks::for_each_case(GetParam(), cfg, 120, [&](const rc::Case& c, Failures& failures) {
    const rc::Run strict = rc::run_oracle(c, oracle::Policy::error, false);
    if (code_for(strict) != ErrorCode::index_out_of_range)
      failures.add("the oracle did not report the out-of-range index: " + (strict.ok ? "ok" : strict.error));
    failures.add(mismatch(c, strict, Layer::dispatch, {}));
    failures.add(mismatch(c, strict, Layer::typed_storage, {}));
    const rc::Run clamped = rc::run_oracle(c, oracle::Policy::clamp, false);
    if (!clamped.ok) failures.add("the oracle's clamp policy failed: " + clamped.error);
    failures.add(mismatch(c, clamped, Layer::typed_storage, clamp));
  });
}

INSTANTIATE_TEST_SUITE_P(AllOperators, RandomOp, ::testing::ValuesIn(rc::all_ops), random_checks::op_name);

// ---- scatters only ----

class RandomScatter : public ::testing::TestWithParam<Op> {};

// Options::check_collisions: dmlref fails (scatter_collision, nothing written) exactly when the
// oracle finds two updates to one element, after normalisation (and clamping, every fourth case).
TEST_P(RandomScatter, CollisionCheckAgreesWithOracle) {
  Failures failures;
  int collided = 0, clean = 0;
  for (const std::uint64_t seed : rc::case_seeds(stream(), 240)) {
    rc::Config cfg;
    const std::uint64_t mode = choice(seed, 1, 3);
    cfg.duplicates = mode == 0 ? rc::Duplicates::none : (mode == 1 ? rc::Duplicates::many : rc::Duplicates::random);
    const bool clamping = choice(seed, 2, 4) == 0;
    if (clamping) cfg.values = rc::Values::wild;
    const rc::Case c = rc::generate(GetParam(), seed, cfg);
    SCOPED_TRACE(c.describe() + "\n  " + replay(seed) + (clamping ? "\n  clamp policy" : ""));
    const rc::Run expected = rc::run_oracle(c, clamping ? oracle::Policy::clamp : oracle::Policy::error, true);
    if (!expected.ok && code_for(expected) != ErrorCode::scatter_collision)
      failures.add("the oracle failed other than by a collision: " + expected.error);
    (expected.ok ? clean : collided) += 1;
    if (c.duplicates == rc::Duplicates::none && !clamping && !expected.ok)
      failures.add("distinct targets, yet the oracle reports a collision: " + expected.error);
    dmlref::Options options;
    options.check_collisions = true;
    if (clamping) options.index_policy = dmlref::IndexPolicy::clamp;
    failures.add(mismatch(c, expected, choice(seed, 3, 2) ? Layer::dispatch : Layer::typed_storage, options));
    failures.end_case(c);
  }
  if (!rc::replay_seed()) {
    EXPECT_GT(collided, rc::scaled(20)) << "too few colliding cases to test the check";
    EXPECT_GT(clean, rc::scaled(20)) << "too few collision-free cases to test the check";
  }
}

// Output == Input (same buffer, same strides): the copy is skipped, updates apply in place.
TEST_P(RandomScatter, InPlaceMatchesOracle) {
  rc::Config cfg;
  cfg.in_place_percent = 100;
  matches_oracle(GetParam(), cfg, 100);
  cfg.aim = rc::Aim::staged;  // Scatter: the fused line copy reads and writes one buffer
  matches_oracle(GetParam(), cfg, 40);
}

INSTANTIATE_TEST_SUITE_P(Scatters, RandomScatter, ::testing::Values(Op::scatter, Op::scatter_nd),
                         random_checks::op_name);

// The generator itself: a seed always makes the same case.
TEST(RandomCases, SameSeedSameCase) {
  for (const Op op : rc::all_ops) {
    const rc::Case a = rc::generate(op, 12345, rc::Config());
    const rc::Case b = rc::generate(op, 12345, rc::Config());
    EXPECT_EQ(a.describe(), b.describe());
    EXPECT_EQ(a.inputs_hash, b.inputs_hash);
    EXPECT_EQ(a.output_buf, b.output_buf);
  }
}

}  // namespace
