// Run-time data and index types to the typed layer's compile-time ones, and one Operand as a
// TensorView or a descriptor: shared by the runner (runner.cpp, runner_typed.cpp) and the explain
// harness (explain/explain_harness.hpp), which call different functions over the same operands.
#pragma once

#include <cstddef>
#include <cstdint>

#include <dmlref/dmlref.hpp>

#include "support/runner.hpp"

namespace harness {

template <class T>
struct Tag {
  using type = T;
};

/// f(Tag<T>{}) for the data type's own C++ type; an ok Status (as the result type) for UNKNOWN.
template <class F>
auto with_native_type(dmlref::DataType t, F&& f) -> decltype(f(Tag<float>{})) {
  using dmlref::DataType;
  switch (t) {
    case DataType::FLOAT32: return f(Tag<float>{});
    case DataType::FLOAT16: return f(Tag<dmlref::float16>{});
    case DataType::FLOAT64: return f(Tag<double>{});
    case DataType::INT8: return f(Tag<std::int8_t>{});
    case DataType::INT16: return f(Tag<std::int16_t>{});
    case DataType::INT32: return f(Tag<std::int32_t>{});
    case DataType::INT64: return f(Tag<std::int64_t>{});
    case DataType::UINT8: return f(Tag<std::uint8_t>{});
    case DataType::UINT16: return f(Tag<std::uint16_t>{});
    case DataType::UINT32: return f(Tag<std::uint32_t>{});
    case DataType::UINT64: return f(Tag<std::uint64_t>{});
    case DataType::UNKNOWN: break;
  }
  return decltype(f(Tag<float>{}))(dmlref::Status());
}

/// f(Tag<U>{}) for the unsigned integer of `size` bytes (1, 2, 4, else 8).
template <class F>
auto with_storage_type(std::size_t size, F&& f) -> decltype(f(Tag<std::uint8_t>{})) {
  switch (size) {
    case 1: return f(Tag<std::uint8_t>{});
    case 2: return f(Tag<std::uint16_t>{});
    case 4: return f(Tag<std::uint32_t>{});
    default: return f(Tag<std::uint64_t>{});
  }
}

/// f(Tag<I>{}) for an index type; an ok Status for the others (typed_expressible rules them out).
template <class F>
auto with_index_type(dmlref::DataType t, F&& f) -> decltype(f(Tag<std::uint32_t>{})) {
  switch (t) {
    case dmlref::DataType::INT32: return f(Tag<std::int32_t>{});
    case dmlref::DataType::INT64: return f(Tag<std::int64_t>{});
    case dmlref::DataType::UINT32: return f(Tag<std::uint32_t>{});
    case dmlref::DataType::UINT64: return f(Tag<std::uint64_t>{});
    case dmlref::DataType::UNKNOWN:
    case dmlref::DataType::FLOAT32:
    case dmlref::DataType::FLOAT16:
    case dmlref::DataType::FLOAT64:
    case dmlref::DataType::INT8:
    case dmlref::DataType::INT16:
    case dmlref::DataType::UINT8:
    case dmlref::DataType::UINT16: break;
  }
  return decltype(f(Tag<std::uint32_t>{}))(dmlref::Status());
}

/// The operand as a TensorView<T> (T is const but for OutputTensor).
template <class T>
dmlref::TensorView<T> view(const Operand& t) {
  T* p = static_cast<T*>(const_cast<void*>(t.data));
  const dmlref::Shape sizes = dmlref::Shape::from(t.sizes, t.dimension_count);
  if (t.strides == nullptr) return {p, sizes};
  return {p, sizes, dmlref::Shape::from(t.strides, t.dimension_count)};
}

/// The operand as a descriptor over `data`.
template <class P>
dmlref::BasicTensorDesc<P> desc(const Operand& t, P data) {
  dmlref::BasicTensorDesc<P> d;
  d.DataType = t.type;
  d.DimensionCount = t.dimension_count;
  d.Sizes = t.sizes;
  d.Strides = t.strides;
  d.TotalTensorSizeInBytes = t.total_bytes;
  d.Data = data;
  return d;
}

}  // namespace harness
