#ifndef DMLREF_BENCH_SUPPORT_HPP
#define DMLREF_BENCH_SUPPORT_HPP

// Shared machinery of dmlref's benchmarks: deterministic data, large page-aligned buffers,
// tensors that know both API layers (typed views and runtime descriptors), the one-time result
// check, the memcpy baseline and registration. The workloads themselves are in dmlref_bench.cpp.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include <dmlref/dmlref.hpp>

#if defined(__linux__)
#  include <sys/mman.h>
#endif

namespace dmlref_bench {

// ---------------------------------------------------------------------------------------------
// Deterministic data

/// SplitMix64's output function: a good 64-bit mix, the same on every platform.
inline std::uint64_t mix64(std::uint64_t x) noexcept {
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// The bits of element `position` of a tensor filled with `seed`.
inline std::uint64_t generated_bits(std::uint64_t seed, std::int64_t position) noexcept {
  return mix64(seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(position) * 0xD1B54A32D192ED03ull + 1);
}

/// A seeded generator whose values do not depend on the standard library's distributions.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) noexcept : state_(seed) {}
  std::uint64_t next() noexcept { return mix64(state_ += 0x9E3779B97F4A7C15ull); }
  /// Uniform in [0, n) (the modulo bias is below 2^-40 for every n used here).
  std::int64_t below(std::int64_t n) noexcept {
    return static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(n));
  }
  /// Shuffles [first, last) (Fisher-Yates).
  template <class It>
  void shuffle(It first, It last) noexcept {
    const auto n = static_cast<std::int64_t>(last - first);
    for (std::int64_t i = n - 1; i > 0; --i) std::swap(first[i], first[below(i + 1)]);
  }

 private:
  std::uint64_t state_;
};

// Seeds: one per role, so that no two tensors hold the same bits.
inline constexpr std::uint64_t kInputSeed = 0x1001;
inline constexpr std::uint64_t kUpdatesSeed = 0x2002;
inline constexpr std::uint64_t kSentinelSeed = 0x3003;
inline constexpr std::uint64_t kIndexSeed = 0x4004;
inline constexpr std::uint64_t kSampleSeed = 0x5005;

/// Rows to compare in a result check: the first, the last and `count` seeded random ones
/// (all rows when there are few).
inline std::vector<std::int64_t> sample_rows(std::int64_t rows, int count = 64) {
  std::vector<std::int64_t> out;
  if (rows <= count + 2) {
    for (std::int64_t r = 0; r < rows; ++r) out.push_back(r);
    return out;
  }
  out.push_back(0);
  out.push_back(rows - 1);
  Rng rng(kSampleSeed + static_cast<std::uint64_t>(rows));
  for (int i = 0; i < count; ++i) out.push_back(rng.below(rows));
  return out;
}

/// 0, 1, ..., n - 1 in a seeded random order.
inline std::vector<std::int64_t> shuffled_rows(std::int64_t n) {
  std::vector<std::int64_t> rows(static_cast<std::size_t>(n));
  for (std::int64_t r = 0; r < n; ++r) rows[static_cast<std::size_t>(r)] = r;
  Rng rng(kIndexSeed);
  rng.shuffle(rows.begin(), rows.end());
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Memory

/// Bytes held by all live Buffers (what the cache below budgets).
inline std::size_t& allocated_bytes() noexcept {
  static std::size_t bytes = 0;
  return bytes;
}

/// DMLREF_BENCH_HUGEPAGES=1 asks Linux for transparent huge pages on large buffers (as numpy
/// does for its arrays), to tell TLB misses apart from kernel costs. Off by default: a plain
/// allocation is what most callers' buffers are.
inline bool use_huge_pages() noexcept {
  static const bool on = [] {
    const char* text = std::getenv("DMLREF_BENCH_HUGEPAGES");
    return text != nullptr && *text != '\0' && *text != '0';
  }();
  return on;
}

/// DMLREF_BENCH_OFFSET=N starts every buffer N bytes past its page (0 by default). malloc's large
/// blocks, numpy's arrays among them, start 16 bytes past a page: a row then ends mid-line.
inline std::size_t buffer_offset() noexcept {
  static const std::size_t bytes = [] {
    const char* text = std::getenv("DMLREF_BENCH_OFFSET");
    return text != nullptr ? static_cast<std::size_t>(std::strtoul(text, nullptr, 10)) % 4096 : std::size_t{0};
  }();
  return bytes;
}

/// A large, page-aligned (but for buffer_offset()), separately allocated byte buffer (move-only).
class Buffer {
 public:
  static constexpr std::size_t alignment = std::size_t{2} << 20;  // 2 MiB: huge-page aligned

  Buffer() = default;
  explicit Buffer(std::size_t bytes)
      : bytes_(bytes),
        data_(static_cast<unsigned char*>(
            ::operator new(round_up(bytes + buffer_offset()), std::align_val_t{alignment}))) {
    allocated_bytes() += bytes_;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (use_huge_pages() && bytes_ >= alignment) madvise(data_, round_up(bytes_ + buffer_offset()), MADV_HUGEPAGE);
#endif
  }
  Buffer(Buffer&& other) noexcept : bytes_(std::exchange(other.bytes_, 0)), data_(std::exchange(other.data_, nullptr)) {}
  Buffer& operator=(Buffer&& other) noexcept {
    std::swap(bytes_, other.bytes_);
    std::swap(data_, other.data_);
    return *this;
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() {
    if (data_ == nullptr) return;
    ::operator delete(data_, std::align_val_t{alignment});
    allocated_bytes() -= bytes_;
  }

  unsigned char* data() const noexcept { return data_ + buffer_offset(); }
  std::size_t size() const noexcept { return bytes_; }

 private:
  static std::size_t round_up(std::size_t bytes) noexcept {
    return (std::max<std::size_t>(bytes, 1) + alignment - 1) / alignment * alignment;
  }

  std::size_t bytes_ = 0;
  unsigned char* data_ = nullptr;
};

/// A tensor for both API layers: its sizes and element strides, its own storage, a typed view
/// and a runtime descriptor of it. Packed unless made with explicit strides.
class Tensor {
 public:
  /// A packed (row-major) tensor.
  Tensor(dmlref::DataType type, std::initializer_list<std::int64_t> sizes)
      : Tensor(type, std::vector<std::int64_t>(sizes), {}, 0) {}
  /// A view with explicit element strides over `storage_elements` elements of storage, which
  /// starts `shift_elements` elements into its buffer.
  Tensor(dmlref::DataType type, std::vector<std::int64_t> sizes, std::vector<std::int64_t> strides,
         std::int64_t storage_elements, std::int64_t shift_elements = 0)
      : type_(type), rank_(static_cast<std::uint32_t>(sizes.size())), packed_(strides.empty()) {
    const dmlref::Shape shape = dmlref::Shape::from(sizes.data(), sizes.size());
    const dmlref::Shape packed = dmlref::packed_strides(shape);
    for (std::uint32_t d = 0; d < rank_; ++d) {
      sizes_[d] = sizes[d];
      strides_[d] = packed_ ? packed[static_cast<int>(d)] : strides[d];
    }
    storage_elements_ = packed_ ? elements() : storage_elements;
    shift_bytes_ = static_cast<std::size_t>(shift_elements) * width();
    storage_ = Buffer(static_cast<std::size_t>(storage_elements_) * width() + shift_bytes_);
  }

  dmlref::DataType type() const noexcept { return type_; }
  std::size_t width() const noexcept { return dmlref::element_size(type_); }
  std::int64_t elements() const noexcept {
    std::int64_t n = 1;
    for (std::uint32_t d = 0; d < rank_; ++d) n *= sizes_[d];
    return n;
  }
  /// Bytes of the logical tensor (what an operator must read or write), not of its storage.
  std::int64_t bytes() const noexcept { return elements() * static_cast<std::int64_t>(width()); }
  std::int64_t size(int d) const noexcept { return sizes_[static_cast<std::size_t>(d)]; }

  unsigned char* data() const noexcept { return storage_.data() + shift_bytes_; }
  template <class T>
  T* data_as() const noexcept {
    return reinterpret_cast<T*>(data());
  }
  /// The element at `coordinate` (any rank up to 3 in these benchmarks).
  const unsigned char* element(std::initializer_list<std::int64_t> coordinate) const noexcept {
    std::int64_t offset = 0;
    std::size_t d = 0;
    for (std::int64_t c : coordinate) offset += c * strides_[d++];
    return data() + offset * static_cast<std::int64_t>(width());
  }

  /// Fills all storage (padding included) with the bits generated_bits(seed, position) gives.
  void fill(std::uint64_t seed) noexcept {
    const std::size_t w = width();
    unsigned char* p = data();
    for (std::int64_t i = 0; i < storage_elements_; ++i, p += w) {
      const std::uint64_t bits = generated_bits(seed, i);
      std::memcpy(p, &bits, w);  // little-endian: the low bytes
    }
  }
  /// True when the element at storage position `position` holds what fill(seed) put there.
  bool holds_generated(const unsigned char* element, std::uint64_t seed, std::int64_t position) const noexcept {
    const std::uint64_t bits = generated_bits(seed, position);
    return std::memcmp(element, &bits, width()) == 0;
  }
  bool same_element(const unsigned char* a, const unsigned char* b) const noexcept {
    return std::memcmp(a, b, width()) == 0;
  }

  dmlref::Shape shape() const noexcept { return dmlref::Shape::from(sizes_.data(), rank_); }
  dmlref::Shape stride_shape() const noexcept { return dmlref::Shape::from(strides_.data(), rank_); }

  template <class T>
  dmlref::TensorView<const T> view() const noexcept {
    return dmlref::TensorView<const T>(data_as<const T>(), shape(), stride_shape());
  }
  template <class T>
  dmlref::TensorView<T> mutable_view() const noexcept {
    return dmlref::TensorView<T>(data_as<T>(), shape(), stride_shape());
  }
  /// Descriptors as a DirectML caller builds them: Strides only when not packed.
  dmlref::TensorDesc desc() const noexcept {
    return {type_, rank_, sizes_.data(), packed_ ? nullptr : strides_.data(),
            static_cast<std::uint64_t>(storage_.size() - shift_bytes_), data()};
  }
  dmlref::MutableTensorDesc mutable_desc() const noexcept {
    return {type_, rank_, sizes_.data(), packed_ ? nullptr : strides_.data(),
            static_cast<std::uint64_t>(storage_.size() - shift_bytes_), data()};
  }

 private:
  dmlref::DataType type_;
  std::uint32_t rank_;
  bool packed_;
  std::array<std::int64_t, dmlref::max_dimension_count> sizes_{};
  std::array<std::int64_t, dmlref::max_dimension_count> strides_{};
  std::int64_t storage_elements_ = 0;
  std::size_t shift_bytes_ = 0;
  Buffer storage_;
};

/// How W9 lays out an input matrix [rows, cols].
enum class Layout {
  packed,      ///< row-major
  transposed,  ///< stored as [cols, rows], viewed as [rows, cols] with strides {1, rows}
  padded,      ///< row pitch cols + kRowPadding elements
  shifted,     ///< packed, starting kShiftBytes before a 4 KiB boundary (outputs start on one)
};
inline constexpr std::int64_t kRowPadding = 16;
/// Layout::shifted puts each output row this many bytes past its input row modulo 4 KiB: where
/// glibc's memcpy slows down on AMD Zen 3 (dmlref's copy_run, docs/performance.md).
inline constexpr std::int64_t kShiftBytes = 16;

inline const char* name(Layout layout) noexcept {
  switch (layout) {
    case Layout::packed: return "packed";
    case Layout::transposed: return "transposed";
    case Layout::padded: return "padded";
    case Layout::shifted: return "shifted";
  }
  return "?";
}

inline Tensor make_matrix(dmlref::DataType type, std::int64_t rows, std::int64_t cols, Layout layout) {
  switch (layout) {
    case Layout::transposed: return Tensor(type, {rows, cols}, {1, rows}, rows * cols);
    case Layout::padded: return Tensor(type, {rows, cols}, {cols + kRowPadding, 1}, rows * (cols + kRowPadding));
    case Layout::shifted: {
      const auto w = static_cast<std::int64_t>(dmlref::element_size(type));
      return Tensor(type, {rows, cols}, {cols, 1}, rows * cols, (4096 - kShiftBytes) / w);
    }
    case Layout::packed: break;
  }
  return Tensor(type, {rows, cols});
}

/// Fills `indices` (elements of type I) with seeded random indices in [0, bound).
template <class I>
void fill_indices(Tensor& indices, std::int64_t bound) {
  Rng rng(kIndexSeed);
  I* idx = indices.data_as<I>();
  const std::int64_t count = indices.elements();
  for (std::int64_t i = 0; i < count; ++i) idx[i] = static_cast<I>(rng.below(bound));
}

// ---------------------------------------------------------------------------------------------
// Cases and layers

/// A case's operands as both layers take them: typed views and runtime descriptors of its input,
/// indices and output, made once so that the timed loop only passes them on.
template <class T, class I>
struct Operands {
  Operands(const Tensor& input, const Tensor& indices, const Tensor& output)
      : in_view(input.view<T>()), idx_view(indices.view<I>()), out_view(output.mutable_view<T>()),
        in_desc(input.desc()), idx_desc(indices.desc()), out_desc(output.mutable_desc()) {}
  dmlref::TensorView<const T> in_view;
  dmlref::TensorView<const I> idx_view;
  dmlref::TensorView<T> out_view;
  dmlref::TensorDesc in_desc, idx_desc;
  dmlref::MutableTensorDesc out_desc;
};

/// The operands of a scatter: UpdatesTensor too.
template <class T, class I>
struct ScatterOperands : Operands<T, I> {
  ScatterOperands(const Tensor& input, const Tensor& indices, const Tensor& updates, const Tensor& output)
      : Operands<T, I>(input, indices, output), upd_view(updates.view<T>()), upd_desc(updates.desc()) {}
  dmlref::TensorView<const T> upd_view;
  dmlref::TensorDesc upd_desc;
};

enum class Layer { typed, dispatch };
inline const char* name(Layer layer) noexcept { return layer == Layer::typed ? "typed" : "dispatch"; }

/// Something large that benchmarks keep between runs: a workload's case, a memcpy's buffers.
class Cached {
 public:
  virtual ~Cached() = default;
};

/// What every workload case provides besides run_typed(options), run_dispatch(options) and
/// result() (non-virtual, so that the timed loop calls them directly).
class Case : public Cached {
 public:
  /// Makes the next call's result checkable: outputs get a sentinel, in-place buffers their
  /// initial contents (so that a call that writes nothing cannot pass).
  virtual void prepare_check() = 0;
  /// "" when the last call's result is right, otherwise what is wrong.
  virtual std::string check() const = 0;

  bool verified[2] = {false, false};  ///< per Layer: checked once, on the first run
};

/// What Case::check() reports: "<what> differs at [i, j, ...]".
inline std::string mismatch(const char* what, std::initializer_list<std::int64_t> coordinate) {
  std::string text = std::string(what) + " differs at [";
  bool first = true;
  for (std::int64_t c : coordinate) {
    text += (first ? "" : ", ") + std::to_string(c);
    first = false;
  }
  return text + "]";
}

/// Case::check() of a matrix output: each element [r, c] of the sampled rows must equal the element
/// `expected(r, c)` points to.
template <class Expected>
std::string check_rows(const Tensor& output, Expected expected) {
  const std::int64_t cols = output.size(1);
  for (std::int64_t r : sample_rows(output.size(0)))
    for (std::int64_t c = 0; c < cols; ++c)
      if (!output.same_element(output.element({r, c}), expected(r, c))) return mismatch("OutputTensor", {r, c});
  return "";
}

/// How a workload variant calls dmlref beyond its thread count.
struct Variant {
  bool one_pass = false;                 ///< Options::all_or_nothing off
  dmlref::Executor* executor = nullptr;  ///< Options::executor (nullptr: dmlref's default pool)
};

/// The Options of a run with `threads` threads (Options::threads; the default executor, dmlref's
/// own thread pool). A 2-thread variant of a workload is `{1}` -> `{1, 2}` on its line in
/// register_all().
inline dmlref::Options make_options(int threads, const Variant& variant = {}) {
  dmlref::Options options;
  options.threads = threads;
  options.all_or_nothing = !variant.one_pass;
  options.executor = variant.executor;
  return options;
}

/// Keeps built cases and memcpy buffers for the later benchmarks of their workload, so that setup
/// never repeats: with --benchmark_enable_random_interleaving (a default, see main) every workload
/// comes back once per repetition. Entries are dropped least recently used first while the
/// buffers exceed DMLREF_BENCH_CACHE_MIB (default 4096; the whole suite needs about 3500); the
/// entry in use is always kept.
class Cache {
 public:
  template <class T, class Make>
  T& get(const std::string& key, Make&& make) {
    ++clock_;
    for (Entry& e : entries_)
      if (e.key == key) {
        e.last_use = clock_;
        return static_cast<T&>(*e.value);  // keys name one workload: one type per key
      }
    entries_.push_back(Entry{key, make(), clock_});
    T& made = static_cast<T&>(*entries_.back().value);  // lives on the heap: stays valid below
    while (allocated_bytes() > budget() && entries_.size() > 1) {
      auto oldest = entries_.end();
      for (auto it = entries_.begin(); it != entries_.end(); ++it)
        if (it->last_use != clock_ && (oldest == entries_.end() || it->last_use < oldest->last_use)) oldest = it;
      if (oldest == entries_.end()) break;
      entries_.erase(oldest);
    }
    return made;
  }

  /// Drops every entry (a benchmark that must not keep earlier buffers alive).
  void clear() { entries_.clear(); }

  static std::size_t budget() {
    static const std::size_t bytes = [] {
      const char* text = std::getenv("DMLREF_BENCH_CACHE_MIB");
      const unsigned long long mib = text != nullptr ? std::strtoull(text, nullptr, 10) : 4096ull;
      return static_cast<std::size_t>(mib) << 20;
    }();
    return bytes;
  }

 private:
  struct Entry {
    std::string key;
    std::unique_ptr<Cached> value;
    std::uint64_t last_use;
  };
  std::vector<Entry> entries_;
  std::uint64_t clock_ = 0;
};

inline Cache& cache() {
  static Cache instance;
  return instance;
}

template <class C, Layer L>
dmlref::Status call(C& c, const dmlref::Options& options) noexcept {
  if constexpr (L == Layer::typed) {
    return c.run_typed(options);
  } else {
    return c.run_dispatch(options);
  }
}

/// The body of every typed and dispatch benchmark: check once, then time the whole API call.
template <class C, Layer L>
void run_case(benchmark::State& state, const std::string& key, const typename C::Spec& spec, int threads,
              std::int64_t bytes, const Variant& variant) {
  const dmlref::Options options = make_options(threads, variant);
  C& c = cache().get<C>(key, [&] { return std::make_unique<C>(spec); });
  bool& verified = c.verified[static_cast<int>(L)];
  if (!verified) {
    c.prepare_check();
    const dmlref::Status status = call<C, L>(c, options);
    if (!status) {
      state.SkipWithError(("the call failed: " + status.message()).c_str());
      return;
    }
    const std::string wrong = c.check();
    if (!wrong.empty()) {
      state.SkipWithError(("wrong result: " + wrong).c_str());
      return;
    }
    verified = true;
  }
  for (auto _ : state) {
    const dmlref::Status status = call<C, L>(c, options);
    if (DMLREF_UNLIKELY(!status.ok())) {
      state.SkipWithError(("the call failed: " + status.message()).c_str());
      break;
    }
    benchmark::DoNotOptimize(c.result());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}

// ---------------------------------------------------------------------------------------------
// The memcpy baseline

/// Source and destination of a memcpy baseline: separately allocated, page-faulted in.
class MemcpyBuffers final : public Cached {
 public:
  explicit MemcpyBuffers(std::size_t bytes) : bytes_(bytes), src_(bytes), dst_(bytes) {
    for (std::size_t i = 0; i < bytes; i += 8) {
      const std::uint64_t bits = generated_bits(kInputSeed, static_cast<std::int64_t>(i / 8));
      std::memcpy(src_.data() + i, &bits, std::min<std::size_t>(8, bytes - i));
    }
    std::memset(dst_.data(), 0xA5, bytes);
  }
  std::size_t size() const noexcept { return bytes_; }
  unsigned char* dst() const noexcept { return dst_.data(); }
  const unsigned char* src() const noexcept { return src_.data(); }
  bool verified = false;

 private:
  std::size_t bytes_;
  Buffer src_, dst_;
};

/// Copies half of the workload's byte count, so that its reads plus writes equal the workload's.
/// With `threads` > 1 the copy is split into that many contiguous parts run on dmlref's default
/// thread pool, the same threads a workload with Options::threads uses.
inline void run_memcpy(benchmark::State& state, const std::string& key, std::int64_t workload_bytes,
                       int threads = 1) {
  const auto n = static_cast<std::size_t>(workload_bytes / 2);
  MemcpyBuffers& buffers = cache().get<MemcpyBuffers>(key, [&] { return std::make_unique<MemcpyBuffers>(n); });
  unsigned char* const dst = buffers.dst();
  const unsigned char* const src = buffers.src();
  if (!buffers.verified) {
    std::memset(dst, 0xA5, n);
    std::memcpy(dst, src, n);
    if (std::memcmp(dst, src, n) != 0) {
      state.SkipWithError("memcpy copied wrong bytes");
      return;
    }
    buffers.verified = true;
  }
  struct Parts {
    unsigned char* dst;
    const unsigned char* src;
    std::size_t n;
    int count;
  } parts{dst, src, n, threads};
  auto copy_part = [](void* context, int i) noexcept {
    const Parts& p = *static_cast<const Parts*>(context);
    const std::size_t begin = p.n * static_cast<std::size_t>(i) / static_cast<std::size_t>(p.count);
    const std::size_t end = p.n * static_cast<std::size_t>(i + 1) / static_cast<std::size_t>(p.count);
    std::memcpy(p.dst + begin, p.src + begin, end - begin);
  };
  for (auto _ : state) {
    if (threads > 1) {
      dmlref::default_thread_pool().run(threads, copy_part, &parts);
    } else {
      std::memcpy(dst, src, n);
    }
    benchmark::DoNotOptimize(dst);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * workload_bytes);
}

// ---------------------------------------------------------------------------------------------
// Registration

/// "" for 1 thread, otherwise "/threads:N": the suffix of a benchmark's name.
inline std::string threads_suffix(int threads) {
  return threads == 1 ? "" : "/threads:" + std::to_string(threads);
}

/// Registers `body` as benchmark `name`, timed in real time (the calls use threads of their own)
/// and shown in `unit`.
template <class Body>
benchmark::internal::Benchmark* register_real_time(const std::string& name, benchmark::TimeUnit unit, Body&& body) {
  return benchmark::RegisterBenchmark(name.c_str(), std::forward<Body>(body))->Unit(unit)->UseRealTime();
}

/// Registers "<name>/typed", "<name>/dispatch" (with "/threads:N" for N != 1) for every thread
/// count, and "<name>/memcpy" once. C::bytes(spec) is the byte count the workload must move.
template <class C>
void add(const std::string& name, const typename C::Spec& spec, std::initializer_list<int> thread_counts,
         benchmark::TimeUnit unit = benchmark::kMicrosecond, const Variant& variant = {}) {
  const std::int64_t bytes = C::bytes(spec);
  for (int threads : thread_counts) {
    register_real_time(name + "/typed" + threads_suffix(threads), unit, [=](benchmark::State& state) {
      run_case<C, Layer::typed>(state, name, spec, threads, bytes, variant);
    });
    register_real_time(name + "/dispatch" + threads_suffix(threads), unit, [=](benchmark::State& state) {
      run_case<C, Layer::dispatch>(state, name, spec, threads, bytes, variant);
    });
  }
  for (int threads : thread_counts)
    register_real_time(name + "/memcpy" + threads_suffix(threads), unit, [=](benchmark::State& state) {
      run_memcpy(state, name + "/memcpy", bytes, threads);
    });
}

/// Registers "<name>/typed/<executor_name>/threads:N": the typed call on `executor` (an engine's
/// pool through one of dmlref's adapters) beside the default pool's "<name>/typed/threads:N";
/// ratios.py divides both by "<name>/memcpy/threads:N". Its result is checked once, before its
/// first timed loop, as run_case checks the default pool's.
template <class C>
void add_on_executor(const std::string& name, const typename C::Spec& spec, int threads,
                     const std::string& executor_name, dmlref::Executor& executor) {
  const std::int64_t bytes = C::bytes(spec);
  Variant variant;
  variant.executor = &executor;
  auto checked = std::make_shared<bool>(false);
  register_real_time(name + "/typed/" + executor_name + "/threads:" + std::to_string(threads), benchmark::kMicrosecond,
                     [=](benchmark::State& state) {
                       if (!*checked) {
                         C& c = cache().get<C>(name, [&] { return std::make_unique<C>(spec); });
                         c.prepare_check();
                         const dmlref::Status status = c.run_typed(make_options(threads, variant));
                         const std::string wrong = status ? c.check() : "the call failed: " + status.message();
                         if (!wrong.empty()) {
                           state.SkipWithError(("wrong result: " + wrong).c_str());
                           return;
                         }
                         *checked = true;
                       }
                       run_case<C, Layer::typed>(state, name, spec, threads, bytes, variant);
                     });
}

/// Registers "<name>/<floor>": what the machine needs at least for the workload's memory traffic,
/// C::run_floor() on the workload's own case (see docs/performance.md, "Floors, and where the
/// targets are missed"). Its bytes are the workload's, so bytes_per_second compares directly.
template <class C>
void add_floor(const std::string& name, const typename C::Spec& spec, const char* floor,
               benchmark::TimeUnit unit = benchmark::kMicrosecond) {
  const std::int64_t bytes = C::bytes(spec);
  register_real_time(name + "/" + floor, unit, [=](benchmark::State& state) {
    C& c = cache().get<C>(name, [&] { return std::make_unique<C>(spec); });
    for (auto _ : state) {
      c.run_floor();
      benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(state.iterations() * bytes);
  });
}

// ---------------------------------------------------------------------------------------------
// main()

/// A flag that main() puts before the command line's (which come later and so win), unless
/// environment variable `env` is set (Google Benchmark reads that instead); with no `env`, always.
struct DefaultFlag {
  const char* env;
  const char* flag;
};

/// The body of a benchmark program's main(): the default flags, then the command line's; then
/// `register_benchmarks()` and the run.
inline int benchmark_main(int argc, char** argv, std::initializer_list<DefaultFlag> defaults,
                          void (*register_benchmarks)()) {
  std::vector<std::string> flags;  // benchmark::Initialize takes char**, not const char**
  for (const DefaultFlag& d : defaults)
    if (d.env == nullptr || std::getenv(d.env) == nullptr) flags.emplace_back(d.flag);
  std::vector<char*> args{argv[0]};
  for (std::string& flag : flags) args.push_back(flag.data());
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  int count = static_cast<int>(args.size());
  args.push_back(nullptr);

  benchmark::Initialize(&count, args.data());
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;
  register_benchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace dmlref_bench

#endif  // DMLREF_BENCH_SUPPORT_HPP
