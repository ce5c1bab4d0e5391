#ifndef DMLREF_DETAIL_PLAN_HPP
#define DMLREF_DETAIL_PLAN_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>

#include "../config.hpp"
#include "../options.hpp"
#include "../status.hpp"
#include "tensor.hpp"

// Every operator is one "indexed block copy": a loop over rows of the dense tensor (gather: the
// output; scatter: the updates), where each row reads an index tuple, turns it into an offset in
// the indexed tensor (gather: the input; scatter: the output), and copies a block of elements
// between the two. Gather's outer/index/inner split, GatherND's tuples and batches and
// GatherElements' per-element axis all map onto this; the operators only build the plan.

namespace dmlref::detail {

enum class Flow : std::uint8_t { gather, scatter };

/// A dimension the row loop walks. index_stride addresses IndicesTensor.
struct LoopDim {
  std::int64_t size, dense_stride, index_stride, indexed_stride;
};
/// A dimension of the block copied per row.
struct BlockDim {
  std::int64_t size, src_stride, dst_stride;
};
/// One coordinate of an index tuple: the size and stride of the dimension it addresses.
struct TupleEntry {
  std::int64_t size, indexed_stride;
  int target_dimension;
};

struct Plan {
  const char* op = "";
  Flow flow = Flow::gather;
  std::size_t element_size = 0;
  DataType index_type = DataType::UNKNOWN;
  unsigned char* dense = nullptr;
  unsigned char* indexed = nullptr;
  const unsigned char* indices = nullptr;
  int loop_rank = 0;
  LoopDim loop[max_dimension_count];
  int block_rank = 0;
  BlockDim block[max_dimension_count];
  int tuple_length = 0;
  std::int64_t tuple_stride = 0;  ///< IndicesTensor stride between a tuple's coordinates
  TupleEntry tuple[max_dimension_count];
  // Index validation walks all of IndicesTensor; for the ND operators its last dimension is the tuple.
  const RawTensor* indices_tensor = nullptr;
  const char* indexed_name = "";
  bool last_dimension_is_tuple = false;

  void add_loop(std::int64_t size, std::int64_t dense_stride, std::int64_t index_stride,
                std::int64_t indexed_stride) noexcept {
    if (size != 1) loop[loop_rank++] = {size, dense_stride, index_stride, indexed_stride};
  }
  void add_block(std::int64_t size, std::int64_t dense_stride, std::int64_t indexed_stride) noexcept {
    if (size == 1) return;
    block[block_rank++] = flow == Flow::gather ? BlockDim{size, indexed_stride, dense_stride}
                                               : BlockDim{size, dense_stride, indexed_stride};
  }
  void add_tuple(std::int64_t size, std::int64_t indexed_stride, int target_dimension) noexcept {
    tuple[tuple_length++] = {size, indexed_stride, target_dimension};
  }

  /// Merges neighbouring dimensions that are contiguous in every tensor, so loops run longer.
  void coalesce() noexcept {
    int n = 0;
    for (int d = 0; d < loop_rank; ++d) {
      const LoopDim& in = loop[d];
      if (n > 0) {
        LoopDim& outer = loop[n - 1];
        if (outer.dense_stride == in.dense_stride * in.size &&
            outer.index_stride == in.index_stride * in.size &&
            outer.indexed_stride == in.indexed_stride * in.size) {
          outer = {outer.size * in.size, in.dense_stride, in.index_stride, in.indexed_stride};
          continue;
        }
      }
      loop[n++] = in;
    }
    loop_rank = n;
    block_rank = coalesce_block(block, block_rank);
  }

  static int coalesce_block(BlockDim* dims, int rank) noexcept {
    int n = 0;
    for (int d = 0; d < rank; ++d) {
      const BlockDim in = dims[d];
      if (n > 0) {
        BlockDim& outer = dims[n - 1];
        if (outer.src_stride == in.src_stride * in.size &&
            outer.dst_stride == in.dst_stride * in.size) {
          outer = {outer.size * in.size, in.src_stride, in.dst_stride};
          continue;
        }
      }
      dims[n++] = in;
    }
    return n;
  }
};

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

/// The position v addresses in a dimension of n: negative values count from the end.
/// Without Clamp, v must be in range; with it, WebNN's clamp to [-n, n-1] comes first.
template <class I, bool Clamp>
inline std::int64_t normalize_index(I v, std::int64_t n) noexcept {
  if constexpr (std::is_signed_v<I>) {
    std::int64_t x = v;
    if constexpr (Clamp) x = x < -n ? -n : (x > n - 1 ? n - 1 : x);
    return x < 0 ? x + n : x;
  } else {
    if constexpr (Clamp) {
      if (static_cast<std::uint64_t>(v) > static_cast<std::uint64_t>(n - 1)) return n - 1;
    }
    return static_cast<std::int64_t>(v);
  }
}

/// Checks every value of IndicesTensor, in row-major order; the first bad one is the error.
template <class I>
Status check_indices(const Plan& p) noexcept {
  const RawTensor& t = *p.indices_tensor;
  const int rank = t.sizes.rank();
  const int last = rank - 1;
  std::int64_t coord[max_dimension_count] = {};
  std::int64_t offset = 0;
  for (;;) {
    const std::int64_t count = t.sizes[last], stride = t.strides[last];
    std::int64_t x = offset;
    for (std::int64_t j = 0; j < count; ++j, x += stride) {
      const int k = p.last_dimension_is_tuple ? static_cast<int>(j) : 0;
      const I v = load_index<I>(p.indices, x);
      if (DMLREF_LIKELY(index_in_range(v, p.tuple[k].size))) continue;
      Error e;
      e.code = ErrorCode::index_out_of_range;
      e.op = p.op;
      e.tensor = t.name;
      e.field = "value";
      e.actual = std::is_signed_v<I> ? ErrorValue::of(static_cast<std::int64_t>(v))
                                     : ErrorValue::of_unsigned(static_cast<std::uint64_t>(v));
      const std::int64_t n = p.tuple[k].size;
      e.expected = std::is_signed_v<I> ? ErrorValue::range(-n, n - 1) : ErrorValue::range(0, n - 1);
      for (int d = 0; d < last; ++d) e.position.push_back(coord[d]);
      e.position.push_back(j);
      e.target_tensor = p.indexed_name;
      e.target_dimension = p.tuple[k].target_dimension;
      e.target_size = n;
      return Status(e);
    }
    int d = last - 1;
    for (; d >= 0; --d) {
      if (++coord[d] < t.sizes[d]) {
        offset += t.strides[d];
        break;
      }
      offset -= (t.sizes[d] - 1) * t.strides[d];
      coord[d] = 0;
    }
    if (d < 0) return Status();
  }
}

/// Calls row(dense_offset, indexed_offset) for every row in row-major order of the dense tensor;
/// indexed_offset already includes the tuple's contribution. Offsets are in elements.
template <class I, bool Clamp, class Row>
void for_each_row(const Plan& p, Row&& row) noexcept {
  const LoopDim inner = p.loop_rank > 0 ? p.loop[p.loop_rank - 1] : LoopDim{1, 0, 0, 0};
  const int outer_rank = p.loop_rank > 0 ? p.loop_rank - 1 : 0;
  const unsigned char* const indices = p.indices;
  const TupleEntry first = p.tuple[0];
  std::int64_t coord[max_dimension_count];
  for (int d = 0; d < outer_rank; ++d) coord[d] = 0;
  std::int64_t dense = 0, index = 0, indexed = 0;
  for (;;) {
    std::int64_t d = dense, x = index, y = indexed;
    if (p.tuple_length == 1) {
      for (std::int64_t i = 0; i < inner.size; ++i) {
        const std::int64_t a = normalize_index<I, Clamp>(load_index<I>(indices, x), first.size);
        row(d, y + a * first.indexed_stride);
        d += inner.dense_stride;
        x += inner.index_stride;
        y += inner.indexed_stride;
      }
    } else {
      for (std::int64_t i = 0; i < inner.size; ++i) {
        std::int64_t target = y;
        for (int k = 0; k < p.tuple_length; ++k) {
          const I v = load_index<I>(indices, x + k * p.tuple_stride);
          target += normalize_index<I, Clamp>(v, p.tuple[k].size) * p.tuple[k].indexed_stride;
        }
        row(d, target);
        d += inner.dense_stride;
        x += inner.index_stride;
        y += inner.indexed_stride;
      }
    }
    int dim = outer_rank - 1;
    for (; dim >= 0; --dim) {
      const LoopDim& l = p.loop[dim];
      if (++coord[dim] < l.size) {
        dense += l.dense_stride;
        index += l.index_stride;
        indexed += l.indexed_stride;
        break;
      }
      coord[dim] = 0;
      dense -= (l.size - 1) * l.dense_stride;
      index -= (l.size - 1) * l.index_stride;
      indexed -= (l.size - 1) * l.indexed_stride;
    }
    if (dim < 0) return;
  }
}

// Block copiers: what one row moves. Chosen once per call, so the row loop inlines them.

/// One element of W bytes (GatherElements, Scatter, Gather on the last axis).
template <std::size_t W>
struct CopyElement {
  void operator()(unsigned char* dst, const unsigned char* src) const noexcept { std::memcpy(dst, src, W); }
};

/// One contiguous run (row gathers, ND blocks).
struct CopyRun {
  std::size_t bytes;
  void operator()(unsigned char* dst, const unsigned char* src) const noexcept { std::memcpy(dst, src, bytes); }
};

/// Any strided block (dims from outermost to innermost).
template <std::size_t W>
struct CopyBlock {
  const BlockDim* dims;
  int rank;
  void operator()(unsigned char* dst, const unsigned char* src) const noexcept {
    constexpr std::int64_t w = static_cast<std::int64_t>(W);
    const BlockDim& inner = dims[rank - 1];
    std::int64_t coord[max_dimension_count];
    for (int d = 0; d < rank; ++d) coord[d] = 0;
    std::int64_t s = 0, t = 0;
    for (;;) {
      if (inner.src_stride == 1 && inner.dst_stride == 1) {
        std::memcpy(dst + t * w, src + s * w, static_cast<std::size_t>(inner.size) * W);
      } else {
        const unsigned char* from = src + s * w;
        unsigned char* to = dst + t * w;
        for (std::int64_t i = 0; i < inner.size; ++i, from += inner.src_stride * w, to += inner.dst_stride * w)
          std::memcpy(to, from, W);
      }
      int d = rank - 2;
      for (; d >= 0; --d) {
        if (++coord[d] < dims[d].size) {
          s += dims[d].src_stride;
          t += dims[d].dst_stride;
          break;
        }
        coord[d] = 0;
        s -= (dims[d].size - 1) * dims[d].src_stride;
        t -= (dims[d].size - 1) * dims[d].dst_stride;
      }
      if (d < 0) return;
    }
  }
};

template <std::size_t W>
void copy_block(unsigned char* dst, const unsigned char* src, const BlockDim* dims, int rank) noexcept {
  if (rank == 0) return CopyElement<W>{}(dst, src);
  if (rank == 1 && dims[0].src_stride == 1 && dims[0].dst_stride == 1)
    return CopyRun{static_cast<std::size_t>(dims[0].size) * W}(dst, src);
  CopyBlock<W>{dims, rank}(dst, src);
}

template <class I, bool Clamp, class Copy>
void execute_rows(const Plan& p, const Copy& copy) noexcept {
  const std::int64_t w = static_cast<std::int64_t>(p.element_size);
  unsigned char* const dense = p.dense;
  unsigned char* const indexed = p.indexed;
  if (p.flow == Flow::gather) {
    for_each_row<I, Clamp>(p, [&](std::int64_t d, std::int64_t y) { copy(dense + d * w, indexed + y * w); });
  } else {
    for_each_row<I, Clamp>(p, [&](std::int64_t d, std::int64_t y) { copy(indexed + y * w, dense + d * w); });
  }
}

template <std::size_t W, class I, bool Clamp>
void execute_plan(const Plan& p) noexcept {
  if (p.block_rank == 0) return execute_rows<I, Clamp>(p, CopyElement<W>{});
  if (p.block_rank == 1 && p.block[0].src_stride == 1 && p.block[0].dst_stride == 1)
    return execute_rows<I, Clamp>(p, CopyRun{static_cast<std::size_t>(p.block[0].size) * W});
  execute_rows<I, Clamp>(p, CopyBlock<W>{p.block, p.block_rank});
}

/// Calls f(I{}) with the C++ type of a (valid) index type.
template <class F>
decltype(auto) visit_index_type(DataType type, F&& f) {
  switch (type) {
    case DataType::INT32: return f(std::int32_t{});
    case DataType::INT64: return f(std::int64_t{});
    case DataType::UINT32: return f(std::uint32_t{});
    case DataType::UINT64: return f(std::uint64_t{});
    case DataType::UNKNOWN:
    case DataType::FLOAT32:
    case DataType::FLOAT16:
    case DataType::FLOAT64:
    case DataType::INT16:
    case DataType::INT8:
    case DataType::UINT16:
    case DataType::UINT8:
      break;
  }
  return f(std::uint64_t{});  // unreachable: index types are validated first
}

/// Runs the plan: element width and index type become template arguments here, once.
inline void execute(const Plan& p, IndexPolicy policy) noexcept {
  visit_index_type(p.index_type, [&](auto index) {
    using I = decltype(index);
    const bool clamp = policy == IndexPolicy::clamp;
    switch (p.element_size) {
      case 1: return clamp ? execute_plan<1, I, true>(p) : execute_plan<1, I, false>(p);
      case 2: return clamp ? execute_plan<2, I, true>(p) : execute_plan<2, I, false>(p);
      case 4: return clamp ? execute_plan<4, I, true>(p) : execute_plan<4, I, false>(p);
      default: return clamp ? execute_plan<8, I, true>(p) : execute_plan<8, I, false>(p);
    }
  });
}

inline Status check_indices(const Plan& p, IndexPolicy policy) noexcept {
  if (policy == IndexPolicy::clamp) return Status();
  return visit_index_type(p.index_type, [&](auto index) { return check_indices<decltype(index)>(p); });
}

/// Copies every element of `src` to `dst` (same sizes), contiguous runs with memcpy.
inline void copy_tensor(const RawTensor& dst, const RawTensor& src) noexcept {
  BlockDim dims[max_dimension_count];
  int rank = 0;
  for (int d = 0; d < dst.sizes.rank(); ++d)
    if (dst.sizes[d] != 1) dims[rank++] = {dst.sizes[d], src.strides[d], dst.strides[d]};
  rank = Plan::coalesce_block(dims, rank);
  switch (element_size(dst.type)) {
    case 1: return copy_block<1>(dst.data, src.data, dims, rank);
    case 2: return copy_block<2>(dst.data, src.data, dims, rank);
    case 4: return copy_block<4>(dst.data, src.data, dims, rank);
    default: return copy_block<8>(dst.data, src.data, dims, rank);
  }
}

}  // namespace dmlref::detail

#endif  // DMLREF_DETAIL_PLAN_HPP
