// Scatter reductions (ONNX's `reduction` attribute: none, add, mul, max, min) for all eleven data
// types, through every layer that carries them:
//   - the DirectML-convention typed layer: try_scatter / try_scatter_nd over TensorView<T> with
//     ScatterParams{Axis, Reduction} / ScatterNDParams{r, q, Reduction};
//   - the dispatch layer (TensorDesc), also in place;
//   - the ONNX helpers: onnx::try_scatter_elements (negative axis, INT32 indices) and
//     onnx::try_scatter_nd.
// Expected values come from the loops below, written from the documented semantics
// (reduction.hpp) without dmlref: updates combine in row-major order of UpdatesTensor; float16
// converts to float, computes, and rounds back to float16 after every step; float32/float64 use
// the hardware's IEEE arithmetic; integers wrap (two's complement); max/min return the output's
// NaN if it has one, else the update's, else the larger/smaller value, keeping the output's
// value on ties (-0 vs +0). All comparisons are bit for bit.
#include <gtest/gtest.h>

#include <dmlref/dmlref.hpp>
#include <dmlref/onnx.hpp>
#include "support/type_names.hpp"

#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using dmlref::DataType;
using dmlref::Reduction;
using dmlref::float16;

// ---- the reference arithmetic, independent of dmlref's kernels ----

template <class E>
bool is_nan(E v) {
  if constexpr (std::is_same_v<E, float16>) {
    return (v.bits & 0x7C00u) == 0x7C00u && (v.bits & 0x03FFu) != 0;
  } else if constexpr (std::is_floating_point_v<E>) {
    return v != v;
  } else {
    (void)v;
    return false;
  }
}

/// a (the output element so far) combined with b (the update).
template <class E>
E combine(Reduction r, E a, E b) {
  if (r == Reduction::none) return b;
  if (r == Reduction::max || r == Reduction::min) {
    if (is_nan(a)) return a;
    if (is_nan(b)) return b;
    bool b_wins;
    if constexpr (std::is_same_v<E, float16>) {
      b_wins = r == Reduction::max ? b.to_float() > a.to_float() : b.to_float() < a.to_float();
    } else {
      b_wins = r == Reduction::max ? b > a : b < a;
    }
    return b_wins ? b : a;
  }
  if constexpr (std::is_same_v<E, float16>) {
    const float x = a.to_float(), y = b.to_float();
    return float16::from_float(r == Reduction::add ? x + y : x * y);
  } else if constexpr (std::is_floating_point_v<E>) {
    return r == Reduction::add ? a + b : a * b;
  } else {
    // Wrap-around through 64-bit unsigned arithmetic, then keep the low bits.
    using U = std::make_unsigned_t<E>;
    const std::uint64_t x = static_cast<U>(a), y = static_cast<U>(b);
    return static_cast<E>(static_cast<U>(r == Reduction::add ? x + y : x * y));
  }
}

// ---- values: each type's special cases ----

template <class E>
E from_bits(std::uint64_t bits) {
  E v;
  if constexpr (sizeof(E) == 2) {
    const auto b = static_cast<std::uint16_t>(bits);
    std::memcpy(&v, &b, 2);
  } else if constexpr (sizeof(E) == 4) {
    const auto b = static_cast<std::uint32_t>(bits);
    std::memcpy(&v, &b, 4);
  } else {
    std::memcpy(&v, &bits, 8);
  }
  return v;
}

/// Values for data (`first`) or updates; NaNs only where allowed (add/mul with a NaN on both sides
/// would make the result's payload depend on operand order, which no one specifies).
template <class E>
std::vector<E> pool(bool data, bool nans) {
  std::vector<E> v;
  if constexpr (std::is_same_v<E, float16>) {
    // 2048 (+1 rounds back to 2048), 1, 65504 (max), -0, +0, inf, -inf, smallest subnormal,
    // 0.333, -5, 0.5, NaN with payload, signalling NaN.
    const std::uint16_t bits[] = {0x6800, 0x3C00, 0x7BFF, 0x8000, 0x0000, 0x7C00, 0xFC00,
                                  0x0001, 0x3555, 0xC500, 0x3800, 0x4248};
    for (std::uint16_t b : bits) v.push_back(float16::from_bits(b));
    if (nans) v.push_back(float16::from_bits(data ? 0x7E12 : 0xFE01));
    if (nans && data) v.push_back(float16::from_bits(0x7C05));
  } else if constexpr (std::is_same_v<E, float>) {
    const std::uint32_t bits[] = {0x3FC00000u, 0x7F7FFFFFu, 0x80000000u, 0x00000000u, 0x7F800000u, 0xFF800000u,
                                  0x00000001u, 0x3DCCCCCDu, 0xC1100000u, 0x4B800000u, 0x33800000u, 0x40490FDBu};
    for (std::uint32_t b : bits) v.push_back(from_bits<float>(b));
    if (nans) v.push_back(from_bits<float>(data ? 0x7FC12345u : 0xFFC00001u));
  } else if constexpr (std::is_same_v<E, double>) {
    const std::uint64_t bits[] = {0x3FF8000000000000ull, 0x7FEFFFFFFFFFFFFFull, 0x8000000000000000ull,
                                  0x0000000000000000ull, 0x7FF0000000000000ull, 0xFFF0000000000000ull,
                                  0x0000000000000001ull, 0x3FB999999999999Aull, 0xC022000000000000ull,
                                  0x4340000000000000ull, 0x3CA0000000000000ull, 0x400921FB54442D18ull};
    for (std::uint64_t b : bits) v.push_back(from_bits<double>(b));
    if (nans) v.push_back(from_bits<double>(data ? 0x7FF8000000012345ull : 0xFFF8000000000001ull));
  } else {
    using L = std::numeric_limits<E>;
    const E values[] = {L::max(), L::min(), E(0), E(1), E(2), E(L::max() / 2 + 1), E(L::max() - 1),
                        E(100), E(static_cast<E>(-1)), E(static_cast<E>(-100)), E(3), E(L::max() / 3)};
    for (E x : values) v.push_back(x);
  }
  return v;
}

template <class E>
std::vector<E> take(const std::vector<E>& from, std::size_t count, std::size_t stride, std::size_t start) {
  std::vector<E> out;
  for (std::size_t i = 0; i < count; ++i) out.push_back(from[(start + i * stride) % from.size()]);
  return out;
}

/// `count` values of the data pool (`data`) or the updates pool for reduction `r`: with NaNs only
/// for max and min.
template <class E>
std::vector<E> values_for(Reduction r, bool data, std::size_t count, std::size_t stride, std::size_t start) {
  const bool nans = r == Reduction::max || r == Reduction::min;
  return take(pool<E>(data, nans), count, stride, start);
}

template <class E>
std::string bits_of(const std::vector<E>& v) {
  std::ostringstream s;
  s << std::hex;
  for (const E& x : v) {
    std::uint64_t b = 0;
    std::memcpy(&b, &x, sizeof(E));
    s << b << ' ';
  }
  return s.str();
}

constexpr Reduction kReductions[] = {Reduction::none, Reduction::add, Reduction::mul, Reduction::max, Reduction::min};

/// ScatterElements along axis 0 of data {3, 4}: indices {5, 4} with repeated (and negative) rows,
/// so every column is updated several times in row-major order.
const std::vector<std::int64_t> kElementIndices = {0, 2, -1, 1,   //
                                                   -3, 2, 2, 0,   //
                                                   0, -1, 1, 1,   //
                                                   1, 0, -2, -3,  //
                                                   0, 1, 2, 0};

/// An index into a dimension of n: negative values count from the end.
std::int64_t wrap(std::int64_t i, std::int64_t n) { return i < 0 ? i + n : i; }

/// `data` {3, 4} with each of `updates`, in order, combined into the element at(u).
template <class E, class At>
std::vector<E> combined(Reduction r, const std::vector<E>& data, const std::vector<E>& updates, At at) {
  std::vector<E> out = data;
  for (std::size_t u = 0; u < updates.size(); ++u) {
    const auto o = static_cast<std::size_t>(at(u));
    out[o] = combine(r, out[o], updates[u]);
  }
  return out;
}

template <class E>
std::vector<E> expected_elements(Reduction r, const std::vector<E>& data, const std::vector<E>& updates) {
  return combined(r, data, updates, [](std::size_t u) {
    return wrap(kElementIndices[u], 3) * 4 + static_cast<std::int64_t>(u % 4);
  });
}

/// ScatterND of rows (K = 1) into data {3, 4}: tuples {6, 1}, updates {6, 4}.
const std::vector<std::int32_t> kRowTuples = {2, 0, -1, 1, -3, 2};
/// ScatterND of elements (K = 2) into data {3, 4}: tuples {7, 2}, updates {7}.
const std::vector<std::int64_t> kElementTuples = {1, 2, -2, -2, 0, 0, 1, 2, 2, -1, 0, -4, 1, 2};

template <class E>
std::vector<E> expected_rows(Reduction r, const std::vector<E>& data, const std::vector<E>& updates) {
  return combined(r, data, updates, [](std::size_t u) {
    return wrap(kRowTuples[u / 4], 3) * 4 + static_cast<std::int64_t>(u % 4);
  });
}

template <class E>
std::vector<E> expected_points(Reduction r, const std::vector<E>& data, const std::vector<E>& updates) {
  return combined(r, data, updates,
                  [](std::size_t u) { return wrap(kElementTuples[2 * u], 3) * 4 + wrap(kElementTuples[2 * u + 1], 4); });
}

template <class E>
dmlref::TensorDesc desc(const std::vector<E>& v, const std::vector<std::int64_t>& sizes) {
  return dmlref::TensorDesc{dmlref::data_type_v<E>, static_cast<std::uint32_t>(sizes.size()), sizes.data(), nullptr,
                            v.size() * sizeof(E), v.data()};
}
template <class E>
dmlref::MutableTensorDesc mutable_desc(std::vector<E>& v, const std::vector<std::int64_t>& sizes) {
  return dmlref::MutableTensorDesc{dmlref::data_type_v<E>, static_cast<std::uint32_t>(sizes.size()), sizes.data(),
                                   nullptr, v.size() * sizeof(E), v.data()};
}

template <class E>
class OnnxReductions : public ::testing::Test {};

using AllTypes = ::testing::Types<float, float16, double, std::int8_t, std::int16_t, std::int32_t, std::int64_t,
                                  std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t>;

TYPED_TEST_SUITE(OnnxReductions, AllTypes, DataTypeNames);

TYPED_TEST(OnnxReductions, ScatterElementsOnEveryLayer) {
  using E = TypeParam;
  for (Reduction r : kReductions) {
    SCOPED_TRACE(dmlref::name(r));
    const std::vector<E> data = values_for<E>(r, true, 12, 5, 0);
    const std::vector<E> updates = values_for<E>(r, false, 20, 7, 3);
    const std::vector<E> expected = expected_elements(r, data, updates);
    const std::string want = bits_of(expected);

    // Typed DirectML layer.
    std::vector<E> out(12);
    ASSERT_TRUE(dmlref::try_scatter(dmlref::TensorView<const E>(data.data(), {3, 4}),
                                    dmlref::TensorView<const std::int64_t>(kElementIndices.data(), {5, 4}),
                                    dmlref::TensorView<const E>(updates.data(), {5, 4}),
                                    dmlref::TensorView<E>(out.data(), {3, 4}), dmlref::ScatterParams{0, r})
                    .ok());
    EXPECT_EQ(bits_of(out), want) << "typed";

    // Dispatch layer, and in place.
    const std::vector<std::int64_t> data_sizes{3, 4}, index_sizes{5, 4};
    std::vector<E> out2(12);
    ASSERT_TRUE(dmlref::try_scatter_elements(desc(data, data_sizes), desc(kElementIndices, index_sizes),
                                             desc(updates, index_sizes), mutable_desc(out2, data_sizes),
                                             dmlref::ScatterElementsParams{0, r})
                    .ok());
    EXPECT_EQ(bits_of(out2), want) << "dispatch";
    std::vector<E> in_place = data;
    ASSERT_TRUE(dmlref::try_scatter(desc(in_place, data_sizes), desc(kElementIndices, index_sizes),
                                    desc(updates, index_sizes), mutable_desc(in_place, data_sizes),
                                    dmlref::ScatterParams{0, r})
                    .ok());
    EXPECT_EQ(bits_of(in_place), want) << "dispatch in place";

    // ONNX helper: axis -2, INT32 indices.
    std::vector<std::int32_t> indices32(kElementIndices.begin(), kElementIndices.end());
    std::vector<E> out3(12);
    ASSERT_TRUE(dmlref::onnx::try_scatter_elements(desc(data, data_sizes), desc(indices32, index_sizes),
                                                   desc(updates, index_sizes), mutable_desc(out3, data_sizes), -2, r)
                    .ok());
    EXPECT_EQ(bits_of(out3), want) << "onnx";
  }
}

TYPED_TEST(OnnxReductions, ScatterNDOnEveryLayer) {
  using E = TypeParam;
  for (Reduction r : kReductions) {
    SCOPED_TRACE(dmlref::name(r));
    const std::vector<E> data = values_for<E>(r, true, 12, 7, 1);
    const std::vector<E> rows = values_for<E>(r, false, 24, 5, 2);
    const std::vector<E> points = values_for<E>(r, false, 7, 3, 4);
    const std::string want_rows = bits_of(expected_rows(r, data, rows));
    const std::string want_points = bits_of(expected_points(r, data, points));

    // Typed DirectML layer: rows (r 2, q 2: Indices {6, 1}, Updates {6, 4}).
    std::vector<E> out(12);
    ASSERT_TRUE(dmlref::try_scatter_nd(dmlref::TensorView<const E>(data.data(), {3, 4}),
                                       dmlref::TensorView<const std::int32_t>(kRowTuples.data(), {6, 1}),
                                       dmlref::TensorView<const E>(rows.data(), {6, 4}),
                                       dmlref::TensorView<E>(out.data(), {3, 4}), dmlref::ScatterNDParams{2, 2, r})
                    .ok());
    EXPECT_EQ(bits_of(out), want_rows) << "typed rows";
    // Dispatch layer: elements (r 2, q 2: Indices {7, 2}, Updates padded to {1, 7}), and in place.
    const std::vector<std::int64_t> data_sizes{3, 4}, tuple_sizes{7, 2}, point_sizes{1, 7};
    std::vector<E> out2(12);
    ASSERT_TRUE(dmlref::try_scatter_nd(desc(data, data_sizes), desc(kElementTuples, tuple_sizes),
                                       desc(points, point_sizes), mutable_desc(out2, data_sizes),
                                       dmlref::ScatterNDParams{2, 2, r})
                    .ok());
    EXPECT_EQ(bits_of(out2), want_points) << "dispatch points";
    std::vector<E> in_place = data;
    ASSERT_TRUE(dmlref::try_scatter_nd(desc(in_place, data_sizes), desc(kElementTuples, tuple_sizes),
                                       desc(points, point_sizes), mutable_desc(in_place, data_sizes),
                                       dmlref::ScatterNDParams{2, 2, r})
                    .ok());
    EXPECT_EQ(bits_of(in_place), want_points) << "dispatch in place";

    // ONNX helper, natural ranks: updates {7} and {6, 4}.
    const std::vector<std::int64_t> onnx_points{7}, row_tuple_sizes{6, 1}, row_sizes{6, 4};
    std::vector<E> out3(12), out4(12);
    ASSERT_TRUE(dmlref::onnx::try_scatter_nd(desc(data, data_sizes), desc(kElementTuples, tuple_sizes),
                                             desc(points, onnx_points), mutable_desc(out3, data_sizes), r)
                    .ok());
    EXPECT_EQ(bits_of(out3), want_points) << "onnx points";
    ASSERT_TRUE(dmlref::onnx::try_scatter_nd(desc(data, data_sizes), desc(kRowTuples, row_tuple_sizes),
                                             desc(rows, row_sizes), mutable_desc(out4, data_sizes), r)
                    .ok());
    EXPECT_EQ(bits_of(out4), want_rows) << "onnx rows";
  }
}

// A few values the loops above must get right, spelled out, so that the reference itself is checked.
TEST(OnnxReductionsReference, KnownValues) {
  const float16 big = float16::from_float(2048.0f), one = float16::from_float(1.0f);
  EXPECT_EQ(combine(Reduction::add, big, one).bits, big.bits);  // 2049 rounds to even: 2048
  EXPECT_EQ(combine(Reduction::add, combine(Reduction::add, big, one), one).bits, big.bits);
  EXPECT_EQ(combine<std::int8_t>(Reduction::add, 100, 100), -56);
  EXPECT_EQ(combine<std::int8_t>(Reduction::mul, -128, -1), -128);
  EXPECT_EQ(combine<std::uint16_t>(Reduction::mul, 65535, 65535), 1);
  EXPECT_EQ(combine<std::int64_t>(Reduction::add, std::numeric_limits<std::int64_t>::max(), 1),
            std::numeric_limits<std::int64_t>::min());
  const float nan = from_bits<float>(0x7FC12345u);
  float got = combine(Reduction::max, 1.0f, nan);
  std::uint32_t bits = 0;
  std::memcpy(&bits, &got, 4);
  EXPECT_EQ(bits, 0x7FC12345u);
  got = combine(Reduction::min, -0.0f, 0.0f);
  std::memcpy(&bits, &got, 4);
  EXPECT_EQ(bits, 0x80000000u);  // a tie keeps the output's value
  EXPECT_EQ(combine(Reduction::max, float16::from_bits(0x7C01), float16::from_bits(0x7E00)).bits, 0x7C01);
}

}  // namespace
