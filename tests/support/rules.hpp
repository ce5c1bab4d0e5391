// The harness of the validation-rule tests (ops/test_<op>.cpp, ops/test_tensor_rules.cpp): a small
// valid call of each operator, changed in one place per test, run on guarded buffers through both
// layers (support/runner.hpp). A failing call must report the ErrorCode, the tensor and field
// named (field_index where meaningful), expected and actual where meaningful, the same Error on
// both layers, and write no byte of any buffer. A call that must pass leaves every buffer byte
// (padding included) exactly as the oracle does.
//
//   rules::Call c = rules::make_call(Op::gather);   // valid; FLOAT32 data, UINT32 indices
//   c.attr[0] = 3;                                   // Axis = D
//   rules::expect_error(c, {ErrorCode::invalid_attribute, "", "Axis", -1, "0..2", "3"});
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dmlref/data_type.hpp"
#include "dmlref/options.hpp"
#include "dmlref/shape.hpp"
#include "dmlref/status.hpp"
#include "support/guarded.hpp"
#include "support/op.hpp"
#include "support/runner.hpp"

namespace rules {

using dmlref::DataType;
using dmlref::ErrorCode;
using dmlref::Shape;
using dmlref::Status;
using harness::is_scatter;
using harness::kIndices;
using harness::kInput;
using harness::kOutput;
using harness::kUpdates;
using harness::Op;
using harness::role_name;
using Sizes = std::vector<std::int64_t>;

inline constexpr std::int64_t kTwoTo32 = std::int64_t{1} << 32;

/// The 11 data types; the 4 index types; the 7 data types that are not index types.
const std::vector<DataType>& data_types();
const std::vector<DataType>& index_types();
const std::vector<DataType>& non_index_types();

/// One tensor of a call, configurable down to its descriptor fields.
struct TensorConfig {
  DataType type = DataType::FLOAT32;
  Sizes sizes;
  std::optional<Sizes> strides;                  ///< absent: packed (Strides = nullptr)
  std::optional<std::uint32_t> dimension_count;  ///< descriptor only: differs from sizes.size()
  bool null_sizes = false;                       ///< descriptor only
  std::optional<std::uint64_t> total_bytes;      ///< descriptor only; default: the exact extent
  bool null_data = false;
  int alias_of = -1;                  ///< data inside that role's buffer ...
  std::size_t alias_offset = 0;       ///< ... this many bytes in
  std::vector<std::uint64_t> values;  ///< indices: bit patterns, in row-major order of `sizes`
};

struct Call {
  Op op = Op::gather;
  TensorConfig t[harness::kRoles];
  std::uint32_t attr[3] = {0, 0, 0};  ///< as harness::Call::attr
  dmlref::Options options;
  dmlref::Reduction reduction = dmlref::Reduction::none;  ///< scatters

  TensorConfig& input() { return t[kInput]; }
  TensorConfig& indices() { return t[kIndices]; }
  TensorConfig& updates() { return t[kUpdates]; }
  TensorConfig& output() { return t[kOutput]; }
  std::vector<int> roles() const;
};

/// Index bit patterns from signed values.
std::vector<std::uint64_t> u64(std::initializer_list<std::int64_t> v);

/// A valid call of each operator (FLOAT32 data, UINT32 indices), with leading size-1 dimensions
/// where the operator has "irrelevant leading" ones, so every rule has something to break:
///   Gather          Axis 1, IndexDimensions 1: {2,3,4} x {1,1,2} = {2,0} -> {2,2,4}
///   GatherElements  Axis 1: {2,3} x {2,2} = {0,2,1,1} -> {2,2}
///   GatherND        r 2, q 2, K 1: {1,2,3} x {1,2,1} = {1,0} -> {1,2,3}
///   GatherND1       r 3, q 3, B 1, K 1: {1,2,2,3} x {1,2,1,1} = {1,0} -> {1,2,1,3}
///   Scatter         Axis 1: {2,3}, indices {2,2} = {0,2,1,0}, updates {2,2}
///   ScatterND       r 2, q 2, K 1: {1,3,2}, indices {1,2,1} = {2,0}, updates {1,2,2}
Call make_call(Op op);

/// Where every index of the default call points (for the ND operators: tuple coordinate 0).
struct IndexTarget {
  const char* tensor;
  int dimension;
  std::int64_t size;
};
IndexTarget index_target(Op op);

/// Row-major strides (harness::packed_strides).
Sizes packed(const Sizes& sizes);
/// Bytes from the first to the last addressed element; 0 when the layout is invalid or too large
/// to allocate (then the call must fail without touching memory, or only read a broadcast).
std::size_t extent_bytes(const TensorConfig& c);

/// A call's guarded buffers: one per role (aliased roles live in another's).
struct Bound {
  std::unique_ptr<guarded::Buffer> buffer[harness::kRoles];
  unsigned char* data[harness::kRoles] = {nullptr, nullptr, nullptr, nullptr};

  /// Every buffer's guards intact and payload as filled.
  ::testing::AssertionResult untouched() const;
};

/// Allocates the buffers, fills inputs and updates with distinct values, indices with their
/// values, and leaves the output at the sentinel.
Bound bind(const Call& c);
/// The call over these buffers, for the runner (the Call and the Bound must outlive it).
harness::Call to_harness(const Call& c, const Bound& b);

Status run_dispatch(const Call& c, Bound& b);
/// The typed layer can express the call: no descriptor-only features, one data type.
bool typed_expressible(const Call& c);
Status run_typed_any(const Call& c, Bound& b);

/// The error a call must report; std::nullopt = not checked.
struct Want {
  ErrorCode code;
  std::string tensor;
  std::string field;
  std::optional<int> field_index = std::nullopt;
  std::optional<std::string> expected = std::nullopt;
  std::optional<std::string> actual = std::nullopt;
};

std::string describe(const dmlref::Error& e);
/// Shapes in assertion messages: "{2, 3}" instead of gtest's byte dump.
std::string str(const Shape& s);
Shape to_shape(const Sizes& s);
std::string trace(Op op, int role = -1);
bool contains(const std::string& text, const std::string& part);
Sizes unravel(std::size_t flat, const Sizes& sizes);

::testing::AssertionResult same_error(const dmlref::Error& a, const dmlref::Error& b);
void check_want(const Status& s, const Want& w, const std::string& op);

/// Runs the call on the dispatch layer (and the typed layer when it can express it): both must
/// report `w`, the same Error, and leave every buffer untouched. Returns the dispatch layer's Error.
dmlref::Error expect_error(const Call& c, const Want& w);
/// Dispatch layer only (for rules a TensorView cannot express).
dmlref::Error expect_dispatch_error(const Call& c, const Want& w);
/// The call succeeds on every layer that can express it, and leaves every buffer byte exactly as
/// the naive oracle does (outputs' padding included).
void expect_ok(const Call& c);
/// The dispatch layer's message for the call.
std::string message_of(const Call& c);

/// Calls f(make_call(op), role) for every tensor (role) of every operator's default call, traced.
template <class F>
void for_each_tensor(F&& f) {
  for (Op op : harness::all_ops)
    for (int role : make_call(op).roles()) {
      SCOPED_TRACE(trace(op, role));
      f(make_call(op), role);
    }
}

/// Calls f(make_call(op), role, d) for every dimension d of every tensor of every operator.
template <class F>
void for_each_dimension(F&& f) {
  for_each_tensor([&](const Call& base, int role) {
    for (std::size_t d = 0; d < base.t[role].sizes.size(); ++d) {
      SCOPED_TRACE("Sizes[" + std::to_string(d) + "]");
      f(base, role, d);
    }
  });
}

// ---- rules that several operators share, one operator at a time ----

/// Axis D, D + 1 and UINT_MAX are invalid_attribute (Gather, GatherElements, Scatter).
void expect_axis_below_d(Op op);
/// InputDimensionCount and IndicesDimensionCount 0, D + 1, UINT_MAX (the ND operators).
void expect_nd_dimension_counts_one_to_d(Op op);
/// InputTensor.Sizes[0] and IndicesTensor.Sizes[0] of the ND operators' leading ones must be 1.
void expect_nd_input_leading_ones(Op op);
void expect_nd_indices_leading_ones(Op op);
/// GatherElements and Scatter: IndicesTensor equals InputTensor off Axis, and may differ along it.
void expect_elements_indices_match_input_off_axis(Op op);
void expect_elements_indices_may_differ_along_axis(Op op);
/// The ND operators: K = 0 is a size error; K above r - B is a shape error naming `range`.
void expect_tuple_length_zero_is_a_size_error(Op op);
void expect_tuple_length_above_r_minus_b_rejected(Op op, std::int64_t K, const std::string& range);
/// GatherND, ScatterND: D 3, r 3, q 3, K 1 makes M = 4 > D.
void expect_meaningful_output_rank_above_d_rejected(Op op);
/// OutputTensor.Sizes off by one, and transposed: shape_mismatch naming both.
void expect_wrong_output_sizes_rejected(Op op);
/// A scatter's Reduction must be an enumerator; checked after the shape rule, before overlaps.
void expect_reduction_must_be_an_enumerator(Op op);
/// Every index type's edge values (0, n-1, n, -n-1, the type's extremes) in the last index.
void expect_index_edge_values(Op op);
/// The collision check on a call without collisions changes nothing.
void expect_no_collision_passes(Op op);

}  // namespace rules
