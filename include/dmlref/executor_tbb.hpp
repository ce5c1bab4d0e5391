#ifndef DMLREF_EXECUTOR_TBB_HPP
#define DMLREF_EXECUTOR_TBB_HPP

/// Optional oneTBB adapter: a dmlref::Executor over tbb::parallel_for in a tbb::task_arena.
///
/// This header (and only this one) needs oneTBB 2021 or later (Debian: libtbb-dev; CMake:
/// find_package(TBB) and TBB::tbb). dmlref.hpp never includes it.
///
///   tbb::task_arena arena(4);
///   dmlref::TbbExecutor executor(arena);   // or dmlref::TbbExecutor executor; (the caller's arena)
///   dmlref::Options options;
///   options.threads = 4;
///   options.executor = &executor;
///
/// - concurrency() is the arena's max_concurrency() (the given arena, or else the arena of the
///   calling thread), and at most tbb::global_control's max_allowed_parallelism: a call never
///   makes more tasks than the arena has slots.
/// - run() runs the tasks in that arena; the calling thread takes part. Called from inside a TBB
///   task (an engine's own parallel_for), it nests: no new threads, no deadlock. The wait is
///   isolated (tbb::this_task_arena::isolate), so the calling thread runs only this call's tasks
///   while it waits, never an unrelated outer task that might take a lock the caller holds; and
///   it runs in a task_group_context of its own, so cancelling the engine's outer work never
///   skips one of dmlref's tasks.
/// - Concurrent calls may share one TbbExecutor. If TBB cannot start a task (it throws), the
///   calling thread runs whatever has not run: run() never throws and runs every task once.
///
/// ThreadSanitizer: Debian's libtbb is not instrumented, so TSan cannot see how TBB hands a task
/// to another thread. Everything this adapter hands over (the job, the claim counter, the count
/// of finished tasks) goes through atomic operations TSan sees, so it reports no race in dmlref's
/// code; reports inside TBB itself are silenced by tests/executors/tsan_tbb.supp (docs/dispatch.md,
/// "Threads and the executor hook").

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include <atomic>
#include <cstddef>
#include <thread>

#include "config.hpp"
#include "executor.hpp"

namespace dmlref {
namespace detail {

/// A value that threads share through atomic operations only. With GCC and Clang it is a plain
/// T that no constructor writes (a std::atomic's constructor is a plain write, which TSan would
/// report against another thread's atomic access that TBB's uninstrumented handover orders).
template <class T>
class TbbShared {
 public:
  TbbShared() noexcept {}  // leaves the value unwritten: set() comes first
  void set(T value) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    __atomic_store_n(&value_, value, __ATOMIC_RELEASE);
#else
    value_.store(value, std::memory_order_release);
#endif
  }
  T get() const noexcept {
#if defined(__GNUC__) || defined(__clang__)
    return __atomic_load_n(&value_, __ATOMIC_ACQUIRE);
#else
    return value_.load(std::memory_order_acquire);
#endif
  }
  /// Adds one and returns the value before.
  T increment() noexcept {
#if defined(__GNUC__) || defined(__clang__)
    return __atomic_fetch_add(&value_, 1, __ATOMIC_ACQ_REL);
#else
    return value_.fetch_add(1, std::memory_order_acq_rel);
#endif
  }

 private:
#if defined(__GNUC__) || defined(__clang__)
  T value_;
#else
  std::atomic<T> value_;
#endif
};

/// One run(): tasks are claimed from a counter, so that whoever runs (TBB's threads, or the
/// caller after TBB gave up) takes each task exactly once.
class TbbJob {
 public:
  TbbJob(void (*task)(void*, int), void* context, int count) noexcept : task_(task), context_(context), count_(count) {
    next_.set(0);  // release: the fields above reach every thread that claims a task
    finished_.set(0);
  }
  TbbJob(const TbbJob&) = delete;
  TbbJob& operator=(const TbbJob&) = delete;

  /// Runs unclaimed tasks until none are left.
  void work() noexcept {
    for (int i = next_.increment(); i < count_; i = next_.increment()) {
      task_(context_, i);
      finished_.increment();
    }
  }
  /// Returns once every task has finished (TBB has already waited for its threads: this is the
  /// acquire that makes their writes visible to the caller, and to TSan).
  void wait() const noexcept {
    while (finished_.get() < count_) std::this_thread::yield();
  }

 private:
  void (*task_)(void*, int);
  void* context_;
  int count_;
  TbbShared<int> next_, finished_;
};

/// The body of the parallel_for: each copy, on whichever thread TBB puts it, works on the job.
/// TBB copies it between threads, so its one field is copied with atomic operations too.
class TbbBody {
 public:
  explicit TbbBody(TbbJob* job) noexcept { job_.set(job); }
  TbbBody(const TbbBody& other) noexcept { job_.set(other.job_.get()); }
  TbbBody& operator=(const TbbBody&) = delete;
  void operator()(const tbb::blocked_range<int>&) const noexcept { job_.get()->work(); }

 private:
  TbbShared<TbbJob*> job_;
};

}  // namespace detail

/// An Executor over oneTBB: tasks run in a tbb::task_arena (see the top of this header).
class TbbExecutor final : public Executor {
 public:
  /// Runs tasks in the arena of the thread that calls run(): inside a TBB task, that task's arena;
  /// elsewhere, TBB's default arena.
  TbbExecutor() noexcept = default;
  /// Runs tasks in `arena`, which must outlive the executor.
  explicit TbbExecutor(tbb::task_arena& arena) noexcept : arena_(&arena) {}

  int concurrency() const noexcept override {
    int slots = arena_ != nullptr ? arena_->max_concurrency() : tbb::this_task_arena::max_concurrency();
    const std::size_t allowed = tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
    if (allowed < static_cast<std::size_t>(slots)) slots = static_cast<int>(allowed);
    return slots > 1 ? slots : 1;
  }

  void run(int count, void (*task)(void*, int), void* context) noexcept override {
    detail::TbbJob job(task, context, count);
    const int slots = count > 1 ? concurrency() : 1;
    if (slots > 1) {
      const int copies = count < slots ? count : slots;
#if DMLREF_HAS_EXCEPTIONS
      try {
#endif
        if (arena_ != nullptr) {
          arena_->execute([&] { spread(job, copies); });
        } else {
          spread(job, copies);
        }
#if DMLREF_HAS_EXCEPTIONS
      } catch (...) {  // TBB could not start (all) its tasks: the caller runs the rest below
      }
#endif
    }
    job.work();
    job.wait();
  }

 private:
  /// `copies` bodies working on the job, on up to that many threads of the current arena.
  static void spread(detail::TbbJob& job, int copies) {
    tbb::task_group_context own(tbb::task_group_context::isolated);
    tbb::this_task_arena::isolate([&] {
      tbb::parallel_for(tbb::blocked_range<int>(0, copies, 1), detail::TbbBody(&job), tbb::simple_partitioner(), own);
    });
  }

  tbb::task_arena* arena_ = nullptr;
};

}  // namespace dmlref

#endif  // DMLREF_EXECUTOR_TBB_HPP
