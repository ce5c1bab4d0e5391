// <dmlref/directml.hpp> against DirectML.h at DML_TARGET_VERSION 0x1000, which declares GATHER and
// no scatter, no ND operator and no DML_FEATURE_LEVEL: the header compiles, runs the GATHER it has
// and refuses the types the header lacks. (This file's try_execute lives in its own namespace,
// dmlref::directml::target_0x1000, so it shares the program with the 0x6400 one.)
#define DML_TARGET_VERSION 0x1000
#include <DirectML.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "dmlref/directml.hpp"

namespace {

TEST(DirectMLTargetVersion, At0x1000GatherRunsAndLaterOperatorsAreUnsupported) {
  const UINT in_sizes[4] = {1, 1, 2, 2}, idx_sizes[4] = {1, 1, 1, 1}, out_sizes[4] = {1, 1, 1, 2};
  alignas(16) float input[4] = {1, 2, 3, 4};
  alignas(16) std::uint32_t index[1] = {1};
  alignas(16) float output[2] = {};
  DML_BUFFER_TENSOR_DESC in{DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 4, in_sizes, nullptr, 16, 0};
  DML_BUFFER_TENSOR_DESC idx{DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_FLAG_NONE, 4, idx_sizes, nullptr, 4, 0};
  DML_BUFFER_TENSOR_DESC out{DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 4, out_sizes, nullptr, 8, 0};
  const DML_TENSOR_DESC t_in{DML_TENSOR_TYPE_BUFFER, &in}, t_idx{DML_TENSOR_TYPE_BUFFER, &idx},
      t_out{DML_TENSOR_TYPE_BUFFER, &out};
  const DML_GATHER_OPERATOR_DESC gather{&t_in, &t_idx, &t_out, 2, 1};
  DML_OPERATOR_DESC desc{DML_OPERATOR_GATHER, &gather};
  const dmlref::directml::Bindings bindings{{{input, 0, sizeof input}, {index, 0, sizeof index}, {}},
                                            {output, 0, sizeof output}};
  dmlref::Options options;
  options.feature_level = dmlref::feature_level::v1_0;
  ASSERT_TRUE(dmlref::directml::try_execute(desc, bindings, options).ok());
  EXPECT_EQ(output[0], 3.0f);
  EXPECT_EQ(output[1], 4.0f);
  // DML_OPERATOR_SCATTER (94) and DML_OPERATOR_GATHER_ND1 (140) are not declared at 0x1000.
  for (std::uint32_t type : {94u, 107u, 108u, 109u, 140u}) {
    output[0] = output[1] = 0;
    std::memcpy(&desc.Type, &type, sizeof type);  // not declared at this version
    const dmlref::Status s = dmlref::directml::try_execute(desc, bindings, options);
    EXPECT_EQ(s.code(), dmlref::ErrorCode::unsupported) << type << ": " << s.message();
    EXPECT_EQ(output[0], 0.0f);
  }
}

}  // namespace
