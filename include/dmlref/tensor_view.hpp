#ifndef DMLREF_TENSOR_VIEW_HPP
#define DMLREF_TENSOR_VIEW_HPP

#include <cstdint>
#include <type_traits>

#include "data_type.hpp"
#include "shape.hpp"

namespace dmlref {

/// A strided view of typed elements: 1 to 8 dimensions, 64-bit sizes, element strides >= 0
/// (0 repeats an input along that dimension; outputs may not alias themselves).
/// `TensorView<const T>` is read-only; `TensorView<T>` converts to it.
/// The view does not own its data; operators trust that every addressed element exists.
template <class T>
class TensorView {
  static_assert(is_element_type_v<std::remove_const_t<T>>,
                "TensorView's element type must be one of the eleven DirectML storage types");

 public:
  using element_type = T;
  using value_type = std::remove_const_t<T>;

  constexpr TensorView() noexcept = default;
  /// A packed (row-major) view: the last dimension is contiguous.
  constexpr TensorView(T* data, const Shape& sizes) noexcept
      : data_(data), sizes_(sizes), strides_(packed_strides(sizes)) {}
  /// A view with explicit element strides.
  constexpr TensorView(T* data, const Shape& sizes, const Shape& strides) noexcept
      : data_(data), sizes_(sizes), strides_(strides) {}
  /// A mutable view converts to a read-only one.
  template <class U, class = std::enable_if_t<std::is_same_v<const U, T> && !std::is_const_v<U>>>
  constexpr TensorView(const TensorView<U>& other) noexcept  // NOLINT: implicit by design
      : data_(other.data()), sizes_(other.sizes()), strides_(other.strides()) {}

  constexpr T* data() const noexcept { return data_; }
  constexpr const Shape& sizes() const noexcept { return sizes_; }
  constexpr const Shape& strides() const noexcept { return strides_; }
  constexpr int rank() const noexcept { return sizes_.rank(); }
  static constexpr DataType data_type() noexcept { return data_type_v<value_type>; }

  /// The element at `coordinate` (unchecked; for tests and small programs, not hot loops).
  constexpr T& operator[](const Shape& coordinate) const noexcept {
    std::int64_t offset = 0;
    for (int d = 0; d < coordinate.rank(); ++d) offset += coordinate[d] * strides_[d];
    return data_[offset];
  }

 private:
  T* data_ = nullptr;
  Shape sizes_;
  Shape strides_;
};

}  // namespace dmlref

#endif  // DMLREF_TENSOR_VIEW_HPP
