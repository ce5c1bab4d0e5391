#ifndef DMLREF_DETAIL_REDUCE_HPP
#define DMLREF_DETAIL_REDUCE_HPP

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../data_type.hpp"
#include "../float16.hpp"
#include "../reduction.hpp"

// Scatter reductions (an ONNX extension): output = op(output, update), element by element, in the
// updates' row-major order. Unlike copies these need each data type's own arithmetic, so they
// dispatch on the type, not the width; one small function per (type, op), chosen once per call.

namespace dmlref::detail {

/// Combines the update at `src` into the output element at `dst`.
using CombineFn = void (*)(unsigned char* dst, const unsigned char* src) noexcept;

template <class T>
inline T load_value(const unsigned char* p) noexcept {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <class T>
inline bool is_nan(T v) noexcept {
  if constexpr (std::is_same_v<T, float16>) {
    return (v.bits & 0x7C00u) == 0x7C00u && (v.bits & 0x03FFu) != 0;
  } else if constexpr (std::is_floating_point_v<T>) {
    return v != v;
  } else {
    return false;
  }
}

/// Ordering through float for float16 (exact: every half is a float).
template <class T>
inline auto ordered(T v) noexcept {
  if constexpr (std::is_same_v<T, float16>) return v.to_float(); else return v;
}

template <class T, Reduction R>
inline T reduce(T a, T b) noexcept {
  if constexpr (R == Reduction::max) {
    return (ordered(a) >= ordered(b) || is_nan(a)) ? a : b;  // numpy.maximum
  } else if constexpr (R == Reduction::min) {
    return (ordered(a) <= ordered(b) || is_nan(a)) ? a : b;  // numpy.minimum
  } else if constexpr (std::is_same_v<T, float16>) {
    // numpy's float16: compute in float, round to float16 after every step.
    const float x = a.to_float(), y = b.to_float();
    return float16::from_float(R == Reduction::add ? x + y : x * y);
  } else if constexpr (std::is_floating_point_v<T>) {
    return R == Reduction::add ? a + b : a * b;
  } else {
    // Two's complement wrap-around, without signed overflow or promotion to int.
    const std::uint64_t x = static_cast<std::uint64_t>(a), y = static_cast<std::uint64_t>(b);
    return static_cast<T>(R == Reduction::add ? x + y : x * y);
  }
}

template <class T, Reduction R>
void combine(unsigned char* dst, const unsigned char* src) noexcept {
  const T result = reduce<T, R>(load_value<T>(dst), load_value<T>(src));
  std::memcpy(dst, &result, sizeof(T));
}

template <class T>
CombineFn combine_for(Reduction r) noexcept {
  switch (r) {
    case Reduction::add: return &combine<T, Reduction::add>;
    case Reduction::mul: return &combine<T, Reduction::mul>;
    case Reduction::max: return &combine<T, Reduction::max>;
    case Reduction::min: return &combine<T, Reduction::min>;
    case Reduction::none: break;
  }
  return nullptr;
}

/// The combine function for a (valid) data type and a reduction other than none, chosen at run
/// time. A template, so that only a program that calls the dispatch layer compiles all eleven.
template <class OnlyWhenCalled = void>
CombineFn select_combine(DataType type, Reduction r) noexcept {
  switch (type) {
#define DMLREF_CASE(name_, value, storage, kind) \
  case DataType::name_:                          \
    return combine_for<storage>(r);
    DMLREF_FOR_EACH_DATA_TYPE(DMLREF_CASE)
#undef DMLREF_CASE
    case DataType::UNKNOWN:
      break;
  }
  return nullptr;
}

/// The same for a data type known at compile time (the typed layer's).
template <class T>
CombineFn combine_of(DataType, Reduction r) noexcept {
  return combine_for<T>(r);
}

}  // namespace dmlref::detail

#endif  // DMLREF_DETAIL_REDUCE_HPP
