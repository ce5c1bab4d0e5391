// Random VALID cases for dmlref's six operators, reproducible from one 64-bit seed, and how a case
// runs through the oracle (support/oracle.hpp) and through both dmlref API layers.
//
// Part 1 (the generator) uses only the standard library and the oracle; nothing in it calls
// dmlref. Part 2 hands a case to the runner (support/runner.hpp), the only part that does.
//
// A case is: an operator, its attributes, a data type (all 11) and an index type (all 4), and for
// every tensor its sizes and a layout inside its own buffer: packed, permuted (transposed),
// padded (extra pitch per dimension), strided innermost dimension, an offset start, and for
// inputs zero strides (broadcast). Sizes of 1 get arbitrary strides. Every buffer has 64 guard
// bytes on each side, and everything (guards, padding, the output's initial contents) is filled
// with random bits, so a comparison of whole buffers sees any stray write.
//
// Seeds: a test derives its case seeds from its own name (case_seeds). DMLREF_TEST_SEED=<seed>
// replaces them with the one seed given (decimal or 0x-hex): a failing case prints it.
// DMLREF_TEST_SCALE=<k> runs k times as many cases (soak runs; a fraction thins them).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <dmlref/dmlref.hpp>

#include "support/op.hpp"
#include "support/oracle.hpp"
#include "support/runner.hpp"

namespace random_cases {

using Sizes = std::vector<std::int64_t>;

// =================================================================================================
// Part 1: seeds, types, layouts, the generator
// =================================================================================================

// ---- seeds ----

/// splitmix64's finaliser: spreads consecutive numbers over all 64 bits.
inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// FNV-1a over bytes (test names, buffers).
inline std::uint64_t fnv(const void* data, std::size_t n, std::uint64_t h = 0xCBF29CE484222325ull) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001B3ull;
  return h;
}
inline std::uint64_t fnv(const std::string& s) { return fnv(s.data(), s.size()); }

/// DMLREF_TEST_SEED: replay one case (decimal or 0x-hex).
inline std::optional<std::uint64_t> replay_seed() {
  const char* s = std::getenv("DMLREF_TEST_SEED");
  if (s == nullptr || *s == '\0') return std::nullopt;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s, &end, 0);
  if (end == s) return std::nullopt;
  return static_cast<std::uint64_t>(v);
}

/// DMLREF_TEST_SCALE: multiply the number of random cases (default 1; a fraction such as 0.25
/// thins them, at least one case per test: the sanitizer runs, where the oracle is slow).
inline double scale() {
  const char* s = std::getenv("DMLREF_TEST_SCALE");
  if (s == nullptr) return 1;
  const double v = std::strtod(s, nullptr);
  return v > 0 && v <= 1000 ? v : 1;
}

/// How many cases `count` is after DMLREF_TEST_SCALE; a test that expects some share of its cases
/// to be of a kind scales its expectation with this too.
inline int scaled(int count) {
  const double n = count * scale();
  return n < 1 ? 1 : static_cast<int>(n + 0.5);
}

/// The seeds of `count` cases of the stream `stream` (one per test), or only the replay seed.
inline std::vector<std::uint64_t> case_seeds(std::uint64_t stream, int count) {
  if (const auto s = replay_seed()) return {*s};
  std::vector<std::uint64_t> seeds;
  const int n = scaled(count);
  for (int i = 0; i < n; ++i) seeds.push_back(mix(mix(stream) + static_cast<std::uint64_t>(i)));
  return seeds;
}

inline std::string hex(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

/// mt19937_64 (its output sequence is fixed by the standard) with our own reductions, so that a
/// seed replays the same case with every standard library.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}
  std::uint64_t bits() { return engine_(); }
  /// Uniform in [0, n), n >= 1 (the modulo bias is irrelevant here).
  std::uint64_t below(std::uint64_t n) { return engine_() % n; }
  /// Uniform in [lo, hi].
  std::int64_t between(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(below(static_cast<std::uint64_t>(hi - lo) + 1));
  }
  bool chance(int percent) { return below(100) < static_cast<std::uint64_t>(percent); }
  template <class T>
  T pick(std::initializer_list<T> list) {
    return *(list.begin() + static_cast<std::ptrdiff_t>(below(list.size())));
  }
  template <class T>
  void shuffle(std::vector<T>& v) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(i)]);
  }

 private:
  std::mt19937_64 engine_;
};

// ---- operators and types ----

using harness::all_ops;
using harness::is_nd;
using harness::is_scatter;
using harness::name;
using harness::Op;

/// The data types, with DirectML's DML_TENSOR_DATA_TYPE values (= dmlref::DataType's).
enum class DType : std::uint32_t {
  FLOAT32 = 1, FLOAT16 = 2, UINT32 = 3, UINT16 = 4, UINT8 = 5, INT32 = 6,
  INT16 = 7, INT8 = 8, FLOAT64 = 9, UINT64 = 10, INT64 = 11,
};
inline constexpr DType all_dtypes[] = {DType::FLOAT32, DType::FLOAT16, DType::UINT32, DType::UINT16,
                                       DType::UINT8,   DType::INT32,   DType::INT16,  DType::INT8,
                                       DType::FLOAT64, DType::UINT64,  DType::INT64};

inline std::size_t size_of(DType t) {
  switch (t) {
    case DType::UINT8:
    case DType::INT8: return 1;
    case DType::FLOAT16:
    case DType::UINT16:
    case DType::INT16: return 2;
    case DType::FLOAT32:
    case DType::UINT32:
    case DType::INT32: return 4;
    case DType::FLOAT64:
    case DType::UINT64:
    case DType::INT64: return 8;
  }
  return 0;
}
inline const char* name(DType t) {
  switch (t) {
    case DType::FLOAT32: return "FLOAT32";
    case DType::FLOAT16: return "FLOAT16";
    case DType::UINT32: return "UINT32";
    case DType::UINT16: return "UINT16";
    case DType::UINT8: return "UINT8";
    case DType::INT32: return "INT32";
    case DType::INT16: return "INT16";
    case DType::INT8: return "INT8";
    case DType::FLOAT64: return "FLOAT64";
    case DType::UINT64: return "UINT64";
    case DType::INT64: return "INT64";
  }
  return "?";
}

/// Index types, with their DML_TENSOR_DATA_TYPE values.
enum class IType : std::uint32_t { INT32 = 6, INT64 = 11, UINT32 = 3, UINT64 = 10 };
inline constexpr IType all_itypes[] = {IType::INT32, IType::INT64, IType::UINT32, IType::UINT64};

inline std::size_t size_of(IType t) { return t == IType::INT32 || t == IType::UINT32 ? 4 : 8; }
inline bool is_signed(IType t) { return t == IType::INT32 || t == IType::INT64; }
inline const char* name(IType t) {
  switch (t) {
    case IType::INT32: return "INT32";
    case IType::INT64: return "INT64";
    case IType::UINT32: return "UINT32";
    case IType::UINT64: return "UINT64";
  }
  return "?";
}
inline oracle::IndexKind kind_of(IType t) {
  switch (t) {
    case IType::INT32: return oracle::IndexKind::i32;
    case IType::INT64: return oracle::IndexKind::i64;
    case IType::UINT32: return oracle::IndexKind::u32;
    case IType::UINT64: return oracle::IndexKind::u64;
  }
  return oracle::IndexKind::u64;
}

/// Bit patterns worth copying: NaN payloads (quiet and signalling, both signs), -0.0,
/// denormals, infinities, the largest finite values; integer extremes.
inline std::vector<std::uint64_t> special_bits(DType t) {
  switch (t) {
    case DType::FLOAT32:
      return {0x7FC12345u, 0x7F800001u, 0xFFC00000u, 0xFF812345u, 0x80000000u, 0x00000000u,
              0x00000001u, 0x807FFFFFu, 0x7F800000u, 0xFF800000u, 0x7F7FFFFFu, 0x3F800000u};
    case DType::FLOAT16:
      return {0x7C01u, 0x7E00u, 0xFE01u, 0x7DFFu, 0x8000u, 0x0000u,
              0x0001u, 0x83FFu, 0x7C00u, 0xFC00u, 0x7BFFu, 0x3C00u};
    case DType::FLOAT64:
      return {0x7FF8000000012345ull, 0x7FF0000000000001ull, 0xFFF8000000000000ull, 0x8000000000000000ull,
              0x0000000000000000ull, 0x0000000000000001ull, 0x800FFFFFFFFFFFFFull, 0x7FF0000000000000ull,
              0xFFF0000000000000ull, 0x7FEFFFFFFFFFFFFFull, 0x3FF0000000000000ull};
    case DType::INT8: return {0x80u, 0x7Fu, 0xFFu, 0x00u, 0x01u, 0x81u, 0x7Eu};
    case DType::UINT8: return {0x00u, 0xFFu, 0x01u, 0x80u, 0x7Fu, 0xFEu};
    case DType::INT16: return {0x8000u, 0x7FFFu, 0xFFFFu, 0x0000u, 0x0001u, 0x8001u, 0x7FFEu};
    case DType::UINT16: return {0x0000u, 0xFFFFu, 0x0001u, 0x8000u, 0x7FFFu, 0xFFFEu};
    case DType::INT32: return {0x80000000u, 0x7FFFFFFFu, 0xFFFFFFFFu, 0x0u, 0x1u, 0x80000001u, 0x7FFFFFFEu};
    case DType::UINT32: return {0x0u, 0xFFFFFFFFu, 0x1u, 0x80000000u, 0x7FFFFFFFu, 0xFFFFFFFEu};
    case DType::INT64:
      return {0x8000000000000000ull, 0x7FFFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFFFull, 0x0ull, 0x1ull,
              0x8000000000000001ull, 0x7FFFFFFFFFFFFFFEull};
    case DType::UINT64:
      return {0x0ull, 0xFFFFFFFFFFFFFFFFull, 0x1ull, 0x8000000000000000ull, 0x7FFFFFFFFFFFFFFFull,
              0xFFFFFFFFFFFFFFFEull};
  }
  return {0};
}

/// Stores the low `size` bytes of `bits` as an integer of that size (endianness-neutral).
inline void store_bits(unsigned char* p, std::size_t size, std::uint64_t bits) {
  switch (size) {
    case 1: {
      const auto v = static_cast<std::uint8_t>(bits);
      std::memcpy(p, &v, 1);
      return;
    }
    case 2: {
      const auto v = static_cast<std::uint16_t>(bits);
      std::memcpy(p, &v, 2);
      return;
    }
    case 4: {
      const auto v = static_cast<std::uint32_t>(bits);
      std::memcpy(p, &v, 4);
      return;
    }
    default: std::memcpy(p, &bits, 8);
  }
}
inline std::uint64_t load_bits(const unsigned char* p, std::size_t size) {
  switch (size) {
    case 1: return *p;
    case 2: {
      std::uint16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case 4: {
      std::uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    default: {
      std::uint64_t v;
      std::memcpy(&v, p, 8);
      return v;
    }
  }
}

// ---- shapes and layouts ----

// Element count and row-major stepping: the oracle's (plain loops, no library code).
using oracle::detail::count;
using oracle::detail::next;
inline std::int64_t dot(const Sizes& c, const Sizes& strides) {
  std::int64_t o = 0;
  for (std::size_t d = 0; d < c.size(); ++d) o += c[d] * strides[d];
  return o;
}
inline Sizes unravel(std::int64_t linear, const Sizes& sizes) {
  Sizes c(sizes.size(), 0);
  for (std::size_t d = sizes.size(); d-- > 0;) {
    c[d] = linear % sizes[d];
    linear /= sizes[d];
  }
  return c;
}
inline Sizes packed_strides(const Sizes& sizes) {
  Sizes strides(sizes.size(), 1);
  std::int64_t s = 1;
  for (std::size_t d = sizes.size(); d-- > 0;) {
    strides[d] = s;
    s *= sizes[d];
  }
  return strides;
}
inline Sizes ones(std::size_t n) { return Sizes(n, 1); }
inline Sizes cat(Sizes a, const Sizes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
inline std::string text(const Sizes& v) {
  std::string s = "{";
  for (std::size_t d = 0; d < v.size(); ++d) s += (d ? ", " : "") + std::to_string(v[d]);
  return s + "}";
}

/// Guard bytes before and after every buffer.
inline constexpr std::size_t kGuard = 64;

/// Where a tensor lives in its buffer.
struct Layout {
  Sizes sizes, strides;             ///< strides in elements
  std::int64_t offset = 0;          ///< elements from the buffer's first element to element 0
  std::int64_t buffer_elements = 0; ///< elements in the buffer (guards not counted)
  bool null_strides = false;        ///< pass Strides = nullptr / the packed TensorView constructor
  std::string style = "packed";
};

/// Σ (size - 1) · stride: the offset of the last addressed element.
inline std::int64_t last_offset(const Layout& l) {
  std::int64_t o = 0;
  for (std::size_t d = 0; d < l.sizes.size(); ++d) o += (l.sizes[d] - 1) * l.strides[d];
  return o;
}
/// TotalTensorSizeInBytes, exact: (last offset + 1) · element size.
inline std::uint64_t exact_bytes(const Layout& l, std::size_t es) {
  return static_cast<std::uint64_t>(last_offset(l) + 1) * es;
}
inline std::size_t buffer_bytes(const Layout& l, std::size_t es) {
  return 2 * kGuard + static_cast<std::size_t>(l.buffer_elements) * es;
}
/// Byte position of element 0 in the buffer.
inline std::size_t first_byte(const Layout& l, std::size_t es) {
  return kGuard + static_cast<std::size_t>(l.offset) * es;
}
/// Byte position of the element at coordinate c.
inline std::size_t byte_at(const Layout& l, std::size_t es, const Sizes& c) {
  return kGuard + static_cast<std::size_t>(l.offset + dot(c, l.strides)) * es;
}

/// A deterministic layout: dimensions nested in `order` (outermost first), the innermost with
/// element pitch `pitch`, every next one `pad` elements wider than the one inside it; `offset`
/// elements before element 0 and `slack` after the last. Size-1 dimensions get stride `junk`
/// (any value is valid for them).
inline Layout strided_layout(const Sizes& sizes, std::vector<int> order, std::int64_t pitch, std::int64_t pad,
                             std::int64_t offset, std::int64_t slack = 0, std::int64_t junk = -1) {
  Layout l;
  l.sizes = sizes;
  l.strides.assign(sizes.size(), 0);
  if (order.empty()) {
    order.resize(sizes.size());
    std::iota(order.begin(), order.end(), 0);
  }
  std::int64_t cur = pitch;
  for (std::size_t k = order.size(); k-- > 0;) {
    const auto d = static_cast<std::size_t>(order[k]);
    if (sizes[d] == 1 && junk >= 0) {
      l.strides[d] = junk;
      continue;
    }
    l.strides[d] = cur;
    cur = cur * sizes[d] + (sizes[d] == 1 ? 0 : pad);
  }
  l.offset = offset;
  l.buffer_elements = offset + last_offset(l) + 1 + slack;
  l.style = "strided(pitch " + std::to_string(pitch) + ", pad " + std::to_string(pad) + ")";
  return l;
}
inline Layout packed_layout(const Sizes& sizes) {
  Layout l = strided_layout(sizes, {}, 1, 0, 0);
  l.style = "packed";
  return l;
}
/// A layout whose dimension `dim` is the outermost in memory, with a stride of at least 64
/// elements (a transposed tensor, as far as that dimension goes).
inline Layout far_layout(Rng& rng, const Sizes& sizes, int dim) {
  std::vector<int> order{dim};
  for (int d = 0; d < static_cast<int>(sizes.size()); ++d)
    if (d != dim) order.push_back(d);
  const std::int64_t pad = rng.between(0, 2), offset = rng.chance(30) ? rng.between(1, 9) : 0;
  const std::int64_t slack = rng.between(0, 4);
  Layout l = strided_layout(sizes, order, 1, pad, offset, slack);
  for (std::int64_t pitch = 2; l.strides[static_cast<std::size_t>(dim)] < 64; ++pitch)
    l = strided_layout(sizes, order, pitch + (l.strides[static_cast<std::size_t>(dim)] < 16 ? 4 : 0), pad, offset, slack);
  l.style = "far-strided dimension " + std::to_string(dim) + " (stride " + std::to_string(l.strides[static_cast<std::size_t>(dim)]) + ")";
  return l;
}

/// Replaces the strides of the dimensions in `dims` by 0 (an input repeated along them).
inline Layout broadcast(Layout l, const std::vector<int>& dims) {
  for (int d : dims) l.strides[static_cast<std::size_t>(d)] = 0;
  l.buffer_elements = l.offset + last_offset(l) + 1;
  l.style += "+broadcast";
  return l;
}

enum class Style { random, packed, strided };

/// A random layout. Outputs (may_broadcast false) stay free of aliasing under dmlref's rule:
/// sorted by stride, each stride exceeds the extent of the smaller ones (every stride is at least
/// the previous stride times its size). `keep[d]`: dimension d must not be broadcast.
inline Layout random_layout(Rng& rng, const Sizes& sizes, bool may_broadcast, Style style = Style::random,
                            const std::vector<bool>& keep = {}) {
  const std::size_t D = sizes.size();
  Layout l;
  l.sizes = sizes;
  l.strides.assign(D, 0);
  // 0-39 packed, 40-54 permuted, 55-74 padded, 75-89 permuted+padded, 90-99 strided innermost.
  int kind = static_cast<int>(rng.below(100));
  if (style == Style::packed) kind = 0;
  if (style == Style::strided) kind = 55 + static_cast<int>(rng.below(45));
  const bool permute = (kind >= 40 && kind < 55) || (kind >= 75 && kind < 90);
  const bool pad = kind >= 55;
  const bool pitch = kind >= 90;
  std::vector<int> order(D);
  std::iota(order.begin(), order.end(), 0);
  if (permute) {
    if (rng.chance(30))
      std::reverse(order.begin(), order.end());
    else
      rng.shuffle(order);
  }
  const bool bcast = may_broadcast && rng.chance(30);
  std::int64_t cur = pitch ? rng.between(2, 3) : 1;
  bool any_broadcast = false;
  for (std::size_t k = D; k-- > 0;) {
    const auto d = static_cast<std::size_t>(order[k]);
    if (sizes[d] == 1) {
      l.strides[d] = kind == 0 ? cur : rng.pick<std::int64_t>({0, 1, cur, rng.between(2, 1000)});
      continue;
    }
    if (bcast && !(d < keep.size() && keep[d]) && rng.chance(40)) {
      l.strides[d] = 0;
      any_broadcast = true;
      continue;
    }
    l.strides[d] = cur;
    cur = cur * sizes[d] + (pad ? static_cast<std::int64_t>(rng.below(4)) : 0);
  }
  l.offset = rng.chance(30) ? rng.between(1, 16) : 0;
  const std::int64_t slack = rng.chance(30) ? rng.between(1, 8) : 0;
  l.buffer_elements = l.offset + last_offset(l) + 1 + slack;
  l.null_strides = l.strides == packed_strides(sizes) && rng.chance(50);
  l.style = kind == 0 ? "packed" : "";
  if (permute) l.style += "permuted";
  if (pad) l.style += std::string(l.style.empty() ? "" : "+") + (pitch ? "pitched+padded" : "padded");
  if (any_broadcast) l.style += "+broadcast";
  if (l.offset) l.style += "+offset";
  if (l.null_strides) l.style += "+null strides";
  return l;
}

// ---- the case ----

/// What the generator aims at (docs/internals.md, "Running the plan"): any shapes; staged lines
/// (Gather on the last axis, GatherElements/Scatter along the innermost axis, ND with K = 1 and no
/// block); blocks (ND and Gather blocks of >= 2 dimensions, strided, so CopyBlock, or contiguous,
/// so CopyRun); tiled (one-dimensional blocks whose indexed side is far-strided: copied in tiles of
/// one cache line, CopyStrided); rows (unstaged rows, innermost loop sizes that are not multiples
/// of 16); big (> 1 MiB of work, so that Options::threads splits it).
enum class Aim { any, staged, blocks, tiled, rows, big };
/// Index values: in range; "wild" (about a third out of range, for the clamp policy); or in
/// range except exactly one element.
enum class Values { valid, wild, one_out_of_range };
/// Scatter index values: random, no two updates to one element, or only a handful of targets.
enum class Duplicates { random, none, many };

inline const char* name(Aim a) {
  switch (a) {
    case Aim::any: return "any";
    case Aim::staged: return "staged";
    case Aim::blocks: return "blocks";
    case Aim::tiled: return "tiled";
    case Aim::rows: return "rows";
    case Aim::big: return "big";
  }
  return "?";
}

struct Config {
  Aim aim = Aim::any;
  Values values = Values::valid;
  Duplicates duplicates = Duplicates::random;  ///< scatters only
  int in_place_percent = 15;                   ///< scatters only
  std::int64_t max_elements = 20000;           ///< per tensor (not for Aim::big)
  std::optional<DType> dtype;                  ///< default: any of the 11
  std::optional<IType> itype;                  ///< default: any of the 4
  int variant = -1;                            ///< Aim::big: which construction; -1 random
};

struct Case {
  std::uint64_t seed = 0;
  Op op = Op::gather;
  DType dtype = DType::FLOAT32;
  IType itype = IType::INT32;
  std::uint32_t axis = 0, index_dimensions = 0;  ///< Gather / GatherElements / Scatter
  std::uint32_t r = 0, q = 0, B = 0;             ///< ND operators
  Layout input, indices, updates, output;        ///< output == input when in place
  bool in_place = false;
  std::vector<unsigned char> input_buf, indices_buf, updates_buf, output_buf;  ///< output_buf empty in place
  std::uint64_t inputs_hash = 0;  ///< of input_buf, indices_buf, updates_buf
  std::string aim;
  Values values = Values::valid;
  Duplicates duplicates = Duplicates::random;
  bool expect_split = true;  ///< Aim::big: dmlref should split it over threads

  std::size_t esize() const { return size_of(dtype); }
  std::uint64_t hash_inputs() const {
    std::uint64_t h = fnv(input_buf.data(), input_buf.size());
    h = fnv(indices_buf.data(), indices_buf.size(), h);
    return fnv(updates_buf.data(), updates_buf.size(), h);
  }
  /// The buffer that holds the output before the call.
  const std::vector<unsigned char>& initial_output() const { return in_place ? input_buf : output_buf; }

  std::string describe() const {
    std::string s = (seed != 0 ? "seed " + hex(seed) : std::string("built case")) + ": " + name(op) + " " + name(dtype) + ", indices " + name(itype) +
                    ", D=" + std::to_string(input.sizes.size());
    switch (op) {
      case Op::gather:
        s += ", Axis=" + std::to_string(axis) + ", IndexDimensions=" + std::to_string(index_dimensions);
        break;
      case Op::gather_elements:
      case Op::scatter: s += ", Axis=" + std::to_string(axis); break;
      case Op::gather_nd1: s += ", BatchDimensionCount=" + std::to_string(B); [[fallthrough]];
      case Op::gather_nd:
      case Op::scatter_nd:
        s += ", InputDimensionCount=" + std::to_string(r) + ", IndicesDimensionCount=" + std::to_string(q);
        break;
    }
    s += std::string(", aim ") + aim;
    if (in_place) s += ", IN PLACE";
    auto tensor = [&](const char* tn, const Layout& l) {
      s += std::string("\n  ") + tn + " sizes " + text(l.sizes) + " strides " + text(l.strides) + " offset " +
           std::to_string(l.offset) + " buffer " + std::to_string(l.buffer_elements) + " [" + l.style + "]";
    };
    tensor("InputTensor  ", input);
    tensor("IndicesTensor", indices);
    if (is_scatter(op)) tensor("UpdatesTensor", updates);
    tensor("OutputTensor ", output);
    return s;
  }
};

// ---- size parameters ----

/// Mostly small sizes: 1 (25%), 2-4, 5-9, 10-24, rarely 25-64.
inline std::int64_t small_size(Rng& rng) {
  const auto r = rng.below(100);
  if (r < 25) return 1;
  if (r < 65) return rng.between(2, 4);
  if (r < 88) return rng.between(5, 9);
  if (r < 97) return rng.between(10, 24);
  return rng.between(25, 64);
}

/// Innermost loop sizes that are not multiples of 16 (row batches end mid-batch).
inline std::int64_t odd_rows(Rng& rng) { return rng.pick<std::int64_t>({17, 23, 31, 33, 47, 63, 65, 100, 129}); }

/// Halves the largest free parameter until `fits()`; false if it never does.
template <class Fits>
bool shrink(const std::vector<std::int64_t*>& free, Fits&& fits) {
  while (!fits()) {
    std::int64_t* largest = nullptr;
    for (std::int64_t* p : free)
      if (largest == nullptr || *p > *largest) largest = p;
    if (largest == nullptr || *largest <= 1) return false;
    *largest = (*largest + 1) / 2;
  }
  return true;
}

/// Staged line length n (n · element size <= 32 KiB) and a row count s >= n / 8 for it.
inline std::int64_t staged_n(Rng& rng, std::size_t w, std::int64_t max_elements) {
  const std::int64_t limit = std::min<std::int64_t>(32768 / static_cast<std::int64_t>(w), max_elements / 4);
  const auto r = rng.below(100);
  if (r < 40) return rng.between(2, 64);
  if (r < 80) return rng.between(65, std::min<std::int64_t>(1024, limit));
  return rng.between(std::min<std::int64_t>(1025, limit), limit);
}
inline std::int64_t staged_rows(Rng& rng, std::int64_t n) {
  const std::int64_t lo = std::max<std::int64_t>(2, (n + 7) / 8);
  return rng.between(lo, lo * 3 + 4);
}

struct Shapes {
  Sizes in, idx, upd, out;
  std::uint32_t axis = 0, P = 0, r = 0, q = 0, B = 0;
  Style in_style = Style::random, out_style = Style::random, upd_style = Style::random;
  int far_in = -1, far_out = -1;  ///< a dimension of Input / Output to lay out far-strided (far_layout)
  bool expect_split = true;
};

inline std::int64_t largest_count(const Shapes& s) {
  return std::max({count(s.in), count(s.idx), s.upd.empty() ? 0 : count(s.upd), count(s.out)});
}

// ---- per operator shapes ----

inline bool gather_shapes(Rng& rng, const Config& cfg, std::size_t w, Shapes& s) {
  const int D = static_cast<int>(
      rng.between(cfg.aim == Aim::blocks ? 3 : (cfg.aim == Aim::rows || cfg.aim == Aim::tiled ? 2 : 1), 8));
  int axis = static_cast<int>(rng.below(static_cast<std::uint64_t>(D)));
  int P = static_cast<int>(rng.below(static_cast<std::uint64_t>(D + 1)));
  Sizes in(static_cast<std::size_t>(D));
  for (auto& v : in) v = small_size(rng);
  std::set<const std::int64_t*> fixed;
  Sizes idxA;
  auto make_idx = [&] {
    idxA.resize(static_cast<std::size_t>(P));
    for (auto& v : idxA) v = small_size(rng);
  };
  switch (cfg.aim) {
    case Aim::staged: {
      axis = D - 1 - (D >= 2 && rng.chance(25) ? 1 : 0);
      for (int d = axis + 1; d < D; ++d) in[static_cast<std::size_t>(d)] = 1;
      P = static_cast<int>(rng.between(1, D));
      make_idx();
      in[static_cast<std::size_t>(axis)] = staged_n(rng, w, cfg.max_elements);
      idxA.back() = staged_rows(rng, in[static_cast<std::size_t>(axis)]);
      for (int d = axis; d < D; ++d) fixed.insert(&in[static_cast<std::size_t>(d)]);
      fixed.insert(&idxA.back());
      break;
    }
    case Aim::blocks: {
      axis = static_cast<int>(rng.below(static_cast<std::uint64_t>(D - 2)));
      make_idx();
      std::vector<int> inner;
      for (int d = axis + 1; d < D; ++d) inner.push_back(d);
      rng.shuffle(inner);
      for (int k = 0; k < 2; ++k) {
        in[static_cast<std::size_t>(inner[static_cast<std::size_t>(k)])] = rng.between(2, 7);
        fixed.insert(&in[static_cast<std::size_t>(inner[static_cast<std::size_t>(k)])]);
      }
      s.in_style = rng.chance(70) ? Style::strided : Style::packed;  // CopyBlock, or CopyRun when packed
      s.out_style = s.in_style == Style::packed ? Style::packed : Style::random;
      break;
    }
    case Aim::tiled: {  // one block dimension (> 1), far-strided in the input
      axis = static_cast<int>(rng.below(static_cast<std::uint64_t>(D - 1)));
      make_idx();
      const int block = static_cast<int>(rng.between(axis + 1, D - 1));
      for (int d = axis + 1; d < D; ++d) {
        in[static_cast<std::size_t>(d)] = d == block ? rng.between(2, 150) : 1;
        fixed.insert(&in[static_cast<std::size_t>(d)]);
      }
      s.far_in = block;
      break;
    }
    case Aim::rows: {
      P = static_cast<int>(rng.between(1, D));
      make_idx();
      idxA.back() = odd_rows(rng);
      fixed.insert(&idxA.back());
      if (rng.chance(50)) {  // rows copying a block (CopyRun/CopyBlock)
        axis = static_cast<int>(rng.below(static_cast<std::uint64_t>(D - 1)));
        in[static_cast<std::size_t>(D - 1)] = rng.between(2, 5);
        fixed.insert(&in[static_cast<std::size_t>(D - 1)]);
      } else {  // single elements on the last axis, too few rows per line to stage
        axis = D - 1;
        in[static_cast<std::size_t>(axis)] = std::max<std::int64_t>(idxA.back() * 8 + 1, rng.between(1100, 3000));
        fixed.insert(&in[static_cast<std::size_t>(axis)]);
      }
      break;
    }
    case Aim::any:
    case Aim::big: make_idx(); break;
  }
  // The first P-1 entries of L = In[0,Axis) ++ IdxA ++ In[Axis+1,D) are dropped: they must be 1.
  std::vector<std::int64_t*> L;
  for (int d = 0; d < axis; ++d) L.push_back(&in[static_cast<std::size_t>(d)]);
  for (auto& v : idxA) L.push_back(&v);
  for (int d = axis + 1; d < D; ++d) L.push_back(&in[static_cast<std::size_t>(d)]);
  for (int e = 0; e + 1 < P; ++e) {
    if (fixed.count(L[static_cast<std::size_t>(e)]) && *L[static_cast<std::size_t>(e)] != 1) return false;
    *L[static_cast<std::size_t>(e)] = 1;
    fixed.insert(L[static_cast<std::size_t>(e)]);
  }
  std::vector<std::int64_t*> free;
  for (auto* p : L)
    if (!fixed.count(p)) free.push_back(p);
  if (!fixed.count(&in[static_cast<std::size_t>(axis)])) free.push_back(&in[static_cast<std::size_t>(axis)]);
  auto derive = [&] {
    s.in = in;
    s.idx = cat(ones(static_cast<std::size_t>(D - P)), idxA);
    const auto out = oracle::gather_output_sizes(s.in, s.idx, static_cast<std::uint32_t>(axis), static_cast<std::uint32_t>(P));
    if (!out) return false;
    s.out = *out;
    return true;
  };
  if (!shrink(free, [&] { return derive() && largest_count(s) <= cfg.max_elements; })) return false;
  s.axis = static_cast<std::uint32_t>(axis);
  s.P = static_cast<std::uint32_t>(P);
  return true;
}

/// GatherElements and Scatter: Idx equals In except along Axis.
inline bool elements_shapes(Rng& rng, const Config& cfg, std::size_t w, bool scatter, Shapes& s) {
  const bool unstaged_rows = cfg.aim == Aim::rows || cfg.aim == Aim::blocks || cfg.aim == Aim::tiled;
  const int D = static_cast<int>(rng.between(unstaged_rows ? 2 : 1, 8));
  int axis = static_cast<int>(rng.below(static_cast<std::uint64_t>(D)));
  Sizes in(static_cast<std::size_t>(D));
  for (auto& v : in) v = small_size(rng);
  std::int64_t m = small_size(rng);  // Idx[axis]
  std::set<const std::int64_t*> fixed;
  switch (cfg.aim) {
    case Aim::staged:
      axis = D - 1 - (D >= 2 && rng.chance(25) ? 1 : 0);
      for (int d = axis + 1; d < D; ++d) in[static_cast<std::size_t>(d)] = 1;
      in[static_cast<std::size_t>(axis)] = staged_n(rng, w, cfg.max_elements);
      m = staged_rows(rng, in[static_cast<std::size_t>(axis)]);
      for (int d = axis; d < D; ++d) fixed.insert(&in[static_cast<std::size_t>(d)]);
      fixed.insert(&m);
      break;
    case Aim::blocks:  // no blocks here: unstaged rows with strided tensors instead
    case Aim::tiled:
    case Aim::rows:
      axis = static_cast<int>(rng.below(static_cast<std::uint64_t>(D - 1)));
      in[static_cast<std::size_t>(D - 1)] = odd_rows(rng);
      fixed.insert(&in[static_cast<std::size_t>(D - 1)]);
      if (cfg.aim == Aim::blocks) s.in_style = s.out_style = s.upd_style = Style::strided;
      break;
    case Aim::any:
    case Aim::big: break;
  }
  std::vector<std::int64_t*> free;
  for (auto& v : in)
    if (!fixed.count(&v)) free.push_back(&v);
  if (!fixed.count(&m)) free.push_back(&m);
  const bool distinct = scatter && cfg.duplicates == Duplicates::none;
  auto derive = [&] {
    if (distinct) m = std::min(m, in[static_cast<std::size_t>(axis)]);
    s.in = in;
    s.idx = in;
    s.idx[static_cast<std::size_t>(axis)] = m;
    if (scatter) {
      s.upd = s.idx;
      s.out = s.in;
    } else {
      s.out = s.idx;
    }
    return true;
  };
  if (!shrink(free, [&] { return derive() && largest_count(s) <= cfg.max_elements; })) return false;
  s.axis = static_cast<std::uint32_t>(axis);
  return true;
}

/// GatherND (B = 0), GatherND1, ScatterND (B = 0).
inline bool nd_shapes(Rng& rng, const Config& cfg, std::size_t w, Op op, Shapes& s) {
  const int D = static_cast<int>(rng.between(cfg.aim == Aim::staged || cfg.aim == Aim::rows ? 2 : 1, 8));
  int r = 0, q = 0, B = 0, K = 0;
  bool found = false;
  for (int attempt = 0; attempt < 100 && !found; ++attempt) {
    r = static_cast<int>(rng.between(1, D));
    q = static_cast<int>(rng.between(1, D));
    B = op == Op::gather_nd1 ? static_cast<int>(rng.below(static_cast<std::uint64_t>(std::min(r, q)))) : 0;
    K = static_cast<int>(rng.between(1, r - B));
    switch (cfg.aim) {
      case Aim::staged:  // K = 1, no block, and a non-batch tuple dimension as the innermost loop
        K = 1;
        r = B + 1;
        if (q < B + 2) continue;
        break;
      case Aim::blocks:  // >= 2 block dimensions
        if (r - B - K < 2) continue;
        break;
      case Aim::tiled:  // one block dimension
        if (r - B - K != 1) continue;
        break;
      case Aim::rows:  // tuples in a line of odd length
        if (q - 1 <= B) continue;
        break;
      case Aim::any:
      case Aim::big: break;
    }
    found = (q - 1) + (r - B - K) <= D;
  }
  if (!found) return false;
  Sizes inA(static_cast<std::size_t>(r)), idxA(static_cast<std::size_t>(q));
  for (auto& v : inA) v = small_size(rng);
  for (auto& v : idxA) v = small_size(rng);
  idxA.back() = K;
  std::set<const std::int64_t*> fixed{&idxA.back()};
  const auto ub = static_cast<std::size_t>(B);
  switch (cfg.aim) {
    case Aim::staged:
      inA[ub] = staged_n(rng, w, cfg.max_elements);
      idxA[static_cast<std::size_t>(q - 2)] = staged_rows(rng, inA[ub]);
      fixed.insert(&inA[ub]);
      fixed.insert(&idxA[static_cast<std::size_t>(q - 2)]);
      break;
    case Aim::blocks: {
      std::vector<std::size_t> block;
      for (int d = B + K; d < r; ++d) block.push_back(static_cast<std::size_t>(d));
      rng.shuffle(block);
      for (std::size_t k = 0; k < 2; ++k) {
        inA[block[k]] = rng.between(2, 7);
        fixed.insert(&inA[block[k]]);
      }
      s.in_style = rng.chance(60) ? Style::strided : Style::packed;  // CopyBlock, or CopyRun when packed
      s.out_style = s.upd_style = s.in_style == Style::packed ? Style::packed : Style::random;
      break;
    }
    case Aim::tiled:  // the block (the last input dimension) far-strided on the indexed side
      inA.back() = rng.between(2, 150);
      fixed.insert(&inA.back());
      (op == Op::scatter_nd ? s.far_out : s.far_in) = D - 1;
      break;
    case Aim::rows:
      idxA[static_cast<std::size_t>(q - 2)] = odd_rows(rng);
      fixed.insert(&idxA[static_cast<std::size_t>(q - 2)]);
      break;
    case Aim::any:
    case Aim::big: break;
  }
  std::vector<std::int64_t*> free;
  for (auto& v : inA)
    if (!fixed.count(&v)) free.push_back(&v);
  for (int j = B; j < q - 1; ++j)
    if (!fixed.count(&idxA[static_cast<std::size_t>(j)])) free.push_back(&idxA[static_cast<std::size_t>(j)]);
  const bool distinct = op == Op::scatter_nd && cfg.duplicates == Duplicates::none;
  auto derive = [&] {
    for (std::size_t j = 0; j < ub; ++j) idxA[j] = inA[j];  // batch sizes agree
    if (distinct) {  // no more tuples than positions they can address
      std::int64_t cap = 1;
      for (int k = 0; k < K; ++k) cap *= inA[static_cast<std::size_t>(k)];
      while (true) {
        std::int64_t tuples = 1;
        for (int j = 0; j < q - 1; ++j) tuples *= idxA[static_cast<std::size_t>(j)];
        if (tuples <= cap) break;
        auto* largest = &idxA[0];
        for (int j = 0; j < q - 1; ++j)
          if (idxA[static_cast<std::size_t>(j)] > *largest) largest = &idxA[static_cast<std::size_t>(j)];
        *largest = (*largest + 1) / 2;
      }
    }
    s.in = cat(ones(static_cast<std::size_t>(D - r)), inA);
    s.idx = cat(ones(static_cast<std::size_t>(D - q)), idxA);
    const auto out = oracle::gather_nd1_output_sizes(s.in, s.idx, static_cast<std::uint32_t>(r),
                                                     static_cast<std::uint32_t>(q), static_cast<std::uint32_t>(B));
    if (!out) return false;
    if (op == Op::scatter_nd) {
      s.upd = *out;
      s.out = s.in;
    } else {
      s.out = *out;
    }
    return true;
  };
  if (!shrink(free, [&] { return derive() && largest_count(s) <= cfg.max_elements; })) return false;
  s.r = static_cast<std::uint32_t>(r);
  s.q = static_cast<std::uint32_t>(q);
  s.B = static_cast<std::uint32_t>(B);
  return true;
}

/// Cases with more than 1 MiB of work (dmlref splits at 2 x 256 KiB): that many bytes of the dense
/// tensor (gather: output; scatter: updates). Each variant aims at one way of splitting.
inline void big_shapes(Rng& rng, Op op, int variant, std::size_t w, Shapes& s) {
  // > 1 MiB, so that 4 threads get 4 shares of >= 256 KiB.
  const auto target = static_cast<std::int64_t>(1100 * 1024 / w);
  // `dims` sizes with an odd product >= needed: with odd lines of an odd number of rows, the
  // shares of a split (rows · i / shares) begin and end mid-line.
  auto fill_outer = [&](std::int64_t needed, int dims) {
    Sizes v(static_cast<std::size_t>(dims), 1);
    for (int k = 1; k < dims; ++k) v[static_cast<std::size_t>(k)] = rng.pick<std::int64_t>({1, 3});
    const std::int64_t rest = count(v);
    v[0] = (needed + rest - 1) / rest | 1;
    return v;
  };
  switch (op) {
    case Op::gather: {
      if (variant == 0) {  // staged rows on the last axis, split by lines
        const std::int64_t n = rng.between(300, 1000), m = rng.between(n / 2, n) | 1;
        const int D = static_cast<int>(rng.between(2, 4));
        s.in = cat(fill_outer((target + m - 1) / m, D - 1), {n});
        s.idx = cat(ones(static_cast<std::size_t>(D - 1)), {m});
        s.axis = static_cast<std::uint32_t>(D - 1);
        s.P = 1;
      } else if (variant == 3) {  // rows copying a 1-D block from a transposed input (tiles)
        const std::int64_t block = rng.between(20, 60), m = (target + block - 1) / block;
        s.in = {rng.between(20, 60), block};
        s.idx = {1, m};
        s.axis = 0;
        s.P = 1;
        s.far_in = 1;
      } else {  // rows copying a block: contiguous (CopyRun) or strided (CopyBlock)
        const Sizes block = variant == 1 ? Sizes{rng.between(60, 200)} : Sizes{rng.between(6, 13), rng.between(6, 13)};
        const std::int64_t m = (target + count(block) - 1) / count(block);
        s.in = cat({rng.between(20, 100)}, block);
        s.idx = cat(ones(block.size()), {m});
        s.axis = 0;
        s.P = 1;
        s.in_style = variant == 1 ? Style::packed : Style::strided;
        s.out_style = variant == 1 ? Style::packed : Style::random;
      }
      s.out = *oracle::gather_output_sizes(s.in, s.idx, s.axis, s.P);
      return;
    }
    case Op::gather_elements:
    case Op::scatter: {
      const bool scatter = op == Op::scatter;
      const int D = static_cast<int>(rng.between(2, 3));
      if (variant == 0) {  // along the innermost axis: staged lines (Scatter: input copy fused)
        const std::int64_t n = rng.between(300, 1000), m = rng.between(n / 2, n) | 1;
        s.in = cat(fill_outer((target + m - 1) / m, D - 1), {n});
        s.idx = s.in;
        s.idx.back() = m;
        s.axis = static_cast<std::uint32_t>(D - 1);
      } else if (variant == 1 || !scatter) {  // along axis 0: unstaged element rows
        const std::int64_t n = rng.between(16, 64), m = rng.between(32, 96);
        s.in = cat({n}, fill_outer((target + m - 1) / m, D - 1));
        s.in.back() = s.in.back() | 1;
        s.idx = s.in;
        s.idx[0] = m;
        s.axis = 0;
      } else {  // Scatter along the innermost axis, lines too long to stage (n · w > 32 KiB)
        const std::int64_t n = 32768 / static_cast<std::int64_t>(w) + 4, m = rng.between(n / 3, n / 2);
        s.in = cat(fill_outer((target + m - 1) / m, D - 1), {n});
        s.idx = s.in;
        s.idx.back() = m;
        s.axis = static_cast<std::uint32_t>(D - 1);
      }
      if (scatter) {
        s.upd = s.idx;
        s.out = s.in;
      } else {
        s.out = s.idx;
      }
      return;
    }
    case Op::gather_nd:
    case Op::gather_nd1:
    case Op::scatter_nd: {
      if (variant == 4) {  // a 1-D block far-strided on the indexed side (tiles)
        const std::int64_t block = rng.between(20, 60), m = (target + block - 1) / block;
        s.r = 2;
        s.q = 2;
        s.B = 0;
        s.in = {rng.between(20, 60), block};
        s.idx = {m, 1};
        (op == Op::scatter_nd ? s.far_out : s.far_in) = 1;
      } else if (variant == 3) {  // K = 1, no block: staged lines (ScatterND: sequential)
        const std::int64_t n = rng.between(300, 1000), m = rng.between(n / 2, n) | 1;
        s.r = 1;
        s.q = 3;
        s.B = 0;
        s.in = {1, 1, n};
        s.idx = {(target + m - 1) / m | 1, m, 1};
        s.expect_split = op != Op::scatter_nd;
        // Rows of the updates and indices do not coalesce: the lines share the output line.
        s.upd_style = Style::strided;
      } else {
        const Sizes block = variant == 1 ? Sizes{rng.between(6, 13), rng.between(6, 13)} : Sizes{rng.between(60, 200)};
        const std::int64_t m = (target + count(block) - 1) / count(block);
        const bool batch = op == Op::gather_nd1 && variant != 2;
        const std::int64_t b = batch ? rng.between(2, 4) : 1;
        const std::int64_t K = rng.between(1, 2);
        Sizes tupled = K == 1 ? Sizes{rng.between(20, 100)} : Sizes{rng.between(5, 12), rng.between(5, 12)};
        // ScatterND, variant 0: an output as large as the updates, so that the copy of the
        // input splits too.
        if (op == Op::scatter_nd && variant == 0) tupled = K == 1 ? Sizes{m} : Sizes{8, (m + 7) / 8};
        const Sizes inA = cat(cat(batch ? Sizes{b} : Sizes{}, tupled), block);
        const Sizes idxA = cat(batch ? Sizes{b} : Sizes{}, {(m + b - 1) / b, K});
        s.r = static_cast<std::uint32_t>(inA.size());
        s.q = static_cast<std::uint32_t>(idxA.size());
        s.B = batch ? 1 : 0;
        const std::size_t D = std::max(inA.size(), idxA.size());
        s.in = cat(ones(D - inA.size()), inA);
        s.idx = cat(ones(D - idxA.size()), idxA);
        s.in_style = variant == 1 ? Style::strided : Style::packed;
        s.out_style = s.upd_style = variant == 1 ? Style::random : Style::packed;
      }
      const auto out = oracle::gather_nd1_output_sizes(s.in, s.idx, s.r, s.q, s.B);
      if (op == Op::scatter_nd) {
        s.upd = *out;
        s.out = s.in;
      } else {
        s.out = *out;
      }
      return;
    }
  }
}

inline int big_variants(Op op) {
  switch (op) {
    case Op::gather: return 4;
    case Op::gather_elements: return 2;
    case Op::scatter: return 3;
    case Op::gather_nd:
    case Op::gather_nd1:
    case Op::scatter_nd: return 5;
  }
  return 1;
}

/// One Aim::big configuration per construction of `op` (20% in place); scatters each also with
/// many duplicate indices.
inline std::vector<Config> big_configs(Op op) {
  std::vector<Config> configs;
  for (int v = 0; v < big_variants(op); ++v) {
    Config cfg;
    cfg.aim = Aim::big;
    cfg.variant = v;
    cfg.in_place_percent = 20;
    configs.push_back(cfg);
    if (is_scatter(op)) {
      cfg.duplicates = Duplicates::many;
      configs.push_back(cfg);
    }
  }
  return configs;
}

// ---- filling buffers ----

inline std::vector<unsigned char> random_bytes(Rng& rng, std::size_t n) {
  std::vector<unsigned char> b(n);
  for (std::size_t i = 0; i < n; i += 8) {
    const std::uint64_t v = rng.bits();
    std::memcpy(b.data() + i, &v, std::min<std::size_t>(8, n - i));
  }
  return b;
}

/// Random bits everywhere (guards and padding included); about a fifth of the elements are special.
inline std::vector<unsigned char> data_buffer(Rng& rng, const Layout& l, DType t) {
  const std::size_t es = size_of(t);
  std::vector<unsigned char> b = random_bytes(rng, buffer_bytes(l, es));
  const std::vector<std::uint64_t> specials = special_bits(t);
  for (std::int64_t e = 0; e < l.buffer_elements; ++e)
    if (rng.chance(20))
      store_bits(b.data() + kGuard + static_cast<std::size_t>(e) * es, es, specials[rng.below(specials.size())]);
  return b;
}

/// The size of the dimension the index element at coordinate j addresses.
inline std::int64_t target_size(const Case& c, const Sizes& j) {
  switch (c.op) {
    case Op::gather:
    case Op::gather_elements:
    case Op::scatter: return c.input.sizes[c.axis];
    case Op::gather_nd:
    case Op::gather_nd1:
    case Op::scatter_nd: {
      const std::size_t D = c.input.sizes.size();
      return c.input.sizes[D - c.r + c.B + static_cast<std::size_t>(j[D - 1])];
    }
  }
  return 1;
}

/// An index value (two's complement bits) in range for a dimension of n.
inline std::uint64_t valid_index(Rng& rng, std::int64_t n, IType t) {
  std::int64_t v = 0;
  if (rng.chance(10))
    v = is_signed(t) ? rng.pick<std::int64_t>({0, n - 1, -1, -n}) : rng.pick<std::int64_t>({0, n - 1});
  else if (is_signed(t) && rng.chance(45))
    v = -rng.between(1, n);
  else
    v = rng.between(0, n - 1);
  return static_cast<std::uint64_t>(v);
}

/// An index value out of range for a dimension of n.
inline std::uint64_t invalid_index(Rng& rng, std::int64_t n, IType t) {
  const std::int64_t near = rng.between(0, 40);
  switch (t) {
    case IType::INT32:
      return static_cast<std::uint64_t>(rng.pick<std::int64_t>(
          {n + near, -n - 1 - near, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()}));
    case IType::INT64:
      return static_cast<std::uint64_t>(rng.pick<std::int64_t>({n + near, -n - 1 - near,
                                                                std::numeric_limits<std::int64_t>::min(),
                                                                std::numeric_limits<std::int64_t>::max(),
                                                                std::int64_t{std::numeric_limits<std::int32_t>::min()} - 1}));
    case IType::UINT32:
      return rng.pick<std::uint64_t>({static_cast<std::uint64_t>(n + near), 0xFFFFFFFFu, 0x80000000u,
                                      static_cast<std::uint32_t>(-1 - near)});
    case IType::UINT64:
      return rng.pick<std::uint64_t>({static_cast<std::uint64_t>(n + near), 0xFFFFFFFFFFFFFFFFull,
                                      0x8000000000000000ull, 0xFFFFFFFFull,
                                      static_cast<std::uint64_t>(-1 - near)});
  }
  return 0;
}

/// Writes the value v (a position in [0, n)) as stored: for signed types sometimes as v - n.
inline std::uint64_t maybe_negative(Rng& rng, std::int64_t v, std::int64_t n, IType t) {
  return static_cast<std::uint64_t>(is_signed(t) && rng.chance(50) ? v - n : v);
}

/// k distinct values from [0, n).
inline std::vector<std::int64_t> distinct_values(Rng& rng, std::int64_t k, std::int64_t n) {
  std::vector<std::int64_t> out;
  if (n <= 4 * k + 64) {
    std::vector<std::int64_t> all(static_cast<std::size_t>(n));
    std::iota(all.begin(), all.end(), 0);
    for (std::int64_t i = 0; i < k; ++i)
      std::swap(all[static_cast<std::size_t>(i)], all[static_cast<std::size_t>(rng.between(i, n - 1))]);
    out.assign(all.begin(), all.begin() + k);
  } else {
    std::set<std::int64_t> seen;
    while (static_cast<std::int64_t>(out.size()) < k) {
      const std::int64_t v = rng.between(0, n - 1);
      if (seen.insert(v).second) out.push_back(v);
    }
  }
  return out;
}

inline void fill_indices(Rng& rng, Case& c) {
  const Layout& l = c.indices;
  const std::size_t es = size_of(c.itype);
  c.indices_buf = random_bytes(rng, buffer_bytes(l, es));  // padding keeps garbage
  auto write = [&](const Sizes& j, std::uint64_t bits) {
    store_bits(c.indices_buf.data() + byte_at(l, es, j), es, bits);
  };
  const std::size_t D = l.sizes.size();
  if (c.op == Op::scatter && c.duplicates != Duplicates::random) {
    const std::int64_t n = c.input.sizes[c.axis], m = l.sizes[c.axis];
    if (m > n) c.duplicates = Duplicates::many;  // more updates per line than targets: cannot be distinct
    std::vector<std::int64_t> pool = distinct_values(rng, std::min<std::int64_t>(n, rng.between(1, 3)), n);
    Sizes line_sizes = l.sizes;
    line_sizes[c.axis] = 1;
    Sizes j(D, 0);
    do {  // one line (all of Axis) at a time: a later line sharing storage rewrites it whole
      const std::vector<std::int64_t> perm = c.duplicates == Duplicates::none ? distinct_values(rng, m, n) : pool;
      for (std::int64_t k = 0; k < m; ++k) {
        Sizes jk = j;
        jk[c.axis] = k;
        const std::int64_t v = c.duplicates == Duplicates::none ? perm[static_cast<std::size_t>(k)]
                                                                 : pool[rng.below(pool.size())];
        write(jk, maybe_negative(rng, v, n, c.itype));
      }
    } while (next(j, line_sizes));
  } else if (c.op == Op::scatter_nd && c.duplicates != Duplicates::random) {
    const std::size_t K = static_cast<std::size_t>(l.sizes[D - 1]);
    const Sizes inA(c.input.sizes.end() - c.r, c.input.sizes.end());
    const Sizes space(inA.begin(), inA.begin() + static_cast<std::ptrdiff_t>(K));
    Sizes tuple_sizes = l.sizes;
    tuple_sizes[D - 1] = 1;
    const std::int64_t tuples = count(tuple_sizes);
    if (tuples > count(space)) c.duplicates = Duplicates::many;  // cannot be distinct
    const std::vector<std::int64_t> positions =
        c.duplicates == Duplicates::none ? distinct_values(rng, tuples, count(space))
                                         : distinct_values(rng, std::min<std::int64_t>(count(space), rng.between(1, 3)), count(space));
    Sizes j(D, 0);
    std::size_t t = 0;
    do {
      const std::int64_t pos = c.duplicates == Duplicates::none ? positions[t++] : positions[rng.below(positions.size())];
      const Sizes s = unravel(pos, space);
      for (std::size_t k = 0; k < K; ++k) {
        Sizes jk = j;
        jk[D - 1] = static_cast<std::int64_t>(k);
        write(jk, maybe_negative(rng, s[k], space[k], c.itype));
      }
    } while (next(j, tuple_sizes));
  } else {
    // Elements sharing storage (zero strides) get a value valid for the smallest dimension any
    // of them addresses.
    std::vector<std::int64_t> smallest(static_cast<std::size_t>(l.buffer_elements), std::numeric_limits<std::int64_t>::max());
    Sizes j(D, 0);
    do {
      auto& m = smallest[static_cast<std::size_t>(l.offset + dot(j, l.strides))];
      m = std::min(m, target_size(c, j));
    } while (next(j, l.sizes));
    for (std::size_t e = 0; e < smallest.size(); ++e) {
      if (smallest[e] == std::numeric_limits<std::int64_t>::max()) continue;
      const std::int64_t n = smallest[e];
      const std::uint64_t v = c.values == Values::wild && rng.chance(35) ? invalid_index(rng, n, c.itype)
                                                                         : valid_index(rng, n, c.itype);
      store_bits(c.indices_buf.data() + kGuard + e * es, es, v);
    }
  }
  if (c.values == Values::one_out_of_range) {
    const Sizes j = unravel(static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(count(l.sizes)))), l.sizes);
    write(j, invalid_index(rng, target_size(c, j), c.itype));
  }
}

// ---- the generator ----

inline Case generate(Op op, std::uint64_t seed, const Config& cfg) {
  Rng rng(seed);
  Case c;
  c.seed = seed;
  c.op = op;
  c.aim = name(cfg.aim);
  c.values = cfg.values;
  c.duplicates = cfg.duplicates;
  int variant = -1;
  if (cfg.aim == Aim::big) {
    variant = cfg.variant >= 0 ? cfg.variant : static_cast<int>(rng.below(static_cast<std::uint64_t>(big_variants(op))));
    // Few elements for many bytes: the oracle is slow. Scatter variant 2 needs n · w > 32 KiB.
    c.dtype = cfg.dtype ? *cfg.dtype
          : op == Op::scatter && variant == 2
              ? rng.pick({DType::FLOAT64, DType::INT64, DType::UINT64})
              : rng.pick({DType::FLOAT64, DType::INT64, DType::UINT64, DType::FLOAT32, DType::UINT32});
  } else {
    c.dtype = cfg.dtype ? *cfg.dtype : all_dtypes[rng.below(11)];
  }
  c.itype = cfg.itype ? *cfg.itype : all_itypes[rng.below(4)];
  const std::size_t w = size_of(c.dtype);

  Shapes s;
  if (cfg.aim == Aim::big) {
    c.aim += " variant " + std::to_string(variant);
    big_shapes(rng, op, variant, w, s);
  } else {
    for (bool ok = false; !ok;) {
      s = Shapes();
      switch (op) {
        case Op::gather: ok = gather_shapes(rng, cfg, w, s); break;
        case Op::gather_elements: ok = elements_shapes(rng, cfg, w, false, s); break;
        case Op::scatter: ok = elements_shapes(rng, cfg, w, true, s); break;
        case Op::gather_nd:
        case Op::gather_nd1:
        case Op::scatter_nd: ok = nd_shapes(rng, cfg, w, op, s); break;
      }
    }
  }
  c.axis = s.axis;
  c.index_dimensions = s.P;
  c.r = s.r;
  c.q = s.q;
  c.B = s.B;
  c.expect_split = s.expect_split;

  c.in_place = is_scatter(op) && rng.chance(cfg.in_place_percent);
  const bool special_dups = is_scatter(op) && cfg.duplicates != Duplicates::random;
  std::vector<bool> keep(s.idx.size(), false);
  if (special_dups) {
    if (op == Op::scatter)
      keep[s.axis] = true;  // a broadcast Axis would repeat one target along each line
    else
      keep.assign(keep.size(), true);
  }
  const int far_in = c.in_place ? s.far_out : s.far_in;  // in place, Input is laid out as Output
  c.input = far_in >= 0 ? far_layout(rng, s.in, far_in) : random_layout(rng, s.in, !c.in_place, s.in_style);
  c.indices = random_layout(rng, s.idx, true, Style::random, keep);
  if (is_scatter(op)) c.updates = random_layout(rng, s.upd, true, s.upd_style);
  c.output = c.in_place ? c.input
             : s.far_out >= 0 ? far_layout(rng, s.out, s.far_out)
                              : random_layout(rng, s.out, false, s.out_style);

  c.input_buf = data_buffer(rng, c.input, c.dtype);
  if (is_scatter(op)) c.updates_buf = data_buffer(rng, c.updates, c.dtype);
  if (!c.in_place) c.output_buf = random_bytes(rng, buffer_bytes(c.output, w));
  fill_indices(rng, c);
  c.inputs_hash = c.hash_inputs();
  return c;
}

/// "" when equal; otherwise where the first difference is (guard, padding or which element),
/// both values, and how many bytes differ.
inline std::string first_difference(const Case& c, const std::vector<unsigned char>& actual,
                                    const std::vector<unsigned char>& expected) {
  if (actual == expected) return "";
  if (actual.size() != expected.size()) return "buffer sizes differ";
  std::size_t first = actual.size(), differing = 0;
  for (std::size_t i = 0; i < actual.size(); ++i)
    if (actual[i] != expected[i]) {
      ++differing;
      first = std::min(first, i);
    }
  const std::size_t es = c.esize();
  const Layout& l = c.output;
  std::string where;
  if (first < kGuard) {
    where = "the leading guard (byte " + std::to_string(first) + ")";
  } else if (first >= actual.size() - kGuard) {
    where = "the trailing guard (byte " + std::to_string(first - (actual.size() - kGuard)) + ")";
  } else {
    const auto rel = static_cast<std::int64_t>((first - kGuard) / es) - l.offset;
    std::optional<Sizes> coord;
    if (rel >= 0 && rel <= last_offset(l)) {
      Sizes j(l.sizes.size(), 0);
      do {
        if (dot(j, l.strides) == rel) {
          coord = j;
          break;
        }
      } while (next(j, l.sizes));
    }
    where = coord ? "OutputTensor element " + text(*coord)
                  : "padding (buffer element " + std::to_string(rel + l.offset) + ", not an output element)";
    const std::size_t at = kGuard + static_cast<std::size_t>(rel + l.offset) * es;
    where += ": got " + hex(load_bits(actual.data() + at, es)) + ", expected " + hex(load_bits(expected.data() + at, es));
  }
  return std::to_string(differing) + " byte(s) differ, the first in " + where;
}

// =================================================================================================
// Part 2: running a case through dmlref and the oracle (support/runner.hpp)
// =================================================================================================

using harness::Layer;

/// Which tensor's TotalTensorSizeInBytes the dispatch layer gets one byte short (none by default).
enum class Short { none, input, indices, updates, output };

/// The case for the runner, over `in` and `out` (the caller's copies): exact
/// TotalTensorSizeInBytes, one byte short for `shorten`.
inline harness::Call to_call(const Case& c, const unsigned char* in, unsigned char* out, const dmlref::Options& options,
                             Short shorten = Short::none) {
  harness::Call call;
  call.op = c.op;
  switch (c.op) {
    case Op::gather:
      call.attr[0] = c.axis;
      call.attr[1] = c.index_dimensions;
      break;
    case Op::gather_elements:
    case Op::scatter: call.attr[0] = c.axis; break;
    case Op::gather_nd:
    case Op::gather_nd1:
    case Op::scatter_nd:
      call.attr[0] = c.r;
      call.attr[1] = c.q;
      call.attr[2] = c.B;
      break;
  }
  call.options = options;
  const std::size_t es = c.esize();
  auto operand = [&](const Layout& l, std::uint32_t type, std::size_t size, const void* data, bool short_one) {
    return harness::Operand{static_cast<dmlref::DataType>(type), static_cast<std::uint32_t>(l.sizes.size()),
                            l.sizes.data(), l.null_strides ? nullptr : l.strides.data(),
                            exact_bytes(l, size) - (short_one ? 1 : 0), data};
  };
  const auto dt = static_cast<std::uint32_t>(c.dtype);
  call.t[harness::kInput] = operand(c.input, dt, es, in, shorten == Short::input);
  call.t[harness::kIndices] = operand(c.indices, static_cast<std::uint32_t>(c.itype), size_of(c.itype),
                                      c.indices_buf.data() + first_byte(c.indices, size_of(c.itype)),
                                      shorten == Short::indices);
  if (is_scatter(c.op))
    call.t[harness::kUpdates] =
        operand(c.updates, dt, es, c.updates_buf.data() + first_byte(c.updates, es), shorten == Short::updates);
  call.t[harness::kOutput] = operand(c.output, dt, es, out, shorten == Short::output);
  return call;
}

/// The outcome of one oracle run: status, and the whole output buffer afterwards (guards included).
struct Run {
  bool ok = false;
  std::string error;
  std::vector<unsigned char> buffer;
};

inline Run run_oracle(const Case& c, oracle::Policy policy, bool report_collisions) {
  Run run;
  run.buffer = c.initial_output();
  unsigned char* out = run.buffer.data() + first_byte(c.output, c.esize());
  const unsigned char* in = c.in_place ? out : c.input_buf.data() + first_byte(c.input, c.esize());
  dmlref::Options options;
  options.index_policy = policy == oracle::Policy::clamp ? dmlref::IndexPolicy::clamp : dmlref::IndexPolicy::error;
  options.check_collisions = report_collisions;
  const oracle::Result res = harness::run_oracle(to_call(c, in, out, options));
  run.ok = res.ok;
  run.error = res.error;
  return run;
}

/// The outcome of one dmlref run.
struct LibRun {
  dmlref::Status status;
  std::vector<unsigned char> buffer;
};

/// Runs the case through one dmlref layer on a fresh copy of the initial output buffer.
inline LibRun run_library(const Case& c, Layer layer, const dmlref::Options& options, Short shorten = Short::none) {
  LibRun run;
  run.buffer = c.initial_output();
  unsigned char* out = run.buffer.data() + first_byte(c.output, c.esize());
  const unsigned char* in = c.in_place ? out : c.input_buf.data() + first_byte(c.input, c.esize());
  run.status = harness::run(to_call(c, in, out, options, shorten), layer);
  return run;
}

}  // namespace random_cases
