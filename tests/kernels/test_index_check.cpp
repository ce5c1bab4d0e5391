// The index check's edges. check_indices first scans whole lines branch-free (detail/index_check.hpp,
// line_in_range: a cache line at a time when packed, four interleaved chains, then a tail), and
// only on failure walks the indices again to name the first bad one. These cases put boundary values at every position of a run
// (inside the unrolled part and in the tail), in strided and tuple-shaped index tensors, for all
// four index types, and check both directions: every in-range value passes with the right output,
// and every out-of-range value is caught at its exact position, with the output untouched.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <utility>
#include <string>
#include <limits>
#include <vector>

#include "dmlref/dmlref.hpp"
#include "support/type_names.hpp"

namespace {

using dmlref::ErrorCode;
using dmlref::Shape;
using dmlref::TensorView;

template <class I>
class IndexCheck : public ::testing::Test {};
TYPED_TEST_SUITE(IndexCheck, IndexTypes, DataTypeNames);

/// Values that address a dimension of n (smallest and largest of each sign) and values just
/// outside it, plus the extremes of the type.
template <class I>
void boundary_values(std::int64_t n, std::vector<I>& good, std::vector<I>& bad) {
  good = {I(0), I(n - 1), I(n / 2)};
  bad = {I(n), std::numeric_limits<I>::max()};
  if constexpr (std::is_signed_v<I>) {
    good.push_back(I(-n));
    good.push_back(I(-1));
    bad.push_back(I(-n - 1));
    bad.push_back(std::numeric_limits<I>::min());
  }
}

// Gather on axis 1 of [2, n] with a row of `count` indices, every one 0 but one, at each position
// `at`: both the scan's unrolled body (positions < count - count % 4) and its tail.
TYPED_TEST(IndexCheck, EveryPositionOfARunBothDirections) {
  using I = TypeParam;
  const std::int64_t n = 7;
  std::vector<float> input(2 * n);
  for (std::size_t e = 0; e < input.size(); ++e) input[e] = static_cast<float>(e) + 0.5f;
  std::vector<I> good, bad;
  boundary_values<I>(n, good, bad);
  // Gathers a row of `count` zero indices but for v at `at` into output ([2, count]).
  auto gather_one = [&](std::int64_t count, std::int64_t at, I v, std::vector<float>& output) {
    std::vector<I> indices(static_cast<std::size_t>(count), I(0));
    indices[static_cast<std::size_t>(at)] = v;
    return dmlref::try_gather(TensorView<const float>(input.data(), {2, n}),
                              TensorView<const I>(indices.data(), {1, count}),
                              TensorView<float>(output.data(), {2, count}), {1, 1});
  };
  // Up to two cache lines of indices and a tail (a cache line holds 16 or 8 of them).
  for (const std::int64_t count : {1, 3, 4, 9, 14, 16, 17, 35}) {
    for (std::int64_t at = 0; at < count; ++at) {
      for (const I v : good) {
        std::vector<float> output(static_cast<std::size_t>(2 * count), -1.0f);
        const dmlref::Status s = gather_one(count, at, v, output);
        ASSERT_TRUE(s) << s.message();
        const std::int64_t signed_v = static_cast<std::int64_t>(v);
        const std::int64_t column = signed_v < 0 ? signed_v + n : signed_v;
        for (std::int64_t row = 0; row < 2; ++row)
          EXPECT_EQ(output[static_cast<std::size_t>(row * count + at)], input[static_cast<std::size_t>(row * n + column)])
              << "count " << count << " at " << at << " value " << signed_v;
      }
      for (const I v : bad) {
        std::vector<float> output(static_cast<std::size_t>(2 * count), -1.0f);
        const dmlref::Status s = gather_one(count, at, v, output);
        ASSERT_FALSE(s) << "count " << count << " at " << at;
        EXPECT_EQ(s.code(), ErrorCode::index_out_of_range);
        EXPECT_EQ(s.error().position, (Shape{0, at}));
        for (const float x : output) ASSERT_EQ(x, -1.0f) << "output written on error";
      }
    }
  }
}

// Strided index lines (every third element of a padded buffer; the padding holds bad values that
// must be ignored) and GatherND tuples whose two coordinates have different bounds.
TYPED_TEST(IndexCheck, StridedLinesAndTupleBounds) {
  using I = TypeParam;
  const std::int64_t count = 11;
  std::vector<I> padded(static_cast<std::size_t>(3 * count), I(100));  // 100 is out of range
  for (std::int64_t j = 0; j < count; ++j) padded[static_cast<std::size_t>(3 * j)] = I(j % 5);
  std::vector<float> input(5 * 2, 1.0f), output(static_cast<std::size_t>(count) * 2, 0.0f);
  auto gather_rows = [&]() {
    return dmlref::try_gather(TensorView<const float>(input.data(), {5, 2}),
                              TensorView<const I>(padded.data(), {1, count}, {0, 3}),
                              TensorView<float>(output.data(), {count, 2}), {0, 1});
  };
  ASSERT_TRUE(gather_rows());
  padded[3 * 10] = I(5);
  const dmlref::Status s = gather_rows();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().position, (Shape{0, 10}));

  // Tuples (a, b) into [6, 3]: a < 6 and b < 3. A b of 3..5 passes the first bound, not its own.
  const std::int64_t tuples = 9;
  std::vector<float> nd_input(18, 2.0f), nd_output(static_cast<std::size_t>(tuples), 0.0f);
  for (std::int64_t bad_at = -1; bad_at < tuples; ++bad_at) {
    std::vector<I> pairs;
    for (std::int64_t t = 0; t < tuples; ++t) {
      pairs.push_back(I(5));
      pairs.push_back(I(t == bad_at ? 3 : 2));
    }
    const dmlref::Status nd =
        dmlref::try_gather_nd(TensorView<const float>(nd_input.data(), {6, 3}),
                              TensorView<const I>(pairs.data(), {tuples, 2}),
                              TensorView<float>(nd_output.data(), {1, tuples}), {2, 2});
    if (bad_at < 0) {
      EXPECT_TRUE(nd) << nd.message();
    } else {
      ASSERT_FALSE(nd);
      EXPECT_EQ(nd.error().position, (Shape{bad_at, 1}));
      EXPECT_EQ(nd.error().target_dimension, 1);
    }
  }
}

// A broadcast input dimension of 2^62 + 1 elements (stride 0): the signed fast scan's 2n no longer
// fits below 2^63, so the exact check decides; the values on both sides of the bound are right.
TYPED_TEST(IndexCheck, HugeBroadcastDimension) {
  using I = TypeParam;
  if constexpr (sizeof(I) == 8) {
    const std::int64_t n = (std::int64_t{1} << 62) + 1;
    const float one = 3.0f;
    float output[2] = {0.0f, 0.0f};
    auto gather = [&](I a, I b) {
      const I indices[2] = {a, b};
      return dmlref::try_gather(TensorView<const float>(&one, {n}, {0}), TensorView<const I>(indices, {2}),
                                TensorView<float>(output, {2}), {0, 1});
    };
    EXPECT_TRUE(gather(I(n - 1), I(0)));
    EXPECT_EQ(output[0], 3.0f);
    EXPECT_FALSE(gather(I(0), I(n)));
    if constexpr (std::is_signed_v<I>) {
      EXPECT_TRUE(gather(I(-n), I(-1)));
      const dmlref::Status s = gather(I(0), I(-n - 1));
      ASSERT_FALSE(s);
      EXPECT_EQ(s.error().position, (Shape{1}));
    }
  }
}

// 4-byte indices are scanned in 32-bit vector lanes while range_limit(n) is at most 2^31 (signed:
// n up to 2^30; unsigned: up to 2^31), and 64 bits wide above. Broadcast dimensions on both sides
// of those bounds, with each boundary value at every position of two cache lines of indices. (A
// value the scan flags wrongly is cleared by the exact walk; what must never happen is a bad value
// that the scan lets through.)
TYPED_TEST(IndexCheck, FourByteLaneBounds) {
  using I = TypeParam;
  if constexpr (sizeof(I) == 4) {
    const std::int64_t lane_bound = std::is_signed_v<I> ? std::int64_t{1} << 30 : std::int64_t{1} << 31;
    for (const std::int64_t n : {lane_bound - 1, lane_bound, lane_bound + 1}) {
      std::vector<I> good, bad;
      boundary_values<I>(n, good, bad);
      const float one = 5.0f;
      constexpr std::int64_t count = 32;
      float output[count];
      for (std::int64_t at = 0; at < count; at += 5) {
        std::vector<I> indices(count, I(1));
        auto gather = [&](I v) {
          indices[static_cast<std::size_t>(at)] = v;
          return dmlref::try_gather(TensorView<const float>(&one, {n}, {0}), TensorView<const I>(indices.data(), {count}),
                                    TensorView<float>(output, {count}), {0, 1});
        };
        for (const I v : good) EXPECT_TRUE(gather(v)) << "n " << n << " at " << at << " value " << +v;
        for (const I v : bad) {
          const dmlref::Status s = gather(v);
          ASSERT_FALSE(s) << "n " << n << " at " << at << " value " << +v;
          EXPECT_EQ(s.error().position, (Shape{at}));
        }
      }
    }
  }
}

#if DMLREF_HAS_VECTOR_LANES
// The scan of whole cache lines in each lane width this host can run (16 bytes everywhere, AVX2's
// 32 where the CPU has it: a process uses one, so each is called here directly), against the
// scalar definition: all in range, and each boundary value alone at every position of up to
// five cache lines.
TYPED_TEST(IndexCheck, EveryLaneWidthAgainstTheScalarDefinition) {
  using I = TypeParam;
  using namespace dmlref::detail;
  using Scan = bool (*)(const unsigned char*, std::int64_t, std::uint64_t, std::uint64_t);
  std::vector<std::pair<const char*, Scan>> scans = {
      {"16-byte lanes", [](const unsigned char* at, std::int64_t lines, std::uint64_t n, std::uint64_t last) {
         return lines_in_range_lanes<I, 16>(at, lines, n, last);
       }}};
#  if DMLREF_HAS_AVX2_SCAN
  if (__builtin_cpu_supports("avx2")) scans.push_back({"AVX2 lanes", &lines_in_range_avx2<I>});
#  endif
  constexpr std::int64_t per_line = 64 / sizeof(I);
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{7}, std::int64_t{4096}, std::int64_t{1} << 30}) {
    const std::uint64_t limit = range_limit<I>(static_cast<std::uint64_t>(n));
    if (!scans_in_lanes<I>(limit)) continue;
    std::vector<I> good, bad;
    boundary_values<I>(n, good, bad);
    for (const std::int64_t lines : {1, 2, 5}) {
      std::vector<I> values(static_cast<std::size_t>(lines * per_line));
      for (std::size_t k = 0; k < values.size(); ++k) values[k] = good[k % good.size()];
      auto bytes = reinterpret_cast<const unsigned char*>(values.data());
      for (const auto& [name, scan] : scans) {
        EXPECT_TRUE(scan(bytes, lines, static_cast<std::uint64_t>(n), limit - 1)) << name << ", n " << n;
        for (std::size_t at = 0; at < values.size(); ++at) {
          const I kept = values[at];
          for (const I v : bad) {
            values[at] = v;
            EXPECT_FALSE(scan(bytes, lines, static_cast<std::uint64_t>(n), limit - 1))
                << name << ", n " << n << ", value " << +v << " at " << at << " of " << values.size();
          }
          values[at] = kept;
        }
      }
    }
  }
}
#endif

// DMLREF_AVX2=0 turns the AVX2 scan off; nothing turns it on where the CPU lacks it.
TEST(IndexCheckLanes, Avx2FromTheEnvironmentAndTheCpu) {
  using dmlref::detail::avx2_scan_from;
  EXPECT_TRUE(avx2_scan_from(nullptr, true));
  EXPECT_FALSE(avx2_scan_from("0", true));
  for (const char* text : {"", "1", "00", "no", " 0"}) EXPECT_TRUE(avx2_scan_from(text, true)) << text;
  for (const char* text : {static_cast<const char*>(nullptr), "0", "1"}) EXPECT_FALSE(avx2_scan_from(text, false));
  const char* text = std::getenv("DMLREF_AVX2");
  if (text != nullptr && std::string(text) == "0") {
    EXPECT_FALSE(dmlref::detail::scans_with_avx2());
  }
}

}  // namespace
