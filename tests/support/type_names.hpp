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

/// The four index types, for typed tests over them.
using IndexTypes = ::testing::Types<std::int32_t, std::int64_t, std::uint32_t, std::uint64_t>;

/// Calls f(I{}) for each of the four index types, for a test that runs one check over all of them.
template <class F>
void for_each_index_type(F&& f) {
  f(std::int32_t{});
  f(std::int64_t{});
  f(std::uint32_t{});
  f(std::uint64_t{});
}
