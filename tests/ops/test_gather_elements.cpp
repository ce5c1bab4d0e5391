// GatherElements (DML_GATHER_ELEMENTS_OPERATOR_DESC; docs/semantics.md): what the operator must do.
//   - the spec's worked examples and derived vectors, on both layers, and its shape helper;
//   - the clamp policy on each coordinate;
//   - its validation rules: Axis, IndicesTensor equal to InputTensor off Axis, the output sizes,
//     every index type's edge values, and where an index error is reported;
//   - its type grid: 11 data types x 4 index types x DimensionCount 1..8 x layouts.
// The rules every operator shares are in test_tensor_rules.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dmlref/dmlref.hpp"
#include "support/examples.hpp"
#include "support/rules.hpp"
#include "support/type_grid.hpp"

namespace {

using namespace rules;  // NOLINT: the harness's vocabulary: Call, make_call, expect_error, Op, ...

// ================================================================================================
// The spec's examples

DMLREF_SPEC_EXAMPLE_TESTS(GatherElementsExamples, Op::gather_elements);

// ================================================================================================
// Clamp policy

TEST(GatherElementsClampPolicy, ClampsEachCoordinate) {
  dmlref::Options clamp;
  clamp.index_policy = dmlref::IndexPolicy::clamp;
  guarded::Buffer in(6 * sizeof(float));
  in.fill(std::vector<float>{1, 2, 3, 4, 5, 6});  // {2,3}
  const Sizes in_sizes{2, 3};
  // Axis 1: [[99, -99], [-1, 2]] -> [[3, 1], [6, 6]]
  guarded::Buffer idx(4 * sizeof(std::int64_t)), out(4 * sizeof(float));
  idx.fill(std::vector<std::int64_t>{99, -99, -1, 2});
  const Sizes s{2, 2};
  const Status st = dmlref::try_gather_elements(in.desc(DataType::FLOAT32, in_sizes), idx.desc(DataType::INT64, s),
                                                out.mutable_desc(DataType::FLOAT32, s), {1}, clamp);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(guarded::values<float>(out), (std::vector<float>{3, 1, 6, 6}));
}

TEST(GatherElementsClampPolicy, InRangeIndicesAreUnaffected) {
  examples::check_clamp_leaves_in_range_examples(Op::gather_elements);
}

// ================================================================================================
// Validation rules (docs/semantics.md, "GatherElements"). The default call: {2,3}, Axis 1, indices {2,2} -> {2,2}.

TEST(GatherElementsRules, AxisMustBeBelowD) { rules::expect_axis_below_d(Op::gather_elements); }

TEST(GatherElementsRules, IndicesMustMatchInputOffAxis) {
  rules::expect_elements_indices_match_input_off_axis(Op::gather_elements);
}

TEST(GatherElementsRules, IndicesMayDifferAlongAxis) {
  rules::expect_elements_indices_may_differ_along_axis(Op::gather_elements);
}

TEST(GatherElementsRules, WrongOutputSizesAreRejected) { rules::expect_wrong_output_sizes_rejected(Op::gather_elements); }

TEST(GatherElementsRules, EveryIndexTypeEdgeValues) { rules::expect_index_edge_values(Op::gather_elements); }

/// The default call (indices {2,2}, n = 3) with `values` stored as `strides` says: the value `bad`
/// is out of range at logical position `at`.
void expect_bad_index_at(std::optional<Sizes> strides, std::vector<std::uint64_t> values, const std::string& bad,
                         const Shape& at) {
  Call c = make_call(Op::gather_elements);
  c.indices().strides = std::move(strides);
  c.indices().values = std::move(values);
  const dmlref::Error e = expect_error(c, {ErrorCode::index_out_of_range, "IndicesTensor", "value", -1, "0..2", bad});
  EXPECT_EQ(str(e.position), str(at));
}

TEST(GatherElementsRules, TheFirstBadIndexInRowMajorOrderIsReported) {
  expect_bad_index_at(std::nullopt, u64({0, 7, 9, 1}), "7", Shape{0, 1});
}

TEST(GatherElementsRules, PositionIsLogicalForStridedIndices) {
  // IndicesTensor {2,2} stored column-major and padded: the bad value's logical coordinate is [1,0].
  expect_bad_index_at(Sizes{1, 3}, u64({0, 1, 5, 2}), "5", Shape{1, 0});
}

TEST(GatherElementsRules, BroadcastIndicesAreCheckedOnce) {
  // Stride-0 indices: one stored value read everywhere; a bad one is reported at [0, 0].
  expect_bad_index_at(Sizes{0, 0}, u64({3}), "3", Shape{0, 0});
}

// ================================================================================================
// Types

DMLREF_TYPE_GRID_TESTS(GatherElementsTypes, Op::gather_elements);

TEST(GatherElementsLiteral, UInt64Extremes) {
  const std::uint64_t big[3] = {0, std::numeric_limits<std::uint64_t>::max(), 0x8000000000000000ull};
  const std::uint64_t where[1] = {2};
  std::uint64_t one[1] = {};
  ASSERT_TRUE(dmlref::try_gather_elements(dmlref::TensorView<const std::uint64_t>(big, {3}),
                                          dmlref::TensorView<const std::uint64_t>(where, {1}),
                                          dmlref::TensorView<std::uint64_t>(one, {1}), dmlref::GatherElementsParams{0})
                  .ok());
  EXPECT_EQ(one[0], 0x8000000000000000ull);
}

}  // namespace
