// dmlref/gtest.hpp: the golden-test helpers. Each mode is tested passing and failing, and every
// failure message is checked for what it must contain: the count and percentage, the coordinates,
// both values with their bits in hex, the shapes (and strides), and in the tolerance modes the
// largest differences. The macros are checked with EXPECT_NONFATAL_FAILURE / EXPECT_FATAL_FAILURE.
#include "dmlref/gtest.hpp"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "dmlref/dmlref.hpp"

namespace {

using dmlref::DataType;
using dmlref::float16;
using dmlref::Shape;
using dmlref::TensorView;
using dmlref::testing::absolute;
using dmlref::testing::bit_exact;
using dmlref::testing::tensors_equal;
using dmlref::testing::tensors_near;
using dmlref::testing::ulps;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

#define EXPECT_CONTAINS(text, part) EXPECT_TRUE(contains(text, part)) << "missing \"" << (part) << "\" in:\n" << (text)

float float_bits(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}
double double_bits(std::uint64_t b) {
  double d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}
std::vector<float16> halves(const std::vector<std::uint16_t>& bits) {
  std::vector<float16> out;
  for (std::uint16_t b : bits) out.push_back(float16::from_bits(b));
  return out;
}

// ------------------------------------------------------------------------------------------------
// Bit-exact (the default)

TEST(GtestHelpersBitExact, EqualTensorsPass) {
  const std::vector<float> a{1, 2, 3, 4, 5, 6}, b = a;
  const auto result = tensors_equal(TensorView<const float>(a.data(), {2, 3}), TensorView<const float>(b.data(), {2, 3}));
  EXPECT_TRUE(result);
  EXPECT_CONTAINS(std::string(result.message()), "all 6 elements");
  EXPECT_CONTAINS(std::string(result.message()), "bit-exact");
}

TEST(GtestHelpersBitExact, NegativeZeroDiffersFromZero) {
  const std::vector<float> actual{1, -0.0f, 3, 4}, expected{1, 0.0f, 3, 4};
  const auto result =
      tensors_equal(TensorView<const float>(actual.data(), {2, 2}), TensorView<const float>(expected.data(), {2, 2}));
  ASSERT_FALSE(result);
  const std::string m = result.message();
  EXPECT_CONTAINS(m, "actual differs from expected (bit-exact) in 1 of 4 elements (25%)");
  EXPECT_CONTAINS(m, "both: FLOAT32 {2, 2}");
  EXPECT_CONTAINS(m, "at [0, 1]: actual -0 (0x80000000), expected 0 (0x00000000)");
  EXPECT_FALSE(contains(m, "largest")) << m;  // differences are for the tolerance modes
}

TEST(GtestHelpersBitExact, Float16NegativeZeroAndNanPayloads) {
  const auto actual = halves({0x3c00, 0x8000, 0x7e01, 0xfe00, 0x7c00});
  const auto expected = halves({0x3c00, 0x0000, 0x7e00, 0x7e00, 0x7c00});
  const auto result = tensors_equal(TensorView<const float16>(actual.data(), {5}),
                                    TensorView<const float16>(expected.data(), {5}));
  ASSERT_FALSE(result);
  const std::string m = result.message();
  EXPECT_CONTAINS(m, "in 3 of 5 elements (60%)");
  EXPECT_CONTAINS(m, "FLOAT16 {5}");
  EXPECT_CONTAINS(m, "at [1]: actual -0 (0x8000), expected 0 (0x0000)");
  EXPECT_CONTAINS(m, "at [2]: actual nan (0x7e01), expected nan (0x7e00)");
  EXPECT_CONTAINS(m, "at [3]: actual -nan (0xfe00), expected nan (0x7e00)");
  EXPECT_FALSE(contains(m, "[4]")) << m;
}

TEST(GtestHelpersBitExact, Float32AndFloat64NanPayloads) {
  const std::vector<float> fa{float_bits(0x7fc00001)}, fe{float_bits(0x7fc00000)};
  const auto f = tensors_equal(TensorView<const float>(fa.data(), {1}), TensorView<const float>(fe.data(), {1}));
  ASSERT_FALSE(f);
  EXPECT_CONTAINS(std::string(f.message()), "at [0]: actual nan (0x7fc00001), expected nan (0x7fc00000)");

  const std::vector<double> da{double_bits(0x7ff8000000000001)}, de{double_bits(0x7ff8000000000000)};
  const auto d = tensors_equal(TensorView<const double>(da.data(), {1}), TensorView<const double>(de.data(), {1}));
  ASSERT_FALSE(d);
  EXPECT_CONTAINS(std::string(d.message()), "actual nan (0x7ff8000000000001), expected nan (0x7ff8000000000000)");
}

TEST(GtestHelpersBitExact, ValuesPrintShortestRoundTrip) {
  const std::vector<float> a{0.1f, 1e-45f, -3.4028235e38f}, e{0.2f, 0.0f, 1.0f};
  const auto result = tensors_equal(TensorView<const float>(a.data(), {3}), TensorView<const float>(e.data(), {3}));
  const std::string m = result.message();
  EXPECT_CONTAINS(m, "actual 0.1 (0x3dcccccd), expected 0.2 (0x3e4ccccd)");
  EXPECT_CONTAINS(m, "actual 1e-45 (0x00000001)");
  EXPECT_CONTAINS(m, "actual -3.4028235e+38 (0xff7fffff)");
  const auto h = halves({0x3555, 0x0001});  // 0.33325 (shortest: 0.3333) and the smallest subnormal
  const auto h0 = halves({0x3c00, 0x3c00});
  const std::string hm =
      tensors_equal(TensorView<const float16>(h.data(), {2}), TensorView<const float16>(h0.data(), {2})).message();
  EXPECT_CONTAINS(hm, "actual 0.3333 (0x3555)");
  EXPECT_CONTAINS(hm, "actual 6e-08 (0x0001), expected 1 (0x3c00)");
}

TEST(GtestHelpersBitExact, MultiDimensionalCoordinatesInRowMajorOrder) {
  std::vector<std::int32_t> a(2 * 3 * 4), e(2 * 3 * 4);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = e[i] = static_cast<std::int32_t>(i);
  a[1 * 12 + 0 * 4 + 2] = -7;  // [1, 0, 2]
  a[0 * 12 + 2 * 4 + 3] = 99;  // [0, 2, 3], earlier in row-major order
  const std::string m = tensors_equal(TensorView<const std::int32_t>(a.data(), {2, 3, 4}),
                                      TensorView<const std::int32_t>(e.data(), {2, 3, 4}))
                            .message();
  EXPECT_CONTAINS(m, "in 2 of 24 elements (8.33%)");
  EXPECT_CONTAINS(m, "INT32 {2, 3, 4}");
  EXPECT_CONTAINS(m, "at [0, 2, 3]: actual 99 (0x00000063), expected 11 (0x0000000b)");
  EXPECT_CONTAINS(m, "at [1, 0, 2]: actual -7 (0xfffffff9), expected 14 (0x0000000e)");
  EXPECT_LT(m.find("[0, 2, 3]"), m.find("[1, 0, 2]")) << m;
}

TEST(GtestHelpersBitExact, ListsTheFirstTenAndStaysBounded) {
  const std::size_t n = 1000 * 1000;
  std::vector<std::uint8_t> a(n, 1), e(n, 2);
  a[5] = 2;  // one element matches
  const std::string m = tensors_equal(TensorView<const std::uint8_t>(a.data(), {1000, 1000}),
                                      TensorView<const std::uint8_t>(e.data(), {1000, 1000}))
                            .message();
  EXPECT_CONTAINS(m, "in 999999 of 1000000 elements (100%)");
  EXPECT_CONTAINS(m, "first 10 mismatches:");
  EXPECT_CONTAINS(m, "at [0, 4]: actual 1 (0x01), expected 2 (0x02)");
  EXPECT_CONTAINS(m, "at [0, 10]:");
  EXPECT_FALSE(contains(m, "at [0, 5]:")) << m;
  EXPECT_FALSE(contains(m, "at [0, 11]:")) << m;
  EXPECT_CONTAINS(m, "... and 999989 more");
  EXPECT_LT(m.size(), 1500u) << m;
}

TEST(GtestHelpersBitExact, SmallPercentagesKeepSignificantDigits) {
  std::vector<std::int16_t> a(300000, 0), e(300000, 0);
  a[123456] = 1;
  const std::string m =
      tensors_equal(TensorView<const std::int16_t>(a.data(), {300000}), TensorView<const std::int16_t>(e.data(), {300000}))
          .message();
  EXPECT_CONTAINS(m, "in 1 of 300000 elements (0.000333%)");
  EXPECT_CONTAINS(m, "  mismatches:\n    at [123456]: actual 1 (0x0001), expected 0 (0x0000)");
}

// ------------------------------------------------------------------------------------------------
// ULP tolerance

TEST(GtestHelpersUlp, Float32WithinAndBeyond) {
  const std::vector<float> e{1.0f, 2.0f, -0.0f, 5.0f};
  const std::vector<float> a{float_bits(0x3f800003), 2.0f, 0.0f, float_bits(0x40a00001)};  // 3 ULP, 0, 0, 1 ULP
  const TensorView<const float> av(a.data(), {2, 2}), ev(e.data(), {2, 2});
  EXPECT_TRUE(tensors_near(av, ev, ulps(3)));
  EXPECT_FALSE(tensors_equal(av, ev));
  const auto result = tensors_near(av, ev, ulps(2));
  ASSERT_FALSE(result);
  const std::string m = result.message();
  EXPECT_CONTAINS(m, "actual differs from expected (within 2 ULP) in 1 of 4 elements (25%)");
  EXPECT_CONTAINS(m, "largest ULP difference: 3 at [0, 0] (2 allowed)");
  // 1 ULP at 5 is larger in absolute terms than 3 ULP at 1.
  EXPECT_CONTAINS(m, "largest absolute difference: 4.77e-07 at [1, 1]");
  EXPECT_CONTAINS(m, "at [0, 0]: actual 1.0000004 (0x3f800003), expected 1 (0x3f800000) (difference 3.58e-07, 3 ULP)");
  EXPECT_FALSE(contains(m, "at [1, 1]:")) << m;
}

TEST(GtestHelpersUlp, SignedZerosAndNansAreNumbers) {
  const std::vector<float> a{-0.0f, float_bits(0x7fc00001), std::nanf("")}, e{0.0f, float_bits(0x7fc00000), 1.0f};
  const auto result = tensors_near(TensorView<const float>(a.data(), {3}), TensorView<const float>(e.data(), {3}), ulps(0));
  ASSERT_FALSE(result);
  const std::string m = result.message();
  EXPECT_CONTAINS(m, "in 1 of 3 elements (33.3%)");
  EXPECT_CONTAINS(m, "at [2]: actual nan (0x7fc00000), expected 1 (0x3f800000) (NaN on one side)");
}

TEST(GtestHelpersUlp, Float16CountsHalfPrecisionSteps) {
  // 1.0 vs 1.0 + 2 ULP; across zero: the smallest subnormals of both signs are 2 ULP apart.
  const auto a = halves({0x3c02, 0x0001, 0x7bff}), e = halves({0x3c00, 0x8001, 0x7c00});
  const TensorView<const float16> av(a.data(), {3}), ev(e.data(), {3});
  const auto two = tensors_near(av, ev, ulps(2));
  EXPECT_TRUE(two) << two.message();  // the largest finite half is 1 ULP from inf
  const auto one = tensors_near(av, ev, ulps(1));
  ASSERT_FALSE(one);
  const std::string m = one.message();
  EXPECT_CONTAINS(m, "in 2 of 3 elements");
  EXPECT_CONTAINS(m, "at [0]: actual 1.002 (0x3c02), expected 1 (0x3c00) (difference 0.00195, 2 ULP)");
  EXPECT_CONTAINS(m, "at [1]: actual 6e-08 (0x0001), expected -6e-08 (0x8001)");
  EXPECT_CONTAINS(m, "largest absolute difference: inf at [2]");
  EXPECT_CONTAINS(m, "largest ULP difference: 2 at [0] (1 allowed)");
}

TEST(GtestHelpersUlp, Float64AndIntegers) {
  const std::vector<double> a{std::nextafter(1.0, 2.0)}, e{1.0};
  EXPECT_TRUE(tensors_near(TensorView<const double>(a.data(), {1}), TensorView<const double>(e.data(), {1}), ulps(1)));
  EXPECT_FALSE(tensors_near(TensorView<const double>(a.data(), {1}), TensorView<const double>(e.data(), {1}), ulps(0)));

  const std::vector<std::int64_t> ia{std::numeric_limits<std::int64_t>::min(), 5},
      ie{std::numeric_limits<std::int64_t>::max(), 6};
  const auto result =
      tensors_near(TensorView<const std::int64_t>(ia.data(), {2}), TensorView<const std::int64_t>(ie.data(), {2}), ulps(1));
  ASSERT_FALSE(result);
  const std::string m = result.message();
  EXPECT_CONTAINS(m, "in 1 of 2 elements (50%)");
  EXPECT_CONTAINS(m, "largest difference: 18446744073709551615 at [0]");
  EXPECT_CONTAINS(m, "at [0]: actual -9223372036854775808 (0x8000000000000000), expected 9223372036854775807 "
                     "(0x7fffffffffffffff) (difference 18446744073709551615)");
}

// ------------------------------------------------------------------------------------------------
// Absolute tolerance

TEST(GtestHelpersAbsolute, WithinAndBeyond) {
  const std::vector<float> a{1.001f, 2.0f, -0.0f, INFINITY}, e{1.0f, 2.0005f, 0.0f, INFINITY};
  const TensorView<const float> av(a.data(), {4}), ev(e.data(), {4});
  EXPECT_TRUE(tensors_near(av, ev, absolute(1e-2)));
  const auto result = tensors_near(av, ev, absolute(1e-4));
  ASSERT_FALSE(result);
  const std::string m = result.message();
  EXPECT_CONTAINS(m, "(within 0.0001 absolute) in 2 of 4 elements (50%)");
  EXPECT_CONTAINS(m, "largest absolute difference: 0.001 at [0] (0.0001 allowed)");
  EXPECT_CONTAINS(m, "at [0]: actual 1.001 (0x3f8020c5), expected 1 (0x3f800000) (difference 0.001, 8389 ULP)");
  EXPECT_CONTAINS(m, "at [1]: actual 2 (0x40000000), expected 2.0005 (0x40000831)");
}

TEST(GtestHelpersAbsolute, InfinitiesAndNans) {
  const std::vector<double> a{INFINITY, -INFINITY, NAN, 1e300}, e{INFINITY, 1e308, NAN, -1e300};
  const auto result =
      tensors_near(TensorView<const double>(a.data(), {4}), TensorView<const double>(e.data(), {4}), absolute(1));
  ASSERT_FALSE(result);
  const std::string m = result.message();
  EXPECT_CONTAINS(m, "in 2 of 4 elements (50%)");
  EXPECT_CONTAINS(m, "at [1]: actual -inf (0xfff0000000000000), expected 1e+308");
  EXPECT_CONTAINS(m, "(difference inf,");
  EXPECT_CONTAINS(m, "at [3]: actual 1e+300");
  EXPECT_CONTAINS(m, "largest absolute difference: inf at [1] (1 allowed)");
}

TEST(GtestHelpersAbsolute, Float16ComparesInDouble) {
  const auto a = halves({0x3c00, 0x4000}), e = halves({0x3c01, 0x4000});  // 1 vs 1.000977
  EXPECT_TRUE(tensors_near(TensorView<const float16>(a.data(), {2}), TensorView<const float16>(e.data(), {2}),
                           absolute(0.001)));
  EXPECT_FALSE(tensors_near(TensorView<const float16>(a.data(), {2}), TensorView<const float16>(e.data(), {2}),
                            absolute(0.0009)));
}

TEST(GtestHelpersAbsolute, IntegersUseTheExactDifference) {
  const std::vector<std::uint8_t> a{0, 255, 10}, e{2, 250, 10};
  EXPECT_TRUE(tensors_near(TensorView<const std::uint8_t>(a.data(), {3}), TensorView<const std::uint8_t>(e.data(), {3}),
                           absolute(5)));
  const std::string m = tensors_near(TensorView<const std::uint8_t>(a.data(), {3}),
                                     TensorView<const std::uint8_t>(e.data(), {3}), absolute(4))
                            .message();
  EXPECT_CONTAINS(m, "in 1 of 3 elements");
  EXPECT_CONTAINS(m, "largest difference: 5 at [1]");
  EXPECT_CONTAINS(m, "at [1]: actual 255 (0xff), expected 250 (0xfa) (difference 5)");
}

TEST(GtestHelpersAbsolute, NegativeOrNanToleranceIsRejected) {
  const std::vector<float> a{1};
  const TensorView<const float> v(a.data(), {1});
  const auto negative = tensors_near(v, v, absolute(-1));
  EXPECT_FALSE(negative);
  EXPECT_CONTAINS(std::string(negative.message()), "invalid tolerance: absolute(-1) must be at least 0");
  EXPECT_FALSE(tensors_near(v, v, absolute(NAN)));
}

// ------------------------------------------------------------------------------------------------
// Strided views

TEST(GtestHelpersStrided, TransposedViewEqualsPackedTensor) {
  const std::vector<float> storage{1, 4, 2, 5, 3, 6};  // {3, 2} row-major: the transpose of [[1,2,3],[4,5,6]]
  const std::vector<float> packed{1, 2, 3, 4, 5, 6};
  const TensorView<const float> transposed(storage.data(), {2, 3}, {1, 2});
  EXPECT_TRUE(tensors_equal(transposed, TensorView<const float>(packed.data(), {2, 3})));

  std::vector<float> wrong = packed;
  wrong[5] = -6;
  const std::string m = tensors_equal(transposed, TensorView<const float>(wrong.data(), {2, 3})).message();
  EXPECT_CONTAINS(m, "in 1 of 6 elements");
  EXPECT_CONTAINS(m, "actual: FLOAT32 {2, 3}, strides {1, 2}");
  EXPECT_CONTAINS(m, "expected: FLOAT32 {2, 3}\n");
  EXPECT_CONTAINS(m, "at [1, 2]: actual 6 (0x40c00000), expected -6 (0xc0c00000)");
}

TEST(GtestHelpersStrided, PaddedRowsAndBroadcastExpected) {
  // Rows of 3 elements stored 4 apart (one padding element each), compared with a broadcast 7.
  const std::vector<std::int16_t> padded{7, 7, 7, -1, 7, 7, 8, -1};
  const std::int16_t seven = 7;
  const TensorView<const std::int16_t> actual(padded.data(), {2, 3}, {4, 1});
  const TensorView<const std::int16_t> expected(&seven, {2, 3}, {0, 0});
  const std::string m = tensors_equal(actual, expected).message();
  EXPECT_CONTAINS(m, "in 1 of 6 elements");
  EXPECT_CONTAINS(m, "actual: INT16 {2, 3}, strides {4, 1}");
  EXPECT_CONTAINS(m, "expected: INT16 {2, 3}, strides {0, 0}");
  EXPECT_CONTAINS(m, "at [1, 2]: actual 8 (0x0008), expected 7 (0x0007)");
  EXPECT_FALSE(contains(m, "-1")) << "padding was read:\n" << m;
}

TEST(GtestHelpersStrided, SameStridesPrintOnce) {
  const std::vector<std::uint32_t> a{1, 0, 2, 0}, e{1, 0, 3, 0};
  const std::string m = tensors_equal(TensorView<const std::uint32_t>(a.data(), {2}, {2}),
                                      TensorView<const std::uint32_t>(e.data(), {2}, {2}))
                            .message();
  EXPECT_CONTAINS(m, "both: UINT32 {2}, strides {2}");
}

// ------------------------------------------------------------------------------------------------
// Runtime descriptors: every data type

/// A buffer of `count` elements of `type` whose element i has the bits of (i * 37 + 1) truncated
/// to the element's width (every data type has distinct patterns).
std::vector<unsigned char> pattern(DataType type, std::size_t count) {
  const std::size_t width = dmlref::element_size(type);
  std::vector<unsigned char> bytes(count * width);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t v = i * 37 + 1;
    std::memcpy(bytes.data() + i * width, &v, width);  // little-endian: the low bytes
  }
  return bytes;
}

TEST(GtestHelpersDescriptors, EveryDataType) {
  const std::int64_t sizes[] = {2, 3};
  for (std::uint32_t t = 1; t <= 11; ++t) {
    const auto type = static_cast<DataType>(t);
    SCOPED_TRACE(dmlref::name(type));
    const std::size_t width = dmlref::element_size(type);
    std::vector<unsigned char> a = pattern(type, 6), e = pattern(type, 6);
    const dmlref::TensorDesc ad{type, 2, sizes, nullptr, a.size(), a.data()};
    dmlref::MutableTensorDesc ed{type, 2, sizes, nullptr, e.size(), e.data()};
    EXPECT_TRUE(tensors_equal(ad, ed));
    EXPECT_TRUE(tensors_near(ad, ed, ulps(0)));
    EXPECT_TRUE(tensors_near(ad, ed, absolute(0)));

    a[4 * width] ^= 0x01;  // element [1, 1]: flip the lowest bit
    const auto result = tensors_equal(ad, ed);
    ASSERT_FALSE(result);
    const std::string m = result.message();
    EXPECT_CONTAINS(m, "in 1 of 6 elements (16.7%)");
    EXPECT_CONTAINS(m, "both: " + std::string(dmlref::name(type)) + " {2, 3}");
    std::string hex = "0x";
    const std::uint64_t expected_bits = 4 * 37 + 1;  // 149 = 0x95 in the low byte
    char digits[24];
    std::snprintf(digits, sizeof digits, "%0*llx", static_cast<int>(2 * width),
                  static_cast<unsigned long long>(expected_bits));
    EXPECT_CONTAINS(m, "at [1, 1]: actual ");
    EXPECT_CONTAINS(m, ", expected " );
    EXPECT_CONTAINS(m, hex + digits + ")");
    std::snprintf(digits, sizeof digits, "%0*llx", static_cast<int>(2 * width),
                  static_cast<unsigned long long>(expected_bits ^ 1));
    EXPECT_CONTAINS(m, hex + digits + ")");
    // Tolerance modes agree: one step apart is 1 ULP for floats and a difference of 1 for integers.
    EXPECT_TRUE(tensors_near(ad, ed, ulps(1)));
    EXPECT_FALSE(tensors_near(ad, ed, ulps(0)));
  }
}

TEST(GtestHelpersDescriptors, StridedDescriptorAndViewMix) {
  const std::int64_t sizes[] = {2, 2}, strides[] = {1, 2};
  const std::vector<std::int64_t> storage{1, 3, 2, 4};
  const std::vector<std::int64_t> packed{1, 2, 3, 4};
  const dmlref::TensorDesc desc{DataType::INT64, 2, sizes, strides, storage.size() * 8, storage.data()};
  EXPECT_TRUE(tensors_equal(desc, TensorView<const std::int64_t>(packed.data(), {2, 2})));
  EXPECT_TRUE(tensors_equal(TensorView<const std::int64_t>(packed.data(), {2, 2}), desc));
}

TEST(GtestHelpersDescriptors, InvalidDescriptorsAreReportedNotRead) {
  const std::int64_t sizes[] = {2, 3};
  std::vector<float> data(6, 1.0f);
  const dmlref::TensorDesc good{DataType::FLOAT32, 2, sizes, nullptr, 24, data.data()};

  dmlref::TensorDesc small = good;
  small.TotalTensorSizeInBytes = 20;
  std::string m = tensors_equal(small, good).message();
  EXPECT_CONTAINS(m, "cannot compare actual with expected; no elements were compared");
  EXPECT_CONTAINS(m, "actual.TotalTensorSizeInBytes must be at least 24, but is 20");

  dmlref::TensorDesc no_sizes = good;
  no_sizes.Sizes = nullptr;
  m = tensors_equal(good, no_sizes).message();
  EXPECT_CONTAINS(m, "expected.Sizes must be DimensionCount sizes, but is null");

  dmlref::TensorDesc no_data = good;
  no_data.Data = nullptr;
  EXPECT_CONTAINS(std::string(tensors_equal(no_data, good).message()), "actual.Data must be a pointer");

  dmlref::TensorDesc bad_type = good;
  bad_type.DataType = static_cast<DataType>(12);
  EXPECT_CONTAINS(std::string(tensors_equal(bad_type, good).message()),
                  "actual.DataType must be one of the eleven DirectML data types, but is 12");

  dmlref::TensorDesc nine = good;
  nine.DimensionCount = 9;
  EXPECT_CONTAINS(std::string(tensors_equal(good, nine).message()), "expected.DimensionCount must be 1..8, but is 9");

  const std::int64_t zero_sizes[] = {2, 0};
  dmlref::TensorDesc empty = good;
  empty.Sizes = zero_sizes;
  EXPECT_CONTAINS(std::string(tensors_equal(empty, good).message()), "actual.Sizes[1] must be at least 1, but is 0");

  const std::int64_t negative[] = {3, -1};
  dmlref::TensorDesc backwards = good;
  backwards.Strides = negative;
  EXPECT_CONTAINS(std::string(tensors_equal(backwards, good).message()), "actual.Strides[1] must be at least 0");
}

// ------------------------------------------------------------------------------------------------
// Types and shapes that differ: no element comparison

TEST(GtestHelpersMismatch, DataTypesDiffer) {
  const std::int64_t sizes[] = {4};
  std::vector<unsigned char> bytes(16);
  const dmlref::TensorDesc f32{DataType::FLOAT32, 1, sizes, nullptr, 16, bytes.data()};
  const dmlref::TensorDesc u32{DataType::UINT32, 1, sizes, nullptr, 16, bytes.data()};
  const auto result = tensors_equal(f32, u32);
  ASSERT_FALSE(result);
  const std::string m = result.message();
  EXPECT_CONTAINS(m, "data types differ: actual is FLOAT32 {4}, expected is UINT32 {4}; no elements were compared");
  EXPECT_FALSE(contains(m, " at [")) << m;
}

TEST(GtestHelpersMismatch, ShapesDiffer) {
  const std::vector<float> a(6), e(6);
  std::string m =
      tensors_equal(TensorView<const float>(a.data(), {2, 3}), TensorView<const float>(e.data(), {3, 2})).message();
  EXPECT_CONTAINS(m, "shapes differ: actual is FLOAT32 {2, 3}, expected is FLOAT32 {3, 2}; no elements were compared");
  m = tensors_equal(TensorView<const float>(a.data(), {6}), TensorView<const float>(e.data(), {1, 6})).message();
  EXPECT_CONTAINS(m, "shapes differ: actual is FLOAT32 {6}, expected is FLOAT32 {1, 6}");
  EXPECT_CONTAINS(m, "agree up to leading 1s");
  const std::vector<double> d(6);
  m = tensors_equal(TensorView<const float>(a.data(), {6}), TensorView<const double>(d.data(), {2, 3})).message();
  EXPECT_CONTAINS(m, "data types and shapes differ: actual is FLOAT32 {6}, expected is FLOAT64 {2, 3}");
}

// ------------------------------------------------------------------------------------------------
// The macros

TEST(GtestHelpersMacros, ExpectFormsNameTheExpressions) {
  const std::vector<float> out{1, -0.0f}, reference{1, 0.0f};
  const TensorView<const float> out_view(out.data(), {2}), reference_view(reference.data(), {2});
  DMLREF_EXPECT_TENSOR_EQ(out_view, out_view);
  DMLREF_EXPECT_TENSOR_NEAR(out_view, reference_view, ulps(0));
  EXPECT_NONFATAL_FAILURE(DMLREF_EXPECT_TENSOR_EQ(out_view, reference_view),
                          "out_view differs from reference_view (bit-exact) in 1 of 2 elements (50%)");
  EXPECT_NONFATAL_FAILURE(DMLREF_EXPECT_TENSOR_EQ(out_view, reference_view),
                          "at [1]: actual -0 (0x80000000), expected 0 (0x00000000)");
  const std::vector<float> far{1, 1};
  const TensorView<const float> far_view(far.data(), {2});
  EXPECT_NONFATAL_FAILURE(DMLREF_EXPECT_TENSOR_NEAR(far_view, reference_view, absolute(0.5)),
                          "far_view differs from reference_view (within 0.5 absolute) in 1 of 2 elements");
}

// EXPECT_FATAL_FAILURE's statement cannot use local variables.
const float kOne[] = {1, 2};
const float kTwo[] = {1, 3};

TEST(GtestHelpersMacros, AssertFormsAreFatal) {
  EXPECT_FATAL_FAILURE(DMLREF_ASSERT_TENSOR_EQ(TensorView<const float>(kOne, {2}), TensorView<const float>(kTwo, {2})),
                       "at [1]: actual 2 (0x40000000), expected 3 (0x40400000)");
  EXPECT_FATAL_FAILURE(
      DMLREF_ASSERT_TENSOR_NEAR(TensorView<const float>(kOne, {2}), TensorView<const float>(kTwo, {2}), absolute(0.5)),
      "largest absolute difference: 1 at [1] (0.5 allowed)");
  DMLREF_ASSERT_TENSOR_NEAR(TensorView<const float>(kOne, {2}), TensorView<const float>(kTwo, {2}), absolute(1));
}

// ------------------------------------------------------------------------------------------------
// With dmlref itself: a golden comparison as a user writes it

TEST(GtestHelpersGolden, GatherResultAgainstHandWrittenValues) {
  // Gather G-1 with float16 data that includes -0 and a NaN payload: both must survive the copy.
  const auto input = halves({0x4980, 0x8000, 0x7e01, 0x4b00});
  const std::vector<std::uint32_t> indices{3, 1, 3, 0, 2};
  std::vector<float16> output(5, float16::from_bits(0xffff));
  dmlref::gather(TensorView<const float16>(input.data(), {4}), TensorView<const std::uint32_t>(indices.data(), {5}),
                 TensorView<float16>(output.data(), {5}), dmlref::GatherParams{0, 1});
  const auto expected = halves({0x4b00, 0x8000, 0x4b00, 0x4980, 0x7e01});
  DMLREF_EXPECT_TENSOR_EQ(TensorView<const float16>(output.data(), {5}), TensorView<const float16>(expected.data(), {5}));

  // The same comparison notices a kernel that loses the sign of zero.
  auto lossy = output;
  lossy[1] = float16::from_bits(0x0000);
  const std::string m = tensors_equal(TensorView<const float16>(lossy.data(), {5}),
                                      TensorView<const float16>(expected.data(), {5}))
                            .message();
  EXPECT_CONTAINS(m, "at [1]: actual 0 (0x0000), expected -0 (0x8000)");
}

}  // namespace
