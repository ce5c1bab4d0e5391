// Names typed tests by their element type ("FLOAT32", "INT64"): TYPED_TEST_SUITE's third
// argument, which clang's -Wpedantic also requires.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include <dmlref/dmlref.hpp>

struct DataTypeNames {
  template <class T>
  static std::string GetName(int) {
    return dmlref::name(dmlref::data_type_v<T>);
  }
};

/// One element type of each width (1, 2, 4 and 8 bytes), for the kernels' typed tests.
using ElementWidths = ::testing::Types<std::uint8_t, dmlref::float16, float, double>;
