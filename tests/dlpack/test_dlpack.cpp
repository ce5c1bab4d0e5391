// DLPack interop (dmlref/dlpack.hpp): dtype mapping both ways, what a DLTensor becomes (first
// element at data + byte_offset, strides in elements, NULL strides = packed, the byte extent as
// TotalTensorSizeInBytes, the shape/strides arrays referenced by descriptors and copied by views),
// one test per refusal (device, lanes, dtypes, ndim, empty and negative sizes/strides, nulls,
// alignment), the throwing forms, and operators run on DLPack-described buffers.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "dmlref/dlpack.hpp"
#include "dmlref/dmlref.hpp"

namespace {

using dmlref::DataType;
using dmlref::ErrorCode;
using dmlref::Shape;
namespace dl = dmlref::dlpack;

constexpr DLDevice cpu{kDLCPU, 0};

DLTensor make(void* data, std::int64_t* shape, int ndim, DLDataType dtype, std::int64_t* strides = nullptr,
              std::uint64_t byte_offset = 0, DLDevice device = cpu) {
  return DLTensor{data, device, ndim, dtype, shape, strides, byte_offset};
}

DLDataType dtype(std::uint8_t code, std::uint8_t bits, std::uint16_t lanes = 1) { return DLDataType{code, bits, lanes}; }

constexpr DLDataType f32{kDLFloat, 32, 1};

// ---- dtypes -------------------------------------------------------------------------------------

TEST(DLPackDataType, EveryDataTypeRoundTrips) {
  const DataType all[] = {DataType::FLOAT32, DataType::FLOAT16, DataType::UINT32, DataType::UINT16,
                          DataType::UINT8,   DataType::INT32,   DataType::INT16,  DataType::INT8,
                          DataType::FLOAT64, DataType::UINT64,  DataType::INT64};
  for (DataType type : all) {
    const DLDataType d = dl::to_dl_data_type(type);
    EXPECT_EQ(d.bits, 8 * dmlref::element_size(type)) << dmlref::name(type);
    EXPECT_EQ(d.lanes, 1);
    const auto back = dl::try_data_type(d);
    ASSERT_TRUE(back.ok()) << back.status().message();
    EXPECT_EQ(*back, type);
  }
  const DLDataType unknown = dl::to_dl_data_type(DataType::UNKNOWN);
  EXPECT_EQ(unknown.bits, 0);
  EXPECT_EQ(unknown.lanes, 0);
}

TEST(DLPackDataType, CodesAndBits) {
  EXPECT_EQ(*dl::try_data_type(dtype(kDLFloat, 16)), DataType::FLOAT16);
  EXPECT_EQ(*dl::try_data_type(dtype(kDLFloat, 64)), DataType::FLOAT64);
  EXPECT_EQ(*dl::try_data_type(dtype(kDLInt, 8)), DataType::INT8);
  EXPECT_EQ(*dl::try_data_type(dtype(kDLInt, 64)), DataType::INT64);
  EXPECT_EQ(*dl::try_data_type(dtype(kDLUInt, 16)), DataType::UINT16);
  EXPECT_EQ(*dl::try_data_type(dtype(kDLUInt, 32)), DataType::UINT32);
}

TEST(DLPackDataType, UnsupportedTypesAreRefused) {
  struct Case {
    DLDataType dtype;
    const char* field;
  };
  const Case cases[] = {
      {dtype(4, 16), "dtype.code"},       // kDLBfloat
      {dtype(5, 64), "dtype.code"},       // kDLComplex
      {dtype(6, 8), "dtype.code"},        // kDLBool (DLPack 1.0)
      {dtype(3, 64), "dtype.code"},       // kDLOpaqueHandle
      {dtype(10, 8), "dtype.code"},       // kDLFloat8_e4m3fn (DLPack 1.1)
      {dtype(200, 8), "dtype.code"},      // no such code
      {dtype(kDLFloat, 8), "dtype.bits"}, // no 8-bit float in DirectML
      {dtype(kDLFloat, 128), "dtype.bits"},
      {dtype(kDLInt, 1), "dtype.bits"},
      {dtype(kDLUInt, 4), "dtype.bits"},
      {dtype(kDLFloat, 32, 4), "dtype.lanes"},  // float4 vector
      {dtype(kDLInt, 8, 0), "dtype.lanes"},
  };
  for (const Case& c : cases) {
    const auto r = dl::try_data_type(c.dtype);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::unsupported_data_type);
    EXPECT_STREQ(r.error().field, c.field);
    EXPECT_STREQ(r.error().op, "DLPack");
  }
}

TEST(DLPackDataType, MessagesNameTheCode) {
  EXPECT_EQ(dl::try_data_type(dtype(4, 16)).status().message(),
            "DLPack: DLTensor.dtype.code must be kDLInt (0), kDLUInt (1) or kDLFloat (2), but is kDLBfloat (4) "
            "(DirectML has no bfloat16, bool, complex or 8-bit float types)");
  EXPECT_EQ(dl::try_data_type(dtype(kDLFloat, 32, 4)).status().message(),
            "DLPack: DLTensor.dtype.lanes must be 1, but is 4 (dmlref has no vector types)");
  EXPECT_EQ(dl::try_data_type(dtype(kDLUInt, 12)).status().message(),
            "DLPack: DLTensor.dtype.bits must be 8, 16, 32 or 64 for kDLUInt, but is 12");
}

// ---- what a DLTensor becomes --------------------------------------------------------------------

TEST(DLPackDesc, PackedTensorReferencesTheShapeArray) {
  float data[6] = {};
  std::int64_t shape[] = {2, 3};
  const DLTensor t = make(data, shape, 2, f32);
  const auto desc = dl::try_desc(t);
  ASSERT_TRUE(desc.ok()) << desc.status().message();
  EXPECT_EQ(desc.value().DataType, DataType::FLOAT32);
  EXPECT_EQ(desc.value().DimensionCount, 2u);
  EXPECT_EQ(desc.value().Sizes, shape);        // referenced, not copied
  EXPECT_EQ(desc.value().Strides, nullptr);    // NULL strides: packed, in both
  EXPECT_EQ(desc.value().TotalTensorSizeInBytes, sizeof data);
  EXPECT_EQ(desc.value().Data, static_cast<const void*>(data));
  EXPECT_EQ(dmlref::sizes_of(*desc), (Shape{2, 3}));
}

TEST(DLPackDesc, StridesAreReferencedAndTheExtentIsWhatTheyAddress) {
  double data[4 * 5] = {};
  std::int64_t shape[] = {3, 2};
  std::int64_t strides[] = {5, 2};  // rows 5 apart, every other column
  const DLTensor t = make(data, shape, 2, dtype(kDLFloat, 64), strides);
  const auto desc = dl::try_mutable_desc(t);
  ASSERT_TRUE(desc.ok()) << desc.status().message();
  EXPECT_EQ(desc.value().Strides, strides);
  // Last element at 2*5 + 1*2 = 12: 13 elements of 8 bytes.
  EXPECT_EQ(desc.value().TotalTensorSizeInBytes, 13u * 8u);
  EXPECT_EQ(desc.value().Data, static_cast<void*>(data));
}

TEST(DLPackDesc, BroadcastStrideZeroIsAnInput) {
  std::int32_t data[3] = {1, 2, 3};
  std::int64_t shape[] = {4, 3};
  std::int64_t strides[] = {0, 1};
  const auto desc = dl::try_desc(make(data, shape, 2, dtype(kDLInt, 32), strides));
  ASSERT_TRUE(desc.ok()) << desc.status().message();
  EXPECT_EQ(desc.value().TotalTensorSizeInBytes, sizeof data);
}

TEST(DLPackDesc, ByteOffsetIsAddedToData) {
  std::uint16_t data[8] = {};
  std::int64_t shape[] = {3};
  const DLTensor t = make(data, shape, 1, dtype(kDLUInt, 16), nullptr, 10);
  const auto desc = dl::try_desc(t);
  ASSERT_TRUE(desc.ok());
  EXPECT_EQ(desc.value().Data, static_cast<const void*>(reinterpret_cast<unsigned char*>(data) + 10));
  EXPECT_EQ(desc.value().TotalTensorSizeInBytes, 6u);
  const auto view = dl::try_view<const std::uint16_t>(t);
  ASSERT_TRUE(view.ok()) << view.status().message();
  EXPECT_EQ(view.value().data(), data + 5);
}

TEST(DLPackDesc, PinnedAndManagedHostMemoryAreAccepted) {
  float data[1] = {};
  std::int64_t shape[] = {1};
  for (DLDeviceType device : {kDLCPU, kDLCUDAHost, kDLROCMHost, kDLCUDAManaged}) {
    EXPECT_TRUE(dl::try_desc(make(data, shape, 1, f32, nullptr, 0, DLDevice{device, 0})).ok())
        << static_cast<int>(device);
  }
}

TEST(DLPackView, CopiesSizesAndStrides) {
  std::int64_t data[6] = {0, 1, 2, 3, 4, 5};
  std::int64_t shape[] = {3, 2};
  std::int64_t strides[] = {1, 3};  // the transpose of a packed {2, 3}
  const DLTensor t = make(data, shape, 2, dtype(kDLInt, 64), strides);
  const auto view = dl::try_view<const std::int64_t>(t);
  ASSERT_TRUE(view.ok()) << view.status().message();
  shape[0] = 99;  // the view owns its Shapes
  strides[0] = 99;
  EXPECT_EQ(view.value().sizes(), (Shape{3, 2}));
  EXPECT_EQ(view.value().strides(), (Shape{1, 3}));
  EXPECT_EQ(view.value()[(Shape{2, 1})], 5);
  EXPECT_EQ(view.value()[(Shape{1, 0})], 1);
}

TEST(DLPackView, NullStridesArePacked) {
  dmlref::float16 data[6] = {};
  std::int64_t shape[] = {1, 2, 3};
  const auto view = dl::try_view<dmlref::float16>(make(data, shape, 3, dtype(kDLFloat, 16)));
  ASSERT_TRUE(view.ok()) << view.status().message();
  EXPECT_EQ(view.value().strides(), (Shape{6, 3, 1}));
}

TEST(DLPackView, ElementTypeMustBeTheDtype) {
  std::int32_t data[2] = {};
  std::int64_t shape[] = {2};
  const DLTensor t = make(data, shape, 1, dtype(kDLInt, 32));
  const auto wrong = dl::try_view<const std::uint32_t>(t);
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error().code, ErrorCode::data_type_mismatch);
  EXPECT_EQ(wrong.status().message(), "DLPack: DLTensor.dtype must be UINT32, but is INT32 (the view's element type)");
  EXPECT_TRUE(dl::try_view<const std::int32_t>(t).ok());
}

TEST(DLPackView, TypedViewNeedsAlignedData) {
  alignas(8) std::int32_t data[4] = {};
  std::int64_t shape[] = {2};
  const DLTensor t = make(data, shape, 1, dtype(kDLInt, 32), nullptr, 2);
  const auto view = dl::try_view<std::int32_t>(t);
  ASSERT_FALSE(view.ok());
  EXPECT_EQ(view.error().code, ErrorCode::invalid_attribute);
  EXPECT_STREQ(view.error().field, "byte_offset");
  // The descriptor path reads elements bytewise and takes it.
  EXPECT_TRUE(dl::try_desc(t).ok());
}

// ---- refusals -----------------------------------------------------------------------------------

struct Refusal {
  ErrorCode code;
  std::string field;
  int field_index;
};

template <class R>
Refusal refusal(const R& r) {
  EXPECT_FALSE(r.ok());
  return {r.error().code, r.error().field, r.error().field_index};
}

void expect_refused(const DLTensor& t, ErrorCode code, const char* field, int field_index = -1) {
  for (const Refusal& r : {refusal(dl::try_desc(t)), refusal(dl::try_mutable_desc(t)),
                           refusal(dl::try_view<const float>(t)), refusal(dl::try_view<float>(t))}) {
    EXPECT_EQ(r.code, code) << dmlref::name(r.code);
    EXPECT_EQ(r.field, field);
    EXPECT_EQ(r.field_index, field_index);
  }
}

TEST(DLPackRefusals, DeviceMemoryTheCpuCannotRead) {
  float data[2] = {};
  std::int64_t shape[] = {2};
  const DLTensor t = make(data, shape, 1, f32, nullptr, 0, DLDevice{kDLCUDA, 0});
  expect_refused(t, ErrorCode::invalid_attribute, "device.device_type");
  EXPECT_EQ(dl::try_desc(t).status().message(),
            "DLPack: DLTensor.device.device_type must be kDLCPU (1), kDLCUDAHost (3), kDLROCMHost (11) or "
            "kDLCUDAManaged (13), but is kDLCUDA (2) (dmlref reads tensors on the CPU)");
  expect_refused(make(data, shape, 1, f32, nullptr, 0, DLDevice{kDLOpenCL, 0}), ErrorCode::invalid_attribute,
                 "device.device_type");
  expect_refused(make(data, shape, 1, f32, nullptr, 0, DLDevice{kDLROCM, 0}), ErrorCode::invalid_attribute,
                 "device.device_type");
}

TEST(DLPackRefusals, VectorLanes) {
  float data[8] = {};
  std::int64_t shape[] = {2};
  expect_refused(make(data, shape, 1, dtype(kDLFloat, 32, 4)), ErrorCode::unsupported_data_type, "dtype.lanes");
}

TEST(DLPackRefusals, Bfloat16AndComplex) {
  float data[8] = {};
  std::int64_t shape[] = {2};
  expect_refused(make(data, shape, 1, dtype(kDLBfloat, 16)), ErrorCode::unsupported_data_type, "dtype.code");
  expect_refused(make(data, shape, 1, dtype(kDLComplex, 64)), ErrorCode::unsupported_data_type, "dtype.code");
}

TEST(DLPackRefusals, ZeroOrMoreThanEightDimensions) {
  float data[1] = {};
  std::int64_t shape[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  expect_refused(make(data, shape, 0, f32), ErrorCode::invalid_dimension_count, "ndim");
  expect_refused(make(data, shape, 9, f32), ErrorCode::invalid_dimension_count, "ndim");
  expect_refused(make(data, shape, -1, f32), ErrorCode::invalid_dimension_count, "ndim");
  EXPECT_EQ(dl::try_desc(make(data, shape, 0, f32)).status().message(),
            "DLPack: DLTensor.ndim must be 1..8, but is 0 (DirectML tensors have 1 to 8 dimensions: describe a "
            "0-d tensor with shape {1})");
  EXPECT_TRUE(dl::try_desc(make(data, shape, 8, f32)).ok());
}

TEST(DLPackRefusals, ZeroSizeDimension) {
  std::int64_t shape[] = {2, 0, 3};
  expect_refused(make(nullptr, shape, 3, f32), ErrorCode::invalid_size, "shape", 1);
  EXPECT_EQ(dl::try_desc(make(nullptr, shape, 3, f32)).status().message(),
            "DLPack: DLTensor.shape[1] must be at least 1, but is 0 (DirectML has no empty tensors)");
}

TEST(DLPackRefusals, NegativeSize) {
  float data[4] = {};
  std::int64_t shape[] = {2, -2};
  expect_refused(make(data, shape, 2, f32), ErrorCode::invalid_size, "shape", 1);
}

TEST(DLPackRefusals, NegativeStride) {
  float data[6] = {};
  std::int64_t shape[] = {2, 3};
  std::int64_t strides[] = {3, -1};  // a reversed view, e.g. numpy's a[:, ::-1]
  const DLTensor t = make(data + 2, shape, 2, f32, strides);
  expect_refused(t, ErrorCode::invalid_stride, "strides", 1);
}

TEST(DLPackRefusals, NullShapeAndNullData) {
  float data[2] = {};
  std::int64_t shape[] = {2};
  expect_refused(make(data, nullptr, 1, f32), ErrorCode::null_pointer, "shape");
  expect_refused(make(nullptr, shape, 1, f32), ErrorCode::null_pointer, "data");
}

TEST(DLPackRefusals, ByteSizesBeyond64Bits) {
  float data[1] = {};
  std::int64_t shape[] = {std::int64_t{1} << 40, std::int64_t{1} << 40};
  expect_refused(make(data, shape, 2, f32), ErrorCode::overflow, "shape");
  std::int64_t small[] = {2};
  std::int64_t huge_stride[] = {std::int64_t{1} << 62};
  expect_refused(make(data, small, 1, f32, huge_stride), ErrorCode::overflow, "strides");
  expect_refused(make(data, small, 1, f32, nullptr, ~std::uint64_t{0}), ErrorCode::overflow, "byte_offset");
}

TEST(DLPackRefusals, ManagedTensorForwardsToItsDLTensor) {
  float data[2] = {};
  std::int64_t shape[] = {2};
  DLManagedTensor managed{};
  managed.dl_tensor = make(data, shape, 1, f32);
  EXPECT_TRUE(dl::try_desc(managed).ok());
  EXPECT_TRUE(dl::try_mutable_desc(managed).ok());
  EXPECT_TRUE(dl::try_view<float>(managed).ok());
  managed.dl_tensor.device = DLDevice{kDLCUDA, 0};
  EXPECT_EQ(dl::try_desc(managed).error().code, ErrorCode::invalid_attribute);
}

#if DMLREF_HAS_EXCEPTIONS
TEST(DLPackThrowingForms, ThrowTheSameError) {
  float data[2] = {};
  std::int64_t shape[] = {2};
  const DLTensor good = make(data, shape, 1, f32);
  EXPECT_EQ(dl::view<float>(good).data(), data);
  EXPECT_EQ(dl::desc(good).Sizes, shape);
  EXPECT_EQ(dl::mutable_desc(good).Data, static_cast<void*>(data));
  EXPECT_EQ(dl::data_type(f32), DataType::FLOAT32);
  const DLTensor bad = make(data, shape, 1, dtype(kDLBfloat, 16));
  try {
    (void)dl::desc(bad);
    FAIL() << "no exception";
  } catch (const dmlref::Exception& e) {
    EXPECT_EQ(e.code(), ErrorCode::unsupported_data_type);
    EXPECT_EQ(std::string(e.what()), dl::try_desc(bad).status().message());
  }
  EXPECT_THROW((void)dl::view<const std::int8_t>(good), dmlref::Exception);
  EXPECT_THROW((void)dl::data_type(dtype(kDLInt, 8, 2)), dmlref::Exception);
}
#endif

// ---- operators on DLPack-described buffers ------------------------------------------------------

TEST(DLPackOperators, GatherThroughDescriptors) {
  // A {3, 4} float32 table whose rows live 6 elements apart (a padded producer), INT64 indices.
  float table[3 * 6] = {};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) table[r * 6 + c] = static_cast<float>(10 * r + c);
  std::int64_t table_shape[] = {3, 4}, table_strides[] = {6, 1};
  std::int64_t rows[] = {2, -3, 1};
  std::int64_t rows_shape[] = {1, 3};
  float out[3 * 4] = {};
  std::int64_t out_shape[] = {3, 4};
  const auto input = dl::try_desc(make(table, table_shape, 2, f32, table_strides));
  const auto indices = dl::try_desc(make(rows, rows_shape, 2, dtype(kDLInt, 64)));
  const auto output = dl::try_mutable_desc(make(out, out_shape, 2, f32));
  ASSERT_TRUE(input.ok() && indices.ok() && output.ok());
  const dmlref::Status status = dmlref::try_gather(*input, *indices, *output, dmlref::GatherParams{0, 1});
  ASSERT_TRUE(status.ok()) << status.message();
  const float expected[] = {20, 21, 22, 23, 0, 1, 2, 3, 10, 11, 12, 13};
  for (int i = 0; i < 12; ++i) EXPECT_EQ(out[i], expected[i]) << i;
}

TEST(DLPackOperators, GatherElementsThroughTypedViewsOfATranspose) {
  // Input: the transpose of a packed {2, 3} int16 array, described with DLPack strides {1, 3}.
  std::int16_t base[6] = {0, 1, 2, 3, 4, 5};  // [[0 1 2] [3 4 5]]; transpose [[0 3] [1 4] [2 5]]
  std::int64_t in_shape[] = {3, 2}, in_strides[] = {1, 3};
  std::uint32_t idx[6] = {1, 0, 0, 1, 1, 1};
  std::int64_t idx_shape[] = {3, 2};
  std::int16_t out[6] = {};
  std::int64_t out_shape[] = {3, 2};
  const auto input = dl::try_view<const std::int16_t>(make(base, in_shape, 2, dtype(kDLInt, 16), in_strides));
  const auto indices = dl::try_view<const std::uint32_t>(make(idx, idx_shape, 2, dtype(kDLUInt, 32)));
  const auto output = dl::try_view<std::int16_t>(make(out, out_shape, 2, dtype(kDLInt, 16)));
  ASSERT_TRUE(input.ok() && indices.ok() && output.ok());
  const dmlref::Status status =
      dmlref::try_gather_elements(*input, *indices, *output, dmlref::GatherElementsParams{1});
  ASSERT_TRUE(status.ok()) << status.message();
  const std::int16_t expected[] = {3, 0, 1, 4, 5, 5};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], expected[i]) << i;
}

TEST(DLPackOperators, ScatterInPlaceOnFloat16WithAByteOffset) {
  // One buffer holding a header of 8 bytes, then a {4} float16 tensor scattered into in place.
  alignas(8) unsigned char buffer[8 + 4 * 2] = {};
  for (int i = 0; i < 4; ++i) {
    const dmlref::float16 h = dmlref::float16::from_float(static_cast<float>(i));
    std::memcpy(buffer + 8 + 2 * i, &h, 2);
  }
  std::int64_t shape[] = {4};
  std::int32_t idx[2] = {3, 0};
  std::int64_t idx_shape[] = {2};
  const dmlref::float16 upd[2] = {dmlref::float16::from_float(-1.5f), dmlref::float16::from_bits(0x7E01)};
  std::int64_t upd_shape[] = {2};
  const DLTensor data = make(buffer, shape, 1, dtype(kDLFloat, 16), nullptr, 8);
  const auto in = dl::try_desc(data);
  const auto out = dl::try_mutable_desc(data);
  const auto indices = dl::try_desc(make(idx, idx_shape, 1, dtype(kDLInt, 32)));
  const auto updates = dl::try_desc(make(const_cast<dmlref::float16*>(upd), upd_shape, 1, dtype(kDLFloat, 16)));
  ASSERT_TRUE(in.ok() && out.ok() && indices.ok() && updates.ok());
  EXPECT_EQ(out.value().TotalTensorSizeInBytes, 8u);
  const dmlref::Status status = dmlref::try_scatter(*in, *indices, *updates, *out, dmlref::ScatterParams{0});
  ASSERT_TRUE(status.ok()) << status.message();
  std::uint16_t bits[4];
  std::memcpy(bits, buffer + 8, sizeof bits);
  EXPECT_EQ(bits[0], 0x7E01);  // the NaN payload survives
  EXPECT_EQ(bits[1], dmlref::float16::from_float(1).bits);
  EXPECT_EQ(bits[2], dmlref::float16::from_float(2).bits);
  EXPECT_EQ(bits[3], dmlref::float16::from_float(-1.5f).bits);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(buffer[i], 0) << "header byte " << i;
}

TEST(DLPackOperators, OperatorsStillCheckWhatDLPackAllows) {
  // A broadcast (stride 0) DLTensor is a fine input but not an output: the operator says so.
  float data[3] = {};
  std::int64_t shape[] = {2, 3}, strides[] = {0, 1};
  float in[6] = {};
  std::int64_t in_shape[] = {2, 3};
  std::int32_t idx[2] = {0, 1};
  std::int64_t idx_shape[] = {1, 2};
  const auto output = dl::try_mutable_desc(make(data, shape, 2, f32, strides));
  ASSERT_TRUE(output.ok());
  const auto status = dmlref::try_gather(*dl::try_desc(make(in, in_shape, 2, f32)),
                                         *dl::try_desc(make(idx, idx_shape, 2, dtype(kDLInt, 32))), *output,
                                         dmlref::GatherParams{0, 1});
  EXPECT_EQ(status.code(), ErrorCode::invalid_stride);
}

}  // namespace
