#ifndef DMLREF_DETAIL_WALK_HPP
#define DMLREF_DETAIL_WALK_HPP

#include <cstdint>

#include "indices.hpp"
#include "plan.hpp"
#include "strided.hpp"

// The row walk of a plan: for every row of the dense tensor, the offset it copies to or from and
// the offset its index tuple addresses in the indexed tensor.

namespace dmlref::detail {

/// An odometer over the lines of a plan (every loop dimension but the innermost), at the line
/// holding row `begin`; `first` is that row's place in its line.
struct LineCursor {
  Odometer<kLoopTensors> lines;
  std::int64_t first;

  LineCursor(const Plan& p, std::int64_t begin) noexcept
      : lines(p.loop, p.loop_rank > 0 ? p.loop_rank - 1 : 0), first(begin) {
    if (p.loop_rank > 1) {  // one line (a 1-D index list, say): no division
      const std::int64_t line_size = p.loop[p.loop_rank - 1].size;
      lines.seek(begin / line_size);
      first = begin % line_size;
    }
  }
};

/// The innermost loop dimension (a line of rows); a size-1 stand-in when there are no loops.
inline LoopDim inner_loop(const Plan& p) noexcept {
  return p.loop_rank > 0 ? p.loop[p.loop_rank - 1] : LoopDim{1, {0, 0, 0, 0}};
}

/// Calls row(dense_offset, indexed_offset, first_coordinate) for rows [begin, end) in row-major
/// order. The indexed offset includes the whole tuple's contribution; offsets are in elements.
/// Clamp: every index value is clamped (which leaves a value in range as it is); otherwise the
/// values must have been checked. The walk's state lives in this function's own locals: inside a
/// lambda it would be reached by reference, and every store of the row functor might alias it.
/// The functor is held by value, for the same reason, and returned, as std::for_each does.
template <class I, bool Clamp, class Row>
Row for_each_row(const Plan& p, std::int64_t begin, std::int64_t end, Row row) noexcept {
  const LoopDim inner = inner_loop(p);
  const unsigned char* const indices = p.indices;
  const TupleEntry first = p.tuple[0];
  const int K = p.tuple_length;
  LineCursor c(p, begin);
  std::int64_t i = c.first;
  std::int64_t remaining = end - begin;
  for (;;) {
    const std::int64_t line = inner.size - i < remaining ? inner.size - i : remaining;
    std::int64_t d = c.lines.offset[kDense] + i * inner.stride[kDense];
    std::int64_t x = c.lines.offset[kIndex] + i * inner.stride[kIndex];
    std::int64_t y = c.lines.offset[kIndexed] + i * inner.stride[kIndexed];
    // Single-coordinate rows (every operator but the ND ones) get a loop of their own.
    if (K == 1) {
      for (std::int64_t k = 0; k < line;
           ++k, d += inner.stride[kDense], x += inner.stride[kIndex], y += inner.stride[kIndexed]) {
        const std::int64_t a = normalize_index<I, Clamp>(load_index<I>(indices, x), first.size);
        row(d, y + a * first.indexed_stride, a);
      }
    } else if (K == 2) {  // pairs (GatherND of 2-D coordinates) keep both entries in registers
      const TupleEntry second = p.tuple[1];
      const std::int64_t pair_stride = p.tuple_stride;
      for (std::int64_t k = 0; k < line;
           ++k, d += inner.stride[kDense], x += inner.stride[kIndex], y += inner.stride[kIndexed]) {
        const std::int64_t a = normalize_index<I, Clamp>(load_index<I>(indices, x), first.size);
        const std::int64_t b = normalize_index<I, Clamp>(load_index<I>(indices, x + pair_stride), second.size);
        row(d, y + a * first.indexed_stride + b * second.indexed_stride, a);
      }
    } else {
      for (std::int64_t k = 0; k < line;
           ++k, d += inner.stride[kDense], x += inner.stride[kIndex], y += inner.stride[kIndexed]) {
        const std::int64_t a = normalize_index<I, Clamp>(load_index<I>(indices, x), first.size);
        std::int64_t target = y + a * first.indexed_stride;
        for (int t = 1; t < K; ++t)
          target += normalize_index<I, Clamp>(load_index<I>(indices, x + t * p.tuple_stride), p.tuple[t].size) *
                    p.tuple[t].indexed_stride;
        row(d, target, a);
      }
    }
    remaining -= line;
    if (remaining == 0) return row;
    c.lines.next();
    i = 0;
  }
}

/// Up to kRowBatch rows of a walk: their offsets (in elements) in the dense and the indexed tensor.
inline constexpr int kRowBatch = 16;
struct RowBatch {
  const std::int64_t* dense;
  const std::int64_t* indexed;
  int count;
};

/// What receives the batches of a walk. Its type is erased, so that the walk over IndicesTensor
/// is compiled once per index type, and what is done with the rows once for all of them.
struct BatchSink {
  void (*take)(void* context, const RowBatch& batch) noexcept;
  void* context;
};

/// Hands the rows of for_each_row whose first tuple coordinate is in `range` to `sink`, in
/// batches of up to kRowBatch, so that a copy can prefetch a batch before moving it. The walk every
/// layout can take: it clamps the index values, so a plan that must clamp them takes it (checked
/// values stay as they are).
template <class I>
void walk_rows(const Plan& p, std::int64_t begin, std::int64_t end, TargetRange range, const BatchSink& sink) noexcept {
  std::int64_t dense_offsets[kRowBatch], indexed_offsets[kRowBatch];
  int n = 0;
  for_each_row<I, true>(p, begin, end, [&](std::int64_t d, std::int64_t y, std::int64_t a) {
    dense_offsets[n] = d;
    indexed_offsets[n] = y;
    n += (a >= range.lo) & (a < range.hi);
    if (n == kRowBatch) {
      sink.take(sink.context, RowBatch{dense_offsets, indexed_offsets, n});
      n = 0;
    }
  });
  if (n > 0) sink.take(sink.context, RowBatch{dense_offsets, indexed_offsets, n});
}

/// walk_rows of one index type, chosen once per call.
using RowWalker = void (*)(const Plan&, std::int64_t, std::int64_t, TargetRange, const BatchSink&) noexcept;

/// A BatchSink over any callable taking a RowBatch.
template <class Fn>
BatchSink sink_of(Fn& fn) noexcept {
  return {[](void* context, const RowBatch& batch) noexcept { (*static_cast<Fn*>(context))(batch); }, &fn};
}

}  // namespace dmlref::detail

#endif  // DMLREF_DETAIL_WALK_HPP
