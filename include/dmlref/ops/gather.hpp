#ifndef DMLREF_OPS_GATHER_HPP
#define DMLREF_OPS_GATHER_HPP

/// DML_OPERATOR_GATHER: picks slices of InputTensor along Axis; the meaningful part of
/// IndicesTensor's shape takes Axis's place in the output (numpy's take, ONNX Gather).
///
///   L   = In[0, Axis) ⧺ Idx[D-P, D) ⧺ In[Axis+1, D)      (P = IndexDimensions, |L| = D+P-1)
///   Out = (1) ⧺ L             if P == 0   (a scalar index)
///         L without its first P-1 entries, which must be 1, otherwise (right-aligned to D)
///   Output[o] = Input[outer, normalize(Indices[j]), inner]
///
/// IndicesTensor's first D-P sizes are "irrelevant leading" ones and must be 1. A negative index
/// of a signed type counts from the end of Axis. Out-of-range indices are an error (DirectML:
/// undefined output) unless Options::index_policy is clamp.

#include <cstdint>
#include <type_traits>

#include "../detail/minimum_level.hpp"
#include "../detail/operator.hpp"
#include "../detail/plan.hpp"
#include "../detail/tensor.hpp"
#include "../feature_level.hpp"
#include "../options.hpp"
#include "../runtime/tensor_desc.hpp"
#include "../status.hpp"
#include "../tensor_view.hpp"

namespace dmlref {

/// The attributes of DML_GATHER_OPERATOR_DESC.
struct GatherParams {
  std::uint32_t Axis = 0;
  std::uint32_t IndexDimensions = 1;  ///< P: how many trailing IndicesTensor dimensions are meaningful
};

namespace detail {

/// The Gather shape rule, for sizes already checked (1..8 dimensions, equal ranks, sizes >= 1),
/// into `out` (empty). Not a Result: a call compares `out` where it was written, as a copy of
/// it would reload in 16 bytes what was just stored 8 bytes at a time.
inline Status gather_shape(const Shape& input_sizes, const Shape& indices_sizes, const GatherParams& params,
                           Shape& out) noexcept {
  constexpr const char* op = "Gather";
  const int D = input_sizes.rank();
  if (params.Axis >= static_cast<std::uint32_t>(D))
    return detail::attribute_error(op, "Axis", 0, D - 1, params.Axis);
  if (params.IndexDimensions > static_cast<std::uint32_t>(D))
    return detail::attribute_error(op, "IndexDimensions", 0, D, params.IndexDimensions);
  const int axis = static_cast<int>(params.Axis);
  const int P = static_cast<int>(params.IndexDimensions);
  if (Status s = detail::check_leading_ones(op, "IndicesTensor", indices_sizes, D - P,
                                            "IndicesTensor's leading D - IndexDimensions sizes must be 1");
      !s)
    return s;

  // L has D + P - 1 entries (up to 15), more than a Shape holds: read them through L(k).
  auto L = [&](int k) {
    if (k < axis) return input_sizes[k];
    if (k < axis + P) return indices_sizes[D - P + (k - axis)];
    return input_sizes[k - P + 1];
  };
  if (P == 0) out.push_back(1);
  for (int k = 0; k < P - 1; ++k)
    if (L(k) != 1)
      return detail::error_status(
          ErrorCode::shape_mismatch, op, "", "IndexDimensions", -1,
          ErrorValue::of_text("small enough that the output fits in DimensionCount dimensions"),
          ErrorValue::of(static_cast<std::int64_t>(P)),
          "InputTensor's meaningful rank + IndexDimensions - 1 exceeds DimensionCount");
  for (int k = P > 0 ? P - 1 : 0; k < D + P - 1; ++k) out.push_back(L(k));
  return Status();
}

}  // namespace detail

/// OutputTensor.Sizes for these input and indices sizes, or why there are none.
inline Result<Shape> gather_output_sizes(const Shape& input_sizes, const Shape& indices_sizes,
                                         const GatherParams& params) noexcept {
  const int D = input_sizes.rank();
  if (Status s = detail::check_sizes("Gather", "InputTensor", input_sizes, D); !s) return s;
  if (Status s = detail::check_sizes("Gather", "IndicesTensor", indices_sizes, D); !s) return s;
  Shape out;
  if (Status s = detail::gather_shape(input_sizes, indices_sizes, params, out); !s) return s;
  return out;
}

namespace detail {

struct GatherOperator : OperatorConstants<OperatorType::GATHER, Flow::gather, GatherParams> {
  static constexpr const char* name = "Gather";

  static Status check(const Operands& t, const GatherParams& params) noexcept {
    Shape expected;
    if (Status s = gather_shape(t.input().sizes, t.indices().sizes, params, expected); !s) return s;
    return check_output_sizes(name, t, expected, "the Gather shape rule");
  }

  /// Walks L: the outer input dimensions, then the indices' meaningful dimensions (the row loop),
  /// then the inner input dimensions (the block). L's entry k sits in output dimension k + shift;
  /// entries dropped by right-alignment (k + shift < 0) have size 1 and no output dimension.
  static Plan plan(const Operands& t, const GatherParams& params) noexcept {
    const RawTensor &input = t.input(), &indices = t.indices(), &output = t.output();
    const int D = t.rank();
    const int axis = static_cast<int>(params.Axis);
    const int P = static_cast<int>(params.IndexDimensions);
    const int shift = P == 0 ? 1 : 1 - P;
    auto out_stride = [&](int k) { return k + shift >= 0 ? output.strides[k + shift] : 0; };
    Plan plan = start_plan(name, flow, t, output, input);
    int k = 0;
    for (int d = 0; d < axis; ++d, ++k) plan.add_loop(input.sizes[d], out_stride(k), 0, input.strides[d]);
    for (int d = D - P; d < D; ++d, ++k) plan.add_loop(indices.sizes[d], out_stride(k), indices.strides[d], 0);
    for (int d = axis + 1; d < D; ++d, ++k) plan.add_block(input.sizes[d], out_stride(k), input.strides[d]);
    plan.add_tuple(input.sizes[axis], input.strides[axis], axis);
    plan.coalesce();
    return plan;
  }
};
template <>
struct OperatorFor<GatherParams> { using type = GatherOperator; };

}  // namespace detail

/// Gather over typed views. Returns the error instead of throwing; writes nothing on error.
template <class In, class Idx, class Out>
Status try_gather(const TensorView<In>& input, const TensorView<Idx>& indices, const TensorView<Out>& output,
                  const GatherParams& params, const Options& options = {}) noexcept {
  return detail::run_typed<detail::GatherOperator>(params, options, input, indices, output);
}

/// Gather over runtime descriptors (any data type × index type).
template <int OnlyWhenCalled = 0>
Status try_gather(const TensorDesc& input, const TensorDesc& indices, const MutableTensorDesc& output,
                  const GatherParams& params, const Options& options = {}) noexcept {
  return detail::run_described<detail::GatherOperator>(params, options, input, indices, output);
}

// minimum_feature_level(...) with GatherParams: detail/minimum_level.hpp, shared by every operator.

#if DMLREF_HAS_EXCEPTIONS
/// As try_gather, throwing dmlref::Exception on error.
template <class Input, class Indices, class Output>
void gather(const Input& input, const Indices& indices, const Output& output,
            const GatherParams& params, const Options& options = {}) {
  detail::throw_if_error(try_gather(input, indices, output, params, options));
}
#endif

}  // namespace dmlref

#endif  // DMLREF_OPS_GATHER_HPP
