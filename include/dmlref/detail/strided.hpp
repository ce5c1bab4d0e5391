#ifndef DMLREF_DETAIL_STRIDED_HPP
#define DMLREF_DETAIL_STRIDED_HPP

#include <cstdint>

#include "../config.hpp"

// The one strided walk of the library: dimensions that step through N tensors at once, merged
// where they are contiguous, and an odometer over them. Plans, the index check, the copies and
// the ONNX helpers all walk tensors with it.

namespace dmlref::detail {

/// One dimension of a walk: its size and, for each of N tensors, its stride in elements.
template <int N>
struct Dim {
  std::int64_t size;
  std::int64_t stride[N];
};

/// Merges neighbouring dimensions that are contiguous in every tensor, so that inner loops run
/// longer; returns the new rank. Dimensions run from outermost to innermost.
template <int N>
int coalesce(Dim<N>* dims, int rank) noexcept {
  if (rank <= 1) return rank;  // nothing to merge (a small call's plan, often)
  int n = 0;
  for (int d = 0; d < rank; ++d) {
    const Dim<N> inner = dims[d];
    if (n > 0) {
      Dim<N>& outer = dims[n - 1];
      bool contiguous = true;
      for (int k = 0; k < N; ++k) contiguous = contiguous && outer.stride[k] == inner.stride[k] * inner.size;
      if (contiguous) {
        outer.size *= inner.size;
        for (int k = 0; k < N; ++k) outer.stride[k] = inner.stride[k];
        continue;
      }
    }
    dims[n++] = inner;
  }
  return n;
}

/// A coordinate over dims[0, rank) that steps in row-major order, keeping one element offset per
/// tensor. Only the first `rank` coordinates are ever written or read.
template <int N>
struct Odometer {
  const Dim<N>* dims;
  int rank;
  std::int64_t coord[max_dimension_count];
  std::int64_t offset[N] = {};

  Odometer(const Dim<N>* walked, int walked_rank) noexcept : dims(walked), rank(walked_rank) {
    for (int d = 0; d < rank; ++d) coord[d] = 0;
  }

  /// Moves to the coordinate numbered `linear` in row-major order.
  void seek(std::int64_t linear) noexcept {
    for (int k = 0; k < N; ++k) offset[k] = 0;
    for (int d = rank - 1; d >= 0; --d) {
      const std::int64_t x = linear % dims[d].size;
      linear /= dims[d].size;
      coord[d] = x;
      for (int k = 0; k < N; ++k) offset[k] += x * dims[d].stride[k];
    }
  }

  /// Steps to the next coordinate; after the last one, returns false with every offset back at 0.
  /// A size-1 dimension never adds its stride, which may be any value.
  bool next() noexcept {
    for (int d = rank - 1; d >= 0; --d) {
      const Dim<N>& dim = dims[d];
      if (++coord[d] < dim.size) {
        for (int k = 0; k < N; ++k) offset[k] += dim.stride[k];
        return true;
      }
      coord[d] = 0;
      for (int k = 0; k < N; ++k) offset[k] -= (dim.size - 1) * dim.stride[k];
    }
    return false;
  }
};

/// Calls fn(offsets) for every coordinate of dims[0, rank), in row-major order.
template <int N, class Fn>
void for_each_offset(const Dim<N>* dims, int rank, Fn&& fn) noexcept {
  Odometer<N> walk(dims, rank);
  do fn(static_cast<const std::int64_t*>(walk.offset));
  while (walk.next());
}

}  // namespace dmlref::detail

#endif  // DMLREF_DETAIL_STRIDED_HPP
