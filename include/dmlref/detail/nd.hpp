#ifndef DMLREF_DETAIL_ND_HPP
#define DMLREF_DETAIL_ND_HPP

#include <algorithm>
#include <cstdint>

#include "../shape.hpp"
#include "../status.hpp"
#include "operator.hpp"
#include "plan.hpp"
#include "tensor.hpp"

// What GatherND, GatherND1 and ScatterND share: IndicesTensor is an array of index tuples (its
// last dimension is the tuple length K), each addressing K dimensions of the indexed tensor after
// B batch dimensions and selecting the block of the remaining ones. ScatterND's UpdatesTensor has
// the shape GatherND's output would have. docs/semantics.md, "GatherND and GatherND1", has the
// formula; item 1 of "Where dmlref follows the spec over the DirectML pages" says why the input
// part is InA[B+K, r), not the pages' last K sizes.

namespace dmlref::detail {

/// The ND shape rule: the sizes of GatherND1's output (ScatterND: of its UpdatesTensor), with
/// r = InputDimensionCount, q = IndicesDimensionCount, B = BatchDimensionCount, into `out` (empty).
/// Validates everything but index values; a call's sizes are checked already (check_size_values).
/// Not a Result: a call compares `out` where it was written (as Gather's gather_shape does).
inline Status nd_block_shape(const char* op, const Shape& input_sizes, const char* input_name,
                             const Shape& indices_sizes, std::uint32_t r_, std::uint32_t q_, std::uint32_t B_,
                             bool check_size_values, Shape& out) noexcept {
  const int D = input_sizes.rank();
  if (check_size_values) {
    if (Status s = check_sizes(op, input_name, input_sizes, D); !s) return s;
    if (Status s = check_sizes(op, "IndicesTensor", indices_sizes, D); !s) return s;
  }
  if (r_ < 1 || r_ > static_cast<std::uint32_t>(D))
    return attribute_error(op, "InputDimensionCount", 1, D, r_);
  if (q_ < 1 || q_ > static_cast<std::uint32_t>(D))
    return attribute_error(op, "IndicesDimensionCount", 1, D, q_);
  const int r = static_cast<int>(r_), q = static_cast<int>(q_);
  if (B_ >= static_cast<std::uint32_t>(std::min(r, q)))
    return attribute_error(op, "BatchDimensionCount", 0, std::min(r, q) - 1, B_,
                           "below InputDimensionCount and IndicesDimensionCount");
  const int B = static_cast<int>(B_);
  if (Status s = check_leading_ones(op, input_name, input_sizes, D - r,
                                    "sizes before the InputDimensionCount meaningful ones must be 1");
      !s)
    return s;
  if (Status s = check_leading_ones(op, "IndicesTensor", indices_sizes, D - q,
                                    "sizes before the IndicesDimensionCount meaningful ones must be 1");
      !s)
    return s;
  const std::int64_t K = indices_sizes[D - 1];
  if (K > r - B)
    return error_status(ErrorCode::shape_mismatch, op, "IndicesTensor", "Sizes", D - 1,
                             ErrorValue::range(1, r - B), ErrorValue::of(K),
                             "the tuple length K addresses at most InputDimensionCount - BatchDimensionCount dimensions");
  for (int j = 0; j < B; ++j)
    if (indices_sizes[D - q + j] != input_sizes[D - r + j])
      return error_status(ErrorCode::shape_mismatch, op, "IndicesTensor", "Sizes", D - q + j,
                               ErrorValue::of(input_sizes[D - r + j]),
                               ErrorValue::of(indices_sizes[D - q + j]),
                               "batch dimensions of IndicesTensor and InputTensor agree");
  const int M = (q - 1) + (r - B - static_cast<int>(K));
  if (M > D)
    return error_status(ErrorCode::shape_mismatch, op, "IndicesTensor", "Sizes", D - 1,
                             ErrorValue::at_least((q - 1) + (r - B) - D), ErrorValue::of(K),
                             "the output's meaningful rank (q - 1) + (r - B - K) must fit in DimensionCount");
  for (int j = 0; j < D - M; ++j) out.push_back(1);
  for (int j = 0; j < q - 1; ++j) out.push_back(indices_sizes[D - q + j]);
  for (int d = D - r + B + static_cast<int>(K); d < D; ++d) out.push_back(input_sizes[d]);
  return Status();
}

/// nd_block_shape for the public shape helpers, which check the sizes too.
inline Result<Shape> nd_block_sizes(const char* op, const Shape& input_sizes, const char* input_name,
                                    const Shape& indices_sizes, std::uint32_t r, std::uint32_t q,
                                    std::uint32_t B) noexcept {
  Shape out;
  if (Status s = nd_block_shape(op, input_sizes, input_name, indices_sizes, r, q, B, true, out); !s) return s;
  return out;
}

/// The ND plan: rows are the tuples (batch dimensions also step through the indexed tensor), the
/// tuple picks a position in K dimensions of the indexed tensor, the block is the rest.
inline Plan nd_plan(const char* op, Flow flow, const Operands& t, const RawTensor& dense,
                    const RawTensor& indexed, int r, int q, int B) noexcept {
  const RawTensor& indices = t.indices();
  const int D = indexed.sizes.rank();
  const int K = static_cast<int>(indices.sizes[D - 1]);
  const int M = (q - 1) + (r - B - K);
  Plan plan = start_plan(op, flow, t, dense, indexed, true);
  for (int j = 0; j < q - 1; ++j)
    plan.add_loop(indices.sizes[D - q + j], dense.strides[D - M + j], indices.strides[D - q + j],
                  j < B ? indexed.strides[D - r + j] : 0);
  for (int k = 0; k < K; ++k) {
    const int d = D - r + B + k;
    plan.add_tuple(indexed.sizes[d], indexed.strides[d], d);
  }
  plan.tuple_stride = indices.strides[D - 1];
  for (int m = 0; m < r - B - K; ++m)
    plan.add_block(indexed.sizes[D - r + B + K + m], dense.strides[D - M + q - 1 + m],
                   indexed.strides[D - r + B + K + m]);
  plan.coalesce();
  return plan;
}

}  // namespace dmlref::detail

#endif  // DMLREF_DETAIL_ND_HPP
