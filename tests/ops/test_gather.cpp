// Gather (DML_GATHER_OPERATOR_DESC; docs/semantics.md): what the operator must do.
//   - the spec's worked examples and derived vectors, on both layers, and its shape helper;
//   - the clamp policy (WebNN's arithmetic) on a few cases;
//   - its validation rules: Axis, IndexDimensions, the indices' leading ones, the dropped entries
//     of L, the output sizes, every index type's edge values;
//   - its type grid: 11 data types x 4 index types x DimensionCount 1..8 x layouts.
// The rules every operator shares (layouts, buffers, data types, overlap) are in
// test_tensor_rules.cpp; random cases in tests/random/, the fast paths in tests/kernels/.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "dmlref/dmlref.hpp"
#include "support/examples.hpp"
#include "support/rules.hpp"
#include "support/type_grid.hpp"

namespace {

using namespace rules;  // NOLINT: the harness's vocabulary: Call, make_call, expect_error, Op, ...

// ================================================================================================
// The spec's examples

DMLREF_SPEC_EXAMPLE_TESTS(GatherExamples, Op::gather);

TEST(GatherErrors, X12MessageNamesValuePositionAndRange) {
  const examples::Example* x12 = examples::find("X-12");
  ASSERT_NE(x12, nullptr);
  examples::Prepared p(*x12);
  const Status s = harness::run_dispatch(examples::call(*x12, p, {}));
  ASSERT_EQ(s.code(), ErrorCode::index_out_of_range);
  const std::string m = s.message();
  EXPECT_TRUE(rules::contains(m, "4294967295")) << m;
  EXPECT_TRUE(rules::contains(m, "[1]")) << m;
  EXPECT_TRUE(rules::contains(m, "valid 0..3")) << m;
  EXPECT_TRUE(rules::contains(m, "Gather")) << m;
  EXPECT_EQ(s.error().target_dimension, 0);
  EXPECT_EQ(s.error().target_size, 4);
  EXPECT_EQ(s.error().actual.kind, dmlref::ErrorValue::Kind::unsigned_integer);
  EXPECT_EQ(s.error().actual.unsigned_integer, 4294967295u);
}

// ================================================================================================
// Clamp policy (WebNN's arithmetic): clamp to [-n, n-1], then add n if negative; unsigned values
// clamp to n-1. Each case runs on both layers.

/// Gather Axis 0, IndexDimensions 1 on a {3,2} input [[1,2],[3,4],[5,6]] with the clamp policy.
template <class I>
void expect_gather_clamped(const std::vector<I>& indices, const std::vector<float>& expected) {
  const Sizes in_sizes{3, 2}, idx_sizes{1, static_cast<std::int64_t>(indices.size())},
      out_sizes{static_cast<std::int64_t>(indices.size()), 2};
  dmlref::Options clamp;
  clamp.index_policy = dmlref::IndexPolicy::clamp;
  for (const bool typed : {false, true}) {
    SCOPED_TRACE(typed ? "typed" : "dispatch");
    guarded::Buffer in(6 * sizeof(float)), idx(indices.size() * sizeof(I)), out(expected.size() * sizeof(float));
    in.fill(std::vector<float>{1, 2, 3, 4, 5, 6});
    idx.fill(indices);
    const Status s =
        typed ? dmlref::try_gather(in.cview<float>(rules::to_shape(in_sizes)), idx.cview<I>(rules::to_shape(idx_sizes)),
                                   out.view<float>(rules::to_shape(out_sizes)), {0, 1}, clamp)
              : dmlref::try_gather(in.desc(DataType::FLOAT32, in_sizes), idx.desc(dmlref::data_type_v<I>, idx_sizes),
                                   out.mutable_desc(DataType::FLOAT32, out_sizes), {0, 1}, clamp);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(guarded::values<float>(out), expected);
    EXPECT_TRUE(out.guards_intact() && in.untouched() && idx.untouched());
    // The default policy reports the same indices as out of range and writes nothing.
    guarded::Buffer out2(expected.size() * sizeof(float));
    const Status e = dmlref::try_gather(in.desc(DataType::FLOAT32, in_sizes), idx.desc(dmlref::data_type_v<I>, idx_sizes),
                                        out2.mutable_desc(DataType::FLOAT32, out_sizes), {0, 1});
    EXPECT_EQ(e.code(), ErrorCode::index_out_of_range) << e.message();
    EXPECT_TRUE(out2.untouched());
  }
}

TEST(GatherClampPolicy, SignedTooLargeGivesLastRowTooSmallGivesRowZero) {
  expect_gather_clamped<std::int32_t>({10, -10, -1}, {5, 6, 1, 2, 5, 6});
  expect_gather_clamped<std::int64_t>({std::numeric_limits<std::int64_t>::max(),
                                       std::numeric_limits<std::int64_t>::min(), 1},
                                      {5, 6, 1, 2, 3, 4});
}

TEST(GatherClampPolicy, UnsignedMaxGivesLastRow) {
  expect_gather_clamped<std::uint32_t>({0xFFFFFFFFu, 0, 3}, {5, 6, 1, 2, 5, 6});
  expect_gather_clamped<std::uint64_t>({std::uint64_t{1} << 63, ~std::uint64_t{0}, 1}, {5, 6, 5, 6, 3, 4});
}

// X-1 (negative in-range indices) gives the documented output under the clamp policy too.
TEST(GatherClampPolicy, InRangeIndicesAreUnaffected) { examples::check_clamp_leaves_in_range_examples(Op::gather); }

// ================================================================================================
// Validation rules (docs/semantics.md, "Gather"). The default call: {2,3,4}, Axis 1, IndexDimensions 1,
// indices {1,1,2} -> {2,2,4}.

TEST(GatherRules, AxisMustBeBelowD) { rules::expect_axis_below_d(Op::gather); }

TEST(GatherRules, AxisDMinusOneIsAccepted) {
  Call c = make_call(Op::gather);  // {2,3,4}, Axis 2
  c.attr[0] = 2;
  c.output().sizes = {2, 3, 2};
  c.indices().values = u64({3, 0});
  expect_ok(c);
}

TEST(GatherRules, IndexDimensionsMustBeAtMostD) {
  for (std::uint32_t p : {4u, 5u, std::numeric_limits<std::uint32_t>::max()}) {
    SCOPED_TRACE("IndexDimensions " + std::to_string(p));
    Call c = make_call(Op::gather);  // D = 3
    c.attr[1] = p;
    expect_error(c, {ErrorCode::invalid_attribute, "", "IndexDimensions", -1, "0..3", std::to_string(p)});
  }
}

TEST(GatherRules, IndexDimensionsDAndZeroAreAccepted) {
  Call c = make_call(Op::gather);  // {2,3,4}, Axis 0
  c.attr[0] = 0;
  c.attr[1] = 3;  // P = D: L = {} ++ {1,1,2} ++ {3,4}; the 2 dropped entries are 1
  c.indices().values = u64({1, 0});
  c.output().sizes = {2, 3, 4};
  expect_ok(c);
  c.attr[1] = 0;  // a scalar index: Out = (1) ++ {3,4}
  c.indices().sizes = {1, 1, 1};
  c.indices().values = u64({1});
  c.output().sizes = {1, 3, 4};
  expect_ok(c);
}

TEST(GatherRules, IndicesLeadingSizesMustBeOne) {
  // D = 3, IndexDimensions 1: IndicesTensor's first two sizes are "irrelevant leading" ones.
  for (int d : {0, 1}) {
    SCOPED_TRACE("IndicesTensor.Sizes[" + std::to_string(d) + "]");
    Call c = make_call(Op::gather);
    c.indices().sizes[static_cast<std::size_t>(d)] = 2;
    c.indices().values = u64({0, 0, 0, 0});
    expect_error(c, {ErrorCode::shape_mismatch, "IndicesTensor", "Sizes", d, "1", "2"});
  }
}

TEST(GatherRules, DroppedEntryOfLMustBeOne) {
  // {2,3,4}, Axis 1, IndexDimensions 2, indices {1,1,2}: L = {2} ++ {1,2} ++ {4}; dropping L[0] = 2
  // would lose data (the spec's "IndexDimensions too large for DimensionCount").
  Call c = make_call(Op::gather);
  c.attr[1] = 2;
  expect_error(c, {ErrorCode::shape_mismatch, "", "IndexDimensions", -1, std::nullopt, "2"});
  // With a leading input size of 1 the dropped entry is 1: {1,3,4}, Axis 1, P 2 -> {1,2,4}.
  c.input().sizes = {1, 3, 4};
  c.output().sizes = {1, 2, 4};
  expect_ok(c);
}

/// gather_output_sizes gives the call's OutputTensor sizes, and the call succeeds.
void expect_helper_agrees_and_ok(const Call& c) {
  const auto helper = dmlref::gather_output_sizes(rules::to_shape(c.t[kInput].sizes),
                                                  rules::to_shape(c.t[kIndices].sizes), {c.attr[0], c.attr[1]});
  ASSERT_TRUE(helper.ok()) << helper.status().message();
  EXPECT_EQ(rules::str(*helper), rules::str(rules::to_shape(c.t[kOutput].sizes)));
  expect_ok(c);
}

TEST(GatherRules, ConcatenationLongerThanEightEntries) {
  // L = In[0, Axis) ++ Idx[D-P, D) ++ In[Axis+1, D) has D + P - 1 entries, up to 15; only the
  // output (its last D entries) must fit in 8. An ONNX Gather of 1-D data with 5-D indices maps to
  // D 5, Axis 4, IndexDimensions 5: L has 9 entries, the first 4 (all 1) are dropped.
  Call c = make_call(Op::gather);
  c.input().sizes = {1, 1, 1, 1, 3};
  c.indices().sizes = {1, 1, 1, 1, 2};
  c.indices().values = u64({2, 0});
  c.output().sizes = {1, 1, 1, 1, 2};
  c.attr[0] = 4;
  c.attr[1] = 5;
  expect_helper_agrees_and_ok(c);
  // D 8, Axis 0, IndexDimensions 8: L has 15 entries, the first 7 dropped.
  c.input().sizes = {2, 1, 1, 1, 1, 1, 1, 3};
  c.indices().sizes = {1, 1, 1, 1, 1, 1, 1, 2};
  c.indices().values = u64({1, 0});
  c.output().sizes = {2, 1, 1, 1, 1, 1, 1, 3};
  c.attr[0] = 0;
  c.attr[1] = 8;
  expect_helper_agrees_and_ok(c);
}

TEST(GatherRules, WrongOutputSizesAreRejected) { rules::expect_wrong_output_sizes_rejected(Op::gather); }

TEST(GatherRules, EveryIndexTypeEdgeValues) { rules::expect_index_edge_values(Op::gather); }

// ================================================================================================
// Types

DMLREF_TYPE_GRID_TESTS(GatherTypes, Op::gather);

// Boundary indices select exactly the expected bit patterns (literal values, not a construction).
TEST(GatherLiteral, FloatNaNPayloadsAndBoundaries) {
  const std::uint32_t in[5] = {0x7FC12345u, 0x7F800001u, 0x80000000u, 0x00000001u, 0xFF800000u};
  const std::int64_t idx[6] = {-5, 4, -1, 0, 2, -3};
  float input[5], output[6];
  std::memcpy(input, in, sizeof in);
  std::memset(output, 0xA5, sizeof output);
  const dmlref::Status s = dmlref::try_gather(dmlref::TensorView<const float>(input, {1, 1, 5}),
                                              dmlref::TensorView<const std::int64_t>(idx, {1, 1, 6}),
                                              dmlref::TensorView<float>(output, {1, 1, 6}), dmlref::GatherParams{2, 1});
  ASSERT_TRUE(s.ok()) << s.message();
  const std::uint32_t expected[6] = {0x7FC12345u, 0xFF800000u, 0xFF800000u, 0x7FC12345u, 0x80000000u, 0x80000000u};
  for (int i = 0; i < 6; ++i) {
    std::uint32_t got;
    std::memcpy(&got, &output[i], 4);
    EXPECT_EQ(got, expected[i]) << "element " << i;
  }
}

}  // namespace
