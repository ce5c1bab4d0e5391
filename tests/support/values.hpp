// Deterministic element values for tests that move data: distinct-looking bits for every element
// number (and salt), of any element type, so that a value copied to the wrong place shows.
#pragma once

#include <cstdint>
#include <cstring>

namespace test_values {

/// The first sizeof(T) bytes of a multiplicative hash of (e, salt), as a T (bit-exact: a float
/// may be a NaN with a payload, which is the point).
template <class T>
T pattern(std::int64_t e, std::uint64_t salt = 0) noexcept {
  const std::uint64_t bits = (static_cast<std::uint64_t>(e) + 1 + salt * 0x10001) * 0x9E3779B97F4A7C15ull;
  T v;
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}

}  // namespace test_values
