// The allocation guarantee (README, docs/dispatch.md): with Options::allow_scratch = false a
// successful call allocates no heap memory; by default only the two far-strided layouts take
// scratch (Gather of rows from a transposed input, GatherElements along a transposed input's
// lines), and all-or-nothing gathers whose index values outweigh their output 4 times (one pass
// into a copy of OutputTensor); their results do not depend on it, nor on whether the allocation
// succeeds, and a failed call writes nothing either way. This file
// replaces the global operator new of the test program to count allocations (and to fail the
// nothrow ones on demand); the counter is read around single calls on one thread.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <vector>

#include "dmlref/dmlref.hpp"
#include "support/rules.hpp"

namespace {
std::atomic<long> g_allocations{0};
std::atomic<bool> g_fail_nothrow{false};  // the nothrow forms (the library's scratch) return null
}  // namespace

// Every form is replaced (a sanitizer runtime provides each of them itself), none inlined: g++
// would otherwise see free() meet the library's `new (std::nothrow)` and warn.
namespace {
void* counted_allocation(std::size_t size) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size == 0 ? 1 : size);
}
}  // namespace
DMLREF_NOINLINE void* operator new(std::size_t size) {
  if (void* p = counted_allocation(size)) return p;
  throw std::bad_alloc();
}
DMLREF_NOINLINE void* operator new[](std::size_t size) {
  if (void* p = counted_allocation(size)) return p;
  throw std::bad_alloc();
}
DMLREF_NOINLINE void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  if (!g_fail_nothrow.load()) return counted_allocation(size);
  g_allocations.fetch_add(1, std::memory_order_relaxed);  // counted as tried
  return nullptr;
}
DMLREF_NOINLINE void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  if (!g_fail_nothrow.load()) return counted_allocation(size);
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return nullptr;
}
DMLREF_NOINLINE void operator delete(void* p) noexcept { std::free(p); }
DMLREF_NOINLINE void operator delete[](void* p) noexcept { std::free(p); }
DMLREF_NOINLINE void operator delete(void* p, std::size_t) noexcept { std::free(p); }
DMLREF_NOINLINE void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
DMLREF_NOINLINE void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
DMLREF_NOINLINE void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace {

using dmlref::TensorView;

/// Allocations made by f() on this thread (nothing else runs during a test).
template <class F>
long allocations_in(F&& f) {
  const long before = g_allocations.load();
  f();
  return g_allocations.load() - before;
}

/// While alive, every nothrow allocation fails (as on a machine out of memory).
struct FailingScratch {
  FailingScratch() { g_fail_nothrow.store(true); }
  ~FailingScratch() { g_fail_nothrow.store(false); }
  FailingScratch(const FailingScratch&) = delete;
  FailingScratch& operator=(const FailingScratch&) = delete;
};

/// run(out, allow_scratch) makes one call into `out` and returns its allocations: scratch is taken
/// when allowed, never otherwise, and neither it nor a failed allocation changes the result.
template <class Run, class T>
void expect_scratch_optional(Run&& run, std::vector<T>& with, std::vector<T>& without) {
  EXPECT_GE(run(with, true), 1);
  EXPECT_EQ(run(without, false), 0);
  EXPECT_EQ(with, without);
  std::vector<T> failed(with.size());
  {
    const FailingScratch failing;
    EXPECT_GE(run(failed, true), 1);  // tried, failed, fell back: still a success
  }
  EXPECT_EQ(failed, without);
}

std::vector<float> iota_floats(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i) * 0.5f;
  return v;
}

// Gather of rows from a transposed input [rows, block] (strides {1, rows}).
TEST(Allocations, TransposedRowGatherTakesScratchOnlyWhenAllowed) {
  const std::int64_t rows = 300, block = 70, picks = 500;
  const std::vector<float> input = iota_floats(static_cast<std::size_t>(rows * block));
  std::vector<std::int64_t> indices(static_cast<std::size_t>(picks));
  for (std::int64_t i = 0; i < picks; ++i) indices[static_cast<std::size_t>(i)] = (i * 7919) % rows - (i % 3 == 0 ? rows : 0);
  std::vector<float> with(static_cast<std::size_t>(picks * block)), without(with.size());
  auto run = [&](std::vector<float>& out, bool scratch) {
    dmlref::Options options;
    options.allow_scratch = scratch;
    return allocations_in([&] {
      const dmlref::Status s = dmlref::try_gather(TensorView<const float>(input.data(), {rows, block}, {1, rows}),
                                                  TensorView<const std::int64_t>(indices.data(), {1, picks}),
                                                  TensorView<float>(out.data(), {picks, block}), {0, 1}, options);
      EXPECT_TRUE(s) << s.message();
    });
  };
  expect_scratch_optional(run, with, without);
  for (std::int64_t i = 0; i < picks; ++i) {
    const std::int64_t r = (indices[static_cast<std::size_t>(i)] + rows) % rows;
    ASSERT_EQ(with[static_cast<std::size_t>(i * block + 5)], input[static_cast<std::size_t>(r + 5 * rows)]);
  }
}

// GatherElements along the lines of a transposed input whose group of 16 lines (a cache line of
// each column) outgrows the 32 KiB stack stage.
TEST(Allocations, TransposedElementGatherTakesScratchOnlyWhenAllowed) {
  const std::int64_t rows = 40, n = 1024, picks = 600;
  const std::vector<float> input = iota_floats(static_cast<std::size_t>(rows * n));
  std::vector<std::int32_t> indices(static_cast<std::size_t>(rows * picks));
  for (std::size_t e = 0; e < indices.size(); ++e) indices[e] = static_cast<std::int32_t>((e * 104729 + 1) % n);
  std::vector<float> with(indices.size()), without(indices.size());
  auto run = [&](std::vector<float>& out, bool scratch) {
    dmlref::Options options;
    options.allow_scratch = scratch;
    return allocations_in([&] {
      const dmlref::Status s = dmlref::try_gather_elements(
          TensorView<const float>(input.data(), {rows, n}, {1, rows}),
          TensorView<const std::int32_t>(indices.data(), {rows, picks}), TensorView<float>(out.data(), {rows, picks}),
          {1}, options);
      EXPECT_TRUE(s) << s.message();
    });
  };
  expect_scratch_optional(run, with, without);
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t a = indices[static_cast<std::size_t>(r * picks + 3)];
    ASSERT_EQ(with[static_cast<std::size_t>(r * picks + 3)], input[static_cast<std::size_t>(r + a * rows)]);
  }
}

// GatherElements of 1-byte elements by 8-byte index values, all or nothing: one pass into a copy of
// OutputTensor, copied out once every value has passed. Large enough for several blocks of index
// values (DMLREF_CACHE_SIZES may shrink them), each checked just before it is copied.
TEST(Allocations, AllOrNothingGatherOfWideIndicesTakesScratchOnlyWhenAllowed) {
  const std::int64_t rows = 256, n = 1000, picks = 700;
  std::vector<std::int8_t> input(static_cast<std::size_t>(rows * n));
  for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<std::int8_t>(i * 37 + i / 1000);
  std::vector<std::int64_t> indices(static_cast<std::size_t>(rows * picks));
  for (std::size_t e = 0; e < indices.size(); ++e) indices[e] = static_cast<std::int64_t>((e * 7919 + 3) % n) - (e % 5 == 0 ? n : 0);
  const auto gather = [&](std::vector<std::int8_t>& out, const dmlref::Options& options) {
    return dmlref::try_gather_elements(TensorView<const std::int8_t>(input.data(), {rows, n}),
                                       TensorView<const std::int64_t>(indices.data(), {rows, picks}),
                                       TensorView<std::int8_t>(out.data(), {rows, picks}), {1}, options);
  };
  auto run = [&](std::vector<std::int8_t>& out, bool scratch) {
    dmlref::Options options;
    options.allow_scratch = scratch;
    return allocations_in([&] {
      const dmlref::Status s = gather(out, options);
      EXPECT_TRUE(s) << s.message();
    });
  };
  std::vector<std::int8_t> with(indices.size()), without(indices.size());
  expect_scratch_optional(run, with, without);
  for (std::size_t e = 0; e < indices.size(); e += 13) {
    const std::int64_t row = static_cast<std::int64_t>(e) / picks, a = (indices[e] + n) % n;
    ASSERT_EQ(with[e], input[static_cast<std::size_t>(row * n + a)]) << "element " << e;
  }
  dmlref::Options one_pass;
  one_pass.all_or_nothing = false;
  std::vector<std::int8_t> direct(indices.size());
  EXPECT_EQ(allocations_in([&] { EXPECT_TRUE(gather(direct, one_pass)); }), 0);  // writes OutputTensor itself
  EXPECT_EQ(direct, with);

  // A value out of range in the last rows: the error names it, and OutputTensor is untouched,
  // with the scratch, without it, and when its allocation fails.
  const std::size_t bad = indices.size() - 5;
  indices[bad] = n;
  for (const bool scratch : {true, false}) {
    for (const bool failing : {false, true}) {
      std::vector<std::int8_t> out(indices.size(), std::int8_t{-7});
      dmlref::Options options;
      options.allow_scratch = scratch;
      std::optional<FailingScratch> failing_scratch;
      if (failing) failing_scratch.emplace();
      const dmlref::Status s = gather(out, options);
      failing_scratch.reset();
      ASSERT_EQ(s.code(), dmlref::ErrorCode::index_out_of_range) << s.message();
      if (!failing) {  // (with every allocation failing, the Error record is not had either)
        EXPECT_EQ(s.error().position, dmlref::Shape({rows - 1, picks - 5})) << s.message();
        EXPECT_FALSE(s.error().output_partly_written);
      }
      EXPECT_EQ(out, std::vector<std::int8_t>(indices.size(), std::int8_t{-7})) << "scratch " << scratch << ", failing " << failing;
    }
  }
}

// Which all-or-nothing gathers take the scratch: those whose index values' bytes are at least 4
// times the bytes OutputTensor spans, at that boundary and just below it, for every index type and
// every gather operator (a tuple of K values per output element counts K times). Each call equals
// the oracle (padding of a strided output included); a bad last value writes nothing.
TEST(Allocations, GathersTakeScratchExactlyWhenIndexBytesOutweighOutputFourTimes) {
  using rules::Op;
  using dmlref::DataType;
  struct Case {
    Op op;
    std::uint32_t attr[3];
    DataType data, index;
    rules::Sizes input, indices, output;
    std::vector<std::int64_t> bounds;  // the ranges a tuple's values cycle through (signed: some negative)
    bool through_scratch;
    std::optional<rules::Sizes> output_strides = std::nullopt;
  };
  const std::vector<Case> cases = {
      // GatherElements: 1 value per element.
      {Op::gather_elements, {1}, DataType::UINT8, DataType::INT32, {64, 300}, {64, 400}, {64, 400}, {300}, true},
      {Op::gather_elements, {1}, DataType::INT8, DataType::UINT32, {64, 300}, {64, 400}, {64, 400}, {300}, true},
      {Op::gather_elements, {1}, DataType::INT8, DataType::UINT64, {64, 300}, {64, 400}, {64, 400}, {300}, true},
      {Op::gather_elements, {1}, DataType::UINT16, DataType::INT32, {64, 300}, {64, 400}, {64, 400}, {300}, false},
      {Op::gather_elements, {1}, DataType::FLOAT16, DataType::INT64, {64, 300}, {64, 400}, {64, 400}, {300}, true},
      {Op::gather_elements, {1}, DataType::UINT16, DataType::UINT64, {64, 300}, {64, 400}, {64, 400}, {300}, true},
      {Op::gather_elements, {1}, DataType::FLOAT32, DataType::INT64, {64, 300}, {64, 400}, {64, 400}, {300}, false},
      // A padded output spans more bytes than its elements: 400 int32 values per 404 bytes of row.
      {Op::gather_elements, {1}, DataType::UINT8, DataType::INT32, {64, 300}, {64, 400}, {64, 400}, {300}, false,
       rules::Sizes{404, 1}},
      {Op::gather_elements, {1}, DataType::UINT8, DataType::INT64, {64, 300}, {64, 400}, {64, 400}, {300}, true,
       rules::Sizes{404, 1}},
      // Gather along the last axis: its index values are read once only without outer rows.
      {Op::gather, {1, 1}, DataType::UINT8, DataType::UINT32, {1, 300}, {1, 20000}, {1, 20000}, {300}, true},
      {Op::gather, {1, 1}, DataType::UINT8, DataType::INT64, {8, 300}, {1, 20000}, {8, 20000}, {300}, false},
      // GatherND: a tuple of 2 INT32 values per 2-byte element (4x), or per row of 200 elements.
      {Op::gather_nd, {2, 2}, DataType::FLOAT16, DataType::INT32, {300, 200}, {20000, 2}, {1, 20000}, {300, 200},
       true},
      {Op::gather_nd, {2, 2}, DataType::FLOAT16, DataType::INT32, {300, 200}, {2000, 1}, {2000, 200}, {300}, false},
      // GatherND1, one batch dimension: tuples of 2 UINT32 values per 2-byte (4x) or 4-byte element.
      {Op::gather_nd1, {3, 3, 1}, DataType::UINT16, DataType::UINT32, {8, 30, 20}, {8, 2000, 2}, {1, 8, 2000},
       {30, 20}, true},
      {Op::gather_nd1, {3, 3, 1}, DataType::FLOAT32, DataType::UINT32, {8, 30, 20}, {8, 2000, 2}, {1, 8, 2000},
       {30, 20}, false},
  };
  for (const Case& k : cases) {
    rules::Call c;
    c.op = k.op;
    for (int a = 0; a < 3; ++a) c.attr[a] = k.attr[a];
    c.input().type = c.output().type = k.data;
    c.indices().type = k.index;
    c.input().sizes = k.input;
    c.indices().sizes = k.indices;
    c.output().sizes = k.output;
    c.output().strides = k.output_strides;
    const bool is_signed = dmlref::is_signed_integer(k.index);
    std::size_t values = 1;
    for (const std::int64_t s : k.indices) values *= static_cast<std::size_t>(s);
    for (std::size_t e = 0; e < values; ++e) {
      const std::int64_t n = k.bounds[e % k.bounds.size()];
      const auto v = static_cast<std::int64_t>((e * 7919 + 3) % static_cast<std::size_t>(n));
      c.indices().values.push_back(static_cast<std::uint64_t>(is_signed && e % 5 == 0 ? v - n : v));
    }
    SCOPED_TRACE(rules::trace(k.op) + " " + dmlref::name(k.data) + " by " + dmlref::name(k.index) +
                 (k.output_strides ? " into a padded output" : ""));
    auto allocations_of = [&](bool allow_scratch) {
      rules::Call run = c;
      run.options.allow_scratch = allow_scratch;
      rules::Bound b = rules::bind(run);
      return allocations_in([&] { EXPECT_TRUE(rules::run_dispatch(run, b)); });
    };
    const long with = allocations_of(true), without = allocations_of(false);
    EXPECT_EQ(with > without, k.through_scratch) << with << " allocations with scratch, " << without << " without";
    rules::expect_ok(c);
    c.indices().values.back() = static_cast<std::uint64_t>(k.bounds[(values - 1) % k.bounds.size()]);
    rules::expect_error(c, {dmlref::ErrorCode::index_out_of_range, "IndicesTensor", "value"});
  }
}

// Every other path allocates nothing with the default Options: packed rows, staged lines, ND
// blocks, a scatter's copy and its rows (also large enough to stream).
TEST(Allocations, OtherPathsNeverAllocate) {
  const std::int64_t rows = 4096, cols = 300;
  const std::vector<float> input = iota_floats(static_cast<std::size_t>(rows * cols));
  std::vector<std::int64_t> picks(2048);
  for (std::size_t i = 0; i < picks.size(); ++i) picks[i] = static_cast<std::int64_t>((i * 31) % rows);
  std::vector<float> out(static_cast<std::size_t>(rows * cols));
  const auto n = static_cast<std::int64_t>(picks.size());
  EXPECT_EQ(allocations_in([&] {
              EXPECT_TRUE(dmlref::try_gather(TensorView<const float>(input.data(), {rows, cols}),
                                             TensorView<const std::int64_t>(picks.data(), {1, n}),
                                             TensorView<float>(out.data(), {n, cols}), {0, 1}));
            }),
            0);
  std::vector<std::int64_t> columns(static_cast<std::size_t>(rows * 100));
  for (std::size_t e = 0; e < columns.size(); ++e) columns[e] = static_cast<std::int64_t>((e * 7) % cols);
  EXPECT_EQ(allocations_in([&] {
              EXPECT_TRUE(dmlref::try_gather_elements(TensorView<const float>(input.data(), {rows, cols}),
                                                      TensorView<const std::int64_t>(columns.data(), {rows, 100}),
                                                      TensorView<float>(out.data(), {rows, 100}), {1}));
            }),
            0);
  std::vector<std::int64_t> tuples(picks.begin(), picks.end());
  EXPECT_EQ(allocations_in([&] {
              EXPECT_TRUE(dmlref::try_gather_nd(TensorView<const float>(input.data(), {rows, cols}),
                                                TensorView<const std::int64_t>(tuples.data(), {n, 1}),
                                                TensorView<float>(out.data(), {n, cols}), {2, 2}));
            }),
            0);
  // ScatterND of distinct rows: 4096 rows of 1200 bytes (over 4 MiB, so streamed).
  std::vector<std::int64_t> targets(static_cast<std::size_t>(rows));
  for (std::size_t i = 0; i < targets.size(); ++i) targets[i] = static_cast<std::int64_t>((i * 1031) % rows);
  const std::vector<float> updates = iota_floats(static_cast<std::size_t>(rows * cols));
  EXPECT_EQ(allocations_in([&] {
              EXPECT_TRUE(dmlref::try_scatter_nd(TensorView<const float>(input.data(), {rows, cols}),
                                                 TensorView<const std::int64_t>(targets.data(), {rows, 1}),
                                                 TensorView<const float>(updates.data(), {rows, cols}),
                                                 TensorView<float>(out.data(), {rows, cols}), {2, 2}));
            }),
            0);
  for (std::size_t i = 0; i < targets.size(); i += 97)
    ASSERT_EQ(out[static_cast<std::size_t>(targets[i] * cols + 7)], updates[i * static_cast<std::size_t>(cols) + 7]);
}

}  // namespace
