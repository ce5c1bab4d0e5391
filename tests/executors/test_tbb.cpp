// The oneTBB adapter (include/dmlref/executor_tbb.hpp): results equal one thread for every
// operator; concurrency() is the arena's; a call uses no more threads than its arena has slots;
// calls made from inside TBB tasks neither deadlock nor run unrelated outer tasks while they wait.
// The tsan preset runs these tests too (tests/executors/tsan_tbb.supp says what it silences).
#include <dmlref/executor_tbb.hpp>

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <set>
#include <thread>
#include <vector>

#include "executors/executor_tests.hpp"

namespace {

namespace rc = random_cases;
using executor_tests::BigGather;
using executor_tests::Recorder;
using executor_tests::Watchdog;

class TbbExecutorOp : public ::testing::TestWithParam<rc::Op> {};

// In TBB's default arena (both cores here) and in an arena of 3 (more threads than cores:
// TBB allows only as many as there are cores unless told otherwise).
TEST_P(TbbExecutorOp, MatchesOneThreadAndTheOracle) {
  dmlref::TbbExecutor default_arena;
  executor_tests::expect_same_as_one_thread(GetParam(), default_arena, {2, 4});
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 4);
  tbb::task_arena arena(3);
  dmlref::TbbExecutor three(arena);
  executor_tests::expect_same_as_one_thread(GetParam(), three, {3});
}

std::string op_name(const ::testing::TestParamInfo<rc::Op>& info) { return rc::name(info.param); }
INSTANTIATE_TEST_SUITE_P(AllOperators, TbbExecutorOp, ::testing::ValuesIn(rc::all_ops), op_name);

TEST(TbbExecutor, ConcurrencyIsTheArenas) {
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 4);
  tbb::task_arena three(3), one(1);
  EXPECT_EQ(dmlref::TbbExecutor(three).concurrency(), 3);
  EXPECT_EQ(dmlref::TbbExecutor(one).concurrency(), 1);
  dmlref::TbbExecutor current;
  EXPECT_EQ(current.concurrency(), tbb::this_task_arena::max_concurrency()) << "outside any arena: the default one";
  EXPECT_EQ(three.execute([&] { return current.concurrency(); }), 3) << "inside an arena: that arena's";
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
    EXPECT_EQ(dmlref::TbbExecutor(three).concurrency(), 2) << "max_allowed_parallelism caps the arena";
    EXPECT_EQ(three.execute([&] { return current.concurrency(); }), 2);
  }
  // An arena of one slot: every task on the caller.
  dmlref::TbbExecutor single(one);
  Recorder recorder(single);
  std::atomic<int> ran{0};
  recorder.run(5, [](void* c, int) noexcept { static_cast<std::atomic<int>*>(c)->fetch_add(1); }, &ran);
  EXPECT_EQ(ran.load(), 5);
  EXPECT_EQ(recorder.threads(), (std::set<std::size_t>{executor_tests::this_thread_key()}));
}

/// Tasks that record their thread and hold on until a second thread has run one of them (or 20 s
/// have passed): a run() that spreads at all then shows at least two threads. They also record
/// the largest arena they ran in.
struct WaitForASecondThread {
  std::atomic<std::size_t> first{0};
  std::atomic<bool> second{false};
  std::atomic<int> arena_slots{0};
  static void task(void* context, int) noexcept {
    auto& w = *static_cast<WaitForASecondThread*>(context);
    const int slots = tbb::this_task_arena::max_concurrency();
    for (int seen = w.arena_slots.load(); seen < slots && !w.arena_slots.compare_exchange_weak(seen, slots);) {
    }
    const std::size_t me = executor_tests::this_thread_key();
    std::size_t expected = 0;
    if (!w.first.compare_exchange_strong(expected, me) && expected != me) w.second.store(true);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!w.second.load() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
};

// TBB may use 4 threads (global_control), more than the 2 cores. An arena of `slots` (2 or 3,
// whichever differs from the default arena, so that tasks show which arena ran them) must still
// run the tasks, on 2 to `slots` threads, whether given to the executor or entered by the caller.
TEST(TbbExecutor, UsesNoMoreThreadsThanItsArena) {
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 4);
  const int slots = tbb::this_task_arena::max_concurrency() == 2 ? 3 : 2;
  const auto at_most = static_cast<std::size_t>(slots);
  tbb::task_arena arena(slots);
  {
    dmlref::TbbExecutor executor(arena);
    Recorder recorder(executor);
    WaitForASecondThread w;
    recorder.run(12, &WaitForASecondThread::task, &w);
    EXPECT_EQ(recorder.missed(), 0);
    EXPECT_GE(recorder.threads().size(), 2u) << "an arena given to the executor";
    EXPECT_LE(recorder.threads().size(), at_most);
    EXPECT_EQ(w.arena_slots.load(), slots) << "tasks ran outside the executor's arena";
  }
  {
    dmlref::TbbExecutor current;
    Recorder recorder(current);
    WaitForASecondThread w;
    arena.execute([&] { recorder.run(12, &WaitForASecondThread::task, &w); });
    EXPECT_GE(recorder.threads().size(), 2u) << "called from inside an arena";
    EXPECT_LE(recorder.threads().size(), at_most);
    EXPECT_EQ(w.arena_slots.load(), slots) << "tasks ran outside the caller's arena";
  }
  // A dmlref call that could use 8 threads makes `slots` tasks, on at most as many threads.
  dmlref::TbbExecutor executor(arena);
  EXPECT_LE(executor_tests::split_gather(executor, slots).size(), at_most);
}

/// An engine's own loop: tbb::parallel_for with one TBB task per item (simple_partitioner),
/// calling fn(i). TBB hands its body to other threads inside the uninstrumented libtbb, so, as in
/// executor_tbb.hpp, the body reaches its state through atomic operations only (items are claimed
/// from a counter, not read from the range) and the caller waits for a count of finished items:
/// ThreadSanitizer sees this loop's handovers as well as dmlref's.
template <class Fn>
void engine_parallel_for(int count, const Fn& fn) {
  struct Loop {
    const Fn* fn;
    int count;
    dmlref::detail::TbbShared<int> next, finished;
  };
  class Body {
   public:
    explicit Body(Loop* loop) noexcept { loop_.set(loop); }
    Body(const Body& other) noexcept { loop_.set(other.loop_.get()); }
    Body& operator=(const Body&) = delete;
    void operator()(const tbb::blocked_range<int>&) const {
      Loop& loop = *loop_.get();
      const int i = loop.next.increment();
      if (i >= loop.count) return;
      (*loop.fn)(i);
      loop.finished.increment();
    }

   private:
    dmlref::detail::TbbShared<Loop*> loop_;
  };
  Loop loop{&fn, count, {}, {}};
  loop.next.set(0);
  loop.finished.set(0);
  tbb::parallel_for(tbb::blocked_range<int>(0, count, 1), Body(&loop), tbb::simple_partitioner());
  while (loop.finished.get() < count) std::this_thread::yield();
}

// An engine's parallel loop whose items each make a dmlref call on the caller's arena, here an
// arena of 4: every call must finish, be right, take the arena's concurrency and stay on its
// slots.
TEST(TbbExecutor, CallsFromInsideTbbTasksWork) {
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 4);
  tbb::task_arena arena(4);
  constexpr int kItems = 8;
  BigGather gather;
  std::vector<float> outputs[kItems];
  bool ok[kItems] = {};
  std::atomic<std::size_t> item_threads[kItems];
  dmlref::TbbExecutor current;
  Recorder recorder(current);
  {
    Watchdog watchdog(300, "dmlref calls from inside TBB tasks");
    arena.execute([&] {
      engine_parallel_for(kItems, [&](int i) {
        item_threads[i].store(executor_tests::this_thread_key(), std::memory_order_relaxed);
        dmlref::Options options;
        options.threads = 8;
        options.executor = &recorder;
        const dmlref::Status s = gather.run(outputs[i], options);
        ok[i] = s.ok() && gather.wrong(outputs[i]).empty();
      });
    });
  }
  for (int i = 0; i < kItems; ++i) EXPECT_TRUE(ok[i]) << "item " << i;
  EXPECT_EQ(recorder.calls(), kItems);
  EXPECT_EQ(recorder.largest(), 4) << "inside the arena, a call takes the arena's concurrency";
  EXPECT_EQ(recorder.missed(), 0);
  std::set<std::size_t> threads = recorder.threads();
  for (const auto& t : item_threads) threads.insert(t.load(std::memory_order_relaxed));
  EXPECT_LE(threads.size(), 4u) << "more threads than the arena's 4 slots";
}

// While a call made from inside an engine's task waits for its own tasks, its thread must not
// start another of the engine's items (that would nest calls on one stack, or run code that takes
// a lock the waiting caller holds). Inner tasks of 1 ms on an arena of 8 threads make the
// waiting common; without the isolation in executor_tbb.hpp, most rounds start an item on a
// waiting thread.
TEST(TbbExecutor, WaitingCallsRunOnlyTheirOwnTasks) {
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 8);
  tbb::task_arena arena(8);
  dmlref::TbbExecutor current;
  Recorder recorder(current);
  std::atomic<int> nested_starts{0};
  Watchdog watchdog(300, "runs from inside TBB tasks");
  for (int round = 0; round < 10; ++round) {
    arena.execute([&] {
      engine_parallel_for(16, [&](int) {
        thread_local int running_here = 0;
        if (running_here != 0) nested_starts.fetch_add(1);
        ++running_here;
        recorder.run(
            8, [](void*, int) noexcept { std::this_thread::sleep_for(std::chrono::milliseconds(1)); }, nullptr);
        --running_here;
      });
    });
  }
  EXPECT_EQ(nested_starts.load(), 0) << "an item started on a thread that was waiting inside run()";
  EXPECT_EQ(recorder.calls(), 160);
  EXPECT_EQ(recorder.missed(), 0);
  EXPECT_LE(recorder.threads().size(), 8u);
}

#if defined(DMLREF_TSAN_TBB_SUPPRESSIONS)
/// Two tasks of one run(), on two threads, write one int with nothing ordering them (they meet
/// through relaxed atomics, which order nothing for ThreadSanitizer). TSan does not promise to
/// see every race (it keeps a few accesses per 8 bytes and a bounded history): about one run in
/// forty misses a single one, so the race is made in several calls, each on a value of its own.
void race_in_two_tasks() {
  tbb::task_arena arena(2);
  dmlref::TbbExecutor executor(arena);
  struct alignas(64) Shared {
    std::atomic<int> arrived{0};
    alignas(64) int value = 0;
  };
  std::vector<Shared> rounds(8);
  for (Shared& shared : rounds) {
    executor.run(
        2,
        [](void* context, int i) noexcept {
          auto& s = *static_cast<Shared*>(context);
          s.arrived.fetch_add(1, std::memory_order_relaxed);
          const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
          while (s.arrived.load(std::memory_order_relaxed) < 2 && std::chrono::steady_clock::now() < deadline)
            std::this_thread::yield();
          s.value = i;  // the race
        },
        &shared);
  }
  std::exit(0);  // no report: the test fails
}

// tests/executors/tsan_tbb.supp silences reports inside TBB only: a race in the tasks' own code,
// run by the adapter, still halts the program with a report that names this file.
TEST(TbbExecutor, RacesInTasksAreStillReported) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const std::string options = std::string("halt_on_error=1:suppressions=") + DMLREF_TSAN_TBB_SUPPRESSIONS;
  ASSERT_EQ(setenv("TSAN_OPTIONS", options.c_str(), 1), 0);  // read by the child process
  EXPECT_EXIT(race_in_two_tasks(), ::testing::ExitedWithCode(66), "SUMMARY: ThreadSanitizer: data race .*test_tbb\\.cpp");
}
#endif

}  // namespace
