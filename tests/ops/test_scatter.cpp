// Scatter = ScatterElements (DML_SCATTER_OPERATOR_DESC; docs/semantics.md): what the operator must
// do.
//   - the spec's worked examples and derived vectors, on both layers, and its shape helper: the
//     later of two updates to one element wins, or with Options::check_collisions the call fails;
//   - the clamp policy, also under the collision check;
//   - its validation rules: Axis, IndicesTensor equal to InputTensor off Axis, UpdatesTensor equal
//     to IndicesTensor, the output sizes, every index type's edge values (against OutputTensor's
//     Axis), index errors before collisions;
//   - its type grid: 11 data types x 4 index types x DimensionCount 1..8 x layouts, in place too.
// The rules every operator shares (in place and overlap among them) are in test_tensor_rules.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "dmlref/dmlref.hpp"
#include "support/examples.hpp"
#include "support/rules.hpp"
#include "support/type_grid.hpp"

namespace {

using namespace rules;  // NOLINT: the harness's vocabulary: Call, make_call, expect_error, Op, ...

Sizes sizes_of(const Shape& s) { return Sizes(s.begin(), s.end()); }

// ================================================================================================
// The spec's examples

DMLREF_SPEC_EXAMPLE_TESTS(ScatterExamples, Op::scatter);

TEST(ScatterCollisions, S1NamesUpdateAndOutputElement) {
  const examples::Example* s1 = examples::find("S-1-collision");
  ASSERT_NE(s1, nullptr);
  for (const bool typed : {false, true}) {
    SCOPED_TRACE(typed ? "typed" : "dispatch");
    examples::Prepared p(*s1);
    dmlref::Options o;
    o.check_collisions = true;
    const harness::Call c = examples::call(*s1, p, o);
    const Status s = typed ? harness::run_typed(c) : harness::run_dispatch(c);
    ASSERT_EQ(s.code(), ErrorCode::scatter_collision) << s.message();
    EXPECT_EQ(std::string(s.error().op), "Scatter");
    EXPECT_EQ(std::string(s.error().tensor), "UpdatesTensor");
    EXPECT_EQ(sizes_of(s.error().position), (Sizes{2}));
    EXPECT_EQ(std::string(s.error().target_tensor), "OutputTensor");
    EXPECT_EQ(sizes_of(s.error().target_position), (Sizes{3}));
    const std::string m = s.message();
    EXPECT_TRUE(rules::contains(m, "UpdatesTensor element [2]")) << m;
    EXPECT_TRUE(rules::contains(m, "OutputTensor element [3]")) << m;
    EXPECT_TRUE(p.output.buffer->untouched());
  }
}

// S-1 without the check: the later update wins (docs/semantics.md, "Policies where DirectML is undefined"), on both layers (the examples above); with
// the check but no collision, the result is the same as without it.
TEST(ScatterCollisions, CheckWithoutCollisionChangesNothing) {
  const examples::Example* s2 = examples::find("S-2");
  ASSERT_NE(s2, nullptr);
  examples::Prepared p(*s2);
  dmlref::Options o;
  o.check_collisions = true;
  examples::check_success(*s2, p, harness::run_dispatch(examples::call(*s2, p, o)));
}

// ================================================================================================
// Clamp policy

TEST(ScatterClampPolicy, ClampsEachCoordinate) {
  dmlref::Options clamp;
  clamp.index_policy = dmlref::IndexPolicy::clamp;
  // Axis 0 of [[10, 20, 30]] with index [[-5, 5, 0]] into zeros {2,3}
  const Sizes in_sizes{2, 3};
  guarded::Buffer zeros(6 * sizeof(float)), idx(3 * sizeof(std::int32_t)), upd(3 * sizeof(float)),
      out(6 * sizeof(float));
  zeros.fill(std::vector<float>(6, 0.0f));
  idx.fill(std::vector<std::int32_t>{-5, 5, 0});
  upd.fill(std::vector<float>{10, 20, 30});
  const Sizes s{1, 3};
  const Status st = dmlref::try_scatter(zeros.desc(DataType::FLOAT32, in_sizes), idx.desc(DataType::INT32, s),
                                        upd.desc(DataType::FLOAT32, s), out.mutable_desc(DataType::FLOAT32, in_sizes),
                                        {0}, clamp);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(guarded::values<float>(out), (std::vector<float>{10, 0, 30, 0, 20, 0}));
}

TEST(ScatterClampPolicy, CollisionCheckSeesClampedIndices) {
  // Scatter 1-D, size 4: 10 clamps to 3, which the second update also writes.
  dmlref::Options o;
  o.index_policy = dmlref::IndexPolicy::clamp;
  o.check_collisions = true;
  guarded::Buffer in(4 * sizeof(float)), idx(2 * sizeof(std::uint32_t)), upd(2 * sizeof(float)),
      out(4 * sizeof(float));
  in.fill(std::vector<float>{0, 0, 0, 0});
  idx.fill(std::vector<std::uint32_t>{10, 3});
  upd.fill(std::vector<float>{1, 2});
  const Sizes s4{4}, s2{2};
  const Status st = dmlref::try_scatter(in.desc(DataType::FLOAT32, s4), idx.desc(DataType::UINT32, s2),
                                        upd.desc(DataType::FLOAT32, s2), out.mutable_desc(DataType::FLOAT32, s4), {0}, o);
  ASSERT_EQ(st.code(), ErrorCode::scatter_collision) << st.message();
  EXPECT_EQ(sizes_of(st.error().position), (Sizes{1}));
  EXPECT_EQ(sizes_of(st.error().target_position), (Sizes{3}));
  EXPECT_TRUE(out.untouched());
}

TEST(ScatterClampPolicy, InRangeIndicesAreUnaffected) { examples::check_clamp_leaves_in_range_examples(Op::scatter); }

// ================================================================================================
// Validation rules (docs/semantics.md, "Scatter (ScatterElements)"). The default call: {2,3}, Axis 1, indices and updates {2,2}.

TEST(ScatterRules, AxisMustBeBelowD) { rules::expect_axis_below_d(Op::scatter); }
TEST(ScatterRules, IndicesMustMatchInputOffAxis) { rules::expect_elements_indices_match_input_off_axis(Op::scatter); }
TEST(ScatterRules, IndicesMayDifferAlongAxis) { rules::expect_elements_indices_may_differ_along_axis(Op::scatter); }

TEST(ScatterRules, UpdatesMustEqualIndices) {
  for (const Sizes& upd : {Sizes{2, 1}, Sizes{2, 3}, Sizes{1, 2}}) {
    Call c = make_call(Op::scatter);
    c.updates().sizes = upd;
    expect_error(c, {ErrorCode::shape_mismatch, "UpdatesTensor", "Sizes", -1, "{2, 2}",
                     "{" + std::to_string(upd[0]) + ", " + std::to_string(upd[1]) + "}"});
  }
}

TEST(ScatterRules, WrongOutputSizesAreRejected) { rules::expect_wrong_output_sizes_rejected(Op::scatter); }
TEST(ScatterRules, ReductionMustBeAnEnumerator) { rules::expect_reduction_must_be_an_enumerator(Op::scatter); }
TEST(ScatterRules, EveryIndexTypeEdgeValues) { rules::expect_index_edge_values(Op::scatter); }

TEST(ScatterRules, IndexIsCheckedAgainstTheOutputAxis) {
  // Idx[Axis] smaller than Out[Axis]: the range is Out[Axis]'s, not Idx[Axis]'s.
  Call c = make_call(Op::scatter);  // {2,3}, Axis 1
  c.indices().sizes = {2, 1};
  c.updates().sizes = {2, 1};
  c.indices().values = u64({2, 3});
  const dmlref::Error e = expect_error(c, {ErrorCode::index_out_of_range, "IndicesTensor", "value", -1, "0..2", "3"});
  EXPECT_EQ(str(e.position), str((Shape{1, 0})));
  EXPECT_EQ(std::string(e.target_tensor), "OutputTensor");
}

// The opt-in collision check (docs/semantics.md, "Rules shared by all operators", 7).
TEST(ScatterRules, NoCollisionPasses) { rules::expect_no_collision_passes(Op::scatter); }

TEST(ScatterRules, IndexErrorsComeBeforeCollisions) {
  // An invalid index is an index error even when the check is on and other updates collide.
  Call c = make_call(Op::scatter);
  c.options.check_collisions = true;
  c.indices().values = u64({1, 1, 0, 3});
  expect_error(c, {ErrorCode::index_out_of_range, "IndicesTensor", "value", -1, "0..2", "3"});
}

// ================================================================================================
// Types

DMLREF_TYPE_GRID_TESTS(ScatterTypes, Op::scatter);

TEST(ScatterLiteral, Float16Payloads) {
  const dmlref::float16 in[4] = {dmlref::float16::from_bits(0x7C01), dmlref::float16::from_bits(0x8000),
                                 dmlref::float16::from_bits(0x0001), dmlref::float16::from_bits(0xFE01)};
  const dmlref::float16 upd[2] = {dmlref::float16::from_bits(0x7E00), dmlref::float16::from_bits(0x83FF)};
  const std::uint32_t idx[2] = {3, 0};
  dmlref::float16 out[4];
  ASSERT_TRUE(dmlref::try_scatter(dmlref::TensorView<const dmlref::float16>(in, {4}),
                                  dmlref::TensorView<const std::uint32_t>(idx, {2}),
                                  dmlref::TensorView<const dmlref::float16>(upd, {2}),
                                  dmlref::TensorView<dmlref::float16>(out, {4}), dmlref::ScatterParams{0})
                  .ok());
  EXPECT_EQ(out[0].bits, 0x83FF);
  EXPECT_EQ(out[1].bits, 0x8000);
  EXPECT_EQ(out[2].bits, 0x0001);
  EXPECT_EQ(out[3].bits, 0x7E00);
}

}  // namespace
