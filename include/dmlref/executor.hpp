#ifndef DMLREF_EXECUTOR_HPP
#define DMLREF_EXECUTOR_HPP

#include <condition_variable>
#include "config.hpp"
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace dmlref {

/// An engine's parallel-for. dmlref splits a large call into `count` independent tasks and asks
/// the executor to run them; results never depend on how (or whether) they run concurrently.
class Executor {
 public:
  virtual ~Executor() = default;
  /// Runs task(context, i) for every i in [0, count), possibly concurrently, and returns when
  /// all have finished.
  virtual void run(int count, void (*task)(void* context, int index), void* context) noexcept = 0;
  /// How many tasks can usefully run at once (dmlref makes at most this many).
  virtual int concurrency() const noexcept = 0;
};

/// dmlref's default executor: `threads - 1` persistent workers plus the calling thread. Tasks are
/// assigned statically (task i to participant i mod threads). If another call is using the pool,
/// run() executes the tasks on the caller instead of waiting, so calls never block each other.
class ThreadPool final : public Executor {
 public:
  /// A pool of `threads` participants. If the system refuses a thread, the pool keeps those it
  /// got (the caller always participates), so creating it never fails.
  explicit ThreadPool(int threads) noexcept {
    for (int id = 1; id < threads; ++id) {
#if DMLREF_HAS_EXCEPTIONS
      try {
        workers_.emplace_back([this, id] { work(id); });
      } catch (...) {
        break;
      }
#else
      workers_.emplace_back([this, id] { work(id); });
#endif
    }
  }
  ~ThreadPool() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& worker : workers_) worker.join();
  }
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int concurrency() const noexcept override { return static_cast<int>(workers_.size()) + 1; }

  void run(int count, void (*task)(void*, int), void* context) noexcept override {
    std::unique_lock<std::mutex> busy(run_mutex_, std::try_to_lock);
    if (count <= 1 || workers_.empty() || !busy.owns_lock()) {
      for (int i = 0; i < count; ++i) task(context, i);
      return;
    }
    const int participants = concurrency();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      task_ = task;
      context_ = context;
      count_ = count;
      finished_ = 0;
      ++generation_;
    }
    wake_.notify_all();
    run_share(0, participants);
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return finished_ == static_cast<int>(workers_.size()); });
  }

 private:
  void run_share(int id, int participants) noexcept {
    for (int i = id; i < count_; i += participants) task_(context_, i);
  }

  void work(int id) noexcept {
    std::uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
      }
      run_share(id, concurrency());
      {
        std::lock_guard<std::mutex> lock(mutex_);
        ++finished_;
      }
      done_.notify_one();
    }
  }

  std::mutex run_mutex_;  // one job at a time
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> workers_;
  void (*task_)(void*, int) = nullptr;
  void* context_ = nullptr;
  int count_ = 0;
  int finished_ = 0;
  std::uint64_t generation_ = 0;
  bool stop_ = false;
};

/// The pool dmlref uses when Options::threads > 1 and no executor is given: one participant per
/// hardware thread, created on first use and kept for the life of the program.
inline ThreadPool& default_thread_pool() {
  static ThreadPool pool(static_cast<int>(std::thread::hardware_concurrency() > 0
                                              ? std::thread::hardware_concurrency()
                                              : 1));
  return pool;
}

}  // namespace dmlref

#endif  // DMLREF_EXECUTOR_HPP
