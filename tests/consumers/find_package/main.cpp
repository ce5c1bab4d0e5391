// Uses an installed dmlref through find_package(dmlref): runs a Gather and checks the result.
#include <dmlref/dmlref.hpp>

#include <cstdint>
#include <cstdio>

static_assert(DMLREF_VERSION_MAJOR == PACKAGE_VERSION_MAJOR &&
                  DMLREF_VERSION_MINOR == PACKAGE_VERSION_MINOR &&
                  DMLREF_VERSION_PATCH == PACKAGE_VERSION_PATCH,
              "dmlref/version.hpp and dmlrefConfigVersion.cmake disagree");

int main() {
  const float input[] = {11, 12, 13, 14};
  const std::int64_t indices[] = {3, 1, -1, 0, 2};
  float output[5] = {};
  const dmlref::Status status = dmlref::try_gather(
      dmlref::TensorView<const float>(input, {4}), dmlref::TensorView<const std::int64_t>(indices, {5}),
      dmlref::TensorView<float>(output, {5}), dmlref::GatherParams{0, 1});
  const float expected[] = {14, 12, 14, 11, 13};
  bool good = status.ok();
  for (int i = 0; i < 5; ++i) good = good && output[i] == expected[i];
  std::printf("dmlref %d.%d.%d via find_package: gather %s\n", DMLREF_VERSION_MAJOR,
              DMLREF_VERSION_MINOR, DMLREF_VERSION_PATCH, good ? "ok" : "WRONG");
  if (!status.ok()) std::printf("%s\n", status.message().c_str());
  return good ? 0 : 1;
}
