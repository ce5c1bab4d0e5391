#ifndef DMLREF_SHAPE_HPP
#define DMLREF_SHAPE_HPP

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "config.hpp"

namespace dmlref {

/// Up to eight 64-bit values: the sizes, strides or a coordinate of a tensor. No allocation.
/// A Shape built from more than eight values keeps the first eight and remembers the true count,
/// so that validation can report "DimensionCount 9" instead of silently truncating.
class Shape {
 public:
  constexpr Shape() noexcept = default;
  constexpr Shape(std::initializer_list<std::int64_t> values) noexcept {
    for (std::int64_t v : values) push_back(v);
  }
  /// The first `count` values of `values`.
  static constexpr Shape from(const std::int64_t* values, std::size_t count) noexcept {
    Shape s;
    // Unrolled by hand: g++ turns a copy loop into a memcpy inlined as `rep movsb`, which is slow
    // to start for a few bytes.
    switch (count < max_dimension_count ? count : max_dimension_count) {
      case 8: s.values_[7] = values[7]; [[fallthrough]];
      case 7: s.values_[6] = values[6]; [[fallthrough]];
      case 6: s.values_[5] = values[5]; [[fallthrough]];
      case 5: s.values_[4] = values[4]; [[fallthrough]];
      case 4: s.values_[3] = values[3]; [[fallthrough]];
      case 3: s.values_[2] = values[2]; [[fallthrough]];
      case 2: s.values_[1] = values[1]; [[fallthrough]];
      case 1: s.values_[0] = values[0]; [[fallthrough]];
      default: break;
    }
    s.rank_ = static_cast<int>(count < 1024 ? count : 1024);
    return s;
  }
  /// Row-major ("packed") strides for the first `count` sizes of `sizes` (see packed_strides).
  static constexpr Shape packed(const std::int64_t* sizes, std::size_t count) noexcept {
    Shape s;
    // Every slot written once (unused ones 0), so no partial zeroing is left for `rep stos`.
    std::uint64_t stride = 1;
    for (int d = max_dimension_count - 1; d >= 0; --d) {
      const bool used = static_cast<std::size_t>(d) < count;
      s.values_[d] = used ? static_cast<std::int64_t>(stride) : 0;
      if (used) stride *= static_cast<std::uint64_t>(sizes[d]);
    }
    s.rank_ = static_cast<int>(count < 1024 ? count : 1024);
    return s;
  }
  /// `count` copies of `value`.
  static constexpr Shape filled(int count, std::int64_t value) noexcept {
    Shape s;
    for (int i = 0; i < count; ++i) s.push_back(value);
    return s;
  }

  /// Number of values given (may exceed max_dimension_count; then only 8 are stored).
  constexpr int rank() const noexcept { return rank_; }
  constexpr std::size_t size() const noexcept { return static_cast<std::size_t>(stored()); }
  constexpr bool empty() const noexcept { return rank_ == 0; }
  constexpr std::int64_t operator[](int d) const noexcept { return values_[d]; }
  constexpr std::int64_t& operator[](int d) noexcept { return values_[d]; }
  constexpr const std::int64_t* begin() const noexcept { return values_; }
  constexpr const std::int64_t* end() const noexcept { return values_ + stored(); }
  constexpr const std::int64_t* data() const noexcept { return values_; }

  constexpr void push_back(std::int64_t v) noexcept {
    if (rank_ < max_dimension_count) values_[rank_] = v;
    ++rank_;
  }

  friend constexpr bool operator==(const Shape& a, const Shape& b) noexcept {
    if (a.rank_ != b.rank_) return false;
    for (int d = 0; d < a.stored(); ++d)
      if (a.values_[d] != b.values_[d]) return false;
    return true;
  }
  friend constexpr bool operator!=(const Shape& a, const Shape& b) noexcept { return !(a == b); }

 private:
  constexpr int stored() const noexcept {
    return rank_ < max_dimension_count ? rank_ : max_dimension_count;
  }
  // The values first, so that zeroing them is 64 aligned bytes, which g++ writes with vector stores
  // rather than a `rep stos`.
  std::int64_t values_[max_dimension_count] = {};
  int rank_ = 0;
};

/// Row-major ("packed") strides for `sizes`: the last dimension is contiguous.
/// Wraps silently on overflow; validation reports such a tensor as too large.
constexpr Shape packed_strides(const Shape& sizes) noexcept {
  return Shape::packed(sizes.data(), static_cast<std::size_t>(sizes.rank()));
}

}  // namespace dmlref

#endif  // DMLREF_SHAPE_HPP
