// dmlref's benchmark suite: workloads W1..W9 (docs/performance.md), each through the typed layer
// (TensorView) and the runtime dispatch layer (TensorDesc), next to a memcpy baseline that moves
// the same number of bytes. bench/ratios.py turns the JSON output into ratios against targets.
//
//   dmlref_bench                                  5 repetitions, randomly interleaved (defaults set in main)
//   dmlref_bench --benchmark_repetitions=1        a quick run
//   dmlref_bench --benchmark_enable_random_interleaving=false    in registration order
//   dmlref_bench --benchmark_filter='W1_'         one workload
//   dmlref_bench --benchmark_out=r.json --benchmark_out_format=json && python3 bench/ratios.py r.json
//
// Every case checks its result once, before its first timed loop, and reports a wrong one with
// SkipWithError, so a broken kernel never shows a number.

#include <cstdint>
#include <string>
#include <vector>

#include "read_all.hpp"
#include "support.hpp"

// The executor adapters, when bench/CMakeLists.txt found their dependency.
#if defined(DMLREF_BENCH_TBB)
#  include <dmlref/executor_tbb.hpp>
#endif
#if defined(DMLREF_BENCH_OPENMP)
#  include <dmlref/executor_openmp.hpp>
#endif

namespace dmlref_bench {
namespace {

using dmlref::data_type_v;
using dmlref::Options;
using dmlref::Status;

template <class I>
std::int64_t index_at(const Tensor& indices, std::initializer_list<std::int64_t> coordinate) {
  I v;
  std::memcpy(&v, indices.element(coordinate), sizeof v);
  return static_cast<std::int64_t>(v);  // the benchmarks use non-negative indices only
}

// ---------------------------------------------------------------------------------------------
// W1, W2, W7 (W1), W8, W9 (W1): Gather of a matrix along Axis 0 or 1.
// Input [rows, cols]; indices [1, count] (IndexDimensions 1); output [count, cols] or [rows, count].

template <class T, class I>
class GatherCase final : public Case {
 public:
  struct Spec {
    std::int64_t rows, cols;
    std::uint32_t axis;
    std::int64_t count;
    Layout layout = Layout::packed;
  };
  static std::int64_t output_elements(const Spec& s) { return s.axis == 0 ? s.count * s.cols : s.rows * s.count; }
  static std::int64_t bytes(const Spec& s) {
    return 2 * output_elements(s) * std::int64_t{sizeof(T)} + s.count * std::int64_t{sizeof(I)};
  }

  explicit GatherCase(const Spec& s)
      : spec_(s),
        input_(make_matrix(data_type_v<T>, s.rows, s.cols, s.layout)),
        indices_(data_type_v<I>, {1, s.count}),
        output_(data_type_v<T>, {s.axis == 0 ? s.count : s.rows, s.axis == 0 ? s.cols : s.count}) {
    input_.fill(kInputSeed);
    fill_indices<I>(indices_, s.axis == 0 ? s.rows : s.cols);
    output_.fill(kSentinelSeed);
    params_ = {s.axis, 1};
  }

  Status run_typed(const Options& o) const noexcept {
    return dmlref::try_gather(ops_.in_view, ops_.idx_view, ops_.out_view, params_, o);
  }
  /// W2's floor: one plain read of every byte of InputTensor, whose rows a gather on the last
  /// axis must read whole. Row gathers' (packed layout): the footprint floor, the same rows
  /// copied from the same addresses, unvalidated.
  void run_floor() const noexcept {
    if (spec_.axis == 1) {
      benchmark::DoNotOptimize(read_all(input_.data(), static_cast<std::size_t>(input_.bytes())));
      return;
    }
    const I* idx = indices_.data_as<I>();
    const auto* in = static_cast<const unsigned char*>(input_.data());
    auto* out = static_cast<unsigned char*>(output_.data());
    const auto row = static_cast<std::size_t>(spec_.cols) * sizeof(T);
    for (std::int64_t r = 0; r < spec_.count; ++r)
      std::memcpy(out + static_cast<std::size_t>(r) * row, in + static_cast<std::size_t>(idx[r]) * row, row);
  }
  Status run_dispatch(const Options& o) const noexcept {
    return dmlref::try_gather(ops_.in_desc, ops_.idx_desc, ops_.out_desc, params_, o);
  }
  const void* result() const noexcept { return output_.data(); }

  void prepare_check() override { output_.fill(kSentinelSeed); }
  std::string check() const override {
    return check_rows(output_, [&](std::int64_t r, std::int64_t c) {
      return spec_.axis == 0 ? input_.element({index_at<I>(indices_, {0, r}), c})
                             : input_.element({r, index_at<I>(indices_, {0, c})});
    });
  }

 private:
  Spec spec_;
  Tensor input_, indices_, output_;
  dmlref::GatherParams params_;
  Operands<T, I> ops_{input_, indices_, output_};
};

// ---------------------------------------------------------------------------------------------
// W3, W7 (W3), W9 (W3): GatherElements along Axis 1. Input, indices, output [rows, cols].

template <class T, class I>
class GatherElementsCase final : public Case {
 public:
  struct Spec {
    std::int64_t rows, cols;
    Layout layout = Layout::packed;
  };
  static std::int64_t bytes(const Spec& s) {
    return s.rows * s.cols * (2 * std::int64_t{sizeof(T)} + std::int64_t{sizeof(I)});
  }

  explicit GatherElementsCase(const Spec& s)
      : input_(make_matrix(data_type_v<T>, s.rows, s.cols, s.layout)),
        indices_(data_type_v<I>, {s.rows, s.cols}),
        output_(data_type_v<T>, {s.rows, s.cols}) {
    input_.fill(kInputSeed);
    fill_indices<I>(indices_, s.cols);
    output_.fill(kSentinelSeed);
  }

  Status run_typed(const Options& o) const noexcept {
    return dmlref::try_gather_elements(ops_.in_view, ops_.idx_view, ops_.out_view, params_, o);
  }
  Status run_dispatch(const Options& o) const noexcept {
    return dmlref::try_gather_elements(ops_.in_desc, ops_.idx_desc, ops_.out_desc, params_, o);
  }
  const void* result() const noexcept { return output_.data(); }

  void prepare_check() override { output_.fill(kSentinelSeed); }
  std::string check() const override {
    return check_rows(output_, [&](std::int64_t r, std::int64_t c) {
      return input_.element({r, index_at<I>(indices_, {r, c})});
    });
  }

 private:
  Tensor input_, indices_, output_;
  dmlref::GatherElementsParams params_{1};
  Operands<T, I> ops_{input_, indices_, output_};
};

// ---------------------------------------------------------------------------------------------
// W4: Scatter (ScatterElements) along Axis 1; every row of indices is a permutation of the row.

template <class T, class I>
class ScatterCase final : public Case {
 public:
  struct Spec {
    std::int64_t rows, cols;
  };
  static std::int64_t bytes(const Spec& s) {
    return s.rows * s.cols * (3 * std::int64_t{sizeof(T)} + std::int64_t{sizeof(I)});
  }

  explicit ScatterCase(const Spec& s)
      : input_(data_type_v<T>, {s.rows, s.cols}),
        indices_(data_type_v<I>, {s.rows, s.cols}),
        updates_(data_type_v<T>, {s.rows, s.cols}),
        output_(data_type_v<T>, {s.rows, s.cols}) {
    input_.fill(kInputSeed);
    updates_.fill(kUpdatesSeed);
    output_.fill(kSentinelSeed);
    Rng rng(kIndexSeed);
    I* idx = indices_.data_as<I>();
    for (std::int64_t r = 0; r < s.rows; ++r) {
      I* row = idx + r * s.cols;
      for (std::int64_t c = 0; c < s.cols; ++c) row[c] = static_cast<I>(c);
      rng.shuffle(row, row + s.cols);
    }
  }

  Status run_typed(const Options& o) const noexcept {
    return dmlref::try_scatter(ops_.in_view, ops_.idx_view, ops_.upd_view, ops_.out_view, params_, o);
  }
  Status run_dispatch(const Options& o) const noexcept {
    return dmlref::try_scatter(ops_.in_desc, ops_.idx_desc, ops_.upd_desc, ops_.out_desc, params_, o);
  }
  const void* result() const noexcept { return output_.data(); }

  void prepare_check() override { output_.fill(kSentinelSeed); }
  std::string check() const override {
    // Each row's indices are a permutation, so checking every update of a row checks the row.
    const std::int64_t cols = output_.size(1);
    for (std::int64_t r : sample_rows(output_.size(0)))
      for (std::int64_t c = 0; c < cols; ++c) {
        const std::int64_t target = index_at<I>(indices_, {r, c});
        if (!output_.same_element(output_.element({r, target}), updates_.element({r, c})))
          return mismatch("OutputTensor", {r, target});
      }
    return "";
  }

 private:
  Tensor input_, indices_, updates_, output_;
  dmlref::ScatterParams params_{1};
  ScatterOperands<T, I> ops_{input_, indices_, updates_, output_};
};

// ---------------------------------------------------------------------------------------------
// W5: GatherND. Input [a, b, c]; indices [1, tuples, 2]; output [1, tuples, c]
// (InputDimensionCount 3, IndicesDimensionCount 2).

template <class T, class I>
class GatherNDCase final : public Case {
 public:
  struct Spec {
    std::int64_t a, b, c, tuples;
  };
  static std::int64_t bytes(const Spec& s) {
    return 2 * s.tuples * s.c * std::int64_t{sizeof(T)} + 2 * s.tuples * std::int64_t{sizeof(I)};
  }

  explicit GatherNDCase(const Spec& s)
      : input_(data_type_v<T>, {s.a, s.b, s.c}),
        indices_(data_type_v<I>, {1, s.tuples, 2}),
        output_(data_type_v<T>, {1, s.tuples, s.c}) {
    input_.fill(kInputSeed);
    output_.fill(kSentinelSeed);
    Rng rng(kIndexSeed);
    I* idx = indices_.data_as<I>();
    for (std::int64_t g = 0; g < s.tuples; ++g) {
      idx[2 * g] = static_cast<I>(rng.below(s.a));
      idx[2 * g + 1] = static_cast<I>(rng.below(s.b));
    }
  }

  Status run_typed(const Options& o) const noexcept {
    return dmlref::try_gather_nd(ops_.in_view, ops_.idx_view, ops_.out_view, params_, o);
  }
  /// The footprint floor: the same rows copied from the same addresses, unvalidated.
  void run_floor() const noexcept {
    const std::int64_t b = input_.size(1), c = input_.size(2), tuples = indices_.size(1);
    const I* idx = indices_.data_as<I>();
    const auto* in = static_cast<const unsigned char*>(input_.data());
    auto* out = static_cast<unsigned char*>(output_.data());
    const auto row = static_cast<std::size_t>(c) * sizeof(T);
    for (std::int64_t g = 0; g < tuples; ++g)
      std::memcpy(out + static_cast<std::size_t>(g) * row,
                  in + static_cast<std::size_t>(static_cast<std::int64_t>(idx[2 * g]) * b + static_cast<std::int64_t>(idx[2 * g + 1])) * row, row);
  }
  Status run_dispatch(const Options& o) const noexcept {
    return dmlref::try_gather_nd(ops_.in_desc, ops_.idx_desc, ops_.out_desc, params_, o);
  }
  const void* result() const noexcept { return output_.data(); }

  void prepare_check() override { output_.fill(kSentinelSeed); }
  std::string check() const override {
    const std::int64_t c = output_.size(2);
    for (std::int64_t g : sample_rows(output_.size(1))) {
      const std::int64_t i0 = index_at<I>(indices_, {0, g, 0}), i1 = index_at<I>(indices_, {0, g, 1});
      for (std::int64_t t = 0; t < c; ++t)
        if (!output_.same_element(output_.element({0, g, t}), input_.element({i0, i1, t})))
          return mismatch("OutputTensor", {0, g, t});
    }
    return "";
  }

 private:
  Tensor input_, indices_, output_;
  dmlref::GatherNDParams params_{3, 2};
  Operands<T, I> ops_{input_, indices_, output_};
};

// ---------------------------------------------------------------------------------------------
// W6: ScatterND of whole rows. Input [rows, cols]; indices [count, 1] (distinct rows);
// updates [count, cols] (InputDimensionCount 2, IndicesDimensionCount 2). In place: OutputTensor
// is InputTensor itself.

template <class T, class I>
class ScatterNDCase final : public Case {
 public:
  struct Spec {
    std::int64_t rows, cols, count;
    bool in_place;
  };
  static std::int64_t bytes(const Spec& s) {
    const std::int64_t data = s.rows * s.cols * std::int64_t{sizeof(T)};
    const std::int64_t updates = s.count * s.cols * std::int64_t{sizeof(T)};
    const std::int64_t indices = s.count * std::int64_t{sizeof(I)};
    return s.in_place ? indices + 2 * updates : data + indices + updates + data;
  }

  explicit ScatterNDCase(const Spec& s)
      : spec_(s),
        input_(data_type_v<T>, {s.rows, s.cols}),
        indices_(data_type_v<I>, {s.count, 1}),
        updates_(data_type_v<T>, {s.count, s.cols}),
        output_(data_type_v<T>, {s.in_place ? 1 : s.rows, s.in_place ? 1 : s.cols}),
        source_of_row_(static_cast<std::size_t>(s.rows), -1) {
    input_.fill(kInputSeed);
    updates_.fill(kUpdatesSeed);
    output_.fill(kSentinelSeed);
    const std::vector<std::int64_t> rows = shuffled_rows(s.rows);
    I* idx = indices_.data_as<I>();
    for (std::int64_t k = 0; k < s.count; ++k) {
      idx[k] = static_cast<I>(rows[static_cast<std::size_t>(k)]);
      source_of_row_[static_cast<std::size_t>(rows[static_cast<std::size_t>(k)])] = k;
    }
  }

  Status run_typed(const Options& o) const noexcept {
    return dmlref::try_scatter_nd(ops_.in_view, ops_.idx_view, ops_.upd_view, ops_.out_view, params_, o);
  }
  Status run_dispatch(const Options& o) const noexcept {
    return dmlref::try_scatter_nd(ops_.in_desc, ops_.idx_desc, ops_.upd_desc, ops_.out_desc, params_, o);
  }
  /// The footprint floor: the copy of the input (out of place) and the same rows written to the
  /// same addresses, unvalidated.
  void run_floor() const noexcept {
    auto* out = static_cast<unsigned char*>(const_cast<void*>(static_cast<const void*>(ops_.out_view.data())));
    const auto row = static_cast<std::size_t>(spec_.cols) * sizeof(T);
    if (!spec_.in_place) std::memcpy(out, input_.data(), static_cast<std::size_t>(spec_.rows) * row);
    const I* idx = indices_.data_as<I>();
    const auto* upd = static_cast<const unsigned char*>(updates_.data());
    for (std::int64_t k = 0; k < spec_.count; ++k)
      std::memcpy(out + static_cast<std::size_t>(idx[k]) * row, upd + static_cast<std::size_t>(k) * row, row);
  }
  const void* result() const noexcept { return ops_.out_view.data(); }

  void prepare_check() override {
    if (spec_.in_place)
      input_.fill(kInputSeed);  // undo earlier runs' updates
    else
      output_.fill(kSentinelSeed);
  }
  std::string check() const override {
    const Tensor& out = spec_.in_place ? input_ : output_;
    std::vector<std::int64_t> rows = sample_rows(spec_.rows);
    rows.push_back(index_at<I>(indices_, {0, 0}));  // surely updated rows, too
    rows.push_back(index_at<I>(indices_, {spec_.count - 1, 0}));
    for (std::int64_t r : rows) {
      const std::int64_t k = source_of_row_[static_cast<std::size_t>(r)];
      for (std::int64_t c = 0; c < spec_.cols; ++c) {
        const unsigned char* got = out.element({r, c});
        const bool ok = k >= 0 ? out.same_element(got, updates_.element({k, c}))
                               : out.holds_generated(got, kInputSeed, r * spec_.cols + c);
        if (!ok) return mismatch("OutputTensor", {r, c});
      }
    }
    return "";
  }

 private:
  Spec spec_;
  Tensor input_, indices_, updates_, output_;
  std::vector<std::int64_t> source_of_row_;  ///< the update row written to each output row, or -1
  dmlref::ScatterNDParams params_{2, 2};
  ScatterOperands<T, I> ops_{input_, indices_, updates_, spec_.in_place ? input_ : output_};
};

// ---------------------------------------------------------------------------------------------

using f16 = dmlref::float16;
using std::int32_t;
using std::int64_t;
using std::int8_t;

void register_all() {
  using benchmark::kMicrosecond;
  using benchmark::kNanosecond;
  const Variant kOnePass{true};
  // One line per workload variant. The last braces list the thread counts it runs with
  // Thread counts (Options::threads, see make_options in support.hpp): each adds
  // "<name>/typed/threads:N", "<name>/dispatch/threads:N" and "<name>/memcpy/threads:N".
  // The ratio targets are for 1 thread; ratios.py checks that 2 threads are never slower.

  // W1: Gather Axis 0, input [32768, 1024], 16384 rows.
  add<GatherCase<float, int64_t>>("W1_gather_rows", {32768, 1024, 0, 16384}, {1, 2});
  add_floor<GatherCase<float, int64_t>>("W1_gather_rows", {32768, 1024, 0, 16384}, "footprint_floor");
  // W2: Gather on the last axis, input [4096, 4096], 1024 columns, int32 and int64 indices.
  add<GatherCase<float, int32_t>>("W2_gather_inner/int32", {4096, 4096, 1, 1024}, {1, 2});
  add<GatherCase<float, int64_t>>("W2_gather_inner/int64", {4096, 4096, 1, 1024}, {1, 2});
  add_floor<GatherCase<float, int32_t>>("W2_gather_inner/int32", {4096, 4096, 1, 1024}, "read_floor");
  add_floor<GatherCase<float, int64_t>>("W2_gather_inner/int64", {4096, 4096, 1, 1024}, "read_floor");
  // W3: GatherElements Axis 1, [2048, 4096].
  add<GatherElementsCase<float, int64_t>>("W3_gather_elements", {2048, 4096}, {1, 2});
  add<GatherElementsCase<float, int64_t>>("W3_gather_elements/one_pass", {2048, 4096}, {1}, kMicrosecond, kOnePass);
  // W4: Scatter Axis 1, [2048, 4096], a permutation per row.
  add<ScatterCase<float, int64_t>>("W4_scatter_elements", {2048, 4096}, {1, 2});
  // W5: GatherND, input [512, 512, 64], 65536 pairs.
  add<GatherNDCase<float, int64_t>>("W5_gather_nd", {512, 512, 64, 65536}, {1, 2});
  add_floor<GatherNDCase<float, int64_t>>("W5_gather_nd", {512, 512, 64, 65536}, "footprint_floor");
  // W6: ScatterND of 16384 distinct rows into [65536, 256], out of place and in place.
  add<ScatterNDCase<float, int64_t>>("W6_scatter_nd", {65536, 256, 16384, false}, {1, 2});
  add<ScatterNDCase<float, int64_t>>("W6_scatter_nd/inplace", {65536, 256, 16384, true}, {1, 2});
  add_floor<ScatterNDCase<float, int64_t>>("W6_scatter_nd", {65536, 256, 16384, false}, "footprint_floor");
  add_floor<ScatterNDCase<float, int64_t>>("W6_scatter_nd/inplace", {65536, 256, 16384, true}, "footprint_floor");
  // W7: W1 and W3 with 2- and 1-byte elements.
  add<GatherCase<f16, int64_t>>("W7_dtypes/W1_float16", {32768, 1024, 0, 16384}, {1, 2});
  add<GatherCase<int8_t, int64_t>>("W7_dtypes/W1_int8", {32768, 1024, 0, 16384}, {1, 2});
  add_floor<GatherCase<f16, int64_t>>("W7_dtypes/W1_float16", {32768, 1024, 0, 16384}, "footprint_floor");
  add_floor<GatherCase<int8_t, int64_t>>("W7_dtypes/W1_int8", {32768, 1024, 0, 16384}, "footprint_floor");
  add<GatherElementsCase<f16, int64_t>>("W7_dtypes/W3_float16", {2048, 4096}, {1, 2});
  add<GatherElementsCase<int8_t, int64_t>>("W7_dtypes/W3_int8", {2048, 4096}, {1, 2});
  add<GatherElementsCase<f16, int64_t>>("W7_dtypes/W3_float16/one_pass", {2048, 4096}, {1}, kMicrosecond, kOnePass);
  add<GatherElementsCase<int8_t, int64_t>>("W7_dtypes/W3_int8/one_pass", {2048, 4096}, {1}, kMicrosecond, kOnePass);
  // W8: per-call overhead: Gather Axis 0 of 8 rows of [64, 64].
  add<GatherCase<float, int64_t>>("W8_small", {64, 64, 0, 8}, {1, 2}, kNanosecond);
  // W9: W1 and W3 over a transposed input view and a padded row pitch.
  add<GatherCase<float, int64_t>>("W9_strided/W1_transposed", {32768, 1024, 0, 16384, Layout::transposed}, {1, 2});
  add<GatherCase<float, int64_t>>("W9_strided/W1_padded", {32768, 1024, 0, 16384, Layout::padded}, {1, 2});
  // W1 with each output row 16 bytes past its input row modulo 4 KiB (Layout::shifted).
  add<GatherCase<float, int64_t>>("W9_strided/W1_shifted", {32768, 1024, 0, 16384, Layout::shifted}, {1});
  add<GatherElementsCase<float, int64_t>>("W9_strided/W3_transposed", {2048, 4096, Layout::transposed}, {1, 2});
  add<GatherElementsCase<float, int64_t>>("W9_strided/W3_padded", {2048, 4096, Layout::padded}, {1, 2});
  add<GatherElementsCase<float, int64_t>>("W9_strided/W3_padded/one_pass", {2048, 4096, Layout::padded}, {1},
                                          kMicrosecond, kOnePass);
  add<GatherElementsCase<float, int64_t>>("W9_strided/W3_transposed/one_pass", {2048, 4096, Layout::transposed}, {1},
                                          kMicrosecond, kOnePass);

  // W1, W3, W4 and W6 with 2 threads from an engine's pool, through each adapter that was built:
  // "<workload>/typed/<adapter>/threads:2" beside the default pool's "<workload>/typed/threads:2".
  auto on_executor = [](const std::string& adapter, dmlref::Executor& executor) {
    add_on_executor<GatherCase<float, int64_t>>("W1_gather_rows", {32768, 1024, 0, 16384}, 2, adapter, executor);
    add_on_executor<GatherElementsCase<float, int64_t>>("W3_gather_elements", {2048, 4096}, 2, adapter, executor);
    add_on_executor<ScatterCase<float, int64_t>>("W4_scatter_elements", {2048, 4096}, 2, adapter, executor);
    add_on_executor<ScatterNDCase<float, int64_t>>("W6_scatter_nd", {65536, 256, 16384, false}, 2, adapter, executor);
  };
#if defined(DMLREF_BENCH_TBB)
  static dmlref::TbbExecutor tbb_executor;  // TBB's default arena
  on_executor("tbb", tbb_executor);
#endif
#if defined(DMLREF_BENCH_OPENMP)
  static dmlref::OpenMPExecutor openmp_executor;  // teams of omp_get_max_threads()
  on_executor("openmp", openmp_executor);
#endif
  (void)on_executor;
}

}  // namespace
}  // namespace dmlref_bench

int main(int argc, char** argv) {
  // Defaults that flags on the command line or Google Benchmark's environment variables
  // override: a few repetitions, interleaved in random order so that load from other processes
  // spreads evenly over a workload and its memcpy, the console showing the aggregates.
  return dmlref_bench::benchmark_main(
      argc, argv,
      {{"BENCHMARK_REPETITIONS", "--benchmark_repetitions=5"},
       {"BENCHMARK_ENABLE_RANDOM_INTERLEAVING", "--benchmark_enable_random_interleaving=true"},
       {"BENCHMARK_DISPLAY_AGGREGATES_ONLY", "--benchmark_display_aggregates_only=true"}},
      dmlref_bench::register_all);
}
