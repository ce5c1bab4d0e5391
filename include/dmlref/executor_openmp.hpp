#ifndef DMLREF_EXECUTOR_OPENMP_HPP
#define DMLREF_EXECUTOR_OPENMP_HPP

/// Optional OpenMP adapter: a dmlref::Executor over an OpenMP parallel loop.
///
/// This header (and only this one) needs OpenMP: compile the translation units that include it
/// with the compiler's OpenMP flag (g++ and clang++: -fopenmp; CMake: find_package(OpenMP) and
/// OpenMP::OpenMP_CXX). dmlref.hpp never includes it.
///
///   dmlref::OpenMPExecutor executor;      // teams of omp_get_max_threads() threads
///   dmlref::OpenMPExecutor executor(4);   // teams of at most 4
///   dmlref::Options options;
///   options.threads = 4;
///   options.executor = &executor;
///
/// - concurrency() outside any parallel region is omp_get_max_threads() (OMP_NUM_THREADS,
///   omp_set_num_threads), and at most the limit given to the constructor.
/// - Called from inside an active parallel region (omp_get_active_level() > 0), concurrency() is 1
///   and dmlref runs the call on the calling thread: the enclosing team already holds the cores,
///   and a nested team would put more threads on them, even where the program has enabled
///   nested parallelism. The calling thread never waits for another thread of its team, so such
///   a call cannot deadlock either.
/// - run() opens one parallel region of min(count, concurrency()) threads, the calling thread
///   among them; tasks are dealt out statically. Concurrent calls from different threads each get
///   a team of their own (as any OpenMP region started from those threads would).

#ifndef _OPENMP
#  error "dmlref/executor_openmp.hpp needs OpenMP: compile with -fopenmp (CMake: link OpenMP::OpenMP_CXX)"
#endif

#include <omp.h>

#include "executor.hpp"

namespace dmlref {

/// An Executor over OpenMP parallel loops (see the top of this header).
class OpenMPExecutor final : public Executor {
 public:
  /// Teams of up to omp_get_max_threads() threads.
  OpenMPExecutor() noexcept = default;
  /// Teams of at most `max_threads` threads (values below 1: no limit of its own).
  explicit OpenMPExecutor(int max_threads) noexcept : max_threads_(max_threads) {}

  int concurrency() const noexcept override {
    if (omp_get_active_level() > 0) return 1;  // inside a team: see the top of this header
    int threads = omp_get_max_threads();
    if (max_threads_ > 0 && max_threads_ < threads) threads = max_threads_;
    return threads > 1 ? threads : 1;
  }

  void run(int count, void (*task)(void*, int), void* context) noexcept override {
    const int available = count > 1 ? concurrency() : 1;
    const int team = count < available ? count : available;
    if (team <= 1) {
      for (int i = 0; i < count; ++i) task(context, i);
      return;
    }
#pragma omp parallel for num_threads(team) schedule(static)
    for (int i = 0; i < count; ++i) task(context, i);
  }

 private:
  int max_threads_ = 0;
};

}  // namespace dmlref

#endif  // DMLREF_EXECUTOR_OPENMP_HPP
