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

#include "../detail/plan.hpp"
#include "../detail/tensor.hpp"
#include "../detail/typed.hpp"
#include "../options.hpp"
#include "../runtime/tensor_desc.hpp"
#include "../status.hpp"
#include "../tensor_view.hpp"

namespace dmlref {

/// The attribute of DML_GATHER_ELEMENTS_OPERATOR_DESC.
struct GatherElementsParams {
  std::uint32_t Axis = 0;
};

namespace detail {

/// The shape rule GatherElements and Scatter share: indices match data except along Axis.
/// The shape helpers check sizes first; operators have done so in check_layout.
inline Status check_elements_shapes(const char* op, const Shape& data_sizes, const char* data_name,
                                    const Shape& indices_sizes, std::uint32_t axis,
                                    bool check_size_values = true) noexcept {
  const int D = data_sizes.rank();
  if (check_size_values) {
    if (Status s = check_sizes(op, data_name, data_sizes, D); !s) return s;
    if (Status s = check_sizes(op, "IndicesTensor", indices_sizes, D); !s) return s;
  }
  if (axis >= static_cast<std::uint32_t>(D)) return attribute_error(op, "Axis", 0, D - 1, axis);
  for (int d = 0; d < D; ++d)
    if (d != static_cast<int>(axis) && indices_sizes[d] != data_sizes[d])
      return Status(make_error(ErrorCode::shape_mismatch, op, "IndicesTensor", "Sizes", d,
                               ErrorValue::of(data_sizes[d]), ErrorValue::of(indices_sizes[d]),
                               "IndicesTensor's sizes equal InputTensor's except along Axis"));
  return Status();
}

}  // namespace detail

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

inline Status gather_elements(const RawTensor& input, const RawTensor& indices,
                              const RawTensor& output, const GatherElementsParams& params,
                              const Options& options) noexcept {
  constexpr const char* op = "GatherElements";
  const int D = input.sizes.rank();
  if (Status s = check_layout(op, input, D, false); !s) return s;
  if (Status s = check_layout(op, indices, D, false); !s) return s;
  if (Status s = check_layout(op, output, D, true); !s) return s;
  if (Status s = check_data_type(op, input, input); !s) return s;
  if (Status s = check_index_type(op, indices); !s) return s;
  if (Status s = check_data_type(op, output, input); !s) return s;
  if (Status s = check_elements_shapes(op, input.sizes, input.name, indices.sizes, params.Axis, false); !s)
    return s;
  if (output.sizes != indices.sizes)
    return shape_error(op, output.name, indices.sizes, output.sizes, "OutputTensor.Sizes == IndicesTensor.Sizes");
  if (Status s = check_no_overlap(op, output, input); !s) return s;
  if (Status s = check_no_overlap(op, output, indices); !s) return s;

  const int axis = static_cast<int>(params.Axis);
  Plan plan;
  plan.op = op;
  plan.flow = Flow::gather;
  plan.element_size = element_size(input.type);
  plan.index_type = indices.type;
  plan.dense = output.data;
  plan.indexed = input.data;
  plan.indices = indices.data;
  for (int d = 0; d < D; ++d)
    plan.add_loop(output.sizes[d], output.strides[d], indices.strides[d], d == axis ? 0 : input.strides[d]);
  plan.add_tuple(input.sizes[axis], input.strides[axis], axis);
  plan.indices_tensor = &indices;
  plan.indexed_name = input.name;
  plan.coalesce();

  if (Status s = check_indices(plan, options.index_policy); !s) return s;
  execute(plan, options);
  return Status();
}

}  // namespace detail

/// GatherElements over typed views. Returns the error instead of throwing; writes nothing on error.
template <class In, class Idx, class Out>
Status try_gather_elements(const TensorView<In>& input, const TensorView<Idx>& indices,
                           const TensorView<Out>& output, const GatherElementsParams& params,
                           const Options& options = {}) noexcept {
  detail::assert_gather_types<In, Idx, Out>();
  return detail::gather_elements(detail::raw("InputTensor", input), detail::raw("IndicesTensor", indices),
                                 detail::raw("OutputTensor", output), params, options);
}

/// GatherElements over runtime descriptors (any data type × index type).
inline Status try_gather_elements(const TensorDesc& input, const TensorDesc& indices,
                                  const MutableTensorDesc& output, const GatherElementsParams& params,
                                  const Options& options = {}) noexcept {
  constexpr const char* op = "GatherElements";
  if (Status s = detail::check_desc(op, "InputTensor", input); !s) return s;
  if (Status s = detail::check_desc(op, "IndicesTensor", indices); !s) return s;
  if (Status s = detail::check_desc(op, "OutputTensor", output); !s) return s;
  return detail::gather_elements(detail::raw("InputTensor", input),
                                 detail::raw("IndicesTensor", indices),
                                 detail::raw("OutputTensor", output), params, options);
}

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
