

#ifndef DMLREF_DETAIL_PLAN_HPP
#define DMLREF_DETAIL_PLAN_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>

#include "../config.hpp"
#include "../executor.hpp"
#include "../options.hpp"
#include "../status.hpp"
#include "reduce.hpp"
#include "tensor.hpp"

#if defined(__SSE2__) || defined(_M_X64)
#  include <emmintrin.h>
#  define DMLREF_HAS_STREAMING_STORES 1
#else
#  define DMLREF_HAS_STREAMING_STORES 0
#endif

// Every operator is one "indexed block copy": a loop over rows of the dense tensor (gather: the
// output; scatter: the updates), where each row reads an index tuple, turns it into an offset in
// the indexed tensor (gather: the input; scatter: the output), and copies a block of elements
// between the two. Gather's outer/index/inner split, GatherND's tuples and batches and
// GatherElements' per-element axis all map onto this; the operators only build the plan.

namespace dmlref::detail {

enum class Flow : std::uint8_t { gather, scatter };

/// A dimension the row loop walks. index_stride addresses IndicesTensor; source_stride addresses
/// a scatter's InputTensor (only used when the copy of the input is fused into the scatter).
struct LoopDim {
  std::int64_t size, dense_stride, index_stride, indexed_stride, source_stride;
};
/// A dimension of the block copied per row.
struct BlockDim {
  std::int64_t size, src_stride, dst_stride;
};
/// One coordinate of an index tuple: the size and stride of the dimension it addresses.
struct TupleEntry {
  std::int64_t size, indexed_stride;
  int target_dimension;
  std::int64_t source_stride;
};

struct Plan {
  const char* op = "";
  Flow flow = Flow::gather;
  std::size_t element_size = 0;
  DataType index_type = DataType::UNKNOWN;
  unsigned char* dense = nullptr;
  unsigned char* indexed = nullptr;
  const unsigned char* indices = nullptr;
  /// Scatter (elements): InputTensor, which may be copied row by row along with the updates.
  const unsigned char* source = nullptr;
  /// Scatter with a reduction: combines each update into its output element instead of copying.
  CombineFn combine = nullptr;
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
                std::int64_t indexed_stride, std::int64_t source_stride = 0) noexcept {
    if (size != 1) loop[loop_rank++] = {size, dense_stride, index_stride, indexed_stride, source_stride};
  }
  /// Rows the loop walks (the product of the loop sizes).
  std::int64_t row_count() const noexcept {
    std::int64_t rows = 1;
    for (int d = 0; d < loop_rank; ++d) rows *= loop[d].size;
    return rows;
  }
  /// Rows per iteration of the innermost loop dimension.
  std::int64_t inner_size() const noexcept { return loop_rank > 0 ? loop[loop_rank - 1].size : 1; }
  std::int64_t block_elements() const noexcept {
    std::int64_t n = 1;
    for (int d = 0; d < block_rank; ++d) n *= block[d].size;
    return n;
  }

  void add_block(std::int64_t size, std::int64_t dense_stride, std::int64_t indexed_stride) noexcept {
    if (size == 1) return;
    block[block_rank++] = flow == Flow::gather ? BlockDim{size, indexed_stride, dense_stride}
                                               : BlockDim{size, dense_stride, indexed_stride};
  }
  void add_tuple(std::int64_t size, std::int64_t indexed_stride, int target_dimension,
                 std::int64_t source_stride = 0) noexcept {
    tuple[tuple_length++] = {size, indexed_stride, target_dimension, source_stride};
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
            outer.indexed_stride == in.indexed_stride * in.size &&
            outer.source_stride == in.source_stride * in.size) {
          outer = {outer.size * in.size, in.dense_stride, in.index_stride, in.indexed_stride,
                   in.source_stride};
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

/// The two entry points that instantiate the kernels (see DMLREF_SEPARATE_KERNELS in config.hpp):
/// checks every value of IndicesTensor (unless the policy clamps), and runs a checked plan.
DMLREF_KERNEL_LINKAGE Status check_indices(const Plan& p, IndexPolicy policy) noexcept;
DMLREF_KERNEL_LINKAGE void execute(const Plan& p, const Options& options) noexcept;

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

/// v shifted so that "in range of n" is one unsigned comparison with range_limit(n): a signed
/// v is in [-n, n) exactly when v + n, taken modulo 2^64, is below 2n (n < 2^63).
template <class I>
inline std::uint64_t shifted_index(I v, std::uint64_t n) noexcept {
  if constexpr (std::is_signed_v<I>) return static_cast<std::uint64_t>(static_cast<std::int64_t>(v)) + n;
  return static_cast<std::uint64_t>(v);
}
template <class I>
constexpr std::uint64_t range_limit(std::uint64_t n) noexcept {
  return std::is_signed_v<I> ? 2 * n : n;
}

/// How far ahead a sequential pass over IndicesTensor prefetches. The hardware prefetcher of the
/// machines measured runs too short a distance ahead for loops this fast: 4 KiB ahead took a scan
/// of 64 MiB of indices from 10.5 to 7.2 ms, and a staged int8 GatherElements from 11.6 to 7.7.
inline constexpr std::uintptr_t kIndexPrefetchBytes = 4096;

/// Prefetches the cache line `bytes` past `at`. That address may lie past the end of the buffer
/// (a prefetch never faults), so it is formed as an integer, not by pointer arithmetic.
inline void prefetch_ahead(const unsigned char* at, std::uintptr_t bytes) noexcept {
  DMLREF_PREFETCH(reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(at) + bytes));
}

/// For u = shifted_index(v, n) and last = range_limit(n) - 1 < 2^63: the top bit of the result
/// is set exactly when v is out of range. Plain adds, subtracts and ors: a scan over many values
/// has no branch and no compare, and vectorizes even on baseline SSE2.
template <class I>
inline std::uint64_t range_bits(const unsigned char* at, std::uint64_t n, std::uint64_t last) noexcept {
  I v;
  std::memcpy(&v, at, sizeof(I));
  const std::uint64_t u = shifted_index(v, n);
  return u | (last - u);
}

/// True when the `count` values `step` bytes apart from `at` are all in range of n; false also
/// when n is too large for range_bits() (then the exact check decides).
template <class I, class Step>
bool line_in_range(const unsigned char* at, std::int64_t count, Step step, std::uint64_t n) noexcept {
  const std::uint64_t limit = range_limit<I>(n);
  if (limit > std::uint64_t{1} << 63) return false;
  const std::uint64_t last = limit - 1;
  std::uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;  // four chains: no add waits on the one before
  auto four = [&](const unsigned char* q) {
    a0 |= range_bits<I>(q, n, last);
    a1 |= range_bits<I>(q + step, n, last);
    a2 |= range_bits<I>(q + 2 * step, n, last);
    a3 |= range_bits<I>(q + 3 * step, n, last);
  };
  std::int64_t i = 0;
  if constexpr (std::is_same_v<Step, std::integral_constant<std::int64_t, sizeof(I)>>) {
    // Packed values: a cache line at a time, prefetching kIndexPrefetchBytes ahead.
    constexpr std::int64_t per_line = 64 / sizeof(I);  // a multiple of 4
    for (; i + per_line <= count; i += per_line) {
      prefetch_ahead(at, kIndexPrefetchBytes);
      for (std::int64_t k = 0; k < per_line; k += 4, at += 4 * step) four(at);
    }
  }
  for (; i + 4 <= count; i += 4, at += 4 * step) four(at);
  for (; i < count; ++i, at += step) a0 |= range_bits<I>(at, n, last);
  return ((a0 | a1 | a2 | a3) >> 63) == 0;
}

/// True when every value of IndicesTensor is in range. The fast path of check_indices: whole
/// lines at once, without locating the first bad value.
template <class I>
bool all_indices_in_range(const Plan& p) noexcept {
  const RawTensor& t = *p.indices_tensor;
  if (t.packed && !p.last_dimension_is_tuple)  // one line (known after check_layout)
    return line_in_range<I>(p.indices, t.elements, std::integral_constant<std::int64_t, sizeof(I)>{},
                            static_cast<std::uint64_t>(p.tuple[0].size));
  const int last = t.sizes.rank() - 1;
  // The tuple dimension (ND operators) is walked inside each line, with a bound per coordinate.
  const int K = p.last_dimension_is_tuple ? static_cast<int>(t.sizes[last]) : 1;
  const std::int64_t tuple_stride = K > 1 ? t.strides[last] : 0;
  BlockDim dims[max_dimension_count];
  int rank = 0;
  for (int d = 0; d < (p.last_dimension_is_tuple ? last : last + 1); ++d)
    if (t.sizes[d] != 1) dims[rank++] = {t.sizes[d], t.strides[d], 0};
  rank = Plan::coalesce_block(dims, rank);
  const std::int64_t count = rank > 0 ? dims[rank - 1].size : 1;
  const std::int64_t stride = rank > 0 ? dims[rank - 1].src_stride : 0;
  std::int64_t coord[max_dimension_count] = {};
  std::int64_t offset = 0;
  for (;;) {
    for (int k = 0; k < K; ++k) {
      const unsigned char* const first = p.indices + (offset + k * tuple_stride) * std::int64_t{sizeof(I)};
      const std::uint64_t n = static_cast<std::uint64_t>(p.tuple[k].size);
      const bool in_range = stride == 1 ? line_in_range<I>(first, count, std::integral_constant<std::int64_t, sizeof(I)>{}, n)
                                        : line_in_range<I>(first, count, stride * std::int64_t{sizeof(I)}, n);
      if (!in_range) return false;
    }
    int d = rank - 2;
    for (; d >= 0; --d) {
      if (++coord[d] < dims[d].size) {
        offset += dims[d].src_stride;
        break;
      }
      offset -= (dims[d].size - 1) * dims[d].src_stride;
      coord[d] = 0;
    }
    if (d < 0) return true;
  }
}

/// Checks every value of IndicesTensor, in row-major order; the first bad one is the error.
template <class I>
Status check_indices(const Plan& p) noexcept {
  if (DMLREF_LIKELY(all_indices_in_range<I>(p))) return Status();
  const RawTensor& t = *p.indices_tensor;
  const int rank = t.sizes.rank();
  const int last = rank - 1;
  std::int64_t coord[max_dimension_count] = {};
  std::int64_t offset = 0;
  for (;;) {
    // A size-1 dimension's stride is unconstrained: stepping past it could overflow.
    const std::int64_t count = t.sizes[last], stride = count > 1 ? t.strides[last] : 0;
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

/// Where the row walk stands: a coordinate over the loop dimensions and its offsets.
struct Cursor {
  std::int64_t coord[max_dimension_count];
  std::int64_t dense, index, indexed, source;
};

/// The cursor at row number `row` (row-major over the loop dimensions).
inline Cursor seek(const Plan& p, std::int64_t row) noexcept {
  // Not `Cursor c{}`: g++ zeroes those 96 bytes with `rep stos`, slow to start (W8 pays it per
  // call). Coordinates past loop_rank are never read.
  Cursor c;
  c.dense = c.index = c.indexed = c.source = 0;
  for (int d = p.loop_rank - 1; d >= 0; --d) {
    const LoopDim& l = p.loop[d];
    std::int64_t x = 0;
    if (row != 0) {
      x = row % l.size;
      row /= l.size;
    }
    c.coord[d] = x;
    c.dense += x * l.dense_stride;
    c.index += x * l.index_stride;
    c.indexed += x * l.indexed_stride;
    c.source += x * l.source_stride;
  }
  return c;
}

/// Moves the cursor to the start of the next line of the innermost loop dimension.
inline void next_line(const Plan& p, Cursor& c) noexcept {
  const int last = p.loop_rank - 1;
  if (last >= 0) {  // back to the start of the current line
    const LoopDim& l = p.loop[last];
    c.dense -= c.coord[last] * l.dense_stride;
    c.index -= c.coord[last] * l.index_stride;
    c.indexed -= c.coord[last] * l.indexed_stride;
    c.source -= c.coord[last] * l.source_stride;
    c.coord[last] = 0;
  }
  for (int d = last - 1; d >= 0; --d) {
    const LoopDim& l = p.loop[d];
    if (++c.coord[d] < l.size) {
      c.dense += l.dense_stride;
      c.index += l.index_stride;
      c.indexed += l.indexed_stride;
      c.source += l.source_stride;
      return;
    }
    c.coord[d] = 0;
    c.dense -= (l.size - 1) * l.dense_stride;
    c.index -= (l.size - 1) * l.index_stride;
    c.indexed -= (l.size - 1) * l.indexed_stride;
    c.source -= (l.size - 1) * l.source_stride;
  }
}

/// Rows whose first tuple coordinate falls outside [lo, hi) are skipped: how a scatter splits
/// across threads without two threads writing one element.
struct TargetRange {
  std::int64_t lo = 0, hi = INT64_MAX;
};

/// Calls row(dense_offset, indexed_offset, first_coordinate) for rows [begin, end) in row-major
/// order. The indexed offset includes the whole tuple's contribution; offsets are in elements.
template <class I, bool Clamp, class Row>
void for_each_row(const Plan& p, std::int64_t begin, std::int64_t end, Row&& row) noexcept {
  const LoopDim inner = p.loop_rank > 0 ? p.loop[p.loop_rank - 1] : LoopDim{1, 0, 0, 0, 0};
  const unsigned char* const indices = p.indices;
  const TupleEntry first = p.tuple[0];
  const int K = p.tuple_length;
  Cursor c;
  if (p.loop_rank <= 1) {  // one line (a 1-D index list, say): no division, no call
    c.coord[0] = begin;
    c.dense = begin * inner.dense_stride;
    c.index = begin * inner.index_stride;
    c.indexed = begin * inner.indexed_stride;
    c.source = begin * inner.source_stride;
  } else {
    c = seek(p, begin);
  }
  std::int64_t i = p.loop_rank > 0 ? c.coord[p.loop_rank - 1] : 0;
  std::int64_t remaining = end - begin;
  while (remaining > 0) {
    const std::int64_t line = inner.size - i < remaining ? inner.size - i : remaining;
    std::int64_t d = c.dense, x = c.index, y = c.indexed;
    if (K == 1) {
      for (std::int64_t k = 0; k < line;
           ++k, d += inner.dense_stride, x += inner.index_stride, y += inner.indexed_stride) {
        const std::int64_t a = normalize_index<I, Clamp>(load_index<I>(indices, x), first.size);
        row(d, y + a * first.indexed_stride, a);
      }
    } else {
      for (std::int64_t k = 0; k < line;
           ++k, d += inner.dense_stride, x += inner.index_stride, y += inner.indexed_stride) {
        const std::int64_t a = normalize_index<I, Clamp>(load_index<I>(indices, x), first.size);
        std::int64_t target = y + a * first.indexed_stride;
        for (int t = 1; t < K; ++t)
          target += normalize_index<I, Clamp>(load_index<I>(indices, x + t * p.tuple_stride), p.tuple[t].size) *
                    p.tuple[t].indexed_stride;
        row(d, target, a);
      }
    }
    remaining -= line;
    if (remaining == 0) return;
    if (p.loop_rank > 0) c.coord[p.loop_rank - 1] = i;
    next_line(p, c);
    i = 0;
  }
}

/// The rows of for_each_row whose first tuple coordinate is in `range`, handed to
/// batch(dense_offsets, indexed_offsets, n) up to kRowBatch at a time, so that a copy can
/// prefetch a batch before moving it.
inline constexpr int kRowBatch = 16;

template <class I, bool Clamp, class Batch>
void walk_rows(const Plan& p, std::int64_t begin, std::int64_t end, TargetRange range,
               Batch&& batch) noexcept {
  std::int64_t dense_offsets[kRowBatch], indexed_offsets[kRowBatch];
  int n = 0;
  for_each_row<I, Clamp>(p, begin, end, [&](std::int64_t d, std::int64_t y, std::int64_t a) {
    dense_offsets[n] = d;
    indexed_offsets[n] = y;
    n += (a >= range.lo) & (a < range.hi);
    if (n == kRowBatch) {
      batch(dense_offsets, indexed_offsets, n);
      n = 0;
    }
  });
  if (n > 0) batch(dense_offsets, indexed_offsets, n);
}

// Block copiers: what one row moves. Chosen once per call, so the row loop inlines them.

/// One element of W bytes (GatherElements, Scatter, Gather on the last axis).
template <std::size_t W>
struct CopyElement {
  void operator()(unsigned char* dst, const unsigned char* src) const noexcept { std::memcpy(dst, src, W); }
  bool prefetches() const noexcept { return true; }
  template <bool Write>
  void prefetch(const unsigned char* block) const noexcept {
    if (Write) DMLREF_PREFETCH_WRITE(block); else DMLREF_PREFETCH(block);
  }
};

/// One contiguous run (row gathers, ND blocks).
struct CopyRun {
  std::size_t length;
  void operator()(unsigned char* dst, const unsigned char* src) const noexcept { std::memcpy(dst, src, length); }
  /// The first 8 lines of a long run, and of the next page when the run reaches into it: the
  /// hardware prefetcher follows a run from there, but never across a 4 KiB page (a padded row
  /// pitch puts most rows across two; W9 padded went from 13.3 to 11.6 ms). Shorter runs are
  /// left alone: measured here, prefetching 4 KiB rows gains a little, while 1-2 KiB rows (int8
  /// and float16 W1) lost 15-40% and 256-byte GatherND blocks 10%.
  bool prefetches() const noexcept { return length >= 4096; }
  template <bool Write>
  void prefetch(const unsigned char* block) const noexcept {
    for (std::size_t b = 0; b < length && b < 512; b += 64) {
      if (Write) DMLREF_PREFETCH_WRITE(block + b); else DMLREF_PREFETCH(block + b);
    }
    const std::size_t next_page = 4096 - reinterpret_cast<std::uintptr_t>(block) % 4096;
    for (std::size_t b = next_page; b < length && b < next_page + 512; b += 64) {
      if (Write) DMLREF_PREFETCH_WRITE(block + b); else DMLREF_PREFETCH(block + b);
    }
  }
};

/// Bytes of each output row one pass of gather_tiles_in_input_order writes: four cache lines.
inline constexpr std::int64_t kTileBytes = 256;
/// Outputs at least this large are written with streaming stores (gather_tiles_in_input_order,
/// streams_rows): smaller ones stay in the caches, where streaming would only evict them.
inline constexpr std::int64_t kStreamBytes = 4 * 1024 * 1024;

/// Copies `bytes` (a multiple of 64) to a 64-byte aligned `dst`, bypassing the caches where the
/// target can: a plain store would first read each line it overwrites.
inline void stream_lines(unsigned char* dst, const unsigned char* src, std::size_t bytes) noexcept {
#if DMLREF_HAS_STREAMING_STORES
  for (std::size_t b = 0; b < bytes; b += 16)
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + b), _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + b)));
#else
  std::memcpy(dst, src, bytes);
#endif
}

/// Orders streaming stores before whatever follows (another thread may read the output next).
inline void stream_fence() noexcept {
#if DMLREF_HAS_STREAMING_STORES
  _mm_sfence();
#endif
}

/// One contiguous run whose whole cache lines are streamed (stream_lines) and the partial lines
/// at either end copied plainly. For a scatter's long rows at random places of a large output.
struct StreamRun {
  std::size_t length;
  void operator()(unsigned char* dst, const unsigned char* src) const noexcept {
    std::size_t head = (64 - reinterpret_cast<std::uintptr_t>(dst) % 64) % 64;
    if (head > length) head = length;
    const std::size_t lines = (length - head) / 64 * 64;
    std::memcpy(dst, src, head);
    stream_lines(dst + head, src + head, lines);
    std::memcpy(dst + head + lines, src + head + lines, length - head - lines);
  }
  bool prefetches() const noexcept { return false; }
  template <bool Write>
  void prefetch(const unsigned char*) const noexcept {}
};

/// `count` elements, strided on both sides (one tile of a far-strided block, see run_share).
template <std::size_t W>
struct CopyStrided {
  std::int64_t count, src_stride, dst_stride;
  void operator()(unsigned char* dst, const unsigned char* src) const noexcept {
    constexpr std::int64_t w = static_cast<std::int64_t>(W);
    for (std::int64_t i = 0; i < count; ++i) std::memcpy(dst + i * dst_stride * w, src + i * src_stride * w, W);
  }
  /// Every element: each sits on a line of its own.
  bool prefetches() const noexcept { return true; }
  template <bool Write>
  void prefetch(const unsigned char* block) const noexcept {
    const std::int64_t step = (Write ? dst_stride : src_stride) * static_cast<std::int64_t>(W);
    for (std::int64_t i = 0; i < count; ++i) {
      if (Write) DMLREF_PREFETCH_WRITE(block + i * step); else DMLREF_PREFETCH(block + i * step);
    }
  }
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
  bool prefetches() const noexcept { return true; }
  template <bool Write>
  void prefetch(const unsigned char* block) const noexcept {
    if (Write) DMLREF_PREFETCH_WRITE(block); else DMLREF_PREFETCH(block);
  }
};

template <std::size_t W>
void copy_block(unsigned char* dst, const unsigned char* src, const BlockDim* dims, int rank) noexcept {
  if (rank == 0) return CopyElement<W>{}(dst, src);
  if (rank == 1 && dims[0].src_stride == 1 && dims[0].dst_stride == 1)
    return CopyRun{static_cast<std::size_t>(dims[0].size) * W}(dst, src);
  CopyBlock<W>{dims, rank}(dst, src);
}

/// Calls fn(src_offset, dst_offset) for every element of a block, in row-major order.
template <class Fn>
void for_each_block_element(const BlockDim* dims, int rank, Fn&& fn) noexcept {
  std::int64_t coord[max_dimension_count] = {};
  std::int64_t s = 0, t = 0;
  for (;;) {
    fn(s, t);
    int d = rank - 1;
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

/// Copies rows in batches, one batch behind the walk: each batch's blocks (their first 8 cache
/// lines) are prefetched while the previous batch is copied, so random rows do not wait for
/// memory one after another.
template <class I, bool Clamp, class Copy>
void copy_rows(const Plan& p, std::int64_t begin, std::int64_t end, TargetRange range,
               const Copy& copy) noexcept {
  const std::int64_t w = static_cast<std::int64_t>(p.element_size);
  const bool gather = p.flow == Flow::gather;
  unsigned char* const dense = p.dense;
  unsigned char* const indexed = p.indexed;
  // Short runs, or a single batch: nothing worth prefetching ahead, so copy as the rows come.
  if (!copy.prefetches() || end - begin <= kRowBatch) {
    // One loop per case, capturing by value: the copy is an opaque call, after which a loop
    // with the case tests inside reloaded every captured variable, per row.
    if (range.lo > 0 || range.hi < p.tuple[0].size)
      for_each_row<I, Clamp>(p, begin, end, [=](std::int64_t d, std::int64_t y, std::int64_t a) {
        if (a < range.lo || a >= range.hi) return;
        if (gather) copy(dense + d * w, indexed + y * w);
        else copy(indexed + y * w, dense + d * w);
      });
    else if (gather)
      for_each_row<I, Clamp>(p, begin, end, [=](std::int64_t d, std::int64_t y, std::int64_t) {
        copy(dense + d * w, indexed + y * w);
      });
    else
      for_each_row<I, Clamp>(p, begin, end, [=](std::int64_t d, std::int64_t y, std::int64_t) {
        copy(indexed + y * w, dense + d * w);
      });
    return;
  }
  std::int64_t pending_dense[kRowBatch], pending_indexed[kRowBatch];
  int pending = 0;
  auto flush = [&] {
    if (gather) {
      for (int k = 0; k < pending; ++k) copy(dense + pending_dense[k] * w, indexed + pending_indexed[k] * w);
    } else {
      for (int k = 0; k < pending; ++k) copy(indexed + pending_indexed[k] * w, dense + pending_dense[k] * w);
    }
  };
  walk_rows<I, Clamp>(p, begin, end, range, [&](const std::int64_t* d, const std::int64_t* y, int n) {
    for (int k = 0; k < n; ++k) {
      if (gather) copy.template prefetch<false>(indexed + y[k] * w);
      else copy.template prefetch<true>(indexed + y[k] * w);
    }
    flush();
    std::memcpy(pending_dense, d, static_cast<std::size_t>(n) * sizeof(std::int64_t));
    std::memcpy(pending_indexed, y, static_cast<std::size_t>(n) * sizeof(std::int64_t));
    pending = n;
  });
  flush();
}

// Staged rows. When every row of an innermost loop line picks single elements from the same
// short line of the indexed tensor (Gather on the last axis, GatherElements/Scatter along the
// innermost axis), that line is moved once through a buffer on the stack: sequential memory
// traffic instead of a cache miss per element. The buffer is a fixed size: no heap.
inline constexpr std::size_t kStageBytes = 32 * 1024;

/// True when the plan's rows are element copies whose innermost loop line shares one indexed
/// line that fits the stage buffer, and reuses enough of it to pay for moving it whole.
inline bool stageable(const Plan& p) noexcept {
  if (p.combine != nullptr || p.tuple_length != 1 || p.block_rank != 0 || p.loop_rank == 0) return false;
  const LoopDim& inner = p.loop[p.loop_rank - 1];
  const std::int64_t n = p.tuple[0].size;
  return inner.indexed_stride == 0 && n <= std::int64_t{kStageBytes} / static_cast<std::int64_t>(p.element_size) &&
         inner.size * 8 >= n;
}

/// A Scatter whose every output line is staged: the copy of InputTensor happens line by line in
/// the stage buffer, fused with the updates, so the output is written once, sequentially.
inline bool fuses_input_copy(const Plan& p) noexcept {
  if (p.flow != Flow::scatter || p.source == nullptr || !stageable(p)) return false;
  for (int d = 0; d + 1 < p.loop_rank; ++d)
    if (p.loop[d].indexed_stride == 0) return false;  // an outer loop must not revisit a line
  return true;
}

/// Moves n elements of W bytes, `stride` elements apart, between a line and the stage buffer.
template <std::size_t W>
void gather_line(unsigned char* stage, const unsigned char* line, std::int64_t n, std::int64_t stride) noexcept {
  if (stride == 1) return static_cast<void>(std::memcpy(stage, line, static_cast<std::size_t>(n) * W));
  for (std::int64_t a = 0; a < n; ++a) std::memcpy(stage + a * std::int64_t{W}, line + a * stride * std::int64_t{W}, W);
}
template <std::size_t W>
void scatter_line(unsigned char* line, const unsigned char* stage, std::int64_t n, std::int64_t stride) noexcept {
  if (stride == 1) return static_cast<void>(std::memcpy(line, stage, static_cast<std::size_t>(n) * W));
  for (std::int64_t a = 0; a < n; ++a) std::memcpy(line + a * stride * std::int64_t{W}, stage + a * std::int64_t{W}, W);
}

/// Moves `lines` neighbouring lines (n elements each, `stride` apart; line g starts `line_step`
/// elements after line g - 1) into the stage buffer, `pitch` elements apart. Element a of every
/// line is read in one sweep, so lines whose elements share cache lines read each cache line once.
template <std::size_t W>
void gather_lines(unsigned char* stage, std::int64_t pitch, const unsigned char* first_line, std::int64_t n,
                  std::int64_t stride, std::int64_t lines, std::int64_t line_step) noexcept {
  constexpr std::int64_t w = static_cast<std::int64_t>(W);
  // Far-strided lines put each element on a cache line (and often a page) of its own: prefetched
  // 16 elements ahead, the sweep overlaps its misses (measured 15.9 -> 10.5 ms on 32 MiB).
  const auto ahead = static_cast<std::uintptr_t>(16 * stride * w);
  for (std::int64_t a = 0; a < n; ++a) {
    const unsigned char* const from = first_line + a * stride * w;
    if (stride * w >= 64) prefetch_ahead(from, ahead);
    for (std::int64_t g = 0; g < lines; ++g) std::memcpy(stage + (g * pitch + a) * w, from + g * line_step * w, W);
  }
}

/// The most a grouped stage (copy_staged_rows) takes from the heap when the stack buffer cannot
/// hold a cache line's worth of lines.
inline constexpr std::int64_t kGroupStageBytes = 1024 * 1024;

/// Below this many bytes, a staged line is left to the hardware prefetcher.
inline constexpr std::int64_t kPrefetchLineBytes = 1024;

/// The line a staged pass moves next, prefetched while the current line's rows run: `lines`
/// cache lines from `read` (the next line to stage) and, unless null, from `write` (the next
/// line to write back). Staging then reads cache, and its reads of memory overlap this work.
struct LineAhead {
  const unsigned char* read = nullptr;
  const unsigned char* write = nullptr;
  std::int64_t lines = 0;
};

/// Runs fn(dense_offset, index_offset) for the `count` rows of a line. The common unit-stride
/// line gets its own loop, which the compiler can keep in registers and unroll: a cache line of
/// indices at a time, prefetching the indices kIndexPrefetchBytes ahead and `ahead` spread
/// evenly over the rows.
template <class I, class Fn>
inline void for_each_in_line(const unsigned char* indices, std::int64_t count, std::int64_t dense,
                             std::int64_t dense_stride, std::int64_t index, std::int64_t index_stride,
                             const LineAhead& ahead, Fn&& fn) noexcept {
  if (dense_stride == 1 && index_stride == 1) {
    constexpr std::int64_t per_block = 64 / sizeof(I);
    const std::int64_t blocks = count / per_block;
    const std::int64_t ahead_per_block = ahead.lines > 0 && blocks > 0 ? (ahead.lines + blocks - 1) / blocks : 0;
    std::int64_t next = 0;  // the next cache line of `ahead` to prefetch
    std::int64_t i = 0;
    for (; i + per_block <= count; i += per_block) {
      prefetch_ahead(indices + (index + i) * std::int64_t{sizeof(I)}, kIndexPrefetchBytes);
      for (std::int64_t l = 0; l < ahead_per_block && next < ahead.lines; ++l, ++next) {
        DMLREF_PREFETCH(ahead.read + next * 64);
        if (ahead.write != nullptr) DMLREF_PREFETCH_WRITE(ahead.write + next * 64);
      }
      for (std::int64_t k = i; k < i + per_block; ++k) fn(dense + k, index + k);
    }
    for (; i < count; ++i) fn(dense + i, index + i);
  } else {
    for (std::int64_t i = 0; i < count; ++i, dense += dense_stride, index += index_stride) fn(dense, index);
  }
}

/// Rows [begin, end) of a stageable plan, staging each line they touch (a line = one iteration
/// of the outer loop dimensions). Gathers may start and end mid-line; a scatter's share is whole
/// lines, because it writes its staged lines back whole. `scratch`: a group of far-strided lines
/// may be staged on the heap (Options::allow_scratch).
template <std::size_t W, class I, bool Clamp>
void copy_staged_rows(const Plan& p, std::int64_t begin, std::int64_t end, bool scratch) noexcept {
  constexpr std::int64_t w = static_cast<std::int64_t>(W);
  alignas(64) unsigned char stage[kStageBytes];
  const LoopDim inner = p.loop[p.loop_rank - 1];
  const TupleEntry line = p.tuple[0];
  const bool fused = fuses_input_copy(p);
  // Worth the second copy of the line when the line has at least as many rows as elements
  // (measured: with 1024 rows per 4096-element line, W2, the copy cost 13%).
  const bool doubled = std::is_signed_v<I> && !Clamp && p.flow == Flow::gather &&
                       2 * line.size * w <= std::int64_t{kStageBytes} && inner.size >= line.size;
  // A far-strided line (a transposed input) whose neighbour in the next loop dimension starts
  // within the same cache line: stage `group` such lines at once, so that each cache line is read
  // once rather than once per line. (Such lines are often a power of two apart, which also
  // defeats the caches' associativity when they are read one at a time.)
  const LoopDim outer = p.loop_rank >= 2 ? p.loop[p.loop_rank - 2] : LoopDim{1, 0, 0, 0, 0};
  std::int64_t group = 1;
  std::int64_t pitch = line.size;  // elements from one staged line to the next
  unsigned char* grouped = stage;
  std::unique_ptr<unsigned char[]> heap;
  // Compared as strides, not bytes: a size-1 line's stride is unconstrained and may be huge.
  if (p.flow == Flow::gather && line.size > 1 && line.indexed_stride >= 64 / w && outer.indexed_stride > 0 &&
      outer.indexed_stride < 64 / w) {
    group = 64 / (outer.indexed_stride * w);
    if (group > outer.size) group = outer.size;
    if (group * line.size * w > std::int64_t{kStageBytes}) {
      // Too many for the stack buffer: the heap, each line padded by a cache line, since lines of
      // a power-of-two length would otherwise share cache sets. Measured on a transposed [2048,
      // 4096] float GatherElements: 60 ms staging 2 lines at a time, 25-28 ms staging 16 so.
      pitch = line.size + 64 / w;
      if (group * pitch * w > kGroupStageBytes) group = kGroupStageBytes / (pitch * w);
      if (group > 1 && scratch) heap.reset(new (std::nothrow) unsigned char[static_cast<std::size_t>(group * pitch * w)]);
      if (heap) {
        grouped = heap.get();
      } else {
        pitch = line.size;
        group = std::int64_t{kStageBytes} / (line.size * w);
      }
    }
  }
  // The next line is prefetched when it is contiguous and long enough (a scatter's fused copy
  // stages InputTensor's line, and also writes OutputTensor's).
  const bool prefetch_next = line.size * w >= kPrefetchLineBytes &&
                             (fused ? line.source_stride : line.indexed_stride) == 1;
  // Locals, not p's members: the compiler cannot prove the stores below leave *p alone.
  unsigned char* const dense = p.dense;
  unsigned char* const indexed = p.indexed;
  const unsigned char* const indices = p.indices;
  const unsigned char* const source = p.source;
  Cursor c = seek(p, begin);
  std::int64_t first = c.coord[p.loop_rank - 1];  // the line's first row this share moves
  for (std::int64_t remaining = end - begin; remaining > 0;) {
    const std::int64_t count = inner.size - first < remaining ? inner.size - first : remaining;
    // inner.indexed_stride is 0: every row of the line addresses the same indexed line.
    if (group > 1 && first == 0 && remaining >= group * inner.size &&
        c.coord[p.loop_rank - 2] + group <= outer.size) {
      gather_lines<W>(grouped, pitch, indexed + c.indexed * w, line.size, line.indexed_stride, group,
                      outer.indexed_stride);
      for (std::int64_t g = 0; g < group; ++g) {
        const unsigned char* const staged = grouped + g * pitch * w;
        for_each_in_line<I>(indices, inner.size, c.dense + g * outer.dense_stride, inner.dense_stride,
                            c.index + g * outer.index_stride, inner.index_stride, LineAhead{},
                            [&](std::int64_t d, std::int64_t x) {
                              const std::int64_t a = normalize_index<I, Clamp>(load_index<I>(indices, x), line.size);
                              std::memcpy(dense + d * w, staged + a * w, W);
                            });
      }
      remaining -= group * inner.size;
      if (remaining == 0) return;
      for (std::int64_t g = 0; g < group; ++g) next_line(p, c);  // c is at a line start
      continue;
    }
    LineAhead ahead;
    if (prefetch_next && remaining > count) {
      Cursor next = c;
      next_line(p, next);
      ahead.read = fused ? source + next.source * w : indexed + next.indexed * w;
      if (fused) ahead.write = indexed + next.indexed * w;
      ahead.lines = (line.size * w + 63) / 64;
    }
    if (p.flow == Flow::gather && doubled) {
      // The line twice, end to end: a signed index in [-n, n) addresses it from the middle,
      // with no normalisation per element.
      gather_line<W>(stage, indexed + c.indexed * w, line.size, line.indexed_stride);
      std::memcpy(stage + line.size * w, stage, static_cast<std::size_t>(line.size * w));
      const unsigned char* const middle = stage + line.size * w;
      for_each_in_line<I>(indices, count, c.dense, inner.dense_stride, c.index, inner.index_stride, ahead,
                          [&](std::int64_t d, std::int64_t x) {
                            const std::int64_t a = static_cast<std::int64_t>(load_index<I>(indices, x));
                            std::memcpy(dense + d * w, middle + a * w, W);
                          });
    } else if (p.flow == Flow::gather) {
      gather_line<W>(stage, indexed + c.indexed * w, line.size, line.indexed_stride);
      for_each_in_line<I>(indices, count, c.dense, inner.dense_stride, c.index, inner.index_stride, ahead,
                          [&](std::int64_t d, std::int64_t x) {
                            const std::int64_t a = normalize_index<I, Clamp>(load_index<I>(indices, x), line.size);
                            std::memcpy(dense + d * w, stage + a * w, W);
                          });
    } else {
      const unsigned char* from = fused ? source + c.source * w : indexed + c.indexed * w;
      gather_line<W>(stage, from, line.size, fused ? line.source_stride : line.indexed_stride);
      for_each_in_line<I>(indices, count, c.dense, inner.dense_stride, c.index, inner.index_stride, ahead,
                          [&](std::int64_t d, std::int64_t x) {
                            const std::int64_t a = normalize_index<I, Clamp>(load_index<I>(indices, x), line.size);
                            std::memcpy(stage + a * w, dense + d * w, W);
                          });
      scatter_line<W>(indexed + c.indexed * w, stage, line.size, line.indexed_stride);
    }
    remaining -= count;
    if (remaining == 0) return;
    c.coord[p.loop_rank - 1] = first;
    next_line(p, c);
    first = 0;
  }
}

/// One share of a call: rows [begin, end), and for a scatter split by target, a range of the
/// first tuple coordinate.
struct Share {
  const Plan* plan;
  std::int64_t begin, end;
  TargetRange range;
  bool scratch = true;  ///< Options::allow_scratch
};

/// A one-dimensional block whose indexed side is far-strided (a transposed input, say): copied
/// row by row, every element would cost a cache line and a TLB entry of its own.
inline bool tiled(const Plan& p) noexcept {
  if (p.combine != nullptr || p.block_rank != 1) return false;
  const BlockDim& b = p.block[0];
  const std::int64_t far = p.flow == Flow::gather ? b.src_stride : b.dst_stride;
  return far >= 64 && b.size > 1;
}

/// A gather whose block is far-strided in the input (a transposed input), rows [begin, end). Row
/// by row (tiled's order), every element read was a cache miss at a random place and every tile
/// written a scattered partial line. Here, for each tile of the block (kTileBytes of each output
/// row), the rows run in order of their input offset, so the tile's input lines are read in
/// ascending order, one stream per element of the tile; and each row's tile is assembled in a
/// buffer and written whole, with streaming stores when the output is too large for the caches to
/// keep between tiles and its rows share one alignment. Measured on a transposed [32768, 1024]
/// float input with 16384 random rows: 57-78 ms row by row, 21 ms so. False, having done
/// nothing, when there is no memory for the sorted list of rows.
template <std::size_t W, class I, bool Clamp>
bool gather_tiles_in_input_order(const Plan& p, std::int64_t begin, std::int64_t end) noexcept {
  struct Row {
    std::int64_t indexed, dense;
  };
  const std::int64_t n = end - begin;
  std::unique_ptr<Row[]> rows(new (std::nothrow) Row[static_cast<std::size_t>(n)]);
  if (!rows) return false;
  constexpr std::int64_t w = static_cast<std::int64_t>(W);
  const BlockDim b = p.block[0];
  std::int64_t k = 0;
  for_each_row<I, Clamp>(p, begin, end, [&](std::int64_t d, std::int64_t y, std::int64_t) { rows[k++] = {y, d}; });
  std::int64_t misaligned = 0;  // do the rows' tiles start at different offsets in a cache line?
  for (std::int64_t r = 1; r < n; ++r) misaligned |= (rows[r].dense - rows[0].dense) * w;
  std::sort(rows.get(), rows.get() + n, [](const Row& x, const Row& y) { return x.indexed < y.indexed; });

  constexpr std::int64_t tile = kTileBytes / w;
  // Streaming: the first tile is cut short so that the others start on a cache line.
  const auto line_offset = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(p.dense + rows[0].dense * w) % 64);
  const bool stream = DMLREF_HAS_STREAMING_STORES && b.dst_stride == 1 && (misaligned & 63) == 0 &&
                      line_offset % w == 0 && n * b.size * w >= kStreamBytes;
  const std::int64_t head = stream ? std::min((64 - line_offset) % 64 / w, b.size) : 0;
  alignas(64) unsigned char buffer[kTileBytes];
  for (std::int64_t j = 0; j < b.size;) {
    const std::int64_t count = j == 0 && head > 0 ? head : (b.size - j < tile ? b.size - j : tile);
    const unsigned char* const from = p.indexed + j * b.src_stride * w;
    unsigned char* const to = p.dense + j * b.dst_stride * w;
    const std::int64_t src_step = b.src_stride * w;
    for (std::int64_t r = 0; r < n; ++r) {
      const unsigned char* src = from + rows[r].indexed * w;
      unsigned char* const dst = to + rows[r].dense * w;
      if (count == tile) {
        for (std::int64_t e = 0; e < tile; ++e, src += src_step) std::memcpy(buffer + e * w, src, W);
        if (stream) {
          stream_lines(dst, buffer, static_cast<std::size_t>(kTileBytes));
          continue;
        }
      } else {
        for (std::int64_t e = 0; e < count; ++e, src += src_step) std::memcpy(buffer + e * w, src, W);
      }
      if (b.dst_stride == 1) {
        std::memcpy(dst, buffer, static_cast<std::size_t>(count * w));
      } else {
        for (std::int64_t e = 0; e < count; ++e) std::memcpy(dst + e * b.dst_stride * w, buffer + e * w, W);
      }
    }
    j += count;
  }
  if (stream) stream_fence();
  return true;
}

/// Whether a scatter's contiguous rows are written with streaming stores (StreamRun): rows of a
/// few cache lines at least, more than kStreamBytes of them, into an output with that much room
/// for them (a smaller output stays in the caches, where streaming would only evict it). Measured:
/// 16384 random 1 KiB rows into a 64 MiB tensor, 3.8-4.2 ms plainly, 1.3 ms streamed.
inline bool streams_rows(const Plan& p, const Share& s) noexcept {
  if (p.flow != Flow::scatter || p.combine != nullptr || !DMLREF_HAS_STREAMING_STORES) return false;
  const std::int64_t length = p.block_elements() * static_cast<std::int64_t>(p.element_size);
  if (length < kTileBytes) return false;
  std::int64_t targets = 1;  // rows the output holds: the tuple's and the batch dimensions' sizes
  for (int t = 0; t < p.tuple_length; ++t) targets *= p.tuple[t].size;
  for (int d = 0; d < p.loop_rank; ++d)
    if (p.loop[d].indexed_stride != 0) targets *= p.loop[d].size;
  const std::int64_t rows = s.end - s.begin;
  return (rows < targets ? rows : targets) >= kStreamBytes / length;
}

template <std::size_t W, class I, bool Clamp>
void run_share(const Share& s) noexcept {
  const Plan& p = *s.plan;
  if (stageable(p)) return copy_staged_rows<W, I, Clamp>(p, s.begin, s.end, s.scratch);
  if (tiled(p)) {
    if (p.flow == Flow::gather && s.scratch && gather_tiles_in_input_order<W, I, Clamp>(p, s.begin, s.end)) return;
    // Tiles of one cache line of the block outside, rows inside: each tile pass reuses the lines
    // and pages the previous rows brought in. Every element belongs to one tile, and rows keep
    // their order within it, so a scatter's last writer is unchanged.
    const BlockDim b = p.block[0];
    const std::int64_t tile = W >= 64 ? 1 : 64 / static_cast<std::int64_t>(W);
    const std::int64_t w = static_cast<std::int64_t>(W);
    const bool gather = p.flow == Flow::gather;
    for (std::int64_t j = 0; j < b.size; j += tile) {
      Plan shifted = p;
      shifted.indexed += j * (gather ? b.src_stride : b.dst_stride) * w;
      shifted.dense += j * (gather ? b.dst_stride : b.src_stride) * w;
      const std::int64_t count = b.size - j < tile ? b.size - j : tile;
      copy_rows<I, Clamp>(shifted, s.begin, s.end, s.range, CopyStrided<W>{count, b.src_stride, b.dst_stride});
    }
    return;
  }
  if (p.block_rank == 0) return copy_rows<I, Clamp>(p, s.begin, s.end, s.range, CopyElement<W>{});
  if (p.block_rank == 1 && p.block[0].src_stride == 1 && p.block[0].dst_stride == 1) {
    const auto length = static_cast<std::size_t>(p.block[0].size) * W;
    if (streams_rows(p, s)) {
      copy_rows<I, Clamp>(p, s.begin, s.end, s.range, StreamRun{length});
      return stream_fence();
    }
    return copy_rows<I, Clamp>(p, s.begin, s.end, s.range, CopyRun{length});
  }
  copy_rows<I, Clamp>(p, s.begin, s.end, s.range, CopyBlock<W>{p.block, p.block_rank});
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

/// A scatter with a reduction: every update element combined into its output element, in order.
template <class I, bool Clamp>
void run_reduction_share(const Share& s) noexcept {
  const Plan& p = *s.plan;
  const std::int64_t w = static_cast<std::int64_t>(p.element_size);
  const CombineFn combine = p.combine;
  walk_rows<I, Clamp>(p, s.begin, s.end, s.range, [&](const std::int64_t* d, const std::int64_t* y, int n) {
    for (int k = 0; k < n; ++k) {
      unsigned char* const out = p.indexed + y[k] * w;
      const unsigned char* const update = p.dense + d[k] * w;
      for_each_block_element(p.block, p.block_rank, [&](std::int64_t from, std::int64_t to) {
        combine(out + to * w, update + from * w);
      });
    }
  });
}

/// The kernel for this plan's element width, index type and policy, chosen once per call.
inline void (*select_runner(const Plan& p, IndexPolicy policy) noexcept)(const Share&) noexcept {
  return visit_index_type(p.index_type, [&](auto index) -> void (*)(const Share&) noexcept {
    using I = decltype(index);
    const bool clamp = policy == IndexPolicy::clamp;
    if (p.combine != nullptr) return clamp ? &run_reduction_share<I, true> : &run_reduction_share<I, false>;
    switch (p.element_size) {
      case 1: return clamp ? &run_share<1, I, true> : &run_share<1, I, false>;
      case 2: return clamp ? &run_share<2, I, true> : &run_share<2, I, false>;
      case 4: return clamp ? &run_share<4, I, true> : &run_share<4, I, false>;
      default: return clamp ? &run_share<8, I, true> : &run_share<8, I, false>;
    }
  });
}

inline constexpr std::int64_t kMinShareBytes = 256 * 1024;
inline constexpr int kMaxShares = 64;

/// How many shares `bytes` of work split into (1: run it on the caller), and the executor that
/// runs them: work under 2 x kMinShareBytes is never split.
inline int plan_shares(std::int64_t bytes, const Options& options, Executor*& executor) noexcept {
  if (options.threads <= 1 || bytes < 2 * kMinShareBytes) return 1;
  executor = options.executor != nullptr ? options.executor : &default_thread_pool();
  std::int64_t limit = options.threads;
  if (executor->concurrency() < limit) limit = executor->concurrency();
  if (bytes / kMinShareBytes < limit) limit = bytes / kMinShareBytes;
  if (limit > kMaxShares) limit = kMaxShares;
  return static_cast<int>(limit);
}

/// Runs the plan, on up to Options::threads threads. Gathers split their rows anywhere. A scatter
/// must not let two threads write one element, and must keep the sequential winner of colliding
/// updates: it splits at outer lines when those address disjoint outputs, and otherwise gives each
/// thread a range of the first tuple coordinate (every thread walks every row, in order, and
/// writes only its range).
#if DMLREF_KERNEL_DEFINITIONS
DMLREF_KERNEL_LINKAGE void execute(const Plan& p, const Options& options) noexcept {
  void (*runner)(const Share&) noexcept = select_runner(p, options.index_policy);
  const bool scratch = options.allow_scratch;
  const bool staged = stageable(p);
  const std::int64_t rows = p.row_count();
  const std::int64_t lines = rows / p.inner_size();
  const std::int64_t w = static_cast<std::int64_t>(p.element_size);
  const std::int64_t bytes = staged ? lines * (p.tuple[0].size + p.inner_size()) * w
                                    : rows * p.block_elements() * w;
  Executor* executor = nullptr;
  int shares = plan_shares(bytes, options, executor);
  if (shares <= 1) return runner(Share{&p, 0, rows, TargetRange{}, scratch});

  bool lines_disjoint = true;  // do different outer lines write different elements?
  for (int d = 0; d + 1 < p.loop_rank; ++d) lines_disjoint = lines_disjoint && p.loop[d].indexed_stride != 0;
  Share list[kMaxShares];
  if (p.flow == Flow::gather) {
    if (rows < shares) shares = static_cast<int>(rows);
    for (int i = 0; i < shares; ++i) list[i] = Share{&p, rows * i / shares, rows * (i + 1) / shares, TargetRange{}, scratch};
  } else if (lines_disjoint && lines >= shares) {
    const std::int64_t line = p.inner_size();  // whole lines: no two shares write one element
    for (int i = 0; i < shares; ++i)
      list[i] = Share{&p, lines * i / shares * line, lines * (i + 1) / shares * line, TargetRange{}, scratch};
  } else if (!staged) {
    const std::int64_t n = p.tuple[0].size;
    if (n < shares) shares = static_cast<int>(n);
    for (int i = 0; i < shares; ++i) list[i] = Share{&p, 0, rows, TargetRange{n * i / shares, n * (i + 1) / shares}, scratch};
  } else {
    shares = 1;  // staged lines that share an output line: sequential
    list[0] = Share{&p, 0, rows, TargetRange{}, scratch};
  }
  if (shares <= 1) return runner(list[0]);
  struct Job {
    void (*runner)(const Share&) noexcept;
    const Share* list;
  } job{runner, list};
  executor->run(
      shares, [](void* context, int i) noexcept {
        const Job& j = *static_cast<const Job*>(context);
        j.runner(j.list[i]);
      },
      &job);
}

DMLREF_KERNEL_LINKAGE Status check_indices(const Plan& p, IndexPolicy policy) noexcept {
  if (policy == IndexPolicy::clamp) return Status();
  return visit_index_type(p.index_type, [&](auto index) { return check_indices<decltype(index)>(p); });
}
#endif  // DMLREF_KERNEL_DEFINITIONS

/// Copies every element of `src` to `dst` (same sizes), contiguous runs with memcpy; a large
/// copy splits its outermost dimension over Options::threads.
inline void copy_tensor(const RawTensor& dst, const RawTensor& src, const Options& options) noexcept {
  struct Copy {
    unsigned char* dst;
    const unsigned char* src;
    BlockDim dims[max_dimension_count];
    int rank, shares;
    std::size_t w;
    void operator()(int share) const noexcept {
      BlockDim part[max_dimension_count];
      std::copy(dims, dims + rank, part);
      std::int64_t first = 0;
      if (rank > 0) {  // rows [first, last) of the outermost dimension
        first = dims[0].size * share / shares;
        part[0].size = dims[0].size * (share + 1) / shares - first;
      }
      const auto from = static_cast<std::int64_t>(w) * (rank > 0 ? first * dims[0].src_stride : 0);
      const auto to = static_cast<std::int64_t>(w) * (rank > 0 ? first * dims[0].dst_stride : 0);
      switch (w) {
        case 1: return copy_block<1>(dst + to, src + from, part, rank);
        case 2: return copy_block<2>(dst + to, src + from, part, rank);
        case 4: return copy_block<4>(dst + to, src + from, part, rank);
        default: return copy_block<8>(dst + to, src + from, part, rank);
      }
    }
  } copy{dst.data, src.data, {}, 0, 1, element_size(dst.type)};
  std::int64_t elements = 1;
  for (int d = 0; d < dst.sizes.rank(); ++d) {
    elements *= dst.sizes[d];
    if (dst.sizes[d] != 1) copy.dims[copy.rank++] = {dst.sizes[d], src.strides[d], dst.strides[d]};
  }
  copy.rank = Plan::coalesce_block(copy.dims, copy.rank);
  Executor* executor = nullptr;
  if (copy.rank > 0) {
    copy.shares = plan_shares(elements * static_cast<std::int64_t>(copy.w), options, executor);
    if (copy.shares > copy.dims[0].size) copy.shares = static_cast<int>(copy.dims[0].size);
  }
  if (copy.shares <= 1) return copy(0);
  executor->run(
      copy.shares, [](void* context, int i) noexcept { (*static_cast<const Copy*>(context))(i); }, &copy);
}

}  // namespace dmlref::detail

#endif  // DMLREF_DETAIL_PLAN_HPP
