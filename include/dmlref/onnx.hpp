#ifndef DMLREF_ONNX_HPP
#define DMLREF_ONNX_HPP

/// ONNX mapping helpers: ONNX's Gather, GatherElements, GatherND, Scatter (deprecated),
/// ScatterElements and ScatterND, with ONNX's argument conventions, computed by dmlref's DirectML
/// operators. No ONNX dependency: the standard library and dmlref only. docs/onnx.md has the
/// mapping table and every place where ONNX and DirectML differ.
///
/// Tensors are the dispatch layer's `TensorDesc` / `MutableTensorDesc`, read with ONNX's natural
/// rank instead of DirectML's padded one:
///   - `DimensionCount` is the ONNX rank, 0 to 8 (0: a scalar; `Sizes` may then be null). ONNX has
///     no rank limit, but every DirectML tensor of the call has the padded rank D, which must not
///     exceed 8 (`invalid_dimension_count` otherwise);
///   - a size may be 0 (an empty tensor). The helpers then do ONNX's no-op without a DirectML call:
///     an empty output is left alone, a scatter with nothing to scatter copies `data` to `output`.
///     `Data` may be null for an empty tensor; nothing of an empty tensor is ever read or written;
///   - `Strides` (elements, nullptr = packed row-major), `TotalTensorSizeInBytes` and `Data` are as
///     in the dispatch layer, and so are all checks on them.
///
/// Each function computes the DirectML call of docs/onnx.md (one DimensionCount D = the largest
/// natural rank the operator involves, every tensor left-padded with sizes of 1, the axis moved by
/// the padding, IndexDimensions / InputDimensionCount / IndicesDimensionCount / BatchDimensionCount
/// from the natural ranks) and runs it through dmlref's dispatch layer. The `map_*` functions
/// return that call without running it, for engines that build the DirectML operator themselves.
///
/// Where ONNX is looser than DirectML, the helpers follow ONNX Runtime and PyTorch:
///   - `axis` may be negative (-r .. r-1);
///   - indices may be INT32 or INT64 for every operator (UINT32 and UINT64 are accepted too, as in
///     DirectML); a signed negative index counts from the end of its dimension;
///   - Gather's indices may be 0-dimensional (the axis disappears from the output);
///   - GatherElements / ScatterElements / Scatter indices (and updates) may be smaller than `data`
///     on the dimensions other than `axis`: the DirectML call sees `data` (and `output`) cropped to
///     the indices' sizes, a view with the same strides (no copy). A scatter copies the rest of
///     `data` to `output` itself.
///
/// Index values are checked as in the dispatch layer (every value, before anything is written),
/// also when an empty tensor makes the call a no-op; `Options` apply unchanged (IndexPolicy::clamp
/// cannot clamp into a dimension of size 0). Errors name ONNX's tensors ("data", "indices",
/// "updates", "output") and attributes ("axis", "batch_dims", "reduction"), with dimensions and
/// coordinates in natural ranks; `op` is the ONNX operator's name.
///
/// Options::feature_level and Options::binding_rules apply to the DirectML call a helper makes: its
/// padded DimensionCount D (never padded further to suit a level), mapped attributes and types;
/// under a level a `reduction` other than none is `unsupported`. A helper that makes no DirectML
/// call (an empty tensor) checks only that the options hold valid values.
///
/// Reductions (ScatterElements, ScatterND; ONNX opsets 16 and 18) are dmlref::Reduction, passed to
/// the DirectML-convention operators' extension field; reduction.hpp defines their arithmetic.

#include <cstdint>

#include "config.hpp"
#include "detail/onnx_calls.hpp"
#include "detail/onnx_mapping.hpp"
#include "options.hpp"
#include "reduction.hpp"
#include "runtime/tensor_desc.hpp"
#include "shape.hpp"
#include "status.hpp"

namespace dmlref::onnx {

// ---------------------------------------------------------------------------------------------
// Mappings and output shapes (sizes in natural ranks; rank 0 = Shape{}). The mappings' types
// (GatherMapping and its siblings) are in detail/onnx_mapping.hpp, beside the rules that fill them.

/// The DirectML call for ONNX Gather(data, indices, axis).
inline Result<GatherMapping> map_gather(const Shape& data_sizes, const Shape& indices_sizes,
                                        std::int64_t axis = 0) noexcept {
  return detail::map_gather("Gather", data_sizes, indices_sizes, axis);
}
/// The DirectML call for ONNX GatherElements(data, indices, axis).
inline Result<GatherElementsMapping> map_gather_elements(const Shape& data_sizes, const Shape& indices_sizes,
                                                         std::int64_t axis = 0) noexcept {
  return detail::map_gather_elements("GatherElements", data_sizes, indices_sizes, axis);
}
/// The DirectML call for ONNX GatherND(data, indices, batch_dims).
inline Result<GatherNDMapping> map_gather_nd(const Shape& data_sizes, const Shape& indices_sizes,
                                             std::int64_t batch_dims = 0) noexcept {
  return detail::map_gather_nd("GatherND", data_sizes, indices_sizes, batch_dims);
}
/// The DirectML call for ONNX ScatterElements(data, indices, updates, axis, reduction).
inline Result<ScatterMapping> map_scatter_elements(const Shape& data_sizes, const Shape& indices_sizes,
                                                   const Shape& updates_sizes, std::int64_t axis = 0,
                                                   Reduction reduction = Reduction::none) noexcept {
  return detail::map_scatter("ScatterElements", data_sizes, indices_sizes, updates_sizes, axis, reduction);
}
/// The DirectML call for the deprecated ONNX Scatter(data, indices, updates, axis).
inline Result<ScatterMapping> map_scatter(const Shape& data_sizes, const Shape& indices_sizes,
                                          const Shape& updates_sizes, std::int64_t axis = 0) noexcept {
  return detail::map_scatter("Scatter", data_sizes, indices_sizes, updates_sizes, axis, Reduction::none);
}
/// The DirectML call for ONNX ScatterND(data, indices, updates, reduction).
inline Result<ScatterNDMapping> map_scatter_nd(const Shape& data_sizes, const Shape& indices_sizes,
                                               const Shape& updates_sizes,
                                               Reduction reduction = Reduction::none) noexcept {
  return detail::map_scatter_nd("ScatterND", data_sizes, indices_sizes, &updates_sizes, reduction);
}

/// ONNX Gather's output shape: data.shape[:axis] ++ indices.shape ++ data.shape[axis+1:].
inline Result<Shape> gather_output_sizes(const Shape& data_sizes, const Shape& indices_sizes,
                                         std::int64_t axis = 0) noexcept {
  const Result<GatherMapping> mapped = map_gather(data_sizes, indices_sizes, axis);
  if (!mapped) return mapped.status();
  return mapped.value().onnx_output;
}
/// ONNX GatherElements' output shape: indices.shape.
inline Result<Shape> gather_elements_output_sizes(const Shape& data_sizes, const Shape& indices_sizes,
                                                  std::int64_t axis = 0) noexcept {
  const Result<GatherElementsMapping> mapped = map_gather_elements(data_sizes, indices_sizes, axis);
  if (!mapped) return mapped.status();
  return indices_sizes;
}
/// ONNX GatherND's output shape: indices.shape[:-1] ++ data.shape[batch_dims + indices.shape[-1]:].
inline Result<Shape> gather_nd_output_sizes(const Shape& data_sizes, const Shape& indices_sizes,
                                            std::int64_t batch_dims = 0) noexcept {
  const Result<GatherNDMapping> mapped = map_gather_nd(data_sizes, indices_sizes, batch_dims);
  if (!mapped) return mapped.status();
  return mapped.value().onnx_output;
}
/// ONNX ScatterElements' output shape (data.shape), or why the shapes are invalid.
inline Result<Shape> scatter_elements_output_sizes(const Shape& data_sizes, const Shape& indices_sizes,
                                                   const Shape& updates_sizes, std::int64_t axis = 0) noexcept {
  const Result<ScatterMapping> mapped = map_scatter_elements(data_sizes, indices_sizes, updates_sizes, axis);
  if (!mapped) return mapped.status();
  return data_sizes;
}
/// The deprecated ONNX Scatter's output shape (data.shape), or why the shapes are invalid.
inline Result<Shape> scatter_output_sizes(const Shape& data_sizes, const Shape& indices_sizes,
                                          const Shape& updates_sizes, std::int64_t axis = 0) noexcept {
  const Result<ScatterMapping> mapped = map_scatter(data_sizes, indices_sizes, updates_sizes, axis);
  if (!mapped) return mapped.status();
  return data_sizes;
}
/// The updates shape ONNX ScatterND requires: indices.shape[:-1] ++ data.shape[indices.shape[-1]:].
inline Result<Shape> scatter_nd_updates_sizes(const Shape& data_sizes, const Shape& indices_sizes) noexcept {
  const Result<ScatterNDMapping> mapped =
      detail::map_scatter_nd("ScatterND", data_sizes, indices_sizes, nullptr, Reduction::none);
  if (!mapped) return mapped.status();
  return mapped.value().onnx_updates;
}
/// ONNX ScatterND's output shape (data.shape), or why the shapes are invalid.
inline Result<Shape> scatter_nd_output_sizes(const Shape& data_sizes, const Shape& indices_sizes,
                                             const Shape& updates_sizes) noexcept {
  const Result<ScatterNDMapping> mapped = map_scatter_nd(data_sizes, indices_sizes, updates_sizes);
  if (!mapped) return mapped.status();
  return data_sizes;
}

// ---------------------------------------------------------------------------------------------
// The operators. `try_` forms are noexcept and return the Status; the others throw
// dmlref::Exception. A call that fails writes nothing.

/// ONNX Gather (opsets 1, 11, 13): output = numpy.take(data, indices, axis).
inline Status try_gather(const TensorDesc& data, const TensorDesc& indices, const MutableTensorDesc& output,
                         std::int64_t axis = 0, const Options& options = {}) noexcept {
  return detail::gather(data, indices, output, axis, options);
}

/// ONNX GatherElements (opsets 11, 13): output[i][j][k] = data[indices[i][j][k]][j][k] (axis 0).
inline Status try_gather_elements(const TensorDesc& data, const TensorDesc& indices, const MutableTensorDesc& output,
                                  std::int64_t axis = 0, const Options& options = {}) noexcept {
  return detail::gather_elements(data, indices, output, axis, options);
}

/// ONNX GatherND (opsets 11, 12, 13) with batch_dims.
inline Status try_gather_nd(const TensorDesc& data, const TensorDesc& indices, const MutableTensorDesc& output,
                            std::int64_t batch_dims = 0, const Options& options = {}) noexcept {
  return detail::gather_nd(data, indices, output, batch_dims, options);
}

/// The deprecated ONNX Scatter (opsets 9, 11): ScatterElements without a reduction.
inline Status try_scatter(const TensorDesc& data, const TensorDesc& indices, const TensorDesc& updates,
                          const MutableTensorDesc& output, std::int64_t axis = 0,
                          const Options& options = {}) noexcept {
  return detail::scatter_elements("Scatter", data, indices, updates, output, axis, Reduction::none, options);
}

/// ONNX ScatterElements (opsets 11, 13, 16, 18). output may be data itself (same Data, Sizes and
/// Strides): then only the updates are written.
inline Status try_scatter_elements(const TensorDesc& data, const TensorDesc& indices, const TensorDesc& updates,
                                   const MutableTensorDesc& output, std::int64_t axis = 0,
                                   Reduction reduction = Reduction::none, const Options& options = {}) noexcept {
  return detail::scatter_elements("ScatterElements", data, indices, updates, output, axis, reduction, options);
}

/// ONNX ScatterND (opsets 11, 13, 16, 18). output may be data itself.
inline Status try_scatter_nd(const TensorDesc& data, const TensorDesc& indices, const TensorDesc& updates,
                             const MutableTensorDesc& output, Reduction reduction = Reduction::none,
                             const Options& options = {}) noexcept {
  return detail::scatter_nd(data, indices, updates, output, reduction, options);
}

#if DMLREF_HAS_EXCEPTIONS
/// As try_gather, throwing dmlref::Exception on error.
inline void gather(const TensorDesc& data, const TensorDesc& indices, const MutableTensorDesc& output,
                   std::int64_t axis = 0, const Options& options = {}) {
  dmlref::detail::throw_if_error(try_gather(data, indices, output, axis, options));
}
/// As try_gather_elements, throwing dmlref::Exception on error.
inline void gather_elements(const TensorDesc& data, const TensorDesc& indices, const MutableTensorDesc& output,
                            std::int64_t axis = 0, const Options& options = {}) {
  dmlref::detail::throw_if_error(try_gather_elements(data, indices, output, axis, options));
}
/// As try_gather_nd, throwing dmlref::Exception on error.
inline void gather_nd(const TensorDesc& data, const TensorDesc& indices, const MutableTensorDesc& output,
                      std::int64_t batch_dims = 0, const Options& options = {}) {
  dmlref::detail::throw_if_error(try_gather_nd(data, indices, output, batch_dims, options));
}
/// As try_scatter, throwing dmlref::Exception on error.
inline void scatter(const TensorDesc& data, const TensorDesc& indices, const TensorDesc& updates,
                    const MutableTensorDesc& output, std::int64_t axis = 0, const Options& options = {}) {
  dmlref::detail::throw_if_error(try_scatter(data, indices, updates, output, axis, options));
}
/// As try_scatter_elements, throwing dmlref::Exception on error.
inline void scatter_elements(const TensorDesc& data, const TensorDesc& indices, const TensorDesc& updates,
                             const MutableTensorDesc& output, std::int64_t axis = 0,
                             Reduction reduction = Reduction::none, const Options& options = {}) {
  dmlref::detail::throw_if_error(try_scatter_elements(data, indices, updates, output, axis, reduction, options));
}
/// As try_scatter_nd, throwing dmlref::Exception on error.
inline void scatter_nd(const TensorDesc& data, const TensorDesc& indices, const TensorDesc& updates,
                       const MutableTensorDesc& output, Reduction reduction = Reduction::none,
                       const Options& options = {}) {
  dmlref::detail::throw_if_error(try_scatter_nd(data, indices, updates, output, reduction, options));
}
#endif

}  // namespace dmlref::onnx

#endif  // DMLREF_ONNX_HPP
