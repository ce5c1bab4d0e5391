// libFuzzer harness for dmlref's runtime dispatch layer (TensorDesc / MutableTensorDesc).
//
// The input bytes are decoded into one call of one of the six operators: a data type (sometimes
// not a valid one), an index type (sometimes not an index type), DimensionCount (0..9 and worse),
// sizes (mostly small and consistent with the operator's shape rule, sometimes 0, negative, huge
// or overflowing), strides (null, packed, permuted, padded, zero, huge, negative), buffer sizes
// (exact, one byte short, larger, zero, above INT64_MAX), where each tensor lives (own buffer, in
// place, overlapping another), attributes (valid and not), index values (valid, negative, out of
// range, type extremes) and Options (clamp policy, collision check, threads with the default pool
// or a small custom executor; all_or_nothing).
//
// Every buffer has guard bytes on both sides; the call must then
//   - not crash, and raise no sanitizer report (ASan, UBSan: see fuzz/CMakeLists.txt);
//   - leave every guard byte intact, and every buffer unchanged when it fails, except that a
//     one-pass call (all_or_nothing off) that fails on an index value and says it wrote
//     (Error::output_partly_written) may have written OutputTensor's own bytes;
//   - on success, leave every buffer exactly (bit for bit, padding included) as the naive oracle
//     of tests/support/oracle.hpp does on copies of the same buffers (both run through
//     tests/support/runner.hpp, as in the tests);
//   - fail whenever the oracle fails, and vice versa, except that dmlref may be stricter about
//     output aliasing and overlap (invalid_stride, overlapping_tensors: docs/errors.md,
//     "Conservative rules"); index and collision errors must be reported as such by both;
//   - fail for what only the caller of the oracle checks (data types, TotalTensorSizeInBytes).
// The shape helpers (gather_output_sizes, ...) must also agree with the oracle's.
//
// Any disagreement prints the decoded case and aborts. Buffers are at most 1 MiB, so the fuzzer
// never runs out of memory; calls that would walk more than 2^20 index or update elements (huge
// broadcast tensors) are skipped, so it never times out.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "dmlref/dmlref.hpp"
#include "support/executors.hpp"
#include "support/op.hpp"
#include "support/oracle.hpp"
#include "support/runner.hpp"

namespace {

using dmlref::DataType;
using dmlref::ErrorCode;
using Sizes = std::vector<std::int64_t>;
__extension__ typedef __int128 i128;

constexpr std::size_t kMaxPayload = std::size_t{1} << 20;  ///< bytes per buffer, at most
constexpr std::size_t kGuard = 64;                          ///< guard bytes on each side
constexpr std::int64_t kMaxWalk = std::int64_t{1} << 20;    ///< index/update elements the library may walk
constexpr std::int64_t kOracleElements = std::int64_t{1} << 15;  ///< per tensor, for the oracle
constexpr std::size_t kMaxArray = 16;  ///< longest Sizes/Strides array handed over

using harness::is_scatter;
using harness::kIndices;
using harness::kInput;
using harness::kOutput;
using harness::kRoles;
using harness::kUpdates;
using harness::Op;
using harness::Role;

// ---- decoding ----

/// Reads the input front to back; past its end every byte is 0 (the "plain" choice everywhere).
class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  std::uint64_t bits(int bytes) {
    std::uint64_t v = 0;
    for (int k = 0; k < bytes; ++k) v |= std::uint64_t{byte()} << (8 * k);
    return v;
  }
  template <class T>
  T pick(std::initializer_list<T> values) {
    return values.begin()[byte() % values.size()];
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

/// splitmix64: bulk data (buffer contents, index values) from an 8-byte seed of the input.
class Prng {
 public:
  explicit Prng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// 0 <= below(n) < n, n >= 1.
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  bool chance(unsigned percent) { return below(100) < percent; }

 private:
  std::uint64_t state_;
};

constexpr std::int64_t kInt64Max = INT64_MAX;
constexpr std::int64_t kInt64Min = INT64_MIN;
constexpr std::int64_t p2(int e) { return std::int64_t{1} << e; }

/// A size: mostly 1..10, sometimes up to 64, rarely large (then the buffer may not fit 1 MiB).
std::int64_t small_size(Reader& r) {
  const std::uint8_t b = r.byte();
  if (b < 80) return 1;
  if (b < 170) return 2 + b % 3;
  if (b < 225) return 5 + b % 6;
  if (b < 250) return 11 + r.byte() % 54;
  return r.pick<std::int64_t>({100, 255, 1000, 4096, 65536, 131072});
}

/// A dimension count for the operator: mostly 1..4.
int dimension_count(Reader& r) {
  static const int table[16] = {1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6, 7, 8};
  return table[r.byte() % 16];
}

/// Sizes that break something (or test a limit), for a size that was `current`.
std::int64_t wild_size(Reader& r, std::int64_t current) {
  const std::int64_t plus_one = current < kInt64Max ? current + 1 : 0;
  const std::int64_t minus_one = current > 1 ? current - 1 : 2;
  return r.pick<std::int64_t>({0, -1, kInt64Min, plus_one, minus_one, p2(31), p2(32),
                               p2(32) + 1, p2(40), p2(61), p2(62), kInt64Max, 3 * p2(61), -p2(40)});
}
/// Strides that break something (or test a limit).
std::int64_t wild_stride(Reader& r) {
  return r.pick<std::int64_t>({0, -1, kInt64Min, 1, 2, 63, 64, 1000, p2(31), p2(32), p2(40), p2(60), p2(61),
                               p2(62), kInt64Max, -p2(32)});
}

DataType any_type(Reader& r) {
  const std::uint8_t b = r.byte();
  if (b < 240) return static_cast<DataType>(1 + b % 11);
  return static_cast<DataType>(
      r.pick<std::uint32_t>({0, 12, 13, 16, 255, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu}));
}
DataType index_type(Reader& r) {
  const std::uint8_t b = r.byte();
  if (b < 232) return r.pick<DataType>({DataType::INT32, DataType::INT64, DataType::UINT32, DataType::UINT64});
  return any_type(r);  // mostly not an index type
}

// ---- the decoded call ----

struct Tensor {
  bool used = false;
  DataType type = DataType::UNKNOWN;
  Sizes sizes;                 ///< the Sizes array (its length is min(count, kMaxArray))
  std::uint32_t count = 0;     ///< DimensionCount
  bool null_sizes = false;
  bool has_strides = false;    ///< false: Strides = nullptr (packed)
  Sizes strides;               ///< same length as `sizes`
  int zero_dim = -1;           ///< input: a huge dimension broadcast with stride 0
  int buffer = -1;             ///< which Buffer holds it
  std::size_t offset = 0;      ///< byte offset of Data in that buffer
  bool null_data = false;
  std::uint8_t total_mode = 0; ///< exact, larger, short, zero, above INT64_MAX
  std::uint64_t total = 0;     ///< TotalTensorSizeInBytes

  // Derived (see derive()).
  bool layout_valid = false;   ///< count 1..8, sizes >= 1, strides >= 0, element count and extent fit
  bool extent_overflow = false;  ///< all but the byte extent valid: that is 2^63 or more
  std::uint64_t extent = 0;    ///< bytes from Data to the end of the last element (if layout_valid)
  std::int64_t elements = -1;  ///< element count, -1 if not computable (invalid sizes, overflow)

  bool arrays_exact() const { return !null_sizes && count == sizes.size(); }
};

struct Buffer {
  std::vector<unsigned char> bytes;  ///< guard, payload, guard
  std::size_t payload = 0;
  unsigned char* data() { return bytes.data() + kGuard; }
  const unsigned char* data() const { return bytes.data() + kGuard; }
};

unsigned char guard_byte(std::size_t i) { return static_cast<unsigned char>(0x5Au ^ (i * 37u)); }

struct Case {
  Op op = Op::gather;
  int D = 1;
  std::uint32_t attr[3] = {0, 0, 0};
  Tensor t[kRoles];
  std::vector<Buffer> buffers;
  dmlref::IndexPolicy policy = dmlref::IndexPolicy::error;
  bool check_collisions = false;
  int threads = 1;
  int executor = 0;  ///< 0: default pool, 1: reversing (2), 2: spawning threads (2), 3: reversing (1)
  std::uint8_t reduction = 0;  ///< scatters: dmlref::Reduction (ONNX extension); 5 and up are invalid
  std::uint8_t value_mode = 0;
  bool one_pass = false;  ///< Options::all_or_nothing off
  std::string notes;
};

using harness::text;

std::string describe(const Case& c) {
  std::string s = std::string(harness::name(c.op)) + " D=" + std::to_string(c.D) + " attributes {" +
                  std::to_string(c.attr[0]) + ", " + std::to_string(c.attr[1]) + ", " + std::to_string(c.attr[2]) +
                  "} policy " + (c.policy == dmlref::IndexPolicy::clamp ? "clamp" : "error") + " collisions " +
                  (c.check_collisions ? "on" : "off") + " threads " + std::to_string(c.threads) + " executor " +
                  std::to_string(c.executor) + " values " + std::to_string(c.value_mode) + " reduction " +
                  std::to_string(c.reduction) + (c.one_pass ? " one pass" : "") + c.notes + "\n";
  for (int r = 0; r < kRoles; ++r) {
    const Tensor& x = c.t[r];
    if (!x.used) continue;
    s += std::string("  ") + harness::role_name(r) + ": type " + std::to_string(static_cast<std::uint32_t>(x.type)) +
         " count " + std::to_string(x.count) + (x.null_sizes ? " Sizes null" : " sizes " + text(x.sizes)) +
         (x.has_strides ? " strides " + text(x.strides) : " packed") + " buffer " + std::to_string(x.buffer) +
         " +" + std::to_string(x.offset) + (x.null_data ? " Data null" : "") + " total " + std::to_string(x.total) +
         (x.layout_valid ? " extent " + std::to_string(x.extent) : " (invalid layout)") + " elements " +
         std::to_string(x.elements) + "\n";
  }
  for (std::size_t b = 0; b < c.buffers.size(); ++b)
    s += "  buffer " + std::to_string(b) + ": " + std::to_string(c.buffers[b].payload) + " bytes\n";
  return s;
}

[[noreturn]] void fail(const Case& c, const std::string& what) {
  std::fprintf(stderr, "\n==== dmlref fuzz: %s\n%s\n", what.c_str(), describe(c).c_str());
  std::fflush(stderr);
  std::abort();
}

// ---- shapes: valid by construction, then maybe broken ----

void set_shape(Tensor& x, const Sizes& sizes) {
  x.used = true;
  x.sizes = sizes;
  x.count = static_cast<std::uint32_t>(sizes.size());
}

Sizes ones(int n) { return Sizes(static_cast<std::size_t>(n), 1); }

void decode_shapes(Reader& r, Case& c) {
  const int D = c.D = dimension_count(r);
  Sizes in(static_cast<std::size_t>(D)), idx, upd, out;
  for (auto& v : in) v = small_size(r);
  const bool huge_axis = r.byte() < 24;  // a huge input dimension, broadcast (stride 0), that indices address
  int indexed_dim = -1;
  switch (c.op) {
    case Op::gather: {
      const int axis = r.byte() % D, P = r.byte() % (D + 1);
      idx = ones(D);
      for (int d = D - P; d < D; ++d) idx[static_cast<std::size_t>(d)] = small_size(r);
      // L = In[0,axis) ++ Idx[D-P,D) ++ In[axis+1,D): its first P-1 entries must be 1.
      for (int k = 0; k < P - 1; ++k) {
        if (k < axis) in[static_cast<std::size_t>(k)] = 1;
        else if (k < axis + P) idx[static_cast<std::size_t>(D - P + k - axis)] = 1;
        else in[static_cast<std::size_t>(k - P + 1)] = 1;
      }
      c.attr[0] = static_cast<std::uint32_t>(axis);
      c.attr[1] = static_cast<std::uint32_t>(P);
      indexed_dim = axis;
      break;
    }
    case Op::gather_elements:
    case Op::scatter: {
      const int axis = r.byte() % D;
      idx = in;
      idx[static_cast<std::size_t>(axis)] = small_size(r);
      c.attr[0] = static_cast<std::uint32_t>(axis);
      indexed_dim = axis;
      if (c.op == Op::scatter) upd = idx;
      break;
    }
    case Op::gather_nd:
    case Op::gather_nd1:
    case Op::scatter_nd: {
      const int rr = 1 + r.byte() % D, q = 1 + r.byte() % D;
      const int B = c.op == Op::gather_nd1 ? r.byte() % std::min(rr, q) : 0;
      const int kmin = std::max(1, q - 1 + rr - B - D);
      const int K = kmin + r.byte() % (rr - B - kmin + 1);
      for (int d = 0; d < D - rr; ++d) in[static_cast<std::size_t>(d)] = 1;
      idx = ones(D);
      for (int j = 0; j < q - 1; ++j)
        idx[static_cast<std::size_t>(D - q + j)] = j < B ? in[static_cast<std::size_t>(D - rr + j)] : small_size(r);
      idx[static_cast<std::size_t>(D - 1)] = K;
      c.attr[0] = static_cast<std::uint32_t>(rr);
      c.attr[1] = static_cast<std::uint32_t>(q);
      c.attr[2] = static_cast<std::uint32_t>(B);
      indexed_dim = D - rr + B + r.byte() % K;
      break;
    }
  }
  if (huge_axis) {
    in[static_cast<std::size_t>(indexed_dim)] =
        r.pick<std::int64_t>({p2(31), p2(32) + 1, p2(40), p2(53), p2(60) + 1, p2(61), p2(62), kInt64Max});
    c.t[kInput].zero_dim = indexed_dim;
  }
  // Output (gathers) and updates (ScatterND) by the oracle's shape rule.
  switch (c.op) {
    case Op::gather: out = oracle::gather_output_sizes(in, idx, c.attr[0], c.attr[1]).value_or(in); break;
    case Op::gather_elements: out = idx; break;
    case Op::gather_nd:
    case Op::gather_nd1:
      out = oracle::gather_nd1_output_sizes(in, idx, c.attr[0], c.attr[1], c.attr[2]).value_or(in);
      break;
    case Op::scatter: out = in; break;
    case Op::scatter_nd:
      upd = oracle::scatter_nd_updates_sizes(in, idx, c.attr[0], c.attr[1]).value_or(idx);
      out = in;
      break;
  }
  set_shape(c.t[kInput], in);
  set_shape(c.t[kIndices], idx);
  if (is_scatter(c.op)) set_shape(c.t[kUpdates], upd);
  set_shape(c.t[kOutput], out);

  // Attributes out of range, sometimes.
  if (r.byte() < 20) {
    const std::uint32_t D32 = static_cast<std::uint32_t>(D);
    c.attr[r.byte() % 3] = r.pick<std::uint32_t>({D32, D32 + 1, 0, 8, 9, 0xFFFFFFFFu, 0x80000000u, r.byte()});
  }
}

// ---- types and layouts ----

void decode_types(Reader& r, Case& c) {
  const DataType data = any_type(r);
  for (int role : {kInput, kUpdates, kOutput})
    c.t[role].type = r.byte() < 244 ? data : any_type(r);
  c.t[kIndices].type = index_type(r);
}

using harness::packed_strides;

/// Strides over `order` (outermost first), innermost pitch `pitch`, each next one `pad` wider.
Sizes nested_strides(const Sizes& sizes, const std::vector<int>& order, std::int64_t pitch, std::int64_t pad) {
  Sizes s(sizes.size(), 0);
  i128 stride = pitch;
  for (std::size_t k = order.size(); k-- > 0;) {
    const std::size_t d = static_cast<std::size_t>(order[k]);
    s[d] = stride > kInt64Max ? kInt64Max : static_cast<std::int64_t>(stride);
    stride = stride * (sizes[d] > 0 ? sizes[d] : 1) + pad;
    if (stride > kInt64Max) stride = kInt64Max;
  }
  return s;
}

void decode_layout(Reader& r, Tensor& x) {
  const std::size_t n = x.sizes.size();
  const std::uint8_t kind = r.byte() % 10;
  x.has_strides = kind >= 3;
  std::vector<int> order(n);
  for (std::size_t d = 0; d < n; ++d) order[d] = static_cast<int>(d);
  switch (kind) {
    case 0: case 1: case 2:  // Strides = nullptr
    case 3:                  // explicit packed
      x.strides = packed_strides(x.sizes);
      break;
    case 4:  // permuted (transposed), maybe padded
    case 5: {
      for (std::size_t d = n; d > 1; --d) std::swap(order[d - 1], order[r.byte() % d]);
      x.strides = nested_strides(x.sizes, order, 1 + (kind == 5 ? r.byte() % 3 : 0), kind == 5 ? r.byte() % 5 : 0);
      break;
    }
    case 6:  // padded rows
      x.strides = nested_strides(x.sizes, order, 1, r.byte() % 9);
      break;
    case 7: {  // broadcast some dimensions
      x.strides = packed_strides(x.sizes);
      const std::uint8_t mask = r.byte();
      for (std::size_t d = 0; d < n; ++d)
        if (mask & (1u << (d % 8))) x.strides[d] = 0;
      break;
    }
    case 8: {  // arbitrary small strides
      x.strides.assign(n, 0);
      for (auto& s : x.strides) s = r.byte() % 12;
      break;
    }
    default: {  // packed with one wild stride
      x.strides = packed_strides(x.sizes);
      if (n > 0) x.strides[r.byte() % n] = wild_stride(r);
      break;
    }
  }
  // Size-1 dimensions may have any stride.
  if (r.byte() < 40)
    for (std::size_t d = 0; d < n; ++d)
      if (x.sizes[d] == 1) x.strides[d] = wild_stride(r);
  if (x.zero_dim >= 0 && static_cast<std::size_t>(x.zero_dim) < n) {
    x.has_strides = true;
    x.strides[static_cast<std::size_t>(x.zero_dim)] = 0;
  }
  x.total_mode = r.byte();
}

/// Breaks zero or more descriptor fields.
void decode_corruptions(Reader& r, Case& c) {
  const int n = r.byte() % 4 == 0 ? 1 + r.byte() % 3 : 0;
  for (int k = 0; k < n; ++k) {
    std::vector<int> roles{kInput, kIndices, kOutput};
    if (is_scatter(c.op)) roles.push_back(kUpdates);
    Tensor& x = c.t[roles[r.byte() % roles.size()]];
    const std::uint8_t what = r.byte() % 8;
    switch (what) {
      case 0:
      case 1:
        if (!x.sizes.empty()) {
          std::int64_t& s = x.sizes[r.byte() % x.sizes.size()];
          s = wild_size(r, s);
        }
        break;
      case 2: {  // DimensionCount
        const std::uint32_t count = r.pick<std::uint32_t>(
            {0, x.count > 0 ? x.count - 1 : 0, x.count + 1, 9, 1000, 0xFFFFFFFFu, 8});
        x.count = count;
        const std::size_t length = std::min<std::size_t>(count, kMaxArray);
        while (x.sizes.size() < length) x.sizes.push_back(1 + r.byte() % 3);
        x.sizes.resize(length);
        x.strides.resize(length, 1);
        break;
      }
      case 3: x.null_sizes = true; break;
      case 4: x.null_data = true; break;
      case 5:
        if (!x.strides.empty()) {
          x.has_strides = true;
          x.strides[r.byte() % x.strides.size()] = wild_stride(r);
        }
        break;
      case 6: x.total_mode = r.pick<std::uint8_t>({230, 245, 250, 255}); break;  // short, zero, > INT64_MAX
      default: x.has_strides = false; break;  // packed after all (a huge dimension is then no broadcast)
    }
  }
}

/// Fills in layout_valid, extent and elements from the descriptor fields.
void derive(Tensor& x) {
  x.layout_valid = x.extent_overflow = false;
  x.elements = -1;
  if (x.null_sizes || x.count < 1 || x.count > 8 || !x.arrays_exact()) return;
  const Sizes strides = x.has_strides ? x.strides : packed_strides(x.sizes);
  i128 elements = 1, last = 0;
  for (std::size_t d = 0; d < x.sizes.size(); ++d) {
    if (x.sizes[d] < 1) return;
    elements *= x.sizes[d];
    if (elements > kInt64Max) return;
  }
  x.elements = static_cast<std::int64_t>(elements);
  const std::size_t es = dmlref::element_size(x.type);
  for (std::size_t d = 0; d < x.sizes.size(); ++d)
    if (strides[d] < 0) return;
  for (std::size_t d = 0; d < x.sizes.size(); ++d) {
    last += static_cast<i128>(x.sizes[d] - 1) * strides[d];  // each term < 2^126
    if (last > kInt64Max) {
      x.extent_overflow = true;
      return;
    }
  }
  const i128 extent = (last + 1) * static_cast<i128>(es == 0 ? 1 : es);
  if (extent > kInt64Max) {
    x.extent_overflow = true;
    return;
  }
  x.layout_valid = true;
  x.extent = static_cast<std::uint64_t>(extent);
}

// ---- buffers ----

void decode_placement(Reader& r, Case& c) {
  for (int role = 0; role < kRoles; ++role) derive(c.t[role]);
  // Bytes each tensor wants from its Data on; what TotalTensorSizeInBytes says.
  std::size_t want[kRoles] = {};
  for (int role = 0; role < kRoles; ++role) {
    Tensor& x = c.t[role];
    if (!x.used) continue;
    const bool fits = x.layout_valid && x.extent <= kMaxPayload;
    const std::uint64_t exact = fits ? x.extent : 64;
    const std::uint8_t m = x.total_mode;
    if (m < 200) x.total = exact;
    else if (m < 230) x.total = exact + 1 + (m % 64);
    else if (m < 245) x.total = exact - 1;
    else if (m < 250) x.total = 0;
    else x.total = r.pick<std::uint64_t>({std::uint64_t{1} << 63, ~std::uint64_t{0}, (std::uint64_t{1} << 63) + 1});
    // The memory really there: never less than TotalTensorSizeInBytes says, unless that is
    // above INT64_MAX (which must be rejected before any access).
    want[role] = static_cast<std::size_t>(x.total > (std::uint64_t{1} << 62) ? exact : x.total);
  }
  // Where each tensor lives.
  for (int role = 0; role < kRoles; ++role) c.t[role].buffer = c.t[role].used ? role : -1;
  const std::uint8_t alias = r.byte();
  Tensor& out = c.t[kOutput];
  auto share = [&](Role host, Tensor& guest, std::size_t offset) {
    guest.buffer = host;
    guest.offset = offset;
  };
  if (alias >= 180 && alias < 210) {  // in place: OutputTensor is InputTensor
    const Tensor& in = c.t[kInput];
    out.type = in.type;
    out.sizes = in.sizes;
    out.count = in.count;
    out.null_sizes = in.null_sizes;
    out.has_strides = in.has_strides;
    out.strides = in.strides;
    out.total = in.total;
    out.null_data = in.null_data;
    derive(out);
    want[kOutput] = want[kInput];
    share(kInput, out, 0);
    c.notes += " in-place";
  } else if (alias >= 210 && alias < 230) {
    share(kInput, out, r.byte() % 97);
    c.notes += " output-in-input";
  } else if (alias >= 230 && alias < 240) {
    share(kIndices, out, r.byte() % 97);
    c.notes += " output-in-indices";
  } else if (alias >= 240 && alias < 248 && is_scatter(c.op)) {
    share(kUpdates, out, r.byte() % 97);
    c.notes += " output-in-updates";
  } else if (alias >= 248 && alias < 252) {
    share(kInput, c.t[kIndices], r.byte() % 33);
    c.notes += " indices-in-input";
  } else if (alias >= 252 && is_scatter(c.op)) {
    share(kInput, c.t[kUpdates], 0);
    c.notes += " updates-in-input";
  } else if (r.byte() < 16) {  // a misaligned Data pointer
    Tensor& x = c.t[r.byte() % 2 == 0 ? kInput : kIndices];
    x.offset = 1 + r.byte() % 7;
  }
  c.buffers.assign(kRoles, Buffer{});
  std::size_t payload[kRoles] = {};
  for (int role = 0; role < kRoles; ++role) {
    const Tensor& x = c.t[role];
    if (!x.used) continue;
    payload[x.buffer] = std::max(payload[x.buffer], x.offset + want[role]);
  }
  for (int b = 0; b < kRoles; ++b) {
    if (!c.t[b].used) continue;
    Buffer& buf = c.buffers[static_cast<std::size_t>(b)];
    buf.payload = std::min(payload[b], kMaxPayload + 128);
    buf.bytes.assign(buf.payload + 2 * kGuard, 0);
  }
}

// ---- contents ----

std::size_t index_width(DataType t) { return t == DataType::INT64 || t == DataType::UINT64 ? 8 : 4; }
bool signed_index(DataType t) { return t == DataType::INT32 || t == DataType::INT64; }

/// The size of the dimension the index at coordinate j addresses (1 if the shapes say nothing sane).
std::int64_t target_size(const Case& c, const Sizes& j) {
  const Tensor& in = c.t[c.op == Op::scatter ? kOutput : kInput];
  const std::size_t D = in.sizes.size();
  std::int64_t n = 1;
  switch (c.op) {
    case Op::gather:
    case Op::gather_elements:
    case Op::scatter:
      if (c.attr[0] < D) n = in.sizes[c.attr[0]];
      break;
    case Op::gather_nd:
    case Op::gather_nd1:
    case Op::scatter_nd: {
      const std::uint64_t rr = c.attr[0], B = c.op == Op::gather_nd1 ? c.attr[2] : 0;
      if (!j.empty() && rr <= D) {
        const std::uint64_t d = D - rr + B + static_cast<std::uint64_t>(j.back());
        if (d < D) n = in.sizes[d];
      }
      break;
    }
  }
  return n >= 1 ? n : 1;
}

std::uint64_t valid_index(Prng& g, std::int64_t n, DataType t) {
  if (t == DataType::INT32 && n > INT32_MAX) n = INT32_MAX;
  if (t == DataType::UINT32 && n > std::int64_t{UINT32_MAX}) n = UINT32_MAX;
  const std::uint64_t k = g.below(8);
  std::int64_t v = k == 0 ? 0 : k == 1 ? n - 1 : static_cast<std::int64_t>(g.below(static_cast<std::uint64_t>(n)));
  if (signed_index(t) && g.chance(40)) v -= n;  // the same position, counted from the end
  return static_cast<std::uint64_t>(v);
}

std::uint64_t invalid_index(Prng& g, std::int64_t n, DataType t) {
  const std::int64_t near = static_cast<std::int64_t>(g.below(40));
  const std::uint64_t un = static_cast<std::uint64_t>(n);
  switch (g.below(10)) {
    case 0: return un + static_cast<std::uint64_t>(near);
    case 1: return signed_index(t) ? 0 - un - 1 - static_cast<std::uint64_t>(near) : un;  // -n-1-near
    case 2: return static_cast<std::uint64_t>(kInt64Min);
    case 3: return static_cast<std::uint64_t>(kInt64Max);
    case 4: return std::uint64_t{1} << 63;                       // UINT64 just above INT64_MAX
    case 5: return (std::uint64_t{1} << 63) - un;                // 2^63 - n: -n in a wrong reading
    case 6: return ~std::uint64_t{0} - static_cast<std::uint64_t>(near);  // -1 - near as bits
    case 7: return 0xFFFFFFFFull;
    case 8: return 0x80000000ull;
    default: return static_cast<std::uint64_t>(INT32_MIN);
  }
}

void store_index(unsigned char* p, DataType t, std::uint64_t v) {
  if (index_width(t) == 8) std::memcpy(p, &v, 8);
  else {
    const std::uint32_t w = static_cast<std::uint32_t>(v);
    std::memcpy(p, &w, 4);
  }
}

void fill(Reader& r, Case& c) {
  const std::uint64_t seed = r.bits(8);
  // The mode from the seed's first byte, which every input that reaches here has: the committed
  // corpus decodes as before and runs both modes.
  c.one_pass = (seed & 1) != 0;
  Prng g(seed);
  for (std::size_t b = 0; b < c.buffers.size(); ++b) {
    Buffer& buf = c.buffers[b];
    if (buf.bytes.empty()) continue;
    for (std::size_t i = 0; i < kGuard; ++i) {
      buf.bytes[kGuard - 1 - i] = guard_byte(i);
      buf.bytes[kGuard + buf.payload + i] = guard_byte(i);
    }
    for (std::size_t i = 0; i < buf.payload; i += 8) {
      const std::uint64_t v = g.next();
      std::memcpy(buf.data() + i, &v, std::min<std::size_t>(8, buf.payload - i));
    }
  }
  // Index values at their logical coordinates (later coordinates overwrite shared slots).
  c.value_mode = r.byte();
  const Tensor& x = c.t[kIndices];
  if (!dmlref::is_index_type(x.type) || !x.layout_valid || x.elements > kMaxWalk) return;
  const std::size_t w = index_width(x.type);
  if (x.extent > x.total || x.offset + x.extent > c.buffers[static_cast<std::size_t>(x.buffer)].payload) return;
  unsigned char* base = c.buffers[static_cast<std::size_t>(x.buffer)].data() + x.offset;
  const Sizes strides = x.has_strides ? x.strides : packed_strides(x.sizes);
  const std::int64_t bad_one = static_cast<std::int64_t>(g.below(static_cast<std::uint64_t>(x.elements)));
  const bool distinct = g.chance(30);  // scatters: positions that rarely collide
  Sizes j(x.sizes.size(), 0);
  std::int64_t k = 0;
  const std::size_t D = x.sizes.size();
  do {
    const std::int64_t n = target_size(c, j);
    std::uint64_t v;
    const std::uint8_t m = c.value_mode;
    if (m >= 240) v = g.next();                                          // raw bits
    else if (m >= 200 && g.chance(30)) v = invalid_index(g, n, x.type);  // wild
    else if (m >= 160 && k == bad_one) v = invalid_index(g, n, x.type);  // one out of range
    else if (distinct && c.op == Op::scatter && c.attr[0] < D) v = static_cast<std::uint64_t>(j[c.attr[0]] % n);
    else if (distinct && c.op == Op::scatter_nd) {
      std::int64_t tuple = 0;  // the tuple's number, spread over the addressed dimension
      for (std::size_t d = 0; d + 1 < D; ++d) tuple = tuple * x.sizes[d] + j[d];
      v = static_cast<std::uint64_t>((tuple * 7 + j.back() * 3) % n);
    } else v = valid_index(g, n, x.type);
    std::int64_t offset = 0;
    for (std::size_t d = 0; d < D; ++d) offset += j[d] * strides[d];
    store_index(base + offset * static_cast<std::int64_t>(w), x.type, v);
    ++k;
  } while (oracle::detail::next(j, x.sizes));
}

void decode_options(Reader& r, Case& c) {
  const std::uint8_t b = r.byte();
  c.policy = b & 1 ? dmlref::IndexPolicy::clamp : dmlref::IndexPolicy::error;
  c.check_collisions = (b & 2) != 0;
  static const int threads[8] = {1, 1, 2, 2, 2, 4, 0, -3};
  c.threads = threads[(b >> 2) & 7];
  c.executor = (b >> 5) & 3;
  if (is_scatter(c.op) && (b >> 7)) {
    const std::uint8_t k = r.byte();
    c.reduction = k < 250 ? static_cast<std::uint8_t>(k % 5) : r.pick<std::uint8_t>({5, 6, 127, 128, 255});
  }
}

// ---- the calls ----

/// The decoded call over `buffers`, for the runner. Sizes and Strides are fresh copies, exactly as
/// long as they are (so that ASan reports any read past them): `arrays` keeps them.
harness::Call to_call(const Case& c, std::vector<Buffer>& buffers, std::vector<Sizes>& arrays) {
  harness::Call call;
  call.op = c.op;
  for (int k = 0; k < 3; ++k) call.attr[k] = c.attr[k];
  call.reduction = static_cast<dmlref::Reduction>(c.reduction);
  call.options.index_policy = c.policy;
  call.options.check_collisions = c.check_collisions;
  call.options.threads = c.threads;
  call.options.all_or_nothing = !c.one_pass;
  arrays.assign(2 * kRoles, Sizes());
  for (int role = 0; role < kRoles; ++role) {
    const Tensor& x = c.t[role];
    if (!x.used) continue;
    arrays[2 * role] = x.sizes;
    arrays[2 * role + 1] = x.strides;
    call.t[role] = {x.type, x.count, x.null_sizes ? nullptr : arrays[2 * role].data(),
                    x.has_strides ? arrays[2 * role + 1].data() : nullptr, x.total,
                    x.null_data ? nullptr : buffers[static_cast<std::size_t>(x.buffer)].data() + x.offset};
  }
  return call;
}

dmlref::Status call_library(const Case& c, std::vector<Buffer>& buffers, bool sequential = false) {
  std::vector<Sizes> arrays;
  harness::Call call = to_call(c, buffers, arrays);
  executors::Reverse reverse2(2), reverse1(1);
  executors::Spawn spawn(2);
  call.options.threads = sequential ? 1 : c.threads;
  call.options.executor = sequential ? nullptr
                          : c.executor == 1 ? static_cast<dmlref::Executor*>(&reverse2)
                          : c.executor == 2 ? static_cast<dmlref::Executor*>(&spawn)
                          : c.executor == 3 ? static_cast<dmlref::Executor*>(&reverse1)
                                            : nullptr;
  return harness::run_dispatch(call);
}

/// The oracle knows no reductions: with one, it only validates (collisions do not apply).
oracle::Result call_oracle(const Case& c, std::vector<Buffer>& buffers) {
  std::vector<Sizes> arrays;
  return harness::run_oracle(to_call(c, buffers, arrays));
}

// ---- the shape helpers ----

void check_shape_helpers(Case& c) {
  for (int role = 0; role < kRoles; ++role)
    if (c.t[role].used && (!c.t[role].arrays_exact() || c.t[role].elements < 0)) return;
  std::vector<Sizes> arrays;
  const harness::Call call = to_call(c, c.buffers, arrays);
  const dmlref::Result<dmlref::Shape> lib = harness::output_sizes(call);
  const std::optional<Sizes> want = harness::oracle_output_sizes(call);
  if (lib.ok() != want.has_value())
    fail(c, std::string("shape helper disagrees with the oracle: dmlref ") +
                (lib.ok() ? "gives " + dmlref::ErrorValue::braced(*lib) : "says " + lib.status().message()) +
                ", the oracle " + (want ? "gives " + text(*want) : "finds no sizes"));
  if (lib.ok() && dmlref::Shape::from(want->data(), want->size()) != *lib)
    fail(c, "shape helper gives " + dmlref::ErrorValue::braced(*lib) + ", the oracle " + text(*want));
}

// ---- one input ----

bool contains(const std::string& s, const char* what) { return s.find(what) != std::string::npos; }

int run_one(const std::uint8_t* data, std::size_t size) {
  Reader r(data, size);
  Case c;
  c.op = harness::all_ops[r.byte() % 6];
  decode_options(r, c);
  decode_shapes(r, c);
  decode_types(r, c);
  for (int role = 0; role < kRoles; ++role)
    if (c.t[role].used) decode_layout(r, c.t[role]);
  decode_corruptions(r, c);
  decode_placement(r, c);
  fill(r, c);

  // Calls that would walk more than kMaxWalk index or update elements take too long: skip them.
  for (int role : {kIndices, kUpdates})
    if (c.t[role].used && c.t[role].elements > kMaxWalk) return -1;

  static const bool verbose = std::getenv("DMLREF_FUZZ_VERBOSE") != nullptr;
  if (verbose) std::fprintf(stderr, "%s", describe(c).c_str());

  check_shape_helpers(c);

  std::vector<Buffer> before = c.buffers;
  const dmlref::Status status = call_library(c, c.buffers);
  const std::string message = status.ok() ? std::string() : status.message();  // exercises the formatting
  if (!status.ok() && std::string(status.error().op) != harness::name(c.op) && status.code() != ErrorCode::ok)
    fail(c, std::string("the error names operator '") + status.error().op + "': " + message);

  // Guard bytes of every buffer, always.
  for (std::size_t b = 0; b < c.buffers.size(); ++b) {
    const Buffer& buf = c.buffers[b];
    if (buf.bytes.empty()) continue;
    for (std::size_t i = 0; i < kGuard; ++i)
      if (buf.bytes[kGuard - 1 - i] != guard_byte(i) || buf.bytes[kGuard + buf.payload + i] != guard_byte(i))
        fail(c, "a guard byte of buffer " + std::to_string(b) + " was written (status " +
                    dmlref::name(status.code()) + ")");
  }
  // Nothing written on failure; inputs unchanged on success (unless the output lives there). A
  // one-pass call that failed on an index value may have written OutputTensor, and must say so.
  const bool partly_written = !status.ok() && status.error().output_partly_written;
  if (partly_written && (!c.one_pass || status.code() != ErrorCode::index_out_of_range))
    fail(c, "a call says it wrote before failing: " + message);
  for (std::size_t b = 0; b < c.buffers.size(); ++b) {
    const bool holds_output = static_cast<int>(b) == c.t[kOutput].buffer;
    if (partly_written && holds_output) {
      const Tensor& out = c.t[kOutput];
      const std::size_t first = kGuard + out.offset, last = first + static_cast<std::size_t>(out.extent);
      for (std::size_t i = 0; i < c.buffers[b].bytes.size(); ++i)
        if ((i < first || i >= last) && c.buffers[b].bytes[i] != before[b].bytes[i])
          fail(c, "a one-pass call wrote outside OutputTensor, at byte " + std::to_string(i) + " of buffer " +
                      std::to_string(b) + ": " + message);
      continue;
    }
    if ((!status.ok() || !holds_output) && c.buffers[b].bytes != before[b].bytes)
      fail(c, "buffer " + std::to_string(b) + " changed although " +
                  (status.ok() ? std::string("it holds no output") : "the call failed: " + message));
  }

  // One pass fails as the default mode does: the same error, naming the same value.
  if (c.one_pass && !status.ok()) {
    std::vector<Buffer> fresh = before;
    c.one_pass = false;
    const dmlref::Status all = call_library(c, fresh);
    c.one_pass = true;
    dmlref::Error same = status.error();
    same.output_partly_written = false;
    if (all.code() != status.code() || all.message() != same.message())
      fail(c, "one pass fails with \"" + message + "\", the default mode with \"" + all.message() + "\"");
  }

  // Results are identical for any number of threads and any executor.
  if (status.ok() && (c.threads != 1 || c.executor != 0)) {
    std::vector<Buffer> sequential = before;
    const dmlref::Status again = call_library(c, sequential, true);
    if (!again.ok()) fail(c, "with threads 1 the call fails: " + again.message());
    for (std::size_t b = 0; b < c.buffers.size(); ++b)
      if (sequential[b].bytes != c.buffers[b].bytes)
        fail(c, "buffer " + std::to_string(b) + " differs between threads " + std::to_string(c.threads) + " and 1");
  }

  // What the caller of the oracle checks itself.
  std::string caller_rejects;
  const DataType type = c.t[kInput].type;
  if (!dmlref::is_valid(type)) caller_rejects = "invalid data type";
  for (int role : {kUpdates, kOutput})
    if (c.t[role].used && c.t[role].type != type) caller_rejects = "data types differ";
  if (!dmlref::is_index_type(c.t[kIndices].type)) caller_rejects = "not an index type";
  if (c.reduction > 4) caller_rejects = "not a Reduction";
  bool oracle_safe = true;
  for (int role = 0; role < kRoles; ++role) {
    const Tensor& x = c.t[role];
    if (!x.used) continue;
    if (x.null_sizes) caller_rejects = "null Sizes";
    if (x.total > static_cast<std::uint64_t>(kInt64Max)) caller_rejects = "TotalTensorSizeInBytes above INT64_MAX";
    if (x.layout_valid && x.extent > x.total) caller_rejects = "TotalTensorSizeInBytes too small";
    if (x.extent_overflow) caller_rejects = "a byte extent of 2^63 or more";
    if (!x.arrays_exact()) oracle_safe = false;
    if (x.elements > kOracleElements) oracle_safe = false;
    if (x.layout_valid && !x.null_data &&
        x.offset + x.extent > c.buffers[static_cast<std::size_t>(x.buffer)].payload)
      oracle_safe = false;
  }
  if (!caller_rejects.empty()) {
    if (status.ok()) fail(c, "dmlref accepted a call the caller must reject: " + caller_rejects);
    return 0;
  }
  if (!oracle_safe) return 0;

  std::vector<Buffer> expected = before;
  const oracle::Result want = call_oracle(c, expected);
  const ErrorCode code = status.code();
  const bool conservative = code == ErrorCode::invalid_stride || code == ErrorCode::overlapping_tensors;
  if (status.ok()) {
    if (!want.ok) fail(c, "dmlref succeeded, the oracle failed: " + want.error);
    if (c.reduction != 0) return 0;  // the oracle only validated
    for (std::size_t b = 0; b < c.buffers.size(); ++b)
      if (c.buffers[b].bytes != expected[b].bytes) {
        std::size_t i = 0;
        while (c.buffers[b].bytes[i] == expected[b].bytes[i]) ++i;
        fail(c, "buffer " + std::to_string(b) + " differs from the oracle's at payload byte " +
                    std::to_string(static_cast<std::int64_t>(i) - static_cast<std::int64_t>(kGuard)));
      }
    return 0;
  }
  if (want.ok) {
    if (!conservative && code != ErrorCode::out_of_memory)
      fail(c, "dmlref failed, the oracle succeeded: " + message);
    return 0;
  }
  const bool index_error = contains(want.error, ": index error:");
  const bool collision = contains(want.error, ": collision:");
  if (code == ErrorCode::index_out_of_range && !index_error)
    fail(c, "dmlref reports an index error, the oracle: " + want.error + "\n  dmlref: " + message);
  if (code == ErrorCode::scatter_collision && !collision)
    fail(c, "dmlref reports a collision, the oracle: " + want.error + "\n  dmlref: " + message);
  if (index_error && code != ErrorCode::index_out_of_range && !conservative)
    fail(c, "the oracle reports an index error (" + want.error + "), dmlref: " + message);
  if (collision && code != ErrorCode::scatter_collision && !conservative)
    fail(c, "the oracle reports a collision (" + want.error + "), dmlref: " + message);
  return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return run_one(data, size);
}
