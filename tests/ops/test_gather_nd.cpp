// GatherND and GatherND1 (DML_GATHER_ND_OPERATOR_DESC, DML_GATHER_ND1_OPERATOR_DESC;
// docs/semantics.md): what the operators must do.
//   - the spec's worked examples and derived vectors, on both layers, and the shape helpers;
//   - the clamp policy on each tuple coordinate;
//   - their validation rules: InputDimensionCount, IndicesDimensionCount, BatchDimensionCount, the
//     leading ones, the tuple length K, the batch sizes, the output rank and sizes, every index
//     type's edge values, tuple coordinates checked against their own dimension;
//   - their type grids: 11 data types x 4 index types x DimensionCount 1..8 x layouts.
// The rules every operator shares are in test_tensor_rules.cpp.
#include <gtest/gtest.h>

#include <cstdint>
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

DMLREF_SPEC_EXAMPLE_TESTS(GatherNDExamples, Op::gather_nd);

DMLREF_SPEC_EXAMPLE_TESTS(GatherND1Examples, Op::gather_nd1);

// The documented shape of GN-S applies to GatherND, GatherND1 (B = 0) and ScatterND's updates.
TEST(GatherNDShapes, GnSOnAllThreeNdOperators) {
  const Shape in{3, 4, 5, 6, 7}, idx{1, 1, 1, 2, 3}, expected{1, 1, 2, 6, 7};
  const auto nd = dmlref::gather_nd_output_sizes(in, idx, {5, 3});
  const auto nd1 = dmlref::gather_nd1_output_sizes(in, idx, {5, 3, 0});
  const auto upd = dmlref::scatter_nd_updates_sizes(in, idx, {5, 3});
  const auto out = dmlref::scatter_nd_output_sizes(in, idx, expected, {5, 3});
  ASSERT_TRUE(nd.ok() && nd1.ok() && upd.ok() && out.ok());
  EXPECT_EQ(str(*nd), str(expected));
  EXPECT_EQ(str(*nd1), str(expected));
  EXPECT_EQ(str(*upd), str(expected));
  EXPECT_EQ(str(*out), str(in));
}

// ================================================================================================
// Clamp policy

TEST(GatherNDClampPolicy, ClampsEachCoordinate) {
  dmlref::Options clamp;
  clamp.index_policy = dmlref::IndexPolicy::clamp;
  guarded::Buffer in(6 * sizeof(float));
  in.fill(std::vector<float>{1, 2, 3, 4, 5, 6});  // {2,3}
  const Sizes in_sizes{2, 3};
  // r 2, q 2, K 2: tuples (7, 0xFFFFFFF9) -> (1, 2) = 6; (0, UINT32 max) -> (0, 2) = 3
  guarded::Buffer idx(4 * sizeof(std::uint32_t)), out(2 * sizeof(float));
  idx.fill(std::vector<std::uint32_t>{7, 0xFFFFFFF9u /* not negative: clamps to n-1 */, 0, 0xFFFFFFFFu});
  const Sizes s{2, 2}, o{1, 2};
  const Status st = dmlref::try_gather_nd(in.cview<float>(rules::to_shape(in_sizes)),
                                          idx.cview<std::uint32_t>(rules::to_shape(s)),
                                          out.view<float>(rules::to_shape(o)), {2, 2}, clamp);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(guarded::values<float>(out), (std::vector<float>{6, 3}));
}

TEST(GatherNDClampPolicy, InRangeIndicesAreUnaffected) { examples::check_clamp_leaves_in_range_examples(Op::gather_nd); }
TEST(GatherND1ClampPolicy, InRangeIndicesAreUnaffected) {
  examples::check_clamp_leaves_in_range_examples(Op::gather_nd1);
}

// ================================================================================================
// GatherND's validation rules (docs/semantics.md, "GatherND and GatherND1"). The default call: r 2, q 2, K 1:
// {1,2,3} x {1,2,1} -> {1,2,3}.

TEST(GatherNDRules, InputAndIndicesDimensionCountMustBeOneToD) {
  rules::expect_nd_dimension_counts_one_to_d(Op::gather_nd);
}
TEST(GatherNDRules, InputLeadingSizesMustBeOne) { rules::expect_nd_input_leading_ones(Op::gather_nd); }
TEST(GatherNDRules, IndicesLeadingSizesMustBeOne) { rules::expect_nd_indices_leading_ones(Op::gather_nd); }
TEST(GatherNDRules, TupleLengthZeroIsASizeError) { rules::expect_tuple_length_zero_is_a_size_error(Op::gather_nd); }
TEST(GatherNDRules, TupleLengthAboveRIsRejected) {  // r 2: K <= 2
  rules::expect_tuple_length_above_r_minus_b_rejected(Op::gather_nd, 3, "1..2");
}
TEST(GatherNDRules, MeaningfulOutputRankAboveDIsRejected) {
  rules::expect_meaningful_output_rank_above_d_rejected(Op::gather_nd);
}
TEST(GatherNDRules, WrongOutputSizesAreRejected) { rules::expect_wrong_output_sizes_rejected(Op::gather_nd); }
TEST(GatherNDRules, EveryIndexTypeEdgeValues) { rules::expect_index_edge_values(Op::gather_nd); }

TEST(GatherNDRules, TupleCoordinatesAreCheckedAgainstTheirOwnDimension) {
  // r 2, q 1, K 2 over {2,3}: a tuple (a, b) with a in [0,2) and b in [0,3).
  for (DataType type : rules::index_types()) {
    SCOPED_TRACE(dmlref::name(type));
    const bool is_signed = dmlref::is_signed_integer(type);
    Call c = make_call(Op::gather_nd);
    c.indices().type = type;
    c.input().sizes = {2, 3};
    c.indices().sizes = {1, 2};
    c.output().sizes = {1, 1};
    c.attr[0] = 2;
    c.attr[1] = 1;
    c.indices().values = u64({1, 2});
    expect_ok(c);
    c.indices().values = u64({2, 0});  // first coordinate: dimension 0 of size 2
    dmlref::Error e = expect_error(c, {ErrorCode::index_out_of_range, "IndicesTensor", "value", -1,
                                       is_signed ? "-2..1" : "0..1", "2"});
    EXPECT_EQ(str(e.position), str((Shape{0, 0})));
    EXPECT_EQ(e.target_dimension, 0);
    EXPECT_EQ(e.target_size, 2);
    c.indices().values = u64({1, 3});  // second coordinate: dimension 1 of size 3
    e = expect_error(c, {ErrorCode::index_out_of_range, "IndicesTensor", "value", -1, is_signed ? "-3..2" : "0..2",
                         "3"});
    EXPECT_EQ(str(e.position), str((Shape{0, 1})));
    EXPECT_EQ(e.target_dimension, 1);
    EXPECT_EQ(e.target_size, 3);
    if (is_signed) {
      c.indices().values = u64({-2, -3});
      expect_ok(c);
      c.indices().values = u64({-2, -4});
      expect_error(c, {ErrorCode::index_out_of_range, "IndicesTensor", "value", -1, "-3..2", "-4"});
    }
  }
}

// ================================================================================================
// GatherND1's validation rules (docs/semantics.md, "GatherND and GatherND1"). The default call: r 3, q 3, B 1, K 1:
// {1,2,2,3} x {1,2,1,1} -> {1,2,1,3}.

TEST(GatherND1Rules, InputAndIndicesDimensionCountMustBeOneToD) {
  rules::expect_nd_dimension_counts_one_to_d(Op::gather_nd1);
}

TEST(GatherND1Rules, BatchDimensionCountMustBeBelowRAndQ) {
  // r 3, q 3: B = 3 is out of range; so is B = q when q < r, and B = r when r < q.
  struct Case {
    std::uint32_t r, q, B;
    std::string range;
  };
  for (const Case& k : {Case{3, 3, 3, "0..2"}, Case{3, 3, 4, "0..2"}, Case{3, 2, 2, "0..1"}, Case{2, 3, 2, "0..1"},
                        Case{3, 3, std::numeric_limits<std::uint32_t>::max(), "0..2"}}) {
    SCOPED_TRACE("r " + std::to_string(k.r) + " q " + std::to_string(k.q) + " B " + std::to_string(k.B));
    Call c = make_call(Op::gather_nd1);
    c.attr[0] = k.r;
    c.attr[1] = k.q;
    c.attr[2] = k.B;
    expect_error(c, {ErrorCode::invalid_attribute, "", "BatchDimensionCount", -1, k.range, std::to_string(k.B)});
  }
}

TEST(GatherND1Rules, BatchDimensionCountBelowMinimumIsAccepted) {
  // r 3, q 3, B 2, K 1: input {1,2,2,3}, indices {1,2,2,1} -> M = 2 + 0 = 2, out {1,1,2,2}.
  Call c = make_call(Op::gather_nd1);
  c.attr[2] = 2;
  c.indices().sizes = {1, 2, 2, 1};
  c.indices().values = u64({2, 0, 1, 1});
  c.output().sizes = {1, 1, 2, 2};
  expect_ok(c);
}

TEST(GatherND1Rules, InputLeadingSizesMustBeOne) { rules::expect_nd_input_leading_ones(Op::gather_nd1); }
TEST(GatherND1Rules, IndicesLeadingSizesMustBeOne) { rules::expect_nd_indices_leading_ones(Op::gather_nd1); }
TEST(GatherND1Rules, TupleLengthZeroIsASizeError) { rules::expect_tuple_length_zero_is_a_size_error(Op::gather_nd1); }
TEST(GatherND1Rules, TupleLengthAboveRMinusBIsRejected) {  // r 3, B 1: K <= 2
  rules::expect_tuple_length_above_r_minus_b_rejected(Op::gather_nd1, 3, "1..2");
}

TEST(GatherND1Rules, TupleLengthRMinusBIsAccepted) {
  Call c = make_call(Op::gather_nd1);  // r 3, B 1: K = 2 addresses both remaining dimensions
  c.indices().sizes = {1, 2, 1, 2};
  c.indices().values = u64({1, 2, 0, 0});
  c.output().sizes = {1, 1, 2, 1};  // M = 2 + 0: {2,1}
  expect_ok(c);
}

TEST(GatherND1Rules, BatchSizesMustAgree) {
  // r 3, q 3, B 1: InA[0] = 2 must equal IdxA[0].
  for (std::int64_t size : {1, 3}) {
    SCOPED_TRACE("IndicesTensor.Sizes[1] = " + std::to_string(size));
    Call c = make_call(Op::gather_nd1);
    c.indices().sizes[1] = size;
    c.output().sizes[1] = size;
    c.indices().values = u64({0, 0, 0});
    expect_error(c, {ErrorCode::shape_mismatch, "IndicesTensor", "Sizes", 1, "2", std::to_string(size)});
  }
}

TEST(GatherND1Rules, MeaningfulOutputRankAboveDIsRejected) {
  // D 4, r 4, q 4, B 1, K 1: M = 3 + 2 = 5 > 4.
  Call c = make_call(Op::gather_nd1);
  c.input().sizes = {2, 2, 2, 2};
  c.indices().sizes = {2, 2, 2, 1};
  c.indices().values.assign(8, 0);
  c.output().sizes = {2, 2, 2, 2};
  c.attr[0] = 4;
  c.attr[1] = 4;
  c.attr[2] = 1;
  expect_error(c, {ErrorCode::shape_mismatch, "IndicesTensor", "Sizes", 3, "at least 2", "1"});
}

TEST(GatherND1Rules, WrongOutputSizesAreRejected) { rules::expect_wrong_output_sizes_rejected(Op::gather_nd1); }
TEST(GatherND1Rules, EveryIndexTypeEdgeValues) { rules::expect_index_edge_values(Op::gather_nd1); }

TEST(GatherND1Rules, TupleTargetsSkipTheBatchDimensions) {
  // r 3, B 1, K 2 on {1,2,2,3}: coordinates address dimensions 2 (size 2) and 3 (size 3).
  Call c = make_call(Op::gather_nd1);
  c.indices().sizes = {1, 2, 1, 2};
  c.output().sizes = {1, 1, 2, 1};
  c.indices().values = u64({1, 2, 0, 3});
  dmlref::Error e = expect_error(c, {ErrorCode::index_out_of_range, "IndicesTensor", "value", -1, "0..2", "3"});
  EXPECT_EQ(str(e.position), str((Shape{0, 1, 0, 1})));
  EXPECT_EQ(e.target_dimension, 3);
  c.indices().values = u64({2, 0, 0, 0});
  e = expect_error(c, {ErrorCode::index_out_of_range, "IndicesTensor", "value", -1, "0..1", "2"});
  EXPECT_EQ(e.target_dimension, 2);
}

// ================================================================================================
// Types

DMLREF_TYPE_GRID_TESTS(GatherNDTypes, Op::gather_nd);

DMLREF_TYPE_GRID_TESTS(GatherND1Types, Op::gather_nd1);

TEST(GatherNDLiteral, Int64Extremes) {
  const std::int64_t data[3] = {std::numeric_limits<std::int64_t>::min(), -1, std::numeric_limits<std::int64_t>::max()};
  const std::int32_t tuples[2] = {-3, 2};  // r = 1, q = 2, K = 1
  std::int64_t gathered[2] = {};
  ASSERT_TRUE(dmlref::try_gather_nd(dmlref::TensorView<const std::int64_t>(data, {1, 3}),
                                    dmlref::TensorView<const std::int32_t>(tuples, {2, 1}),
                                    dmlref::TensorView<std::int64_t>(gathered, {1, 2}), dmlref::GatherNDParams{1, 2})
                  .ok());
  EXPECT_EQ(gathered[0], std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(gathered[1], std::numeric_limits<std::int64_t>::max());
}

}  // namespace
