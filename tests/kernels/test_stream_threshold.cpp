// Outputs on either side of detail::stream_bytes(), where the kernels switch to streaming
// (non-temporal) stores, for 1-, 2-, 4- and 8-byte elements, each output starting off a 16-byte
// boundary, compared with the oracle (whole buffers, guards included) on both layers:
//   - Gather of rows from a transposed input (tiled.hpp, gather_tiles_in_input_order): streams a
//     packed output of stream_bytes() or more whose rows share one alignment (rows of 576 bytes);
//   - ScatterND of long rows (execute.hpp, streams_rows): streams rows of 256 bytes or more when
//     there are stream_bytes() / row bytes of them, and as many rows in the output;
//   - staged element gathers (staged.hpp, streams_elements): stream 4- and 8-byte elements into an
//     output of stream_bytes() or more, from staged lines (GatherElements, both modes, lines alone
//     and in groups) and from lines read in place (Gather on the last axis);
//   - staged element scatters that fuse the copy of InputTensor (staged.hpp, streams_lines_back):
//     stream each staged line back whole into an output of stream_bytes() or more;
//   - all-or-nothing gathers through scratch (execute.hpp, copy_from_scratch): 1- and 2-byte
//     elements by int64 indices, whose scratch is streamed to a packed output of stream_bytes() or
//     more.
// The threshold follows the caches (DMLREF_CACHE_SIZES): the ctest entry dmlref_tests.small_caches
// runs these with a threshold of 1 MiB (the only run of the narrow elements on most hosts). test_transposed_rows.cpp and test_streamed_scatter.cpp
// pin the other conditions of each path.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "support/random_checks.hpp"
#include "support/type_names.hpp"

namespace {

namespace rc = random_cases;
namespace detail = dmlref::detail;
using rc::Sizes;

/// The case's index values and every buffer, from `seed`, as the generator fills them.
void fill_buffers(rc::Case& c) {
  rc::Rng rng(c.seed);
  c.input_buf = rc::data_buffer(rng, c.input, c.dtype);
  if (rc::is_scatter(c.op)) c.updates_buf = rc::data_buffer(rng, c.updates, c.dtype);
  c.output_buf = rc::random_bytes(rng, rc::buffer_bytes(c.output, c.esize()));
  rc::fill_indices(rng, c);
  c.inputs_hash = c.hash_inputs();
}

/// A packed layout whose first element lies `offset` elements into its buffer.
rc::Layout packed_at(const Sizes& sizes, std::int64_t offset) {
  rc::Layout l = rc::strided_layout(sizes, {}, 1, 0, offset);
  l.style = "packed+offset " + std::to_string(offset);
  return l;
}

/// Runs the case on both layers against the oracle, with `options`.
void expect_matches_oracle(const rc::Case& c, const dmlref::Options& options = {}) {
  SCOPED_TRACE(c.describe());
  const rc::Run expected = rc::run_oracle(c, oracle::Policy::error, false);
  ASSERT_TRUE(expected.ok) << expected.error;
  for (const rc::Layer layer : {rc::Layer::dispatch, rc::Layer::typed_storage})
    EXPECT_EQ(random_checks::mismatch(c, expected, layer, options), "");
}

template <class T>
constexpr rc::DType dtype_of() {
  return static_cast<rc::DType>(dmlref::data_type_v<T>);
}

/// Gather (Axis 0) of `picks` rows of `block` elements from an input whose rows are far-strided
/// (stride 97), into a packed output `offset` elements into its buffer.
template <class T>
rc::Case transposed_gather(std::int64_t block, std::int64_t picks, std::int64_t offset) {
  rc::Case c;
  c.op = rc::Op::gather;
  c.dtype = dtype_of<T>();
  c.itype = picks % 2 ? rc::IType::INT32 : rc::IType::UINT64;
  c.axis = 0;
  c.index_dimensions = 1;
  c.input = rc::strided_layout({97, block}, {1, 0}, 1, 0, 0);
  c.indices = rc::packed_layout({1, picks});
  c.output = packed_at({picks, block}, offset);
  c.seed = static_cast<std::uint64_t>(picks * 1000 + offset);
  fill_buffers(c);
  return c;
}

/// Calls fn(plan) with the plan the typed layer makes of the case (its tensors as laid out in
/// its buffers), when its shapes check.
template <class Operator, class T, class I, class Fn>
void with_plan(const rc::Case& c, const typename Operator::Params& params, const Fn& fn) {
  using dmlref::TensorView;
  auto at = [](const std::vector<unsigned char>& buffer, const rc::Layout& l, std::size_t size) {
    return const_cast<unsigned char*>(buffer.data() + rc::first_byte(l, size));
  };
  auto shape = [](const Sizes& v) { return dmlref::Shape::from(v.data(), v.size()); };
  auto data = [&](const std::vector<unsigned char>& buffer, const rc::Layout& l) {
    return TensorView<T>(reinterpret_cast<T*>(at(buffer, l, sizeof(T))), shape(l.sizes), shape(l.strides));
  };
  const TensorView<const I> idx(reinterpret_cast<const I*>(at(c.indices_buf, c.indices, sizeof(I))),
                                shape(c.indices.sizes), shape(c.indices.strides));
  const TensorView<const T> in = data(c.input_buf, c.input);
  const TensorView<T> out = data(c.output_buf, c.output);
  auto plan = [&](const auto& tensors) {  // (Operands point into `tensors`)
    detail::Operands operands = detail::operands_of(tensors);
    if (detail::check_shapes<Operator>(operands, params)) fn(Operator::plan(operands, params));
  };
  if (rc::is_scatter(c.op)) {
    const TensorView<const T> upd = data(c.updates_buf, c.updates);
    const detail::RawTensor tensors[] = {detail::raw("InputTensor", in), detail::raw("IndicesTensor", idx),
                                         detail::raw("UpdatesTensor", upd), detail::raw("OutputTensor", out)};
    plan(tensors);
  } else {
    const detail::RawTensor tensors[] = {detail::raw("InputTensor", in), detail::raw("IndicesTensor", idx),
                                         detail::raw("OutputTensor", out)};
    plan(tensors);
  }
}

/// ScatterND (r 2, q 2) of `rows` rows of `block` elements into `targets` rows, the output packed
/// `offset` elements into its buffer; whether the plan streams them.
template <class T>
rc::Case long_rows_scatter(std::int64_t targets, std::int64_t block, std::int64_t rows, std::int64_t offset,
                           bool& streams) {
  rc::Case c;
  c.op = rc::Op::scatter_nd;
  c.dtype = dtype_of<T>();
  c.itype = rc::IType::INT64;
  c.r = 2;
  c.q = 2;
  c.input = rc::packed_layout({targets, block});
  c.indices = rc::packed_layout({rows, 1});
  c.updates = rc::packed_layout({rows, block});
  c.output = packed_at({targets, block}, offset);
  c.seed = static_cast<std::uint64_t>(targets * 1000 + offset);
  fill_buffers(c);

  streams = false;
  with_plan<detail::ScatterNDOperator, T, std::int64_t>(c, {2, 2}, [&](const detail::Plan& plan) {
    streams = detail::streams_rows(plan, detail::Share{&plan, 0, rows, {}});
  });
  return c;
}

/// Whether a gather case's plan is staged, and whether it streams its elements.
template <class Operator, class T, class I>
void staged_streams(const rc::Case& c, const typename Operator::Params& params, bool& staged, bool& streams) {
  staged = streams = false;
  with_plan<Operator, T, I>(c, params, [&](const detail::Plan& plan) {
    staged = detail::stageable(plan);
    streams = detail::streams_elements(plan);
  });
}

/// GatherElements or Scatter (Axis 1) of [rows, 61] elements, the output packed `offset` elements
/// into its buffer: lines of 61 elements, staged, each with 61 rows; with a `transposed` input
/// (stored [61, rows]) a gather's far-strided lines are staged in groups.
template <class T>
rc::Case rows_of_61(rc::Op op, rc::IType itype, std::int64_t rows, std::int64_t offset, bool transposed) {
  rc::Case c;
  c.op = op;
  c.dtype = dtype_of<T>();
  c.itype = itype;
  c.axis = 1;
  c.input = transposed ? rc::strided_layout({rows, 61}, {1, 0}, 1, 0, 0) : rc::packed_layout({rows, 61});
  c.indices = rc::packed_layout({rows, 61});
  if (rc::is_scatter(op)) c.updates = rc::packed_layout({rows, 61});
  c.output = packed_at({rows, 61}, offset);
  c.seed = static_cast<std::uint64_t>(rows * 1000 + offset + (transposed ? 7 : 0));
  fill_buffers(c);
  return c;
}

/// GatherElements of rows_of_61, int64 indices; whether its plan is staged and streams.
template <class T>
rc::Case element_gather(std::int64_t rows, std::int64_t offset, bool transposed, bool& staged, bool& streams) {
  const rc::Case c = rows_of_61<T>(rc::Op::gather_elements, rc::IType::INT64, rows, offset, transposed);
  staged_streams<detail::GatherElementsOperator, T, std::int64_t>(c, {1}, staged, streams);
  return c;
}

/// Scatter of rows_of_61 updates into an output of the same shape, int32 indices; whether its plan
/// fuses the copy of InputTensor into the staged lines and streams them back.
template <class T>
rc::Case element_scatter(std::int64_t rows, std::int64_t offset, bool& fused, bool& streams) {
  const rc::Case c = rows_of_61<T>(rc::Op::scatter, rc::IType::INT32, rows, offset, false);
  fused = streams = false;
  with_plan<detail::ScatterOperator, T, std::int32_t>(c, {1}, [&](const detail::Plan& plan) {
    fused = detail::fuses_input_copy(plan);
    streams = detail::streams_lines_back(plan);
  });
  return c;
}

/// Gather (Axis 1) of 200 of each line's 1024 elements (fewer rows than elements, and at least
/// 1 KiB: read in place), int32 indices, from `lines` lines, the output packed `offset` elements
/// into its buffer.
template <class T>
rc::Case last_axis_gather(std::int64_t lines, std::int64_t offset, bool& staged, bool& streams) {
  rc::Case c;
  c.op = rc::Op::gather;
  c.dtype = dtype_of<T>();
  c.itype = rc::IType::INT32;
  c.axis = 1;
  c.index_dimensions = 1;
  c.input = rc::packed_layout({lines, 1024});
  c.indices = rc::packed_layout({1, 200});
  c.output = packed_at({lines, 200}, offset);
  c.seed = static_cast<std::uint64_t>(lines * 1000 + offset);
  fill_buffers(c);
  staged_streams<detail::GatherOperator, T, std::int32_t>(c, {1, 1}, staged, streams);
  return c;
}

/// The oracle takes about a second per million elements in an optimised build: a threshold that
/// asks for more than this many output elements (1- and 2-byte elements at 4 MiB) is left to
/// dmlref_tests.small_caches, whose threshold is 1 MiB. DMLREF_TEST_SCALE lowers it with the
/// number of random cases (the sanitizer runs).
std::int64_t oracle_elements() {
  return static_cast<std::int64_t>(static_cast<double>(std::int64_t{1} << 20) * std::min(1.0, rc::scale()));
}

template <class T>
class StreamThreshold : public ::testing::Test {
 protected:
  void SetUp() override {
    if (detail::stream_bytes() / static_cast<std::int64_t>(sizeof(T)) > oracle_elements())
      GTEST_SKIP() << "a threshold of " << detail::stream_bytes() << " bytes is too many " << sizeof(T)
                   << "-byte elements for the oracle; dmlref_tests.small_caches runs this with 1 MiB";
  }
};
TYPED_TEST_SUITE(StreamThreshold, ElementWidths, DataTypeNames);

// Rows of 576 bytes (whole cache lines, so every row starts at the same place in a line): the
// largest output below stream_bytes() and the smallest at or above it.
TYPED_TEST(StreamThreshold, GatherOfTransposedRows) {
  using T = TypeParam;
  constexpr std::int64_t w = sizeof(T);
  const std::int64_t block = 576 / w, row = block * w, threshold = detail::stream_bytes();
  const std::int64_t below = (threshold - 1) / row, above = (threshold + row - 1) / row;
  ASSERT_LT(below * row, threshold);
  ASSERT_GE(above * row, threshold);
  expect_matches_oracle(transposed_gather<T>(block, below, 1));
  expect_matches_oracle(transposed_gather<T>(block, above, 3));
}

// Rows of 1088 bytes (17 lines, so a row's streamed lines start and end mid-row off a line
// boundary): one row fewer than the threshold asks for, and one more.
TYPED_TEST(StreamThreshold, ScatterOfLongRows) {
  using T = TypeParam;
  constexpr std::int64_t w = sizeof(T);
  const std::int64_t block = 1088 / w, needed = detail::stream_bytes() / (block * w);
  bool streams = true;
  const rc::Case below = long_rows_scatter<T>(needed - 1, block, needed - 1, 1, streams);
  EXPECT_FALSE(streams) << "one row short of the threshold";
  expect_matches_oracle(below);
  const rc::Case above = long_rows_scatter<T>(needed + 1, block, needed + 1, 3, streams);
  EXPECT_TRUE(streams) << "one row over the threshold";
  expect_matches_oracle(above);
}

// GatherElements with the output one element short of the threshold and one line over it, in
// both modes (one pass checks and copies a block of rows at a time, each block streamed; by
// default, 1- and 2-byte elements go through scratch, whose copy to the output is streamed).
TYPED_TEST(StreamThreshold, GatherOfElements) {
  using T = TypeParam;
  constexpr std::int64_t w = sizeof(T);
  const std::int64_t threshold = detail::stream_bytes() / w;  // in elements
  const bool streamable = DMLREF_HAS_STREAMING_STORES && (w == 4 || w == 8);
  bool staged = false, streams = true;
  const rc::Case below = element_gather<T>((threshold - 1) / 61, 1, false, staged, streams);
  EXPECT_TRUE(staged);
  EXPECT_FALSE(streams) << "under the threshold";
  const rc::Case above = element_gather<T>(threshold / 61 + 1, 3, false, staged, streams);
  EXPECT_TRUE(staged);
  EXPECT_EQ(streams, streamable) << "over the threshold";
  const rc::Case transposed = element_gather<T>(threshold / 61 + 1, 5, true, staged, streams);
  EXPECT_TRUE(staged);
  EXPECT_EQ(streams, streamable) << "over the threshold, lines grouped";
  bool through_scratch = false;
  with_plan<detail::GatherElementsOperator, T, std::int64_t>(above, {1}, [&](const detail::Plan& plan) {
    through_scratch = detail::gathers_through_scratch(plan, dmlref::Options{}, (threshold / 61 + 1) * 61 * w);
  });
  EXPECT_EQ(through_scratch, w <= 2) << "8-byte index values outweigh the output 4 times";
  dmlref::Options one_pass;
  one_pass.all_or_nothing = false;
  for (const dmlref::Options& options : {dmlref::Options{}, one_pass})
    for (const rc::Case* c : {&below, &above, &transposed}) expect_matches_oracle(*c, options);
}

// Scatter along the innermost axis, its output one line short of the threshold and one line over
// it, each line streamed back from an unaligned start, in both modes.
TYPED_TEST(StreamThreshold, ScatterOfElements) {
  using T = TypeParam;
  constexpr std::int64_t w = sizeof(T);
  const std::int64_t lines = (detail::stream_bytes() / w + 60) / 61;  // the fewest that reach it
  bool fused = false, streams = true;
  const rc::Case below = element_scatter<T>(lines - 1, 1, fused, streams);
  EXPECT_TRUE(fused);
  EXPECT_FALSE(streams) << "one line short of the threshold";
  const rc::Case above = element_scatter<T>(lines, 3, fused, streams);
  EXPECT_TRUE(fused);
  EXPECT_EQ(streams, DMLREF_HAS_STREAMING_STORES) << "at the threshold";
  dmlref::Options one_pass;
  one_pass.all_or_nothing = false;
  for (const dmlref::Options& options : {dmlref::Options{}, one_pass})
    for (const rc::Case* c : {&below, &above}) expect_matches_oracle(*c, options);
}

// Gather on the last axis, lines read in place (each normalising the shared index values once),
// an output of one line fewer than the threshold asks for and of one line more.
TYPED_TEST(StreamThreshold, GatherOnTheLastAxis) {
  using T = TypeParam;
  constexpr std::int64_t w = sizeof(T);
  const std::int64_t needed = (detail::stream_bytes() / w + 199) / 200;  // lines of 200 elements
  const bool streamable = DMLREF_HAS_STREAMING_STORES && (w == 4 || w == 8);
  bool staged = false, streams = true;
  const rc::Case below = last_axis_gather<T>(needed - 1, 1, staged, streams);
  EXPECT_TRUE(staged);
  EXPECT_FALSE(streams) << "one line short of the threshold";
  expect_matches_oracle(below);
  const rc::Case above = last_axis_gather<T>(needed + 1, 3, staged, streams);
  EXPECT_TRUE(staged);
  EXPECT_EQ(streams, streamable) << "one line over the threshold";
  expect_matches_oracle(above);
}

}  // namespace
