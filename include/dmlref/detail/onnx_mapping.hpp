#ifndef DMLREF_DETAIL_ONNX_MAPPING_HPP
#define DMLREF_DETAIL_ONNX_MAPPING_HPP

// The DirectML call of each ONNX operator, from sizes alone (onnx.hpp): ONNX's shape rules in
// natural ranks, then every tensor padded to one DimensionCount and the attributes moved with it.
// docs/onnx.md has the mapping table.

#include <cstdint>

#include "../ops/gather.hpp"
#include "../ops/gather_elements.hpp"
#include "../ops/gather_nd.hpp"
#include "../ops/scatter.hpp"
#include "../ops/scatter_nd.hpp"
#include "../reduction.hpp"
#include "../shape.hpp"
#include "../status.hpp"
#include "tensor.hpp"

namespace dmlref::onnx {

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

/// indices.shape[:-1] ++ data.shape[from:]: GatherND's output and ScatterND's updates.
inline Shape nd_shape(const Shape& indices, const Shape& data, int from) noexcept {
  Shape out;
  for (int j = 0; j + 1 < indices.rank(); ++j) out.push_back(indices[j]);
  for (int d = from; d < data.rank(); ++d) out.push_back(data[d]);
  return out;
}

/// The ND operators' one DimensionCount: the largest natural rank of data, indices and `third`.
inline int nd_dimension_count(const Shape& data, const Shape& indices, const Shape& third) noexcept {
  int D = data.rank() > indices.rank() ? data.rank() : indices.rank();
  return third.rank() > D ? third.rank() : D;
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
  m.onnx_output = nd_shape(indices, data, b + static_cast<int>(K));
  const int D = nd_dimension_count(data, indices, m.onnx_output);
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
  m.onnx_updates = nd_shape(indices, data, static_cast<int>(K));
  if (updates != nullptr)
    if (Status s = check_same(op, kUpdates, m.onnx_updates, *updates,
                              "ONNX: updates.shape == indices.shape[:-1] ++ data.shape[indices.shape[-1]:]");
        !s)
      return s;
  const int D = nd_dimension_count(data, indices, m.onnx_updates);
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

}  // namespace detail
}  // namespace dmlref::onnx

#endif  // DMLREF_DETAIL_ONNX_MAPPING_HPP
