// One-pass mode (Options::all_or_nothing = false; docs/semantics.md, "One pass"): random cases of
// every operator (support/random_cases.hpp) through both layers, compared with the oracle and with
// the default mode, whole buffers with guards and padding:
//   a valid call gives the oracle's bytes, which are the default mode's      ValidCallsMatch...
//   one value out of range at a random place: the default mode's error, and  OneBadIndex...
//     OutputTensor holds the rows before it (or nothing, where one pass does
//     not apply: a Gather's outer input dimensions, shared index values,
//     a call split over threads)
//   the collision check runs before any write                               CollisionCheck...
//   errors found before any index value is read write nothing               ErrorsBeforeIndex...
// A failing case prints its seed; DMLREF_TEST_SEED=<seed> replays it alone in the same test.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "support/executors.hpp"
#include "support/random_checks.hpp"
#include "support/rules.hpp"

namespace {

namespace rc = random_cases;
using dmlref::ErrorCode;
using random_checks::choice;
using random_checks::Failures;
using random_checks::mismatch;
using rc::Layer;
using rc::Op;
using rc::Sizes;

dmlref::Options one_pass(dmlref::Options options = {}) {
  options.all_or_nothing = false;
  return options;
}

/// The layer a case runs through, from its seed.
Layer layer_for(std::uint64_t seed) { return choice(seed, 7, 2) == 0 ? Layer::dispatch : Layer::typed_storage; }

/// `why`, prefixed with what it is about, or "" when there is nothing.
std::string about(const std::string& what, const std::string& why) { return why.empty() ? why : what + ": " + why; }

/// A valid case in one-pass mode on `layer`: the oracle's whole buffer, and the default mode's.
void check_valid(const rc::Case& c, Layer layer, const dmlref::Options& options, Failures& failures) {
  const rc::Run expected = rc::run_oracle(c, oracle::Policy::error, options.check_collisions);
  if (!expected.ok) failures.add("the generator made a case the oracle rejects: " + expected.error);
  failures.add(about("one pass", mismatch(c, expected, layer, one_pass(options))));
  const rc::LibRun all = rc::run_library(c, layer, options);
  const rc::LibRun one = rc::run_library(c, layer, one_pass(options));
  if (all.status.code() != one.status.code())
    failures.add(std::string("the default mode gives ") + dmlref::name(all.status.code()) + ", one pass " +
                 dmlref::name(one.status.code()));
  failures.add(about("one pass against the default mode", rc::first_difference(c, one.buffer, all.buffer)));
}

class OnePass : public ::testing::TestWithParam<Op> {};

TEST_P(OnePass, ValidCallsMatchOracleAndDefaultMode) {
  struct Aimed {
    rc::Aim aim;
    int cases;
  };
  for (const Aimed a : {Aimed{rc::Aim::any, 120}, Aimed{rc::Aim::staged, 30}, Aimed{rc::Aim::rows, 20},
                        Aimed{rc::Aim::tiled, 20}, Aimed{rc::Aim::blocks, 20}, Aimed{rc::Aim::big, 1}}) {
    rc::Config cfg;
    cfg.aim = a.aim;
    cfg.in_place_percent = 25;
    random_checks::for_each_case(GetParam(), cfg, a.cases, [&](const rc::Case& c, Failures& failures) {
      check_valid(c, layer_for(c.seed), {}, failures);
    });
  }
}

// ---- one value out of range ----

/// A valid case with one element of IndicesTensor's storage replaced by a value out of range, and
/// where the first value out of range is in row-major order of IndicesTensor (a broadcast element
/// holds several values, each checked against its own dimension).
struct BadIndex {
  rc::Case c;
  Sizes first;
  std::int64_t position = 0;
};

BadIndex with_bad_index(const rc::Case& valid) {
  BadIndex b{valid, {}, 0};
  rc::Case& c = b.c;
  const rc::Layout& l = c.indices;
  const std::size_t es = rc::size_of(c.itype);
  rc::Rng rng(rc::mix(valid.seed ^ 0xBAD1DEull));
  const Sizes j = rc::unravel(static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(rc::count(l.sizes)))), l.sizes);
  rc::store_bits(c.indices_buf.data() + rc::byte_at(l, es, j), es, rc::invalid_index(rng, rc::target_size(c, j), c.itype));
  c.inputs_hash = c.hash_inputs();
  const oracle::Indices indices{c.indices_buf.data() + rc::first_byte(l, es), rc::kind_of(c.itype), l.sizes, l.strides};
  Sizes k(l.sizes.size(), 0);
  do {
    std::int64_t position = 0;
    const oracle::detail::RawIndex v = oracle::detail::read_index(indices, k);
    if (!oracle::detail::normalize(v, rc::target_size(c, k), oracle::Policy::error, position)) {
      b.first = k;
      return b;
    }
    ++b.position;
  } while (rc::next(k, l.sizes));
  return b;  // unreachable: j holds a value out of range
}

/// Whether one pass applies to the case (docs/semantics.md, "One pass"): every row reads index
/// values of its own (no IndicesTensor dimension of rows broadcast, no Gather input dimension
/// before Axis that reads every index again) and the call runs on one thread. An ND operator's
/// tuple dimension is no dimension of rows: its entries may share a value.
bool one_pass_applies(const rc::Case& c, bool split_over_threads) {
  if (split_over_threads) return false;
  const std::size_t row_dimensions = c.indices.sizes.size() - (rc::is_nd(c.op) ? 1 : 0);
  for (std::size_t d = 0; d < row_dimensions; ++d)
    if (c.indices.sizes[d] > 1 && c.indices.strides[d] == 0) return false;
  if (c.op == Op::gather)
    for (std::uint32_t d = 0; d < c.axis; ++d)
      if (c.input.sizes[d] > 1) return false;
  return true;
}

/// Rows are the dense tensor's elements (a gather's output, a scatter's updates) in row-major
/// order, a block of them per index tuple: the dense elements before the row of the index value
/// at `position` of IndicesTensor.
std::int64_t dense_elements_before(const rc::Case& c, std::int64_t position) {
  const std::int64_t tuple = rc::is_nd(c.op) ? c.indices.sizes.back() : 1;
  const std::int64_t rows = rc::count(c.indices.sizes) / tuple;
  const Sizes& dense = rc::is_scatter(c.op) ? c.updates.sizes : c.output.sizes;
  return position / tuple * (rc::count(dense) / rows);
}

/// For each element of a scatter's OutputTensor (row-major), the row-major position in
/// UpdatesTensor of the update that writes it last, or -1: the oracle on the case's indices with
/// UINT64 data, every update holding its own position and the input all ones.
std::vector<std::int64_t> last_writers(const rc::Case& c, Failures& failures) {
  rc::Case t = c;
  t.dtype = rc::DType::UINT64;
  t.in_place = false;
  t.input = rc::packed_layout(c.input.sizes);
  t.updates = rc::packed_layout(c.updates.sizes);
  t.output = rc::packed_layout(c.output.sizes);
  t.input_buf.assign(rc::buffer_bytes(t.input, 8), 0xFF);
  t.updates_buf.assign(rc::buffer_bytes(t.updates, 8), 0);
  t.output_buf.assign(rc::buffer_bytes(t.output, 8), 0);
  for (std::int64_t u = 0; u < rc::count(c.updates.sizes); ++u)
    rc::store_bits(t.updates_buf.data() + rc::kGuard + static_cast<std::size_t>(u) * 8, 8, static_cast<std::uint64_t>(u));
  const rc::Run run = rc::run_oracle(t, oracle::Policy::error, false);
  if (!run.ok) failures.add("the oracle rejects the numbered updates: " + run.error);
  std::vector<std::int64_t> writer(static_cast<std::size_t>(rc::count(c.output.sizes)), -1);
  for (std::size_t e = 0; e < writer.size(); ++e) {
    const std::uint64_t v = rc::load_bits(run.buffer.data() + rc::kGuard + e * 8, 8);
    if (run.ok && v != ~std::uint64_t{0}) writer[e] = static_cast<std::int64_t>(v);
  }
  return writer;
}

/// What OutputTensor's buffer may hold after one pass failed at the bad value: `rows_before`, the
/// result of every row before it on the initial buffer; a scatter's element that no such row
/// writes may instead hold InputTensor's element (`or_input`: the copy runs before the rows, or,
/// for staged lines, with each line's rows).
struct Allowed {
  std::vector<unsigned char> rows_before, or_input;
};

/// Allowed contents when one pass applies; false when the case cannot pin them (a scatter whose
/// updates collide: the oracle names only the last writer of an element).
bool allowed_after_rows(const rc::Case& valid, std::int64_t dense_before, Allowed& allowed, Failures& failures) {
  const std::size_t es = valid.esize();
  const rc::Layout& out = valid.output;
  allowed.rows_before = valid.initial_output();
  allowed.or_input = allowed.rows_before;
  auto element = [&](std::vector<unsigned char>& buffer, const Sizes& o) { return buffer.data() + rc::byte_at(out, es, o); };
  Sizes o(out.sizes.size(), 0);
  std::int64_t e = 0;
  if (!rc::is_scatter(valid.op)) {  // every output element is one row's: the valid call's, or untouched
    const rc::Run full = rc::run_oracle(valid, oracle::Policy::error, false);
    if (!full.ok) failures.add("the oracle rejects the valid case: " + full.error);
    do {
      if (e++ < dense_before) std::memcpy(element(allowed.rows_before, o), full.buffer.data() + rc::byte_at(out, es, o), es);
    } while (rc::next(o, out.sizes));
    allowed.or_input = allowed.rows_before;
    return true;
  }
  const std::vector<std::int64_t> writer = last_writers(valid, failures);
  std::int64_t written = 0;
  for (const std::int64_t u : writer) written += u >= 0;
  if (written != rc::count(valid.updates.sizes)) return false;  // colliding updates
  do {
    const std::int64_t u = writer[static_cast<std::size_t>(e++)];
    if (u >= 0 && u < dense_before) {
      const Sizes from = rc::unravel(u, valid.updates.sizes);
      const unsigned char* update = valid.updates_buf.data() + rc::byte_at(valid.updates, es, from);
      std::memcpy(element(allowed.rows_before, o), update, es);
      std::memcpy(element(allowed.or_input, o), update, es);
    } else {
      std::memcpy(element(allowed.or_input, o), valid.input_buf.data() + rc::byte_at(valid.input, es, o), es);
    }
  } while (rc::next(o, out.sizes));
  return true;
}

/// "" when `got` holds, element by element, what `allowed` allows, and nothing else changed.
std::string against_allowed(const rc::Case& c, std::vector<unsigned char> got, const Allowed& allowed) {
  const std::size_t es = c.esize();
  Sizes o(c.output.sizes.size(), 0);
  do {
    const std::size_t at = rc::byte_at(c.output, es, o);
    if (std::memcmp(got.data() + at, allowed.or_input.data() + at, es) == 0)
      std::memcpy(got.data() + at, allowed.rows_before.data() + at, es);
  } while (rc::next(o, c.output.sizes));
  return rc::first_difference(c, got, allowed.rows_before);
}

constexpr const char* kPartlyWritten = "; OutputTensor holds the results of the rows before it (all_or_nothing is off)";

/// The bad case in both modes: the same error, naming the first bad value; the default mode writes
/// nothing; one pass writes the rows before it where it applies, and nothing elsewhere.
void check_bad_index(const rc::Case& valid, Layer layer, const dmlref::Options& options, bool split_over_threads,
                     Failures& failures, int& prefixes_checked) {
  const BadIndex bad = with_bad_index(valid);
  const rc::Case& c = bad.c;
  SCOPED_TRACE("first value out of range at " + rc::text(bad.first) + " (row-major position " +
               std::to_string(bad.position) + ")");
  const rc::LibRun all = rc::run_library(c, layer, options);
  const rc::LibRun one = rc::run_library(c, layer, one_pass(options));
  if (all.status.code() != ErrorCode::index_out_of_range || one.status.code() != ErrorCode::index_out_of_range) {
    failures.add(std::string("expected index_out_of_range in both modes; default: ") + all.status.message() +
                 "; one pass: " + one.status.message());
    return;
  }
  const dmlref::Error& e = all.status.error();
  if (e.position != dmlref::Shape::from(bad.first.data(), bad.first.size()))
    failures.add("the error does not name the first value out of range: " + all.status.message());
  if (e.output_partly_written) failures.add("the default mode says it wrote: " + all.status.message());
  failures.add(about("the default mode wrote", rc::first_difference(c, all.buffer, c.initial_output())));

  const bool partly = one.status.error().output_partly_written;
  dmlref::Error one_error = one.status.error();
  one_error.output_partly_written = false;
  if (one_error.message() != all.status.message())
    failures.add("one pass names another error: " + one.status.message() + "; default: " + all.status.message());
  if (one.status.message() != all.status.message() + (partly ? kPartlyWritten : ""))
    failures.add("one pass's message does not say what it wrote: " + one.status.message());
  if (!partly) failures.add(about("one pass wrote, not saying so", rc::first_difference(c, one.buffer, c.initial_output())));
  if (c.hash_inputs() != c.inputs_hash) failures.add("an input buffer changed");

  if (!one_pass_applies(c, split_over_threads)) {
    if (partly) failures.add("one pass does not apply, yet the call wrote: " + one.status.message());
    return;
  }
  const std::int64_t before = dense_elements_before(c, bad.position);
  if (before > 0 && !partly) failures.add("rows before the bad value, yet the call says it wrote nothing");
  Allowed allowed;
  if (!allowed_after_rows(valid, before, allowed, failures)) return;
  ++prefixes_checked;
  failures.add(about("one pass, against the rows before the bad value", against_allowed(c, one.buffer, allowed)));
}

TEST_P(OnePass, OneBadIndexGivesTheSameErrorAndTheRowsBeforeIt) {
  struct Aimed {
    rc::Aim aim;
    int cases;
  };
  int prefixes = 0, cases = 0;
  for (const Aimed a : {Aimed{rc::Aim::any, 100}, Aimed{rc::Aim::staged, 30}, Aimed{rc::Aim::rows, 20},
                        Aimed{rc::Aim::tiled, 20}, Aimed{rc::Aim::blocks, 20}, Aimed{rc::Aim::big, 2}}) {
    rc::Config cfg;
    cfg.aim = a.aim;
    cfg.in_place_percent = 30;
    cfg.duplicates = rc::Duplicates::none;  // scatters: one writer per element, so the oracle names it
    random_checks::for_each_case(GetParam(), cfg, a.cases, [&](const rc::Case& c, Failures& failures) {
      check_bad_index(c, layer_for(c.seed), {}, false, failures, prefixes);
      ++cases;
    });
  }
  if (!rc::replay_seed()) {
    EXPECT_GT(prefixes, cases / 2) << "too few cases whose rows before the bad value were checked";
  }
}

// A call split over threads checks every index first, in one pass too.
TEST_P(OnePass, OneBadIndexInACallSplitOverThreadsWritesNothing) {
  rc::Config cfg;
  cfg.aim = rc::Aim::big;
  cfg.duplicates = rc::Duplicates::none;
  executors::Reverse two(2);
  dmlref::Options options;
  options.threads = 2;
  options.executor = &two;
  int unused = 0;
  random_checks::for_each_case(GetParam(), cfg, 1, [&](const rc::Case& c, Failures& failures) {
    check_bad_index(c, Layer::dispatch, options, true, failures, unused);
  });
}

INSTANTIATE_TEST_SUITE_P(AllOperators, OnePass, ::testing::ValuesIn(rc::all_ops), random_checks::op_name);

// ---- scatters: the collision check ----

class OnePassScatter : public ::testing::TestWithParam<Op> {};

// With check_collisions every index is checked, and collisions found, before the first write, in
// one pass too: a colliding call, or one with a bad value as well, writes nothing and fails as the
// default mode does; a clean one matches the oracle.
TEST_P(OnePassScatter, CollisionCheckRunsBeforeAnyWrite) {
  dmlref::Options check;
  check.check_collisions = true;
  int collided = 0;
  rc::Config cfg;
  cfg.in_place_percent = 30;
  random_checks::for_each_case(GetParam(), cfg, 150, [&](const rc::Case& generated, Failures& failures) {
    const bool bad_value = choice(generated.seed, 1, 4) == 0;
    const rc::Case c = bad_value ? with_bad_index(generated).c : generated;
    const Layer layer = layer_for(c.seed);
    const rc::Run expected = rc::run_oracle(c, oracle::Policy::error, true);
    collided += !expected.ok && random_checks::code_for(expected) == ErrorCode::scatter_collision;
    failures.add(about("one pass", mismatch(c, expected, layer, one_pass(check))));
    const rc::LibRun all = rc::run_library(c, layer, check);
    const rc::LibRun one = rc::run_library(c, layer, one_pass(check));
    if (one.status.message() != all.status.message())
      failures.add("one pass: " + one.status.message() + "; the default mode: " + all.status.message());
    if (one.status.error().output_partly_written) failures.add("one pass wrote before the collision check");
  });
  if (!rc::replay_seed()) {
    EXPECT_GT(collided, rc::scaled(20)) << "too few colliding cases to test the check";
  }
}

INSTANTIATE_TEST_SUITE_P(Scatters, OnePassScatter, ::testing::Values(Op::scatter, Op::scatter_nd), random_checks::op_name);

// ---- errors before any index value is read ----

// Layouts, types, shapes and overlaps are checked before the first write in one pass as well: the
// same Error on both layers, no byte written anywhere, and output_partly_written false, even when
// an index value is out of range too.
TEST(OnePassErrors, ErrorsBeforeIndexValuesWriteNothing) {
  for (const Op op : harness::all_ops) {
    auto call = [op] {
      rules::Call c = rules::make_call(op);
      c.options = one_pass();
      c.indices().values.back() = static_cast<std::uint64_t>(rules::index_target(op).size);  // out of range
      return c;
    };
    auto expect_nothing_written = [&](const rules::Call& c, const rules::Want& want, bool dispatch_only = false) {
      const dmlref::Error e = dispatch_only ? rules::expect_dispatch_error(c, want) : rules::expect_error(c, want);
      EXPECT_FALSE(e.output_partly_written) << rules::describe(e);
    };
    SCOPED_TRACE(rules::trace(op));
    {
      rules::Call c = call();
      const Sizes right = c.output().sizes;
      c.output().sizes.back() += 1;
      expect_nothing_written(c, {ErrorCode::shape_mismatch, "OutputTensor", "Sizes", -1, harness::text(right),
                                 harness::text(c.output().sizes)});
    }
    {
      rules::Call c = call();
      c.output().type = dmlref::DataType::INT32;
      expect_nothing_written(c, {ErrorCode::data_type_mismatch, "OutputTensor", "DataType", -1, "FLOAT32", "INT32"},
                             true);
    }
    {
      rules::Call c = call();
      c.indices().type = dmlref::DataType::FLOAT32;
      expect_nothing_written(c, {ErrorCode::unsupported_index_type, "IndicesTensor", "DataType"}, true);
    }
    {
      rules::Call c = call();
      c.output().alias_of = harness::kIndices;
      expect_nothing_written(c, {ErrorCode::overlapping_tensors, "OutputTensor", "Data", -1, std::nullopt,
                                 "IndicesTensor"});
    }
    {
      rules::Call c = call();
      c.output().total_bytes = rules::extent_bytes(c.output()) - 1;
      expect_nothing_written(c, {ErrorCode::buffer_too_small, "OutputTensor", "TotalTensorSizeInBytes"}, true);
    }
  }
}

}  // namespace
