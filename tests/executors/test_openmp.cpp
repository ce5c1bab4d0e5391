// The OpenMP adapter (include/dmlref/executor_openmp.hpp): results equal one thread for every
// operator; concurrency() follows the OpenMP runtime and the executor's own limit; a call uses no
// more threads than that team; a call from inside a parallel region runs on its calling thread
// (no deadlock, no nested team), even where nested parallelism is enabled.
#include <dmlref/executor_openmp.hpp>

#include <omp.h>

#include <set>

#include "executors/executor_tests.hpp"

namespace {

namespace rc = random_cases;
using executor_tests::BigGather;
using executor_tests::Recorder;
using executor_tests::Watchdog;

/// Sets OpenMP's nthreads and max-active-levels ICVs for one test and restores them after.
class OmpSettings {
 public:
  OmpSettings(int threads, int max_active_levels)
      : threads_(omp_get_max_threads()), levels_(omp_get_max_active_levels()) {
    omp_set_num_threads(threads);
    omp_set_max_active_levels(max_active_levels);
  }
  ~OmpSettings() {
    omp_set_num_threads(threads_);
    omp_set_max_active_levels(levels_);
  }
  OmpSettings(const OmpSettings&) = delete;
  OmpSettings& operator=(const OmpSettings&) = delete;

 private:
  int threads_, levels_;
};

class OpenMPExecutorOp : public ::testing::TestWithParam<rc::Op> {};

// Teams of 2 and of 3 (more threads than the 2 cores).
TEST_P(OpenMPExecutorOp, MatchesOneThreadAndTheOracle) {
  OmpSettings settings(3, 1);
  dmlref::OpenMPExecutor two(2);
  executor_tests::expect_same_as_one_thread(GetParam(), two, {2, 4});
  dmlref::OpenMPExecutor all;
  executor_tests::expect_same_as_one_thread(GetParam(), all, {3});
}

std::string op_name(const ::testing::TestParamInfo<rc::Op>& info) { return rc::name(info.param); }
INSTANTIATE_TEST_SUITE_P(AllOperators, OpenMPExecutorOp, ::testing::ValuesIn(rc::all_ops), op_name);

TEST(OpenMPExecutor, ConcurrencyFollowsTheRuntime) {
  OmpSettings settings(3, 1);
  EXPECT_EQ(dmlref::OpenMPExecutor().concurrency(), 3) << "omp_get_max_threads()";
  EXPECT_EQ(dmlref::OpenMPExecutor(2).concurrency(), 2) << "the executor's own limit";
  EXPECT_EQ(dmlref::OpenMPExecutor(8).concurrency(), 3) << "never more than omp_get_max_threads()";
  EXPECT_EQ(dmlref::OpenMPExecutor(0).concurrency(), 3) << "0: no limit of its own";
  int inside[2] = {0, 0};
#pragma omp parallel num_threads(2)
  inside[omp_get_thread_num()] = dmlref::OpenMPExecutor().concurrency();
  EXPECT_EQ(inside[0], 1) << "inside a parallel region: the caller only";
  EXPECT_EQ(inside[1], 1);
  int inactive = 0;
#pragma omp parallel num_threads(1)
  inactive = dmlref::OpenMPExecutor().concurrency();
  EXPECT_EQ(inactive, 3) << "a region of one thread is not active: a call may still open a team";
}

// Static scheduling deals every team thread a task, so the counts are exact.
TEST(OpenMPExecutor, UsesNoMoreThreadsThanItsTeam) {
  OmpSettings settings(4, 1);
  auto nothing = [](void*, int) noexcept {};
  {
    dmlref::OpenMPExecutor executor(2);
    Recorder recorder(executor);
    recorder.run(12, nothing, nullptr);
    EXPECT_EQ(recorder.missed(), 0);
    EXPECT_EQ(recorder.threads().size(), 2u) << "OpenMPExecutor(2) under omp_set_num_threads(4)";
  }
  {
    dmlref::OpenMPExecutor executor;
    Recorder recorder(executor);
    recorder.run(12, nothing, nullptr);
    EXPECT_EQ(recorder.threads().size(), 4u) << "omp_set_num_threads(4)";
    recorder.run(3, nothing, nullptr);
    EXPECT_EQ(recorder.threads().size(), 4u) << "3 tasks: a team of 3 (of the same threads)";
  }
  // A dmlref call that could use 8 threads makes 2 tasks, on 2 threads.
  dmlref::OpenMPExecutor executor(2);
  EXPECT_EQ(executor_tests::split_gather(executor, 2).size(), 2u);
}

// Every thread of an engine's parallel region makes a dmlref call that could use 8 threads: each
// runs on its own thread, with nesting disabled (OpenMP's default) and enabled alike.
TEST(OpenMPExecutor, CallsFromInsideAParallelRegionRunOnTheCaller) {
  for (const int levels : {1, 4}) {
    SCOPED_TRACE("max-active-levels " + std::to_string(levels));
    OmpSettings settings(2, levels);
    BigGather gather;
    dmlref::OpenMPExecutor executor;
    Recorder recorder(executor);
    std::vector<float> outputs[4];
    bool ok[4] = {};
    std::size_t caller[4] = {};
    bool direct_on_caller[4] = {};
    {
      Watchdog watchdog(300, "dmlref calls from inside an OpenMP parallel region");
#pragma omp parallel for num_threads(2) schedule(static, 1)
      for (int i = 0; i < 4; ++i) {
        caller[i] = executor_tests::this_thread_key();
        dmlref::Options options;
        options.threads = 8;
        options.executor = &recorder;
        ok[i] = gather.run(outputs[i], options).ok() && gather.wrong(outputs[i]).empty();
        // A direct run() from inside the region stays on the caller too.
        Recorder direct(executor);
        direct.run(1 + i, [](void*, int) noexcept {}, nullptr);
        direct_on_caller[i] = direct.threads() == std::set<std::size_t>{caller[i]};
      }
    }
    for (int i = 0; i < 4; ++i) {
      EXPECT_TRUE(ok[i]) << "call " << i;
      EXPECT_TRUE(direct_on_caller[i]) << "run() " << i << " left its calling thread";
    }
    EXPECT_EQ(recorder.calls(), 0) << "a call inside the region was split over threads";
  }
}

}  // namespace
