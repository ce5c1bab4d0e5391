// The error model: the throwing forms (without `try_`) throw dmlref::Exception carrying the very
// Error the `try_` form returns, and write nothing; Status copies, moves and assigns its Error;
// name(ErrorCode) spells every code; message() is a non-empty sentence naming the operator for
// every code the library reports.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "dmlref/dmlref.hpp"
#include "support/guarded.hpp"

namespace {

using dmlref::DataType;
using dmlref::Error;
using dmlref::ErrorCode;
using dmlref::Shape;
using dmlref::Status;
using Sizes = std::vector<std::int64_t>;

// ------------------------------------------------------------------------------------------------
// Compile-time properties: a violation fails the build of the test executable.

// Status is a value: copied, moved and assigned without throwing, tested with an explicit bool.
static_assert(std::is_nothrow_default_constructible_v<Status>);
static_assert(std::is_nothrow_copy_constructible_v<Status>);
static_assert(std::is_nothrow_move_constructible_v<Status>);
static_assert(std::is_nothrow_copy_assignable_v<Status>);
static_assert(std::is_nothrow_move_assignable_v<Status>);
static_assert(!std::is_convertible_v<Status, bool>, "operator bool is explicit");
static_assert(std::is_copy_constructible_v<dmlref::Result<Shape>>);
// The throwing forms throw a std::runtime_error.
static_assert(std::is_base_of_v<std::runtime_error, dmlref::Exception>);
// Names are usable at compile time.
static_assert(dmlref::name(ErrorCode::scatter_collision)[0] == 's');
static_assert(dmlref::name(ErrorCode::ok)[0] == 'o' && dmlref::name(ErrorCode::ok)[1] == 'k' &&
              dmlref::name(ErrorCode::ok)[2] == '\0');

/// Shapes in assertion messages: "{2, 3}" instead of gtest's byte dump.
std::string str(const Shape& s) { return dmlref::ErrorValue::braced(s); }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

::testing::AssertionResult same_error(const Error& a, const Error& b) {
  const bool same = a.code == b.code && std::string(a.op) == b.op && std::string(a.tensor) == b.tensor &&
                    std::string(a.field) == b.field && a.field_index == b.field_index &&
                    a.expected.to_string() == b.expected.to_string() && a.actual.to_string() == b.actual.to_string() &&
                    std::string(a.rule) == b.rule && a.position == b.position &&
                    std::string(a.target_tensor) == b.target_tensor && a.target_dimension == b.target_dimension &&
                    a.target_size == b.target_size && a.target_position == b.target_position &&
                    a.message() == b.message();
  if (same) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\n  " << a.message() << "\n  " << b.message();
}

// ------------------------------------------------------------------------------------------------
// A small fixed setup per operator: FLOAT32 {2,3} data, UINT32 indices, guarded buffers.

struct Buffers {
  guarded::Buffer input{6 * sizeof(float)};
  guarded::Buffer indices{4 * sizeof(std::uint32_t)};
  guarded::Buffer updates{4 * sizeof(float)};
  guarded::Buffer output{6 * sizeof(float)};
  Sizes in_sizes{2, 3}, idx_sizes{2, 2}, upd_sizes{2, 2}, out_sizes{2, 3};

  explicit Buffers(std::vector<std::uint32_t> index_values) {
    input.fill(std::vector<float>{1, 2, 3, 4, 5, 6});
    indices.fill(index_values);
    updates.fill(std::vector<float>{10, 20, 30, 40});
  }
  bool untouched() const {
    return input.untouched() && indices.untouched() && updates.untouched() && output.untouched();
  }
};

/// One operator call in its four forms: try_/throwing x typed/dispatch. `bad` makes it fail.
struct Forms {
  const char* op;
  std::function<Status(Buffers&)> try_typed, try_desc;
  std::function<void(Buffers&)> throw_typed, throw_desc;
};

/// The four forms of one operator: `typed` and `desc` pass the call's arguments, over typed views
/// and over descriptors, to the function they are given; FORMS_OF(name) gives the try_ and the
/// throwing function of that name.
template <class Try, class Throw, class Typed, class Desc>
Forms forms_of(const char* op, Try try_call, Throw throw_call, Typed typed, Desc desc) {
  return {op, [=](Buffers& s) { return typed(s, try_call); }, [=](Buffers& s) { return desc(s, try_call); },
          [=](Buffers& s) { typed(s, throw_call); }, [=](Buffers& s) { desc(s, throw_call); }};
}
#define FORMS_OF(name) \
  [](const auto&... a) { return dmlref::try_##name(a...); }, [](const auto&... a) { dmlref::name(a...); }

// Every operator over the same buffers, each with shapes of its own (see the comments).
std::vector<Forms> all_forms() {
  using namespace dmlref;
  std::vector<Forms> forms;
  {
    // Gather Axis 1, IndexDimensions 1: {2,3} x {1,2} -> {2,2}.
    const GatherParams p{1, 1};
    forms.push_back(forms_of(
        "Gather", FORMS_OF(gather),
        [p](Buffers& s, auto call) {
          return call(s.input.cview<float>({2, 3}), s.indices.cview<std::uint32_t>({1, 2}),
                      s.output.view<float>({2, 2}), p);
        },
        [p](Buffers& s, auto call) {
          static const Sizes in{2, 3}, idx{1, 2}, out{2, 2};
          return call(s.input.desc(DataType::FLOAT32, in), s.indices.desc(DataType::UINT32, idx),
                      s.output.mutable_desc(DataType::FLOAT32, out), p);
        }));
  }
  {
    // GatherElements Axis 1: {2,3} x {2,2} -> {2,2}.
    const GatherElementsParams p{1};
    forms.push_back(forms_of(
        "GatherElements", FORMS_OF(gather_elements),
        [p](Buffers& s, auto call) {
          return call(s.input.cview<float>({2, 3}), s.indices.cview<std::uint32_t>({2, 2}),
                      s.output.view<float>({2, 2}), p);
        },
        [p](Buffers& s, auto call) {
          return call(s.input.desc(DataType::FLOAT32, s.in_sizes), s.indices.desc(DataType::UINT32, s.idx_sizes),
                      s.output.mutable_desc(DataType::FLOAT32, s.idx_sizes), p);
        }));
  }
  // GatherND r 2, q 2, K 1: {2,3} x {2,1}: each 1-tuple selects a row -> {2,3}. GatherND1 with
  // BatchDimensionCount 0 is the same call.
  const auto nd_typed = [](const auto& p) {
    return [p](Buffers& s, auto call) {
      return call(s.input.cview<float>({2, 3}), s.indices.cview<std::uint32_t>({2, 1}),
                  s.output.view<float>({2, 3}), p);
    };
  };
  const auto nd_desc = [](const auto& p) {
    return [p](Buffers& s, auto call) {
      static const Sizes idx{2, 1};
      return call(s.input.desc(DataType::FLOAT32, s.in_sizes), s.indices.desc(DataType::UINT32, idx),
                  s.output.mutable_desc(DataType::FLOAT32, s.out_sizes), p);
    };
  };
  forms.push_back(forms_of("GatherND", FORMS_OF(gather_nd), nd_typed(GatherNDParams{2, 2}),
                           nd_desc(GatherNDParams{2, 2})));
  forms.push_back(forms_of("GatherND1", FORMS_OF(gather_nd1), nd_typed(GatherND1Params{2, 2, 0}),
                           nd_desc(GatherND1Params{2, 2, 0})));
  {
    // Scatter Axis 1: {2,3} with indices and updates {2,2}; also under its SCATTER_ELEMENTS name.
    const ScatterParams p{1};
    const auto typed = [p](Buffers& s, auto call) {
      return call(s.input.cview<float>({2, 3}), s.indices.cview<std::uint32_t>({2, 2}),
                  s.updates.cview<float>({2, 2}), s.output.view<float>({2, 3}), p);
    };
    const auto desc = [p](Buffers& s, auto call) {
      return call(s.input.desc(DataType::FLOAT32, s.in_sizes), s.indices.desc(DataType::UINT32, s.idx_sizes),
                  s.updates.desc(DataType::FLOAT32, s.upd_sizes), s.output.mutable_desc(DataType::FLOAT32, s.out_sizes),
                  p);
    };
    forms.push_back(forms_of("Scatter", FORMS_OF(scatter), typed, desc));
    forms.push_back(forms_of("Scatter", FORMS_OF(scatter_elements), typed, desc));
  }
  {
    // ScatterND r 2, q 2, K 1: one 1-tuple (indices {1,1}) replaces a row of {2,3} with updates {1,3}.
    const ScatterNDParams p{2, 2};
    forms.push_back(forms_of(
        "ScatterND", FORMS_OF(scatter_nd),
        [p](Buffers& s, auto call) {
          return call(s.input.cview<float>({2, 3}), s.indices.cview<std::uint32_t>({1, 1}),
                      s.updates.cview<float>({1, 3}), s.output.view<float>({2, 3}), p);
        },
        [p](Buffers& s, auto call) {
          static const Sizes idx{1, 1}, upd{1, 3};
          return call(s.input.desc(DataType::FLOAT32, s.in_sizes), s.indices.desc(DataType::UINT32, idx),
                      s.updates.desc(DataType::FLOAT32, upd), s.output.mutable_desc(DataType::FLOAT32, s.out_sizes),
                      p);
        }));
  }
  return forms;
}
#undef FORMS_OF

// Index values valid for every call above, and with an invalid first value (7 is out of range for
// every addressed dimension; the ScatterND call reads only the first value).
const std::vector<std::uint32_t> kGood{0, 1, 1, 0};
const std::vector<std::uint32_t> kBad{7, 1, 1, 0};

TEST(ErrorsThrowingForms, ThrowTheSameErrorAsTheTryForms) {
  for (const Forms& f : all_forms()) {
    for (const bool typed : {true, false}) {
      SCOPED_TRACE(std::string(f.op) + (typed ? " typed" : " dispatch"));
      Buffers a(kBad);
      const Status status = typed ? f.try_typed(a) : f.try_desc(a);
      ASSERT_EQ(status.code(), ErrorCode::index_out_of_range) << status.message();
      EXPECT_TRUE(a.untouched());

      Buffers b(kBad);
      bool thrown = false;
      try {
        typed ? f.throw_typed(b) : f.throw_desc(b);
      } catch (const dmlref::Exception& e) {
        thrown = true;
        EXPECT_TRUE(same_error(e.error(), status.error()));
        EXPECT_EQ(e.code(), status.code());
        EXPECT_EQ(std::string(e.what()), status.message());
        EXPECT_EQ(std::string(e.error().op), f.op);
      }
      EXPECT_TRUE(thrown) << "no dmlref::Exception";
      EXPECT_TRUE(b.untouched()) << "a throwing call wrote before throwing";
    }
  }
}

TEST(ErrorsThrowingForms, SucceedLikeTheTryForms) {
  for (const Forms& f : all_forms()) {
    for (const bool typed : {true, false}) {
      SCOPED_TRACE(std::string(f.op) + (typed ? " typed" : " dispatch"));
      Buffers a(kGood), b(kGood);
      const Status status = typed ? f.try_typed(a) : f.try_desc(a);
      ASSERT_TRUE(status.ok()) << status.message();
      EXPECT_NO_THROW(typed ? f.throw_typed(b) : f.throw_desc(b));
      EXPECT_EQ(std::memcmp(a.output.bytes(), b.output.bytes(), a.output.size()), 0);
      EXPECT_FALSE(b.output.payload_unchanged()) << "the call wrote nothing";
      EXPECT_TRUE(b.output.guards_intact());
    }
  }
}

TEST(ErrorsThrowingForms, ExceptionIsARuntimeError) {
  Buffers s(kGood);
  const Sizes wrong{2, 2, 1};  // DimensionCount 3 for 2-D tensors
  try {
    dmlref::gather_elements(s.input.desc(DataType::FLOAT32, s.in_sizes), s.indices.desc(DataType::UINT32, wrong),
                            s.output.mutable_desc(DataType::FLOAT32, s.idx_sizes), {1});
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), "GatherElements")) << e.what();
    EXPECT_TRUE(contains(e.what(), "IndicesTensor.DimensionCount")) << e.what();
  }
  EXPECT_TRUE(s.untouched());
}

TEST(ErrorsThrowingForms, ShapeHelpersHaveNoThrowingFormButResultsCarryTheError) {
  const auto r = dmlref::gather_output_sizes(Shape{2, 3}, Shape{1, 2}, {2, 1});
  ASSERT_FALSE(r.ok());
  EXPECT_FALSE(static_cast<bool>(r));
  EXPECT_EQ(r.error().code, ErrorCode::invalid_attribute);
  EXPECT_EQ(r.status().code(), ErrorCode::invalid_attribute);
  EXPECT_TRUE(contains(r.status().message(), "Axis"));
  const auto good = dmlref::gather_output_sizes(Shape{2, 3}, Shape{1, 2}, {1, 1});
  ASSERT_TRUE(good.ok());
  EXPECT_TRUE(static_cast<bool>(good));
  EXPECT_EQ(str(*good), str((Shape{2, 2})));
  EXPECT_EQ(str(good.value()), str((Shape{2, 2})));
  EXPECT_EQ(good.error().code, ErrorCode::ok);
}

// ------------------------------------------------------------------------------------------------
// Status: value semantics.

Error sample_error() {
  Error e;
  e.code = ErrorCode::shape_mismatch;
  e.op = "Gather";
  e.tensor = "OutputTensor";
  e.field = "Sizes";
  e.field_index = 2;
  e.expected = dmlref::ErrorValue::of(Shape{2, 3});
  e.actual = dmlref::ErrorValue::of(Shape{3, 2});
  e.rule = "a rule";
  e.position = Shape{1, 0};
  e.target_tensor = "InputTensor";
  e.target_dimension = 1;
  e.target_size = 7;
  e.target_position = Shape{0, 1};
  return e;
}

TEST(ErrorsStatus, DefaultIsOk) {
  const Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_TRUE(static_cast<bool>(s));
  EXPECT_EQ(s.code(), ErrorCode::ok);
  EXPECT_EQ(s.error().code, ErrorCode::ok);
  EXPECT_EQ(s.message(), "ok");
}

TEST(ErrorsStatus, CarriesItsError) {
  const Status s(sample_error());
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(static_cast<bool>(s));
  EXPECT_EQ(s.code(), ErrorCode::shape_mismatch);
  EXPECT_TRUE(same_error(s.error(), sample_error()));
  EXPECT_EQ(s.message(), sample_error().message());
}

TEST(ErrorsStatus, CopyIsDeepAndIndependent) {
  Status copy;
  {
    const Status original(sample_error());
    copy = original;  // copy assignment
    const Status constructed(original);  // copy construction
    EXPECT_TRUE(same_error(constructed.error(), original.error()));
    EXPECT_NE(&constructed.error(), &original.error()) << "a copy must own its Error";
  }  // the original is gone
  EXPECT_EQ(copy.code(), ErrorCode::shape_mismatch);
  EXPECT_TRUE(same_error(copy.error(), sample_error()));
}

TEST(ErrorsStatus, CopyOfOkIsOk) {
  const Status ok;
  Status s(sample_error());
  s = ok;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::ok);
  const Status t(ok);
  EXPECT_TRUE(t.ok());
}

TEST(ErrorsStatus, SelfAssignmentKeepsTheError) {
  Status s(sample_error());
  Status& alias = s;
  s = alias;
  EXPECT_TRUE(same_error(s.error(), sample_error()));
  s = std::move(alias);  // self-move: must stay usable
  (void)s.code();
  (void)s.message();
}

TEST(ErrorsStatus, MoveTransfersTheError) {
  Status source(sample_error());
  const Error* record = &source.error();
  Status moved(std::move(source));
  EXPECT_EQ(moved.code(), ErrorCode::shape_mismatch);
  EXPECT_TRUE(same_error(moved.error(), sample_error()));
  EXPECT_EQ(&moved.error(), record) << "moving should not copy the Error";
  Status target;
  target = std::move(moved);
  EXPECT_TRUE(same_error(target.error(), sample_error()));
  // Moved-from Statuses stay valid: they can be queried, assigned and destroyed.
  (void)source.message();
  (void)moved.message();
  source = Status();
  EXPECT_TRUE(source.ok());
  moved = target;
  EXPECT_TRUE(same_error(moved.error(), sample_error()));
}

TEST(ErrorsStatus, StatusesInAContainer) {
  std::vector<Status> v;
  for (int i = 0; i < 100; ++i) v.push_back(i % 2 ? Status(sample_error()) : Status());
  std::vector<Status> copy = v;
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(copy[static_cast<std::size_t>(i)].ok(), i % 2 == 0);
    if (i % 2) {
      EXPECT_TRUE(same_error(copy[static_cast<std::size_t>(i)].error(), sample_error()));
    }
  }
}

// ------------------------------------------------------------------------------------------------
// Names and messages of every code.

const std::vector<std::pair<ErrorCode, const char*>>& all_codes() {
  static const std::vector<std::pair<ErrorCode, const char*>> codes = {
      {ErrorCode::ok, "ok"},
      {ErrorCode::invalid_dimension_count, "invalid_dimension_count"},
      {ErrorCode::invalid_size, "invalid_size"},
      {ErrorCode::invalid_stride, "invalid_stride"},
      {ErrorCode::shape_mismatch, "shape_mismatch"},
      {ErrorCode::invalid_attribute, "invalid_attribute"},
      {ErrorCode::data_type_mismatch, "data_type_mismatch"},
      {ErrorCode::unsupported_data_type, "unsupported_data_type"},
      {ErrorCode::unsupported_index_type, "unsupported_index_type"},
      {ErrorCode::index_out_of_range, "index_out_of_range"},
      {ErrorCode::scatter_collision, "scatter_collision"},
      {ErrorCode::null_pointer, "null_pointer"},
      {ErrorCode::buffer_too_small, "buffer_too_small"},
      {ErrorCode::overlapping_tensors, "overlapping_tensors"},
      {ErrorCode::overflow, "overflow"},
      {ErrorCode::out_of_memory, "out_of_memory"},
      {ErrorCode::coordinate_out_of_range, "coordinate_out_of_range"},
      {ErrorCode::feature_level_too_low, "feature_level_too_low"},
      {ErrorCode::unsupported, "unsupported"},
      {ErrorCode::misaligned, "misaligned"},
  };
  return codes;
}

TEST(ErrorsNames, EveryCodeHasItsName) {
  for (const auto& [code, text] : all_codes()) EXPECT_STREQ(dmlref::name(code), text);
  // The list above is complete: the enum's values are 0..19.
  ASSERT_EQ(all_codes().size(), 20u);
  for (std::size_t i = 0; i < all_codes().size(); ++i) EXPECT_EQ(static_cast<std::size_t>(all_codes()[i].first), i);
  EXPECT_STREQ(dmlref::name(static_cast<ErrorCode>(20)), "unknown");
  EXPECT_STREQ(dmlref::name(static_cast<ErrorCode>(255)), "unknown");
}

/// A real call that fails with each code (the library's own Error, not a hand-made one).
Status produce(ErrorCode code) {
  using namespace dmlref;
  static guarded::Buffer in(6 * sizeof(float)), idx(4 * sizeof(std::uint32_t)), upd(4 * sizeof(float)),
      out(6 * sizeof(float));
  static const Sizes s23{2, 3}, s22{2, 2}, s0{2, 0}, s223{2, 2, 3}, huge{std::int64_t{1} << 32, std::int64_t{1} << 32},
      zero{0, 0};
  idx.fill(std::vector<std::uint32_t>{0, 1, 1, 0});
  const auto ge = [&](TensorDesc i, TensorDesc x, MutableTensorDesc o, std::uint32_t axis = 1, Options opt = {}) {
    return try_gather_elements(i, x, o, {axis}, opt);
  };
  const TensorDesc input = in.desc(DataType::FLOAT32, s23);
  const TensorDesc indices = idx.desc(DataType::UINT32, s22);
  const MutableTensorDesc output = out.mutable_desc(DataType::FLOAT32, s22);
  switch (code) {
    case ErrorCode::ok: return ge(input, indices, output);
    case ErrorCode::invalid_dimension_count: return ge(input, idx.desc(DataType::UINT32, s223), output);
    case ErrorCode::invalid_size: return ge(input, idx.desc(DataType::UINT32, s0), output);
    case ErrorCode::invalid_stride: return ge(input, indices, out.mutable_desc(DataType::FLOAT32, s22, zero));
    case ErrorCode::shape_mismatch: return ge(input, indices, out.mutable_desc(DataType::FLOAT32, s23));
    case ErrorCode::invalid_attribute: return ge(input, indices, output, 2);
    case ErrorCode::data_type_mismatch: return ge(input, indices, out.mutable_desc(DataType::INT32, s22));
    case ErrorCode::unsupported_data_type: return ge(in.desc(DataType::UNKNOWN, s23), indices, output);
    case ErrorCode::unsupported_index_type: return ge(input, idx.desc(DataType::INT16, s22), output);
    case ErrorCode::index_out_of_range: {
      idx.fill(std::vector<std::uint32_t>{0, 9, 1, 0});
      return ge(input, indices, output);
    }
    case ErrorCode::scatter_collision: {
      idx.fill(std::vector<std::uint32_t>{1, 1, 0, 0});
      Options opt;
      opt.check_collisions = true;
      return try_scatter(input, indices, upd.desc(DataType::FLOAT32, s22), out.mutable_desc(DataType::FLOAT32, s23),
                         {1}, opt);
    }
    case ErrorCode::null_pointer: {
      TensorDesc d = input;
      d.Data = nullptr;
      return ge(d, indices, output);
    }
    case ErrorCode::buffer_too_small: {
      TensorDesc d = input;
      d.TotalTensorSizeInBytes = 23;
      return ge(d, indices, output);
    }
    case ErrorCode::overlapping_tensors: return ge(input, indices, in.mutable_desc(DataType::FLOAT32, s22));
    case ErrorCode::overflow: {
      static const Sizes zeros{0, 0};
      return ge(in.desc(DataType::FLOAT32, huge, zeros), indices, output);
    }
    case ErrorCode::out_of_memory: break;  // needs a failing allocation: see below
    case ErrorCode::coordinate_out_of_range: break;  // explain.hpp's: tests/explain/test_explain_examples.cpp
    case ErrorCode::feature_level_too_low: {
      Options opt;
      opt.feature_level = feature_level::v2_1;  // a 2-D GatherElements needs 3_0
      return ge(input, indices, output, 1, opt);
    }
    case ErrorCode::unsupported: {
      Options opt;
      opt.feature_level = feature_level::v6_4;  // no level has scatter reductions
      return try_scatter(input, indices, upd.desc(DataType::FLOAT32, s22), out.mutable_desc(DataType::FLOAT32, s23),
                         {1, Reduction::add}, opt);
    }
    case ErrorCode::misaligned: {
      Options opt;
      opt.binding_rules = BindingRules::directml;  // data 4 bytes past a 16-byte boundary
      TensorDesc d = in.desc(DataType::FLOAT32, s22);
      d.Data = in.bytes() + 4;
      d.TotalTensorSizeInBytes = 20;
      return ge(d, indices, output, 1, opt);
    }
  }
  return Status();
}

TEST(ErrorsMessages, EveryCodeTheLibraryReportsHasASentenceNamingTheOperator) {
  for (const auto& [code, text] : all_codes()) {
    if (code == ErrorCode::ok || code == ErrorCode::out_of_memory || code == ErrorCode::coordinate_out_of_range)
      continue;
    SCOPED_TRACE(text);
    const Status s = produce(code);
    ASSERT_EQ(s.code(), code) << s.message();
    const std::string m = s.message();
    EXPECT_FALSE(m.empty());
    const std::string op =
        code == ErrorCode::scatter_collision || code == ErrorCode::unsupported ? "Scatter" : "GatherElements";
    EXPECT_EQ(std::string(s.error().op), op);
    EXPECT_EQ(m.rfind(op + ": ", 0), 0u) << "the message starts with the operator: " << m;
    EXPECT_GT(m.size(), op.size() + 10) << m;
  }
  EXPECT_EQ(produce(ErrorCode::ok).message(), "ok");
}

TEST(ErrorsMessages, OutOfMemoryMessageNamesTheOperator) {
  // The collision bitmap's allocation cannot be made to fail here; the record the library builds
  // for it (detail/scatter.hpp) has this form.
  Error e;
  e.code = ErrorCode::out_of_memory;
  e.op = "ScatterND";
  e.tensor = "OutputTensor";
  e.expected = dmlref::ErrorValue::of_text("one bit per output element for the collision check");
  e.actual = dmlref::ErrorValue::of(std::int64_t{1} << 40);
  const std::string m = e.message();
  EXPECT_EQ(m.rfind("ScatterND: ", 0), 0u) << m;
  EXPECT_TRUE(contains(m, "OutputTensor")) << m;
  EXPECT_TRUE(contains(m, "1099511627776")) << m;
}

TEST(ErrorsMessages, HandMadeErrorOfEveryCodeMentionsItsOperator) {
  for (const auto& [code, text] : all_codes()) {
    if (code == ErrorCode::ok) continue;
    SCOPED_TRACE(text);
    Error e = sample_error();
    e.code = code;
    e.op = "GatherND1";
    const std::string m = e.message();
    EXPECT_FALSE(m.empty());
    EXPECT_TRUE(contains(m, "GatherND1")) << m;
  }
  Error ok;
  EXPECT_EQ(ok.message(), "ok");
}

TEST(ErrorsMessages, ErrorValueSpellings) {
  using dmlref::ErrorValue;
  EXPECT_EQ(ErrorValue().to_string(), "");
  EXPECT_EQ(ErrorValue::of(std::int64_t{-5}).to_string(), "-5");
  EXPECT_EQ(ErrorValue::at_least(24).to_string(), "at least 24");
  EXPECT_EQ(ErrorValue::of_unsigned(~std::uint64_t{0}).to_string(), "18446744073709551615");
  EXPECT_EQ(ErrorValue::range(-3, 2).to_string(), "-3..2");
  EXPECT_EQ(ErrorValue::of(Shape{2, 3}).to_string(), "{2, 3}");
  EXPECT_EQ(ErrorValue::of(DataType::FLOAT16).to_string(), "FLOAT16");
  EXPECT_EQ(ErrorValue::of_text("text").to_string(), "text");
}

}  // namespace
