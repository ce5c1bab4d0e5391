#ifndef DMLREF_DETAIL_EXECUTE_HPP
#define DMLREF_DETAIL_EXECUTE_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "../executor.hpp"
#include "../options.hpp"
#include "copy.hpp"
#include "plan.hpp"
#include "scratch.hpp"
#include "staged.hpp"
#include "strided.hpp"
#include "tiled.hpp"
#include "walk.hpp"

// Running a checked plan: the kernel that moves one share of its rows, and how a call splits into
// shares over Options::threads.

namespace dmlref::detail {

/// Whether an output that a scatter's copy of InputTensor has just written whole is still in the
/// last-level cache (Plan::output_cached).
inline bool copied_output_stays_cached(std::int64_t output_extent) noexcept { return output_extent <= cached_bytes(); }

/// Whether a scatter's contiguous rows are written with streaming stores (stream_run): rows of a
/// few cache lines at least, more than stream_bytes() of them, into an output with that much room
/// for them (a smaller output stays in the caches, where streaming would only evict it), unless
/// the output is in the cache already (Plan::output_cached).
inline bool streams_rows(const Plan& p, const Share& s) noexcept {
  if (p.flow != Flow::scatter || p.combine != nullptr || p.output_cached || !DMLREF_HAS_STREAMING_STORES) return false;
  const std::int64_t length = p.block_elements() * static_cast<std::int64_t>(p.element_size);
  if (length < kStreamRunBytes) return false;
  const std::int64_t targets = p.indexed_rows();  // rows the output holds
  const std::int64_t rows = s.end - s.begin;
  return (rows < targets ? rows : targets) >= stream_bytes() / length;
}

/// The kernel of one flow, element width and index type: picks the layout's copy strategy. Only
/// staged lines need the element width at compile time; the other strategies take it at run time.
template <Flow F, std::size_t W, class I>
void run_share(const Share& s) noexcept {
  const Plan& p = *s.plan;
  if (stageable(p)) return copy_staged_rows<F, W, I>(p, s.begin, s.end, s.scratch);
  const RowWalker walk = &walk_rows<I>;
  if (tiled(p)) {
    if constexpr (F == Flow::gather)
      if (s.scratch && gather_tiles_in_input_order<I>(p, s.begin, s.end)) return;
    return copy_tiles<F>(p, s.begin, s.end, s.range, walk);
  }
  if (p.block_rank == 0) return copy_batched<F>(p, s.begin, s.end, s.range, CopyElement{W}, walk);
  if (p.block_rank == 1 && p.block[0].stride[kFrom] == 1 && p.block[0].stride[kTo] == 1) {
    const auto length = static_cast<std::size_t>(p.block[0].size) * W;
    const bool stream = F == Flow::scatter && streams_rows(p, s);
    if ((length >= kPrefetchRunBytes && s.end - s.begin > kRowBatch && !stream) || p.clamp)
      return copy_batched<F>(p, s.begin, s.end, s.range, CopyRun{length, prefetches_next_page(p, length)}, walk);
    copy_runs<F, I>(p, s.begin, s.end, s.range, length, stream);
    if (stream) stream_fence();
    return;
  }
  copy_batched<F>(p, s.begin, s.end, s.range, CopyBlock{p.block, p.block_rank, W}, walk);
}

/// A scatter with a reduction: every update element combined into its output element, in order.
template <class I>
void run_reduction_share(const Share& s) noexcept {
  const Plan& p = *s.plan;
  const std::int64_t w = static_cast<std::int64_t>(p.element_size);
  const CombineFn combine = p.combine;
  auto take = [&](const RowBatch& batch) {
    for (int k = 0; k < batch.count; ++k) {
      unsigned char* const out = p.indexed + batch.indexed[k] * w;
      const unsigned char* const update = p.dense + batch.dense[k] * w;
      for_each_offset(p.block, p.block_rank, [&](const std::int64_t* offset) {
        combine(out + offset[kTo] * w, update + offset[kFrom] * w);
      });
    }
  };
  walk_rows<I>(p, s.begin, s.end, s.range, sink_of(take));
}

using Runner = void (*)(const Share&) noexcept;

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

/// Runs `count` tasks on the executor; task i is fn(i).
template <class Fn>
void run_on(Executor& executor, int count, const Fn& fn) noexcept {
  executor.run(count, [](void* context, int i) noexcept { (*static_cast<const Fn*>(context))(i); },
               const_cast<void*>(static_cast<const void*>(&fn)));
}

/// Splits the plan's rows into shares. Gathers split their rows anywhere. A scatter must not let
/// two threads write one element, and must keep the sequential winner of colliding updates: it
/// splits at outer lines when those address disjoint outputs, and otherwise gives each share a
/// range of the first tuple coordinate (every share walks every row, in order, and writes only
/// its range). Returns the number of shares.
inline int split_shares(const Plan& p, int shares, bool scratch, Share* list) noexcept {
  const std::int64_t rows = p.row_count();
  const std::int64_t lines = rows / p.inner_size();
  bool lines_disjoint = true;  // do different outer lines write different elements?
  for (int d = 0; d + 1 < p.loop_rank; ++d) lines_disjoint = lines_disjoint && p.loop[d].stride[kIndexed] != 0;
  if (p.flow == Flow::gather) {
    if (rows < shares) shares = static_cast<int>(rows);
    for (int i = 0; i < shares; ++i) list[i] = Share{&p, rows * i / shares, rows * (i + 1) / shares, TargetRange{}, scratch};
  } else if (lines_disjoint && lines >= shares) {
    const std::int64_t line = p.inner_size();  // whole lines: no two shares write one element
    for (int i = 0; i < shares; ++i)
      list[i] = Share{&p, lines * i / shares * line, lines * (i + 1) / shares * line, TargetRange{}, scratch};
  } else if (!stageable(p)) {
    const std::int64_t n = p.tuple[0].size;
    if (n < shares) shares = static_cast<int>(n);
    for (int i = 0; i < shares; ++i) list[i] = Share{&p, 0, rows, TargetRange{n * i / shares, n * (i + 1) / shares}, scratch};
  } else {
    shares = 1;  // staged lines that share an output line: sequential
    list[0] = Share{&p, 0, rows, TargetRange{}, scratch};
  }
  return shares;
}

/// The bytes a plan moves, by which it is split into shares.
inline std::int64_t work_bytes(const Plan& p) noexcept {
  const std::int64_t rows = p.row_count();
  const std::int64_t w = static_cast<std::int64_t>(p.element_size);
  return stageable(p) ? rows / p.inner_size() * (p.tuple[0].size + p.inner_size()) * w : rows * p.block_elements() * w;
}

/// Runs the plan with `runner`, on up to Options::threads threads.
inline void execute(const Plan& p, const Options& options, Runner runner) noexcept {
  const bool scratch = options.allow_scratch;
  const std::int64_t rows = p.row_count();
  Executor* executor = nullptr;
  const int wanted = plan_shares(work_bytes(p), options, executor);
  if (wanted <= 1) return runner(Share{&p, 0, rows, TargetRange{}, scratch});
  Share list[kMaxShares];
  const int shares = split_shares(p, wanted, scratch, list);
  if (shares <= 1) return runner(list[0]);
  run_on(*executor, shares, [&](int i) { runner(list[i]); });
}

/// Bytes of index values checked per block of rows in one-pass mode: a quarter of the level-2
/// cache, so that a block's values stay there from its check to its copy.
inline std::int64_t one_pass_index_bytes() noexcept {
  const std::int64_t quarter = cache_sizes().l2 / 4;
  return quarter < 64 * 1024 ? 64 * 1024 : quarter > 512 * 1024 ? 512 * 1024 : quarter;
}

/// Whether the plan can check and copy a block of rows at a time: only when each row reads index
/// values of its own (a Gather's outer input dimensions would check the same values once per
/// outer row) and the call runs as one share.
inline bool checks_in_blocks(const Plan& p, const Options& options) noexcept {
  if (options.index_policy != IndexPolicy::error) return false;
  for (int d = 0; d < p.loop_rank; ++d)
    if (p.loop[d].stride[kIndex] == 0) return false;
  Executor* executor = nullptr;
  return plan_shares(work_bytes(p), options, executor) <= 1;
}

/// Whether a call may check and copy in one pass (Options::all_or_nothing off): when it checks in
/// blocks and no collision check needs every index first.
inline bool runs_in_one_pass(const Plan& p, const Options& options) noexcept {
  if (options.all_or_nothing) return false;
  if (p.flow == Flow::scatter && options.check_collisions) return false;
  return checks_in_blocks(p, options);
}

/// The largest OutputTensor an all-or-nothing gather copies through scratch: glibc's operator new
/// maps 32 MiB or more afresh on every call (its largest mmap threshold), and those pages' first
/// writes fault, at a cost above what the second read of the index values would have been.
inline constexpr std::int64_t kMaxGatherScratchBytes = std::int64_t{31} << 20;

/// The test that turns most calls away from gather_through_scratch, before its call: fewer index
/// values than half the bytes the output spans, which not even 8-byte values outweigh 4 times.
inline bool may_gather_through_scratch(const Plan& p, std::int64_t output_extent) noexcept {
  return p.index_tensor.elements >= output_extent / 2;
}

/// Whether an all-or-nothing gather runs in one pass into scratch (gather_through_scratch): when
/// it checks in blocks and its index values outweigh the bytes its output spans (`output_extent`)
/// at least 4 times, so that reading them once more would cost more than writing and copying the
/// output once more (docs/performance.md, "The second read of the indices").
inline bool gathers_through_scratch(const Plan& p, const Options& options, std::int64_t output_extent) noexcept {
  if (p.flow != Flow::gather || !may_gather_through_scratch(p, output_extent)) return false;
  if (!options.all_or_nothing || !options.allow_scratch || output_extent > kMaxGatherScratchBytes) return false;
  const auto width = static_cast<std::int64_t>(element_size(p.index_tensor.tensor->type));
  return p.index_tensor.elements >= (4 * output_extent + width - 1) / width && checks_in_blocks(p, options);
}

/// The first row of [begin, end) whose index values are not all in range, given that some row's
/// are not: a bisection with `check`, which costs a scan per step (an error path only).
DMLREF_COLD inline std::int64_t first_bad_row(const Plan& p, std::int64_t begin, std::int64_t end,
                                  Status (*check)(const Plan&, RowRange) noexcept) noexcept {
  std::int64_t good = begin, bad = end;  // rows [begin, good) are in range; [good, bad) holds the first bad one
  while (bad - good > 1) {
    const std::int64_t mid = good + (bad - good) / 2;
    if (check(p, RowRange{good, mid})) good = mid;
    else bad = mid;
  }
  return good;
}

/// One pass: rows in blocks, each block's index values checked (`check`) just before the block
/// is copied. Staged plans take whole lines, so that a line is staged once and a scatter writes it
/// back whole. A staged gather checks its values itself instead, a stretch of them just before
/// the rows that read it (Plan::bad_line, take_from_line), and stops before a stretch with a bad
/// one. A block with a bad value still copies the rows before it, so that every row before the
/// error has run; its last line may then be partial, which a share of one thread allows. On an
/// error, `written` says whether anything was copied before it.
DMLREF_COLD inline Status execute_in_one_pass(const Plan& p, const Options& options, Runner runner,
                                  Status (*check)(const Plan&, RowRange) noexcept, bool& written) noexcept {
  const std::int64_t rows = p.row_count();
  const auto index_bytes = static_cast<std::int64_t>(element_size(p.index_tensor.tensor->type)) * p.tuple_length;
  std::int64_t block = one_pass_index_bytes() / index_bytes;
  std::int64_t lead = 0;  // rows of a first block longer than the others
  if (stageable(p)) {  // whole lines, and whole groups of far-strided lines
    const std::int64_t group = lines_per_group(p);
    const std::int64_t lines = (block + p.inner_size() - 1) / p.inner_size();
    block = (lines + group - 1) / group * group * p.inner_size();
    // Groups that start on the indexed tensor's cache lines (lines_before_boundary): the lines
    // before the first boundary join the first block, so that no block boundary splits a group.
    if (group > 1) lead = lines_before_boundary(p, p.indexed, group) % group * p.inner_size();
  }
  // Each block's copy prefetches the next block's index values (into L2), which its check then
  // reads from cache: the reads from memory overlap the copy. A staged gather's stretch checks
  // read just behind its rows' own prefetches instead (IndexAhead's default distance).
  Plan pipelined = p;
  bool bad_line = false;
  const bool checks_lines = p.flow == Flow::gather && stageable(p);
  if (checks_lines)
    pipelined.bad_line = &bad_line;
  else
    pipelined.index_ahead.l2 = static_cast<std::uintptr_t>(block * index_bytes);
  for (std::int64_t begin = 0, end = 0; begin < rows; begin = end) {
    const std::int64_t length = begin == 0 ? lead + block : block;
    end = rows - begin < length ? rows : begin + length;
    if (checks_lines) {
      runner(Share{&pipelined, begin, end, TargetRange{}, options.allow_scratch});
      if (!bad_line) {
        written = true;
        continue;
      }
      // Its lines stopped at a bad value (the same exact check), which the block check below
      // locates; the rows before it are copied again in full (the same values, none of them bad).
    }
    if (Status s = check(p, RowRange{begin, end}); !s) {
      const std::int64_t bad = first_bad_row(p, begin, end, check);
      if (bad > begin) {
        pipelined.bad_line = nullptr;  // rows before the first bad one: checked, and none stops
        runner(Share{&pipelined, begin, bad, TargetRange{}, options.allow_scratch});
        written = true;
      }
      return s;
    }
    runner(Share{&pipelined, begin, end, TargetRange{}, options.allow_scratch});
    written = true;
  }
  return Status();
}

/// Copies `src` to `dst` (same sizes); a large copy splits its outermost dimension over
/// Options::threads.
inline void copy_tensor(const RawTensor& dst, const RawTensor& src, const Options& options) noexcept {
  BlockDim dims[max_dimension_count];
  int rank = 0;
  std::int64_t elements = 1;
  for (int d = 0; d < dst.sizes.rank(); ++d) {
    elements *= dst.sizes[d];
    if (dst.sizes[d] != 1) dims[rank++] = {dst.sizes[d], {src.strides[d], dst.strides[d]}};
  }
  rank = coalesce(dims, rank);
  const std::size_t width = element_size(dst.type);
  const auto w = static_cast<std::int64_t>(width);
  Executor* executor = nullptr;
  int shares = rank > 0 ? plan_shares(elements * w, options, executor) : 1;
  if (rank > 0 && shares > dims[0].size) shares = static_cast<int>(dims[0].size);
  if (shares <= 1) return copy_block(dst.data, src.data, dims, rank, width);
  // Share i copies rows [first, last) of the outermost dimension.
  run_on(*executor, shares, [&](int i) {
    BlockDim part[max_dimension_count];
    std::copy(dims, dims + rank, part);
    const std::int64_t first = dims[0].size * i / shares;
    part[0].size = dims[0].size * (i + 1) / shares - first;
    copy_block(dst.data + first * dims[0].stride[kTo] * w, src.data + first * dims[0].stride[kFrom] * w, part, rank,
               width);
  });
}

/// Copies an all-or-nothing gather's results from scratch (laid out as OutputTensor, over its
/// `layout.extent` bytes) to OutputTensor, on the one thread such a gather runs on
/// (checks_in_blocks). An output that fills its extent and is at least stream_bytes() is streamed:
/// its lines are not in cache after a pass over index values that outweigh it 4 times, and a plain
/// store would read each one.
inline void copy_from_scratch(const RawTensor& output, const Layout& layout, unsigned char* scratch,
                              const Options& options) noexcept {
  const bool fills_extent = layout.elements * static_cast<std::int64_t>(element_size(output.type)) == layout.extent;
  if (fills_extent && layout.extent >= stream_bytes()) {
    stream_run(output.data, scratch, static_cast<std::size_t>(layout.extent));
    return stream_fence();
  }
  RawTensor results = output;
  results.data = scratch;
  copy_tensor(output, results, options);
}

/// An all-or-nothing gather in one pass, into heap scratch laid out as OutputTensor (the
/// `layout.extent` bytes it spans, the plan's offsets unchanged), copied to OutputTensor only once
/// every index value has passed: a failed call writes nothing. The call's Status; nothing, having done
/// nothing, when the call does not qualify (gathers_through_scratch) or the scratch cannot be had:
/// it then runs in two passes.
DMLREF_COLD inline std::optional<Status> gather_through_scratch(
    const Plan& p, const RawTensor& output, const Layout& layout, const Options& options, Runner runner,
    Status (*check)(const Plan&, RowRange) noexcept) noexcept {
  if (!gathers_through_scratch(p, options, layout.extent)) return std::nullopt;
  Scratch<unsigned char> scratch(static_cast<std::size_t>(layout.extent), false);
  if (!scratch) return std::nullopt;
  Plan into_scratch = p;
  into_scratch.dense = scratch.get();  // a gather's output is its dense tensor
  bool written = false;
  Status status = execute_in_one_pass(into_scratch, options, runner, check, written);
  if (status) copy_from_scratch(output, layout, scratch.get(), options);
  return status;
}

}  // namespace dmlref::detail

#endif  // DMLREF_DETAIL_EXECUTE_HPP
