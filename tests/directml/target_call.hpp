// The call both DML_TARGET_VERSION tests (test_target_*.cpp) run through the operator their
// header version declares: FLOAT32 input {1,1,2,2} = 1..4, one UINT32 index 1, output {1,1,1,2}.
// Picking row 1 writes {3, 4}. Include it after <DirectML.h>, which the including file configures.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "dmlref/directml.hpp"

namespace {

struct TargetCall {
  const UINT in_sizes[4] = {1, 1, 2, 2}, idx_sizes[4] = {1, 1, 1, 1}, out_sizes[4] = {1, 1, 1, 2};
  alignas(16) float input[4] = {1, 2, 3, 4};
  alignas(16) std::uint32_t index[1] = {1};
  alignas(16) float output[2] = {};
  DML_BUFFER_TENSOR_DESC in{DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 4, in_sizes, nullptr, 16, 0};
  DML_BUFFER_TENSOR_DESC idx{DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_FLAG_NONE, 4, idx_sizes, nullptr, 4, 0};
  DML_BUFFER_TENSOR_DESC out{DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 4, out_sizes, nullptr, 8, 0};
  const DML_TENSOR_DESC t_in{DML_TENSOR_TYPE_BUFFER, &in}, t_idx{DML_TENSOR_TYPE_BUFFER, &idx},
      t_out{DML_TENSOR_TYPE_BUFFER, &out};
  const dmlref::directml::Bindings bindings{{{input, 0, sizeof input}, {index, 0, sizeof index}, {}},
                                            {output, 0, sizeof output}};

  /// The call succeeded and picked row 1.
  void expect_row_one(const dmlref::Status& s) const {
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(output[0], 3.0f);
    EXPECT_EQ(output[1], 4.0f);
  }
  /// Sets desc.Type to `type` (one this header version does not declare) and clears the output.
  void retype(DML_OPERATOR_DESC& desc, std::uint32_t type) {
    output[0] = output[1] = 0;
    std::memcpy(&desc.Type, &type, sizeof type);
  }
  /// The call was refused as unsupported and wrote nothing.
  void expect_unsupported(const dmlref::Status& s) const {
    EXPECT_EQ(s.code(), dmlref::ErrorCode::unsupported) << s.message();
    EXPECT_EQ(output[0], 0.0f);
  }

  TargetCall() = default;
  TargetCall(const TargetCall&) = delete;  // the descriptors point into this object
  TargetCall& operator=(const TargetCall&) = delete;
};

}  // namespace
