#ifndef DMLREF_DETAIL_INDICES_HPP
#define DMLREF_DETAIL_INDICES_HPP

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../data_type.hpp"

// Index values: loading them, the range rule, and the position they address
// (docs/semantics.md, "Index values").

namespace dmlref::detail {

template <class I>
inline I load_index(const unsigned char* indices, std::int64_t offset) noexcept {
  I v;
  std::memcpy(&v, indices + offset * static_cast<std::int64_t>(sizeof(I)), sizeof(I));
  return v;
}

/// True when v addresses one of n positions: [-n, n) for signed types, [0, n) for unsigned.
template <class I>
inline bool index_in_range(I v, std::int64_t n) noexcept {
  if constexpr (std::is_signed_v<I>) {
    const std::int64_t x = v;
    return x >= -n && x < n;
  } else {
    return static_cast<std::uint64_t>(v) < static_cast<std::uint64_t>(n);
  }
}

/// WebNN's clamp of v into [-n, n-1] (unsigned: [0, n-1]): IndexPolicy::clamp.
template <class I>
inline std::int64_t clamp_index(I v, std::int64_t n) noexcept {
  if constexpr (std::is_signed_v<I>) {
    const std::int64_t x = v;
    return x < -n ? -n : (x > n - 1 ? n - 1 : x);
  } else {
    const std::uint64_t last = static_cast<std::uint64_t>(n - 1);
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(v) > last ? last : static_cast<std::uint64_t>(v));
  }
}

/// The position v addresses in a dimension of n: negative values count from the end. With Clamp,
/// v is clamped first; without, it has passed the index check.
template <class I, bool Clamp>
inline std::int64_t normalize_index(I v, std::int64_t n) noexcept {
  const std::int64_t x = Clamp ? clamp_index(v, n) : static_cast<std::int64_t>(v);
  if constexpr (std::is_signed_v<I>) return x < 0 ? x + n : x;
  return x;
}

/// Calls f(I{}) with the C++ type of an index type (one of DMLREF_FOR_EACH_INDEX_TYPE; callers
/// have validated it, anything else gets uint64_t).
template <class F>
decltype(auto) visit_index_type(DataType type, F&& f) {
#define DMLREF_VISIT(name, value, storage) \
  if (type == DataType::name) return f(storage{});
  DMLREF_FOR_EACH_INDEX_TYPE(DMLREF_VISIT)
#undef DMLREF_VISIT
  return f(std::uint64_t{});
}

}  // namespace dmlref::detail

#endif  // DMLREF_DETAIL_INDICES_HPP
