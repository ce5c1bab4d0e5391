#ifndef DMLREF_DETAIL_GOLDEN_OPERANDS_HPP
#define DMLREF_DETAIL_GOLDEN_OPERANDS_HPP

#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>

#include "../data_type.hpp"
#include "../runtime/tensor_desc.hpp"
#include "../shape.hpp"
#include "../status.hpp"
#include "../tensor_view.hpp"
#include "tensor.hpp"

// What gtest.hpp's helpers take (public, documented there): either side of a comparison as a
// TensorRef, a view or a descriptor, and the Tolerance; and for a golden call, its tensors' types
// and sizes and an output in the input's layer. In a header of their own so that
// golden_compare.hpp can use them; no GoogleTest here.

namespace dmlref {
namespace testing {

/// How two elements are compared; make one with bit_exact(), ulps(n) or absolute(x).
struct Tolerance {
  enum class Mode : std::uint8_t { bit_exact, ulp, absolute };
  Mode mode = Mode::bit_exact;
  std::uint64_t max_ulps = 0;  ///< Mode::ulp
  double max_absolute = 0;     ///< Mode::absolute

  /// "bit-exact", "within 4 ULP", "within 0.001 absolute".
  std::string describe() const {
    switch (mode) {
      case Mode::bit_exact: return "bit-exact";
      case Mode::ulp: return "within " + std::to_string(max_ulps) + " ULP";
      case Mode::absolute: {
        char text[48];
        std::snprintf(text, sizeof text, "within %g absolute", max_absolute);
        return text;
      }
    }
    return "?";
  }
};

/// Every element's bits equal (-0.0 ≠ 0.0, NaN payloads count).
inline Tolerance bit_exact() noexcept { return Tolerance{}; }
/// Floats at most `n` units in the last place apart (in their own precision).
inline Tolerance ulps(std::uint64_t n) noexcept {
  Tolerance t;
  t.mode = Tolerance::Mode::ulp;
  t.max_ulps = n;
  return t;
}
/// |actual − expected| ≤ `max_difference` (must be ≥ 0).
inline Tolerance absolute(double max_difference) noexcept {
  Tolerance t;
  t.mode = Tolerance::Mode::absolute;
  t.max_absolute = max_difference;
  return t;
}

/// The most mismatching elements one message lists.
inline constexpr int max_listed_mismatches = 10;

/// Either side of a comparison: a TensorView<T> or a runtime descriptor, converted implicitly.
/// It keeps its own sizes and strides, which its RawTensor refers to: it is neither copied nor
/// moved.
class TensorRef {
 public:
  template <class T>
  TensorRef(const TensorView<T>& view) noexcept  // NOLINT: implicit by design
      : shapes_{view.sizes(), view.strides()}, raw_(::dmlref::detail::raw("", view)) {
    raw_.sizes = shapes_.sizes;
    raw_.strides = shapes_.strides;
  }
  template <class Pointer>
  TensorRef(const BasicTensorDesc<Pointer>& desc) noexcept  // NOLINT: implicit by design
      : desc_status_(::dmlref::detail::from_desc("", "", desc, raw_, shapes_)), from_desc_(true) {}
  TensorRef(const TensorRef&) = delete;
  TensorRef& operator=(const TensorRef&) = delete;

  /// The tensor with its type erased (valid only if problem() is empty).
  const ::dmlref::detail::RawTensor& raw() const noexcept { return raw_; }
  bool from_desc() const noexcept { return from_desc_; }

  /// Why the tensor cannot be read ("" when it can), in dmlref's error vocabulary.
  std::string problem(const char* name) const {
    ::dmlref::detail::RawTensor t = raw_;
    t.name = name;
    if (!desc_status_.ok()) return reworded(desc_status_.error(), name);
    if (!is_valid(t.type))
      return std::string(name) + ".DataType must be one of the eleven DirectML data types, but is " +
             std::to_string(static_cast<std::uint32_t>(t.type));
    ::dmlref::detail::Layout checked{};
    const Status layout = ::dmlref::detail::check_layout("", t, t.sizes.rank(), false, checked);
    return layout.ok() ? std::string() : reworded(layout.error(), name);
  }

 private:
  /// The operator-style message without the leading ": " of an empty operator name, and with
  /// the tensor's name put in.
  static std::string reworded(Error error, const char* name) {
    error.tensor = name;
    std::string text = error.message();
    if (text.compare(0, 2, ": ") == 0) text.erase(0, 2);
    return text;
  }

  ::dmlref::detail::DescShapes shapes_;
  ::dmlref::detail::RawTensor raw_;
  Status desc_status_;
  bool from_desc_ = false;
};

namespace internal {

template <class T>
DataType data_type_of(const TensorView<T>&) noexcept {
  return data_type_v<std::remove_const_t<T>>;
}
inline DataType data_type_of(const TensorDesc& desc) noexcept { return desc.DataType; }
template <class T>
Shape sizes_of(const TensorView<T>& view) noexcept {
  return view.sizes();
}
inline Shape sizes_of(const TensorDesc& desc) noexcept { return ::dmlref::sizes_of(desc); }

/// The golden's output in the inputs' layer: a view of the input's element type, or a descriptor.
template <class T>
TensorView<std::remove_const_t<T>> output_like(const TensorView<T>&, unsigned char* data, const Shape& sizes) {
  return TensorView<std::remove_const_t<T>>(reinterpret_cast<std::remove_const_t<T>*>(data), sizes);
}
inline MutableTensorDesc output_like(const TensorDesc& input, unsigned char* data, const Shape& sizes) {
  std::uint64_t count = 1;
  for (std::int64_t v : sizes) count *= static_cast<std::uint64_t>(v);
  return MutableTensorDesc{input.DataType, static_cast<std::uint32_t>(sizes.rank()), sizes.data(), nullptr,
                           count * element_size(input.DataType), data};
}

}  // namespace internal

}  // namespace testing
}  // namespace dmlref

#endif  // DMLREF_DETAIL_GOLDEN_OPERANDS_HPP
