// A golden test of a user's own kernel against dmlref, with GoogleTest and dmlref/gtest.hpp.
//
// `naive_gather_nd1` below stands for the kernel under test: a GatherND1 (ONNX GatherND with
// batch_dims) written in plain loops straight from the formula, the way a first CPU fallback or a
// GPU shader's CPU twin is written. Each test builds inputs, lets dmlref compute the expected
// output (the golden), runs the kernel, and compares the two bit for bit:
//
//   DMLREF_EXPECT_TENSOR_EQ(actual, expected);
//
// Run as is, every test passes (this is how it runs under ctest). Run with --flawed, the kernel
// copies each element by adding it to a zero-initialised output, as kernels that accumulate do:
// numerically harmless, but -0.0 becomes +0.0 and a signalling NaN becomes quiet. A value-based
// comparison (numpy.testing, EXPECT_FLOAT_EQ) would pass; the bit-exact one fails, and its report
// shows where and how:
//
//   build/dev/examples/golden_test --flawed
//
//   out differs from golden (bit-exact) in 12 of 96 elements (12.5%)
//     both: FLOAT16 {1, 1, 4, 3, 8}
//     first 10 mismatches:
//       at [0, 0, 0, 0, 1]: actual 0 (0x0000), expected -0 (0x8000)
//       ...
//       at [0, 0, 1, 0, 5]: actual nan (0x7f00), expected nan (0x7d00)
//       ...
//       ... and 2 more
//
// DMLREF_EXPECT_GOLDEN computes the golden itself and adds where the first mismatching elements
// should have come from (docs/explain.md). Test ExplainedReport prints the report of a candidate
// with two wrong elements on every run (the comparison is expected to fail there):
//
//   candidate differs from dmlref's GatherND1 (bit-exact) in 2 of 6 elements (33.3%)
//     both: FLOAT32 {1, 1, 3, 2}
//     mismatches:
//       at [0, 0, 1, 0]: actual 6 (0x40c00000), expected 7 (0x40e00000)
//       at [0, 0, 2, 1]: actual 11 (0x41300000), expected 10 (0x41200000)
//     explained:
//       output[0,0,1,0]: expected 7 (0x40e00000), got 6 (0x40c00000); expected = input[0,1,1,1], from indices[0,1,0,0] = 1 → 1 (dimension 2), indices[0,1,0,1] = 1 → 1 (dimension 3)
//       output[0,0,2,1]: expected 10 (0x41200000), got 11 (0x41300000); expected = input[0,2,1,0], from indices[0,2,1,0] = 1 → 1 (dimension 2), indices[0,2,1,1] = 0 → 0 (dimension 3)
//
// Other GoogleTest flags work as usual (--gtest_filter=..., --gtest_repeat=...).
#include <dmlref/dmlref.hpp>
#include <dmlref/gtest.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace {

bool flawed = false;  // set by --flawed

// ---- the kernel under test ----------------------------------------------------------------------

/// Row-major position of `coordinate` in a packed tensor of `sizes`.
std::int64_t flat(const std::vector<std::int64_t>& sizes, const std::vector<std::int64_t>& coordinate) {
  std::int64_t offset = 0;
  for (std::size_t d = 0; d < sizes.size(); ++d) offset = offset * sizes[d] + coordinate[d];
  return offset;
}

/// The element copy. The flawed variant accumulates into zero, in float arithmetic.
template <class T>
T copy_element(T value) {
  if (!flawed) return value;
  if constexpr (std::is_same_v<T, dmlref::float16>) {
    return dmlref::float16::from_float(0.0f + value.to_float());
  } else {
    T sum = T(0);
    sum += value;
    return sum;
  }
}

/// GatherND1 on packed tensors that all have DimensionCount D = input_sizes.size(), r meaningful
/// input dimensions, q meaningful index dimensions and B batch dimensions (DirectML's fields).
/// Straight from the formula: for every output coordinate, find the tuple, read it, normalise
/// negative indices, and copy one element. No validation: the caller passes valid shapes.
template <class T, class I>
void naive_gather_nd1(const T* input, const std::vector<std::int64_t>& input_sizes, const I* indices,
                      const std::vector<std::int64_t>& indices_sizes, int r, int q, int B, T* output,
                      const std::vector<std::int64_t>& output_sizes) {
  const int D = static_cast<int>(input_sizes.size());
  const int K = static_cast<int>(indices_sizes[D - 1]);
  const int M = (q - 1) + (r - B - K);  // meaningful output dimensions
  std::int64_t count = 1;
  for (std::int64_t s : output_sizes) count *= s;
  std::vector<std::int64_t> o(D), tuple_at(D), in_at(D);
  for (std::int64_t n = 0; n < count; ++n) {
    // o: the output coordinate of element n.
    std::int64_t rest = n;
    for (int d = D - 1; d >= 0; --d) {
      o[d] = rest % output_sizes[d];
      rest /= output_sizes[d];
    }
    // The output's meaningful coordinates are g (which tuple; batch first) then t (in the block).
    const std::int64_t* g = o.data() + (D - M);
    const std::int64_t* t = g + (q - 1);
    std::fill(in_at.begin(), in_at.end(), 0);
    for (int j = 0; j < B; ++j) in_at[D - r + j] = g[j];
    std::fill(tuple_at.begin(), tuple_at.end(), 0);
    for (int j = 0; j < q - 1; ++j) tuple_at[D - q + j] = g[j];
    for (int k = 0; k < K; ++k) {
      tuple_at[D - 1] = k;
      std::int64_t index = static_cast<std::int64_t>(indices[flat(indices_sizes, tuple_at)]);
      const std::int64_t n_k = input_sizes[D - r + B + k];
      if (index < 0) index += n_k;  // negative indices count from the end
      in_at[D - r + B + k] = index;
    }
    for (int m = 0; m < r - B - K; ++m) in_at[D - r + B + K + m] = t[m];
    output[n] = copy_element(input[flat(input_sizes, in_at)]);
  }
}

// ---- the golden test ----------------------------------------------------------------------------

/// A small deterministic generator (the same numbers on every platform).
struct Random {
  std::uint64_t state;
  std::uint64_t next() {
    state = state * 6364136223846793005u + 1442695040888963407u;
    return state >> 33;
  }
  std::int64_t below(std::int64_t n) { return static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(n)); }
};

std::int64_t product(const std::vector<std::int64_t>& sizes) {
  std::int64_t n = 1;
  for (std::int64_t s : sizes) n *= s;
  return n;
}

dmlref::Shape shape(const std::vector<std::int64_t>& sizes) { return dmlref::Shape::from(sizes.data(), sizes.size()); }

/// Data worth copying bit for bit: ordinary values plus, for floats, -0.0, NaNs with payloads
/// (quiet and signalling), infinities and subnormals.
template <class T>
std::vector<T> interesting_values(std::int64_t count, Random& random) {
  std::vector<T> values(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::int64_t pick = random.below(16);
    if constexpr (std::is_same_v<T, dmlref::float16>) {
      static const std::uint16_t special[] = {0x8000, 0x7e01, 0x7d00, 0xfc00, 0x0001, 0x83ff};
      values[i] = pick < 6 ? dmlref::float16::from_bits(special[pick])
                           : dmlref::float16::from_float(static_cast<float>(random.below(2001) - 1000) / 8);
    } else if constexpr (std::is_floating_point_v<T>) {
      values[i] = pick == 0 ? T(-0.0) : static_cast<T>(random.below(2001) - 1000) / 8;
      if (pick == 1) {
        std::uint64_t bits = sizeof(T) == 4 ? 0x7fa00001u : 0x7ff4000000000001u;  // signalling NaN
        std::memcpy(&values[i], &bits, sizeof(T));
      }
    } else {
      values[i] = static_cast<T>(random.next());
    }
  }
  return values;
}

/// One golden comparison: random data of type T, valid random indices of type I (negative ones
/// too, when I is signed), dmlref's GatherND1 as the golden, the naive kernel as the candidate.
template <class T, class I>
void check_against_dmlref(const std::vector<std::int64_t>& input_sizes, const std::vector<std::int64_t>& indices_sizes,
                          int r, int q, int B, std::uint64_t seed) {
  Random random{seed};
  const std::vector<T> input = interesting_values<T>(product(input_sizes), random);
  const int D = static_cast<int>(input_sizes.size());
  std::vector<I> indices(static_cast<std::size_t>(product(indices_sizes)));
  const std::int64_t K = indices_sizes[D - 1];
  for (std::size_t n = 0; n < indices.size(); ++n) {
    const std::int64_t size = input_sizes[D - r + B + static_cast<int>(static_cast<std::int64_t>(n) % K)];
    std::int64_t value = random.below(size);
    if (std::is_signed_v<I> && random.below(2) == 1) value -= size;  // the same element, from the end
    indices[n] = static_cast<I>(value);
  }

  // dmlref's shape helper gives the output sizes (and rejects shapes the kernel must never see).
  const dmlref::GatherND1Params params{static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(q),
                                       static_cast<std::uint32_t>(B)};
  const dmlref::Result<dmlref::Shape> out_shape = dmlref::gather_nd1_output_sizes(shape(input_sizes), shape(indices_sizes), params);
  ASSERT_TRUE(out_shape.ok()) << out_shape.status().message();
  const std::vector<std::int64_t> output_sizes(out_shape.value().begin(), out_shape.value().end());

  std::vector<T> golden_values(static_cast<std::size_t>(product(output_sizes)));
  const dmlref::TensorView<T> golden(golden_values.data(), out_shape.value());
  const dmlref::Status status = dmlref::try_gather_nd1(dmlref::TensorView<const T>(input.data(), shape(input_sizes)),
                                                       dmlref::TensorView<const I>(indices.data(), shape(indices_sizes)),
                                                       golden, params);
  ASSERT_TRUE(status.ok()) << status.message();

  std::vector<T> out_values(golden_values.size());
  naive_gather_nd1(input.data(), input_sizes, indices.data(), indices_sizes, r, q, B, out_values.data(), output_sizes);
  const dmlref::TensorView<const T> out(out_values.data(), out_shape.value());

  DMLREF_EXPECT_TENSOR_EQ(out, golden);
  // The same in one call, with the first mismatches explained.
  DMLREF_EXPECT_GOLDEN(out, dmlref::testing::gather_nd1(dmlref::TensorView<const T>(input.data(), shape(input_sizes)),
                                                        dmlref::TensorView<const I>(indices.data(), shape(indices_sizes)),
                                                        params));
}

TEST(NaiveGatherND1, SpecExampleGN1_2) {
  // DML_GATHER_ND1_OPERATOR_DESC, Example 2: one batch dimension, 2-tuples.
  const std::vector<float> input{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  const std::vector<std::uint32_t> indices{0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0};
  const std::vector<float> expected{0, 3, 7, 4, 9, 10};
  std::vector<float> out(6);
  naive_gather_nd1(input.data(), {1, 3, 2, 2}, indices.data(), {1, 3, 2, 2}, 3, 3, 1, out.data(), {1, 1, 3, 2});
  // Hand-written expectations compare the same way as dmlref goldens.
  DMLREF_EXPECT_TENSOR_EQ(dmlref::TensorView<const float>(out.data(), {1, 1, 3, 2}),
                          dmlref::TensorView<const float>(expected.data(), {1, 1, 3, 2}));
  check_against_dmlref<float, std::uint32_t>({1, 3, 2, 2}, {1, 3, 2, 2}, 3, 3, 1, 1);
}

TEST(NaiveGatherND1, ExplainedReport) {
  // GN1-2 again, with a candidate that has two wrong elements: the report says where they should
  // have come from. It is printed, and the comparison must fail.
  const std::vector<float> input{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  const std::vector<std::uint32_t> indices{0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0};
  const std::vector<float> candidate_values{0, 3, 6, 4, 9, 11};
  const dmlref::TensorView<const float> candidate(candidate_values.data(), {1, 1, 3, 2});
  const ::testing::AssertionResult result = dmlref::testing::golden_format(
      "candidate", "golden", candidate,
      dmlref::testing::gather_nd1(dmlref::TensorView<const float>(input.data(), {1, 3, 2, 2}),
                                  dmlref::TensorView<const std::uint32_t>(indices.data(), {1, 3, 2, 2}),
                                  dmlref::GatherND1Params{3, 3, 1}));
  EXPECT_FALSE(result);
  std::printf("%s\n", result.message());
}

TEST(NaiveGatherND1, NoBatchRowBlocks) {
  // GatherND: 1-tuples select whole rows of a {6, 8} input.
  check_against_dmlref<float, std::int32_t>({6, 8}, {5, 1}, 2, 2, 0, 2);
}

TEST(NaiveGatherND1, Float16SpecialValuesWithNegativeIndices) {
  // Batches of 4; each batch holds 3 2-tuples into a {5, 6} grid, selecting rows of 8.
  check_against_dmlref<dmlref::float16, std::int64_t>({1, 4, 5, 6, 8}, {1, 1, 4, 3, 2}, 4, 3, 1, 3);
}

TEST(NaiveGatherND1, FullTuplesSelectSingleElements) {
  // K = r - B: every tuple addresses one element, no block.
  check_against_dmlref<double, std::int64_t>({2, 3, 4, 5}, {1, 2, 7, 3}, 4, 3, 1, 4);
  check_against_dmlref<double, std::int64_t>({1, 2, 3, 4, 5}, {1, 1, 1, 2, 3}, 4, 2, 1, 5);
}

TEST(NaiveGatherND1, IntegerData) {
  check_against_dmlref<std::int8_t, std::uint64_t>({3, 4, 5}, {3, 2, 1}, 3, 3, 1, 6);
  check_against_dmlref<std::uint16_t, std::uint32_t>({1, 9, 7}, {1, 4, 2}, 2, 2, 0, 7);
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);  // removes the --gtest_* flags it knows
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--flawed") {
      flawed = true;
    } else {
      std::fprintf(stderr, "usage: %s [--flawed] [GoogleTest flags]\n", argv[0]);
      return 2;
    }
  }
  if (flawed) std::printf("--flawed: the kernel accumulates into zero; expect bit-exact failures\n");
  return RUN_ALL_TESTS();
}
