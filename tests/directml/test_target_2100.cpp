// <dmlref/directml.hpp> against DirectML.h at DML_TARGET_VERSION 0x2100: GATHER_ELEMENTS, GATHER_ND,
// SCATTER and SCATTER_ND are declared and run; GATHER_ND1 (0x3000) is not, and is unsupported.
#define DML_TARGET_VERSION 0x2100
#include <DirectML.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "dmlref/directml.hpp"

namespace {

TEST(DirectMLTargetVersion, At0x2100GatherNDRunsAndGatherND1IsUnsupported) {
  const UINT in_sizes[4] = {1, 1, 2, 2}, idx_sizes[4] = {1, 1, 1, 1}, out_sizes[4] = {1, 1, 1, 2};
  alignas(16) float input[4] = {1, 2, 3, 4};
  alignas(16) std::uint32_t index[1] = {1};
  alignas(16) float output[2] = {};
  DML_BUFFER_TENSOR_DESC in{DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 4, in_sizes, nullptr, 16, 0};
  DML_BUFFER_TENSOR_DESC idx{DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_FLAG_NONE, 4, idx_sizes, nullptr, 4, 0};
  DML_BUFFER_TENSOR_DESC out{DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 4, out_sizes, nullptr, 8, 0};
  const DML_TENSOR_DESC t_in{DML_TENSOR_TYPE_BUFFER, &in}, t_idx{DML_TENSOR_TYPE_BUFFER, &idx},
      t_out{DML_TENSOR_TYPE_BUFFER, &out};
  // GatherND with r = 2, q = 1: the index tuple (1) picks row 1.
  const DML_GATHER_ND_OPERATOR_DESC gather_nd{&t_in, &t_idx, &t_out, 2, 1};
  DML_OPERATOR_DESC desc{DML_OPERATOR_GATHER_ND, &gather_nd};
  const dmlref::directml::Bindings bindings{{{input, 0, sizeof input}, {index, 0, sizeof index}, {}},
                                            {output, 0, sizeof output}};
  ASSERT_TRUE(dmlref::directml::try_execute(desc, bindings, DML_FEATURE_LEVEL_2_1).ok());
  EXPECT_EQ(output[0], 3.0f);
  EXPECT_EQ(output[1], 4.0f);
  output[0] = output[1] = 0;
  const std::uint32_t gather_nd1 = 140;  // not declared at this version
  std::memcpy(&desc.Type, &gather_nd1, sizeof gather_nd1);
  const dmlref::Status s = dmlref::directml::try_execute(desc, bindings);
  EXPECT_EQ(s.code(), dmlref::ErrorCode::unsupported) << s.message();
  EXPECT_EQ(output[0], 0.0f);
}

}  // namespace
