#ifndef DMLREF_DLPACK_HPP
#define DMLREF_DLPACK_HPP

/// Optional DLPack interop: dmlref views and runtime descriptors from a `DLTensor`.
///
/// This header (and only this one) needs <dlpack/dlpack.h>: Debian's libdlpack-dev, or any DLPack
/// from 0.6 to 1.x (only fields whose layout never changed are read; DLManagedTensorVersioned is
/// used when the header defines DLPACK_MAJOR_VERSION >= 1). The core dmlref headers never include it.
///
///   dlpack::try_view<const float>(t)   Result<TensorView<const float>>: dtype checked against T
///   dlpack::try_desc(t)                Result<TensorDesc>: an input of any supported dtype
///   dlpack::try_mutable_desc(t)        Result<MutableTensorDesc>: an output
///   dlpack::view<T>(t), desc(t), mutable_desc(t)   the same, throwing dmlref::Exception
///
/// Mapping:
///   dtype    {kDLInt, 8/16/32/64} -> INT8..INT64, {kDLUInt, ...} -> UINT8..UINT64,
///            {kDLFloat, 16/32/64} -> FLOAT16/FLOAT32/FLOAT64; lanes must be 1
///   data     data + byte_offset is the first element (no alignment is assumed, except that a
///            typed view needs its pointer aligned for T)
///   strides  in elements, as in dmlref; NULL means compact row-major (DLPack before 1.2, and
///            NumPy's exports of C-contiguous arrays), which is also what a NULL
///            TensorDesc::Strides means
///   TotalTensorSizeInBytes   (offset of the last addressed element + 1) x element size: exactly
///            the bytes the tensor addresses from its first element
///
/// Lifetimes: a TensorView copies sizes and strides (it owns its Shapes) and borrows only the data.
/// A TensorDesc/MutableTensorDesc *references* the DLTensor's own `shape` and `strides` arrays
/// (Sizes = t.shape, Strides = t.strides or nullptr), without copying: it is valid for as long as
/// the producer keeps those arrays and the data alive, i.e. until the DLManagedTensor's deleter
/// runs. The DLTensor struct itself may be a temporary copy; its arrays may not be.
///
/// Errors (a Status in the Result, message "DLPack: DLTensor.<field> must be ..., but is ..."):
///   invalid_attribute        a device whose memory the CPU cannot read (anything but kDLCPU,
///                            kDLCUDAHost, kDLROCMHost, kDLCUDAManaged); a typed view's pointer
///                            misaligned for T; a versioned tensor of another major version, or
///                            READ_ONLY where an output is asked for
///   invalid_dimension_count  ndim outside 1..8 (a 0-d tensor: pass it with shape {1})
///   unsupported_data_type    lanes != 1; bfloat16, bool, complex, opaque handles, FP8/6/4;
///                            bit widths other than 8/16/32/64 (16/32/64 for floats)
///   data_type_mismatch       try_view<T>: the dtype is supported but is not T's
///   invalid_size             a size below 1 (DirectML has no empty tensors)
///   invalid_stride           a negative stride
///   null_pointer             NULL shape, or NULL data
///   overflow                 element count, byte extent or byte_offset beyond 64 bits

#include <dlpack/dlpack.h>

#include <cstdint>
#include <type_traits>

#include "config.hpp"
#include "data_type.hpp"
#include "detail/tensor.hpp"
#include "runtime/tensor_desc.hpp"
#include "shape.hpp"
#include "status.hpp"
#include "tensor_view.hpp"

namespace dmlref::dlpack {

/// True when the CPU can read and write the device's memory: kDLCPU, and pinned or managed host
/// memory (kDLCUDAHost, kDLROCMHost, kDLCUDAManaged).
constexpr bool is_cpu_accessible(DLDevice device) noexcept {
  const int type = static_cast<int>(device.device_type);
  return type == 1 || type == 3 || type == 11 || type == 13;
}

/// The DLPack dtype of a DataType ({kDLFloat, 32, 1} for FLOAT32, ...); {0, 0, 0} for UNKNOWN.
constexpr DLDataType to_dl_data_type(DataType type) noexcept {
  const auto bits = static_cast<std::uint8_t>(element_size(type) * 8u);
  std::uint8_t code = 0;
  switch (type_kind(type)) {
    case TypeKind::floating: code = static_cast<std::uint8_t>(kDLFloat); break;
    case TypeKind::signed_integer: code = static_cast<std::uint8_t>(kDLInt); break;
    case TypeKind::unsigned_integer: code = static_cast<std::uint8_t>(kDLUInt); break;
  }
  if (!is_valid(type)) return DLDataType{0, 0, 0};
  return DLDataType{code, bits, 1};
}

namespace detail {

using dmlref::detail::error_status;

inline constexpr const char* op = "DLPack";
inline constexpr const char* tensor_name = "DLTensor";

inline Status error(ErrorCode code, const char* field, int index, ErrorValue expected,
                    ErrorValue actual, const char* rule = "") noexcept {
  return error_status(code, op, tensor_name, field, index, expected, actual, rule);
}

/// "kDLCUDA (2)" for the device types DLPack 1.x names; nullptr for others.
constexpr const char* device_name(int type) noexcept {
  switch (type) {
    case 2: return "kDLCUDA (2)";
    case 4: return "kDLOpenCL (4)";
    case 7: return "kDLVulkan (7)";
    case 8: return "kDLMetal (8)";
    case 9: return "kDLVPI (9)";
    case 10: return "kDLROCM (10)";
    case 12: return "kDLExtDev (12)";
    case 14: return "kDLOneAPI (14)";
    case 15: return "kDLWebGPU (15)";
    case 16: return "kDLHexagon (16)";
    case 17: return "kDLMAIA (17)";
    case 18: return "kDLTrn (18)";
    default: return nullptr;
  }
}

/// "kDLBfloat (4)" for the dtype codes DLPack 1.x names beyond int/uint/float; nullptr for others.
constexpr const char* code_name(int code) noexcept {
  switch (code) {
    case 3: return "kDLOpaqueHandle (3)";
    case 4: return "kDLBfloat (4)";
    case 5: return "kDLComplex (5)";
    case 6: return "kDLBool (6)";
    case 7: return "kDLFloat8_e3m4 (7)";
    case 8: return "kDLFloat8_e4m3 (8)";
    case 9: return "kDLFloat8_e4m3b11fnuz (9)";
    case 10: return "kDLFloat8_e4m3fn (10)";
    case 11: return "kDLFloat8_e4m3fnuz (11)";
    case 12: return "kDLFloat8_e5m2 (12)";
    case 13: return "kDLFloat8_e5m2fnuz (13)";
    case 14: return "kDLFloat8_e8m0fnu (14)";
    case 15: return "kDLFloat6_e2m3fn (15)";
    case 16: return "kDLFloat6_e3m2fn (16)";
    case 17: return "kDLFloat4_e2m1fn (17)";
    default: return nullptr;
  }
}

inline ErrorValue named_or_number(const char* name, int value) noexcept {
  return name != nullptr ? ErrorValue::of_text(name) : ErrorValue::of(static_cast<std::int64_t>(value));
}

/// A DLTensor checked and read: its DataType, first element and byte extent.
struct Checked {
  DataType type = DataType::UNKNOWN;
  unsigned char* first = nullptr;
  std::int64_t extent = 0;  ///< bytes from the first element through the last addressed one
  Shape sizes;
  Shape strides;
};

inline Result<DataType> data_type(DLDataType dtype) noexcept {
  if (dtype.lanes != 1)
    return error(ErrorCode::unsupported_data_type, "dtype.lanes", -1, ErrorValue::of(1),
                 ErrorValue::of(static_cast<std::int64_t>(dtype.lanes)), "dmlref has no vector types");
  const int code = dtype.code;
  const int bits = dtype.bits;
  if (code == static_cast<int>(kDLFloat)) {
    if (bits == 16) return DataType::FLOAT16;
    if (bits == 32) return DataType::FLOAT32;
    if (bits == 64) return DataType::FLOAT64;
    return error(ErrorCode::unsupported_data_type, "dtype.bits", -1,
                 ErrorValue::of_text("16, 32 or 64 for kDLFloat"), ErrorValue::of(static_cast<std::int64_t>(bits)));
  }
  if (code == static_cast<int>(kDLInt) || code == static_cast<int>(kDLUInt)) {
    const bool is_signed = code == static_cast<int>(kDLInt);
    if (bits == 8) return is_signed ? DataType::INT8 : DataType::UINT8;
    if (bits == 16) return is_signed ? DataType::INT16 : DataType::UINT16;
    if (bits == 32) return is_signed ? DataType::INT32 : DataType::UINT32;
    if (bits == 64) return is_signed ? DataType::INT64 : DataType::UINT64;
    return error(ErrorCode::unsupported_data_type, "dtype.bits", -1,
                 ErrorValue::of_text(is_signed ? "8, 16, 32 or 64 for kDLInt" : "8, 16, 32 or 64 for kDLUInt"),
                 ErrorValue::of(static_cast<std::int64_t>(bits)));
  }
  return error(ErrorCode::unsupported_data_type, "dtype.code", -1,
               ErrorValue::of_text("kDLInt (0), kDLUInt (1) or kDLFloat (2)"),
               named_or_number(code_name(code), code),
               "DirectML has no bfloat16, bool, complex or 8-bit float types");
}

inline Status check(const DLTensor& t, Checked& out) noexcept {
  using dmlref::detail::add_ok;
  using dmlref::detail::mul_ok;
  const int device = static_cast<int>(t.device.device_type);
  if (!is_cpu_accessible(t.device))
    return error(ErrorCode::invalid_attribute, "device.device_type", -1,
                 ErrorValue::of_text("kDLCPU (1), kDLCUDAHost (3), kDLROCMHost (11) or kDLCUDAManaged (13)"),
                 named_or_number(device_name(device), device), "dmlref reads tensors on the CPU");
  if (t.ndim < 1 || t.ndim > max_dimension_count)
    return error(ErrorCode::invalid_dimension_count, "ndim", -1, ErrorValue::range(1, max_dimension_count),
                 ErrorValue::of(static_cast<std::int64_t>(t.ndim)),
                 t.ndim == 0 ? "DirectML tensors have 1 to 8 dimensions: describe a 0-d tensor with shape {1}"
                             : "DirectML tensors have 1 to 8 dimensions");
  const Result<DataType> type = data_type(t.dtype);
  if (!type) return type.status();
  if (t.shape == nullptr)
    return error(ErrorCode::null_pointer, "shape", -1, ErrorValue::of_text("ndim sizes"), ErrorValue::of_text("null"));
  const auto count = static_cast<std::size_t>(t.ndim);
  const Shape sizes = Shape::from(t.shape, count);
  std::int64_t elements = 1;
  for (int d = 0; d < t.ndim; ++d)
    if (sizes[d] < 1)
      return error(ErrorCode::invalid_size, "shape", d, ErrorValue::of_text("at least 1"), ErrorValue::of(sizes[d]),
                   "DirectML has no empty tensors");
  for (int d = 0; d < t.ndim; ++d)
    if (!mul_ok(elements, sizes[d], elements))
      return error(ErrorCode::overflow, "shape", -1, ErrorValue::of_text("an element count below 2^63"),
                   ErrorValue::of(sizes));
  const Shape strides = t.strides != nullptr ? Shape::from(t.strides, count) : packed_strides(sizes);
  for (int d = 0; d < t.ndim; ++d)
    if (strides[d] < 0)
      return error(ErrorCode::invalid_stride, "strides", d, ErrorValue::of_text("at least 0"),
                   ErrorValue::of(strides[d]), "dmlref strides are unsigned, as DirectML's are");
  dmlref::detail::RawTensor raw;
  raw.type = *type;
  raw.sizes = sizes;
  raw.strides = strides;
  std::int64_t extent = 0, end = 0;
  if (!dmlref::detail::byte_extent(raw, extent))
    return error(ErrorCode::overflow, "strides", -1, ErrorValue::of_text("a byte extent below 2^63"),
                 ErrorValue::of(strides));
  if (t.byte_offset > static_cast<std::uint64_t>(INT64_MAX) ||
      !add_ok(static_cast<std::int64_t>(t.byte_offset), extent, end))
    return error(ErrorCode::overflow, "byte_offset", -1, ErrorValue::of_text("byte_offset + extent below 2^63"),
                 ErrorValue::of_unsigned(t.byte_offset));
  if (t.data == nullptr)
    return error(ErrorCode::null_pointer, "data", -1, ErrorValue::of_text("a pointer to the tensor's elements"),
                 ErrorValue::of_text("null"));
  out.type = *type;
  out.first = static_cast<unsigned char*>(t.data) + t.byte_offset;
  out.extent = extent;
  out.sizes = sizes;
  out.strides = strides;
  return Status();
}

template <class Desc, class Pointer>
Result<Desc> make_desc(const DLTensor& t) noexcept {
  Checked c;
  if (Status s = check(t, c); !s) return s;
  Desc desc;
  desc.DataType = c.type;
  desc.DimensionCount = static_cast<std::uint32_t>(t.ndim);
  desc.Sizes = t.shape;
  desc.Strides = t.strides;  // nullptr stays nullptr: packed, in DLPack and in dmlref alike
  desc.TotalTensorSizeInBytes = static_cast<std::uint64_t>(c.extent);
  desc.Data = static_cast<Pointer>(c.first);
  return desc;
}

#if defined(DLPACK_MAJOR_VERSION) && DLPACK_MAJOR_VERSION >= 1
/// A versioned tensor may be read only if its major version is this header's; an output must not
/// be READ_ONLY.
inline Status check_versioned(const DLManagedTensorVersioned& t, bool written) noexcept {
  if (t.version.major != DLPACK_MAJOR_VERSION)
    return error(ErrorCode::invalid_attribute, "version.major", -1, ErrorValue::of(DLPACK_MAJOR_VERSION),
                 ErrorValue::of(static_cast<std::int64_t>(t.version.major)),
                 "another major version's layout may differ: call its deleter");
  if (written && (t.flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0)
    return error(ErrorCode::invalid_attribute, "flags", -1, ErrorValue::of_text("without READ_ONLY"),
                 ErrorValue::of_text("READ_ONLY"), "an output is written");
  return Status();
}
#endif

}  // namespace detail

/// The DataType of a DLPack dtype, or why dmlref cannot take it.
inline Result<DataType> try_data_type(DLDataType dtype) noexcept { return detail::data_type(dtype); }

/// A typed view of a DLTensor (T const for an input). The dtype must be exactly T's; sizes and
/// strides are copied into the view, the data is borrowed.
template <class T>
Result<TensorView<T>> try_view(const DLTensor& t) noexcept {
  static_assert(is_element_type_v<std::remove_const_t<T>>,
                "T must be one of the eleven DirectML storage types");
  detail::Checked c;
  if (Status s = detail::check(t, c); !s) return s;
  constexpr DataType wanted = data_type_v<std::remove_const_t<T>>;
  if (c.type != wanted)
    return detail::error(ErrorCode::data_type_mismatch, "dtype", -1, ErrorValue::of(wanted),
                         ErrorValue::of(c.type), "the view's element type");
  if (reinterpret_cast<std::uintptr_t>(c.first) % alignof(T) != 0)
    return detail::error(ErrorCode::invalid_attribute, "byte_offset", -1,
                         ErrorValue::of_text("data + byte_offset aligned for the element type"),
                         ErrorValue::of_unsigned(t.byte_offset),
                         "a typed view dereferences T*; use try_desc for unaligned data");
  return TensorView<T>(reinterpret_cast<T*>(c.first), c.sizes, c.strides);
}

/// An input descriptor for a DLTensor of any supported dtype. References t.shape and t.strides.
inline Result<TensorDesc> try_desc(const DLTensor& t) noexcept {
  return detail::make_desc<TensorDesc, const void*>(t);
}

/// An output descriptor for a DLTensor of any supported dtype. References t.shape and t.strides.
inline Result<MutableTensorDesc> try_mutable_desc(const DLTensor& t) noexcept {
  return detail::make_desc<MutableTensorDesc, void*>(t);
}

/// The same for the DLTensor of a (legacy) DLManagedTensor; ownership stays with the caller.
template <class T>
Result<TensorView<T>> try_view(const DLManagedTensor& t) noexcept { return try_view<T>(t.dl_tensor); }
inline Result<TensorDesc> try_desc(const DLManagedTensor& t) noexcept { return try_desc(t.dl_tensor); }
inline Result<MutableTensorDesc> try_mutable_desc(const DLManagedTensor& t) noexcept {
  return try_mutable_desc(t.dl_tensor);
}

#if defined(DLPACK_MAJOR_VERSION) && DLPACK_MAJOR_VERSION >= 1
/// The same for DLPack 1.x's DLManagedTensorVersioned: its major version must be this header's,
/// and a writable view or an output descriptor is refused for a READ_ONLY tensor.
template <class T>
Result<TensorView<T>> try_view(const DLManagedTensorVersioned& t) noexcept {
  if (Status s = detail::check_versioned(t, !std::is_const_v<T>); !s) return s;
  return try_view<T>(t.dl_tensor);
}
inline Result<TensorDesc> try_desc(const DLManagedTensorVersioned& t) noexcept {
  if (Status s = detail::check_versioned(t, false); !s) return s;
  return try_desc(t.dl_tensor);
}
inline Result<MutableTensorDesc> try_mutable_desc(const DLManagedTensorVersioned& t) noexcept {
  if (Status s = detail::check_versioned(t, true); !s) return s;
  return try_mutable_desc(t.dl_tensor);
}
#endif

#if DMLREF_HAS_EXCEPTIONS
/// As try_data_type, throwing dmlref::Exception.
inline DataType data_type(DLDataType dtype) { return dmlref::detail::value_or_throw(try_data_type(dtype)); }
/// As try_view, throwing dmlref::Exception. Tensor: DLTensor, DLManagedTensor or (1.x) DLManagedTensorVersioned.
template <class T, class Tensor>
TensorView<T> view(const Tensor& t) { return dmlref::detail::value_or_throw(try_view<T>(t)); }
/// As try_desc, throwing dmlref::Exception.
template <class Tensor>
TensorDesc desc(const Tensor& t) { return dmlref::detail::value_or_throw(try_desc(t)); }
/// As try_mutable_desc, throwing dmlref::Exception.
template <class Tensor>
MutableTensorDesc mutable_desc(const Tensor& t) { return dmlref::detail::value_or_throw(try_mutable_desc(t)); }
#endif

}  // namespace dmlref::dlpack

#endif  // DMLREF_DLPACK_HPP
