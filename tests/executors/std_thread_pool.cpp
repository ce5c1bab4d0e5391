// The default pool's other way of starting its workers: std::thread (DMLREF_STD_THREAD, and every
// system without <pthread.h>). dmlref_tests covers the pthread_create way. A program of its own,
// without gtest: the two ways cannot share one program (ThreadPool is defined once per program).
#ifndef DMLREF_STD_THREAD
#  error "build this file with DMLREF_STD_THREAD"
#endif

#include <dmlref/dmlref.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const char* what, int line) {
  if (!ok) {
    std::printf("line %d: CHECK failed: %s\n", line, what);
    ++failures;
  }
}
#define CHECK(condition) check((condition), #condition, __LINE__)

}  // namespace

int main() {
  static_assert(!DMLREF_POSIX_THREADS, "DMLREF_STD_THREAD must select std::thread");
  {
    // Every task runs once, on more than one thread.
    dmlref::ThreadPool pool(3);
    CHECK(pool.concurrency() == 3);
    struct Context {
      std::atomic<int> runs[64];
      std::mutex mutex;
      std::set<std::thread::id> threads;
    } context;
    for (auto& r : context.runs) r = 0;
    for (int round = 0; round < 20 && context.threads.size() < 2; ++round)
      pool.run(64, [](void* c, int i) noexcept {
        auto* ctx = static_cast<Context*>(c);
        ++ctx->runs[i];
        std::this_thread::sleep_for(std::chrono::microseconds(50));
        std::lock_guard<std::mutex> lock(ctx->mutex);
        ctx->threads.insert(std::this_thread::get_id());
      }, &context);
    bool each_ran = true;
    for (auto& r : context.runs) each_ran = each_ran && r.load() >= 1 && r.load() == context.runs[0].load();
    CHECK(each_ran);
    CHECK(context.threads.size() >= 2);
  }
  {
    // A call split over the default pool gives the bytes of one thread.
    const std::int64_t rows = 4096, cols = 256;
    std::vector<float> input(static_cast<std::size_t>(rows * cols));
    for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i);
    std::vector<std::int64_t> indices(static_cast<std::size_t>(rows));
    for (std::int64_t r = 0; r < rows; ++r) indices[static_cast<std::size_t>(r)] = (r * 7919) % rows;
    std::vector<float> one(input.size()), split(input.size());
    const dmlref::TensorView<const float> in(input.data(), {rows, cols});
    const dmlref::TensorView<const std::int64_t> idx(indices.data(), {1, rows});
    dmlref::Options options;
    CHECK(dmlref::try_gather(in, idx, dmlref::TensorView<float>(one.data(), {rows, cols}), {0, 1}, options).ok());
    options.threads = 4;
    CHECK(dmlref::try_gather(in, idx, dmlref::TensorView<float>(split.data(), {rows, cols}), {0, 1}, options).ok());
    CHECK(std::memcmp(one.data(), split.data(), one.size() * sizeof(float)) == 0);
    CHECK(one[cols * 3] == input[static_cast<std::size_t>(indices[3] * cols)]);
  }
  std::printf("%s: %s\n", "std_thread_pool", failures == 0 ? "all checks passed" : "FAILED");
  return failures == 0 ? 0 : 1;
}
