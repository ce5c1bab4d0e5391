#ifndef DMLREF_EXECUTOR_HPP
#define DMLREF_EXECUTOR_HPP

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <new>
#include <thread>

#include "config.hpp"

// The default pool starts its workers with pthread_create where there is one: std::thread's
// constructor is a template that costs every translation unit more to compile than the rest of
// the pool. Defining DMLREF_STD_THREAD (or a system without <pthread.h>) uses std::thread.
#if !defined(DMLREF_STD_THREAD) && (defined(__unix__) || defined(__APPLE__))
#  include <pthread.h>
#  define DMLREF_POSIX_THREADS 1
#else
#  define DMLREF_POSIX_THREADS 0
#endif

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
/// Waiting threads (workers for a call, the caller for its workers) spin for up to kSpin before
/// they block: waking a blocked thread costs tens of microseconds on a virtual machine, as much
/// as a call that splits only just moves (docs/performance.md, "How the cost grows with size").
/// A pool with more participants than the machine has hardware threads never spins: its spinning
/// threads would take the cores of those still working.
class ThreadPool final : public Executor {
 public:
  /// A pool of `threads` participants. If the system refuses a thread, the pool keeps those it
  /// got (the caller always participates), so creating it never fails.
  DMLREF_COLD explicit ThreadPool(int threads) noexcept
      : workers_(threads > 1 ? new (std::nothrow) Worker[static_cast<std::size_t>(threads - 1)] : nullptr),
        spins_(threads <= static_cast<int>(std::thread::hardware_concurrency())) {
    for (int id = 1; workers_ != nullptr && id < threads; ++id) {
      Worker& worker = workers_[worker_count_];
      worker.pool = this;
      worker.id = id;
      if (!start(worker)) break;
      ++worker_count_;
    }
  }
  DMLREF_COLD ~ThreadPool() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_.store(true, std::memory_order_release);
    }
    wake_.notify_all();
    for (int i = 0; i < worker_count_; ++i) join(workers_[i]);
    delete[] workers_;
  }
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int concurrency() const noexcept override { return worker_count_ + 1; }

  void run(int count, void (*task)(void*, int), void* context) noexcept override {
    std::unique_lock<std::mutex> busy(run_mutex_, std::try_to_lock);
    if (count <= 1 || worker_count_ == 0 || !busy.owns_lock()) {
      for (int i = 0; i < count; ++i) task(context, i);
      return;
    }
    const int participants = concurrency();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      task_ = task;
      context_ = context;
      count_ = count;
      finished_.store(0, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_release);  // publishes the job to spinning workers
    }
    wake_.notify_all();
    run_share(0, participants);
    auto all_finished = [&] { return finished_.load(std::memory_order_acquire) == worker_count_; };
    if (spin_until(all_finished)) return;
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, all_finished);
  }

  /// How long a waiting thread spins before it blocks.
  static constexpr std::chrono::microseconds kSpin{50};
  /// Whether waiting threads spin at all (no more participants than hardware threads).
  bool spins() const noexcept { return spins_; }

 private:
  struct Worker {
    ThreadPool* pool;
    int id;
#if DMLREF_POSIX_THREADS
    pthread_t thread;
#else
    std::thread thread;
#endif
  };

  /// Starts the worker's thread; false when the system refuses one.
  static bool start(Worker& worker) noexcept {
#if DMLREF_POSIX_THREADS
    auto entry = [](void* w) -> void* {
      static_cast<Worker*>(w)->pool->work(static_cast<Worker*>(w)->id);
      return nullptr;
    };
    return pthread_create(&worker.thread, nullptr, entry, &worker) == 0;
#elif DMLREF_HAS_EXCEPTIONS
    try {
      worker.thread = std::thread(&ThreadPool::work, worker.pool, worker.id);
      return true;
    } catch (...) {
      return false;
    }
#else
    worker.thread = std::thread(&ThreadPool::work, worker.pool, worker.id);
    return true;
#endif
  }
  static void join(Worker& worker) noexcept {
#if DMLREF_POSIX_THREADS
    pthread_join(worker.thread, nullptr);
#else
    worker.thread.join();
#endif
  }

  void run_share(int id, int participants) noexcept {
    for (int i = id; i < count_; i += participants) task_(context_, i);
  }

  /// Whether `done()` came true within kSpin (at once, where the pool does not spin), checked
  /// between pauses.
  template <class Done>
  bool spin_until(const Done& done) const noexcept {
    if (!spins_) return done();
    const auto until = std::chrono::steady_clock::now() + kSpin;
    for (;;) {
      for (int i = 0; i < 64; ++i) {
        if (done()) return true;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
      }
      if (std::chrono::steady_clock::now() >= until) return done();
    }
  }

  void work(int id) noexcept {
    std::uint64_t seen = 0;
    for (;;) {
      auto called = [&] {
        return stop_.load(std::memory_order_acquire) || generation_.load(std::memory_order_acquire) != seen;
      };
      if (!spin_until(called)) {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, called);
      }
      if (stop_.load(std::memory_order_acquire)) return;
      seen = generation_.load(std::memory_order_acquire);
      run_share(id, concurrency());
      {
        std::lock_guard<std::mutex> lock(mutex_);  // the caller may be blocked on done_
        finished_.fetch_add(1, std::memory_order_release);
      }
      done_.notify_one();
    }
  }

  std::mutex run_mutex_;  // one job at a time
  std::mutex mutex_;      // guards the transitions blocked threads wait for
  std::condition_variable wake_, done_;
  Worker* workers_;  // worker_count_ of them started
  const bool spins_;
  int worker_count_ = 0;
  void (*task_)(void*, int) = nullptr;  // the job: written before generation_ moves on
  void* context_ = nullptr;
  int count_ = 0;
  std::atomic<int> finished_{0};
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<bool> stop_{false};
};

/// The pool dmlref uses when Options::threads > 1 and no executor is given: one participant per
/// hardware thread, created on first use and kept for the life of the program.
DMLREF_COLD inline ThreadPool& default_thread_pool() {
  static ThreadPool pool(static_cast<int>(std::thread::hardware_concurrency() > 0
                                              ? std::thread::hardware_concurrency()
                                              : 1));
  return pool;
}

}  // namespace dmlref

#endif  // DMLREF_EXECUTOR_HPP
