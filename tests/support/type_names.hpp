// Names typed tests by their element type ("FLOAT32", "INT64"): TYPED_TEST_SUITE's third
// argument, which clang's -Wpedantic also requires.
#pragma once

#include <string>

#include <dmlref/dmlref.hpp>

struct DataTypeNames {
  template <class T>
  static std::string GetName(int) {
    return dmlref::name(dmlref::data_type_v<T>);
  }
};
