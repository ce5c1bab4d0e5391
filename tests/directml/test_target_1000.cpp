// <dmlref/directml.hpp> against DirectML.h at DML_TARGET_VERSION 0x1000, which declares GATHER and
// no scatter, no ND operator and no DML_FEATURE_LEVEL: the header compiles, runs the GATHER it has
// and refuses the types the header lacks. (This file's try_execute lives in its own namespace,
// dmlref::directml::target_0x1000, so it shares the program with the 0x6400 one.)
#define DML_TARGET_VERSION 0x1000
#include <DirectML.h>

#include <gtest/gtest.h>

#include <cstdint>

#include "dmlref/directml.hpp"
#include "directml/target_call.hpp"

namespace {

TEST(DirectMLTargetVersion, At0x1000GatherRunsAndLaterOperatorsAreUnsupported) {
  TargetCall call;
  const DML_GATHER_OPERATOR_DESC gather{&call.t_in, &call.t_idx, &call.t_out, 2, 1};
  DML_OPERATOR_DESC desc{DML_OPERATOR_GATHER, &gather};
  dmlref::Options options;
  options.feature_level = dmlref::feature_level::v1_0;
  call.expect_row_one(dmlref::directml::try_execute(desc, call.bindings, options));
  // DML_OPERATOR_SCATTER (94) and DML_OPERATOR_GATHER_ND1 (140) are not declared at 0x1000.
  for (std::uint32_t type : {94u, 107u, 108u, 109u, 140u}) {
    SCOPED_TRACE(type);
    call.retype(desc, type);
    call.expect_unsupported(dmlref::directml::try_execute(desc, call.bindings, options));
  }
}

}  // namespace
