#ifndef DMLREF_DETAIL_ELEMENTS_HPP
#define DMLREF_DETAIL_ELEMENTS_HPP

#include <cstdint>

#include "../shape.hpp"
#include "../status.hpp"
#include "operator.hpp"
#include "plan.hpp"
#include "tensor.hpp"

// What GatherElements and Scatter share: IndicesTensor has the data tensor's sizes except along
// Axis, and each index value replaces its own coordinate's Axis entry.

namespace dmlref::detail {

/// The shape rule of both: IndicesTensor's sizes equal the data tensor's except along Axis.
/// The shape helpers check the sizes themselves first; operators have done so in check_layout.
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
      return error_status(ErrorCode::shape_mismatch, op, "IndicesTensor", "Sizes", d,
                               ErrorValue::of(data_sizes[d]), ErrorValue::of(indices_sizes[d]),
                               "IndicesTensor's sizes equal InputTensor's except along Axis");
  return Status();
}

/// The plan of both: a row per element of the dense tensor (GatherElements: OutputTensor;
/// Scatter: UpdatesTensor), addressing the indexed tensor (InputTensor; OutputTensor) at its own
/// coordinate but along Axis. A scatter's InputTensor rides along as the source of a fused copy.
inline Plan elements_plan(const char* op, Flow flow, const Operands& t, const RawTensor& dense,
                          const RawTensor& indexed, std::uint32_t axis_) noexcept {
  const int axis = static_cast<int>(axis_);
  const RawTensor& indices = t.indices();
  const RawTensor* source = flow == Flow::scatter ? &t.input() : nullptr;
  Plan plan = start_plan(op, flow, t, dense, indexed);
  plan.source = source != nullptr ? source->data : nullptr;
  for (int d = 0; d < t.rank(); ++d) {
    const bool along = d == axis;
    plan.add_loop(dense.sizes[d], dense.strides[d], indices.strides[d], along ? 0 : indexed.strides[d],
                  along || source == nullptr ? 0 : source->strides[d]);
  }
  plan.add_tuple(indexed.sizes[axis], indexed.strides[axis], axis, source != nullptr ? source->strides[axis] : 0);
  plan.coalesce();
  return plan;
}

}  // namespace dmlref::detail

#endif  // DMLREF_DETAIL_ELEMENTS_HPP
