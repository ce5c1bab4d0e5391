// support/examples.hpp.
#include "support/examples.hpp"

#include <cctype>
#include <cstring>
#include <type_traits>

#include <dmlref/dmlref.hpp>
#include <dmlref/gtest.hpp>

namespace examples {

using dmlref::DataType;
using dmlref::ErrorCode;
using dmlref::Shape;
using dmlref::Status;
using harness::Op;

namespace {

DataType type_named(const std::string& name) {
  for (std::uint32_t v = 1; v <= 11; ++v) {
    const auto t = static_cast<DataType>(v);
    if (name == dmlref::name(t)) return t;
  }
  return DataType::UNKNOWN;
}

template <class T>
void put(unsigned char* p, T x) {
  std::memcpy(p, &x, sizeof x);
}

/// The table's double as the bytes of an element of type t.
void encode(DataType t, double v, unsigned char* p) {
  ASSERT_TRUE(dmlref::is_valid(t)) << "the test cannot encode data type " << static_cast<int>(t);
  switch (t) {
    case DataType::FLOAT32: return put(p, static_cast<float>(v));
    case DataType::FLOAT16: return put(p, dmlref::float16::from_float(static_cast<float>(v)));
    case DataType::FLOAT64: return put(p, v);
    case DataType::INT8: return put(p, static_cast<std::int8_t>(v));
    case DataType::INT16: return put(p, static_cast<std::int16_t>(v));
    case DataType::INT32: return put(p, static_cast<std::int32_t>(v));
    case DataType::INT64: return put(p, static_cast<std::int64_t>(v));
    case DataType::UINT8: return put(p, static_cast<std::uint8_t>(v));
    case DataType::UINT16: return put(p, static_cast<std::uint16_t>(v));
    case DataType::UINT32: return put(p, static_cast<std::uint32_t>(v));
    case DataType::UINT64: return put(p, static_cast<std::uint64_t>(v));
    case DataType::UNKNOWN: break;
  }
}

std::int64_t product(const Sizes& s) {
  std::int64_t n = 1;
  for (std::int64_t v : s) n *= v;
  return n;
}

Sizes sizes_of(const Shape& s) { return Sizes(s.begin(), s.end()); }

/// Stores `values` (or, for shape-only examples, `fallback(i)` for every element). The buffer
/// holds max(product(sizes), values) elements: literal forms may print more values than fit.
Tensor make_input(const spec_examples::Array& a, double (*fallback)(std::size_t)) {
  Tensor t;
  t.type = type_named(a.type);
  t.sizes = a.sizes;
  const std::size_t count = std::max<std::size_t>(static_cast<std::size_t>(product(a.sizes)), a.values.size());
  const std::size_t width = t.element_size() != 0 ? t.element_size() : 4;
  t.buffer = std::make_unique<guarded::Buffer>(count * width);
  for (std::size_t i = 0; i < count; ++i) {
    const double v = a.values.empty() ? fallback(i) : a.values[i];
    encode(t.type, v, t.buffer->bytes() + i * width);
  }
  t.buffer->snapshot();
  return t;
}

double iota(std::size_t i) { return static_cast<double>(i + 1); }
double zero(std::size_t) { return 0; }
double hundreds(std::size_t i) { return static_cast<double>(100 + i); }

harness::Operand operand(const Tensor& t) {
  return {t.type, static_cast<std::uint32_t>(t.sizes.size()), t.sizes.data(), nullptr, t.buffer->size(),
          t.buffer->bytes()};
}

ErrorCode code_for(Expect expect) {
  switch (expect) {
    case Expect::ok: return ErrorCode::ok;
    case Expect::shape_error: return ErrorCode::shape_mismatch;
    case Expect::index_error: return ErrorCode::index_out_of_range;
    case Expect::collision_error: return ErrorCode::scatter_collision;
    case Expect::data_type_error: return ErrorCode::data_type_mismatch;
    case Expect::dimension_count_error: return ErrorCode::invalid_dimension_count;
    case Expect::index_type_error: return ErrorCode::unsupported_index_type;
  }
  return ErrorCode::ok;
}

/// Where each failing example's error must point. "" = not checked.
struct Location {
  const char* id;
  const char* tensor;
  const char* field;
  int field_index;
  const char* expected;  ///< ErrorValue::to_string() of Error::expected
  const char* actual;
  Sizes position;  ///< index / collision errors
  const char* target_tensor;
  Sizes target_position;  ///< collision errors
};

const std::vector<Location>& failure_locations() {
  static const std::vector<Location> table = {
      // L = {3,1,2}: the entry that right-alignment drops is 3; IndexDimensions is what is too large.
      {"G-3-literal", "", "IndexDimensions", -1, "", "2", {}, "", {}},
      {"GE-1-literal", "OutputTensor", "DataType", -1, "FLOAT32", "UINT32", {}, "", {}},
      {"S-2-literal", "OutputTensor", "Sizes", -1, "{2, 3}", "{3, 3}", {}, "", {}},
      {"SN-literal", "IndicesTensor", "DimensionCount", -1, "1", "2", {}, "", {}},
      {"SN-literal-padded", "IndicesTensor", "DataType", -1, "", "FLOAT32", {}, "", {}},
      {"X-12", "IndicesTensor", "value", -1, "0..3", "4294967295", {1}, "InputTensor", {}},
      {"S-1-collision", "UpdatesTensor", "", -1, "", "", {2}, "OutputTensor", {3}},
      {"X-13-collision", "UpdatesTensor", "", -1, "", "", {0, 1}, "OutputTensor", {0, 2}},
  };
  return table;
}

const Location* location_of(const Example& e) {
  for (const Location& l : failure_locations())
    if (std::string(l.id) == e.id) return &l;
  return nullptr;
}

/// Shape-only examples: the naive oracle's output for the same buffers.
std::vector<unsigned char> oracle_output(const Example& e, const Prepared& p) {
  std::vector<unsigned char> bytes(p.output.buffer->size(), guarded::kSentinel);
  harness::Call c = call(e, p, {});
  c.t[harness::kOutput].data = bytes.data();
  const oracle::Result r = harness::run_oracle(c);
  EXPECT_TRUE(r.ok) << "oracle: " << r.error;
  return bytes;
}

void check_outcome(const Example& e, Prepared& p, const Status& status) {
  if (e.expect == Expect::ok)
    check_success(e, p, status);
  else
    check_failure(e, p, status);
}

}  // namespace

std::vector<Example> of(Op op) {
  std::vector<Example> v;
  for (const Example& e : spec_examples::all())
    if (e.op == op) v.push_back(e);
  return v;
}

const Example* find(const char* id) {
  for (const Example& e : spec_examples::all())
    if (std::string(e.id) == id) return &e;
  ADD_FAILURE() << "no spec example " << id;
  return nullptr;
}

std::string test_name(const ::testing::TestParamInfo<Example>& info) {
  std::string s = info.param.id;
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

std::size_t Tensor::element_size() const { return dmlref::element_size(type); }

Prepared::Prepared(const Example& e) : scatter(harness::is_scatter(e.op)) {
  input = make_input(e.input, iota);
  indices = make_input(e.indices, zero);
  if (scatter) updates = make_input(e.updates, hundreds);
  output.type = type_named(e.output.type);
  output.sizes = e.output.sizes;
  const std::size_t width = output.element_size() != 0 ? output.element_size() : 4;
  output.buffer = std::make_unique<guarded::Buffer>(static_cast<std::size_t>(product(output.sizes)) * width);
}

void Prepared::expect_inputs_untouched() const {
  EXPECT_TRUE(input.buffer->untouched()) << "InputTensor's buffer was written";
  EXPECT_TRUE(indices.buffer->untouched()) << "IndicesTensor's buffer was written";
  if (scatter) {
    EXPECT_TRUE(updates.buffer->untouched()) << "UpdatesTensor's buffer was written";
  }
  EXPECT_TRUE(output.buffer->guards_intact()) << "bytes outside OutputTensor were written";
}

harness::Call call(const Example& e, const Prepared& p, const dmlref::Options& options) {
  harness::Call c;
  c.op = e.op;
  for (int k = 0; k < 3; ++k) c.attr[k] = e.attr[k];
  c.options = options;
  c.t[harness::kInput] = operand(p.input);
  c.t[harness::kIndices] = operand(p.indices);
  if (p.scatter) c.t[harness::kUpdates] = operand(p.updates);
  c.t[harness::kOutput] = operand(p.output);
  return c;
}

dmlref::Options options_for(const Example& e) {
  dmlref::Options o;
  o.check_collisions = e.check_collisions;
  return o;
}

void check_success(const Example& e, Prepared& p, const Status& status) {
  ASSERT_TRUE(status.ok()) << status.message();
  p.expect_inputs_untouched();
  const guarded::Buffer& out = *p.output.buffer;
  std::vector<unsigned char> expected(out.size());
  if (e.output.values.empty()) {
    expected = oracle_output(e, p);
  } else {
    ASSERT_EQ(e.output.values.size() * p.output.element_size(), out.size());
    for (std::size_t i = 0; i < e.output.values.size(); ++i)
      encode(p.output.type, e.output.values[i], expected.data() + i * p.output.element_size());
  }
  // Every byte of the buffer is an element of the packed output: compare them bit for bit.
  const dmlref::TensorDesc output = p.output.buffer->desc(p.output.type, p.output.sizes);
  const dmlref::TensorDesc golden{p.output.type, static_cast<std::uint32_t>(p.output.sizes.size()),
                                  p.output.sizes.data(), nullptr, expected.size(), expected.data()};
  DMLREF_ASSERT_TENSOR_EQ(output, golden);
}

void check_failure(const Example& e, Prepared& p, const Status& status) {
  ASSERT_FALSE(status.ok()) << "the example must fail; note: " << e.note;
  const dmlref::Error& error = status.error();
  EXPECT_EQ(dmlref::name(error.code), std::string(dmlref::name(code_for(e.expect)))) << status.message();
  EXPECT_EQ(status.code(), error.code);
  EXPECT_FALSE(status.message().empty());
  p.expect_inputs_untouched();
  EXPECT_TRUE(p.output.buffer->untouched())
      << "OutputTensor written at byte " << p.output.buffer->first_change() << " although the call failed";

  const Location* where = location_of(e);
  ASSERT_NE(where, nullptr) << "no expected error location for failing example " << e.id;
  EXPECT_EQ(std::string(error.tensor), where->tensor) << status.message();
  EXPECT_EQ(std::string(error.field), where->field) << status.message();
  EXPECT_EQ(error.field_index, where->field_index) << status.message();
  if (*where->expected != '\0') {
    EXPECT_EQ(error.expected.to_string(), where->expected) << status.message();
  }
  if (*where->actual != '\0') {
    EXPECT_EQ(error.actual.to_string(), where->actual) << status.message();
  }
  if (!where->position.empty()) {
    EXPECT_EQ(sizes_of(error.position), where->position) << status.message();
  }
  if (*where->target_tensor != '\0') {
    EXPECT_EQ(std::string(error.target_tensor), where->target_tensor);
  }
  if (!where->target_position.empty()) {
    EXPECT_EQ(sizes_of(error.target_position), where->target_position) << status.message();
  }
}

void check_on_both_layers(const Example& e) {
  SCOPED_TRACE(std::string(e.id) + " (" + e.source + "): " + e.note);
  {
    SCOPED_TRACE("dispatch layer (TensorDesc)");
    Prepared p(e);
    check_outcome(e, p, harness::run_dispatch(call(e, p, options_for(e))));
  }
  Prepared p(e);
  harness::Call c = call(e, p, options_for(e));
  if (e.expect == Expect::dimension_count_error && !dmlref::is_index_type(c.t[harness::kIndices].type)) {
    // SN-literal: a TensorView cannot hold FLOAT32 indices. With UINT32 indices (same bits, never
    // read) the DimensionCount error must still be the one reported.
    c.t[harness::kIndices].type = DataType::UINT32;
  }
  if (harness::typed_expressible(c)) {
    SCOPED_TRACE("typed layer (TensorView)");
    check_outcome(e, p, harness::run_typed(c));
  }
}

void check_shape_helper(const Example& e) {
  SCOPED_TRACE(std::string(e.id) + ": " + e.note);
  Prepared p(e);
  const harness::Call c = call(e, p, {});
  const dmlref::Result<Shape> sizes = harness::output_sizes(c);
  const bool shape_is_wrong = e.expect == Expect::shape_error || e.expect == Expect::dimension_count_error;
  if (!shape_is_wrong) {
    // Successful examples, and failures about values or types: the shapes themselves are valid.
    ASSERT_TRUE(sizes.ok()) << sizes.status().message();
    EXPECT_EQ(sizes_of(*sizes), e.output.sizes);
  } else if (sizes.ok()) {
    EXPECT_NE(sizes_of(*sizes), e.output.sizes) << "the helper accepts the literal form's output sizes";
  } else {
    EXPECT_EQ(sizes.error().code, code_for(e.expect)) << sizes.status().message();
  }
  if (e.op == Op::scatter_nd && !shape_is_wrong) {
    const std::uint32_t* a = e.attr;
    const auto updates = dmlref::scatter_nd_updates_sizes(Shape::from(e.input.sizes.data(), e.input.sizes.size()),
                                                          Shape::from(e.indices.sizes.data(), e.indices.sizes.size()),
                                                          dmlref::ScatterNDParams{a[0], a[1]});
    ASSERT_TRUE(updates.ok()) << updates.status().message();
    EXPECT_EQ(sizes_of(*updates), e.updates.sizes);
  }
}

}  // namespace examples

namespace examples {

void check_clamp_leaves_in_range_examples(harness::Op op) {
  int checked = 0;
  for (const Example& e : of(op)) {
    if (e.expect != Expect::ok || e.output.values.empty()) continue;
    SCOPED_TRACE(e.id);
    Prepared p(e);
    dmlref::Options clamp;
    clamp.index_policy = dmlref::IndexPolicy::clamp;
    check_success(e, p, harness::run_dispatch(call(e, p, clamp)));
    ++checked;
  }
  EXPECT_GT(checked, 0) << "no example of " << harness::name(op) << " with documented values";
}

}  // namespace examples
