#ifndef DMLREF_DIRECTML_HPP
#define DMLREF_DIRECTML_HPP

/// DirectML's own structs, as a drop-in CPU reference: try_execute() takes the DML_OPERATOR_DESC a
/// DirectML program builds for GATHER, GATHER_ELEMENTS, GATHER_ND, GATHER_ND1, SCATTER (=
/// SCATTER_ELEMENTS) or SCATTER_ND, whose tensors are DML_TENSOR_TYPE_BUFFER descs, with CPU
/// memory bound to each tensor, and runs it through dmlref's dispatch layer:
///
///   #include <DirectML.h>
///   #include <dmlref/directml.hpp>
///   dmlref::directml::Bindings bindings{{{input, 0, sizeof input}, {indices, 0, sizeof indices}},
///                                       {output, 0, sizeof output}};
///   dmlref::Status s = dmlref::directml::try_execute(op_desc, bindings, options);
///
/// Uses nothing DirectML.h does not declare, under the same DML_TARGET_VERSION guards: SCATTER from
/// 0x2000, GATHER_ELEMENTS, GATHER_ND and SCATTER_ND from 0x2100, GATHER_ND1 from 0x3000, and the
/// forms that take a DML_FEATURE_LEVEL from 0x2000. Any other operator or tensor type is
/// `unsupported`. DML_TENSOR_FLAG_OWNED_BY_DML is accepted on inputs: it changes when DirectML
/// reads the data, not the result (bind it here like any input). Options apply as in the dispatch
/// layer, feature_level and binding_rules included. docs/directml.md, "DirectML's structs".

#include <DirectML.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "dmlref.hpp"

namespace dmlref::directml {

/// The CPU memory of one tensor, as DML_BUFFER_BINDING binds a GPU buffer range: the tensor's
/// first byte is at Buffer + Offset, and the range holds SizeInBytes bytes, at least the tensor
/// desc's TotalTensorSizeInBytes. A null Buffer binds nothing.
template <class Pointer>
struct BufferBinding {
  Pointer Buffer = nullptr;
  std::uint64_t Offset = 0;
  std::uint64_t SizeInBytes = 0;
};
using InputBinding = BufferBinding<const void*>;
using OutputBinding = BufferBinding<void*>;

/// A call's bindings, as IDMLBindingTable::BindInputs and BindOutputs take them: the inputs in the
/// order of the operator desc's input tensor fields (InputTensor, IndicesTensor, then UpdatesTensor
/// for a scatter; a gather leaves Inputs[2] unbound), and OutputTensor.
struct Bindings {
  InputBinding Inputs[3];
  OutputBinding Output;
};

namespace detail {

using dmlref::detail::error_status;

/// An enum field's value, read as its bytes: a value outside the enum's range (bytes from a file,
/// or a newer DirectML.h) is then an error, not undefined behaviour.
template <class Enum>
std::uint32_t value_of(const Enum& field) noexcept {
  static_assert(sizeof(Enum) == sizeof(std::uint32_t), "DirectML's enums are 32-bit");
  std::uint32_t value = 0;
  std::memcpy(&value, &field, sizeof value);
  return value;
}

/// One DirectML tensor as a dispatch-layer descriptor (sizes and strides widened to 64 bits).
struct Tensor {
  std::int64_t sizes[max_dimension_count] = {};
  std::int64_t strides[max_dimension_count] = {};
  MutableTensorDesc desc;

  TensorDesc input() const noexcept {
    return {desc.DataType, desc.DimensionCount, desc.Sizes, desc.Strides, desc.TotalTensorSizeInBytes, desc.Data,
            desc.GuaranteedBaseOffsetAlignment};
  }
  const MutableTensorDesc& output() const noexcept { return desc; }
};

/// Reads a tensor field of an operator desc and its binding. DimensionCount, Sizes and the rest of
/// the desc are left to the dispatch layer's checks.
template <class Pointer>
Status read_tensor(const char* op, const char* name, const DML_TENSOR_DESC* tensor,
                   const BufferBinding<Pointer>& binding, bool is_output, Tensor& out) noexcept {
  if (tensor == nullptr)
    return error_status(ErrorCode::null_pointer, op, name, "", -1, ErrorValue::of_text("a DML_TENSOR_DESC"),
                        ErrorValue::of_text("null"));
  const std::uint32_t type = value_of(tensor->Type);
  if (type != static_cast<std::uint32_t>(DML_TENSOR_TYPE_BUFFER))
    return error_status(ErrorCode::unsupported, op, name, "Type", -1,
                        ErrorValue::of_text("DML_TENSOR_TYPE_BUFFER (1)"), ErrorValue::of_unsigned(type),
                        "dmlref reads buffer tensors only");
  if (tensor->Desc == nullptr)
    return error_status(ErrorCode::null_pointer, op, name, "Desc", -1,
                        ErrorValue::of_text("a DML_BUFFER_TENSOR_DESC"), ErrorValue::of_text("null"));
  const DML_BUFFER_TENSOR_DESC& buffer = *static_cast<const DML_BUFFER_TENSOR_DESC*>(tensor->Desc);
  const std::uint32_t flags = value_of(buffer.Flags);
  const auto owned = static_cast<std::uint32_t>(DML_TENSOR_FLAG_OWNED_BY_DML);
  if ((flags & ~owned) != 0)
    return error_status(ErrorCode::invalid_attribute, op, name, "Flags", -1,
                        ErrorValue::of_text("DML_TENSOR_FLAG_NONE or DML_TENSOR_FLAG_OWNED_BY_DML"),
                        ErrorValue::of_unsigned(flags));
  if (is_output && flags != 0)
    return error_status(ErrorCode::invalid_attribute, op, name, "Flags", -1,
                        ErrorValue::of_text("DML_TENSOR_FLAG_NONE"), ErrorValue::of_unsigned(flags),
                        "DML_TENSOR_FLAG_OWNED_BY_DML is for inputs only");
  if (binding.Buffer == nullptr)
    return error_status(ErrorCode::null_pointer, op, name, "binding Buffer", -1,
                        ErrorValue::of_text("the tensor's memory"), ErrorValue::of_text("null (not bound)"));
  if (binding.SizeInBytes < buffer.TotalTensorSizeInBytes)
    return error_status(ErrorCode::buffer_too_small, op, name, "binding SizeInBytes", -1,
                        ErrorValue::at_least(static_cast<std::int64_t>(
                            buffer.TotalTensorSizeInBytes < INT64_MAX ? buffer.TotalTensorSizeInBytes : INT64_MAX)),
                        ErrorValue::of_unsigned(binding.SizeInBytes),
                        "DML_BUFFER_BINDING: the bound range holds at least TotalTensorSizeInBytes");
  const auto base = reinterpret_cast<std::uintptr_t>(binding.Buffer);
  if (binding.Offset > UINTPTR_MAX - base)
    return error_status(ErrorCode::overflow, op, name, "binding Offset", -1,
                        ErrorValue::of_text("an offset that stays inside the address space"),
                        ErrorValue::of_unsigned(binding.Offset));
  const std::uint32_t count = buffer.DimensionCount;
  const bool readable = count >= 1 && count <= static_cast<std::uint32_t>(max_dimension_count);
  for (std::uint32_t d = 0; readable && buffer.Sizes != nullptr && d < count; ++d) out.sizes[d] = buffer.Sizes[d];
  for (std::uint32_t d = 0; readable && buffer.Strides != nullptr && d < count; ++d)
    out.strides[d] = buffer.Strides[d];
  out.desc.DataType = static_cast<DataType>(value_of(buffer.DataType));
  out.desc.DimensionCount = count;
  out.desc.Sizes = readable && buffer.Sizes != nullptr ? out.sizes : nullptr;
  out.desc.Strides = readable && buffer.Strides != nullptr ? out.strides : nullptr;
  out.desc.TotalTensorSizeInBytes = buffer.TotalTensorSizeInBytes;
  out.desc.Data = reinterpret_cast<void*>(base + static_cast<std::uintptr_t>(binding.Offset));
  out.desc.GuaranteedBaseOffsetAlignment = buffer.GuaranteedBaseOffsetAlignment;
  return Status();
}

/// The N tensors of one call, read in field order into tensors[0, N): the inputs, then OutputTensor.
/// A binding of an input the operator does not have is an error, as in IDMLBindingTable::BindInputs.
template <std::size_t N>
Status read_call(const char* op, const DML_TENSOR_DESC* const (&fields)[N], const Bindings& bindings,
                 Tensor (&tensors)[4]) noexcept {
  constexpr int count = static_cast<int>(N);
  for (int i = 0; i + 1 < count; ++i)
    if (Status s = read_tensor(op, dmlref::detail::field_name(i, count), fields[i], bindings.Inputs[i], false,
                               tensors[i]);
        !s)
      return s;
  if (Status s = read_tensor(op, "OutputTensor", fields[N - 1], bindings.Output, true, tensors[N - 1]); !s) return s;
  for (int i = count - 1; i < 3; ++i)
    if (bindings.Inputs[i].Buffer != nullptr)
      return error_status(ErrorCode::invalid_attribute, op, "", "Bindings.Inputs", i,
                          ErrorValue::of_text("unbound (a null Buffer)"), ErrorValue::of_text("bound"),
                          count == 3 ? "the operator has two input tensors" : "the operator has three input tensors");
  return Status();
}

inline Status unsupported_operator(std::uint32_t type) noexcept {
  return error_status(ErrorCode::unsupported, "DML_OPERATOR_DESC", "", "Type", -1,
                      ErrorValue::of_text("DML_OPERATOR_GATHER, _GATHER_ELEMENTS, _GATHER_ND, _GATHER_ND1, _SCATTER "
                                          "(= _SCATTER_ELEMENTS) or _SCATTER_ND, as far as DML_TARGET_VERSION "
                                          "declares them"),
                      ErrorValue::of_unsigned(type), "dmlref implements DirectML's gather and scatter operators only");
}

template <class OpDesc>
const OpDesc& desc_of(const DML_OPERATOR_DESC& desc) noexcept {
  return *static_cast<const OpDesc*>(desc.Desc);
}

}  // namespace detail

// The DML_TARGET_VERSION of the including file names the namespace, so that files built against
// different versions of DirectML.h may share a program.
#define DMLREF_DIRECTML_CONCAT_(a, b) a##b
#define DMLREF_DIRECTML_CONCAT(a, b) DMLREF_DIRECTML_CONCAT_(a, b)
inline namespace DMLREF_DIRECTML_CONCAT(target_, DML_TARGET_VERSION) {

/// Runs the operator `desc` describes on the bound CPU memory. Returns the error instead of
/// throwing; writes nothing on error.
template <int OnlyWhenCalled = 0>
Status try_execute(const DML_OPERATOR_DESC& desc, const Bindings& bindings, const Options& options = {}) noexcept {
  using detail::desc_of;
  using detail::read_call;
  const std::uint32_t type = detail::value_of(desc.Type);
  auto is = [type](DML_OPERATOR_TYPE known) { return type == static_cast<std::uint32_t>(known); };
  const bool supported = is(DML_OPERATOR_GATHER)
#if DML_TARGET_VERSION >= 0x2000
                         || is(DML_OPERATOR_SCATTER)
#endif
#if DML_TARGET_VERSION >= 0x2100
                         || is(DML_OPERATOR_GATHER_ELEMENTS) || is(DML_OPERATOR_GATHER_ND) ||
                         is(DML_OPERATOR_SCATTER_ND)
#endif
#if DML_TARGET_VERSION >= 0x3000
                         || is(DML_OPERATOR_GATHER_ND1)
#endif
      ;
  if (!supported) return detail::unsupported_operator(type);
  if (desc.Desc == nullptr)
    return detail::error_status(ErrorCode::null_pointer, "DML_OPERATOR_DESC", "", "Desc", -1,
                                ErrorValue::of_text("the operator's desc"), ErrorValue::of_text("null"));
  detail::Tensor t[4];
  if (is(DML_OPERATOR_GATHER)) {
    const auto& d = desc_of<DML_GATHER_OPERATOR_DESC>(desc);
    if (Status s = read_call("Gather", {d.InputTensor, d.IndicesTensor, d.OutputTensor}, bindings, t); !s) return s;
    return try_gather(t[0].input(), t[1].input(), t[2].output(), GatherParams{d.Axis, d.IndexDimensions}, options);
  }
#if DML_TARGET_VERSION >= 0x2000
  if (is(DML_OPERATOR_SCATTER)) {
    const auto& d = desc_of<DML_SCATTER_OPERATOR_DESC>(desc);
    if (Status s = read_call("Scatter", {d.InputTensor, d.IndicesTensor, d.UpdatesTensor, d.OutputTensor}, bindings, t);
        !s)
      return s;
    return try_scatter(t[0].input(), t[1].input(), t[2].input(), t[3].output(), ScatterParams{d.Axis}, options);
  }
#endif
#if DML_TARGET_VERSION >= 0x2100
  if (is(DML_OPERATOR_GATHER_ELEMENTS)) {
    const auto& d = desc_of<DML_GATHER_ELEMENTS_OPERATOR_DESC>(desc);
    if (Status s = read_call("GatherElements", {d.InputTensor, d.IndicesTensor, d.OutputTensor}, bindings, t); !s)
      return s;
    return try_gather_elements(t[0].input(), t[1].input(), t[2].output(), GatherElementsParams{d.Axis}, options);
  }
  if (is(DML_OPERATOR_GATHER_ND)) {
    const auto& d = desc_of<DML_GATHER_ND_OPERATOR_DESC>(desc);
    if (Status s = read_call("GatherND", {d.InputTensor, d.IndicesTensor, d.OutputTensor}, bindings, t); !s) return s;
    return try_gather_nd(t[0].input(), t[1].input(), t[2].output(),
                         GatherNDParams{d.InputDimensionCount, d.IndicesDimensionCount}, options);
  }
  if (is(DML_OPERATOR_SCATTER_ND)) {
    const auto& d = desc_of<DML_SCATTER_ND_OPERATOR_DESC>(desc);
    if (Status s =
            read_call("ScatterND", {d.InputTensor, d.IndicesTensor, d.UpdatesTensor, d.OutputTensor}, bindings, t);
        !s)
      return s;
    return try_scatter_nd(t[0].input(), t[1].input(), t[2].input(), t[3].output(),
                          ScatterNDParams{d.InputDimensionCount, d.IndicesDimensionCount}, options);
  }
#endif
#if DML_TARGET_VERSION >= 0x3000
  if (is(DML_OPERATOR_GATHER_ND1)) {
    const auto& d = desc_of<DML_GATHER_ND1_OPERATOR_DESC>(desc);
    if (Status s = read_call("GatherND1", {d.InputTensor, d.IndicesTensor, d.OutputTensor}, bindings, t); !s) return s;
    return try_gather_nd1(t[0].input(), t[1].input(), t[2].output(),
                          GatherND1Params{d.InputDimensionCount, d.IndicesDimensionCount, d.BatchDimensionCount},
                          options);
  }
#endif
  return detail::unsupported_operator(type);  // unreachable: every supported type returned above
}

#if DML_TARGET_VERSION >= 0x2000
/// As a device at this feature level runs it: `options` with feature_level = `device_level` and
/// DirectML's binding rules (BindingRules::directml).
template <int OnlyWhenCalled = 0>
Status try_execute(const DML_OPERATOR_DESC& desc, const Bindings& bindings, DML_FEATURE_LEVEL device_level,
                   Options options = {}) noexcept {
  options.feature_level = static_cast<std::uint32_t>(device_level);
  options.binding_rules = BindingRules::directml;
  return try_execute(desc, bindings, options);
}

/// As the device that filled `device` (IDMLDevice::CheckFeatureSupport with
/// DML_FEATURE_FEATURE_LEVELS) runs it: its MaxSupportedFeatureLevel and DirectML's binding rules.
template <int OnlyWhenCalled = 0>
Status try_execute(const DML_OPERATOR_DESC& desc, const Bindings& bindings,
                   const DML_FEATURE_DATA_FEATURE_LEVELS& device, Options options = {}) noexcept {
  return try_execute(desc, bindings, device.MaxSupportedFeatureLevel, options);
}
#endif

#if DMLREF_HAS_EXCEPTIONS
/// As try_execute, throwing dmlref::Exception on error.
template <class... Rest>
void execute(const DML_OPERATOR_DESC& desc, const Bindings& bindings, const Rest&... rest) {
  dmlref::detail::throw_if_error(try_execute(desc, bindings, rest...));
}
#endif

}  // inline namespace

}  // namespace dmlref::directml

#endif  // DMLREF_DIRECTML_HPP
