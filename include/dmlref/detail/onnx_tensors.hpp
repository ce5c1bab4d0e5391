#ifndef DMLREF_DETAIL_ONNX_TENSORS_HPP
#define DMLREF_DETAIL_ONNX_TENSORS_HPP

// The tensors of an ONNX call (onnx.hpp): read from their descriptors in natural ranks, padded
// for the DirectML call, its errors renamed into ONNX's terms, and the checks and copies of the
// calls that make no DirectML call (empty tensors, a scatter's uncropped rest).

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../data_type.hpp"
#include "../options.hpp"
#include "../runtime/tensor_desc.hpp"
#include "../shape.hpp"
#include "../status.hpp"
#include "indices.hpp"
#include "onnx_mapping.hpp"
#include "strided.hpp"
#include "tensor.hpp"

namespace dmlref::onnx::detail {

using dmlref::detail::RawTensor;

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
  /// The dispatch layer's own reading of the descriptor, to run its layout checks (`out` refers
  /// to `shapes`).
  Status raw(const char* op, RawTensor& out, dmlref::detail::DescShapes& shapes) const noexcept {
    return dmlref::detail::from_desc(op, source->dml_name, input(), out, shapes);
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

/// A tensor read as the dispatch layer reads it: its RawTensor, which refers to `shapes` (so it is
/// neither copied nor moved), and the Layout its checks derive.
struct Checked {
  dmlref::detail::DescShapes shapes;
  RawTensor raw;
  dmlref::detail::Layout layout{};

  Checked() = default;
  Checked(const Checked&) = delete;
  Checked& operator=(const Checked&) = delete;
};

/// The dispatch layer's layout checks for a non-empty tensor (padded to D), into `out`.
inline Status check_layout(const char* op, const Naming& naming, const Padded& t, bool is_output,
                           Checked& out) noexcept {
  if (Status s = t.raw(op, out.raw, out.shapes); !s) return naming.translate(s);
  return naming.translate(dmlref::detail::check_layout(op, out.raw, static_cast<int>(t.rank), is_output, out.layout));
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
  Checked checked;
  if (Status s = check_layout(op, naming, Padded(indices, D), false, checked); !s) return s;
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
  Checked in, out;
  if (Status s = check_layout(op, naming, Padded(data, D), false, in); !s) return s;
  if (Status s = check_layout(op, naming, Padded(output, D), true, out); !s) return s;
  if (!same_layout(data, output))
    if (Status s = naming.translate(dmlref::detail::check_no_overlap(op, out.raw, out.layout, in.raw, in.layout)); !s)
      return s;
  const Operand* others[] = {indices, updates};
  for (const Operand* t : others) {
    if (t == nullptr || t->empty()) continue;
    Checked other;
    if (Status s = check_layout(op, naming, Padded(*t, D), false, other); !s) return s;
    if (Status s = naming.translate(dmlref::detail::check_no_overlap(op, out.raw, out.layout, other.raw, other.layout));
        !s)
      return s;
  }
  return Status();
}

}  // namespace dmlref::onnx::detail

#endif  // DMLREF_DETAIL_ONNX_TENSORS_HPP
