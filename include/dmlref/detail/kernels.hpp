#ifndef DMLREF_DETAIL_KERNELS_HPP
#define DMLREF_DETAIL_KERNELS_HPP

#include <cstddef>
#include <type_traits>

#include "../data_type.hpp"
#include "../reduction.hpp"
#include "../shape.hpp"
#include "../status.hpp"
#include "collisions.hpp"
#include "copy.hpp"
#include "execute.hpp"
#include "index_check.hpp"
#include "indices.hpp"
#include "plan.hpp"
#include "reduce.hpp"

// Which kernels a call runs. Copies depend only on the element width (1, 2, 4 or 8 bytes) and
// the index type; reductions on the data type. The typed layer names its own at compile time,
// so a typed call compiles the kernels of its width and index type, for its flow, and nothing
// else. The dispatch layer chooses among all of them at run time.

namespace dmlref::detail {

/// What a gather call runs.
struct GatherKernels {
  Status (*check_indices)(const Plan&, RowRange) noexcept;
  Runner run;
};

/// What a scatter call runs: also reductions and the collision check.
struct ScatterKernels {
  Status (*check_indices)(const Plan&, RowRange) noexcept;
  Runner run;
  Runner reduce;
  CombineFn (*combine)(DataType, Reduction) noexcept;
  Status (*find_collision)(const Plan&, const Shape&, const Shape&) noexcept;
};

template <Flow F>
using KernelsOf = std::conditional_t<F == Flow::gather, GatherKernels, ScatterKernels>;

/// The kernels for data of type T (any of the eleven; only its width and, for reductions, its
/// arithmetic matter) and indices of type I.
template <Flow F, class T, class I>
KernelsOf<F> typed_kernels() noexcept {
  constexpr std::size_t W = sizeof(T);
  if constexpr (F == Flow::gather) {
    return {&check_indices<I>, &run_share<F, W, I>};
  } else {
    return {&check_indices<I>, &run_share<F, W, I>, &run_reduction_share<I>, &combine_of<T>, &find_collision<I>};
  }
}

/// Calls f(std::integral_constant<std::size_t, W>{}) for an element width of 1, 2, 4 or 8 bytes.
template <class F>
decltype(auto) visit_width(std::size_t width, F&& f) {
  switch (width) {
    case 1: return f(std::integral_constant<std::size_t, 1>{});
    case 2: return f(std::integral_constant<std::size_t, 2>{});
    case 4: return f(std::integral_constant<std::size_t, 4>{});
    default: return f(std::integral_constant<std::size_t, 8>{});
  }
}

/// The kernels for a (validated) data type and index type known only at run time.
template <Flow F>
KernelsOf<F> runtime_kernels(DataType type, DataType index_type) noexcept {
  return visit_index_type(index_type, [&](auto index) {
    using I = decltype(index);
    return visit_width(element_size(type), [](auto width) -> KernelsOf<F> {
      constexpr std::size_t W = decltype(width)::value;
      if constexpr (F == Flow::gather) {
        return {&check_indices<I>, &run_share<F, W, I>};
      } else {
        return {&check_indices<I>, &run_share<F, W, I>, &run_reduction_share<I>, &select_combine<>, &find_collision<I>};
      }
    });
  });
}

}  // namespace dmlref::detail

// DMLREF_SEPARATE_KERNELS (see config.hpp): every kernel is declared `extern template` here and
// defined once, in the translation unit that also defines DMLREF_KERNELS_IMPLEMENTATION.
#if defined(DMLREF_SEPARATE_KERNELS)
#  if defined(DMLREF_KERNELS_IMPLEMENTATION)
#    define DMLREF_KERNEL_INSTANCE template
#  else
#    define DMLREF_KERNEL_INSTANCE extern template
#  endif
#  define DMLREF_KERNELS_OF_WIDTH(W, I)                                                                  \
  DMLREF_KERNEL_INSTANCE void run_share<Flow::gather, W, I>(const Share&) noexcept;                     \
  DMLREF_KERNEL_INSTANCE void run_share<Flow::scatter, W, I>(const Share&) noexcept;
#  define DMLREF_KERNELS_OF_INDEX(name, value, I)                                                       \
  DMLREF_KERNEL_INSTANCE Status check_indices<I>(const Plan&, RowRange) noexcept;                       \
  DMLREF_KERNEL_INSTANCE void run_reduction_share<I>(const Share&) noexcept;                            \
  DMLREF_KERNEL_INSTANCE Status find_collision<I>(const Plan&, const Shape&, const Shape&) noexcept;    \
  DMLREF_KERNELS_OF_WIDTH(1, I) DMLREF_KERNELS_OF_WIDTH(2, I) DMLREF_KERNELS_OF_WIDTH(4, I)             \
  DMLREF_KERNELS_OF_WIDTH(8, I)
namespace dmlref::detail {
DMLREF_FOR_EACH_INDEX_TYPE(DMLREF_KERNELS_OF_INDEX)
}  // namespace dmlref::detail
#  undef DMLREF_KERNELS_OF_INDEX
#  undef DMLREF_KERNELS_OF_WIDTH
#  undef DMLREF_KERNEL_INSTANCE
#endif

#endif  // DMLREF_DETAIL_KERNELS_HPP
