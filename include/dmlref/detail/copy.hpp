#ifndef DMLREF_DETAIL_COPY_HPP
#define DMLREF_DETAIL_COPY_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../config.hpp"
#include "machine.hpp"
#include "plan.hpp"
#include "strided.hpp"
#include "walk.hpp"

#define DMLREF_HAS_STREAMING_STORES DMLREF_HAS_SSE2

// Block copiers (what one row moves) and the row copy loop. A copier is chosen once per call, so
// the row loop inlines it. Copies move raw bytes of the element width: bit-exact for every type.

namespace dmlref::detail {

/// The shortest run a scatter streams.
inline constexpr std::int64_t kStreamRunBytes = 256;
/// The bytes of one call that the last-level cache can be expected to keep: half of it, as the
/// other tensors of the call and other work share it.
inline std::int64_t cached_bytes() noexcept { return cache_sizes().l3 / 2; }

/// Outputs at least this large are written with streaming stores, which skip reading the lines
/// they overwrite; smaller ones stay in the caches, where streaming would only evict them. A host
/// whose last-level cache holds less streams from cached_bytes().
inline std::int64_t stream_bytes() noexcept {
  constexpr std::int64_t most = 4 * 1024 * 1024;
  const std::int64_t cached = cached_bytes();
  return cached < most ? cached : most;
}

/// glibc's memcpy moves runs from about 2 KiB up with `rep movsb` on CPUs that report fast short
/// `rep movs`. On AMD Zen 3 that runs many times slower when the destination starts 1 to 31
/// bytes past the source modulo 4 KiB (glibc bug 30994; docs/performance.md, "Runs that memcpy
/// copies slowly"), a distance two buffers from one allocator easily have. On such a machine
/// (slow_aliased_memcpy()) copy_run moves those runs 64 bytes at a time itself; elsewhere memcpy
/// is faster from memory, and keeps them.
inline constexpr std::size_t kRepMovsBytes = 2048;

inline bool rep_movs_aliases(const unsigned char* dst, const unsigned char* src) noexcept {
  const std::uintptr_t apart = (reinterpret_cast<std::uintptr_t>(dst) - reinterpret_cast<std::uintptr_t>(src)) % 4096;
  return apart - 1 < 31;
}

#if DMLREF_HAS_SSE2
/// Copies 64 bytes: four loads, then four stores, so that no store waits on a load it aliases and
/// the line's stores leave back to back. `Stream`: streaming stores, to a 64-byte aligned `dst`.
template <bool Stream>
DMLREF_ALWAYS_INLINE void copy_line(unsigned char* dst, const unsigned char* src) noexcept {
  const __m128i x0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src));
  const __m128i x1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 16));
  const __m128i x2 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 32));
  const __m128i x3 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 48));
  auto* const to = reinterpret_cast<__m128i*>(dst);
  if constexpr (Stream) {
    _mm_stream_si128(to, x0);
    _mm_stream_si128(to + 1, x1);
    _mm_stream_si128(to + 2, x2);
    _mm_stream_si128(to + 3, x3);
  } else {
    _mm_storeu_si128(to, x0);
    _mm_storeu_si128(to + 1, x1);
    _mm_storeu_si128(to + 2, x2);
    _mm_storeu_si128(to + 3, x3);
  }
}

DMLREF_NOINLINE inline void copy_by_vectors(unsigned char* dst, const unsigned char* src, std::size_t length) noexcept {
  std::size_t b = 0;
  for (; b + 64 <= length; b += 64) copy_line<false>(dst + b, src + b);
  std::memcpy(dst + b, src + b, length - b);
}

/// copy_run of kRepMovsBytes and more: out of line, so that every caller inlines the short case.
DMLREF_NOINLINE inline void copy_long_run(unsigned char* dst, const unsigned char* src, std::size_t length) noexcept {
  if (DMLREF_UNLIKELY(rep_movs_aliases(dst, src)) && slow_aliased_memcpy()) return copy_by_vectors(dst, src, length);
  std::memcpy(dst, src, length);
}
#endif

/// memcpy of a contiguous run (the two do not overlap), but for the runs of kRepMovsBytes and more
/// in the slow window, on a machine where memcpy is slow there.
DMLREF_ALWAYS_INLINE void copy_run(unsigned char* dst, const unsigned char* src, std::size_t length) noexcept {
#if DMLREF_HAS_SSE2
  if (length >= kRepMovsBytes) return copy_long_run(dst, src, length);
#endif
  std::memcpy(dst, src, length);
}

template <bool Write>
inline void prefetch_line(const unsigned char* at) noexcept {
  if (Write) DMLREF_PREFETCH_WRITE(at); else DMLREF_PREFETCH(at);
}

/// `count` elements of W bytes, `from_stride` and `to_stride` elements apart. Offsets are taken
/// only for elements that exist: a line of one element may have any stride (up to INT64_MAX).
template <std::size_t W>
void copy_elements(unsigned char* dst, std::int64_t to_stride, const unsigned char* src, std::int64_t from_stride,
                   std::int64_t count) noexcept {
  constexpr std::int64_t w = static_cast<std::int64_t>(W);
  for (std::int64_t i = 0; i < count; ++i) std::memcpy(dst + i * to_stride * w, src + i * from_stride * w, W);
}

/// The Count elements of W bytes that at(0), ..., at(Count - 1) point to, in one word, the first
/// in its lowest bytes (Count * W <= 8): stored little-endian, the word is their run. Narrow
/// elements moved a word to a store: a store per element would make stores a copy loop's bottleneck.
template <std::size_t W, std::int64_t Count, class At>
DMLREF_ALWAYS_INLINE std::uint64_t elements_in_word(const At& at) noexcept {
  static_assert((W == 1 || W == 2 || W == 4) && Count * static_cast<std::int64_t>(W) <= 8,
                "narrow elements that fit one word");
  using Element = std::conditional_t<W == 1, std::uint8_t, std::conditional_t<W == 2, std::uint16_t, std::uint32_t>>;
  std::uint64_t word = 0;
  DMLREF_UNROLL_LOOP
  for (std::int64_t j = 0; j < Count; ++j) {
    Element e;
    std::memcpy(&e, at(j), W);
    word |= std::uint64_t{e} << (8 * W * j);
  }
  return word;
}

/// copy_elements of Count elements into a run (to_stride 1): where they are narrower than 8 bytes
/// and the target is little-endian, 8 bytes to a store (elements_in_word).
template <std::size_t W, std::int64_t Count>
DMLREF_ALWAYS_INLINE void copy_elements_to_run(unsigned char* dst, const unsigned char* src,
                                               std::int64_t from_stride) noexcept {
  constexpr std::int64_t w = static_cast<std::int64_t>(W), per_word = 8 / w;
  if constexpr (DMLREF_LITTLE_ENDIAN && W < 8 && Count % per_word == 0) {
    DMLREF_UNROLL_LOOP
    for (std::int64_t q = 0; q < Count; q += per_word) {
      const std::uint64_t word =
          elements_in_word<W, per_word>([&](std::int64_t j) { return src + (q + j) * from_stride * w; });
      std::memcpy(dst + q * w, &word, sizeof(word));
    }
  } else {
    copy_elements<W>(dst, 1, src, from_stride, Count);
  }
}

/// The same for an element width of 1, 2, 4 or 8 bytes known at run time: a switch per call, not
/// per element, and no copy loop per width elsewhere. Out of line: every strided copier shares one
/// copy of the four loops, and the elements it moves are far apart, so the call costs nothing.
DMLREF_NOINLINE inline void copy_elements(unsigned char* dst, std::int64_t to_stride, const unsigned char* src,
                          std::int64_t from_stride, std::int64_t count, std::size_t w) noexcept {
  switch (w) {
    case 1: return copy_elements<1>(dst, to_stride, src, from_stride, count);
    case 2: return copy_elements<2>(dst, to_stride, src, from_stride, count);
    case 4: return copy_elements<4>(dst, to_stride, src, from_stride, count);
    default: return copy_elements<8>(dst, to_stride, src, from_stride, count);
  }
}

/// Copies `bytes` (a multiple of 64) to a 64-byte aligned `dst`, bypassing the caches where the
/// target can: a plain store would first read each line it overwrites. A whole line an iteration,
/// its four stores back to back: one store an iteration ran slower where one build placed it
/// (docs/performance.md, "Buffers that start mid-line").
inline void stream_lines(unsigned char* dst, const unsigned char* src, std::size_t bytes) noexcept {
#if DMLREF_HAS_STREAMING_STORES
  for (std::size_t b = 0; b < bytes; b += 64) copy_line<true>(dst + b, src + b);
#else
  std::memcpy(dst, src, bytes);
#endif
}

/// Whether single elements of W bytes can be streamed (stream_element): 4 and 8 bytes, from a
/// general-purpose register.
template <std::size_t W>
inline constexpr bool kStreamsElements = DMLREF_HAS_STREAMING_STORES && (W == 4 || W == 8);

/// Copies one element of W bytes (kStreamsElements<W>) with a streaming store. Elements written
/// in order fill whole lines in the core's write-combining buffers, so that no line is read first.
template <std::size_t W>
inline void stream_element(unsigned char* dst, const unsigned char* src) noexcept {
#if DMLREF_HAS_STREAMING_STORES
  if constexpr (W == 4) {
    int value;
    std::memcpy(&value, src, W);
    _mm_stream_si32(reinterpret_cast<int*>(dst), value);
    return;
  } else if constexpr (W == 8) {
    long long value;
    std::memcpy(&value, src, W);
    _mm_stream_si64(reinterpret_cast<long long*>(dst), value);
    return;
  }
#endif
  std::memcpy(dst, src, W);
}

/// Orders streaming stores before whatever follows (another thread may read the output next).
inline void stream_fence() noexcept {
#if DMLREF_HAS_STREAMING_STORES
  _mm_sfence();
#endif
}

/// Copies a run whose whole cache lines are streamed (stream_lines) and the partial lines at
/// either end copied plainly. For a scatter's long rows at random places of a large output.
/// A plain store to a partial line reads that line first, and the streaming stores behind it wait
/// for the read: prefetch_partial_lines a few rows ahead.
inline void stream_run(unsigned char* dst, const unsigned char* src, std::size_t length) noexcept {
  std::size_t head = (64 - reinterpret_cast<std::uintptr_t>(dst) % 64) % 64;
  if (head > length) head = length;
  const std::size_t lines = (length - head) / 64 * 64;
  std::memcpy(dst, src, head);
  stream_lines(dst + head, src + head, lines);
  std::memcpy(dst + head + lines, src + head + lines, length - head - lines);
}

/// Prefetches for writing the lines that stream_run fills only in part: a run that starts or ends
/// within a line, as every row does in a buffer that starts mid-line (malloc's large blocks start
/// 16 bytes past a page).
inline void prefetch_partial_lines(const unsigned char* dst, std::size_t length) noexcept {
  const auto begin = reinterpret_cast<std::uintptr_t>(dst);
  if (begin % 64 != 0) prefetch_line<true>(dst);
  if ((begin + length) % 64 != 0) prefetch_line<true>(dst + length - 1);
}

// Block copiers: what one row moves. Each has copy(dst, src) and prefetch<Write>(block), which
// readies the block's first lines; copy_batched prefetches a batch of rows before copying it.

/// One element (GatherElements, Scatter, Gather on the last axis when not staged).
struct CopyElement {
  std::size_t w;
  void copy(unsigned char* dst, const unsigned char* src) const noexcept {
    switch (w) {  // a well-predicted branch: the element's own copy is a cache miss
      case 1: return static_cast<void>(std::memcpy(dst, src, 1));
      case 2: return static_cast<void>(std::memcpy(dst, src, 2));
      case 4: return static_cast<void>(std::memcpy(dst, src, 4));
      default: return static_cast<void>(std::memcpy(dst, src, 8));
    }
  }
  template <bool Write>
  void prefetch(const unsigned char* block) const noexcept { prefetch_line<Write>(block); }
};

/// One contiguous run (row gathers, ND blocks).
struct CopyRun {
  std::size_t length;
  bool next_page = true;  ///< prefetches_next_page
  void copy(unsigned char* dst, const unsigned char* src) const noexcept { copy_run(dst, src, length); }
  /// The first 8 lines, and (`next_page`) of the next page when the run reaches into it (from
  /// where the first 8 end, if they reach into it): the hardware prefetcher follows a run from
  /// there, but never across a 4 KiB page.
  template <bool Write>
  void prefetch(const unsigned char* block) const noexcept {
    for (std::size_t b = 0; b < length && b < 512; b += 64) prefetch_line<Write>(block + b);
    if (!next_page) return;
    const std::size_t page_end = 4096 - reinterpret_cast<std::uintptr_t>(block) % 4096;
    for (std::size_t b = page_end < 512 ? 512 : page_end; b < length && b < page_end + 512; b += 64)
      prefetch_line<Write>(block + b);
  }
};

/// Whether the rows of IndexedTensor come from memory: its rows, counted over the tuple and the
/// loop dimensions that move through it, outgrow cached_bytes().
inline bool rows_from_memory(const Plan& p, std::size_t length) noexcept {
  return p.indexed_rows() > cached_bytes() / static_cast<std::int64_t>(length);
}

/// Whether CopyRun prefetches the lines of a run's next page: not for a gather's rows from memory
/// on CPUs where those prefetches, a batch of rows ahead, made rows that cross a page slower
/// (prefetches_next_page_from_memory(); docs/performance.md, "Rows across a page").
inline bool prefetches_next_page(const Plan& p, std::size_t length) noexcept {
  return p.flow != Flow::gather || !rows_from_memory(p, length) || prefetches_next_page_from_memory();
}

/// Runs this long and longer are prefetched a batch ahead; for shorter ones prefetching cost more
/// than it saved (docs/performance.md, "What makes it fast").
inline constexpr std::size_t kPrefetchRunBytes = 4096;

/// `count` elements, strided on both sides (one tile of a far-strided block, see tiled.hpp).
struct CopyStrided {
  std::int64_t count, from_stride, to_stride;
  std::size_t w;
  void copy(unsigned char* dst, const unsigned char* src) const noexcept {
    copy_elements(dst, to_stride, src, from_stride, count, w);
  }
  /// Every element: each sits on a line of its own.
  template <bool Write>
  void prefetch(const unsigned char* block) const noexcept {
    const std::int64_t step = (Write ? to_stride : from_stride) * static_cast<std::int64_t>(w);
    for (std::int64_t i = 0; i < count; ++i) prefetch_line<Write>(block + i * step);
  }
};

/// Any strided block (dims from outermost to innermost).
struct CopyBlock {
  const BlockDim* dims;
  int rank;
  std::size_t w;
  void copy(unsigned char* dst, const unsigned char* src) const noexcept {
    const std::int64_t bytes = static_cast<std::int64_t>(w);
    const BlockDim& inner = dims[rank - 1];
    const bool contiguous = inner.stride[kFrom] == 1 && inner.stride[kTo] == 1;
    Odometer<kBlockTensors> line(dims, rank - 1);
    do {
      const unsigned char* const from = src + line.offset[kFrom] * bytes;
      unsigned char* const to = dst + line.offset[kTo] * bytes;
      if (contiguous) copy_run(to, from, static_cast<std::size_t>(inner.size) * w);
      else copy_elements(to, inner.stride[kTo], from, inner.stride[kFrom], inner.size, w);
    } while (line.next());
  }
  template <bool Write>
  void prefetch(const unsigned char* block) const noexcept { prefetch_line<Write>(block); }
};

/// Copies one block of w-byte elements (the rank-0 block is one element).
inline void copy_block(unsigned char* dst, const unsigned char* src, const BlockDim* dims, int rank, std::size_t w) noexcept {
  if (rank == 0) return CopyElement{w}.copy(dst, src);
  if (rank == 1 && dims[0].stride[kFrom] == 1 && dims[0].stride[kTo] == 1)
    return CopyRun{static_cast<std::size_t>(dims[0].size) * w}.copy(dst, src);
  CopyBlock{dims, rank, w}.copy(dst, src);
}

/// Copies rows [begin, end) with `copy` in batches, one batch behind the walk: each batch's blocks
/// are prefetched while the previous batch is copied, so random rows do not wait for memory one
/// after another. The prefetches alternate with the copies: a burst of them (a long run prefetches
/// up to 16 lines) fills the core's line fill buffers, and the copies then wait even on lines that
/// are in cache (docs/performance.md, "What makes it fast"). A scatter copies only the rows whose
/// target lies in `range`.
template <Flow F, class Copy>
void copy_batched(const Plan& p, std::int64_t begin, std::int64_t end, TargetRange range, const Copy& copy,
                  RowWalker walk) noexcept {
  constexpr bool gather = F == Flow::gather;
  const std::int64_t w = static_cast<std::int64_t>(p.element_size);
  unsigned char* const dense = p.dense;
  unsigned char* const indexed = p.indexed;
  std::int64_t pending_dense[kRowBatch], pending_indexed[kRowBatch];
  int pending = 0;
  auto copy_pending = [&](int k) {
    if (gather) copy.copy(dense + pending_dense[k] * w, indexed + pending_indexed[k] * w);
    else copy.copy(indexed + pending_indexed[k] * w, dense + pending_dense[k] * w);
  };
  auto flush_from = [&](int k) {
    for (; k < pending; ++k) copy_pending(k);
  };
  auto take = [&](const RowBatch& batch) {
    for (int k = 0; k < batch.count; ++k) {
      copy.template prefetch<!gather>(indexed + batch.indexed[k] * w);
      if (k < pending) copy_pending(k);
    }
    flush_from(batch.count);  // a short last batch leaves the rest of the previous one
    std::memcpy(pending_dense, batch.dense, static_cast<std::size_t>(batch.count) * sizeof(std::int64_t));
    std::memcpy(pending_indexed, batch.indexed, static_cast<std::size_t>(batch.count) * sizeof(std::int64_t));
    pending = batch.count;
  };
  walk(p, begin, end, range, sink_of(take));
  flush_from(0);
}

/// The row functor of copy_runs: a ring of the last kRowBatch rows' addresses, copied in the order
/// recorded (docs/performance.md, "Short rows"). A gather copies the ring's kRowGroup oldest rows at
/// every kRowGroup-th, so that the copies, a few in a loop, keep the walk's state out of memcpy's
/// way. Where that gains (prefetches_short_rows), it also prefetches each row's first line as it
/// records it, which the hardware follows through the rest of a short run: each copy then finds
/// its lines on their way (prefetched 12 to 15 rows before), and the prefetches stay spread among
/// the copies (a burst of them stalls). Short random rows from memory otherwise wait on DRAM in
/// turn, as far apart as the core's reorder window reaches.
/// A scatter prefetches only the lines that its streamed rows fill in part: the long rows of a
/// large output are streamed (streams_rows), which reads no line it writes but those (see
/// stream_run). It copies its oldest row as each new one comes, not in groups
/// (docs/performance.md, "Short rows"). The walk holds the functor by value, so that its stores
/// cannot alias the walk's state.
template <Flow F>
struct RunRing {
  static constexpr bool gather = F == Flow::gather;
  static constexpr std::int64_t kRowGroup = 4;
  static_assert((kRowBatch & (kRowBatch - 1)) == 0 && kRowBatch % kRowGroup == 0,
                "a row's slot is its number modulo kRowBatch, and a gather's groups fill the ring");
  unsigned char* dense;
  unsigned char* indexed;
  std::int64_t w;
  std::size_t length;
  TargetRange range;
  bool stream;
  bool prefetch;                ///< a gather's: prefetches_short_rows
  unsigned char** to;           ///< kRowBatch slots, in the caller's frame: the functor is copied
  const unsigned char** from;   ///< into the walk and back, so it stays small
  std::int64_t count = 0;       ///< rows recorded

  void operator()(std::int64_t d, std::int64_t y, std::int64_t a) noexcept {
    const int slot = slot_of(count);
    if constexpr (gather) {
      to[slot] = dense + d * w;
      from[slot] = indexed + y * w;
      if (prefetch) prefetch_line<false>(from[slot]);
      if (++count % kRowGroup == 0 && count >= kRowBatch)
        for (std::int64_t k = count - kRowBatch; k < count - kRowBatch + kRowGroup; ++k) copy(slot_of(k));
    } else {
      if (a < range.lo || a >= range.hi) return;
      if (count >= kRowBatch) copy(slot);
      to[slot] = indexed + y * w;
      from[slot] = dense + d * w;
      if (stream) prefetch_partial_lines(to[slot], length);
      ++count;
    }
  }
  /// The rows still in the ring, oldest first. Derived from `count` alone: a gather has copied
  /// every group but the ring's last kRowBatch / kRowGroup - 1 whole ones and its partial one, a
  /// scatter every row but the last kRowBatch.
  void finish() const noexcept {
    const std::int64_t copied = count < kRowBatch ? 0
                                : gather          ? count / kRowGroup * kRowGroup - (kRowBatch - kRowGroup)
                                                  : count - kRowBatch;
    for (std::int64_t k = copied; k < count; ++k) copy(slot_of(k));
  }

 private:
  static int slot_of(std::int64_t row) noexcept { return static_cast<int>(row & (kRowBatch - 1)); }
  void copy(int slot) const noexcept {
    if (!gather && stream) stream_run(to[slot], from[slot], length);
    else copy_run(to[slot], from[slot], length);
  }
};

/// copy_runs of at most one batch of rows, one index value each, on at most one loop dimension
/// (a small Gather, say): a call this small costs its setup, which the general walk's would double,
/// and has too few rows for a batch to overlap their cache misses.
template <Flow F, class I>
void copy_few_runs(const Plan& p, std::int64_t begin, std::int64_t end, TargetRange range,
                   std::size_t length) noexcept {
  // Everything in locals: the copies may write anywhere, as far as the compiler knows, so it
  // would reload each Plan field after every memcpy. The loop's strides are in bytes (the inner
  // loop has at least 2 rows, so they lie within the checked extent); the tuple's is not: a
  // dimension of size 1 may have any stride, multiplied only by its index, 0.
  const LoopDim inner = inner_loop(p);
  const std::int64_t w = static_cast<std::int64_t>(p.element_size);
  const std::int64_t n = p.tuple[0].size, row_stride = p.tuple[0].indexed_stride;
  const std::int64_t index_bytes = inner.stride[kIndex] * std::int64_t{sizeof(I)};
  const std::int64_t dense_bytes = inner.stride[kDense] * w, indexed_bytes = inner.stride[kIndexed] * w;
  const unsigned char* const indices = p.indices;
  unsigned char* const dense = p.dense;
  unsigned char* const indexed = p.indexed;
  for (std::int64_t k = begin; k < end; ++k) {
    I v;
    std::memcpy(&v, indices + k * index_bytes, sizeof(I));
    const std::int64_t a = normalize_index<I, false>(v, n);
    unsigned char* const dense_row = dense + k * dense_bytes;
    unsigned char* const indexed_row = indexed + k * indexed_bytes + a * row_stride * w;
    if (F == Flow::gather) copy_run(dense_row, indexed_row, length);
    else if (a >= range.lo && a < range.hi) copy_run(indexed_row, dense_row, length);
  }
}

/// Rows shorter than this wait on their first line for most of their copy, even from the cache.
inline constexpr std::size_t kFirstLineBoundBytes = 1024;

/// Whether RunRing prefetches a gather's rows: rows that wait on their first line, or that come
/// from memory (rows_from_memory). Longer rows from the cache find their lines in time without it,
/// and the prefetches only add to the loop (docs/performance.md, "Short rows").
inline bool prefetches_short_rows(const Plan& p, std::size_t length) noexcept {
  if (p.flow != Flow::gather) return false;
  return length < kFirstLineBoundBytes || rows_from_memory(p, length);
}

/// Copies rows [begin, end) that are contiguous runs of `length` bytes, streamed (stream_run) when
/// `stream`. A scatter copies only the rows whose target lies in `range`. Checked index values only
/// (a plan that clamps takes copy_batched).
template <Flow F, class I>
void copy_runs(const Plan& p, std::int64_t begin, std::int64_t end, TargetRange range, std::size_t length,
               bool stream) noexcept {
  if (end - begin <= kRowBatch && p.loop_rank <= 1 && p.tuple_length == 1 && !stream)
    return copy_few_runs<F, I>(p, begin, end, range, length);
  unsigned char* to[kRowBatch];
  const unsigned char* from[kRowBatch];
  const bool prefetch = prefetches_short_rows(p, length);
  const auto w = static_cast<std::int64_t>(p.element_size);
  const RunRing<F> ring{p.dense, p.indexed, w, length, range, stream, prefetch, to, from};
  for_each_row<I, false>(p, begin, end, ring).finish();
}

}  // namespace dmlref::detail

#endif  // DMLREF_DETAIL_COPY_HPP
