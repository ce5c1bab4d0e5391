// A scatter's contiguous rows, when long and many and aimed at a large output, are written with
// streaming stores: whole cache lines bypass the caches, the partial lines at either end of a row
// are copied plainly, prefetched a few rows ahead (detail/execute.hpp: streams_rows; detail/copy.hpp:
// stream_run, prefetch_partial_lines). These cases pin what that must keep:
// the last of many duplicate updates wins, every output start offset an element allows, row
// lengths that are not whole cache lines, padding between rows and the bytes around the output
// untouched, in place and not, and shares on 2 and 3 threads. Each case states whether it should
// stream, checks that the plan agrees, and compares the whole buffer with a direct computation.
// Out of place, the copy of InputTensor has just written the output: where the last-level cache
// holds it (here, unless under the small_caches entry), it is not streamed either.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "dmlref/dmlref.hpp"
#include "support/guarded.hpp"
#include "support/type_names.hpp"
#include "support/values.hpp"

namespace {

using dmlref::Shape;
using dmlref::TensorView;

struct RowsCase {
  std::int64_t targets;      // output rows
  std::int64_t block;        // elements per row
  std::int64_t rows;         // update rows (more than targets: duplicates)
  bool streamed;             // which path the plan should take
  std::int64_t pitch_extra = 0;
  std::int64_t start_bytes = 0;  // the output's first element this many bytes past a cache line
  bool in_place = false;
  int threads = 1;
};

template <class T>
void check_rows(const RowsCase& rc) {
  constexpr std::int64_t w = sizeof(T);
  SCOPED_TRACE("targets " + std::to_string(rc.targets) + ", block " + std::to_string(rc.block) + ", rows " +
               std::to_string(rc.rows) + ", pitch +" + std::to_string(rc.pitch_extra) + ", start +" +
               std::to_string(rc.start_bytes) + (rc.in_place ? ", in place" : "") + ", threads " +
               std::to_string(rc.threads));
  const std::int64_t pitch = rc.block + rc.pitch_extra;
  // The output between guard bytes, starting start_bytes past a cache line; the padding between
  // rows holds distinct bytes, which must survive.
  guarded::Buffer buffer = guarded::rows<T>(rc.targets, rc.block, pitch, rc.start_bytes);
  for (std::size_t b = 0; b < buffer.size(); ++b) buffer[b] = static_cast<unsigned char>(b * 7 + 1);
  T* const out = reinterpret_cast<T*>(buffer.bytes());

  std::vector<T> input(static_cast<std::size_t>(rc.targets * pitch));
  for (std::size_t e = 0; e < input.size(); ++e) input[e] = test_values::pattern<T>(static_cast<std::int64_t>(e), 1);
  if (rc.in_place) std::memcpy(out, input.data(), buffer.size());
  std::vector<T> updates(static_cast<std::size_t>(rc.rows * rc.block));
  for (std::size_t e = 0; e < updates.size(); ++e) updates[e] = test_values::pattern<T>(static_cast<std::int64_t>(e), 2);
  std::mt19937_64 rng(static_cast<std::uint64_t>(rc.targets * 131 + rc.rows));
  std::vector<std::int64_t> indices(static_cast<std::size_t>(rc.rows));
  for (auto& v : indices) {
    v = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(rc.targets));
    if (rng() % 3 == 0) v -= rc.targets;
  }

  std::vector<unsigned char> expected(buffer.bytes(), buffer.bytes() + buffer.size());
  for (std::int64_t t = 0; t < rc.targets; ++t)  // the input's rows, padding untouched
    std::memcpy(expected.data() + t * pitch * w, &input[static_cast<std::size_t>(t * pitch)],
                static_cast<std::size_t>(rc.block * w));
  for (std::int64_t g = 0; g < rc.rows; ++g) {  // then every update row in order: the last wins
    const std::int64_t v = indices[static_cast<std::size_t>(g)];
    const std::int64_t t = v < 0 ? v + rc.targets : v;
    std::memcpy(expected.data() + t * pitch * w, &updates[static_cast<std::size_t>(g * rc.block)],
                static_cast<std::size_t>(rc.block * w));
  }

  const TensorView<T> out_view(out, {rc.targets, rc.block}, {pitch, 1});
  const TensorView<const T> in_view = rc.in_place ? TensorView<const T>(out, {rc.targets, rc.block}, {pitch, 1})
                                                  : TensorView<const T>(input.data(), {rc.targets, rc.block}, {pitch, 1});
  const TensorView<const std::int64_t> idx_view(indices.data(), {rc.rows, 1});
  const TensorView<const T> upd_view(updates.data(), {rc.rows, rc.block});

  namespace detail = dmlref::detail;
  const detail::RawTensor tensors[] = {detail::raw("InputTensor", in_view), detail::raw("IndicesTensor", idx_view),
                                       detail::raw("UpdatesTensor", upd_view), detail::raw("OutputTensor", out_view)};
  detail::Operands operands = detail::operands_of(tensors);
  ASSERT_TRUE(detail::check_shapes<detail::ScatterNDOperator>(operands, {2, 2}));
  detail::Plan plan = detail::ScatterNDOperator::plan(operands, {2, 2});
  // As run_operator completes the plan: an output that the copy of InputTensor has just written,
  // and that the last-level cache holds, is not streamed.
  plan.output_cached = !rc.in_place && detail::copied_output_stays_cached(operands.layout[3].extent);
  ASSERT_EQ(detail::streams_rows(plan, detail::Share{&plan, 0, rc.rows, {}}), rc.streamed && !plan.output_cached);

  dmlref::Options options;
  options.threads = rc.threads;
  const dmlref::Status s = dmlref::try_scatter_nd(in_view, idx_view, upd_view, out_view, {2, 2}, options);
  ASSERT_TRUE(s) << s.message();
  ASSERT_TRUE(buffer.guards_intact());
  for (std::size_t b = 0; b < buffer.size(); ++b) ASSERT_EQ(buffer[b], expected[b]) << "byte " << b << " of the output";
}

template <class T>
class StreamedScatter : public ::testing::Test {};
TYPED_TEST_SUITE(StreamedScatter, ElementWidths, DataTypeNames);

constexpr std::int64_t kMiB = 1024 * 1024;

// Rows of 1 KiB + one element into more than 4 MiB, many duplicates, at every start offset.
TYPED_TEST(StreamedScatter, LastUpdateWinsAtEveryAlignment) {
  using T = TypeParam;
  constexpr std::int64_t w = sizeof(T);
  const std::int64_t block = 1024 / w + 1, targets = 4 * kMiB / (block * w) + 9;
  for (const std::int64_t start : {std::int64_t{0}, w, 64 - w, 40 / w * w})
    check_rows<T>({targets, block, targets + targets / 3, true, 0, start});
  check_rows<T>({targets, block, targets + 77, true, 3, w});  // padded rows
  RowsCase in_place{targets, block, targets / 2 * 3, true, 0, 16};
  in_place.in_place = true;
  check_rows<T>(in_place);
}

// Below each threshold: rows under 256 bytes, fewer than stream_bytes() of rows, an output under
// it. The threshold follows the caches (DMLREF_CACHE_SIZES): 4 MiB on most hosts.
TYPED_TEST(StreamedScatter, Thresholds) {
  using T = TypeParam;
  constexpr std::int64_t w = sizeof(T);
  const std::int64_t row = 256 / w, rows = dmlref::detail::stream_bytes() / 256;
  check_rows<T>({rows, row, rows, true});
  check_rows<T>({rows + 5, row - 1, rows + 5, false});
  check_rows<T>({rows + 5, row, rows - 1, false});
  check_rows<T>({rows - 1, row, rows + 500, false});
}

// Shares of a split by target (every share walks every row and writes its own targets).
TYPED_TEST(StreamedScatter, Shares) {
  using T = TypeParam;
  constexpr std::int64_t w = sizeof(T);
  const std::int64_t block = 512 / w + 3, targets = 5 * kMiB / (block * w);
  for (const int threads : {2, 3}) {
    RowsCase rc{targets, block, targets * 2, true, 0, 2 * w};
    rc.threads = threads;
    check_rows<T>(rc);
  }
}

}  // namespace
