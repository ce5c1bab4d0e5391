// One test per validation rule of every operator (operators.md §2.5, §3.4, §5.5, §6.4, §7.5) and per
// layout rule (tensors.md §3, §4; the library's documented conservative rules for output strides
// and overlap). Every failing case asserts the ErrorCode, the tensor and field named (field_index
// where meaningful), expected/actual where meaningful, and that no buffer was written (payload and
// guard bytes). Cases run on the dispatch layer (TensorDesc) and, when a TensorView can express
// them, on the typed layer too, which must report the identical Error. Cases that must pass are
// compared byte for byte (every buffer, padding included) with the naive oracle.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dmlref/dmlref.hpp"
#include "support/guarded.hpp"
#include "support/oracle.hpp"

namespace {

using dmlref::DataType;
using dmlref::ErrorCode;
using dmlref::Shape;
using dmlref::Status;
using Sizes = std::vector<std::int64_t>;

/// Shapes in assertion messages: "{2, 3}" instead of gtest's byte dump.
std::string str(const Shape& s) { return dmlref::ErrorValue::braced(s); }

constexpr std::int64_t kTwoTo32 = std::int64_t{1} << 32;

// ================================================================================================
// Types

template <class T>
struct Tag {
  using type = T;
};

template <class F>
bool visit_data_type(DataType t, F&& f) {
  switch (t) {
    case DataType::FLOAT32: f(Tag<float>{}); return true;
    case DataType::FLOAT16: f(Tag<dmlref::float16>{}); return true;
    case DataType::FLOAT64: f(Tag<double>{}); return true;
    case DataType::INT8: f(Tag<std::int8_t>{}); return true;
    case DataType::INT16: f(Tag<std::int16_t>{}); return true;
    case DataType::INT32: f(Tag<std::int32_t>{}); return true;
    case DataType::INT64: f(Tag<std::int64_t>{}); return true;
    case DataType::UINT8: f(Tag<std::uint8_t>{}); return true;
    case DataType::UINT16: f(Tag<std::uint16_t>{}); return true;
    case DataType::UINT32: f(Tag<std::uint32_t>{}); return true;
    case DataType::UINT64: f(Tag<std::uint64_t>{}); return true;
    case DataType::UNKNOWN: return false;
  }
  return false;
}

template <class F>
bool visit_index_type(DataType t, F&& f) {
  switch (t) {
    case DataType::INT32: f(Tag<std::int32_t>{}); return true;
    case DataType::INT64: f(Tag<std::int64_t>{}); return true;
    case DataType::UINT32: f(Tag<std::uint32_t>{}); return true;
    case DataType::UINT64: f(Tag<std::uint64_t>{}); return true;
    case DataType::UNKNOWN:
    case DataType::FLOAT32:
    case DataType::FLOAT16:
    case DataType::FLOAT64:
    case DataType::INT8:
    case DataType::INT16:
    case DataType::UINT8:
    case DataType::UINT16: return false;
  }
  return false;
}

const std::vector<DataType>& data_types() {
  static const std::vector<DataType> all = {DataType::FLOAT64, DataType::FLOAT32, DataType::FLOAT16, DataType::INT64,
                                            DataType::INT32,   DataType::INT16,   DataType::INT8,    DataType::UINT64,
                                            DataType::UINT32,  DataType::UINT16,  DataType::UINT8};
  return all;
}
const std::vector<DataType>& index_types() {
  static const std::vector<DataType> all = {DataType::INT32, DataType::INT64, DataType::UINT32, DataType::UINT64};
  return all;
}
const std::vector<DataType>& non_index_types() {
  static const std::vector<DataType> all = {DataType::FLOAT64, DataType::FLOAT32, DataType::FLOAT16,
                                            DataType::INT16,   DataType::INT8,    DataType::UINT16,
                                            DataType::UINT8};
  return all;
}

std::size_t width_of(DataType t) {
  const std::size_t w = dmlref::element_size(t);
  return w != 0 ? w : 4;  // invalid types: the test still needs some buffer
}

// ================================================================================================
// A call: six operators, each tensor configurable down to its descriptor fields.

enum class Op { gather, gather_elements, gather_nd, gather_nd1, scatter, scatter_nd };
enum Role { kInput = 0, kIndices = 1, kUpdates = 2, kOutput = 3 };

const char* op_name(Op op) {
  switch (op) {
    case Op::gather: return "Gather";
    case Op::gather_elements: return "GatherElements";
    case Op::gather_nd: return "GatherND";
    case Op::gather_nd1: return "GatherND1";
    case Op::scatter: return "Scatter";
    case Op::scatter_nd: return "ScatterND";
  }
  return "";
}
const char* role_name(int role) {
  static const char* const names[] = {"InputTensor", "IndicesTensor", "UpdatesTensor", "OutputTensor"};
  return names[role];
}
bool is_scatter(Op op) { return op == Op::scatter || op == Op::scatter_nd; }
const std::vector<Op>& all_ops() {
  static const std::vector<Op> ops = {Op::gather, Op::gather_elements, Op::gather_nd,
                                      Op::gather_nd1, Op::scatter, Op::scatter_nd};
  return ops;
}

struct TensorConfig {
  DataType type = DataType::FLOAT32;
  Sizes sizes;
  std::optional<Sizes> strides;                  ///< absent: packed (Strides = nullptr)
  std::optional<std::uint32_t> dimension_count;  ///< descriptor only: differs from sizes.size()
  bool null_sizes = false;                       ///< descriptor only
  std::optional<std::uint64_t> total_bytes;      ///< descriptor only; default: the exact extent
  bool null_data = false;
  int alias_of = -1;              ///< data inside that role's buffer ...
  std::size_t alias_offset = 0;   ///< ... this many bytes in
  std::vector<std::uint64_t> values;  ///< indices: bit patterns, in row-major order of `sizes`
};

struct Call {
  Op op = Op::gather;
  TensorConfig t[4];
  std::uint32_t attr[3] = {0, 0, 0};
  dmlref::Options options;

  TensorConfig& input() { return t[kInput]; }
  TensorConfig& indices() { return t[kIndices]; }
  TensorConfig& updates() { return t[kUpdates]; }
  TensorConfig& output() { return t[kOutput]; }
  bool uses(int role) const { return role != kUpdates || is_scatter(op); }
  std::vector<int> roles() const {
    return is_scatter(op) ? std::vector<int>{kInput, kIndices, kUpdates, kOutput}
                          : std::vector<int>{kInput, kIndices, kOutput};
  }
};

std::vector<std::uint64_t> u64(std::initializer_list<std::int64_t> v) {
  std::vector<std::uint64_t> r;
  for (std::int64_t x : v) r.push_back(static_cast<std::uint64_t>(x));
  return r;
}

/// A valid call of each operator (FLOAT32 data, UINT32 indices), with leading size-1 dimensions
/// where the operator has "irrelevant leading" ones, so every rule has something to break.
Call make_call(Op op) {
  Call c;
  c.op = op;
  c.indices().type = DataType::UINT32;
  switch (op) {
    case Op::gather:  // Axis 1, IndexDimensions 1: {2,3,4} x {1,1,2} -> {2,2,4}
      c.input().sizes = {2, 3, 4};
      c.indices().sizes = {1, 1, 2};
      c.indices().values = u64({2, 0});
      c.output().sizes = {2, 2, 4};
      c.attr[0] = 1;
      c.attr[1] = 1;
      break;
    case Op::gather_elements:  // Axis 1: {2,3} x {2,2} -> {2,2}
      c.input().sizes = {2, 3};
      c.indices().sizes = {2, 2};
      c.indices().values = u64({0, 2, 1, 1});
      c.output().sizes = {2, 2};
      c.attr[0] = 1;
      break;
    case Op::gather_nd:  // r 2, q 2, K 1: {1,2,3} x {1,2,1} -> {1,2,3}
      c.input().sizes = {1, 2, 3};
      c.indices().sizes = {1, 2, 1};
      c.indices().values = u64({1, 0});
      c.output().sizes = {1, 2, 3};
      c.attr[0] = 2;
      c.attr[1] = 2;
      break;
    case Op::gather_nd1:  // r 3, q 3, B 1, K 1: {1,2,2,3} x {1,2,1,1} -> {1,2,1,3}
      c.input().sizes = {1, 2, 2, 3};
      c.indices().sizes = {1, 2, 1, 1};
      c.indices().values = u64({1, 0});
      c.output().sizes = {1, 2, 1, 3};
      c.attr[0] = 3;
      c.attr[1] = 3;
      c.attr[2] = 1;
      break;
    case Op::scatter:  // Axis 1: {2,3}, indices/updates {2,2}
      c.input().sizes = {2, 3};
      c.indices().sizes = {2, 2};
      c.indices().values = u64({0, 2, 1, 0});
      c.updates().sizes = {2, 2};
      c.output().sizes = {2, 3};
      c.attr[0] = 1;
      break;
    case Op::scatter_nd:  // r 2, q 2, K 1: {1,3,2}, indices {1,2,1}, updates {1,2,2}
      c.input().sizes = {1, 3, 2};
      c.indices().sizes = {1, 2, 1};
      c.indices().values = u64({2, 0});
      c.updates().sizes = {1, 2, 2};
      c.output().sizes = {1, 3, 2};
      c.attr[0] = 2;
      c.attr[1] = 2;
      break;
  }
  return c;
}

/// Where the default call's indices point: every index of the default calls addresses this
/// dimension of this tensor (for the ND operators: tuple coordinate 0).
struct IndexTarget {
  const char* tensor;
  int dimension;
  std::int64_t size;
};
IndexTarget index_target(Op op) {
  switch (op) {
    case Op::gather: return {"InputTensor", 1, 3};
    case Op::gather_elements: return {"InputTensor", 1, 3};
    case Op::gather_nd: return {"InputTensor", 1, 2};
    case Op::gather_nd1: return {"InputTensor", 2, 2};
    case Op::scatter: return {"OutputTensor", 1, 3};
    case Op::scatter_nd: return {"OutputTensor", 1, 3};
  }
  return {"", -1, 0};
}

// ================================================================================================
// Binding a call to guarded buffers.

/// Row-major strides (wrapping like the library's on absurd sizes; such layouts are never bound).
Sizes packed(const Sizes& sizes) {
  Sizes s(sizes.size(), 1);
  std::uint64_t stride = 1;
  for (std::size_t d = sizes.size(); d-- > 0;) {
    s[d] = static_cast<std::int64_t>(stride);
    stride *= static_cast<std::uint64_t>(sizes[d]);
  }
  return s;
}

/// Bytes from the first to the last addressed element; 0 when the layout is invalid or too large
/// to allocate (then the call must fail without touching memory, or only read a broadcast).
std::size_t extent_bytes(const TensorConfig& c) {
  const Sizes strides = c.strides ? *c.strides : packed(c.sizes);
  if (c.sizes.empty() || strides.size() != c.sizes.size()) return 0;
  __extension__ typedef unsigned __int128 u128;
  u128 last = 0;
  for (std::size_t d = 0; d < c.sizes.size(); ++d) {
    if (c.sizes[d] < 1 || strides[d] < 0) return 0;
    last += static_cast<u128>(c.sizes[d] - 1) * static_cast<u128>(strides[d]);
    if (last > (static_cast<u128>(1) << 40)) return 0;
  }
  const u128 bytes = (last + 1) * width_of(c.type);
  return bytes > (std::size_t{1} << 28) ? 0 : static_cast<std::size_t>(bytes);
}

bool next_coord(Sizes& c, const Sizes& sizes) {
  for (std::size_t d = sizes.size(); d-- > 0;) {
    if (++c[d] < sizes[d]) return true;
    c[d] = 0;
  }
  return false;
}

struct Bound {
  std::unique_ptr<guarded::Buffer> buffer[4];
  unsigned char* data[4] = {nullptr, nullptr, nullptr, nullptr};

  /// Every buffer's guards intact and payload as filled.
  ::testing::AssertionResult untouched() const {
    for (int r = 0; r < 4; ++r) {
      if (!buffer[r]) continue;
      if (!buffer[r]->guards_intact()) return ::testing::AssertionFailure() << role_name(r) << "'s guard bytes written";
      if (!buffer[r]->payload_unchanged())
        return ::testing::AssertionFailure()
               << role_name(r) << "'s buffer written at byte " << buffer[r]->first_change();
    }
    return ::testing::AssertionSuccess();
  }
};

/// Allocates one guarded buffer per role (aliased roles live in another's), fills inputs with
/// distinct values, indices with their values, and leaves the output at the sentinel.
Bound bind(const Call& c) {
  Bound b;
  std::size_t need[4] = {0, 0, 0, 0};
  for (int r : c.roles()) {
    const TensorConfig& t = c.t[r];
    const std::size_t own = std::max(extent_bytes(t), t.values.size() * width_of(t.type));
    if (t.alias_of >= 0)
      need[t.alias_of] = std::max(need[t.alias_of], t.alias_offset + std::max<std::size_t>(own, 1));
    else
      need[r] = std::max(need[r], own);
  }
  for (int r : c.roles()) {
    if (c.t[r].alias_of >= 0) continue;
    if (need[r] == 0) need[r] = 64;  // invalid layouts: some memory, which must stay untouched
    b.buffer[r] = std::make_unique<guarded::Buffer>(need[r]);
    guarded::Buffer& buf = *b.buffer[r];
    const TensorConfig& t = c.t[r];
    if (r == kInput || r == kUpdates) {  // distinct values in every element slot
      const std::size_t w = width_of(t.type);
      for (std::size_t i = 0; i * w + w <= buf.size(); ++i) {
        // An integer first: converting 1000.0 to int8 would be undefined (UBSan's float-cast-overflow);
        // integer narrowing wraps.
        const std::uint64_t v = (r == kUpdates ? 1000 : 1) + i % 1000;
        if (!visit_data_type(t.type, [&](auto tag) {
              using T = typename decltype(tag)::type;
              if constexpr (std::is_same_v<T, dmlref::float16>)
                buf.store(i, dmlref::float16::from_float(static_cast<float>(v)));
              else
                buf.store(i, static_cast<T>(v));
            }))
          buf.store(i, static_cast<std::uint32_t>(v));
      }
    } else if (r == kIndices) {
      std::memset(buf.bytes(), 0, buf.size());
    }
    buf.snapshot();
  }
  for (int r : c.roles()) {
    const TensorConfig& t = c.t[r];
    b.data[r] = t.alias_of >= 0 ? b.buffer[t.alias_of]->bytes() + t.alias_offset : b.buffer[r]->bytes();
  }
  // Index values at their logical coordinates (so that strided indices hold the same tensor).
  const TensorConfig& idx = c.t[kIndices];
  if (!idx.values.empty() && extent_bytes(idx) != 0) {
    const Sizes strides = idx.strides ? *idx.strides : packed(idx.sizes);
    const std::size_t w = width_of(idx.type);
    Sizes coord(idx.sizes.size(), 0);
    std::size_t k = 0;
    do {
      std::int64_t offset = 0;
      for (std::size_t d = 0; d < coord.size(); ++d) offset += coord[d] * strides[d];
      std::memcpy(b.data[kIndices] + offset * static_cast<std::int64_t>(w), &idx.values[k], w);  // little-endian
    } while (++k < idx.values.size() && next_coord(coord, idx.sizes));
    const int owner = idx.alias_of >= 0 ? idx.alias_of : kIndices;
    b.buffer[owner]->snapshot();
  }
  return b;
}

template <class Pointer>
dmlref::BasicTensorDesc<Pointer> make_desc(const TensorConfig& t, unsigned char* data) {
  dmlref::BasicTensorDesc<Pointer> d;
  d.DataType = t.type;
  d.DimensionCount = t.dimension_count.value_or(static_cast<std::uint32_t>(t.sizes.size()));
  d.Sizes = t.null_sizes ? nullptr : t.sizes.data();
  d.Strides = t.strides ? t.strides->data() : nullptr;
  d.TotalTensorSizeInBytes = t.total_bytes.value_or(extent_bytes(t));
  d.Data = t.null_data ? nullptr : data;
  return d;
}

Status run_dispatch(const Call& c, Bound& b) {
  const auto in = make_desc<const void*>(c.t[kInput], b.data[kInput]);
  const auto idx = make_desc<const void*>(c.t[kIndices], b.data[kIndices]);
  const auto upd = make_desc<const void*>(c.t[kUpdates], b.data[kUpdates]);
  const auto out = make_desc<void*>(c.t[kOutput], b.data[kOutput]);
  const std::uint32_t* a = c.attr;
  switch (c.op) {
    case Op::gather: return dmlref::try_gather(in, idx, out, {a[0], a[1]}, c.options);
    case Op::gather_elements: return dmlref::try_gather_elements(in, idx, out, {a[0]}, c.options);
    case Op::gather_nd: return dmlref::try_gather_nd(in, idx, out, {a[0], a[1]}, c.options);
    case Op::gather_nd1: return dmlref::try_gather_nd1(in, idx, out, {a[0], a[1], a[2]}, c.options);
    case Op::scatter: return dmlref::try_scatter(in, idx, upd, out, {a[0]}, c.options);
    case Op::scatter_nd: return dmlref::try_scatter_nd(in, idx, upd, out, {a[0], a[1]}, c.options);
  }
  return Status();
}

Shape to_shape(const Sizes& s) { return Shape::from(s.data(), s.size()); }

template <class T>
dmlref::TensorView<T> make_view(const TensorConfig& t, unsigned char* data) {
  T* p = t.null_data ? nullptr : reinterpret_cast<T*>(data);
  if (t.strides) return {p, to_shape(t.sizes), to_shape(*t.strides)};
  return {p, to_shape(t.sizes)};
}

template <class T, class I>
Status run_typed(const Call& c, Bound& b) {
  const auto in = make_view<const T>(c.t[kInput], b.data[kInput]);
  const auto idx = make_view<const I>(c.t[kIndices], b.data[kIndices]);
  const auto out = make_view<T>(c.t[kOutput], b.data[kOutput]);
  const std::uint32_t* a = c.attr;
  switch (c.op) {
    case Op::gather: return dmlref::try_gather(in, idx, out, {a[0], a[1]}, c.options);
    case Op::gather_elements: return dmlref::try_gather_elements(in, idx, out, {a[0]}, c.options);
    case Op::gather_nd: return dmlref::try_gather_nd(in, idx, out, {a[0], a[1]}, c.options);
    case Op::gather_nd1: return dmlref::try_gather_nd1(in, idx, out, {a[0], a[1], a[2]}, c.options);
    case Op::scatter:
      return dmlref::try_scatter(in, idx, make_view<const T>(c.t[kUpdates], b.data[kUpdates]), out, {a[0]},
                                 c.options);
    case Op::scatter_nd:
      return dmlref::try_scatter_nd(in, idx, make_view<const T>(c.t[kUpdates], b.data[kUpdates]), out,
                                    {a[0], a[1]}, c.options);
  }
  return Status();
}

/// A TensorView carries no DimensionCount, Sizes pointer or buffer size, and its types are
/// compile-time: only calls without those descriptor-only features run on the typed layer.
bool typed_expressible(const Call& c) {
  for (int r : c.roles()) {
    const TensorConfig& t = c.t[r];
    if (t.dimension_count || t.null_sizes || t.total_bytes) return false;
    if (r != kIndices && t.type != c.t[kInput].type) return false;
  }
  return dmlref::is_valid(c.t[kInput].type) && dmlref::is_index_type(c.t[kIndices].type);
}

Status run_typed_any(const Call& c, Bound& b) {
  Status s;
  visit_data_type(c.t[kInput].type, [&](auto data) {
    visit_index_type(c.t[kIndices].type, [&](auto index) {
      s = run_typed<typename decltype(data)::type, typename decltype(index)::type>(c, b);
    });
  });
  return s;
}

// ---- the oracle's view of a bound call ----

oracle::IndexKind kind_of(DataType t) {
  if (t == DataType::INT32) return oracle::IndexKind::i32;
  if (t == DataType::INT64) return oracle::IndexKind::i64;
  if (t == DataType::UINT64) return oracle::IndexKind::u64;
  return oracle::IndexKind::u32;
}

oracle::Result run_oracle(const Call& c, Bound& b) {
  // The descriptor's DimensionCount decides how many entries of the arrays belong to the tensor.
  auto sizes = [&](int r) {
    Sizes s = c.t[r].sizes;
    if (c.t[r].dimension_count) s.resize(*c.t[r].dimension_count);
    return s;
  };
  auto strides = [&](int r) {
    Sizes s = c.t[r].strides ? *c.t[r].strides : packed(sizes(r));
    s.resize(sizes(r).size());
    return s;
  };
  auto tensor = [&](int r) {
    return oracle::Tensor{b.data[r], dmlref::element_size(c.t[r].type), sizes(r), strides(r)};
  };
  const oracle::Indices idx{b.data[kIndices], kind_of(c.t[kIndices].type), sizes(kIndices), strides(kIndices)};
  const oracle::Output out{b.data[kOutput], dmlref::element_size(c.t[kOutput].type), sizes(kOutput),
                           strides(kOutput)};
  const oracle::Policy policy =
      c.options.index_policy == dmlref::IndexPolicy::clamp ? oracle::Policy::clamp : oracle::Policy::error;
  const std::uint32_t* a = c.attr;
  switch (c.op) {
    case Op::gather: return oracle::gather(tensor(kInput), idx, out, a[0], a[1], policy);
    case Op::gather_elements: return oracle::gather_elements(tensor(kInput), idx, out, a[0], policy);
    case Op::gather_nd: return oracle::gather_nd(tensor(kInput), idx, out, a[0], a[1], policy);
    case Op::gather_nd1: return oracle::gather_nd1(tensor(kInput), idx, out, a[0], a[1], a[2], policy);
    case Op::scatter:
      return oracle::scatter(tensor(kInput), idx, tensor(kUpdates), out, a[0], policy, c.options.check_collisions);
    case Op::scatter_nd:
      return oracle::scatter_nd(tensor(kInput), idx, tensor(kUpdates), out, a[0], a[1], policy,
                                c.options.check_collisions);
  }
  return {false, "unknown operator"};
}

// ================================================================================================
// Expectations.

/// The error a call must report. std::nullopt = not checked.
struct Want {
  ErrorCode code;
  std::string tensor;
  std::string field;
  std::optional<int> field_index = std::nullopt;
  std::optional<std::string> expected = std::nullopt;
  std::optional<std::string> actual = std::nullopt;
};

std::string describe(const dmlref::Error& e) {
  return std::string(dmlref::name(e.code)) + " | tensor '" + e.tensor + "' field '" + e.field + "' [" +
         std::to_string(e.field_index) + "] | " + e.message();
}

::testing::AssertionResult same_error(const dmlref::Error& a, const dmlref::Error& b) {
  const bool same = a.code == b.code && std::string(a.op) == b.op && std::string(a.tensor) == b.tensor &&
                    std::string(a.field) == b.field && a.field_index == b.field_index &&
                    a.expected.to_string() == b.expected.to_string() && a.actual.to_string() == b.actual.to_string() &&
                    a.position == b.position && std::string(a.target_tensor) == b.target_tensor &&
                    a.target_dimension == b.target_dimension && a.target_size == b.target_size &&
                    a.target_position == b.target_position && a.message() == b.message();
  if (same) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "the layers disagree:\n  dispatch: " << describe(a)
                                       << "\n  typed:    " << describe(b);
}

void check_want(const Status& s, const Want& w, const std::string& op) {
  ASSERT_FALSE(s.ok()) << "the call must fail with " << dmlref::name(w.code);
  const dmlref::Error& e = s.error();
  EXPECT_EQ(std::string(dmlref::name(e.code)), dmlref::name(w.code)) << describe(e);
  EXPECT_EQ(s.code(), e.code);
  EXPECT_EQ(std::string(e.op), op) << describe(e);
  EXPECT_EQ(std::string(e.tensor), w.tensor) << describe(e);
  EXPECT_EQ(std::string(e.field), w.field) << describe(e);
  if (w.field_index) {
    EXPECT_EQ(e.field_index, *w.field_index) << describe(e);
  }
  if (w.expected) {
    EXPECT_EQ(e.expected.to_string(), *w.expected) << describe(e);
  }
  if (w.actual) {
    EXPECT_EQ(e.actual.to_string(), *w.actual) << describe(e);
  }
}

/// Runs the call on the dispatch layer (and the typed layer when it can express it): both must
/// report `w`, the same Error, and leave every buffer untouched. Returns the dispatch layer's Error.
dmlref::Error expect_error(const Call& c, const Want& w) {
  Bound b = bind(c);
  Status dispatch = run_dispatch(c, b);
  {
    SCOPED_TRACE("dispatch layer");
    check_want(dispatch, w, op_name(c.op));
    EXPECT_TRUE(b.untouched());
  }
  if (typed_expressible(c)) {
    SCOPED_TRACE("typed layer");
    Bound bt = bind(c);
    const Status typed = run_typed_any(c, bt);
    check_want(typed, w, op_name(c.op));
    EXPECT_TRUE(bt.untouched());
    if (!dispatch.ok() && !typed.ok()) {
      EXPECT_TRUE(same_error(dispatch.error(), typed.error()));
    }
  }
  return dispatch.error();
}

/// Dispatch layer only (for rules a TensorView cannot express); no typed run even if possible.
dmlref::Error expect_dispatch_error(const Call& c, const Want& w) {
  Bound b = bind(c);
  const Status s = run_dispatch(c, b);
  check_want(s, w, op_name(c.op));
  EXPECT_TRUE(b.untouched());
  return s.error();
}

/// The call succeeds on every layer that can express it, and leaves every buffer byte exactly as
/// the naive oracle does (outputs' padding included).
void expect_ok(const Call& c) {
  Bound expected = bind(c);
  const oracle::Result r = run_oracle(c, expected);
  ASSERT_TRUE(r.ok) << "oracle: " << r.error;
  auto compare = [&](Bound& b, const Status& s) {
    ASSERT_TRUE(s.ok()) << describe(s.error());
    for (int role : c.roles()) {
      if (!b.buffer[role]) continue;
      EXPECT_TRUE(b.buffer[role]->guards_intact()) << role_name(role);
      const guarded::Buffer& got = *b.buffer[role];
      const guarded::Buffer& want = *expected.buffer[role];
      ASSERT_EQ(got.size(), want.size());
      for (std::size_t i = 0; i < got.size(); ++i)
        ASSERT_EQ(static_cast<int>(got[i]), static_cast<int>(want[i])) << role_name(role) << " byte " << i;
    }
  };
  {
    SCOPED_TRACE("dispatch layer");
    Bound b = bind(c);
    compare(b, run_dispatch(c, b));
  }
  if (typed_expressible(c)) {
    SCOPED_TRACE("typed layer");
    Bound b = bind(c);
    compare(b, run_typed_any(c, b));
  }
}

std::string trace(Op op, int role = -1) {
  return std::string(op_name(op)) + (role >= 0 ? std::string(" / ") + role_name(role) : std::string());
}

// ================================================================================================
// Baseline: the default calls are valid (so every failure below is caused by the one change).

TEST(ValidationBaseline, DefaultCallsSucceedOnBothLayers) {
  for (Op op : all_ops()) {
    SCOPED_TRACE(trace(op));
    expect_ok(make_call(op));
  }
}

TEST(ValidationBaseline, EveryDataTypeWithEveryIndexTypeIsAccepted) {
  // tensors.md §6: every D11 x I4 combination is legal for every operator (44 per operator).
  for (Op op : all_ops())
    for (DataType data : data_types())
      for (DataType index : index_types()) {
        SCOPED_TRACE(trace(op) + " " + dmlref::name(data) + " x " + dmlref::name(index));
        Call c = make_call(op);
        for (int r : c.roles())
          if (r != kIndices) c.t[r].type = data;
        c.indices().type = index;
        expect_ok(c);
      }
}

// ================================================================================================
// DimensionCount (tensors.md §3.2, §4.1; every operator's rule 1)

TEST(ValidationDimensionCount, ZeroIsRejectedForEveryTensor) {
  for (Op op : all_ops())
    for (int role : make_call(op).roles()) {
      SCOPED_TRACE(trace(op, role));
      Call c = make_call(op);
      c.t[role].sizes = {};  // DimensionCount 0 (descriptor) / a rank-0 Shape (view)
      expect_error(c, {ErrorCode::invalid_dimension_count, role_name(role), "DimensionCount", -1, "1..8", "0"});
    }
}

TEST(ValidationDimensionCount, NineIsRejectedForEveryTensor) {
  for (Op op : all_ops())
    for (int role : make_call(op).roles()) {
      SCOPED_TRACE(trace(op, role));
      Call c = make_call(op);
      Sizes nine(9 - c.t[role].sizes.size(), 1);
      nine.insert(nine.end(), c.t[role].sizes.begin(), c.t[role].sizes.end());
      c.t[role].sizes = nine;
      expect_error(c, {ErrorCode::invalid_dimension_count, role_name(role), "DimensionCount", -1, "1..8", "9"});
    }
}

TEST(ValidationDimensionCount, NineWithNullSizesIsStillADimensionCountError) {
  Call c = make_call(Op::gather);
  c.indices().dimension_count = 9;
  c.indices().null_sizes = true;
  expect_dispatch_error(c, {ErrorCode::invalid_dimension_count, "IndicesTensor", "DimensionCount", -1, "1..8", "9"});
  c.indices().dimension_count = 0;
  expect_dispatch_error(c, {ErrorCode::invalid_dimension_count, "IndicesTensor", "DimensionCount", -1, "1..8", "0"});
}

TEST(ValidationDimensionCount, EightIsAccepted) {
  Call c = make_call(Op::gather_elements);
  c.input().sizes = {1, 1, 1, 1, 1, 1, 2, 3};
  c.indices().sizes = {1, 1, 1, 1, 1, 1, 2, 2};
  c.output().sizes = c.indices().sizes;
  c.attr[0] = 7;
  expect_ok(c);
}

TEST(ValidationDimensionCount, DifferingFromInputTensorIsRejected) {
  for (Op op : all_ops())
    for (int role : make_call(op).roles()) {
      if (role == kInput) continue;
      SCOPED_TRACE(trace(op, role));
      Call c = make_call(op);
      const std::size_t D = c.input().sizes.size();
      c.t[role].sizes.insert(c.t[role].sizes.begin(), 1);  // one more leading 1
      expect_error(c, {ErrorCode::invalid_dimension_count, role_name(role), "DimensionCount", -1,
                       std::to_string(D), std::to_string(D + 1)});
      c = make_call(op);
      c.t[role].sizes.erase(c.t[role].sizes.begin());  // one fewer
      expect_error(c, {ErrorCode::invalid_dimension_count, role_name(role), "DimensionCount", -1,
                       std::to_string(D), std::to_string(D - 1)});
    }
}

TEST(ValidationDimensionCount, InputTensorSetsDForTheOthers) {
  // A changed InputTensor makes the first other tensor the one that differs.
  Call c = make_call(Op::scatter);
  c.input().sizes = {1, 2, 3};
  expect_error(c, {ErrorCode::invalid_dimension_count, "IndicesTensor", "DimensionCount", -1, "3", "2"});
}

TEST(ValidationDimensionCount, DescriptorDimensionCountIsWhatCounts) {
  // The descriptor's DimensionCount, not the length of the caller's array, is the rank.
  Call c = make_call(Op::gather_elements);
  c.indices().sizes = {2, 2, 7};  // a longer array ...
  c.indices().dimension_count = 2;  // ... of which only 2 entries belong to the tensor
  expect_ok(c);
}

// ================================================================================================
// Sizes (tensors.md §3.3: no empty tensors)

TEST(ValidationSizes, ZeroIsRejectedInEveryDimensionOfEveryTensor) {
  for (Op op : all_ops())
    for (int role : make_call(op).roles())
      for (std::size_t d = 0; d < make_call(op).t[role].sizes.size(); ++d) {
        SCOPED_TRACE(trace(op, role) + " Sizes[" + std::to_string(d) + "]");
        Call c = make_call(op);
        c.t[role].sizes[d] = 0;
        expect_error(c, {ErrorCode::invalid_size, role_name(role), "Sizes", static_cast<int>(d), std::nullopt, "0"});
      }
}

TEST(ValidationSizes, NegativeIsRejectedWithExplicitStrides) {
  for (Op op : all_ops())
    for (int role : make_call(op).roles())
      for (std::size_t d = 0; d < make_call(op).t[role].sizes.size(); ++d) {
        SCOPED_TRACE(trace(op, role) + " Sizes[" + std::to_string(d) + "]");
        Call c = make_call(op);
        c.t[role].strides = packed(c.t[role].sizes);
        c.t[role].sizes[d] = -1;
        expect_error(c, {ErrorCode::invalid_size, role_name(role), "Sizes", static_cast<int>(d), std::nullopt, "-1"});
      }
}

TEST(ValidationSizes, NegativeIsRejectedAsASizeErrorWhenStridesArePacked) {
  // Without explicit strides the library derives packed strides from the sizes; a negative size
  // must still be reported as InputTensor.Sizes[d], not as a negative stride the caller never gave.
  for (Op op : all_ops())
    for (int role : make_call(op).roles())
      for (std::size_t d = 0; d < make_call(op).t[role].sizes.size(); ++d) {
        SCOPED_TRACE(trace(op, role) + " Sizes[" + std::to_string(d) + "]");
        Call c = make_call(op);
        c.t[role].sizes[d] = -1;
        expect_error(c, {ErrorCode::invalid_size, role_name(role), "Sizes", static_cast<int>(d), std::nullopt, "-1"});
      }
}

TEST(ValidationSizes, PackedElementCountOverflowIsNotReportedAsANegativeStride) {
  // {2, 3 * 2^60, 4} without strides: 2^63 * 3 elements overflow. The packed stride of
  // dimension 0 would be 3 * 2^62, which wraps negative: the error is about Sizes, not Strides[0].
  Call c = make_call(Op::gather);
  c.input().sizes = {2, std::int64_t{3} << 60, 4};
  expect_error(c, {ErrorCode::overflow, "InputTensor", "Sizes", -1});
}

TEST(ValidationSizes, MostNegativeSizeIsRejected) {
  Call c = make_call(Op::gather_nd);
  c.input().sizes[2] = std::numeric_limits<std::int64_t>::min();
  c.input().strides = Sizes{6, 3, 1};
  expect_error(c, {ErrorCode::invalid_size, "InputTensor", "Sizes", 2, std::nullopt,
                   std::to_string(std::numeric_limits<std::int64_t>::min())});
}

TEST(ValidationSizes, NullSizesWithDimensionsIsRejected) {
  for (Op op : all_ops())
    for (int role : make_call(op).roles()) {
      SCOPED_TRACE(trace(op, role));
      Call c = make_call(op);
      c.t[role].null_sizes = true;
      expect_dispatch_error(c, {ErrorCode::null_pointer, role_name(role), "Sizes", -1});
    }
}

// ================================================================================================
// Strides (tensors.md §3.4; §4.4)

TEST(ValidationStrides, NegativeStrideIsRejectedForEveryTensor) {
  for (Op op : all_ops())
    for (int role : make_call(op).roles()) {
      const std::size_t last = make_call(op).t[role].sizes.size() - 1;
      for (std::size_t d : {std::size_t{0}, last}) {
        SCOPED_TRACE(trace(op, role) + " Strides[" + std::to_string(d) + "]");
        Call c = make_call(op);
        c.t[role].strides = packed(c.t[role].sizes);
        (*c.t[role].strides)[d] = -2;
        expect_error(c, {ErrorCode::invalid_stride, role_name(role), "Strides", static_cast<int>(d), std::nullopt, "-2"});
      }
    }
}

TEST(ValidationStrides, TypedViewWithStridesOfAnotherRankIsRejected) {
  // Only a TensorView can carry a Strides Shape of another length than its Sizes.
  guarded::Buffer in(6 * sizeof(float)), idx(4 * sizeof(std::uint32_t)), out(4 * sizeof(float));
  idx.fill(std::vector<std::uint32_t>{0, 1, 2, 0});
  for (const Shape& strides : {Shape{1}, Shape{3, 1, 1}}) {
    const Status s = dmlref::try_gather_elements(in.cview<float>({2, 3}), idx.cview<std::uint32_t>({2, 2}, strides),
                                                 out.view<float>({2, 2}), {1});
    check_want(s, {ErrorCode::invalid_stride, "IndicesTensor", "Strides", -1, "2", std::to_string(strides.rank())},
               "GatherElements");
    const Status o = dmlref::try_gather_elements(in.cview<float>({2, 3}), idx.cview<std::uint32_t>({2, 2}),
                                                 out.view<float>({2, 2}, strides), {1});
    check_want(o, {ErrorCode::invalid_stride, "OutputTensor", "Strides", -1, "2", std::to_string(strides.rank())},
               "GatherElements");
    EXPECT_TRUE(in.untouched() && idx.untouched() && out.untouched());
  }
}

TEST(ValidationStrides, OutputWithZeroStrideIsRejected) {
  for (Op op : all_ops()) {
    SCOPED_TRACE(trace(op));
    Call c = make_call(op);
    Sizes strides = packed(c.output().sizes);
    for (std::size_t d = 0; d < strides.size(); ++d)
      if (c.output().sizes[d] > 1) {
        strides[d] = 0;  // broadcast the first dimension that has more than one element
        break;
      }
    c.output().strides = strides;
    expect_error(c, {ErrorCode::invalid_stride, "OutputTensor", "Strides", -1});
  }
}

TEST(ValidationStrides, OutputWithOverlappingStridesIsRejected) {
  // {2,3} with strides {2,1}: element (0,2) and (1,0) share offset 2.
  Call c = make_call(Op::gather_elements);
  c.input().sizes = {2, 3};
  c.indices().sizes = {2, 3};
  c.indices().values = u64({0, 1, 2, 2, 1, 0});
  c.output().sizes = {2, 3};
  c.output().strides = Sizes{2, 1};
  expect_error(c, {ErrorCode::invalid_stride, "OutputTensor", "Strides", -1, std::nullopt, "{2, 1}"});
  // Equal strides: (0,1) and (1,0) share offset 1.
  c.output().strides = Sizes{1, 1};
  expect_error(c, {ErrorCode::invalid_stride, "OutputTensor", "Strides", -1, std::nullopt, "{1, 1}"});
  // Column-major {1,2} is a valid (permuted, packed) layout.
  c.output().strides = Sizes{1, 2};
  expect_ok(c);
}

TEST(ValidationStrides, OutputWithOverlapAcrossThreeDimensionsIsRejected) {
  // Sorted strides 1, 3, 5 over sizes 4, 2, 2: stride 3 <= extent 3 of the first dimension.
  Call c = make_call(Op::scatter);
  c.input().sizes = {2, 2, 4};
  c.indices().sizes = {2, 2, 1};
  c.indices().values = u64({0, 1, 2, 3});
  c.updates().sizes = {2, 2, 1};
  c.output().sizes = {2, 2, 4};
  c.output().strides = Sizes{5, 3, 1};
  c.attr[0] = 2;
  expect_error(c, {ErrorCode::invalid_stride, "OutputTensor", "Strides", -1});
  c.output().strides = Sizes{8, 4, 1};  // packed would be {8,4,1}: fine
  expect_ok(c);
}

TEST(ValidationStrides, OutputStrideZeroOnASizeOneDimensionIsAccepted) {
  Call c = make_call(Op::gather_nd);  // output {1,2,3}
  c.output().strides = Sizes{0, 3, 1};
  expect_ok(c);
}

TEST(ValidationStrides, PaddedAndPermutedOutputsAreAccepted) {
  for (Op op : all_ops()) {
    SCOPED_TRACE(trace(op));
    Call c = make_call(op);
    // Padded: every stride one element larger than its extent; permuted: dimension 0 fastest.
    const Sizes& s = c.output().sizes;
    Sizes padded(s.size()), column(s.size());
    std::int64_t next = 1, col = 1;
    for (std::size_t d = s.size(); d-- > 0;) {
      padded[d] = next;
      next = next * s[d] + 1;
    }
    for (std::size_t d = 0; d < s.size(); ++d) {
      column[d] = col;
      col *= s[d];
    }
    c.output().strides = padded;
    expect_ok(c);
    c.output().strides = column;
    expect_ok(c);
  }
}

TEST(ValidationStrides, BroadcastInputsIndicesAndUpdatesAreAccepted) {
  for (Op op : all_ops()) {
    SCOPED_TRACE(trace(op));
    Call c = make_call(op);
    for (int role : c.roles()) {
      if (role == kOutput) continue;
      Sizes zeros(c.t[role].sizes.size(), 0);
      c.t[role].strides = zeros;
    }
    c.indices().values = u64({0});  // one index, repeated everywhere
    expect_ok(c);
  }
}

TEST(ValidationStrides, StridesCountsAsDimensionCountEntries) {
  // A descriptor's Strides array has DimensionCount entries, like Sizes: extra entries are ignored.
  Call c = make_call(Op::gather_elements);
  c.input().strides = Sizes{3, 1, 99};
  c.input().dimension_count = 2;
  c.input().sizes.push_back(5);
  expect_ok(c);
}

// ================================================================================================
// Data pointers

TEST(ValidationData, NullDataIsRejectedForEveryTensor) {
  for (Op op : all_ops())
    for (int role : make_call(op).roles()) {
      SCOPED_TRACE(trace(op, role));
      Call c = make_call(op);
      c.t[role].null_data = true;
      expect_error(c, {ErrorCode::null_pointer, role_name(role), "Data", -1});
    }
}

// ================================================================================================
// TotalTensorSizeInBytes (tensors.md §3.5, §4.3: without the round-up to 4)

TEST(ValidationBufferSize, OneByteTooSmallIsRejectedForEveryTensor) {
  for (Op op : all_ops())
    for (int role : make_call(op).roles()) {
      SCOPED_TRACE(trace(op, role));
      Call c = make_call(op);
      const std::size_t exact = extent_bytes(c.t[role]);
      c.t[role].total_bytes = exact - 1;
      expect_dispatch_error(c, {ErrorCode::buffer_too_small, role_name(role), "TotalTensorSizeInBytes", -1,
                                "at least " + std::to_string(exact), std::to_string(exact - 1)});
      c.t[role].total_bytes = exact;  // exactly enough
      expect_ok(c);
      c.t[role].total_bytes = exact + 1000;  // more than enough
      expect_ok(c);
    }
}

TEST(ValidationBufferSize, ExtentIsLastElementPlusOneWithoutRoundingToFour) {
  // UINT8 {3}: 3 bytes suffice (DirectML's GPU binding rounds to 4; the reference does not need to).
  Call c = make_call(Op::gather);
  for (int r : c.roles())
    if (r != kIndices) c.t[r].type = DataType::UINT8;
  c.input().sizes = {1, 3, 1};
  c.output().sizes = {1, 2, 1};
  c.input().total_bytes = 3;
  expect_ok(c);
  c.input().total_bytes = 2;
  expect_dispatch_error(c, {ErrorCode::buffer_too_small, "InputTensor", "TotalTensorSizeInBytes", -1, "at least 3", "2"});
}

TEST(ValidationBufferSize, StridedExtentsFollowTheHelperFormula) {
  // tensors.md §3.5 worked values: FLOAT32 {2,3} strides {0,1} needs 12 bytes; {5,1} needs 32.
  Call c = make_call(Op::gather_elements);  // input {2,3} FLOAT32
  c.input().strides = Sizes{0, 1};
  c.input().total_bytes = 12;
  expect_ok(c);
  c.input().total_bytes = 11;
  expect_dispatch_error(c, {ErrorCode::buffer_too_small, "InputTensor", "TotalTensorSizeInBytes", -1, "at least 12", "11"});
  c.input().strides = Sizes{5, 1};
  c.input().total_bytes = 32;
  expect_ok(c);
  c.input().total_bytes = 31;
  expect_dispatch_error(c, {ErrorCode::buffer_too_small, "InputTensor", "TotalTensorSizeInBytes", -1, "at least 32", "31"});
  // INT64 {2,2} column-major {1,2}: 32 bytes.
  Call s = make_call(Op::scatter);  // {2,3}; make it {2,2}
  for (int r : s.roles())
    if (r != kIndices) s.t[r].type = DataType::INT64;
  s.input().sizes = {2, 2};
  s.output().sizes = {2, 2};
  s.indices().values = u64({0, 1, 1, 0});
  s.input().strides = Sizes{1, 2};
  s.input().total_bytes = 32;
  expect_ok(s);
  s.input().total_bytes = 31;
  expect_dispatch_error(s, {ErrorCode::buffer_too_small, "InputTensor", "TotalTensorSizeInBytes", -1, "at least 32", "31"});
}

TEST(ValidationBufferSize, ZeroBytesIsTooSmall) {
  Call c = make_call(Op::scatter_nd);
  c.updates().total_bytes = 0;
  expect_dispatch_error(c, {ErrorCode::buffer_too_small, "UpdatesTensor", "TotalTensorSizeInBytes", -1, "at least 16", "0"});
}

TEST(ValidationBufferSize, AboveInt64MaxIsAnOverflow) {
  Call c = make_call(Op::gather);
  c.indices().total_bytes = std::numeric_limits<std::uint64_t>::max();
  expect_dispatch_error(c, {ErrorCode::overflow, "IndicesTensor", "TotalTensorSizeInBytes", -1, std::nullopt,
                            "18446744073709551615"});
}

// ================================================================================================
// Element count and byte extent overflow

TEST(ValidationOverflow, ElementCountBeyondInt64IsRejectedEvenWhenBroadcast) {
  // {2^32, 2^32} = 2^64 elements: not representable, whatever the strides.
  Call c = make_call(Op::gather_elements);
  c.input().sizes = {kTwoTo32, kTwoTo32};
  c.input().strides = Sizes{0, 0};
  c.indices().sizes = {kTwoTo32, 1};  // (not reached)
  expect_error(c, {ErrorCode::overflow, "InputTensor", "Sizes", -1});
  Call i = make_call(Op::gather_elements);
  i.indices().sizes = {kTwoTo32, kTwoTo32};
  i.indices().strides = Sizes{0, 0};
  expect_error(i, {ErrorCode::overflow, "IndicesTensor", "Sizes", -1});
}

TEST(ValidationOverflow, PackedElementCountBeyondInt64IsRejected) {
  Call c = make_call(Op::gather);
  c.input().sizes = {kTwoTo32, 3, kTwoTo32};
  expect_error(c, {ErrorCode::overflow, "InputTensor", "Sizes", -1});
}

TEST(ValidationOverflow, HugeBroadcastInputWithinInt64IsLegal) {
  // 2^40 elements, all one physical element (stride 0): legal for an input (more than DirectML's
  // 2^32 - 1, which tensors.md §4.5 allows as an extension), 4 bytes of buffer.
  Call c = make_call(Op::gather_elements);
  c.input().sizes = {std::int64_t{1} << 40, 1};
  c.input().strides = Sizes{0, 0};
  c.indices().type = DataType::INT64;
  c.indices().sizes = {3, 1};
  c.indices().values = u64({0, (std::int64_t{1} << 40) - 1, -(std::int64_t{1} << 40)});
  c.output().sizes = {3, 1};
  c.attr[0] = 0;
  {
    Bound b = bind(c);
    const Status s = run_dispatch(c, b);
    ASSERT_TRUE(s.ok()) << describe(s.error());
    for (int k = 0; k < 3; ++k) EXPECT_EQ(b.buffer[kOutput]->load<float>(k), 1.0f);
    EXPECT_TRUE(b.buffer[kOutput]->guards_intact());
  }
  {
    Bound b = bind(c);
    const Status s = run_typed_any(c, b);
    ASSERT_TRUE(s.ok()) << describe(s.error());
    for (int k = 0; k < 3; ++k) EXPECT_EQ(b.buffer[kOutput]->load<float>(k), 1.0f);
  }
  // One past the end of that axis is out of range, and says so with the full size.
  c.indices().values = u64({0, std::int64_t{1} << 40, 0});
  const dmlref::Error e = expect_error(c, {ErrorCode::index_out_of_range, "IndicesTensor", "value", -1,
                                    "-1099511627776..1099511627775", "1099511627776"});
  EXPECT_EQ(e.target_size, std::int64_t{1} << 40);
}

TEST(ValidationOverflow, ByteExtentBeyondInt64IsRejected) {
  // Last offset (3-1) * 2^62 = 2^63 does not fit.
  Call c = make_call(Op::gather_elements);
  c.input().sizes = {2, 3};
  c.input().strides = Sizes{1, std::int64_t{1} << 62};
  expect_error(c, {ErrorCode::overflow, "InputTensor", "Strides", -1});
  // Last offset 2^62 fits, (2^62 + 1) * 4 bytes does not.
  c.input().strides = Sizes{std::int64_t{1} << 62, 1};
  expect_error(c, {ErrorCode::overflow, "InputTensor", "Strides", -1});
  // FLOAT64 with last offset 2^60 + 2: (2^60 + 3) * 8 > 2^63.
  Call d = make_call(Op::scatter);
  for (int r : d.roles())
    if (r != kIndices) d.t[r].type = DataType::FLOAT64;
  d.updates().strides = Sizes{std::int64_t{1} << 60, 2};
  expect_error(d, {ErrorCode::overflow, "UpdatesTensor", "Strides", -1});
}

TEST(ValidationOverflow, OutputByteExtentBeyondInt64IsRejected) {
  Call c = make_call(Op::gather_elements);
  c.output().strides = Sizes{std::int64_t{1} << 62, 1};
  expect_error(c, {ErrorCode::overflow, "OutputTensor", "Strides", -1});
}

// ================================================================================================
// Data types (every operator's rule 2 and 3)

TEST(ValidationDataType, UnknownAndOutOfRangeDataTypesAreRejected) {
  const std::uint32_t bad[] = {0, 12, 13, 99, 0xFFFFFFFFu};
  for (Op op : all_ops())
    for (int role : make_call(op).roles()) {
      if (role == kIndices) continue;
      for (std::uint32_t v : bad) {
        SCOPED_TRACE(trace(op, role) + " DataType " + std::to_string(v));
        Call c = make_call(op);
        c.t[role].type = static_cast<DataType>(v);
        expect_dispatch_error(c, {ErrorCode::unsupported_data_type, role_name(role), "DataType", -1, std::nullopt,
                                  std::to_string(v)});
      }
    }
}

TEST(ValidationDataType, UnknownAndOutOfRangeIndexTypesAreRejected) {
  const std::uint32_t bad[] = {0, 12, 13, 99, 0xFFFFFFFFu};
  for (Op op : all_ops())
    for (std::uint32_t v : bad) {
      SCOPED_TRACE(trace(op) + " IndicesTensor DataType " + std::to_string(v));
      Call c = make_call(op);
      c.indices().type = static_cast<DataType>(v);
      expect_dispatch_error(c, {ErrorCode::unsupported_index_type, "IndicesTensor", "DataType", -1, std::nullopt,
                                std::to_string(v)});
    }
}

TEST(ValidationDataType, NonIndexTypesAreRejectedAsIndexTypes) {
  for (Op op : all_ops())
    for (DataType t : non_index_types()) {
      SCOPED_TRACE(trace(op) + " IndicesTensor " + dmlref::name(t));
      Call c = make_call(op);
      c.indices().type = t;
      expect_dispatch_error(c, {ErrorCode::unsupported_index_type, "IndicesTensor", "DataType", -1,
                                "INT32, INT64, UINT32 or UINT64", dmlref::name(t)});
    }
}

TEST(ValidationDataType, OutputAndUpdatesMustMatchInput) {
  for (Op op : all_ops())
    for (int role : make_call(op).roles()) {
      if (role == kInput || role == kIndices) continue;
      for (DataType t : data_types()) {
        if (t == DataType::FLOAT32) continue;
        SCOPED_TRACE(trace(op, role) + " " + dmlref::name(t));
        Call c = make_call(op);
        c.t[role].type = t;
        expect_dispatch_error(c, {ErrorCode::data_type_mismatch, role_name(role), "DataType", -1, "FLOAT32",
                                  dmlref::name(t)});
      }
    }
}

TEST(ValidationDataType, SameWidthIsNotSameType) {
  // Bits are copied as they are, but INT32 and FLOAT32 data are still different types.
  Call c = make_call(Op::scatter);
  c.input().type = DataType::INT32;
  c.updates().type = DataType::INT32;
  c.output().type = DataType::UINT32;
  expect_dispatch_error(c, {ErrorCode::data_type_mismatch, "OutputTensor", "DataType", -1, "INT32", "UINT32"});
}

// ================================================================================================
// Attributes

TEST(ValidationAttributes, AxisMustBeBelowD) {
  for (Op op : {Op::gather, Op::gather_elements, Op::scatter}) {
    const std::uint32_t D = static_cast<std::uint32_t>(make_call(op).input().sizes.size());
    for (std::uint32_t axis : {D, D + 1, std::numeric_limits<std::uint32_t>::max()}) {
      SCOPED_TRACE(trace(op) + " Axis " + std::to_string(axis));
      Call c = make_call(op);
      c.attr[0] = axis;
      expect_error(c, {ErrorCode::invalid_attribute, "", "Axis", -1, "0.." + std::to_string(D - 1),
                       std::to_string(axis)});
    }
  }
}

TEST(ValidationAttributes, AxisDMinusOneIsAccepted) {
  Call c = make_call(Op::gather);  // {2,3,4}, Axis 2
  c.attr[0] = 2;
  c.output().sizes = {2, 3, 2};
  c.indices().values = u64({3, 0});
  expect_ok(c);
}

TEST(ValidationAttributes, IndexDimensionsMustBeAtMostD) {
  for (std::uint32_t p : {4u, 5u, std::numeric_limits<std::uint32_t>::max()}) {
    SCOPED_TRACE("IndexDimensions " + std::to_string(p));
    Call c = make_call(Op::gather);  // D = 3
    c.attr[1] = p;
    expect_error(c, {ErrorCode::invalid_attribute, "", "IndexDimensions", -1, "0..3", std::to_string(p)});
  }
}

TEST(ValidationAttributes, IndexDimensionsDAndZeroAreAccepted) {
  Call c = make_call(Op::gather);  // {2,3,4}, Axis 0
  c.attr[0] = 0;
  c.attr[1] = 3;  // P = D: L = {} ++ {1,1,2} ++ {3,4}; the 2 dropped entries are 1
  c.indices().values = u64({1, 0});
  c.output().sizes = {2, 3, 4};
  expect_ok(c);
  c.attr[1] = 0;  // a scalar index: Out = (1) ++ {3,4}
  c.indices().sizes = {1, 1, 1};
  c.indices().values = u64({1});
  c.output().sizes = {1, 3, 4};
  expect_ok(c);
}

TEST(ValidationAttributes, InputAndIndicesDimensionCountMustBeOneToD) {
  for (Op op : {Op::gather_nd, Op::gather_nd1, Op::scatter_nd}) {
    const std::uint32_t D = static_cast<std::uint32_t>(make_call(op).input().sizes.size());
    for (int field = 0; field < 2; ++field)
      for (std::uint32_t v : {0u, D + 1, std::numeric_limits<std::uint32_t>::max()}) {
        const char* name = field == 0 ? "InputDimensionCount" : "IndicesDimensionCount";
        SCOPED_TRACE(trace(op) + " " + name + " " + std::to_string(v));
        Call c = make_call(op);
        c.attr[field] = v;
        expect_error(c, {ErrorCode::invalid_attribute, "", name, -1, "1.." + std::to_string(D), std::to_string(v)});
      }
  }
}

TEST(ValidationAttributes, InputAndIndicesDimensionCountDAreAccepted) {
  // ScatterND's page says [1, D); its own example GN-S needs D (spec §7.2).
  Call c = make_call(Op::scatter_nd);  // {1,3,2}: r = D = 3, q = D = 3
  c.attr[0] = 3;
  c.attr[1] = 3;
  // K = 1 addresses dimension 0 (size 1); M = 2 + 2 = 4 > 3 would not fit: use K = 2.
  c.indices().sizes = {1, 1, 2};
  c.indices().values = u64({0, 2});
  c.updates().sizes = {1, 1, 2};  // M = 2 + (3 - 2) = 3: {1,1} ++ {2}
  expect_ok(c);
}

TEST(ValidationAttributes, BatchDimensionCountMustBeBelowRAndQ) {
  // Default GatherND1: r 3, q 3. B = 3 is out of range; so is B = q when q < r, and B = r when r < q.
  struct Case {
    std::uint32_t r, q, B;
    std::string range;
  };
  for (const Case& k : {Case{3, 3, 3, "0..2"}, Case{3, 3, 4, "0..2"}, Case{3, 2, 2, "0..1"}, Case{2, 3, 2, "0..1"},
                        Case{3, 3, std::numeric_limits<std::uint32_t>::max(), "0..2"}}) {
    SCOPED_TRACE("r " + std::to_string(k.r) + " q " + std::to_string(k.q) + " B " + std::to_string(k.B));
    Call c = make_call(Op::gather_nd1);
    c.attr[0] = k.r;
    c.attr[1] = k.q;
    c.attr[2] = k.B;
    expect_error(c, {ErrorCode::invalid_attribute, "", "BatchDimensionCount", -1, k.range, std::to_string(k.B)});
  }
}

TEST(ValidationAttributes, BatchDimensionCountBelowMinimumIsAccepted) {
  // r 3, q 3, B 2, K 1: input {1,2,2,3}, indices {1,2,2,1} -> M = 2 + 0 = 2, out {1,1,2,2}.
  Call c = make_call(Op::gather_nd1);
  c.attr[2] = 2;
  c.indices().sizes = {1, 2, 2, 1};
  c.indices().values = u64({2, 0, 1, 1});
  c.output().sizes = {1, 1, 2, 2};
  expect_ok(c);
}

// ================================================================================================
// Shape rules

TEST(ValidationShapes, GatherIndicesLeadingSizesMustBeOne) {
  // D = 3, IndexDimensions 1: IndicesTensor's first two sizes are "irrelevant leading" ones.
  for (int d : {0, 1}) {
    SCOPED_TRACE("IndicesTensor.Sizes[" + std::to_string(d) + "]");
    Call c = make_call(Op::gather);
    c.indices().sizes[static_cast<std::size_t>(d)] = 2;
    c.indices().values = u64({0, 0, 0, 0});
    expect_error(c, {ErrorCode::shape_mismatch, "IndicesTensor", "Sizes", d, "1", "2"});
  }
}

TEST(ValidationShapes, GatherDroppedEntryOfLMustBeOne) {
  // {2,3,4}, Axis 1, IndexDimensions 2, indices {1,1,2}: L = {2} ++ {1,2} ++ {4}; dropping L[0] = 2
  // would lose data (the spec's "IndexDimensions too large for DimensionCount").
  Call c = make_call(Op::gather);
  c.attr[1] = 2;
  expect_error(c, {ErrorCode::shape_mismatch, "", "IndexDimensions", -1, std::nullopt, "2"});
  // With a leading input size of 1 the dropped entry is 1: {1,3,4}, Axis 1, P 2 -> {1,2,4}.
  c.input().sizes = {1, 3, 4};
  c.output().sizes = {1, 2, 4};
  expect_ok(c);
}

TEST(ValidationShapes, NdInputLeadingSizesMustBeOne) {
  for (Op op : {Op::gather_nd, Op::gather_nd1, Op::scatter_nd}) {
    SCOPED_TRACE(trace(op));
    Call c = make_call(op);
    c.input().sizes[0] = 2;
    expect_error(c, {ErrorCode::shape_mismatch, "InputTensor", "Sizes", 0, "1", "2"});
  }
}

TEST(ValidationShapes, NdIndicesLeadingSizesMustBeOne) {
  for (Op op : {Op::gather_nd, Op::gather_nd1, Op::scatter_nd}) {
    SCOPED_TRACE(trace(op));
    Call c = make_call(op);
    c.indices().sizes[0] = 2;
    c.indices().values = u64({0, 0, 0, 0});
    expect_error(c, {ErrorCode::shape_mismatch, "IndicesTensor", "Sizes", 0, "1", "2"});
  }
}

TEST(ValidationShapes, ElementsIndicesMustMatchInputOffAxis) {
  for (Op op : {Op::gather_elements, Op::scatter}) {
    for (std::int64_t size : {1, 3}) {  // smaller and larger than InputTensor.Sizes[0] = 2
      SCOPED_TRACE(trace(op) + " IndicesTensor.Sizes[0] = " + std::to_string(size));
      Call c = make_call(op);  // Axis 1
      c.indices().sizes[0] = size;
      if (is_scatter(op)) c.updates().sizes[0] = size;
      if (!is_scatter(op)) c.output().sizes[0] = size;
      expect_error(c, {ErrorCode::shape_mismatch, "IndicesTensor", "Sizes", 0, "2", std::to_string(size)});
    }
  }
}

TEST(ValidationShapes, ElementsIndicesMayDifferAlongAxis) {
  for (Op op : {Op::gather_elements, Op::scatter}) {
    SCOPED_TRACE(trace(op));
    Call c = make_call(op);  // input {2,3}, Axis 1: Idx[1] may be 1..anything
    c.indices().sizes = {2, 5};
    c.indices().values = u64({0, 1, 2, 0, 1, 2, 1, 0, 2, 1});
    if (is_scatter(op)) {
      c.updates().sizes = {2, 5};
    } else {
      c.output().sizes = {2, 5};
    }
    expect_ok(c);
  }
}

TEST(ValidationShapes, ScatterUpdatesMustEqualIndices) {
  for (const Sizes& upd : {Sizes{2, 1}, Sizes{2, 3}, Sizes{1, 2}}) {
    Call c = make_call(Op::scatter);
    c.updates().sizes = upd;
    expect_error(c, {ErrorCode::shape_mismatch, "UpdatesTensor", "Sizes", -1, "{2, 2}",
                     "{" + std::to_string(upd[0]) + ", " + std::to_string(upd[1]) + "}"});
  }
}

TEST(ValidationShapes, ScatterNDUpdatesMustHaveTheGatherNDShape) {
  for (const Sizes& upd : {Sizes{1, 2, 1}, Sizes{1, 1, 2}, Sizes{2, 2, 2}, Sizes{1, 3, 2}}) {
    Call c = make_call(Op::scatter_nd);
    c.updates().sizes = upd;
    expect_error(c, {ErrorCode::shape_mismatch, "UpdatesTensor", "Sizes", -1, "{1, 2, 2}"});
  }
}

TEST(ValidationShapes, TupleLengthZeroIsASizeError) {
  // K = 0 cannot be expressed: it would be a size of 0.
  for (Op op : {Op::gather_nd, Op::gather_nd1, Op::scatter_nd}) {
    SCOPED_TRACE(trace(op));
    Call c = make_call(op);
    const int last = static_cast<int>(c.indices().sizes.size()) - 1;
    c.indices().sizes[static_cast<std::size_t>(last)] = 0;
    c.indices().values.clear();
    expect_error(c, {ErrorCode::invalid_size, "IndicesTensor", "Sizes", last, std::nullopt, "0"});
  }
}

TEST(ValidationShapes, TupleLengthAboveRMinusBIsRejected) {
  struct Case {
    Op op;
    std::int64_t K;
    std::string range;
  };
  // GatherND r 2: K <= 2; GatherND1 r 3, B 1: K <= 2; ScatterND r 2: K <= 2.
  for (const Case& k : {Case{Op::gather_nd, 3, "1..2"}, Case{Op::gather_nd1, 3, "1..2"},
                        Case{Op::scatter_nd, 3, "1..2"}}) {
    SCOPED_TRACE(trace(k.op));
    Call c = make_call(k.op);
    const std::size_t last = c.indices().sizes.size() - 1;
    c.indices().sizes[last] = k.K;
    c.indices().values.assign(static_cast<std::size_t>(2 * k.K), 0);
    expect_error(c, {ErrorCode::shape_mismatch, "IndicesTensor", "Sizes", static_cast<int>(last), k.range,
                     std::to_string(k.K)});
  }
}

TEST(ValidationShapes, TupleLengthRMinusBIsAccepted) {
  Call c = make_call(Op::gather_nd1);  // r 3, B 1: K = 2 addresses both remaining dimensions
  c.indices().sizes = {1, 2, 1, 2};
  c.indices().values = u64({1, 2, 0, 0});
  c.output().sizes = {1, 1, 2, 1};  // M = 2 + 0: {2,1}
  expect_ok(c);
}

TEST(ValidationShapes, BatchSizesMustAgree) {
  // GatherND1 r 3, q 3, B 1: InA[0] = 2 must equal IdxA[0].
  for (std::int64_t size : {1, 3}) {
    SCOPED_TRACE("IndicesTensor.Sizes[1] = " + std::to_string(size));
    Call c = make_call(Op::gather_nd1);
    c.indices().sizes[1] = size;
    c.output().sizes[1] = size;
    c.indices().values = u64({0, 0, 0});
    expect_error(c, {ErrorCode::shape_mismatch, "IndicesTensor", "Sizes", 1, "2", std::to_string(size)});
  }
}

TEST(ValidationShapes, MeaningfulOutputRankAboveDIsRejected) {
  // D 3, r 3, q 3, K 1: M = 2 + 2 = 4 > 3.
  for (Op op : {Op::gather_nd, Op::scatter_nd}) {
    SCOPED_TRACE(trace(op));
    Call c = make_call(op);
    c.input().sizes = {2, 2, 2};
    c.indices().sizes = {2, 2, 1};
    c.indices().values = u64({0, 1, 1, 0});
    c.output().sizes = is_scatter(op) ? Sizes{2, 2, 2} : Sizes{2, 2, 2};
    if (is_scatter(op)) c.updates().sizes = {2, 2, 2};
    c.attr[0] = 3;
    c.attr[1] = 3;
    expect_error(c, {ErrorCode::shape_mismatch, "IndicesTensor", "Sizes", 2, "at least 2", "1"});
  }
  // GatherND1 D 4, r 4, q 4, B 1, K 1: M = 3 + 2 = 5 > 4.
  Call c = make_call(Op::gather_nd1);
  c.input().sizes = {2, 2, 2, 2};
  c.indices().sizes = {2, 2, 2, 1};
  c.indices().values.assign(8, 0);
  c.output().sizes = {2, 2, 2, 2};
  c.attr[0] = 4;
  c.attr[1] = 4;
  c.attr[2] = 1;
  expect_error(c, {ErrorCode::shape_mismatch, "IndicesTensor", "Sizes", 3, "at least 2", "1"});
}

TEST(ValidationShapes, WrongOutputSizesAreRejected) {
  for (Op op : all_ops()) {
    SCOPED_TRACE(trace(op));
    Call c = make_call(op);
    const Sizes right = c.output().sizes;
    Sizes wrong = right;
    wrong.back() += 1;
    c.output().sizes = wrong;
    auto text = [](const Sizes& s) {
      std::string t = "{";
      for (std::size_t d = 0; d < s.size(); ++d) t += (d ? ", " : "") + std::to_string(s[d]);
      return t + "}";
    };
    expect_error(c, {ErrorCode::shape_mismatch, "OutputTensor", "Sizes", -1, text(right), text(wrong)});
    // Same element count, other shape.
    c.output().sizes = right;
    std::swap(c.output().sizes.front(), c.output().sizes.back());
    if (c.output().sizes != right)
      expect_error(c, {ErrorCode::shape_mismatch, "OutputTensor", "Sizes", -1, text(right), text(c.output().sizes)});
  }
}

TEST(ValidationShapes, GatherConcatenationLongerThanEightEntries) {
  // L = In[0, Axis) ++ Idx[D-P, D) ++ In[Axis+1, D) has D + P - 1 entries, up to 15; only the
  // output (its last D entries) must fit in 8. An ONNX Gather of 1-D data with 5-D indices maps to
  // D 5, Axis 4, IndexDimensions 5: L has 9 entries, the first 4 (all 1) are dropped.
  Call c = make_call(Op::gather);
  c.input().sizes = {1, 1, 1, 1, 3};
  c.indices().sizes = {1, 1, 1, 1, 2};
  c.indices().values = u64({2, 0});
  c.output().sizes = {1, 1, 1, 1, 2};
  c.attr[0] = 4;
  c.attr[1] = 5;
  const auto helper = dmlref::gather_output_sizes(to_shape(c.input().sizes), to_shape(c.indices().sizes), {4, 5});
  ASSERT_TRUE(helper.ok()) << helper.status().message();
  EXPECT_EQ(str(*helper), str(to_shape(c.output().sizes)));
  expect_ok(c);
  // D 8, Axis 0, IndexDimensions 8: L has 15 entries, the first 7 dropped.
  c.input().sizes = {2, 1, 1, 1, 1, 1, 1, 3};
  c.indices().sizes = {1, 1, 1, 1, 1, 1, 1, 2};
  c.indices().values = u64({1, 0});
  c.output().sizes = {2, 1, 1, 1, 1, 1, 1, 3};
  c.attr[0] = 0;
  c.attr[1] = 8;
  const auto helper8 = dmlref::gather_output_sizes(to_shape(c.input().sizes), to_shape(c.indices().sizes), {0, 8});
  ASSERT_TRUE(helper8.ok()) << helper8.status().message();
  EXPECT_EQ(str(*helper8), str(to_shape(c.output().sizes)));
  expect_ok(c);
}

// ================================================================================================
// Shape helpers agree with the operators on shape errors

dmlref::Result<Shape> helper_sizes(const Call& c) {
  const Shape in = to_shape(c.t[kInput].sizes), idx = to_shape(c.t[kIndices].sizes),
              upd = to_shape(c.t[kUpdates].sizes);
  const std::uint32_t* a = c.attr;
  switch (c.op) {
    case Op::gather: return dmlref::gather_output_sizes(in, idx, {a[0], a[1]});
    case Op::gather_elements: return dmlref::gather_elements_output_sizes(in, idx, {a[0]});
    case Op::gather_nd: return dmlref::gather_nd_output_sizes(in, idx, {a[0], a[1]});
    case Op::gather_nd1: return dmlref::gather_nd1_output_sizes(in, idx, {a[0], a[1], a[2]});
    case Op::scatter: return dmlref::scatter_output_sizes(in, idx, upd, {a[0]});
    case Op::scatter_nd: return dmlref::scatter_nd_output_sizes(in, idx, upd, {a[0], a[1]});
  }
  return Shape();
}

TEST(ValidationShapeHelpers, ReportTheOperatorsErrorForTheSameSizes) {
  std::vector<std::pair<std::string, Call>> cases;
  auto add = [&](const std::string& label, Call c) { cases.emplace_back(label, std::move(c)); };
  for (Op op : all_ops()) {
    Call c = make_call(op);
    c.indices().sizes.insert(c.indices().sizes.begin(), 1);
    add("indices rank", c);
    c = make_call(op);
    c.indices().sizes.back() = 0;
    add("indices size 0", c);
    c = make_call(op);
    c.input().sizes[0] = -1;
    add("input size -1", c);
    if (is_scatter(op)) {
      c = make_call(op);
      c.updates().sizes.insert(c.updates().sizes.begin(), 1);
      add("updates rank", c);
      c = make_call(op);
      c.updates().sizes.back() = 0;
      add("updates size 0", c);
      c = make_call(op);
      c.updates().sizes.back() += 1;
      add("updates sizes", c);
    }
  }
  {
    Call c = make_call(Op::gather);
    c.attr[1] = 2;
    add("Gather dropped entry", c);
    c = make_call(Op::gather);
    c.indices().sizes[0] = 2;
    add("Gather leading", c);
    c = make_call(Op::gather);
    c.attr[0] = 3;
    add("Gather Axis", c);
  }
  {
    Call c = make_call(Op::gather_elements);
    c.indices().sizes[0] = 3;
    add("GatherElements off-axis", c);
  }
  for (Op op : {Op::gather_nd, Op::gather_nd1, Op::scatter_nd}) {
    Call c = make_call(op);
    c.input().sizes[0] = 2;
    add(std::string(op_name(op)) + " input leading", c);
    c = make_call(op);
    c.indices().sizes.back() = 3;
    add(std::string(op_name(op)) + " K", c);
    c = make_call(op);
    c.attr[0] = 0;
    add(std::string(op_name(op)) + " r 0", c);
  }
  {
    Call c = make_call(Op::gather_nd1);
    c.indices().sizes[1] = 3;
    add("GatherND1 batch", c);
  }
  for (const auto& [label, c] : cases) {
    SCOPED_TRACE(trace(c.op) + ": " + label);
    const auto helper = helper_sizes(c);
    Bound b = bind(c);
    const Status op = run_dispatch(c, b);
    ASSERT_FALSE(op.ok());
    ASSERT_FALSE(helper.ok()) << "the helper accepts what the operator rejects: " << describe(op.error());
    const dmlref::Error& h = helper.error();
    const dmlref::Error& o = op.error();
    EXPECT_EQ(std::string(dmlref::name(h.code)), dmlref::name(o.code)) << "helper: " << describe(h) << "\noperator: " << describe(o);
    EXPECT_EQ(std::string(h.tensor), o.tensor) << "helper: " << describe(h) << "\noperator: " << describe(o);
    EXPECT_EQ(std::string(h.field), o.field) << "helper: " << describe(h) << "\noperator: " << describe(o);
    EXPECT_EQ(h.field_index, o.field_index) << "helper: " << describe(h) << "\noperator: " << describe(o);
  }
}

// ================================================================================================
// Overlap and in place (operators.md §1.7; the library's bounding-range rule)

TEST(ValidationOverlap, OutputOverlappingAnyInputIsRejected) {
  for (Op op : all_ops())
    for (int role : make_call(op).roles()) {
      if (role == kOutput) continue;
      for (std::size_t offset : {std::size_t{0}, std::size_t{4}}) {
        SCOPED_TRACE(trace(op, role) + " at byte " + std::to_string(offset));
        Call c = make_call(op);
        c.output().alias_of = role;
        c.output().alias_offset = offset;
        // A scatter's output at offset 0 of its input with the same strides is in place (allowed).
        if (op == Op::scatter || op == Op::scatter_nd)
          if (role == kInput && offset == 0) continue;
        expect_error(c, {ErrorCode::overlapping_tensors, "OutputTensor", "Data", -1, std::nullopt, role_name(role)});
      }
    }
}

TEST(ValidationOverlap, OutputEndingInsideAnInputIsRejected) {
  // The output's last element shares bytes with the input's first.
  Call c = make_call(Op::gather_elements);  // input {2,3} = 24 bytes, output {2,2} = 16 bytes
  c.input().alias_of = kOutput;
  c.input().alias_offset = 12;
  expect_error(c, {ErrorCode::overlapping_tensors, "OutputTensor", "Data", -1, std::nullopt, "InputTensor"});
}

TEST(ValidationOverlap, AdjacentBuffersAreAccepted) {
  // Output immediately after the input, and immediately before it: no shared byte.
  Call c = make_call(Op::gather_elements);
  c.output().alias_of = kInput;
  c.output().alias_offset = 24;
  expect_ok(c);
  Call d = make_call(Op::gather_elements);
  d.input().alias_of = kOutput;
  d.input().alias_offset = 16;
  expect_ok(d);
}

TEST(ValidationOverlap, InterleavedElementsCountAsOverlap) {
  // Input at even, output at odd float slots of one buffer: no element is shared, but the bounding
  // byte ranges overlap, which the library's documented (conservative) rule rejects.
  Call c = make_call(Op::gather_elements);  // input {2,3}, output {2,2}
  c.input().strides = Sizes{6, 2};
  c.output().strides = Sizes{4, 2};
  c.output().alias_of = kInput;
  c.output().alias_offset = 4;
  expect_error(c, {ErrorCode::overlapping_tensors, "OutputTensor", "Data", -1, std::nullopt, "InputTensor"});
}

TEST(ValidationOverlap, ExactInPlaceScatterIsAccepted) {
  for (Op op : {Op::scatter, Op::scatter_nd}) {
    SCOPED_TRACE(trace(op));
    Call c = make_call(op);
    c.output().alias_of = kInput;
    expect_ok(c);
    // Also with a padded layout shared by both.
    Sizes padded = packed(c.input().sizes);
    for (std::int64_t& s : padded) s *= 2;
    c.input().strides = padded;
    c.output().strides = padded;
    expect_ok(c);
  }
}

TEST(ValidationOverlap, InPlaceScatterWithCollisionCheck) {
  Call c = make_call(Op::scatter);
  c.output().alias_of = kInput;
  c.options.check_collisions = true;
  expect_ok(c);
  c.indices().values = u64({2, 2, 1, 0});  // row 0 writes column 2 twice
  const dmlref::Error e = expect_error(c, {ErrorCode::scatter_collision, "UpdatesTensor", "", -1});
  EXPECT_EQ(str(e.position), str((Shape{0, 1})));
  EXPECT_EQ(str(e.target_position), str((Shape{0, 2})));
}

TEST(ValidationOverlap, InPlaceWithDifferentStridesIsRejected) {
  for (Op op : {Op::scatter, Op::scatter_nd}) {
    SCOPED_TRACE(trace(op));
    Call c = make_call(op);
    c.output().alias_of = kInput;
    // Same data pointer, output column-major: every element but the first and last moves.
    const Sizes& s = c.output().sizes;
    Sizes column(s.size());
    std::int64_t col = 1;
    for (std::size_t d = 0; d < s.size(); ++d) {
      column[d] = col;
      col *= s[d];
    }
    c.output().strides = column;
    expect_error(c, {ErrorCode::overlapping_tensors, "OutputTensor", "Data", -1, std::nullopt, "InputTensor"});
  }
}

TEST(ValidationOverlap, InPlaceNeedsIdenticalStridesEvenOnSizeOneDimensions) {
  // ScatterND's {1,3,2}: the stride of the size-1 dimension is never used, but "in place" is
  // documented as the same data pointer and the same strides (docs/errors.md), so a different
  // value there is an overlap: conservative, and documented.
  Call c = make_call(Op::scatter_nd);
  c.output().alias_of = kInput;
  c.output().strides = Sizes{99, 2, 1};
  expect_error(c, {ErrorCode::overlapping_tensors, "OutputTensor", "Data", -1, std::nullopt, "InputTensor"});
  c.input().strides = Sizes{99, 2, 1};  // now identical: in place
  expect_ok(c);
}

TEST(ValidationOverlap, InPlaceScatterMustNotOverlapIndicesOrUpdates) {
  for (Op op : {Op::scatter, Op::scatter_nd})
    for (int role : {kIndices, kUpdates}) {
      SCOPED_TRACE(trace(op, role));
      Call c = make_call(op);
      c.output().alias_of = kInput;
      c.t[role].alias_of = kInput;
      expect_error(c, {ErrorCode::overlapping_tensors, "OutputTensor", "Data", -1, std::nullopt, role_name(role)});
    }
}

TEST(ValidationOverlap, GathersNeverRunInPlace) {
  // GatherElements with Out == Idx == In sizes: output == input (same data, same strides) is an error.
  Call c = make_call(Op::gather_elements);
  c.indices().sizes = {2, 3};
  c.indices().values = u64({0, 1, 2, 2, 1, 0});
  c.output().sizes = {2, 3};
  c.output().alias_of = kInput;
  expect_error(c, {ErrorCode::overlapping_tensors, "OutputTensor", "Data", -1, std::nullopt, "InputTensor"});
}

TEST(ValidationOverlap, InputsMayOverlapEachOther) {
  // Only the output must be disjoint: Input and Updates may share memory (they are only read).
  Call c = make_call(Op::scatter);
  c.updates().alias_of = kInput;
  expect_ok(c);
}

// ================================================================================================
// Index values (every operator's last rule; operators.md §1.4, §1.5)

struct IndexCase {
  std::string label;
  std::uint64_t bits;  ///< the value, as stored (two's complement for signed types)
  bool valid;
  std::string shown;  ///< how the error reports it
};

/// Edge values for a dimension of n, for one index type.
std::vector<IndexCase> index_cases(DataType type, std::int64_t n) {
  const auto s = [](std::int64_t v) { return static_cast<std::uint64_t>(v); };
  std::vector<IndexCase> v = {{"0", 0, true, "0"},
                              {"n-1", s(n - 1), true, std::to_string(n - 1)},
                              {"n", s(n), false, std::to_string(n)},
                              {"n+1000", s(n + 1000), false, std::to_string(n + 1000)}};
  switch (type) {
    case DataType::INT32:
      v.push_back({"-1", s(-1), true, "-1"});
      v.push_back({"-n", s(-n), true, std::to_string(-n)});
      v.push_back({"-n-1", s(-n - 1), false, std::to_string(-n - 1)});
      v.push_back({"INT32_MIN", s(std::numeric_limits<std::int32_t>::min()), false, "-2147483648"});
      v.push_back({"INT32_MAX", s(std::numeric_limits<std::int32_t>::max()), false, "2147483647"});
      break;
    case DataType::INT64:
      v.push_back({"-1", s(-1), true, "-1"});
      v.push_back({"-n", s(-n), true, std::to_string(-n)});
      v.push_back({"-n-1", s(-n - 1), false, std::to_string(-n - 1)});
      v.push_back({"INT64_MIN", s(std::numeric_limits<std::int64_t>::min()), false, "-9223372036854775808"});
      v.push_back({"INT64_MAX", s(std::numeric_limits<std::int64_t>::max()), false, "9223372036854775807"});
      break;
    case DataType::UINT32:
      v.push_back({"0xFFFFFFFF (not -1)", 0xFFFFFFFFu, false, "4294967295"});
      v.push_back({"0x80000000", 0x80000000u, false, "2147483648"});
      break;
    case DataType::UINT64:
      v.push_back({"2^63", std::uint64_t{1} << 63, false, "9223372036854775808"});
      v.push_back({"2^64-1 (not -1)", ~std::uint64_t{0}, false, "18446744073709551615"});
      v.push_back({"0xFFFFFFFF", 0xFFFFFFFFu, false, "4294967295"});
      v.push_back({"2^63-n (not -n)", (std::uint64_t{1} << 63) - static_cast<std::uint64_t>(n), false,
                   std::to_string((std::uint64_t{1} << 63) - static_cast<std::uint64_t>(n))});
      break;
    case DataType::UNKNOWN:
    case DataType::FLOAT32:
    case DataType::FLOAT16:
    case DataType::FLOAT64:
    case DataType::INT8:
    case DataType::INT16:
    case DataType::UINT8:
    case DataType::UINT16: break;
  }
  return v;
}

Sizes unravel(std::size_t flat, const Sizes& sizes) {
  Sizes c(sizes.size(), 0);
  for (std::size_t d = sizes.size(); d-- > 0;) {
    c[d] = static_cast<std::int64_t>(flat) % sizes[d];
    flat /= static_cast<std::size_t>(sizes[d]);
  }
  return c;
}

TEST(ValidationIndices, EveryOperatorEveryIndexTypeEdgeValues) {
  for (Op op : all_ops())
    for (DataType type : index_types()) {
      const IndexTarget target = index_target(op);
      const bool is_signed = dmlref::is_signed_integer(type);
      const std::string range = is_signed ? std::to_string(-target.size) + ".." + std::to_string(target.size - 1)
                                          : "0.." + std::to_string(target.size - 1);
      for (const IndexCase& k : index_cases(type, target.size)) {
        SCOPED_TRACE(trace(op) + " " + dmlref::name(type) + " value " + k.label);
        Call c = make_call(op);
        c.indices().type = type;
        const std::size_t at = c.indices().values.size() - 1;  // the last index of the tensor
        for (std::uint64_t& v : c.indices().values) v = 0;
        c.indices().values[at] = type == DataType::INT32 || type == DataType::UINT32 ? (k.bits & 0xFFFFFFFFu) : k.bits;
        if (k.valid) {
          expect_ok(c);
          continue;
        }
        const dmlref::Error e = expect_error(c, {ErrorCode::index_out_of_range, "IndicesTensor", "value", -1, range, k.shown});
        if (e.code == ErrorCode::ok) continue;
        EXPECT_EQ(str(e.position), str(to_shape(unravel(at, c.indices().sizes))));
        EXPECT_EQ(std::string(e.target_tensor), target.tensor);
        EXPECT_EQ(e.target_dimension, target.dimension);
        EXPECT_EQ(e.target_size, target.size);
        EXPECT_EQ(e.actual.kind, is_signed ? dmlref::ErrorValue::Kind::integer
                                           : dmlref::ErrorValue::Kind::unsigned_integer);
      }
    }
}

TEST(ValidationIndices, TheFirstBadIndexInRowMajorOrderIsReported) {
  Call c = make_call(Op::gather_elements);  // indices {2,2}, n = 3
  c.indices().values = u64({0, 7, 9, 1});
  const dmlref::Error e = expect_error(c, {ErrorCode::index_out_of_range, "IndicesTensor", "value", -1, "0..2", "7"});
  EXPECT_EQ(str(e.position), str((Shape{0, 1})));
}

TEST(ValidationIndices, PositionIsLogicalForStridedIndices) {
  // IndicesTensor {2,2} stored column-major and padded: the bad value's logical coordinate is [1,0].
  Call c = make_call(Op::gather_elements);
  c.indices().strides = Sizes{1, 3};
  c.indices().values = u64({0, 1, 5, 2});
  const dmlref::Error e = expect_error(c, {ErrorCode::index_out_of_range, "IndicesTensor", "value", -1, "0..2", "5"});
  EXPECT_EQ(str(e.position), str((Shape{1, 0})));
}

TEST(ValidationIndices, BroadcastIndicesAreCheckedOnce) {
  // Stride-0 indices: one stored value read everywhere; a bad one is reported at [0, 0].
  Call c = make_call(Op::gather_elements);
  c.indices().strides = Sizes{0, 0};
  c.indices().values = u64({3});
  const dmlref::Error e = expect_error(c, {ErrorCode::index_out_of_range, "IndicesTensor", "value", -1, "0..2", "3"});
  EXPECT_EQ(str(e.position), str((Shape{0, 0})));
}

TEST(ValidationIndices, TupleCoordinatesAreCheckedAgainstTheirOwnDimension) {
  // GatherND r 2, q 1, K 2 over {2,3}: a tuple (a, b) with a in [0,2) and b in [0,3).
  for (DataType type : index_types()) {
    SCOPED_TRACE(dmlref::name(type));
    const bool is_signed = dmlref::is_signed_integer(type);
    Call c = make_call(Op::gather_nd);
    c.indices().type = type;
    c.input().sizes = {2, 3};
    c.indices().sizes = {1, 2};
    c.output().sizes = {1, 1};
    c.attr[0] = 2;
    c.attr[1] = 1;
    c.indices().values = u64({1, 2});
    expect_ok(c);
    c.indices().values = u64({2, 0});  // first coordinate: dimension 0 of size 2
    dmlref::Error e = expect_error(c, {ErrorCode::index_out_of_range, "IndicesTensor", "value", -1,
                                is_signed ? "-2..1" : "0..1", "2"});
    EXPECT_EQ(str(e.position), str((Shape{0, 0})));
    EXPECT_EQ(e.target_dimension, 0);
    EXPECT_EQ(e.target_size, 2);
    c.indices().values = u64({1, 3});  // second coordinate: dimension 1 of size 3
    e = expect_error(c, {ErrorCode::index_out_of_range, "IndicesTensor", "value", -1, is_signed ? "-3..2" : "0..2",
                         "3"});
    EXPECT_EQ(str(e.position), str((Shape{0, 1})));
    EXPECT_EQ(e.target_dimension, 1);
    EXPECT_EQ(e.target_size, 3);
    if (is_signed) {
      c.indices().values = u64({-2, -3});
      expect_ok(c);
      c.indices().values = u64({-2, -4});
      expect_error(c, {ErrorCode::index_out_of_range, "IndicesTensor", "value", -1, "-3..2", "-4"});
    }
  }
}

TEST(ValidationIndices, GatherND1TupleTargetsSkipTheBatchDimensions) {
  // r 3, B 1, K 2 on {1,2,2,3}: coordinates address dimensions 2 (size 2) and 3 (size 3).
  Call c = make_call(Op::gather_nd1);
  c.indices().sizes = {1, 2, 1, 2};
  c.output().sizes = {1, 1, 2, 1};
  c.indices().values = u64({1, 2, 0, 3});
  dmlref::Error e = expect_error(c, {ErrorCode::index_out_of_range, "IndicesTensor", "value", -1, "0..2", "3"});
  EXPECT_EQ(str(e.position), str((Shape{0, 1, 0, 1})));
  EXPECT_EQ(e.target_dimension, 3);
  c.indices().values = u64({2, 0, 0, 0});
  e = expect_error(c, {ErrorCode::index_out_of_range, "IndicesTensor", "value", -1, "0..1", "2"});
  EXPECT_EQ(e.target_dimension, 2);
}

TEST(ValidationIndices, ScatterIndexIsCheckedAgainstTheOutputAxis) {
  // Idx[Axis] smaller than Out[Axis]: the range is Out[Axis]'s, not Idx[Axis]'s.
  Call c = make_call(Op::scatter);  // {2,3}, Axis 1
  c.indices().sizes = {2, 1};
  c.updates().sizes = {2, 1};
  c.indices().values = u64({2, 3});
  const dmlref::Error e = expect_error(c, {ErrorCode::index_out_of_range, "IndicesTensor", "value", -1, "0..2", "3"});
  EXPECT_EQ(str(e.position), str((Shape{1, 0})));
  EXPECT_EQ(std::string(e.target_tensor), "OutputTensor");
}

// ================================================================================================
// Opt-in collision check (§6.4 rule 8, §7.5 rule 9)

TEST(ValidationCollisions, ScatterNDOverlappingBlocksAreReported) {
  Call c = make_call(Op::scatter_nd);  // rows of {1,3,2}; tuples [2], [2]
  c.indices().values = u64({2, 2});
  c.options.check_collisions = true;
  const dmlref::Error e = expect_error(c, {ErrorCode::scatter_collision, "UpdatesTensor", "", -1});
  EXPECT_EQ(str(e.position), str((Shape{0, 1, 0})));
  EXPECT_EQ(std::string(e.target_tensor), "OutputTensor");
  EXPECT_EQ(str(e.target_position), str((Shape{0, 2, 0})));
  c.options.check_collisions = false;  // default policy: the later tuple wins
  expect_ok(c);
}

TEST(ValidationCollisions, CollisionsAfterNormalisationAreReported) {
  Call c = make_call(Op::scatter_nd);
  c.indices().type = DataType::INT64;
  c.indices().values = u64({-1, 2});  // -1 is 2 in a size-3 dimension
  c.options.check_collisions = true;
  const dmlref::Error e = expect_error(c, {ErrorCode::scatter_collision, "UpdatesTensor", "", -1});
  EXPECT_EQ(str(e.target_position), str((Shape{0, 2, 0})));
}

TEST(ValidationCollisions, NoCollisionPasses) {
  for (Op op : {Op::scatter, Op::scatter_nd}) {
    SCOPED_TRACE(trace(op));
    Call c = make_call(op);
    c.options.check_collisions = true;
    expect_ok(c);
  }
}

TEST(ValidationCollisions, IndexErrorsComeBeforeCollisions) {
  // An invalid index is an index error even when the check is on and other updates collide.
  Call c = make_call(Op::scatter);
  c.options.check_collisions = true;
  c.indices().values = u64({1, 1, 0, 3});
  expect_error(c, {ErrorCode::index_out_of_range, "IndicesTensor", "value", -1, "0..2", "3"});
}

// ================================================================================================
// Error::message() (a handful of codes)

std::string message_of(const Call& c) {
  Bound b = bind(c);
  return run_dispatch(c, b).message();
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(ValidationMessages, NameOperatorTensorFieldExpectedAndActual) {
  struct Case {
    std::string label;
    Call call;
    std::vector<std::string> parts;
  };
  std::vector<Case> cases;
  {
    Call c = make_call(Op::gather);
    c.attr[0] = 3;
    cases.push_back({"Axis", c, {"Gather", "Axis", "0..2", "3"}});
  }
  {
    Call c = make_call(Op::gather_elements);
    c.output().sizes = {2, 3};
    cases.push_back({"output sizes", c, {"GatherElements", "OutputTensor.Sizes", "{2, 2}", "{2, 3}"}});
  }
  {
    Call c = make_call(Op::scatter_nd);
    c.input().total_bytes = 23;
    cases.push_back({"buffer", c, {"ScatterND", "InputTensor.TotalTensorSizeInBytes", "at least 24", "23"}});
  }
  {
    Call c = make_call(Op::gather_nd1);
    c.indices().sizes[1] = 0;
    cases.push_back({"size", c, {"GatherND1", "IndicesTensor.Sizes[1]", "at least 1", "0"}});
  }
  {
    Call c = make_call(Op::scatter);
    c.output().type = DataType::INT16;
    cases.push_back({"data type", c, {"Scatter", "OutputTensor.DataType", "FLOAT32", "INT16"}});
  }
  {
    Call c = make_call(Op::gather_nd);
    c.indices().type = DataType::FLOAT16;
    cases.push_back({"index type", c, {"GatherND", "IndicesTensor.DataType", "INT32, INT64, UINT32 or UINT64", "FLOAT16"}});
  }
  {
    Call c = make_call(Op::gather_nd1);
    c.attr[2] = 3;
    cases.push_back({"batch", c, {"GatherND1", "BatchDimensionCount", "0..2", "3"}});
  }
  {
    Call c = make_call(Op::gather);
    c.indices().sizes = {1, 2, 2};
    c.indices().values = u64({0, 0, 0, 0});
    cases.push_back({"leading", c, {"Gather", "IndicesTensor.Sizes[1]", "1", "2"}});
  }
  {
    Call c = make_call(Op::scatter);
    c.output().alias_of = kUpdates;
    cases.push_back({"overlap", c, {"Scatter", "OutputTensor.Data", "UpdatesTensor"}});
  }
  {
    Call c = make_call(Op::gather);
    c.indices().type = DataType::INT64;
    c.indices().values = u64({0, -4});
    cases.push_back({"index", c, {"Gather", "IndicesTensor", "-4", "[0, 0, 1]", "InputTensor.Sizes[1] = 3", "-3..2"}});
  }
  {
    Call c = make_call(Op::gather_elements);
    c.input().dimension_count = 9;
    cases.push_back({"dimension count", c, {"GatherElements", "InputTensor.DimensionCount", "1..8", "9"}});
  }
  for (const Case& k : cases) {
    SCOPED_TRACE(k.label);
    const std::string m = message_of(k.call);
    for (const std::string& part : k.parts) EXPECT_TRUE(contains(m, part)) << "'" << part << "' missing in: " << m;
  }
}

}  // namespace
