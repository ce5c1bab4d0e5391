#ifndef DMLREF_OPS_GATHER_ND_HPP
#define DMLREF_OPS_GATHER_ND_HPP

/// DML_OPERATOR_GATHER_ND and DML_OPERATOR_GATHER_ND1: IndicesTensor is an array of index tuples
/// (its last dimension is the tuple length K); each tuple addresses the first K meaningful input
/// dimensions after B batch dimensions and selects the whole block of the remaining ones
/// (ONNX GatherND with batch_dims = B). GatherND is GatherND1 with BatchDimensionCount 0.
///
///   r = InputDimensionCount, q = IndicesDimensionCount, B = BatchDimensionCount
///   InA = In[D-r, D);  IdxA = Idx[D-q, D);  K = Idx[D-1];  M = (q-1) + (r-B-K)
///   Out = (1 × (D-M)) ⧺ IdxA[0, q-1) ⧺ InA[B+K, r)
///   Output[batch, g, t] = Input[batch, normalize(tuple(batch, g)), t]
///
/// The pages print the input part as the *last* K input sizes; their own examples and
/// DirectMLX.h's GatherND need InA[B+K, r), which is what dmlref computes (docs/semantics.md,
/// "Where dmlref follows the spec over the DirectML pages", item 1).
/// Rules DirectML leaves implicit, taken from DirectMLX.h and ONNX: leading (non-meaningful)
/// sizes are 1, B < r and B < q, 1 <= K <= r - B, and batch sizes of input and indices agree.
/// A negative index of a signed type counts from the end of the dimension it addresses.

#include <cstdint>
#include <type_traits>

#include "../detail/nd.hpp"
#include "../detail/minimum_level.hpp"
#include "../detail/operator.hpp"
#include "../feature_level.hpp"
#include "../options.hpp"
#include "../runtime/tensor_desc.hpp"
#include "../status.hpp"
#include "../tensor_view.hpp"

namespace dmlref {

/// The attributes of DML_GATHER_ND_OPERATOR_DESC.
struct GatherNDParams {
  std::uint32_t InputDimensionCount = 1;    ///< r: meaningful trailing dimensions of InputTensor
  std::uint32_t IndicesDimensionCount = 1;  ///< q: meaningful trailing dimensions of IndicesTensor
};

/// The attributes of DML_GATHER_ND1_OPERATOR_DESC.
struct GatherND1Params {
  std::uint32_t InputDimensionCount = 1;
  std::uint32_t IndicesDimensionCount = 1;
  std::uint32_t BatchDimensionCount = 0;  ///< B: leading meaningful dimensions shared by input and indices
};

/// OutputTensor.Sizes of GatherND1 for these sizes, or why there are none.
inline Result<Shape> gather_nd1_output_sizes(const Shape& input_sizes, const Shape& indices_sizes,
                                             const GatherND1Params& params) noexcept {
  return detail::nd_block_sizes("GatherND1", input_sizes, "InputTensor", indices_sizes,
                                params.InputDimensionCount, params.IndicesDimensionCount,
                                params.BatchDimensionCount);
}

/// OutputTensor.Sizes of GatherND for these sizes, or why there are none.
inline Result<Shape> gather_nd_output_sizes(const Shape& input_sizes, const Shape& indices_sizes,
                                            const GatherNDParams& params) noexcept {
  return detail::nd_block_sizes("GatherND", input_sizes, "InputTensor", indices_sizes,
                                params.InputDimensionCount, params.IndicesDimensionCount, 0);
}

namespace detail {

/// GatherND1, and GatherND as GatherND1 with BatchDimensionCount 0.
template <class ParamsType, bool Batched = std::is_same_v<ParamsType, GatherND1Params>>
struct GatherNDOperator
    : OperatorConstants<Batched ? OperatorType::GATHER_ND1 : OperatorType::GATHER_ND, Flow::gather, ParamsType> {
  static constexpr bool batched = Batched;
  static constexpr const char* name = batched ? "GatherND1" : "GatherND";
  using Params = ParamsType;  // the base is dependent: its names are not found unqualified here

  static std::uint32_t batch_dimensions(const Params& params) noexcept {
    if constexpr (batched) return params.BatchDimensionCount;
    return 0;
  }

  static Status check(const Operands& t, const Params& params) noexcept {
    Shape expected;
    if (Status s = nd_block_shape(name, t.input().sizes, t.input().name, t.indices().sizes, params.InputDimensionCount,
                                  params.IndicesDimensionCount, batch_dimensions(params), false, expected);
        !s)
      return s;
    return check_output_sizes(name, t, expected, "the GatherND shape rule");
  }

  static Plan plan(const Operands& t, const Params& params) noexcept {
    return nd_plan(name, Flow::gather, t, t.output(), t.input(), static_cast<int>(params.InputDimensionCount),
                   static_cast<int>(params.IndicesDimensionCount), static_cast<int>(batch_dimensions(params)));
  }
};
template <>
struct OperatorFor<GatherNDParams> { using type = GatherNDOperator<GatherNDParams>; };
template <>
struct OperatorFor<GatherND1Params> { using type = GatherNDOperator<GatherND1Params>; };

}  // namespace detail

/// GatherND over typed views. Returns the error instead of throwing; writes nothing on error.
template <class In, class Idx, class Out>
Status try_gather_nd(const TensorView<In>& input, const TensorView<Idx>& indices, const TensorView<Out>& output,
                     const GatherNDParams& params, const Options& options = {}) noexcept {
  return detail::run_typed<detail::GatherNDOperator<GatherNDParams>>(params, options, input, indices, output);
}

/// GatherND1 over typed views. Returns the error instead of throwing; writes nothing on error.
template <class In, class Idx, class Out>
Status try_gather_nd1(const TensorView<In>& input, const TensorView<Idx>& indices, const TensorView<Out>& output,
                      const GatherND1Params& params, const Options& options = {}) noexcept {
  return detail::run_typed<detail::GatherNDOperator<GatherND1Params>>(params, options, input, indices, output);
}

/// GatherND over runtime descriptors (any data type × index type).
template <int OnlyWhenCalled = 0>
Status try_gather_nd(const TensorDesc& input, const TensorDesc& indices, const MutableTensorDesc& output,
                     const GatherNDParams& params, const Options& options = {}) noexcept {
  return detail::run_described<detail::GatherNDOperator<GatherNDParams>>(params, options, input, indices, output);
}

/// GatherND1 over runtime descriptors (any data type × index type).
template <int OnlyWhenCalled = 0>
Status try_gather_nd1(const TensorDesc& input, const TensorDesc& indices, const MutableTensorDesc& output,
                      const GatherND1Params& params, const Options& options = {}) noexcept {
  return detail::run_described<detail::GatherNDOperator<GatherND1Params>>(params, options, input, indices, output);
}

// minimum_feature_level(...) with GatherNDParams or GatherND1Params: detail/minimum_level.hpp, shared by every operator.

#if DMLREF_HAS_EXCEPTIONS
/// As try_gather_nd, throwing dmlref::Exception on error.
template <class Input, class Indices, class Output>
void gather_nd(const Input& input, const Indices& indices, const Output& output,
               const GatherNDParams& params, const Options& options = {}) {
  detail::throw_if_error(try_gather_nd(input, indices, output, params, options));
}

/// As try_gather_nd1, throwing dmlref::Exception on error.
template <class Input, class Indices, class Output>
void gather_nd1(const Input& input, const Indices& indices, const Output& output,
                const GatherND1Params& params, const Options& options = {}) {
  detail::throw_if_error(try_gather_nd1(input, indices, output, params, options));
}
#endif

}  // namespace dmlref

#endif  // DMLREF_OPS_GATHER_ND_HPP
