// The plain read both benchmark programs use as a floor: every 8-byte word of a buffer once.
#ifndef DMLREF_BENCH_READ_ALL_HPP
#define DMLREF_BENCH_READ_ALL_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace dmlref_bench {

/// Reads every 8-byte word of [data, data + bytes) once, in four independent sums (so that no add
/// waits on the one before), and returns their total so that the reads cannot be dropped.
inline std::uint64_t read_all(const void* data, std::size_t bytes) noexcept {
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint64_t s[4] = {0, 0, 0, 0};
  for (std::size_t i = 0; i + 32 <= bytes; i += 32)
    for (int k = 0; k < 4; ++k) {
      std::uint64_t v;
      std::memcpy(&v, p + i + 8 * k, 8);
      s[k] += v;
    }
  return s[0] + s[1] + s[2] + s[3];
}

}  // namespace dmlref_bench

#endif  // DMLREF_BENCH_READ_ALL_HPP
