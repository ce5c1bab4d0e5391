#ifndef DMLREF_DETAIL_TENSOR_HPP
#define DMLREF_DETAIL_TENSOR_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "../data_type.hpp"
#include "../shape.hpp"
#include "../status.hpp"
#include "../tensor_view.hpp"

namespace dmlref::detail {

/// A Shape kept elsewhere, read in place: a RawTensor refers to its view's or its caller's sizes
/// and strides instead of copying them, so that a call copies no Shape. It binds to lvalues only,
/// as a temporary would be gone before the call reads it.
class ShapeRef {
 public:
  ShapeRef() noexcept : shape_(&empty_) {}
  ShapeRef(const Shape& shape) noexcept : shape_(&shape) {}  // NOLINT: implicit by design
  ShapeRef(const Shape&&) = delete;

  operator const Shape&() const noexcept { return *shape_; }  // NOLINT: implicit by design
  const Shape& get() const noexcept { return *shape_; }
  int rank() const noexcept { return shape_->rank(); }
  std::int64_t operator[](int d) const noexcept { return (*shape_)[d]; }

  friend bool operator==(const ShapeRef& a, const ShapeRef& b) noexcept { return *a.shape_ == *b.shape_; }
  friend bool operator==(const ShapeRef& a, const Shape& b) noexcept { return *a.shape_ == b; }
  friend bool operator==(const Shape& a, const ShapeRef& b) noexcept { return a == *b.shape_; }
  friend bool operator!=(const ShapeRef& a, const ShapeRef& b) noexcept { return !(a == b); }
  friend bool operator!=(const ShapeRef& a, const Shape& b) noexcept { return !(a == b); }
  friend bool operator!=(const Shape& a, const ShapeRef& b) noexcept { return !(a == b); }

 private:
  static constexpr Shape empty_{};
  const Shape* shape_;
};

/// A tensor with its element type erased: what both API layers hand to an operator. Its sizes and
/// strides are the caller's: they must outlive it.
struct RawTensor {
  const char* name = "";  ///< DirectML's field name, e.g. "IndicesTensor"
  DataType type = DataType::UNKNOWN;
  unsigned char* data = nullptr;  ///< written only through an operator's output
  ShapeRef sizes;
  ShapeRef strides;  ///< in elements
  std::int64_t buffer_bytes = -1;  ///< the dispatch layer's TotalTensorSizeInBytes; -1: trusted view
  std::uint32_t alignment = 0;     ///< the dispatch layer's GuaranteedBaseOffsetAlignment (0: none)
};

/// What check_layout derives from a tensor it accepts.
struct Layout {
  std::int64_t extent;    ///< bytes from the first element through the last addressed one
  std::int64_t elements;  ///< the element count
  bool packed;            ///< row-major strides (size-1 dimensions' strides aside)
};

template <class T>
RawTensor raw(const char* name, const TensorView<T>& view) noexcept {
  // Inputs are never written: the const_cast only lets one struct describe inputs and outputs.
  using Mutable = std::remove_const_t<T>;
  return {name, data_type_v<Mutable>,
          reinterpret_cast<unsigned char*>(const_cast<Mutable*>(view.data())), view.sizes(),
          view.strides()};
}

inline Error make_error(ErrorCode code, const char* op, const char* tensor, const char* field,
                        int field_index, const ErrorValue& expected, const ErrorValue& actual,
                        const char* rule = "") noexcept {
  Error e;
  e.code = code;
  e.op = op;
  e.tensor = tensor;
  e.field = field;
  e.field_index = field_index;
  e.expected = expected;
  e.actual = actual;
  e.rule = rule;
  return e;
}

/// The failed Status of make_error's record. Out of line: a call site only passes its values.
DMLREF_COLD inline Status error_status(ErrorCode code, const char* op, const char* tensor, const char* field,
                                           int field_index, const ErrorValue& expected, const ErrorValue& actual,
                                           const char* rule = "") noexcept {
  return Status(make_error(code, op, tensor, field, field_index, expected, actual, rule));
}

/// a + b and a * b for non-negative values, false on overflow of int64 (`out` then unchanged).
/// They run for every dimension of every tensor of a call: the compilers' overflow builtins make
/// each an add or a multiply and a branch on the overflow flag.
inline bool add_ok(std::int64_t a, std::int64_t b, std::int64_t& out) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  std::int64_t sum;
  if (__builtin_add_overflow(a, b, &sum)) return false;
  out = sum;
  return true;
#else
  if (a > std::numeric_limits<std::int64_t>::max() - b) return false;
  out = a + b;
  return true;
#endif
}
inline bool mul_ok(std::int64_t a, std::int64_t b, std::int64_t& out) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  std::int64_t product;
  if (__builtin_mul_overflow(a, b, &product)) return false;
  out = product;
  return true;
#else
  // Operands below 2^31 cannot overflow: skip the division.
  if (DMLREF_UNLIKELY((a | b) >= (std::int64_t{1} << 31)) && a != 0 &&
      b > std::numeric_limits<std::int64_t>::max() / a)
    return false;
  out = a * b;
  return true;
#endif
}

/// Offset (in elements) of the last addressed element: Σ (size - 1) · stride.
/// Precondition: sizes >= 1 and strides >= 0. False on overflow.
inline bool last_offset(const RawTensor& t, std::int64_t& out) noexcept {
  std::int64_t total = 0;
  for (int d = 0; d < t.sizes.rank(); ++d) {
    std::int64_t term = 0;
    if (!mul_ok(t.sizes[d] - 1, t.strides[d], term) || !add_ok(total, term, total)) return false;
  }
  out = total;
  return true;
}

/// Bytes from the tensor's first element through its last addressed one.
inline bool byte_extent(const RawTensor& t, std::int64_t& out) noexcept {
  std::int64_t last = 0;
  return last_offset(t, last) && add_ok(last, 1, last) &&
         mul_ok(last, static_cast<std::int64_t>(element_size(t.type)), out);
}

/// True when no two coordinates of the (validated) tensor address the same element: sorted by
/// stride, every stride must exceed the extent spanned by the smaller ones (docs/semantics.md,
/// "Rules shared by all operators").
inline bool elements_are_distinct(const RawTensor& t) noexcept {
  if (t.strides == packed_strides(t.sizes)) return true;  // the common case, without sorting
  std::int64_t sizes[max_dimension_count], strides[max_dimension_count];
  int n = 0;
  for (int d = 0; d < t.sizes.rank(); ++d) {
    if (t.sizes[d] == 1) continue;
    sizes[n] = t.sizes[d];
    strides[n] = t.strides[d];
    ++n;
  }
  for (int i = 1; i < n; ++i)  // insertion sort by stride: at most 8 entries
    for (int j = i; j > 0 && strides[j] < strides[j - 1]; --j) {
      std::swap(strides[j], strides[j - 1]);
      std::swap(sizes[j], sizes[j - 1]);
    }
  std::int64_t spanned = 0;  // offset of the last element addressed by the smaller strides
  for (int i = 0; i < n; ++i) {
    if (strides[i] <= spanned) return false;
    spanned += (sizes[i] - 1) * strides[i];  // cannot overflow: last_offset() succeeded
  }
  return true;
}

/// Finds, in a fixed order, the first layout rule `t` breaks (see check_layout).
DMLREF_COLD inline Status layout_error(const char* op, const RawTensor& t, int rank, bool is_output) noexcept {
  const int count = t.sizes.rank();
  if (count < 1 || count > max_dimension_count)
    return error_status(ErrorCode::invalid_dimension_count, op, t.name, "DimensionCount", -1,
                             ErrorValue::range(1, max_dimension_count), ErrorValue::of(count));
  if (count != rank)
    return error_status(ErrorCode::invalid_dimension_count, op, t.name, "DimensionCount", -1,
                             ErrorValue::of(rank), ErrorValue::of(count),
                             "all tensors of an operator share InputTensor's DimensionCount");
  if (t.strides.rank() != count)
    return error_status(ErrorCode::invalid_stride, op, t.name, "Strides", -1,
                             ErrorValue::of(count), ErrorValue::of(t.strides.rank()),
                             "one stride per dimension");
  // Sizes before strides: strides left out of a descriptor are derived from the sizes, and are
  // only meaningful once the sizes are.
  std::int64_t elements = 1;
  for (int d = 0; d < count; ++d) {
    if (t.sizes[d] < 1)
      return error_status(ErrorCode::invalid_size, op, t.name, "Sizes", d,
                               ErrorValue::of_text("at least 1"), ErrorValue::of(t.sizes[d]),
                               "DirectML has no empty tensors");
  }
  for (int d = 0; d < count; ++d) {
    if (!mul_ok(elements, t.sizes[d], elements))
      return error_status(ErrorCode::overflow, op, t.name, "Sizes", -1,
                               ErrorValue::of_text("an element count below 2^63"),
                               ErrorValue::of(t.sizes));
  }
  for (int d = 0; d < count; ++d) {
    if (t.strides[d] < 0)
      return error_status(ErrorCode::invalid_stride, op, t.name, "Strides", d,
                               ErrorValue::of_text("at least 0"), ErrorValue::of(t.strides[d]));
  }
  std::int64_t extent = 0;
  if (!byte_extent(t, extent))
    return error_status(ErrorCode::overflow, op, t.name, "Strides", -1,
                             ErrorValue::of_text("a byte extent below 2^63"),
                             ErrorValue::of(t.strides));
  if (t.buffer_bytes >= 0 && element_size(t.type) != 0 && extent > t.buffer_bytes)
    return error_status(ErrorCode::buffer_too_small, op, t.name, "TotalTensorSizeInBytes", -1,
                             ErrorValue::at_least(extent), ErrorValue::of(t.buffer_bytes),
                             "(last element offset + 1) x element size");
  if (t.data == nullptr)
    return error_status(ErrorCode::null_pointer, op, t.name, "Data", -1,
                             ErrorValue::of_text("a pointer to the tensor's elements"),
                             ErrorValue::of_text("null"));
  if (is_output && !elements_are_distinct(t))
    return error_status(ErrorCode::invalid_stride, op, t.name, "Strides", -1,
                             ErrorValue::of_text("strides under which no two elements share an address"),
                             ErrorValue::of(t.strides), "outputs are never broadcast");
  return Status();
}

/// The checks every tensor of every operator needs: DimensionCount 1..8 and equal to `rank`,
/// sizes >= 1, strides >= 0, element count and byte extent within 64 bits and (descriptors)
/// within the buffer, data present, and for an output, no two elements at one address.
/// One pass on the success path, which writes what it derives into `layout`; layout_error() names
/// the rule when one is broken. Always inlined: it runs three to five times per operator call, and
/// writing the fields in place spares a copy of a Result that stalls on its byte-sized field.
DMLREF_ALWAYS_INLINE Status check_layout(const char* op, const RawTensor& t, int rank, bool is_output,
                                         Layout& layout) noexcept {
  const Shape &sizes = t.sizes, &strides = t.strides;
  const int count = sizes.rank();
  bool good = count == rank && count >= 1 && count <= max_dimension_count &&
              strides.rank() == count && t.data != nullptr;
  std::int64_t elements = 1, last = 0;
  bool packed = true;
  for (int d = count - 1; good && d >= 0; --d) {
    const std::int64_t size = sizes[d], stride = strides[d];
    std::int64_t term = 0;
    good = size >= 1 && stride >= 0 && mul_ok(size - 1, stride, term) && add_ok(last, term, last);
    packed = packed && (stride == elements || size == 1);
    good = good && mul_ok(elements, size, elements);
  }
  std::int64_t extent = 0;
  good = good && add_ok(last, 1, last) &&
         mul_ok(last, static_cast<std::int64_t>(element_size(t.type)), extent) &&
         (t.buffer_bytes < 0 || extent <= t.buffer_bytes || element_size(t.type) == 0) &&
         (!is_output || packed || elements_are_distinct(t));
  if (DMLREF_LIKELY(good)) {
    layout.extent = extent;
    layout.elements = elements;
    layout.packed = packed;
    return Status();
  }
  return layout_error(op, t, rank, is_output);
}

/// True when the bytes two checked tensors address may overlap (bounding ranges).
inline bool may_overlap(const RawTensor& a, const Layout& layout_a, const RawTensor& b, const Layout& layout_b) noexcept {
  const auto begin_a = reinterpret_cast<std::uintptr_t>(a.data);
  const auto begin_b = reinterpret_cast<std::uintptr_t>(b.data);
  return begin_a < begin_b + static_cast<std::uintptr_t>(layout_b.extent) &&
         begin_b < begin_a + static_cast<std::uintptr_t>(layout_a.extent);
}

// The checks below run on every call: each is a small inline test, with the building of its
// error kept out of line, so that the success path compiles to a compare and a branch.

DMLREF_COLD inline Status overlap_error(const char* op, const RawTensor& output, const RawTensor& input) noexcept {
  return error_status(ErrorCode::overlapping_tensors, op, output.name, "Data", -1,
                           ErrorValue::of_text("memory disjoint from every input"),
                           ErrorValue::of_text(input.name),
                           "only a scatter may run in place, with OutputTensor identical to InputTensor");
}

/// The output must not share memory with `input` (both checked by check_layout).
DMLREF_ALWAYS_INLINE Status check_no_overlap(const char* op, const RawTensor& output, const Layout& output_layout,
                                             const RawTensor& input, const Layout& input_layout) noexcept {
  if (DMLREF_LIKELY(!may_overlap(output, output_layout, input, input_layout))) return Status();
  return overlap_error(op, output, input);
}

DMLREF_COLD inline Status data_type_error(const char* op, const RawTensor& t, const RawTensor& input) noexcept {
  if (!is_valid(t.type))
    return error_status(ErrorCode::unsupported_data_type, op, t.name, "DataType", -1,
                             ErrorValue::of_text("one of the eleven DirectML data types"),
                             ErrorValue::of(static_cast<std::int64_t>(t.type)));
  return error_status(ErrorCode::data_type_mismatch, op, t.name, "DataType", -1,
                           ErrorValue::of(input.type), ErrorValue::of(t.type),
                           "data tensors share InputTensor's DataType");
}

inline Status check_data_type(const char* op, const RawTensor& t, const RawTensor& input) noexcept {
  if (DMLREF_LIKELY(is_valid(t.type) && t.type == input.type)) return Status();
  return data_type_error(op, t, input);
}

DMLREF_COLD inline Status index_type_error(const char* op, const RawTensor& indices) noexcept {
  return error_status(ErrorCode::unsupported_index_type, op, indices.name, "DataType", -1,
                           ErrorValue::of_text("INT32, INT64, UINT32 or UINT64"),
                           is_valid(indices.type) ? ErrorValue::of(indices.type)
                                                  : ErrorValue::of(static_cast<std::int64_t>(indices.type)));
}

inline Status check_index_type(const char* op, const RawTensor& indices) noexcept {
  if (DMLREF_LIKELY(is_index_type(indices.type))) return Status();
  return index_type_error(op, indices);
}

inline Status shape_error(const char* op, const char* tensor, const Shape& expected,
                          const Shape& actual, const char* rule) noexcept {
  return error_status(ErrorCode::shape_mismatch, op, tensor, "Sizes", -1,
                           ErrorValue::of(expected), ErrorValue::of(actual), rule);
}

inline Status attribute_error(const char* op, const char* field, std::int64_t first,
                              std::int64_t last, std::int64_t actual, const char* rule = "") noexcept {
  return error_status(ErrorCode::invalid_attribute, op, "", field, -1,
                           ErrorValue::range(first, last), ErrorValue::of(actual), rule);
}

/// Sizes-only checks shared by the shape helpers: DimensionCount 1..8, equal ranks, sizes >= 1.
inline Status check_sizes(const char* op, const char* tensor, const Shape& sizes, int rank) noexcept {
  const int count = sizes.rank();
  if (count < 1 || count > max_dimension_count)
    return error_status(ErrorCode::invalid_dimension_count, op, tensor, "DimensionCount", -1,
                             ErrorValue::range(1, max_dimension_count), ErrorValue::of(count));
  if (count != rank)
    return error_status(ErrorCode::invalid_dimension_count, op, tensor, "DimensionCount", -1,
                             ErrorValue::of(rank), ErrorValue::of(count),
                             "all tensors of an operator share InputTensor's DimensionCount");
  for (int d = 0; d < count; ++d)
    if (sizes[d] < 1)
      return error_status(ErrorCode::invalid_size, op, tensor, "Sizes", d,
                               ErrorValue::of_text("at least 1"), ErrorValue::of(sizes[d]),
                               "DirectML has no empty tensors");
  return Status();
}

/// A scatter's UpdatesTensor: valid sizes of the call's rank, equal to those its shape rule gives.
inline Status check_updates_sizes(const char* op, const Shape& updates_sizes, const Shape& expected, int rank,
                                  const char* rule) noexcept {
  if (Status s = check_sizes(op, "UpdatesTensor", updates_sizes, rank); !s) return s;
  if (updates_sizes == expected) return Status();
  return shape_error(op, "UpdatesTensor", expected, updates_sizes, rule);
}

/// Leading sizes [0, count) that an operator ignores must be 1, so that no data goes unread.
inline Status check_leading_ones(const char* op, const char* tensor, const Shape& sizes, int count,
                                 const char* rule) noexcept {
  for (int d = 0; d < count; ++d)
    if (sizes[d] != 1)
      return error_status(ErrorCode::shape_mismatch, op, tensor, "Sizes", d,
                               ErrorValue::of(1), ErrorValue::of(sizes[d]), rule);
  return Status();
}

}  // namespace dmlref::detail

#endif  // DMLREF_DETAIL_TENSOR_HPP
