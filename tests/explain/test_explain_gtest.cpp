// gtest.hpp's golden comparisons: dmlref computes the expected tensor and explains the first
// mismatching elements under the usual report. Failure messages are caught with
// EXPECT_NONFATAL_FAILURE / EXPECT_FATAL_FAILURE, as tests/test_gtest_helpers.cpp does.
#include <dmlref/gtest.hpp>
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using dmlref::float16;
using dmlref::Shape;
using dmlref::TensorView;
namespace golden = dmlref::testing;

std::vector<float16> halves(const std::vector<std::uint16_t>& bits) {
  std::vector<float16> out;
  for (std::uint16_t b : bits) out.push_back(float16::from_bits(b));
  return out;
}

/// Gather, Axis 0, of a float16 table {4, 2} by INT32 indices {0, 1, 2, -2}: output[3] = input[2].
struct GatherCase {
  std::vector<float16> input = halves({0x3c00, 0x4000, 0x4200, 0x4400, 0x4500, 0x3e00, 0x4600, 0x4700});
  std::vector<std::int32_t> indices{0, 1, 2, -2};
  std::vector<float16> output = halves({0x3c00, 0x4000, 0x4200, 0x4400, 0x4500, 0x3e00, 0x4500, 0x3e00});
  TensorView<const float16> in() const { return {input.data(), {4, 2}}; }
  TensorView<const std::int32_t> idx() const { return {indices.data(), {1, 4}}; }
  TensorView<const float16> out() const { return {output.data(), {4, 2}}; }
  golden::GoldenCall call() const { return golden::gather(in(), idx(), dmlref::GatherParams{0, 1}); }
};

TEST(GoldenComparisons, AGoodResultPasses) {
  const GatherCase g;
  DMLREF_EXPECT_GOLDEN(g.out(), g.call());
  DMLREF_ASSERT_GOLDEN(g.out(), g.call());
  const auto result = golden::matches_golden(g.out(), g.call());
  EXPECT_TRUE(result);
  EXPECT_EQ(std::string(result.message()), "all 8 elements of actual equal dmlref's Gather (bit-exact)");
}

TEST(GoldenComparisons, AMismatchIsExplainedUnderTheReport) {
  GatherCase g;
  g.output[7] = float16::from_bits(0x0000);  // output[3,1] should be input[2,1] = 1.5
  const TensorView<const float16> actual = g.out();
  EXPECT_NONFATAL_FAILURE(DMLREF_EXPECT_GOLDEN(actual, g.call()),
                          "actual differs from dmlref's Gather (bit-exact) in 1 of 8 elements (12.5%)");
  EXPECT_NONFATAL_FAILURE(DMLREF_EXPECT_GOLDEN(actual, g.call()), "at [3, 1]: actual 0 (0x0000), expected 1.5 (0x3e00)");
  EXPECT_NONFATAL_FAILURE(DMLREF_EXPECT_GOLDEN(actual, g.call()),
                          "\n  explained:\n    output[3,1]: expected 1.5 (0x3e00), got 0 (0x0000); expected = "
                          "input[2,1], from indices[0,3] = -2 → 2 (Axis 0)");
}

TEST(GoldenComparisons, TheFirstThreeMismatchesByDefaultOrAsMany) {
  GatherCase g;
  for (float16& h : g.output) h = float16::from_bits(0x7e00);  // every element wrong
  const std::string m = golden::matches_golden(g.out(), g.call()).message();
  EXPECT_NE(m.find("\n  explained (the first 3):\n    output[0,0]: expected 1 (0x3c00), got nan (0x7e00); "
                   "expected = input[0,0], from indices[0,0] = 0 → 0 (Axis 0)\n    output[0,1]: "),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("\n    output[1,0]: "), std::string::npos) << m;
  EXPECT_EQ(m.find("\n    output[1,1]: "), std::string::npos) << m;
  const std::string five = golden::matches_golden(g.out(), g.call().explaining(5)).message();
  EXPECT_NE(five.find("explained (the first 5):"), std::string::npos) << five;
  EXPECT_NE(five.find("\n    output[2,0]: "), std::string::npos) << five;
  EXPECT_EQ(five.find("\n    output[2,1]: "), std::string::npos) << five;
  const std::string none = golden::matches_golden(g.out(), g.call().explaining(0)).message();
  EXPECT_EQ(none.find("explained"), std::string::npos) << none;
  EXPECT_NE(none.find("mismatches:"), std::string::npos) << none;
  const std::string all = golden::matches_golden(g.out(), g.call().explaining(50)).message();
  EXPECT_NE(all.find("\n  explained:"), std::string::npos) << all;  // all 8, at most 10
  EXPECT_NE(all.find("\n    output[3,1]: "), std::string::npos) << all;
}

TEST(GoldenComparisons, ScattersExplainTheirUpdates) {
  // Scatter S-1 through descriptors: indices {3, 1, 3, 0}, updates {5, 6, 7, 8}, Reduction::add.
  const std::vector<float> input{0, 1, 2, 3, 4}, updates{5, 6, 7, 8};
  const std::vector<std::uint32_t> indices{3, 1, 3, 0};
  const std::vector<float> wrong{8, 7, 2, 10, 4};  // 3 + 5 + 7 = 15, but only the last update was added
  const std::int64_t five[] = {5}, four[] = {4};
  const dmlref::TensorDesc in{dmlref::DataType::FLOAT32, 1, five, nullptr, 20, input.data()};
  const dmlref::TensorDesc idx{dmlref::DataType::UINT32, 1, four, nullptr, 16, indices.data()};
  const dmlref::TensorDesc upd{dmlref::DataType::FLOAT32, 1, four, nullptr, 16, updates.data()};
  const dmlref::TensorDesc actual{dmlref::DataType::FLOAT32, 1, five, nullptr, 20, wrong.data()};
  const golden::GoldenCall call = golden::scatter(in, idx, upd, dmlref::ScatterParams{0, dmlref::Reduction::add});
  EXPECT_NONFATAL_FAILURE(
      DMLREF_EXPECT_GOLDEN(actual, call),
      "output[3]: expected 15 (0x41700000), got 10 (0x41200000); expected = input[3] = 3 (0x40400000), add updates[0] "
      "= 5 (0x40a00000) → 8 (0x41000000), add updates[2] = 7 (0x40e00000) → 15 (0x41700000)");
  const std::string m = golden::matches_golden(actual, call).message();
  EXPECT_NE(m.find("in 1 of 5 elements"), std::string::npos) << m;
  EXPECT_EQ(m.find("output[1]"), std::string::npos) << m;
}

TEST(GoldenComparisons, GatherNDAndScatterNDGoldens) {
  // GN-1 and SN-1 with a wrong element each.
  const std::vector<float> gin{0, 1, 2, 3};
  const std::vector<std::uint32_t> gidx{1, 0};
  const std::vector<float> gout{2, 3, 0, 9};
  EXPECT_NONFATAL_FAILURE(
      DMLREF_EXPECT_GOLDEN(TensorView<const float>(gout.data(), {2, 2}),
                           golden::gather_nd(TensorView<const float>(gin.data(), {2, 2}),
                                             TensorView<const std::uint32_t>(gidx.data(), {2, 1}),
                                             dmlref::GatherNDParams{2, 2})),
      "output[1,1]: expected 1 (0x3f800000), got 9 (0x41100000); expected = input[0,1], from indices[1,0] = 0 → 0 "
      "(dimension 0)");
  const std::vector<float> sin{1, 2, 3, 4, 5, 6, 7, 8}, supd{9, 10, 11, 12}, sout{1, 11, 3, 10, 9, 6, 7, 8};
  const std::vector<std::uint32_t> sidx{4, 3, 1, 7};
  EXPECT_NONFATAL_FAILURE(
      DMLREF_EXPECT_GOLDEN(TensorView<const float>(sout.data(), {1, 8}),
                           golden::scatter_nd(TensorView<const float>(sin.data(), {1, 8}),
                                              TensorView<const std::uint32_t>(sidx.data(), {4, 1}),
                                              TensorView<const float>(supd.data(), {1, 4}), dmlref::ScatterNDParams{1, 2})),
      "output[0,7]: expected 12 (0x41400000), got 8 (0x41000000); expected = updates[0,3], from indices[3,0] = 7 → 7 "
      "(dimension 1)");
}

TEST(GoldenComparisons, AGoldenCallThatFailsIsAFailureWithItsError) {
  GatherCase g;
  g.indices[2] = 4;  // out of range for Axis 0's 4 rows
  EXPECT_NONFATAL_FAILURE(DMLREF_EXPECT_GOLDEN(g.out(), g.call()),
                          "dmlref's Gather fails, so g.out() was not compared: Gather: IndicesTensor value 4 at [0, 2] "
                          "is out of range for InputTensor.Sizes[0] = 4 (valid -4..3)");
  // A shape rule broken by the inputs: the operator's own message.
  const std::vector<std::int32_t> three{0, 1, 2};
  const std::string m =
      golden::matches_golden(g.out(), golden::gather(g.in(), TensorView<const std::int32_t>(three.data(), {3, 1}),
                                                     dmlref::GatherParams{0, 1}))
          .message();
  EXPECT_NE(m.find("dmlref's Gather fails, so actual was not compared: Gather: IndicesTensor.Sizes[0] must be 1, but is 3"),
            std::string::npos)
      << m;
}

TEST(GoldenComparisons, ShapesThatDifferAreReportedWithoutExplanations) {
  const GatherCase g;
  const std::string m = golden::matches_golden(TensorView<const float16>(g.output.data(), {8}), g.call()).message();
  EXPECT_NE(m.find("shapes differ: actual is FLOAT16 {8}, dmlref's Gather is FLOAT16 {4, 2}"), std::string::npos) << m;
  EXPECT_EQ(m.find("explained"), std::string::npos) << m;
}

TEST(GoldenComparisons, WithinATolerance) {
  GatherCase g;
  g.output[7] = float16::from_bits(0x3e01);  // one ULP away
  EXPECT_FALSE(golden::matches_golden(g.out(), g.call()));
  EXPECT_TRUE(golden::matches_golden(g.out(), g.call().within(golden::ulps(1))));
}

// EXPECT_FATAL_FAILURE's statement cannot use local variables.
const float kInput[] = {11, 12, 13, 14};
const std::uint32_t kIndices[] = {3, 1};
const float kWrong[] = {14, 11};

TEST(GoldenComparisons, AssertFormIsFatal) {
  EXPECT_FATAL_FAILURE(
      DMLREF_ASSERT_GOLDEN(TensorView<const float>(kWrong, {2}),
                           dmlref::testing::gather(TensorView<const float>(kInput, {4}),
                                                   TensorView<const std::uint32_t>(kIndices, {2}),
                                                   dmlref::GatherParams{0, 1})),
      "output[1]: expected 12 (0x41400000), got 11 (0x41300000); expected = input[1], from indices[1] = 1 → 1 (Axis 0)");
}

}  // namespace
