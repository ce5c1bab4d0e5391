#ifndef DMLREF_OPS_GATHER_ELEMENTS_HPP
#define DMLREF_OPS_GATHER_ELEMENTS_HPP

/// DML_OPERATOR_GATHER_ELEMENTS: every output element takes its own coordinate, except along
/// Axis, where the coordinate is the corresponding IndicesTensor value (ONNX GatherElements,
/// torch.gather, numpy.take_along_axis).
///
///   Idx[d] == In[d] for d != Axis;  Out == Idx
///   Output[o] = Input[o with o[Axis] := normalize(Indices[o], In[Axis])]
///
/// Padding dimensions (size 1) behave like any other. Negative indices of a signed type count
/// from the end of Axis. Out-of-range indices are an error unless Options::index_policy is clamp.

#include <cstdint>

#include "../detail/elements.hpp"
#include "../detail/minimum_level.hpp"
#include "../detail/operator.hpp"
#include "../feature_level.hpp"
#include "../options.hpp"
#include "../runtime/tensor_desc.hpp"
#include "../status.hpp"
#include "../tensor_view.hpp"

namespace dmlref {

/// The attribute of DML_GATHER_ELEMENTS_OPERATOR_DESC.
struct GatherElementsParams {
  std::uint32_t Axis = 0;
};

/// OutputTensor.Sizes (= IndicesTensor.Sizes) for these input and indices sizes, or why none.
inline Result<Shape> gather_elements_output_sizes(const Shape& input_sizes, const Shape& indices_sizes,
                                                  const GatherElementsParams& params) noexcept {
  if (Status s = detail::check_elements_shapes("GatherElements", input_sizes, "InputTensor",
                                               indices_sizes, params.Axis);
      !s)
    return s;
  return indices_sizes;
}

namespace detail {

struct GatherElementsOperator
    : OperatorConstants<OperatorType::GATHER_ELEMENTS, Flow::gather, GatherElementsParams> {
  static constexpr const char* name = "GatherElements";

  static Status check(const Operands& t, const GatherElementsParams& params) noexcept {
    if (Status s = check_elements_shapes(name, t.input().sizes, t.input().name, t.indices().sizes, params.Axis, false); !s)
      return s;
    return check_output_sizes(name, t, t.indices().sizes, "OutputTensor.Sizes == IndicesTensor.Sizes");
  }

  static Plan plan(const Operands& t, const GatherElementsParams& params) noexcept {
    return elements_plan(name, flow, t, t.output(), t.input(), params.Axis);
  }
};
template <>
struct OperatorFor<GatherElementsParams> { using type = GatherElementsOperator; };

}  // namespace detail

/// GatherElements over typed views. Returns the error instead of throwing; writes nothing on error.
template <class In, class Idx, class Out>
Status try_gather_elements(const TensorView<In>& input, const TensorView<Idx>& indices,
                           const TensorView<Out>& output, const GatherElementsParams& params,
                           const Options& options = {}) noexcept {
  return detail::run_typed<detail::GatherElementsOperator>(params, options, input, indices, output);
}

/// GatherElements over runtime descriptors (any data type × index type).
template <int OnlyWhenCalled = 0>
Status try_gather_elements(const TensorDesc& input, const TensorDesc& indices, const MutableTensorDesc& output,
                           const GatherElementsParams& params, const Options& options = {}) noexcept {
  return detail::run_described<detail::GatherElementsOperator>(params, options, input, indices, output);
}

// minimum_feature_level(...) with GatherElementsParams: detail/minimum_level.hpp, shared by every operator.

#if DMLREF_HAS_EXCEPTIONS
/// As try_gather_elements, throwing dmlref::Exception on error.
template <class Input, class Indices, class Output>
void gather_elements(const Input& input, const Indices& indices, const Output& output,
                     const GatherElementsParams& params, const Options& options = {}) {
  detail::throw_if_error(try_gather_elements(input, indices, output, params, options));
}
#endif

}  // namespace dmlref

#endif  // DMLREF_OPS_GATHER_ELEMENTS_HPP
