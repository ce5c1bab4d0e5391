// What the tests of the executor adapters share (test_tbb.cpp, test_openmp.cpp): random cases of
// every operator run through an adapter and compared with one thread and with the oracle; an
// Executor that records which threads ran its tasks; and a watchdog that turns a deadlock into a
// failure with a message instead of a hung test.
#pragma once

#include <gtest/gtest.h>

#include <dmlref/dmlref.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "support/oracle.hpp"
#include "support/random_cases.hpp"

namespace executor_tests {

namespace rc = random_cases;

inline std::string current_test() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return std::string(info->test_suite_name()) + "." + info->name();
}

inline std::size_t this_thread_key() noexcept { return std::hash<std::thread::id>{}(std::this_thread::get_id()); }

/// Forwards to another executor and records, per run(), the task count and the thread of every
/// task. Tasks store their thread in a slot of their own with a relaxed atomic store, so the
/// recording adds no synchronisation between them that could hide a race from ThreadSanitizer.
class Recorder final : public dmlref::Executor {
 public:
  explicit Recorder(dmlref::Executor& inner) noexcept : inner_(inner) {}

  int concurrency() const noexcept override { return inner_.concurrency(); }

  void run(int count, void (*task)(void*, int), void* context) noexcept override {
    std::vector<std::atomic<std::size_t>> ran(static_cast<std::size_t>(count));
    for (auto& slot : ran) slot.store(0, std::memory_order_relaxed);
    Call call{task, context, ran.data()};
    inner_.run(
        count,
        [](void* c, int i) noexcept {
          const Call& forwarded = *static_cast<const Call*>(c);
          forwarded.ran[i].store(this_thread_key(), std::memory_order_relaxed);
          forwarded.task(forwarded.context, i);
        },
        &call);
    std::lock_guard<std::mutex> lock(mutex_);
    ++calls_;
    largest_ = std::max(largest_, count);
    for (const auto& slot : ran) {
      const std::size_t thread = slot.load(std::memory_order_relaxed);
      if (thread == 0) ++missed_;  // a task that never ran
      threads_.insert(thread);
    }
  }

  int calls() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return calls_;
  }
  /// The largest task count of one run().
  int largest() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return largest_;
  }
  /// Tasks that run() returned without running (must be 0).
  int missed() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return missed_;
  }
  /// The distinct threads that ran tasks, over all runs.
  std::set<std::size_t> threads() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return threads_;
  }

 private:
  struct Call {
    void (*task)(void*, int);
    void* context;
    std::atomic<std::size_t>* ran;
  };

  dmlref::Executor& inner_;
  mutable std::mutex mutex_;
  int calls_ = 0, largest_ = 0, missed_ = 0;
  std::set<std::size_t> threads_;
};

/// Aborts the test program with a message if it is still alive `seconds` after construction:
/// a deadlocked call then fails at once and says where, instead of hanging until ctest's timeout.
class Watchdog {
 public:
  Watchdog(int seconds, std::string what)
      : thread_([this, seconds, what = std::move(what)] {
          std::unique_lock<std::mutex> lock(mutex_);
          if (!done_cv_.wait_for(lock, std::chrono::seconds(seconds), [this] { return done_; })) {
            std::fprintf(stderr, "%s: %s did not finish within %d s (deadlock?)\n", current_test().c_str(),
                         what.c_str(), seconds);
            std::fflush(stderr);
            std::abort();
          }
        }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    done_cv_.notify_one();
    thread_.join();
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable done_cv_;
  bool done_ = false;
  std::thread thread_;  // last: starts once the members above exist
};

#if defined(__OPTIMIZE__)
inline constexpr bool kUnoptimized = false;
#else
inline constexpr bool kUnoptimized = true;  // the sanitizer presets (-O0): many times slower
#endif

#if defined(__SANITIZE_THREAD__)
inline constexpr bool kThreadSanitizer = true;
#elif defined(__has_feature)
#  if __has_feature(thread_sanitizer)
inline constexpr bool kThreadSanitizer = true;
#  else
inline constexpr bool kThreadSanitizer = false;
#  endif
#else
inline constexpr bool kThreadSanitizer = false;
#endif

/// The big random cases of `op` (more than 1 MiB of work, so that threads split them): one per
/// construction of support/random_cases.hpp, scatters also with many duplicate indices, some in
/// place. Seeds come from the test's name. Unoptimized builds take only the first construction
/// (scatters: with and without duplicates).
inline std::vector<rc::Case> big_cases(rc::Op op) {
  std::vector<rc::Config> configs = rc::big_configs(op);
  if (kUnoptimized) configs.resize(rc::is_scatter(op) ? 2 : 1);
  std::vector<std::uint64_t> seeds = rc::case_seeds(rc::fnv(current_test()), static_cast<int>(configs.size()));
  std::vector<rc::Case> cases;
  for (std::size_t k = 0; k < seeds.size(); ++k) cases.push_back(rc::generate(op, seeds[k], configs[k % configs.size()]));
  return cases;
}

/// Runs every big case of `op` through `executor` with each thread count. The whole output buffer
/// (guards and padding included) must equal dmlref's on one thread, which must equal the oracle's
/// (not checked under ThreadSanitizer: slow there, and checked by every other build); the call
/// must have been split over min(threads, concurrency()) tasks, or not at all where the case says
/// it runs sequentially.
inline void expect_same_as_one_thread(rc::Op op, dmlref::Executor& executor, std::initializer_list<int> thread_counts) {
  int k = 0;
  for (const rc::Case& c : big_cases(op)) {
    SCOPED_TRACE(c.describe() + "\n  replay: DMLREF_TEST_SEED=" + rc::hex(c.seed) + " dmlref_tests --gtest_filter='" +
                 current_test() + "'");
    const rc::Layer layer = ++k % 2 ? rc::Layer::dispatch : rc::Layer::typed_storage;
    const rc::LibRun one = rc::run_library(c, layer, {});
    ASSERT_TRUE(one.status.ok()) << one.status.message();
    if (!kThreadSanitizer) {
      const rc::Run oracle = rc::run_oracle(c, oracle::Policy::error, false);
      ASSERT_TRUE(oracle.ok) << oracle.error;
      EXPECT_EQ(rc::first_difference(c, one.buffer, oracle.buffer), "") << "1 thread";
    }
    for (const int threads : thread_counts) {
      SCOPED_TRACE("threads " + std::to_string(threads));
      Recorder recorder(executor);
      dmlref::Options options;
      options.threads = threads;
      options.executor = &recorder;
      const rc::LibRun many = rc::run_library(c, layer, options);
      ASSERT_TRUE(many.status.ok()) << many.status.message();
      EXPECT_EQ(rc::first_difference(c, many.buffer, one.buffer), "") << "differs from 1 thread";
      EXPECT_EQ(recorder.missed(), 0) << "run() returned before running every task";
      if (c.expect_split) {
        EXPECT_EQ(recorder.largest(), std::min(threads, executor.concurrency())) << "the call was not split as expected";
      } else {
        EXPECT_EQ(recorder.calls(), 0) << "staged lines sharing an output line must run sequentially";
      }
    }
  }
}

/// A gather that dmlref splits over threads, with its expected output: input [rows, 512] floats,
/// every other row gathered in reverse order (1 MiB of output per 512 rows).
class BigGather {
 public:
  explicit BigGather(std::int64_t rows = 1024) : rows_(rows), input_(static_cast<std::size_t>(rows * kCols)) {
    for (std::size_t e = 0; e < input_.size(); ++e) input_[e] = static_cast<float>(e);
    for (std::int64_t r = rows - 1; r >= 0; r -= 2) indices_.push_back(r);
  }
  std::int64_t output_elements() const { return static_cast<std::int64_t>(indices_.size()) * kCols; }
  /// Runs the gather into `output` (resized and filled with -1 first).
  dmlref::Status run(std::vector<float>& output, const dmlref::Options& options) const {
    output.assign(static_cast<std::size_t>(output_elements()), -1.0f);
    const auto count = static_cast<std::int64_t>(indices_.size());
    return dmlref::try_gather(dmlref::TensorView<const float>(input_.data(), {rows_, kCols}),
                              dmlref::TensorView<const std::int64_t>(indices_.data(), {1, count}),
                              dmlref::TensorView<float>(output.data(), {count, kCols}), dmlref::GatherParams{0, 1},
                              options);
  }
  /// "" when `output` is the gather's result, otherwise the first wrong element.
  std::string wrong(const std::vector<float>& output) const {
    for (std::size_t i = 0; i < indices_.size(); ++i)
      for (std::int64_t c = 0; c < kCols; ++c) {
        const float expected = static_cast<float>(indices_[i] * kCols + c);
        if (output[i * kCols + static_cast<std::size_t>(c)] != expected)
          return "output[" + std::to_string(i) + ", " + std::to_string(c) + "]";
      }
    return "";
  }

 private:
  static constexpr std::int64_t kCols = 512;
  std::int64_t rows_;
  std::vector<float> input_;
  std::vector<std::int64_t> indices_;
};

/// Runs a BigGather that could use 8 threads on `executor`: its result must be right and the call
/// split into `tasks` tasks. Returns the threads that ran them.
inline std::set<std::size_t> split_gather(dmlref::Executor& executor, int tasks) {
  BigGather gather;
  Recorder recorder(executor);
  dmlref::Options options;
  options.threads = 8;
  options.executor = &recorder;
  std::vector<float> output;
  const dmlref::Status status = gather.run(output, options);
  EXPECT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(gather.wrong(output), "");
  EXPECT_EQ(recorder.largest(), tasks);
  EXPECT_EQ(recorder.missed(), 0);
  return recorder.threads();
}

}  // namespace executor_tests
