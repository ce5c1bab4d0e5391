// support/rules.hpp.
#include "support/rules.hpp"

#include <cstring>
#include <limits>
#include <type_traits>

#include <dmlref/dmlref.hpp>

namespace rules {

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

namespace {

std::size_t width_of(DataType t) {
  const std::size_t w = dmlref::element_size(t);
  return w != 0 ? w : 4;  // invalid types: the test still needs some buffer
}

/// Stores v as an element of type t (an integer first: converting 1000.0 to int8 would be
/// undefined, UBSan's float-cast-overflow; integer narrowing wraps). False for invalid types.
bool store_value(guarded::Buffer& buf, std::size_t i, DataType t, std::uint64_t v) {
  switch (t) {
    case DataType::FLOAT32: buf.store(i, static_cast<float>(v)); return true;
    case DataType::FLOAT16: buf.store(i, dmlref::float16::from_float(static_cast<float>(v))); return true;
    case DataType::FLOAT64: buf.store(i, static_cast<double>(v)); return true;
    case DataType::INT8: buf.store(i, static_cast<std::int8_t>(v)); return true;
    case DataType::INT16: buf.store(i, static_cast<std::int16_t>(v)); return true;
    case DataType::INT32: buf.store(i, static_cast<std::int32_t>(v)); return true;
    case DataType::INT64: buf.store(i, static_cast<std::int64_t>(v)); return true;
    case DataType::UINT8: buf.store(i, static_cast<std::uint8_t>(v)); return true;
    case DataType::UINT16: buf.store(i, static_cast<std::uint16_t>(v)); return true;
    case DataType::UINT32: buf.store(i, static_cast<std::uint32_t>(v)); return true;
    case DataType::UINT64: buf.store(i, static_cast<std::uint64_t>(v)); return true;
    case DataType::UNKNOWN: return false;
  }
  return false;
}


}  // namespace

std::vector<int> Call::roles() const {
  return is_scatter(op) ? std::vector<int>{kInput, kIndices, kUpdates, kOutput}
                        : std::vector<int>{kInput, kIndices, kOutput};
}

std::vector<std::uint64_t> u64(std::initializer_list<std::int64_t> v) {
  std::vector<std::uint64_t> r;
  for (std::int64_t x : v) r.push_back(static_cast<std::uint64_t>(x));
  return r;
}

Call make_call(Op op) {
  // The calls rules.hpp lists: sizes of InputTensor, IndicesTensor (and its values), UpdatesTensor
  // and OutputTensor, then the attributes.
  struct Default {
    Sizes in, idx, values, upd, out;
    std::uint32_t attr[3];
  };
  const Default d = [op]() -> Default {
    switch (op) {
      case Op::gather: return {{2, 3, 4}, {1, 1, 2}, {2, 0}, {}, {2, 2, 4}, {1, 1, 0}};
      case Op::gather_elements: return {{2, 3}, {2, 2}, {0, 2, 1, 1}, {}, {2, 2}, {1, 0, 0}};
      case Op::gather_nd: return {{1, 2, 3}, {1, 2, 1}, {1, 0}, {}, {1, 2, 3}, {2, 2, 0}};
      case Op::gather_nd1: return {{1, 2, 2, 3}, {1, 2, 1, 1}, {1, 0}, {}, {1, 2, 1, 3}, {3, 3, 1}};
      case Op::scatter: return {{2, 3}, {2, 2}, {0, 2, 1, 0}, {2, 2}, {2, 3}, {1, 0, 0}};
      case Op::scatter_nd: return {{1, 3, 2}, {1, 2, 1}, {2, 0}, {1, 2, 2}, {1, 3, 2}, {2, 2, 0}};
    }
    return {};
  }();
  Call c;
  c.op = op;
  c.indices().type = DataType::UINT32;
  c.input().sizes = d.in;
  c.indices().sizes = d.idx;
  for (std::int64_t v : d.values) c.indices().values.push_back(static_cast<std::uint64_t>(v));
  c.updates().sizes = d.upd;
  c.output().sizes = d.out;
  for (int k = 0; k < 3; ++k) c.attr[k] = d.attr[k];
  return c;
}

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

Sizes packed(const Sizes& sizes) { return harness::packed_strides(sizes); }

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

::testing::AssertionResult Bound::untouched() const {
  for (int r = 0; r < harness::kRoles; ++r) {
    if (!buffer[r]) continue;
    if (!buffer[r]->guards_intact()) return ::testing::AssertionFailure() << role_name(r) << "'s guard bytes written";
    if (!buffer[r]->payload_unchanged())
      return ::testing::AssertionFailure() << role_name(r) << "'s buffer written at byte " << buffer[r]->first_change();
  }
  return ::testing::AssertionSuccess();
}

Bound bind(const Call& c) {
  Bound b;
  std::size_t need[harness::kRoles] = {0, 0, 0, 0};
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
        const std::uint64_t v = (r == kUpdates ? 1000 : 1) + i % 1000;
        if (!store_value(buf, i, t.type, v)) buf.store(i, static_cast<std::uint32_t>(v));
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
    } while (++k < idx.values.size() && oracle::detail::next(coord, idx.sizes));
    const int owner = idx.alias_of >= 0 ? idx.alias_of : kIndices;
    b.buffer[owner]->snapshot();
  }
  return b;
}

harness::Call to_harness(const Call& c, const Bound& b) {
  // A rank-0 tensor still has a Sizes array (of no entries): a TensorView can hold one.
  static const std::int64_t no_sizes[1] = {0};
  harness::Call h;
  h.op = c.op;
  for (int k = 0; k < 3; ++k) h.attr[k] = c.attr[k];
  h.options = c.options;
  h.reduction = c.reduction;
  for (int r : c.roles()) {
    const TensorConfig& t = c.t[r];
    harness::Operand& o = h.t[r];
    o.type = t.type;
    o.dimension_count = t.dimension_count.value_or(static_cast<std::uint32_t>(t.sizes.size()));
    o.sizes = t.null_sizes ? nullptr : t.sizes.empty() ? no_sizes : t.sizes.data();
    o.strides = t.strides ? t.strides->data() : nullptr;
    o.total_bytes = t.total_bytes.value_or(extent_bytes(t));
    o.data = t.null_data ? nullptr : b.data[r];
  }
  return h;
}

Status run_dispatch(const Call& c, Bound& b) { return harness::run_dispatch(to_harness(c, b)); }

bool typed_expressible(const Call& c) {
  for (int r : c.roles()) {
    const TensorConfig& t = c.t[r];
    if (t.dimension_count || t.null_sizes || t.total_bytes) return false;
    if (r != kIndices && t.type != c.t[kInput].type) return false;
  }
  return dmlref::is_valid(c.t[kInput].type) && dmlref::is_index_type(c.t[kIndices].type);
}

Status run_typed_any(const Call& c, Bound& b) { return harness::run_typed(to_harness(c, b)); }

std::string describe(const dmlref::Error& e) {
  return std::string(dmlref::name(e.code)) + " | tensor '" + e.tensor + "' field '" + e.field + "' [" +
         std::to_string(e.field_index) + "] | " + e.message();
}

std::string str(const Shape& s) { return dmlref::ErrorValue::braced(s); }
Shape to_shape(const Sizes& s) { return Shape::from(s.data(), s.size()); }

std::string trace(Op op, int role) {
  return std::string(harness::name(op)) + (role >= 0 ? std::string(" / ") + role_name(role) : std::string());
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

Sizes unravel(std::size_t flat, const Sizes& sizes) {
  Sizes c(sizes.size(), 0);
  for (std::size_t d = sizes.size(); d-- > 0;) {
    c[d] = static_cast<std::int64_t>(flat) % sizes[d];
    flat /= static_cast<std::size_t>(sizes[d]);
  }
  return c;
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

dmlref::Error expect_error(const Call& c, const Want& w) {
  Bound b = bind(c);
  Status dispatch = run_dispatch(c, b);
  {
    SCOPED_TRACE("dispatch layer");
    check_want(dispatch, w, harness::name(c.op));
    EXPECT_TRUE(b.untouched());
  }
  if (typed_expressible(c)) {
    SCOPED_TRACE("typed layer");
    Bound bt = bind(c);
    const Status typed = run_typed_any(c, bt);
    check_want(typed, w, harness::name(c.op));
    EXPECT_TRUE(bt.untouched());
    if (!dispatch.ok() && !typed.ok()) {
      EXPECT_TRUE(same_error(dispatch.error(), typed.error()));
    }
  }
  return dispatch.error();
}

dmlref::Error expect_dispatch_error(const Call& c, const Want& w) {
  Bound b = bind(c);
  const Status s = run_dispatch(c, b);
  check_want(s, w, harness::name(c.op));
  EXPECT_TRUE(b.untouched());
  return s.error();
}

void expect_ok(const Call& c) {
  Bound expected = bind(c);
  const oracle::Result r = harness::run_oracle(to_harness(c, expected));
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

std::string message_of(const Call& c) {
  Bound b = bind(c);
  return run_dispatch(c, b).message();
}

// ================================================================================================
// Rules that several operators share.

void expect_axis_below_d(Op op) {
  const std::uint32_t D = static_cast<std::uint32_t>(make_call(op).input().sizes.size());
  for (std::uint32_t axis : {D, D + 1, std::numeric_limits<std::uint32_t>::max()}) {
    SCOPED_TRACE(trace(op) + " Axis " + std::to_string(axis));
    Call c = make_call(op);
    c.attr[0] = axis;
    expect_error(c, {ErrorCode::invalid_attribute, "", "Axis", -1, "0.." + std::to_string(D - 1), std::to_string(axis)});
  }
}

void expect_nd_dimension_counts_one_to_d(Op op) {
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

void expect_nd_input_leading_ones(Op op) {
  SCOPED_TRACE(trace(op));
  Call c = make_call(op);
  c.input().sizes[0] = 2;
  expect_error(c, {ErrorCode::shape_mismatch, "InputTensor", "Sizes", 0, "1", "2"});
}

void expect_nd_indices_leading_ones(Op op) {
  SCOPED_TRACE(trace(op));
  Call c = make_call(op);
  c.indices().sizes[0] = 2;
  c.indices().values = u64({0, 0, 0, 0});
  expect_error(c, {ErrorCode::shape_mismatch, "IndicesTensor", "Sizes", 0, "1", "2"});
}

void expect_elements_indices_match_input_off_axis(Op op) {
  for (std::int64_t size : {1, 3}) {  // smaller and larger than InputTensor.Sizes[0] = 2
    SCOPED_TRACE(trace(op) + " IndicesTensor.Sizes[0] = " + std::to_string(size));
    Call c = make_call(op);  // Axis 1
    c.indices().sizes[0] = size;
    if (is_scatter(op)) c.updates().sizes[0] = size;
    if (!is_scatter(op)) c.output().sizes[0] = size;
    expect_error(c, {ErrorCode::shape_mismatch, "IndicesTensor", "Sizes", 0, "2", std::to_string(size)});
  }
}

void expect_elements_indices_may_differ_along_axis(Op op) {
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

void expect_tuple_length_zero_is_a_size_error(Op op) {
  // K = 0 cannot be expressed: it would be a size of 0.
  SCOPED_TRACE(trace(op));
  Call c = make_call(op);
  const int last = static_cast<int>(c.indices().sizes.size()) - 1;
  c.indices().sizes[static_cast<std::size_t>(last)] = 0;
  c.indices().values.clear();
  expect_error(c, {ErrorCode::invalid_size, "IndicesTensor", "Sizes", last, std::nullopt, "0"});
}

void expect_tuple_length_above_r_minus_b_rejected(Op op, std::int64_t K, const std::string& range) {
  SCOPED_TRACE(trace(op));
  Call c = make_call(op);
  const std::size_t last = c.indices().sizes.size() - 1;
  c.indices().sizes[last] = K;
  c.indices().values.assign(static_cast<std::size_t>(2 * K), 0);
  expect_error(c, {ErrorCode::shape_mismatch, "IndicesTensor", "Sizes", static_cast<int>(last), range,
                   std::to_string(K)});
}

void expect_meaningful_output_rank_above_d_rejected(Op op) {
  // D 3, r 3, q 3, K 1: M = 2 + 2 = 4 > 3.
  SCOPED_TRACE(trace(op));
  Call c = make_call(op);
  c.input().sizes = {2, 2, 2};
  c.indices().sizes = {2, 2, 1};
  c.indices().values = u64({0, 1, 1, 0});
  c.output().sizes = Sizes{2, 2, 2};
  if (is_scatter(op)) c.updates().sizes = {2, 2, 2};
  c.attr[0] = 3;
  c.attr[1] = 3;
  expect_error(c, {ErrorCode::shape_mismatch, "IndicesTensor", "Sizes", 2, "at least 2", "1"});
}

void expect_wrong_output_sizes_rejected(Op op) {
  SCOPED_TRACE(trace(op));
  Call c = make_call(op);
  const Sizes right = c.output().sizes;
  Sizes wrong = right;
  wrong.back() += 1;
  c.output().sizes = wrong;
  expect_error(c, {ErrorCode::shape_mismatch, "OutputTensor", "Sizes", -1, harness::text(right), harness::text(wrong)});
  // Same element count, other shape.
  c.output().sizes = right;
  std::swap(c.output().sizes.front(), c.output().sizes.back());
  if (c.output().sizes != right)
    expect_error(c, {ErrorCode::shape_mismatch, "OutputTensor", "Sizes", -1, harness::text(right),
                     harness::text(c.output().sizes)});
}

void expect_reduction_must_be_an_enumerator(Op op) {
  SCOPED_TRACE(trace(op));
  Call c = make_call(op);
  c.reduction = static_cast<dmlref::Reduction>(9);
  const Want bad_reduction{ErrorCode::invalid_attribute, "", "Reduction", -1, "none, add, mul, max or min", "9"};
  expect_error(c, bad_reduction);
  // Before overlaps: OutputTensor four bytes into InputTensor (not in place) is reported after it.
  Call overlapping = c;
  overlapping.output().alias_of = kInput;
  overlapping.output().alias_offset = 4;
  expect_error(overlapping, bad_reduction);
  // After the shape rule: a wrong OutputTensor.Sizes is what such a call reports.
  c.output().sizes.back() += 1;
  expect_error(c, {ErrorCode::shape_mismatch, "OutputTensor", "Sizes"});
}

namespace {

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
    case DataType::INT64: {
      const bool wide = type == DataType::INT64;
      const std::string name = wide ? "INT64" : "INT32";
      const std::int64_t lo = wide ? std::numeric_limits<std::int64_t>::min() : std::numeric_limits<std::int32_t>::min();
      const std::int64_t hi = wide ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int32_t>::max();
      v.push_back({"-1", s(-1), true, "-1"});
      v.push_back({"-n", s(-n), true, std::to_string(-n)});
      v.push_back({"-n-1", s(-n - 1), false, std::to_string(-n - 1)});
      v.push_back({name + "_MIN", s(lo), false, std::to_string(lo)});
      v.push_back({name + "_MAX", s(hi), false, std::to_string(hi)});
      break;
    }
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

}  // namespace

void expect_index_edge_values(Op op) {
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
      const dmlref::Error e =
          expect_error(c, {ErrorCode::index_out_of_range, "IndicesTensor", "value", -1, range, k.shown});
      if (e.code == ErrorCode::ok) continue;
      EXPECT_EQ(str(e.position), str(to_shape(unravel(at, c.indices().sizes))));
      EXPECT_EQ(std::string(e.target_tensor), target.tensor);
      EXPECT_EQ(e.target_dimension, target.dimension);
      EXPECT_EQ(e.target_size, target.size);
      EXPECT_EQ(e.actual.kind,
                is_signed ? dmlref::ErrorValue::Kind::integer : dmlref::ErrorValue::Kind::unsigned_integer);
    }
  }
}

void expect_no_collision_passes(Op op) {
  SCOPED_TRACE(trace(op));
  Call c = make_call(op);
  c.options.check_collisions = true;
  expect_ok(c);
}

}  // namespace rules
