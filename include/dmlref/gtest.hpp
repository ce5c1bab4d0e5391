#ifndef DMLREF_GTEST_HPP
#define DMLREF_GTEST_HPP

/// Optional GoogleTest helpers for golden tests: compare a tensor with a dmlref result. Only this
/// header (through detail/golden_compare.hpp) includes <gtest/gtest.h>; the core headers never do.
///
///   EXPECT_TRUE(dmlref::testing::tensors_equal(actual, expected));          // bit-exact
///   EXPECT_TRUE(dmlref::testing::tensors_near(actual, expected, dmlref::testing::ulps(2)));
///   DMLREF_EXPECT_TENSOR_EQ(actual, expected);                               // names the expressions
///   DMLREF_EXPECT_TENSOR_NEAR(actual, expected, dmlref::testing::absolute(1e-3));
///   DMLREF_ASSERT_TENSOR_EQ(...), DMLREF_ASSERT_TENSOR_NEAR(...)             // fatal forms
///
/// Either side is a TensorView<T> (any of the eleven element types, const or not, any strides) or
/// a TensorDesc / MutableTensorDesc (any data type, known at run time); the two sides may mix.
///
/// Comparison modes:
/// - bit_exact() (the default): every element's bits must be equal, so -0.0 differs from 0.0 and
///   NaNs with different payloads differ. This is what a gather or scatter must reproduce.
/// - ulps(n): floats within n units in the last place of their own type (float16 in half
///   precision); -0.0 equals 0.0, any NaN equals any NaN, a NaN never equals a number.
/// - absolute(x): |actual − expected| ≤ x, computed in double; NaN as for ulps.
///   In both tolerance modes integers compare by their exact difference (one ULP of an integer is 1).
///
/// On success the result says how many elements were compared. On failure the message gives the
/// number and percentage of mismatching elements, the first 10 mismatches with their coordinates,
/// both values and both raw bit patterns in hex (`-0 (0x8000)`, `nan (0x7e01)`), the data type and
/// shape (and the strides of any side that is not packed), and in the tolerance modes the largest
/// absolute and ULP differences with their coordinates. Its length is bounded, however large the
/// tensors. A data type or shape that differs is reported as such, without comparing elements.
///
/// Every tensor is checked as an operator would check it before any element is read: DimensionCount
/// 1..8, sizes ≥ 1, strides ≥ 0, no overflow, Data not null, and for a descriptor, that its sizes and
/// strides stay within TotalTensorSizeInBytes. A TensorView is trusted to address valid memory.
///
/// Golden comparisons run the operator themselves and explain where the mismatching elements should
/// have come from (explain.hpp), one line each under the report above:
///
///   DMLREF_EXPECT_GOLDEN(actual, dmlref::testing::gather(input, indices, params));
///   DMLREF_EXPECT_GOLDEN(actual, dmlref::testing::scatter(input, indices, updates, params).explaining(5));
///   EXPECT_TRUE(dmlref::testing::matches_golden(actual, dmlref::testing::gather_nd(input, indices, params)));
///
///     output[3,1]: expected 1.5 (0x3e00), got 0 (0x0000); expected = input[2,1], from indices[3] = -2 → 2 (Axis 0)
///
/// gather, gather_elements, gather_nd, gather_nd1, scatter and scatter_nd take the operator's
/// arguments but the output (views or descriptors, and Options last); the first 3 mismatches are
/// explained unless `.explaining(n)` (0 to 10) says otherwise, and `.within(tolerance)` relaxes the
/// bit-exact comparison. A call the operator rejects fails the comparison with the operator's error.

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "data_type.hpp"
#include "detail/golden_compare.hpp"
#include "detail/golden_operands.hpp"
#include "detail/tensor.hpp"
#include "dmlref.hpp"
#include "explain.hpp"
#include "runtime/tensor_desc.hpp"
#include "shape.hpp"
#include "status.hpp"
#include "tensor_view.hpp"

namespace dmlref {
namespace testing {

/// Bit-exact comparison: usable as EXPECT_TRUE(tensors_equal(actual, expected)).
inline ::testing::AssertionResult tensors_equal(const TensorRef& actual, const TensorRef& expected) {
  return internal::compare("actual", "expected", actual, expected, bit_exact());
}

/// Comparison under a tolerance: bit_exact(), ulps(n) or absolute(x).
inline ::testing::AssertionResult tensors_near(const TensorRef& actual, const TensorRef& expected,
                                               const Tolerance& tolerance) {
  return internal::compare("actual", "expected", actual, expected, tolerance);
}

/// Predicate-formatters for EXPECT_PRED_FORMAT2/3: the message names the expressions.
inline ::testing::AssertionResult tensors_equal_format(const char* actual_expression,
                                                       const char* expected_expression,
                                                       const TensorRef& actual, const TensorRef& expected) {
  return internal::compare(actual_expression, expected_expression, actual, expected, bit_exact());
}
inline ::testing::AssertionResult tensors_near_format(const char* actual_expression,
                                                      const char* expected_expression,
                                                      const char* /*tolerance_expression*/,
                                                      const TensorRef& actual, const TensorRef& expected,
                                                      const Tolerance& tolerance) {
  return internal::compare(actual_expression, expected_expression, actual, expected, tolerance);
}


// ------------------------------------------------------------------------------------------------
// Golden comparisons: the operator computes the expected tensor, and mismatches are explained.

/// One dmlref operator call whose result is the golden tensor, made by gather(...),
/// gather_elements(...), gather_nd(...), gather_nd1(...), scatter(...) or scatter_nd(...) below
/// with the operator's own arguments but the output. explaining(n) and within(t) adjust it.
class GoldenCall {
 public:
  template <class Input, class Run, class Explain>
  GoldenCall(const char* op, const Input& input, const Result<Shape>& sizes, Run run, Explain explain)
      : op_(op), type_(internal::data_type_of(input)), rank_(internal::sizes_of(input).rank()),
        sizes_status_(sizes.status()), sizes_(sizes.value()), run_(std::move(run)), explain_(std::move(explain)) {}

  /// Explain the first n mismatching elements (0 to 10; default 3), one line each.
  GoldenCall explaining(int n) const {
    GoldenCall c = *this;
    c.explained_ = n < 0 ? 0 : (n > max_listed_mismatches ? max_listed_mismatches : n);
    return c;
  }
  /// Compare under a tolerance instead of bit for bit (a reduction's arithmetic on other hardware).
  GoldenCall within(const Tolerance& tolerance) const {
    GoldenCall c = *this;
    c.tolerance_ = tolerance;
    return c;
  }

  const char* op() const noexcept { return op_; }
  int explained() const noexcept { return explained_; }
  const Tolerance& tolerance() const noexcept { return tolerance_; }

  /// Runs the call into a packed buffer of the output's sizes (8-byte aligned), or says why not:
  /// when the shape helper fails, the operator's own error for these inputs.
  Status compute(std::vector<std::uint64_t>& storage, Shape& sizes) const {
    if (!sizes_status_) {
      storage.assign(1, 0);
      const Status s = run_(reinterpret_cast<unsigned char*>(storage.data()), Shape::filled(rank_ < 1 ? 1 : rank_, 1));
      return s ? sizes_status_ : s;
    }
    std::int64_t count = 1;
    for (std::int64_t v : sizes_)
      if (!::dmlref::detail::mul_ok(count, v, count) || count > (std::int64_t{1} << 34))
        return ::dmlref::detail::error_status(ErrorCode::overflow, op_, "OutputTensor", "Sizes", -1,
                                              ErrorValue::of_text("at most 2^34 elements for a golden test"),
                                              ErrorValue::of(sizes_));
    storage.assign(static_cast<std::size_t>((count * static_cast<std::int64_t>(element_size(type_)) + 7) / 8), 0);
    sizes = sizes_;
    return run_(reinterpret_cast<unsigned char*>(storage.data()), sizes);
  }
  /// The provenance of element `at` of the output computed into `data`.
  Result<Provenance> explain(unsigned char* data, const Shape& sizes, const Shape& at) const {
    return explain_(data, sizes, at);
  }
  DataType type() const noexcept { return type_; }

 private:
  const char* op_;
  DataType type_;
  int rank_;
  Status sizes_status_;
  Shape sizes_;
  std::function<Status(unsigned char*, const Shape&)> run_;
  std::function<Result<Provenance>(unsigned char*, const Shape&, const Shape&)> explain_;
  Tolerance tolerance_ = bit_exact();
  int explained_ = 3;
};

namespace internal {

/// "output[3,1]: expected 1.5 (0x3e00), got 0 (0x0000); expected = input[2,1], from ...".
inline std::string explained_line(const GoldenCall& golden, unsigned char* data, const Shape& sizes,
                                  const Mismatch& m) {
  const Element expected{golden.type(), m.expected}, actual{golden.type(), m.actual};
  std::string line = "output" + ::dmlref::detail::coordinate_text(m.coordinate) + ": expected " +
                     to_string(expected) + ", got " + to_string(actual) + "; expected = ";
  const Result<Provenance> p = golden.explain(data, sizes, m.coordinate);
  if (!p) return line + "? (" + p.status().message() + ")";
  line += source_text(*p);
  if (p->value.bits != m.expected) line += " [the explanation gives " + to_string(p->value) + ": a dmlref bug]";
  return line;
}

}  // namespace internal

/// The golden comparison: runs the call, compares `actual` with its result as tensors_near does,
/// and explains the first mismatches (GoldenCall::explaining) under today's report. A call that
/// fails is a failure that prints the call's error.
inline ::testing::AssertionResult golden_format(const char* actual_expression, const char* /*golden_expression*/,
                                                const TensorRef& actual, const GoldenCall& golden) {
  std::vector<std::uint64_t> storage;
  Shape sizes;
  const Status computed = golden.compute(storage, sizes);
  if (!computed)
    return ::testing::AssertionFailure() << "dmlref's " << golden.op() << " fails, so " << actual_expression
                                         << " was not compared: " << computed.message();
  auto* data = reinterpret_cast<unsigned char*>(storage.data());
  const MutableTensorDesc out = internal::output_like(TensorDesc{golden.type(), 0, nullptr, nullptr, 0, nullptr},
                                                      data, sizes);
  const std::string expected_name = std::string("dmlref's ") + golden.op();
  internal::Tally tally;
  ::testing::AssertionResult result =
      internal::compare(actual_expression, expected_name.c_str(), actual, out, golden.tolerance(), &tally);
  if (result || tally.listed == 0 || golden.explained() == 0) return result;
  const int n = golden.explained() < tally.listed ? golden.explained() : tally.listed;
  std::string text = "\n  explained" + (tally.mismatches > n ? " (the first " + std::to_string(n) + ")" : std::string()) +
                     ":";
  for (int i = 0; i < n; ++i) text += "\n    " + internal::explained_line(golden, data, sizes, tally.list[i]);
  return result << text;
}

/// EXPECT_TRUE(matches_golden(actual, gather(input, indices, params))).
inline ::testing::AssertionResult matches_golden(const TensorRef& actual, const GoldenCall& golden) {
  return golden_format("actual", "golden", actual, golden);
}

/// Gather on these inputs (views or descriptors), as the golden.
template <class Input, class Indices>
GoldenCall gather(const Input& input, const Indices& indices, const GatherParams& params, const Options& options = {}) {
  return GoldenCall(
      "Gather", input, gather_output_sizes(internal::sizes_of(input), internal::sizes_of(indices), params),
      [=](unsigned char* d, const Shape& s) {
        return try_gather(input, indices, internal::output_like(input, d, s), params, options);
      },
      [=](unsigned char* d, const Shape& s, const Shape& at) {
        return explain_gather(input, indices, internal::output_like(input, d, s), params, at, options);
      });
}

/// GatherElements, as the golden.
template <class Input, class Indices>
GoldenCall gather_elements(const Input& input, const Indices& indices, const GatherElementsParams& params,
                           const Options& options = {}) {
  return GoldenCall(
      "GatherElements", input,
      gather_elements_output_sizes(internal::sizes_of(input), internal::sizes_of(indices), params),
      [=](unsigned char* d, const Shape& s) {
        return try_gather_elements(input, indices, internal::output_like(input, d, s), params, options);
      },
      [=](unsigned char* d, const Shape& s, const Shape& at) {
        return explain_gather_elements(input, indices, internal::output_like(input, d, s), params, at, options);
      });
}

/// GatherND, as the golden.
template <class Input, class Indices>
GoldenCall gather_nd(const Input& input, const Indices& indices, const GatherNDParams& params,
                     const Options& options = {}) {
  return GoldenCall(
      "GatherND", input, gather_nd_output_sizes(internal::sizes_of(input), internal::sizes_of(indices), params),
      [=](unsigned char* d, const Shape& s) {
        return try_gather_nd(input, indices, internal::output_like(input, d, s), params, options);
      },
      [=](unsigned char* d, const Shape& s, const Shape& at) {
        return explain_gather_nd(input, indices, internal::output_like(input, d, s), params, at, options);
      });
}

/// GatherND1, as the golden.
template <class Input, class Indices>
GoldenCall gather_nd1(const Input& input, const Indices& indices, const GatherND1Params& params,
                      const Options& options = {}) {
  return GoldenCall(
      "GatherND1", input, gather_nd1_output_sizes(internal::sizes_of(input), internal::sizes_of(indices), params),
      [=](unsigned char* d, const Shape& s) {
        return try_gather_nd1(input, indices, internal::output_like(input, d, s), params, options);
      },
      [=](unsigned char* d, const Shape& s, const Shape& at) {
        return explain_gather_nd1(input, indices, internal::output_like(input, d, s), params, at, options);
      });
}

/// Scatter (ScatterElements), as the golden.
template <class Input, class Indices, class Updates>
GoldenCall scatter(const Input& input, const Indices& indices, const Updates& updates, const ScatterParams& params,
                   const Options& options = {}) {
  return GoldenCall(
      "Scatter", input,
      scatter_output_sizes(internal::sizes_of(input), internal::sizes_of(indices), internal::sizes_of(updates),
                           params),
      [=](unsigned char* d, const Shape& s) {
        return try_scatter(input, indices, updates, internal::output_like(input, d, s), params, options);
      },
      [=](unsigned char* d, const Shape& s, const Shape& at) {
        return explain_scatter(input, indices, updates, internal::output_like(input, d, s), params, at, options);
      });
}

/// ScatterND, as the golden.
template <class Input, class Indices, class Updates>
GoldenCall scatter_nd(const Input& input, const Indices& indices, const Updates& updates,
                      const ScatterNDParams& params, const Options& options = {}) {
  return GoldenCall(
      "ScatterND", input,
      scatter_nd_output_sizes(internal::sizes_of(input), internal::sizes_of(indices), internal::sizes_of(updates),
                              params),
      [=](unsigned char* d, const Shape& s) {
        return try_scatter_nd(input, indices, updates, internal::output_like(input, d, s), params, options);
      },
      [=](unsigned char* d, const Shape& s, const Shape& at) {
        return explain_scatter_nd(input, indices, updates, internal::output_like(input, d, s), params, at, options);
      });
}

}  // namespace testing
}  // namespace dmlref

/// Non-fatal: the test goes on after a mismatch.
#define DMLREF_EXPECT_TENSOR_EQ(actual, expected) \
  EXPECT_PRED_FORMAT2(::dmlref::testing::tensors_equal_format, actual, expected)
#define DMLREF_EXPECT_TENSOR_NEAR(actual, expected, tolerance) \
  EXPECT_PRED_FORMAT3(::dmlref::testing::tensors_near_format, actual, expected, tolerance)
/// Fatal: the test function returns after a mismatch.
#define DMLREF_ASSERT_TENSOR_EQ(actual, expected) \
  ASSERT_PRED_FORMAT2(::dmlref::testing::tensors_equal_format, actual, expected)
#define DMLREF_ASSERT_TENSOR_NEAR(actual, expected, tolerance) \
  ASSERT_PRED_FORMAT3(::dmlref::testing::tensors_near_format, actual, expected, tolerance)
/// Golden comparisons: `actual` against the result of a GoldenCall, mismatches explained.
///   DMLREF_EXPECT_GOLDEN(out, dmlref::testing::gather(input, indices, params));
#define DMLREF_EXPECT_GOLDEN(actual, golden_call) \
  EXPECT_PRED_FORMAT2(::dmlref::testing::golden_format, actual, golden_call)
#define DMLREF_ASSERT_GOLDEN(actual, golden_call) \
  ASSERT_PRED_FORMAT2(::dmlref::testing::golden_format, actual, golden_call)

#endif  // DMLREF_GTEST_HPP
