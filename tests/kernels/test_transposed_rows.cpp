// Gather of rows whose block is far-strided in the input (a transposed input): detail/tiled.hpp's
// gather_tiles_in_input_order. It sorts the rows by input offset, moves the block a tile of 256
// bytes at a time, all tiles of a group of rows before the next group (a quarter of the level-2
// cache's worth of tiles, 8 input lines at a time, 8 bytes to a store), cuts the first tile short
// to align the others when it streams, and streams (non-temporal stores) only outputs of 4 MiB and
// more whose rows share one alignment. These cases pin each of those: blocks shorter than, equal
// to and not a multiple of a tile, outputs below and above the streaming size, output starts at
// every alignment an element allows, row pitches that break the common alignment, duplicate and
// negative indices, every index type, and shares on 2 and 3 threads. The shares and the 3-element blocks span
// several groups (the last one partial) wherever the level-2 cache is at most 8 MiB, the other
// large outputs where it is at most 2 MiB, as in the `small_caches` test entry. Each is compared with a direct computation, and the bytes around the
// output must stay untouched.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "dmlref/dmlref.hpp"
#include "support/guarded.hpp"
#include "support/type_names.hpp"
#include "support/values.hpp"

namespace {

using dmlref::TensorView;

struct TransposedCase {
  std::int64_t input_rows;   // the gathered dimension (stride 1 in memory)
  std::int64_t block;        // elements per row (stride input_rows in memory)
  std::int64_t picks;        // output rows
  std::int64_t pitch_extra;  // output row pitch = block + pitch_extra
  std::int64_t start_bytes;  // the output's first element this many bytes past a 64-byte boundary
  int threads = 1;
};

template <class T, class I = std::int64_t>
void check_transposed(const TransposedCase& tc) {
  constexpr std::int64_t w = sizeof(T);
  SCOPED_TRACE("rows " + std::to_string(tc.input_rows) + ", block " + std::to_string(tc.block) + ", picks " +
               std::to_string(tc.picks) + ", pitch +" + std::to_string(tc.pitch_extra) + ", start +" +
               std::to_string(tc.start_bytes) + " bytes, threads " + std::to_string(tc.threads));
  std::vector<T> storage(static_cast<std::size_t>(tc.input_rows * tc.block));
  for (std::size_t e = 0; e < storage.size(); ++e) storage[e] = test_values::pattern<T>(static_cast<std::int64_t>(e));
  std::mt19937_64 rng(static_cast<std::uint64_t>(tc.input_rows * 31 + tc.block));
  std::vector<I> indices(static_cast<std::size_t>(tc.picks));
  for (auto& v : indices) {
    auto value = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(tc.input_rows));
    if (std::is_signed_v<I> && rng() % 4 == 0) value -= tc.input_rows;  // negative: counts from the end
    v = static_cast<I>(value);
  }
  // The output between guard bytes, starting start_bytes past a cache line.
  const std::int64_t pitch = tc.block + tc.pitch_extra;
  guarded::Buffer buffer = guarded::rows<T>(tc.picks, tc.block, pitch, tc.start_bytes);
  T* const out = reinterpret_cast<T*>(buffer.bytes());

  dmlref::Options options;
  options.threads = tc.threads;
  const dmlref::Status s = dmlref::try_gather(
      TensorView<const T>(storage.data(), {tc.input_rows, tc.block}, {1, tc.input_rows}),
      TensorView<const I>(indices.data(), {1, tc.picks}),
      TensorView<T>(out, {tc.picks, tc.block}, {pitch, 1}), dmlref::GatherParams{0, 1}, options);
  ASSERT_TRUE(s) << s.message();

  std::vector<unsigned char> expected(buffer.bytes(), buffer.bytes() + buffer.size());
  for (std::int64_t i = 0; i < tc.picks; ++i) {
    const auto value = static_cast<std::int64_t>(indices[static_cast<std::size_t>(i)]);
    const std::int64_t row = value < 0 ? value + tc.input_rows : value;
    for (std::int64_t j = 0; j < tc.block; ++j)
      std::memcpy(expected.data() + (i * pitch + j) * w, &storage[static_cast<std::size_t>(row + j * tc.input_rows)], w);
  }
  ASSERT_TRUE(buffer.guards_intact());
  for (std::size_t b = 0; b < buffer.size(); ++b) ASSERT_EQ(buffer[b], expected[b]) << "byte " << b << " of the output";
}

template <class T>
class TransposedRows : public ::testing::Test {};
TYPED_TEST_SUITE(TransposedRows, ElementWidths, DataTypeNames);

// Small outputs (never streamed): blocks of 2 elements to a few tiles, tile multiples and not.
TYPED_TEST(TransposedRows, SmallOutputs) {
  using T = TypeParam;
  const std::int64_t tile = 256 / static_cast<std::int64_t>(sizeof(T));
  for (const std::int64_t block : {std::int64_t{2}, tile - 1, tile, 2 * tile + 5})
    for (const std::int64_t picks : {1, 2, 37}) check_transposed<T>({97, block, picks, 0, 0});
  check_transposed<T>({200, tile + 3, 50, 3, 8});  // padded, unaligned output rows
}

// Outputs of 4 MiB and more, streamed when every row starts at the same place in a cache line:
// the output's start at each element offset in a cache line (the first tile is cut short to
// reach a line boundary), and a row pitch that breaks the common alignment (not streamed).
TYPED_TEST(TransposedRows, LargeOutputs) {
  using T = TypeParam;
  constexpr std::int64_t w = sizeof(T);
  const std::int64_t block = 1000 / w * 2 + 1;  // tiles of 256 bytes plus a short last one
  const std::int64_t picks = (4 * 1024 * 1024 + 4096) / (block * w) + 1;
  for (const std::int64_t start : {std::int64_t{0}, w, 64 - w, 24 / w * w})
    check_transposed<T>({300, block, picks, 0, start});
  check_transposed<T>({300, block, picks, 1, 0});
  // A block shorter than the part of a line before the first boundary.
  const std::int64_t tiny = 3;
  check_transposed<T>({90, tiny, (4 * 1024 * 1024) / (tiny * w) + 7, 0, 2 * w});
}

// Shares on 2 and 3 threads: each sorts and streams its own rows.
TYPED_TEST(TransposedRows, Shares) {
  using T = TypeParam;
  constexpr std::int64_t w = sizeof(T);
  const std::int64_t block = 512 / w + 7;
  const std::int64_t picks = (13 * 1024 * 1024) / (block * w) + 3;  // over 4 MiB per share
  for (const int threads : {2, 3}) {
    TransposedCase tc{257, block, picks, 0, w, threads};
    check_transposed<T>(tc);
  }
}

// Every index type, over several groups of rows (on this host's L2 and smaller) with several
// tiles each, unsigned values non-negative: the rows are walked and sorted by each type's values.
template <class I>
class TransposedRowsIndexTypes : public ::testing::Test {};
TYPED_TEST_SUITE(TransposedRowsIndexTypes, IndexTypes, DataTypeNames);

TYPED_TEST(TransposedRowsIndexTypes, SeveralGroupsOfRows) {
  check_transposed<float, TypeParam>({301, 64 * 2 + 5, 9000, 0, 0});
  check_transposed<dmlref::float16, TypeParam>({301, 128 + 3, 9000, 2, 6});
}

}  // namespace
