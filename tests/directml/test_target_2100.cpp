// <dmlref/directml.hpp> against DirectML.h at DML_TARGET_VERSION 0x2100: GATHER_ELEMENTS, GATHER_ND,
// SCATTER and SCATTER_ND are declared and run; GATHER_ND1 (0x3000) is not, and is unsupported.
#define DML_TARGET_VERSION 0x2100
#include <DirectML.h>

#include <gtest/gtest.h>

#include "dmlref/directml.hpp"
#include "directml/target_call.hpp"

namespace {

TEST(DirectMLTargetVersion, At0x2100GatherNDRunsAndGatherND1IsUnsupported) {
  TargetCall call;
  // GatherND with r = 2, q = 1: the index tuple (1) picks row 1.
  const DML_GATHER_ND_OPERATOR_DESC gather_nd{&call.t_in, &call.t_idx, &call.t_out, 2, 1};
  DML_OPERATOR_DESC desc{DML_OPERATOR_GATHER_ND, &gather_nd};
  call.expect_row_one(dmlref::directml::try_execute(desc, call.bindings, DML_FEATURE_LEVEL_2_1));
  call.retype(desc, 140);  // DML_OPERATOR_GATHER_ND1: not declared at this version
  call.expect_unsupported(dmlref::directml::try_execute(desc, call.bindings));
}

}  // namespace
