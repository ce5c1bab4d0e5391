#ifndef DMLREF_OPS_SCATTER_HPP
#define DMLREF_OPS_SCATTER_HPP

/// DML_OPERATOR_SCATTER (= DML_OPERATOR_SCATTER_ELEMENTS): copies InputTensor to OutputTensor,
/// then writes every update to its own coordinate with the Axis coordinate taken from
/// IndicesTensor. The inverse of GatherElements (ONNX ScatterElements with reduction none).
///
///   Idx[d] == In[d] for d != Axis;  Upd == Idx;  Out == In
///   Output = Input;  Output[u with u[Axis] := normalize(Indices[u], Out[Axis])] = Updates[u]
///
/// Two updates to one element are invalid in DirectML, with no guaranteed winner. dmlref applies
/// updates in row-major order, so the last one wins (as the DirectML page's own example prints);
/// Options::check_collisions reports them instead. OutputTensor may be InputTensor itself (same
/// data and strides): the copy is skipped. Any other overlap with an input is an error.

#include <cstdint>

#include "../detail/elements.hpp"
#include "../detail/minimum_level.hpp"
#include "../detail/operator.hpp"
#include "../feature_level.hpp"
#include "../options.hpp"
#include "../reduction.hpp"
#include "../runtime/tensor_desc.hpp"
#include "../status.hpp"
#include "../tensor_view.hpp"

namespace dmlref {

/// The attribute of DML_SCATTER_OPERATOR_DESC.
struct ScatterParams {
  std::uint32_t Axis = 0;
  /// Extension (ONNX): combine instead of replace. DirectML's operator is Reduction::none.
  dmlref::Reduction Reduction = dmlref::Reduction::none;
};
using ScatterElementsParams = ScatterParams;

/// OutputTensor.Sizes (= InputTensor.Sizes) for these sizes, or why there are none.
inline Result<Shape> scatter_output_sizes(const Shape& input_sizes, const Shape& indices_sizes,
                                          const Shape& updates_sizes, const ScatterParams& params) noexcept {
  constexpr const char* op = "Scatter";
  if (Status s = detail::check_elements_shapes(op, input_sizes, "InputTensor", indices_sizes, params.Axis); !s)
    return s;
  if (Status s = detail::check_updates_sizes(op, updates_sizes, indices_sizes, input_sizes.rank(),
                                             "UpdatesTensor.Sizes == IndicesTensor.Sizes");
      !s)
    return s;
  return input_sizes;
}

namespace detail {

struct ScatterOperator : OperatorConstants<OperatorType::SCATTER, Flow::scatter, ScatterParams> {
  static constexpr const char* name = "Scatter";

  static Status check(const Operands& t, const ScatterParams& params) noexcept {
    return check_output_sizes(name, t, scatter_output_sizes(t.input().sizes, t.indices().sizes, t.updates().sizes, params),
                              "OutputTensor.Sizes == InputTensor.Sizes");
  }

  static Plan plan(const Operands& t, const ScatterParams& params) noexcept {
    return elements_plan(name, flow, t, t.updates(), t.output(), params.Axis);
  }
};
template <>
struct OperatorFor<ScatterParams> { using type = ScatterOperator; };

}  // namespace detail

/// Scatter over typed views. Returns the error instead of throwing; writes nothing on error.
template <class In, class Idx, class Upd, class Out>
Status try_scatter(const TensorView<In>& input, const TensorView<Idx>& indices, const TensorView<Upd>& updates,
                   const TensorView<Out>& output, const ScatterParams& params, const Options& options = {}) noexcept {
  return detail::run_typed<detail::ScatterOperator>(params, options, input, indices, updates, output);
}

/// Scatter over runtime descriptors (any data type × index type).
template <int OnlyWhenCalled = 0>
Status try_scatter(const TensorDesc& input, const TensorDesc& indices, const TensorDesc& updates,
                   const MutableTensorDesc& output, const ScatterParams& params, const Options& options = {}) noexcept {
  return detail::run_described<detail::ScatterOperator>(params, options, input, indices, updates, output);
}

/// DirectML's newer name for the same operator (DML_OPERATOR_SCATTER_ELEMENTS).
template <class In, class Idx, class Upd, class Out>
Status try_scatter_elements(const TensorView<In>& input, const TensorView<Idx>& indices,
                            const TensorView<Upd>& updates, const TensorView<Out>& output,
                            const ScatterParams& params, const Options& options = {}) noexcept {
  return try_scatter(input, indices, updates, output, params, options);
}
template <int OnlyWhenCalled = 0>
Status try_scatter_elements(const TensorDesc& input, const TensorDesc& indices, const TensorDesc& updates,
                            const MutableTensorDesc& output, const ScatterParams& params,
                            const Options& options = {}) noexcept {
  return try_scatter(input, indices, updates, output, params, options);
}

// minimum_feature_level(...) with ScatterParams: detail/minimum_level.hpp, shared by every operator.

#if DMLREF_HAS_EXCEPTIONS
/// As try_scatter, throwing dmlref::Exception on error.
template <class Input, class Indices, class Updates, class Output>
void scatter(const Input& input, const Indices& indices, const Updates& updates, const Output& output,
             const ScatterParams& params, const Options& options = {}) {
  detail::throw_if_error(try_scatter(input, indices, updates, output, params, options));
}

/// DirectML's newer name for the same operator.
template <class Input, class Indices, class Updates, class Output>
void scatter_elements(const Input& input, const Indices& indices, const Updates& updates,
                      const Output& output, const ScatterParams& params, const Options& options = {}) {
  scatter(input, indices, updates, output, params, options);
}
#endif

}  // namespace dmlref

#endif  // DMLREF_OPS_SCATTER_HPP
