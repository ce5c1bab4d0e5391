// The Gather every find_package consumer runs and checks: a 4-element input, a negative index.
#ifndef CONSUMER_GATHER_CHECK_HPP
#define CONSUMER_GATHER_CHECK_HPP

#include <dmlref/dmlref.hpp>

#include <cstdint>

/// Runs the Gather; true when it succeeded with the expected output.
inline bool gather_works(dmlref::Status& status) {
  const float input[] = {11, 12, 13, 14};
  const std::int64_t indices[] = {3, 1, -1, 0, 2};
  float output[5] = {};
  status = dmlref::try_gather(dmlref::TensorView<const float>(input, {4}),
                              dmlref::TensorView<const std::int64_t>(indices, {5}),
                              dmlref::TensorView<float>(output, {5}), dmlref::GatherParams{0, 1});
  const float expected[] = {14, 12, 14, 11, 13};
  bool good = status.ok();
  for (int i = 0; i < 5; ++i) good = good && output[i] == expected[i];
  return good;
}

#endif
