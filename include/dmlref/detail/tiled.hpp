#ifndef DMLREF_DETAIL_TILED_HPP
#define DMLREF_DETAIL_TILED_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include "copy.hpp"
#include "plan.hpp"
#include "scratch.hpp"
#include "walk.hpp"

// Far-strided blocks (a transposed input, say): copied row by row, every element of such a block
// would cost a cache line and a TLB entry of its own. These layouts move a tile of the block for
// all rows before the next tile, so each pass reuses the lines and pages the previous rows read.

namespace dmlref::detail {

/// A one-dimensional block whose indexed side is far-strided.
inline bool tiled(const Plan& p) noexcept {
  if (p.combine != nullptr || p.block_rank != 1) return false;
  const BlockDim& b = p.block[0];
  const std::int64_t far = p.flow == Flow::gather ? b.stride[kFrom] : b.stride[kTo];
  return far >= 64 && b.size > 1;
}

/// Bytes of each row one tile pass of copy_tiles moves: a cache line. A tile reads one element from
/// each of that many far-strided lines, often a power of two apart and so in one cache set: more of
/// them than the set has ways would evict each other between the rows that share their cache lines.
inline constexpr std::int64_t kTileBytes = 64;

/// Bytes of each row one pass of gather_tiles_in_input_order moves: four cache lines, so that each
/// output row, at a random place of the output, is written in runs of 256 bytes. It reads their
/// far-strided lines kFarLinesAtOnce at a time, for a group of rows.
inline constexpr std::int64_t kStagedTileBytes = 256;

/// Far-strided input lines a tile reads at a time. They are often a power of two apart, and so in
/// one cache set: more of them than the set has ways would evict each other before the next rows,
/// which mostly share them, read them again. Eight fit the ways of the level-1 and level-2 caches
/// of both kinds of host (docs/performance.md, "Both kinds of host").
inline constexpr std::int64_t kFarLinesAtOnce = 8;

/// Rows gather_tiles_in_input_order takes at a time: their tiles are assembled in a buffer of a
/// quarter of the level-2 cache, then written row by row. The buffer shares the cache's sets with
/// the far lines a pass reads and the lines prefetched ahead of them, so it leaves them the rest
/// of the cache (docs/performance.md, "Transposed inputs").
inline std::int64_t tile_group_rows() noexcept {
  const std::int64_t rows = cache_sizes().l2 / 4 / kStagedTileBytes;
  return rows < 64 ? 64 : rows;
}

/// A row of gather_tiles_in_input_order: its offsets in the input and the output.
struct TileRow {
  std::int64_t indexed, dense;
};

/// Sorts rows[0, n) by input offset: a radix sort, 8 bits a pass over the bits in which the
/// offsets differ, through `spare` (room for n more rows). Linear in n, and a few loops to compile.
inline void sort_by_input_offset(TileRow* rows, TileRow* spare, std::int64_t n) noexcept {
  if (n <= 1) return;
  std::int64_t lowest = rows[0].indexed, highest = lowest;
  for (std::int64_t r = 1; r < n; ++r) {
    lowest = rows[r].indexed < lowest ? rows[r].indexed : lowest;
    highest = rows[r].indexed > highest ? rows[r].indexed : highest;
  }
  const auto span = static_cast<std::uint64_t>(highest - lowest);  // offsets are >= 0: no overflow
  TileRow *from = rows, *to = spare;
  for (int shift = 0; shift < 64 && (span >> shift) != 0; shift += 8) {
    auto digit = [&](const TileRow& row) { return static_cast<std::uint64_t>(row.indexed - lowest) >> shift & 255; };
    std::int64_t start[257] = {};
    for (std::int64_t r = 0; r < n; ++r) ++start[digit(from[r]) + 1];
    for (int b = 0; b < 256; ++b) start[b + 1] += start[b];
    for (std::int64_t r = 0; r < n; ++r) to[start[digit(from[r])]++] = from[r];
    std::swap(from, to);
  }
  if (from != rows) std::memcpy(rows, from, static_cast<std::size_t>(n) * sizeof(TileRow));
}

/// The unit of the tile buffer, so that every row's tile starts on a cache line.
struct alignas(64) CacheLine {
  unsigned char bytes[64];
};

/// For each of rows[0, n): `count` elements `far` apart from `from` plus the row's input offset,
/// into its row of `stage` (rows `pitch` bytes apart).
template <std::size_t W>
void stage_far_elements(unsigned char* stage, std::int64_t pitch, const unsigned char* from, std::int64_t far,
                        std::int64_t count, const TileRow* rows, std::int64_t n) noexcept {
  constexpr std::int64_t w = static_cast<std::int64_t>(W);
  if (count == kFarLinesAtOnce) {  // every pass but a short tile's last: a row's 8 elements, unrolled
    for (std::int64_t k = 0; k < n; ++k)
      copy_elements_to_run<W, kFarLinesAtOnce>(stage + k * pitch, from + rows[k].indexed * w, far);
    return;
  }
  for (std::int64_t k = 0; k < n; ++k) copy_elements<W>(stage + k * pitch, 1, from + rows[k].indexed * w, far, count);
}

/// The same for an element width known at run time: one switch per group of rows.
DMLREF_NOINLINE inline void stage_far_elements(unsigned char* stage, std::int64_t pitch, const unsigned char* from,
                                               std::int64_t far, std::int64_t count, const TileRow* rows,
                                               std::int64_t n, std::size_t w) noexcept {
  switch (w) {
    case 1: return stage_far_elements<1>(stage, pitch, from, far, count, rows, n);
    case 2: return stage_far_elements<2>(stage, pitch, from, far, count, rows, n);
    case 4: return stage_far_elements<4>(stage, pitch, from, far, count, rows, n);
    default: return stage_far_elements<8>(stage, pitch, from, far, count, rows, n);
  }
}

/// A gather's rows [begin, end) with a far-strided block. The rows run in order of their input
/// offset, a group (tile_group_rows()) at a time, so each tile's input lines are read in ascending
/// order, one stream per element of the tile. For each tile of the block (kStagedTileBytes of each
/// output row) in turn, the group's tiles are assembled in a buffer, kFarLinesAtOnce streams at a
/// time, then written row by row, with streaming stores when the output is too large for the
/// caches to keep and its rows share one alignment. All tiles of a group before the next group:
/// the rows written, each often on a page of its own, stay in the TLB from one tile to the next.
/// False, having done nothing, when there is no memory for the sorted list of rows or the buffer.
template <class I>
bool gather_tiles_in_input_order(const Plan& p, std::int64_t begin, std::int64_t end) noexcept {
  const std::int64_t n = end - begin;
  const Scratch<TileRow> rows(2 * static_cast<std::size_t>(n), false);  // the rows, then the sort's spare room
  const std::int64_t group = std::min(tile_group_rows(), n);
  const Scratch<CacheLine> stage(static_cast<std::size_t>(group * kStagedTileBytes / 64), false);
  if (!rows || !stage) return false;
  const std::size_t width = p.element_size;
  const std::int64_t w = static_cast<std::int64_t>(width);
  const BlockDim b = p.block[0];
  std::int64_t k = 0;
  auto collect = [&](const RowBatch& batch) {
    for (int i = 0; i < batch.count; ++i) rows[k++] = {batch.indexed[i], batch.dense[i]};
  };
  walk_rows<I>(p, begin, end, TargetRange{}, sink_of(collect));
  std::int64_t misaligned = 0;  // do the rows' tiles start at different offsets in a cache line?
  for (std::int64_t r = 1; r < n; ++r) misaligned |= (rows[r].dense - rows[0].dense) * w;
  sort_by_input_offset(rows.get(), rows.get() + n, n);

  const std::int64_t tile = kStagedTileBytes / w;
  // Streaming: the first tile is cut short so that the others start on a cache line.
  const auto line_offset = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(p.dense + rows[0].dense * w) % 64);
  const bool stream = DMLREF_HAS_STREAMING_STORES && b.stride[kTo] == 1 && (misaligned & 63) == 0 &&
                      line_offset % w == 0 && n * b.size * w >= stream_bytes();
  const std::int64_t head = stream ? std::min((64 - line_offset) % 64 / w, b.size) : 0;
  const std::int64_t far = b.stride[kFrom];
  const std::int64_t far_at_once = kFarLinesAtOnce;
  unsigned char* const buffer = stage.get()->bytes;
  for (std::int64_t first = 0; first < n; first += group) {
    const std::int64_t m = n - first < group ? n - first : group;
    for (std::int64_t j = 0; j < b.size;) {
      const std::int64_t count = j == 0 && head > 0 ? head : (b.size - j < tile ? b.size - j : tile);
      const unsigned char* const from = p.indexed + j * far * w;
      unsigned char* const to = p.dense + j * b.stride[kTo] * w;
      for (std::int64_t e = 0; e < count; e += far_at_once)
        stage_far_elements(buffer + e * w, kStagedTileBytes, from + e * far * w, far, std::min(far_at_once, count - e),
                           rows.get() + first, m, width);
      for (std::int64_t r = 0; r < m; ++r) {
        unsigned char* const dst = to + rows[first + r].dense * w;
        const unsigned char* const src = buffer + r * kStagedTileBytes;
        if (stream && count == tile) stream_lines(dst, src, static_cast<std::size_t>(kStagedTileBytes));
        else if (b.stride[kTo] == 1) std::memcpy(dst, src, static_cast<std::size_t>(count * w));
        else copy_elements(dst, b.stride[kTo], src, 1, count, width);
      }
      j += count;
    }
  }
  if (stream) stream_fence();
  return true;
}

/// Rows [begin, end) with a far-strided block, a tile of one cache line of the block at a time
/// (rows inside). Every element belongs to one tile, and rows keep their order within it, so a
/// scatter's last writer is unchanged.
template <Flow F>
void copy_tiles(const Plan& p, std::int64_t begin, std::int64_t end, TargetRange range, RowWalker walk) noexcept {
  constexpr bool gather = F == Flow::gather;
  const BlockDim b = p.block[0];
  const std::size_t width = p.element_size;
  const std::int64_t w = static_cast<std::int64_t>(width);
  const std::int64_t tile = kTileBytes / w;
  const std::int64_t indexed_stride = gather ? b.stride[kFrom] : b.stride[kTo];
  const std::int64_t dense_stride = gather ? b.stride[kTo] : b.stride[kFrom];
  for (std::int64_t j = 0; j < b.size; j += tile) {
    Plan shifted = p;
    shifted.indexed += j * indexed_stride * w;
    shifted.dense += j * dense_stride * w;
    const std::int64_t count = b.size - j < tile ? b.size - j : tile;
    copy_batched<F>(shifted, begin, end, range, CopyStrided{count, b.stride[kFrom], b.stride[kTo], width}, walk);
  }
}

}  // namespace dmlref::detail

#endif  // DMLREF_DETAIL_TILED_HPP
