#ifndef DMLREF_DETAIL_STAGED_HPP
#define DMLREF_DETAIL_STAGED_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../config.hpp"
#include "copy.hpp"
#include "index_check.hpp"
#include "indices.hpp"
#include "machine.hpp"
#include "plan.hpp"
#include "scratch.hpp"
#include "walk.hpp"

// Staged lines. When every row of an innermost loop line picks single elements from the same
// short line of the indexed tensor (Gather on the last axis, GatherElements and Scatter along the
// innermost axis), that line is moved once through a buffer on the stack: sequential memory
// traffic instead of a cache miss per element. A gather's contiguous line of 1 KiB and more with
// fewer rows than elements (on some CPUs any such line) is prefetched whole instead, and read
// where it lies.

namespace dmlref::detail {

/// The stage buffer, on the stack: no heap.
inline constexpr std::size_t kStageBytes = 32 * 1024;

/// True when the plan's rows are element copies whose innermost loop line shares one indexed
/// line that fits the stage buffer, and reuses enough of it to pay for moving it whole. Checked
/// index values only.
inline bool stageable(const Plan& p) noexcept {
  if (p.combine != nullptr || p.clamp || p.tuple_length != 1 || p.block_rank != 0 || p.loop_rank == 0) return false;
  const LoopDim& inner = p.loop[p.loop_rank - 1];
  const std::int64_t n = p.tuple[0].size;
  return inner.stride[kIndexed] == 0 && n <= std::int64_t{kStageBytes} / static_cast<std::int64_t>(p.element_size) &&
         inner.size * 8 >= n;
}

/// A Scatter whose every output line is staged: the copy of InputTensor happens line by line in
/// the stage buffer, fused with the updates, so the output is written once, sequentially.
inline bool fuses_input_copy(const Plan& p) noexcept {
  if (p.flow != Flow::scatter || p.source == nullptr || !stageable(p)) return false;
  for (int d = 0; d + 1 < p.loop_rank; ++d)
    if (p.loop[d].stride[kIndexed] == 0) return false;  // an outer loop must not revisit a line
  return true;
}

/// Whether a fused Scatter writes its staged lines back with streaming stores (stream_run):
/// contiguous lines, each written whole and once, of an output of stream_bytes() or more, whose
/// lines a plain store would read first.
inline bool streams_lines_back(const Plan& p) noexcept {
  if (!DMLREF_HAS_STREAMING_STORES || !fuses_input_copy(p) || p.tuple[0].indexed_stride != 1) return false;
  const std::int64_t lines = p.row_count() / p.loop[p.loop_rank - 1].size;
  return lines * p.tuple[0].size >= stream_bytes() / static_cast<std::int64_t>(p.element_size);
}

/// Moves a line of n elements of w bytes, `stride` elements apart, into the stage buffer, and back.
inline void gather_line(unsigned char* stage, const unsigned char* line, std::int64_t n, std::int64_t stride,
                        std::size_t w) noexcept {
  if (stride == 1) return copy_run(stage, line, static_cast<std::size_t>(n) * w);
  copy_elements(stage, 1, line, stride, n, w);
}
inline void scatter_line(unsigned char* line, const unsigned char* stage, std::int64_t n, std::int64_t stride,
                         std::size_t w) noexcept {
  if (stride == 1) return copy_run(line, stage, static_cast<std::size_t>(n) * w);
  copy_elements(line, stride, stage, 1, n, w);
}

/// Moves `lines` neighbouring lines (n elements each, `stride` apart; line g starts `line_step`
/// elements after line g - 1) into the stage buffer, `pitch` elements apart. Element a of every
/// line is read in one sweep, so lines whose elements share cache lines read each cache line once.
template <std::size_t W>
void gather_lines(unsigned char* stage, std::int64_t pitch, const unsigned char* first_line, std::int64_t n,
                  std::int64_t stride, std::int64_t lines, std::int64_t line_step) noexcept {
  constexpr std::int64_t w = static_cast<std::int64_t>(W);
  // Far-strided lines put each element on a cache line (and often a page) of its own: prefetched
  // 16 elements ahead, the sweep overlaps its misses.
  // (Unsigned: a line of one element may have any stride, and the prefetch address never faults.)
  const std::uintptr_t ahead = static_cast<std::uintptr_t>(stride) * (16 * W);
  const bool far = n > 1 && stride >= 64 / w;
  for (std::int64_t a = 0; a < n; ++a) {
    const unsigned char* const from = first_line + a * stride * w;
    if (far) prefetch_ahead(from, ahead);
    for (std::int64_t g = 0; g < lines; ++g) std::memcpy(stage + (g * pitch + a) * w, from + g * line_step * w, W);
  }
}

/// Below this many bytes, a staged line is left to the hardware prefetcher.
inline constexpr std::int64_t kPrefetchLineBytes = 1024;

/// The line a staged pass moves next, prefetched while the current line's rows run: `lines`
/// cache lines from `read` (the next line to stage) and, unless null, from `write` (the next
/// line to write back). Staging then reads cache, and its reads of memory overlap this work.
/// `far`, the line after `read`, is prefetched into L2 at the same time: with the next line's
/// prefetches alone, one core keeps too few lines in flight to reach DRAM's speed.
struct LineAhead {
  const unsigned char* read = nullptr;
  const unsigned char* write = nullptr;
  const unsigned char* far = nullptr;
  std::int64_t lines = 0;
};

/// The dense tensor (a gather's output, a scatter's updates), whose elements a line's rows reach
/// in order: in a call larger than the last-level cache, prefetched as far ahead as the indices,
/// since the hardware prefetcher then runs too short a distance ahead of loops this fast. In a
/// smaller call the prefetches only cost instructions (docs/performance.md, "The dense stream").
/// A null `first`: not prefetched.
struct DenseAhead {
  const unsigned char* first = nullptr;
  std::int64_t width = 0;
};

/// Whether a row functor also moves a run of rows at once (Fn::in_order<Count>), which it does
/// better than one row at a time.
template <class Fn, class = void>
struct MovesRowsInOrder : std::false_type {};
template <class Fn>
struct MovesRowsInOrder<Fn, std::void_t<decltype(&Fn::template in_order<1>)>> : std::true_type {};

/// fn for the Count rows from dense offset d and index offset x on, both in steps of 1, one at a
/// time.
template <std::int64_t Count, class Fn>
DMLREF_ALWAYS_INLINE void each_row(const Fn& fn, std::int64_t d, std::int64_t x) noexcept {
  DMLREF_UNROLL_LOOP
  for (std::int64_t k = 0; k < Count; ++k) fn(d + k, x + k);
}

/// The same rows, moved at once where the functor can (MovesRowsInOrder).
template <std::int64_t Count, class Fn>
DMLREF_ALWAYS_INLINE void rows_in_order(const Fn& fn, std::int64_t d, std::int64_t x) noexcept {
  if constexpr (MovesRowsInOrder<Fn>::value)
    fn.template in_order<Count>(d, x);
  else
    each_row<Count>(fn, d, x);
}

/// Runs fn(dense_offset, index_offset) for the `count` rows of a line. The common unit-stride
/// line gets loops of its own, which the compiler can keep in registers and unroll: a cache line of
/// indices at a time, prefetching the indices as `index_ahead` says, the dense tensor as
/// `dense_ahead` says and, over the first blocks (the others then run without that bookkeeping),
/// the cache lines of `ahead`, as many to each block: a fixed count is a short loop, cheaper than
/// dealing them out one at a time.
template <class I, class Fn>
inline void for_each_in_line(const unsigned char* indices, std::int64_t count, std::int64_t dense,
                             std::int64_t dense_stride, std::int64_t index, std::int64_t index_stride,
                             IndexAhead index_ahead, const LineAhead& ahead, DenseAhead dense_ahead,
                             const Fn& row) noexcept {
  // A local copy: where this function is not inlined (g++ -O2), the stores of the rows might
  // otherwise alias the caller's `row`, and its captures be reloaded for every row.
  const Fn fn = row;
  if (dense_stride == 1 && index_stride == 1) {
    constexpr std::int64_t per_block = 64 / sizeof(I);
    // The streams a block at dense offset d and index offset x reads ahead of itself.
    auto prefetch_streams = [&](std::int64_t d, std::int64_t x) DMLREF_INLINE_LAMBDA {
      const unsigned char* const at = indices + x * std::int64_t{sizeof(I)};
      prefetch_ahead(at, index_ahead.l1);
      if (index_ahead.l2 != 0) prefetch_ahead_into_l2(at, index_ahead.l2);
      if (dense_ahead.first != nullptr) prefetch_ahead(dense_ahead.first + d * dense_ahead.width, kIndexPrefetchBytes);
    };
    auto block = [&](std::int64_t i) DMLREF_INLINE_LAMBDA {
      const std::int64_t d = dense + i, x = index + i;
      prefetch_streams(d, x);
      rows_in_order<per_block>(fn, d, x);
    };
    const std::int64_t blocks = count / per_block;
    // The lines of `ahead`, `spread` to a block over the first blocks, the rest after them.
    const std::int64_t spread = blocks > 0 ? (ahead.lines + blocks - 1) / blocks : 0;
    const std::int64_t spread_blocks = spread > 0 ? ahead.lines / spread : 0;
    const unsigned char* read = ahead.read;
    const unsigned char* write = ahead.write;
    const unsigned char* far = ahead.far;
    std::int64_t i = 0;
    // Three loops, so that a gather's (no write prefetches) tests nothing per line. More than
    // two lines to a block are dealt out over its rows, a quarter before each quarter of them:
    // issued all at the start of a fast block, they outran memory and most likely overflowed the
    // core's queue of misses (docs/performance.md, "Lines read in place"). The line prefetches
    // stay in this loop: passed to `block` as a lambda of their own, g++ 12 dropped them.
    constexpr std::int64_t parts = 4, per_part = per_block / parts;
    if (write == nullptr && spread > 2) {
      const std::int64_t lines_per_part = (spread + parts - 1) / parts;
      for (std::int64_t b = 0; b < spread_blocks; ++b, i += per_block, read += spread * 64, far += spread * 64) {
        const std::int64_t d = dense + i, x = index + i;
        prefetch_streams(d, x);
        DMLREF_UNROLL_LOOP
        for (std::int64_t part = 0; part < parts; ++part) {
          const std::int64_t end = std::min(spread, (part + 1) * lines_per_part);
          for (std::int64_t l = part * lines_per_part; l < end; ++l) {
            DMLREF_PREFETCH(read + l * 64);
            DMLREF_PREFETCH_L2(far + l * 64);
          }
          rows_in_order<per_part>(fn, d + part * per_part, x + part * per_part);
        }
      }
    } else if (write == nullptr) {
      for (std::int64_t b = 0; b < spread_blocks; ++b, i += per_block, read += spread * 64, far += spread * 64) {
        for (std::int64_t l = 0; l < spread; ++l) {
          DMLREF_PREFETCH(read + l * 64);
          DMLREF_PREFETCH_L2(far + l * 64);
        }
        block(i);
      }
    } else {
      for (std::int64_t b = 0; b < spread_blocks; ++b, i += per_block, read += spread * 64, write += spread * 64,
                                far += spread * 64) {
        for (std::int64_t l = 0; l < spread; ++l) {
          DMLREF_PREFETCH(read + l * 64);
          DMLREF_PREFETCH_WRITE(write + l * 64);
          DMLREF_PREFETCH_L2(far + l * 64);
        }
        block(i);
      }
    }
    for (std::int64_t l = spread_blocks * spread; l < ahead.lines; ++l) {
      DMLREF_PREFETCH(ahead.read + l * 64);
      DMLREF_PREFETCH_L2(ahead.far + l * 64);
      if (write != nullptr) DMLREF_PREFETCH_WRITE(ahead.write + l * 64);
    }
    for (; i + per_block <= count; i += per_block) block(i);
    for (; i < count; ++i) fn(dense + i, index + i);
  } else {
    for (std::int64_t i = 0; i < count; ++i, dense += dense_stride, index += index_stride) fn(dense, index);
  }
}

/// Far-strided lines (a transposed input) staged several at a time: `group` neighbouring lines of
/// the next loop dimension, `pitch` elements apart, in `buffer`. Such lines are often a power of
/// two apart, which also defeats the caches' associativity when they are read one at a time.
struct LineGroup {
  std::int64_t group = 1;
  std::int64_t pitch = 0;
  unsigned char* buffer = nullptr;
  Scratch<unsigned char> heap;
};

/// The most a line group takes from the heap when the stack buffer cannot hold a cache line's
/// worth of lines.
inline constexpr std::int64_t kGroupStageBytes = 1024 * 1024;

/// How a gather's far-strided lines are grouped, if at all: as many lines as share a cache line
/// of the indexed tensor, on the stack when they fit, else (with `scratch`) on the heap, each
/// line padded by a cache line so that lines of a power-of-two length do not share cache sets.
/// How many far-strided lines a gather stages at once: as many as share a cache line of the
/// indexed tensor (1: the lines are not grouped).
inline std::int64_t lines_per_group(const Plan& p) noexcept {
  const TupleEntry& line = p.tuple[0];
  const LoopDim outer = p.loop_rank >= 2 ? p.loop[p.loop_rank - 2] : LoopDim{1, {0, 0, 0, 0}};
  const auto w = static_cast<std::int64_t>(p.element_size);
  // Compared as strides, not bytes: a size-1 line's stride is unconstrained and may be huge.
  if (p.flow != Flow::gather || line.size <= 1 || line.indexed_stride < 64 / w || outer.stride[kIndexed] <= 0 ||
      outer.stride[kIndexed] >= 64 / w)
    return 1;
  const std::int64_t group = 64 / (outer.stride[kIndexed] * w);
  return group < outer.size ? group : outer.size;
}

/// How many of a group of a plan's far-strided lines (lines_per_group), from the one whose first
/// element is at `first`, precede the indexed tensor's next cache-line boundary (`group` when
/// `first` is on one): a group that starts there reads each of its cache lines once, where groups
/// counted from a misaligned first line would read two per element. Only where every element of a
/// line shares the first's alignment (a line's stride a whole number of cache lines); otherwise
/// `group`.
inline std::int64_t lines_before_boundary(const Plan& p, const unsigned char* first, std::int64_t group) noexcept {
  const auto w = static_cast<std::int64_t>(p.element_size);
  const std::int64_t step = p.loop[p.loop_rank - 2].stride[kIndexed] * w;  // between neighbouring lines
  const auto misaligned = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(first) % 64);
  if (misaligned == 0 || p.tuple[0].indexed_stride * w % 64 != 0) return group;
  const std::int64_t lines = (64 - misaligned + step - 1) / step;
  return lines < group ? lines : group;
}

inline void group_lines(const Plan& p, std::int64_t w, bool scratch, unsigned char* stage, LineGroup& g) noexcept {
  const TupleEntry& line = p.tuple[0];
  g.pitch = line.size;
  g.buffer = stage;
  g.group = lines_per_group(p);
  if (g.group <= 1 || g.group * line.size * w <= std::int64_t{kStageBytes}) return;
  g.pitch = line.size + 64 / w;
  if (g.group * g.pitch * w > kGroupStageBytes) g.group = kGroupStageBytes / (g.pitch * w);
  if (g.group > 1 && scratch) g.heap = Scratch<unsigned char>(static_cast<std::size_t>(g.group * g.pitch * w), false);
  if (g.heap) {
    g.buffer = g.heap.get();
  } else {
    g.pitch = line.size;
    g.group = std::int64_t{kStageBytes} / (line.size * w);
  }
}

/// The rows of one line: how many, and where the first reads its index and writes (or, for a
/// scatter, reads) its element, with the steps between rows.
struct LineRows {
  std::int64_t count, dense, dense_stride, index, index_stride;
};

/// How a gather's rows store their elements: plainly, or with streaming stores (stream_element),
/// for outputs too large for the caches, whose lines a plain store would read first.
enum class Store : bool { plain, streamed };

/// The row functor of take_from_line: row (d, x) copies the element at position(index value x) of
/// the staged line to dense offset d. Held by value: a store of a byte may alias anything the loop
/// would reach through a reference.
template <std::size_t W, class I, Store S, class Position>
struct TakeRows {
  static constexpr auto width = static_cast<std::int64_t>(W);
  unsigned char* dense;
  const unsigned char* staged;
  const unsigned char* indices;
  Position position;

  const unsigned char* element(std::int64_t x) const noexcept {
    return staged + position(load_index<I>(indices, x)) * width;
  }
  void operator()(std::int64_t d, std::int64_t x) const noexcept {
    if constexpr (S == Store::streamed)
      stream_element<W>(dense + d * width, element(x));
    else
      std::memcpy(dense + d * width, element(x), W);
  }
  /// Elements of 1 and 2 bytes assembled in a register, up to 8 bytes to a store
  /// (elements_in_word), as many stores as loads otherwise.
  template <std::int64_t Count>
  DMLREF_ALWAYS_INLINE void in_order(std::int64_t d, std::int64_t x) const noexcept {
    constexpr std::int64_t word_bytes = Count * width < 8 ? Count * width : 8;
    constexpr std::int64_t per_word = word_bytes / width;
    if constexpr (DMLREF_LITTLE_ENDIAN && S == Store::plain && W <= 2 && per_word > 1 && Count % per_word == 0) {
      DMLREF_UNROLL_LOOP
      for (std::int64_t k = 0; k < Count; k += per_word) {
        const std::uint64_t word = elements_in_word<W, per_word>([&](std::int64_t j) { return element(x + k + j); });
        std::memcpy(dense + (d + k) * width, &word, static_cast<std::size_t>(word_bytes));
      }
    } else {
      each_row<Count>(*this, d, x);
    }
  }
};

#if DMLREF_HAS_AVX512_GATHER
/// Whether W-byte elements by I index values can be gathered in AVX-512 lanes: 8 values to a
/// 64-byte vector, each gathering a dword (an element of 4 bytes or fewer).
template <std::size_t W, class I>
inline constexpr bool kGathersInLanes = sizeof(I) == 8 && W <= 4;

/// One-pass rows of a staged line in AVX-512 lanes (gathers_with_avx512()), 8 at a time: one load
/// of their index values serves both the check and the gather, where the scalar rows read every
/// value twice, once to check a stretch of them and once to copy its rows (docs/performance.md,
/// "Gathers in AVX-512 lanes"). `from` is the line's element 0, and the index values are the
/// positions themselves (unsigned ones, or signed ones read from the middle of a doubled line);
/// each row gathers a dword, so that 4 - W bytes past the line must be readable. The rows are
/// contiguous; the index values and `ahead` are prefetched as for_each_in_line does (the dense
/// tensor is not). Stops before the first 8 rows with a value out of range; returns the rows
/// moved, a multiple of 8.
template <std::size_t W, class I>
__attribute__((target("avx512f,avx512vl"))) std::int64_t take_checked_in_lanes(
    unsigned char* dense, const unsigned char* indices, const unsigned char* from, std::int64_t count,
    std::uint64_t n, IndexAhead index_ahead, const LineAhead& ahead) noexcept {
  static_assert(kGathersInLanes<W, I>, "8-byte index values, elements of a dword or less");
  typedef long long Values __attribute__((vector_size(64)));
  typedef unsigned long long Shifted __attribute__((vector_size(64)));
  typedef int Dwords __attribute__((vector_size(32)));
  using Lane = std::conditional_t<W == 1, signed char, std::conditional_t<W == 2, short, int>>;
  typedef Lane Elements __attribute__((vector_size(8 * W)));
  constexpr int not_less_than = 5;  // the predicate of vpcmpuq
  const Shifted shift = Shifted{} + (std::is_signed_v<I> ? n : 0);
  const Shifted limit = Shifted{} + range_limit<I>(n);
  const std::int64_t groups = count / 8;
  std::int64_t line = 0;  // the next of `ahead`'s lines to prefetch, spread over the groups
  for (std::int64_t g = 0; g < groups; ++g) {
    const unsigned char* const at = indices + g * 64;
    prefetch_ahead(at, index_ahead.l1);
    if (index_ahead.l2 != 0) prefetch_ahead_into_l2(at, index_ahead.l2);
    for (; line < ahead.lines && line * groups <= g * ahead.lines; ++line) {
      DMLREF_PREFETCH(ahead.read + line * 64);
      DMLREF_PREFETCH_L2(ahead.far + line * 64);
    }
    Values v;
    std::memcpy(&v, at, sizeof(v));
    const Shifted u = (Shifted)v + shift;  // vector casts keep the bits
    if (__builtin_ia32_ucmpq512_mask((Values)u, (Values)limit, not_less_than, -1) != 0) return g * 8;
    const Dwords gathered = __builtin_ia32_gatherdiv16si(Dwords{}, from, v, -1, static_cast<int>(W));
    const Elements elements = __builtin_convertvector(gathered, Elements);
    std::memcpy(dense + g * 8 * std::int64_t{W}, &elements, sizeof(elements));
  }
  for (; line < ahead.lines; ++line) {
    DMLREF_PREFETCH(ahead.read + line * 64);
    DMLREF_PREFETCH_L2(ahead.far + line * 64);
  }
  return groups * 8;
}
#endif

/// A gather's rows take their elements from a line of n elements, staged or read in place
/// (`doubled`: from the middle of a staged line copied twice, end to end, where a signed index in
/// [-n, n) needs no normalisation). Out of line: one call moves a line's rows, from each of
/// copy_staged_rows' paths. In one pass (Plan::bad_line) the rows check their index values first,
/// kIndexPrefetchBytes of them at a time (those the L1 prefetch has brought in), and stop before
/// a stretch with a bad one, setting *p.bad_line (stopped(p)).
template <std::size_t W, class I, Store S>
DMLREF_NOINLINE void take_from_line(const Plan& p, const unsigned char* staged, std::int64_t n, bool doubled, const LineRows& rows,
                    const LineAhead& ahead, bool prefetch_dense, bool lanes) noexcept {
  unsigned char* const dense = p.dense;  // locals: the stores below might alias *p's members
  const unsigned char* const indices = p.indices;
  const DenseAhead dense_ahead = prefetch_dense ? DenseAhead{dense, std::int64_t{W}} : DenseAhead{};
  auto take = [&](auto position, const LineRows& part, const LineAhead& part_ahead) {
    for_each_in_line<I>(indices, part.count, part.dense, part.dense_stride, part.index, part.index_stride,
                        p.index_ahead, part_ahead, dense_ahead,
                        TakeRows<W, I, S, decltype(position)>{dense, staged, indices, position});
  };
  auto take_rows_of = [&](const LineRows& part, const LineAhead& part_ahead) {
    if constexpr (std::is_signed_v<I>)
      if (doubled) return take([](I v) { return static_cast<std::int64_t>(v); }, part, part_ahead);
    take([n](I v) { return normalize_index<I, false>(v, n); }, part, part_ahead);
  };
  // Whether the values of `part`'s rows are in range. 16-bit positions (normalize_shared_indices)
  // are never checked: they come from checked values.
  auto in_range = [&]([[maybe_unused]] const LineRows& part) {
    if constexpr (sizeof(I) >= 4)
      return values_in_range<I>(indices + part.index * std::int64_t{sizeof(I)}, part.count, part.index_stride,
                                static_cast<std::uint64_t>(n));
    else
      return true;
  };
  const bool checked = sizeof(I) >= 4 && p.bad_line != nullptr;
  const std::int64_t stretch = checked ? static_cast<std::int64_t>(kIndexPrefetchBytes / sizeof(I)) : rows.count;
  for (std::int64_t first = 0; first < rows.count; first += stretch) {
    LineRows part = rows;
    LineAhead part_ahead = ahead;
    if (checked) {
      part.count = std::min(stretch, rows.count - first);
      part.dense += first * rows.dense_stride;
      part.index += first * rows.index_stride;
      // The stretch's share of the next lines' prefetches.
      const std::int64_t from_line = ahead.lines * first / rows.count;
      part_ahead.lines = ahead.lines * (first + part.count) / rows.count - from_line;
      part_ahead.read += from_line * 64;
      part_ahead.far += from_line * 64;
#if DMLREF_HAS_AVX512_GATHER
      if constexpr (kGathersInLanes<W, I> && S == Store::plain)
        if (lanes) {  // 8 rows at a time, the rest below
          const std::int64_t moved = take_checked_in_lanes<W, I>(dense + part.dense * std::int64_t{W},
                                                                 indices + part.index * std::int64_t{sizeof(I)}, staged,
                                                                 part.count, static_cast<std::uint64_t>(n),
                                                                 p.index_ahead, part_ahead);
          if (moved < part.count / 8 * 8) {
            *p.bad_line = true;
            return;
          }
          part.count -= moved;
          part.dense += moved;
          part.index += moved;
          part_ahead = LineAhead{};
          if (part.count == 0) continue;
        }
#endif
      if (!in_range(part)) {
        *p.bad_line = true;
        return;
      }
    }
    take_rows_of(part, part_ahead);
  }
}

/// One pass: whether take_from_line stopped at a bad index value.
inline bool stopped(const Plan& p) noexcept { return p.bad_line != nullptr && *p.bad_line; }

/// Whether a staged gather streams its output (Store::streamed): elements of 4 or 8 bytes,
/// written in order, into an output of stream_bytes() or more, whose lines they then fill without
/// reading them first.
inline bool streams_elements(const Plan& p) noexcept {
  const auto w = static_cast<std::int64_t>(p.element_size);
  return DMLREF_HAS_STREAMING_STORES && p.flow == Flow::gather && (w == 4 || w == 8) && p.loop_rank > 0 &&
         p.loop[p.loop_rank - 1].stride[kDense] == 1 && p.row_count() >= stream_bytes() / w;
}

/// take_from_line with the store `stream` asks for, where W has a streaming store.
template <std::size_t W, class I>
void take_rows(bool stream, const Plan& p, const unsigned char* staged, std::int64_t n, bool doubled, const LineRows& rows,
               const LineAhead& ahead, bool prefetch_dense, bool lanes = false) noexcept {
  if constexpr (kStreamsElements<W>)
    if (stream) return take_from_line<W, I, Store::streamed>(p, staged, n, doubled, rows, ahead, prefetch_dense, false);
  return take_from_line<W, I, Store::plain>(p, staged, n, doubled, rows, ahead, prefetch_dense, lanes);
}

/// Whether copy_staged_rows' one-pass rows run in AVX-512 lanes (take_checked_in_lanes): where the
/// CPU has them (gathers_with_avx512()), for a line staged alone in the stage buffer (not
/// `ruled_out`: grouped, its rows strided, or into a streamed output) whose index values are its
/// positions (`doubled`, or unsigned), with room after its `staged_bytes` for a dword read at its
/// last element.
template <std::size_t W, class I>
inline bool gathers_in_lanes([[maybe_unused]] const Plan& p, [[maybe_unused]] bool ruled_out,
                             [[maybe_unused]] bool doubled, [[maybe_unused]] std::int64_t staged_bytes) noexcept {
#if DMLREF_HAS_AVX512_GATHER
  if constexpr (kGathersInLanes<W, I>)
    return p.flow == Flow::gather && p.bad_line != nullptr && !ruled_out && (doubled || !std::is_signed_v<I>) &&
           staged_bytes + 4 - std::int64_t{W} <= std::int64_t{kStageBytes} && gathers_with_avx512();
#endif
  return false;
}

/// A scatter's rows write their updates into a staged line of n elements, in row order.
template <std::size_t W, class I>
DMLREF_NOINLINE void put_into_line(const Plan& p, unsigned char* staged, std::int64_t n, const LineRows& rows,
                   const LineAhead& ahead, bool prefetch_dense) noexcept {
  const unsigned char* const dense = p.dense;
  const unsigned char* const indices = p.indices;
  const DenseAhead dense_ahead = prefetch_dense ? DenseAhead{dense, std::int64_t{W}} : DenseAhead{};
  for_each_in_line<I>(indices, rows.count, rows.dense, rows.dense_stride, rows.index, rows.index_stride,
                      p.index_ahead, ahead, dense_ahead,
                      [staged, dense, indices, n](std::int64_t d, std::int64_t x) {
                        const std::int64_t a = normalize_index<I, false>(load_index<I>(indices, x), n);
                        constexpr auto width = static_cast<std::int64_t>(W);
                        std::memcpy(staged + a * width, dense + d * width, W);
                      });
}

/// Where every line's rows read the same index values (no outer loop dimension moves through
/// IndicesTensor: a Gather's outer input dimensions) and a share spans more than one line, those
/// values are normalised once, as 16-bit positions (a staged line has at most kStageBytes
/// elements), into `room` bytes at `positions`: the rows of every line then read a position
/// instead of loading and normalising a wider value. `index` is where the rows of a line start in
/// IndicesTensor. False, having done nothing, where that does not apply or fit.
template <class I>
bool normalize_shared_indices(const Plan& p, std::int64_t rows, std::int64_t index, unsigned char* positions,
                              std::int64_t room) noexcept {
  static_assert(kStageBytes <= 65536, "a staged line's positions must fit 16 bits");
  const LoopDim inner = p.loop[p.loop_rank - 1];
  if (p.loop_rank < 2 || rows <= inner.size || inner.size * std::int64_t{sizeof(std::uint16_t)} > room) return false;
  for (int d = 0; d + 1 < p.loop_rank; ++d)
    if (p.loop[d].stride[kIndex] != 0) return false;
  const std::int64_t n = p.tuple[0].size;
  for (std::int64_t r = 0; r < inner.size; ++r) {
    const auto a = static_cast<std::uint16_t>(normalize_index<I, false>(load_index<I>(p.indices, index + r * inner.stride[kIndex]), n));
    std::memcpy(positions + r * std::int64_t{sizeof(a)}, &a, sizeof(a));
  }
  return true;
}

/// The next line a staged pass moves, to prefetch while the current one's rows run (see LineAhead).
/// A line streamed back (`streamed_back`) is not prefetched for writing: its stores read nothing.
inline LineAhead line_ahead(const Plan& p, const Odometer<kLoopTensors>& lines, bool fused,
                            bool streamed_back) noexcept {
  const auto w = static_cast<std::int64_t>(p.element_size);
  Odometer<kLoopTensors> next = lines;
  next.next();
  const int read_from = fused ? kSource : kIndexed;
  const unsigned char* const read_base = fused ? p.source : p.indexed;
  LineAhead ahead;
  ahead.read = read_base + next.offset[read_from] * w;
  if (fused && !streamed_back) ahead.write = p.indexed + next.offset[kIndexed] * w;
  // (Past the last line the odometer wraps: a prefetch of any address is harmless.)
  next.next();
  ahead.far = read_base + next.offset[read_from] * w;
  ahead.lines = (p.tuple[0].size * w + 63) / 64;
  return ahead;
}

/// Rows [begin, end) of a stageable plan, staging each line they touch (a line = one iteration
/// of the outer loop dimensions): a group of far-strided lines at once (gathers), the line twice
/// (signed gathers with as many rows as elements), the line alone, or none (a gather's contiguous
/// line of 1 KiB and more, read in place as `in_place` says); a gather's rows that read the same index
/// values on every line take them normalised once. Gathers may start and end mid-line; a
/// scatter's share is whole lines, because it writes its staged lines back whole.
/// `scratch`: a group may be staged on the heap (Options::allow_scratch). In one pass
/// (Plan::bad_line) it stops where a line's rows stop at a bad index value.
template <Flow F, std::size_t W, class I>
void copy_staged_rows(const Plan& p, std::int64_t begin, std::int64_t end, bool scratch) noexcept {
  constexpr std::int64_t w = static_cast<std::int64_t>(W);
  constexpr bool gather = F == Flow::gather;
  alignas(64) unsigned char stage[kStageBytes];
  const LoopDim inner = p.loop[p.loop_rank - 1];
  const LoopDim outer = p.loop_rank >= 2 ? p.loop[p.loop_rank - 2] : LoopDim{1, {0, 0, 0, 0}};
  const TupleEntry line = p.tuple[0];
  const bool fused = !gather && fuses_input_copy(p);
  LineGroup group;
  if (gather) group_lines(p, w, scratch, stage, group);
  // The next line is prefetched when it is contiguous and long enough (a scatter's fused copy
  // stages InputTensor's line, and also writes OutputTensor's).
  const bool prefetch_next = line.size * w >= kPrefetchLineBytes &&
                             (fused ? line.source_stride : line.indexed_stride) == 1;
  const bool stream = kStreamsElements<W> && streams_elements(p);
  // A staged line is staged twice for signed index values, which its rows then read without
  // normalisation from its middle: worth the second copy when it has at least as many rows as
  // elements.
  const bool doubles_if_staged =
      gather && std::is_signed_v<I> && 2 * line.size * w <= std::int64_t{kStageBytes} && inner.size >= line.size;
  // One pass: a line staged alone, whose contiguous rows take the index values themselves as
  // positions (doubled, or unsigned), into an output not streamed, has its rows checked and
  // gathered in AVX-512 lanes (take_checked_in_lanes). Never with shared positions: those are made
  // only when all or nothing.
  const bool strided = inner.stride[kDense] != 1 || inner.stride[kIndex] != 1;
  const bool lanes_if_staged = gathers_in_lanes<W, I>(p, group.group > 1 || strided || stream, doubles_if_staged,
                                                      (doubles_if_staged ? 2 : 1) * line.size * w);
  // A gather's contiguous line with fewer rows than elements is read where it lies: copying it to
  // the stage costs more than the rows' picks save (docs/performance.md, "Lines read in place").
  // One with as many rows or more too, on CPUs where that was measured faster
  // (reads_full_lines_in_place()), unless its rows run in lanes, which pick from the stage. Each
  // line is prefetched whole before its rows pick from it, the first here, the others during the
  // line before.
  const bool in_place =
      gather && prefetch_next && (inner.size < line.size || (!lanes_if_staged && reads_full_lines_in_place()));
  const bool lanes = lanes_if_staged && !in_place;
  // The dense tensor and the indices stream through the rows; a call whose streams outgrow the
  // last-level cache prefetches the dense one too (DenseAhead), where a block of indices covers
  // half a cache line of it or more (narrower elements would prefetch each line many times), not
  // while a line read in place has its next line's prefetches in flight (that measured slower),
  // and not into a streamed output, whose lines the prefetch would read only to be overwritten.
  const bool large = p.row_count() > cache_sizes().l3 / (w + std::int64_t{sizeof(I)});  // (no overflow)
  const bool wide = w * (64 / std::int64_t{sizeof(I)}) >= 32;
  const bool prefetch_dense = large && wide && !in_place && !stream;
  const bool stream_back = !gather && streams_lines_back(p);
  auto finish = [&] {
    if (stream || stream_back) stream_fence();
  };
  LineCursor c(p, begin);
  const std::int64_t* const at = c.lines.offset;
  // A gather's index values shared by every line, normalised once (normalize_shared_indices) after
  // the staged line; the rows then take their positions from there, as a Plan of 16-bit indices.
  const std::int64_t line_room = in_place ? 0 : (line.size * w + 63) / 64 * 64;
  Plan with_positions = p;
  const bool shared = gather && group.group <= 1 && p.bad_line == nullptr &&
                      normalize_shared_indices<I>(p, end - begin, at[kIndex], stage + line_room,
                                                  std::int64_t{kStageBytes} - line_room);
  if (shared) {
    with_positions.indices = stage + line_room;
    with_positions.index_ahead = IndexAhead{0, 0};
  }
  const bool doubled = doubles_if_staged && !in_place && !shared;
  if (in_place)
    for (std::int64_t b = 0; b < line.size * w; b += 64) DMLREF_PREFETCH(p.indexed + at[kIndexed] * w + b);
  std::int64_t first = c.first;  // the line's first row this share moves
  for (std::int64_t remaining = end - begin; remaining > 0;) {
    const std::int64_t count = inner.size - first < remaining ? inner.size - first : remaining;
    const LineRows rows{count, at[kDense] + first * inner.stride[kDense], inner.stride[kDense],
                        at[kIndex] + first * inner.stride[kIndex], inner.stride[kIndex]};
    const unsigned char* const indexed_line = p.indexed + at[kIndexed] * w;  // inner.stride[kIndexed] is 0
    // A group ends at the indexed tensor's next cache-line boundary, the share's last whole line
    // or the outer dimension's end, whichever comes first; a single line is staged alone.
    const std::int64_t grouped =
        gather && group.group > 1 && first == 0
            ? std::min({lines_before_boundary(p, indexed_line, group.group), remaining / inner.size,
                        outer.size - c.lines.coord[c.lines.rank - 1]})
            : 1;
    if (grouped > 1) {
      gather_lines<W>(group.buffer, group.pitch, indexed_line, line.size, line.indexed_stride, grouped,
                      outer.stride[kIndexed]);
      for (std::int64_t g = 0; g < grouped; ++g) {
        take_rows<W, I>(stream, p, group.buffer + g * group.pitch * w, line.size, false,
                        LineRows{inner.size, rows.dense + g * outer.stride[kDense], inner.stride[kDense],
                                 rows.index + g * outer.stride[kIndex], inner.stride[kIndex]},
                        LineAhead{}, prefetch_dense);
        if (stopped(p)) return finish();
      }
      remaining -= grouped * inner.size;
      for (std::int64_t g = 0; g < grouped && remaining > 0; ++g) c.lines.next();
      continue;
    }
    const LineAhead ahead =
        prefetch_next && remaining > count ? line_ahead(p, c.lines, fused, stream_back) : LineAhead{};
    if (gather) {
      const unsigned char* from = indexed_line;
      if (!in_place) {
        gather_line(stage, indexed_line, line.size, line.indexed_stride, W);
        from = stage;
        if (doubled) {
          copy_run(stage + line.size * w, stage, static_cast<std::size_t>(line.size * w));
          from = stage + line.size * w;
        }
      }
      if (shared)
        take_rows<W, std::uint16_t>(stream, with_positions, from, line.size, false,
                                    LineRows{count, rows.dense, rows.dense_stride, first, 1}, ahead, prefetch_dense);
      else
        take_rows<W, I>(stream, p, from, line.size, doubled, rows, ahead, prefetch_dense, lanes);
      if (stopped(p)) return finish();
    } else {
      const unsigned char* const from = fused ? p.source + at[kSource] * w : indexed_line;
      gather_line(stage, from, line.size, fused ? line.source_stride : line.indexed_stride, W);
      put_into_line<W, I>(p, stage, line.size, rows, ahead, prefetch_dense);
      unsigned char* const to = p.indexed + at[kIndexed] * w;
      if (stream_back)
        stream_run(to, stage, static_cast<std::size_t>(line.size * w));
      else
        scatter_line(to, stage, line.size, line.indexed_stride, W);
    }
    remaining -= count;
    if (remaining > 0) c.lines.next();
    first = 0;
  }
  finish();
}

}  // namespace dmlref::detail

#endif  // DMLREF_DETAIL_STAGED_HPP
