// DirectML's buffer rules (docs/directml.md, "Binding rules"): calc_buffer_tensor_size against the
// worked values of docs/directml.md and against a transcription of DirectML's own helper, and every
// rule of BindingRules::directml at its boundary (one byte short, misaligned by one element,
// exactly 2^32 - 1 and 2^32 elements, sizes and strides at UINT's limit), in both layers where a
// layer has the field. Each rejected call writes nothing; the default (relaxed) accepts them all.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "dmlref/dmlref.hpp"
#include "support/guarded.hpp"

namespace {

using dmlref::DataType;
using dmlref::ErrorCode;
using dmlref::Options;
using dmlref::Result;
using dmlref::Shape;
using dmlref::Status;
using Sizes = std::vector<std::int64_t>;

Options directml_rules() {
  Options o;
  o.binding_rules = dmlref::BindingRules::directml;
  return o;
}

std::uint64_t calc(DataType type, const Shape& sizes, const Shape& strides) {
  const Result<std::uint64_t> r = dmlref::calc_buffer_tensor_size(type, sizes, strides);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? *r : ~std::uint64_t{0};
}

// DMLCalcBufferTensorSize as the "DirectML helper functions" page prints it (32-bit index).
std::uint64_t directml_helper(DataType type, std::uint32_t count, const std::uint32_t* sizes,
                              const std::uint32_t* strides) {
  std::uint32_t element = 0;
  switch (type) {
    case DataType::FLOAT32:
    case DataType::UINT32:
    case DataType::INT32: element = 4; break;
    case DataType::FLOAT16:
    case DataType::UINT16:
    case DataType::INT16: element = 2; break;
    case DataType::UINT8:
    case DataType::INT8: element = 1; break;
    case DataType::FLOAT64:
    case DataType::UINT64:
    case DataType::INT64: element = 8; break;
    case DataType::UNKNOWN: return 0;
  }
  std::uint64_t minimum = 0;
  if (strides == nullptr) {
    minimum = sizes[0];
    for (std::uint32_t i = 1; i < count; ++i) minimum *= sizes[i];
    minimum *= element;
  } else {
    std::uint32_t last = 0;
    for (std::uint32_t i = 0; i < count; ++i) last += (sizes[i] - 1) * strides[i];
    minimum = (static_cast<std::uint64_t>(last) + 1) * element;
  }
  return (minimum + 3) & ~3ull;
}

TEST(CalcBufferTensorSize, WorkedValues) {
  EXPECT_EQ(calc(DataType::FLOAT16, {1, 1, 3, 5}, {}), 32u);
  EXPECT_EQ(calc(DataType::FLOAT16, {1, 1, 3, 5}, {15, 15, 5, 1}), 32u);
  EXPECT_EQ(calc(DataType::FLOAT32, {2, 3}, {0, 1}), 12u);
  EXPECT_EQ(calc(DataType::FLOAT32, {2, 3}, {5, 1}), 32u);
  EXPECT_EQ(calc(DataType::UINT8, {3}, {}), 4u);
  EXPECT_EQ(calc(DataType::INT64, {2, 2}, {1, 2}), 32u);
}

TEST(CalcBufferTensorSize, EqualsDirectMLsHelperWhereItDoesNotWrap) {
  const DataType types[] = {DataType::FLOAT32, DataType::FLOAT16, DataType::UINT32, DataType::UINT16,
                            DataType::UINT8,   DataType::INT32,   DataType::INT16,  DataType::INT8,
                            DataType::FLOAT64, DataType::UINT64,  DataType::INT64};
  std::mt19937_64 rng(0x15F1DE117);
  int compared = 0;
  for (int i = 0; i < 4000; ++i) {
    const DataType type = types[rng() % 11];
    const std::uint32_t count = 1 + static_cast<std::uint32_t>(rng() % 8);
    std::uint32_t sizes[8], strides[8];
    std::uint64_t last = 0, elements = 1;  // exact, or past 2^40 (then not compared)
    for (std::uint32_t d = 0; d < count; ++d) {
      sizes[d] = 1 + static_cast<std::uint32_t>(rng() % (i % 2 ? 7 : 3000));
      strides[d] = static_cast<std::uint32_t>(rng() % (i % 3 ? 10 : 100000));
      last += std::uint64_t{sizes[d] - 1} * strides[d];
      elements = elements > (std::uint64_t{1} << 40) ? elements : elements * sizes[d];
    }
    const bool with_strides = i % 4 != 0;
    // Where the helper's 32-bit index (or its 64-bit byte count) wraps, there is nothing to compare.
    if (with_strides ? last > 0xFFFFFFFFull : elements > (std::uint64_t{1} << 40)) continue;
    Shape s, t;
    for (std::uint32_t d = 0; d < count; ++d) {
      s.push_back(sizes[d]);
      t.push_back(strides[d]);
    }
    EXPECT_EQ(calc(type, s, with_strides ? t : Shape()),
              directml_helper(type, count, sizes, with_strides ? strides : nullptr))
        << "case " << i;
    ++compared;
  }
  EXPECT_GT(compared, 2500);
}

TEST(CalcBufferTensorSize, EmptyInvalidAndTooLarge) {
  EXPECT_EQ(calc(DataType::FLOAT32, {3, 0, 2}, {}), 0u);
  EXPECT_EQ(calc(DataType::FLOAT32, {3, 0, 2}, {7, 1, 9}), 0u);
  // Broadcast and padding dimensions of size 1 never reach further.
  EXPECT_EQ(calc(DataType::FLOAT64, {1, 4}, {std::numeric_limits<std::int64_t>::max(), 2}), 56u);

  auto error = [](DataType type, const Shape& sizes, const Shape& strides) {
    return dmlref::calc_buffer_tensor_size(type, sizes, strides).status();
  };
  EXPECT_EQ(error(DataType::UNKNOWN, {2}, {}).code(), ErrorCode::unsupported_data_type);
  EXPECT_EQ(error(static_cast<DataType>(12), {2}, {}).code(), ErrorCode::unsupported_data_type);
  EXPECT_EQ(error(DataType::FLOAT32, {}, {}).code(), ErrorCode::invalid_dimension_count);
  EXPECT_EQ(error(DataType::FLOAT32, Shape::filled(9, 1), {}).code(), ErrorCode::invalid_dimension_count);
  EXPECT_EQ(error(DataType::FLOAT32, {2, 3}, {1}).code(), ErrorCode::invalid_stride);
  EXPECT_EQ(error(DataType::FLOAT32, {2, -3}, {}).code(), ErrorCode::invalid_size);
  EXPECT_EQ(error(DataType::FLOAT32, {2, 3}, {3, -1}).code(), ErrorCode::invalid_stride);

  // 2^63 bytes or more is `overflow`; just below is a value.
  const std::int64_t max = std::numeric_limits<std::int64_t>::max();
  EXPECT_EQ(calc(DataType::UINT8, {max - 3}, {}), (std::uint64_t{1} << 63) - 4);
  const Status too_large = error(DataType::UINT8, {max - 2}, {});
  EXPECT_EQ(too_large.code(), ErrorCode::overflow);
  EXPECT_STREQ(too_large.error().op, "DMLCalcBufferTensorSize");
  EXPECT_EQ(error(DataType::FLOAT32, {std::int64_t{1} << 31, std::int64_t{1} << 31}, {}).code(), ErrorCode::overflow);
  EXPECT_EQ(error(DataType::FLOAT32, {2}, {std::int64_t{1} << 62}).code(), ErrorCode::overflow);
  EXPECT_EQ(error(DataType::UINT8, {3, 2}, {max / 2, 1}).code(), ErrorCode::overflow);
}

// ================================================================================================
// The binding rules on a Gather along axis 0 of a {rows, cols} input with one index.

struct GatherCall {
  DataType type;
  Sizes in_sizes, in_strides, idx_sizes{1, 1}, out_sizes;
  std::size_t width;
  guarded::Buffer input, indices, output;

  GatherCall(DataType t, Sizes sizes, Sizes strides, std::size_t input_bytes, std::size_t misalign = 0)
      : type(t), in_sizes(std::move(sizes)), in_strides(std::move(strides)),
        out_sizes{1, in_sizes[1]}, width(dmlref::element_size(t)),
        input(input_bytes, 0x5A, misalign), indices(16, 0),
        output((static_cast<std::size_t>(in_sizes[1]) * dmlref::element_size(t) + 3) & ~std::size_t{3}) {}

  dmlref::TensorDesc in_desc(std::uint64_t bytes, std::uint32_t alignment = 0) const {
    dmlref::TensorDesc d = in_strides.empty() ? input.desc(type, in_sizes) : input.desc(type, in_sizes, in_strides);
    d.TotalTensorSizeInBytes = bytes;
    d.GuaranteedBaseOffsetAlignment = alignment;
    return d;
  }
  Status run(const dmlref::TensorDesc& in, const Options& o) {
    dmlref::MutableTensorDesc out = output.mutable_desc(type, out_sizes);
    return dmlref::try_gather(in, indices.desc(DataType::UINT32, idx_sizes), out, dmlref::GatherParams{0, 1}, o);
  }
  bool untouched() const { return output.untouched(); }
};

void expect_rejected(const Status& s, ErrorCode code, const char* tensor, const char* field, int field_index,
                     const GatherCall& call) {
  ASSERT_EQ(s.code(), code) << s.message();
  EXPECT_STREQ(s.error().tensor, tensor) << s.message();
  EXPECT_STREQ(s.error().field, field) << s.message();
  EXPECT_EQ(s.error().field_index, field_index) << s.message();
  EXPECT_TRUE(call.untouched());
}

TEST(BindingRules, TotalTensorSizeInBytesOneByteShort) {
  // FLOAT16 {3, 5}: the elements end at byte 30, DMLCalcBufferTensorSize rounds to 32.
  for (std::uint64_t bytes : {30u, 31u, 32u}) {
    GatherCall call(DataType::FLOAT16, {3, 5}, {}, 32);
    const Status relaxed = call.run(call.in_desc(bytes), Options());
    EXPECT_TRUE(relaxed.ok()) << relaxed.message();
    GatherCall strict(DataType::FLOAT16, {3, 5}, {}, 32);
    const Status s = strict.run(strict.in_desc(bytes), directml_rules());
    if (bytes == 32) {
      EXPECT_TRUE(s.ok()) << s.message();
      continue;
    }
    expect_rejected(s, ErrorCode::buffer_too_small, "InputTensor", "TotalTensorSizeInBytes", -1, strict);
    EXPECT_EQ(s.error().expected.integer, 32);
    EXPECT_EQ(s.error().actual.integer, static_cast<std::int64_t>(bytes));
  }
  // Padded rows: {2, 3} with stride 5 end at element 8: 32 bytes of FLOAT32, 31 too few.
  GatherCall padded(DataType::FLOAT32, {2, 3}, {5, 1}, 32);
  expect_rejected(padded.run(padded.in_desc(31), directml_rules()), ErrorCode::buffer_too_small, "InputTensor",
                  "TotalTensorSizeInBytes", -1, padded);
  EXPECT_TRUE(padded.run(padded.in_desc(32), directml_rules()).ok());
}

TEST(BindingRules, DataMisalignedByOneElement) {
  for (DataType type : {DataType::UINT8, DataType::FLOAT16, DataType::FLOAT32, DataType::FLOAT64}) {
    const std::size_t width = dmlref::element_size(type);
    GatherCall call(type, {2, 4}, {}, 64, width);
    EXPECT_TRUE(call.run(call.in_desc(64), Options()).ok());
    GatherCall strict(type, {2, 4}, {}, 64, width);
    const Status s = strict.run(strict.in_desc(64), directml_rules());
    expect_rejected(s, ErrorCode::misaligned, "InputTensor", "Data", -1, strict);
    EXPECT_EQ(s.error().expected.integer, 16);
    EXPECT_EQ(s.error().actual.integer, static_cast<std::int64_t>(width));
    GatherCall aligned(type, {2, 4}, {}, 64, 0);
    EXPECT_TRUE(aligned.run(aligned.in_desc(64), directml_rules()).ok());
  }
  GatherCall call(DataType::FLOAT32, {2, 4}, {}, 64, 4);
  EXPECT_EQ(call.run(call.in_desc(64), directml_rules()).message(),
            "Gather: InputTensor.Data must be aligned to 16 bytes, but is 4 bytes past a multiple of 16 (binding_rules "
            "is directml: DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT or the tensor's GuaranteedBaseOffsetAlignment, if "
            "larger)");
}

TEST(BindingRules, GuaranteedBaseOffsetAlignment) {
  // A promise of 64 bytes: 16 past a 64-byte boundary breaks it; 0 past keeps it.
  for (std::size_t misalign : {16u, 32u, 48u}) {
    GatherCall call(DataType::FLOAT32, {2, 4}, {}, 64, misalign);
    const Status s = call.run(call.in_desc(64, 64), directml_rules());
    expect_rejected(s, ErrorCode::misaligned, "InputTensor", "Data", -1, call);
    EXPECT_EQ(s.error().expected.integer, 64);
    EXPECT_EQ(s.error().actual.integer, static_cast<std::int64_t>(misalign));
    GatherCall relaxed(DataType::FLOAT32, {2, 4}, {}, 64, misalign);
    EXPECT_TRUE(relaxed.run(relaxed.in_desc(64, 64), Options()).ok());  // only a promise to dmlref
  }
  GatherCall kept(DataType::FLOAT32, {2, 4}, {}, 64, 0);
  EXPECT_TRUE(kept.run(kept.in_desc(64, 64), directml_rules()).ok());
  // A promise below 16 still leaves DirectML's 16.
  GatherCall small(DataType::FLOAT32, {2, 4}, {}, 64, 8);
  expect_rejected(small.run(small.in_desc(64, 8), directml_rules()), ErrorCode::misaligned, "InputTensor", "Data", -1,
                  small);
  // 0 or a power of two at least the element size.
  for (std::uint32_t bad : {2u, 3u, 12u, 48u, 0x80000001u}) {
    GatherCall call(DataType::FLOAT32, {2, 4}, {}, 64, 0);
    const Status s = call.run(call.in_desc(64, bad), directml_rules());
    expect_rejected(s, ErrorCode::invalid_attribute, "InputTensor", "GuaranteedBaseOffsetAlignment", -1, call);
    EXPECT_EQ(s.error().actual.unsigned_integer, bad);
  }
  for (std::uint32_t good : {4u, 8u, 16u, 32u}) {
    GatherCall call(DataType::FLOAT32, {2, 4}, {}, 64, 0);
    EXPECT_TRUE(call.run(call.in_desc(64, good), directml_rules()).ok()) << good;
  }
}

TEST(BindingRules, ElementCountAtTwoToThe32) {
  // Broadcast inputs (stride 0) of 2^32 - 1 and 2^32 elements over one element of memory; each
  // size fits UINT.
  struct Case {
    std::int64_t rows, cols;
    bool fits;
  };
  for (const Case& c : {Case{65535, 65537, true}, Case{65536, 65536, false}}) {
    GatherCall relaxed(DataType::FLOAT32, {c.rows, c.cols}, {0, 0}, 16);
    relaxed.input.fill(std::vector<float>{2.5f});
    EXPECT_TRUE(relaxed.run(relaxed.in_desc(4), Options()).ok());
    GatherCall call(DataType::FLOAT32, {c.rows, c.cols}, {0, 0}, 16);
    call.input.fill(std::vector<float>{2.5f});
    const Status s = call.run(call.in_desc(4), directml_rules());
    if (c.fits) {
      ASSERT_TRUE(s.ok()) << s.message();
      EXPECT_EQ(call.output.load<float>(0), 2.5f);
      EXPECT_EQ(call.output.load<float>(static_cast<std::size_t>(c.cols) - 1), 2.5f);
      continue;
    }
    expect_rejected(s, ErrorCode::invalid_size, "InputTensor", "Sizes", -1, call);
    EXPECT_EQ(s.message(),
              "Gather: InputTensor.Sizes must be sizes of at most 4294967295 elements, but is {65536, 65536} "
              "(binding_rules is directml: a buffer tensor holds at most 2^32 - 1 elements)");
  }
}

TEST(BindingRules, SizesAndStridesFitUint) {
  // A size of 2^32 (broadcast GatherElements input: output of one element).
  for (std::int64_t size : {std::int64_t{4294967295}, std::int64_t{4294967296}}) {
    guarded::Buffer input(16), indices(16, 0), output(4);
    const std::uint32_t last = static_cast<std::uint32_t>(size - 2);
    indices.fill(std::vector<std::uint32_t>{last});
    const Sizes in_sizes{size}, in_strides{0}, one{1};
    dmlref::TensorDesc in = input.desc(DataType::FLOAT32, in_sizes, in_strides);
    in.TotalTensorSizeInBytes = 4;
    const auto run = [&](const Options& o) {
      return dmlref::try_gather_elements(in, indices.desc(DataType::UINT32, one),
                                         output.mutable_desc(DataType::FLOAT32, one), {0}, o);
    };
    EXPECT_TRUE(run(Options()).ok());
    output.snapshot();
    const Status s = run(directml_rules());
    if (size == 4294967295) {
      EXPECT_TRUE(s.ok()) << s.message();
      continue;
    }
    ASSERT_EQ(s.code(), ErrorCode::invalid_size) << s.message();
    EXPECT_STREQ(s.error().field, "Sizes");
    EXPECT_EQ(s.error().field_index, 0);
    EXPECT_TRUE(output.untouched());
  }
  // A stride of 2^32 on a dimension of size 1, which dmlref never steps along.
  for (std::int64_t stride : {std::int64_t{4294967295}, std::int64_t{4294967296}}) {
    GatherCall call(DataType::FLOAT32, {1, 4}, {stride, 1}, 16);
    EXPECT_TRUE(call.run(call.in_desc(16), Options()).ok());
    GatherCall strict(DataType::FLOAT32, {1, 4}, {stride, 1}, 16);
    const Status s = strict.run(strict.in_desc(16), directml_rules());
    if (stride == 4294967295) {
      EXPECT_TRUE(s.ok()) << s.message();
      continue;
    }
    expect_rejected(s, ErrorCode::invalid_stride, "InputTensor", "Strides", 0, strict);
  }
}

// A view has no TotalTensorSizeInBytes and no promise: the alignment (16), element-count and UINT
// rules apply to it, the buffer-size rule cannot.
TEST(BindingRules, TypedViews) {
  guarded::Buffer input(64, 0x5A, 4), aligned_input(64), indices(16, 0), output(16);
  const auto run = [&](const guarded::Buffer& in, const Shape& sizes, const Shape& strides, const Options& o) {
    return dmlref::try_gather(in.cview<float>(sizes, strides), indices.cview<std::uint32_t>({1, 1}),
                              output.view<float>({1, sizes[1]}), dmlref::GatherParams{0, 1}, o);
  };
  EXPECT_TRUE(run(input, {2, 4}, {4, 1}, Options()).ok());
  output.snapshot();
  const Status s = run(input, {2, 4}, {4, 1}, directml_rules());
  ASSERT_EQ(s.code(), ErrorCode::misaligned) << s.message();
  EXPECT_STREQ(s.error().tensor, "InputTensor");
  EXPECT_TRUE(output.untouched());
  EXPECT_TRUE(run(aligned_input, {2, 4}, {4, 1}, directml_rules()).ok());
  output.snapshot();
  EXPECT_EQ(run(aligned_input, {65536, 4}, {0, 1}, directml_rules()).code(), ErrorCode::ok);
  EXPECT_EQ(run(aligned_input, {1073741824, 4}, {0, 1}, directml_rules()).code(), ErrorCode::invalid_size);
  EXPECT_EQ(run(aligned_input, {1, 4}, {4294967296, 1}, directml_rules()).code(), ErrorCode::invalid_stride);
  // The same views through minimum_feature_level: the rules apply there too.
  const Result<std::uint32_t> minimum = dmlref::minimum_feature_level(
      input.cview<float>({1, 1, 2, 4}), indices.cview<std::uint32_t>({1, 1, 1, 1}), output.view<float>({1, 1, 1, 4}),
      dmlref::GatherParams{2, 1}, directml_rules());
  EXPECT_EQ(minimum.status().code(), ErrorCode::misaligned);
  const Result<std::uint32_t> relaxed = dmlref::minimum_feature_level(
      input.cview<float>({1, 1, 2, 4}), indices.cview<std::uint32_t>({1, 1, 1, 1}), output.view<float>({1, 1, 1, 4}),
      dmlref::GatherParams{2, 1});
  ASSERT_TRUE(relaxed.ok()) << relaxed.status().message();
  EXPECT_EQ(*relaxed, 0x1000u);
}

// The binding rules are no level's: they come before the level's tables.
TEST(BindingRules, BeforeTheFeatureLevel) {
  GatherCall call(DataType::FLOAT32, {2, 4}, {}, 64, 4);
  Options o = directml_rules();
  o.feature_level = dmlref::feature_level::v1_0;  // a 2-D Gather needs 3_0
  expect_rejected(call.run(call.in_desc(64), o), ErrorCode::misaligned, "InputTensor", "Data", -1, call);
  GatherCall aligned(DataType::FLOAT32, {2, 4}, {}, 64, 0);
  expect_rejected(aligned.run(aligned.in_desc(64), o), ErrorCode::feature_level_too_low, "", "DimensionCount", -1,
                  aligned);
}

}  // namespace
