// Options::threads: a call split into shares (detail/execute.hpp) over the default pool and over
// custom Executors must equal the sequential, last-writer-wins oracle; scatters split only where
// no two shares write one element. The tsan preset builds this file alone and runs the tests
// whose names contain "Thread" under ThreadSanitizer (.ci/steps/25-tsan.sh). Last, the default
// pool itself (dmlref::ThreadPool): its waiting threads spin before they block, and calls must see
// every task's writes whichever way the threads waited.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "support/executors.hpp"
#include "support/random_checks.hpp"

namespace {

namespace rc = random_cases;
using random_checks::mismatch;
using random_checks::replay;
using random_checks::stream;
using rc::Layer;
using rc::Op;

class Threads : public ::testing::TestWithParam<Op> {};

// Cases with > 1 MiB of work, one per construction (see big_shapes), scatters also with many
// duplicate indices: threads 1, 2 and 4 through the default pool, a reversing executor and a
// thread-per-task executor must all equal the sequential, last-writer-wins oracle. The custom
// executors also show that the call was really split (or, for ScatterND's staged lines that share
// one output line, that it was not).
TEST_P(Threads, ThreadsAndExecutorsMatchSequentialOracle) {
  const Op op = GetParam();
  std::vector<rc::Config> configs = rc::big_configs(op);
  // Each configuration once; its number is in the seed's low byte, so a replay finds it again.
  std::vector<std::uint64_t> seeds = rc::case_seeds(stream(), static_cast<int>(configs.size()));
  if (!rc::replay_seed())
    for (std::size_t k = 0; k < seeds.size(); ++k) seeds[k] = (seeds[k] & ~std::uint64_t{0xFF}) | k;
  for (std::size_t k = 0; k < seeds.size(); ++k) {
    const rc::Config& cfg = configs[(seeds[k] & 0xFF) % configs.size()];
    const rc::Case c = rc::generate(op, seeds[k], cfg);
    SCOPED_TRACE(c.describe() + "\n  " + replay(seeds[k]));
    const rc::Run expected = rc::run_oracle(c, oracle::Policy::error, false);
    ASSERT_TRUE(expected.ok) << expected.error;
    EXPECT_EQ(mismatch(c, expected, Layer::typed_storage, {}), "");
    for (const int threads : {2, 4}) {
      SCOPED_TRACE("threads " + std::to_string(threads));
      dmlref::Options options;
      options.threads = threads;
      EXPECT_EQ(mismatch(c, expected, Layer::dispatch, options), "") << "default pool";
      executors::Reverse reverse(8);
      options.executor = &reverse;
      EXPECT_EQ(mismatch(c, expected, Layer::typed_storage, options), "") << "ReverseExecutor";
      executors::Spawn spawn(3);
      options.executor = &spawn;
      EXPECT_EQ(mismatch(c, expected, seeds[k] % 2 ? Layer::typed_native : Layer::dispatch, options), "")
          << "SpawnExecutor";
      if (c.expect_split) {
        EXPECT_EQ(reverse.largest, threads) << "the call was not split as expected";
        EXPECT_EQ(spawn.largest, std::min(threads, 3)) << "the call was not split as expected";
      } else {
        EXPECT_EQ(reverse.calls + spawn.calls, 0) << "staged lines sharing an output line must run sequentially";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllOperators, Threads, ::testing::ValuesIn(rc::all_ops), random_checks::op_name);

// A scatter's copy of InputTensor splits too: its outermost dimension after coalescing, into no
// more shares than that dimension has rows. Rows 0 and 2 of a [3, 100000] float tensor are
// replaced; padded rows (pitch 100003) stay three rows, packed ones coalesce into one line.
TEST(ScatterThreads, CopyOfTheInputSplitsItsOutermostDimension) {
  constexpr std::int64_t n = 100000;
  for (const std::int64_t pitch : {n + 3, n}) {
    SCOPED_TRACE("row pitch " + std::to_string(pitch));
    std::vector<float> input(static_cast<std::size_t>(3 * pitch)), output(input.size(), -1.0f);
    std::vector<float> updates(static_cast<std::size_t>(2 * n));
    for (std::size_t e = 0; e < input.size(); ++e) input[e] = static_cast<float>(e);
    for (std::size_t e = 0; e < updates.size(); ++e) updates[e] = -static_cast<float>(e) - 2.0f;
    const std::vector<std::int64_t> indices{2, 0};
    executors::Recording recorder;
    dmlref::Options options;
    options.threads = 4;
    options.executor = &recorder;
    const dmlref::Status s = dmlref::try_scatter_nd(
        dmlref::TensorView<const float>(input.data(), {3, n}, {pitch, 1}),
        dmlref::TensorView<const std::int64_t>(indices.data(), {2, 1}),
        dmlref::TensorView<const float>(updates.data(), {2, n}),
        dmlref::TensorView<float>(output.data(), {3, n}, {pitch, 1}), dmlref::ScatterNDParams{2, 2}, options);
    ASSERT_TRUE(s) << s.message();
    // The copy (3 rows, or 1.2 MB in 4 shares of >= 256 KiB), then the updates (2 rows, split by
    // the 3 targets of the tuple coordinate).
    EXPECT_EQ(recorder.counts, (std::vector<int>{pitch == n ? 4 : 3, 3}));
    for (std::int64_t r = 0; r < 3; ++r)
      for (std::int64_t j = 0; j < pitch; ++j) {
        const auto e = static_cast<std::size_t>(r * pitch + j);
        const float expected = j >= n ? -1.0f  // padding: untouched
                               : r == 1 ? input[e]
                                        : updates[static_cast<std::size_t>((r == 2 ? 0 : n) + j)];
        ASSERT_EQ(output[e], expected) << "row " << r << ", element " << j;
      }
  }
}

// One call of a pool: `count` tasks, each writing the call's number into its slot (plain ints:
// ThreadSanitizer sees whether run() publishes them to the caller) after `busy` of work, and
// noting its thread.
struct PoolCall {
  int call = 0;
  std::chrono::microseconds busy{0};
  std::vector<int> slots;
  std::mutex mutex;
  std::set<std::thread::id> threads;

  void run(dmlref::ThreadPool& pool, int count) {
    slots.assign(static_cast<std::size_t>(count), -1);
    pool.run(count, [](void* context, int i) noexcept {
      auto& self = *static_cast<PoolCall*>(context);
      const auto until = std::chrono::steady_clock::now() + self.busy;
      while (std::chrono::steady_clock::now() < until) {
      }
      self.slots[static_cast<std::size_t>(i)] = self.call;
      std::lock_guard<std::mutex> lock(self.mutex);
      self.threads.insert(std::this_thread::get_id());
    }, this);
  }
  bool all_written() const {
    return std::all_of(slots.begin(), slots.end(), [&](int v) { return v == call; });
  }
};

// Calls back to back find the workers still spinning: every task runs once, its write is seen by
// the caller when run() returns, and every participant takes part (tasks are dealt statically).
TEST(ThreadPool, BackToBackCallsRunEveryTaskAndPublishItsWrites) {
  dmlref::ThreadPool pool(3);
  ASSERT_EQ(pool.concurrency(), 3);
  PoolCall c;
  for (c.call = 0; c.call < 300; ++c.call) {
    c.busy = std::chrono::microseconds(c.call % 3 == 0 ? 20 : 0);
    c.run(pool, c.call % 7 + 2);
    ASSERT_TRUE(c.all_written()) << "call " << c.call;
  }
  EXPECT_EQ(c.threads.size(), 3u);
}

// Calls long after the last one find the workers blocked: they are woken, and still take part.
TEST(ThreadPool, CallsAfterTheWorkersBlockedWakeThem) {
  dmlref::ThreadPool pool(2);
  PoolCall c;
  for (c.call = 0; c.call < 4; ++c.call) {
    std::this_thread::sleep_for(dmlref::ThreadPool::kSpin * 40);
    c.threads.clear();
    c.run(pool, 2);
    ASSERT_TRUE(c.all_written()) << "call " << c.call;
    EXPECT_EQ(c.threads.size(), 2u) << "call " << c.call;
  }
}

// Callers on several threads share one pool: a caller that finds it busy runs its tasks itself.
// Each gets its own tasks' writes, whichever way its call ran.
TEST(ThreadPool, ConcurrentCallersEachRunTheirOwnTasks) {
  dmlref::ThreadPool pool(2);
  std::vector<std::thread> callers;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t)
    callers.emplace_back([&pool, &failures, t] {
      PoolCall c;
      for (c.call = t * 1000; c.call < t * 1000 + 100; ++c.call) {
        c.run(pool, 5);
        if (!c.all_written()) ++failures[static_cast<std::size_t>(t)];
      }
    });
  for (auto& caller : callers) caller.join();
  EXPECT_EQ(failures, std::vector<int>(4, 0));
}

// A pool with more participants than hardware threads never spins: its threads block at once,
// and its calls still run every task on every participant. Pools within the machine spin.
TEST(ThreadPool, SpinsOnlyWithinTheMachinesHardwareThreads) {
  const int hardware = static_cast<int>(std::thread::hardware_concurrency());
  dmlref::ThreadPool over(hardware + 1);
  EXPECT_FALSE(over.spins());
  PoolCall c;
  for (c.call = 0; c.call < 20; ++c.call) {
    c.run(over, 2 * (hardware + 1));
    ASSERT_TRUE(c.all_written()) << "call " << c.call;
  }
  EXPECT_EQ(static_cast<int>(c.threads.size()), hardware + 1);
  EXPECT_EQ(dmlref::ThreadPool(1).spins(), hardware >= 1);
  if (hardware >= 2) {
    EXPECT_TRUE(dmlref::ThreadPool(2).spins());
  }
}

// A pool is destroyed while its workers spin (right after a call) and while they block.
TEST(ThreadPool, DestroyedWhileItsWorkersSpinOrBlock) {
  for (const bool blocked : {false, true}) {
    dmlref::ThreadPool pool(3);
    PoolCall c;
    c.run(pool, 3);
    EXPECT_TRUE(c.all_written());
    if (blocked) std::this_thread::sleep_for(dmlref::ThreadPool::kSpin * 40);
  }
}

}  // namespace
