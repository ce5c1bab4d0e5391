// Bad and extreme inputs that test_validation.cpp's table does not already list (it covers every
// documented rule of every operator: DimensionCount 0 and 9, zero and negative sizes, null Sizes
// and Data, negative and aliasing strides, buffers one byte short, overlap, non-index types,
// element count and extent overflow, index values at the type extremes). Added here:
//
//   - TotalTensorSizeInBytes above INT64_MAX, for every tensor of every operator (overflow);
//   - strides up to INT64_MAX on size-1 dimensions (never stepped along, so any value is valid),
//     for every dimension of size 1 of every tensor of every operator;
//   - overflow safety at the int64 limit: an input dimension of 2^31 .. INT64_MAX elements,
//     broadcast (stride 0: one physical element), addressed by index values at its edges (n-1,
//     -n, n, 2^63 as UINT64, INT64_MIN, UINT64_MAX), for every gather operator, every element
//     width, every index type and both index policies. Such calls are valid and tiny; dmlref must
//     get them right without any signed overflow on the way (the asan-ubsan preset aborts on one,
//     see .ci/steps/20-sanitizers.sh). These are the calls the fuzzer (fuzz/) first tripped on.
//
// Every failing call must leave every buffer (payload and guard bytes) untouched.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "dmlref/dmlref.hpp"
#include "support/guarded.hpp"

namespace {

using dmlref::DataType;
using dmlref::ErrorCode;
using dmlref::Status;
using Sizes = std::vector<std::int64_t>;

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t p2(int e) { return std::int64_t{1} << e; }

std::string describe(const Status& s) { return std::string(dmlref::name(s.code())) + ": " + s.message(); }

enum class Op { gather, gather_elements, gather_nd, gather_nd1, scatter, scatter_nd };
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
bool is_scatter(Op op) { return op == Op::scatter || op == Op::scatter_nd; }

// ================================================================================================
// One call over guarded buffers, described down to its descriptor fields.

enum Role { kInput, kIndices, kUpdates, kOutput };
const char* const kRoleNames[] = {"InputTensor", "IndicesTensor", "UpdatesTensor", "OutputTensor"};

struct TensorSpec {
  DataType type = DataType::FLOAT32;
  Sizes sizes;
  Sizes strides;                 ///< empty: packed (Strides = nullptr)
  std::size_t buffer_bytes = 0;  ///< payload allocated (0: the packed extent)
  std::uint64_t total = 0;       ///< TotalTensorSizeInBytes (0: buffer_bytes)
};

struct Call {
  Op op = Op::gather;
  TensorSpec t[4];
  std::uint32_t attr[3] = {0, 0, 0};
  dmlref::Options options;
};

std::size_t packed_bytes(const TensorSpec& s) {
  std::size_t n = dmlref::element_size(s.type);
  for (std::int64_t v : s.sizes) n *= static_cast<std::size_t>(v);
  return n;
}

struct Bound {
  std::vector<guarded::Buffer> buffers;
  Status status;

  bool untouched() const {
    for (const guarded::Buffer& b : buffers)
      if (!b.untouched()) return false;
    return true;
  }
};

/// Allocates the buffers (inputs and updates hold distinct bytes, the output the sentinel), lets
/// `prepare` write index values, runs the call on the dispatch layer.
template <class Prepare>
Bound run(const Call& c, Prepare&& prepare) {
  Bound b;
  b.buffers.reserve(4);  // one per role (UpdatesTensor's unused by gathers)
  for (int r = 0; r < 4; ++r) {
    const TensorSpec& s = c.t[r];
    const std::size_t bytes = s.buffer_bytes != 0 ? s.buffer_bytes : std::max<std::size_t>(packed_bytes(s), 1);
    b.buffers.emplace_back(bytes);
    if (r == kInput || r == kUpdates) {
      for (std::size_t i = 0; i < bytes; ++i) b.buffers.back()[i] = static_cast<unsigned char>(0x10 + 7 * i + 64 * r);
      b.buffers.back().snapshot();
    }
  }
  prepare(b.buffers[kIndices]);
  b.buffers[kIndices].snapshot();
  auto desc = [&](int r, auto d) {
    const TensorSpec& s = c.t[r];
    d.DataType = s.type;
    d.DimensionCount = static_cast<std::uint32_t>(s.sizes.size());
    d.Sizes = s.sizes.data();
    d.Strides = s.strides.empty() ? nullptr : s.strides.data();
    d.TotalTensorSizeInBytes = s.total != 0 ? s.total : b.buffers[static_cast<std::size_t>(r)].size();
    d.Data = b.buffers[static_cast<std::size_t>(r)].bytes();
    return d;
  };
  const dmlref::TensorDesc in = desc(kInput, dmlref::TensorDesc{}), idx = desc(kIndices, dmlref::TensorDesc{}),
                           upd = desc(kUpdates, dmlref::TensorDesc{});
  const dmlref::MutableTensorDesc out = desc(kOutput, dmlref::MutableTensorDesc{});
  const std::uint32_t* a = c.attr;
  switch (c.op) {
    case Op::gather: b.status = dmlref::try_gather(in, idx, out, {a[0], a[1]}, c.options); break;
    case Op::gather_elements: b.status = dmlref::try_gather_elements(in, idx, out, {a[0]}, c.options); break;
    case Op::gather_nd: b.status = dmlref::try_gather_nd(in, idx, out, {a[0], a[1]}, c.options); break;
    case Op::gather_nd1: b.status = dmlref::try_gather_nd1(in, idx, out, {a[0], a[1], a[2]}, c.options); break;
    case Op::scatter: {
      dmlref::ScatterParams p;
      p.Axis = a[0];
      b.status = dmlref::try_scatter(in, idx, upd, out, p, c.options);
      break;
    }
    case Op::scatter_nd: {
      dmlref::ScatterNDParams p;
      p.InputDimensionCount = a[0];
      p.IndicesDimensionCount = a[1];
      b.status = dmlref::try_scatter_nd(in, idx, upd, out, p, c.options);
      break;
    }
  }
  return b;
}

// ================================================================================================
// TotalTensorSizeInBytes above INT64_MAX (test_validation.cpp checks IndicesTensor of a Gather).

/// A small valid call of each operator: FLOAT32 data, INT32 indices (all 0).
Call small_call(Op op) {
  Call c;
  c.op = op;
  c.t[kIndices].type = DataType::INT32;
  switch (op) {
    case Op::gather:  // {2,3} axis 1, P 1: indices {1,2} -> {2,2}
      c.t[kInput].sizes = {2, 3};
      c.t[kIndices].sizes = {1, 2};
      c.t[kOutput].sizes = {2, 2};
      c.attr[0] = 1;
      c.attr[1] = 1;
      break;
    case Op::gather_elements:  // {2,3} axis 1: indices {2,2} -> {2,2}
    case Op::scatter:          // {2,3} axis 1: indices, updates {2,2}
      c.t[kInput].sizes = {2, 3};
      c.t[kIndices].sizes = {2, 2};
      c.t[kUpdates].sizes = {2, 2};
      c.t[kOutput].sizes = op == Op::scatter ? Sizes{2, 3} : Sizes{2, 2};
      c.attr[0] = 1;
      break;
    case Op::gather_nd:   // r 2, q 2: {2,3} x {2,1} -> {2,3}
    case Op::gather_nd1:  // the same with B 0
    case Op::scatter_nd:  // updates {2,3}, output {2,3}
      c.t[kInput].sizes = {2, 3};
      c.t[kIndices].sizes = {2, 1};
      c.t[kUpdates].sizes = {2, 3};
      c.t[kOutput].sizes = {2, 3};
      c.attr[0] = 2;
      c.attr[1] = 2;
      break;
  }
  if (!is_scatter(op)) c.t[kUpdates].sizes = {1, 1};  // unused
  return c;
}

TEST(BadInputsTotalBytes, AboveInt64MaxIsAnOverflowForEveryTensorOfEveryOperator) {
  const Op ops[] = {Op::gather, Op::gather_elements, Op::gather_nd, Op::gather_nd1, Op::scatter, Op::scatter_nd};
  const std::uint64_t totals[] = {std::uint64_t{1} << 63, (std::uint64_t{1} << 63) + 1, ~std::uint64_t{0}};
  auto zeros = [](guarded::Buffer& b) { std::memset(b.bytes(), 0, b.size()); };
  for (Op op : ops) {
    SCOPED_TRACE(op_name(op));
    {
      const Bound ok = run(small_call(op), zeros);
      ASSERT_TRUE(ok.status.ok()) << describe(ok.status);
    }
    for (Role role : {kInput, kIndices, kUpdates, kOutput}) {
      if (role == kUpdates && !is_scatter(op)) continue;
      for (std::uint64_t total : totals) {
        SCOPED_TRACE(std::string(kRoleNames[role]) + " TotalTensorSizeInBytes " + std::to_string(total));
        Call c = small_call(op);
        c.t[role].total = total;
        const Bound b = run(c, zeros);
        ASSERT_EQ(b.status.code(), ErrorCode::overflow) << describe(b.status);
        EXPECT_EQ(std::string(b.status.error().tensor), kRoleNames[role]);
        EXPECT_EQ(std::string(b.status.error().field), "TotalTensorSizeInBytes");
        EXPECT_EQ(b.status.error().actual.to_string(), std::to_string(total));
        EXPECT_TRUE(b.untouched());
      }
    }
  }
}

// ================================================================================================
// Overflow safety: a size-1 dimension may have any stride (it is never stepped along), up to
// INT64_MAX; the call must equal the one with packed strides.

/// Each operator at D = 3, with size-1 dimensions in every tensor (the innermost of IndicesTensor
/// among them): FLOAT32 data, INT32 indices (written by `index_values`).
Call size_one_call(Op op, std::vector<std::int32_t>& index_values) {
  Call c;
  c.op = op;
  c.t[kIndices].type = DataType::INT32;
  c.t[kUpdates].sizes = {1, 1, 1};
  switch (op) {
    case Op::gather:  // axis 1, P 2: {1,3,1} x {1,2,1}: L = {1,2,1,1} -> {2,1,1}
      c.t[kInput].sizes = {1, 3, 1};
      c.t[kIndices].sizes = {1, 2, 1};
      c.t[kOutput].sizes = {2, 1, 1};
      c.attr[0] = 1;
      c.attr[1] = 2;
      index_values = {2, 0};
      break;
    case Op::gather_elements:  // axis 0: {3,2,1} x {2,2,1} -> {2,2,1}
      c.t[kInput].sizes = {3, 2, 1};
      c.t[kIndices].sizes = {2, 2, 1};
      c.t[kOutput].sizes = {2, 2, 1};
      index_values = {2, 0, 1, 2};
      break;
    case Op::gather_nd:  // r 2, q 3, K 1: {1,3,2} x {1,2,1} -> {1,2,2}
      c.t[kInput].sizes = {1, 3, 2};
      c.t[kIndices].sizes = {1, 2, 1};
      c.t[kOutput].sizes = {1, 2, 2};
      c.attr[0] = 2;
      c.attr[1] = 3;
      index_values = {2, 0};
      break;
    case Op::gather_nd1:  // r 3, q 3, B 1, K 1: {2,3,1} x {2,1,1} -> {2,1,1}
      c.t[kInput].sizes = {2, 3, 1};
      c.t[kIndices].sizes = {2, 1, 1};
      c.t[kOutput].sizes = {2, 1, 1};
      c.attr[0] = 3;
      c.attr[1] = 3;
      c.attr[2] = 1;
      index_values = {2, 0};
      break;
    case Op::scatter:  // axis 0: {3,2,1}, indices and updates {2,2,1}
      c.t[kInput].sizes = {3, 2, 1};
      c.t[kIndices].sizes = {2, 2, 1};
      c.t[kUpdates].sizes = {2, 2, 1};
      c.t[kOutput].sizes = {3, 2, 1};
      index_values = {2, 0, 1, 2};
      break;
    case Op::scatter_nd:  // r 2, q 3, K 1: {1,3,2}, indices {1,2,1}, updates {1,2,2}
      c.t[kInput].sizes = {1, 3, 2};
      c.t[kIndices].sizes = {1, 2, 1};
      c.t[kUpdates].sizes = {1, 2, 2};
      c.t[kOutput].sizes = {1, 3, 2};
      c.attr[0] = 2;
      c.attr[1] = 3;
      index_values = {2, 0};
      break;
  }
  return c;
}

Sizes packed_strides(const Sizes& sizes) {
  Sizes s(sizes.size(), 1);
  for (std::size_t d = sizes.size() - 1; d-- > 0;) s[d] = s[d + 1] * sizes[d + 1];
  return s;
}

TEST(BadInputsOverflowSafety, SizeOneDimensionsMayHaveAnyStride) {
  const Op ops[] = {Op::gather, Op::gather_elements, Op::gather_nd, Op::gather_nd1, Op::scatter, Op::scatter_nd};
  const std::int64_t strides[] = {kInt64Max, kInt64Max - 1, p2(62) + 1, p2(62), p2(32)};
  for (Op op : ops) {
    std::vector<std::int32_t> values;
    const Call base = size_one_call(op, values);
    auto write = [&](guarded::Buffer& idx) {
      std::memset(idx.bytes(), 0, idx.size());
      std::memcpy(idx.bytes(), values.data(), values.size() * sizeof(std::int32_t));
    };
    const Bound expected = run(base, write);
    ASSERT_TRUE(expected.status.ok()) << op_name(op) << ": " << describe(expected.status);
    for (Role role : {kInput, kIndices, kUpdates, kOutput}) {
      if (role == kUpdates && !is_scatter(op)) continue;
      for (std::size_t d = 0; d < base.t[role].sizes.size(); ++d) {
        if (base.t[role].sizes[d] != 1) continue;
        for (std::int64_t stride : strides)
          for (dmlref::IndexPolicy policy : {dmlref::IndexPolicy::error, dmlref::IndexPolicy::clamp}) {
            SCOPED_TRACE(std::string(op_name(op)) + " " + kRoleNames[role] + ".Strides[" + std::to_string(d) +
                         "] = " + std::to_string(stride) +
                         (policy == dmlref::IndexPolicy::clamp ? " (clamp)" : ""));
            Call c = base;
            c.options.index_policy = policy;
            c.t[role].strides = packed_strides(c.t[role].sizes);
            c.t[role].strides[d] = stride;
            const Bound b = run(c, write);
            ASSERT_TRUE(b.status.ok()) << describe(b.status);
            for (int r = 0; r < 4; ++r) {
              const guarded::Buffer& got = b.buffers[static_cast<std::size_t>(r)];
              const guarded::Buffer& want = expected.buffers[static_cast<std::size_t>(r)];
              EXPECT_TRUE(got.guards_intact()) << kRoleNames[r];
              EXPECT_EQ(std::memcmp(got.bytes(), want.bytes(), got.size()), 0) << kRoleNames[r];
            }
          }
      }
    }
  }
}

// ================================================================================================
// Overflow safety: a huge broadcast dimension addressed by indices.

/// One element of each width, and the index types.
const DataType kDataTypes[] = {DataType::UINT8, DataType::FLOAT16, DataType::FLOAT32, DataType::FLOAT64};
const DataType kIndexTypes[] = {DataType::INT32, DataType::UINT32, DataType::INT64, DataType::UINT64};
/// Sizes of the huge dimension: 2^31 .. INT64_MAX (only n * element size overflows beyond 2^60).
const std::int64_t kHugeSizes[] = {p2(31), p2(32) + 1, p2(53), p2(60) + 1, p2(61), p2(62), p2(62) + 3, kInt64Max};

struct IndexValue {
  std::uint64_t bits;  ///< as stored (two's complement for signed types; low 32 bits for 32-bit types)
  bool valid;          ///< under IndexPolicy::error (IndexPolicy::clamp accepts every value)
  std::string label;
};

/// Index values at the edges of a dimension of n elements, for one index type.
std::vector<IndexValue> edge_values(DataType type, std::int64_t n) {
  const auto bits = [](std::int64_t v) { return static_cast<std::uint64_t>(v); };
  std::vector<IndexValue> v;
  if (type == DataType::INT32) {  // n >= 2^31: every INT32 value is in range, negatives count from the end
    v.push_back({bits(0), true, "0"});
    v.push_back({bits(std::numeric_limits<std::int32_t>::max()), true, "INT32_MAX"});
    v.push_back({bits(-1), true, "-1"});
    v.push_back({bits(std::numeric_limits<std::int32_t>::min()), true, "INT32_MIN"});
  } else if (type == DataType::UINT32) {  // 0xFFFFFFFF is 4294967295, never -1: in range only if n > 2^32 - 1
    v.push_back({0, true, "0"});
    v.push_back({0xFFFFFFFFu, n > std::int64_t{0xFFFFFFFF}, "UINT32_MAX"});
    v.push_back({0x80000000u, n > p2(31), "2^31"});
  } else if (type == DataType::INT64) {
    v.push_back({bits(n - 1), true, "n-1"});
    v.push_back({bits(-1), true, "-1"});
    v.push_back({bits(-n), true, "-n"});
    if (n < kInt64Max) v.push_back({bits(n), false, "n"});
    v.push_back({bits(kInt64Max), false, "INT64_MAX"});
    v.push_back({bits(kInt64Min), false, "INT64_MIN"});  // below -n
    if (n < kInt64Max) v.push_back({bits(-n - 1), false, "-n-1"});
  } else if (type == DataType::UINT64) {
    v.push_back({bits(n - 1), true, "n-1"});
    if (n < kInt64Max) v.push_back({bits(n), false, "n"});
    v.push_back({bits(kInt64Max), false, "INT64_MAX"});
    v.push_back({std::uint64_t{1} << 63, false, "2^63 (not INT64_MIN)"});
    v.push_back({(std::uint64_t{1} << 63) + 1, false, "2^63+1"});
    v.push_back({~std::uint64_t{0}, false, "UINT64_MAX (not -1)"});
    v.push_back({0 - static_cast<std::uint64_t>(n), false, "2^64-n (not -n)"});
  }
  return v;
}

/// A gather whose indexed input dimension has `n` elements, all of them one physical element
/// (stride 0), read through three index values. Every output element is that element.
Call huge_gather(Op op, DataType data, DataType index, std::int64_t n) {
  Call c;
  c.op = op;
  c.t[kInput].type = c.t[kOutput].type = data;
  c.t[kIndices].type = index;
  c.t[kUpdates].sizes = {1};
  c.t[kInput].buffer_bytes = dmlref::element_size(data);
  switch (op) {
    case Op::gather:  // {1, n} axis 1 (innermost), P 1: indices {1, 3} -> {1, 3}
    case Op::gather_elements:  // {1, n} axis 1: indices {1, 3} -> {1, 3}
      c.t[kInput].sizes = {1, n};
      c.t[kInput].strides = {0, 0};
      c.t[kIndices].sizes = {1, 3};
      c.t[kOutput].sizes = {1, 3};
      c.attr[0] = 1;
      c.attr[1] = 1;
      break;
    case Op::gather_nd:  // r 1, q 2: input {1, n}, indices {3, 1} (three 1-tuples) -> {1, 3}
      c.t[kInput].sizes = {1, n};
      c.t[kInput].strides = {0, 0};
      c.t[kIndices].sizes = {3, 1};
      c.t[kOutput].sizes = {1, 3};
      c.attr[0] = 1;
      c.attr[1] = 2;
      break;
    case Op::gather_nd1:  // r 2, q 3, B 1: input {1, 1, n}, indices {1, 3, 1} -> {1, 1, 3}
      c.t[kInput].sizes = {1, 1, n};
      c.t[kInput].strides = {0, 0, 0};
      c.t[kIndices].sizes = {1, 3, 1};
      c.t[kOutput].sizes = {1, 1, 3};
      c.attr[0] = 2;
      c.attr[1] = 3;
      c.attr[2] = 1;
      break;
    case Op::scatter:
    case Op::scatter_nd: break;
  }
  return c;
}

TEST(BadInputsOverflowSafety, HugeBroadcastDimensionAddressedAtItsEdges) {
  const Op ops[] = {Op::gather, Op::gather_elements, Op::gather_nd, Op::gather_nd1};
  for (Op op : ops)
    for (DataType data : kDataTypes)
      for (DataType index : kIndexTypes)
        for (std::int64_t n : kHugeSizes)
          for (const IndexValue& value : edge_values(index, n))
            for (dmlref::IndexPolicy policy : {dmlref::IndexPolicy::error, dmlref::IndexPolicy::clamp}) {
              const bool clamp = policy == dmlref::IndexPolicy::clamp;
              SCOPED_TRACE(std::string(op_name(op)) + " " + dmlref::name(data) + " indices " + dmlref::name(index) +
                           " n " + std::to_string(n) + " value " + value.label + (clamp ? " clamp" : ""));
              Call c = huge_gather(op, data, index, n);
              c.options.index_policy = policy;
              const std::size_t iw = index == DataType::INT64 || index == DataType::UINT64 ? 8 : 4;
              // Three values: 0, the edge value, 0 (the edge value sits in the middle).
              const Bound b = run(c, [&](guarded::Buffer& idx) {
                std::memset(idx.bytes(), 0, idx.size());
                std::memcpy(idx.bytes() + iw, &value.bits, iw);  // little-endian: the low bytes
              });
              if (!value.valid && !clamp) {
                ASSERT_EQ(b.status.code(), ErrorCode::index_out_of_range) << describe(b.status);
                EXPECT_EQ(b.status.error().target_size, n);
                EXPECT_TRUE(b.untouched());
                continue;
              }
              ASSERT_TRUE(b.status.ok()) << describe(b.status);
              // Every position of the broadcast dimension is the input's one physical element.
              const guarded::Buffer& in = b.buffers[kInput];
              const guarded::Buffer& out = b.buffers[kOutput];
              EXPECT_TRUE(out.guards_intact());
              EXPECT_TRUE(in.untouched() && b.buffers[kIndices].untouched());
              const std::size_t w = dmlref::element_size(data);
              ASSERT_EQ(out.size(), 3 * w);
              for (std::size_t e = 0; e < 3; ++e)
                EXPECT_EQ(std::memcmp(out.bytes() + e * w, in.bytes(), w), 0) << "output element " << e;
            }
}

}  // namespace
