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
/// DirectMLX.h's GatherND need InA[B+K, r), which is what dmlref computes (spec notes, item 1).
/// Rules DirectML leaves implicit, taken from DirectMLX.h and ONNX: leading (non-meaningful)
/// sizes are 1, B < r and B < q, 1 <= K <= r - B, and batch sizes of input and indices agree.
/// A negative index of a signed type counts from the end of the dimension it addresses.

#include <algorithm>
#include <cstdint>

#include "../detail/plan.hpp"
#include "../detail/tensor.hpp"
#include "../detail/typed.hpp"
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

namespace detail {

/// The ND shape rule (spec §5.3), shared by GatherND, GatherND1 and ScatterND (whose UpdatesTensor
/// has the shape GatherND's output would have). Validates everything but index values.
inline Result<Shape> nd_block_sizes(const char* op, const Shape& input_sizes, const char* input_name,
                                    const Shape& indices_sizes, std::uint32_t r_, std::uint32_t q_,
                                    std::uint32_t B_, bool check_size_values = true) noexcept {
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
    return Status(make_error(ErrorCode::shape_mismatch, op, "IndicesTensor", "Sizes", D - 1,
                             ErrorValue::range(1, r - B), ErrorValue::of(K),
                             "the tuple length K addresses at most InputDimensionCount - BatchDimensionCount dimensions"));
  for (int j = 0; j < B; ++j)
    if (indices_sizes[D - q + j] != input_sizes[D - r + j])
      return Status(make_error(ErrorCode::shape_mismatch, op, "IndicesTensor", "Sizes", D - q + j,
                               ErrorValue::of(input_sizes[D - r + j]),
                               ErrorValue::of(indices_sizes[D - q + j]),
                               "batch dimensions of IndicesTensor and InputTensor agree"));
  const int M = (q - 1) + (r - B - static_cast<int>(K));
  if (M > D)
    return Status(make_error(ErrorCode::shape_mismatch, op, "IndicesTensor", "Sizes", D - 1,
                             ErrorValue::at_least((q - 1) + (r - B) - D), ErrorValue::of(K),
                             "the output's meaningful rank (q - 1) + (r - B - K) must fit in DimensionCount"));
  Shape out = Shape::filled(D - M, 1);
  for (int j = 0; j < q - 1; ++j) out.push_back(indices_sizes[D - q + j]);
  for (int d = D - r + B + static_cast<int>(K); d < D; ++d) out.push_back(input_sizes[d]);
  return out;
}

/// The ND plan: rows are the tuples (batch dimensions also step through the indexed tensor), the
/// tuple picks a position in K dimensions of the indexed tensor, the block is the rest.
inline Plan nd_plan(const char* op, Flow flow, const RawTensor& dense, const RawTensor& indexed,
                    const RawTensor& indices, int r, int q, int B) noexcept {
  const int D = indexed.sizes.rank();
  const int K = static_cast<int>(indices.sizes[D - 1]);
  const int M = (q - 1) + (r - B - K);
  Plan plan;
  plan.op = op;
  plan.flow = flow;
  plan.element_size = element_size(indexed.type);
  plan.index_type = indices.type;
  plan.dense = dense.data;
  plan.indexed = indexed.data;
  plan.indices = indices.data;
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
  plan.indices_tensor = &indices;
  plan.indexed_name = indexed.name;
  plan.last_dimension_is_tuple = true;
  plan.coalesce();
  return plan;
}

}  // namespace detail

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

inline Status gather_nd(const char* op, const RawTensor& input, const RawTensor& indices,
                        const RawTensor& output, const GatherND1Params& params,
                        const Options& options) noexcept {
  const int D = input.sizes.rank();
  if (Status s = check_layout(op, input, D, false); !s) return s;
  if (Status s = check_layout(op, indices, D, false); !s) return s;
  if (Status s = check_layout(op, output, D, true); !s) return s;
  if (Status s = check_data_type(op, input, input); !s) return s;
  if (Status s = check_index_type(op, indices); !s) return s;
  if (Status s = check_data_type(op, output, input); !s) return s;
  const Result<Shape> expected =
      nd_block_sizes(op, input.sizes, input.name, indices.sizes, params.InputDimensionCount,
                     params.IndicesDimensionCount, params.BatchDimensionCount, false);
  if (!expected) return expected.status();
  if (output.sizes != *expected)
    return shape_error(op, output.name, *expected, output.sizes, "the GatherND shape rule");
  if (Status s = check_no_overlap(op, output, input); !s) return s;
  if (Status s = check_no_overlap(op, output, indices); !s) return s;

  const Plan plan = nd_plan(op, Flow::gather, output, input, indices,
                            static_cast<int>(params.InputDimensionCount),
                            static_cast<int>(params.IndicesDimensionCount),
                            static_cast<int>(params.BatchDimensionCount));
  if (Status s = check_indices(plan, options.index_policy); !s) return s;
  execute(plan, options);
  return Status();
}

inline GatherND1Params nd1(const GatherNDParams& p) noexcept {
  return {p.InputDimensionCount, p.IndicesDimensionCount, 0};
}

}  // namespace detail

/// GatherND over typed views. Returns the error instead of throwing; writes nothing on error.
template <class In, class Idx, class Out>
Status try_gather_nd(const TensorView<In>& input, const TensorView<Idx>& indices,
                     const TensorView<Out>& output, const GatherNDParams& params,
                     const Options& options = {}) noexcept {
  detail::assert_gather_types<In, Idx, Out>();
  return detail::gather_nd("GatherND", detail::raw("InputTensor", input),
                           detail::raw("IndicesTensor", indices), detail::raw("OutputTensor", output),
                           detail::nd1(params), options);
}

/// GatherND1 over typed views. Returns the error instead of throwing; writes nothing on error.
template <class In, class Idx, class Out>
Status try_gather_nd1(const TensorView<In>& input, const TensorView<Idx>& indices,
                      const TensorView<Out>& output, const GatherND1Params& params,
                      const Options& options = {}) noexcept {
  detail::assert_gather_types<In, Idx, Out>();
  return detail::gather_nd("GatherND1", detail::raw("InputTensor", input),
                           detail::raw("IndicesTensor", indices), detail::raw("OutputTensor", output),
                           params, options);
}

namespace detail {
inline Status gather_nd_desc(const char* op, const TensorDesc& input, const TensorDesc& indices,
                             const MutableTensorDesc& output, const GatherND1Params& params,
                             const Options& options) noexcept {
  if (Status s = check_desc(op, "InputTensor", input); !s) return s;
  if (Status s = check_desc(op, "IndicesTensor", indices); !s) return s;
  if (Status s = check_desc(op, "OutputTensor", output); !s) return s;
  return gather_nd(op, raw("InputTensor", input), raw("IndicesTensor", indices),
                   raw("OutputTensor", output), params, options);
}
}  // namespace detail

/// GatherND over runtime descriptors (any data type × index type).
inline Status try_gather_nd(const TensorDesc& input, const TensorDesc& indices,
                            const MutableTensorDesc& output, const GatherNDParams& params,
                            const Options& options = {}) noexcept {
  return detail::gather_nd_desc("GatherND", input, indices, output, detail::nd1(params), options);
}

/// GatherND1 over runtime descriptors (any data type × index type).
inline Status try_gather_nd1(const TensorDesc& input, const TensorDesc& indices,
                             const MutableTensorDesc& output, const GatherND1Params& params,
                             const Options& options = {}) noexcept {
  return detail::gather_nd_desc("GatherND1", input, indices, output, params, options);
}

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
