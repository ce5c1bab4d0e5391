// dmlref::Executor implementations for the thread tests (kernels/test_threads.cpp) and the fuzzer:
// orders and threads other than the default pool's, and a record of how a call was split.
#pragma once

#include <algorithm>
#include <thread>
#include <vector>

#include "dmlref/executor.hpp"

namespace executors {

/// An Executor of a given concurrency that counts its calls and its largest task count.
class Counting : public dmlref::Executor {
 public:
  explicit Counting(int concurrency) : concurrency_(concurrency) {}
  void run(int count, void (*task)(void*, int), void* context) noexcept final {
    ++calls;
    largest = std::max(largest, count);
    run_tasks(count, task, context);
  }
  int concurrency() const noexcept final { return concurrency_; }
  int calls = 0, largest = 0;

 private:
  virtual void run_tasks(int count, void (*task)(void*, int), void* context) noexcept = 0;
  int concurrency_;
};

/// Runs the tasks one after another on the caller, last first.
class Reverse final : public Counting {
 public:
  using Counting::Counting;

 private:
  void run_tasks(int count, void (*task)(void*, int), void* context) noexcept override {
    for (int i = count; i-- > 0;) task(context, i);
  }
};

/// Runs every task on a std::thread of its own (started last first).
class Spawn final : public Counting {
 public:
  using Counting::Counting;

 private:
  void run_tasks(int count, void (*task)(void*, int), void* context) noexcept override {
    std::vector<std::thread> threads;
    threads.reserve(static_cast<std::size_t>(count));
    for (int i = count; i-- > 0;) threads.emplace_back(task, context, i);
    for (std::thread& t : threads) t.join();
  }
};

/// Runs the tasks in order on the caller, and records each call's task count.
class Recording final : public dmlref::Executor {
 public:
  void run(int count, void (*task)(void*, int), void* context) noexcept override {
    counts.push_back(count);
    for (int i = 0; i < count; ++i) task(context, i);
  }
  int concurrency() const noexcept override { return 8; }
  std::vector<int> counts;
};

}  // namespace executors
