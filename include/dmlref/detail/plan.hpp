#ifndef DMLREF_DETAIL_PLAN_HPP
#define DMLREF_DETAIL_PLAN_HPP

#include <cstddef>
#include <cstdint>

#include "../config.hpp"
#include "../data_type.hpp"
#include "reduce.hpp"
#include "strided.hpp"
#include "tensor.hpp"

// Every operator is one "indexed block copy": a loop over rows of the dense tensor (gather: the
// output; scatter: the updates), where each row reads an index tuple, turns it into an offset in
// the indexed tensor (gather: the input; scatter: the output), and copies a block of elements
// between the two. Gather's outer/index/inner split, GatherND's tuples and batches and
// GatherElements' per-element axis all map onto this; the operators only build the plan.
// docs/internals.md follows one Gather through it.

namespace dmlref::detail {

enum class Flow : std::uint8_t { gather, scatter };

/// The tensors a loop dimension steps through: dense and indexed are the two sides of the copy,
/// index addresses IndicesTensor, source a scatter's InputTensor (read only when the copy of the
/// input is fused into the scatter, see fuses_input_copy).
enum LoopTensor : int { kDense, kIndex, kIndexed, kSource, kLoopTensors };
using LoopDim = Dim<kLoopTensors>;

/// The two sides of a block copy.
enum BlockTensor : int { kFrom, kTo, kBlockTensors };
using BlockDim = Dim<kBlockTensors>;

/// One coordinate of an index tuple: the size and stride of the dimension it addresses.
struct TupleEntry {
  std::int64_t size, indexed_stride;
  int target_dimension;
  std::int64_t source_stride;
};

/// What the index check needs to know of IndicesTensor beyond the plan's loops.
struct IndicesLayout {
  const RawTensor* tensor = nullptr;
  std::int64_t elements = 0;  ///< from check_layout
  bool packed = false;        ///< from check_layout
  /// GatherND, GatherND1, ScatterND: the last dimension holds the tuples' coordinates.
  bool last_dimension_is_tuple = false;
};

/// How far ahead a sequential pass over IndicesTensor prefetches: the hardware prefetcher runs
/// too short a distance ahead for loops this fast (docs/performance.md, "What makes it fast").
inline constexpr std::uintptr_t kIndexPrefetchBytes = 4096;
/// How far ahead a staged pass also prefetches index values into L2: with the L1 prefetches alone,
/// one core keeps too few of the index stream's misses in flight to read it at DRAM's speed
/// (docs/performance.md, "The index stream").
inline constexpr std::uintptr_t kIndexL2PrefetchBytes = 32 * 1024;

/// How far ahead of its rows a staged pass prefetches index values: `l1` bytes into L1 and, unless
/// 0, `l2` bytes into L2.
struct IndexAhead {
  std::uintptr_t l1 = kIndexPrefetchBytes;
  std::uintptr_t l2 = kIndexL2PrefetchBytes;
};

struct Plan {
  const char* op = "";
  Flow flow = Flow::gather;
  std::size_t element_size = 0;
  unsigned char* dense = nullptr;
  unsigned char* indexed = nullptr;
  const unsigned char* indices = nullptr;
  /// Scatter (elements): InputTensor, which may be copied line by line along with the updates.
  const unsigned char* source = nullptr;
  /// Scatter with a reduction: combines each update into its output element instead of copying.
  CombineFn combine = nullptr;
  /// IndexPolicy::clamp, and some index value is out of range: every row takes the batched walk,
  /// which clamps (staged lines and unbatched runs take checked values only).
  bool clamp = false;
  int loop_rank = 0;
  LoopDim loop[max_dimension_count];
  int block_rank = 0;
  BlockDim block[max_dimension_count];
  int tuple_length = 0;
  std::int64_t tuple_stride = 0;  ///< IndicesTensor stride between a tuple's coordinates
  TupleEntry tuple[max_dimension_count];
  IndicesLayout index_tensor;
  const char* indexed_name = "";
  /// How far ahead of its rows a staged pass prefetches index values. One-pass mode makes the L2
  /// distance a block where a block check runs first, so that the next block's check finds its
  /// values in cache, read while this block is copied. (Into L1, lines a block ahead would evict
  /// the block's own.) A staged gather's stretch checks keep the default distance.
  IndexAhead index_ahead;
  /// One pass: a staged gather checks its index values a stretch at a time, just before it copies
  /// their rows, and before a stretch with a bad one sets *bad_line and stops (take_from_line).
  /// Null: the values are checked already.
  bool* bad_line = nullptr;
  /// A scatter whose OutputTensor the copy of InputTensor has just written whole, and which fits
  /// in the last-level cache (copied_output_stays_cached): streaming its rows would only evict
  /// those lines. Set by run_operator.
  bool output_cached = false;

  void add_loop(std::int64_t size, std::int64_t dense_stride, std::int64_t index_stride,
                std::int64_t indexed_stride, std::int64_t source_stride = 0) noexcept {
    if (size != 1) loop[loop_rank++] = {size, {dense_stride, index_stride, indexed_stride, source_stride}};
  }
  /// A block dimension, from the operator's point of view: dense and indexed strides.
  void add_block(std::int64_t size, std::int64_t dense_stride, std::int64_t indexed_stride) noexcept {
    if (size == 1) return;
    block[block_rank++] = flow == Flow::gather ? BlockDim{size, {indexed_stride, dense_stride}}
                                               : BlockDim{size, {dense_stride, indexed_stride}};
  }
  void add_tuple(std::int64_t size, std::int64_t indexed_stride, int target_dimension,
                 std::int64_t source_stride = 0) noexcept {
    tuple[tuple_length++] = {size, indexed_stride, target_dimension, source_stride};
  }
  /// Merges contiguous loop and block dimensions (done once the plan is complete).
  void coalesce() noexcept {
    loop_rank = detail::coalesce(loop, loop_rank);
    block_rank = detail::coalesce(block, block_rank);
  }

  /// Rows the loop walks (the product of the loop sizes).
  std::int64_t row_count() const noexcept {
    std::int64_t rows = 1;
    for (int d = 0; d < loop_rank; ++d) rows *= loop[d].size;
    return rows;
  }
  /// Rows IndexedTensor holds, as far as the rows walked reach: the tuple's sizes and the sizes of
  /// the loop dimensions that move through it.
  std::int64_t indexed_rows() const noexcept {
    std::int64_t rows = 1;
    for (int t = 0; t < tuple_length; ++t) rows *= tuple[t].size;
    for (int d = 0; d < loop_rank; ++d)
      if (loop[d].stride[kIndexed] != 0) rows *= loop[d].size;
    return rows;
  }
  /// Rows per iteration of the innermost loop dimension.
  std::int64_t inner_size() const noexcept { return loop_rank > 0 ? loop[loop_rank - 1].size : 1; }
  std::int64_t block_elements() const noexcept {
    std::int64_t n = 1;
    for (int d = 0; d < block_rank; ++d) n *= block[d].size;
    return n;
  }
};

/// Rows whose first tuple coordinate falls outside [lo, hi) are skipped: how a scatter splits
/// across threads without two threads writing one element.
struct TargetRange {
  std::int64_t lo = 0, hi = INT64_MAX;
};

/// One share of a call: rows [begin, end), and for a scatter split by target, a range of the
/// first tuple coordinate.
struct Share {
  const Plan* plan;
  std::int64_t begin, end;
  TargetRange range;
  bool scratch = true;  ///< Options::allow_scratch
};

}  // namespace dmlref::detail

#endif  // DMLREF_DETAIL_PLAN_HPP
