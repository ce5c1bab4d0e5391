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

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "config.hpp"
#include "data_type.hpp"
#include "detail/indices.hpp"
#include "detail/strided.hpp"
#include "detail/tensor.hpp"
#include "options.hpp"
#include "ops/gather.hpp"
#include "ops/gather_elements.hpp"
#include "ops/gather_nd.hpp"
#include "ops/scatter.hpp"
#include "ops/scatter_nd.hpp"
#include "reduction.hpp"
#include "runtime/tensor_desc.hpp"
#include "shape.hpp"
#include "status.hpp"

namespace dmlref::onnx {

// ---------------------------------------------------------------------------------------------
// The DirectML calls.

/// ONNX Gather as DML_OPERATOR_GATHER. Sizes are DirectML's (padded to dimension_count).
struct GatherMapping {
  int dimension_count = 0;          ///< D = max(r, r + q - 1)
  Shape input, indices, output;     ///< InputTensor, IndicesTensor, OutputTensor Sizes
  GatherParams params;              ///< Axis = axis + (D - r), IndexDimensions = q
  Shape onnx_output;                ///< ONNX's output shape (rank r + q - 1)
  bool empty = false;               ///< a size is 0: there is no DirectML call (see try_gather)
};

/// ONNX GatherElements as DML_OPERATOR_GATHER_ELEMENTS.
struct GatherElementsMapping {
  int dimension_count = 0;          ///< D = r
  Shape input;                      ///< InputTensor Sizes: data cropped to indices off the axis
  Shape indices, output;
  GatherElementsParams params;      ///< Axis = axis (normalised)
  bool cropped = false;             ///< input is smaller than data (same strides, no copy)
  bool empty = false;
};

/// ONNX GatherND as DML_OPERATOR_GATHER_ND (batch_dims 0) or DML_OPERATOR_GATHER_ND1.
struct GatherNDMapping {
  int dimension_count = 0;          ///< D = max(r, q, q - 1 + r - b - K)
  Shape input, indices, output;
  GatherND1Params params;           ///< r, q, b (BatchDimensionCount 0: DML_OPERATOR_GATHER_ND)
  Shape onnx_output;                ///< indices.shape[:-1] ++ data.shape[b + K:]
  bool empty = false;
};

/// ONNX ScatterElements and Scatter as DML_OPERATOR_SCATTER (= SCATTER_ELEMENTS).
struct ScatterMapping {
  int dimension_count = 0;          ///< D = r
  Shape input, indices, updates, output;  ///< full sizes (InputTensor == OutputTensor == data)
  Shape cropped;                    ///< Input/OutputTensor Sizes of the call: data cropped to indices
  ScatterParams params;             ///< Axis = axis (normalised), Reduction
  bool is_cropped = false;          ///< the call covers part of data; the rest is a plain copy
  bool empty = false;
};

/// ONNX ScatterND as DML_OPERATOR_SCATTER_ND.
struct ScatterNDMapping {
  int dimension_count = 0;          ///< D = max(r, q, q - 1 + r - K)
  Shape input, indices, updates, output;
  ScatterNDParams params;           ///< r, q, Reduction
  Shape onnx_updates;               ///< the updates shape ONNX requires: indices.shape[:-1] ++ data.shape[K:]
  bool empty = false;
};

namespace detail {

using dmlref::detail::RawTensor;

inline constexpr const char* kData = "data";
inline constexpr const char* kIndices = "indices";
inline constexpr const char* kUpdates = "updates";
inline constexpr const char* kOutput = "output";

inline Status error(ErrorCode code, const char* op, const char* tensor, const char* field, int field_index,
                    ErrorValue expected, ErrorValue actual, const char* rule = "") noexcept {
  return dmlref::detail::error_status(code, op, tensor, field, field_index, expected, actual, rule);
}

inline bool has_zero(const Shape& s) noexcept {
  for (std::int64_t v : s)
    if (v == 0) return true;
  return false;
}

/// Natural sizes: rank 0..8, every size >= 0.
inline Status check_natural(const char* op, const char* tensor, const Shape& s, int min_rank = 0) noexcept {
  if (s.rank() < min_rank || s.rank() > max_dimension_count)
    return error(ErrorCode::invalid_dimension_count, op, tensor, "DimensionCount", -1,
                 ErrorValue::range(min_rank, max_dimension_count), ErrorValue::of(static_cast<std::int64_t>(s.rank())),
                 min_rank > 0 ? "ONNX requires rank >= 1; DirectML allows at most 8 dimensions"
                              : "DirectML allows at most 8 dimensions");
  for (int d = 0; d < s.rank(); ++d)
    if (s[d] < 0)
      return error(ErrorCode::invalid_size, op, tensor, "Sizes", d, ErrorValue::of_text("at least 0"),
                   ErrorValue::of(s[d]));
  return Status();
}

inline Status check_padded_rank(const char* op, int D) noexcept {
  if (D <= max_dimension_count) return Status();
  return error(ErrorCode::invalid_dimension_count, op, "", "DimensionCount", -1,
               ErrorValue::range(1, max_dimension_count), ErrorValue::of(static_cast<std::int64_t>(D)),
               "the DirectML call needs one DimensionCount for all tensors: the largest natural rank");
}

inline Status normalize_axis(const char* op, std::int64_t axis, int r, int& out) noexcept {
  if (axis < -r || axis >= r)
    return error(ErrorCode::invalid_attribute, op, "", "axis", -1, ErrorValue::range(-r, r - 1),
                 ErrorValue::of(axis), "ONNX: axis in [-r, r-1], r = rank(data)");
  out = static_cast<int>(axis < 0 ? axis + r : axis);
  return Status();
}

inline Shape pad(const Shape& s, int D) noexcept {
  Shape out = Shape::filled(D - s.rank(), 1);
  for (std::int64_t v : s) out.push_back(v);
  return out;
}

inline Status check_same(const char* op, const char* tensor, const Shape& expected, const Shape& actual,
                         const char* rule) noexcept {
  if (expected == actual) return Status();
  return error(ErrorCode::shape_mismatch, op, tensor, "Sizes", -1, ErrorValue::of(expected),
               ErrorValue::of(actual), rule);
}

/// The loose ONNX Runtime / PyTorch rule: indices[d] <= data[d] off the axis.
inline Status check_elements_fit(const char* op, const Shape& data, const Shape& indices, int axis) noexcept {
  for (int d = 0; d < data.rank(); ++d)
    if (d != axis && indices[d] > data[d])
      return error(ErrorCode::shape_mismatch, op, kIndices, "Sizes", d,
                   ErrorValue::range(0, data[d]), ErrorValue::of(indices[d]),
                   "indices.Sizes[d] <= data.Sizes[d] for d != axis (ONNX Runtime, PyTorch)");
  return Status();
}

inline Shape crop(const Shape& data, const Shape& indices, int axis) noexcept {
  Shape out = data;
  for (int d = 0; d < data.rank(); ++d)
    if (d != axis) out[d] = indices[d];
  return out;
}

inline Status check_reduction(const char* op, Reduction reduction) noexcept {
  switch (reduction) {
    case Reduction::none:
    case Reduction::add:
    case Reduction::mul:
    case Reduction::max:
    case Reduction::min:
      return Status();
  }
  return error(ErrorCode::invalid_attribute, op, "", "reduction", -1, ErrorValue::range(0, 4),
               ErrorValue::of(static_cast<std::int64_t>(reduction)), "none, add, mul, max or min");
}

// ---- mappings (sizes only) ----

inline Result<GatherMapping> map_gather(const char* op, const Shape& data, const Shape& indices,
                                        std::int64_t axis) noexcept {
  if (Status s = check_natural(op, kData, data, 1); !s) return s;
  if (Status s = check_natural(op, kIndices, indices); !s) return s;
  const int r = data.rank(), q = indices.rank();
  GatherMapping m;
  int a = 0;
  if (Status s = normalize_axis(op, axis, r, a); !s) return s;
  const int D = q == 0 ? r : r + q - 1;
  if (Status s = check_padded_rank(op, D); !s) return s;
  for (int d = 0; d < a; ++d) m.onnx_output.push_back(data[d]);
  for (std::int64_t v : indices) m.onnx_output.push_back(v);
  for (int d = a + 1; d < r; ++d) m.onnx_output.push_back(data[d]);
  m.dimension_count = D;
  m.input = pad(data, D);
  m.indices = pad(indices, D);
  m.output = pad(m.onnx_output, D);
  m.params = GatherParams{static_cast<std::uint32_t>(a + (D - r)), static_cast<std::uint32_t>(q)};
  m.empty = has_zero(data) || has_zero(indices);
  return m;
}

inline Result<GatherElementsMapping> map_gather_elements(const char* op, const Shape& data, const Shape& indices,
                                                         std::int64_t axis) noexcept {
  if (Status s = check_natural(op, kData, data, 1); !s) return s;
  if (Status s = check_natural(op, kIndices, indices); !s) return s;
  const int r = data.rank();
  if (indices.rank() != r)
    return error(ErrorCode::invalid_dimension_count, op, kIndices, "DimensionCount", -1,
                 ErrorValue::of(static_cast<std::int64_t>(r)), ErrorValue::of(static_cast<std::int64_t>(indices.rank())),
                 "ONNX: indices has the rank of data");
  int a = 0;
  if (Status s = normalize_axis(op, axis, r, a); !s) return s;
  if (Status s = check_elements_fit(op, data, indices, a); !s) return s;
  GatherElementsMapping m;
  m.dimension_count = r;
  m.input = crop(data, indices, a);
  m.indices = indices;
  m.output = indices;
  m.params = GatherElementsParams{static_cast<std::uint32_t>(a)};
  m.cropped = m.input != data;
  m.empty = has_zero(data) || has_zero(indices);
  return m;
}

inline Result<GatherNDMapping> map_gather_nd(const char* op, const Shape& data, const Shape& indices,
                                             std::int64_t batch_dims) noexcept {
  if (Status s = check_natural(op, kData, data, 1); !s) return s;
  if (Status s = check_natural(op, kIndices, indices, 1); !s) return s;
  const int r = data.rank(), q = indices.rank();
  const int limit = r < q ? r : q;
  if (batch_dims < 0 || batch_dims >= limit)
    return error(ErrorCode::invalid_attribute, op, "", "batch_dims", -1, ErrorValue::range(0, limit - 1),
                 ErrorValue::of(batch_dims), "ONNX: 0 <= batch_dims < min(rank(data), rank(indices))");
  const int b = static_cast<int>(batch_dims);
  const std::int64_t K = indices[q - 1];
  if (K < 1 || K > r - b)
    return error(ErrorCode::shape_mismatch, op, kIndices, "Sizes", q - 1, ErrorValue::range(1, r - b),
                 ErrorValue::of(K), "ONNX: the tuple length indices.shape[-1] is 1 .. rank(data) - batch_dims");
  for (int j = 0; j < b; ++j)
    if (indices[j] != data[j])
      return error(ErrorCode::shape_mismatch, op, kIndices, "Sizes", j, ErrorValue::of(data[j]),
                   ErrorValue::of(indices[j]), "ONNX: the batch dimensions of indices and data are equal");
  GatherNDMapping m;
  for (int j = 0; j < q - 1; ++j) m.onnx_output.push_back(indices[j]);
  for (int d = b + static_cast<int>(K); d < r; ++d) m.onnx_output.push_back(data[d]);
  int D = r > q ? r : q;
  if (m.onnx_output.rank() > D) D = m.onnx_output.rank();
  if (Status s = check_padded_rank(op, D); !s) return s;
  m.dimension_count = D;
  m.input = pad(data, D);
  m.indices = pad(indices, D);
  m.output = pad(m.onnx_output, D);
  m.params = GatherND1Params{static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(q),
                             static_cast<std::uint32_t>(b)};
  m.empty = has_zero(data) || has_zero(indices);
  return m;
}

inline Result<ScatterMapping> map_scatter(const char* op, const Shape& data, const Shape& indices,
                                          const Shape& updates, std::int64_t axis, Reduction reduction) noexcept {
  if (Status s = check_natural(op, kData, data, 1); !s) return s;
  if (Status s = check_natural(op, kIndices, indices); !s) return s;
  if (Status s = check_natural(op, kUpdates, updates); !s) return s;
  const int r = data.rank();
  if (indices.rank() != r)
    return error(ErrorCode::invalid_dimension_count, op, kIndices, "DimensionCount", -1,
                 ErrorValue::of(static_cast<std::int64_t>(r)), ErrorValue::of(static_cast<std::int64_t>(indices.rank())),
                 "ONNX: indices has the rank of data");
  if (Status s = check_reduction(op, reduction); !s) return s;
  int a = 0;
  if (Status s = normalize_axis(op, axis, r, a); !s) return s;
  if (Status s = check_elements_fit(op, data, indices, a); !s) return s;
  if (Status s = check_same(op, kUpdates, indices, updates, "ONNX: updates has the shape of indices"); !s) return s;
  ScatterMapping m;
  m.dimension_count = r;
  m.input = data;
  m.indices = indices;
  m.updates = updates;
  m.output = data;
  m.cropped = crop(data, indices, a);
  m.params.Axis = static_cast<std::uint32_t>(a);
  m.params.Reduction = reduction;
  m.is_cropped = m.cropped != data;
  m.empty = has_zero(data) || has_zero(indices);
  return m;
}

inline Result<ScatterNDMapping> map_scatter_nd(const char* op, const Shape& data, const Shape& indices,
                                               const Shape* updates, Reduction reduction) noexcept {
  if (Status s = check_natural(op, kData, data, 1); !s) return s;
  if (Status s = check_natural(op, kIndices, indices, 1); !s) return s;
  if (updates != nullptr)
    if (Status s = check_natural(op, kUpdates, *updates); !s) return s;
  if (Status s = check_reduction(op, reduction); !s) return s;
  const int r = data.rank(), q = indices.rank();
  const std::int64_t K = indices[q - 1];
  if (K < 1 || K > r)
    return error(ErrorCode::shape_mismatch, op, kIndices, "Sizes", q - 1, ErrorValue::range(1, r),
                 ErrorValue::of(K), "the tuple length indices.shape[-1] is 1 .. rank(data)");
  ScatterNDMapping m;
  for (int j = 0; j < q - 1; ++j) m.onnx_updates.push_back(indices[j]);
  for (int d = static_cast<int>(K); d < r; ++d) m.onnx_updates.push_back(data[d]);
  if (updates != nullptr)
    if (Status s = check_same(op, kUpdates, m.onnx_updates, *updates,
                              "ONNX: updates.shape == indices.shape[:-1] ++ data.shape[indices.shape[-1]:]");
        !s)
      return s;
  int D = r > q ? r : q;
  if (m.onnx_updates.rank() > D) D = m.onnx_updates.rank();
  if (Status s = check_padded_rank(op, D); !s) return s;
  m.dimension_count = D;
  m.input = pad(data, D);
  m.indices = pad(indices, D);
  m.updates = pad(m.onnx_updates, D);
  m.output = m.input;
  m.params.InputDimensionCount = static_cast<std::uint32_t>(r);
  m.params.IndicesDimensionCount = static_cast<std::uint32_t>(q);
  m.params.Reduction = reduction;
  m.empty = has_zero(data) || has_zero(m.onnx_updates);
  return m;
}

// ---- tensors ----

/// One ONNX tensor of the call, read from its descriptor (natural rank, strides made explicit).
struct Operand {
  const char* name = "";      ///< ONNX's name: "data", "indices", "updates", "output"
  const char* dml_name = "";  ///< the DirectML tensor it becomes: "InputTensor", ...
  DataType type = DataType::UNKNOWN;
  Shape sizes;
  Shape strides;              ///< elements; packed row-major when the descriptor has none
  std::uint64_t bytes = 0;
  unsigned char* data = nullptr;
  std::uint32_t alignment = 0;  ///< GuaranteedBaseOffsetAlignment

  int rank() const noexcept { return sizes.rank(); }
  bool empty() const noexcept { return has_zero(sizes); }
};

template <class Pointer>
Status read(const char* op, const char* name, const char* dml_name, const BasicTensorDesc<Pointer>& desc,
            Operand& out) noexcept {
  out.name = name;
  out.dml_name = dml_name;
  out.type = desc.DataType;
  out.bytes = desc.TotalTensorSizeInBytes;
  out.data = static_cast<unsigned char*>(const_cast<void*>(static_cast<const void*>(desc.Data)));
  out.alignment = desc.GuaranteedBaseOffsetAlignment;
  if (desc.DimensionCount > static_cast<std::uint32_t>(max_dimension_count))
    return error(ErrorCode::invalid_dimension_count, op, name, "DimensionCount", -1,
                 ErrorValue::range(0, max_dimension_count), ErrorValue::of_unsigned(desc.DimensionCount),
                 "DirectML allows at most 8 dimensions");
  if (desc.DimensionCount > 0 && desc.Sizes == nullptr)
    return error(ErrorCode::null_pointer, op, name, "Sizes", -1, ErrorValue::of_text("DimensionCount sizes"),
                 ErrorValue::of_text("null"));
  out.sizes = desc.DimensionCount > 0 ? Shape::from(desc.Sizes, desc.DimensionCount) : Shape();
  if (Status s = check_natural(op, name, out.sizes); !s) return s;
  if (desc.Strides != nullptr) {
    out.strides = Shape::from(desc.Strides, desc.DimensionCount);
    for (int d = 0; d < out.rank(); ++d)
      if (out.strides[d] < 0)
        return error(ErrorCode::invalid_stride, op, name, "Strides", d, ErrorValue::of_text("at least 0"),
                     ErrorValue::of(out.strides[d]));
  } else {
    out.strides = packed_strides(out.sizes);
  }
  return Status();
}

inline Status check_data_types(const char* op, const Operand& data, const Operand& indices,
                               const Operand* updates, const Operand& output) noexcept {
  if (!is_valid(data.type))
    return error(ErrorCode::unsupported_data_type, op, kData, "DataType", -1,
                 ErrorValue::of_text("one of the eleven DirectML data types"),
                 ErrorValue::of(static_cast<std::int64_t>(data.type)));
  if (!is_index_type(indices.type))
    return error(ErrorCode::unsupported_index_type, op, kIndices, "DataType", -1,
                 ErrorValue::of_text("INT32 or INT64 (ONNX); UINT32 or UINT64 (DirectML)"),
                 is_valid(indices.type) ? ErrorValue::of(indices.type)
                                        : ErrorValue::of(static_cast<std::int64_t>(indices.type)));
  const Operand* same[] = {updates, &output};
  for (const Operand* t : same)
    if (t != nullptr && t->type != data.type)
      return error(ErrorCode::data_type_mismatch, op, t->name, "DataType", -1, ErrorValue::of(data.type),
                   ErrorValue::of(t->type), "updates and output have the type of data");
  return Status();
}

/// A tensor padded to D dimensions (leading sizes 1, stride 0), optionally with smaller sizes
/// (a crop at the origin, same strides), as a dispatch-layer descriptor.
struct Padded {
  std::int64_t sizes[max_dimension_count] = {};
  std::int64_t strides[max_dimension_count] = {};
  std::uint32_t rank = 0;
  const Operand* source = nullptr;

  Padded(const Operand& t, int D, const Shape* cropped_sizes = nullptr) noexcept
      : rank(static_cast<std::uint32_t>(D)), source(&t) {
    const int shift = D - t.rank();
    for (int d = 0; d < D; ++d) {
      const bool natural = d >= shift;
      sizes[d] = natural ? (cropped_sizes != nullptr ? (*cropped_sizes)[d - shift] : t.sizes[d - shift]) : 1;
      strides[d] = natural ? t.strides[d - shift] : 0;
    }
  }
  TensorDesc input() const noexcept {
    return TensorDesc{source->type, rank, sizes, strides, source->bytes, source->data, source->alignment};
  }
  MutableTensorDesc output() const noexcept {
    return MutableTensorDesc{source->type, rank, sizes, strides, source->bytes, source->data, source->alignment};
  }
  /// The dispatch layer's own reading of the descriptor, to run its layout checks.
  Status raw(const char* op, RawTensor& out) const noexcept {
    return dmlref::detail::from_desc(op, source->dml_name, input(), out);
  }
};

/// Natural ranks of the call's tensors, to translate errors of the DirectML call into ONNX terms.
struct Naming {
  const char* op = "";
  int D = 0;
  int input = 0, indices = 0, updates = 0, output = 0;

  const char* onnx_name(const char* dml) const noexcept {
    if (dml == nullptr) return "";
    if (std::strcmp(dml, "InputTensor") == 0) return kData;
    if (std::strcmp(dml, "IndicesTensor") == 0) return kIndices;
    if (std::strcmp(dml, "UpdatesTensor") == 0) return kUpdates;
    if (std::strcmp(dml, "OutputTensor") == 0) return kOutput;
    return dml;
  }
  /// Leading padding dimensions of the tensor with this DirectML name (-1: not a tensor).
  int padding(const char* dml) const noexcept {
    if (dml == nullptr) return -1;
    if (std::strcmp(dml, "InputTensor") == 0) return D - input;
    if (std::strcmp(dml, "IndicesTensor") == 0) return D - indices;
    if (std::strcmp(dml, "UpdatesTensor") == 0) return D - updates;
    if (std::strcmp(dml, "OutputTensor") == 0) return D - output;
    return -1;
  }
  static Shape drop(const Shape& s, int count) noexcept {
    if (count <= 0 || s.rank() < count) return s;
    Shape out;
    // Up to the values stored: a Shape's rank may count past the 8 it holds.
    for (int d = count; d < static_cast<int>(s.size()); ++d) out.push_back(s[d]);
    return out;
  }

  /// The error of a DirectML call, renamed: ONNX op and tensor names, natural dimensions.
  Status translate(const Status& status) const noexcept {
    if (status.ok()) return Status();
    Error e = status.error();
    if (e.code == ErrorCode::ok) return Status();
    const int tensor_padding = padding(e.tensor);
    const int target_padding = padding(e.target_tensor);
    e.op = op;
    if (tensor_padding >= 0 && e.field_index >= 0) {
      e.field_index -= tensor_padding;
      if (e.field_index < 0) e.field_index = -1;
    }
    if (e.code == ErrorCode::index_out_of_range) e.position = drop(e.position, tensor_padding);
    if (e.code == ErrorCode::scatter_collision) e.position = drop(e.position, D - updates);
    if (target_padding >= 0) {
      if (e.target_dimension >= 0) e.target_dimension -= target_padding;
      e.target_position = drop(e.target_position, target_padding);
    }
    e.tensor = onnx_name(e.tensor);
    e.target_tensor = onnx_name(e.target_tensor);
    return Status(e);
  }
};

/// The dispatch layer's layout checks for a non-empty tensor (padded to D), and what they derive.
inline Status check_layout(const char* op, const Naming& naming, const Padded& t, bool is_output, RawTensor& raw,
                           dmlref::detail::Layout& layout) noexcept {
  if (Status s = t.raw(op, raw); !s) return naming.translate(s);
  return naming.translate(dmlref::detail::check_layout(op, raw, static_cast<int>(t.rank), is_output, layout));
}

/// The strided walk over a natural-rank tensor (rank 0: one element) with N offsets.
template <int N>
struct Walk {
  dmlref::detail::Dim<N> dims[max_dimension_count];
  int rank = 0;
  explicit Walk(const Shape& sizes) noexcept : rank(sizes.rank()) {
    for (int d = 0; d < rank; ++d) dims[d].size = sizes[d];
  }
  void strides(int k, const Shape& strides) noexcept {
    for (int d = 0; d < rank; ++d) dims[d].stride[k] = strides[d];
  }
};

/// Checks every index value of a non-empty indices tensor (layout already checked), for the calls
/// that need no DirectML operator. Value at coordinate c addresses data dimension
/// `first + (tuple ? c[last] : 0)`.
template <class I>
Status check_values_typed(const char* op, const Operand& indices, const Operand& data, int first, bool tuple,
                          IndexPolicy policy) noexcept {
  Walk<1> walk(indices.sizes);
  walk.strides(0, indices.strides);
  dmlref::detail::Odometer<1> at(walk.dims, walk.rank);
  do {
    const int dim = first + (tuple ? static_cast<int>(at.coord[at.rank - 1]) : 0);
    const std::int64_t n = data.sizes[dim];
    const I v = dmlref::detail::load_index<I>(indices.data, at.offset[0]);
    const bool good = policy == IndexPolicy::clamp ? n > 0 : dmlref::detail::index_in_range(v, n);
    if (good) continue;
    Error e;
    e.code = ErrorCode::index_out_of_range;
    e.op = op;
    e.tensor = kIndices;
    e.field = "value";
    e.actual = std::is_signed_v<I> ? ErrorValue::of(static_cast<std::int64_t>(v))
                                   : ErrorValue::of_unsigned(static_cast<std::uint64_t>(v));
    e.expected = n == 0 ? ErrorValue::of_text("none, the dimension is empty")
                        : (std::is_signed_v<I> ? ErrorValue::range(-n, n - 1) : ErrorValue::range(0, n - 1));
    e.position = Shape::from(at.coord, static_cast<std::size_t>(at.rank));
    e.target_tensor = kData;
    e.target_dimension = dim;
    e.target_size = n;
    return Status(e);
  } while (at.next());
  return Status();
}

inline Status check_values(const char* op, const Naming& naming, const Operand& indices, int D,
                           const Operand& data, int first, bool tuple, IndexPolicy policy) noexcept {
  if (indices.empty()) return Status();
  RawTensor raw;
  dmlref::detail::Layout layout{};
  if (Status s = check_layout(op, naming, Padded(indices, D), false, raw, layout); !s) return s;
  // The index type was checked first.
  return dmlref::detail::visit_index_type(indices.type, [&](auto index) {
    return check_values_typed<decltype(index)>(op, indices, data, first, tuple, policy);
  });
}

inline bool same_layout(const Operand& a, const Operand& b) noexcept {
  return a.data == b.data && a.sizes == b.sizes && a.strides == b.strides;
}

/// Copies the elements of `from` to `to` (same sizes, non-empty, validated), except those inside
/// `skip` (a crop at the origin) when given.
inline void copy_elements(const Operand& from, const Operand& to, const Shape* skip) noexcept {
  const auto w = static_cast<std::int64_t>(element_size(from.type));
  Walk<2> walk(to.sizes);
  walk.strides(0, from.strides);
  walk.strides(1, to.strides);
  dmlref::detail::Odometer<2> at(walk.dims, walk.rank);
  do {
    bool inside = skip != nullptr;
    for (int d = 0; inside && d < to.rank(); ++d) inside = at.coord[d] < (*skip)[d];
    if (!inside) std::memcpy(to.data + at.offset[1] * w, from.data + at.offset[0] * w, static_cast<std::size_t>(w));
  } while (at.next());
}

/// Validates data and output (non-empty, padded to D) as the dispatch layer would for a scatter,
/// plus output against the other inputs when they are given and non-empty.
inline Status check_copy(const char* op, const Naming& naming, const Operand& data, const Operand& output,
                         int D, const Operand* indices, const Operand* updates) noexcept {
  RawTensor in, out;
  dmlref::detail::Layout in_layout{}, out_layout{};
  if (Status s = check_layout(op, naming, Padded(data, D), false, in, in_layout); !s) return s;
  if (Status s = check_layout(op, naming, Padded(output, D), true, out, out_layout); !s) return s;
  if (!same_layout(data, output))
    if (Status s = naming.translate(dmlref::detail::check_no_overlap(op, out, out_layout, in, in_layout)); !s)
      return s;
  const Operand* others[] = {indices, updates};
  for (const Operand* t : others) {
    if (t == nullptr || t->empty()) continue;
    RawTensor other;
    dmlref::detail::Layout other_layout{};
    if (Status s = check_layout(op, naming, Padded(*t, D), false, other, other_layout); !s) return s;
    if (Status s = naming.translate(dmlref::detail::check_no_overlap(op, out, out_layout, other, other_layout)); !s)
      return s;
  }
  return Status();
}

// ---- the operators ----
//
// Each operator reads and checks its tensors up to its DirectML call in prepare_<op>, which
// explain.hpp's explanations share; then it makes the call, or ONNX's no-op for empty tensors.

/// One ONNX call's tensors, read and checked, and its DirectML mapping.
template <class Mapping>
struct Call {
  Operand data, indices, updates, output;
  Mapping m;
  Naming naming;
};

/// Reads the call's tensors (UpdatesTensor only for a scatter) and checks their data types.
template <class Mapping>
Status read_operands(const char* op, const TensorDesc& data, const TensorDesc& indices, const TensorDesc* updates,
                     const MutableTensorDesc& output, Call<Mapping>& c) noexcept {
  if (Status s = read(op, kData, "InputTensor", data, c.data); !s) return s;
  if (Status s = read(op, kIndices, "IndicesTensor", indices, c.indices); !s) return s;
  if (updates != nullptr)
    if (Status s = read(op, kUpdates, "UpdatesTensor", *updates, c.updates); !s) return s;
  if (Status s = read(op, kOutput, "OutputTensor", output, c.output); !s) return s;
  return check_data_types(op, c.data, c.indices, updates != nullptr ? &c.updates : nullptr, c.output);
}

/// Keeps the call's mapping once output has the ONNX shape `expected(c)` (`rule` says which), and
/// names the call's tensors in their natural ranks.
template <class Mapping, class Expected>
Status take_mapping(const char* op, const Result<Mapping>& mapped, Call<Mapping>& c, Expected expected,
                    const char* rule) noexcept {
  if (!mapped) return mapped.status();
  c.m = *mapped;
  if (Status s = check_same(op, kOutput, expected(c), c.output.sizes, rule); !s) return s;
  c.naming = Naming{op, c.m.dimension_count, c.data.rank(), c.indices.rank(), c.updates.rank(), c.output.rank()};
  return Status();
}

/// ONNX's output shapes, as take_mapping's `expected`.
inline constexpr auto mapped_output = [](const auto& c) -> const Shape& { return c.m.onnx_output; };
inline constexpr auto data_shape = [](const auto& c) -> const Shape& { return c.data.sizes; };
inline constexpr auto indices_shape = [](const auto& c) -> const Shape& { return c.indices.sizes; };

/// The DirectML rules of Options that a helper applies itself, since an empty tensor makes no
/// DirectML call to apply them: valid option values, and under a level no `reduction`.
inline Status check_directml_options(const char* op, const Options& options,
                                     Reduction reduction = Reduction::none) noexcept {
  if (Status s = dmlref::detail::check_options(op, options); !s) return s;
  if (options.feature_level != 0 && reduction != Reduction::none)
    return dmlref::detail::reduction_unavailable(op, "reduction", reduction, options.feature_level);
  return Status();
}

inline Status prepare_gather(const TensorDesc& data_desc, const TensorDesc& indices_desc,
                             const MutableTensorDesc& output_desc, std::int64_t axis,
                             Call<GatherMapping>& c) noexcept {
  constexpr const char* op = "Gather";
  if (Status s = read_operands(op, data_desc, indices_desc, nullptr, output_desc, c); !s) return s;
  return take_mapping(op, map_gather(op, c.data.sizes, c.indices.sizes, axis), c, mapped_output,
                      "ONNX: data.shape[:axis] ++ indices.shape ++ data.shape[axis+1:]");
}

/// An empty tensor makes Gather a no-op whose index values are still checked.
inline bool is_noop(const Call<GatherMapping>& c) noexcept { return c.m.empty || c.output.empty(); }
inline Status check_noop(const Call<GatherMapping>& c, const Options& options) noexcept {
  const int D = c.m.dimension_count;
  const int a = static_cast<int>(c.m.params.Axis) - (D - c.data.rank());
  return check_values(c.naming.op, c.naming, c.indices, D, c.data, a, false, options.index_policy);
}

inline Status gather(const TensorDesc& data_desc, const TensorDesc& indices_desc, const MutableTensorDesc& output_desc,
                     std::int64_t axis, const Options& options) noexcept {
  Call<GatherMapping> c;
  if (Status s = prepare_gather(data_desc, indices_desc, output_desc, axis, c); !s) return s;
  if (Status s = check_directml_options(c.naming.op, options); !s) return s;
  if (is_noop(c)) return check_noop(c, options);
  const int D = c.m.dimension_count;
  const Padded in(c.data, D), idx(c.indices, D), out(c.output, D);
  return c.naming.translate(dmlref::try_gather(in.input(), idx.input(), out.output(), c.m.params, options));
}

inline Status prepare_gather_elements(const TensorDesc& data_desc, const TensorDesc& indices_desc,
                                      const MutableTensorDesc& output_desc, std::int64_t axis,
                                      Call<GatherElementsMapping>& c) noexcept {
  constexpr const char* op = "GatherElements";
  if (Status s = read_operands(op, data_desc, indices_desc, nullptr, output_desc, c); !s) return s;
  return take_mapping(op, map_gather_elements(op, c.data.sizes, c.indices.sizes, axis), c, indices_shape,
                      "ONNX: output has the shape of indices");
}

inline bool is_noop(const Call<GatherElementsMapping>& c) noexcept { return c.m.empty; }
inline Status check_noop(const Call<GatherElementsMapping>& c, const Options& options) noexcept {
  return check_values(c.naming.op, c.naming, c.indices, c.m.dimension_count, c.data, static_cast<int>(c.m.params.Axis),
                      false, options.index_policy);
}

inline Status gather_elements(const TensorDesc& data_desc, const TensorDesc& indices_desc,
                              const MutableTensorDesc& output_desc, std::int64_t axis,
                              const Options& options) noexcept {
  Call<GatherElementsMapping> c;
  if (Status s = prepare_gather_elements(data_desc, indices_desc, output_desc, axis, c); !s) return s;
  if (Status s = check_directml_options(c.naming.op, options); !s) return s;
  if (is_noop(c)) return check_noop(c, options);
  const int D = c.m.dimension_count;
  const Padded in(c.data, D, &c.m.input), idx(c.indices, D), out(c.output, D);
  return c.naming.translate(dmlref::try_gather_elements(in.input(), idx.input(), out.output(), c.m.params, options));
}

inline Status prepare_gather_nd(const TensorDesc& data_desc, const TensorDesc& indices_desc,
                                const MutableTensorDesc& output_desc, std::int64_t batch_dims,
                                Call<GatherNDMapping>& c) noexcept {
  constexpr const char* op = "GatherND";
  if (Status s = read_operands(op, data_desc, indices_desc, nullptr, output_desc, c); !s) return s;
  return take_mapping(op, map_gather_nd(op, c.data.sizes, c.indices.sizes, batch_dims), c, mapped_output,
                      "ONNX: indices.shape[:-1] ++ data.shape[batch_dims + indices.shape[-1]:]");
}

inline bool is_noop(const Call<GatherNDMapping>& c) noexcept { return c.m.empty || c.output.empty(); }
inline Status check_noop(const Call<GatherNDMapping>& c, const Options& options) noexcept {
  return check_values(c.naming.op, c.naming, c.indices, c.m.dimension_count, c.data,
                      static_cast<int>(c.m.params.BatchDimensionCount), true, options.index_policy);
}

inline Status gather_nd(const TensorDesc& data_desc, const TensorDesc& indices_desc, const MutableTensorDesc& output_desc,
                        std::int64_t batch_dims, const Options& options) noexcept {
  Call<GatherNDMapping> c;
  if (Status s = prepare_gather_nd(data_desc, indices_desc, output_desc, batch_dims, c); !s) return s;
  if (Status s = check_directml_options(c.naming.op, options); !s) return s;
  if (is_noop(c)) return check_noop(c, options);
  const int D = c.m.dimension_count;
  const Padded in(c.data, D), idx(c.indices, D), out(c.output, D);
  if (c.m.params.BatchDimensionCount == 0)
    return c.naming.translate(dmlref::try_gather_nd(
        in.input(), idx.input(), out.output(),
        GatherNDParams{c.m.params.InputDimensionCount, c.m.params.IndicesDimensionCount}, options));
  return c.naming.translate(dmlref::try_gather_nd1(in.input(), idx.input(), out.output(), c.m.params, options));
}

inline Status prepare_scatter_elements(const char* op, const TensorDesc& data_desc, const TensorDesc& indices_desc,
                                       const TensorDesc& updates_desc, const MutableTensorDesc& output_desc,
                                       std::int64_t axis, Reduction reduction, Call<ScatterMapping>& c) noexcept {
  if (Status s = read_operands(op, data_desc, indices_desc, &updates_desc, output_desc, c); !s) return s;
  return take_mapping(op, map_scatter(op, c.data.sizes, c.indices.sizes, c.updates.sizes, axis, reduction), c,
                      data_shape, "ONNX: output has the shape of data");
}

/// Indices empty: output = data. Data empty with indices that are not: the axis is empty, so
/// every index value is out of range.
inline bool is_noop(const Call<ScatterMapping>& c) noexcept { return c.m.empty; }
inline Status check_noop(const Call<ScatterMapping>& c, const Options& options) noexcept {
  const int D = c.m.dimension_count;
  if (Status s = check_values(c.naming.op, c.naming, c.indices, D, c.data, static_cast<int>(c.m.params.Axis), false,
                              options.index_policy);
      !s)
    return s;
  if (c.data.empty()) return Status();
  return check_copy(c.naming.op, c.naming, c.data, c.output, D, nullptr, nullptr);
}

/// A scatter that makes no DirectML call: its checks, then output = data.
template <class Mapping>
Status scatter_noop(const Call<Mapping>& c, const Options& options) noexcept {
  if (Status s = check_noop(c, options); !s) return s;
  if (!c.data.empty() && !same_layout(c.data, c.output)) copy_elements(c.data, c.output, nullptr);
  return Status();
}

inline Status scatter_elements(const char* op, const TensorDesc& data_desc, const TensorDesc& indices_desc,
                               const TensorDesc& updates_desc, const MutableTensorDesc& output_desc,
                               std::int64_t axis, Reduction reduction, const Options& options) noexcept {
  Call<ScatterMapping> c;
  if (Status s = prepare_scatter_elements(op, data_desc, indices_desc, updates_desc, output_desc, axis, reduction, c);
      !s)
    return s;
  if (Status s = check_directml_options(op, options, reduction); !s) return s;
  const ScatterMapping& m = c.m;
  const int D = m.dimension_count;
  if (is_noop(c)) return scatter_noop(c, options);
  const Padded idx(c.indices, D), upd(c.updates, D);
  if (!m.is_cropped) {
    const Padded in(c.data, D), out(c.output, D);
    return c.naming.translate(
        dmlref::try_scatter(in.input(), idx.input(), upd.input(), out.output(), m.params, options));
  }
  // Indices smaller than data off the axis: the DirectML call scatters into output cropped to the
  // indices (reading data cropped alike, or in place), then the rest of data is copied. Everything
  // the call does not check about the full tensors is checked first, so a failure writes nothing.
  const bool in_place = same_layout(c.data, c.output);
  if (Status s = check_copy(op, c.naming, c.data, c.output, D, &c.indices, &c.updates); !s) return s;
  const Padded in(in_place ? c.output : c.data, D, &m.cropped), out(c.output, D, &m.cropped);
  if (Status s = c.naming.translate(
          dmlref::try_scatter(in.input(), idx.input(), upd.input(), out.output(), m.params, options));
      !s)
    return s;
  if (!in_place) copy_elements(c.data, c.output, &m.cropped);
  return Status();
}

inline Status prepare_scatter_nd(const TensorDesc& data_desc, const TensorDesc& indices_desc,
                                 const TensorDesc& updates_desc, const MutableTensorDesc& output_desc,
                                 Reduction reduction, Call<ScatterNDMapping>& c) noexcept {
  constexpr const char* op = "ScatterND";
  if (Status s = read_operands(op, data_desc, indices_desc, &updates_desc, output_desc, c); !s) return s;
  return take_mapping(op, map_scatter_nd(op, c.data.sizes, c.indices.sizes, &c.updates.sizes, reduction), c,
                      data_shape, "ONNX: output has the shape of data");
}

/// No update element: output = data, after checking the tuples (if any) against data.
inline bool is_noop(const Call<ScatterNDMapping>& c) noexcept { return c.m.empty; }
inline Status check_noop(const Call<ScatterNDMapping>& c, const Options& options) noexcept {
  const int D = c.m.dimension_count;
  if (Status s = check_values(c.naming.op, c.naming, c.indices, D, c.data, 0, true, options.index_policy); !s)
    return s;
  if (c.data.empty()) return Status();
  return check_copy(c.naming.op, c.naming, c.data, c.output, D, nullptr, nullptr);
}

inline Status scatter_nd(const TensorDesc& data_desc, const TensorDesc& indices_desc, const TensorDesc& updates_desc,
                         const MutableTensorDesc& output_desc, Reduction reduction, const Options& options) noexcept {
  Call<ScatterNDMapping> c;
  if (Status s = prepare_scatter_nd(data_desc, indices_desc, updates_desc, output_desc, reduction, c); !s) return s;
  if (Status s = check_directml_options(c.naming.op, options, reduction); !s) return s;
  if (is_noop(c)) return scatter_noop(c, options);
  const int D = c.m.dimension_count;
  const Padded in(c.data, D), idx(c.indices, D), upd(c.updates, D), out(c.output, D);
  return c.naming.translate(
      dmlref::try_scatter_nd(in.input(), idx.input(), upd.input(), out.output(), c.m.params, options));
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// Mappings and output shapes (sizes in natural ranks; rank 0 = Shape{}).

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
