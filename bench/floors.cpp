// dmlref_floors: how much of a workload's time is the index check, and what reading the bytes
// that cannot be skipped costs, each as a ratio to the workload's memcpy baseline (as in
// dmlref_bench). Used in docs/performance.md to tell a slow kernel from a target below what this
// machine allows under dmlref's contract (indices are all checked before anything is written).
//
// For each workload: the default call (index check, then copy), the call with IndexPolicy::clamp
// (no separate check: the copy alone), and a plain read of the bytes every correct implementation
// must read once (the indices; for W2, the input, whose rows are read whole).
//
// Last, one core's read bandwidth by buffer size: where it falls is the last-level cache a
// guest really gets, which on a shared host can be far less than the size the machine reports.
//
//   dmlref_floors            medians of 15 runs, wall clock, 1 thread
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "dmlref/dmlref.hpp"
#include "read_all.hpp"

namespace {

using dmlref::IndexPolicy;
using dmlref::Options;
using dmlref::TensorView;

template <class F>
double median_ms(F&& f, int runs = 15) {
  std::vector<double> times;
  f();
  f();
  for (int i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    f();
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

/// A memcpy of bytes / 2 (its reads plus writes equal the workload's bytes), between buffers
/// that are written once up front, as dmlref_bench's baselines are.
double memcpy_ms(std::size_t bytes) {
  static std::vector<unsigned char> from(std::size_t{256} << 20, 1), to(std::size_t{256} << 20, 2);
  return median_ms([&] {
    std::memcpy(to.data(), from.data(), bytes / 2);
    std::atomic_signal_fence(std::memory_order_seq_cst);
  });
}

/// One plain read of every byte of [data, data + bytes).
double read_ms(const void* data, std::size_t bytes) {
  return median_ms([&] {
    volatile std::uint64_t sink = dmlref_bench::read_all(data, bytes);
    (void)sink;
  });
}

void report(const char* workload, std::size_t bytes, double checked, double clamped, const char* must_read,
            double read) {
  const double m = memcpy_ms(bytes);
  std::printf("%-20s memcpy %6.2f ms | checked %6.2f ms = %4.2f | clamp %6.2f ms = %4.2f | read %-8s %6.2f ms = %4.2f\n",
              workload, m, checked, checked / m, clamped, clamped / m, must_read, read, read / m);
}

template <class T>
void gather_elements(const char* name, std::mt19937_64& rng) {
  const std::int64_t rows = 2048, cols = 4096;
  std::vector<T> input(static_cast<std::size_t>(rows * cols), T{}), output(input.size());
  std::vector<std::int64_t> indices(input.size());
  for (auto& v : indices) v = static_cast<std::int64_t>(rng() % cols);
  auto run = [&](IndexPolicy policy) {
    Options options;
    options.index_policy = policy;
    (void)dmlref::try_gather_elements(TensorView<const T>(input.data(), {rows, cols}),
                                      TensorView<const std::int64_t>(indices.data(), {rows, cols}),
                                      TensorView<T>(output.data(), {rows, cols}), {1}, options);
  };
  report(name, 2 * output.size() * sizeof(T) + indices.size() * 8, median_ms([&] { run(IndexPolicy::error); }),
         median_ms([&] { run(IndexPolicy::clamp); }), "indices", read_ms(indices.data(), indices.size() * 8));
}

/// GB/s of one plain read of buffers from 8 MiB to 256 MiB, each read twice before it is timed.
void read_bandwidth_by_size() {
  std::printf("one core's read bandwidth by buffer size (GB/s):");
  for (std::size_t mib : {8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 128, 256}) {
    const std::vector<unsigned char> buffer(mib << 20, 1);
    std::printf(" %zu MiB %.1f%s", mib, static_cast<double>(buffer.size()) / read_ms(buffer.data(), buffer.size()) / 1e6,
                mib == 256 ? "\n" : ",");
  }
}

}  // namespace

int main() {
  std::mt19937_64 rng(42);
  std::printf("ratios to the memcpy of the workload's bytes / 2; wall-clock medians of 15 runs, 1 thread\n");
  {
    const std::int64_t n = 4096, picks = 1024;
    std::vector<float> input(static_cast<std::size_t>(n * n), 1.0f), output(static_cast<std::size_t>(n * picks));
    std::vector<std::int64_t> indices(static_cast<std::size_t>(picks));
    for (auto& v : indices) v = static_cast<std::int64_t>(rng() % n);
    auto run = [&](IndexPolicy policy) {
      Options options;
      options.index_policy = policy;
      (void)dmlref::try_gather(TensorView<const float>(input.data(), {n, n}),
                               TensorView<const std::int64_t>(indices.data(), {1, picks}),
                               TensorView<float>(output.data(), {n, picks}), {1, 1}, options);
    };
    report("W2 int64", 2 * output.size() * 4 + indices.size() * 8, median_ms([&] { run(IndexPolicy::error); }),
           median_ms([&] { run(IndexPolicy::clamp); }), "input", read_ms(input.data(), input.size() * 4));
  }
  gather_elements<float>("W3", rng);
  {
    const std::int64_t rows = 2048, cols = 4096;
    std::vector<float> input(static_cast<std::size_t>(rows * cols), 1.0f), output(input.size()), updates(input.size(), 2.0f);
    std::vector<std::int64_t> indices(input.size());
    for (std::int64_t r = 0; r < rows; ++r) {
      const auto row = indices.begin() + r * cols;
      std::iota(row, row + cols, 0);
      std::shuffle(row, row + cols, rng);
    }
    auto run = [&](IndexPolicy policy) {
      Options options;
      options.index_policy = policy;
      (void)dmlref::try_scatter(TensorView<const float>(input.data(), {rows, cols}),
                                TensorView<const std::int64_t>(indices.data(), {rows, cols}),
                                TensorView<const float>(updates.data(), {rows, cols}),
                                TensorView<float>(output.data(), {rows, cols}), {1}, options);
    };
    report("W4", 3 * input.size() * 4 + indices.size() * 8, median_ms([&] { run(IndexPolicy::error); }),
           median_ms([&] { run(IndexPolicy::clamp); }), "indices", read_ms(indices.data(), indices.size() * 8));
  }
  gather_elements<dmlref::float16>("W7 W3 float16", rng);
  gather_elements<std::int8_t>("W7 W3 int8", rng);
  read_bandwidth_by_size();
  return 0;
}
