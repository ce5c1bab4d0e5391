#ifndef DMLREF_DETAIL_STAGED_HPP
#define DMLREF_DETAIL_STAGED_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../config.hpp"
#include "index_check.hpp"
#include "indices.hpp"
#include "plan.hpp"
#include "scratch.hpp"
#include "walk.hpp"

// Staged lines. When every row of an innermost loop line picks single elements from the same
// short line of the indexed tensor (Gather on the last axis, GatherElements and Scatter along the
// innermost axis), that line is moved once through a buffer on the stack: sequential memory
// traffic instead of a cache miss per element.

namespace dmlref::detail {

/// The stage buffer, on the stack: no heap.
inline constexpr std::size_t kStageBytes = 32 * 1024;

/// True when the plan's rows are element copies whose innermost loop line shares one indexed
/// line that fits the stage buffer, and reuses enough of it to pay for moving it whole.
inline bool stageable(const Plan& p) noexcept {
  if (p.combine != nullptr || p.tuple_length != 1 || p.block_rank != 0 || p.loop_rank == 0) return false;
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
  // 16 elements ahead, the sweep overlaps its misses.
  const auto ahead = static_cast<std::uintptr_t>(16 * stride * w);
  for (std::int64_t a = 0; a < n; ++a) {
    const unsigned char* const from = first_line + a * stride * w;
    if (stride * w >= 64) prefetch_ahead(from, ahead);
    for (std::int64_t g = 0; g < lines; ++g) std::memcpy(stage + (g * pitch + a) * w, from + g * line_step * w, W);
  }
}

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

/// Rows [begin, end) of a stageable plan, staging each line they touch (a line = one iteration
/// of the outer loop dimensions). Gathers may start and end mid-line; a scatter's share is whole
/// lines, because it writes its staged lines back whole. `scratch`: a group of far-strided lines
/// may be staged on the heap (Options::allow_scratch).
template <Flow F, std::size_t W, class I>
void copy_staged_rows(const Plan& p, std::int64_t begin, std::int64_t end, bool scratch) noexcept {
  constexpr std::int64_t w = static_cast<std::int64_t>(W);
  constexpr bool gather = F == Flow::gather;
  alignas(64) unsigned char stage[kStageBytes];
  const LoopDim inner = p.loop[p.loop_rank - 1];
  const LoopDim outer = p.loop_rank >= 2 ? p.loop[p.loop_rank - 2] : LoopDim{1, {0, 0, 0, 0}};
  const TupleEntry line = p.tuple[0];
  const bool fused = !gather && fuses_input_copy(p);
  // A signed index in [-n, n) addresses a line copied twice, end to end, from its middle: no
  // normalisation per element (clamped values stay in range). Worth the second copy when the
  // line has as many rows as elements.
  const bool doubled = gather && std::is_signed_v<I> && 2 * line.size * w <= std::int64_t{kStageBytes} &&
                       inner.size >= line.size;
  LineGroup group;
  if (gather) group_lines(p, w, scratch, stage, group);
  // The next line is prefetched when it is contiguous and long enough (a scatter's fused copy
  // stages InputTensor's line, and also writes OutputTensor's).
  const bool prefetch_next = line.size * w >= kPrefetchLineBytes &&
                             (fused ? line.source_stride : line.indexed_stride) == 1;
  // Locals, not p's members: the compiler cannot prove the stores below leave *p alone.
  unsigned char* const dense = p.dense;
  unsigned char* const indexed = p.indexed;
  const unsigned char* const indices = p.indices;
  const unsigned char* const source = p.source;
  LineCursor c(p, begin);
  const std::int64_t* const at = c.lines.offset;
  std::int64_t first = c.first;  // the line's first row this share moves
  for (std::int64_t remaining = end - begin; remaining > 0;) {
    const std::int64_t count = inner.size - first < remaining ? inner.size - first : remaining;
    const std::int64_t row_dense = at[kDense] + first * inner.stride[kDense];
    const std::int64_t row_index = at[kIndex] + first * inner.stride[kIndex];
    // inner.stride[kIndexed] is 0: every row of the line addresses the same indexed line.
    if (gather && group.group > 1 && first == 0 && remaining >= group.group * inner.size &&
        c.lines.coord[c.lines.rank - 1] + group.group <= outer.size) {
      gather_lines<W>(group.buffer, group.pitch, indexed + at[kIndexed] * w, line.size, line.indexed_stride,
                      group.group, outer.stride[kIndexed]);
      for (std::int64_t g = 0; g < group.group; ++g) {
        const unsigned char* const staged = group.buffer + g * group.pitch * w;
        with_clamp(p.clamp, [&](auto clamp) {
          for_each_in_line<I>(indices, inner.size, row_dense + g * outer.stride[kDense], inner.stride[kDense],
                              row_index + g * outer.stride[kIndex], inner.stride[kIndex], LineAhead{},
                              [&](std::int64_t d, std::int64_t x) {
                                const std::int64_t a =
                                    normalize_index<I, decltype(clamp)::value>(load_index<I>(indices, x), line.size);
                                std::memcpy(dense + d * w, staged + a * w, W);
                              });
        });
      }
      remaining -= group.group * inner.size;
      for (std::int64_t g = 0; g < group.group && remaining > 0; ++g) c.lines.next();
      continue;
    }
    LineAhead ahead;
    if (prefetch_next && remaining > count) {
      Odometer<kLoopTensors> next = c.lines;
      next.next();
      ahead.read = fused ? source + next.offset[kSource] * w : indexed + next.offset[kIndexed] * w;
      if (fused) ahead.write = indexed + next.offset[kIndexed] * w;
      ahead.lines = (line.size * w + 63) / 64;
    }
    if (gather && doubled) {
      gather_line<W>(stage, indexed + at[kIndexed] * w, line.size, line.indexed_stride);
      std::memcpy(stage + line.size * w, stage, static_cast<std::size_t>(line.size * w));
      const unsigned char* const middle = stage + line.size * w;
      with_clamp(p.clamp, [&](auto clamp) {
        for_each_in_line<I>(indices, count, row_dense, inner.stride[kDense], row_index, inner.stride[kIndex], ahead,
                            [&](std::int64_t d, std::int64_t x) {
                              const I v = load_index<I>(indices, x);
                              const std::int64_t a = decltype(clamp)::value ? clamp_index<I>(v, line.size)
                                                                            : static_cast<std::int64_t>(v);
                              std::memcpy(dense + d * w, middle + a * w, W);
                            });
      });
    } else if (gather) {
      gather_line<W>(stage, indexed + at[kIndexed] * w, line.size, line.indexed_stride);
      with_clamp(p.clamp, [&](auto clamp) {
        for_each_in_line<I>(indices, count, row_dense, inner.stride[kDense], row_index, inner.stride[kIndex], ahead,
                            [&](std::int64_t d, std::int64_t x) {
                              const std::int64_t a =
                                  normalize_index<I, decltype(clamp)::value>(load_index<I>(indices, x), line.size);
                              std::memcpy(dense + d * w, stage + a * w, W);
                            });
      });
    } else {
      const unsigned char* from = fused ? source + at[kSource] * w : indexed + at[kIndexed] * w;
      gather_line<W>(stage, from, line.size, fused ? line.source_stride : line.indexed_stride);
      with_clamp(p.clamp, [&](auto clamp) {
        for_each_in_line<I>(indices, count, row_dense, inner.stride[kDense], row_index, inner.stride[kIndex], ahead,
                            [&](std::int64_t d, std::int64_t x) {
                              const std::int64_t a =
                                  normalize_index<I, decltype(clamp)::value>(load_index<I>(indices, x), line.size);
                              std::memcpy(stage + a * w, dense + d * w, W);
                            });
      });
      scatter_line<W>(indexed + at[kIndexed] * w, stage, line.size, line.indexed_stride);
    }
    remaining -= count;
    if (remaining > 0) c.lines.next();
    first = 0;
  }
}

}  // namespace dmlref::detail

#endif  // DMLREF_DETAIL_STAGED_HPP
