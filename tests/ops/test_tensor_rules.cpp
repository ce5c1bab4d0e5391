// The rules every operator shares (docs/semantics.md, "Rules shared by all operators", and its
// "Policies where DirectML is undefined": the conservative rules for output strides and overlap):
// dimension counts, sizes, strides, Data and Sizes pointers, TotalTensorSizeInBytes, element count
// and extent overflow, data and index types, overlap and in place, the shape helpers, messages.
// Each rule is checked for every operator and every tensor it applies to, over the harness of
// support/rules.hpp: the ErrorCode, the tensor and field named, expected/actual where meaningful,
// the same Error on both layers, and no buffer written; calls that must pass equal the oracle byte
// for byte. Last, bad and extreme inputs at the int64 limits (the calls the fuzzer first tripped
// on).
//
// Each operator's own rules (attributes, shape rules, index values, collisions) are in its file,
// ops/test_<op>.cpp.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dmlref/dmlref.hpp"
#include "support/guarded.hpp"
#include "support/rules.hpp"
#include "support/runner.hpp"

namespace {

using namespace rules;  // NOLINT: the harness's vocabulary, in every test below

// ================================================================================================
// Baseline: the default calls are valid (so every failure below is caused by the one change).

TEST(ValidationBaseline, DefaultCallsSucceedOnBothLayers) {
  for (Op op : harness::all_ops) {
    SCOPED_TRACE(trace(op));
    expect_ok(make_call(op));
  }
}

TEST(ValidationBaseline, EveryDataTypeWithEveryIndexTypeIsAccepted) {
  // Every one of 11 data types with every one of 4 index types is legal for every operator.
  for (Op op : harness::all_ops)
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
// DimensionCount (docs/semantics.md, "Rules shared by all operators", 1 and 2)

TEST(ValidationDimensionCount, ZeroIsRejectedForEveryTensor) {
  for_each_tensor([](Call c, int role) {
    c.t[role].sizes = {};  // DimensionCount 0 (descriptor) / a rank-0 Shape (view)
    expect_error(c, {ErrorCode::invalid_dimension_count, role_name(role), "DimensionCount", -1, "1..8", "0"});
  });
}

TEST(ValidationDimensionCount, NineIsRejectedForEveryTensor) {
  for_each_tensor([](Call c, int role) {
    Sizes nine(9 - c.t[role].sizes.size(), 1);
    nine.insert(nine.end(), c.t[role].sizes.begin(), c.t[role].sizes.end());
    c.t[role].sizes = nine;
    expect_error(c, {ErrorCode::invalid_dimension_count, role_name(role), "DimensionCount", -1, "1..8", "9"});
  });
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
  for_each_tensor([](const Call& base, int role) {
    if (role == kInput) return;
    Call c = base;
    const std::size_t D = c.input().sizes.size();
    c.t[role].sizes.insert(c.t[role].sizes.begin(), 1);  // one more leading 1
    expect_error(c, {ErrorCode::invalid_dimension_count, role_name(role), "DimensionCount", -1,
                     std::to_string(D), std::to_string(D + 1)});
    c = base;
    c.t[role].sizes.erase(c.t[role].sizes.begin());  // one fewer
    expect_error(c, {ErrorCode::invalid_dimension_count, role_name(role), "DimensionCount", -1,
                     std::to_string(D), std::to_string(D - 1)});
  });
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
// Sizes (no empty tensors)

TEST(ValidationSizes, ZeroIsRejectedInEveryDimensionOfEveryTensor) {
  for_each_dimension([](Call c, int role, std::size_t d) {
    c.t[role].sizes[d] = 0;
    expect_error(c, {ErrorCode::invalid_size, role_name(role), "Sizes", static_cast<int>(d), std::nullopt, "0"});
  });
}

TEST(ValidationSizes, NegativeIsRejectedWithExplicitStrides) {
  for_each_dimension([](Call c, int role, std::size_t d) {
    c.t[role].strides = packed(c.t[role].sizes);
    c.t[role].sizes[d] = -1;
    expect_error(c, {ErrorCode::invalid_size, role_name(role), "Sizes", static_cast<int>(d), std::nullopt, "-1"});
  });
}

TEST(ValidationSizes, NegativeIsRejectedAsASizeErrorWhenStridesArePacked) {
  // Without explicit strides the library derives packed strides from the sizes; a negative size
  // must still be reported as InputTensor.Sizes[d], not as a negative stride the caller never gave.
  for_each_dimension([](Call c, int role, std::size_t d) {
    c.t[role].sizes[d] = -1;
    expect_error(c, {ErrorCode::invalid_size, role_name(role), "Sizes", static_cast<int>(d), std::nullopt, "-1"});
  });
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
  for_each_tensor([](Call c, int role) {
    c.t[role].null_sizes = true;
    expect_dispatch_error(c, {ErrorCode::null_pointer, role_name(role), "Sizes", -1});
  });
}

// ================================================================================================
// Strides (docs/semantics.md, "Rules shared by all operators", 2)

TEST(ValidationStrides, NegativeStrideIsRejectedForEveryTensor) {
  for_each_tensor([](const Call& base, int role) {
    for (std::size_t d : {std::size_t{0}, base.t[role].sizes.size() - 1}) {
      SCOPED_TRACE("Strides[" + std::to_string(d) + "]");
      Call c = base;
      c.t[role].strides = packed(c.t[role].sizes);
      (*c.t[role].strides)[d] = -2;
      expect_error(c, {ErrorCode::invalid_stride, role_name(role), "Strides", static_cast<int>(d), std::nullopt, "-2"});
    }
  });
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
  for (Op op : harness::all_ops) {
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
  for (Op op : harness::all_ops) {
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
  for (Op op : harness::all_ops) {
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
  for_each_tensor([](Call c, int role) {
    c.t[role].null_data = true;
    expect_error(c, {ErrorCode::null_pointer, role_name(role), "Data", -1});
  });
}

// ================================================================================================
// TotalTensorSizeInBytes (docs/semantics.md, "Rules shared by all operators", 2: without the
// round-up to 4)

TEST(ValidationBufferSize, OneByteTooSmallIsRejectedForEveryTensor) {
  for_each_tensor([](Call c, int role) {
    const std::size_t exact = extent_bytes(c.t[role]);
    c.t[role].total_bytes = exact - 1;
    expect_dispatch_error(c, {ErrorCode::buffer_too_small, role_name(role), "TotalTensorSizeInBytes", -1,
                              "at least " + std::to_string(exact), std::to_string(exact - 1)});
    c.t[role].total_bytes = exact;  // exactly enough
    expect_ok(c);
    c.t[role].total_bytes = exact + 1000;  // more than enough
    expect_ok(c);
  });
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
  // (last offset + 1) * element size: FLOAT32 {2,3} strides {0,1} needs 12 bytes; {5,1} needs 32.
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
  // 2^32 - 1: an extension, docs/semantics.md, "Policies where DirectML is undefined"), 4 bytes of
  // buffer.
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
  for_each_tensor([&](const Call& base, int role) {
    if (role == kIndices) return;
    for (std::uint32_t v : bad) {
      SCOPED_TRACE("DataType " + std::to_string(v));
      Call c = base;
      c.t[role].type = static_cast<DataType>(v);
      expect_dispatch_error(c, {ErrorCode::unsupported_data_type, role_name(role), "DataType", -1, std::nullopt,
                                std::to_string(v)});
    }
  });
}

TEST(ValidationDataType, UnknownAndOutOfRangeIndexTypesAreRejected) {
  const std::uint32_t bad[] = {0, 12, 13, 99, 0xFFFFFFFFu};
  for (Op op : harness::all_ops)
    for (std::uint32_t v : bad) {
      SCOPED_TRACE(trace(op) + " IndicesTensor DataType " + std::to_string(v));
      Call c = make_call(op);
      c.indices().type = static_cast<DataType>(v);
      expect_dispatch_error(c, {ErrorCode::unsupported_index_type, "IndicesTensor", "DataType", -1, std::nullopt,
                                std::to_string(v)});
    }
}

TEST(ValidationDataType, NonIndexTypesAreRejectedAsIndexTypes) {
  for (Op op : harness::all_ops)
    for (DataType t : non_index_types()) {
      SCOPED_TRACE(trace(op) + " IndicesTensor " + dmlref::name(t));
      Call c = make_call(op);
      c.indices().type = t;
      expect_dispatch_error(c, {ErrorCode::unsupported_index_type, "IndicesTensor", "DataType", -1,
                                "INT32, INT64, UINT32 or UINT64", dmlref::name(t)});
    }
}

TEST(ValidationDataType, OutputAndUpdatesMustMatchInput) {
  for_each_tensor([](const Call& base, int role) {
    if (role == kInput || role == kIndices) return;
    for (DataType t : data_types()) {
      if (t == DataType::FLOAT32) continue;
      SCOPED_TRACE(dmlref::name(t));
      Call c = base;
      c.t[role].type = t;
      expect_dispatch_error(c, {ErrorCode::data_type_mismatch, role_name(role), "DataType", -1, "FLOAT32",
                                dmlref::name(t)});
    }
  });
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
// Shape helpers agree with the operators on shape errors

TEST(ValidationShapeHelpers, ReportTheOperatorsErrorForTheSameSizes) {
  std::vector<std::pair<std::string, Call>> cases;
  // The default call of `op`, changed by `change`.
  auto add = [&](const std::string& label, Op op, auto change) {
    Call c = make_call(op);
    change(c);
    cases.emplace_back(label, std::move(c));
  };
  for (Op op : harness::all_ops) {
    add("indices rank", op, [](Call& c) { c.indices().sizes.insert(c.indices().sizes.begin(), 1); });
    add("indices size 0", op, [](Call& c) { c.indices().sizes.back() = 0; });
    add("input size -1", op, [](Call& c) { c.input().sizes[0] = -1; });
    if (is_scatter(op)) {
      add("updates rank", op, [](Call& c) { c.updates().sizes.insert(c.updates().sizes.begin(), 1); });
      add("updates size 0", op, [](Call& c) { c.updates().sizes.back() = 0; });
      add("updates sizes", op, [](Call& c) { c.updates().sizes.back() += 1; });
    }
  }
  add("Gather dropped entry", Op::gather, [](Call& c) { c.attr[1] = 2; });
  add("Gather leading", Op::gather, [](Call& c) { c.indices().sizes[0] = 2; });
  add("Gather Axis", Op::gather, [](Call& c) { c.attr[0] = 3; });
  add("GatherElements off-axis", Op::gather_elements, [](Call& c) { c.indices().sizes[0] = 3; });
  for (Op op : {Op::gather_nd, Op::gather_nd1, Op::scatter_nd}) {
    const std::string name = harness::name(op);
    add(name + " input leading", op, [](Call& c) { c.input().sizes[0] = 2; });
    add(name + " K", op, [](Call& c) { c.indices().sizes.back() = 3; });
    add(name + " r 0", op, [](Call& c) { c.attr[0] = 0; });
  }
  add("GatherND1 batch", Op::gather_nd1, [](Call& c) { c.indices().sizes[1] = 3; });
  for (const auto& [label, c] : cases) {
    SCOPED_TRACE(trace(c.op) + ": " + label);
    Bound b = bind(c);
    const auto helper = harness::output_sizes(to_harness(c, b));
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
// Overlap and in place (docs/semantics.md, "Rules shared by all operators", 5: bounding ranges)

TEST(ValidationOverlap, OutputOverlappingAnyInputIsRejected) {
  for_each_tensor([](const Call& base, int role) {
    if (role == kOutput) return;
    for (std::size_t offset : {std::size_t{0}, std::size_t{4}}) {
      SCOPED_TRACE("at byte " + std::to_string(offset));
      Call c = base;
      c.output().alias_of = role;
      c.output().alias_offset = offset;
      // A scatter's output at offset 0 of its input with the same strides is in place (allowed).
      if (c.op == Op::scatter || c.op == Op::scatter_nd)
        if (role == kInput && offset == 0) continue;
      expect_error(c, {ErrorCode::overlapping_tensors, "OutputTensor", "Data", -1, std::nullopt, role_name(role)});
    }
  });
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
// Error::message() (a handful of codes)

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


// ================================================================================================
// Bad and extreme inputs beyond the table above:
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
// Every failing call must leave every buffer (payload and guard bytes) untouched. The calls run on
// the dispatch layer, over buffers sized by hand (a huge broadcast input holds one element).

namespace bad_inputs {

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t p2(int e) { return std::int64_t{1} << e; }

std::string describe(const Status& s) { return std::string(dmlref::name(s.code())) + ": " + s.message(); }
const char* op_name(Op op) { return harness::name(op); }

// ================================================================================================
// One call over guarded buffers, described down to its descriptor fields.

using Role = harness::Role;
const char* const kRoleNames[] = {role_name(kInput), role_name(kIndices), role_name(kUpdates), role_name(kOutput)};

struct TensorSpec {
  DataType type = DataType::FLOAT32;
  Sizes sizes;
  Sizes strides;                 ///< empty: packed (Strides = nullptr)
  std::size_t buffer_bytes = 0;  ///< payload allocated (0: the packed extent)
  std::uint64_t total = 0;       ///< TotalTensorSizeInBytes (0: buffer_bytes)
};

struct Call {
  Op op = Op::gather;
  TensorSpec t[4];  ///< by harness::Role
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
  harness::Call call;
  call.op = c.op;
  for (int k = 0; k < 3; ++k) call.attr[k] = c.attr[k];
  call.options = c.options;
  for (int r = 0; r < 4; ++r) {
    const TensorSpec& s = c.t[r];
    call.t[r] = {s.type, static_cast<std::uint32_t>(s.sizes.size()), s.sizes.data(),
                 s.strides.empty() ? nullptr : s.strides.data(),
                 s.total != 0 ? s.total : b.buffers[static_cast<std::size_t>(r)].size(),
                 b.buffers[static_cast<std::size_t>(r)].bytes()};
  }
  b.status = harness::run_dispatch(call);
  return b;
}

// ================================================================================================
// TotalTensorSizeInBytes above INT64_MAX (ValidationBufferSize checks IndicesTensor of a Gather).

/// A call of `op` with FLOAT32 data, INT32 indices and these sizes and attributes.
Call int32_call(Op op, Sizes in, Sizes idx, Sizes upd, Sizes out, std::array<std::uint32_t, 3> attr) {
  Call c;
  c.op = op;
  c.t[kIndices].type = DataType::INT32;
  c.t[kInput].sizes = std::move(in);
  c.t[kIndices].sizes = std::move(idx);
  c.t[kUpdates].sizes = std::move(upd);
  c.t[kOutput].sizes = std::move(out);
  for (int k = 0; k < 3; ++k) c.attr[k] = attr[static_cast<std::size_t>(k)];
  return c;
}

/// A small valid call of each operator: FLOAT32 data, INT32 indices (all 0); UpdatesTensor {1,1}
/// where unused.
Call small_call(Op op) {
  switch (op) {
    case Op::gather:  // {2,3} axis 1, P 1: indices {1,2} -> {2,2}
      return int32_call(op, {2, 3}, {1, 2}, {1, 1}, {2, 2}, {1, 1});
    case Op::gather_elements:  // {2,3} axis 1: indices {2,2} -> {2,2}
      return int32_call(op, {2, 3}, {2, 2}, {1, 1}, {2, 2}, {1});
    case Op::scatter:  // {2,3} axis 1: indices, updates {2,2}
      return int32_call(op, {2, 3}, {2, 2}, {2, 2}, {2, 3}, {1});
    case Op::gather_nd:   // r 2, q 2: {2,3} x {2,1} -> {2,3}
    case Op::gather_nd1:  // the same with B 0
      return int32_call(op, {2, 3}, {2, 1}, {1, 1}, {2, 3}, {2, 2});
    case Op::scatter_nd:  // updates {2,3}, output {2,3}
      return int32_call(op, {2, 3}, {2, 1}, {2, 3}, {2, 3}, {2, 2});
  }
  return {};
}

TEST(BadInputsTotalBytes, AboveInt64MaxIsAnOverflowForEveryTensorOfEveryOperator) {
  const std::uint64_t totals[] = {std::uint64_t{1} << 63, (std::uint64_t{1} << 63) + 1, ~std::uint64_t{0}};
  auto zeros = [](guarded::Buffer& b) { std::memset(b.bytes(), 0, b.size()); };
  for (Op op : harness::all_ops) {
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
  switch (op) {
    case Op::gather:  // axis 1, P 2: {1,3,1} x {1,2,1}: L = {1,2,1,1} -> {2,1,1}
      index_values = {2, 0};
      return int32_call(op, {1, 3, 1}, {1, 2, 1}, {1, 1, 1}, {2, 1, 1}, {1, 2});
    case Op::gather_elements:  // axis 0: {3,2,1} x {2,2,1} -> {2,2,1}
      index_values = {2, 0, 1, 2};
      return int32_call(op, {3, 2, 1}, {2, 2, 1}, {1, 1, 1}, {2, 2, 1}, {});
    case Op::gather_nd:  // r 2, q 3, K 1: {1,3,2} x {1,2,1} -> {1,2,2}
      index_values = {2, 0};
      return int32_call(op, {1, 3, 2}, {1, 2, 1}, {1, 1, 1}, {1, 2, 2}, {2, 3});
    case Op::gather_nd1:  // r 3, q 3, B 1, K 1: {2,3,1} x {2,1,1} -> {2,1,1}
      index_values = {2, 0};
      return int32_call(op, {2, 3, 1}, {2, 1, 1}, {1, 1, 1}, {2, 1, 1}, {3, 3, 1});
    case Op::scatter:  // axis 0: {3,2,1}, indices and updates {2,2,1}
      index_values = {2, 0, 1, 2};
      return int32_call(op, {3, 2, 1}, {2, 2, 1}, {2, 2, 1}, {3, 2, 1}, {});
    case Op::scatter_nd:  // r 2, q 3, K 1: {1,3,2}, indices {1,2,1}, updates {1,2,2}
      index_values = {2, 0};
      return int32_call(op, {1, 3, 2}, {1, 2, 1}, {1, 2, 2}, {1, 3, 2}, {2, 3});
  }
  return {};
}

Sizes packed_strides(const Sizes& sizes) {
  Sizes s(sizes.size(), 1);
  for (std::size_t d = sizes.size() - 1; d-- > 0;) s[d] = s[d + 1] * sizes[d + 1];
  return s;
}

/// `base` (valid with `in_range` as its index values) with each size-1 dimension of each tensor
/// given each of the huge strides must equal `base` packed: under every policy, and under the clamp
/// policy also with every index value out of range (the clamping walk steps on its own).
void expect_any_stride_on_size_one_dimensions(const Call& base, const std::vector<std::int32_t>& in_range) {
  const std::int64_t strides[] = {kInt64Max, kInt64Max - 1, p2(62) + 1, p2(62), p2(32)};
  struct Mode {
    dmlref::IndexPolicy policy;
    bool out_of_range;
    const char* name;
  };
  const Mode modes[] = {{dmlref::IndexPolicy::error, false, ""},
                        {dmlref::IndexPolicy::clamp, false, " (clamp)"},
                        {dmlref::IndexPolicy::clamp, true, " (clamp, every value out of range)"}};
  for (const Mode& mode : modes) {
    std::vector<std::int32_t> values = in_range;
    if (mode.out_of_range)
      for (std::int32_t& v : values) v = 1000 + v;
    auto write = [&](guarded::Buffer& idx) {
      std::memset(idx.bytes(), 0, idx.size());
      std::memcpy(idx.bytes(), values.data(), values.size() * sizeof(std::int32_t));
    };
    Call packed = base;
    packed.options.index_policy = mode.policy;
    const Bound expected = run(packed, write);
    ASSERT_TRUE(expected.status.ok()) << op_name(base.op) << mode.name << ": " << describe(expected.status);
    for (Role role : {kInput, kIndices, kUpdates, kOutput}) {
      if (role == kUpdates && !is_scatter(base.op)) continue;
      for (std::size_t d = 0; d < base.t[role].sizes.size(); ++d) {
        if (base.t[role].sizes[d] != 1) continue;
        for (std::int64_t stride : strides) {
          SCOPED_TRACE(std::string(op_name(base.op)) + " " + kRoleNames[role] + ".Strides[" + std::to_string(d) +
                       "] = " + std::to_string(stride) + mode.name);
          Call c = packed;
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

TEST(BadInputsOverflowSafety, SizeOneDimensionsMayHaveAnyStride) {
  for (Op op : harness::all_ops) {
    std::vector<std::int32_t> values;
    const Call base = size_one_call(op, values);
    expect_any_stride_on_size_one_dimensions(base, values);
  }
}

// The dimension that the indices address has size 1 too, for every operator: every value is 0 (or
// -1), or clamps to 0.
TEST(BadInputsOverflowSafety, AnIndexedDimensionOfSizeOneMayHaveAnyStride) {
  // GatherElements, axis 0: {1,1} x {2,1} -> {2,1}
  expect_any_stride_on_size_one_dimensions(int32_call(Op::gather_elements, {1, 1}, {2, 1}, {}, {2, 1}, {}), {0, -1});
  // Scatter, axis 1: {2,1} with indices and updates {2,1}
  expect_any_stride_on_size_one_dimensions(int32_call(Op::scatter, {2, 1}, {2, 1}, {2, 1}, {2, 1}, {1}), {0, -1});
  // Gather, axis 1, P 2: {1,1,1} x {1,2,1} -> {2,1,1}
  expect_any_stride_on_size_one_dimensions(int32_call(Op::gather, {1, 1, 1}, {1, 2, 1}, {}, {2, 1, 1}, {1, 2}),
                                           {0, -1});
  // GatherND, r 2, q 3, K 1: {1,1,2} x {1,2,1} -> {1,2,2}
  expect_any_stride_on_size_one_dimensions(int32_call(Op::gather_nd, {1, 1, 2}, {1, 2, 1}, {}, {1, 2, 2}, {2, 3}),
                                           {0, -1});
  // GatherND1, r 3, q 3, B 1, K 1: {2,1,1} x {2,1,1} -> {2,1,1}
  expect_any_stride_on_size_one_dimensions(
      int32_call(Op::gather_nd1, {2, 1, 1}, {2, 1, 1}, {}, {2, 1, 1}, {3, 3, 1}), {0, -1});
  // ScatterND, r 2, q 3, K 1: {1,1,2}, indices {1,2,1}, updates {1,2,2} (both rows write row 0: the
  // last wins, packed or not)
  expect_any_stride_on_size_one_dimensions(
      int32_call(Op::scatter_nd, {1, 1, 2}, {1, 2, 1}, {1, 2, 2}, {1, 1, 2}, {2, 3}), {0, -1});
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
  switch (op) {
    case Op::gather:  // {1, n} axis 1 (innermost), P 1: indices {1, 3} -> {1, 3}
    case Op::gather_elements:  // {1, n} axis 1: indices {1, 3} -> {1, 3}
      c = int32_call(op, {1, n}, {1, 3}, {1}, {1, 3}, {1, 1});
      break;
    case Op::gather_nd:  // r 1, q 2: input {1, n}, indices {3, 1} (three 1-tuples) -> {1, 3}
      c = int32_call(op, {1, n}, {3, 1}, {1}, {1, 3}, {1, 2});
      break;
    case Op::gather_nd1:  // r 2, q 3, B 1: input {1, 1, n}, indices {1, 3, 1} -> {1, 1, 3}
      c = int32_call(op, {1, 1, n}, {1, 3, 1}, {1}, {1, 1, 3}, {2, 3, 1});
      break;
    case Op::scatter:
    case Op::scatter_nd: c.op = op; break;
  }
  c.t[kInput].type = c.t[kOutput].type = data;
  c.t[kIndices].type = index;
  c.t[kInput].strides = Sizes(c.t[kInput].sizes.size(), 0);
  c.t[kInput].buffer_bytes = dmlref::element_size(data);
  return c;
}

TEST(BadInputsOverflowSafety, HugeBroadcastDimensionAddressedAtItsEdges) {
  const Op kGathers[] = {Op::gather, Op::gather_elements, Op::gather_nd, Op::gather_nd1};
  for (Op op : kGathers)
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

}  // namespace bad_inputs

}  // namespace
