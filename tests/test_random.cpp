// Property tests: random valid cases of every operator (support/random_cases.hpp) run through
// dmlref's dispatch layer (TensorDesc, exact TotalTensorSizeInBytes) and typed layer (TensorView,
// storage and native element types), compared bit for bit with the independent oracle
// (support/oracle.hpp) run on an identical buffer. Whole buffers are compared, guards and padding
// included: dmlref may write addressed output elements only, and nothing at all when it fails.
//
// A failing case prints its seed; DMLREF_TEST_SEED=<seed> replays it alone in the same test.
//
// Fast paths of detail/plan.hpp and the tests that aim at them:
//   staged lines (Gather last axis, GatherElements innermost, ND with K = 1)  StagedLinesMatchOracle
//   Scatter with the input copy fused (innermost axis, also in place)       StagedLinesMatchOracle
//   CopyRun (contiguous blocks) and CopyBlock (blocks of >= 2 strided dims)  BlocksMatchOracle
//   tiles of a far-strided 1-D block (CopyStrided; transposed input/output)  FarStridedBlocksInTiles...
//     (gathers: rows sorted by input offset; streamed outputs in test_transposed_rows.cpp)
//   scatter rows written with streaming stores (large outputs)             test_streamed_scatter.cpp
//   unstaged rows, innermost loops of 17, 23, 31, ... rows (not x16);
//   calls of one batch (<= 16 rows) and rows copied one batch behind         RowBatchesMatchOracle
//   coalescing (packed layouts) versus none (padded, permuted, broadcast)     all tests
//   IndexPolicy::clamp                                                       ClampPolicyMatchesOracle
//   index_out_of_range, nothing written                                      OutOfRangeIndex...
//   check_collisions                                                         CollisionCheck...
//   Options::threads with the default pool and custom Executors             Threads...
//   a scatter's copy of InputTensor split over threads                      CopyOfTheInput...
#include <gtest/gtest.h>

#include <dmlref/dmlref.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "support/oracle.hpp"
#include "support/random_cases.hpp"

namespace {

namespace rc = random_cases;
using dmlref::ErrorCode;
using rc::Layer;
using rc::Op;

std::string current_test() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return std::string(info->test_suite_name()) + "." + info->name();
}

/// Every test draws its own seeds, from its full name.
std::uint64_t stream() { return rc::fnv(current_test()); }

std::string replay(std::uint64_t seed) {
  return "replay: DMLREF_TEST_SEED=" + rc::hex(seed) + " dmlref_tests --gtest_filter='" + current_test() + "'";
}

/// The ErrorCode dmlref must report when the oracle failed with this message.
ErrorCode code_for(const rc::Run& oracle_run) {
  if (oracle_run.error.find(": index error:") != std::string::npos) return ErrorCode::index_out_of_range;
  if (oracle_run.error.find(": collision:") != std::string::npos) return ErrorCode::scatter_collision;
  return ErrorCode::ok;  // an oracle failure the generator should never cause
}

/// Runs the case through one dmlref layer and compares with the oracle's run: "" when they agree,
/// otherwise what differs.
std::string mismatch(const rc::Case& c, const rc::Run& expected, Layer layer, const dmlref::Options& options) {
  const rc::LibRun got = rc::run_library(c, layer, options);
  std::string why;
  if (expected.ok) {
    if (!got.status.ok()) {
      why = "dmlref failed where the oracle succeeded: " + got.status.message();
    } else {
      const std::string diff = rc::first_difference(c, got.buffer, expected.buffer);
      if (!diff.empty()) why = "output differs from the oracle's: " + diff;
    }
  } else {
    if (got.status.ok()) {
      why = "dmlref succeeded where the oracle failed: " + expected.error;
    } else if (got.status.code() != code_for(expected)) {
      why = std::string("dmlref reported ") + dmlref::name(got.status.code()) + " (" + got.status.message() +
            "), the oracle: " + expected.error;
    }
    const std::string diff = rc::first_difference(c, got.buffer, c.initial_output());
    if (!diff.empty()) why += (why.empty() ? "" : "; ") + std::string("a failing call wrote to the output: ") + diff;
  }
  if (c.hash_inputs() != c.inputs_hash) why += (why.empty() ? "" : "; ") + std::string("dmlref modified an input buffer");
  return why.empty() ? why : std::string(rc::name(layer)) + ": " + why;
}

/// Collects the failures of one test's cases: the first few are reported in full, the rest only
/// counted (with their seeds), so that one bug neither floods the log nor hides the other cases.
class Failures {
 public:
  /// Adds what went wrong with the current case ("" = nothing).
  void add(const std::string& why) {
    if (why.empty()) return;
    case_failed_ = true;
    if (reported_cases_ < kReported) ADD_FAILURE() << why;
  }
  /// Ends a case.
  void end_case(const rc::Case& c) {
    ++cases_;
    if (!case_failed_) return;
    case_failed_ = false;
    if (reported_cases_ < kReported) ++reported_cases_;
    failing_.push_back(rc::hex(c.seed) + " (" + rc::name(c.op) + " D=" + std::to_string(c.input.sizes.size()) +
                       (c.op == Op::gather ? " P=" + std::to_string(c.index_dimensions) : std::string()) + ")");
  }
  ~Failures() {
    if (failing_.empty()) return;
    std::string seeds;
    for (std::size_t k = 0; k < failing_.size() && k < 40; ++k) seeds += "\n  " + failing_[k];
    ADD_FAILURE() << failing_.size() << " of " << cases_ << " cases failed (details above for the first "
                  << kReported << "); seeds:" << seeds << (failing_.size() > 40 ? "\n  ..." : "");
  }

 private:
  static constexpr int kReported = 4;
  int reported_cases_ = 0, cases_ = 0;
  bool case_failed_ = false;
  std::vector<std::string> failing_;
};

/// Choices a test makes per case come from the seed's bits (not from the loop counter), so that
/// DMLREF_TEST_SEED replays them too: 0 <= choice(seed, k, n) < n.
std::uint64_t choice(std::uint64_t seed, int k, std::uint64_t n) { return rc::mix(seed + static_cast<std::uint64_t>(k)) % n; }

/// Random cases of `cfg` through both layers (native types for a fifth of the cases), oracle
/// policy error, no collision check. `short_buffers`: a tenth of the cases also get one tensor's
/// TotalTensorSizeInBytes one byte short, which must be buffer_too_small with nothing written.
void matches_oracle(Op op, const rc::Config& cfg, int cases, bool short_buffers = false) {
  Failures failures;
  for (const std::uint64_t seed : rc::case_seeds(stream(), cases)) {
    const rc::Case c = rc::generate(op, seed, cfg);
    SCOPED_TRACE(c.describe() + "\n  " + replay(seed));
    const rc::Run expected = rc::run_oracle(c, oracle::Policy::error, false);
    if (!expected.ok) failures.add("the generator made a case the oracle rejects: " + expected.error);
    failures.add(mismatch(c, expected, Layer::dispatch, {}));
    failures.add(mismatch(c, expected, Layer::typed_storage, {}));
    if (choice(seed, 1, 5) == 0) failures.add(mismatch(c, expected, Layer::typed_native, {}));
    if (short_buffers && choice(seed, 2, 10) == 0) {
      std::vector<rc::Short> tensors{rc::Short::input, rc::Short::indices, rc::Short::output};
      if (rc::is_scatter(op)) tensors.push_back(rc::Short::updates);
      const rc::Short which = tensors[choice(seed, 3, tensors.size())];
      const rc::LibRun got = rc::run_library(c, Layer::dispatch, {}, which);
      if (got.status.code() != ErrorCode::buffer_too_small)
        failures.add("TotalTensorSizeInBytes one byte short of the exact size gave " +
                     std::string(dmlref::name(got.status.code())) + ": " + got.status.message());
      const std::string diff = rc::first_difference(c, got.buffer, c.initial_output());
      if (!diff.empty()) failures.add("a call with a short buffer wrote to the output: " + diff);
    }
    failures.end_case(c);
  }
}

class RandomOp : public ::testing::TestWithParam<Op> {};

TEST_P(RandomOp, MatchesOracleOnBothLayers) {
  rc::Config cfg;
  matches_oracle(GetParam(), cfg, 400, true);
}

TEST_P(RandomOp, StagedLinesMatchOracle) {
  rc::Config cfg;
  cfg.aim = rc::Aim::staged;
  cfg.in_place_percent = 25;
  matches_oracle(GetParam(), cfg, 60);
}

TEST_P(RandomOp, BlocksMatchOracle) {
  rc::Config cfg;
  cfg.aim = rc::Aim::blocks;
  matches_oracle(GetParam(), cfg, 60);
}

TEST_P(RandomOp, FarStridedBlocksInTilesMatchOracle) {
  rc::Config cfg;
  cfg.aim = rc::Aim::tiled;
  matches_oracle(GetParam(), cfg, 60);
}

TEST_P(RandomOp, RowBatchesMatchOracle) {
  rc::Config cfg;
  cfg.aim = rc::Aim::rows;
  matches_oracle(GetParam(), cfg, 60);
}

// About a third of the index values are out of range (type extremes, -n-1, n, ...). With
// IndexPolicy::clamp dmlref must match the oracle's clamp policy; with the default policy both
// must fail whenever any value is out of range.
TEST_P(RandomOp, ClampPolicyMatchesOracle) {
  rc::Config cfg;
  cfg.values = rc::Values::wild;
  dmlref::Options clamp;
  clamp.index_policy = dmlref::IndexPolicy::clamp;
  Failures failures;
  for (const std::uint64_t seed : rc::case_seeds(stream(), 120)) {
    const rc::Case c = rc::generate(GetParam(), seed, cfg);
    SCOPED_TRACE(c.describe() + "\n  " + replay(seed));
    const bool odd = choice(seed, 1, 2) == 1;
    const rc::Run clamped = rc::run_oracle(c, oracle::Policy::clamp, false);
    if (!clamped.ok) failures.add("the oracle's clamp policy failed: " + clamped.error);
    failures.add(mismatch(c, clamped, odd ? Layer::dispatch : Layer::typed_storage, clamp));
    if (choice(seed, 2, 5) == 0) failures.add(mismatch(c, clamped, Layer::typed_native, clamp));
    const rc::Run strict = rc::run_oracle(c, oracle::Policy::error, false);
    failures.add(mismatch(c, strict, odd ? Layer::typed_storage : Layer::dispatch, {}));
    failures.end_case(c);
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
  Failures failures;
  for (const std::uint64_t seed : rc::case_seeds(stream(), 120)) {
    const rc::Case c = rc::generate(GetParam(), seed, cfg);
    SCOPED_TRACE(c.describe() + "\n  " + replay(seed));
    const rc::Run strict = rc::run_oracle(c, oracle::Policy::error, false);
    if (code_for(strict) != ErrorCode::index_out_of_range)
      failures.add("the oracle did not report the out-of-range index: " + (strict.ok ? "ok" : strict.error));
    failures.add(mismatch(c, strict, Layer::dispatch, {}));
    failures.add(mismatch(c, strict, Layer::typed_storage, {}));
    const rc::Run clamped = rc::run_oracle(c, oracle::Policy::clamp, false);
    if (!clamped.ok) failures.add("the oracle's clamp policy failed: " + clamped.error);
    failures.add(mismatch(c, clamped, Layer::typed_storage, clamp));
    failures.end_case(c);
  }
}

// ---- threads ----

/// Runs the tasks one after another, last first.
class ReverseExecutor final : public dmlref::Executor {
 public:
  explicit ReverseExecutor(int concurrency) : concurrency_(concurrency) {}
  void run(int count, void (*task)(void*, int), void* context) noexcept override {
    ++calls;
    largest = std::max(largest, count);
    for (int i = count; i-- > 0;) task(context, i);
  }
  int concurrency() const noexcept override { return concurrency_; }
  int calls = 0, largest = 0;

 private:
  int concurrency_;
};

/// Runs every task on a std::thread of its own (started last first).
class SpawnExecutor final : public dmlref::Executor {
 public:
  explicit SpawnExecutor(int concurrency) : concurrency_(concurrency) {}
  void run(int count, void (*task)(void*, int), void* context) noexcept override {
    ++calls;
    largest = std::max(largest, count);
    std::vector<std::thread> threads;
    threads.reserve(static_cast<std::size_t>(count));
    for (int i = count; i-- > 0;) threads.emplace_back(task, context, i);
    for (std::thread& t : threads) t.join();
  }
  int concurrency() const noexcept override { return concurrency_; }
  int calls = 0, largest = 0;

 private:
  int concurrency_;
};

// Cases with > 1 MiB of work, one per construction (see big_shapes), scatters also with many
// duplicate indices: threads 1, 2 and 4 through the default pool, a reversing executor and a
// thread-per-task executor must all equal the sequential, last-writer-wins oracle. The custom
// executors also show that the call was really split (or, for ScatterND's staged lines that share
// one output line, that it was not).
TEST_P(RandomOp, ThreadsAndExecutorsMatchSequentialOracle) {
  const Op op = GetParam();
  std::vector<rc::Config> configs;
  for (int v = 0; v < rc::big_variants(op); ++v) {
    rc::Config cfg;
    cfg.aim = rc::Aim::big;
    cfg.variant = v;
    cfg.in_place_percent = 20;
    configs.push_back(cfg);
    if (rc::is_scatter(op)) {
      cfg.duplicates = rc::Duplicates::many;
      configs.push_back(cfg);
    }
  }
  // Each configuration once; its number is in the seed's low byte, so a replay finds it again.
  std::vector<std::uint64_t> seeds = rc::case_seeds(stream(), static_cast<int>(configs.size()));
  if (!rc::replay_seed())
    for (std::size_t k = 0; k < seeds.size(); ++k) seeds[k] = (seeds[k] & ~std::uint64_t{0xFF}) | k;
  for (std::size_t k = 0; k < seeds.size(); ++k) {
    const rc::Config& cfg = configs[(seeds[k] & 0xFF) % configs.size()];
    const rc::Case c = rc::generate(op, seeds[k], cfg);
    SCOPED_TRACE(c.describe() + "\n  " + replay(seeds[k]));
    const rc::Run expected = rc::run_oracle(c, oracle::Policy::error, false);
    ASSERT_TRUE(expected.ok) << expected.error;
    EXPECT_EQ(mismatch(c, expected, Layer::typed_storage, {}), "");
    for (const int threads : {2, 4}) {
      SCOPED_TRACE("threads " + std::to_string(threads));
      dmlref::Options options;
      options.threads = threads;
      EXPECT_EQ(mismatch(c, expected, Layer::dispatch, options), "") << "default pool";
      ReverseExecutor reverse(8);
      options.executor = &reverse;
      EXPECT_EQ(mismatch(c, expected, Layer::typed_storage, options), "") << "ReverseExecutor";
      SpawnExecutor spawn(3);
      options.executor = &spawn;
      EXPECT_EQ(mismatch(c, expected, seeds[k] % 2 ? Layer::typed_native : Layer::dispatch, options), "")
          << "SpawnExecutor";
      if (c.expect_split) {
        EXPECT_EQ(reverse.largest, threads) << "the call was not split as expected";
        EXPECT_EQ(spawn.largest, std::min(threads, 3)) << "the call was not split as expected";
      } else {
        EXPECT_EQ(reverse.calls + spawn.calls, 0) << "staged lines sharing an output line must run sequentially";
      }
    }
  }
}

/// Runs the tasks in order on the caller, and records each call's task count.
class RecordingExecutor final : public dmlref::Executor {
 public:
  void run(int count, void (*task)(void*, int), void* context) noexcept override {
    counts.push_back(count);
    for (int i = 0; i < count; ++i) task(context, i);
  }
  int concurrency() const noexcept override { return 8; }
  std::vector<int> counts;
};

// A scatter's copy of InputTensor splits too: its outermost dimension after coalescing, into no
// more shares than that dimension has rows. Rows 0 and 2 of a [3, 100000] float tensor are
// replaced; padded rows (pitch 100003) stay three rows, packed ones coalesce into one line.
TEST(ScatterThreads, CopyOfTheInputSplitsItsOutermostDimension) {
  constexpr std::int64_t n = 100000;
  for (const std::int64_t pitch : {n + 3, n}) {
    SCOPED_TRACE("row pitch " + std::to_string(pitch));
    std::vector<float> input(static_cast<std::size_t>(3 * pitch)), output(input.size(), -1.0f);
    std::vector<float> updates(static_cast<std::size_t>(2 * n));
    for (std::size_t e = 0; e < input.size(); ++e) input[e] = static_cast<float>(e);
    for (std::size_t e = 0; e < updates.size(); ++e) updates[e] = -static_cast<float>(e) - 2.0f;
    const std::vector<std::int64_t> indices{2, 0};
    RecordingExecutor recorder;
    dmlref::Options options;
    options.threads = 4;
    options.executor = &recorder;
    const dmlref::Status s = dmlref::try_scatter_nd(
        dmlref::TensorView<const float>(input.data(), {3, n}, {pitch, 1}),
        dmlref::TensorView<const std::int64_t>(indices.data(), {2, 1}),
        dmlref::TensorView<const float>(updates.data(), {2, n}),
        dmlref::TensorView<float>(output.data(), {3, n}, {pitch, 1}), dmlref::ScatterNDParams{2, 2}, options);
    ASSERT_TRUE(s) << s.message();
    // The copy (3 rows, or 1.2 MB in 4 shares of >= 256 KiB), then the updates (2 rows, split by
    // the 3 targets of the tuple coordinate).
    EXPECT_EQ(recorder.counts, (std::vector<int>{pitch == n ? 4 : 3, 3}));
    for (std::int64_t r = 0; r < 3; ++r)
      for (std::int64_t j = 0; j < pitch; ++j) {
        const auto e = static_cast<std::size_t>(r * pitch + j);
        const float expected = j >= n ? -1.0f  // padding: untouched
                               : r == 1 ? input[e]
                                        : updates[static_cast<std::size_t>((r == 2 ? 0 : n) + j)];
        ASSERT_EQ(output[e], expected) << "row " << r << ", element " << j;
      }
  }
}

std::string op_name(const ::testing::TestParamInfo<Op>& info) { return rc::name(info.param); }

INSTANTIATE_TEST_SUITE_P(AllOperators, RandomOp, ::testing::ValuesIn(rc::all_ops), op_name);

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
    EXPECT_GT(collided, 20) << "too few colliding cases to test the check";
    EXPECT_GT(clean, 20) << "too few collision-free cases to test the check";
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

INSTANTIATE_TEST_SUITE_P(Scatters, RandomScatter, ::testing::Values(Op::scatter, Op::scatter_nd), op_name);

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
