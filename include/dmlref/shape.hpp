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
    const std::size_t stored = count < max_dimension_count ? count : max_dimension_count;
    for (std::size_t i = 0; i < stored; ++i) s.values_[i] = values[i];
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
  int rank_ = 0;
  std::int64_t values_[max_dimension_count] = {};
};

/// Row-major ("packed") strides for `sizes`: the last dimension is contiguous.
/// Wraps silently on overflow; validation reports such a tensor as too large.
constexpr Shape packed_strides(const Shape& sizes) noexcept {
  Shape strides = Shape::filled(sizes.rank(), 1);
  std::uint64_t stride = 1;
  for (int d = static_cast<int>(sizes.size()) - 1; d >= 0; --d) {
    strides[d] = static_cast<std::int64_t>(stride);
    stride *= static_cast<std::uint64_t>(sizes[d]);
  }
  return strides;
}

}  // namespace dmlref

#endif  // DMLREF_SHAPE_HPP
