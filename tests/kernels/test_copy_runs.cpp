// Contiguous runs (detail/copy.hpp, copy_run): memcpy, except for runs of 2 KiB and more whose
// destination starts 1 to 31 bytes past the source modulo 4 KiB, which glibc's memcpy copies
// slowly on some AMD CPUs and copy_run then moves 64 bytes at a time itself (on those machines
// only: slow_aliased_memcpy(), which DMLREF_SLOW_ALIASED_MEMCPY=1 forces, as the small_caches
// entry and the sanitizer preset do). These cases put the destination at every distance around
// that window, with lengths around 2 KiB and around a 64-byte block, through copy_run and through
// the 64-byte loop itself, and check every byte and the guards on both sides; then the operators
// whose rows, staged lines and input copies go through it, with the output placed in the window.
// Then copy_runs itself: rows through a ring of the last 16 (RunRing: a gather's copied 4 at a
// time and prefetched where that gains, a scatter's one at a time), and calls of at most 16 rows
// (copy_few_runs), on both sides of the ring's size and of its groups, from any starting row, and
// for a scatter split by target, within a range of targets.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

#include "dmlref/dmlref.hpp"
#include "support/type_names.hpp"
#include "support/values.hpp"

namespace {

using dmlref::TensorView;

/// A byte buffer with room to place a payload at any address modulo 4 KiB.
class Placed {
 public:
  Placed(std::size_t bytes, std::size_t at_modulo_4k)
      : storage_(bytes + 2 * 4096 + 2 * kGuard, kGuardByte) {
    const auto base = reinterpret_cast<std::uintptr_t>(storage_.data()) + kGuard;
    offset_ = kGuard + (at_modulo_4k - base % 4096 + 4096) % 4096;
    size_ = bytes;
  }
  unsigned char* data() noexcept { return storage_.data() + offset_; }
  bool guards_intact() const noexcept {
    for (std::size_t i = 0; i < kGuard; ++i)
      if (storage_[offset_ - 1 - i] != kGuardByte || storage_[offset_ + size_ + i] != kGuardByte) return false;
    return true;
  }

  static constexpr std::size_t kGuard = 64;
  static constexpr unsigned char kGuardByte = 0x5A;

 private:
  std::vector<unsigned char> storage_;
  std::size_t offset_ = 0, size_ = 0;
};

/// Every output row r equals input row picks[r] (negative: counted from the end), rows of `cols`.
testing::AssertionResult rows_picked_whole(const float* out, const float* in, const std::int64_t* picks,
                                           std::int64_t count, std::int64_t rows, std::int64_t cols,
                                           std::int64_t pitch = -1) {
  if (pitch < 0) pitch = cols;  // packed
  for (std::int64_t r = 0; r < count; ++r) {
    const std::int64_t from = picks[r] < 0 ? picks[r] + rows : picks[r];
    if (std::memcmp(out + r * cols, in + from * pitch, static_cast<std::size_t>(cols) * sizeof(float)) != 0)
      return testing::AssertionFailure() << "row " << r;
  }
  return testing::AssertionSuccess();
}

/// A gather or scatter Plan of `rows` rows of `length` bytes under a loop of `batch`,
/// `batch_stride` elements apart in IndexedTensor (0: broadcast): what the prefetch rules read.
dmlref::detail::Plan rows_plan(dmlref::detail::Flow flow, std::int64_t length, std::int64_t rows, std::int64_t batch,
                               std::int64_t batch_stride) {
  dmlref::detail::Plan p;
  p.flow = flow;
  p.add_loop(batch, 0, 0, batch_stride);
  p.add_tuple(rows, length, 0);
  return p;
}

/// Gathers 40 rows of a float input [rows, cols] at row pitch `pitch` (every fourth by a
/// negative value) into an output with guard bytes, and checks every row whole.
void gather_picked_rows(std::int64_t rows, std::int64_t cols, std::int64_t pitch) {
  const std::int64_t picks = 40;
  std::vector<float> in(static_cast<std::size_t>(rows * pitch));
  for (std::int64_t e = 0; e < rows * pitch; ++e) in[static_cast<std::size_t>(e)] = test_values::pattern<float>(e);
  std::vector<std::int64_t> picked(static_cast<std::size_t>(picks));
  for (std::int64_t r = 0; r < picks; ++r)
    picked[static_cast<std::size_t>(r)] = r % 4 == 1 ? -1 - (r * 97) % rows : (r * 97) % rows;
  Placed gathered(static_cast<std::size_t>(picks * cols) * sizeof(float), 16);
  float* out = reinterpret_cast<float*>(gathered.data());
  const dmlref::Status s = dmlref::try_gather(TensorView<const float>(in.data(), {rows, cols}, {pitch, 1}),
                                              TensorView<const std::int64_t>(picked.data(), {1, picks}),
                                              TensorView<float>(out, {picks, cols}), {0, 1});
  ASSERT_TRUE(s) << s.message();
  EXPECT_TRUE(rows_picked_whole(out, in.data(), picked.data(), picks, rows, cols, pitch)) << rows << " rows";
  EXPECT_TRUE(gathered.guards_intact());
}

/// Op's plan over `tensors` (its RawTensors in field order, which the plan points into), after
/// its shape checks: for calling a kernel on part of a call directly.
template <class Op, std::size_t N>
dmlref::detail::Plan checked_plan(const dmlref::detail::RawTensor (&tensors)[N], const typename Op::Params& params) {
  dmlref::detail::Operands operands = dmlref::detail::operands_of(tensors);
  EXPECT_TRUE(dmlref::detail::check_shapes<Op>(operands, params));
  return Op::plan(operands, params);
}

/// Copies with `copy` at every distance around the slow window, from three source placements.
template <class Copy>
void copy_at_every_distance(Copy copy) {
  const std::size_t distances[] = {0, 1, 8, 15, 16, 17, 31, 32, 33, 48, 63, 64, 4064, 4095};
  const std::size_t lengths[] = {1, 63, 64, 65, 2047, 2048, 2049, 2111, 4096, 4096 + 17, 12345};
  for (const std::size_t source_at : {std::size_t{0}, std::size_t{8}, std::size_t{4000}})
    for (const std::size_t distance : distances)
      for (const std::size_t length : lengths) {
        Placed source(length, source_at);
        for (std::size_t i = 0; i < length; ++i) source.data()[i] = static_cast<unsigned char>(i * 131 + 7);
        Placed target(length, (source_at + distance) % 4096);
        for (std::size_t i = 0; i < length; ++i) target.data()[i] = static_cast<unsigned char>(~source.data()[i]);
        copy(target.data(), source.data(), length);
        ASSERT_EQ(std::memcmp(target.data(), source.data(), length), 0)
            << "source at " << source_at << ", distance " << distance << ", length " << length;
        ASSERT_TRUE(target.guards_intact()) << "distance " << distance << ", length " << length;
        ASSERT_TRUE(source.guards_intact());
      }
}

TEST(CopyRuns, EveryDistanceAroundTheSlowWindow) {
  copy_at_every_distance(dmlref::detail::copy_run);
}

#if DMLREF_HAS_SSE2
// What copy_run takes in the window on a machine whose memcpy is slow there, on every machine.
TEST(CopyRuns, TheVectorLoopAtEveryDistance) {
  copy_at_every_distance(dmlref::detail::copy_by_vectors);
}
#endif

// DMLREF_SLOW_ALIASED_MEMCPY "1" or "0" decides without measuring; any other text measures.
TEST(CopyRuns, SlowAliasedMemcpyFromTheEnvironmentOrMeasured) {
  using dmlref::detail::slow_aliased_memcpy_from;
  int measured = 0;
  auto measure = [&](bool answer) {
    return [&measured, answer] {
      ++measured;
      return answer;
    };
  };
  EXPECT_TRUE(slow_aliased_memcpy_from("1", measure(false)));
  EXPECT_FALSE(slow_aliased_memcpy_from("0", measure(true)));
  EXPECT_EQ(measured, 0);
  for (const char* text : {static_cast<const char*>(nullptr), "", "10", "01", "yes", "true", " 1"}) {
    const int before = measured;
    EXPECT_TRUE(slow_aliased_memcpy_from(text, measure(true))) << (text ? text : "(unset)");
    EXPECT_FALSE(slow_aliased_memcpy_from(text, measure(false))) << (text ? text : "(unset)");
    EXPECT_EQ(measured, before + 2) << (text ? text : "(unset)");
  }
  // This process's answer follows its environment where that decides.
  const char* text = std::getenv("DMLREF_SLOW_ALIASED_MEMCPY");
  const bool decided = text != nullptr && (text[0] == '0' || text[0] == '1') && text[1] == '\0';
  if (decided) {
    EXPECT_EQ(dmlref::detail::slow_aliased_memcpy(), text[0] == '1');
  }
}

TEST(CopyRuns, TheSlowWindowIsOneToThirtyOneBytes) {
  unsigned char buffer[8192];
  for (std::size_t d = 0; d < 4096; ++d)
    EXPECT_EQ(dmlref::detail::rep_movs_aliases(buffer + d, buffer), d >= 1 && d <= 31) << d;
  EXPECT_TRUE(dmlref::detail::rep_movs_aliases(buffer + 4096 + 16, buffer));
  EXPECT_FALSE(dmlref::detail::rep_movs_aliases(buffer, buffer + 16));  // 4080 past: not in the window
}

// Gather rows of 4 KiB + 4 bytes, a GatherElements whose staged lines are 8 KiB, and an
// out-of-place ScatterND (its input copied to the output first), each with OutputTensor 16 bytes
// past InputTensor modulo 4 KiB, against a direct computation.
TEST(CopyRuns, OperatorsWithOutputInTheSlowWindow) {
  const std::int64_t rows = 8, cols = 1025, picks = 5;
  Placed input(rows * cols * sizeof(float), 0);
  float* in = reinterpret_cast<float*>(input.data());
  for (std::int64_t e = 0; e < rows * cols; ++e) in[e] = test_values::pattern<float>(e);
  const std::int64_t rows_picked[picks] = {7, 0, 3, -1, 3};

  Placed gathered(picks * cols * sizeof(float), 16);
  float* out = reinterpret_cast<float*>(gathered.data());
  dmlref::Status s = dmlref::try_gather(TensorView<const float>(in, {rows, cols}),
                                        TensorView<const std::int64_t>(rows_picked, {1, picks}),
                                        TensorView<float>(out, {picks, cols}), {0, 1});
  ASSERT_TRUE(s) << s.message();
  ASSERT_TRUE(rows_picked_whole(out, in, rows_picked, picks, rows, cols));
  EXPECT_TRUE(gathered.guards_intact());

  const std::int64_t n = 2048;  // 8 KiB lines, staged through the stack
  std::vector<std::int32_t> along(static_cast<std::size_t>(2 * n));
  for (std::int64_t e = 0; e < 2 * n; ++e) along[static_cast<std::size_t>(e)] = static_cast<std::int32_t>((e * 7919) % n);
  Placed elements(2 * n * sizeof(float), 16);
  float* picked = reinterpret_cast<float*>(elements.data());
  s = dmlref::try_gather_elements(TensorView<const float>(in, {2, n}), TensorView<const std::int32_t>(along.data(), {2, n}),
                                  TensorView<float>(picked, {2, n}), {1});
  ASSERT_TRUE(s) << s.message();
  for (std::int64_t r = 0; r < 2; ++r)
    for (std::int64_t j = 0; j < n; ++j)
      ASSERT_EQ(std::memcmp(&picked[r * n + j], &in[r * n + along[static_cast<std::size_t>(r * n + j)]], sizeof(float)), 0)
          << r << ", " << j;
  EXPECT_TRUE(elements.guards_intact());

  const std::int64_t target_rows[2] = {6, 1};
  std::vector<float> updates(static_cast<std::size_t>(2 * cols));
  for (std::int64_t e = 0; e < 2 * cols; ++e) updates[static_cast<std::size_t>(e)] = test_values::pattern<float>(e + 99);
  Placed scattered(rows * cols * sizeof(float), 16);
  float* result = reinterpret_cast<float*>(scattered.data());
  s = dmlref::try_scatter_nd(TensorView<const float>(in, {rows, cols}), TensorView<const std::int64_t>(target_rows, {2, 1}),
                             TensorView<const float>(updates.data(), {2, cols}), TensorView<float>(result, {rows, cols}),
                             {2, 2});
  ASSERT_TRUE(s) << s.message();
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* expected = r == 6 ? updates.data() : r == 1 ? updates.data() + cols : in + r * cols;
    ASSERT_EQ(std::memcmp(result + r * cols, expected, cols * sizeof(float)), 0) << "row " << r;
  }
  EXPECT_TRUE(scattered.guards_intact());
}

// The other paths through copy_run, with OutputTensor 16 bytes past InputTensor modulo 4 KiB:
// GatherND's rows, a Scatter's input copy (one run of the whole tensor) and a Scatter whose
// staged lines fuse the input copy, against a direct computation.
TEST(CopyRuns, MoreOperatorsWithOutputInTheSlowWindow) {
  const std::int64_t rows = 8, cols = 1025, picks = 5;
  Placed input(rows * cols * sizeof(float), 0);
  float* in = reinterpret_cast<float*>(input.data());
  for (std::int64_t e = 0; e < rows * cols; ++e) in[e] = test_values::pattern<float>(e);

  const std::int64_t tuples[picks] = {1, 0, 3, -1, 4};  // output row r is 16 + 4 (r - row) bytes past its input row
  Placed gathered(picks * cols * sizeof(float), 16);
  float* out = reinterpret_cast<float*>(gathered.data());
  dmlref::Status s = dmlref::try_gather_nd(TensorView<const float>(in, {rows, cols}),
                                           TensorView<const std::int64_t>(tuples, {picks, 1}),
                                           TensorView<float>(out, {picks, cols}), {2, 2});
  ASSERT_TRUE(s) << s.message();
  ASSERT_TRUE(rows_picked_whole(out, in, tuples, picks, rows, cols));
  EXPECT_TRUE(gathered.guards_intact());

  std::vector<std::int32_t> column_rows(static_cast<std::size_t>(2 * cols));
  std::vector<float> updates(static_cast<std::size_t>(2 * cols));
  for (std::int64_t e = 0; e < 2 * cols; ++e) {
    column_rows[static_cast<std::size_t>(e)] = static_cast<std::int32_t>(e < cols ? (e * 3) % rows : rows - 1 - e % 2);
    updates[static_cast<std::size_t>(e)] = test_values::pattern<float>(e + 77);
  }
  Placed scattered(rows * cols * sizeof(float), 16);
  float* result = reinterpret_cast<float*>(scattered.data());
  s = dmlref::try_scatter(TensorView<const float>(in, {rows, cols}),
                          TensorView<const std::int32_t>(column_rows.data(), {2, cols}),
                          TensorView<const float>(updates.data(), {2, cols}), TensorView<float>(result, {rows, cols}),
                          {0});
  ASSERT_TRUE(s) << s.message();
  std::vector<float> expected(in, in + rows * cols);
  for (std::int64_t e = 0; e < 2 * cols; ++e)  // row-major order: the last update wins
    expected[static_cast<std::size_t>(column_rows[static_cast<std::size_t>(e)] * cols + e % cols)] =
        updates[static_cast<std::size_t>(e)];
  ASSERT_EQ(std::memcmp(result, expected.data(), expected.size() * sizeof(float)), 0);
  EXPECT_TRUE(scattered.guards_intact());

  const std::int64_t n = 2048;  // 8 KiB lines, the input copied line by line through the stage
  std::vector<std::int64_t> along(static_cast<std::size_t>(2 * n));
  std::vector<float> line_updates(static_cast<std::size_t>(2 * n));
  for (std::int64_t e = 0; e < 2 * n; ++e) {
    along[static_cast<std::size_t>(e)] = (e * 7919) % n - (e % 3 == 0 ? n : 0);
    line_updates[static_cast<std::size_t>(e)] = test_values::pattern<float>(e + 5);
  }
  Placed lines(2 * n * sizeof(float), 16);
  float* staged = reinterpret_cast<float*>(lines.data());
  s = dmlref::try_scatter(TensorView<const float>(in, {2, n}), TensorView<const std::int64_t>(along.data(), {2, n}),
                          TensorView<const float>(line_updates.data(), {2, n}), TensorView<float>(staged, {2, n}), {1});
  ASSERT_TRUE(s) << s.message();
  std::vector<float> expected_lines(in, in + 2 * n);
  for (std::int64_t e = 0; e < 2 * n; ++e) {
    const std::int64_t a = along[static_cast<std::size_t>(e)];
    expected_lines[static_cast<std::size_t>(e / n * n + (a < 0 ? a + n : a))] = line_updates[static_cast<std::size_t>(e)];
  }
  ASSERT_EQ(std::memcmp(staged, expected_lines.data(), expected_lines.size() * sizeof(float)), 0);
  EXPECT_TRUE(lines.guards_intact());
}

// Rows of runs go through copy_runs' ring of 16 (RunRing), or, for at most 16 rows on one loop
// with one index value each, through copy_few_runs. Row counts on both sides of the ring's size,
// signed and unsigned index types with values counted from the end, pairs (GatherND's own walk
// of 2-D coordinates), scatters with colliding rows (the last one wins), and calls split into
// shares that start mid-call.
template <class I>
void gather_rows_in_batches() {
  const std::int64_t rows = 40, cols = 300;
  std::vector<float> in(static_cast<std::size_t>(rows * cols));
  for (std::int64_t e = 0; e < rows * cols; ++e) in[static_cast<std::size_t>(e)] = test_values::pattern<float>(e);
  for (const std::int64_t picks : {1, 2, 15, 16, 17, 31, 32, 33, 47}) {
    std::vector<std::int64_t> rows_picked(static_cast<std::size_t>(picks));
    std::vector<I> idx(static_cast<std::size_t>(picks));
    for (std::int64_t r = 0; r < picks; ++r) {
      std::int64_t v = (r * 13 + 5) % rows;
      if (std::is_signed_v<I> && r % 3 == 1) v -= rows;
      rows_picked[static_cast<std::size_t>(r)] = v;
      idx[static_cast<std::size_t>(r)] = static_cast<I>(v);
    }
    Placed gathered(static_cast<std::size_t>(picks * cols) * sizeof(float), 0);
    float* out = reinterpret_cast<float*>(gathered.data());
    const dmlref::Status s = dmlref::try_gather(TensorView<const float>(in.data(), {rows, cols}),
                                                TensorView<const I>(idx.data(), {1, picks}),
                                                TensorView<float>(out, {picks, cols}), {0, 1});
    ASSERT_TRUE(s) << s.message();
    ASSERT_TRUE(rows_picked_whole(out, in.data(), rows_picked.data(), picks, rows, cols)) << picks << " rows";
    EXPECT_TRUE(gathered.guards_intact()) << picks << " rows";
  }
}

TEST(CopyRuns, GatherRowsInBatches) {
  for_each_index_type([](auto i) { gather_rows_in_batches<decltype(i)>(); });
}

template <class I>
void gather_nd_pairs_in_batches() {
  const std::int64_t a = 5, b = 7, cols = 33;
  std::vector<float> in(static_cast<std::size_t>(a * b * cols));
  for (std::size_t e = 0; e < in.size(); ++e) in[e] = test_values::pattern<float>(static_cast<std::int64_t>(e));
  constexpr bool from_end = std::is_signed_v<I>;
  for (const std::int64_t pairs : {3, 16, 17, 33}) {
    std::vector<I> idx(static_cast<std::size_t>(2 * pairs));
    for (std::int64_t g = 0; g < pairs; ++g) {
      idx[static_cast<std::size_t>(2 * g)] = static_cast<I>(from_end && g % 2 == 1 ? g % a - a : g % a);
      idx[static_cast<std::size_t>(2 * g + 1)] = static_cast<I>(from_end && g % 3 == 0 ? (g * 3) % b - b : (g * 3) % b);
    }
    Placed gathered(static_cast<std::size_t>(pairs * cols) * sizeof(float), 0);
    float* out = reinterpret_cast<float*>(gathered.data());
    const dmlref::Status s = dmlref::try_gather_nd(TensorView<const float>(in.data(), {1, a, b, cols}),
                                                   TensorView<const I>(idx.data(), {1, 1, pairs, 2}),
                                                   TensorView<float>(out, {1, 1, pairs, cols}), {3, 2});
    ASSERT_TRUE(s) << s.message();
    for (std::int64_t g = 0; g < pairs; ++g) {
      const std::int64_t i = (static_cast<std::int64_t>(idx[static_cast<std::size_t>(2 * g)]) + a) % a;
      const std::int64_t j = (static_cast<std::int64_t>(idx[static_cast<std::size_t>(2 * g + 1)]) + b) % b;
      ASSERT_EQ(std::memcmp(out + g * cols, in.data() + (i * b + j) * cols, cols * sizeof(float)), 0) << pairs << " pairs, row " << g;
    }
    EXPECT_TRUE(gathered.guards_intact()) << pairs << " pairs";
  }
}

TEST(CopyRuns, GatherNDPairsInBatches) {
  for_each_index_type([](auto i) { gather_nd_pairs_in_batches<decltype(i)>(); });
}

TEST(CopyRuns, ScatterRowsInBatchesLastWins) {
  const std::int64_t rows = 9, cols = 70;
  std::vector<float> in(static_cast<std::size_t>(rows * cols));
  for (std::int64_t e = 0; e < rows * cols; ++e) in[static_cast<std::size_t>(e)] = test_values::pattern<float>(e);
  for (const std::int64_t count : {1, 5, 16, 17, 40}) {
    std::vector<std::int64_t> targets(static_cast<std::size_t>(count));
    for (std::int64_t u = 0; u < count; ++u) targets[static_cast<std::size_t>(u)] = u % 4 == 3 ? (u * 5) % rows - rows : (u * 5) % rows;
    std::vector<float> updates(static_cast<std::size_t>(count * cols));
    for (std::size_t e = 0; e < updates.size(); ++e) updates[e] = test_values::pattern<float>(static_cast<std::int64_t>(e) + 7777);
    Placed scattered(static_cast<std::size_t>(rows * cols) * sizeof(float), 0);
    float* out = reinterpret_cast<float*>(scattered.data());
    const dmlref::Status s = dmlref::try_scatter_nd(
        TensorView<const float>(in.data(), {rows, cols}), TensorView<const std::int64_t>(targets.data(), {count, 1}),
        TensorView<const float>(updates.data(), {count, cols}), TensorView<float>(out, {rows, cols}), {2, 2});
    ASSERT_TRUE(s) << s.message();
    for (std::int64_t r = 0; r < rows; ++r) {
      const float* expected = in.data() + r * cols;
      for (std::int64_t u = 0; u < count; ++u)
        if ((targets[static_cast<std::size_t>(u)] + rows) % rows == r) expected = updates.data() + u * cols;
      ASSERT_EQ(std::memcmp(out + r * cols, expected, cols * sizeof(float)), 0) << count << " updates, row " << r;
    }
    EXPECT_TRUE(scattered.guards_intact()) << count << " updates";
  }
}

// A share of a call may start at any row (threads, one-pass blocks): copy_runs on row ranges of a
// Gather's plan, each range compared with the rows it must write and nothing else.
TEST(CopyRuns, RowRangesThatStartMidCall) {
  namespace detail = dmlref::detail;
  const std::int64_t rows = 20, cols = 300, picks = 40;
  std::vector<float> in(static_cast<std::size_t>(rows * cols));
  for (std::int64_t e = 0; e < rows * cols; ++e) in[static_cast<std::size_t>(e)] = test_values::pattern<float>(e);
  std::vector<std::int64_t> rows_picked(static_cast<std::size_t>(picks));
  for (std::int64_t r = 0; r < picks; ++r) rows_picked[static_cast<std::size_t>(r)] = r % 3 == 0 ? (r * 7) % rows - rows : (r * 7) % rows;
  std::vector<float> out(static_cast<std::size_t>(picks * cols));
  const TensorView<const float> in_view(in.data(), {rows, cols});
  const TensorView<const std::int64_t> idx_view(rows_picked.data(), {1, picks});
  const TensorView<float> out_view(out.data(), {picks, cols});
  const detail::RawTensor tensors[] = {detail::raw("InputTensor", in_view), detail::raw("IndicesTensor", idx_view),
                                       detail::raw("OutputTensor", out_view)};
  const detail::Plan plan = checked_plan<detail::GatherOperator>(tensors, {0, 1});
  const std::size_t length = static_cast<std::size_t>(cols) * sizeof(float);
  const std::int64_t ranges[][2] = {{0, 1}, {5, 12}, {7, 23}, {3, 40}, {24, 40}, {39, 40}};
  for (const auto& range : ranges) {
    std::fill(out.begin(), out.end(), -1.0f);
    detail::copy_runs<detail::Flow::gather, std::int64_t>(plan, range[0], range[1], {}, length, false);
    for (std::int64_t r = 0; r < picks; ++r) {
      const std::int64_t v = rows_picked[static_cast<std::size_t>(r)], from = v < 0 ? v + rows : v;
      const bool inside = r >= range[0] && r < range[1];
      for (std::int64_t c = 0; c < cols; ++c) {
        const float expected = inside ? in[static_cast<std::size_t>(from * cols + c)] : -1.0f;
        ASSERT_EQ(std::memcmp(&out[static_cast<std::size_t>(r * cols + c)], &expected, sizeof(float)), 0)
            << "rows [" << range[0] << ", " << range[1] << "): row " << r << ", column " << c;
      }
    }
  }
}

// RunRing prefetches a gather's rows that wait on their first line (shorter than
// kFirstLineBoundBytes) or come from memory: IndexedTensor's rows, counted over the tuple and the
// loop dimensions that move through it, outgrow cached_bytes(): half the last-level cache this
// process uses (the small_caches entry: 2 MiB). A scatter's never. Then a gather of 1 KiB rows
// from an input just past that size (under the small_caches entry; here, within 4 MiB) copies
// every row whole.
TEST(CopyRuns, RowsPrefetchedThatWaitOnTheirFirstLineOrComeFromMemory) {
  namespace detail = dmlref::detail;
  using detail::Flow;
  const std::int64_t length = detail::kFirstLineBoundBytes, fit = detail::cached_bytes() / length;
  auto prefetches = [&](Flow flow, std::int64_t row_length, std::int64_t rows, std::int64_t batch,
                        std::int64_t batch_stride) {
    return detail::prefetches_short_rows(rows_plan(flow, row_length, rows, batch, batch_stride),
                                         static_cast<std::size_t>(row_length));
  };
  EXPECT_TRUE(prefetches(Flow::gather, length - 64, 2, 1, 0));
  EXPECT_FALSE(prefetches(Flow::gather, length, fit, 1, 0));
  EXPECT_TRUE(prefetches(Flow::gather, length, fit + 1, 1, 0));
  EXPECT_FALSE(prefetches(Flow::scatter, length, fit + 1, 1, 0));
  EXPECT_FALSE(prefetches(Flow::scatter, length - 64, 2, 1, 0));
  EXPECT_TRUE(prefetches(Flow::gather, length, fit / 2 + 1, 2, (fit / 2 + 1) * length));
  EXPECT_FALSE(prefetches(Flow::gather, length, fit / 2 + 1, 2, 0));  // a broadcast batch reads the same rows

  const std::int64_t cols = length / std::int64_t{sizeof(float)};
  gather_picked_rows(std::min<std::int64_t>(fit + 1, 4096), cols, cols);
}

// copy_batched's CopyRun prefetches a run's first 8 lines and, where the run reaches into the next
// 4 KiB page, 8 of that page's too, but not for a gather's rows from memory (rows_from_memory, as
// above) on CPUs where those made rows that cross a page slower (prefetches_next_page_from_memory;
// the small_caches entry sets it off, as on AMD family 25, other_makes on). A scatter's always. Then a
// gather of 4 KiB rows at a padded pitch (each but every 64th crosses a page), from an input past
// cached_bytes() under the small_caches entry and within it here, copies every row whole.
TEST(CopyRuns, NextPagePrefetchedButForGatheredRowsFromMemory) {
  namespace detail = dmlref::detail;
  using detail::Flow;
  const std::int64_t length = detail::kPrefetchRunBytes, fit = detail::cached_bytes() / length;
  auto next_page = [&](Flow flow, std::int64_t rows, std::int64_t batch, std::int64_t batch_stride) {
    return detail::prefetches_next_page(rows_plan(flow, length, rows, batch, batch_stride),
                                        static_cast<std::size_t>(length));
  };
  const bool from_memory = detail::prefetches_next_page_from_memory();
  EXPECT_TRUE(next_page(Flow::gather, fit, 1, 0));
  EXPECT_EQ(next_page(Flow::gather, fit + 1, 1, 0), from_memory);
  EXPECT_TRUE(next_page(Flow::scatter, fit + 1, 1, 0));
  EXPECT_EQ(next_page(Flow::gather, fit / 2 + 1, 2, (fit / 2 + 1) * length), from_memory);
  EXPECT_TRUE(next_page(Flow::gather, fit / 2 + 1, 2, 0));  // a broadcast batch reads the same rows

  const std::int64_t cols = length / std::int64_t{sizeof(float)};
  gather_picked_rows(std::min<std::int64_t>(fit + 1, 600), cols, cols + 16);
}

// A scatter split by target (threads over colliding rows) walks every row of its share and writes
// only the rows whose target lies in its range: copy_runs on a ScatterND plan with row ranges
// and target ranges, through the batches and through copy_few_runs (at most 16 rows).
TEST(CopyRuns, ScatterRowsWithinATargetRange) {
  namespace detail = dmlref::detail;
  const std::int64_t rows = 9, cols = 70, count = 40;
  std::vector<float> in(static_cast<std::size_t>(rows * cols));
  for (std::int64_t e = 0; e < rows * cols; ++e) in[static_cast<std::size_t>(e)] = test_values::pattern<float>(e);
  std::vector<std::int64_t> targets(static_cast<std::size_t>(count));
  for (std::int64_t u = 0; u < count; ++u) targets[static_cast<std::size_t>(u)] = u % 4 == 3 ? (u * 5) % rows - rows : (u * 5) % rows;
  std::vector<float> updates(static_cast<std::size_t>(count * cols));
  for (std::size_t e = 0; e < updates.size(); ++e) updates[e] = test_values::pattern<float>(static_cast<std::int64_t>(e) + 7777);
  std::vector<float> out(in.size());
  const TensorView<const float> in_view(in.data(), {rows, cols});
  const TensorView<const std::int64_t> idx_view(targets.data(), {count, 1});
  const TensorView<const float> upd_view(updates.data(), {count, cols});
  const TensorView<float> out_view(out.data(), {rows, cols});
  const detail::RawTensor tensors[] = {detail::raw("InputTensor", in_view), detail::raw("IndicesTensor", idx_view),
                                       detail::raw("UpdatesTensor", upd_view), detail::raw("OutputTensor", out_view)};
  const detail::Plan plan = checked_plan<detail::ScatterNDOperator>(tensors, {2, 2});
  const std::size_t length = static_cast<std::size_t>(cols) * sizeof(float);
  struct Split {
    std::int64_t begin, end, lo, hi;
  };
  const Split splits[] = {{0, 40, 0, 4}, {0, 40, 4, 9}, {5, 40, 3, 6}, {0, 12, 2, 7}, {3, 15, 0, 9}, {30, 31, 0, 1}};
  for (const Split& split : splits) {
    out = in;
    detail::copy_runs<detail::Flow::scatter, std::int64_t>(plan, split.begin, split.end, {split.lo, split.hi}, length,
                                                           false);
    for (std::int64_t r = 0; r < rows; ++r) {
      const float* expected = in.data() + r * cols;
      if (r >= split.lo && r < split.hi)
        for (std::int64_t u = split.begin; u < split.end; ++u)
          if ((targets[static_cast<std::size_t>(u)] + rows) % rows == r) expected = updates.data() + u * cols;
      ASSERT_EQ(std::memcmp(out.data() + r * cols, expected, length), 0)
          << "rows [" << split.begin << ", " << split.end << "), targets [" << split.lo << ", " << split.hi
          << "): row " << r;
    }
  }
}

}  // namespace
