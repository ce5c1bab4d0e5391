// Every worked example and derived vector of shared/spec/operators.md (tests/support/spec_examples.hpp),
// one test per example (named after its id), each run through the typed layer (TensorView) and the
// dispatch layer (TensorDesc):
// - successful examples: the output equals the documented values bit for bit, no byte outside the
//   output's elements is written, the inputs are unchanged, and the shape helper returns the
//   documented sizes; shape-only examples (GN-S, ...) are compared with the naive oracle;
// - failing examples: the documented ErrorCode, naming the documented tensor and field, and nothing
//   written. The typed layer cannot express a data-type or index-type error (they do not compile),
//   so those run on the dispatch layer only.
// Also: the clamp policy (WebNN arithmetic) on a few cases.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "dmlref/dmlref.hpp"
#include "dmlref/gtest.hpp"
#include "support/guarded.hpp"
#include "support/oracle.hpp"
#include "support/spec_examples.hpp"

namespace {

using dmlref::DataType;
using dmlref::ErrorCode;
using dmlref::Shape;
using dmlref::Status;
using spec_examples::Example;
using spec_examples::Expect;
using spec_examples::Op;
using Sizes = std::vector<std::int64_t>;

// ------------------------------------------------------------------------------------------------
// Data types: from the table's names to storage types.

template <class T>
struct Tag {
  using type = T;
};

/// Calls f(Tag<T>{}) with the storage type of a valid data type; false for anything else.
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

/// Calls f(Tag<I>{}) with the storage type of an index type; false for anything else.
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

DataType type_named(const std::string& name) {
  for (std::uint32_t v = 1; v <= 11; ++v) {
    const auto t = static_cast<DataType>(v);
    if (name == dmlref::name(t)) return t;
  }
  return DataType::UNKNOWN;
}

/// The table's double as the bytes of an element of type t.
void encode(DataType t, double v, unsigned char* p) {
  const bool known = visit_data_type(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T x;
    if constexpr (std::is_same_v<T, dmlref::float16>)
      x = dmlref::float16::from_float(static_cast<float>(v));
    else
      x = static_cast<T>(v);
    std::memcpy(p, &x, sizeof x);
  });
  ASSERT_TRUE(known) << "the test cannot encode data type " << static_cast<int>(t);
}

std::int64_t product(const Sizes& s) {
  std::int64_t n = 1;
  for (std::int64_t v : s) n *= v;
  return n;
}

Shape shape(const Sizes& s) { return Shape::from(s.data(), s.size()); }
Sizes sizes_of(const Shape& s) { return Sizes(s.begin(), s.end()); }

std::string test_name(const char* id) {
  std::string s = id;
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// ------------------------------------------------------------------------------------------------
// One example's tensors in guarded buffers.

struct Tensor {
  DataType type = DataType::UNKNOWN;
  Sizes sizes;
  std::unique_ptr<guarded::Buffer> buffer;

  std::size_t element_size() const { return dmlref::element_size(type); }
  dmlref::TensorDesc desc() const { return buffer->desc(type, sizes); }
  dmlref::MutableTensorDesc mutable_desc() { return buffer->mutable_desc(type, sizes); }
  template <class T>
  dmlref::TensorView<const T> cview() const {
    return buffer->cview<T>(shape(sizes));
  }
  template <class T>
  dmlref::TensorView<T> view() {
    return buffer->view<T>(shape(sizes));
  }
};

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

struct Prepared {
  Tensor input, indices, updates, output;
  bool scatter = false;

  explicit Prepared(const Example& e) : scatter(e.op == Op::scatter || e.op == Op::scatter_nd) {
    input = make_input(e.input, iota);
    indices = make_input(e.indices, zero);
    if (scatter) updates = make_input(e.updates, hundreds);
    output.type = type_named(e.output.type);
    output.sizes = e.output.sizes;
    const std::size_t width = output.element_size() != 0 ? output.element_size() : 4;
    output.buffer = std::make_unique<guarded::Buffer>(static_cast<std::size_t>(product(output.sizes)) * width);
  }

  /// Guards of every buffer intact; input buffers unchanged.
  void expect_inputs_untouched() const {
    EXPECT_TRUE(input.buffer->untouched()) << "InputTensor's buffer was written";
    EXPECT_TRUE(indices.buffer->untouched()) << "IndicesTensor's buffer was written";
    if (scatter) {
      EXPECT_TRUE(updates.buffer->untouched()) << "UpdatesTensor's buffer was written";
    }
    EXPECT_TRUE(output.buffer->guards_intact()) << "bytes outside OutputTensor were written";
  }
};

// ------------------------------------------------------------------------------------------------
// Running an example through each layer.

Status run_dispatch(const Example& e, Prepared& p, const dmlref::Options& options) {
  const std::uint32_t* a = e.attr;
  const dmlref::MutableTensorDesc out = p.output.mutable_desc();
  switch (e.op) {
    case Op::gather:
      return dmlref::try_gather(p.input.desc(), p.indices.desc(), out, dmlref::GatherParams{a[0], a[1]}, options);
    case Op::gather_elements:
      return dmlref::try_gather_elements(p.input.desc(), p.indices.desc(), out,
                                         dmlref::GatherElementsParams{a[0]}, options);
    case Op::gather_nd:
      return dmlref::try_gather_nd(p.input.desc(), p.indices.desc(), out, dmlref::GatherNDParams{a[0], a[1]},
                                   options);
    case Op::gather_nd1:
      return dmlref::try_gather_nd1(p.input.desc(), p.indices.desc(), out,
                                    dmlref::GatherND1Params{a[0], a[1], a[2]}, options);
    case Op::scatter:
      return dmlref::try_scatter(p.input.desc(), p.indices.desc(), p.updates.desc(), out,
                                 dmlref::ScatterParams{a[0]}, options);
    case Op::scatter_nd:
      return dmlref::try_scatter_nd(p.input.desc(), p.indices.desc(), p.updates.desc(), out,
                                    dmlref::ScatterNDParams{a[0], a[1]}, options);
  }
  return Status();
}

template <class T, class I>
Status run_typed(const Example& e, Prepared& p, const dmlref::Options& options) {
  const std::uint32_t* a = e.attr;
  const auto in = p.input.cview<T>();
  const auto idx = p.indices.cview<I>();
  const auto out = p.output.view<T>();
  switch (e.op) {
    case Op::gather: return dmlref::try_gather(in, idx, out, dmlref::GatherParams{a[0], a[1]}, options);
    case Op::gather_elements:
      return dmlref::try_gather_elements(in, idx, out, dmlref::GatherElementsParams{a[0]}, options);
    case Op::gather_nd: return dmlref::try_gather_nd(in, idx, out, dmlref::GatherNDParams{a[0], a[1]}, options);
    case Op::gather_nd1:
      return dmlref::try_gather_nd1(in, idx, out, dmlref::GatherND1Params{a[0], a[1], a[2]}, options);
    case Op::scatter:
      return dmlref::try_scatter(in, idx, p.updates.cview<T>(), out, dmlref::ScatterParams{a[0]}, options);
    case Op::scatter_nd:
      return dmlref::try_scatter_nd(in, idx, p.updates.cview<T>(), out, dmlref::ScatterNDParams{a[0], a[1]},
                                    options);
  }
  return Status();
}

/// The typed layer needs one data type for every data tensor and an index type.
bool typed_expressible(const Example& e) {
  const std::string in = e.input.type;
  const bool scatter = e.op == Op::scatter || e.op == Op::scatter_nd;
  return std::string(e.output.type) == in && (!scatter || std::string(e.updates.type) == in) &&
         type_named(in) != DataType::UNKNOWN;
}

// ------------------------------------------------------------------------------------------------
// Expected outcomes.

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
  Sizes position;                ///< index / collision errors
  const char* target_tensor;
  Sizes target_position;         ///< collision errors
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

/// The shape helper's answer for the example's input/indices/updates sizes: OutputTensor.Sizes.
dmlref::Result<Shape> helper_output_sizes(const Example& e) {
  const std::uint32_t* a = e.attr;
  const Shape in = shape(e.input.sizes), idx = shape(e.indices.sizes);
  switch (e.op) {
    case Op::gather: return dmlref::gather_output_sizes(in, idx, dmlref::GatherParams{a[0], a[1]});
    case Op::gather_elements:
      return dmlref::gather_elements_output_sizes(in, idx, dmlref::GatherElementsParams{a[0]});
    case Op::gather_nd: return dmlref::gather_nd_output_sizes(in, idx, dmlref::GatherNDParams{a[0], a[1]});
    case Op::gather_nd1:
      return dmlref::gather_nd1_output_sizes(in, idx, dmlref::GatherND1Params{a[0], a[1], a[2]});
    case Op::scatter:
      return dmlref::scatter_output_sizes(in, idx, shape(e.updates.sizes), dmlref::ScatterParams{a[0]});
    case Op::scatter_nd:
      return dmlref::scatter_nd_output_sizes(in, idx, shape(e.updates.sizes), dmlref::ScatterNDParams{a[0], a[1]});
  }
  return Shape();
}

/// Shape-only examples: the naive oracle's output for the same buffers.
std::vector<unsigned char> oracle_output(const Example& e, const Prepared& p) {
  const auto strides = [](const Sizes& s) { return sizes_of(dmlref::packed_strides(shape(s))); };
  const oracle::Tensor in{p.input.buffer->bytes(), p.input.element_size(), p.input.sizes, strides(p.input.sizes)};
  oracle::IndexKind kind = oracle::IndexKind::u32;
  if (p.indices.type == DataType::INT32) kind = oracle::IndexKind::i32;
  if (p.indices.type == DataType::INT64) kind = oracle::IndexKind::i64;
  if (p.indices.type == DataType::UINT64) kind = oracle::IndexKind::u64;
  const oracle::Indices idx{p.indices.buffer->bytes(), kind, p.indices.sizes, strides(p.indices.sizes)};
  std::vector<unsigned char> bytes(p.output.buffer->size(), guarded::kSentinel);
  const oracle::Output out{bytes.data(), p.output.element_size(), p.output.sizes, strides(p.output.sizes)};
  const std::uint32_t* a = e.attr;
  oracle::Result r{false, "no oracle for this operator"};
  switch (e.op) {
    case Op::gather: r = oracle::gather(in, idx, out, a[0], a[1], oracle::Policy::error); break;
    case Op::gather_elements: r = oracle::gather_elements(in, idx, out, a[0], oracle::Policy::error); break;
    case Op::gather_nd: r = oracle::gather_nd(in, idx, out, a[0], a[1], oracle::Policy::error); break;
    case Op::gather_nd1: r = oracle::gather_nd1(in, idx, out, a[0], a[1], a[2], oracle::Policy::error); break;
    case Op::scatter: {
      const oracle::Tensor upd{p.updates.buffer->bytes(), p.updates.element_size(), p.updates.sizes,
                               strides(p.updates.sizes)};
      r = oracle::scatter(in, idx, upd, out, a[0], oracle::Policy::error, false);
      break;
    }
    case Op::scatter_nd: {
      const oracle::Tensor upd{p.updates.buffer->bytes(), p.updates.element_size(), p.updates.sizes,
                               strides(p.updates.sizes)};
      r = oracle::scatter_nd(in, idx, upd, out, a[0], a[1], oracle::Policy::error, false);
      break;
    }
  }
  EXPECT_TRUE(r.ok) << "oracle: " << r.error;
  return bytes;
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
  const dmlref::TensorDesc output = p.output.desc();
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

void check_outcome(const Example& e, Prepared& p, const Status& status) {
  if (e.expect == Expect::ok)
    check_success(e, p, status);
  else
    check_failure(e, p, status);
}

dmlref::Options options_for(const Example& e) {
  dmlref::Options o;
  o.check_collisions = e.check_collisions;
  return o;
}

// ------------------------------------------------------------------------------------------------

class Examples : public ::testing::TestWithParam<Example> {};

TEST_P(Examples, TypedAndDispatch) {
  const Example& e = GetParam();
  SCOPED_TRACE(std::string(e.id) + " (" + e.source + "): " + e.note);

  {
    SCOPED_TRACE("dispatch layer (TensorDesc)");
    Prepared p(e);
    check_outcome(e, p, run_dispatch(e, p, options_for(e)));
  }

  DataType index_type = type_named(e.indices.type);
  if (e.expect == Expect::dimension_count_error && !dmlref::is_index_type(index_type)) {
    // SN-literal: a TensorView cannot hold FLOAT32 indices. With UINT32 indices (same bits, never
    // read) the DimensionCount error must still be the one reported.
    index_type = DataType::UINT32;
  }
  if (typed_expressible(e) && dmlref::is_index_type(index_type)) {
    SCOPED_TRACE("typed layer (TensorView)");
    Prepared p(e);
    Status status;
    const bool ran = visit_data_type(p.input.type, [&](auto data) {
      using T = typename decltype(data)::type;
      visit_index_type(index_type, [&](auto index) {
        using I = typename decltype(index)::type;
        status = run_typed<T, I>(e, p, options_for(e));
      });
    });
    ASSERT_TRUE(ran);
    check_outcome(e, p, status);
  }
}

TEST_P(Examples, ShapeHelper) {
  const Example& e = GetParam();
  SCOPED_TRACE(std::string(e.id) + ": " + e.note);
  const dmlref::Result<Shape> sizes = helper_output_sizes(e);
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
    const auto updates = dmlref::scatter_nd_updates_sizes(shape(e.input.sizes), shape(e.indices.sizes),
                                                          dmlref::ScatterNDParams{a[0], a[1]});
    ASSERT_TRUE(updates.ok()) << updates.status().message();
    EXPECT_EQ(sizes_of(*updates), e.updates.sizes);
  }
}

INSTANTIATE_TEST_SUITE_P(Spec, Examples, ::testing::ValuesIn(spec_examples::all()),
                         [](const ::testing::TestParamInfo<Example>& p) { return test_name(p.param.id); });

// The documented shape of GN-S applies to GatherND, GatherND1 (B = 0) and ScatterND's updates.
TEST(ExamplesShapes, GnSOnAllThreeNdOperators) {
  const Shape in{3, 4, 5, 6, 7}, idx{1, 1, 1, 2, 3}, expected{1, 1, 2, 6, 7};
  const auto nd = dmlref::gather_nd_output_sizes(in, idx, {5, 3});
  const auto nd1 = dmlref::gather_nd1_output_sizes(in, idx, {5, 3, 0});
  const auto upd = dmlref::scatter_nd_updates_sizes(in, idx, {5, 3});
  const auto out = dmlref::scatter_nd_output_sizes(in, idx, expected, {5, 3});
  ASSERT_TRUE(nd.ok() && nd1.ok() && upd.ok() && out.ok());
  EXPECT_EQ(sizes_of(*nd), sizes_of(expected));
  EXPECT_EQ(sizes_of(*nd1), sizes_of(expected));
  EXPECT_EQ(sizes_of(*upd), sizes_of(expected));
  EXPECT_EQ(sizes_of(*out), sizes_of(in));
}

// ------------------------------------------------------------------------------------------------
// Details of the failing examples that the table above does not cover.

TEST(ExamplesErrors, X12MessageNamesValuePositionAndRange) {
  const Example* x12 = nullptr;
  for (const Example& e : spec_examples::all())
    if (std::string(e.id) == "X-12") x12 = &e;
  ASSERT_NE(x12, nullptr);
  Prepared p(*x12);
  const Status s = run_dispatch(*x12, p, {});
  ASSERT_EQ(s.code(), ErrorCode::index_out_of_range);
  const std::string m = s.message();
  EXPECT_TRUE(contains(m, "4294967295")) << m;
  EXPECT_TRUE(contains(m, "[1]")) << m;
  EXPECT_TRUE(contains(m, "valid 0..3")) << m;
  EXPECT_TRUE(contains(m, "Gather")) << m;
  EXPECT_EQ(s.error().target_dimension, 0);
  EXPECT_EQ(s.error().target_size, 4);
  EXPECT_EQ(s.error().actual.kind, dmlref::ErrorValue::Kind::unsigned_integer);
  EXPECT_EQ(s.error().actual.unsigned_integer, 4294967295u);
}

TEST(ExamplesErrors, S1CollisionNamesUpdateAndOutputElement) {
  const Example* s1 = nullptr;
  for (const Example& e : spec_examples::all())
    if (std::string(e.id) == "S-1-collision") s1 = &e;
  ASSERT_NE(s1, nullptr);
  for (const bool typed : {false, true}) {
    SCOPED_TRACE(typed ? "typed" : "dispatch");
    Prepared p(*s1);
    dmlref::Options o;
    o.check_collisions = true;
    const Status s = typed ? run_typed<float, std::uint32_t>(*s1, p, o) : run_dispatch(*s1, p, o);
    ASSERT_EQ(s.code(), ErrorCode::scatter_collision) << s.message();
    EXPECT_EQ(std::string(s.error().op), "Scatter");
    EXPECT_EQ(std::string(s.error().tensor), "UpdatesTensor");
    EXPECT_EQ(sizes_of(s.error().position), (Sizes{2}));
    EXPECT_EQ(std::string(s.error().target_tensor), "OutputTensor");
    EXPECT_EQ(sizes_of(s.error().target_position), (Sizes{3}));
    const std::string m = s.message();
    EXPECT_TRUE(contains(m, "UpdatesTensor element [2]")) << m;
    EXPECT_TRUE(contains(m, "OutputTensor element [3]")) << m;
    EXPECT_TRUE(p.output.buffer->untouched());
  }
}

// S-1 without the check: the later update wins (§1.6), on both layers (covered by the table);
// with the check but no collision, the result is the same as without it.
TEST(ExamplesErrors, CollisionCheckWithoutCollisionChangesNothing) {
  const Example* s2 = nullptr;
  for (const Example& e : spec_examples::all())
    if (std::string(e.id) == "S-2") s2 = &e;
  ASSERT_NE(s2, nullptr);
  Prepared p(*s2);
  dmlref::Options o;
  o.check_collisions = true;
  check_success(*s2, p, run_dispatch(*s2, p, o));
}

// ------------------------------------------------------------------------------------------------
// Clamp policy (WebNN's arithmetic): clamp to [-n, n-1], then add n if negative; unsigned values
// clamp to n-1. Each case runs on both layers.

template <class T>
std::vector<T> read_all(const guarded::Buffer& b) {
  std::vector<T> v(b.size() / sizeof(T));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = b.load<T>(i);
  return v;
}

/// Gather Axis 0, IndexDimensions 1 on a {3,2} input [[1,2],[3,4],[5,6]] with the clamp policy.
template <class I>
void expect_gather_clamped(const std::vector<I>& indices, const std::vector<float>& expected) {
  const Sizes in_sizes{3, 2}, idx_sizes{1, static_cast<std::int64_t>(indices.size())},
      out_sizes{static_cast<std::int64_t>(indices.size()), 2};
  dmlref::Options clamp;
  clamp.index_policy = dmlref::IndexPolicy::clamp;
  for (const bool typed : {false, true}) {
    SCOPED_TRACE(typed ? "typed" : "dispatch");
    guarded::Buffer in(6 * sizeof(float)), idx(indices.size() * sizeof(I)), out(expected.size() * sizeof(float));
    in.fill(std::vector<float>{1, 2, 3, 4, 5, 6});
    idx.fill(indices);
    const Status s =
        typed ? dmlref::try_gather(in.cview<float>(shape(in_sizes)), idx.cview<I>(shape(idx_sizes)),
                                   out.view<float>(shape(out_sizes)), {0, 1}, clamp)
              : dmlref::try_gather(in.desc(DataType::FLOAT32, in_sizes),
                                   idx.desc(dmlref::data_type_v<I>, idx_sizes),
                                   out.mutable_desc(DataType::FLOAT32, out_sizes), {0, 1}, clamp);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(read_all<float>(out), expected);
    EXPECT_TRUE(out.guards_intact() && in.untouched() && idx.untouched());
    // The default policy reports the same indices as out of range and writes nothing.
    guarded::Buffer out2(expected.size() * sizeof(float));
    const Status e = dmlref::try_gather(in.desc(DataType::FLOAT32, in_sizes),
                                        idx.desc(dmlref::data_type_v<I>, idx_sizes),
                                        out2.mutable_desc(DataType::FLOAT32, out_sizes), {0, 1});
    EXPECT_EQ(e.code(), ErrorCode::index_out_of_range) << e.message();
    EXPECT_TRUE(out2.untouched());
  }
}

TEST(ExamplesClampPolicy, GatherSignedTooLargeGivesLastRowTooSmallGivesRowZero) {
  expect_gather_clamped<std::int32_t>({10, -10, -1}, {5, 6, 1, 2, 5, 6});
  expect_gather_clamped<std::int64_t>({std::numeric_limits<std::int64_t>::max(),
                                       std::numeric_limits<std::int64_t>::min(), 1},
                                      {5, 6, 1, 2, 3, 4});
}

TEST(ExamplesClampPolicy, GatherUnsignedMaxGivesLastRow) {
  expect_gather_clamped<std::uint32_t>({0xFFFFFFFFu, 0, 3}, {5, 6, 1, 2, 5, 6});
  expect_gather_clamped<std::uint64_t>({std::uint64_t{1} << 63, ~std::uint64_t{0}, 1}, {5, 6, 5, 6, 3, 4});
}

TEST(ExamplesClampPolicy, ScatterNDInt32MaxWritesLastRow) {
  // Input {3,2} zeros, r = 2, q = 2, Indices {1,1} = [[INT32_MAX]] -> Updates {1,2} go to row 2.
  const Sizes in_sizes{3, 2}, idx_sizes{1, 1}, upd_sizes{1, 2};
  dmlref::Options clamp;
  clamp.index_policy = dmlref::IndexPolicy::clamp;
  for (const bool typed : {false, true}) {
    SCOPED_TRACE(typed ? "typed" : "dispatch");
    guarded::Buffer in(6 * sizeof(float)), idx(sizeof(std::int32_t)), upd(2 * sizeof(float)),
        out(6 * sizeof(float));
    in.fill(std::vector<float>(6, 0.0f));
    idx.fill(std::vector<std::int32_t>{std::numeric_limits<std::int32_t>::max()});
    upd.fill(std::vector<float>{7, 8});
    const Status s =
        typed ? dmlref::try_scatter_nd(in.cview<float>(shape(in_sizes)), idx.cview<std::int32_t>(shape(idx_sizes)),
                                       upd.cview<float>(shape(upd_sizes)), out.view<float>(shape(in_sizes)), {2, 2},
                                       clamp)
              : dmlref::try_scatter_nd(in.desc(DataType::FLOAT32, in_sizes), idx.desc(DataType::INT32, idx_sizes),
                                       upd.desc(DataType::FLOAT32, upd_sizes),
                                       out.mutable_desc(DataType::FLOAT32, in_sizes), {2, 2}, clamp);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(read_all<float>(out), (std::vector<float>{0, 0, 0, 0, 7, 8}));
    EXPECT_TRUE(out.guards_intact() && in.untouched() && idx.untouched() && upd.untouched());
  }
}

TEST(ExamplesClampPolicy, GatherElementsGatherNDAndScatterClampEachCoordinate) {
  dmlref::Options clamp;
  clamp.index_policy = dmlref::IndexPolicy::clamp;
  guarded::Buffer in(6 * sizeof(float));
  in.fill(std::vector<float>{1, 2, 3, 4, 5, 6});  // {2,3}
  const Sizes in_sizes{2, 3};
  {  // GatherElements Axis 1: [[99, -99], [-1, 2]] -> [[3, 1], [6, 6]]
    guarded::Buffer idx(4 * sizeof(std::int64_t)), out(4 * sizeof(float));
    idx.fill(std::vector<std::int64_t>{99, -99, -1, 2});
    const Sizes s{2, 2};
    const Status st = dmlref::try_gather_elements(in.desc(DataType::FLOAT32, in_sizes), idx.desc(DataType::INT64, s),
                                                  out.mutable_desc(DataType::FLOAT32, s), {1}, clamp);
    ASSERT_TRUE(st.ok()) << st.message();
    EXPECT_EQ(read_all<float>(out), (std::vector<float>{3, 1, 6, 6}));
  }
  {  // GatherND r 2, q 2, K 2: tuples (7, 0xFFFFFFF9) -> (1, 2) = 6; (0, UINT32 max) -> (0, 2) = 3
    guarded::Buffer idx(4 * sizeof(std::uint32_t)), out(2 * sizeof(float));
    idx.fill(std::vector<std::uint32_t>{7, 0xFFFFFFF9u /* not negative: clamps to n-1 */, 0, 0xFFFFFFFFu});
    const Sizes s{2, 2}, o{1, 2};
    const Status st = dmlref::try_gather_nd(in.cview<float>(shape(in_sizes)), idx.cview<std::uint32_t>(shape(s)),
                                            out.view<float>(shape(o)), {2, 2}, clamp);
    ASSERT_TRUE(st.ok()) << st.message();
    EXPECT_EQ(read_all<float>(out), (std::vector<float>{6, 3}));
  }
  {  // Scatter Axis 0 of [[10, 20, 30]] with index [[-5, 5, 0]] into zeros {2,3}
    guarded::Buffer zeros(6 * sizeof(float)), idx(3 * sizeof(std::int32_t)), upd(3 * sizeof(float)),
        out(6 * sizeof(float));
    zeros.fill(std::vector<float>(6, 0.0f));
    idx.fill(std::vector<std::int32_t>{-5, 5, 0});
    upd.fill(std::vector<float>{10, 20, 30});
    const Sizes s{1, 3};
    const Status st = dmlref::try_scatter(zeros.desc(DataType::FLOAT32, in_sizes), idx.desc(DataType::INT32, s),
                                          upd.desc(DataType::FLOAT32, s), out.mutable_desc(DataType::FLOAT32, in_sizes),
                                          {0}, clamp);
    ASSERT_TRUE(st.ok()) << st.message();
    EXPECT_EQ(read_all<float>(out), (std::vector<float>{10, 0, 30, 0, 20, 0}));
  }
}

TEST(ExamplesClampPolicy, CollisionCheckSeesClampedIndices) {
  // Scatter 1-D, size 4: 10 clamps to 3, which the second update also writes.
  dmlref::Options o;
  o.index_policy = dmlref::IndexPolicy::clamp;
  o.check_collisions = true;
  guarded::Buffer in(4 * sizeof(float)), idx(2 * sizeof(std::uint32_t)), upd(2 * sizeof(float)),
      out(4 * sizeof(float));
  in.fill(std::vector<float>{0, 0, 0, 0});
  idx.fill(std::vector<std::uint32_t>{10, 3});
  upd.fill(std::vector<float>{1, 2});
  const Sizes s4{4}, s2{2};
  const Status st = dmlref::try_scatter(in.desc(DataType::FLOAT32, s4), idx.desc(DataType::UINT32, s2),
                                        upd.desc(DataType::FLOAT32, s2), out.mutable_desc(DataType::FLOAT32, s4), {0}, o);
  ASSERT_EQ(st.code(), ErrorCode::scatter_collision) << st.message();
  EXPECT_EQ(sizes_of(st.error().position), (Sizes{1}));
  EXPECT_EQ(sizes_of(st.error().target_position), (Sizes{3}));
  EXPECT_TRUE(out.untouched());
}

TEST(ExamplesClampPolicy, InRangeIndicesAreUnaffected) {
  // X-1 (negative in-range indices) gives the documented output under the clamp policy too.
  for (const Example& e : spec_examples::all()) {
    if (e.expect != Expect::ok || e.output.values.empty()) continue;
    SCOPED_TRACE(e.id);
    Prepared p(e);
    dmlref::Options clamp;
    clamp.index_policy = dmlref::IndexPolicy::clamp;
    check_success(e, p, run_dispatch(e, p, clamp));
  }
}

}  // namespace
