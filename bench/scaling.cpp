// How the cost grows with the size of a call: W1-style row gathers, W3-style element gathers and
// W6-style row scatters (docs/performance.md's workloads, reshaped by size) at output sizes from
// 16 KiB to 1 GiB in powers of 4, each with 1 and 2 threads, next to a memcpy of the same bytes
// with 1 and 2 threads. bench/plot_scaling.py turns the JSON into a picture and a table (it says
// how to run both).
//
//   <workload>/<output size>/typed[/threads:2]     the typed call, as dmlref_bench times it
//   <workload>/<output size>/memcpy[/threads:2]    half its bytes copied (reads + writes equal)
//
//   W1_rows      Gather, Axis 0: rows of 1024 float32 (4 KiB) from an input of twice as many
//                rows, int64 indices                       footprint ~3x the output
//   W3_elements  GatherElements, Axis 1: [rows, 4096] float32, int64 indices
//                                                          footprint ~4x the output
//   W6_scatter   ScatterND: rows of 256 float32 (1 KiB), a quarter of them replaced by distinct
//                updates, out of place                     footprint ~2.3x the output
//
// Each size's buffers are freed before the next size's are made (the largest size needs about
// 4 GiB at once), and benchmarks run in registration order, smallest first. Sizes from 64 MiB
// on run 2 repetitions, smaller ones 5, each of at least 0.1 s (--benchmark_repetitions and
// --benchmark_min_time override these), so the whole sweep takes a few minutes.

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "support.hpp"

#if defined(__unix__)
#  include <unistd.h>
#endif

namespace dmlref_bench {
namespace {

/// Output sizes: 16 KiB, 64 KiB, ..., 1 GiB.
std::vector<std::int64_t> output_sizes() {
  std::vector<std::int64_t> sizes;
  for (std::int64_t bytes = std::int64_t{16} << 10; bytes <= std::int64_t{1} << 30; bytes *= 4) sizes.push_back(bytes);
  return sizes;
}

std::string size_name(std::int64_t bytes) {
  if (bytes >= std::int64_t{1} << 30) return std::to_string(bytes >> 30) + "GiB";
  if (bytes >= std::int64_t{1} << 20) return std::to_string(bytes >> 20) + "MiB";
  return std::to_string(bytes >> 10) + "KiB";
}

// ---------------------------------------------------------------------------------------------
// The workloads. bytes() is what the call must read plus write, as in dmlref_bench.

/// Every workload's Spec: the size of its output.
struct OutputSize {
  std::int64_t output_bytes;
};

/// W1-style: Gather, Axis 0, of `count` rows of 1024 floats from an input of 2 x count rows.
class RowGather final : public Case {
 public:
  using Spec = OutputSize;
  static constexpr std::int64_t kCols = 1024;
  static std::int64_t count(const Spec& s) { return s.output_bytes / (kCols * 4); }
  static std::int64_t bytes(const Spec& s) { return 2 * s.output_bytes + count(s) * 8; }

  explicit RowGather(const Spec& s)
      : input_(dmlref::DataType::FLOAT32, {2 * count(s), kCols}),
        indices_(dmlref::DataType::INT64, {1, count(s)}),
        output_(dmlref::DataType::FLOAT32, {count(s), kCols}) {
    input_.fill(kInputSeed);
    fill_indices<std::int64_t>(indices_, 2 * count(s));
    output_.fill(kSentinelSeed);
  }
  dmlref::Status run_typed(const dmlref::Options& o) const noexcept {
    return dmlref::try_gather(ops_.in_view, ops_.idx_view, ops_.out_view, dmlref::GatherParams{0, 1}, o);
  }
  const void* result() const noexcept { return output_.data(); }
  void prepare_check() override { output_.fill(kSentinelSeed); }
  std::string check() const override {
    const auto* idx = indices_.data_as<std::int64_t>();
    return check_rows(output_, [&](std::int64_t r, std::int64_t c) { return input_.element({idx[r], c}); });
  }

 private:
  Tensor input_, indices_, output_;
  Operands<float, std::int64_t> ops_{input_, indices_, output_};
};

/// W3-style: GatherElements, Axis 1, of [rows, 4096] floats with int64 indices.
class ElementGather final : public Case {
 public:
  using Spec = OutputSize;
  static constexpr std::int64_t kCols = 4096;
  static std::int64_t rows(const Spec& s) { return s.output_bytes / (kCols * 4); }
  static std::int64_t bytes(const Spec& s) { return 2 * s.output_bytes + rows(s) * kCols * 8; }

  explicit ElementGather(const Spec& s)
      : input_(dmlref::DataType::FLOAT32, {rows(s), kCols}),
        indices_(dmlref::DataType::INT64, {rows(s), kCols}),
        output_(dmlref::DataType::FLOAT32, {rows(s), kCols}) {
    input_.fill(kInputSeed);
    fill_indices<std::int64_t>(indices_, kCols);
    output_.fill(kSentinelSeed);
  }
  dmlref::Status run_typed(const dmlref::Options& o) const noexcept {
    return dmlref::try_gather_elements(ops_.in_view, ops_.idx_view, ops_.out_view, dmlref::GatherElementsParams{1}, o);
  }
  const void* result() const noexcept { return output_.data(); }
  void prepare_check() override { output_.fill(kSentinelSeed); }
  std::string check() const override {
    const auto* idx = indices_.data_as<std::int64_t>();
    return check_rows(output_, [&](std::int64_t r, std::int64_t c) { return input_.element({r, idx[r * kCols + c]}); });
  }

 private:
  Tensor input_, indices_, output_;
  Operands<float, std::int64_t> ops_{input_, indices_, output_};
};

/// W6-style: ScatterND of rows of 256 floats: a quarter of the output's rows replaced by
/// distinct update rows, the rest copied from the input.
class RowScatter final : public Case {
 public:
  using Spec = OutputSize;
  static constexpr std::int64_t kCols = 256;
  static std::int64_t rows(const Spec& s) { return s.output_bytes / (kCols * 4); }
  static std::int64_t count(const Spec& s) { return rows(s) / 4; }
  static std::int64_t bytes(const Spec& s) { return 2 * s.output_bytes + count(s) * (kCols * 4 + 8); }

  explicit RowScatter(const Spec& s)
      : input_(dmlref::DataType::FLOAT32, {rows(s), kCols}),
        indices_(dmlref::DataType::INT64, {count(s), 1}),
        updates_(dmlref::DataType::FLOAT32, {count(s), kCols}),
        output_(dmlref::DataType::FLOAT32, {rows(s), kCols}),
        source_(static_cast<std::size_t>(rows(s)), -1) {
    input_.fill(kInputSeed);
    updates_.fill(kUpdatesSeed);
    output_.fill(kSentinelSeed);
    const std::vector<std::int64_t> targets = shuffled_rows(rows(s));
    auto* idx = indices_.data_as<std::int64_t>();
    for (std::int64_t k = 0; k < count(s); ++k) {
      idx[k] = targets[static_cast<std::size_t>(k)];
      source_[static_cast<std::size_t>(idx[k])] = k;
    }
  }
  dmlref::Status run_typed(const dmlref::Options& o) const noexcept {
    return dmlref::try_scatter_nd(ops_.in_view, ops_.idx_view, ops_.upd_view, ops_.out_view,
                                  dmlref::ScatterNDParams{2, 2}, o);
  }
  const void* result() const noexcept { return output_.data(); }
  void prepare_check() override { output_.fill(kSentinelSeed); }
  std::string check() const override {
    return check_rows(output_, [&](std::int64_t r, std::int64_t c) {
      const std::int64_t k = source_[static_cast<std::size_t>(r)];
      return k >= 0 ? updates_.element({k, c}) : input_.element({r, c});
    });
  }

 private:
  Tensor input_, indices_, updates_, output_;
  std::vector<std::int64_t> source_;  ///< the update row written to each output row, or -1
  ScatterOperands<float, std::int64_t> ops_{input_, indices_, updates_, output_};
};

// ---------------------------------------------------------------------------------------------

/// Frees the previous benchmark's buffers when a benchmark of other buffers starts, so that only
/// one size of one workload (or its memcpy) is in memory at a time.
void keep_only(const std::string& key) {
  static std::string current;
  if (key == current) return;
  cache().clear();
  current = key;
}

/// Repetitions by size: fewer of the large sizes, whose calls take long. False when the command
/// line or the environment sets the repetitions.
bool& own_repetitions() {
  static bool own = true;
  return own;
}

/// Registers benchmark `name` of output size `output_bytes`.
template <class Body>
void add_sized(const std::string& name, std::int64_t output_bytes, Body&& body) {
  benchmark::internal::Benchmark* b = register_real_time(name, benchmark::kMicrosecond, std::forward<Body>(body));
  if (own_repetitions()) b->Repetitions(output_bytes >= (std::int64_t{64} << 20) ? 2 : 5);
}

template <class C>
void add_sizes(const std::string& workload) {
  for (const std::int64_t size : output_sizes()) {
    const std::string name = workload + "/" + size_name(size);
    const typename C::Spec spec{size};
    const std::int64_t bytes = C::bytes(spec);
    for (const int threads : {1, 2})
      add_sized(name + "/typed" + threads_suffix(threads), size, [=](benchmark::State& state) {
        keep_only(name);
        run_case<C, Layer::typed>(state, name, spec, threads, bytes, Variant{});
      });
    for (const int threads : {1, 2})
      add_sized(name + "/memcpy" + threads_suffix(threads), size, [=](benchmark::State& state) {
        keep_only(name + "/memcpy");
        run_memcpy(state, name + "/memcpy", bytes, threads);
      });
  }
}

/// The cache sizes the C library reports, into the JSON's context for bench/plot_scaling.py
/// (Google Benchmark's own list reads /sys, which some virtual machines leave empty).
void add_cache_sizes() {
#if defined(_SC_LEVEL1_DCACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE) && defined(_SC_LEVEL3_CACHE_SIZE)
  const std::pair<const char*, int> caches[] = {
      {"cache_L1d_bytes", _SC_LEVEL1_DCACHE_SIZE}, {"cache_L2_bytes", _SC_LEVEL2_CACHE_SIZE}, {"cache_L3_bytes", _SC_LEVEL3_CACHE_SIZE}};
  for (const auto& [key, id] : caches) {
    const long bytes = sysconf(id);
    if (bytes > 0) benchmark::AddCustomContext(key, std::to_string(bytes));
  }
#endif
}

void register_all() {
  add_cache_sizes();
  add_sizes<RowGather>("W1_rows");
  add_sizes<ElementGather>("W3_elements");
  add_sizes<RowScatter>("W6_scatter");
}

}  // namespace
}  // namespace dmlref_bench

int main(int argc, char** argv) {
  // Registration order (smallest size first, one size's buffers at a time): random interleaving
  // would keep every size in memory. Only the aggregates on the console.
  // 0.1 s a repetition. Flags on the command line come later and win.
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]).rfind("--benchmark_repetitions", 0) == 0) dmlref_bench::own_repetitions() = false;
  if (std::getenv("BENCHMARK_REPETITIONS") != nullptr) dmlref_bench::own_repetitions() = false;
  return dmlref_bench::benchmark_main(
      argc, argv,
      {{nullptr, "--benchmark_enable_random_interleaving=false"},
       {"BENCHMARK_DISPLAY_AGGREGATES_ONLY", "--benchmark_display_aggregates_only=true"},
       {"BENCHMARK_MIN_TIME", "--benchmark_min_time=0.1"}},
      dmlref_bench::register_all);
}
