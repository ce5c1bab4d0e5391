#ifndef DMLREF_BINDING_HPP
#define DMLREF_BINDING_HPP

/// DirectML's buffer-tensor and binding rules (DML_BUFFER_TENSOR_DESC, DML_BUFFER_BINDING), which
/// Options::binding_rules = BindingRules::directml adds to a call's checks, and DirectML's
/// DMLCalcBufferTensorSize helper (docs/directml.md, "Binding rules").

#include <cstdint>

#include "config.hpp"
#include "data_type.hpp"
#include "detail/tensor.hpp"
#include "shape.hpp"
#include "status.hpp"

namespace dmlref {

/// DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT: a bound buffer tensor starts on a 16-byte boundary.
inline constexpr std::uint32_t minimum_buffer_tensor_alignment = 16;

/// The most elements a DirectML buffer tensor may hold (2^32 - 1).
inline constexpr std::int64_t max_buffer_tensor_elements = 0xFFFFFFFF;

/// DMLCalcBufferTensorSize: the bytes from a tensor's first element through its last, rounded up
/// to a multiple of 4 (DirectML binds only DWORD-multiple sizes). Empty strides: packed. Computed in
/// 64 bits, so it equals DirectML's helper wherever that helper's 32-bit index arithmetic does not
/// wrap; a size of 0 gives 0 bytes. Errors: DimensionCount outside 1..8, a negative size or stride,
/// strides of another length, an invalid data type, or a result of 2^63 bytes or more (`overflow`).
inline Result<std::uint64_t> calc_buffer_tensor_size(DataType type, const Shape& sizes, const Shape& strides) noexcept {
  using detail::add_ok;
  using detail::error_status;
  using detail::mul_ok;
  constexpr const char* op = "DMLCalcBufferTensorSize";
  const auto element = static_cast<std::int64_t>(element_size(type));
  if (element == 0)
    return error_status(ErrorCode::unsupported_data_type, op, "", "DataType", -1,
                        ErrorValue::of_text("one of the eleven DirectML data types"),
                        ErrorValue::of(static_cast<std::int64_t>(type)));
  const int rank = sizes.rank();
  if (rank < 1 || rank > max_dimension_count)
    return error_status(ErrorCode::invalid_dimension_count, op, "", "DimensionCount", -1,
                        ErrorValue::range(1, max_dimension_count), ErrorValue::of(static_cast<std::int64_t>(rank)));
  if (!strides.empty() && strides.rank() != rank)
    return error_status(ErrorCode::invalid_stride, op, "", "Strides", -1,
                        ErrorValue::of(static_cast<std::int64_t>(rank)),
                        ErrorValue::of(static_cast<std::int64_t>(strides.rank())), "one stride per dimension");
  bool empty = false;
  for (int d = 0; d < rank; ++d) {
    if (sizes[d] < 0)
      return error_status(ErrorCode::invalid_size, op, "", "Sizes", d, ErrorValue::of_text("at least 0"),
                          ErrorValue::of(sizes[d]));
    if (!strides.empty() && strides[d] < 0)
      return error_status(ErrorCode::invalid_stride, op, "", "Strides", d, ErrorValue::of_text("at least 0"),
                          ErrorValue::of(strides[d]));
    empty = empty || sizes[d] == 0;
  }
  if (empty) return std::uint64_t{0};
  std::int64_t last = 0;  // index of the last element
  bool fits = true;
  if (strides.empty()) {
    std::int64_t count = 1;
    for (int d = 0; d < rank && fits; ++d) fits = mul_ok(count, sizes[d], count);
    last = count - 1;
  } else {
    for (int d = 0; d < rank && fits; ++d) {
      std::int64_t term = 0;
      fits = mul_ok(sizes[d] - 1, strides[d], term) && add_ok(last, term, last);
    }
  }
  std::int64_t bytes = 0;
  fits = fits && add_ok(last, 1, last) && mul_ok(last, element, bytes) && add_ok(bytes, 3, bytes);
  if (!fits)
    return error_status(ErrorCode::overflow, op, "", "TotalTensorSizeInBytes", -1,
                        ErrorValue::of_text("a byte size below 2^63"), ErrorValue::of(sizes));
  return static_cast<std::uint64_t>(bytes) & ~std::uint64_t{3};
}

namespace detail {

/// The rules of BindingRules::directml for one tensor that passed check_layout, in this order:
/// sizes in UINT, at most 2^32 - 1 elements, strides in UINT (packed ones always are by then),
/// GuaranteedBaseOffsetAlignment 0 or a power of two at least the element size,
/// TotalTensorSizeInBytes >= DMLCalcBufferTensorSize (descriptors only: a view has no buffer size),
/// data aligned to max(16, GuaranteedBaseOffsetAlignment).
DMLREF_COLD inline Status check_binding_rules(const char* op, const RawTensor& t, const Layout& layout) noexcept {
  constexpr std::int64_t uint_max = 0xFFFFFFFF;
  constexpr const char* rule = "binding_rules is directml: DML_BUFFER_TENSOR_DESC's Sizes and Strides are UINT";
  for (int d = 0; d < t.sizes.rank(); ++d)
    if (t.sizes[d] > uint_max)
      return error_status(ErrorCode::invalid_size, op, t.name, "Sizes", d, ErrorValue::of_text("at most 4294967295"),
                          ErrorValue::of(t.sizes[d]), rule);
  if (layout.elements > max_buffer_tensor_elements)
    return error_status(ErrorCode::invalid_size, op, t.name, "Sizes", -1,
                        ErrorValue::of_text("sizes of at most 4294967295 elements"), ErrorValue::of(t.sizes),
                        "binding_rules is directml: a buffer tensor holds at most 2^32 - 1 elements");
  for (int d = 0; d < t.strides.rank(); ++d)
    if (t.strides[d] > uint_max)
      return error_status(ErrorCode::invalid_stride, op, t.name, "Strides", d,
                          ErrorValue::of_text("at most 4294967295"), ErrorValue::of(t.strides[d]), rule);
  const std::uint32_t promised = t.alignment;
  if (promised != 0 && ((promised & (promised - 1)) != 0 || promised < element_size(t.type)))
    return error_status(ErrorCode::invalid_attribute, op, t.name, "GuaranteedBaseOffsetAlignment", -1,
                        ErrorValue::of_text("0 or a power of two at least the element size"),
                        ErrorValue::of_unsigned(promised), "binding_rules is directml");
  // DMLCalcBufferTensorSize of a tensor check_layout accepted: its byte extent, rounded up to a
  // multiple of 4 (past INT64_MAX only for an extent no buffer size can reach).
  const std::int64_t minimum = layout.extent > INT64_MAX - 3 ? INT64_MAX : (layout.extent + 3) & ~std::int64_t{3};
  if (t.buffer_bytes >= 0 && minimum > t.buffer_bytes)
    return error_status(ErrorCode::buffer_too_small, op, t.name, "TotalTensorSizeInBytes", -1,
                        ErrorValue::at_least(minimum), ErrorValue::of(t.buffer_bytes),
                        "binding_rules is directml: DMLCalcBufferTensorSize, the last element's end rounded up "
                        "to a multiple of 4");
  const std::uint64_t alignment = promised > minimum_buffer_tensor_alignment ? promised
                                                                             : minimum_buffer_tensor_alignment;
  const std::uint64_t past = reinterpret_cast<std::uintptr_t>(t.data) % alignment;
  if (past != 0)
    return error_status(ErrorCode::misaligned, op, t.name, "Data", -1,
                        ErrorValue::of(static_cast<std::int64_t>(alignment)),
                        ErrorValue::of(static_cast<std::int64_t>(past)),
                        "binding_rules is directml: DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT or the tensor's "
                        "GuaranteedBaseOffsetAlignment, if larger");
  return Status();
}

}  // namespace detail

}  // namespace dmlref

#endif  // DMLREF_BINDING_HPP
