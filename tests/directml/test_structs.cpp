// <dmlref/directml.hpp> (docs/directml.md, "DirectML's structs"), built against tests/directml/
// DirectML.h, the test-only subset of DirectML.h: the subset's layouts and values, every operator
// through try_execute compared byte for byte (guards, padding and status) with the dispatch layer on
// random cases, and each desc or binding that try_execute must refuse.
#include <gtest/gtest.h>

#include <DirectML.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "dmlref/directml.hpp"
#include "support/random_cases.hpp"

namespace {

namespace rc = random_cases;
using dmlref::DataType;
using dmlref::ErrorCode;
using dmlref::Options;
using dmlref::Status;
using dmlref::directml::Bindings;

// DirectML's structs on 64-bit Windows and Linux alike: natural alignment, 8-byte pointers.
static_assert(sizeof(void*) != 8 || (offsetof(DML_BUFFER_TENSOR_DESC, DataType) == 0 &&
                                     offsetof(DML_BUFFER_TENSOR_DESC, Flags) == 4 &&
                                     offsetof(DML_BUFFER_TENSOR_DESC, DimensionCount) == 8 &&
                                     offsetof(DML_BUFFER_TENSOR_DESC, Sizes) == 16 &&
                                     offsetof(DML_BUFFER_TENSOR_DESC, Strides) == 24 &&
                                     offsetof(DML_BUFFER_TENSOR_DESC, TotalTensorSizeInBytes) == 32 &&
                                     offsetof(DML_BUFFER_TENSOR_DESC, GuaranteedBaseOffsetAlignment) == 40 &&
                                     sizeof(DML_BUFFER_TENSOR_DESC) == 48));
static_assert(sizeof(void*) != 8 || (offsetof(DML_TENSOR_DESC, Desc) == 8 && sizeof(DML_TENSOR_DESC) == 16 &&
                                     offsetof(DML_OPERATOR_DESC, Desc) == 8 && sizeof(DML_OPERATOR_DESC) == 16));
static_assert(sizeof(void*) != 8 || (offsetof(DML_GATHER_OPERATOR_DESC, Axis) == 24 &&
                                     offsetof(DML_GATHER_OPERATOR_DESC, IndexDimensions) == 28 &&
                                     sizeof(DML_GATHER_OPERATOR_DESC) == 32 &&
                                     offsetof(DML_SCATTER_OPERATOR_DESC, Axis) == 32 &&
                                     sizeof(DML_SCATTER_OPERATOR_DESC) == 40 &&
                                     offsetof(DML_GATHER_ND1_OPERATOR_DESC, BatchDimensionCount) == 32 &&
                                     sizeof(DML_GATHER_ND1_OPERATOR_DESC) == 40 &&
                                     offsetof(DML_SCATTER_ND_OPERATOR_DESC, IndicesDimensionCount) == 36 &&
                                     sizeof(DML_SCATTER_ND_OPERATOR_DESC) == 40));
// dmlref's enumerations carry DirectML's values.
static_assert(static_cast<int>(dmlref::OperatorType::GATHER) == DML_OPERATOR_GATHER &&
              static_cast<int>(dmlref::OperatorType::SCATTER) == DML_OPERATOR_SCATTER &&
              static_cast<int>(dmlref::OperatorType::SCATTER) == DML_OPERATOR_SCATTER_ELEMENTS &&
              static_cast<int>(dmlref::OperatorType::GATHER_ELEMENTS) == DML_OPERATOR_GATHER_ELEMENTS &&
              static_cast<int>(dmlref::OperatorType::GATHER_ND) == DML_OPERATOR_GATHER_ND &&
              static_cast<int>(dmlref::OperatorType::SCATTER_ND) == DML_OPERATOR_SCATTER_ND &&
              static_cast<int>(dmlref::OperatorType::GATHER_ND1) == DML_OPERATOR_GATHER_ND1);
static_assert(static_cast<int>(DataType::FLOAT32) == DML_TENSOR_DATA_TYPE_FLOAT32 &&
              static_cast<int>(DataType::FLOAT16) == DML_TENSOR_DATA_TYPE_FLOAT16 &&
              static_cast<int>(DataType::UINT8) == DML_TENSOR_DATA_TYPE_UINT8 &&
              static_cast<int>(DataType::INT8) == DML_TENSOR_DATA_TYPE_INT8 &&
              static_cast<int>(DataType::FLOAT64) == DML_TENSOR_DATA_TYPE_FLOAT64 &&
              static_cast<int>(DataType::INT64) == DML_TENSOR_DATA_TYPE_INT64);
static_assert(dmlref::feature_level::v1_0 == DML_FEATURE_LEVEL_1_0 &&
              dmlref::feature_level::v2_1 == DML_FEATURE_LEVEL_2_1 &&
              dmlref::feature_level::v3_1 == DML_FEATURE_LEVEL_3_1 &&
              dmlref::feature_level::v4_1 == DML_FEATURE_LEVEL_4_1 &&
              dmlref::feature_level::v5_2 == DML_FEATURE_LEVEL_5_2 &&
              dmlref::feature_level::v6_4 == DML_FEATURE_LEVEL_6_4);
static_assert(dmlref::minimum_buffer_tensor_alignment == DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT);

// ================================================================================================
// A random case as DirectML structs: UINT sizes and strides, the case's buffers bound from their
// first byte with the tensor's offset as the binding's Offset.

struct DmlCall {
  std::vector<UINT> sizes[4], strides[4];
  DML_BUFFER_TENSOR_DESC buffers[4] = {};
  DML_TENSOR_DESC tensors[4] = {};
  DML_GATHER_OPERATOR_DESC gather{};
  DML_GATHER_ELEMENTS_OPERATOR_DESC gather_elements{};
  DML_GATHER_ND_OPERATOR_DESC gather_nd{};
  DML_GATHER_ND1_OPERATOR_DESC gather_nd1{};
  DML_SCATTER_OPERATOR_DESC scatter{};
  DML_SCATTER_ND_OPERATOR_DESC scatter_nd{};
  DML_OPERATOR_DESC desc{};
  Bindings bindings;
  std::vector<unsigned char> output;  // the output buffer, as run_library starts it

  DmlCall(const rc::Case& c, bool owned_inputs) : output(c.initial_output()) {
    const rc::Layout* layouts[4] = {&c.input, &c.indices, &c.updates, &c.output};
    const bool scatter_op = rc::is_scatter(c.op);
    const int count = scatter_op ? 4 : 3;
    for (int i = 0; i < count; ++i) {
      const rc::Layout& l = *layouts[i == count - 1 ? 3 : i];
      const bool is_indices = i == 1;
      const std::size_t es = is_indices ? rc::size_of(c.itype) : c.esize();
      sizes[i].assign(l.sizes.begin(), l.sizes.end());
      strides[i].assign(l.strides.begin(), l.strides.end());
      DML_BUFFER_TENSOR_DESC& b = buffers[i];
      b.DataType =
          static_cast<DML_TENSOR_DATA_TYPE>(is_indices ? static_cast<int>(c.itype) : static_cast<int>(c.dtype));
      b.Flags = owned_inputs && i != count - 1 ? DML_TENSOR_FLAG_OWNED_BY_DML : DML_TENSOR_FLAG_NONE;
      b.DimensionCount = static_cast<UINT>(l.sizes.size());
      b.Sizes = sizes[i].data();
      b.Strides = l.null_strides ? nullptr : strides[i].data();
      b.TotalTensorSizeInBytes = rc::exact_bytes(l, es);
      tensors[i] = {DML_TENSOR_TYPE_BUFFER, &b};
    }
    const rc::Layout* bound[4] = {&c.input, &c.indices, &c.updates, &c.output};
    const std::vector<unsigned char>* memory[3] = {c.in_place ? &output : &c.input_buf, &c.indices_buf, &c.updates_buf};
    for (int i = 0; i + 1 < count; ++i) {
      const std::size_t es = i == 1 ? rc::size_of(c.itype) : c.esize();
      bindings.Inputs[i] = {memory[i]->data(), rc::first_byte(*bound[i], es), buffers[i].TotalTensorSizeInBytes};
    }
    bindings.Output = {output.data(), rc::first_byte(c.output, c.esize()), buffers[count - 1].TotalTensorSizeInBytes};

    const DML_TENSOR_DESC* in = &tensors[0];
    const DML_TENSOR_DESC* idx = &tensors[1];
    const DML_TENSOR_DESC* out = &tensors[count - 1];
    switch (c.op) {
      case rc::Op::gather:
        gather = {in, idx, out, c.axis, c.index_dimensions};
        desc = {DML_OPERATOR_GATHER, &gather};
        break;
      case rc::Op::gather_elements:
        gather_elements = {in, idx, out, c.axis};
        desc = {DML_OPERATOR_GATHER_ELEMENTS, &gather_elements};
        break;
      case rc::Op::gather_nd:
        gather_nd = {in, idx, out, c.r, c.q};
        desc = {DML_OPERATOR_GATHER_ND, &gather_nd};
        break;
      case rc::Op::gather_nd1:
        gather_nd1 = {in, idx, out, c.r, c.q, c.B};
        desc = {DML_OPERATOR_GATHER_ND1, &gather_nd1};
        break;
      case rc::Op::scatter:
        scatter = {in, idx, &tensors[2], out, c.axis};
        desc = {DML_OPERATOR_SCATTER_ELEMENTS, &scatter};
        break;
      case rc::Op::scatter_nd:
        scatter_nd = {in, idx, &tensors[2], out, c.r, c.q};
        desc = {DML_OPERATOR_SCATTER_ND, &scatter_nd};
        break;
    }
  }
  DmlCall(const DmlCall&) = delete;
};

void expect_same(const rc::Case& c, const rc::LibRun& want, const Status& got, const std::vector<unsigned char>& buffer,
                 const std::string& what) {
  ASSERT_EQ(got.code(), want.status.code()) << c.describe() << "\n" << what << ": " << got.message() << " vs "
                                            << want.status.message();
  EXPECT_EQ(got.message(), want.status.message()) << c.describe();
  EXPECT_EQ(rc::first_difference(c, buffer, want.buffer), "") << c.describe() << "\n" << what;
}

class EveryOperator : public ::testing::TestWithParam<rc::Op> {};

TEST_P(EveryOperator, TryExecuteMatchesTheDispatchLayer) {
  const rc::Op op = GetParam();
  int succeeded = 0;
  const std::vector<std::uint64_t> seeds = rc::case_seeds(rc::fnv(std::string("directml ") + rc::name(op)), 48);
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    rc::Config cfg;
    cfg.max_elements = 2000;
    cfg.values = i % 4 == 3 ? rc::Values::one_out_of_range : rc::Values::valid;
    const rc::Case c = rc::generate(op, seeds[i], cfg);
    Options options;
    options.index_policy = i % 8 == 7 ? dmlref::IndexPolicy::clamp : dmlref::IndexPolicy::error;
    // As the dispatch layer runs it, with and without DML_TENSOR_FLAG_OWNED_BY_DML on the inputs.
    const rc::LibRun want = rc::run_library(c, rc::Layer::dispatch, options);
    for (bool owned : {false, true}) {
      DmlCall call(c, owned);
      const Status got = dmlref::directml::try_execute(call.desc, call.bindings, options);
      expect_same(c, want, got, call.output, owned ? "OWNED_BY_DML inputs" : "plain");
      succeeded += got.ok();
    }
    // As a device at 6_4 runs it: DirectML's binding rules too (a tensor's byte size is exact
    // here, not rounded up to 4, and its offset any element's: both are then errors).
    Options device = options;
    device.feature_level = dmlref::feature_level::v6_4;
    device.binding_rules = dmlref::BindingRules::directml;
    const rc::LibRun strict = rc::run_library(c, rc::Layer::dispatch, device);
    DmlCall call(c, false);
    expect_same(c, strict, dmlref::directml::try_execute(call.desc, call.bindings, DML_FEATURE_LEVEL_6_4, options),
                call.output, "DML_FEATURE_LEVEL_6_4");
    DmlCall again(c, false);
    const DML_FEATURE_DATA_FEATURE_LEVELS levels{DML_FEATURE_LEVEL_6_4};
    expect_same(c, strict, dmlref::directml::try_execute(again.desc, again.bindings, levels, options), again.output,
                "DML_FEATURE_DATA_FEATURE_LEVELS");
  }
  EXPECT_GT(succeeded, rc::scaled(40));
}

INSTANTIATE_TEST_SUITE_P(DirectMLStructs, EveryOperator,
                         ::testing::Values(rc::Op::gather, rc::Op::gather_elements, rc::Op::gather_nd,
                                           rc::Op::gather_nd1, rc::Op::scatter, rc::Op::scatter_nd),
                         [](const ::testing::TestParamInfo<rc::Op>& p) { return std::string(rc::name(p.param)); });

// ================================================================================================
// Descs and bindings try_execute refuses: a Gather of {2, 4} FLOAT32 rows, one UINT32 index.

struct Gather {
  UINT in_sizes[2] = {2, 4}, idx_sizes[2] = {1, 1}, out_sizes[2] = {1, 4};
  alignas(16) float input[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  alignas(16) std::uint32_t index[4] = {1, 0, 0, 0};
  alignas(16) float output[8] = {};
  DML_BUFFER_TENSOR_DESC in{DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, in_sizes, nullptr, 32, 0};
  DML_BUFFER_TENSOR_DESC idx{DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_FLAG_NONE, 2, idx_sizes, nullptr, 4, 0};
  DML_BUFFER_TENSOR_DESC out{DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, out_sizes, nullptr, 16, 0};
  DML_TENSOR_DESC tensors[3] = {{DML_TENSOR_TYPE_BUFFER, &in}, {DML_TENSOR_TYPE_BUFFER, &idx},
                                {DML_TENSOR_TYPE_BUFFER, &out}};
  DML_GATHER_OPERATOR_DESC gather{&tensors[0], &tensors[1], &tensors[2], 0, 1};
  DML_OPERATOR_DESC desc{DML_OPERATOR_GATHER, &gather};
  Bindings bindings{{{input, 0, sizeof input}, {index, 0, sizeof index}, {}}, {output, 0, sizeof output}};

  Gather() = default;
  Gather(const Gather&) = delete;
  Status run(const Options& o = {}) { return dmlref::directml::try_execute(desc, bindings, o); }
  bool untouched() const {
    for (float v : output)
      if (v != 0) return false;
    return true;
  }
};

/// Stores `value` in an enum field as its bytes: values outside the enum's range cannot be made by a
/// cast without undefined behaviour, but reach a program from files all the same.
template <class Enum>
void set_raw(Enum& field, std::uint32_t value) {
  static_assert(sizeof(Enum) == sizeof value);
  std::memcpy(&field, &value, sizeof value);
}

void expect_refused(const Status& s, ErrorCode code, const char* op, const char* tensor, const char* field,
                    const Gather& g) {
  ASSERT_EQ(s.code(), code) << s.message();
  EXPECT_STREQ(s.error().op, op) << s.message();
  EXPECT_STREQ(s.error().tensor, tensor) << s.message();
  EXPECT_STREQ(s.error().field, field) << s.message();
  EXPECT_TRUE(g.untouched()) << s.message();
}

/// A Gather whose enum field `field_of(g)` holds the undeclared `value` is refused as unsupported,
/// with `value` as the actual value.
template <class FieldOf>
void expect_unsupported_value(std::uint32_t value, FieldOf field_of, const char* op, const char* tensor,
                              const char* field) {
  Gather g;
  set_raw(*field_of(g), value);
  const Status s = g.run();
  expect_refused(s, ErrorCode::unsupported, op, tensor, field, g);
  EXPECT_EQ(s.error().actual.unsigned_integer, value);
}

TEST(DirectMLStructs, TheGatherRunsAndHonoursOffsets) {
  Gather g;
  ASSERT_TRUE(g.run().ok());
  EXPECT_EQ(g.output[0], 5.0f);
  EXPECT_EQ(g.output[3], 8.0f);
  // The same rows bound 16 bytes into a larger buffer, with the output at an offset as well.
  Gather shifted;
  alignas(16) float bigger[12] = {0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8};
  shifted.bindings.Inputs[0] = {bigger, 16, sizeof bigger - 16};
  shifted.bindings.Output = {shifted.output, 16, sizeof shifted.output - 16};
  ASSERT_TRUE(shifted.run().ok());
  EXPECT_EQ(shifted.output[0], 0.0f);
  EXPECT_EQ(shifted.output[4], 5.0f);
  EXPECT_EQ(shifted.output[7], 8.0f);
#if DMLREF_HAS_EXCEPTIONS
  Gather thrown;
  thrown.gather.Axis = 2;
  try {
    dmlref::directml::execute(thrown.desc, thrown.bindings);
    ADD_FAILURE() << "execute did not throw";
  } catch (const dmlref::Exception& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_attribute);
  }
#endif
}

TEST(DirectMLStructs, OtherOperatorTypesAreUnsupported) {
  for (std::uint32_t type : {static_cast<std::uint32_t>(DML_OPERATOR_INVALID),
                             static_cast<std::uint32_t>(DML_OPERATOR_ELEMENT_WISE_IDENTITY),
                             static_cast<std::uint32_t>(DML_OPERATOR_ONE_HOT), 66u, 68u, 141u, 9999u, 0xFFFFFFFFu}) {
    expect_unsupported_value(type, [](Gather& g) { return &g.desc.Type; }, "DML_OPERATOR_DESC", "", "Type");
  }
  Gather g;
  g.desc.Desc = nullptr;
  expect_refused(g.run(), ErrorCode::null_pointer, "DML_OPERATOR_DESC", "", "Desc", g);
}

TEST(DirectMLStructs, OtherTensorTypesAndMissingDescsAreRefused) {
  for (std::uint32_t type : {static_cast<std::uint32_t>(DML_TENSOR_TYPE_INVALID), 2u, 77u}) {
    expect_unsupported_value(type, [](Gather& g) { return &g.tensors[1].Type; }, "Gather", "IndicesTensor", "Type");
  }
  {
    Gather g;
    g.gather.OutputTensor = nullptr;
    expect_refused(g.run(), ErrorCode::null_pointer, "Gather", "OutputTensor", "", g);
  }
  {
    Gather g;
    g.tensors[0].Desc = nullptr;
    expect_refused(g.run(), ErrorCode::null_pointer, "Gather", "InputTensor", "Desc", g);
  }
  {
    Gather g;  // the dispatch layer's own checks, on the converted desc
    g.in.DimensionCount = 9;
    expect_refused(g.run(), ErrorCode::invalid_dimension_count, "Gather", "InputTensor", "DimensionCount", g);
  }
  {
    Gather g;
    g.idx.Sizes = nullptr;
    expect_refused(g.run(), ErrorCode::null_pointer, "Gather", "IndicesTensor", "Sizes", g);
  }
  {
    Gather g;  // DML_TENSOR_DATA_TYPE_UINT4: a DirectML type, not one of these operators'
    set_raw(g.in.DataType, 12);
    set_raw(g.out.DataType, 12);
    expect_refused(g.run(), ErrorCode::unsupported_data_type, "Gather", "InputTensor", "DataType", g);
  }
}

TEST(DirectMLStructs, FlagsAndBindings) {
  {
    Gather g;
    g.in.Flags = DML_TENSOR_FLAG_OWNED_BY_DML;
    g.idx.Flags = DML_TENSOR_FLAG_OWNED_BY_DML;
    ASSERT_TRUE(g.run().ok());
    EXPECT_EQ(g.output[0], 5.0f);
  }
  {
    Gather g;
    g.out.Flags = DML_TENSOR_FLAG_OWNED_BY_DML;
    expect_refused(g.run(), ErrorCode::invalid_attribute, "Gather", "OutputTensor", "Flags", g);
  }
  {
    Gather g;
    set_raw(g.idx.Flags, 2);
    expect_refused(g.run(), ErrorCode::invalid_attribute, "Gather", "IndicesTensor", "Flags", g);
  }
  {
    Gather g;
    g.bindings.Inputs[1].Buffer = nullptr;
    expect_refused(g.run(), ErrorCode::null_pointer, "Gather", "IndicesTensor", "binding Buffer", g);
  }
  {
    Gather g;
    g.bindings.Output.SizeInBytes = 15;
    const Status s = g.run();
    expect_refused(s, ErrorCode::buffer_too_small, "Gather", "OutputTensor", "binding SizeInBytes", g);
    EXPECT_EQ(s.message(),
              "Gather: OutputTensor.binding SizeInBytes must be at least 16, but is 15 (DML_BUFFER_BINDING: the bound "
              "range holds at least TotalTensorSizeInBytes)");
  }
  {
    Gather g;
    g.bindings.Inputs[0].Offset = UINT64_MAX;
    expect_refused(g.run(), ErrorCode::overflow, "Gather", "InputTensor", "binding Offset", g);
  }
  {
    Gather g;  // a third input binding for an operator with two inputs
    g.bindings.Inputs[2] = {g.input, 0, sizeof g.input};
    const Status s = g.run();
    expect_refused(s, ErrorCode::invalid_attribute, "Gather", "", "Bindings.Inputs", g);
    EXPECT_EQ(s.error().field_index, 2);
  }
}

TEST(DirectMLStructs, TheDeviceLevelForms) {
  {
    Gather g;  // 2-D: DML_FEATURE_LEVEL_3_0 at least
    const Status s = dmlref::directml::try_execute(g.desc, g.bindings, DML_FEATURE_LEVEL_2_1);
    expect_refused(s, ErrorCode::feature_level_too_low, "Gather", "", "DimensionCount", g);
    EXPECT_EQ(s.error().expected.unsigned_integer, 0x3000u);
  }
  {
    Gather g;
    const DML_FEATURE_DATA_FEATURE_LEVELS device{DML_FEATURE_LEVEL_3_0};
    ASSERT_TRUE(dmlref::directml::try_execute(g.desc, g.bindings, device).ok());
    EXPECT_EQ(g.output[0], 5.0f);
  }
  {
    Gather g;  // an input 4 bytes past a 16-byte boundary: fine for the CPU, not for a device
    alignas(16) float shifted[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    g.bindings.Inputs[0] = {shifted, 4, 32};
    const Status s = dmlref::directml::try_execute(g.desc, g.bindings, DML_FEATURE_LEVEL_6_4);
    expect_refused(s, ErrorCode::misaligned, "Gather", "InputTensor", "Data", g);
    ASSERT_TRUE(g.run().ok());
    EXPECT_EQ(g.output[0], 5.0f);
  }
  {
    Gather g;  // the device form keeps the caller's other options
    g.index[0] = 5;
    Options clamp;
    clamp.index_policy = dmlref::IndexPolicy::clamp;
    ASSERT_TRUE(dmlref::directml::try_execute(g.desc, g.bindings, DML_FEATURE_LEVEL_6_4, clamp).ok());
    EXPECT_EQ(g.output[0], 5.0f);
  }
}

}  // namespace
