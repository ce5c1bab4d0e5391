#ifndef DMLREF_RUNTIME_TENSOR_DESC_HPP
#define DMLREF_RUNTIME_TENSOR_DESC_HPP

#include <cstdint>

#include "../data_type.hpp"
#include "../detail/tensor.hpp"
#include "../status.hpp"

namespace dmlref {

/// A tensor described at run time, mirroring DML_BUFFER_TENSOR_DESC plus its binding:
/// the data type, DimensionCount sizes, optional element strides (nullptr: packed row-major),
/// the bytes of the buffer range, and the pointer to its first element. Sizes and strides are
/// 64-bit (as in DLPack and most engines). The arrays are read during the call only.
template <class Pointer>
struct BasicTensorDesc {
  dmlref::DataType DataType = dmlref::DataType::UNKNOWN;
  std::uint32_t DimensionCount = 0;
  const std::int64_t* Sizes = nullptr;
  const std::int64_t* Strides = nullptr;
  std::uint64_t TotalTensorSizeInBytes = 0;
  Pointer Data = nullptr;
  /// DML_BUFFER_TENSOR_DESC's promise that Data is a multiple of this many bytes (0: none). Read
  /// only under BindingRules::directml, which requires Data aligned to max(16, this).
  std::uint32_t GuaranteedBaseOffsetAlignment = 0;
};

/// An input tensor (read only).
using TensorDesc = BasicTensorDesc<const void*>;
/// An output tensor (written).
using MutableTensorDesc = BasicTensorDesc<void*>;

namespace detail {

/// Names the first rule of check_desc() that `desc` breaks.
template <class Pointer>
DMLREF_COLD Status desc_error(const char* op, const char* name, const BasicTensorDesc<Pointer>& desc) noexcept {
  if (desc.DimensionCount < 1 || desc.DimensionCount > max_dimension_count)
    return error_status(ErrorCode::invalid_dimension_count, op, name, "DimensionCount", -1,
                             ErrorValue::range(1, max_dimension_count),
                             ErrorValue::of(static_cast<std::int64_t>(desc.DimensionCount)));
  if (desc.Sizes == nullptr)
    return error_status(ErrorCode::null_pointer, op, name, "Sizes", -1,
                             ErrorValue::of_text("DimensionCount sizes"), ErrorValue::of_text("null"));
  return error_status(ErrorCode::overflow, op, name, "TotalTensorSizeInBytes", -1,
                           ErrorValue::of_text("below 2^63"),
                           ErrorValue::of_unsigned(desc.TotalTensorSizeInBytes));
}

/// The rules only a descriptor can break (a view cannot): DimensionCount 1..8, Sizes present,
/// TotalTensorSizeInBytes below 2^63. The rest is validated as for views, by the operator.
template <class Pointer>
DMLREF_ALWAYS_INLINE Status check_desc(const char* op, const char* name, const BasicTensorDesc<Pointer>& desc) noexcept {
  if (DMLREF_LIKELY(desc.DimensionCount - 1u < static_cast<std::uint32_t>(max_dimension_count) && desc.Sizes != nullptr &&
                    desc.TotalTensorSizeInBytes <= static_cast<std::uint64_t>(INT64_MAX)))
    return Status();
  return desc_error(op, name, desc);
}

/// A descriptor's sizes and strides as Shapes (strides left out are packed), which its RawTensor
/// refers to: the caller keeps them as long as the RawTensor. Built as one aggregate and returned
/// in place, so that no Shape is zeroed or copied twice.
struct DescShapes {
  Shape sizes;
  Shape strides;
};
template <class Pointer>
DMLREF_ALWAYS_INLINE DescShapes shapes_of(const BasicTensorDesc<Pointer>& desc) noexcept {
  const std::size_t count = desc.DimensionCount;
  return {Shape::from(desc.Sizes, count),
          desc.Strides != nullptr ? Shape::from(desc.Strides, count) : Shape::packed(desc.Sizes, count)};
}

/// The RawTensor of a descriptor that passed check_desc(), over its shapes_of().
template <class Pointer>
RawTensor raw(const char* name, const BasicTensorDesc<Pointer>& desc, const DescShapes& shapes) noexcept {
  return {name, desc.DataType,
          static_cast<unsigned char*>(const_cast<void*>(static_cast<const void*>(desc.Data))), shapes.sizes,
          shapes.strides, static_cast<std::int64_t>(desc.TotalTensorSizeInBytes), desc.GuaranteedBaseOffsetAlignment};
}

/// check_desc() and raw() in one, for callers that keep a RawTensor, over `shapes` (name, type and
/// data are set even when the descriptor is rejected).
template <class Pointer>
Status from_desc(const char* op, const char* name, const BasicTensorDesc<Pointer>& desc, RawTensor& out,
                 DescShapes& shapes) noexcept {
  if (Status s = check_desc(op, name, desc); !s) {
    out.name = name;
    out.type = desc.DataType;
    out.data = static_cast<unsigned char*>(const_cast<void*>(static_cast<const void*>(desc.Data)));
    return s;
  }
  shapes = shapes_of(desc);
  out = raw(name, desc, shapes);
  return Status();
}

}  // namespace detail

/// Sizes of a descriptor as a Shape (e.g. to compare with an operator's output sizes).
template <class Pointer>
Shape sizes_of(const BasicTensorDesc<Pointer>& desc) noexcept {
  return desc.Sizes != nullptr ? Shape::from(desc.Sizes, desc.DimensionCount) : Shape();
}

}  // namespace dmlref

#endif  // DMLREF_RUNTIME_TENSOR_DESC_HPP
