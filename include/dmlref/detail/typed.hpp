#ifndef DMLREF_DETAIL_TYPED_HPP
#define DMLREF_DETAIL_TYPED_HPP

#include <type_traits>

#include "../data_type.hpp"

// Compile-time checks of the typed layer: what the dispatch layer reports at run time, a typed
// call cannot even express.

namespace dmlref::detail {

template <class Data, class Output>
constexpr void assert_data_types() noexcept {
  static_assert(!std::is_const_v<Output>, "OutputTensor must be a mutable TensorView<T>");
  static_assert(std::is_same_v<std::remove_const_t<Data>, Output>,
                "InputTensor, UpdatesTensor and OutputTensor must share one element type");
}

template <class Idx>
constexpr void assert_index_type() noexcept {
  static_assert(is_index_element_type_v<std::remove_const_t<Idx>>,
                "IndicesTensor's element type must be int32_t, int64_t, uint32_t or uint64_t");
}

template <class In, class Idx, class Out>
constexpr void assert_gather_types() noexcept {
  assert_data_types<In, Out>();
  assert_index_type<Idx>();
}

template <class In, class Idx, class Upd, class Out>
constexpr void assert_scatter_types() noexcept {
  assert_data_types<In, Out>();
  assert_data_types<Upd, Out>();
  assert_index_type<Idx>();
}

}  // namespace dmlref::detail

#endif  // DMLREF_DETAIL_TYPED_HPP
