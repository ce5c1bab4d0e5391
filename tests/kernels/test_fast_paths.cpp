// Random valid cases (support/random_cases.hpp) aimed at each fast path of the kernels
// (docs/internals.md, "Running the plan"), through both layers and compared bit for bit with the
// oracle, whole buffers with guards and padding:
//   staged lines (Gather last axis, GatherElements innermost, ND with K = 1)  StagedLinesMatchOracle
//   Scatter with the input copy fused (innermost axis, also in place)       StagedLinesMatchOracle
//   runs (contiguous blocks) and blocks of >= 2 strided dimensions           BlocksMatchOracle
//     (runs' batch boundaries and row ranges in test_copy_runs.cpp)
//   tiles of a far-strided 1-D block (transposed input/output)               FarStridedBlocksInTiles...
//     (gathers: rows sorted by input offset; streamed outputs in test_transposed_rows.cpp)
//   scatter rows written with streaming stores (large outputs)             test_streamed_scatter.cpp
//   unstaged rows, innermost loops of 17, 23, 31, ... rows (not x16);
//   calls of one batch (<= 16 rows) and rows copied one batch behind         RowBatchesMatchOracle
// A failing case prints its seed; DMLREF_TEST_SEED=<seed> replays it alone in the same test.
#include <gtest/gtest.h>

#include "support/random_checks.hpp"

namespace {

namespace rc = random_cases;
using random_checks::matches_oracle;

class FastPaths : public ::testing::TestWithParam<rc::Op> {};

TEST_P(FastPaths, StagedLinesMatchOracle) {
  rc::Config cfg;
  cfg.aim = rc::Aim::staged;
  cfg.in_place_percent = 25;
  matches_oracle(GetParam(), cfg, 60);
}

TEST_P(FastPaths, BlocksMatchOracle) {
  rc::Config cfg;
  cfg.aim = rc::Aim::blocks;
  matches_oracle(GetParam(), cfg, 60);
}

TEST_P(FastPaths, FarStridedBlocksInTilesMatchOracle) {
  rc::Config cfg;
  cfg.aim = rc::Aim::tiled;
  matches_oracle(GetParam(), cfg, 60);
}

TEST_P(FastPaths, RowBatchesMatchOracle) {
  rc::Config cfg;
  cfg.aim = rc::Aim::rows;
  matches_oracle(GetParam(), cfg, 60);
}

INSTANTIATE_TEST_SUITE_P(AllOperators, FastPaths, ::testing::ValuesIn(rc::all_ops), random_checks::op_name);

}  // namespace
