// ScatterND (DML_SCATTER_ND_OPERATOR_DESC; docs/semantics.md): what the operator must do.
//   - the spec's worked examples and derived vectors, on both layers, and its shape helpers;
//   - the clamp policy;
//   - its validation rules: InputDimensionCount, IndicesDimensionCount, the leading ones, the tuple
//     length K, UpdatesTensor of GatherND's output shape, the output rank and sizes, every index
//     type's edge values, and the opt-in collision check on blocks, after normalisation;
//   - its type grid: 11 data types x 4 index types x DimensionCount 1..8 x layouts, in place too.
// The rules every operator shares (in place and overlap among them) are in test_tensor_rules.cpp.
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

DMLREF_SPEC_EXAMPLE_TESTS(ScatterNDExamples, Op::scatter_nd);

// ================================================================================================
// Clamp policy

TEST(ScatterNDClampPolicy, Int32MaxWritesLastRow) {
  // Input {3,2} zeros, r = 2, q = 2, Indices {1,1} = [[INT32_MAX]] -> Updates {1,2} go to row 2.
  const Sizes in_sizes{3, 2}, idx_sizes{1, 1}, upd_sizes{1, 2};
  const Shape in_shape = rules::to_shape(in_sizes);
  dmlref::Options clamp;
  clamp.index_policy = dmlref::IndexPolicy::clamp;
  for (const bool typed : {false, true}) {
    SCOPED_TRACE(typed ? "typed" : "dispatch");
    guarded::Buffer in(6 * sizeof(float)), idx(sizeof(std::int32_t)), upd(2 * sizeof(float)), out(6 * sizeof(float));
    in.fill(std::vector<float>(6, 0.0f));
    idx.fill(std::vector<std::int32_t>{std::numeric_limits<std::int32_t>::max()});
    upd.fill(std::vector<float>{7, 8});
    const Status s =
        typed ? dmlref::try_scatter_nd(in.cview<float>(in_shape), idx.cview<std::int32_t>(rules::to_shape(idx_sizes)),
                                       upd.cview<float>(rules::to_shape(upd_sizes)), out.view<float>(in_shape), {2, 2},
                                       clamp)
              : dmlref::try_scatter_nd(in.desc(DataType::FLOAT32, in_sizes), idx.desc(DataType::INT32, idx_sizes),
                                       upd.desc(DataType::FLOAT32, upd_sizes),
                                       out.mutable_desc(DataType::FLOAT32, in_sizes), {2, 2}, clamp);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(guarded::values<float>(out), (std::vector<float>{0, 0, 0, 0, 7, 8}));
    EXPECT_TRUE(out.guards_intact() && in.untouched() && idx.untouched() && upd.untouched());
  }
}

TEST(ScatterNDClampPolicy, InRangeIndicesAreUnaffected) {
  examples::check_clamp_leaves_in_range_examples(Op::scatter_nd);
}

// ================================================================================================
// Validation rules (docs/semantics.md, "ScatterND"). The default call: r 2, q 2, K 1: {1,3,2}, indices {1,2,1},
// updates {1,2,2}.

TEST(ScatterNDRules, InputAndIndicesDimensionCountMustBeOneToD) {
  rules::expect_nd_dimension_counts_one_to_d(Op::scatter_nd);
}

TEST(ScatterNDRules, InputAndIndicesDimensionCountDAreAccepted) {
  // ScatterND's page says [1, D); its own example GN-S needs D (docs/semantics.md, "ScatterND").
  Call c = make_call(Op::scatter_nd);  // {1,3,2}: r = D = 3, q = D = 3
  c.attr[0] = 3;
  c.attr[1] = 3;
  // K = 1 addresses dimension 0 (size 1); M = 2 + 2 = 4 > 3 would not fit: use K = 2.
  c.indices().sizes = {1, 1, 2};
  c.indices().values = u64({0, 2});
  c.updates().sizes = {1, 1, 2};  // M = 2 + (3 - 2) = 3: {1,1} ++ {2}
  expect_ok(c);
}

TEST(ScatterNDRules, InputLeadingSizesMustBeOne) { rules::expect_nd_input_leading_ones(Op::scatter_nd); }
TEST(ScatterNDRules, IndicesLeadingSizesMustBeOne) { rules::expect_nd_indices_leading_ones(Op::scatter_nd); }

TEST(ScatterNDRules, UpdatesMustHaveTheGatherNDShape) {
  for (const Sizes& upd : {Sizes{1, 2, 1}, Sizes{1, 1, 2}, Sizes{2, 2, 2}, Sizes{1, 3, 2}}) {
    Call c = make_call(Op::scatter_nd);
    c.updates().sizes = upd;
    expect_error(c, {ErrorCode::shape_mismatch, "UpdatesTensor", "Sizes", -1, "{1, 2, 2}"});
  }
}

TEST(ScatterNDRules, TupleLengthZeroIsASizeError) { rules::expect_tuple_length_zero_is_a_size_error(Op::scatter_nd); }
TEST(ScatterNDRules, TupleLengthAboveRIsRejected) {  // r 2: K <= 2
  rules::expect_tuple_length_above_r_minus_b_rejected(Op::scatter_nd, 3, "1..2");
}
TEST(ScatterNDRules, MeaningfulOutputRankAboveDIsRejected) {
  rules::expect_meaningful_output_rank_above_d_rejected(Op::scatter_nd);
}
TEST(ScatterNDRules, WrongOutputSizesAreRejected) { rules::expect_wrong_output_sizes_rejected(Op::scatter_nd); }
TEST(ScatterNDRules, ReductionMustBeAnEnumerator) { rules::expect_reduction_must_be_an_enumerator(Op::scatter_nd); }
TEST(ScatterNDRules, EveryIndexTypeEdgeValues) { rules::expect_index_edge_values(Op::scatter_nd); }

// The opt-in collision check (docs/semantics.md, "Rules shared by all operators", 7).
TEST(ScatterNDRules, OverlappingBlocksAreReported) {
  Call c = make_call(Op::scatter_nd);  // rows of {1,3,2}; tuples [2], [2]
  c.indices().values = u64({2, 2});
  c.options.check_collisions = true;
  const dmlref::Error e = expect_error(c, {ErrorCode::scatter_collision, "UpdatesTensor", "", -1});
  EXPECT_EQ(str(e.position), str((Shape{0, 1, 0})));
  EXPECT_EQ(std::string(e.target_tensor), "OutputTensor");
  EXPECT_EQ(str(e.target_position), str((Shape{0, 2, 0})));
  c.options.check_collisions = false;  // default policy: the later tuple wins
  expect_ok(c);
}

TEST(ScatterNDRules, CollisionsAfterNormalisationAreReported) {
  Call c = make_call(Op::scatter_nd);
  c.indices().type = DataType::INT64;
  c.indices().values = u64({-1, 2});  // -1 is 2 in a size-3 dimension
  c.options.check_collisions = true;
  const dmlref::Error e = expect_error(c, {ErrorCode::scatter_collision, "UpdatesTensor", "", -1});
  EXPECT_EQ(str(e.target_position), str((Shape{0, 2, 0})));
}

TEST(ScatterNDRules, NoCollisionPasses) { rules::expect_no_collision_passes(Op::scatter_nd); }

// ================================================================================================
// Types

DMLREF_TYPE_GRID_TESTS(ScatterNDTypes, Op::scatter_nd);

}  // namespace
