// Staged lines (detail/staged.hpp, copy_staged_rows). Lines that are far-strided in a transposed
// input: up to 64 neighbouring lines are staged together when their elements share cache lines (on
// the heap when they outgrow the 32 KiB stack buffer, LargeGroupsOnTheHeap). Also the doubled
// staged line that signed indices read without normalisation. These cases pin the group boundaries:
// line counts that are and are not multiples of the group, groups cut short by the outer
// dimension's end, groups that start on the input's cache lines after a short first one, shares
// that start and end mid-line (2 and 3 threads), element widths 1, 2, 4 and 8, and both Gather on
// the last axis and GatherElements, against a direct computation on the transposed data. Then packed lines' rows taken in order, several small elements to a store, for
// every index type. Then packed lines of 1 KiB and more, which a staged pass prefetches one line
// ahead. Then packed lines of 1 KiB and more, which a gather reads in place instead of staging them
// (with as many rows as elements, only on CPUs where that measured faster, and never where its
// rows run in AVX-512 lanes), also in one pass with an error in a later line. Then a
// Gather's index values shared by every line, which a share normalises once into 16-bit positions.
// Last, one pass over staged lines, which checks their index values as it copies and stops at the
// first bad one, also 8 rows at a time in AVX-512 lanes where this CPU runs them.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <cstring>
#include <type_traits>
#include <vector>

#include "dmlref/dmlref.hpp"
#include "support/type_names.hpp"
#include "support/values.hpp"

namespace {

using dmlref::TensorView;

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// `count` elements of T from `offset` elements past a 64-byte boundary in `storage`: the
// alignment of a staged group's first line decides where its groups start (lines_before_boundary).
template <class T>
T* at_cache_line_offset(std::vector<T>& storage, std::int64_t count, std::int64_t offset) {
  storage.assign(static_cast<std::size_t>(count + offset + 64), T{});
  const auto skip = (64 - reinterpret_cast<std::uintptr_t>(storage.data()) % 64) % 64 / sizeof(T);
  return storage.data() + skip + offset;
}

// Input [batches, rows, n], each batch a [rows, n] matrix stored transposed (element (b, r, a) at
// b * rows * n + r + a * rows), `offset` elements past a cache line: each row is a line with stride
// `rows`, row r + 1 starts one element after row r, and a batch's last row ends its lines' groups.
template <class T>
void check_gather_elements(std::int64_t rows, std::int64_t n, std::int64_t picks, int threads,
                           std::int64_t offset = 0, bool all_or_nothing = true, std::int64_t batches = 1) {
  std::vector<T> room;
  T* const storage = at_cache_line_offset(room, batches * rows * n, offset);
  for (std::int64_t e = 0; e < batches * rows * n; ++e) storage[e] = test_values::pattern<T>(e);
  std::vector<std::int64_t> indices(static_cast<std::size_t>(batches * rows * picks));
  for (std::int64_t e = 0; e < batches * rows * picks; ++e) {
    const std::int64_t a = (e * 7919 + 13) % n;
    indices[static_cast<std::size_t>(e)] = e % 3 == 0 ? a - n : a;  // negative ones too
  }
  std::vector<T> output(static_cast<std::size_t>(batches * rows * picks));
  dmlref::Options options;
  options.threads = threads;
  options.all_or_nothing = all_or_nothing;
  const dmlref::Status s = dmlref::try_gather_elements(
      TensorView<const T>(storage, {batches, rows, n}, {rows * n, 1, rows}),
      TensorView<const std::int64_t>(indices.data(), {batches, rows, picks}),
      TensorView<T>(output.data(), {batches, rows, picks}), {2}, options);
  ASSERT_TRUE(s) << s.message();
  for (std::int64_t r = 0; r < batches * rows; ++r)  // r: the batch's row, counted across batches
    for (std::int64_t j = 0; j < picks; ++j) {
      std::int64_t a = indices[static_cast<std::size_t>(r * picks + j)];
      if (a < 0) a += n;
      const std::int64_t at = r / rows * rows * n + r % rows + a * rows;
      ASSERT_TRUE(same_bits(output[static_cast<std::size_t>(r * picks + j)], storage[at]))
          << "rows " << rows << " n " << n << " picks " << picks << " threads " << threads << " offset " << offset
          << (all_or_nothing ? "" : " one pass") << " batches " << batches << " at (" << r << ", " << j << ")";
    }
}

// The same on a packed input. With at least as many picks as elements, a staged line (under 1 KiB,
// or one whose rows run in AVX-512 lanes) is doubled (copy_staged_rows) for signed indices, so
// negative ones are read from its first half; a longer one is read in place.
template <class T, class I = std::int32_t>
void check_gather_elements_packed(std::int64_t rows, std::int64_t n, std::int64_t picks, int threads = 1) {
  std::vector<T> input(static_cast<std::size_t>(rows * n));
  for (std::int64_t e = 0; e < rows * n; ++e) input[static_cast<std::size_t>(e)] = test_values::pattern<T>(e + 11);
  std::vector<I> indices(static_cast<std::size_t>(rows * picks));
  for (std::int64_t e = 0; e < rows * picks; ++e) {
    const std::int64_t a = (e * 104729 + 3) % n;
    indices[static_cast<std::size_t>(e)] = static_cast<I>(std::is_signed_v<I> && e % 2 == 0 ? a - n : a);
  }
  std::vector<T> output(static_cast<std::size_t>(rows * picks));
  dmlref::Options options;
  options.threads = threads;
  const dmlref::Status s = dmlref::try_gather_elements(
      TensorView<const T>(input.data(), {rows, n}), TensorView<const I>(indices.data(), {rows, picks}),
      TensorView<T>(output.data(), {rows, picks}), {1}, options);
  ASSERT_TRUE(s) << s.message();
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t j = 0; j < picks; ++j) {
      std::int64_t a = static_cast<std::int64_t>(indices[static_cast<std::size_t>(r * picks + j)]);
      if (a < 0) a += n;
      ASSERT_TRUE(same_bits(output[static_cast<std::size_t>(r * picks + j)], input[static_cast<std::size_t>(r * n + a)]))
          << "n " << n << " picks " << picks << " threads " << threads << " at (" << r << ", " << j << ")";
    }
}

// Scatter along the last axis of a packed [rows, n] tensor, m distinct positions per row: the
// staged line is the input's (the copy of InputTensor fused with the updates).
template <class T, class I = std::int64_t>
void check_scatter_packed(std::int64_t rows, std::int64_t n, std::int64_t m, int threads) {
  std::vector<T> input(static_cast<std::size_t>(rows * n)), updates(static_cast<std::size_t>(rows * m));
  for (std::int64_t e = 0; e < rows * n; ++e) input[static_cast<std::size_t>(e)] = test_values::pattern<T>(e + 3);
  for (std::int64_t e = 0; e < rows * m; ++e) updates[static_cast<std::size_t>(e)] = test_values::pattern<T>(e + rows * n + 3);
  std::vector<I> indices(static_cast<std::size_t>(rows * m));
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t j = 0; j < m; ++j) {
      const std::int64_t a = (j * 7 + r) % n;  // distinct within a row while m <= n and gcd(7, n) == 1
      indices[static_cast<std::size_t>(r * m + j)] = static_cast<I>(std::is_signed_v<I> && j % 2 == 0 ? a - n : a);
    }
  std::vector<T> output(static_cast<std::size_t>(rows * n));
  dmlref::Options options;
  options.threads = threads;
  const dmlref::Status s = dmlref::try_scatter(
      TensorView<const T>(input.data(), {rows, n}), TensorView<const I>(indices.data(), {rows, m}),
      TensorView<const T>(updates.data(), {rows, m}), TensorView<T>(output.data(), {rows, n}), {1}, options);
  ASSERT_TRUE(s) << s.message();
  std::vector<T> expected = input;
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t j = 0; j < m; ++j) {
      std::int64_t a = static_cast<std::int64_t>(indices[static_cast<std::size_t>(r * m + j)]);
      if (a < 0) a += n;
      expected[static_cast<std::size_t>(r * n + a)] = updates[static_cast<std::size_t>(r * m + j)];
    }
  for (std::int64_t e = 0; e < rows * n; ++e)
    ASSERT_TRUE(same_bits(output[static_cast<std::size_t>(e)], expected[static_cast<std::size_t>(e)]))
        << "rows " << rows << " n " << n << " m " << m << " threads " << threads << " at " << e;
}

// Gather on the last axis of a [rows, n] input with index type I, every row picking the same
// `picks` columns (negative ones too, for signed I), with `options`; the index values
// `index_stride` elements apart. Packed, or stored transposed (element (r, a) at r + a * rows:
// each row a far-strided line, row r + 1 one element after row r).
template <class T, class I>
void check_gather_last_axis(std::int64_t rows, std::int64_t n, std::int64_t picks, const dmlref::Options& options,
                            bool transposed = false, std::int64_t index_stride = 1) {
  std::vector<T> input(static_cast<std::size_t>(rows * n));
  for (std::int64_t e = 0; e < rows * n; ++e) input[static_cast<std::size_t>(e)] = test_values::pattern<T>(e + 3);
  std::vector<I> indices(static_cast<std::size_t>(picks * index_stride));
  for (std::int64_t j = 0; j < picks * index_stride; ++j) {
    const std::int64_t a = (j * 7919 + 5) % n;
    indices[static_cast<std::size_t>(j)] = static_cast<I>(std::is_signed_v<I> && j % 3 == 1 ? a - n : a);
  }
  const std::int64_t row_stride = transposed ? 1 : n, column_stride = transposed ? rows : 1;
  std::vector<T> output(static_cast<std::size_t>(rows * picks));
  const dmlref::Status s = dmlref::try_gather(
      TensorView<const T>(input.data(), {rows, n}, {row_stride, column_stride}),
      TensorView<const I>(indices.data(), {1, picks}, {picks * index_stride, index_stride}),
      TensorView<T>(output.data(), {rows, picks}), {1, 1}, options);
  ASSERT_TRUE(s) << s.message();
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t j = 0; j < picks; ++j) {
      std::int64_t a = static_cast<std::int64_t>(indices[static_cast<std::size_t>(j * index_stride)]);
      if (a < 0) a += n;
      ASSERT_TRUE(same_bits(output[static_cast<std::size_t>(r * picks + j)],
                            input[static_cast<std::size_t>(r * row_stride + a * column_stride)]))
          << "rows " << rows << " n " << n << " picks " << picks << " threads " << options.threads
          << (transposed ? " transposed" : "") << " at (" << r << ", " << j << ")";
    }
}

template <class T>
class GroupedLines : public ::testing::Test {};
TYPED_TEST_SUITE(GroupedLines, ElementWidths, DataTypeNames);

TYPED_TEST(GroupedLines, GatherElementsOnTransposedInput) {
  using T = TypeParam;
  // rows: below, at and above a group (64 / sizeof(T) lines), and not a multiple of it.
  for (const std::int64_t rows : {3, 16, 37, 70})
    for (const std::int64_t n : {64, 257, 1000}) check_gather_elements<T>(rows, n, n / 2 + 3, 1);
}

// Groups too large for the 32 KiB stack buffer are staged on the heap, each line padded by a cache
// line, and at most 1 MiB of them: lines of 2 KiB to the largest stageable one (32 KiB), where the
// cap cuts a group of 64 / sizeof(T) lines short.
TYPED_TEST(GroupedLines, LargeGroupsOnTheHeap) {
  using T = TypeParam;
  const std::int64_t w = static_cast<std::int64_t>(sizeof(T));
  for (const std::int64_t n : {2048 / w + 1, 32768 / w}) {
    const std::int64_t rows = 64 / w + 5;  // one full group and a short one
    check_gather_elements<T>(rows, n, n / 8 + 1, 1);
  }
  check_gather_elements<T>(3 * (64 / w) + 1, 4096 / w, 4096 / w / 2 + 1, 2);
}

TYPED_TEST(GroupedLines, GatherLastAxisOnTransposedInput) {
  using T = TypeParam;
  for (const std::int64_t rows : {5, 33, 64})
    for (const std::int64_t n : {100, 512}) check_gather_last_axis<T, std::int32_t>(rows, n, n / 4 + 1, {}, true);
}

// n up to the largest line that still fits twice in the 32 KiB stage, and one past it.
TYPED_TEST(GroupedLines, DoubledLinesOnPackedInput) {
  using T = TypeParam;
  const std::int64_t largest = 16384 / static_cast<std::int64_t>(sizeof(T));
  for (const std::int64_t n : {std::int64_t{3}, std::int64_t{100}, largest, largest + 1})
    for (const std::int64_t picks : {n, n + 7}) check_gather_elements_packed<T>(3, n, picks);
}

// A packed line's rows taken in order, 1- and 2-byte elements assembled up to 8 bytes to a store
// (TakeRows::in_order): every index type (a cache line of index values is a block of 8 or 16
// rows), row counts around whole blocks, lines staged (doubled for signed indices when the rows
// outnumber the elements) and read in place.
TYPED_TEST(GroupedLines, RowsTakenInOrderEveryIndexType) {
  using T = TypeParam;
  for (const std::int64_t n : {50, 600})
    for (const std::int64_t picks : {1, 7, 8, 9, 16, 17, 33, 64, 65, 200}) {
      for_each_index_type([&](auto i) { check_gather_elements_packed<T, decltype(i)>(3, n, picks); });
      if (::testing::Test::HasFatalFailure()) return;
    }
}

// Groups start on the input's cache lines: a first line `offset` elements past one makes a short
// first group (unless the lines' stride is not a whole number of cache lines: 37 rows), and a share
// or one-pass block whose last lines are not a whole group ends with a short one, as does a batch
// of transposed matrices at its last row. Both modes, one and two threads.
TYPED_TEST(GroupedLines, GroupsStartOnTheInputsCacheLines) {
  using T = TypeParam;
  const std::int64_t per_line = 64 / static_cast<std::int64_t>(sizeof(T));
  for (const std::int64_t offset : {std::int64_t{0}, std::int64_t{1}, per_line / 2 + 1, per_line - 1})
    for (const bool all_or_nothing : {true, false}) {
      for (const std::int64_t rows : {std::int64_t{37}, 2 * per_line, 3 * per_line})
        for (const std::int64_t n : {64, 257}) check_gather_elements<T>(rows, n, n / 2 + 3, 1, offset, all_or_nothing);
      check_gather_elements<T>(20 * per_line, 32 * per_line, 1237, 2, offset, all_or_nothing);
      // Batches of transposed matrices: the outer dimension's end cuts a group short.
      for (const std::int64_t rows : {per_line + 3, 2 * per_line})
        check_gather_elements<T>(rows, 100, 53, 1, offset, all_or_nothing, 3);
      if (::testing::Test::HasFatalFailure()) return;
    }
}

// Enough work to split (more than 512 KiB): shares start and end inside lines and groups.
TYPED_TEST(GroupedLines, SharesCutThroughGroups) {
  using T = TypeParam;
  const std::int64_t n = 2048 / static_cast<std::int64_t>(sizeof(T));
  for (const int threads : {2, 3}) check_gather_elements<T>(301, n, 1237, threads);
}

// A staged pass prefetches its next line (a Scatter also its next output line) while it works on
// the current one, for contiguous lines of 1 KiB and more (copy_staged_rows): lines from just
// below to well above that size, one to many lines, shares of whole lines (scatters) and shares
// that start mid-line (gathers) on 2 and 3 threads, and all four index types.
TYPED_TEST(GroupedLines, PrefetchesLinesAhead) {
  using T = TypeParam;
  const std::int64_t w = static_cast<std::int64_t>(sizeof(T));
  for (const std::int64_t bytes : {std::int64_t{1000}, std::int64_t{1024}, std::int64_t{8192}}) {
    const std::int64_t n = bytes / w + 1;  // odd: coprime with 7 for check_scatter_packed
    check_gather_elements_packed<T>(5, n, n);
    check_gather_elements_packed<T>(4, n, n / 3);  // fewer rows than elements: not doubled
    check_scatter_packed<T>(1, n, n / 2, 1);
    check_scatter_packed<T>(6, n, n, 1);
  }
  for (const int threads : {2, 3}) {
    check_scatter_packed<T>(97, 8192 / w + 1, 8192 / w - 4, threads);
    check_gather_elements_packed<T>(97, 8192 / w + 1, 8192 / w + 1, threads);
  }
  // The other index types: 8 or 16 of them per cache line of the loop, unsigned ones never
  // doubled.
  const std::int64_t n = 1024 / w + 1;
  check_gather_elements_packed<T, std::int64_t>(5, n, n);
  check_gather_elements_packed<T, std::uint32_t>(5, n, n);
  check_gather_elements_packed<T, std::uint64_t>(5, n, n);
  check_scatter_packed<T, std::int32_t>(6, n, n, 1);
  check_scatter_packed<T, std::uint32_t>(6, n, n, 1);
  check_scatter_packed<T, std::uint64_t>(6, n, n, 1);
}

// A gather's packed line of 1 KiB and more with fewer rows than elements is read in place, each line
// prefetched whole (copy_staged_rows); one with as many rows or more too where
// reads_full_lines_in_place() (the small_caches entry forces it on, as on AMD family 25, other_makes
// off). Lines
// just below that size (staged) and from it up to the largest stageable
// one, from a single row per line to more rows than elements, the four index types, one pass, and
// shares that start mid-line on 2 and 3 threads (more than 512 KiB of work), for Gather on the last
// axis and GatherElements.
template <class T, class I>
void check_lines_read_in_place() {
  const std::int64_t w = static_cast<std::int64_t>(sizeof(T));
  dmlref::Options one_thread, one_pass;
  one_pass.all_or_nothing = false;
  for (const std::int64_t bytes : {std::int64_t{1000}, std::int64_t{1024}, std::int64_t{16384}, std::int64_t{32768}}) {
    const std::int64_t n = bytes / w;
    for (const std::int64_t picks : {std::int64_t{1}, n / 4 + 1, n - 1, n, n + 7}) {
      check_gather_last_axis<T, I>(3, n, picks, one_thread);
      check_gather_last_axis<T, I>(3, n, picks, one_pass);
      check_gather_elements_packed<T, I>(3, n, picks);
    }
  }
  for (const int threads : {2, 3}) {
    dmlref::Options options;
    options.threads = threads;
    const std::int64_t n = 16384 / w + 3;
    check_gather_last_axis<T, I>(64 * w, n, n / 3, options);
    check_gather_elements_packed<T, I>(64 * w, n, n / 3, threads);
  }
}

TYPED_TEST(GroupedLines, ContiguousLinesReadInPlace) {
  using T = TypeParam;
  for_each_index_type([](auto i) { check_lines_read_in_place<T, decltype(i)>(); });
}

// A Gather's rows read the same index values on every line (its outer input dimensions): a share
// of more than one line normalises them once into the stage buffer (copy_staged_rows,
// normalize_shared_indices) and picks by those positions. Lines staged (under 1 KiB) and read in
// place; picks from one to more rows than elements (where signed indices would double the line)
// and too many for the stage to hold their positions (the per-row path); strided index values;
// a single line (never normalised); shares that start mid-line on 2 and 3 threads; four index types.
template <class T, class I>
void check_shared_indices() {
  const std::int64_t w = static_cast<std::int64_t>(sizeof(T));
  const dmlref::Options one_thread;
  for (const std::int64_t bytes : {std::int64_t{200}, std::int64_t{1000}, std::int64_t{16384}}) {
    const std::int64_t n = bytes / w;
    for (const std::int64_t picks : {std::int64_t{1}, n / 4 + 1, n + 7, std::int64_t{16000}}) {
      check_gather_last_axis<T, I>(3, n, picks, one_thread);
      check_gather_last_axis<T, I>(2, n, picks, one_thread, false, 3);
      check_gather_last_axis<T, I>(1, n, picks, one_thread);
    }
  }
  for (const int threads : {2, 3}) {
    dmlref::Options options;
    options.threads = threads;
    check_gather_last_axis<T, I>(97, 1000 / w, 1237, options);
    check_gather_last_axis<T, I>(33, 16384 / w, 16384 / w / 3 + 1, options);
  }
}

TYPED_TEST(GroupedLines, SharedIndicesNormalisedOnce) {
  using T = TypeParam;
  for_each_index_type([](auto i) { check_shared_indices<T, decltype(i)>(); });
}

// Lines with as many rows as elements in a call whose dense and index streams outgrow the
// last-level cache prefetch the dense tensor ahead of the rows (copy_staged_rows, DenseAhead): a
// gather's output, a scatter's updates. With the small_caches entry's L3 of 2 MiB these calls do;
// the results must be the same either way. Both index widths: a block of 4-byte indices covers
// twice the dense bytes of one of 8-byte indices.
TYPED_TEST(GroupedLines, CallsLargerThanTheCacheStreamTheDenseTensor) {
  using T = TypeParam;
  const std::int64_t rows = 64, n = 4096;
  check_gather_elements_packed<T, std::int64_t>(rows, n, n);
  check_gather_elements_packed<T, std::int32_t>(rows, n, n);
  check_scatter_packed<T, std::int64_t>(rows, n, n, 1);
  check_scatter_packed<T, std::uint32_t>(rows, n, n, 1);
}

// One pass over lines read in place, with a bad value in the third line: the error names it, and
// the output holds every row before it and nothing after (GatherElements, [4, n] with n / 4 + 1
// picks a line, lines of 16 KiB).
TYPED_TEST(GroupedLines, OnePassErrorInALineReadInPlace) {
  using T = TypeParam;
  const std::int64_t rows = 4, n = 16384 / static_cast<std::int64_t>(sizeof(T)), picks = n / 4 + 1, bad = 37;
  std::vector<T> input(static_cast<std::size_t>(rows * n));
  for (std::int64_t e = 0; e < rows * n; ++e) input[static_cast<std::size_t>(e)] = test_values::pattern<T>(e + 1);
  std::vector<std::int64_t> indices(static_cast<std::size_t>(rows * picks));
  for (std::int64_t e = 0; e < rows * picks; ++e) indices[static_cast<std::size_t>(e)] = (e * 7919 + 1) % n;
  indices[static_cast<std::size_t>(2 * picks + bad)] = n;
  const T sentinel = test_values::pattern<T>(-5);
  std::vector<T> output(static_cast<std::size_t>(rows * picks), sentinel);
  dmlref::Options options;
  options.all_or_nothing = false;
  const dmlref::Status s = dmlref::try_gather_elements(
      TensorView<const T>(input.data(), {rows, n}), TensorView<const std::int64_t>(indices.data(), {rows, picks}),
      TensorView<T>(output.data(), {rows, picks}), {1}, options);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, dmlref::ErrorCode::index_out_of_range);
  EXPECT_EQ(s.error().position, dmlref::Shape({2, bad})) << s.message();
  EXPECT_TRUE(s.error().output_partly_written) << s.message();
  for (std::int64_t e = 0; e < rows * picks; ++e) {
    const std::int64_t r = e / picks;
    const T expected = e < 2 * picks + bad ? input[static_cast<std::size_t>(r * n + indices[static_cast<std::size_t>(e)])]
                                           : sentinel;
    ASSERT_TRUE(same_bits(output[static_cast<std::size_t>(e)], expected)) << "element " << e;
  }
}

// One pass over staged lines checks the index values a stretch of 4 KiB at a time, just before
// the rows that read them, and stops at a bad one; the call then copies the rows before it in full.
// GatherElements [rows, n] (as many picks as elements), packed (lines of 1 KiB and more read in
// place unless their rows run in AVX-512 lanes, shorter ones staged, doubled for signed
// indices), with the input transposed (lines staged in groups) or with the indices
// transposed (each line's values `rows` apart), with one bad value at `bad` (row-major): the error
// names it, the output holds every element before it and nothing after, and says whether it wrote.
// rows * n of 40,000 makes two one-pass blocks of 8-byte indices (one_pass_index_bytes() is at
// most 512 KiB); n = 1000 ends each line with a short stretch (1000 = 512 + 488 8-byte values)
// whose last values are not a whole cache line.
enum class Transposed { none, input, indices };

template <class T, class I>
void check_one_pass_stops_at(std::int64_t bad, Transposed transposed, std::int64_t rows = 40, std::int64_t offset = 0,
                             std::int64_t n = 1000, bool all_or_nothing = false) {
  // Where element e (row-major) of a [rows, n] tensor lies, stored packed or transposed.
  auto at = [&](bool stored_transposed, std::int64_t e) {
    return static_cast<std::size_t>(stored_transposed ? e / n + e % n * rows : e);
  };
  const bool input_transposed = transposed == Transposed::input, indices_transposed = transposed == Transposed::indices;
  std::vector<T> room;
  T* const storage = at_cache_line_offset(room, rows * n, offset);
  for (std::int64_t e = 0; e < rows * n; ++e) storage[e] = test_values::pattern<T>(e + 3);
  std::vector<I> indices(static_cast<std::size_t>(rows * n));
  for (std::int64_t e = 0; e < rows * n; ++e) {
    const std::int64_t a = (e * 7919 + 5) % n;
    indices[at(indices_transposed, e)] = static_cast<I>(std::is_signed_v<I> && e % 3 == 0 ? a - n : a);
  }
  indices[at(indices_transposed, bad)] = static_cast<I>(std::is_signed_v<I> && bad % 2 == 1 ? -n - 1 : n);
  const T sentinel = test_values::pattern<T>(-7);
  std::vector<T> output(static_cast<std::size_t>(rows * n), sentinel);
  dmlref::Options options;
  options.all_or_nothing = all_or_nothing;  // then nothing is written
  const dmlref::Shape transposed_strides{1, rows}, packed_strides{n, 1};
  const dmlref::Status s = dmlref::try_gather_elements(
      TensorView<const T>(storage, {rows, n}, input_transposed ? transposed_strides : packed_strides),
      TensorView<const I>(indices.data(), {rows, n}, indices_transposed ? transposed_strides : packed_strides),
      TensorView<T>(output.data(), {rows, n}), {1}, options);
  const std::string where = "bad value at " + std::to_string(bad) + " of " + std::to_string(rows) + " rows of " +
                            std::to_string(n) +
                            (input_transposed ? ", input transposed" : indices_transposed ? ", indices transposed" : "") +
                            ", offset " + std::to_string(offset) + (all_or_nothing ? ", all or nothing" : "");
  ASSERT_FALSE(s) << where;
  EXPECT_EQ(s.error().code, dmlref::ErrorCode::index_out_of_range) << where;
  EXPECT_EQ(s.error().position, dmlref::Shape({bad / n, bad % n})) << where << ": " << s.message();
  EXPECT_EQ(s.error().output_partly_written, !all_or_nothing && bad > 0) << where << ": " << s.message();
  for (std::int64_t e = 0; e < rows * n; ++e) {
    std::int64_t a = static_cast<std::int64_t>(indices[at(indices_transposed, e)]);
    if (a < 0) a += n;
    const T expected = e < bad && !all_or_nothing ? storage[at(input_transposed, e / n * n + a)] : sentinel;
    ASSERT_TRUE(same_bits(output[static_cast<std::size_t>(e)], expected)) << where << ": element " << e;
  }
}

TYPED_TEST(GroupedLines, OnePassStopsAtTheFirstBadValue) {
  using T = TypeParam;
  const std::int64_t n = 1000, last = 40 * n - 1;
  // The first value; mid-line cache lines; a line's last value (in its tail for 4-byte indices);
  // the first value of a line; the second one-pass block (past 32,768 values); the last value.
  const std::int64_t bad_values[] = {0, 13, 3 * n + 517, 5 * n - 1, 7 * n, 35003, last};
  for (const std::int64_t bad : bad_values)
    for (const Transposed transposed : {Transposed::none, Transposed::input, Transposed::indices}) {
      for_each_index_type([&](auto i) { check_one_pass_stops_at<T, decltype(i)>(bad, transposed); });
      if (::testing::Test::HasFatalFailure()) return;
    }
}

// Packed lines just under 1 KiB (staged, doubled for signed indices) and of 1 KiB (read in place
// unless the rows run in AVX-512 lanes): a bad value first, mid-line, last in a line and last.
TYPED_TEST(GroupedLines, OnePassStopsInStagedAndInPlaceLines) {
  using T = TypeParam;
  const std::int64_t rows = 40;
  for (const std::int64_t n : {1024 / std::int64_t{sizeof(T)} - 1, 1024 / std::int64_t{sizeof(T)}})
    for (const std::int64_t bad : {std::int64_t{0}, 2 * n + n / 2, 5 * n - 1, rows * n - 1}) {
      for_each_index_type([&](auto i) { check_one_pass_stops_at<T, decltype(i)>(bad, Transposed::none, rows, 0, n); });
      if (::testing::Test::HasFatalFailure()) return;
    }
}

// The same over groups that start on the input's cache lines: 256 transposed lines, a whole number
// of cache lines apart, from a first one `offset` elements past a cache line, make two one-pass
// blocks or more (the first longer by the lines before the first boundary) for every index type.
TYPED_TEST(GroupedLines, OnePassStopsInGroupsStartingOnCacheLines) {
  using T = TypeParam;
  const std::int64_t n = 1000, rows = 256, per_line = 64 / static_cast<std::int64_t>(sizeof(T));
  for (const std::int64_t offset : {std::int64_t{1}, per_line - 1})
    for (const std::int64_t bad : {std::int64_t{0}, 5 * n + 3, 140 * n + 999, 200 * n + 17, rows * n - 1}) {
      for_each_index_type([&](auto i) { check_one_pass_stops_at<T, decltype(i)>(bad, Transposed::input, rows, offset); });
      if (::testing::Test::HasFatalFailure()) return;
    }
}

// One pass in AVX-512 lanes (take_checked_in_lanes, where gathers_with_avx512()): packed lines of
// n = 1003 (a stretch of 512 values, then 491 = 61 groups of 8 and 3 rows after them), with the
// bad value at each lane of a group, in a line's last group and in the rows after it, for every
// index type (signed ones from the doubled line, unsigned ones from the line as staged), in one pass
// and all or nothing (1- and 2-byte elements then run the same rows into scratch, and write
// nothing). Elsewhere the same cases run the scalar rows.
TYPED_TEST(GroupedLines, OnePassStopsInLanes) {
  using T = TypeParam;
  const std::int64_t n = 1003, rows = 6;
  std::vector<std::int64_t> bad_values;
  for (std::int64_t lane = 0; lane < 8; ++lane) bad_values.push_back(2 * n + 64 + lane);  // a group in a stretch
  for (std::int64_t lane = 0; lane < 8; ++lane) bad_values.push_back(3 * n + 512 + 8 + lane);  // the second stretch
  for (const std::int64_t tail : {n - 11, n - 4, n - 3, n - 1}) bad_values.push_back(4 * n + tail);
  for (const std::int64_t bad : bad_values) {
    for (const bool all_or_nothing : {false, true})
      for_each_index_type([&](auto i) {
        check_one_pass_stops_at<T, decltype(i)>(bad, Transposed::none, rows, 0, n, all_or_nothing);
      });
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// Which lines run in lanes: only in one pass, for 1-, 2- and 4-byte elements by 8-byte index values,
// for a line staged alone whose index values are its positions, and only with room after the
// staged bytes for a dword read at the last element.
TYPED_TEST(GroupedLines, LinesThatRunInLanes) {
  using T = TypeParam;
  constexpr std::int64_t w = sizeof(T);
  namespace detail = dmlref::detail;
  bool stopped = false;
  detail::Plan p;
  p.flow = detail::Flow::gather;
  const std::int64_t room = std::int64_t{detail::kStageBytes} - (4 - w);  // the most staged bytes with room
  const bool lanes = w <= 4 && detail::gathers_with_avx512();
  EXPECT_FALSE((detail::gathers_in_lanes<sizeof(T), std::int64_t>(p, false, true, 64))) << "not in one pass";
  p.bad_line = &stopped;
  EXPECT_EQ((detail::gathers_in_lanes<sizeof(T), std::int64_t>(p, false, true, room)), lanes);
  EXPECT_EQ((detail::gathers_in_lanes<sizeof(T), std::uint64_t>(p, false, false, room)), lanes);
  EXPECT_FALSE((detail::gathers_in_lanes<sizeof(T), std::int64_t>(p, false, true, room + 1))) << "no room";
  EXPECT_FALSE((detail::gathers_in_lanes<sizeof(T), std::int64_t>(p, false, false, 64))) << "signed, not doubled";
  EXPECT_FALSE((detail::gathers_in_lanes<sizeof(T), std::int64_t>(p, true, true, 64))) << "not staged alone";
  EXPECT_FALSE((detail::gathers_in_lanes<sizeof(T), std::int32_t>(p, false, true, 64))) << "4-byte values";
  p.flow = detail::Flow::scatter;
  EXPECT_FALSE((detail::gathers_in_lanes<sizeof(T), std::int64_t>(p, false, true, 64))) << "a scatter";
}

// DMLREF_AVX512_GATHERS: "0" off, "1" on where the CPU supports it, else on for the makes measured.
TEST(AVX512Gathers, FromTheEnvironment) {
  using dmlref::detail::avx512_gathers_from;
  for (const bool measured : {false, true}) {
    EXPECT_EQ(avx512_gathers_from(nullptr, true, measured), measured);
    EXPECT_FALSE(avx512_gathers_from("0", true, measured));
    EXPECT_TRUE(avx512_gathers_from("1", true, measured));
    for (const char* text : {"", "00", "10", "yes", " 1"})
      EXPECT_EQ(avx512_gathers_from(text, true, measured), measured) << text;
    for (const char* text : {static_cast<const char*>(nullptr), "0", "1"})
      EXPECT_FALSE(avx512_gathers_from(text, false, measured));
  }
}

}  // namespace
