// The type grid of an operator (ops/test_<op>.cpp): every one of the 11 data types (typed layer
// with the real C++ type: float, dmlref::float16, double, int8_t ... uint64_t; and the dispatch
// layer) x all 4 index types, DimensionCount 1 to 8 with leading 1s, negative indices (signed
// types), the index boundaries -n and n-1 (0 and n-1 unsigned), and views that are not packed:
// padded row pitch with a strided innermost dimension, transposed (column-major) tensors,
// zero-stride (broadcast) inputs, strided indices, strided outputs, in-place scatters.
//
// The data are the type's special bit patterns (NaN payloads 0x7FC12345, signalling 0x7F800001,
// float16 0x7C01, -0.0, denormals, infinities, INT64_MIN, UINT64_MAX, ...) interleaved with
// distinct patterns; every copy must be bit-exact. Expected outputs are built from the operator's
// definition (type_grid.cpp), and the oracle must agree with them.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

#include "dmlref/float16.hpp"
#include "support/op.hpp"
#include "support/random_cases.hpp"
#include "support/type_names.hpp"

namespace type_grid {

namespace rc = random_cases;
using harness::Op;

/// The typed tests' parameters: the C++ type of every data type.
using AllDataTypes = ::testing::Types<float, dmlref::float16, double, std::int8_t, std::int16_t, std::int32_t,
                                      std::int64_t, std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t>;

template <class T>
constexpr rc::DType dtype_of() {
  if constexpr (std::is_same_v<T, float>) return rc::DType::FLOAT32;
  else if constexpr (std::is_same_v<T, dmlref::float16>) return rc::DType::FLOAT16;
  else if constexpr (std::is_same_v<T, double>) return rc::DType::FLOAT64;
  else if constexpr (std::is_same_v<T, std::int8_t>) return rc::DType::INT8;
  else if constexpr (std::is_same_v<T, std::int16_t>) return rc::DType::INT16;
  else if constexpr (std::is_same_v<T, std::int32_t>) return rc::DType::INT32;
  else if constexpr (std::is_same_v<T, std::int64_t>) return rc::DType::INT64;
  else if constexpr (std::is_same_v<T, std::uint8_t>) return rc::DType::UINT8;
  else if constexpr (std::is_same_v<T, std::uint16_t>) return rc::DType::UINT16;
  else if constexpr (std::is_same_v<T, std::uint32_t>) return rc::DType::UINT32;
  else return rc::DType::UINT64;
}

/// Every index type, DimensionCount 1 to 8 and every layout family, on data type t: each case
/// must equal its construction on both layers, and the oracle too.
void check_layouts(Op op, rc::DType t);

/// Out-of-range values just past each boundary and at the index type's extremes: the default
/// policy must fail (index_out_of_range, nothing written); the clamp policy must land them on
/// 0 or n-1. UINT32 0xFFFFFFFF and UINT64 values >= 2^63 are huge, never -1.
void check_index_extremes(Op op, rc::DType t);

}  // namespace type_grid

/// The type grid of operator `op` as the typed tests <Suite>/<DATA TYPE>.EveryIndexTypeRankAndLayout
/// and <Suite>/<DATA TYPE>.IndexExtremesFailOrClamp.
#define DMLREF_TYPE_GRID_TESTS(Suite, op)                                                           \
  template <class T>                                                                                \
  class Suite : public ::testing::Test {};                                                          \
  TYPED_TEST_SUITE(Suite, type_grid::AllDataTypes, DataTypeNames);                                  \
  TYPED_TEST(Suite, EveryIndexTypeRankAndLayout) {                                                  \
    type_grid::check_layouts(op, type_grid::dtype_of<TypeParam>());                                 \
  }                                                                                                 \
  TYPED_TEST(Suite, IndexExtremesFailOrClamp) {                                                     \
    type_grid::check_index_extremes(op, type_grid::dtype_of<TypeParam>());                          \
  }                                                                                                 \
  static_assert(true, "a macro ends with a semicolon")
