#ifndef DMLREF_OPS_SCATTER_ND_HPP
#define DMLREF_OPS_SCATTER_ND_HPP

/// DML_OPERATOR_SCATTER_ND: copies InputTensor to OutputTensor, then, for each index tuple,
/// overwrites the addressed block of the output with the matching block of UpdatesTensor.
/// The inverse of GatherND (ONNX ScatterND with reduction none).
///
///   r = InputDimensionCount, q = IndicesDimensionCount, K = Idx[D-1], M = (q-1) + (r-K)
///   Upd == (1 × (D-M)) ⧺ IdxA[0, q-1) ⧺ InA[K, r)   (GatherND's output shape);  Out == In
///   Output = Input;  Output[normalize(tuple(g)), t] = Updates[g, t]
///
/// InputDimensionCount and IndicesDimensionCount range over [1, D] (the page's half-open range
/// contradicts its own example; docs/semantics.md, "Where dmlref follows the spec over the DirectML
/// pages", item 3). Two updates to one element are invalid in DirectML;
/// dmlref applies tuples in row-major order, so the last wins, and Options::check_collisions
/// reports them instead. OutputTensor may be InputTensor itself (the copy is skipped).

#include <cstdint>

#include "../detail/nd.hpp"
#include "../detail/minimum_level.hpp"
#include "../detail/operator.hpp"
#include "../feature_level.hpp"
#include "../options.hpp"
#include "../reduction.hpp"
#include "../runtime/tensor_desc.hpp"
#include "../status.hpp"
#include "../tensor_view.hpp"

namespace dmlref {

/// The attributes of DML_SCATTER_ND_OPERATOR_DESC.
struct ScatterNDParams {
  std::uint32_t InputDimensionCount = 1;
  std::uint32_t IndicesDimensionCount = 1;
  /// Extension (ONNX): combine instead of replace. DirectML's operator is Reduction::none.
  dmlref::Reduction Reduction = dmlref::Reduction::none;
};

/// UpdatesTensor.Sizes that ScatterND requires for these input and indices sizes, or why none.
inline Result<Shape> scatter_nd_updates_sizes(const Shape& input_sizes, const Shape& indices_sizes,
                                              const ScatterNDParams& params) noexcept {
  return detail::nd_block_sizes("ScatterND", input_sizes, "InputTensor", indices_sizes,
                                params.InputDimensionCount, params.IndicesDimensionCount, 0);
}

namespace detail {

/// UpdatesTensor's sizes against the ND shape rule's; `check_size_values` as for nd_block_shape.
inline Status check_scatter_nd_updates(const Shape& input_sizes, const Shape& indices_sizes,
                                       const Shape& updates_sizes, const ScatterNDParams& params,
                                       bool check_size_values) noexcept {
  Shape expected;
  if (Status s = nd_block_shape("ScatterND", input_sizes, "InputTensor", indices_sizes, params.InputDimensionCount,
                                params.IndicesDimensionCount, 0, check_size_values, expected);
      !s)
    return s;
  return check_updates_sizes("ScatterND", updates_sizes, expected, input_sizes.rank(),
                             "the GatherND shape rule applied to UpdatesTensor");
}

}  // namespace detail

/// OutputTensor.Sizes (= InputTensor.Sizes) for these sizes, or why there are none.
inline Result<Shape> scatter_nd_output_sizes(const Shape& input_sizes, const Shape& indices_sizes,
                                             const Shape& updates_sizes,
                                             const ScatterNDParams& params) noexcept {
  if (Status s = detail::check_scatter_nd_updates(input_sizes, indices_sizes, updates_sizes, params, true); !s)
    return s;
  return input_sizes;
}

namespace detail {

struct ScatterNDOperator : OperatorConstants<OperatorType::SCATTER_ND, Flow::scatter, ScatterNDParams> {
  static constexpr const char* name = "ScatterND";

  static Status check(const Operands& t, const ScatterNDParams& params) noexcept {
    if (Status s = check_scatter_nd_updates(t.input().sizes, t.indices().sizes, t.updates().sizes, params, false); !s)
      return s;
    return check_output_sizes(name, t, t.input().sizes, "OutputTensor.Sizes == InputTensor.Sizes");
  }

  static Plan plan(const Operands& t, const ScatterNDParams& params) noexcept {
    return nd_plan(name, flow, t, t.updates(), t.output(), static_cast<int>(params.InputDimensionCount),
                   static_cast<int>(params.IndicesDimensionCount), 0);
  }
};
template <>
struct OperatorFor<ScatterNDParams> { using type = ScatterNDOperator; };

}  // namespace detail

/// ScatterND over typed views. Returns the error instead of throwing; writes nothing on error.
template <class In, class Idx, class Upd, class Out>
Status try_scatter_nd(const TensorView<In>& input, const TensorView<Idx>& indices, const TensorView<Upd>& updates,
                      const TensorView<Out>& output, const ScatterNDParams& params,
                      const Options& options = {}) noexcept {
  return detail::run_typed<detail::ScatterNDOperator>(params, options, input, indices, updates, output);
}

/// ScatterND over runtime descriptors (any data type × index type).
template <int OnlyWhenCalled = 0>
Status try_scatter_nd(const TensorDesc& input, const TensorDesc& indices, const TensorDesc& updates,
                      const MutableTensorDesc& output, const ScatterNDParams& params,
                      const Options& options = {}) noexcept {
  return detail::run_described<detail::ScatterNDOperator>(params, options, input, indices, updates, output);
}

// minimum_feature_level(...) with ScatterNDParams: detail/minimum_level.hpp, shared by every operator.

#if DMLREF_HAS_EXCEPTIONS
/// As try_scatter_nd, throwing dmlref::Exception on error.
template <class Input, class Indices, class Updates, class Output>
void scatter_nd(const Input& input, const Indices& indices, const Updates& updates,
                const Output& output, const ScatterNDParams& params, const Options& options = {}) {
  detail::throw_if_error(try_scatter_nd(input, indices, updates, output, params, options));
}
#endif

}  // namespace dmlref

#endif  // DMLREF_OPS_SCATTER_ND_HPP
