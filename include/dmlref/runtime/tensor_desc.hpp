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
};

/// An input tensor (read only).
using TensorDesc = BasicTensorDesc<const void*>;
/// An output tensor (written).
using MutableTensorDesc = BasicTensorDesc<void*>;

namespace detail {

/// Reads a descriptor into a RawTensor; operators validate the rest as for views.
template <class Pointer>
Status from_desc(const char* op, const char* name, const BasicTensorDesc<Pointer>& desc,
                 RawTensor& out) noexcept {
  out.name = name;
  out.type = desc.DataType;
  out.data = static_cast<unsigned char*>(const_cast<void*>(static_cast<const void*>(desc.Data)));
  if (desc.DimensionCount < 1 || desc.DimensionCount > max_dimension_count)
    return Status(make_error(ErrorCode::invalid_dimension_count, op, name, "DimensionCount", -1,
                             ErrorValue::range(1, max_dimension_count),
                             ErrorValue::of(static_cast<std::int64_t>(desc.DimensionCount))));
  if (desc.Sizes == nullptr)
    return Status(make_error(ErrorCode::null_pointer, op, name, "Sizes", -1,
                             ErrorValue::of_text("DimensionCount sizes"), ErrorValue::of_text("null")));
  // Filled in place, value by value: building a Shape and copying it whole made the copy's wide
  // loads wait on the narrow stores just made (store-forwarding stalls: measured, W8's
  // descriptor call took 90 ns more than the typed one this way, 65 ns more filled in place).
  const int count = static_cast<int>(desc.DimensionCount);
  out.sizes = Shape();
  out.strides = Shape();
  for (int d = 0; d < count; ++d) out.sizes.push_back(desc.Sizes[d]);
  for (int d = 0; d < count; ++d) out.strides.push_back(desc.Strides != nullptr ? desc.Strides[d] : 0);
  if (desc.Strides == nullptr) {
    std::uint64_t stride = 1;  // packed; wraps like packed_strides(), and validation reports it
    for (int d = count - 1; d >= 0; --d) {
      out.strides[d] = static_cast<std::int64_t>(stride);
      stride *= static_cast<std::uint64_t>(desc.Sizes[d]);
    }
  }
  if (desc.TotalTensorSizeInBytes > static_cast<std::uint64_t>(INT64_MAX))
    return Status(make_error(ErrorCode::overflow, op, name, "TotalTensorSizeInBytes", -1,
                             ErrorValue::of_text("below 2^63"),
                             ErrorValue::of_unsigned(desc.TotalTensorSizeInBytes)));
  out.buffer_bytes = static_cast<std::int64_t>(desc.TotalTensorSizeInBytes);
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
