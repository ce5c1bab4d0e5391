#ifndef DMLREF_EXPLAIN_HPP
#define DMLREF_EXPLAIN_HPP

/// Where every output element comes from (optional; dmlref.hpp does not include it; standard
/// library only). When a backend's result differs from dmlref's at output[3,1], explain_* says
/// why dmlref's element is what it is, from the operator's semantics (docs/semantics.md):
///
///   output[3,1] = 1.5 (0x3e00) = input[2,1], from indices[3] = -2 → 2 (Axis 0)
///
/// Each explain_* takes the operator's own arguments, in the same order, plus the coordinate `at`
/// after the attributes: `explain_gather(input, indices, output, params, at, options)`. The call is
/// validated exactly as the operator validates it, every index value included, and one that the
/// operator would reject returns the operator's error; a coordinate outside OutputTensor is
/// coordinate_out_of_range. OutputTensor is never read or written (its view may be const): only
/// its layout is checked, so pass the output buffer of the call being explained, or any buffer of
/// its sizes. InputTensor is read as it is now: explain an in-place scatter before running it.
///
/// A gather's Provenance names the IndicesTensor elements it read (raw, clamped, normalised) and
/// the InputTensor element whose bits the output holds. A scatter's names every update that
/// addresses the element, in the order they are applied, with the element's value after each; the
/// last one wins, or with a Reduction each step is the operator's own arithmetic (reduce.hpp:
/// float16 rounds after every step). provenance.hpp has the fields and the text.
///
/// Cost, after the validation (which reads every index, as the operator does): a gather reads
/// only the indices and the input element it names (O(rank + tuple length)); a scatter reads the
/// indices that could address the element, at most one pass over IndicesTensor.
///
/// The ONNX helpers (onnx.hpp) have theirs in namespace onnx, with ONNX's arguments and natural
/// ranks: `onnx::explain_gather(data, indices, output, axis, at, options)`.

#include <cstdint>

#include "detail/explain.hpp"
#include "detail/typed.hpp"
#include "onnx.hpp"
#include "options.hpp"
#include "ops/gather.hpp"
#include "ops/gather_elements.hpp"
#include "ops/gather_nd.hpp"
#include "ops/scatter.hpp"
#include "ops/scatter_nd.hpp"
#include "provenance.hpp"
#include "reduction.hpp"
#include "runtime/tensor_desc.hpp"
#include "shape.hpp"
#include "status.hpp"
#include "tensor_view.hpp"

namespace dmlref {

// ---- typed views ----------------------------------------------------------------------------------

template <class In, class Idx, class Out>
Result<Provenance> explain_gather(const TensorView<In>& input, const TensorView<Idx>& indices,
                                  const TensorView<Out>& output, const GatherParams& params, const Shape& at,
                                  const Options& options = {}) {
  detail::assert_explained_types<In, Idx, Out>();
  return detail::explain_typed<detail::GatherOperator>(params, at, options, input, indices, output);
}

template <class In, class Idx, class Out>
Result<Provenance> explain_gather_elements(const TensorView<In>& input, const TensorView<Idx>& indices,
                                           const TensorView<Out>& output, const GatherElementsParams& params,
                                           const Shape& at, const Options& options = {}) {
  detail::assert_explained_types<In, Idx, Out>();
  return detail::explain_typed<detail::GatherElementsOperator>(params, at, options, input, indices, output);
}

template <class In, class Idx, class Out>
Result<Provenance> explain_gather_nd(const TensorView<In>& input, const TensorView<Idx>& indices,
                                     const TensorView<Out>& output, const GatherNDParams& params, const Shape& at,
                                     const Options& options = {}) {
  detail::assert_explained_types<In, Idx, Out>();
  return detail::explain_typed<detail::GatherNDOperator<GatherNDParams>>(params, at, options, input, indices, output);
}

template <class In, class Idx, class Out>
Result<Provenance> explain_gather_nd1(const TensorView<In>& input, const TensorView<Idx>& indices,
                                      const TensorView<Out>& output, const GatherND1Params& params, const Shape& at,
                                      const Options& options = {}) {
  detail::assert_explained_types<In, Idx, Out>();
  return detail::explain_typed<detail::GatherNDOperator<GatherND1Params>>(params, at, options, input, indices,
                                                                          output);
}

template <class In, class Idx, class Upd, class Out>
Result<Provenance> explain_scatter(const TensorView<In>& input, const TensorView<Idx>& indices,
                                   const TensorView<Upd>& updates, const TensorView<Out>& output,
                                   const ScatterParams& params, const Shape& at, const Options& options = {}) {
  detail::assert_explained_types<In, Idx, Out>();
  detail::assert_explained_types<Upd, Idx, Out>();
  return detail::explain_typed<detail::ScatterOperator>(params, at, options, input, indices, updates, output);
}

template <class In, class Idx, class Upd, class Out>
Result<Provenance> explain_scatter_nd(const TensorView<In>& input, const TensorView<Idx>& indices,
                                      const TensorView<Upd>& updates, const TensorView<Out>& output,
                                      const ScatterNDParams& params, const Shape& at, const Options& options = {}) {
  detail::assert_explained_types<In, Idx, Out>();
  detail::assert_explained_types<Upd, Idx, Out>();
  return detail::explain_typed<detail::ScatterNDOperator>(params, at, options, input, indices, updates, output);
}

/// DirectML's newer name for Scatter.
template <class In, class Idx, class Upd, class Out>
Result<Provenance> explain_scatter_elements(const TensorView<In>& input, const TensorView<Idx>& indices,
                                            const TensorView<Upd>& updates, const TensorView<Out>& output,
                                            const ScatterParams& params, const Shape& at,
                                            const Options& options = {}) {
  return explain_scatter(input, indices, updates, output, params, at, options);
}

// ---- descriptors (the output may be a TensorDesc or a MutableTensorDesc) ----------------------------

template <class Pointer>
Result<Provenance> explain_gather(const TensorDesc& input, const TensorDesc& indices,
                                  const BasicTensorDesc<Pointer>& output, const GatherParams& params, const Shape& at,
                                  const Options& options = {}) {
  return detail::explain_described<detail::GatherOperator>(params, at, options, input, indices, output);
}

template <class Pointer>
Result<Provenance> explain_gather_elements(const TensorDesc& input, const TensorDesc& indices,
                                           const BasicTensorDesc<Pointer>& output,
                                           const GatherElementsParams& params, const Shape& at,
                                           const Options& options = {}) {
  return detail::explain_described<detail::GatherElementsOperator>(params, at, options, input, indices, output);
}

template <class Pointer>
Result<Provenance> explain_gather_nd(const TensorDesc& input, const TensorDesc& indices,
                                     const BasicTensorDesc<Pointer>& output, const GatherNDParams& params,
                                     const Shape& at, const Options& options = {}) {
  return detail::explain_described<detail::GatherNDOperator<GatherNDParams>>(params, at, options, input, indices,
                                                                             output);
}

template <class Pointer>
Result<Provenance> explain_gather_nd1(const TensorDesc& input, const TensorDesc& indices,
                                      const BasicTensorDesc<Pointer>& output, const GatherND1Params& params,
                                      const Shape& at, const Options& options = {}) {
  return detail::explain_described<detail::GatherNDOperator<GatherND1Params>>(params, at, options, input, indices,
                                                                              output);
}

template <class Pointer>
Result<Provenance> explain_scatter(const TensorDesc& input, const TensorDesc& indices, const TensorDesc& updates,
                                   const BasicTensorDesc<Pointer>& output, const ScatterParams& params,
                                   const Shape& at, const Options& options = {}) {
  return detail::explain_described<detail::ScatterOperator>(params, at, options, input, indices, updates, output);
}

template <class Pointer>
Result<Provenance> explain_scatter_nd(const TensorDesc& input, const TensorDesc& indices, const TensorDesc& updates,
                                      const BasicTensorDesc<Pointer>& output, const ScatterNDParams& params,
                                      const Shape& at, const Options& options = {}) {
  return detail::explain_described<detail::ScatterNDOperator>(params, at, options, input, indices, updates, output);
}

/// DirectML's newer name for Scatter.
template <class Pointer>
Result<Provenance> explain_scatter_elements(const TensorDesc& input, const TensorDesc& indices,
                                            const TensorDesc& updates, const BasicTensorDesc<Pointer>& output,
                                            const ScatterParams& params, const Shape& at,
                                            const Options& options = {}) {
  return explain_scatter(input, indices, updates, output, params, at, options);
}

}  // namespace dmlref

#include "detail/explain_onnx.hpp"

#endif  // DMLREF_EXPLAIN_HPP
